//! The native structs: every fixture decodes exactly into its typed event, and the shapes Kimi
//! really sends are typed as such.

use std::collections::BTreeSet;

use agenthooks_core::{EventKind, Provider};
use agenthooks_kimi::native::{ContentPart, FailureError, NativeEvent, Prompt, EVENTS};
use serde_json::Value;

use crate::CORPUS;

/// The typed event of a payload, asserting it decoded exactly (no repair).
fn exact(bytes: &[u8]) -> NativeEvent {
    let d = NativeEvent::decode(&Provider::KIMI, bytes, None).unwrap_or_else(|e| panic!("decode failed: {e}"));
    assert!(
        d.is_exact() && d.issues.is_empty(),
        "{}: {:?}",
        String::from_utf8_lossy(bytes),
        d.issues
    );
    d.native
}

fn exact_str(s: &str) -> NativeEvent {
    exact(s.as_bytes())
}

#[test]
fn every_fixture_decodes_exactly_into_its_typed_event() {
    for f in CORPUS.cases() {
        let ev = exact(&f.input);
        assert!(!matches!(ev, NativeEvent::Other(_)), "{}: decoded as Other", f.id());
        assert!(ev.cwd().is_some_and(|c| !c.is_empty()), "{}", f.id());
        // input.json is compact, one line, no trailing newline: what Kimi writes.
        assert_ne!(f.input.last(), Some(&b'\n'), "{}", f.id());
    }
}

#[test]
fn every_native_event_has_a_docs_and_a_handmade_fixture() {
    let covered: BTreeSet<_> = CORPUS.cases().iter().map(|f| f.meta.native_event.as_str()).collect();
    for row in EVENTS {
        assert!(covered.contains(row.name), "no fixture for {}", row.name);
    }
    let docs: BTreeSet<_> = CORPUS
        .cases()
        .iter()
        .filter(|f| f.version == "docs")
        .map(|f| f.meta.native_event.as_str())
        .collect();
    assert_eq!(docs.len(), EVENTS.len());
}

#[test]
fn rows_hold_kimis_facts() {
    assert_eq!(EVENTS.len(), 20);
    let names: BTreeSet<_> = EVENTS.iter().map(|r| r.name).collect();
    assert_eq!(names.len(), 20);
    let blocking: Vec<_> = EVENTS.iter().filter(|r| r.blocking).map(|r| r.name).collect();
    assert_eq!(blocking, ["PreToolUse", "UserPromptSubmit", "Stop"]);
    let others: Vec<_> = EVENTS.iter().filter(|r| r.kind == EventKind::Other).collect();
    assert_eq!(others.len(), 7);
    // Install wires every mapped kind on exactly one event, never an unmapped one.
    assert!(others.iter().all(|r| !r.primary));
    assert!(EVENTS.iter().filter(|r| r.kind != EventKind::Other).all(|r| r.primary));
    // Kimi has no async hooks and accepts timeouts up to 600 s on every event.
    assert!(EVENTS.iter().all(|r| !r.may_async));
    assert!(EVENTS.iter().all(|r| r.timeout_clamp.map(|d| d.as_secs()) == Some(600)));
    let tools: Vec<_> = EVENTS
        .iter()
        .filter(|r| r.identifying == ["tool_name"])
        .map(|r| r.name)
        .collect();
    assert_eq!(
        tools,
        ["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]
    );
}

#[test]
fn only_unknown_keys_land_in_extra() {
    for f in CORPUS.cases() {
        let ev = exact(&f.input);
        if f.case == "stop-unknown-keys" {
            let keys: Vec<_> = ev.extra().keys().map(String::as_str).collect();
            assert_eq!(keys, ["stop_reason", "usage"]);
        } else {
            assert!(ev.extra().is_empty(), "{}: unexpected extra {:?}", f.id(), ev.extra());
        }
    }
}

#[test]
fn serialize_then_reparse_equals_input_value() {
    for f in CORPUS.cases() {
        let back = serde_json::to_value(exact(&f.input)).unwrap_or_else(|e| panic!("{}: {e}", f.id()));
        let orig: Value = serde_json::from_slice(&f.input).unwrap_or_else(|e| panic!("{}: {e}", f.id()));
        assert_eq!(back, orig, "{}", f.id());
    }
}

#[test]
fn captured_failure_error_is_an_object() {
    let NativeEvent::PostToolUseFailure(f) = exact(&CORPUS.case("post_tool_use_failure-deny-exit2").input) else {
        panic!("wrong variant")
    };
    let Some(FailureError::Structured(err)) = &f.error else {
        panic!("error not structured: {:?}", f.error)
    };
    assert_eq!(err.code, "internal");
    assert_eq!(err.message, "agenthooks-probe: blocked by policy (exit 2)");
    assert_eq!(err.retryable, Some(false));
    assert_eq!(f.tool_call_id.as_deref(), Some("call_bf4dd43c0503"));
    assert_eq!(
        f.tool_input.as_ref().map(|i| &i["command"]),
        Some(&Value::from("echo hi > marker.txt"))
    );
}

#[test]
fn handmade_failure_error_keeps_cause_and_details() {
    let NativeEvent::PostToolUseFailure(f) = exact(&CORPUS.case("post_tool_use_failure-cause").input) else {
        panic!("wrong variant")
    };
    let err = f
        .error
        .as_ref()
        .and_then(FailureError::as_structured)
        .expect("structured");
    assert_eq!(err.name.as_deref(), Some("Error"));
    assert_eq!(err.details.as_ref().map(|d| d["syscall"].clone()), Some("open".into()));
    assert_eq!(err.cause.as_ref().map(|c| c.message.as_str()), Some("EACCES"));
}

#[test]
fn captured_prompt_is_content_parts() {
    let NativeEvent::UserPromptSubmit(p) = exact(&CORPUS.case("user_prompt_submit-allow").input) else {
        panic!("wrong variant")
    };
    let prompt = p.prompt.as_ref().expect("a prompt");
    assert_eq!(prompt.text(), "Create marker.txt by running: echo hi > marker.txt");
    assert_eq!(prompt.parts().map(<[_]>::len), Some(1));
    assert_eq!(p.is_steer, Some(false));
    assert_eq!(p.session_title, None);
    assert_eq!(p.client_type.as_deref(), Some("kimi_code_cli"));
}

#[test]
fn handmade_prompt_parts_keep_the_image() {
    let NativeEvent::UserPromptSubmit(p) = exact(&CORPUS.case("user_prompt_submit-content-parts").input) else {
        panic!("wrong variant")
    };
    let prompt = p.prompt.as_ref().expect("a prompt");
    assert_eq!(
        prompt.text(),
        "What is wrong with this layout?\nFix it in src/checkout.css"
    );
    assert!(prompt.has_non_text_parts());
    let parts = prompt.parts().unwrap_or_default();
    assert_eq!(parts[1].kind, "image_url");
    assert_eq!(parts[1].extra["imageUrl"]["id"], "img_1");
}

#[test]
fn captured_tool_output_is_a_string_and_turn_id_a_number() {
    let NativeEvent::PostToolUse(p) = exact(&CORPUS.case("post_tool_use-allow").input) else {
        panic!("wrong variant")
    };
    assert_eq!(p.tool_output_text(), "Command executed successfully.");
    let NativeEvent::TurnStarted(t) = exact(&CORPUS.case("turn_started-allow").input) else {
        panic!("wrong variant")
    };
    assert_eq!(t.turn_id, Some(0));
    assert_eq!(t.origin_kind.as_deref(), Some("user"));
    assert_eq!(
        t.prompt.as_ref().map(|p| p.text().into_owned()).as_deref(),
        Some("Create marker.txt by running: echo hi > marker.txt")
    );
}

#[test]
fn prompt_as_content_parts_normalizes_text_and_keeps_parts() {
    let e = exact_str(
        r#"{"hook_event_name":"UserPromptSubmit","session_id":"s","cwd":"/p","client_type":"kimi_code_cli","prompt":[{"type":"text","text":"hello"},{"type":"image_url","imageUrl":{"url":"data:x"}},{"type":"text","text":"world"}],"is_steer":false}"#,
    );
    let NativeEvent::UserPromptSubmit(p) = e else {
        panic!("wrong variant")
    };
    let prompt = p.prompt.as_ref().expect("a prompt");
    assert_eq!(prompt.text(), "hello\nworld");
    assert_eq!(prompt.matcher_text(), "hello world");
    assert_eq!(prompt.parts().map(<[ContentPart]>::len), Some(3));
    assert!(prompt.has_non_text_parts());
    let image = &prompt.parts().unwrap_or_default()[1];
    assert_eq!(image.kind, "image_url");
    assert_eq!(image.extra["imageUrl"]["url"], "data:x");
    assert_eq!(p.is_steer, Some(false));
    assert_eq!(p.client_type.as_deref(), Some("kimi_code_cli"));
}

#[test]
fn prompt_as_string() {
    let e = exact_str(
        r#"{"hook_event_name":"UserPromptSubmit","session_id":"s","cwd":"/p","prompt":"hi there","is_steer":true}"#,
    );
    let NativeEvent::UserPromptSubmit(p) = e else {
        panic!("wrong variant")
    };
    assert_eq!(p.prompt, Some(Prompt::Text("hi there".into())));
    let prompt = p.prompt.as_ref().expect("a prompt");
    assert_eq!(prompt.text(), "hi there");
    assert!(prompt.parts().is_none());
    assert!(!prompt.has_non_text_parts());
}

#[test]
fn failure_error_object_is_typed() {
    let e = exact_str(
        r#"{"hook_event_name":"PostToolUseFailure","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"x"},"tool_call_id":"c1","error":{"code":"internal","message":"boom","retryable":false,"cause":{"code":"internal","message":"root","retryable":true,"hint":1}}}"#,
    );
    let NativeEvent::PostToolUseFailure(f) = e else {
        panic!("wrong variant")
    };
    let err = f.error.as_ref().expect("an error");
    assert_eq!(err.message(), "boom");
    assert_eq!(err.code(), Some("internal"));
    let s = err.as_structured().map(|s| (s.retryable, s.cause.is_some()));
    assert_eq!(s, Some((Some(false), true)));
    let cause = err.as_structured().and_then(|s| s.cause.as_deref());
    assert_eq!(cause.map(|c| c.extra["hint"].clone()), Some(Value::from(1)));
}

#[test]
fn failure_error_string_still_decodes() {
    // kimi-cli (Python) sends the error as a string.
    let e = exact_str(
        r#"{"hook_event_name":"PostToolUseFailure","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{},"tool_call_id":"c1","error":"old style"}"#,
    );
    let NativeEvent::PostToolUseFailure(f) = e else {
        panic!("wrong variant")
    };
    assert_eq!(f.error, Some(FailureError::Message("old style".into())));
    let err = f.error.as_ref().expect("an error");
    assert_eq!(err.message(), "old style");
    assert_eq!(err.code(), None);
}

#[test]
fn unknown_keys_land_in_extra_in_order() {
    let e = exact_str(
        r#"{"hook_event_name":"Stop","session_id":"s","cwd":"/p","z_new":1,"stop_hook_active":false,"a_new":{"x":[1]}}"#,
    );
    let keys: Vec<_> = e.extra().keys().cloned().collect();
    assert_eq!(keys, ["z_new", "a_new"]);
    assert_eq!(e.name(), "Stop");
    assert_eq!(e.kind(), EventKind::Stop);
    assert!(e.row().is_some_and(|r| r.blocking));
}

#[test]
fn unknown_event_is_other_with_every_key() {
    let e = exact_str(r#"{"hook_event_name":"BrandNew","session_id":"s","cwd":"/p","x":true}"#);
    assert!(matches!(e, NativeEvent::Other(_)));
    assert_eq!(e.name(), "BrandNew");
    assert_eq!(e.session_id().map(String::as_str), Some("s"));
    assert_eq!(e.cwd().map(String::as_str), Some("/p"));
    assert_eq!(e.kind(), EventKind::Other);
    assert!(e.row().is_none());
    assert_eq!(e.extra()["x"], Value::Bool(true));
    let back = serde_json::to_string(&e).unwrap_or_default();
    assert_eq!(
        back,
        r#"{"hook_event_name":"BrandNew","session_id":"s","cwd":"/p","x":true}"#
    );
}

#[test]
fn numbers_stay_numbers() {
    let e = exact_str(
        r#"{"hook_event_name":"PreCompact","session_id":"s","cwd":"/p","trigger":"auto","token_count":123456}"#,
    );
    let NativeEvent::PreCompact(c) = e else {
        panic!("wrong variant")
    };
    assert_eq!(c.token_count.and_then(|n| n.as_u64()), Some(123_456));
    let e = exact_str(
        r#"{"hook_event_name":"PostCompact","session_id":"s","cwd":"/p","trigger":"auto","estimated_token_count":1.5}"#,
    );
    let NativeEvent::PostCompact(c) = e else {
        panic!("wrong variant")
    };
    assert_eq!(c.estimated_token_count.and_then(|n| n.as_f64()), Some(1.5));
}

#[test]
fn serialize_round_trips_to_equal_value() {
    let src = r#"{"hook_event_name":"PermissionResult","session_id":"s","cwd":"/p","client_type":"kimi_code_cli","id":"approval_1","agent_id":"main","turn_id":2,"tool_call_id":"c","tool_name":"Write","action":"Writing a.txt","display":{"kind":"file_io","operation":"write","path":"/p/a.txt"},"tool_input":{"path":"a.txt"},"decision":"approved","scope":"session","later":"x"}"#;
    let back = serde_json::to_value(exact_str(src)).ok();
    let orig: Option<Value> = serde_json::from_str(src).ok();
    assert!(back.is_some());
    assert_eq!(back, orig);
}

#[test]
fn null_free_shapes_are_kept_as_null() {
    let src = r#"{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":null,"tool_call_id":"c","tool_output":null}"#;
    let NativeEvent::PostToolUse(p) = exact_str(src) else {
        panic!("wrong variant")
    };
    assert_eq!(
        (
            p.tool_input.as_ref().map(agenthooks_core::RawJson::value),
            p.tool_output.as_ref().map(agenthooks_core::RawJson::value)
        ),
        (Some(&Value::Null), Some(&Value::Null))
    );
    assert_eq!(p.tool_output_text(), "");
    assert_eq!(serde_json::to_string(&p).ok().as_deref(), Some(src));
}

#[test]
fn garbage_is_a_typed_error() {
    let p = Provider::KIMI;
    for bad in [
        &b"[1]"[..],
        b"{",
        b"",
        br#"{"session_id":"s"}"#,
        br#"{"hook_event_name":7}"#,
    ] {
        assert!(
            NativeEvent::decode(&p, bad, None).is_err(),
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
}
