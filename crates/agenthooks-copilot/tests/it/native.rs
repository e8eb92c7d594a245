//! The native structs: both dialects into one table, unknown keys kept, lenient fields.

use agenthooks_copilot::args::{self, ArgsForm};
use agenthooks_copilot::native::{self, Dialect, NativeEvent, EVENTS};
use agenthooks_copilot::{view, CODEC};
use agenthooks_core::kit::EventRow;
use agenthooks_core::Codec;
use serde_json::{json, Map, Value};

use agenthooks_testkit::Fixture;

use crate::fixtures::{self, decode};

fn native_of(id: &str) -> NativeEvent {
    let ev = decode(fixtures::CORPUS.case(id), true);
    view(ev.envelope()).cloned().unwrap()
}

#[test]
fn camel_fixtures_serialize_back_to_the_same_object() {
    for f in fixtures::CORPUS.cases() {
        let ev = decode(f, true);
        let native = view(ev.envelope()).unwrap();
        let id = Fixture::short_id(f);
        assert_eq!(native.row(), CODEC.row(&f.meta.native_event), "{id}");
        // Typed fields + `extra` hold everything. camelCase payloads re-serialize to the same
        // JSON object (key order aside); PascalCase ones come back camelCase, same values.
        let original: Value = serde_json::from_slice(&f.input).unwrap();
        let back = serde_json::to_value(native).unwrap();
        if native::spelled(&f.meta.native_event).map(|(_, d)| d) == Some(Dialect::Camel) {
            assert_eq!(back, original, "{id}");
        } else {
            assert_eq!(
                back.as_object().map(Map::len),
                original.as_object().map(Map::len),
                "{id}"
            );
        }
    }
}

#[test]
fn only_undocumented_keys_land_in_extra() {
    for f in fixtures::CORPUS.cases() {
        let ev = decode(f, true);
        let extra = view(ev.envelope()).unwrap().extra();
        let expected: &[&str] = if f.case == "pre_tool_use-extra-keys" {
            &["sandbox"]
        } else {
            &[]
        };
        let keys: Vec<&str> = extra.keys().map(String::as_str).collect();
        assert_eq!(keys, expected, "{} ({})", Fixture::short_id(f), f.meta.source);
    }
}

#[test]
fn both_spellings_name_one_row() {
    for row in EVENTS {
        for dialect in [Dialect::Camel, Dialect::Pascal] {
            let name = native::name_in(row, dialect);
            assert_eq!(native::spelled(&name), Some((row, dialect)), "{name}");
        }
    }
    assert_eq!(
        native::name_in(native::row("agentStop").unwrap(), Dialect::Pascal),
        "Stop"
    );
    for never in ["AgentStop", "UserPromptSubmitted", "PREToolUse", "postResult", ""] {
        assert_eq!(native::row(never), None, "{never}");
    }
}

#[test]
fn every_event_has_a_fixture_in_each_dialect() {
    let mut seen: Vec<(&str, Dialect)> = fixtures::CORPUS
        .cases()
        .iter()
        .filter_map(|f| native::spelled(&f.meta.native_event).map(|(r, d)| (r.name, d)))
        .collect();
    seen.sort_by_key(|(n, d)| (*n, *d == Dialect::Pascal));
    seen.dedup();
    let mut all: Vec<(&str, Dialect)> = EVENTS
        .iter()
        .flat_map(|r: &EventRow| [(r.name, Dialect::Camel), (r.name, Dialect::Pascal)])
        .collect();
    all.sort_by_key(|(n, d)| (*n, *d == Dialect::Pascal));
    assert_eq!(seen, all);
}

#[test]
fn captured_payloads_type_as_sent() {
    let NativeEvent::PreToolUse(e) = native_of("1.0.102/pre_tool_use-allow") else {
        panic!("preToolUse expected")
    };
    assert_eq!(e.tool_name, "bash");
    assert_eq!(e.session_id.as_deref(), Some("9b6a1d42-4a36-4a53-8444-594a0f8f9177"));
    assert_eq!(
        e.timestamp.as_ref().and_then(native::Timestamp::unix_millis),
        Some(1_796_040_711_043)
    );
    let a = args::normalize(e.tool_args.as_ref());
    assert_eq!(a.form, ArgsForm::Object);
    assert_eq!(a.input.get("command"), Some(&json!("echo hi > marker.txt")));

    let NativeEvent::PermissionRequest(e) = native_of("1.0.102/permission_request-allow") else {
        panic!("permissionRequest expected")
    };
    assert_eq!(e.hook_name.as_deref(), Some("permissionRequest"));
    assert_eq!(e.tool_input, Some(json!({"command": "echo hi > marker.txt"})));
    assert_eq!(e.permission_suggestions, Some(json!([])));

    let NativeEvent::PreToolUse(e) = native_of("docs/pre_tool_use-pascal") else {
        panic!("PreToolUse expected")
    };
    assert_eq!(e.tool_name, "Read", "Claude tool names in this dialect");
    assert_eq!(e.hook_event_name.as_deref(), Some("PreToolUse"));
    assert!(e.timestamp.as_ref().and_then(native::Timestamp::unix_millis).is_some());
    assert_eq!(
        e.tool_args,
        Some(json!({"path": "src/cart.ts"})),
        "`tool_input` is `toolArgs`"
    );
}

#[test]
fn lenient_fields_decode_on_their_fixtures() {
    let NativeEvent::AgentStop(e) = native_of("docs/agent_stop-stop-hook-active-sdk") else {
        panic!()
    };
    assert!(e.previously_continued());
    assert_eq!(e.stop_hook_active, None);
    let NativeEvent::ErrorOccurred(e) = native_of("docs/error_occurred-string-error") else {
        panic!()
    };
    assert_eq!(
        e.error.as_ref().and_then(native::ErrorDetail::message),
        Some("Rate limit exceeded")
    );
    let NativeEvent::ErrorOccurred(e) = native_of("docs/error_occurred") else {
        panic!()
    };
    assert_eq!(
        e.error.as_ref().and_then(native::ErrorDetail::message),
        Some("Request timed out after 60000ms")
    );
    let NativeEvent::PreToolUse(e) = native_of("docs/pre_tool_use-fractional-timestamp") else {
        panic!()
    };
    assert_eq!(
        e.timestamp.as_ref().and_then(native::Timestamp::unix_millis),
        Some(1_784_283_185_447)
    );
    let NativeEvent::PreToolUse(e) = native_of("docs/pre_tool_use-no-args") else {
        panic!()
    };
    assert_eq!(args::normalize(e.tool_args.as_ref()).form, ArgsForm::Absent);
    let NativeEvent::PreToolUse(e) = native_of("docs/pre_tool_use-unparseable-args") else {
        panic!()
    };
    let a = args::normalize(e.tool_args.as_ref());
    assert_eq!(a.form, ArgsForm::Unparseable);
    assert_eq!(a.raw, Some(json!("echo hi > marker.txt")));
    let NativeEvent::PreToolUse(e) = native_of("docs/pre_tool_use-example") else {
        panic!()
    };
    let a = args::normalize(e.tool_args.as_ref());
    assert_eq!(a.form, ArgsForm::EncodedObject);
    assert_eq!(a.input.get("command"), Some(&json!("git push --force origin main")));
    let NativeEvent::PreToolUse(e) = native_of("docs/pre_tool_use-extra-keys") else {
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

#[test]
fn rows_carry_the_install_facts() {
    let tool_events: Vec<&str> = EVENTS.iter().filter(|r| r.tool_matcher).map(|r| r.name).collect();
    assert_eq!(
        tool_events,
        ["preToolUse", "postToolUse", "postToolUseFailure", "permissionRequest"]
    );
    for row in EVENTS {
        assert!(row.primary, "{}: install wires every event for its kind", row.name);
        assert!(!row.may_async, "{}: Copilot has no async hooks", row.name);
        assert_eq!(row.timeout_clamp, None, "{}: timeoutSec is not clamped", row.name);
        assert!(!row.provider_only, "{}", row.name);
        assert_eq!(row.tool_matcher, !row.identifying.is_empty(), "{}", row.name);
    }
}
