//! The typed native structs on hand-made payloads: each event, its typed fields, `extra`
//! capture and write-back, unknown events, and what the tolerant decoder repairs.
use agenthooks_core::kit::{Decoded, Repair};
use agenthooks_core::{EventKind, Provider};
use agenthooks_gemini::native::{NativeEvent, EVENTS};
use serde_json::Value;

const BASE: &str =
    r#""session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","timestamp":"2026-11-30T11:59:25.376Z""#;

fn payload(event: &str, rest: &str) -> Vec<u8> {
    let sep = if rest.is_empty() { "" } else { "," };
    format!(r#"{{{BASE},"hook_event_name":"{event}"{sep}{rest}}}"#).into_bytes()
}

fn to_value(ev: &NativeEvent) -> Value {
    serde_json::to_value(ev).unwrap()
}

fn decoded(bytes: &[u8]) -> Decoded<NativeEvent> {
    NativeEvent::decode(&Provider::GEMINI, bytes, None).unwrap_or_else(|e| panic!("{e}"))
}

fn decode(bytes: &[u8]) -> NativeEvent {
    let d = decoded(bytes);
    assert!(d.issues.is_empty(), "{:?}", d.issues);
    d.native
}

#[test]
fn decodes_each_event_and_keeps_the_base_fields() {
    let cases: &[(&str, &str)] = &[
        ("SessionStart", r#""source":"resume""#),
        ("SessionEnd", r#""reason":"logout""#),
        ("BeforeAgent", r#""prompt":"p""#),
        (
            "AfterAgent",
            r#""prompt":"p","prompt_response":"r","stop_hook_active":true"#,
        ),
        (
            "BeforeTool",
            r#""tool_name":"read_file","tool_input":{"file_path":"a"}"#,
        ),
        (
            "AfterTool",
            r#""tool_name":"read_file","tool_input":{},"tool_response":{"llmContent":"x","returnDisplay":""}"#,
        ),
        ("BeforeModel", r#""llm_request":{"model":"m","messages":[]}"#),
        (
            "AfterModel",
            r#""llm_request":{},"llm_response":{"candidates":[{"content":{"role":"model","parts":["a",{"text":"b"}]},"finishReason":"STOP","index":0}]}"#,
        ),
        ("BeforeToolSelection", r#""llm_request":{"toolConfig":{"mode":"AUTO"}}"#),
        ("PreCompress", r#""trigger":"manual""#),
        (
            "Notification",
            r#""notification_type":"ToolPermission","message":"m","details":{"type":"exec"}"#,
        ),
    ];
    assert_eq!(cases.len(), EVENTS.len());
    for (name, rest) in cases {
        let bytes = payload(name, rest);
        let ev = decode(&bytes);
        assert_eq!(ev.name(), *name);
        assert!(!matches!(ev, NativeEvent::Other(_)), "{name}");
        assert_eq!(ev.timestamp().map(String::as_str), Some("2026-11-30T11:59:25.376Z"));
        assert_eq!(ev.session_id().map(String::as_str), Some("s1"));
        assert_eq!(ev.cwd().map(String::as_str), Some("/p"));
        assert_eq!(ev.transcript_path().map(String::as_str), Some("/t.jsonl"));
        assert!(ev.extra().is_empty(), "{name}: {:?}", ev.extra());
        // Written back as received (byte for byte in Gemini's key order: the fixtures).
        assert_eq!(
            to_value(&ev),
            serde_json::from_slice::<Value>(&bytes).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn typed_fields_decode() {
    let ev = decode(&payload(
        "AfterAgent",
        r#""prompt":"p","prompt_response":"r","stop_hook_active":true"#,
    ));
    let NativeEvent::AfterAgent(a) = ev else {
        panic!("wrong variant")
    };
    assert_eq!(a.stop_hook_active, Some(true));
    assert_eq!(a.prompt_response.as_deref(), Some("r"));

    let ev = decode(&payload(
        "AfterModel",
        r#""llm_request":{"model":"m","messages":[{"role":"user","content":"hi"}],"config":{"topK":64}},"llm_response":{"text":"ok","candidates":[{"content":{"role":"model","parts":["ok"]},"finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":15}}"#,
    ));
    let NativeEvent::AfterModel(m) = ev else {
        panic!("wrong variant")
    };
    let req = m.llm_request.as_ref().unwrap();
    assert_eq!(req.model.as_deref(), Some("m"));
    let msgs = req.messages.as_deref().unwrap_or_default();
    assert_eq!(msgs[0].role.as_deref(), Some("user"));
    assert_eq!(msgs[0].content, Some(Value::from("hi")));
    let resp = m.llm_response.as_ref().unwrap();
    assert_eq!(resp.text.as_deref(), Some("ok"));
    let cands = resp.candidates.as_deref().unwrap_or_default();
    assert_eq!(cands[0].finish_reason.as_deref(), Some("STOP"));
    assert_eq!(cands[0].index, Some(0));
    assert_eq!(
        cands[0].content.as_ref().and_then(|c| c.parts.clone()),
        Some(vec![Value::from("ok")])
    );
    assert_eq!(resp.usage_metadata, Some(serde_json::json!({"totalTokenCount": 15})));
}

#[test]
fn message_content_is_a_string_or_parts() {
    // `llm_request.messages[].content`: a string in 0.61.0, parts in other releases.
    let ev = decode(&payload(
        "BeforeModel",
        r#""llm_request":{"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"model","content":"ok"}]}"#,
    ));
    let NativeEvent::BeforeModel(m) = ev else {
        panic!("wrong variant")
    };
    let msgs = m.llm_request.and_then(|r| r.messages).unwrap_or_default();
    assert_eq!(
        msgs[0].content.as_ref().map(|c| c[0]["text"].clone()),
        Some("hi".into())
    );
    assert_eq!(msgs[1].content, Some(Value::from("ok")));
}

#[test]
fn mcp_context_and_original_name() {
    let ev = decode(&payload(
        "BeforeTool",
        r#""tool_name":"mcp_github_create_issue","tool_input":{"title":"t"},"mcp_context":{"server_name":"github","tool_name":"create_issue","url":"https://x/mcp","headers_seen":true},"original_request_name":"create_issue""#,
    ));
    let NativeEvent::BeforeTool(t) = ev else {
        panic!("wrong variant")
    };
    let mcp = t.mcp_context.as_ref().unwrap();
    assert_eq!(mcp.server_name.as_deref(), Some("github"));
    assert_eq!(mcp.tool_name.as_deref(), Some("create_issue"));
    assert_eq!(mcp.url.as_deref(), Some("https://x/mcp"));
    assert_eq!(mcp.command, None);
    assert_eq!(mcp.extra["headers_seen"], true);
    assert_eq!(t.original_request_name.as_deref(), Some("create_issue"));
}

#[test]
fn after_tool_error() {
    let ev = decode(&payload(
        "AfterTool",
        r#""tool_name":"run_shell_command","tool_input":{"command":"false"},"tool_response":{"llmContent":"x","returnDisplay":"y","error":{"type":"shell_execute_error","message":"exit 1"}}"#,
    ));
    let NativeEvent::AfterTool(t) = ev else {
        panic!("wrong variant")
    };
    assert!(t.is_error());
    assert_eq!(t.error_message().as_deref(), Some("exit 1"));

    for (rest, want) in [
        (r#""tool_response":{"error":null}"#, None),
        (r#""tool_response":{"error":"boom"}"#, Some("boom")),
        (r#""tool_response":{"error":{"code":2}}"#, Some(r#"{"code":2}"#)),
        ("", None),
    ] {
        let sep = if rest.is_empty() { "" } else { "," };
        let NativeEvent::AfterTool(t) = decode(&payload("AfterTool", &format!(r#""tool_name":"x"{sep}{rest}"#))) else {
            panic!("wrong variant")
        };
        assert_eq!(t.error_message().as_deref(), want, "{rest}");
    }
}

#[test]
fn unknown_keys_land_in_extra_and_round_trip() {
    let bytes = payload("BeforeAgent", r#""prompt":"p","future":{"a":[1,2]},"z":null"#);
    let ev = decode(&bytes);
    assert_eq!(ev.extra().len(), 2);
    assert_eq!(ev.extra()["future"], serde_json::json!({"a": [1, 2]}));
    assert_eq!(ev.extra()["z"], Value::Null);
    assert_eq!(to_value(&ev), serde_json::from_slice::<Value>(&bytes).unwrap());
}

#[test]
fn unknown_event_is_other() {
    let ev = decode(&payload("AfterCompress", r#""trigger":"auto""#));
    assert_eq!((ev.name(), ev.kind()), ("AfterCompress", EventKind::Other));
    assert_eq!(ev.timestamp().map(String::as_str), Some("2026-11-30T11:59:25.376Z"));
    let NativeEvent::Other(u) = &ev else {
        panic!("wrong variant")
    };
    assert_eq!(u.extra["trigger"], "auto");
}

#[test]
fn mistyped_fields_are_kept_not_fatal() {
    // A shape no release sent: kept in `extra`, reported, the event still typed.
    let d = decoded(&payload(
        "AfterModel",
        r#""llm_request":{},"llm_response":{"candidates":[{"index":"zero"}]}"#,
    ));
    assert_eq!(d.issues.len(), 1);
    assert_eq!(d.issues[0].repair, Repair::MovedToExtra);
    assert!(d.issues[0].path.starts_with("llm_response"), "{}", d.issues[0]);
    let NativeEvent::AfterModel(m) = &d.native else {
        panic!("wrong variant")
    };
    assert!(m.llm_response.is_none());
    assert_eq!(m.extra["llm_response"]["candidates"][0]["index"], "zero");

    // The identifying tool name is missing: the kind stays, the view is `Other`.
    let d = decoded(&payload("BeforeTool", r#""tool_input":{}"#));
    assert!(!d.is_exact());
    assert_eq!(d.native.kind(), EventKind::ToolPre);
    assert!(matches!(d.view(), NativeEvent::Other(u) if u.name == "BeforeTool"));
}

#[test]
fn malformed_payloads_are_errors() {
    let p = Provider::GEMINI;
    let e = NativeEvent::decode(&p, br#"{"session_id":"s"}"#, None).unwrap_err();
    assert!(e.to_string().contains("hook_event_name"), "{e}");
    for bad in [&b""[..], b"[]", b"{", b"null", br#"{"hook_event_name":1}"#] {
        assert!(NativeEvent::decode(&p, bad, None).is_err(), "{bad:?}");
    }
    let trailing = [payload("BeforeAgent", r#""prompt":"p""#), b" x".to_vec()].concat();
    assert!(NativeEvent::decode(&p, &trailing, None).is_err());
    let mut ws = payload("PreCompress", r#""trigger":"auto""#);
    ws.extend_from_slice(b"\n");
    assert_eq!(decode(&ws).kind(), EventKind::CompactPre);
}
