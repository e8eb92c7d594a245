//! Every fixture decodes, round-trips losslessly and validates against Codex's input schema.

use std::collections::BTreeSet;

use agenthooks_codex::native::{self, NativeEvent, NATIVE_EVENTS};
use serde_json::Value;

use crate::support::{cases, input_schema};

#[test]
fn corpus_is_complete() {
    let cases = cases();
    let stdin_events: BTreeSet<&str> = cases
        .iter()
        .filter(|c| c.transport == "stdin")
        .map(|c| c.native_event.as_str())
        .collect();
    for (name, _) in NATIVE_EVENTS {
        assert!(stdin_events.contains(name), "no fixture for {name}");
    }
    // one hand-made case per event, sourced from the docs
    for (name, _) in NATIVE_EVENTS {
        assert!(
            cases
                .iter()
                .any(|c| c.id.starts_with("docs/") && c.native_event == *name && c.source.starts_with("docs")),
            "no docs fixture for {name}"
        );
    }
    assert!(cases.iter().any(|c| c.transport == "argv"), "no notify fixture");
    assert!(cases.iter().filter(|c| c.id.starts_with("0.171.0/")).count() >= 6);
}

#[test]
fn inputs_are_compact_single_line_json() {
    for case in cases() {
        let text = std::str::from_utf8(&case.input).unwrap();
        assert!(!text.ends_with('\n'), "{}: trailing newline", case.id);
        assert!(!text.contains('\n'), "{}: not one line", case.id);
        let recompacted = serde_json::to_string(&case.json()).unwrap();
        assert_eq!(recompacted, text, "{}: not compact serde_json form", case.id);
    }
}

#[test]
fn stdin_fixtures_decode_round_trip_and_validate() {
    let mut checked = 0;
    for case in cases().into_iter().filter(|c| c.transport == "stdin") {
        let event = native::decode(&case.input).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert!(!matches!(event, NativeEvent::Other(_)), "{}: decoded as Other", case.id);
        assert_eq!(event.hook_event_name(), case.native_event, "{}", case.id);
        assert!(
            event.extra().is_empty(),
            "{}: unexpected extra {:?}",
            case.id,
            event.extra()
        );
        // lossless: the typed struct serialises back to the same JSON value
        assert_eq!(serde_json::to_value(&event).unwrap(), case.json(), "{}", case.id);

        let schema = input_schema(&case.native_event)
            .unwrap_or_else(|| panic!("{}: no input schema for {}", case.id, case.native_event));
        if let Err(errors) = schema.validate(&case.json()) {
            panic!("{}: schema violations: {errors:#?}", case.id);
        }
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} stdin fixtures");
}

#[test]
fn notify_fixtures_decode_from_argv() {
    let mut checked = 0;
    for case in cases().into_iter().filter(|c| c.transport == "argv") {
        let arg = case.argv.last().unwrap_or_else(|| panic!("{}: no argv", case.id));
        assert_eq!(arg.as_bytes(), case.input.as_slice(), "{}: argv != input.json", case.id);
        let notify = native::decode_notify(arg).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert_eq!(notify.kind, case.native_event, "{}", case.id);
        assert!(notify.extra.is_empty(), "{}", case.id);
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn captured_values_decode_as_seen_on_the_wire() {
    let cases = cases();
    let find = |id: &str| cases.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("{id}"));

    let NativeEvent::PreToolUse(pre) = native::decode(&find("0.171.0/pre_tool_use-allow").input).unwrap() else {
        panic!("not PreToolUse")
    };
    assert_eq!(pre.tool_name, "Bash");
    assert_eq!(pre.tool_input["command"], "echo hi > marker.txt");
    assert_eq!(pre.tool_use_id, "call_0003");
    assert_eq!(pre.permission_mode, native::PermissionMode::BypassPermissions);

    let NativeEvent::PostToolUse(post) = native::decode(&find("0.171.0/post_tool_use-allow").input).unwrap() else {
        panic!("not PostToolUse")
    };
    assert_eq!(post.tool_response, Value::String(String::new()));

    let NativeEvent::SessionEnd(end) = native::decode(&find("docs/session_end-example").input).unwrap() else {
        panic!("not SessionEnd")
    };
    assert_eq!(end.transcript_path, None);
    assert_eq!(end.reason, native::SessionEndReason::Unspecified);

    let NativeEvent::PostToolUse(mcp) = native::decode(&find("docs/post_tool_use-example").input).unwrap() else {
        panic!("not PostToolUse")
    };
    assert_eq!(mcp.agent_type.as_deref(), Some("explorer"));
    assert_eq!(mcp.tool_response["isError"], Value::Bool(false));
}
