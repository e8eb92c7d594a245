//! Every fixture decodes into its native typed struct, losslessly.

use agenthooks_copilot::args::{self, ArgsForm};
use agenthooks_copilot::identify::identify_bytes;
use agenthooks_copilot::native::{pascal, Dialect, EventName, NativeEvent};
use serde_json::{json, Map, Value};

use crate::fixtures;

fn decode(case: &fixtures::Case) -> NativeEvent {
    let id = identify_bytes(case.argv_event.as_deref(), &case.input);
    let event = id.event.unwrap_or_else(|| panic!("{}: unknown event", case.id));
    NativeEvent::decode(event, id.dialect, &case.input).unwrap_or_else(|e| panic!("{}: {e}", case.id))
}

#[test]
fn every_fixture_decodes_and_serializes_back_to_the_same_object() {
    for case in fixtures::all() {
        let native = decode(&case);
        assert_eq!(native.wire_name(), Some(case.native_event.as_str()), "{}", case.id);
        // Typed fields + `extra` hold everything: re-serializing gives the same JSON object
        // (key order aside, floats aside).
        let original: Value = serde_json::from_slice(&case.input).unwrap();
        let back = serde_json::to_value(&native).unwrap();
        assert_eq!(back, original, "{}", case.id);
    }
}

#[test]
fn only_undocumented_keys_land_in_extra() {
    for case in fixtures::all() {
        let native = decode(&case);
        let extra = native.extra().unwrap();
        let expected: &[&str] = if case.id.ends_with("pre_tool_use-extra-keys") {
            &["sandbox"]
        } else {
            &[]
        };
        let keys: Vec<&str> = extra.keys().map(String::as_str).collect();
        assert_eq!(keys, expected, "{} ({})", case.id, case.source);
    }
}

#[test]
fn captured_pre_tool_use_has_object_args() {
    let case = fixtures::all()
        .into_iter()
        .find(|c| c.id == "1.0.102/pre_tool_use-allow")
        .unwrap();
    let NativeEvent::PreToolUse(e) = decode(&case) else {
        panic!("preToolUse expected")
    };
    assert_eq!(e.tool_name, "bash");
    assert_eq!(e.session_id.as_deref(), Some("9b6a1d42-4a36-4a53-8444-594a0f8f9177"));
    assert_eq!(e.timestamp.unix_millis(), Some(1_796_040_711_043));
    let a = args::normalize(e.tool_args.as_ref());
    assert_eq!(a.form, ArgsForm::Object);
    assert_eq!(a.input.get("command"), Some(&json!("echo hi > marker.txt")));
}

#[test]
fn documented_string_args_are_parsed_and_kept_raw() {
    let case = fixtures::all()
        .into_iter()
        .find(|c| c.id == "docs/pre_tool_use-example")
        .unwrap();
    let NativeEvent::PreToolUse(e) = decode(&case) else {
        panic!("preToolUse expected")
    };
    let a = args::normalize(e.tool_args.as_ref());
    assert_eq!(a.form, ArgsForm::EncodedObject);
    assert_eq!(a.input.get("command"), Some(&json!("git push --force origin main")));
    assert_eq!(
        a.raw,
        Some(json!(
            "{\"command\": \"git push --force origin main\", \"description\": \"Push release\"}"
        ))
    );
}

#[test]
fn permission_request_carries_tool_input_and_hook_name() {
    let case = fixtures::all()
        .into_iter()
        .find(|c| c.id == "1.0.102/permission_request-allow")
        .unwrap();
    let NativeEvent::PermissionRequest(e) = decode(&case) else {
        panic!("permissionRequest expected")
    };
    assert_eq!(e.hook_name.as_deref(), Some("permissionRequest"));
    assert_eq!(e.tool_input, json!({"command": "echo hi > marker.txt"}));
    assert_eq!(e.permission_suggestions, Some(json!([])));
}

#[test]
fn pascal_fixtures_decode_in_the_vscode_dialect() {
    let mut seen = Vec::new();
    for case in fixtures::all().into_iter().filter(|c| c.id.ends_with("-pascal")) {
        let NativeEvent::Pascal(p) = decode(&case) else {
            panic!("{}: pascal expected", case.id)
        };
        assert_eq!(p.hook_event_name(), case.native_event);
        assert_eq!(native_dialect(&case), Dialect::Pascal);
        if let pascal::PascalEvent::PreToolUse(e) = &p {
            assert_eq!(e.tool_name, "Read", "Claude tool names in this dialect");
            assert!(e.timestamp.unix_millis().is_some());
        }
        seen.push(p.event());
    }
    seen.sort();
    assert_eq!(seen, EventName::ALL.to_vec(), "one PascalCase fixture per event");
}

fn native_dialect(case: &fixtures::Case) -> Dialect {
    identify_bytes(None, &case.input).dialect
}

#[test]
fn every_event_has_a_camel_fixture() {
    let mut seen: Vec<EventName> = fixtures::all()
        .iter()
        .filter_map(|c| EventName::from_camel(&c.native_event))
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen, EventName::ALL.to_vec());
}

#[test]
fn lenient_fields_decode_on_their_fixtures() {
    let find = |id: &str| {
        let case = fixtures::all().into_iter().find(|c| c.id == id).unwrap();
        decode(&case)
    };
    let NativeEvent::AgentStop(e) = find("docs/agent_stop-stop-hook-active-sdk") else {
        panic!()
    };
    assert!(e.previously_continued());
    assert_eq!(e.stop_hook_active, None);
    let NativeEvent::ErrorOccurred(e) = find("docs/error_occurred-string-error") else {
        panic!()
    };
    assert_eq!(e.error.message(), Some("Rate limit exceeded"));
    let NativeEvent::ErrorOccurred(e) = find("docs/error_occurred") else {
        panic!()
    };
    assert_eq!(e.error.message(), Some("Request timed out after 60000ms"));
    let NativeEvent::PreToolUse(e) = find("docs/pre_tool_use-fractional-timestamp") else {
        panic!()
    };
    assert_eq!(e.timestamp.unix_millis(), Some(1_784_283_185_447));
    let NativeEvent::PreToolUse(e) = find("docs/pre_tool_use-no-args") else {
        panic!()
    };
    assert_eq!(args::normalize(e.tool_args.as_ref()).form, ArgsForm::Absent);
    let NativeEvent::PreToolUse(e) = find("docs/pre_tool_use-unparseable-args") else {
        panic!()
    };
    let a = args::normalize(e.tool_args.as_ref());
    assert_eq!(a.form, ArgsForm::Unparseable);
    assert_eq!(a.raw, Some(json!("echo hi > marker.txt")));
    let NativeEvent::PreToolUse(e) = find("docs/pre_tool_use-extra-keys") else {
        panic!()
    };
    assert_eq!(e.agent_id.as_deref(), Some("agent-2"));
    assert_eq!(
        e.traceparent.as_deref(),
        Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    );
    let mut extra = Map::new();
    extra.insert("sandbox".into(), json!({"mode": "workspace-write"}));
    assert_eq!(e.extra, extra);
}
