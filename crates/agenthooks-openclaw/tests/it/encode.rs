//! Encode edge cases: each decision's handler result, what cannot be expressed, failures.

use std::collections::HashMap;

use agenthooks_core::decision::{
    accept_prompt, allow, ask_user, block_prompt, continue_with, deny, finish, rewrite_input, ContextDecision,
};
use agenthooks_core::{Codec, EncodeCategory, Event, EventTarget, FailMode, Invocation, NativeName, Outcome};
use agenthooks_openclaw::CODEC;
use serde_json::{json, Map, Value};

use crate::CORPUS;

fn event(name: &str) -> Event {
    let env: HashMap<String, String> = HashMap::new();
    CODEC
        .decode(&Invocation::new(CORPUS.case(name).input.clone(), &env))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn out(name: &str, o: impl Into<Outcome>) -> Value {
    let w = CODEC.encode(&event(name), &o.into()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(w.exit_code, 0);
    if w.stdout.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(&w.stdout).expect("json")
}

#[test]
fn tool_gate_results() {
    assert_eq!(
        out("docs/before_tool_call", deny("no")),
        json!({"block": true, "blockReason": "no"})
    );
    assert_eq!(
        out("docs/before_tool_call", deny("  ")),
        json!({"block": true, "blockReason": agenthooks_core::decision::DEFAULT_BLOCK_REASON})
    );
    assert_eq!(
        out("docs/before_tool_call", ask_user("prod deploy")),
        json!({"requireApproval": {"title": "Allow exec?", "description": "prod deploy"}})
    );
    let mut input = Map::new();
    input.insert("command".into(), "echo safe".into());
    assert_eq!(
        out("docs/before_tool_call", rewrite_input(input.clone()).no_decision()),
        json!({"params": {"command": "echo safe"}})
    );
    assert_eq!(
        out("docs/before_tool_call", rewrite_input(input).ask_user("check")),
        json!({"requireApproval": {"title": "Allow exec?", "description": "check"}, "params": {"command": "echo safe"}})
    );
    // No allow in OpenClaw (#808): `block: false` would be no decision; the runner degrades.
    let e = CODEC
        .encode(&event("docs/before_tool_call"), &allow().into())
        .unwrap_err();
    assert_eq!(e.category(), EncodeCategory::Unsupported);
}

#[test]
fn prompt_finalize_and_context_results() {
    assert_eq!(
        out("docs/before_agent_run", block_prompt("pii")),
        json!({"outcome": "block", "reason": "pii", "message": "pii"})
    );
    assert_eq!(out("docs/before_agent_run", accept_prompt()), Value::Null);
    assert_eq!(
        out(
            "before_prompt_build-allow",
            accept_prompt().with_context("a").with_context("b")
        ),
        json!({"prependContext": "a\n\nb"})
    );
    // Context on the gate and a block on the context hook are not expressible.
    let e = CODEC.encode(
        &event("docs/before_agent_run"),
        &accept_prompt().with_context("x").into(),
    );
    assert_eq!(e.unwrap_err().category(), EncodeCategory::Unsupported);
    let e = CODEC.encode(&event("before_prompt_build-allow"), &block_prompt("x").into());
    assert_eq!(e.unwrap_err().category(), EncodeCategory::Unsupported);
    assert_eq!(
        out("before_agent_finalize-allow", continue_with("add tests")),
        json!({"action": "revise", "reason": "add tests", "retry": {"instruction": "add tests"}})
    );
    assert_eq!(out("before_agent_finalize-allow", finish()), Value::Null);
    assert_eq!(out("docs/agent_end", ContextDecision::none()), Value::Null);
}

#[test]
fn failures_use_the_gates_own_blocks() {
    let t = |n: &str| EventTarget::new(Some(NativeName::from(n)), Some(CODEC.kind_of(n)));
    let closed = |n: &str| CODEC.failure_response(&t(n), FailMode::Closed, "down");
    assert_eq!(
        closed("before_tool_call").stdout_str(),
        r#"{"block":true,"blockReason":"down"}"#
    );
    assert_eq!(
        closed("before_agent_run").stdout_str(),
        r#"{"outcome":"block","reason":"down","message":"down"}"#
    );
    assert!(closed("before_agent_finalize").stdout.is_empty());
    assert!(closed("after_tool_call").stdout.is_empty());
    let open = CODEC.failure_response(&t("before_tool_call"), FailMode::Open, "down");
    assert!(open.stdout.is_empty() && open.exit_code == 0);
}
