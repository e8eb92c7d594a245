//! Exact wire bytes for each decision shape, end to end through the core runner
//! (decode → router → degrade → encode) on real fixtures.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use agenthooks_core::decision::{
    accept_prompt, ask_user, block_prompt, continue_with, deny, finish, flag_output, no_decision, observed,
    replace_output, rewrite_input, ContextDecision,
};
use agenthooks_core::{
    Codec, Confidence, Context, DecisionKind, EncodeCategory, Event, Invocation, ModelResponseEvent, Next, Policy,
    PromptEvent, Router, SessionStartEvent, StopEvent, ToolErrorEvent, ToolPostEvent, ToolPreEvent,
};
use agenthooks_gemini::CODEC;
use agenthooks_runtime::{Invoked, RunOptions, Runner};
use serde_json::{json, Map, Value};

use crate::CORPUS;

/// A fresh state directory per runner (continuation counters live there).
pub(crate) fn state_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "agenthooks-gemini-it-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

pub(crate) fn runner(router: Router) -> Runner {
    Runner::new(router, vec![&CODEC]).with_options(RunOptions::default().with_state_dir(state_dir()))
}

fn invoke(router: Router, fixture: &str) -> Invoked {
    let c = CORPUS.case(fixture);
    let env = c.env_map();
    let inv = Invocation::new(c.input.clone(), &env);
    let out = runner(router).invoke(&CODEC, &inv, None, Confidence::Certain);
    assert_eq!(out.response.exit_code, 0, "{fixture}");
    assert!(out.response.stderr.is_empty(), "{fixture}");
    out
}

fn stdout(router: Router, fixture: &str) -> String {
    invoke(router, fixture).response.stdout_str().into_owned()
}

const PRE: &str = "gemini-cli-0.61.0/before_tool-deny-json";

#[test]
fn before_tool_deny_is_the_shape_that_blocked_the_real_cli() {
    let r = Router::new().on_tool_pre(|_: &Context, _: &ToolPreEvent| deny("marker writes are blocked"));
    assert_eq!(
        stdout(r, PRE),
        r#"{"decision":"deny","reason":"marker writes are blocked"}"#
    );
    // An empty reason still gives the model a reason.
    let r = Router::new().on_tool_pre(|_: &Context, _: &ToolPreEvent| deny(""));
    assert_eq!(
        stdout(r, PRE),
        r#"{"decision":"deny","reason":"Blocked by a hook policy."}"#
    );
}

#[test]
fn before_tool_ask_rewrite_stop_and_message() {
    let r = Router::new().on_tool_pre(|_: &Context, _: &ToolPreEvent| ask_user("Run a shell command?"));
    assert_eq!(stdout(r, PRE), r#"{"decision":"ask","reason":"Run a shell command?"}"#);

    // Rewrites without a permission opinion are injected through an interceptor: the core
    // router's neutral merge currently drops `updated_input` of a no-decision rewrite (reported).
    let r = Router::new().layer(|_: &Context, e: &mut Event, _: Next<'_>| {
        let mut m = e.tool().map(|t| t.input().clone()).unwrap_or_default();
        m.insert("command".into(), json!("echo safe > marker.txt"));
        Ok(rewrite_input(m).no_decision().into())
    });
    assert_eq!(
        stdout(r, PRE),
        r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"echo safe > marker.txt","description":"write marker file"}}}"#
    );

    let r = Router::new().on_tool_pre(|_: &Context, _: &ToolPreEvent| {
        deny("no")
            .stop_agent("policy violation")
            .with_system_message("stopped by guard")
    });
    assert_eq!(
        stdout(r, PRE),
        r#"{"continue":false,"stopReason":"policy violation","systemMessage":"stopped by guard","decision":"deny","reason":"no"}"#
    );

    let r = Router::new().on_tool_pre(|_: &Context, _: &ToolPreEvent| {
        deny("rm is blocked by P-7").with_block_reason("Blocked: see policy P-7")
    });
    assert_eq!(
        stdout(r, PRE),
        r#"{"systemMessage":"Blocked: see policy P-7","decision":"deny","reason":"rm is blocked by P-7"}"#
    );
}

#[test]
fn lossy_rewrite_is_answered_by_the_failure_policy() {
    let rewrite = |_: &Context, _: &mut Event, _: Next<'_>| {
        let mut m = Map::new();
        m.insert("command".into(), json!("ls"));
        Ok(rewrite_input(m).no_decision().into()) // drops `description`
    };
    let out = invoke(Router::new().layer(rewrite), PRE);
    assert_eq!(out.response.stdout, b"{}");
    let Some(agenthooks_runtime::Failure::Encode(e)) = &out.failure else {
        panic!("expected an encode failure, got {:?}", out.failure)
    };
    assert_eq!(e.category(), EncodeCategory::LossyUpdate);

    let closed = Router::new()
        .with_policy(Policy::default().fail_closed())
        .layer(rewrite);
    let s = stdout(closed, PRE);
    let v: Value = serde_json::from_str(&s).expect("JSON");
    assert_eq!(v["decision"], "deny");
    assert!(v["reason"].as_str().is_some_and(|r| r.contains("description")), "{s}");
}

#[test]
fn degradations_on_before_tool() {
    // Context has no channel on BeforeTool: dropped, logged.
    let out = invoke(
        Router::new().on_tool_pre(|_: &Context, _: &ToolPreEvent| deny("d").with_context("why")),
        PRE,
    );
    assert_eq!(out.response.stdout_str(), r#"{"decision":"deny","reason":"d"}"#);
    assert_eq!(out.degradations.len(), 1);

    // Gemini has no allow that skips confirmation: allow degrades to no decision, and the rewrite
    // riding on it is still delivered (Gemini applies `tool_input` without a verdict).
    let out = invoke(
        Router::new().on_tool_pre(|_: &Context, e: &ToolPreEvent| rewrite_input(e.tool.input().clone()).allow()),
        PRE,
    );
    assert_eq!(
        out.response.stdout_str(),
        r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"echo hi > marker.txt","description":"write marker file"}}}"#
    );
    assert_eq!(
        out.sent.as_ref().map(agenthooks_core::Outcome::kind),
        Some(DecisionKind::NoDecision)
    );
    assert!(!out.degradations.is_empty());

    let out = invoke(
        Router::new().on_tool_pre(|_: &Context, _: &ToolPreEvent| no_decision()),
        PRE,
    );
    assert_eq!(out.response.stdout_str(), "{}");
}

#[test]
fn prompt_and_session_context() {
    let f = "gemini-cli-0.61.0/before_agent-allow";
    let r = Router::new()
        .on_prompt_submitted(|_: &Context, _: &PromptEvent| accept_prompt().with_context("today is Monday"));
    assert_eq!(
        stdout(r, f),
        r#"{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"today is Monday"}}"#
    );
    let r = Router::new().on_prompt_submitted(|_: &Context, _: &PromptEvent| block_prompt("contains a secret"));
    assert_eq!(stdout(r, f), r#"{"decision":"deny","reason":"contains a secret"}"#);
    let r =
        Router::new().on_prompt_submitted(|_: &Context, _: &PromptEvent| accept_prompt().stop_agent("quota exceeded"));
    assert_eq!(stdout(r, f), r#"{"continue":false,"stopReason":"quota exceeded"}"#);

    // ⚠ #13: sent verbatim; Gemini escapes the markup on its side.
    let r = Router::new().on_session_start(|_: &Context, _: &SessionStartEvent| {
        ContextDecision::none().with_context("<rules>").with_context("be brief")
    });
    assert_eq!(
        stdout(r, "gemini-cli-0.61.0/session_start-allow"),
        r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"<rules>\nbe brief"}}"#
    );
}

#[test]
fn after_agent_continue_is_a_retry() {
    let r = Router::new().on_stop(|_: &Context, _: &StopEvent| continue_with("Run the tests before finishing."));
    assert_eq!(
        stdout(r, "gemini-cli-0.61.0/after_agent-allow"),
        r#"{"decision":"deny","reason":"Run the tests before finishing."}"#
    );
    let r = Router::new().on_stop(|_: &Context, e: &StopEvent| {
        if e.previously_continued {
            finish()
        } else {
            continue_with("again")
        }
    });
    assert_eq!(stdout(r, "docs/after_agent-stop_hook_active"), "{}");
    let r = Router::new().on_stop(|_: &Context, _: &StopEvent| finish().stop_agent("done for today"));
    assert_eq!(
        stdout(r, "docs/after_agent"),
        r#"{"continue":false,"stopReason":"done for today"}"#
    );
}

#[test]
fn after_tool_replace_flag_context() {
    let f = "gemini-cli-0.61.0/after_tool-allow";
    let r = Router::new().on_tool_post(|_: &Context, _: &ToolPostEvent| replace_output("[redacted]"));
    assert_eq!(stdout(r, f), r#"{"decision":"deny","reason":"[redacted]"}"#);
    // A flag keeps the output: degraded to context (a deny would hide the output, #301).
    let out = invoke(
        Router::new().on_tool_post(|_: &Context, _: &ToolPostEvent| flag_output("output looks like a token")),
        f,
    );
    assert_eq!(
        out.response.stdout_str(),
        r#"{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"output looks like a token"}}"#
    );
    assert_eq!(out.degradations.len(), 1);
    let r = Router::new().on_tool_post(|_: &Context, _: &ToolPostEvent| observed().with_context("file changed"));
    assert_eq!(
        stdout(r, f),
        r#"{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"file changed"}}"#
    );
    // A failed tool is tool.error: context still reaches the model on AfterTool.
    let r = Router::new().on_tool_error(|_: &Context, e: &ToolErrorEvent| {
        ContextDecision::none().with_context(format!("hint: {} failed", e.tool.name))
    });
    assert_eq!(
        stdout(r, "docs/after_tool-error"),
        r#"{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"hint: run_shell_command failed"}}"#
    );
}

#[test]
fn model_events_stop_and_message_only() {
    let r = Router::new().on_model_response(|_: &Context, _: &ModelResponseEvent| {
        ContextDecision::none()
            .stop_agent("budget")
            .with_system_message("stopping")
            .with_context("lost")
    });
    let out = invoke(r, "gemini-cli-0.61.0/after_model-allow");
    assert_eq!(
        out.response.stdout_str(),
        r#"{"continue":false,"stopReason":"budget","systemMessage":"stopping"}"#
    );
    assert_eq!(out.degradations.len(), 1, "context dropped");
    assert!(CODEC
        .capabilities(&agenthooks_core::Variant::default(), "BeforeToolSelection")
        .contains(agenthooks_core::Capability::SystemMessage));
}
