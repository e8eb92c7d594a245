//! The in-process harness and its fake-agent assertions.

use agenthooks_core::decision::{accept_prompt, continue_with, deny, no_decision};
use agenthooks_core::{Context, HandlerError, PromptEvent, Router, StopEvent, ToolPreEvent};
use agenthooks_testkit::{assert_context, assert_denied, assert_no_op, invoke, Effect};

use crate::toy;

#[allow(clippy::unnecessary_wraps)] // the handler signature
fn guard(_cx: &Context, e: &ToolPreEvent) -> Result<agenthooks_core::decision::ToolPreDecision, HandlerError> {
    Ok(if e.tool.command().is_some_and(|c| c.contains("rm -rf")) {
        deny("destructive command")
    } else {
        no_decision()
    })
}

#[test]
fn assertions_read_the_agent_verdict() {
    let r = Router::new().on_tool_pre(guard);
    let run = invoke(&r, &toy::GOOD, toy::PRE_TOOL_USE, None);
    run.assert_denied("destructive command").assert_well_behaved();
    assert_denied(&run, "destructive command");
    assert_eq!(run.native_event(), "PreToolUse");
    assert!(run.sent().is_some_and(agenthooks_core::Outcome::blocks));

    let safe = toy::PRE_TOOL_USE.replace("rm -rf /", "ls");
    let run = invoke(&r, &toy::GOOD, safe, None);
    run.assert_no_op();
    assert_no_op(&run);

    let r = Router::new()
        .on_prompt_submitted(|_: &Context, _: &PromptEvent| accept_prompt().with_context("today is Monday"));
    let run = invoke(&r, &toy::GOOD, toy::PROMPT_SUBMIT, None);
    run.assert_context("Monday");
    assert_context(&run, "today is Monday");

    let r = Router::new().on_stop(|_: &Context, _: &StopEvent| continue_with("run the tests"));
    invoke(&r, &toy::GOOD, toy::STOP_EVENT, None).assert_continued("run the tests");
}

#[test]
fn failed_assertions_explain_themselves() {
    let r = Router::new().on_tool_pre(guard);
    let run = invoke(&r, &toy::GOOD, toy::PRE_TOOL_USE, None);
    let msg = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run.assert_no_op();
    }))
    .unwrap_err();
    let msg = msg.downcast_ref::<String>().unwrap();
    assert!(msg.contains("expected the codec's no-op response"), "{msg}");
    assert!(msg.contains("verdict: denied: \"destructive command\""), "{msg}");
    assert!(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run.assert_denied("something else");
    }))
    .is_err());
}

#[test]
fn undecodable_payloads_get_the_failure_response() {
    let run = invoke(
        &Router::new().on_tool_pre(guard),
        &toy::GOOD,
        "not json",
        Some("PreToolUse"),
    );
    assert!(run.event().is_none());
    assert!(run.invoked.failure.is_some());
    // fail-open: the no-op, and the agent proceeds
    run.assert_no_op();
    assert_eq!(run.verdict().effect, Effect::Proceed);
}
