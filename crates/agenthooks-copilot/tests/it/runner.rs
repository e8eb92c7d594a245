//! The codec under the real runner: decisions, failures and the continuation cap end to end.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use agenthooks_copilot::CODEC;
use agenthooks_core::decision::{
    accept_prompt, ask_user, continue_with, deny, no_decision, PromptDecision, StopDecision, ToolPreDecision,
};
use agenthooks_core::{
    CanonicalTool, Confidence, Context, HandlerError, Invocation, PermissionEvent, Policy, PromptEvent, Router,
    StopEvent, ToolPreEvent,
};
use agenthooks_runtime::{RunOptions, Runner};

use crate::fixtures;

fn state_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "agenthooks-copilot-it-{}-{tag}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn runner(router: Router, tag: &str) -> Runner {
    let mut o = RunOptions::default();
    o.state_dir = Some(state_dir(tag));
    o.redirect_stdout = false;
    Runner::new(router, vec![&CODEC]).with_options(o)
}

fn run(r: &Runner, id: &str, argv: bool) -> agenthooks_runtime::Invoked {
    let case = fixtures::CORPUS.case(id);
    let env: HashMap<String, String> = case.env_map();
    let inv = Invocation::new(case.input.clone(), &env).with_native_event(if argv {
        fixtures::argv_event(case)
    } else {
        None
    });
    r.invoke(&CODEC, &inv, None, Confidence::Certain)
}

// Handlers return `Result` by contract.
#[allow(clippy::unnecessary_wraps)]
fn guard(_cx: &Context, e: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
    if e.tool.canonical == CanonicalTool::Shell && e.tool.command().is_some_and(|c| c.contains("marker")) {
        return Ok(deny("marker files are off limits"));
    }
    Ok(no_decision())
}

fn failing(_cx: &Context, _e: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
    Err(HandlerError::msg("policy server unreachable"))
}

fn panicking(_cx: &Context, _e: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
    panic!("bug in the hook")
}

#[test]
fn a_deny_reaches_stdout_with_exit_zero() {
    let r = runner(Router::new().on_tool_pre(guard), "deny");
    for argv in [true, false] {
        let out = run(&r, "1.0.102/pre_tool_use-deny-json", argv);
        assert_eq!(out.response.exit_code, 0);
        assert_eq!(
            out.response.stdout_str(),
            r#"{"permissionDecision":"deny","permissionDecisionReason":"marker files are off limits"}"#
        );
    }
    let out = run(&r, "docs/pre_tool_use", true);
    assert_eq!(out.response.stdout_str(), "", "view of src/cart.ts: no opinion");
}

#[test]
fn handler_errors_and_panics_follow_the_policy_but_never_the_exit_code() {
    let closed = Policy::default().fail_closed();
    for (tag, r) in [
        (
            "err",
            runner(Router::new().with_policy(closed).on_tool_pre(failing), "err"),
        ),
        (
            "panic",
            runner(Router::new().with_policy(closed).on_tool_pre(panicking), "panic"),
        ),
    ] {
        let out = run(&r, "1.0.102/pre_tool_use-allow", true);
        assert!(out.failure.is_some(), "{tag}");
        assert_eq!(
            out.response.exit_code, 0,
            "{tag}: Copilot would deny on a non-zero exit anyway, but never by accident"
        );
        let body = out.response.stdout_str();
        assert!(
            body.starts_with(r#"{"permissionDecision":"deny","permissionDecisionReason":""#) && body.ends_with(r#""}"#),
            "{tag}: {body}"
        );
    }
    let r = runner(Router::new().on_tool_pre(failing), "open");
    let out = run(&r, "1.0.102/pre_tool_use-allow", true);
    assert_eq!(
        (out.response.exit_code, out.response.stdout.len()),
        (0, 0),
        "fail open: no opinion"
    );
}

#[test]
fn an_undecodable_payload_is_answered_from_the_argv_hint() {
    let r = runner(
        Router::new()
            .with_policy(Policy::default().fail_closed())
            .on_tool_pre(guard),
        "bad",
    );
    let env: HashMap<String, String> = HashMap::new();
    let inv = Invocation::new(b"{\"toolName\":".to_vec(), &env).with_native_event(Some("preToolUse"));
    let out = r.invoke(&CODEC, &inv, None, Confidence::Certain);
    assert_eq!(out.response.exit_code, 0);
    assert!(out.response.stdout_str().contains(r#""permissionDecision":"deny""#));
}

#[test]
fn ask_on_permission_request_is_copilots_own_dialog() {
    let ask = |_cx: &Context, _e: &PermissionEvent| ask_user("confirm the marker");
    let r = runner(Router::new().on_permission(ask), "ask");
    let out = run(&r, "1.0.102/permission_request-allow", true);
    // No decision: Copilot shows its permission dialog (it has no place for the reason).
    assert_eq!(out.response.stdout_str(), "");
    assert_eq!(out.degradations.len(), 1);
}

#[test]
fn prompt_context_reaches_stdout_on_current_releases() {
    let ctx = |_cx: &Context, _e: &PromptEvent| -> Result<PromptDecision, HandlerError> {
        Ok(accept_prompt().with_context("today is Monday"))
    };
    let r = runner(Router::new().on_prompt_submitted(ctx), "prompt");
    let out = run(&r, "1.0.102/user_prompt_submitted-allow", false);
    assert_eq!(out.response.stdout_str(), r#"{"additionalContext":"today is Monday"}"#);
}

#[test]
fn the_continuation_cap_ends_loops_before_copilots_eight() {
    let again = |_cx: &Context, _e: &StopEvent| -> Result<StopDecision, HandlerError> {
        Ok(continue_with("run the tests again"))
    };
    let r = runner(Router::new().on_stop(again), "loop");
    // The first stop of a turn (stop_hook_active false) resets the count.
    let first = run(&r, "docs/agent_stop-stop-hook-active-sdk", true);
    assert!(first.response.stdout_str().contains(r#""decision":"block""#));
    let mut blocks = 1;
    for _ in 0..10 {
        let out = run(&r, "docs/agent_stop-stop-hook-active-sdk", true);
        if out.response.stdout.is_empty() {
            break;
        }
        blocks += 1;
    }
    assert_eq!(blocks, Policy::default().continuation_cap);
    assert!(blocks < 8);
}

/// Copilot before 1.0.72 sends no `stop_hook_active`: the runner keeps its counter across the
/// stops (it cannot tell a re-entry from a first stop), so a handler that always continues is
/// ended at the cap instead of looping. The fake agent re-fires the captured stop while the
/// answer continues the turn, as those releases do.
#[test]
fn releases_without_stop_hook_active_end_the_loop_at_the_cap() {
    use agenthooks_testkit::fake::{interpret, Effect, HookOutput};
    for id in ["1.0.12/agent_stop-e2e-no-decision", "1.0.67/agent_stop-e2e-no-decision"] {
        let case = fixtures::CORPUS.case(id);
        assert!(
            !String::from_utf8_lossy(&case.input).contains("stop_hook_active"),
            "{id}: the release sends no flag"
        );
        let again = |_cx: &Context, _e: &StopEvent| -> Result<StopDecision, HandlerError> {
            Ok(continue_with("run the tests again"))
        };
        let r = runner(Router::new().on_stop(again), "old-loop");
        let turn = |r: &Runner| {
            let mut continued = 0;
            for _ in 0..20 {
                let out = run(r, id, true);
                let answer = HookOutput::new(out.response.exit_code, out.response.stdout, out.response.stderr);
                let v = interpret("copilot", "agentStop", &case.input, &answer).expect("copilot fake agent");
                if !matches!(v.effect, Effect::Continued { .. }) {
                    return continued;
                }
                continued += 1;
            }
            continued
        };
        assert_eq!(turn(&r), Policy::default().continuation_cap, "{id}");
        // The cap ended the turn: the next turn may continue again, as far as the cap.
        assert_eq!(turn(&r), Policy::default().continuation_cap, "{id}: next turn");

        // The loop-guard idiom works too: `previously_continued` comes from the counter; a
        // finished turn resets it.
        let r = runner(agenthooks_testkit::harness::continue_once("once"), "old-once");
        let answers: Vec<bool> = (0..3)
            .map(|_| {
                run(&r, id, true)
                    .response
                    .stdout_str()
                    .contains(r#""decision":"block""#)
            })
            .collect();
        assert_eq!(answers, [true, false, true], "{id}");
    }
}

/// A payload of an older release (no `sessionId`, `toolArgs` a JSON string, ≤ 1.0.63) with a
/// field of a shape no release sent still reaches the tool.pre handler, which decides.
#[test]
fn an_older_payload_with_a_retyped_field_reaches_the_handler() {
    let r = runner(Router::new().on_tool_pre(guard), "old");
    let env: HashMap<String, String> = HashMap::new();
    let payload = br#"{"timestamp":1751000000000,"cwd":["/w"],"toolName":"bash","toolArgs":"{\"command\":\"echo hi > marker.txt\"}"}"#;
    let inv = Invocation::new(payload.to_vec(), &env).with_native_event(Some("preToolUse"));
    let out = r.invoke(&CODEC, &inv, None, Confidence::Certain);
    assert!(out.failure.is_none());
    assert_eq!(
        out.response.stdout_str(),
        r#"{"permissionDecision":"deny","permissionDecisionReason":"marker files are off limits"}"#
    );
}
