//! Every fixture decodes losslessly, and the unified projection of the key ones is exact.

use std::collections::HashMap;

use agenthooks_claude::native::{self, NativeEvent, EVENTS};
use agenthooks_claude::{view, view_as, CODEC};
use agenthooks_core::{CanonicalTool, Codec, Confidence, Event, EventKind, EventTarget, FailMode, Invocation, Variant};
use serde_json::json;

use agenthooks_testkit::Fixture;

use crate::support::CORPUS;

/// Claude-specific facts of every fixture (decode, raw, kind and the no-op are conformance
/// checks 1–4, run by `testkit.rs`).
/// The event the fixture `case` decodes to, taken out of its `variant` (a panic names the kind it got).
macro_rules! decoded {
    ($variant:path, $case:expr) => {
        match CORPUS.event($case) {
            $variant(e) => e,
            other => panic!("{}: expected {}, got {:?}", $case, stringify!($variant), other.kind()),
        }
    };
}

#[test]
fn every_fixture_keeps_its_native_view_and_session() {
    let cases = CORPUS.cases();
    assert!(cases.len() >= 34 + 5 + 36, "only {} fixtures", cases.len());
    for case in cases {
        let name = Fixture::short_id(case);
        let ev = CORPUS.decode(case);
        let env = ev.envelope();
        assert_eq!(env.variant.as_str(), case.meta.variant, "{name}");
        assert_eq!(env.confidence, Confidence::Certain, "{name}");
        // The native view is the full typed payload, and it loses nothing; the session facts
        // every payload carries.
        let known = EVENTS.iter().any(|e| e.name == case.meta.native_event);
        let extra_allowed = !known || name.ends_with("unknown-fields");
        let (native, original) = case.assert_family_lossless::<NativeEvent>(env, extra_allowed);
        assert_eq!(matches!(native, NativeEvent::Other(_)), !known, "{name}");
        assert_eq!(env.session.transcript_path, original["transcript_path"], "{name}");
        // Fail-open is the no-op; WorktreeCreate's no-op is empty stdout (#104).
        let target = EventTarget::of(&ev);
        let no_op = CODEC.no_op(&target);
        assert_eq!(CODEC.failure_response(&target, FailMode::Open, "boom"), no_op, "{name}");
        let expected: &[u8] = if case.meta.native_event == "WorktreeCreate" {
            b""
        } else {
            b"{}"
        };
        assert_eq!(no_op.stdout, expected, "{name}");
    }
}

#[test]
fn every_reference_event_has_a_docs_fixture() {
    CORPUS.assert_docs_case_per_event(EVENTS, |_| true);
}

#[test]
fn variant_is_detected_from_env_without_a_flag() {
    for case in CORPUS.cases() {
        let env = case.env_map();
        let inv = Invocation::new(case.input.clone(), &env);
        let ev = CODEC.decode(&inv).expect("decodes");
        assert_eq!(
            ev.envelope().variant.as_str(),
            case.meta.variant,
            "{}",
            Fixture::short_id(case)
        );
    }
    // A --variant flag wins over the environment.
    let case = CORPUS.case("docs/pre_tool_use-remote");
    let flag = Variant::COWORK;
    let env = case.env_map();
    let inv = Invocation::new(case.input.clone(), &env).with_variant(Some(&flag));
    assert_eq!(CODEC.decode(&inv).expect("decodes").envelope().variant, Variant::COWORK);
}

#[test]
fn captured_pre_tool_use_normalizes() {
    let ev = CORPUS.event("2.1.197/pre_tool_use-allow");
    let Event::ToolPre(pre) = &ev else {
        panic!("expected tool.pre, got {:?}", ev.kind())
    };
    let t = &pre.tool;
    assert_eq!(t.name, "Bash");
    assert_eq!(t.canonical, CanonicalTool::Shell);
    assert_eq!((t.id.as_str(), t.synthesized), ("toolu_0002", false));
    assert_eq!(t.command(), Some("echo hi > marker.txt"));
    assert_eq!(
        *t.raw_input(),
        json!({"command": "echo hi > marker.txt", "description": "write marker file"})
    );
    assert!(t.mcp.is_none());
    let s = &pre.envelope.session;
    assert_eq!(s.turn_id, "d7429b73-b801-4373-a948-c9c8313c0e4d");
    assert_eq!(s.permission_mode, "default");
    assert_eq!(s.workspace_roots, ["/tmp/e2e/proj"]);
    assert!(pre.envelope.agent.is_none());
    assert_eq!(pre.envelope.variant, Variant::DEFAULT);
    let native: &native::PreToolUse = view_as(&pre.envelope).expect("typed view");
    assert_eq!(native.effort.as_ref().and_then(|e| e.level.as_deref()), Some("high"));
    assert!(view_as::<native::Stop>(&pre.envelope).is_none());
}

#[test]
fn mcp_calls_take_the_server_from_mcp_server() {
    let ev = CORPUS.event("docs/pre_tool_use-reference-example");
    let t = ev.tool().expect("tool");
    assert_eq!(t.canonical, CanonicalTool::Mcp);
    let mcp = t.mcp.as_ref().expect("mcp");
    assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("github", "create_issue"));

    // A plugin server: the name segment is normalized, `mcp_server.name` is the real name (#26).
    let ev = CORPUS.event("docs/pre_tool_use-mcp-plugin");
    let mcp = ev.tool().and_then(|t| t.mcp.as_ref()).expect("mcp");
    assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("db", "query"));
    let native: &native::PreToolUse = view_as(ev.envelope()).expect("view");
    assert_eq!(
        native.mcp_server.as_ref().and_then(|s| s.source.as_deref()),
        Some("plugin")
    );

    // Without `mcp_server` (older builds), the name segment is the server.
    let payload = br#"{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"mcp__linear__create_issue","tool_input":{},"tool_use_id":"toolu_9"}"#;
    let env = HashMap::<String, String>::new();
    let ev = CODEC.decode(&Invocation::new(payload.to_vec(), &env)).expect("decodes");
    let mcp = ev.tool().and_then(|t| t.mcp.as_ref()).expect("mcp");
    assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("linear", "create_issue"));
}

#[test]
fn permission_request_synthesizes_an_id_and_keeps_suggestions() {
    let ev = CORPUS.event("docs/permission_request");
    let Event::Permission(p) = &ev else {
        panic!("expected permission.request")
    };
    assert!(p.tool.synthesized && p.tool.id.starts_with("hook_synth_"));
    assert_eq!(p.tool.canonical, CanonicalTool::Shell);
    assert_eq!(
        p.suggestions.as_ref().and_then(|s| s[0]["type"].as_str()),
        Some("addRules")
    );
    // Deterministic: decoding twice gives the same id.
    assert_eq!(
        CORPUS.event("docs/permission_request").tool().map(|t| t.id.clone()),
        Some(p.tool.id.clone())
    );
}

#[test]
fn post_tool_events_carry_output_error_and_duration() {
    let post = decoded!(Event::ToolPost, "docs/post_tool_use");
    assert_eq!(post.tool.canonical, CanonicalTool::FileRead);
    assert_eq!(post.tool.file_path(), Some("/home/dev/shop/package.json"));
    assert_eq!(post.output["file"]["numLines"], 4);
    assert_eq!(post.duration_ms, Some(3));

    let err = decoded!(Event::ToolError, "docs/post_tool_use_failure");
    assert_eq!(err.error, "MCP error -32603: relation \"orders\" does not exist");
    assert!(!err.interrupted);
    assert_eq!(err.duration_ms, Some(212));
    assert_eq!(err.tool.mcp.as_ref().map(|m| m.server.as_str()), Some("postgres"));

    let err = decoded!(Event::ToolError, "docs/post_tool_use_failure-reference-example");
    assert_eq!(err.tool.command(), Some("npm test"));
    assert_eq!(err.duration_ms, Some(8123));
}

#[test]
fn stop_events_surface_the_loop_guard_and_subagent() {
    let stop = decoded!(Event::Stop, "docs/stop-loop-guard");
    assert!(stop.previously_continued);
    assert_eq!(stop.continuation_count, None, "the runner counts, not the codec");
    assert_eq!(
        stop.last_message.as_deref(),
        Some("I added the missing regression test as requested.")
    );
    let stop = decoded!(Event::Stop, "2.1.197/stop-allow");
    assert!(!stop.previously_continued);

    let sub = decoded!(Event::SubagentStop, "docs/subagent_stop");
    let agent = sub.envelope.agent.as_ref().expect("agent");
    assert_eq!(
        (agent.id.as_str(), agent.agent_type.as_str()),
        ("a7c3e9f1b2d4", "Explore")
    );
    let native: &native::SubagentStop = view_as(&sub.envelope).expect("view");
    assert!(native
        .agent_transcript_path
        .as_deref()
        .unwrap_or_default()
        .ends_with("agent-a7c3e9f1b2d4.jsonl"));

    let ev = CORPUS.event("docs/pre_tool_use-subagent");
    assert_eq!(
        ev.envelope().agent.as_ref().map(|a| a.id.as_str()),
        Some("a7c3e9f1b2d4")
    );
    assert_eq!(ev.tool().map(|t| t.canonical), Some(CanonicalTool::Search));

    let start = decoded!(Event::SubagentStart, "docs/subagent_start");
    assert_eq!(
        start.envelope.agent.as_ref().map(|a| a.agent_type.as_str()),
        Some("Explore")
    );
}

#[test]
fn lifecycle_and_other_events_project() {
    let start = decoded!(Event::SessionStart, "docs/session_start");
    assert_eq!(start.source.as_deref(), Some("startup"));
    assert_eq!(start.envelope.session.model, "claude-sonnet-4-5");
    assert!(start.envelope.agent.is_none(), "agent_type alone is not a subagent");

    let end = decoded!(Event::SessionEnd, "docs/session_end");
    assert_eq!(end.reason.as_deref(), Some("prompt_input_exit"));

    let prompt = decoded!(Event::PromptSubmitted, "2.1.197/user_prompt_submit-deny-json");
    assert_eq!(prompt.prompt, "Create marker.txt containing hi using the shell.");

    let pre = decoded!(Event::CompactPre, "docs/pre_compact");
    assert_eq!(
        (pre.trigger.as_deref(), pre.instructions.as_deref()),
        (Some("manual"), Some("Keep the decisions about the checkout timeout."))
    );
    let post = decoded!(Event::CompactPost, "docs/post_compact");
    assert!(post.summary.as_deref().is_some_and(|s| s.starts_with("The user asked")));

    let note = decoded!(Event::Notification, "docs/notification");
    assert_eq!(note.notification_type.as_deref(), Some("permission_prompt"));
    assert_eq!(note.title.as_deref(), Some("Claude Code"));

    let file = decoded!(Event::FileEdited, "docs/file_changed");
    assert_eq!(file.path, "/home/dev/shop/.env");

    let resp = decoded!(Event::ModelResponse, "2.1.197/message_display-allow");
    assert_eq!(resp.text.as_deref(), Some("All done: marker written."));
    assert_eq!(resp.response["final"], true);

    let pre = decoded!(Event::ToolPre, "docs/pre_skill_shell_command");
    assert_eq!(pre.tool.canonical, CanonicalTool::Shell);
    assert_eq!(pre.tool.command(), Some("git log --oneline -20"));
    let skill: &native::PreSkillShellCommand = view_as(&pre.envelope).expect("view");
    assert_eq!(
        (
            skill.command_name.as_deref().unwrap_or_default(),
            skill.invoked_by.as_deref().unwrap_or_default()
        ),
        ("changelog", "claude")
    );

    let ev = CORPUS.event("docs/pre_model_switch");
    assert_eq!(ev.kind(), EventKind::Other);
    assert_eq!(ev.envelope().session.model, "claude-opus-4-1");
    let sw: &native::PreModelSwitch = view_as(ev.envelope()).expect("view");
    assert_eq!(sw.requested_model, None);

    let ev = CORPUS.event("2.1.197/post_tool_batch-deny-exit2");
    assert_eq!(ev.kind(), EventKind::Other);
    let batch: &native::PostToolBatch = view_as(ev.envelope()).expect("view");
    assert!(batch.tool_calls.as_ref().expect("calls")[0]
        .tool_response
        .as_ref()
        .and_then(|r| r.as_str())
        .is_some_and(|r| r.contains("blocked by agenthooks probe")));
}

#[test]
fn future_events_decode_as_other_with_raw_intact() {
    let case = CORPUS.case("docs/future_event");
    let ev = CORPUS.decode(case);
    assert_eq!(ev.kind(), EventKind::Other);
    assert_eq!(ev.envelope().native.as_str(), "PreWebRequest");
    assert_eq!(ev.envelope().raw().as_bytes(), case.input.as_slice());
    let Some(NativeEvent::Other(map)) = view(ev.envelope()) else {
        panic!("expected NativeEvent::Other")
    };
    assert_eq!(map.extra["url"], "https://registry.npmjs.org/left-pad");
    assert_eq!(ev.envelope().session.turn_id, "5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f");
}

#[test]
fn unknown_fields_land_in_extra() {
    let ev = CORPUS.event("docs/pre_tool_use-unknown-fields");
    let native = view(ev.envelope()).expect("view");
    let keys: Vec<&str> = native.extra().keys().map(String::as_str).collect();
    assert_eq!(keys, ["sandbox", "attempt"]);
    assert_eq!(native.extra()["sandbox"]["network"], "deny");
}

#[test]
fn bad_payloads_are_typed_errors() {
    use agenthooks_core::DecodeCategory;
    let env = HashMap::<String, String>::new();
    let decode = |bytes: &[u8]| CODEC.decode(&Invocation::new(bytes.to_vec(), &env));
    assert_eq!(decode(b"").expect_err("empty").category(), DecodeCategory::Empty);
    assert_eq!(decode(b"{\"a\":").expect_err("eof").category(), DecodeCategory::Syntax);
    assert_eq!(decode(b"[1]").expect_err("array").category(), DecodeCategory::Data);
    // No event name and no `--event`: the event cannot be identified.
    let err = decode(br#"{"session_id":"s","tool_name":"Bash"}"#).expect_err("no name");
    assert_eq!(err.path(), Some("hook_event_name"));
    // Tolerated (an older or newer release): a missing `tool_use_id` is synthesized, a
    // mistyped field is kept in `extra` and reported with its path.
    let ev = decode(br#"{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}"#)
        .expect("missing tool_use_id is tolerated");
    assert!(ev.tool().is_some_and(|t| t.synthesized));
    let ev = decode(br#"{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PostToolBatch","tool_calls":[{"tool_name":1}]}"#)
        .expect("a mistyped field is tolerated");
    let issues = &ev.envelope().projection_issues;
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].path, "tool_calls[0].tool_name");
    assert_eq!(
        view(ev.envelope()).expect("view").extra()["tool_calls"][0]["tool_name"],
        1
    );
    // A BOM (as Cursor adds) is tolerated; the raw keeps it.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(&CORPUS.case("docs/session_end").input);
    let ev = decode(&bom).expect("decodes with a BOM");
    assert_eq!(ev.envelope().raw().as_bytes(), bom.as_slice());
}

/// MCP attribution over `fixtures/claude-code/mcp/` (precedence, `${VAR}` expansion,
/// `CLAUDE_CONFIG_DIR`, an underscore in a server name, malformed files).
#[test]
fn mcp_calls_resolve_from_the_config_files() {
    agenthooks_testkit::mcp::assert_corpus(&agenthooks_claude::CODEC, "claude-code");
}
