//! Gemini's projection of the corpus: the envelope carries Gemini's session fields and own
//! clock, tool calls correlate and resolve MCP, each event's typed fields (decode, raw, kind
//! and the no-op are the conformance suite's).

use std::collections::HashMap;

use agenthooks_core::{CanonicalTool, Codec, DecodeCategory, Event, EventKind, Invocation, Outcome, Provider};
use agenthooks_gemini::native::NativeEvent;
use agenthooks_gemini::{view, CODEC};
use serde_json::Value;

use crate::CORPUS;

#[test]
fn envelope_carries_session_and_gemini_time() {
    for c in CORPUS.cases() {
        let ev = CORPUS.decode(c);
        let env = ev.envelope();
        let id = c.id();
        let payload: Value = serde_json::from_slice(&c.input).expect("JSON");
        assert_eq!(env.provider_time, payload.get("timestamp").cloned(), "{id}");
        assert_eq!(Some(env.session.id.as_str()), payload["session_id"].as_str(), "{id}");
        assert_eq!(Some(env.session.cwd.as_str()), payload["cwd"].as_str(), "{id}");
        assert_eq!(
            env.session.workspace_roots,
            std::slice::from_ref(&env.session.cwd),
            "{id}"
        );
        assert_eq!(
            Some(env.session.transcript_path.as_str()),
            payload["transcript_path"].as_str(),
            "{id}"
        );
        // The fixture env agrees with the payload (GEMINI_SESSION_ID, GEMINI_CWD) where the
        // release exports them (0.24.0 exports neither).
        if let Some(sid) = c.meta.env.get("GEMINI_SESSION_ID") {
            assert_eq!(sid, &env.session.id, "{id}");
        }
        if let Some(cwd) = c.meta.env.get("GEMINI_CWD") {
            assert_eq!(cwd, &env.session.cwd, "{id}");
        }
        // The normalized JSON carries Gemini's timestamp.
        assert_eq!(ev.to_json(false)["provider_time"], payload["timestamp"], "{id}");
    }
}

#[test]
fn captured_pre_and_post_tool_calls_correlate() {
    let pre = CORPUS.decode(CORPUS.case("gemini-cli-0.61.0/before_tool-allow"));
    let post = CORPUS.decode(CORPUS.case("gemini-cli-0.61.0/after_tool-allow"));
    let (Event::ToolPre(pre), Event::ToolPost(post)) = (&pre, &post) else {
        panic!("wrong kinds")
    };
    assert!(pre.tool.synthesized && post.tool.synthesized);
    assert!(pre.tool.id.starts_with("hook_synth_"));
    assert_eq!(pre.tool.id, post.tool.id);
    assert_eq!(pre.tool.name, "run_shell_command");
    assert_eq!(pre.tool.canonical, CanonicalTool::Shell);
    assert_eq!(pre.tool.command(), Some("echo hi > marker.txt"));
    assert!(pre.tool.mcp.is_none());
    assert_eq!(
        post.output["llmContent"],
        "<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 7426\n</untrusted_context>"
    );
    // Another session's identical call gets another id.
    let other = CORPUS.decode(CORPUS.case("gemini-cli-0.61.0/before_tool-deny-json"));
    assert_ne!(other.tool().map(|t| t.id.clone()), Some(pre.tool.id.clone()));
}

#[test]
fn mcp_calls_use_the_context() {
    let ev = CORPUS.decode(CORPUS.case("docs/before_tool-mcp-url"));
    let tool = ev.tool().expect("tool");
    assert_eq!(tool.canonical, CanonicalTool::Mcp);
    let mcp = tool.mcp.as_ref().expect("mcp");
    assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("github", "create_issue"));
    assert_eq!(mcp.url, "https://api.githubcopilot.com/mcp/");
    assert_eq!(tool.input()["title"], "Flaky checkout test");

    // Server name with an underscore: the name alone would split as `db` + `tools_run_query`.
    let ev = CORPUS.decode(CORPUS.case("docs/after_tool-mcp-stdio"));
    let mcp = ev.tool().and_then(|t| t.mcp.clone()).expect("mcp");
    assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("db_tools", "run_query"));
    assert_eq!(mcp.command, "npx -y @acme/db-mcp --readonly");
    let parsed = agenthooks_gemini::mcp::parse("mcp_db_tools_run_query").expect("mcp name");
    assert_eq!(parsed.server, "db");
}

#[test]
fn typed_projections() {
    let Event::ToolError(err) = CORPUS.decode(CORPUS.case("docs/after_tool-error")) else {
        panic!("not tool.error")
    };
    assert_eq!(err.error, "Command exited with code 1");
    assert_eq!(err.tool.command(), Some("npm test"));
    assert!(!err.interrupted);

    let Event::Stop(retry) = CORPUS.decode(CORPUS.case("docs/after_agent-stop_hook_active")) else {
        panic!("not agent.stop")
    };
    assert!(retry.previously_continued);
    assert_eq!(retry.last_message.as_deref(), Some("All 42 checkout tests pass now."));
    let Event::Stop(first) = CORPUS.decode(CORPUS.case("gemini-cli-0.61.0/after_agent-allow")) else {
        panic!("not agent.stop")
    };
    assert!(!first.previously_continued);

    let Event::PromptSubmitted(prompt) = CORPUS.decode(CORPUS.case("docs/before_agent-markup")) else {
        panic!("not prompt")
    };
    assert!(prompt.prompt.starts_with("Make <Cart> render totals as “€ 1.234,50”"));

    let Event::ModelResponse(resp) = CORPUS.decode(CORPUS.case("gemini-cli-0.61.0/after_model-allow-2")) else {
        panic!("not model.response")
    };
    assert_eq!(resp.text.as_deref(), Some("All done: marker written."));
    assert_eq!(resp.envelope.session.model, "gemini-3.8-flash");
    assert_eq!(resp.response["usageMetadata"]["totalTokenCount"], 15);

    let Event::ModelRequest(req) = CORPUS.decode(CORPUS.case("docs/before_tool_selection-tool_config")) else {
        panic!("not model.request")
    };
    assert_eq!(req.request["toolConfig"]["mode"], "AUTO");
    assert_eq!(req.envelope.native.as_str(), "BeforeToolSelection");
    assert_eq!(req.envelope.session.model, "gemini-2.5-pro");

    let Event::Notification(note) = CORPUS.decode(CORPUS.case("docs/notification-tool_permission")) else {
        panic!("not notification")
    };
    assert_eq!(note.notification_type.as_deref(), Some("ToolPermission"));
    assert_eq!(note.message, "Tool run_shell_command requires editing");

    let Event::CompactPre(compact) = CORPUS.decode(CORPUS.case("docs/pre_compress-manual")) else {
        panic!("not compact.pre")
    };
    assert_eq!(compact.trigger.as_deref(), Some("manual"));

    let Event::SessionStart(start) = CORPUS.decode(CORPUS.case("docs/session_start-resume")) else {
        panic!("not session.start")
    };
    assert_eq!(start.source.as_deref(), Some("resume"));
    let Event::SessionEnd(end) = CORPUS.decode(CORPUS.case("docs/session_end-clear")) else {
        panic!("not session.end")
    };
    assert_eq!(end.reason.as_deref(), Some("clear"));
}

#[test]
fn replace_tool_keeps_structured_display() {
    let Event::ToolPost(p) = CORPUS.decode(CORPUS.case("docs/after_tool-replace")) else {
        panic!("not tool.post")
    };
    assert_eq!(p.tool.canonical, CanonicalTool::FileEdit);
    assert_eq!(p.tool.file_path(), Some("/home/dev/shop/src/cart.ts"));
    assert_eq!(p.output["returnDisplay"]["fileName"], "cart.ts");
    let Some(NativeEvent::AfterTool(t)) = view(p.envelope()) else {
        panic!("no view")
    };
    assert_eq!(
        t.tool_response
            .as_ref()
            .and_then(|r| r.return_display.as_ref())
            .map(|d| d["diffStat"]["model_added_lines"].clone()),
        Some(1.into())
    );
}

#[test]
fn hint_names_an_unnamed_payload_and_unknown_events_are_other() {
    let env: HashMap<String, String> = HashMap::new();
    let bytes = br#"{"session_id":"s","transcript_path":"","cwd":"/p","timestamp":"t","trigger":"auto"}"#;
    let inv = Invocation::new(bytes.to_vec(), &env).with_native_event(Some("PreCompress"));
    let ev = CODEC.decode(&inv).expect("decodes with the hint");
    assert_eq!(ev.kind(), EventKind::CompactPre);
    assert_eq!(ev.envelope().raw().as_bytes(), bytes, "raw stays as received");

    let bytes = br#"{"session_id":"s","transcript_path":"","cwd":"/p","hook_event_name":"AfterCompress","timestamp":"2026-01-01T00:00:00Z","summary":"x"}"#;
    let ev = CODEC.decode(&Invocation::new(bytes.to_vec(), &env)).expect("decodes");
    assert_eq!(ev.kind(), EventKind::Other);
    assert_eq!(ev.envelope().native.as_str(), "AfterCompress");
    assert_eq!(ev.envelope().provider_time, Some("2026-01-01T00:00:00Z".into()));
    let Some(NativeEvent::Other(u)) = view(ev.envelope()) else {
        panic!("no view")
    };
    assert_eq!(u.extra["summary"], "x");
    assert_eq!(
        CODEC
            .encode(&ev, &Outcome::neutral_for(EventKind::Other))
            .expect("encodes")
            .stdout,
        b"{}"
    );
}

#[test]
fn decode_errors_are_typed() {
    let env: HashMap<String, String> = HashMap::new();
    let err = |b: &[u8]| CODEC.decode(&Invocation::new(b.to_vec(), &env)).expect_err("must fail");
    assert_eq!(err(b"").category(), DecodeCategory::Empty);
    assert_eq!(err(b" \n").category(), DecodeCategory::Empty);
    assert_eq!(err(b"{\"a\":\"\xff\"}").category(), DecodeCategory::NotUtf8);
    assert_eq!(err(b"{").category(), DecodeCategory::Syntax);
    assert_eq!(err(b"[1]").category(), DecodeCategory::Data);
    let e = err(br#"{"session_id":"s"}"#);
    assert_eq!(e.category(), DecodeCategory::UnknownEvent);
    assert!(e.to_string().contains("hook_event_name"), "{e}");
    assert_eq!(e.provider(), &Provider::GEMINI);
    // Trailing data after the object.
    assert_eq!(
        err(br#"{"hook_event_name":"PreCompress"} x"#).category(),
        DecodeCategory::Syntax
    );

    // A mistyped identifying field is not an error: the event is delivered as its kind with a
    // placeholder, the value kept in the native view, the issue on the envelope.
    let bytes = br#"{"session_id":"s","transcript_path":"","cwd":"/p","timestamp":"t","hook_event_name":"BeforeTool","tool_name":7,"tool_input":{}}"#;
    let ev = CODEC.decode(&Invocation::new(bytes.to_vec(), &env)).expect("tolerated");
    assert_eq!(ev.kind(), EventKind::ToolPre);
    assert_eq!(ev.tool().map(|t| t.name.as_str()), Some(""));
    assert_eq!(ev.envelope().projection_issues[0].path, "tool_name");
    let Some(NativeEvent::Other(u)) = view(ev.envelope()) else {
        panic!("the view of a payload without its identifying field is `Other`")
    };
    assert_eq!(u.extra["tool_name"], 7);
}
