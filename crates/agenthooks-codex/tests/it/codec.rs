//! The codec: decode every fixture, encode every decision shape for every event, failure and
//! no-op answers, detection.

use std::collections::HashMap;

use agenthooks_codex::native::{self, NativeEvent};
use agenthooks_codex::{output, view, view_as, CODEC};
use agenthooks_core::decision::{
    accept_prompt, allow, ask_user, block_prompt, continue_with, deny, finish, flag_output, no_decision, observed,
    replace_output, rewrite_input, ContextDecision, DEFAULT_BLOCK_REASON,
};
use agenthooks_core::{
    degrade, AskFallback, CanonicalTool, Capability, Codec, Confidence, DecisionKind, EncodeCategory, Event, EventKind,
    EventTarget, FailMode, Invocation, Outcome, Policy, Transport, Variant, WireResponse,
};
use serde_json::{json, Map, Value};

use agenthooks_testkit::Fixture;

use crate::support::{output_schema, CORPUS};

fn env() -> HashMap<String, String> {
    HashMap::new()
}

fn decode_json(value: &Value) -> Event {
    let env = env();
    CODEC
        .decode(&Invocation::new(serde_json::to_vec(value).unwrap(), &env))
        .unwrap()
}

/// Checks a response is something Codex acts on: empty, or schema-valid JSON its parser accepts.
pub(crate) fn assert_codex_accepts(native: &str, r: &WireResponse, what: &str) {
    assert_eq!(r.exit_code, 0, "{what}: exit code");
    assert!(r.stderr.is_empty(), "{what}: stderr {:?}", r.stderr_str());
    if r.stdout.is_empty() {
        return;
    }
    assert!(!r.stdout.ends_with(b"\n"), "{what}: trailing newline");
    let value: Value = serde_json::from_slice(&r.stdout).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"));
    let schema = output_schema(native).unwrap_or_else(|| panic!("{what}: {native} reads no output, got {value}"));
    if let Err(errors) = schema.validate(&value) {
        panic!("{what}: {value} violates the {native} output schema: {errors:#?}");
    }
    // Why Codex would reject `value` read as its typed output `$ty`.
    macro_rules! invalid_as {
        ($ty:ty) => {
            serde_json::from_value::<$ty>(value.clone())
                .unwrap()
                .invalid_reason()
        };
    }
    let invalid = match native {
        "PreToolUse" => invalid_as!(output::PreToolUseOutput),
        "PermissionRequest" => invalid_as!(output::PermissionRequestOutput),
        "PostToolUse" => invalid_as!(output::PostToolUseOutput),
        "UserPromptSubmit" => invalid_as!(output::UserPromptSubmitOutput),
        "Stop" => invalid_as!(output::StopOutput),
        "SubagentStop" => invalid_as!(output::SubagentStopOutput),
        _ => None,
    };
    assert_eq!(invalid, None, "{what}: Codex would reject {value}");
}

fn input(command: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("command".into(), json!(command));
    m
}

/// `base` with a context, a system message and a stop: the "full" shape of a family.
macro_rules! decorated {
    ($base:expr) => {
        $base.with_context("c").with_system_message("m").stop_agent("s")
    };
}

/// Every decision shape of the family that serves `kind`.
fn shapes(kind: EventKind) -> Vec<(&'static str, Outcome)> {
    match Outcome::neutral_for(kind) {
        Outcome::ToolPre(_) => vec![
            ("no_decision", no_decision().into()),
            ("allow", allow().into()),
            ("deny", deny("rm -rf is blocked").into()),
            ("deny_empty_reason", deny("").into()),
            ("ask", ask_user("confirm this").into()),
            ("rewrite_allow", rewrite_input(input("ls -la")).allow().into()),
            (
                "rewrite_no_decision",
                rewrite_input(input("ls -la")).no_decision().into(),
            ),
            ("rewrite_ask", rewrite_input(input("ls -la")).ask_user("check").into()),
            (
                "context",
                no_decision().with_context("policy P-7").with_context("second").into(),
            ),
            (
                "deny_full",
                deny("rm")
                    .with_context("c")
                    .with_system_message("s")
                    .with_block_reason("Blocked by policy")
                    .stop_agent("halt")
                    .into(),
            ),
            (
                "deny_block_reason",
                deny("rm").with_block_reason("Blocked by policy").into(),
            ),
            ("allow_stop", allow().stop_agent("halt").with_system_message("m").into()),
        ],
        Outcome::Prompt(_) => vec![
            ("accept", accept_prompt().into()),
            ("block", block_prompt("contains a secret").into()),
            ("block_empty", block_prompt("").into()),
            ("context", accept_prompt().with_context("today is Monday").into()),
            (
                "block_full",
                block_prompt("secret")
                    .with_block_reason("Prompt blocked")
                    .with_context("c")
                    .with_system_message("m")
                    .stop_agent("halt")
                    .into(),
            ),
        ],
        Outcome::Stop(_) => vec![
            ("finish", finish().into()),
            ("continue", continue_with("run the tests first").into()),
            ("continue_empty", continue_with("").into()),
            ("stop_agent", finish().stop_agent("halt").into()),
            ("continue_full", decorated!(continue_with("go on")).into()),
        ],
        Outcome::ToolPost(_) => vec![
            ("observed", observed().into()),
            ("flag", flag_output("secret in output").into()),
            ("flag_empty", flag_output("").into()),
            ("replace", replace_output(json!("[redacted]")).into()),
            (
                "replace_object",
                replace_output(json!({"content": [{"type": "text", "text": "x"}]})).into(),
            ),
            ("observed_full", decorated!(observed()).into()),
        ],
        _ => vec![
            ("none", ContextDecision::none().into()),
            ("context", ContextDecision::none().with_context("ctx").into()),
            (
                "system_message",
                ContextDecision::none().with_system_message("m").into(),
            ),
            ("stop_agent", ContextDecision::none().stop_agent("halt").into()),
            ("full", decorated!(ContextDecision::none()).into()),
        ],
    }
}

/// One decoded event per distinct (native event, kind) in the corpus, plus MCP and non-MCP
/// variants of the tool events.
fn event_matrix() -> Vec<(String, Event)> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for fx in CORPUS.cases() {
        let event = fx.decode(&CODEC).unwrap_or_else(|e| panic!("{}: {e}", fx.id()));
        let key = (
            event.envelope().native.to_string(),
            event.kind(),
            event.tool().map(|t| t.canonical),
        );
        if !seen.contains(&key) {
            seen.push(key);
            out.push((Fixture::short_id(fx), event));
        }
    }
    out
}

#[test]
fn every_native_view_is_the_lossless_typed_payload() {
    // (raw bytes, native name, kind and the no-op are conformance checks 1–4)
    for fx in CORPUS.cases() {
        let event = fx.decode(&CODEC).unwrap();
        let env = event.envelope();
        let native = view(env).unwrap_or_else(|| panic!("{}: no native view", fx.id()));
        assert!(!matches!(native, NativeEvent::Other(_)), "{}", fx.id());
        assert!(
            env.projection_issues.is_empty(),
            "{}: {:?}",
            fx.id(),
            env.projection_issues
        );
        assert_eq!(
            serde_json::to_value(native).unwrap(),
            Fixture::input_json(fx),
            "{}",
            fx.id()
        );
        // (the oldest notify shape has no thread-id)
        assert_eq!(
            env.session.id.is_empty(),
            fx.case.ends_with("-legacy"),
            "{}: session id",
            fx.id()
        );
    }
}

#[test]
fn captured_pre_tool_use_projects_session_and_tool() {
    let event = CORPUS.event("0.171.0/pre_tool_use-deny-json");
    let Event::ToolPre(pre) = &event else {
        panic!("{event:?}")
    };
    let s = &pre.envelope.session;
    assert_eq!(s.id, "01a22c52-57a0-7542-81cb-5a44176ff3fe");
    assert_eq!(s.turn_id, "01a22c52-57b1-7e22-99a5-5e4cd3cebe15");
    assert_eq!(s.cwd, "/tmp/e2e/proj");
    assert_eq!(s.workspace_roots, ["/tmp/e2e/proj"]);
    assert_eq!(s.model, "fake-model");
    assert_eq!(s.permission_mode, "bypassPermissions");
    assert!(s
        .transcript_path
        .ends_with("01a22c52-57a0-7542-81cb-5a44176ff3fe.jsonl"));
    assert_eq!(pre.envelope.agent, None);
    assert_eq!(pre.tool.name, "Bash");
    assert_eq!(pre.tool.canonical, CanonicalTool::Shell);
    assert_eq!(pre.tool.command(), Some("echo hi > marker.txt"));
    assert_eq!((pre.tool.id.as_str(), pre.tool.synthesized), ("call_0003", false));
    assert!(view_as::<native::PreToolUse>(&pre.envelope).is_some());
    assert!(view_as::<native::Stop>(&pre.envelope).is_none());
}

#[test]
fn tool_classes_mcp_and_subagents() {
    let Event::ToolPre(patch) = CORPUS.event("docs/pre_tool_use") else {
        panic!()
    };
    assert_eq!(patch.tool.canonical, CanonicalTool::FileEdit);
    assert!(patch.tool.command().unwrap().starts_with("*** Begin Patch"));

    let Event::ToolPre(mcp) = CORPUS.event("docs/pre_tool_use-mcp") else {
        panic!()
    };
    assert_eq!(mcp.tool.canonical, CanonicalTool::Mcp);
    let call = mcp.tool.mcp.as_ref().unwrap();
    assert_eq!((call.server.as_str(), call.tool.as_str()), ("github", "create_issue"));
    let agent = mcp.envelope.agent.as_ref().unwrap();
    assert_eq!(agent.agent_type, "worker");
    assert_eq!(agent.id, "019b0a12-0000-7111-8222-933344445555");

    let Event::ToolPost(post) = CORPUS.event("docs/post_tool_use-example") else {
        panic!()
    };
    assert_eq!(post.output["content"][0]["text"], "3 results");
    assert_eq!(post.envelope.agent.as_ref().unwrap().agent_type, "explorer");
    assert_eq!(post.tool.id, "call_9XyA1b2C");

    let Event::ToolPost(shell) = CORPUS.event("0.171.0/post_tool_use-allow") else {
        panic!()
    };
    assert_eq!(shell.output, json!(""));
}

#[test]
fn failures_folded_into_post_tool_use_become_tool_error() {
    let Event::ToolError(err) = CORPUS.event("docs/post_tool_use-mcp-error") else {
        panic!()
    };
    assert_eq!(err.error, "403 Forbidden: token lacks issues:write");
    assert!(!err.interrupted);
    assert_eq!(err.tool.canonical, CanonicalTool::Mcp);
    assert_eq!(err.tool.id, "call_Mc9Qe2");
    assert_eq!(err.envelope.native, "PostToolUse");
    // the native payload is still reachable in full
    let native = view_as::<native::PostToolUse>(&err.envelope).unwrap();
    assert_eq!(native.tool_response.as_ref().unwrap()["isError"], json!(true));
    // a tool.error answer is a context decision on PostToolUse
    let r = CODEC
        .encode(
            &Event::ToolError(err),
            &ContextDecision::none().with_context("retry with a token").into(),
        )
        .unwrap();
    assert_eq!(
        r.stdout_str(),
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"retry with a token"}}"#
    );
}

#[test]
fn permission_request_gets_a_synthesized_id() {
    let Event::Permission(p) = CORPUS.event("docs/permission_request-example") else {
        panic!()
    };
    assert!(p.tool.synthesized && p.tool.id.starts_with("hook_synth_"));
    assert_eq!(p.tool.command(), Some("network-access downloads.example.com"));
    assert_eq!(p.tool.input()["description"], "fetch dependencies");
    let again = CORPUS.event("docs/permission_request-example");
    assert_eq!(again.tool().unwrap().id, p.tool.id, "synthesized ids are deterministic");
}

#[test]
fn stop_events_project_loop_guard_and_message() {
    let Event::Stop(stop) = CORPUS.event("0.171.0/stop-allow") else {
        panic!()
    };
    assert!(!stop.previously_continued);
    assert_eq!(stop.last_message.as_deref(), Some("All done: marker written."));
    let Event::Stop(null_msg) = CORPUS.event("docs/stop") else {
        panic!()
    };
    assert_eq!(null_msg.last_message, None);
    let Event::SubagentStop(sub) = CORPUS.event("docs/subagent_stop") else {
        panic!()
    };
    assert!(sub.previously_continued);
    assert_eq!(sub.envelope.agent.as_ref().unwrap().agent_type, "explorer");
    let Event::SubagentStart(start) = CORPUS.event("docs/subagent_start") else {
        panic!()
    };
    assert_eq!(start.envelope.agent.as_ref().unwrap().agent_type, "explorer");
}

#[test]
fn lifecycle_events_project_their_fields() {
    let Event::SessionStart(start) = CORPUS.event("docs/session_start") else {
        panic!()
    };
    assert_eq!(start.source.as_deref(), Some("resume"));
    assert_eq!(start.envelope.session.transcript_path, "", "null transcript_path");
    let Event::SessionEnd(end) = CORPUS.event("0.171.0/session_end-allow") else {
        panic!()
    };
    assert_eq!(end.reason.as_deref(), Some("other"));
    assert_eq!(end.envelope.session.turn_id, "");
    let Event::PromptSubmitted(prompt) = CORPUS.event("0.171.0/user_prompt_submit-allow") else {
        panic!()
    };
    assert_eq!(prompt.prompt, "Create marker.txt containing hi using the shell.");
    let Event::CompactPre(pre) = CORPUS.event("docs/pre_compact") else {
        panic!()
    };
    assert_eq!(pre.trigger.as_deref(), Some("manual"));
    assert_eq!(
        pre.envelope.session.permission_mode, "",
        "PreCompact has no permission_mode"
    );
    let Event::CompactPost(post) = CORPUS.event("docs/post_compact") else {
        panic!()
    };
    assert_eq!(post.trigger.as_deref(), Some("auto"));
    assert!(post.envelope.agent.is_some());
    for (id, name) in [("docs/interrupt", "Interrupt"), ("docs/stop_failure", "StopFailure")] {
        let Event::Other(other) = CORPUS.event(id) else {
            panic!("{id}")
        };
        assert_eq!(other.envelope.native, name);
        assert_eq!(other.envelope.session.turn_id, "019b0a11-6f00-7a21-8b32-4c5d6e7f8091");
    }
    let Event::Other(failure) = CORPUS.event("docs/stop_failure") else {
        panic!()
    };
    let native = view_as::<native::StopFailure>(&failure.envelope).unwrap();
    assert_eq!(native.error, Some(native::ApiErrorKind::RateLimit));
}

#[test]
fn legacy_notify_decodes_as_a_notification() {
    let Event::Notification(n) = CORPUS.event("docs/agent_turn_complete") else {
        panic!()
    };
    assert_eq!(n.message, "Retries added; all 12 tests pass.");
    assert_eq!(n.notification_type.as_deref(), Some("agent-turn-complete"));
    assert_eq!(n.envelope.session.id, "019b0a11-5e55-7c10-9d2e-3f4a5b6c7d8e");
    assert_eq!(n.envelope.session.cwd, "/home/dev/shop");
    assert_eq!(
        view_as::<native::LegacyNotify>(&n.envelope).unwrap().client.as_deref(),
        Some("codex-tui")
    );
    let Event::Notification(old) = CORPUS.event("docs/agent_turn_complete-legacy") else {
        panic!()
    };
    assert_eq!(old.message, "");
    assert_eq!(old.envelope.session.turn_id, "12345");
    // a notify payload on stdin (no hook_event_name, a `type`) is recognised too
    let env = env();
    let bytes = br#"{"type":"agent-turn-complete","turn-id":"1","input-messages":[]}"#;
    let e = CODEC.decode(&Invocation::new(bytes.to_vec(), &env)).unwrap();
    assert_eq!(e.kind(), EventKind::Notification);
    // nothing is answered
    assert!(CODEC
        .encode(&e, &ContextDecision::none().into())
        .unwrap()
        .stdout
        .is_empty());
    assert!(CODEC
        .encode(&e, &ContextDecision::none().with_context("x").into())
        .is_err());
}

#[test]
fn unknown_events_decode_as_other_with_every_key() {
    let value = json!({"session_id": "s", "turn_id": "t", "cwd": "/p", "hook_event_name": "TaskCreated",
                       "agent_id": "a", "agent_type": "worker", "task": {"id": 3}});
    let event = decode_json(&value);
    let Event::Other(o) = &event else { panic!() };
    assert_eq!(o.envelope.native, "TaskCreated");
    assert_eq!(o.envelope.session.id, "s");
    assert_eq!(o.envelope.agent.as_ref().unwrap().agent_type, "worker");
    assert!(matches!(view(&o.envelope), Some(NativeEvent::Other(u)) if u.extra["task"]["id"] == 3));
    assert!(CODEC.capabilities(&Variant::default(), "TaskCreated").is_empty());
}

#[test]
fn undecodable_payloads_are_typed_errors() {
    let env = env();
    // (a payload without an event name is `unknown-event` at `hook_event_name`)
    let cases: [(&[u8], &str, Option<&str>); 4] = [
        (b"", "empty", None),
        (b"{not json", "syntax", None),
        (b"[1,2]", "data", None),
        (br#"{"session_id":"s"}"#, "unknown-event", Some("hook_event_name")),
    ];
    for (bytes, category, path) in cases {
        let err = CODEC.decode(&Invocation::new(bytes.to_vec(), &env)).unwrap_err();
        assert_eq!(err.category().as_str(), category, "{err}");
        if path.is_some() {
            assert_eq!(err.path(), path, "{err}");
        }
        assert_eq!(err.provider(), &agenthooks_core::Provider::CODEX);
    }
    // argv transport with a non-object
    let err = CODEC
        .decode(&Invocation::new(b"\"x\"".to_vec(), &env).with_transport(Transport::Argv))
        .unwrap_err();
    assert_eq!(err.category().as_str(), "data");
}

#[test]
fn what_decoded_strictly_before_now_decodes_tolerantly() {
    // a missing `tool_use_id` (synthesized) and a retyped `turn_id` (kept in extra)
    let missing = json!({"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{}});
    let Event::ToolPre(pre) = decode_json(&missing) else {
        panic!()
    };
    assert!(pre.tool.synthesized);
    let retyped = json!({"session_id":"s","turn_id":5,"transcript_path":null,"cwd":"/p","hook_event_name":"Stop","model":"m","permission_mode":"default","stop_hook_active":false,"last_assistant_message":null});
    let Event::Stop(stop) = decode_json(&retyped) else {
        panic!()
    };
    assert_eq!(stop.envelope.session.turn_id, "");
    assert_eq!(view(&stop.envelope).unwrap().extra()["turn_id"], 5);
}

#[test]
fn every_shape_on_every_event_encodes_to_something_codex_accepts() {
    let mut encoded = 0;
    for (id, event) in event_matrix() {
        let native = event.envelope().native.to_string();
        let caps = CODEC.capabilities(&event.envelope().variant, &native);
        for policy in [
            Policy::default(),
            Policy::default().with_ask_fallback(AskFallback::NoDecision),
        ] {
            for (shape, outcome) in shapes(event.kind()) {
                let what = format!("{id} × {shape} ({:?})", policy.ask_fallback);
                let degraded = degrade(outcome.clone(), caps, &policy).unwrap();
                if shape == "continue_empty" {
                    // Codex rejects a continuation without a prompt; there is no sensible default
                    // instruction, so the encoder refuses and the runner answers per policy.
                    let err = CODEC.encode(&event, &degraded.outcome).unwrap_err();
                    assert!(err.to_string().contains("without an instruction"), "{what}: {err}");
                    continue;
                }
                let r = CODEC
                    .encode(&event, &degraded.outcome)
                    .unwrap_or_else(|e| panic!("{what}: degraded outcome does not encode: {e}"));
                assert_codex_accepts(&native, &r, &what);
                // agreement: what the capabilities promise, the encoder expresses as is
                if degraded.degradations.is_empty() {
                    let direct = CODEC
                        .encode(&event, &outcome)
                        .unwrap_or_else(|e| panic!("{what}: within capabilities but not encodable: {e}"));
                    assert_eq!(direct, r, "{what}");
                } else {
                    // and what they do not promise is refused, never dropped silently
                    // (exceptions: an allow riding on a rewrite, which the encoder expresses as the
                    // rewrite alone, see `rewrite_allow_on_codex`; a replacement of an MCP result,
                    // which Codex honours but the per-event capabilities cannot promise)
                    assert!(
                        CODEC.encode(&event, &outcome).is_err()
                            || degraded.degradations.iter().all(|d| matches!(
                                d.capability,
                                Capability::Ask | Capability::Allow | Capability::ReplaceOutput
                            )),
                        "{what}: an unsupported outcome encoded without error: {:?}",
                        degraded.degradations
                    );
                }
                // a blocking decision that survived degradation really blocks on the wire
                if degraded.outcome.blocks() {
                    assert!(!r.stdout.is_empty(), "{what}: a block encoded as no opinion");
                }
                encoded += 1;
            }
        }
    }
    assert!(encoded > 200, "only {encoded} encodings");
}

#[test]
fn exact_bytes_for_the_key_shapes() {
    let pre = CORPUS.event("0.171.0/pre_tool_use-allow");
    assert_eq!(
        enc(&pre, deny("rm -rf is blocked")),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked"}}"#
    );
    assert_eq!(
        enc(&pre, deny("")),
        format!(
            r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"{DEFAULT_BLOCK_REASON}"}}}}"#
        )
    );
    assert_eq!(
        enc(
            &pre,
            deny("rm")
                .with_block_reason("Blocked by policy")
                .with_context("see P-7")
        ),
        r#"{"systemMessage":"Blocked by policy","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm","additionalContext":"see P-7"}}"#
    );
    assert_eq!(
        enc(&pre, rewrite_input(input("echo hi > marker2.txt")).allow()),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo hi > marker2.txt"}}}"#
    );
    assert_eq!(
        enc(&pre, rewrite_input(input("x")).no_decision()),
        enc(&pre, rewrite_input(input("x")).allow())
    );
    assert_eq!(
        enc(&pre, no_decision().with_context("a").with_context("b")),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"a\n\nb"}}"#
    );
    assert_eq!(
        enc(&pre, no_decision().with_system_message("note")),
        r#"{"systemMessage":"note"}"#
    );
    assert_eq!(enc(&pre, no_decision()), "");
}

fn enc(event: &Event, outcome: impl Into<Outcome>) -> String {
    CODEC.encode(event, &outcome.into()).unwrap().stdout_str().into_owned()
}

#[test]
fn exact_bytes_for_permission_and_post_tool_use() {
    let perm = CORPUS.event("docs/permission_request");
    assert_eq!(
        enc(&perm, allow()),
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#
    );
    assert_eq!(
        enc(&perm, deny("no pushes to main")),
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no pushes to main"}}}"#
    );
    assert_eq!(
        enc(&perm, deny("no pushes").with_block_reason("Blocked by policy")),
        r#"{"systemMessage":"Blocked by policy","hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no pushes"}}}"#
    );
    assert!(CODEC.encode(&perm, &ask_user("double-check").into()).is_err());

    let post_shell = CORPUS.event("docs/post_tool_use");
    let post_mcp = CORPUS.event("docs/post_tool_use-example");
    assert_eq!(
        enc(&post_shell, flag_output("secret in output")),
        r#"{"decision":"block","reason":"secret in output"}"#
    );
    assert_eq!(
        enc(
            &post_mcp,
            replace_output(json!({"content": [{"type": "text", "text": "[redacted]"}]}))
        ),
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"content":[{"type":"text","text":"[redacted]"}]}}}"#
    );
    assert_eq!(
        enc(&post_mcp, replace_output(json!("[redacted]"))),
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"content":[{"type":"text","text":"[redacted]"}]}}}"#
    );
    // not a PostToolUse capability: directly refused for a shell call, degraded to feedback
    assert!(CODEC
        .encode(&post_shell, &replace_output(json!("[redacted]")).into())
        .is_err());
    let caps = CODEC.capabilities(&Variant::default(), "PostToolUse");
    let degraded = degrade(replace_output(json!("[redacted]")).into(), caps, &Policy::default()).unwrap();
    assert_eq!(degraded.degradations[0].capability, Capability::ReplaceOutput);
    assert_eq!(
        CODEC.encode(&post_shell, &degraded.outcome).unwrap().stdout_str(),
        r#"{"decision":"block","reason":"[redacted]"}"#
    );
    assert_eq!(
        enc(&post_shell, observed().stop_agent("halt").with_context("c")),
        r#"{"continue":false,"stopReason":"halt","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"}}"#
    );
}

#[test]
fn exact_bytes_for_prompt_stop_and_context_events() {
    let prompt = CORPUS.event("0.171.0/user_prompt_submit-allow");
    assert_eq!(
        enc(&prompt, block_prompt("contains a secret")),
        r#"{"decision":"block","reason":"contains a secret"}"#
    );
    assert_eq!(
        enc(&prompt, block_prompt("pii").with_block_reason("Prompt blocked")),
        r#"{"systemMessage":"Prompt blocked","decision":"block","reason":"pii"}"#
    );
    assert_eq!(
        enc(&prompt, accept_prompt().with_context("today is Monday")),
        r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"today is Monday"}}"#
    );

    let stop = CORPUS.event("0.171.0/stop-allow");
    assert_eq!(
        enc(&stop, continue_with("run the tests first")),
        r#"{"decision":"block","reason":"run the tests first"}"#
    );
    assert_eq!(
        enc(&stop, finish().stop_agent("halt")),
        r#"{"continue":false,"stopReason":"halt"}"#
    );
    let sub = CORPUS.event("docs/subagent_stop");
    assert_eq!(
        enc(&sub, continue_with("dig deeper")),
        r#"{"decision":"block","reason":"dig deeper"}"#
    );

    let start = CORPUS.event("0.171.0/session_start-allow");
    assert_eq!(
        enc(&start, ContextDecision::none().with_context("repo rules: …")),
        r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"repo rules: …"}}"#
    );
    let sub_start = CORPUS.event("docs/subagent_start");
    assert_eq!(
        enc(&sub_start, ContextDecision::none().with_context("be brief")),
        r#"{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"be brief"}}"#
    );
    let compact = CORPUS.event("docs/pre_compact");
    assert_eq!(
        enc(&compact, ContextDecision::none().with_system_message("compacting")),
        r#"{"systemMessage":"compacting"}"#
    );
    let interrupt = CORPUS.event("docs/interrupt");
    assert_eq!(
        enc(&interrupt, ContextDecision::none().with_system_message("bye")),
        r#"{"systemMessage":"bye"}"#
    );
    let end = CORPUS.event("0.171.0/session_end-allow");
    assert_eq!(enc(&end, ContextDecision::none()), "");
}

#[test]
fn direct_encoding_refuses_what_codex_cannot_express() {
    let pre = CORPUS.event("0.171.0/pre_tool_use-allow");
    // "Codex cannot express this" is `Unsupported`; a decision of another family `WrongFamily`
    for (outcome, category) in [
        (Outcome::from(allow()), EncodeCategory::Unsupported),
        (ask_user("q").into(), EncodeCategory::Unsupported),
        (deny("x").stop_agent("s").into(), EncodeCategory::Unsupported),
        (continue_with("x").into(), EncodeCategory::WrongFamily),
    ] {
        let err = CODEC.encode(&pre, &outcome).unwrap_err();
        assert_eq!(err.category(), category, "{outcome:?}: {err}");
    }
    let perm = CORPUS.event("docs/permission_request");
    assert!(CODEC.encode(&perm, &rewrite_input(input("x")).allow().into()).is_err());
    assert!(CODEC.encode(&perm, &allow().with_context("c").into()).is_err());
    let stop = CORPUS.event("0.171.0/stop-allow");
    assert!(CODEC.encode(&stop, &continue_with("").into()).is_err());
    assert!(CODEC.encode(&stop, &finish().with_context("c").into()).is_err());
    let interrupt = CORPUS.event("docs/interrupt");
    assert!(CODEC
        .encode(&interrupt, &ContextDecision::none().stop_agent("s").into())
        .is_err());
    let end = CORPUS.event("0.171.0/session_end-allow");
    assert!(CODEC
        .encode(&end, &ContextDecision::none().with_system_message("m").into())
        .is_err());
    let compact = CORPUS.event("docs/post_compact");
    assert!(CODEC
        .encode(&compact, &ContextDecision::none().with_context("c").into())
        .is_err());
}

#[test]
fn bare_allow_degrades_to_no_opinion_and_ask_to_deny() {
    let pre = CORPUS.event("0.171.0/pre_tool_use-allow");
    let caps = CODEC.capabilities(&Variant::default(), "PreToolUse");
    let d = degrade(allow().into(), caps, &Policy::default()).unwrap();
    assert_eq!(d.outcome.kind(), DecisionKind::NoDecision);
    assert_eq!(d.degradations[0].capability, Capability::Allow);
    assert!(CODEC.encode(&pre, &d.outcome).unwrap().stdout.is_empty());
    let d = degrade(ask_user("sure?").into(), caps, &Policy::default()).unwrap();
    assert_eq!(d.outcome.kind(), DecisionKind::Deny);
    assert_eq!(
        CODEC.encode(&pre, &d.outcome).unwrap().stdout_str(),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"sure?"}}"#
    );
}

#[test]
fn rewrite_allow_on_codex() {
    // Codex has no bare allow, so `allow` is not a PreToolUse capability. A rewrite finished with
    // `.no_decision()` is kept and encoded as Codex's allow + updatedInput; finished with
    // `.allow()`, the core's degradation currently neutralises the allow *and* drops the rewrite
    // (reported to core: keep the rewrite when only the allow is unsupported).
    let pre = CORPUS.event("0.171.0/pre_tool_use-allow");
    let caps = CODEC.capabilities(&Variant::default(), "PreToolUse");
    let kept = degrade(
        rewrite_input(input("ls")).no_decision().into(),
        caps,
        &Policy::default(),
    )
    .unwrap();
    assert!(kept.degradations.is_empty());
    assert_eq!(
        CODEC.encode(&pre, &kept.outcome).unwrap().stdout_str(),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}"#
    );
    let allowed = degrade(rewrite_input(input("ls")).allow().into(), caps, &Policy::default()).unwrap();
    assert_eq!(allowed.degradations[0].capability, Capability::Allow);
    let r = CODEC.encode(&pre, &allowed.outcome).unwrap();
    if allowed.outcome.updated_input().is_some() {
        assert_eq!(r, CODEC.encode(&pre, &kept.outcome).unwrap());
    } else {
        assert!(r.stdout.is_empty());
    }
}

#[test]
fn failure_responses() {
    for (native, blocks) in [
        ("PreToolUse", true),
        ("PermissionRequest", true),
        ("UserPromptSubmit", true),
        ("PostToolUse", false),
        ("Stop", false),
        ("SubagentStop", false),
        ("SessionStart", false),
        ("SessionEnd", false),
        ("PreCompact", false),
        ("Interrupt", false),
        ("agent-turn-complete", false),
    ] {
        let target = EventTarget::new(Some(native.into()), Some(CODEC.kind_of(native)));
        let open = CODEC.failure_response(&target, FailMode::Open, "handler timed out");
        assert_eq!(open, WireResponse::empty(), "{native}");
        let closed = CODEC.failure_response(&target, FailMode::Closed, "handler timed out");
        assert_codex_accepts(native, &closed, native);
        assert_eq!(!closed.stdout.is_empty(), blocks, "{native}: {}", closed.stdout_str());
        if blocks {
            assert!(closed.stdout_str().contains("handler timed out"), "{native}");
        }
        assert_eq!(CODEC.no_op(&target), WireResponse::empty());
    }
    let closed = CODEC.failure_response(
        &EventTarget::new(Some("PreToolUse".into()), Some(EventKind::ToolPre)),
        FailMode::Closed,
        "",
    );
    assert!(closed.stdout_str().contains(DEFAULT_BLOCK_REASON));
    // only the kind known (undecodable payload with --event missing): still blocks tool.pre
    let by_kind = CODEC.failure_response(
        &EventTarget::new(None, Some(EventKind::ToolPre)),
        FailMode::Closed,
        "bad payload",
    );
    assert_codex_accepts("PreToolUse", &by_kind, "by kind");
    assert!(!by_kind.stdout.is_empty());
    let unknown = CODEC.failure_response(&EventTarget::new(None, None), FailMode::Closed, "x");
    assert_eq!(unknown, WireResponse::empty());
}

#[test]
fn codec_metadata() {
    assert_eq!(CODEC.provider(), "codex");
    assert_eq!(CODEC.default_timeout(), std::time::Duration::from_secs(600));
    assert_eq!(CODEC.kind_of("PostToolUse"), EventKind::ToolPost);
    assert_eq!(CODEC.kind_of("agent-turn-complete"), EventKind::Notification);
    assert_eq!(CODEC.kind_of("Interrupt"), EventKind::Other);
    assert_eq!(CODEC.native_events().len(), 14);
    assert_eq!(CODEC.native_events(), native::EVENTS);
    assert_eq!(CODEC.name_key(), Some("hook_event_name"));
    assert!(CODEC
        .tools()
        .is_some_and(|t| t.classify("Bash") == CanonicalTool::Shell));
    // facts install reads from the rows
    let row = |n: &str| CODEC.row(n).unwrap();
    for clamped in ["SessionEnd", "Interrupt"] {
        assert_eq!(
            row(clamped).timeout_clamp,
            Some(std::time::Duration::from_secs(3)),
            "{clamped}"
        );
    }
    for secondary in ["Interrupt", "StopFailure", "agent-turn-complete"] {
        assert!(!row(secondary).primary, "{secondary}");
    }
    assert!(row("agent-turn-complete").provider_only);
    let wired: Vec<&str> = native::EVENTS.iter().filter(|r| r.primary).map(|r| r.name).collect();
    assert_eq!(wired.len(), 11, "{wired:?}");
    assert_eq!(row("PostToolUse").identifying, ["tool_name", "tool_response"]);
    let quirk_ids: Vec<u16> = CODEC.quirks().iter().map(|q| q.id).collect();
    assert!(quirk_ids.contains(&201) && quirk_ids.contains(&204));
    let all = agenthooks_core::quirks::registry([&CODEC as &dyn Codec]);
    assert!(all.iter().any(|q| q.id == 8) && all.iter().any(|q| q.id == 209));
}

#[test]
fn detection() {
    let mut env = env();
    assert_eq!(CODEC.sniff_env(&env), None);
    env.insert("CODEX_HOME".into(), "/x".into());
    assert_eq!(CODEC.sniff_env(&env), Some(Confidence::Guess));
    env.insert("CODEX_MANAGED_BY_NPM".into(), "1".into());
    assert_eq!(CODEC.sniff_env(&env), Some(Confidence::Inferred));

    let none = HashMap::new();
    for fx in CORPUS.cases() {
        let got = CODEC.sniff_payload(&fx.input, &none);
        let expected = match (fx.meta.transport, fx.meta.native_event.as_str()) {
            (Transport::Argv, _) => Some(Confidence::Certain),
            (_, "SessionStart" | "SessionEnd") => None,
            // Older releases (0.116.0's Stop) send no `turn_id`: nothing Codex-only to go by
            _ if fx.input_json().get("turn_id").is_none() => None,
            // `turn_id` and `model` together: a shape only Codex sends
            _ => Some(Confidence::Certain),
        };
        assert_eq!(got, expected, "{}", fx.id());
    }
    // Claude's payloads are not claimed
    let claude = br#"{"session_id":"x","transcript_path":"/t","cwd":"/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"}"#;
    assert_eq!(CODEC.sniff_payload(claude, &none), None);
    assert_eq!(CODEC.sniff_payload(b"not json", &none), None);
}
