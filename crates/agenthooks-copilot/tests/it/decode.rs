//! Copilot-specific decoding: identification with and without the argv hint, projections,
//! tool-call ids, tool names, payloads of older releases, sniffing.

use std::collections::HashMap;

use agenthooks_copilot::identify::identify_bytes;
use agenthooks_copilot::native::{self, Dialect, NativeEvent};
use agenthooks_copilot::{view, view_as, CODEC};
use agenthooks_core::kit::Repair;
use agenthooks_core::{
    CanonicalTool, Codec, Confidence, DecodeCategory, DecodeError, Event, EventKind, Invocation, Variant,
};
use serde_json::json;

use agenthooks_testkit::Fixture;

use crate::fixtures::{self, decode};

/// `bytes` decoded with no environment and `argv` as the `--event` hint.
fn decode_raw(bytes: &[u8], argv: Option<&str>) -> Result<Event, DecodeError> {
    let env: HashMap<String, String> = HashMap::new();
    CODEC.decode(&Invocation::new(bytes.to_vec(), &env).with_native_event(argv))
}

/// The event the fixture `id` decodes to, taken out of its `variant` (a panic names the kind it got).
macro_rules! decoded {
    ($variant:path, $id:expr) => {
        match decode(fixtures::CORPUS.case($id), true) {
            $variant(e) => e,
            other => panic!("{}: expected {}, got {:?}", $id, stringify!($variant), other.kind()),
        }
    };
}

#[test]
fn the_payload_decides_the_dialect_and_argv_makes_it_certain() {
    for f in fixtures::CORPUS.cases() {
        let ev = decode(f, true);
        let env = ev.envelope();
        let id = Fixture::short_id(f);
        assert_eq!(env.confidence, Confidence::Certain, "{id}: argv names the event");
        assert!(env.projection_issues.is_empty(), "{id}: {:?}", env.projection_issues);
        let (_, spelled) = native::spelled(&f.meta.native_event).unwrap();
        let expected = if spelled == Dialect::Pascal {
            Variant::VSCODE
        } else {
            Variant::DEFAULT
        };
        assert_eq!(env.variant, expected, "{id}");
        assert!(!env.session.cwd.is_empty(), "{id}");
        assert!(env.provider_time.is_some(), "{id}");
    }
}

#[test]
fn argv_stripped_decoding_reconstructs_the_same_event() {
    for f in fixtures::CORPUS.cases() {
        let with = decode(f, true);
        let without = decode(f, false);
        let id = Fixture::short_id(f);
        assert_eq!(without.envelope().native, f.meta.native_event.as_str(), "{id}");
        assert_eq!(without.kind(), with.kind(), "{id}");
        assert_eq!(
            without.tool().map(|t| t.id.clone()),
            with.tool().map(|t| t.id.clone()),
            "{id}"
        );
        let expected = identify_bytes(None, &f.input).confidence.envelope();
        assert_eq!(without.envelope().confidence, expected, "{id}");
        if id.ends_with("agent_stop-minimal") {
            assert_eq!(expected, Confidence::Guess, "{id}");
        }
    }
}

#[test]
fn captured_pre_tool_use_projects_every_field() {
    let ev = decode(fixtures::CORPUS.case("1.0.102/pre_tool_use-deny-json"), true);
    let Event::ToolPre(e) = &ev else {
        panic!("tool.pre expected")
    };
    let env = &e.envelope;
    assert_eq!(env.session.id, "f7863813-5b17-4d7c-a518-01af071c2a49");
    assert_eq!(env.session.cwd, "/tmp/e2e/proj");
    assert_eq!(env.session.workspace_roots, ["/tmp/e2e/proj"]);
    assert_eq!(env.session.model, "fake-model");
    assert_eq!(env.agent_version.as_deref(), Some("1.0.102"));
    assert_eq!(env.provider_time, Some(json!(1_796_040_713_029_u64)));
    assert_eq!(env.agent, None);
    assert_eq!(e.tool.name, "bash");
    assert_eq!(e.tool.canonical, CanonicalTool::Shell);
    assert_eq!(e.tool.command(), Some("echo hi > marker.txt"));
    assert!(e.tool.synthesized && e.tool.id.starts_with("hook_synth_"));
    assert_eq!(
        *e.tool.raw_input(),
        json!({"command": "echo hi > marker.txt", "description": "probe: write marker file"})
    );
    let native = view_as::<native::PreToolUse>(env).unwrap();
    assert_eq!(
        native.timestamp.as_ref().and_then(native::Timestamp::unix_millis),
        Some(1_796_040_713_029)
    );
}

#[test]
fn ids_correlate_across_a_tool_call() {
    let pre = decode(fixtures::CORPUS.case("1.0.102/pre_tool_use-allow"), true);
    let perm = decode(fixtures::CORPUS.case("1.0.102/permission_request-allow"), true);
    let post = decode(fixtures::CORPUS.case("1.0.102/post_tool_use-allow"), true);
    let id = pre.tool().unwrap().id.clone();
    assert_eq!(perm.tool().unwrap().id, id, "permissionRequest drops `description`");
    assert_eq!(post.tool().unwrap().id, id);
    let other = decode(fixtures::CORPUS.case("1.0.102/pre_tool_use-deny-json"), true);
    assert_ne!(other.tool().unwrap().id, id, "another session, another id");
    let Event::Permission(p) = &perm else { panic!() };
    assert_eq!(p.suggestions, Some(json!([])));
    let Event::ToolPost(p) = &post else { panic!() };
    assert_eq!(p.output["resultType"], "success");
}

#[test]
fn string_args_are_unstringified_and_kept_raw() {
    let ev = decode(fixtures::CORPUS.case("docs/pre_tool_use-example"), true);
    let t = ev.tool().unwrap();
    assert_eq!(t.command(), Some("git push --force origin main"));
    assert_eq!(
        *t.raw_input(),
        json!("{\"command\": \"git push --force origin main\", \"description\": \"Push release\"}")
    );
    let ev = decode(fixtures::CORPUS.case("docs/pre_tool_use-unparseable-args"), true);
    assert_eq!(ev.tool().unwrap().input()["value"], "echo hi > marker.txt");
    let ev = decode(fixtures::CORPUS.case("docs/pre_tool_use-no-args"), true);
    assert!(ev.tool().unwrap().input().is_empty());
}

#[test]
fn mcp_and_claude_compatible_tool_names_classify() {
    let ev = decode(fixtures::CORPUS.case("docs/pre_tool_use-mcp"), true);
    let t = ev.tool().unwrap();
    assert_eq!(t.canonical, CanonicalTool::Mcp);
    let mcp = t.mcp.as_ref().unwrap();
    assert_eq!(
        (mcp.server.as_str(), mcp.tool.as_str()),
        ("", "github-mcp-server-get_issue")
    );
    let ev = decode(fixtures::CORPUS.case("docs/pre_tool_use-pascal"), true);
    assert_eq!(
        ev.tool().unwrap().canonical,
        CanonicalTool::FileRead,
        "`Read` is `view`"
    );
    let ev = decode(fixtures::CORPUS.case("docs/pre_tool_use-powershell"), true);
    assert_eq!(ev.tool().unwrap().canonical, CanonicalTool::Shell);
}

#[test]
fn every_kind_projects_its_fields() {
    let get = |id: &str| decode(fixtures::CORPUS.case(id), true);
    let e = decoded!(Event::SessionStart, "1.0.102/session_start-allow");
    assert_eq!(e.source.as_deref(), Some("new"));
    let e = decoded!(Event::SessionEnd, "docs/session_end");
    assert_eq!(e.reason.as_deref(), Some("user_exit"));
    let e = decoded!(Event::PromptSubmitted, "1.0.102/user_prompt_submitted-allow");
    assert_eq!(e.prompt, "Create marker.txt by running: echo hi > marker.txt");
    let e = decoded!(Event::ToolError, "docs/post_tool_use_failure");
    assert!(e.error.starts_with("Command failed with exit code 1"));
    assert_eq!(e.tool.command(), Some("npm run lint"));
    let e = decoded!(Event::Stop, "docs/agent_stop");
    assert!(e.previously_continued);
    assert_eq!(
        e.envelope.session.transcript_path,
        "/home/dev/.copilot/session-state/5d2e8a90-1c3b-4f6e-9a7d-2b4c6e8f0a12/events.jsonl"
    );
    let e = decoded!(Event::Stop, "docs/agent_stop-stop-hook-active-sdk");
    assert!(e.previously_continued, "SDK spelling");
    let e = decoded!(Event::Stop, "1.0.102/agent_stop-allow");
    assert!(!e.previously_continued);
    let e = decoded!(Event::Stop, "docs/stop-pascal");
    assert!(e.previously_continued);
    let e = decoded!(Event::SubagentStart, "docs/subagent_start");
    assert_eq!(
        e.envelope.agent.as_ref().map(|a| a.agent_type.as_str()),
        Some("explore")
    );
    let e = decoded!(Event::SubagentStop, "docs/subagent_stop");
    assert_eq!(e.last_message.as_deref(), Some("cart.ts computes totals in total()."));
    let e = decoded!(Event::CompactPre, "docs/pre_compact");
    assert_eq!(e.trigger.as_deref(), Some("manual"));
    assert_eq!(e.instructions.as_deref(), Some("Keep the failing test output"));
    let e = decoded!(Event::Notification, "docs/notification-example");
    assert_eq!(e.notification_type.as_deref(), Some("permission_prompt"));
    assert_eq!(e.title.as_deref(), Some("Permission needed"));
    for id in [
        "docs/error_occurred",
        "docs/user_prompt_transformed",
        "docs/pre_mcp_tool_call",
    ] {
        let ev = get(id);
        assert_eq!(ev.kind(), EventKind::Other, "{id}");
        assert!(view(ev.envelope()).is_some());
    }
    let ev = get("docs/pre_tool_use-extra-keys");
    let agent = ev.envelope().agent.clone().unwrap();
    assert_eq!(
        (agent.id.as_str(), agent.agent_type.as_str()),
        ("agent-2", "general-purpose")
    );
    let Some(NativeEvent::PreToolUse(n)) = view(ev.envelope()) else {
        panic!()
    };
    assert_eq!(n.extra["sandbox"], json!({"mode": "workspace-write"}));
}

/// Payload shapes of older releases (notes/tolerant-fields.md §5) reach handlers as their kind.
#[test]
fn older_release_payloads_still_decode_as_their_kind() {
    let decode = |bytes: &[u8], argv| decode_raw(bytes, argv).unwrap();
    // ≤ 1.0.63: no `sessionId` (older docs), `toolArgs` a string, for `apply_patch` the raw
    // patch text (not JSON).
    let patch = "*** Begin Patch\n*** Update File: a.rs\n@@\n-x\n+y\n*** End Patch";
    let old = json!({"timestamp": 1_751_000_000_000_u64, "cwd": "/w", "toolName": "apply_patch", "toolArgs": patch});
    let bytes = serde_json::to_vec(&old).unwrap();
    for argv in [Some("preToolUse"), None] {
        let ev = decode(&bytes, argv);
        assert_eq!(ev.kind(), EventKind::ToolPre, "{argv:?}");
        let t = ev.tool().unwrap();
        assert_eq!(
            (t.canonical, t.raw_input().clone()),
            (CanonicalTool::FileEdit, json!(patch))
        );
        assert_eq!(t.input()["value"], patch, "kept whole");
        assert!(ev.envelope().projection_issues.is_empty());
        assert_eq!(ev.envelope().session.id, "");
    }
    // ≥ 1.0.82: the same call with `toolArgs` an object.
    let ev = decode(
        br#"{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{"command":"ls"}}"#,
        Some("preToolUse"),
    );
    assert_eq!(ev.tool().unwrap().command(), Some("ls"));
    // Before 1.0.72 there is no `stop_hook_active`; a flag sent as a string still counts.
    let ev = decode(br#"{"timestamp":1,"cwd":"/w"}"#, Some("agentStop"));
    let Event::Stop(e) = &ev else { panic!() };
    assert!(!e.previously_continued);
    let ev = decode(
        br#"{"timestamp":1,"cwd":"/w","stop_hook_active":"true"}"#,
        Some("agentStop"),
    );
    let Event::Stop(e) = &ev else { panic!() };
    assert!(e.previously_continued);
    // A PascalCase hook (≥ 1.0.21): ISO timestamp, snake_case fields, into the same struct.
    let ev = decode(
        br#"{"hook_event_name":"PostToolUseFailure","session_id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w","tool_name":"Bash","tool_input":{"command":"false"},"error":"exit 1"}"#,
        None,
    );
    let Event::ToolError(e) = &ev else { panic!() };
    assert_eq!((e.error.as_str(), e.tool.command()), ("exit 1", Some("false")));
    assert_eq!(e.envelope.variant, Variant::VSCODE);
    let native = view_as::<native::PostToolUseFailure>(&e.envelope).unwrap();
    assert_eq!(native.session_id.as_deref(), Some("s"));
    assert!(native.extra.is_empty());
}

#[test]
fn retyped_and_missing_fields_are_repaired_not_fatal() {
    let decode = |bytes: &[u8], argv| decode_raw(bytes, argv).unwrap();
    // `cwd` of a shape no release sent: kept in `extra`, reported, the event is intact.
    let ev = decode(
        br#"{"sessionId":"s","timestamp":1,"cwd":{"path":"/w"},"toolName":"bash","toolArgs":{"command":"ls"}}"#,
        Some("preToolUse"),
    );
    assert_eq!(ev.kind(), EventKind::ToolPre);
    assert_eq!(ev.tool().unwrap().command(), Some("ls"));
    let issues = &ev.envelope().projection_issues;
    assert_eq!(
        (issues.len(), issues[0].path.as_str(), issues[0].repair),
        (1, "cwd", Repair::MovedToExtra)
    );
    assert_eq!(CODEC.native_extra(ev.envelope()).unwrap()["cwd"], json!({"path": "/w"}));
    // The identifying `toolName` missing or retyped: still `tool.pre`, the native view is the
    // `Other` form with every key.
    for bytes in [
        &br#"{"timestamp":1,"cwd":"/w","toolArgs":{}}"#[..],
        &br#"{"timestamp":1,"cwd":"/w","toolName":7}"#[..],
    ] {
        let ev = decode(bytes, Some("preToolUse"));
        assert_eq!(ev.kind(), EventKind::ToolPre);
        assert!(ev
            .envelope()
            .projection_issues
            .iter()
            .any(|i| i.repair == Repair::Placeholder));
        assert!(matches!(view(ev.envelope()), Some(NativeEvent::Other(u)) if u.name == "preToolUse"));
    }
}

#[test]
fn bad_payloads_are_typed_errors() {
    let env: HashMap<String, String> = HashMap::new();
    let decode = |bytes: &[u8], argv| decode_raw(bytes, argv).unwrap_err();
    let e = decode(b"{\"toolName\":", Some("preToolUse"));
    assert_eq!(e.category(), DecodeCategory::Syntax);
    let e = decode(b"[1,2]", None);
    assert_eq!(e.category(), DecodeCategory::Data);
    let e = decode(br#"{"toolName":"bash"} {}"#, Some("preToolUse"));
    assert_eq!(e.category(), DecodeCategory::Syntax, "trailing data");
    // Unknown events still decode, as `other`, with the raw intact.
    let ev = CODEC
        .decode(&Invocation::new(br#"{"a":1}"#.to_vec(), &env).with_native_event(Some("postResult")))
        .unwrap();
    assert_eq!(
        (ev.kind(), ev.envelope().native.as_str()),
        (EventKind::Other, "postResult")
    );
    assert_eq!(CODEC.native_extra(ev.envelope()).unwrap()["a"], 1);
    let ev = CODEC
        .decode(&Invocation::new(
            br#"{"timestamp":1,"cwd":"/w","brandNew":true}"#.to_vec(),
            &env,
        ))
        .unwrap();
    assert_eq!(ev.kind(), EventKind::Other);
    assert_eq!(ev.envelope().confidence, Confidence::Guess);
    // A BOM is tolerated.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(&fixtures::CORPUS.case("docs/pre_tool_use").input);
    let ev = CODEC.decode(&Invocation::new(bom.clone(), &env)).unwrap();
    assert_eq!(ev.envelope().raw().as_bytes(), &bom[..]);
    assert_eq!(ev.kind(), EventKind::ToolPre);
}

#[test]
fn the_payload_name_wins_over_a_disagreeing_argv() {
    let env: HashMap<String, String> = HashMap::new();
    let payload = br#"{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"t","cwd":"/w","tool_name":"Bash"}"#;
    let ev = CODEC
        .decode(&Invocation::new(payload.to_vec(), &env).with_native_event(Some("postToolUse")))
        .unwrap();
    assert_eq!(
        (ev.kind(), ev.envelope().native.as_str()),
        (EventKind::ToolPre, "PreToolUse")
    );
}

#[test]
fn sniffing_recognises_copilot_only() {
    let env: HashMap<String, String> = HashMap::new();
    for f in fixtures::CORPUS.cases() {
        let got = CODEC.sniff_payload(&f.input, &env);
        let expected = if f.case.ends_with("-pascal") {
            Some(Confidence::Inferred)
        } else {
            Some(Confidence::Certain)
        };
        assert_eq!(got, expected, "{}", Fixture::short_id(f));
    }
    let claude = br#"{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}"#;
    assert_eq!(CODEC.sniff_payload(claude, &env), None, "Claude sends no timestamp");
    assert_eq!(CODEC.sniff_payload(b"not json", &env), None);
    let bare = br#"{"timestamp":1796040711415,"cwd":"/w"}"#;
    assert_eq!(CODEC.sniff_payload(bare, &env), Some(Confidence::Guess));
    let mut env = HashMap::new();
    assert_eq!(CODEC.sniff_env(&env), None);
    env.insert("COPILOT_CLI".to_owned(), "1".to_owned());
    assert_eq!(CODEC.sniff_env(&env), Some(Confidence::Inferred));
    env.insert("COPILOT_CLI_BINARY_VERSION".to_owned(), "1.0.102".to_owned());
    assert_eq!(CODEC.sniff_env(&env), Some(Confidence::Certain));
}

/// Both spellings of one field (the fuzzer's find: `transcript_path` beside `transcriptPath`)
/// still decode as the named event, with every value kept: the field's own spelling goes to
/// `extra`, the alias is read, and a deny still reaches the wire.
#[test]
fn both_spellings_of_a_field_decode_and_keep_both_values() {
    let payload = br#"{"transcript_path":"/a","hook_event_name":"PreToolUse","transcriptPath":"/b","tool_name":"bash","tool_input":{"command":"rm -rf /"}}"#;
    for argv in [None, Some("PreToolUse"), Some("preToolUse")] {
        let ev = decode_raw(payload, argv).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
        assert_eq!(ev.kind(), EventKind::ToolPre, "{argv:?}");
        let env = ev.envelope();
        let moved: Vec<_> = env
            .projection_issues
            .iter()
            .filter(|i| i.repair == Repair::MovedToExtra)
            .map(|i| i.path.as_str())
            .collect();
        assert_eq!(moved, ["transcriptPath"], "{argv:?}");
        assert_eq!(
            CODEC.native_extra(env).unwrap()["transcriptPath"],
            json!("/b"),
            "{argv:?}"
        );
        let Event::ToolPre(pre) = &ev else { unreachable!() };
        assert_eq!(pre.tool.command(), Some("rm -rf /"), "{argv:?}");
        let wire = CODEC
            .encode(&ev, &agenthooks_core::decision::deny("no").into())
            .unwrap();
        assert!(wire.stdout_str().contains("deny"), "{argv:?}: {}", wire.stdout_str());
    }
}
