//! `Codec::decode` over every fixture, with and without the argv hint.

use std::collections::HashMap;

use agenthooks_copilot::native::{Dialect, EventName, NativeEvent};
use agenthooks_copilot::{identification, view, CODEC};
use agenthooks_core::{
    CanonicalTool, Codec, Confidence, DecodeCategory, Event, EventKind, EventTarget, Invocation, Variant,
};
use serde_json::json;

use crate::fixtures::{self, Case};

pub(crate) fn decode_case(case: &Case, argv: bool) -> Event {
    let env: HashMap<String, String> = case.env.clone();
    let inv = Invocation::new(case.input.clone(), &env).with_native_event(if argv {
        case.argv_event.as_deref()
    } else {
        None
    });
    CODEC.decode(&inv).unwrap_or_else(|e| panic!("{}: {e}", case.id))
}

#[test]
fn every_fixture_decodes_with_raw_bytes_kept() {
    for case in fixtures::all() {
        let ev = decode_case(&case, true);
        let env = ev.envelope();
        assert_eq!(
            env.raw().as_bytes(),
            &case.input[..],
            "{}: raw is byte-identical",
            case.id
        );
        assert_eq!(env.native, case.native_event.as_str(), "{}", case.id);
        assert_eq!(env.provider, "copilot");
        assert_eq!(env.confidence, Confidence::Certain, "{}: argv names the event", case.id);
        let (event, _) = EventName::parse(&case.native_event).unwrap();
        assert_eq!(ev.kind(), agenthooks_copilot::kind_of_event(event), "{}", case.id);
        assert_eq!(ev.kind(), CODEC.kind_of(&case.native_event), "{}", case.id);
        let native = view(env).unwrap_or_else(|| panic!("{}: native view", case.id));
        assert_eq!(native.wire_name(), Some(case.native_event.as_str()));
        assert!(!env.session.cwd.is_empty(), "{}", case.id);
        assert!(env.provider_time.is_some(), "{}", case.id);
        if native.dialect() == Some(Dialect::Pascal) {
            assert_eq!(env.variant, Variant::VSCODE, "{}", case.id);
        } else {
            assert_eq!(env.variant, Variant::DEFAULT, "{}", case.id);
        }
        // Neutral in, no-op out.
        let neutral = agenthooks_core::Outcome::neutral_for(ev.kind());
        let wire = CODEC.encode(&ev, &neutral).unwrap();
        assert_eq!(wire, CODEC.no_op(&EventTarget::of(&ev)), "{}", case.id);
        assert_eq!((wire.exit_code, wire.stdout.len()), (0, 0));
    }
}

#[test]
fn argv_stripped_decoding_reconstructs_the_same_event() {
    for case in fixtures::all() {
        let with = decode_case(&case, true);
        let without = decode_case(&case, false);
        assert_eq!(without.envelope().native, case.native_event.as_str(), "{}", case.id);
        assert_eq!(without.kind(), with.kind(), "{}", case.id);
        assert_eq!(
            without.tool().map(|t| t.id.clone()),
            with.tool().map(|t| t.id.clone()),
            "{}",
            case.id
        );
        let id = identification(without.envelope()).unwrap();
        let expected = if case.id.ends_with("agent_stop-minimal") {
            Confidence::Guess
        } else if matches!(id.confidence, agenthooks_copilot::identify::Confidence::Certain) {
            Confidence::Certain
        } else {
            Confidence::Inferred
        };
        assert_eq!(without.envelope().confidence, expected, "{}", case.id);
    }
}

#[test]
fn captured_pre_tool_use_projects_every_field() {
    let case = fixtures::case("1.0.102/pre_tool_use-deny-json");
    let ev = decode_case(&case, true);
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
        e.tool.raw_input,
        json!({"command": "echo hi > marker.txt", "description": "probe: write marker file"})
    );
}

#[test]
fn ids_correlate_across_a_tool_call() {
    let pre = decode_case(&fixtures::case("1.0.102/pre_tool_use-allow"), true);
    let perm = decode_case(&fixtures::case("1.0.102/permission_request-allow"), true);
    let post = decode_case(&fixtures::case("1.0.102/post_tool_use-allow"), true);
    let id = pre.tool().unwrap().id.clone();
    assert_eq!(perm.tool().unwrap().id, id, "permissionRequest drops `description`");
    assert_eq!(post.tool().unwrap().id, id);
    let other = decode_case(&fixtures::case("1.0.102/pre_tool_use-deny-json"), true);
    assert_ne!(other.tool().unwrap().id, id, "another session, another id");
    let Event::Permission(p) = &perm else { panic!() };
    assert_eq!(p.suggestions, Some(json!([])));
    let Event::ToolPost(p) = &post else { panic!() };
    assert_eq!(p.output["resultType"], "success");
}

#[test]
fn string_args_are_unstringified_and_kept_raw() {
    let ev = decode_case(&fixtures::case("docs/pre_tool_use-example"), true);
    let t = ev.tool().unwrap();
    assert_eq!(t.command(), Some("git push --force origin main"));
    assert_eq!(
        t.raw_input,
        json!("{\"command\": \"git push --force origin main\", \"description\": \"Push release\"}")
    );
    let ev = decode_case(&fixtures::case("docs/pre_tool_use-unparseable-args"), true);
    assert_eq!(ev.tool().unwrap().input["value"], "echo hi > marker.txt");
    let ev = decode_case(&fixtures::case("docs/pre_tool_use-no-args"), true);
    assert!(ev.tool().unwrap().input.is_empty());
}

#[test]
fn mcp_and_claude_tool_names_classify() {
    let ev = decode_case(&fixtures::case("docs/pre_tool_use-mcp"), true);
    let t = ev.tool().unwrap();
    assert_eq!(t.canonical, CanonicalTool::Mcp);
    let mcp = t.mcp.as_ref().unwrap();
    assert_eq!(
        (mcp.server.as_str(), mcp.tool.as_str()),
        ("", "github-mcp-server-get_issue")
    );
    let ev = decode_case(&fixtures::case("docs/pre_tool_use-pascal"), true);
    assert_eq!(ev.tool().unwrap().canonical, CanonicalTool::FileRead, "Claude `Read`");
    let ev = decode_case(&fixtures::case("docs/pre_tool_use-powershell"), true);
    assert_eq!(ev.tool().unwrap().canonical, CanonicalTool::Shell);
}

#[test]
fn every_kind_projects_its_fields() {
    let get = |id: &str| decode_case(&fixtures::case(id), true);
    let Event::SessionStart(e) = get("1.0.102/session_start-allow") else {
        panic!()
    };
    assert_eq!(e.source.as_deref(), Some("new"));
    let Event::SessionEnd(e) = get("docs/session_end") else {
        panic!()
    };
    assert_eq!(e.reason.as_deref(), Some("user_exit"));
    let Event::PromptSubmitted(e) = get("1.0.102/user_prompt_submitted-allow") else {
        panic!()
    };
    assert_eq!(e.prompt, "Create marker.txt by running: echo hi > marker.txt");
    let Event::ToolError(e) = get("docs/post_tool_use_failure") else {
        panic!()
    };
    assert!(e.error.starts_with("Command failed with exit code 1"));
    assert_eq!(e.tool.command(), Some("npm run lint"));
    let Event::Stop(e) = get("docs/agent_stop") else {
        panic!()
    };
    assert!(e.previously_continued);
    assert_eq!(
        e.envelope.session.transcript_path,
        "/home/dev/.copilot/session-state/5d2e8a90-1c3b-4f6e-9a7d-2b4c6e8f0a12/events.jsonl"
    );
    let Event::Stop(e) = get("docs/agent_stop-stop-hook-active-sdk") else {
        panic!()
    };
    assert!(e.previously_continued, "SDK spelling");
    let Event::Stop(e) = get("1.0.102/agent_stop-allow") else {
        panic!()
    };
    assert!(!e.previously_continued);
    let Event::Stop(e) = get("docs/stop-pascal") else {
        panic!()
    };
    assert!(e.previously_continued);
    let Event::SubagentStart(e) = get("docs/subagent_start") else {
        panic!()
    };
    assert_eq!(
        e.envelope.agent.as_ref().map(|a| a.agent_type.as_str()),
        Some("explore")
    );
    let Event::SubagentStop(e) = get("docs/subagent_stop") else {
        panic!()
    };
    assert_eq!(e.last_message.as_deref(), Some("cart.ts computes totals in total()."));
    let Event::CompactPre(e) = get("docs/pre_compact") else {
        panic!()
    };
    assert_eq!(e.trigger.as_deref(), Some("manual"));
    assert_eq!(e.instructions.as_deref(), Some("Keep the failing test output"));
    let Event::Notification(e) = get("docs/notification-example") else {
        panic!()
    };
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

#[test]
fn bad_payloads_are_typed_errors() {
    let env: HashMap<String, String> = HashMap::new();
    let decode = |bytes: &[u8], argv: Option<&str>| {
        CODEC
            .decode(&Invocation::new(bytes.to_vec(), &env).with_native_event(argv))
            .unwrap_err()
    };
    let e = decode(b"{\"toolName\":", Some("preToolUse"));
    assert_eq!(e.category(), DecodeCategory::Syntax);
    let e = decode(b"[1,2]", None);
    assert_eq!(e.category(), DecodeCategory::Data);
    let e = decode(br#"{"timestamp":1,"cwd":"/w","toolArgs":{}}"#, Some("preToolUse"));
    assert_eq!(e.category(), DecodeCategory::Data);
    assert!(e.message().contains("toolName"), "{e}");
    let e = decode(br#"{"timestamp":1,"cwd":"/w","toolName":7}"#, Some("preToolUse"));
    assert_eq!(e.path(), Some("toolName"));
    // Unknown events still decode, as `other`, with the raw intact.
    let ev = CODEC
        .decode(&Invocation::new(br#"{"a":1}"#.to_vec(), &env).with_native_event(Some("postResult")))
        .unwrap();
    assert_eq!(
        (ev.kind(), ev.envelope().native.as_str()),
        (EventKind::Other, "postResult")
    );
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
    bom.extend_from_slice(&fixtures::case("docs/pre_tool_use").input);
    let ev = CODEC.decode(&Invocation::new(bom.clone(), &env)).unwrap();
    assert_eq!(ev.envelope().raw().as_bytes(), &bom[..]);
}

#[test]
fn sniffing_recognises_copilot_only() {
    let env: HashMap<String, String> = HashMap::new();
    for case in fixtures::all() {
        let got = CODEC.sniff_payload(&case.input, &env);
        let pascal = case.id.ends_with("-pascal");
        let expected = if pascal {
            Some(Confidence::Inferred)
        } else {
            Some(Confidence::Certain)
        };
        assert_eq!(got, expected, "{}", case.id);
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
