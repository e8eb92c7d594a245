//! Encode edge cases and the quirks the wire shows.

use std::collections::HashMap;

use agenthooks_core::decision::{block_prompt, continue_with, deny, rewrite_input};
use agenthooks_core::{Codec, Event, EventKind, FailMode, Invocation, Outcome};
use agenthooks_droid::{native, view_as, CODEC};
use serde_json::json;

fn decode(payload: &str) -> Event {
    let env: HashMap<String, String> = HashMap::new();
    CODEC
        .decode(&Invocation::new(payload.as_bytes().to_vec(), &env))
        .expect("decodes")
}

const PRE: &str = r#"{"session_id":"s","cwd":"/w","permission_mode":"auto-medium","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"summary":"List","command":"ls","riskLevel":"low","riskLevelReason":"r"}}"#;

#[test]
fn a_deny_is_the_json_permission_decision() {
    let e = decode(PRE);
    assert_eq!(e.kind(), EventKind::ToolPre);
    assert_eq!(e.tool().and_then(|t| t.command()), Some("ls"));
    let w = CODEC.encode(&e, &deny("no").into()).expect("encodes");
    assert_eq!(w.exit_code, 0);
    assert_eq!(
        w.stdout_str(),
        r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}"#
    );
}

/// Quirk 1003: the codec sends the whole rewritten input (Droid merges it over the original).
#[test]
fn an_allow_with_a_rewrite_sends_the_whole_input() {
    let e = decode(PRE);
    let input = json!({"command": "ls -la"}).as_object().cloned().unwrap_or_default();
    let out: Outcome = rewrite_input(input.clone()).allow().into();
    let w = CODEC.encode(&e, &out).expect("encodes");
    assert_eq!(
        w.stdout_str(),
        r#"{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}"#
    );
    let w = CODEC
        .encode(&e, &rewrite_input(input).no_decision().into())
        .expect("encodes");
    assert_eq!(
        w.stdout_str(),
        r#"{"hookSpecificOutput":{"updatedInput":{"command":"ls -la"}}}"#
    );
}

/// Quirk 1004: a prompt is blocked with `continue: false` and its reason in `stopReason`.
#[test]
fn a_blocked_prompt_is_continue_false() {
    let e = decode(
        r#"{"session_id":"s","cwd":"/w","hook_event_name":"UserPromptSubmit","prompt":"hi","has_images":false}"#,
    );
    let w = CODEC.encode(&e, &block_prompt("not today").into()).expect("encodes");
    assert_eq!(w.stdout_str(), r#"{"continue":false,"stopReason":"not today"}"#);
}

/// Quirk 1004: Droid ignores `decision: block` without a reason, so an empty instruction gets
/// Droid's own default text.
#[test]
fn an_empty_continuation_still_continues() {
    let e = decode(r#"{"session_id":"s","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false}"#);
    let w = CODEC.encode(&e, &continue_with("").into()).expect("encodes");
    assert_eq!(
        w.stdout_str(),
        r#"{"decision":"block","reason":"Stop hook requested continuation"}"#
    );
    let w = CODEC
        .encode(&e, &continue_with("run the tests").into())
        .expect("encodes");
    assert_eq!(w.stdout_str(), r#"{"decision":"block","reason":"run the tests"}"#);
}

/// Quirk 1000: Droid is fail-open; fail-closed is the encoded deny on the gates only.
#[test]
fn fail_closed_denies_on_the_gates_only() {
    let e = decode(PRE);
    let target = agenthooks_core::EventTarget::of(&e);
    let w = CODEC.failure_response(&target, FailMode::Closed, "handler crashed");
    assert_eq!(
        w.stdout_str(),
        r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"handler crashed"}}"#
    );
    let stop = decode(r#"{"hook_event_name":"Stop"}"#);
    let w = CODEC.failure_response(&agenthooks_core::EventTarget::of(&stop), FailMode::Closed, "x");
    assert!(w.stdout.is_empty() && w.exit_code == 0);
}

/// Quirk 1007: `<server>___<tool>` is an MCP call.
#[test]
fn mcp_tools_are_three_underscores() {
    let e = decode(
        r#"{"hook_event_name":"PreToolUse","tool_name":"shop_db___lookup_order","tool_input":{"order_id":"A-1"}}"#,
    );
    let mcp = e.tool().and_then(|t| t.mcp.clone()).expect("an MCP call");
    assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("shop_db", "lookup_order"));
}

/// `SessionStart` keeps Droid's upper-case `CLAUDE_ENV_FILE` key typed.
#[test]
fn session_start_env_file() {
    let e = decode(
        r#"{"session_id":"s","hook_event_name":"SessionStart","source":"startup","CLAUDE_ENV_FILE":"/tmp/env.sh"}"#,
    );
    let s = view_as::<native::SessionStart>(e.envelope()).expect("native view");
    assert_eq!(s.claude_env_file.as_deref(), Some("/tmp/env.sh"));
    assert!(s.extra.is_empty());
}
