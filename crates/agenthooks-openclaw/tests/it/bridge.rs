//! The serve-mode bridge state (per connection), quirks and tolerant decoding.

use std::collections::HashMap;

use agenthooks_core::{Codec, ConnState, Event, EventKind, Invocation, Transport};
use agenthooks_openclaw::{native, view_as, CODEC};
use serde_json::{json, Value};

use crate::CORPUS;

fn decode_on(conn: Option<&ConnState>, frame: &[u8]) -> Event {
    let env: HashMap<String, String> = HashMap::new();
    let inv = Invocation::new(frame.to_vec(), &env)
        .with_transport(Transport::Frame)
        .with_conn(conn);
    CODEC.decode(&inv).unwrap_or_else(|e| panic!("{e}"))
}

/// Quirk #802: tool frames get the workspace and model of earlier agent-scope frames.
#[test]
fn tool_frames_are_backfilled_from_the_connection() {
    let alone = decode_on(None, &CORPUS.case("before_tool_call-allow").input);
    assert_eq!(alone.envelope().session.cwd, "");
    let conn = ConnState::default();
    decode_on(Some(&conn), &CORPUS.case("before_agent_run-allow").input);
    let pre = decode_on(Some(&conn), &CORPUS.case("before_tool_call-allow").input);
    let s = &pre.envelope().session;
    assert_eq!(
        (s.cwd.as_str(), s.model.as_str()),
        ("/tmp/e2e/proj", "fake/probe-model")
    );
    assert_eq!(s.id, "25b29926-7bad-430b-bb0b-b3ca64388ade");
    let Event::ToolPre(e) = &pre else { panic!("{pre:?}") };
    assert_eq!(e.tool.command(), Some("echo hi > marker.txt"));
    assert_eq!(e.tool.id, "call_031a88202d03");
}

/// Frames without a session id (the sync message hooks) join their session by key.
#[test]
fn session_ids_follow_the_session_key() {
    let conn = ConnState::default();
    decode_on(Some(&conn), &CORPUS.case("before_agent_run-allow").input);
    let w = decode_on(Some(&conn), &CORPUS.case("before_message_write-allow").input);
    assert_eq!(w.envelope().session.id, "25b29926-7bad-430b-bb0b-b3ca64388ade");
}

/// Quirk #805: a run's `llm_output` that came first is spliced into `agent_end`.
#[test]
fn llm_output_is_spliced_into_agent_end() {
    let conn = ConnState::default();
    decode_on(Some(&conn), &CORPUS.case("docs/llm_output").input);
    let end = decode_on(Some(&conn), &CORPUS.case("docs/agent_end").input);
    assert_eq!(end.kind(), EventKind::Other);
    let n: &native::AgentEnd = view_as(end.envelope()).expect("agent_end view");
    let out = n.run_output.as_ref().expect("spliced");
    assert_eq!(out.final_text.as_deref(), Some("Deployment needs owner approval."));
    assert_eq!(
        (out.input_tokens, out.output_tokens, out.total_tokens),
        (Some(5120), Some(96), Some(5216))
    );
    // Taken once.
    let again = decode_on(Some(&conn), &CORPUS.case("docs/agent_end").input);
    let n: &native::AgentEnd = view_as(again.envelope()).expect("agent_end view");
    assert!(n.run_output.is_none());
}

/// Quirk #804: a call the shim blocked itself decodes as tool.error, even from a release whose
/// `after_tool_call` carries no `error`.
#[test]
fn a_local_block_makes_the_after_tool_call_an_error() {
    let conn = ConnState::default();
    let report = json!({"seq": 1, "hook": "agenthooks_local_decision",
        "event": {"gate": "before_tool_call", "decision": "block", "cause": "timeout",
                  "reason": "agenthooks: no answer", "toolName": "exec", "toolCallId": "c9"}, "ctx": {"sessionId": "s"}});
    assert_eq!(
        decode_on(Some(&conn), report.to_string().as_bytes()).kind(),
        EventKind::Other
    );
    let post = json!({"seq": 2, "hook": "after_tool_call",
        "event": {"toolName": "exec", "params": {"command": "ls"}, "toolCallId": "c9", "result": {"content": []}},
        "ctx": {"sessionId": "s", "toolName": "exec"}});
    let ev = decode_on(Some(&conn), post.to_string().as_bytes());
    let Event::ToolError(e) = &ev else { panic!("{ev:?}") };
    assert_eq!(e.error, "agenthooks: no answer");
    // Only once: the next call with that id is what it says.
    assert_eq!(
        decode_on(Some(&conn), post.to_string().as_bytes()).kind(),
        EventKind::ToolPost
    );
}

/// OpenClaw's own block: `after_tool_call` with `error` is tool.error with the reason.
#[test]
fn a_blocked_call_reported_by_openclaw_is_an_error() {
    let ev = decode_on(None, &CORPUS.case("after_tool_call-deny-error").input);
    let Event::ToolError(e) = &ev else { panic!("{ev:?}") };
    assert_eq!(e.error, "agenthooks-probe: blocked by policy");
    assert_eq!(e.duration_ms, Some(38));
    assert_eq!(
        decode_on(None, &CORPUS.case("after_tool_call-allow-ok").input).kind(),
        EventKind::ToolPost
    );
}

/// `stopHookActive` is previously-continued.
#[test]
fn finalize_is_agent_stop_with_the_loop_flag() {
    let ev = decode_on(None, &CORPUS.case("docs/before_agent_finalize-continued").input);
    let Event::Stop(s) = &ev else { panic!("{ev:?}") };
    assert!(s.previously_continued);
    assert_eq!(s.last_message.as_deref(), Some("Deployment needs owner approval."));
    let ev = decode_on(None, &CORPUS.case("before_agent_finalize-allow").input);
    let Event::Stop(s) = &ev else { panic!("{ev:?}") };
    assert!(!s.previously_continued);
}

/// Frames of another shape (a future or past release) still reach handlers as their kind: no
/// `ctx`, a nested id sent as a number, `params` sent as a JSON string, an unknown hook.
#[test]
fn older_and_newer_shapes_decode() {
    let f = json!({"seq": "7", "hook": "before_tool_call",
        "event": {"toolName": "exec", "params": "{\"command\":\"ls\"}", "toolCallId": 42, "durationMs": "12"}});
    let ev = decode_on(None, f.to_string().as_bytes());
    let Event::ToolPre(e) = &ev else { panic!("{ev:?}") };
    assert_eq!((e.tool.command(), e.tool.id.as_str()), (Some("ls"), "42"));
    let f = json!({"hook": "before_agent_run", "event": {"prompt": 5, "messages": "none"}, "ctx": "gone"});
    let ev = decode_on(None, f.to_string().as_bytes());
    let Event::PromptSubmitted(p) = &ev else {
        panic!("{ev:?}")
    };
    assert_eq!(p.prompt, "5");
    assert!(
        !ev.envelope().projection_issues.is_empty(),
        "ctx of another type is reported"
    );
    let f = json!({"seq": 1, "hook": "brand_new_hook", "event": {"x": 1}});
    let ev = decode_on(None, f.to_string().as_bytes());
    assert_eq!(
        (ev.kind(), ev.envelope().native.as_str()),
        (EventKind::Other, "brand_new_hook")
    );
    // The tool name is identifying: without it the kind is kept, the view is the Other form.
    let f = json!({"hook": "before_tool_call", "event": {"params": {}}});
    let ev = decode_on(None, f.to_string().as_bytes());
    assert_eq!(ev.kind(), EventKind::ToolPre);
    assert!(matches!(
        agenthooks_openclaw::view(ev.envelope()),
        Some(native::NativeEvent::Other(_))
    ));
}

/// Every hook of the 2026.9.6 declarations has a row, and the frames sniff as OpenClaw's.
#[test]
fn every_declared_hook_has_a_row() {
    // `PluginHookName` of 2026.9.6, plus the shim's report.
    let names = agenthooks_testkit::fake::FakeAgent::events(&agenthooks_testkit::fake::OpenClaw::default());
    assert_eq!(names.len(), 43);
    for n in names {
        assert!(CODEC.row(n).is_some(), "no row for {n}");
    }
    assert_eq!(CODEC.native_events().len(), names.len());
    let env: HashMap<String, String> = HashMap::new();
    assert!(CODEC
        .sniff_payload(&CORPUS.case("docs/before_tool_call").input, &env)
        .is_some());
    assert!(CODEC
        .sniff_payload(br#"{"hook_event_name":"PreToolUse"}"#, &env)
        .is_none());
}

/// The normalized JSON of a tool frame names the tool class.
#[test]
fn tools_are_classified() {
    let ev = decode_on(None, &CORPUS.case("docs/after_tool_call").input);
    let v: Value = ev.to_json(false);
    assert_eq!(v["detail"]["tool"]["canonical"], "file-read", "{v}");
}

/// Frames the plugin writes for payloads `serde_json` refuses (lone surrogate escapes from
/// `JSON.stringify`, deep nesting) and damaged frames: each is answered under its own `seq` with
/// the handler's answer or the failure policy's for its hook (a fail-closed `before_tool_call`
/// blocks), never with `"seq": null`.
#[test]
fn unreadable_frames_are_answered_under_their_seq() {
    use agenthooks_core::decision::{deny, no_decision};
    use agenthooks_core::{Context, Policy, Router, ToolPreEvent};
    use agenthooks_runtime::{serve_frames, Runner};
    let deep = format!("{}{}", "[".repeat(3000), "]".repeat(3000));
    let frames = [
        r#"{"seq":1,"hook":"before_tool_call","event":{"toolName":"exec","params":{"command":"rm -rf /","description":"\ud800"},"toolCallId":"c1"},"ctx":{"sessionId":"s"}}"#.to_owned(),
        format!(r#"{{"seq":2,"hook":"before_tool_call","event":{{"toolName":"exec","params":{{"command":"rm -rf /","deep":{deep}}},"toolCallId":"c2"}},"ctx":{{"sessionId":"s"}}}}"#),
        r#"{"seq":3,"hook":"before_tool_call","event":{"toolName":"exec","params":{"#.to_owned(),
    ];
    let input = frames.iter().map(|f| f.clone() + "\n").collect::<String>();
    let router =
        Router::new()
            .with_policy(Policy::default().fail_closed())
            .on_tool_pre(|_: &Context, e: &ToolPreEvent| match e.tool.command() {
                Some(c) if c.starts_with("rm") => deny("no rm"),
                _ => no_decision(),
            });
    let runner = Runner::new(router, vec![&CODEC]);
    let env: Vec<(String, String)> = Vec::new();
    let out = serve_frames(&runner, &CODEC, input.as_bytes(), &env);
    assert_eq!(out.len(), 3, "{out:?}");
    for seq in 1..=3 {
        let r = out
            .iter()
            .find(|f| f["seq"] == seq)
            .unwrap_or_else(|| panic!("no reply for {seq}: {out:?}"));
        assert_eq!(r["output"]["block"], true, "seq {seq}: {r}");
    }
}
