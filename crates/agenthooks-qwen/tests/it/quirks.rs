//! One case per quirk of `agenthooks_qwen::quirks::QUIRKS` (ids 901–915).

use std::time::Duration;

use agenthooks_core::{Capability as C, Codec, Confidence, EventKind};
use agenthooks_qwen::{quirks::QUIRKS, timeout_config_value, CODEC};
use agenthooks_testkit::fake::{self, HookOutput};

use crate::support::CORPUS;

fn caps(native: &str) -> agenthooks_core::CapSet {
    CODEC.row(native).expect("row").caps
}

#[test]
fn the_table_is_in_range() {
    assert!(QUIRKS.iter().all(|q| (901..1000).contains(&q.id)));
    assert_eq!(QUIRKS.len(), 15);
}

#[test]
fn q901_timeouts_are_written_in_milliseconds_of_at_least_1000() {
    assert_eq!(timeout_config_value(Duration::from_secs(5)), 5_000);
    assert_eq!(timeout_config_value(Duration::from_millis(1)), 1_000);
    let qwen = fake::agent("qwen-code").expect("fake");
    assert_eq!(qwen.timeout("PreToolUse", Some(5_000)), Duration::from_secs(5));
}

#[test]
fn q902_q903_pre_tool_use_has_no_rewrite_and_no_allow() {
    assert!(!caps("PreToolUse").contains(C::UpdateInput));
    assert!(!caps("PreToolUse").contains(C::Allow));
    assert!(caps("PreToolUse").contains(C::Ask));
    assert!(caps("PermissionRequest").contains(C::UpdateInput));
}

#[test]
fn q904_post_tool_use_has_no_flag_or_replace() {
    assert!(!caps("PostToolUse").contains(C::FlagOutput));
    assert!(!caps("PostToolUse").contains(C::ReplaceOutput));
    assert!(caps("PostToolUse").contains(C::AddContext));
}

#[test]
fn q905_continue_false_on_stop_continues() {
    assert!(!caps("Stop").contains(C::StopAgent));
    let qwen = fake::agent("qwen-code").expect("fake");
    let v = qwen.interpret(
        "Stop",
        b"{}",
        &HookOutput::new(0, r#"{"continue":false,"stopReason":"x"}"#, ""),
    );
    assert_eq!(v.effect.name(), "continued");
}

#[test]
fn q906_pre_compact_takes_context() {
    assert!(caps("PreCompact").contains(C::AddContext));
    assert_eq!(CODEC.kind_of("PreCompact"), EventKind::CompactPre);
}

#[test]
fn q907_todo_events_fail_closed_with_a_block() {
    let row = CODEC.row("TodoCreated").expect("row");
    assert_eq!(row.failure, agenthooks_core::kit::FailShape::Block);
}

#[test]
fn q908_mcp_names_split_at_the_first_separator() {
    let m = agenthooks_qwen::tools::parse_mcp("mcp__shop_db__lookup__v2").expect("mcp");
    assert_eq!((m.server.as_str(), m.tool.as_str()), ("shop_db", "lookup__v2"));
}

#[test]
fn q909_qwen_project_dir_identifies_qwen() {
    let env: std::collections::HashMap<String, String> =
        [("QWEN_PROJECT_DIR".to_owned(), "/w".to_owned())].into_iter().collect();
    assert_eq!(CODEC.sniff_env(&env), Some(Confidence::Certain));
    let gemini_only: std::collections::HashMap<String, String> = [("GEMINI_PROJECT_DIR".to_owned(), "/w".to_owned())]
        .into_iter()
        .collect();
    assert_eq!(CODEC.sniff_env(&gemini_only), None);
}

#[test]
fn q910_context_is_sent_verbatim() {
    let ev = CORPUS.event("docs/session_start");
    let out = CODEC
        .encode(
            &ev,
            &agenthooks_core::decision::ContextDecision::none()
                .with_context("<b>x</b>")
                .into(),
        )
        .expect("encodes");
    assert!(out.stdout_str().contains("<b>x</b>"));
}

#[test]
fn q911_http_answers_are_json() {
    let r = CODEC.http_response(
        Some("UserPromptSubmit"),
        agenthooks_core::WireResponse::exit(2, b"no".to_vec()),
    );
    assert_eq!(
        (r.exit_code, r.stdout_str().as_ref()),
        (0, r#"{"decision":"block","reason":"no"}"#)
    );
}

#[test]
fn q912_older_shapes_decode() {
    assert_eq!(CORPUS.event("docs/pre_tool_use-0.12-shape").kind(), EventKind::ToolPre);
}

#[test]
fn q913_continue_false_on_pre_tool_use_only_blocks_the_call() {
    assert!(!caps("PreToolUse").contains(C::StopAgent));
    let qwen = fake::agent("qwen-code").expect("fake");
    let v = qwen.interpret(
        "PreToolUse",
        b"{}",
        &HookOutput::new(0, r#"{"continue":false,"stopReason":"x"}"#, ""),
    );
    assert_eq!((v.effect.name(), v.agent_stopped), ("denied", None));
}

#[test]
fn q914_context_beside_a_deny_is_not_read() {
    let qwen = fake::agent("qwen-code").expect("fake");
    let out = r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r","additionalContext":"c"}}"#;
    let v = qwen.interpret("PreToolUse", b"{}", &HookOutput::new(0, out, ""));
    assert!(v.context.is_empty());
}

#[test]
fn q915_an_empty_prompt_still_decodes_as_a_prompt() {
    let payload = br#"{"session_id":"s","cwd":"/w","hook_event_name":"UserPromptSubmit","timestamp":"t","permission_mode":"yolo","prompt":""}"#;
    let env = std::collections::HashMap::<String, String>::new();
    let ev = CODEC
        .decode(&agenthooks_core::Invocation::new(payload.to_vec(), &env))
        .expect("decodes");
    assert_eq!(ev.kind(), EventKind::PromptSubmitted);
}
