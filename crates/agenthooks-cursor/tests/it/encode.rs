//! Encode edge cases beyond the golden responses: what cannot be expressed, limits, failure.

use agenthooks_core::decision::{allow, ask_user, continue_with, deny, replace_output, rewrite_input};
use agenthooks_core::{Codec, EncodeCategory, EventTarget, FailMode, NativeName, Outcome};
use agenthooks_cursor::output::{invalid_reason, CONTEXT_LIMIT};
use agenthooks_cursor::CODEC;
use serde_json::{json, Map, Value};

use crate::support::CORPUS;

#[allow(clippy::needless_pass_by_value)] // call sites read better with `.into()`
fn stdout(name: &str, o: Outcome) -> Value {
    let w = CODEC
        .encode(&CORPUS.event(name), &o)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(w.exit_code, 0);
    assert_eq!(
        invalid_reason(CORPUS.event(name).envelope().native.as_str(), &w.stdout),
        None,
        "{name}"
    );
    serde_json::from_slice(&w.stdout).unwrap()
}

#[test]
fn verdicts_are_snake_case_with_the_legacy_continue() {
    assert_eq!(
        stdout("docs/pre_tool_use", deny("no").into()),
        json!({"permission":"deny","user_message":"no","agent_message":"no","continue":true})
    );
    assert_eq!(
        stdout("docs/before_read_file", allow().into()),
        json!({"permission":"allow","continue":true})
    );
    assert_eq!(
        stdout("docs/before_mcp_execution", ask_user("ok?").into()),
        json!({"permission":"ask","agent_message":"ok?","continue":true})
    );
    let mut i = Map::new();
    i.insert("command".into(), json!("ls"));
    assert_eq!(
        stdout("docs/pre_tool_use", rewrite_input(i.clone()).no_decision().into()),
        json!({"updated_input": {"command": "ls"}})
    );
    assert_eq!(
        stdout("docs/pre_tool_use", rewrite_input(i).allow().into()),
        json!({"permission":"allow","updated_input":{"command":"ls"},"continue":true})
    );
    assert_eq!(
        stdout("docs/stop", continue_with("go on").into()),
        json!({"followup_message":"go on"})
    );
}

#[test]
fn what_cursor_cannot_do_is_unsupported() {
    let cases: [(&str, Outcome); 5] = [
        ("docs/pre_tool_use", ask_user("?").into()),
        ("docs/before_read_file", ask_user("?").into()),
        ("docs/pre_tool_use", deny("x").stop_agent("halt").into()),
        ("docs/post_tool_use", replace_output("x").into()),
        ("docs/subagent_stop-error", continue_with("again").into()),
    ];
    for (name, o) in cases {
        let e = CODEC.encode(&CORPUS.event(name), &o).expect_err(name);
        assert_eq!(e.category(), EncodeCategory::Unsupported, "{name}: {e}");
    }
    // On the MCP echo the replacement is fine.
    assert_eq!(
        stdout("docs/post_tool_use-mcp", replace_output("x").into()),
        json!({"updated_mcp_tool_output":"x"})
    );
}

#[test]
fn prompt_context_only_on_builds_that_read_it() {
    let o: Outcome = agenthooks_core::decision::accept_prompt().with_context("ctx").into();
    assert_eq!(
        stdout("docs/before_submit_prompt", o.clone()),
        json!({"additional_context":"ctx"})
    );
    let e = CODEC
        .encode(&CORPUS.event("docs/before_submit_prompt-ide"), &o)
        .unwrap_err();
    assert_eq!(e.category(), EncodeCategory::Unsupported);
}

#[test]
fn long_context_is_cut_below_cursors_limit() {
    let o: Outcome = agenthooks_core::decision::observed()
        .with_context("x".repeat(CONTEXT_LIMIT + 50))
        .into();
    let v = stdout("docs/post_tool_use", o);
    let c = v["additional_context"].as_str().unwrap();
    assert!(c.chars().count() <= CONTEXT_LIMIT && c.ends_with("characters]"));
}

#[test]
fn failure_answers_use_cursors_mechanisms() {
    let t = |n: &str| EventTarget::new(Some(NativeName::from(n)), None);
    let f = |n: &str| CODEC.failure_response(&t(n), FailMode::Closed, "down");
    assert_eq!(
        f("beforeShellExecution").stdout_str(),
        r#"{"permission":"deny","user_message":"down","agent_message":"down","continue":true}"#
    );
    assert_eq!(
        f("beforeSubmitPrompt").stdout_str(),
        r#"{"continue":false,"user_message":"down"}"#
    );
    assert_eq!(
        f("subagentStart").stdout_str(),
        r#"{"permission":"deny","user_message":"down","agent_message":"down","continue":true}"#
    );
    assert_eq!(f("stop").stdout_str(), "{}");
    assert_eq!(f("sessionStart").stdout_str(), "{}");
    let unknown = f("afterPlanApproved");
    assert_eq!((unknown.exit_code, unknown.stderr_str().as_ref()), (2, "down"));
    assert_eq!(
        CODEC.failure_response(&t("preToolUse"), FailMode::Open, "down").stdout,
        b"{}"
    );
}
