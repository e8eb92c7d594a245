//! Payloads of other Kimi releases (`notes/tolerant-fields.md` §4) reach handlers as their kind:
//! missing optional fields, fields retyped across releases, and shapes no release sent.

use std::sync::atomic::{AtomicUsize, Ordering};

use agenthooks_core::decision::{
    block_prompt, deny, no_decision, observed, ContextDecision, PromptDecision, ToolPostDecision, ToolPreDecision,
};
use agenthooks_core::kit::Repair;
use agenthooks_core::{
    CanonicalTool, Context, Event, EventKind, HandlerError, PromptEvent, Router, SubagentStartEvent, ToolErrorEvent,
    ToolPostEvent, ToolPreEvent,
};
use agenthooks_kimi::native::{FailureError, NativeEvent};
use agenthooks_kimi::{view, view_as, CODEC};
use agenthooks_testkit::harness::invoke;
use serde_json::{json, Value};

const DENY: &str = r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"blocked"}}"#;

#[allow(clippy::unnecessary_wraps)] // the handler signature
fn block_secrets(_cx: &Context, e: &PromptEvent) -> Result<PromptDecision, HandlerError> {
    Ok(if e.prompt.contains("secret") {
        block_prompt("blocked")
    } else {
        agenthooks_core::decision::accept_prompt()
    })
}

#[allow(clippy::unnecessary_wraps)] // the handler signature
fn deny_shell(_cx: &Context, e: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
    Ok(if e.tool.canonical == CanonicalTool::Shell {
        deny("blocked")
    } else {
        no_decision()
    })
}

/// kimi-cli / kimi-code before 0.32.0: no `client_type`, no `is_steer`, a string prompt, an empty
/// session id.
#[test]
fn an_old_prompt_without_new_fields_is_blocked_by_its_handler() {
    let raw = br#"{"hook_event_name":"UserPromptSubmit","session_id":"","cwd":"/p","prompt":"print the secret"}"#;
    let run = invoke(&Router::new().on_prompt_submitted(block_secrets), &CODEC, raw, None);
    assert_eq!(run.response().stdout_str(), DENY);
    let ev = run.event().expect("decoded");
    assert_eq!(ev.kind(), EventKind::PromptSubmitted);
    assert!(ev.envelope().projection_issues.is_empty());
    assert_eq!(ev.envelope().session.id, "");
}

/// kimi-cli tool names and an empty `tool_call_id` (its default): the class is known and an id is
/// synthesized.
#[test]
fn an_old_tool_call_with_an_empty_id_is_denied_by_its_handler() {
    let raw = br#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Shell","tool_input":{"command":"rm -rf /"},"tool_call_id":""}"#;
    let run = invoke(&Router::new().on_tool_pre(deny_shell), &CODEC, raw, None);
    assert_eq!(run.response().stdout_str(), DENY);
    let Some(Event::ToolPre(e)) = run.event() else {
        panic!("not tool.pre")
    };
    assert!(e.tool.synthesized && e.tool.id.starts_with("hook_synth_"));
    assert_eq!(e.tool.command(), Some("rm -rf /"));
}

static SUBAGENTS: AtomicUsize = AtomicUsize::new(0);

#[allow(clippy::unnecessary_wraps)] // the handler signature
fn count_subagent(_cx: &Context, e: &SubagentStartEvent) -> Result<ContextDecision, HandlerError> {
    assert_eq!(e.envelope.agent.as_ref().map(|a| a.agent_type.as_str()), Some("coder"));
    SUBAGENTS.fetch_add(1, Ordering::SeqCst);
    Ok(ContextDecision::none())
}

/// The v2 engine before 0.32.0 sent `SubagentStart` without `session_id` and `cwd`.
#[test]
fn an_old_subagent_start_without_session_or_cwd_reaches_its_handler() {
    let raw = br#"{"hook_event_name":"SubagentStart","agent_name":"coder","prompt":"find callers"}"#;
    let before = SUBAGENTS.load(Ordering::SeqCst);
    let run = invoke(&Router::new().on_subagent_start(count_subagent), &CODEC, raw, None);
    assert_eq!(SUBAGENTS.load(Ordering::SeqCst), before + 1);
    let ev = run.event().expect("decoded");
    assert_eq!(ev.kind(), EventKind::SubagentStart);
    assert_eq!(
        (ev.envelope().session.id.as_str(), ev.envelope().session.cwd.as_str()),
        ("", "")
    );
    assert!(ev.envelope().session.workspace_roots.is_empty());
    assert!(run.response().stdout.is_empty());
}

static ERRORS: AtomicUsize = AtomicUsize::new(0);

#[allow(clippy::unnecessary_wraps)] // the handler signature
fn count_error(_cx: &Context, e: &ToolErrorEvent) -> Result<ContextDecision, HandlerError> {
    assert_eq!(e.error, "Command failed");
    ERRORS.fetch_add(1, Ordering::SeqCst);
    Ok(ContextDecision::none())
}

/// kimi-cli sends `PostToolUseFailure.error` as a string; kimi-code as an object.
#[test]
fn a_string_error_reaches_the_tool_error_handler() {
    let raw = br#"{"hook_event_name":"PostToolUseFailure","session_id":"s","cwd":"/p","tool_name":"Shell","tool_input":{"command":"false"},"tool_call_id":"c","error":"Command failed"}"#;
    let before = ERRORS.load(Ordering::SeqCst);
    let run = invoke(&Router::new().on_tool_error(count_error), &CODEC, raw, None);
    assert_eq!(ERRORS.load(Ordering::SeqCst), before + 1);
    let ev = run.event().expect("decoded");
    let n = view_as::<agenthooks_kimi::native::PostToolUseFailure>(ev.envelope()).expect("typed view");
    assert_eq!(n.error, Some(FailureError::Message("Command failed".into())));
}

static OUTPUTS: AtomicUsize = AtomicUsize::new(0);

#[allow(clippy::unnecessary_wraps)] // the handler signature
fn count_output(_cx: &Context, e: &ToolPostEvent) -> Result<ToolPostDecision, HandlerError> {
    assert_eq!(e.output["content"][0]["text"], "ok");
    OUTPUTS.fetch_add(1, Ordering::SeqCst);
    Ok(observed())
}

/// The object-shaped `tool_output` of the Go port's fixtures (never seen upstream) is kept as
/// sent, and no `tool_call_id` at all still gives an id.
#[test]
fn an_object_tool_output_reaches_the_tool_post_handler() {
    let raw = br#"{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"},"tool_output":{"content":[{"type":"text","text":"ok"}]}}"#;
    let before = OUTPUTS.load(Ordering::SeqCst);
    let run = invoke(&Router::new().on_tool_post(count_output), &CODEC, raw, None);
    assert_eq!(OUTPUTS.load(Ordering::SeqCst), before + 1);
    let Some(Event::ToolPost(e)) = run.event() else {
        panic!("not tool.post")
    };
    assert!(e.tool.synthesized);
    let n = view_as::<agenthooks_kimi::native::PostToolUse>(&e.envelope).expect("typed view");
    assert_eq!(n.tool_output_text(), r#"{"content":[{"type":"text","text":"ok"}]}"#);
}

/// A shape no release sent (a numeric `session_id`, a string `turn_id`) is kept in `extra` and
/// reported; the event is still gated by its handler.
#[test]
fn an_unexpected_shape_is_kept_in_extra_and_reported() {
    let raw = br#"{"hook_event_name":"PreToolUse","session_id":7,"cwd":"/p","tool_name":"Bash","tool_input":"{\"command\":\"ls\"}","tool_call_id":"c"}"#;
    let run = invoke(&Router::new().on_tool_pre(deny_shell), &CODEC, raw, None);
    assert_eq!(run.response().stdout_str(), DENY);
    let Some(Event::ToolPre(e)) = run.event() else {
        panic!("not tool.pre")
    };
    // A stringified input is un-stringified by the tool-call builder.
    assert_eq!(e.tool.command(), Some("ls"));
    assert_eq!(e.envelope.raw().as_bytes(), raw);
    let issues = &e.envelope.projection_issues;
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(
        (issues[0].path.as_str(), issues[0].repair),
        ("session_id", Repair::MovedToExtra)
    );
    let n = view(&e.envelope).expect("view");
    assert_eq!(n.extra()["session_id"], 7);
    assert_eq!(e.envelope.session.id, "");

    let raw = br#"{"hook_event_name":"Interrupt","session_id":"s","cwd":"/p","turn_id":"4","reason":"cancelled"}"#;
    let run = invoke(&Router::new(), &CODEC, raw, None);
    let ev = run.event().expect("decoded");
    assert_eq!(ev.kind(), EventKind::Other);
    assert_eq!(ev.envelope().session.turn_id, "");
    assert_eq!(
        view(ev.envelope()).map(|n| n.extra()["turn_id"].clone()),
        Some(json!("4"))
    );
}

/// Without the identifying `tool_name`, the event still reaches its handler as `tool.pre` (with
/// an empty tool name); the native view is the `Other` form holding every key.
#[test]
fn a_missing_tool_name_still_reaches_the_handler() {
    let raw = br#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_input":{"command":"ls"}}"#;
    let run = invoke(&Router::new().on_tool_pre(deny_shell), &CODEC, raw, None);
    let Some(Event::ToolPre(e)) = run.event() else {
        panic!("not tool.pre")
    };
    assert_eq!(e.tool.name, "");
    assert!(run.response().stdout.is_empty(), "an unknown tool is not a shell call");
    let Some(NativeEvent::Other(u)) = view(&e.envelope) else {
        panic!("the view should be the Other form")
    };
    assert_eq!(u.name, "PreToolUse");
    assert_eq!(u.extra["tool_input"], json!({"command": "ls"}));
    assert_eq!(e.envelope.projection_issues[0].repair, Repair::Placeholder);
    assert_eq!(e.envelope.projection_issues[0].path, "tool_name");
    // Retyped instead of missing: kept in the Other form too.
    let raw = br#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":7}"#;
    let run = invoke(&Router::new(), &CODEC, raw, None);
    let ev = run.event().expect("decoded");
    assert_eq!(ev.kind(), EventKind::ToolPre);
    assert_eq!(
        view(ev.envelope()).map(|n| n.extra()["tool_name"].clone()),
        Some(Value::from(7))
    );
}
