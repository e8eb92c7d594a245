//! The shared testkit: conformance (golden files, unknown keys, tolerance), the agreement test
//! against the Cursor fake agent, and fake-agent verdicts through the runner.

use agenthooks_core::decision::{
    accept_prompt, allow, ask_user, block_prompt, continue_with, deny, no_decision, replace_output, rewrite_input,
    PromptDecision, ToolPreDecision,
};
use agenthooks_core::{Context, HandlerError, PromptEvent, Router, StopEvent, ToolPostEvent, ToolPreEvent};
use agenthooks_cursor::CODEC;
use agenthooks_testkit::fake::Cursor;
use agenthooks_testkit::harness::{assert_tool_pre_failure_policy, continue_once};
use agenthooks_testkit::{agreement, conformance, fixtures_dir, invoke, Effect, FakeAgent, HookOutput, HookRun};
use serde_json::json;

use crate::support::CORPUS;

/// The fake agent's run of a router answering every tool.pre with `decision`, on `payload`.
fn answer_pre(decision: ToolPreDecision, payload: &[u8]) -> HookRun {
    let router =
        Router::new().on_tool_pre(move |_: &Context, _: &ToolPreEvent| Ok::<_, HandlerError>(decision.clone()));
    invoke(&router, &CODEC, payload, None)
}

/// The fake agent's run of a router answering every prompt with `decision`, on `payload`.
fn answer_prompt(decision: PromptDecision, payload: &[u8]) -> HookRun {
    let router =
        Router::new().on_prompt_submitted(move |_: &Context, _: &PromptEvent| Ok::<_, HandlerError>(decision.clone()));
    invoke(&router, &CODEC, payload, None)
}

#[test]
#[allow(clippy::print_stderr)] // the counts, for `--nocapture` runs
fn conformance_suite() {
    let report = conformance::Suite::new(&CODEC, fixtures_dir("cursor"))
        .min_fixtures(45)
        .run_full()
        .at_least(150, 45 * 8);
    eprintln!("{report}");
}

#[test]
#[allow(clippy::print_stderr)] // the counts, for `--nocapture` runs
fn agreement_with_the_fake_agent() {
    let report = agreement::check(&CODEC, Some(&fixtures_dir("cursor")));
    report.assert_agrees(100);
    eprintln!("agreement: {} cases", report.cases.len());
}

#[test]
fn fake_agent_verdicts_on_the_gates() {
    let pre = &CORPUS.case("docs/pre_tool_use").input;
    let r = answer_pre(deny("no rm -rf"), pre);
    r.assert_denied("no rm -rf").assert_well_behaved();
    // Ask is not enforced on preToolUse: degraded per ask_fallback (deny by default).
    let r = answer_pre(ask_user("sure?"), pre);
    assert!(matches!(r.verdict().effect, Effect::Denied { .. }), "{}", r.verdict());
    // On beforeShellExecution ask is real.
    let shell = &CORPUS.case("docs/before_shell_execution").input;
    let r = answer_pre(ask_user("sure?"), shell);
    assert_eq!(r.verdict().effect, Effect::Asked { reason: "sure?".into() });
    // A rewrite without a verdict applies on preToolUse (#606).
    let r = invoke(
        &Router::new().on_tool_pre(|_: &Context, e: &ToolPreEvent| {
            let mut i = e.tool.input().clone();
            i.insert("command".into(), json!("rm -rf build/tmp"));
            Ok::<_, HandlerError>(rewrite_input(i).no_decision())
        }),
        &CODEC,
        pre,
        None,
    );
    assert_eq!(
        r.verdict().input_rewritten.as_ref().and_then(|m| m.get("command")),
        Some(&json!("rm -rf build/tmp"))
    );
    let r = answer_pre(allow(), &CORPUS.case("docs/before_read_file").input);
    r.assert_allowed().assert_well_behaved();
    invoke(&Router::new(), &CODEC, pre, None).assert_no_op();
}

#[test]
fn fake_agent_verdicts_on_prompt_stop_and_post() {
    let prompt = &CORPUS.case("docs/before_submit_prompt").input;
    let r = answer_prompt(block_prompt("No secrets."), prompt);
    r.assert_denied("No secrets.");
    let r = answer_prompt(accept_prompt().with_context("Today is Monday."), prompt);
    r.assert_context("Today is Monday.").assert_well_behaved();
    let stop = &CORPUS.case("docs/stop").input;
    let r = invoke(&continue_once("Run the tests first."), &CODEC, stop, None);
    r.assert_continued("Run the tests first.");
    // loop_count > 0: the handler sees the agent already continued (#19).
    let r = invoke(
        &Router::new().on_stop(|_: &Context, e: &StopEvent| {
            assert_eq!(e.continuation_count, Some(2));
            Ok::<_, HandlerError>(if e.previously_continued {
                agenthooks_core::decision::finish()
            } else {
                continue_with("again")
            })
        }),
        &CODEC,
        &CORPUS.case("docs/stop-loop").input,
        None,
    );
    r.assert_no_op();
    let mcp = &CORPUS.case("docs/post_tool_use-mcp").input;
    let r = invoke(
        &Router::new()
            .on_tool_post(|_: &Context, _: &ToolPostEvent| Ok::<_, HandlerError>(replace_output("[redacted]"))),
        &CODEC,
        mcp,
        None,
    );
    assert_eq!(
        r.verdict().effect,
        Effect::OutputReplaced {
            output: json!("[redacted]")
        }
    );
}

#[test]
fn fake_agent_verdicts_on_failures() {
    let pre = &CORPUS.case("docs/pre_tool_use").input;
    // Fail-open: the agent's own flow runs; fail-closed: the agent denies the call.
    assert_tool_pre_failure_policy(&CODEC, pre);
    // A crash of the binary: Cursor proceeds unless the entry sets failClosed (#7).
    let crash = HookOutput::new(101, "", "thread 'main' panicked");
    assert_eq!(
        Cursor::new().interpret("preToolUse", pre, &crash).effect,
        Effect::Proceed
    );
    assert!(matches!(
        Cursor::fail_closed().interpret("preToolUse", pre, &crash).effect,
        Effect::Denied { .. }
    ));
    let _ = no_decision();
}

/// MCP attribution over `fixtures/cursor/mcp/` (project over global, interpolation, the
/// payload's server info winning, `MCP:<tool>` with one server, a malformed file).
#[test]
fn mcp_calls_resolve_from_mcp_json() {
    agenthooks_testkit::mcp::assert_corpus(&agenthooks_cursor::CODEC, "cursor");
}
