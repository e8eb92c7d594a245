//! Encode edge cases: what each gate writes, and what Qwen cannot express.

use agenthooks_core::decision::{allow, ask_user, block_prompt, continue_with, deny, rewrite_input, ContextDecision};
use agenthooks_core::{Codec, EncodeCategory, EventKind, EventTarget, FailMode, NativeName, Outcome};
use agenthooks_qwen::CODEC;
use serde_json::{json, Map, Value};

use crate::support::CORPUS;

fn encode(case: &str, outcome: impl Into<Outcome>) -> String {
    let ev = CORPUS.event(case);
    CODEC
        .encode(&ev, &outcome.into())
        .expect("encodes")
        .stdout_str()
        .into_owned()
}

#[test]
fn gates_write_claude_fields() {
    assert_eq!(
        encode("docs/pre_tool_use", deny("no")),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#
    );
    assert_eq!(
        encode("docs/pre_tool_use", ask_user("sure?")),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}"#
    );
    assert_eq!(
        encode("docs/user_prompt_submit", block_prompt("no secrets")),
        r#"{"decision":"block","reason":"no secrets"}"#
    );
    assert_eq!(
        encode("docs/stop", continue_with("run the tests")),
        r#"{"decision":"block","reason":"run the tests"}"#
    );
    assert_eq!(
        encode(
            "docs/session_start",
            ContextDecision::none().with_context("c1").with_context("c2")
        ),
        r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c1\n\nc2"}}"#
    );
    let mut input = Map::new();
    input.insert("file_path".into(), json!("/tmp/x"));
    assert_eq!(
        encode("docs/permission_request", rewrite_input(input).allow()),
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"file_path":"/tmp/x"}}}}"#
    );
    assert_eq!(
        encode("docs/permission_request", deny("not there")),
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not there"}}}"#
    );
}

#[test]
fn what_qwen_cannot_express_is_an_error_not_a_silent_drop() {
    let pre = CORPUS.event("docs/pre_tool_use");
    // No rewrite on PreToolUse (quirk 902), no allow (quirk 903).
    let mut input = Map::new();
    input.insert("command".into(), Value::from("ls"));
    let err = CODEC
        .encode(&pre, &rewrite_input(input).allow().into())
        .expect_err("inexpressible");
    assert_eq!(err.category(), EncodeCategory::Unsupported);
    assert!(CODEC.encode(&pre, &allow().into()).is_err());
}

#[test]
fn failure_answers() {
    let closed = |native: &str, kind: EventKind| {
        let t = EventTarget::new(Some(NativeName::from(native)), Some(kind));
        CODEC.failure_response(&t, FailMode::Closed, "guard down")
    };
    assert_eq!(
        closed("PreToolUse", EventKind::ToolPre).stdout_str(),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard down"}}"#
    );
    assert_eq!(
        closed("UserPromptSubmit", EventKind::PromptSubmitted).stdout_str(),
        r#"{"decision":"block","reason":"guard down"}"#
    );
    assert_eq!(
        closed("TodoCreated", EventKind::Other).stdout_str(),
        r#"{"decision":"block","reason":"guard down"}"#
    );
    // Never a block on Stop: it would continue the agent (quirk 905).
    assert_eq!(closed("Stop", EventKind::Stop).stdout_str(), "{}");
    // An event we do not know: exit 2, Qwen's universal deny.
    let future = closed("SomeFutureEvent", EventKind::Other);
    assert_eq!(
        (future.exit_code, future.stderr.as_slice()),
        (2, b"guard down".as_slice())
    );
}
