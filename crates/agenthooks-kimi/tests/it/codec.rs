//! The codec: projections of the fixtures, encode edge cases with exact bytes, failure
//! responses, capabilities with the core's `degrade`, and the runner end to end (conformance
//! checks 1–8 run in `testkit.rs`).

use std::collections::HashMap;

use agenthooks_core::decision::{
    accept_prompt, allow, ask_user, block_prompt, continue_with, deny, finish, no_decision, rewrite_input,
    ContextDecision, DEFAULT_BLOCK_REASON,
};
use agenthooks_core::{
    degrade, CanonicalTool, CapSet, Capability, Codec, Confidence, Context, DecodeCategory, EncodeCategory, Event,
    EventKind, EventTarget, FailMode, HandlerError, Invocation, NativeName, Outcome, Policy, PromptEvent, Router,
    StderrUse, ToolPreEvent, Variant, WireResponse,
};
use agenthooks_kimi::native::{self, NativeEvent};
use agenthooks_kimi::{view, view_as, BlockStyle, KimiCodec, CODEC};
use agenthooks_runtime::Runner;
use proptest::prelude::*;
use serde_json::{json, Value};

use crate::CORPUS;

/// Decoding reads no environment; an empty map keeps the tests hermetic.
fn no_env() -> HashMap<String, String> {
    HashMap::new()
}

fn decode_bytes(bytes: &[u8]) -> Event {
    let env = no_env();
    let inv = Invocation::new(bytes.to_vec(), &env);
    CODEC.decode(&inv).unwrap_or_else(|e| panic!("decode failed: {e}"))
}

fn decode_case(name: &str) -> Event {
    decode_bytes(&CORPUS.case(name).input)
}

fn encode(ev: &Event, o: impl Into<Outcome>) -> WireResponse {
    CODEC
        .encode(ev, &o.into())
        .unwrap_or_else(|e| panic!("encode failed: {e}"))
}

/// `o` encoded by a codec that blocks with exit code 2 instead of JSON.
fn encode_exit_style(ev: &Event, o: impl Into<Outcome>) -> WireResponse {
    KimiCodec::new()
        .with_block_style(BlockStyle::ExitCode)
        .encode(ev, &o.into())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn stdout(r: &WireResponse) -> String {
    r.stdout_str().into_owned()
}

// ---------------------------------------------------------------------------------------------
// Decode
// ---------------------------------------------------------------------------------------------

#[test]
fn captured_pre_tool_use_is_a_shell_call_with_kimis_id() {
    let Event::ToolPre(e) = decode_case("pre_tool_use-deny-json") else {
        panic!("not tool.pre")
    };
    assert_eq!(e.tool.name, "Bash");
    assert_eq!(e.tool.canonical, CanonicalTool::Shell);
    assert_eq!(e.tool.id, "call_92c1edac56a1");
    assert!(!e.tool.synthesized);
    assert_eq!(e.tool.command(), Some("echo hi > marker.txt"));
    assert_eq!(*e.tool.raw_input(), json!({"command": "echo hi > marker.txt"}));
    assert_eq!(e.envelope.session.id, "session_56040e92-9acf-48ff-aa83-b6941dc3c4bc");
    assert_eq!(e.envelope.session.turn_id, "");
    assert!(e.envelope.agent.is_none());
}

#[test]
fn captured_failure_projects_the_error_message() {
    let ev = decode_case("post_tool_use_failure-deny-json");
    let Event::ToolError(e) = &ev else {
        panic!("not tool.error")
    };
    assert_eq!(e.error, "agenthooks-probe: blocked by policy");
    assert!(!e.interrupted);
    assert_eq!(e.tool.id, "call_92c1edac56a1");
    // The full object stays reachable.
    let n = view_as::<native::PostToolUseFailure>(ev.envelope()).expect("typed view");
    let err = n.error.as_ref().expect("an error");
    assert_eq!(err.code(), Some("internal"));
    assert_eq!(err.as_structured().and_then(|s| s.retryable), Some(false));
}

#[test]
fn captured_post_tool_use_output_is_the_string() {
    let Event::ToolPost(e) = decode_case("post_tool_use-allow") else {
        panic!("not tool.post")
    };
    assert_eq!(e.output, json!("Command executed successfully."));
    assert_eq!(e.tool.id, "call_711046efc4cd");
}

#[test]
fn prompts_normalize_content_parts() {
    let Event::PromptSubmitted(e) = decode_case("user_prompt_submit-allow") else {
        panic!("not prompt.submitted")
    };
    assert_eq!(e.prompt, "Create marker.txt by running: echo hi > marker.txt");
    let Event::PromptSubmitted(e) = decode_case("user_prompt_submit-content-parts") else {
        panic!("not prompt.submitted")
    };
    assert_eq!(e.prompt, "What is wrong with this layout?\nFix it in src/checkout.css");
    let n = view_as::<native::UserPromptSubmit>(&e.envelope).expect("typed view");
    assert!(n.prompt.as_ref().is_some_and(native::Prompt::has_non_text_parts));
    let Event::PromptSubmitted(e) = decode_case("docs/user_prompt_submit") else {
        panic!("not prompt.submitted")
    };
    assert_eq!(e.prompt, "refactor the auth middleware");
}

#[test]
fn stop_session_and_compaction_fields() {
    let Event::Stop(s) = decode_case("stop-allow") else {
        panic!("not agent.stop")
    };
    assert!(!s.previously_continued);
    assert_eq!(s.continuation_count, None);
    let Event::SessionStart(s) = decode_case("session_start-allow") else {
        panic!("not session.start")
    };
    assert_eq!(s.source.as_deref(), Some("startup"));
    assert_eq!(s.envelope.session.model, "probe");
    let Event::SessionEnd(s) = decode_case("session_end") else {
        panic!("not session.end")
    };
    assert_eq!(s.reason.as_deref(), Some("exit"));
    let Event::CompactPre(c) = decode_case("pre_compact") else {
        panic!("not compact.pre")
    };
    assert_eq!(c.trigger.as_deref(), Some("auto"));
    let Event::CompactPost(c) = decode_case("post_compact") else {
        panic!("not compact.post")
    };
    assert_eq!(c.trigger.as_deref(), Some("auto"));
}

#[test]
fn permission_subagent_and_notification_fields() {
    let Event::Permission(p) = decode_case("permission_request") else {
        panic!("not permission.request")
    };
    assert_eq!(p.tool.name, "Bash");
    assert_eq!(p.tool.id, "call_77e0b2c4d1f6");
    assert_eq!(p.tool.command(), Some("npm publish"));
    assert_eq!(p.envelope.session.turn_id, "3");
    assert!(p.envelope.agent.is_none(), "main agent is not a subagent");

    let Event::SubagentStop(s) = decode_case("subagent_stop") else {
        panic!("not subagent.stop")
    };
    assert_eq!(
        s.last_message.as_deref(),
        Some("total() is called from src/cart.ts:12 and src/invoice.ts:48.")
    );
    assert_eq!(s.envelope.agent.as_ref().map(|a| a.agent_type.as_str()), Some("coder"));
    let Event::SubagentStart(s) = decode_case("subagent_start") else {
        panic!("not subagent.start")
    };
    assert_eq!(s.envelope.agent.as_ref().map(|a| a.agent_type.as_str()), Some("coder"));

    let Event::Notification(n) = decode_case("notification") else {
        panic!("not notification")
    };
    assert_eq!(n.message, "npm run build finished with exit code 0");
    assert_eq!(n.title.as_deref(), Some("Background task completed"));
    assert_eq!(n.notification_type.as_deref(), Some("task.completed"));
}

#[test]
fn mcp_tool_calls_carry_server_and_tool() {
    let Event::ToolPre(e) = decode_case("pre_tool_use-mcp") else {
        panic!("not tool.pre")
    };
    assert_eq!(e.tool.canonical, CanonicalTool::Mcp);
    let mcp = e.tool.mcp.as_ref().map(|m| (m.server.as_str(), m.tool.as_str()));
    assert_eq!(mcp, Some(("github", "create_issue")));
}

#[test]
fn unmapped_events_are_other_with_their_native_name() {
    for (name, native) in [
        ("turn_started-stop-hook", "TurnStarted"),
        ("interrupt", "Interrupt"),
        ("permission_result", "PermissionResult"),
        ("user_prompt_queued", "UserPromptQueued"),
        ("session_heartbeat", "SessionHeartbeat"),
        ("task_started", "TaskStarted"),
        ("stop_failure", "StopFailure"),
    ] {
        let ev = decode_case(name);
        assert_eq!(ev.kind(), EventKind::Other, "{name}");
        assert_eq!(ev.envelope().native.as_str(), native);
    }
    let ev = decode_case("turn_started-stop-hook");
    assert_eq!(ev.envelope().session.turn_id, "2");
    let ev = decode_case("interrupt");
    assert_eq!(ev.envelope().session.turn_id, "4");
}

#[test]
fn a_future_event_decodes_as_other() {
    let raw =
        br#"{"hook_event_name":"TurnEnded","session_id":"s","cwd":"/p","client_type":"kimi_code_cli","turn_id":1}"#;
    let ev = decode_bytes(raw);
    assert_eq!(ev.kind(), EventKind::Other);
    assert_eq!(ev.envelope().native.as_str(), "TurnEnded");
    assert_eq!(ev.envelope().session.id, "s");
    let Some(NativeEvent::Other(m)) = view(ev.envelope()) else {
        panic!("no view")
    };
    assert_eq!(m.extra["turn_id"], 1);
    assert_eq!(encode(&ev, ContextDecision::none()), WireResponse::empty());
}

#[test]
fn event_name_falls_back_to_the_argv_hint() {
    let env = no_env();
    let raw = br#"{"session_id":"s","cwd":"/p","stop_hook_active":false}"#;
    let inv = Invocation::new(raw.to_vec(), &env).with_native_event(Some("Stop"));
    let ev = CODEC.decode(&inv).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ev.kind(), EventKind::Stop);
    assert_eq!(ev.envelope().raw().as_bytes(), raw);
    // The native view is what Kimi sent: no `hook_event_name` is made up from the hint.
    let v = view(ev.envelope()).expect("view");
    assert_eq!(v.name(), "Stop");
    assert_eq!(v.hook_event_name(), None);
    let back = serde_json::to_vec(v).unwrap_or_default();
    assert_eq!(back, raw);
    // The payload's own name wins over the hint.
    let named = br#"{"hook_event_name":"SessionEnd","session_id":"s","cwd":"/p","reason":"exit"}"#;
    let inv = Invocation::new(named.to_vec(), &env).with_native_event(Some("Stop"));
    let ev = CODEC.decode(&inv).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ev.kind(), EventKind::SessionEnd);
    let inv = Invocation::new(raw.to_vec(), &env);
    let err = CODEC.decode(&inv).err();
    assert_eq!(
        err.as_ref().map(agenthooks_core::DecodeError::category),
        Some(DecodeCategory::UnknownEvent)
    );
    assert_eq!(err.as_ref().and_then(|e| e.path()), Some("hook_event_name"));
}

#[test]
fn bad_payloads_are_typed_errors() {
    // Only what is not a JSON object naming an event fails; a field's shape never does (see
    // `tolerance.rs`).
    let cases: [(&[u8], DecodeCategory); 5] = [
        (b"", DecodeCategory::Empty),
        (b"{\"hook_event_name\":", DecodeCategory::Syntax),
        (b"[1,2]", DecodeCategory::Data),
        (b"{} {}", DecodeCategory::Syntax),
        (br#"{"session_id":"s"}"#, DecodeCategory::UnknownEvent),
    ];
    let env = no_env();
    for (bytes, cat) in cases {
        let inv = Invocation::new(bytes.to_vec(), &env);
        let err = CODEC
            .decode(&inv)
            .err()
            .unwrap_or_else(|| panic!("{:?} decoded", String::from_utf8_lossy(bytes)));
        assert_eq!(err.category(), cat, "{err}");
        assert_eq!(err.provider().as_str(), "kimi");
    }
}

#[test]
fn a_bom_is_tolerated_and_kept_in_raw() {
    let mut raw = vec![0xEF, 0xBB, 0xBF];
    raw.extend_from_slice(&CORPUS.case("stop-allow").input);
    let ev = decode_bytes(&raw);
    assert_eq!(ev.envelope().raw().as_bytes(), &raw[..]);
}

// ---------------------------------------------------------------------------------------------
// Encode: exact bytes
// ---------------------------------------------------------------------------------------------

const DENY_JSON: &str =
    r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked"}}"#;

#[test]
fn deny_on_pre_tool_use() {
    let ev = decode_case("pre_tool_use-deny-json");
    let r = encode(&ev, deny("rm -rf is blocked"));
    assert_eq!(stdout(&r), DENY_JSON);
    assert_eq!((r.exit_code, r.stderr.len()), (0, 0));

    let r = encode_exit_style(&ev, deny("rm -rf is blocked"));
    assert_eq!(r, WireResponse::exit(2, "rm -rf is blocked"));
    assert!(r.stdout.is_empty());
}

#[test]
fn block_prompt_with_and_without_a_block_message() {
    let ev = decode_case("user_prompt_submit-deny-json");
    for (outcome, want) in [
        (
            block_prompt("contains a secret"),
            r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"contains a secret"}}"#,
        ),
        (
            block_prompt("contains a secret").with_block_reason("Prompt blocked by policy"),
            r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"contains a secret"},"message":"Prompt blocked by policy"}"#,
        ),
    ] {
        let r = encode(&ev, outcome);
        assert_eq!(stdout(&r), want);
        assert_eq!(r.exit_code, 0);
    }
    let r = encode_exit_style(&ev, block_prompt("contains a secret"));
    assert_eq!(r, WireResponse::exit(2, "contains a secret"));
}

#[test]
fn prompt_context_rides_json_message() {
    let ev = decode_case("user_prompt_submit-allow");
    let r = encode(
        &ev,
        accept_prompt()
            .with_context("branch: main")
            .with_context("{\"looks\":\"like json\"}"),
    );
    assert_eq!(stdout(&r), r#"{"message":"branch: main\n{\"looks\":\"like json\"}"}"#);
    assert_eq!((r.exit_code, r.stderr.len()), (0, 0));
}

#[test]
fn continue_on_stop() {
    let ev = decode_case("stop-allow");
    let r = encode(&ev, continue_with("run the tests before finishing"));
    assert_eq!(
        stdout(&r),
        r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"run the tests before finishing"}}"#
    );
    assert_eq!(encode(&ev, finish()), WireResponse::empty());
    let r = encode_exit_style(&ev, continue_with("again"));
    assert_eq!(r, WireResponse::exit(2, "again"));
}

#[test]
fn undegraded_unsupported_intents_are_encode_errors_not_silence() {
    let pre = decode_case("pre_tool_use-allow");
    let prompt = decode_case("user_prompt_submit-allow");
    let stop = decode_case("stop-allow");
    let session = decode_case("session_start-allow");
    let perm = decode_case("permission_request");
    let mut input = serde_json::Map::new();
    input.insert("command".into(), json!("ls"));
    let bad: Vec<(&Event, Outcome)> = vec![
        (&pre, allow().into()),
        (&pre, ask_user("sure?").into()),
        (&pre, rewrite_input(input).allow().into()),
        (&pre, no_decision().with_context("c").into()),
        (&pre, deny("x").with_system_message("m").into()),
        (&pre, deny("x").stop_agent("halt").into()),
        (&prompt, accept_prompt().with_system_message("m").into()),
        (&stop, finish().with_context("c").into()),
        (&stop, deny("x").into()),
        (&session, ContextDecision::none().with_context("hello").into()),
        (&perm, deny("x").into()),
        (&pre, continue_with("x").into()),
    ];
    for (ev, o) in bad {
        let r = CODEC.encode(ev, &o);
        assert!(r.is_err(), "{} with {:?} encoded as {:?}", ev.envelope().native, o, r);
    }
    // What Kimi cannot express is Unsupported; a decision of another family is WrongFamily.
    let category = |ev: &Event, o: Outcome| CODEC.encode(ev, &o).err().map(|e| e.category());
    assert_eq!(category(&pre, allow().into()), Some(EncodeCategory::Unsupported));
    assert_eq!(
        category(&session, ContextDecision::none().with_context("hi").into()),
        Some(EncodeCategory::Unsupported)
    );
    assert_eq!(category(&perm, deny("x").into()), Some(EncodeCategory::Unsupported));
    assert_eq!(
        category(&pre, continue_with("x").into()),
        Some(EncodeCategory::WrongFamily)
    );
}

// ---------------------------------------------------------------------------------------------
// Capabilities and degradation
// ---------------------------------------------------------------------------------------------

#[test]
fn capabilities_per_event() {
    let v = Variant::DEFAULT;
    assert_eq!(CODEC.capabilities(&v, "PreToolUse"), CapSet::of(&[Capability::Deny]));
    assert_eq!(
        CODEC.capabilities(&v, "UserPromptSubmit"),
        CapSet::of(&[Capability::Deny, Capability::AddContext])
    );
    assert_eq!(CODEC.capabilities(&v, "Stop"), CapSet::of(&[Capability::ContinueAgent]));
    for row in native::EVENTS {
        let caps = CODEC.capabilities(&v, row.name);
        assert_eq!(!caps.is_empty(), row.blocking, "{}", row.name);
    }
    assert!(CODEC.capabilities(&v, "SessionStart").is_empty());
    assert!(CODEC.capabilities(&v, "SomethingNew").is_empty());
    assert_eq!(CODEC.native_events().len(), 20);
    assert_eq!(CODEC.default_timeout().as_secs(), 30);
}

/// Degrade with the codec's capabilities, then encode: what the runner does.
fn sent(ev: &Event, o: impl Into<Outcome>, policy: Policy) -> WireResponse {
    let caps = CODEC.capabilities(&ev.envelope().variant, ev.envelope().native.as_str());
    let d = degrade(o.into(), caps, &policy).unwrap_or_else(|e| panic!("{e}"));
    encode(ev, d.outcome)
}

#[test]
fn degraded_shapes_reach_the_wire_as_kimi_understands_them() {
    let pre = decode_case("pre_tool_use-allow");
    let p = Policy::default();
    // ask → deny (ask_fallback = deny)
    let r = sent(&pre, ask_user("rm -rf is blocked"), p);
    assert_eq!(stdout(&r), DENY_JSON);
    // ask → no decision (ask_fallback = no-decision)
    let nd = Policy::default().with_ask_fallback(agenthooks_core::AskFallback::NoDecision);
    assert_eq!(sent(&pre, ask_user("?"), nd), WireResponse::empty());
    // allow → no decision; a rewrite never rides an allow of the original input
    assert_eq!(sent(&pre, allow(), p), WireResponse::empty());
    let mut input = serde_json::Map::new();
    input.insert("command".into(), json!("ls"));
    assert_eq!(sent(&pre, rewrite_input(input).allow(), p), WireResponse::empty());
    // context and system messages on PreToolUse are dropped, the deny stays
    let r = sent(
        &pre,
        deny("rm -rf is blocked").with_context("c").with_system_message("m"),
        p,
    );
    assert_eq!(stdout(&r), DENY_JSON);
    // SessionStart context is dropped (its output never reaches the model)
    let ss = decode_case("session_start-allow");
    assert_eq!(
        sent(&ss, ContextDecision::none().with_context("today is Monday"), p),
        WireResponse::empty()
    );
    // permission.request is observation only
    let perm = decode_case("permission_request");
    assert_eq!(sent(&perm, deny("no"), p), WireResponse::empty());
    // subagent.stop cannot continue
    let sub = decode_case("subagent_stop");
    assert_eq!(sent(&sub, continue_with("more"), p), WireResponse::empty());
    // a strict policy refuses instead
    let strict = Policy::default().with_unsupported(agenthooks_core::UnsupportedMode::Strict);
    let caps = CODEC.capabilities(&Variant::DEFAULT, "PreToolUse");
    assert!(degrade(allow().into(), caps, &strict).is_err());
}

// ---------------------------------------------------------------------------------------------
// Failure responses
// ---------------------------------------------------------------------------------------------

fn target(native: &str) -> EventTarget {
    EventTarget::new(Some(NativeName::new(native)), Some(CODEC.kind_of(native)))
}

#[test]
fn failure_responses() {
    for n in ["PreToolUse", "UserPromptSubmit", "Stop", "PostToolUse", "SessionStart"] {
        assert_eq!(
            CODEC.failure_response(&target(n), FailMode::Open, "boom"),
            WireResponse::empty(),
            "{n}"
        );
    }
    let closed = CODEC.failure_response(&target("PreToolUse"), FailMode::Closed, "boom");
    assert_eq!(
        stdout(&closed),
        r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"boom"}}"#
    );
    let closed = CODEC.failure_response(&target("UserPromptSubmit"), FailMode::Closed, "");
    assert_eq!(
        stdout(&closed),
        format!(
            r#"{{"hookSpecificOutput":{{"permissionDecision":"deny","permissionDecisionReason":"{DEFAULT_BLOCK_REASON}"}}}}"#
        )
    );
    for n in ["Stop", "PostToolUse", "PermissionRequest", "SessionStart"] {
        assert_eq!(
            CODEC.failure_response(&target(n), FailMode::Closed, "boom"),
            WireResponse::empty(),
            "{n}"
        );
    }
    // Unknown native, known kind (decode failed, --event absent but kind inferred).
    let t = EventTarget::new(None, Some(EventKind::ToolPre));
    assert_eq!(CODEC.failure_response(&t, FailMode::Closed, "x").exit_code, 0);
    assert!(!CODEC.failure_response(&t, FailMode::Closed, "x").stdout.is_empty());
    let exit = KimiCodec::new().with_block_style(BlockStyle::ExitCode);
    assert_eq!(
        exit.failure_response(&target("PreToolUse"), FailMode::Closed, "boom"),
        WireResponse::exit(2, "boom")
    );
    assert_eq!(exit.stderr_use(), StderrUse::Reserved);
    assert_eq!(CODEC.stderr_use(), StderrUse::Logs);
}

// ---------------------------------------------------------------------------------------------
// Detection and quirks
// ---------------------------------------------------------------------------------------------

#[test]
fn sniffing() {
    let env = no_env();
    for f in CORPUS.cases() {
        let conf = CODEC.sniff_payload(&f.input, &env);
        assert_eq!(conf, Some(Confidence::Certain), "{}", f.id());
    }
    // Without `client_type` (before 0.32.0), a Kimi-only event name is a hint.
    let old = br#"{"hook_event_name":"TurnStarted","session_id":"s","cwd":"/p","turn_id":0}"#;
    assert_eq!(CODEC.sniff_payload(old, &env), Some(Confidence::Inferred));
    let shared = br#"{"hook_event_name":"StopFailure","session_id":"s","cwd":"/p"}"#;
    assert_eq!(CODEC.sniff_payload(shared, &env), None);
    let claude = br#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{},"tool_use_id":"t"}"#;
    assert_eq!(CODEC.sniff_payload(claude, &env), None);
    let old = br#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{},"tool_call_id":"t"}"#;
    assert_eq!(CODEC.sniff_payload(old, &env), Some(Confidence::Inferred));
    assert_eq!(CODEC.sniff_payload(b"not json", &env), None);
    assert_eq!(CODEC.sniff_env(&env), None);
    let mut plugin = no_env();
    plugin.insert("KIMI_PLUGIN_ROOT".into(), "/home/dev/.kimi-code/plugins/x".into());
    assert_eq!(CODEC.sniff_env(&plugin), Some(Confidence::Inferred));
}

#[test]
fn quirks_are_registered() {
    let ids: Vec<u16> = CODEC.quirks().iter().map(|q| q.id).collect();
    for id in [21, 22, 23, 24, 30, 501, 502, 503] {
        assert!(ids.contains(&id), "quirk #{id} missing");
    }
}

// ---------------------------------------------------------------------------------------------
// The runner end to end
// ---------------------------------------------------------------------------------------------

#[allow(clippy::unnecessary_wraps)] // the handler signature
fn guard(_cx: &Context, e: &ToolPreEvent) -> Result<agenthooks_core::decision::ToolPreDecision, HandlerError> {
    if e.tool.command().is_some_and(|c| c.contains("marker")) {
        Ok(deny("agenthooks: blocked by policy"))
    } else {
        Ok(no_decision())
    }
}

#[allow(clippy::unnecessary_wraps)] // the handler signature
fn add_context(_cx: &Context, _e: &PromptEvent) -> Result<agenthooks_core::decision::PromptDecision, HandlerError> {
    Ok(accept_prompt().with_context("today is Monday"))
}

#[allow(clippy::unnecessary_wraps)] // the handler signature
fn failing(_cx: &Context, _e: &ToolPreEvent) -> Result<agenthooks_core::decision::ToolPreDecision, HandlerError> {
    Err(HandlerError::msg("backend unreachable"))
}

fn runner(router: Router) -> Runner {
    let dir = std::env::temp_dir().join(format!("agenthooks-kimi-runner-{}", std::process::id()));
    Runner::new(router, vec![&CODEC]).with_options(agenthooks_runtime::RunOptions::default().with_state_dir(dir))
}

#[test]
fn runner_denies_and_adds_context_with_kimis_bytes() {
    let r = runner(Router::new().on_tool_pre(guard).on_prompt_submitted(add_context));
    let env = no_env();
    let inv = Invocation::new(CORPUS.case("pre_tool_use-deny-json").input.clone(), &env);
    let out = r.invoke(&CODEC, &inv, None, Confidence::Certain);
    assert!(out.failure.is_none(), "{:?}", out.failure);
    assert_eq!(
        stdout(&out.response),
        r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"agenthooks: blocked by policy"}}"#
    );
    let inv = Invocation::new(CORPUS.case("user_prompt_submit-allow").input.clone(), &env);
    let out = r.invoke(&CODEC, &inv, None, Confidence::Certain);
    assert_eq!(stdout(&out.response), r#"{"message":"today is Monday"}"#);
    // A fire-and-forget event answers the no-op.
    let inv = Invocation::new(CORPUS.case("post_tool_use-allow").input.clone(), &env);
    let out = r.invoke(&CODEC, &inv, None, Confidence::Certain);
    assert_eq!(out.response, WireResponse::empty());
}

#[test]
fn runner_fails_closed_with_a_deny_and_open_with_nothing() {
    let env = no_env();
    let closed = runner(
        Router::new()
            .with_policy(Policy::default().fail_closed())
            .on_tool_pre(failing),
    );
    let inv = Invocation::new(CORPUS.case("pre_tool_use-allow").input.clone(), &env);
    let out = closed.invoke(&CODEC, &inv, None, Confidence::Certain);
    assert!(out.failure.is_some());
    let v: Value = serde_json::from_slice(&out.response.stdout).unwrap_or(Value::Null);
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    let open = runner(Router::new().on_tool_pre(failing));
    let out = open.invoke(&CODEC, &inv, None, Confidence::Certain);
    assert_eq!(out.response, WireResponse::empty());
}

// ---------------------------------------------------------------------------------------------
// Property: unknown keys land in `extra`, raw stays byte-identical
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn unknown_keys_land_in_extra_and_raw_is_identical(
        case_index in 0usize..64,
        key in "x_[a-z_]{1,10}",
        value in agenthooks_testkit::strategy::json_value("[ -~]{0,12}", 2),
        spaces in "[ \n]{0,3}",
    ) {
        let all = CORPUS.cases();
        let c = &all[case_index % all.len()];
        // Append the key at the end of the object, keeping Kimi's bytes otherwise.
        let text = String::from_utf8(c.input.clone()).unwrap_or_default();
        let body = text.trim_end().strip_suffix('}').unwrap_or(&text);
        let extra_json = serde_json::to_string(&value).unwrap_or_default();
        let payload = format!("{spaces}{body},\"{key}\":{extra_json}}}{spaces}");
        let ev = decode_bytes(payload.as_bytes());
        prop_assert_eq!(ev.envelope().raw().as_bytes(), payload.as_bytes());
        let v = view(ev.envelope());
        prop_assert!(v.is_some());
        let extra = v.map(NativeEvent::extra).cloned().unwrap_or_default();
        prop_assert_eq!(extra.get(&key), Some(&value));
    }
}
