//! The shared testkit: the conformance suite (golden `event.json` and `responses/*.json`,
//! unknown keys), the can't-drift agreement test, and fake-agent verdicts through the runner.

use agenthooks_claude::CODEC;
use agenthooks_core::decision::{accept_prompt, allow, ask_user, block_prompt, deny, no_decision, rewrite_input};
use agenthooks_core::{Context, HandlerError, PromptEvent, Router, ToolPreEvent};
use agenthooks_testkit::harness::{assert_tool_pre_failure_policy, continue_once};
use agenthooks_testkit::{agreement, conformance, fixtures_dir, invoke, Effect};
use serde_json::{json, Map, Value};

use crate::support::CORPUS;

#[test]
fn conformance_suite() {
    let _ = conformance::Suite::new(&CODEC, fixtures_dir("claude-code"))
        .min_fixtures(80)
        .run_full()
        .at_least(300, 80 * 8);
}

#[test]
fn agreement_with_the_fake_agent() {
    agreement::check(&CODEC, Some(&fixtures_dir("claude-code"))).assert_agrees(150);
}

fn input(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

#[test]
fn fake_agent_verdicts_on_the_captured_pre_tool_use() {
    let payload = &CORPUS.case("2.1.197/pre_tool_use-deny-json").input;
    let run = |r: Router| invoke(&r, &CODEC, payload, Some("PreToolUse"));

    let r = run(Router::new()
        .on_tool_pre(|_: &Context, _: &ToolPreEvent| Ok::<_, HandlerError>(deny("blocked by agenthooks probe"))));
    r.assert_denied("blocked by agenthooks probe").assert_well_behaved();

    let r = run(Router::new().on_tool_pre(|_: &Context, _: &ToolPreEvent| Ok::<_, HandlerError>(allow())));
    r.assert_allowed().assert_well_behaved();

    let r =
        run(Router::new()
            .on_tool_pre(|_: &Context, _: &ToolPreEvent| Ok::<_, HandlerError>(ask_user("Write marker.txt?"))));
    assert_eq!(
        r.verdict().effect,
        Effect::Asked {
            reason: "Write marker.txt?".into()
        }
    );

    let r = run(Router::new().on_tool_pre(|_: &Context, e: &ToolPreEvent| {
        let mut i = e.tool.input().clone();
        i.insert("command".into(), json!("echo hi > /tmp/e2e/proj/marker.txt"));
        Ok::<_, HandlerError>(rewrite_input(i).allow())
    }));
    let v = r.verdict();
    assert_eq!(v.effect, Effect::Allowed);
    assert_eq!(
        v.input_rewritten,
        Some(input(
            json!({"command": "echo hi > /tmp/e2e/proj/marker.txt", "description": "write marker file"})
        ))
    );

    let r = run(Router::new().on_tool_pre(|_: &Context, _: &ToolPreEvent| {
        Ok::<_, HandlerError>(no_decision().with_context("marker.txt is scratch space"))
    }));
    r.assert_context("marker.txt is scratch space").assert_well_behaved();
    assert_eq!(r.verdict().effect, Effect::Proceed);

    let r = run(Router::new()
        .on_tool_pre(|_: &Context, _: &ToolPreEvent| Ok::<_, HandlerError>(allow().stop_agent("Budget exhausted"))));
    assert_eq!(r.verdict().agent_stopped.as_deref(), Some("Budget exhausted"));

    // No handler: the explicit no-op, never an allow (#17).
    run(Router::new()).assert_no_op();
}

#[test]
fn fake_agent_verdicts_on_prompt_and_stop() {
    let prompt = &CORPUS.case("2.1.197/user_prompt_submit-allow").input;
    let r = invoke(
        &Router::new().on_prompt_submitted(|_: &Context, _: &PromptEvent| {
            Ok::<_, HandlerError>(accept_prompt().with_context("Today is Monday."))
        }),
        &CODEC,
        prompt,
        None,
    );
    r.assert_context("Today is Monday.").assert_well_behaved();
    let r = invoke(
        &Router::new().on_prompt_submitted(|_: &Context, _: &PromptEvent| {
            Ok::<_, HandlerError>(block_prompt("No secrets, please."))
        }),
        &CODEC,
        prompt,
        None,
    );
    r.assert_denied("No secrets, please.");

    let stop = &CORPUS.case("2.1.197/stop-allow").input;
    let r = invoke(&continue_once("Run the tests first."), &CODEC, stop, None);
    r.assert_continued("Run the tests first.");
    // The loop guard: after a continuation the handler finishes (#19).
    let guarded = &CORPUS.case("docs/stop-loop-guard").input;
    let r = invoke(&continue_once("again"), &CODEC, guarded, None);
    r.assert_no_op();
}

#[test]
fn fake_agent_verdicts_on_failures() {
    let payload = &CORPUS.case("2.1.197/pre_tool_use-allow").input;
    // Fail-open: the agent's own flow runs; fail-closed: the agent denies the call.
    assert_tool_pre_failure_policy(&CODEC, payload);
}
