//! The codec called directly (no runner, no degrade): exact wire bytes per decision shape,
//! the errors for what Gemini cannot express, failure responses, sniffing and timeouts.

use std::collections::HashMap;
use std::time::Duration;

use agenthooks_core::decision::{
    allow, ask_user, block_prompt, continue_with, deny, flag_output, no_decision, replace_output, rewrite_input,
    ContextDecision, DEFAULT_BLOCK_REASON,
};
use agenthooks_core::{
    CanonicalTool, Codec, Confidence, EncodeCategory, Event, EventKind, EventTarget, FailMode, Invocation, Outcome,
    WireResponse,
};
use agenthooks_gemini::{timeout_config_value, CODEC};
use serde_json::{json, Map};

const BASE: &str = r#""session_id":"s1","transcript_path":"/t","cwd":"/p","timestamp":"2026-11-30T11:59:25.376Z""#;

fn event(name: &str, rest: &str) -> Event {
    let env: HashMap<String, String> = HashMap::new();
    let bytes = format!(r#"{{{BASE},"hook_event_name":"{name}",{rest}}}"#);
    CODEC
        .decode(&Invocation::new(bytes.into_bytes(), &env))
        .expect("decodes")
}

fn before_tool() -> Event {
    event(
        "BeforeTool",
        r#""tool_name":"run_shell_command","tool_input":{"command":"rm -rf /","description":"d"}"#,
    )
}

fn enc(ev: &Event, o: impl Into<Outcome>) -> String {
    let r = CODEC.encode(ev, &o.into()).expect("encodes");
    assert_eq!(r.exit_code, 0);
    assert!(r.stderr.is_empty());
    r.stdout_str().into_owned()
}

#[test]
fn before_tool_shapes() {
    let ev = before_tool();
    assert_eq!(enc(&ev, no_decision()), "{}");
    assert_eq!(enc(&ev, deny("no rm")), r#"{"decision":"deny","reason":"no rm"}"#);
    assert_eq!(enc(&ev, ask_user("sure?")), r#"{"decision":"ask","reason":"sure?"}"#);
    assert_eq!(
        enc(&ev, deny("no rm").stop_agent("halt").with_system_message("m")),
        r#"{"continue":false,"stopReason":"halt","systemMessage":"m","decision":"deny","reason":"no rm"}"#
    );
    assert_eq!(
        enc(&ev, deny("model text").with_block_reason("user text")),
        r#"{"systemMessage":"user text","decision":"deny","reason":"model text"}"#
    );
    let mut m = Map::new();
    m.insert("command".into(), json!("ls"));
    m.insert("description".into(), json!("d"));
    m.insert("dir_path".into(), json!("/tmp"));
    assert_eq!(
        enc(&ev, rewrite_input(m.clone()).no_decision()),
        r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls","description":"d","dir_path":"/tmp"}}}"#
    );
    assert_eq!(
        enc(&ev, rewrite_input(m).ask_user("check")),
        r#"{"decision":"ask","reason":"check","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls","description":"d","dir_path":"/tmp"}}}"#
    );
}

#[test]
fn lossy_rewrite_is_an_error() {
    let ev = before_tool();
    let mut m = Map::new();
    m.insert("command".into(), json!("ls"));
    let e = CODEC.encode(&ev, &rewrite_input(m).no_decision().into()).unwrap_err();
    assert_eq!(e.category(), EncodeCategory::LossyUpdate);
    assert!(e.message().contains("description"), "{e}");
}

#[test]
fn unsupported_or_wrong_family_is_an_error() {
    let ev = before_tool();
    // What Gemini cannot express here is Unsupported (the runner degrades it first).
    let e = CODEC.encode(&ev, &allow().into()).unwrap_err();
    assert_eq!(e.category(), EncodeCategory::Unsupported);
    let e = CODEC.encode(&ev, &no_decision().with_context("c").into()).unwrap_err();
    assert_eq!(e.category(), EncodeCategory::Unsupported);
    assert!(e.message().contains("add-context"), "{e}");
    // A decision of another family is WrongFamily.
    let e = CODEC.encode(&ev, &continue_with("x").into()).unwrap_err();
    assert_eq!(e.category(), EncodeCategory::WrongFamily);
}

#[test]
fn other_events() {
    let prompt = event("BeforeAgent", r#""prompt":"p""#);
    assert_eq!(
        enc(&prompt, block_prompt("pii").with_context("c")),
        r#"{"decision":"deny","reason":"pii","hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"c"}}"#
    );
    let stop = event(
        "AfterAgent",
        r#""prompt":"p","prompt_response":"r","stop_hook_active":false"#,
    );
    assert_eq!(
        enc(&stop, continue_with("run the tests")),
        r#"{"decision":"deny","reason":"run the tests"}"#
    );
    let post = event(
        "AfterTool",
        r#""tool_name":"read_file","tool_input":{},"tool_response":{"llmContent":"x"}"#,
    );
    // Flagging is not expressible (it would hide the output): degrade first.
    let e = CODEC.encode(&post, &flag_output("secret inside").into()).unwrap_err();
    assert_eq!(e.category(), EncodeCategory::Unsupported);
    assert!(e.message().contains("flag-output"), "{e}");
    assert_eq!(
        enc(&post, replace_output(json!({"a": 1}))),
        r#"{"decision":"deny","reason":"{\"a\":1}"}"#
    );
    let start = event("SessionStart", r#""source":"startup""#);
    assert_eq!(
        enc(&start, ContextDecision::none().with_context("a").with_context("<b>")),
        r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"a\n<b>"}}"#
    );
}

#[test]
fn failure_responses() {
    let t = |n: &str| EventTarget::new(Some(n.into()), None);
    let closed = |t: &EventTarget| {
        CODEC
            .failure_response(t, FailMode::Closed, "boom")
            .stdout_str()
            .into_owned()
    };
    assert_eq!(closed(&t("BeforeTool")), r#"{"decision":"deny","reason":"boom"}"#);
    assert_eq!(closed(&t("BeforeAgent")), r#"{"decision":"deny","reason":"boom"}"#);
    assert_eq!(closed(&t("AfterAgent")), "{}");
    assert_eq!(closed(&t("AfterTool")), "{}");
    assert_eq!(closed(&EventTarget::new(None, None)), "{}");
    assert_eq!(
        closed(&EventTarget::new(None, Some(EventKind::ToolPre))),
        r#"{"decision":"deny","reason":"boom"}"#
    );
    let open = CODEC.failure_response(&t("BeforeTool"), FailMode::Open, "boom");
    assert_eq!(open, WireResponse::stdout(&b"{}"[..]));
    let r = CODEC.failure_response(&t("BeforeTool"), FailMode::Closed, " ");
    assert!(r.stdout_str().contains(DEFAULT_BLOCK_REASON));
}

#[test]
fn response_text_falls_back_to_parts() {
    let text = |response: &str| {
        let ev = event(
            "AfterModel",
            &format!(r#""llm_request":{{}},"llm_response":{response}"#),
        );
        let Event::ModelResponse(r) = ev else {
            panic!("not model.response")
        };
        r.text
    };
    assert_eq!(
        text(r#"{"candidates":[{"content":{"parts":["a",{"text":"b"},{"functionCall":{}}]}}]}"#).as_deref(),
        Some("ab")
    );
    assert_eq!(text(r#"{"text":"t","candidates":[]}"#).as_deref(), Some("t"));
    assert_eq!(text(r#"{"candidates":[]}"#), None);
}

#[test]
fn mcp_context_marks_mcp_whatever_the_name() {
    let ev = event(
        "BeforeTool",
        r#""tool_name":"read_file","tool_input":{},"mcp_context":{"server_name":"fs","tool_name":"read_file","command":"node"}"#,
    );
    let tool = ev.tool().unwrap();
    assert_eq!(tool.canonical, CanonicalTool::Mcp);
    assert_eq!(tool.mcp.as_ref().map(|m| m.command.as_str()), Some("node"));
}

#[test]
fn sniffing() {
    let env: HashMap<String, String> = [("GEMINI_CWD".to_owned(), "/p".to_owned())].into();
    assert_eq!(CODEC.sniff_env(&env), Some(Confidence::Inferred));
    let none: HashMap<String, String> = [("CLAUDE_PROJECT_DIR".to_owned(), "/p".to_owned())].into();
    assert_eq!(CODEC.sniff_env(&none), None);
    let p = |s: &str| CODEC.sniff_payload(s.as_bytes(), &none);
    assert_eq!(p(r#"{"hook_event_name":"BeforeTool"}"#), Some(Confidence::Certain));
    assert_eq!(
        p("\u{feff}{\"hook_event_name\":\"AfterModel\"}"),
        Some(Confidence::Certain)
    );
    assert_eq!(
        p(r#"{"hook_event_name":"SessionStart","session_id":"s","timestamp":"t"}"#),
        Some(Confidence::Inferred)
    );
    assert_eq!(p(r#"{"hook_event_name":"SessionStart","session_id":"s"}"#), None);
    assert_eq!(p(r#"{"hook_event_name":"PreToolUse"}"#), None);
    assert_eq!(p("not json"), None);
}

#[test]
fn timeouts() {
    assert_eq!(CODEC.default_timeout(), Duration::from_secs(60));
    assert_eq!(timeout_config_value(Duration::from_millis(1500)), 1500);
    assert_eq!(timeout_config_value(Duration::MAX), u64::MAX);
}
