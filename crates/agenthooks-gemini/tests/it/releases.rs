//! Payload shapes of other Gemini CLI releases (`notes/tolerant-fields.md` §3) still reach
//! their handlers as their kind, through the runner as in production.

use agenthooks_core::decision::{deny, finish, observed, ContextDecision};
use agenthooks_core::{
    Codec, Confidence, Context, EventKind, Invocation, ModelRequestEvent, Router, SessionStartEvent, StopEvent,
    ToolPostEvent, ToolPreEvent,
};
use agenthooks_gemini::native::NativeEvent;
use agenthooks_gemini::{view, CODEC};
use std::collections::HashMap;

use crate::encode::runner;

fn answer(router: Router, payload: &str) -> String {
    let env: HashMap<String, String> = HashMap::new();
    let inv = Invocation::new(payload.as_bytes().to_vec(), &env);
    let out = runner(router).invoke(&CODEC, &inv, None, Confidence::Certain);
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out.response.stdout_str().into_owned()
}

/// v0.19–v0.21: `transcript_path` hard-coded `""`; before v0.25.0 no `mcp_context`, before
/// v0.31.0 no `original_request_name`: the MCP identity comes from the name.
#[test]
fn v0_21_before_tool_without_mcp_context() {
    let payload = r#"{"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2025-12-01T10:00:00.000Z","tool_name":"mcp_github_create_issue","tool_input":{"title":"t"}}"#;
    let r = Router::new().on_tool_pre(|_: &Context, e: &ToolPreEvent| {
        let m = e.tool.mcp.as_ref().expect("mcp from the name");
        Ok::<_, agenthooks_core::HandlerError>(deny(format!(
            "{}/{} {:?}",
            m.server, m.tool, e.envelope.session.transcript_path
        )))
    });
    assert_eq!(
        answer(r, payload),
        r#"{"decision":"deny","reason":"github/create_issue \"\""}"#
    );
}

/// `tool_response.llmContent` is a string or parts, `returnDisplay` a string or a display
/// object; a release without `tool_response` at all is a plain `tool.post`.
#[test]
fn after_tool_response_shapes() {
    let base = r#""session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"AfterTool","timestamp":"t","tool_name":"replace","tool_input":{"file_path":"a"}"#;
    for rest in [
        r#","tool_response":{"llmContent":[{"text":"ok"}],"returnDisplay":{"fileDiff":"@@","fileName":"a"}}"#,
        r#","tool_response":{"llmContent":{"text":"ok"},"returnDisplay":"done"}"#,
        "",
    ] {
        let r = Router::new().on_tool_post(|_: &Context, e: &ToolPostEvent| {
            Ok::<_, agenthooks_core::HandlerError>(
                observed().with_context(format!("post {}", e.output.is_object() || e.output.is_null())),
            )
        });
        assert_eq!(
            answer(r, &format!("{{{base}{rest}}}")),
            r#"{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"post true"}}"#,
            "{rest}"
        );
    }
}

/// `llm_request.messages[].content` is a string or an array of parts.
#[test]
fn model_request_with_part_content() {
    let payload = r#"{"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"BeforeModel","timestamp":"t","llm_request":{"model":"gemini-2.5-pro","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}}"#;
    let r = Router::new().on_model_request(|_: &Context, e: &ModelRequestEvent| {
        Ok::<_, agenthooks_core::HandlerError>(
            ContextDecision::none().with_system_message(e.request["messages"][0]["content"][0]["text"].to_string()),
        )
    });
    assert_eq!(answer(r, payload), r#"{"systemMessage":"\"hi\""}"#);
}

/// v0.19's `SessionStart` source `compress` (removed in v0.21) and a session without a
/// transcript path, cwd or timestamp at all.
#[test]
fn session_start_of_v0_19_and_a_bare_one() {
    for payload in [
        r#"{"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"SessionStart","timestamp":"t","source":"compress"}"#,
        r#"{"hook_event_name":"SessionStart"}"#,
    ] {
        let r = Router::new().on_session_start(|_: &Context, e: &SessionStartEvent| {
            Ok::<_, agenthooks_core::HandlerError>(
                ContextDecision::none().with_context(e.source.clone().unwrap_or_else(|| "none".into())),
            )
        });
        let out = answer(r, payload);
        assert!(
            out.starts_with(r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":""#),
            "{out}"
        );
    }
}

/// Retyped fields: a flag sent as a string, Gemini's clock sent as a number (kept verbatim in
/// `extra` and as the provider time), a prompt response of another type (kept, reported).
#[test]
fn retyped_fields_still_reach_the_stop_handler() {
    let payload = r#"{"session_id":"s","cwd":"/w","hook_event_name":"AfterAgent","timestamp":1764590400000,"prompt":"p","prompt_response":["a","b"],"stop_hook_active":"true"}"#;
    let env: HashMap<String, String> = HashMap::new();
    let ev = CODEC
        .decode(&Invocation::new(payload.as_bytes().to_vec(), &env))
        .expect("decodes");
    assert_eq!(ev.kind(), EventKind::Stop);
    assert_eq!(ev.envelope().provider_time, Some(1_764_590_400_000_u64.into()));
    let paths: Vec<&str> = ev
        .envelope()
        .projection_issues
        .iter()
        .map(|i| i.path.as_str())
        .collect();
    assert_eq!(paths, ["timestamp", "prompt_response"]);
    let Some(NativeEvent::AfterAgent(a)) = view(ev.envelope()) else {
        panic!("typed view")
    };
    assert_eq!(a.extra["prompt_response"][1], "b");

    let r = Router::new().on_stop(|_: &Context, e: &StopEvent| {
        Ok::<_, agenthooks_core::HandlerError>(
            finish().with_system_message(format!("continued={}", e.previously_continued)),
        )
    });
    assert_eq!(answer(r, payload), r#"{"systemMessage":"continued=true"}"#);
}
