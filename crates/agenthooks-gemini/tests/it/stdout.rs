//! Quirk #11: Gemini parses stderr as the decision when stdout is empty, and non-JSON text with
//! an exit code other than 0/1 blocks. This proves that **no code path leaves stdout empty**:
//! every response of the codec, alone or through the core runner — every fixture × every decision
//! shape (including ones the event cannot express, lossy rewrites and wrong families) × every
//! policy, handler errors, panics, deadlines, undecodable payloads, and the failure and no-op
//! responses for every target — is exit 0, an empty stderr, and a JSON object on stdout.

use std::collections::HashMap;
use std::time::Duration;

use agenthooks_core::decision::{
    accept_prompt, allow, ask_user, block_prompt, continue_with, deny, finish, flag_output, no_decision, observed,
    replace_output, rewrite_input, ContextDecision, ToolPreDecision,
};
use agenthooks_core::{
    Codec, Confidence, Context, Event, EventKind, EventTarget, FailMode, HandlerError, Invocation, Next, Outcome,
    Policy, Router, ToolPreEvent, UnsupportedMode, WireResponse,
};
use agenthooks_gemini::native::EVENTS;
use agenthooks_gemini::CODEC;
use serde_json::{json, Map, Value};

use crate::encode::runner;
use crate::CORPUS;

#[track_caller]
fn assert_explicit_json(r: &WireResponse, what: &str) {
    assert_eq!(r.exit_code, 0, "{what}: exit code");
    assert!(r.stderr.is_empty(), "{what}: stderr {:?}", r.stderr_str());
    assert!(!r.stdout.is_empty(), "{what}: EMPTY STDOUT");
    let v: Value = serde_json::from_slice(&r.stdout).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"));
    let obj = v.as_object().unwrap_or_else(|| panic!("{what}: not an object"));
    if let Some(d) = obj.get("decision") {
        assert!(d == "deny" || d == "ask", "{what}: decision {d}");
        assert!(
            obj.get("reason").is_some_and(Value::is_string) || d == "ask",
            "{what}: no reason"
        );
    }
}

fn shapes() -> Vec<Outcome> {
    let mut m = Map::new();
    m.insert("command".into(), json!("ls"));
    vec![
        no_decision().into(),
        allow().into(),
        deny("d").into(),
        deny("").into(),
        ask_user("a").into(),
        ask_user("").into(),
        rewrite_input(m.clone()).no_decision().into(),
        rewrite_input(m.clone()).allow().into(),
        rewrite_input(m).ask_user("q").into(),
        deny("d")
            .with_context("c")
            .with_system_message("s")
            .stop_agent("x")
            .with_block_reason("b")
            .into(),
        accept_prompt().into(),
        accept_prompt().with_context("<c>").into(),
        block_prompt("b").with_block_reason("u").into(),
        finish().into(),
        continue_with("i").into(),
        finish().stop_agent("s").with_system_message("m").into(),
        observed().into(),
        flag_output("f").into(),
        replace_output(json!({"x": [1, "<y>"]})).into(),
        replace_output(Value::Null).into(),
        observed().with_context("c").stop_agent("s").into(),
        ContextDecision::none().into(),
        ContextDecision::none()
            .with_context("c")
            .with_system_message("m")
            .stop_agent("s")
            .into(),
    ]
}

fn policies() -> Vec<Policy> {
    let strict = Policy::default().with_unsupported(UnsupportedMode::Strict);
    vec![
        Policy::default(),
        Policy::default().fail_closed(),
        strict,
        strict.fail_closed(),
    ]
}

fn injecting(o: Outcome, p: Policy) -> Router {
    Router::new()
        .with_policy(p)
        .layer(move |_: &Context, _: &mut Event, _: Next<'_>| Ok(o.clone()))
}

#[test]
fn every_fixture_every_shape_every_policy() {
    let shapes = shapes();
    let mut n = 0;
    for c in CORPUS.cases() {
        let env = c.env_map();
        for p in policies() {
            for (i, o) in shapes.iter().enumerate() {
                let inv = Invocation::new(c.input.clone(), &env);
                let out = runner(injecting(o.clone(), p)).invoke(&CODEC, &inv, None, Confidence::Certain);
                assert_explicit_json(&out.response, &format!("{} shape #{i} {p:?}", c.id()));
                n += 1;
            }
        }
    }
    assert!(n > 5000, "{n} invocations");
}

#[test]
fn direct_encode_is_json_or_a_typed_error() {
    // Without the runner's degrade: whatever the outcome, encode answers JSON or an error (which
    // the runner turns into the failure response, checked above) — never empty bytes.
    for c in CORPUS.cases() {
        let ev = CORPUS.decode(c);
        for (i, o) in shapes().iter().enumerate() {
            if let Ok(r) = CODEC.encode(&ev, o) {
                assert_explicit_json(&r, &format!("{} shape #{i}", c.id()));
            }
        }
    }
}

#[test]
fn handler_errors_panics_and_deadlines() {
    let fixtures = [
        "gemini-cli-0.61.0/before_tool-allow",
        "gemini-cli-0.61.0/before_agent-allow",
        "gemini-cli-0.61.0/after_agent-allow",
        "gemini-cli-0.61.0/after_tool-allow",
        "gemini-cli-0.61.0/after_model-allow",
        "gemini-cli-0.61.0/session_end-allow",
    ];
    for f in fixtures {
        let c = CORPUS.case(f);
        let env = c.env_map();
        for p in [Policy::default(), Policy::default().fail_closed()] {
            let routers: Vec<(&str, Router, Option<Duration>)> = vec![
                (
                    "error",
                    Router::new()
                        .with_policy(p)
                        .layer(|_: &Context, _: &mut Event, _: Next<'_>| Err(HandlerError::msg("boom"))),
                    None,
                ),
                (
                    "panic",
                    Router::new().with_policy(p).layer(
                        |_: &Context, _: &mut Event, _: Next<'_>| -> Result<Outcome, HandlerError> {
                            panic!("handler bug")
                        },
                    ),
                    None,
                ),
                (
                    "deadline",
                    Router::new()
                        .with_policy(p)
                        .layer(|_: &Context, _: &mut Event, _: Next<'_>| {
                            std::thread::sleep(Duration::from_millis(400));
                            Ok(Outcome::neutral_for(EventKind::Other))
                        }),
                    Some(Duration::from_millis(200)),
                ),
                (
                    "typed panic",
                    Router::new().with_policy(p).on_tool_pre(
                        |_: &Context, _: &ToolPreEvent| -> Result<ToolPreDecision, HandlerError> { panic!("x") },
                    ),
                    None,
                ),
            ];
            for (what, r, timeout) in routers {
                let inv = Invocation::new(c.input.clone(), &env);
                let out = runner(r).invoke(&CODEC, &inv, timeout, Confidence::Certain);
                let label = format!("{f} {what} {:?}", p.fail);
                assert_explicit_json(&out.response, &label);
                if what != "typed panic" || f.contains("before_tool") {
                    assert!(out.failure.is_some(), "{label}: expected a failure");
                }
                let blocked = out.response.stdout_str().contains("\"deny\"");
                let can_block = f.contains("before_tool") || f.contains("before_agent");
                assert_eq!(
                    blocked,
                    p.fail == FailMode::Closed && can_block && out.failure.is_some(),
                    "{label}"
                );
            }
        }
    }
}

#[test]
fn undecodable_and_tolerated_payloads() {
    // Never decodable, whatever the hint: not a JSON object, not UTF-8, trailing data.
    let undecodable: Vec<&[u8]> = vec![
        b"",
        b"   \n",
        b"\xef\xbb\xbf",
        b"not json",
        b"{",
        b"[]",
        b"null",
        b"\"BeforeTool\"",
        b"{\"a\":\"\xff\xfe\"}",
        br#"{"session_id":"s","transcript_path":"","cwd":"/p","timestamp":"t","hook_event_name":"BeforeAgent","prompt":"p"} trailing"#,
    ];
    // Decodable only when the hint names the event (the payload carries no usable name).
    let nameless: Vec<&[u8]> = vec![br#"{"hook_event_name":7}"#, br#"{"session_id":"s"}"#];
    // Tolerated: a missing identifying field (placeholder) or a field of an unexpected shape
    // (kept in extra) still reaches handlers as the event's kind.
    let tolerated: Vec<&[u8]> = vec![
        br#"{"session_id":"s","transcript_path":"","cwd":"/p","timestamp":"t","hook_event_name":"BeforeTool"}"#,
        br#"{"session_id":"s","transcript_path":"","cwd":"/p","timestamp":"t","hook_event_name":"AfterTool","tool_name":"x","tool_input":{},"tool_response":"oops"}"#,
    ];
    let env: HashMap<String, String> = HashMap::new();
    let all = undecodable.iter().chain(&nameless).chain(&tolerated);
    for (i, bytes) in all.enumerate() {
        for hint in [None, Some("BeforeTool"), Some("AfterAgent"), Some("NoSuchEvent")] {
            let decodes = tolerated.contains(bytes) || (nameless.contains(bytes) && hint.is_some());
            for p in [Policy::default(), Policy::default().fail_closed()] {
                let inv = Invocation::new(bytes.to_vec(), &env).with_native_event(hint);
                assert_eq!(CODEC.decode(&inv).is_ok(), decodes, "payload #{i} hint {hint:?}");
                let out = runner(Router::new().with_policy(p)).invoke(&CODEC, &inv, None, Confidence::Certain);
                let label = format!("payload #{i} hint {hint:?} {:?}", p.fail);
                assert_explicit_json(&out.response, &label);
                assert_eq!(out.failure.is_some(), !decodes, "{label}");
                // Only an undecodable payload meant for BeforeTool is denied under fail-closed.
                let denied = out.response.stdout_str().contains("\"deny\"");
                assert_eq!(
                    denied,
                    p.fail == FailMode::Closed && hint == Some("BeforeTool") && !decodes,
                    "{label}"
                );
            }
        }
    }
}

#[test]
fn no_op_and_failure_responses_for_every_target() {
    let mut targets: Vec<EventTarget> = EVENTS
        .iter()
        .map(|s| EventTarget::new(Some(s.name.into()), Some(s.kind)))
        .collect();
    targets.push(EventTarget::new(Some("SomethingNew".into()), None));
    targets.push(EventTarget::new(None, None));
    for k in EventKind::ALL {
        targets.push(EventTarget::new(None, Some(k)));
    }
    for t in &targets {
        let r = CODEC.no_op(t);
        assert_eq!(r.stdout, b"{}");
        assert_explicit_json(&r, &format!("no_op {t:?}"));
        for mode in [FailMode::Open, FailMode::Closed] {
            for reason in ["", " ", "boom", "multi\nline \"quoted\" <x>"] {
                let r = CODEC.failure_response(t, mode, reason);
                assert_explicit_json(&r, &format!("failure {t:?} {mode:?} {reason:?}"));
            }
        }
    }
}
