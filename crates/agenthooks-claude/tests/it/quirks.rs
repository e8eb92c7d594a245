//! Every quirk that concerns Claude Code has a fixture, and the fixture shows the mitigation.

use agenthooks_claude::{native, view_as, CODEC};
use agenthooks_core::decision::{no_decision, replace_output};
use agenthooks_core::quirks::registry;
use agenthooks_core::{CanonicalTool, Capability, Codec, Event, EventTarget, FailMode, Outcome, Variant};
use serde_json::json;

use agenthooks_testkit::Fixture;

use crate::support::CORPUS;

/// The fixture CORPUS.case(s) that exercise each quirk.
const QUIRK_FIXTURES: &[(u16, &[&str])] = &[
    (1, &["docs/stop-cowork"]),
    (
        15,
        &["docs/pre_tool_use-reference-example", "docs/pre_tool_use-mcp-plugin"],
    ),
    (16, &["docs/pre_skill_shell_command"]),
    (17, &["2.1.197/pre_tool_use-allow", "docs/pre_tool_use"]),
    (19, &["docs/stop-loop-guard"]),
    (26, &["docs/pre_tool_use-mcp-plugin"]),
    (101, &["docs/pre_tool_use", "docs/user_prompt_submit"]),
    (102, &["docs/post_tool_use-mcp"]),
    (103, &["docs/pre_skill_shell_command"]),
    (104, &["docs/worktree_create"]),
    (105, &["docs/message_display", "2.1.197/message_display-allow"]),
    (106, &["docs/permission_request"]),
    (107, &["docs/stop", "2.1.197/stop-deny-exit2"]),
    (108, &["docs/pre_tool_use"]),
    (109, &["docs/pre_tool_use", "docs/permission_request"]),
    (110, &["docs/pre_tool_use", "docs/future_event"]),
    (111, &["docs/session_start", "docs/setup"]),
    (112, &["2.1.332/pre_tool_use-e2e-no-decision"]),
];

#[test]
fn every_claude_quirk_has_a_fixture() {
    let names: Vec<String> = CORPUS.cases().iter().map(Fixture::short_id).collect();
    for q in registry([&CODEC as &dyn Codec]) {
        if !q.affects("claude-code") {
            continue;
        }
        let Some((_, fixtures)) = QUIRK_FIXTURES.iter().find(|(id, _)| *id == q.id) else {
            panic!("quirk #{} has no fixture", q.id)
        };
        for f in *fixtures {
            assert!(names.iter().any(|n| n == f), "quirk #{}: missing fixture {f}", q.id);
        }
    }
}

#[test]
fn q1_cowork_is_detected_and_stop_still_continues() {
    let ev = CORPUS.event("docs/stop-cowork");
    assert_eq!(ev.envelope().variant, Variant::COWORK);
    assert!(CODEC
        .capabilities(&Variant::COWORK, "Stop")
        .contains(Capability::ContinueAgent));
}

#[test]
fn q16_skill_shell_commands_reach_shell_policies() {
    let ev = CORPUS.event("docs/pre_skill_shell_command");
    let tool = ev.tool().expect("tool.pre");
    assert_eq!(tool.canonical, CanonicalTool::Shell);
    assert_eq!(tool.command(), Some("git log --oneline -20"));
}

#[test]
fn q17_no_decision_is_not_an_allow() {
    for case in ["2.1.197/pre_tool_use-allow", "docs/pre_tool_use"] {
        let ev = CORPUS.event(case);
        let r = CODEC.encode(&ev, &no_decision().into()).expect("encodes");
        assert_eq!(r.stdout, b"{}");
        assert!(!r.stdout_str().contains("allow"));
    }
}

#[test]
fn q19_stop_hook_active_is_previously_continued() {
    let Event::Stop(stop) = CORPUS.event("docs/stop-loop-guard") else {
        panic!("expected agent.stop")
    };
    assert!(stop.previously_continued);
}

#[test]
fn q26_plugin_mcp_server_uses_the_real_name() {
    let ev = CORPUS.event("docs/pre_tool_use-mcp-plugin");
    let mcp = ev.tool().and_then(|t| t.mcp.as_ref()).expect("mcp");
    assert_eq!(mcp.server, "db");
    let native: &native::PreToolUse = view_as(ev.envelope()).expect("view");
    assert_eq!(native.tool_name, "mcp__plugin_acme_db__query");
}

#[test]
fn q101_fail_closed_uses_the_event_json() {
    let ev = CORPUS.event("docs/pre_tool_use");
    let r = CODEC.failure_response(&EventTarget::of(&ev), FailMode::Closed, "timed out");
    assert_eq!(r.exit_code, 0);
    assert!(r.stdout_str().contains(r#""permissionDecision":"deny""#));
}

#[test]
fn q102_mcp_replacement_sets_both_keys() {
    let ev = CORPUS.event("docs/post_tool_use-mcp");
    let r = CODEC.encode(&ev, &replace_output(json!("x")).into()).expect("encodes");
    let out = r.stdout_str();
    assert!(out.contains(r#""updatedToolOutput":"x""#) && out.contains(r#""updatedMCPToolOutput":"x""#));
    // A built-in tool gets only the new key.
    let r = CODEC
        .encode(&CORPUS.event("docs/post_tool_use"), &replace_output(json!("x")).into())
        .expect("encodes");
    assert!(!r.stdout_str().contains("updatedMCPToolOutput"));
}

#[test]
fn q103_skill_shell_commands_take_no_rewrite() {
    let caps = CODEC.capabilities(&Variant::DEFAULT, "PreSkillShellCommand");
    assert!(!caps.contains(Capability::UpdateInput) && !caps.contains(Capability::Allow));
    assert!(caps.contains(Capability::Deny) && caps.contains(Capability::Ask));
}

#[test]
fn q104_worktree_create_no_op_is_empty() {
    let ev = CORPUS.event("docs/worktree_create");
    assert!(CODEC.no_op(&EventTarget::of(&ev)).stdout.is_empty());
}

#[test]
fn q105_message_display_is_an_approximate_model_response() {
    let Event::ModelResponse(m) = CORPUS.event("docs/message_display") else {
        panic!("expected model.response")
    };
    assert_eq!(m.text.as_deref(), Some("I'll start by reading the failing test."));
    let caps = CODEC.capabilities(&Variant::DEFAULT, "MessageDisplay");
    assert_eq!(caps.iter().collect::<Vec<_>>(), [Capability::SystemMessage]);
}

#[test]
fn q106_permission_request_has_no_ask_and_a_synthesized_id() {
    let ev = CORPUS.event("docs/permission_request");
    assert!(ev.tool().is_some_and(|t| t.synthesized));
    assert!(!CODEC
        .capabilities(&Variant::DEFAULT, "PermissionRequest")
        .contains(Capability::Ask));
}

#[test]
fn q107_fail_closed_never_continues_a_stop() {
    for case in ["docs/stop", "2.1.197/stop-deny-exit2", "docs/subagent_stop"] {
        let ev = CORPUS.event(case);
        let r = CODEC.failure_response(&EventTarget::of(&ev), FailMode::Closed, "boom");
        assert_eq!((r.exit_code, r.stdout.as_slice()), (0, &b"{}"[..]), "{case}");
    }
}

#[test]
fn q109_a_rewrite_needs_a_verdict() {
    use agenthooks_core::decision::rewrite_input;
    let mut input = serde_json::Map::new();
    input.insert("command".into(), json!("ls"));
    for case in ["docs/pre_tool_use", "docs/permission_request"] {
        let ev = CORPUS.event(case);
        assert!(CODEC
            .encode(&ev, &rewrite_input(input.clone()).no_decision().into())
            .is_err());
        let r = CODEC
            .encode(&ev, &rewrite_input(input.clone()).allow().into())
            .expect("encodes");
        assert!(r.stdout_str().contains(r#""updatedInput":{"command":"ls"}"#), "{case}");
    }
}

#[test]
fn q108_defer_is_never_emitted() {
    let ev = CORPUS.event("docs/pre_tool_use");
    for outcome in [
        Outcome::from(no_decision()),
        agenthooks_core::decision::allow().into(),
        agenthooks_core::decision::ask_user("?").into(),
        agenthooks_core::decision::deny("no").into(),
    ] {
        let r = CODEC.encode(&ev, &outcome).expect("encodes");
        assert!(!r.stdout_str().contains("defer"));
    }
}
