//! Every fixture decodes losslessly; the projections of the key ones are exact.

use std::collections::HashMap;

use agenthooks_core::{CanonicalTool, Codec, Event, EventKind, EventTarget, FailMode, Invocation, Variant};
use agenthooks_cursor::native::{self, NativeEvent, EVENTS};
use agenthooks_cursor::{view, view_as, CODEC};
use serde_json::{json, Value};

use agenthooks_testkit::Fixture;

use crate::support::CORPUS;

#[test]
fn every_fixture_keeps_its_native_view_and_session() {
    let cases = CORPUS.cases();
    assert!(cases.len() >= 45, "only {} fixtures", cases.len());
    for case in cases {
        let name = Fixture::short_id(case);
        let ev = CORPUS.decode(case);
        let env = ev.envelope();
        assert_eq!(env.variant.as_str(), case.meta.variant, "{name}");
        assert!(env.projection_issues.is_empty(), "{name}: {:?}", env.projection_issues);
        let native = view(env).unwrap_or_else(|| panic!("{name}: no native view"));
        let bytes = agenthooks_core::event::strip_bom(&case.input);
        let original: Value = serde_json::from_slice(bytes).expect("valid JSON");
        assert_eq!(
            serde_json::to_value(native).expect("serializes"),
            original,
            "{name}: round trip"
        );
        let native_name = agenthooks_cursor::compat::alias(&case.meta.native_event).unwrap_or(&case.meta.native_event);
        let known = EVENTS.iter().any(|e| e.name == native_name);
        assert_eq!(matches!(native, NativeEvent::Other(_)), !known, "{name}");
        if known && !name.ends_with("unknown-fields") {
            assert!(native.extra().is_empty(), "{name}: extra {:?}", native.extra());
        }
        if let Some(conv) = original.get("conversation_id") {
            assert_eq!(env.session.id, *conv, "{name}");
            assert_eq!(env.session.turn_id, original["generation_id"], "{name}");
        }
        assert_eq!(
            env.agent_version.as_deref(),
            original["cursor_version"].as_str(),
            "{name}"
        );
        let target = EventTarget::of(&ev);
        assert_eq!(
            CODEC.failure_response(&target, FailMode::Open, "x").stdout,
            b"{}",
            "{name}"
        );
    }
}

#[test]
fn every_reference_event_has_a_docs_fixture() {
    CORPUS.assert_docs_case_per_event(EVENTS, |_| true);
}

#[test]
fn variants_are_detected_without_a_flag() {
    let variant_of = |n: &str| {
        let c = CORPUS.case(n);
        let env = c.env_map();
        CODEC
            .decode(&Invocation::new(c.input.clone(), &env))
            .expect("decodes")
            .envelope()
            .variant
            .clone()
    };
    assert_eq!(variant_of("docs/pre_tool_use"), Variant::CLI);
    assert_eq!(variant_of("docs/pre_tool_use-ide"), Variant::IDE);
    assert_eq!(variant_of("docs/session_start-background"), Variant::CLOUD);
    assert_eq!(variant_of("2.0/stop"), Variant::IDE);
    // Without cursor_version in the payload, CURSOR_VERSION decides.
    let env: HashMap<String, String> = [("CURSOR_VERSION".to_owned(), "2026.09.18-x".to_owned())].into();
    let ev = CODEC
        .decode(&Invocation::new(
            br#"{"hook_event_name":"stop","status":"completed"}"#.to_vec(),
            &env,
        ))
        .unwrap();
    assert_eq!(ev.envelope().variant, Variant::CLI);
    // Cloud fires no session or MCP hooks: nothing is promised there.
    assert!(CODEC.capabilities(&Variant::CLOUD, "beforeMCPExecution").is_empty());
    assert!(!CODEC.capabilities(&Variant::CLOUD, "preToolUse").is_empty());
}

#[test]
fn shell_calls_normalize_from_both_events() {
    let Event::ToolPre(pre) = CORPUS.event("docs/pre_tool_use") else {
        panic!()
    };
    assert_eq!(
        (pre.tool.name.as_str(), pre.tool.canonical),
        ("Shell", CanonicalTool::Shell)
    );
    assert_eq!(pre.tool.command(), Some("rm -rf build"));
    // Two-part ids are kept verbatim.
    assert_eq!(
        (pre.tool.id.as_str(), pre.tool.synthesized),
        ("call_k81Xa\nctc_55b0", false)
    );
    assert_eq!(pre.envelope.session.cwd, "/home/dev/shop");
    assert_eq!(pre.envelope.session.user_email, "dev@example.org");
    assert_eq!(pre.envelope.session.model, "cursor/composer-2");
    let Event::ToolPre(shell) = CORPUS.event("docs/before_shell_execution") else {
        panic!()
    };
    assert_eq!(shell.tool.command(), Some("rm -rf build"));
    assert!(shell.tool.synthesized && shell.tool.id.starts_with("hook_synth_"));
    let native: &native::BeforeShellExecution = view_as(&shell.envelope).unwrap();
    assert_eq!(native.sandbox, Some(false));
}

#[test]
fn mcp_calls_keep_both_forms() {
    let Event::ToolPre(pre) = CORPUS.event("docs/before_mcp_execution") else {
        panic!()
    };
    assert_eq!(pre.tool.input()["title"], "Flaky checkout test");
    assert!(pre.tool.raw_input().is_string(), "raw input stays a JSON string (#5)");
    let mcp = pre.tool.mcp.as_ref().unwrap();
    assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("linear", "create_issue"));
    assert_eq!(mcp.url, "https://mcp.linear.app/sse");
    let Event::ToolPre(stdio) = CORPUS.event("docs/before_mcp_execution-stdio") else {
        panic!()
    };
    assert!(stdio.tool.mcp.as_ref().unwrap().command.starts_with("npx -y"));
    let Event::ToolPre(echo) = CORPUS.event("docs/pre_tool_use-mcp") else {
        panic!()
    };
    let mcp = echo.tool.mcp.as_ref().unwrap();
    assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("", "create_issue"));
    let Event::ToolPost(post) = CORPUS.event("docs/after_mcp_execution") else {
        panic!()
    };
    assert_eq!(
        post.output["content"][0]["text"], "Created WEB-123",
        "result_json parsed"
    );
    let Event::ToolPost(post) = CORPUS.event("docs/post_tool_use") else {
        panic!()
    };
    assert_eq!(post.output, json!({"output": "42 passing\n", "exitCode": 0}));
    assert_eq!(post.duration_ms, Some(8123));
}

#[test]
fn the_mapping_follows_the_design() {
    for (n, kind) in [
        ("docs/after_file_edit", EventKind::FileEdited),
        ("docs/after_tab_file_edit", EventKind::FileEdited),
        ("docs/after_agent_response", EventKind::ModelResponse),
        ("docs/after_agent_thought", EventKind::ModelResponse),
        ("docs/before_tab_file_read", EventKind::Other),
        ("docs/workspace_open", EventKind::Other),
        ("docs/post_tool_use_failure", EventKind::ToolError),
        ("docs/future_event", EventKind::Other),
        ("docs/before_read_file", EventKind::ToolPre),
        ("docs/after_shell_execution", EventKind::ToolPost),
    ] {
        assert_eq!(CORPUS.event(n).kind(), kind, "{n}");
    }
    let Event::FileEdited(f) = CORPUS.event("docs/after_file_edit") else {
        panic!()
    };
    assert_eq!(f.path, "/home/dev/shop/src/http.ts");
    let Event::ToolError(e) = CORPUS.event("docs/post_tool_use_failure") else {
        panic!()
    };
    assert_eq!(e.error, "Command timed out after 120s");
    let Event::SubagentStop(s) = CORPUS.event("docs/subagent_stop") else {
        panic!()
    };
    assert_eq!(
        s.envelope.agent.as_ref().map(|a| a.agent_type.as_str()),
        Some("explore")
    );
}

#[test]
fn older_and_probe_shapes_reach_handlers_as_their_kind() {
    // 2.0-era: no model_id, no session_id, attachments[].filePath.
    let Event::PromptSubmitted(p) = CORPUS.event("2.0/before_submit_prompt") else {
        panic!()
    };
    let native: &native::BeforeSubmitPrompt = view_as(&p.envelope).unwrap();
    assert_eq!(
        native.attachments.as_ref().unwrap()[0].path(),
        Some("/home/dev/shop/Makefile")
    );
    let Event::ToolPre(m) = CORPUS.event("2.0/before_mcp_execution") else {
        panic!()
    };
    assert_eq!(m.tool.mcp.as_ref().unwrap().url, "http://localhost:3845/sse");
    // 2026.02 probe: nullable fields kept as null.
    let ev = CORPUS.event("2026.02.13/pre_tool_use");
    let native = view(ev.envelope()).unwrap();
    assert_eq!(native.transcript_path(), Some(&None));
    assert_eq!(ev.envelope().session.transcript_path, "");
    // A retyped field (loop_count as a string) and a missing one still decode as the kind.
    let env: HashMap<String, String> = HashMap::new();
    let ev = CODEC
        .decode(&Invocation::new(
            br#"{"hook_event_name":"stop","conversation_id":"c","loop_count":"1"}"#.to_vec(),
            &env,
        ))
        .unwrap();
    let Event::Stop(s) = ev else { panic!() };
    assert!(s.previously_continued);
    let ev = CODEC
        .decode(&Invocation::new(
            br#"{"hook_event_name":"postToolUse","conversation_id":"c","duration":"slow"}"#.to_vec(),
            &env,
        ))
        .unwrap();
    assert_eq!(ev.kind(), EventKind::ToolPost);
    assert!(!ev.envelope().projection_issues.is_empty());
}
