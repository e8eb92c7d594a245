//! The acceptance test of issue 8 and the identification rules: with the argv hint stripped,
//! the event reconstructed from the payload's shape is exactly the fixture's native event.

use agenthooks_copilot::identify::{identify, identify_bytes, reconstruct, Basis, IdentifyConfidence, PayloadKeys};
use agenthooks_copilot::native::{self, Dialect};
use serde_json::{json, Map, Value};

use agenthooks_testkit::Fixture;

use crate::fixtures::{self, argv_event};

use IdentifyConfidence::{Certain, High, Low, Medium};

fn keys(v: &Value) -> PayloadKeys {
    PayloadKeys::from_map(v.as_object().unwrap())
}

#[allow(clippy::needless_pass_by_value)] // called with `json!(…)` literals
fn shape(v: Value) -> agenthooks_copilot::identify::Identification {
    reconstruct(&keys(&v))
}

#[test]
fn reconstruction_without_argv_is_exact_on_every_fixture() {
    let mut checked = 0;
    for f in fixtures::CORPUS.cases() {
        let id = identify_bytes(None, &f.input);
        let case = Fixture::short_id(f);
        assert_eq!(id.native_name, f.meta.native_event, "{case}: {id:?}");
        let (row, dialect) = native::spelled(&f.meta.native_event).unwrap();
        assert_eq!(id.row, Some(row), "{case}");
        if row.name != "notification" {
            assert_eq!(id.dialect, dialect, "{case}");
        }
        assert!(id.foreign_keys.is_empty(), "{case}: {:?}", id.foreign_keys);
        assert_ne!(id.basis, Basis::Argv);
        // Only the deliberately base-only payload falls back to a guess.
        if case.ends_with("agent_stop-minimal") {
            assert_eq!(id.confidence, Low, "{case}");
        } else {
            assert!(id.confidence >= Medium, "{case}: {id:?}");
        }
        // Reading the bytes and reading a parsed object see the same keys.
        let map: Map<String, Value> = serde_json::from_slice(&f.input).unwrap();
        assert_eq!(
            PayloadKeys::from_json(&f.input),
            Some(PayloadKeys::from_map(&map)),
            "{case}"
        );
        checked += 1;
    }
    assert!(checked >= 60);
}

#[test]
fn argv_hint_agrees_with_the_shape_on_every_fixture() {
    for f in fixtures::CORPUS.cases() {
        let argv = argv_event(f);
        assert!(argv.is_some(), "{}: fixtures bake --event=", Fixture::short_id(f));
        let id = identify_bytes(argv, &f.input);
        let named = f.input.windows(17).any(|w| w == b"\"hook_event_name\"");
        let basis = if named { Basis::EventNameField } else { Basis::Argv };
        assert_eq!(id.basis, basis, "{}", Fixture::short_id(f));
        assert_eq!(id.confidence, Certain);
        assert_eq!(id.native_name, f.meta.native_event, "{}", Fixture::short_id(f));
        assert_eq!(id.name_conflict, None, "{}", Fixture::short_id(f));
    }
}

#[test]
fn captured_payloads_reconstruct_with_the_expected_evidence() {
    let by_id = |id: &str| identify(None, &PayloadKeys::from_json(&fixtures::CORPUS.case(id).input).unwrap());
    let id = by_id("1.0.102/permission_request-allow");
    assert_eq!(id.basis, Basis::HookNameField, "1.0.102 names permissionRequest");
    let id = by_id("1.0.102/pre_tool_use-deny-json");
    assert_eq!(id.basis, Basis::Shape("toolName"));
    assert_eq!(id.confidence, Medium, "differs from a failure only by `error`");
    let id = by_id("1.0.102/post_tool_use-allow");
    assert_eq!((id.basis, id.confidence), (Basis::Shape("toolResult"), High));
    let id = by_id("1.0.102/agent_stop-allow");
    assert_eq!((id.native_name.as_str(), id.dialect), ("agentStop", Dialect::Camel));
    let id = by_id("docs/notification-example");
    assert_eq!((id.basis, id.dialect), (Basis::EventNameField, Dialect::Camel));
}

#[test]
fn every_camel_rule_picks_its_event() {
    let base = json!({"sessionId": "s", "timestamp": 1, "cwd": "/w"});
    #[rustfmt::skip] // one line per rule, as in the reference's list
    let cases = [
        (json!({"toolName": "bash", "toolInput": {}}), "permissionRequest", High),
        (json!({"toolName": "bash", "toolArgs": {}, "toolResult": {}}), "postToolUse", High),
        (json!({"serverName": "gh", "toolName": "t", "arguments": {}}), "preMcpToolCall", High),
        (json!({"toolName": "bash", "toolArgs": "{}", "error": "x"}), "postToolUseFailure", High),
        (json!({"toolName": "bash", "toolArgs": "{}"}), "preToolUse", Medium),
        (json!({"error": {}, "errorContext": "system", "recoverable": true}), "errorOccurred", High),
        (json!({"transcriptPath": "/t", "trigger": "auto", "customInstructions": ""}), "preCompact", High),
        (json!({"transcriptPath": "/t", "agentName": "a", "stopReason": "end_turn"}), "subagentStop", High),
        (json!({"agentName": "a", "response": "done"}), "subagentStop", Medium),
        (json!({"transcriptPath": "/t", "agentName": "a"}), "subagentStart", Medium),
        (json!({"transcriptPath": "/t", "stopReason": "end_turn", "stop_hook_active": false}), "agentStop", High),
        (json!({"stopHookActive": true}), "agentStop", High),
        (json!({"source": "new"}), "sessionStart", High),
        (json!({"reason": "complete"}), "sessionEnd", High),
        (json!({"prompt": "p", "transformedPrompt": "q"}), "userPromptTransformed", High),
        (json!({"prompt": "p"}), "userPromptSubmitted", High),
        (json!({"message": "m", "notification_type": "agent_idle"}), "notification", Medium),
    ];
    for (extra, event, confidence) in cases {
        let mut m = base.as_object().unwrap().clone();
        m.extend(extra.as_object().unwrap().clone());
        let id = reconstruct(&PayloadKeys::from_map(&m));
        assert_eq!(id.row.map(|r| r.name), Some(event), "{extra}");
        assert_eq!(id.confidence, confidence, "{extra}");
        assert_eq!(
            (id.dialect, id.native_name.as_str()),
            (Dialect::Camel, event),
            "{extra}"
        );
        assert!(id.foreign_keys.is_empty(), "{extra}: {:?}", id.foreign_keys);
    }
}

#[test]
fn names_inside_the_payload_are_certain() {
    let id = shape(
        json!({"timestamp": 1, "cwd": "/w", "hook_event_name": "Notification", "message": "m", "notification_type": "x"}),
    );
    assert_eq!((id.native_name.as_str(), id.dialect), ("notification", Dialect::Camel));
    assert_eq!((id.confidence, id.basis), (Certain, Basis::EventNameField));

    let id = shape(
        json!({"hookName": "permissionRequest", "timestamp": 1, "cwd": "/w", "toolName": "bash", "toolInput": {}}),
    );
    assert_eq!(
        (id.native_name.as_str(), id.basis),
        ("permissionRequest", Basis::HookNameField)
    );

    let id = shape(json!({"hook_event_name": "Stop", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/w"}));
    assert_eq!(id.row, native::row("agentStop"));
    assert_eq!((id.native_name.as_str(), id.dialect), ("Stop", Dialect::Pascal));

    let id = shape(json!({"hook_event_name": "PostResult", "timestamp": "t", "cwd": "/w"}));
    assert_eq!(
        (id.row, id.native_name.as_str(), id.confidence),
        (None, "PostResult", Certain)
    );
}

#[test]
fn the_payload_name_wins_and_conflicts_are_reported() {
    let m = keys(&json!({"timestamp": 1, "cwd": "/w", "toolName": "bash", "toolArgs": {}}));
    let id = identify(Some("postToolUseFailure"), &m);
    assert_eq!(
        (id.native_name.as_str(), id.basis, id.confidence),
        ("postToolUseFailure", Basis::Argv, Certain)
    );

    let id = identify(Some("postResult"), &m);
    assert_eq!((id.row, id.native_name.as_str()), (None, "postResult"));

    let pascal = keys(&json!({"hook_event_name": "PreToolUse", "timestamp": "t", "cwd": "/w", "tool_name": "Bash"}));
    let id = identify(Some("preToolUse"), &pascal);
    assert_eq!(id.dialect, Dialect::Pascal, "the payload decides the dialect");
    assert_eq!((id.native_name.as_str(), id.name_conflict), ("PreToolUse", None));

    let id = identify(Some("postToolUse"), &pascal);
    assert_eq!(id.native_name, "PreToolUse", "the agent's own name wins");
    assert_eq!(id.name_conflict.as_deref(), Some("postToolUse"));

    let named = keys(
        &json!({"hookName": "permissionRequest", "timestamp": 1, "cwd": "/w", "toolName": "bash", "toolInput": {}}),
    );
    let id = identify(Some("preToolUse"), &named);
    assert_eq!(
        (id.native_name.as_str(), id.name_conflict.as_deref()),
        ("preToolUse", Some("permissionRequest"))
    );

    let id = identify(Some("  "), &m);
    assert_eq!(id.basis, Basis::Shape("toolName"), "blank argv is no hint");
}

#[test]
fn ambiguous_and_unknown_shapes_degrade_instead_of_failing() {
    let id = shape(json!({"sessionId": "s", "timestamp": 1, "cwd": "/w"}));
    assert_eq!(
        (id.native_name.as_str(), id.confidence, id.basis),
        ("agentStop", Low, Basis::Fallback)
    );

    let id = shape(json!({"timestamp": 1, "cwd": "/w", "toolName": "bash", "prompt": "p"}));
    assert_eq!((id.native_name.as_str(), id.confidence), ("preToolUse", Low));
    assert_eq!(id.foreign_keys, vec!["prompt".to_owned()]);

    let id = shape(json!({"timestamp": 1, "cwd": "/w", "somethingNew": 1}));
    assert_eq!((id.row, id.native_name.as_str(), id.confidence), (None, "", Low));

    let id = identify_bytes(None, b"not json");
    assert_eq!(
        (id.native_name.as_str(), id.confidence),
        ("agentStop", Low),
        "no keys: fallback guess"
    );
    let id = identify_bytes(Some("preToolUse"), b"[1,2]");
    assert_eq!(id.native_name, "preToolUse");
}

#[test]
fn pascal_payloads_without_a_name_use_the_snake_rules() {
    let id = shape(json!({"session_id": "s", "cwd": "/w", "tool_name": "Bash", "tool_input": {}}));
    assert_eq!(
        (id.dialect, id.native_name.as_str(), id.confidence),
        (Dialect::Pascal, "PreToolUse", Medium)
    );
    let id = shape(json!({"session_id": "s", "timestamp": "t", "cwd": "/w", "tool_name": "Bash", "tool_response": {}}));
    assert_eq!(id.native_name, "PostToolUse");
    let id = shape(
        json!({"session_id": "s", "timestamp": "t", "cwd": "/w", "tool_name": "Bash", "tool_input": {}, "permission_suggestions": []}),
    );
    assert_eq!(
        (id.native_name.as_str(), id.confidence),
        ("PermissionRequest", Medium),
        "never above medium"
    );
}
