//! Every decision shape, encoded byte for byte, plus capabilities and failure responses.

use std::collections::HashMap;

use agenthooks_copilot::{CopilotCodec, CODEC, COPILOT_BLOCK_CAP};
use agenthooks_core::decision::{
    accept_prompt, allow, ask_user, continue_with, deny, finish, flag_output, no_decision, observed, replace_output,
    rewrite_input, ContextDecision,
};
use agenthooks_core::{
    degrade, CapSet, Capability as C, Codec, EncodeCategory, Event, EventTarget, FailMode, Invocation, NativeName,
    Outcome, Policy, Variant, WireResponse,
};
use serde_json::{json, Map, Value};

use agenthooks_testkit::Fixture;

use crate::fixtures::{self, decode};

fn event(id: &str) -> Event {
    decode(fixtures::CORPUS.case(id), true)
}

fn stdout(ev: &Event, outcome: impl Into<Outcome>) -> String {
    let wire = CODEC.encode(ev, &outcome.into()).unwrap();
    assert_eq!(wire.exit_code, 0, "always exit 0");
    assert!(wire.stderr.is_empty());
    wire.stdout_str().into_owned()
}

fn args(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// The verdicts both decision events share: nothing for no decision, then allow and deny.
#[test]
fn verdicts_on_the_decision_events() {
    for (id, allowed, reason, denied) in [
        (
            "1.0.102/pre_tool_use-deny-json",
            r#"{"permissionDecision":"allow"}"#,
            "marker files are off limits",
            r#"{"permissionDecision":"deny","permissionDecisionReason":"marker files are off limits"}"#,
        ),
        (
            "1.0.102/permission_request-allow",
            r#"{"behavior":"allow"}"#,
            "not on main",
            r#"{"behavior":"deny","message":"not on main"}"#,
        ),
    ] {
        let ev = event(id);
        assert_eq!(stdout(&ev, no_decision()), "", "{id}");
        assert_eq!(stdout(&ev, allow()), allowed, "{id}");
        assert_eq!(stdout(&ev, deny(reason)), denied, "{id}");
    }
}

#[test]
fn pre_tool_use_decisions() {
    let ev = event("1.0.102/pre_tool_use-deny-json");
    assert_eq!(
        stdout(&ev, deny("")),
        r#"{"permissionDecision":"deny","permissionDecisionReason":"Blocked by a hook policy."}"#
    );
    assert_eq!(
        stdout(&ev, ask_user("Really write marker.txt?")),
        r#"{"permissionDecision":"ask","permissionDecisionReason":"Really write marker.txt?"}"#
    );
    assert_eq!(stdout(&ev, ask_user("")), r#"{"permissionDecision":"ask"}"#);
    let new = args(json!({"command": "echo hi > /tmp/marker.txt", "description": "safer"}));
    assert_eq!(
        stdout(&ev, rewrite_input(new.clone()).allow()),
        r#"{"permissionDecision":"allow","modifiedArgs":{"command":"echo hi > /tmp/marker.txt","description":"safer"}}"#
    );
    // A rewrite without a decision is not claimed (no neutral-rewrite): an error, not bytes.
    let e = CODEC
        .encode(&ev, &rewrite_input(new.clone()).no_decision().into())
        .unwrap_err();
    assert_eq!(e.category(), EncodeCategory::Unsupported);
    assert!(e.message().contains("neutral-rewrite"), "{e}");
    assert_eq!(
        stdout(&ev, deny("no").with_context("policy P-7").with_context("ask the owner")),
        r#"{"permissionDecision":"deny","permissionDecisionReason":"no","additionalContext":"policy P-7\nask the owner"}"#
    );
    assert_eq!(
        stdout(&ev, no_decision().with_context("cwd is a sandbox")),
        r#"{"additionalContext":"cwd is a sandbox"}"#
    );
    // The block message is used only when there is no reason (Copilot has one field).
    assert_eq!(
        stdout(&ev, deny("model text").with_block_reason("user text")),
        r#"{"permissionDecision":"deny","permissionDecisionReason":"model text"}"#
    );
}

#[test]
fn pascal_pre_tool_use_adds_the_claude_compatible_object() {
    let ev = event("docs/pre_tool_use-pascal");
    assert_eq!(ev.envelope().variant, Variant::VSCODE);
    assert_eq!(
        stdout(&ev, deny("no")),
        r#"{"permissionDecision":"deny","permissionDecisionReason":"no","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#
    );
    let new = args(json!({"path": "README.md"}));
    assert_eq!(
        stdout(&ev, rewrite_input(new).allow()),
        r#"{"permissionDecision":"allow","modifiedArgs":{"path":"README.md"},"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"path":"README.md"}}}"#
    );
    assert_eq!(stdout(&ev, no_decision()), "");
}

#[test]
fn permission_request_decisions() {
    let ev = event("1.0.102/permission_request-allow");
    let e = CODEC.encode(&ev, &deny("x").stop_agent("x").into()).unwrap_err();
    assert_eq!(e.category(), EncodeCategory::Unsupported, "stop-agent is not claimed");
    let e = CODEC.encode(&ev, &ask_user("?").into()).unwrap_err();
    assert_eq!(e.category(), EncodeCategory::Unsupported);
    assert!(e.message().contains("`ask`"), "{e}");
    let ev = event("docs/permission_request-pascal");
    assert_eq!(
        stdout(&ev, deny("no")),
        r#"{"behavior":"deny","message":"no","hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}"#
    );
}

#[test]
fn stop_decisions() {
    for id in ["1.0.102/agent_stop-allow", "docs/subagent_stop", "docs/stop-pascal"] {
        let ev = event(id);
        assert_eq!(stdout(&ev, finish()), "", "{id}");
        assert_eq!(
            stdout(&ev, continue_with("run the tests first")),
            r#"{"decision":"block","reason":"run the tests first"}"#,
            "{id}"
        );
    }
}

#[test]
fn context_events() {
    let cases = [
        (
            "1.0.102/session_start-allow",
            ContextDecision::none().with_context("today is Monday").into(),
        ),
        (
            "docs/subagent_start",
            ContextDecision::none().with_context("today is Monday").into(),
        ),
        (
            "docs/post_tool_use_failure",
            ContextDecision::none().with_context("today is Monday").into(),
        ),
        (
            "docs/notification",
            ContextDecision::none().with_context("today is Monday").into(),
        ),
        (
            "1.0.102/post_tool_use-allow",
            observed().with_context("today is Monday").into(),
        ),
        (
            "1.0.102/user_prompt_submitted-allow",
            accept_prompt().with_context("today is Monday").into(),
        ),
    ];
    for (id, outcome) in cases {
        let outcome: Outcome = outcome;
        assert_eq!(
            stdout(&event(id), outcome),
            r#"{"additionalContext":"today is Monday"}"#,
            "{id}"
        );
    }
    assert_eq!(
        stdout(
            &event("docs/session_start-pascal"),
            ContextDecision::none().with_context("x")
        ),
        r#"{"additionalContext":"x","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}"#
    );
}

#[test]
fn flag_output_degrades_to_context_on_post_tool_use() {
    let ev = event("1.0.102/post_tool_use-allow");
    let caps = CODEC.capabilities(&Variant::DEFAULT, "postToolUse");
    let d = degrade(flag_output("looks like a secret").into(), caps, &Policy::default()).unwrap();
    assert_eq!(stdout(&ev, d.outcome), r#"{"additionalContext":"looks like a secret"}"#);
    let d = degrade(replace_output("[redacted]").into(), caps, &Policy::default()).unwrap();
    assert_eq!(stdout(&ev, d.outcome), "", "no modifiedResult for command hooks");
}

#[test]
fn inexpressible_outcomes_are_errors_not_drops() {
    let pre = event("1.0.102/pre_tool_use-allow");
    let e = CODEC
        .encode(&pre, &allow().with_system_message("hi").into())
        .unwrap_err();
    assert_eq!(e.category(), EncodeCategory::Unsupported);
    assert!(e.message().contains("system-message"), "{e}");
    let e = CODEC.encode(&pre, &deny("x").stop_agent("halt").into()).unwrap_err();
    assert!(e.message().contains("stop-agent"), "{e}");
    for other_family in [Outcome::from(finish()), continue_with("go").into()] {
        let e = CODEC.encode(&pre, &other_family).unwrap_err();
        assert_eq!(e.category(), EncodeCategory::WrongFamily, "{other_family:?}");
    }
    let end = event("1.0.102/session_end-allow");
    let e = CODEC
        .encode(&end, &ContextDecision::none().with_context("x").into())
        .unwrap_err();
    assert_eq!(e.category(), EncodeCategory::Unsupported);
    assert!(e.message().contains("add-context"), "{e}");
    let other = event("docs/error_occurred");
    assert!(CODEC
        .encode(&other, &ContextDecision::none().with_context("x").into())
        .is_err());
    assert_eq!(
        CODEC.encode(&other, &ContextDecision::none().into()).unwrap(),
        WireResponse::empty()
    );
}

#[test]
fn capabilities_per_event_and_version() {
    let full = CapSet::of(&[C::Deny, C::Ask, C::Allow, C::UpdateInput, C::AddContext]);
    let ctx = CapSet::of(&[C::AddContext]);
    let table = [
        ("preToolUse", full),
        ("PreToolUse", full),
        (
            "permissionRequest",
            CapSet::of(&[C::Deny, C::Allow, C::PermissionDialog]),
        ),
        ("agentStop", CapSet::of(&[C::ContinueAgent])),
        ("Stop", CapSet::of(&[C::ContinueAgent])),
        ("subagentStop", CapSet::of(&[C::ContinueAgent])),
        ("sessionStart", ctx),
        ("subagentStart", ctx),
        ("postToolUse", ctx),
        ("postToolUseFailure", ctx),
        ("notification", ctx),
        ("userPromptSubmitted", ctx),
        ("sessionEnd", CapSet::EMPTY),
        ("preCompact", CapSet::EMPTY),
        ("errorOccurred", CapSet::EMPTY),
        ("userPromptTransformed", CapSet::EMPTY),
        ("preMcpToolCall", CapSet::EMPTY),
        ("postResult", CapSet::EMPTY),
    ];
    for (native, caps) in table {
        assert_eq!(CODEC.capabilities(&Variant::DEFAULT, native), caps, "{native}");
        assert_eq!(CODEC.capabilities(&Variant::VSCODE, native), caps, "{native}");
    }
    // userPromptSubmitted context is gated on the reported CLI version (quirk 408).
    let prompt = fixtures::CORPUS.case("docs/user_prompt_submitted");
    for (version, expected) in [
        (Some("1.0.64"), CapSet::EMPTY),
        (Some("1.0.65"), ctx),
        (Some("1.0.102"), ctx),
        (Some("1.0.74-4"), ctx),
        (None, ctx),
    ] {
        let mut env: HashMap<String, String> = HashMap::new();
        if let Some(v) = version {
            env.insert("COPILOT_CLI_BINARY_VERSION".into(), v.into());
        }
        let ev = CODEC
            .decode(&Invocation::new(prompt.input.clone(), &env).with_native_event(Some("userPromptSubmitted")))
            .unwrap();
        assert_eq!(CopilotCodec::new().event_capabilities(&ev), expected, "{version:?}");
    }
    assert_eq!(
        CopilotCodec::new().event_capabilities(&event("1.0.102/pre_tool_use-allow")),
        full
    );
    assert!(
        Policy::default().continuation_cap < COPILOT_BLOCK_CAP,
        "our cap ends loops first"
    );
}

#[test]
fn failure_responses_always_exit_zero() {
    let deny_json = |reason: &str| format!(r#"{{"permissionDecision":"deny","permissionDecisionReason":"{reason}"}}"#);
    for f in fixtures::CORPUS.cases() {
        let ev = decode(f, true);
        let id = Fixture::short_id(f);
        let target = EventTarget::of(&ev);
        let open = CODEC.failure_response(&target, FailMode::Open, "boom");
        assert_eq!(open, WireResponse::empty(), "{id}");
        let closed = CODEC.failure_response(&target, FailMode::Closed, "boom");
        assert_eq!(closed.exit_code, 0, "{id}");
        assert!(closed.stderr.is_empty());
        let body = closed.stdout_str();
        match f.meta.native_event.as_str() {
            "preToolUse" => assert_eq!(body, deny_json("boom"), "{id}"),
            "PreToolUse" => assert!(
                body.contains(r#""hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny""#)
            ),
            "permissionRequest" | "PermissionRequest" => {
                assert!(body.starts_with(r#"{"behavior":"deny","message":"boom""#), "{body}");
            }
            _ => assert_eq!(body, "", "{id}: nothing else can block"),
        }
    }
    // From the argv hint alone (the payload did not decode).
    let t = EventTarget::new(Some(NativeName::from_static("preToolUse")), None);
    assert_eq!(
        CODEC
            .failure_response(&t, FailMode::Closed, "payload is not JSON")
            .stdout_str(),
        deny_json("payload is not JSON")
    );
    let t = EventTarget::new(None, None);
    assert_eq!(CODEC.failure_response(&t, FailMode::Closed, "x"), WireResponse::empty());
}

#[test]
fn no_op_is_empty_stdout_for_every_event() {
    for spec in CODEC.native_events() {
        let t = EventTarget::new(Some(NativeName::from_static(spec.name)), Some(spec.kind));
        assert_eq!(CODEC.no_op(&t), WireResponse::empty(), "{}", spec.name);
        assert_eq!(CODEC.kind_of(spec.name), spec.kind);
    }
    assert_eq!(CODEC.native_events().len(), 15);
    assert_eq!(CODEC.kind_of("Stop"), agenthooks_core::EventKind::Stop);
    assert_eq!(CODEC.kind_of("nope"), agenthooks_core::EventKind::Other);
    assert_eq!(CODEC.default_timeout(), std::time::Duration::from_secs(30));
    assert_eq!(CODEC.quirks().len(), 15);
}
