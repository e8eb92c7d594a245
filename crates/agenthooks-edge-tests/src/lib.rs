//! Test codecs for process-level tests of the agenthooks runner (not published).
//!
//! - [`ALPHA`]: a Claude-like dialect (`hook_event_name` in the payload, `{}` no-op, exit 2 +
//!   stderr to fail closed, stderr reserved so logs go to a file).
//! - [`BETA`]: a Cursor-like dialect (`conversation_id`, an optional UTF-8 BOM, `{"permission":…}`
//!   answers, stderr free for logs). Its payload sniffer recognises its shape with certainty, so a
//!   BETA payload under `--provider=alpha` is answered in BETA's dialect.
//!
//! [`scripted`] is the handler set both hook binaries run (`test-hook` on these codecs,
//! `matrix-hook` on every real codec through the facade), its behaviour chosen by env.

use std::time::Duration;

use agenthooks_core::decision::DecisionKind;
use agenthooks_core::{
    CanonicalTool, CapSet, Capability, Codec, Confidence, DecodeError, EncodeError, Env, Envelope, Event, EventKind,
    EventRow, EventTarget, FailMode, Invocation, NativeName, OtherEvent, Outcome, PromptEvent, Provider, StderrUse,
    StopEvent, ToolCall, ToolPreEvent, Variant, WireResponse,
};
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// The payload both test dialects share.
#[derive(Debug, Deserialize)]
struct Payload {
    #[serde(default)]
    hook_event_name: Option<String>,
    #[serde(default)]
    session_id: Option<String>,
    #[serde(default)]
    conversation_id: Option<String>,
    #[serde(default)]
    tool_name: Option<String>,
    #[serde(default)]
    tool_input: Option<Value>,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    stop_hook_active: Option<bool>,
    #[serde(flatten)]
    #[allow(dead_code)]
    extra: Map<String, Value>,
}

/// A test dialect.
#[derive(Debug)]
pub struct TestCodec {
    name: &'static str,
    cursor_like: bool,
}

/// Claude-like test codec (`--provider=alpha`).
pub static ALPHA: TestCodec = TestCodec {
    name: "alpha",
    cursor_like: false,
};
/// Cursor-like test codec (`--provider=beta`).
pub static BETA: TestCodec = TestCodec {
    name: "beta",
    cursor_like: true,
};

const EVENTS: &[EventRow] = &[
    EventRow::new("PreToolUse", EventKind::ToolPre, true, true),
    EventRow::new("UserPromptSubmit", EventKind::PromptSubmitted, true, false),
    EventRow::new("Stop", EventKind::Stop, true, false),
];

impl Codec for TestCodec {
    fn provider(&self) -> Provider {
        Provider::from_static(self.name)
    }

    fn native_events(&self) -> &'static [EventRow] {
        EVENTS
    }

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let p: Payload =
            serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_slice(inv.payload.json_bytes()))
                .map_err(|e| DecodeError::from_path_error(self.provider(), e))?;
        let native = p
            .hook_event_name
            .clone()
            .or_else(|| inv.native_event.map(str::to_owned))
            .unwrap_or_else(|| "Unknown".to_owned());
        let kind = self.kind_of(&native);
        let mut env = Envelope::new(self.provider(), NativeName::new(native), kind, inv.payload.clone());
        env.session.id = p.session_id.clone().or(p.conversation_id.clone()).unwrap_or_default();
        Ok(match kind {
            EventKind::ToolPre => {
                let tool = ToolCall::builder(p.tool_name.unwrap_or_default(), p.tool_input.unwrap_or(Value::Null))
                    .class(CanonicalTool::Shell)
                    .build(&env.session);
                Event::ToolPre(ToolPreEvent::new(env, tool))
            }
            EventKind::PromptSubmitted => Event::PromptSubmitted(PromptEvent::new(env, p.prompt.unwrap_or_default())),
            EventKind::Stop => {
                Event::Stop(StopEvent::new(env).with_previously_continued(p.stop_hook_active.unwrap_or(false)))
            }
            _ => Event::Other(OtherEvent::new(env)),
        })
    }

    fn encode(&self, _event: &Event, o: &Outcome) -> Result<WireResponse, EncodeError> {
        let mut m = Map::new();
        let key = if self.cursor_like { "permission" } else { "decision" };
        match o.kind() {
            DecisionKind::NoDecision => {}
            DecisionKind::Continue => {
                m.insert(key.into(), "block".into());
                m.insert("reason".into(), o.instruction().unwrap_or_default().into());
            }
            k => {
                m.insert(key.into(), k.as_str().into());
                if let Some(r) = o.reason() {
                    m.insert("reason".into(), r.into());
                }
            }
        }
        if !o.context().is_empty() {
            m.insert("context".into(), json!(o.context()));
        }
        Ok(WireResponse::json(&Value::Object(m)))
    }

    fn no_op(&self, _t: &EventTarget) -> WireResponse {
        WireResponse::empty_object()
    }

    fn failure_response(&self, t: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        let can_block = t.kind.is_none_or(EventKind::is_gating);
        match mode {
            FailMode::Closed if can_block => {
                if self.cursor_like {
                    WireResponse::json(&json!({"permission": "deny", "reason": reason}))
                } else {
                    WireResponse::exit(2, format!("{reason}\n"))
                }
            }
            _ => self.no_op(t),
        }
    }

    fn capabilities(&self, _v: &Variant, native: &str) -> CapSet {
        match native {
            "PreToolUse" => CapSet::of(&[
                Capability::Deny,
                Capability::Ask,
                Capability::Allow,
                Capability::AddContext,
            ]),
            "UserPromptSubmit" => CapSet::of(&[Capability::Deny, Capability::AddContext]),
            "Stop" => CapSet::of(&[Capability::ContinueAgent]),
            _ => CapSet::EMPTY,
        }
    }

    fn default_timeout(&self) -> Duration {
        Duration::from_secs(5)
    }

    fn sniff_payload(&self, payload: &[u8], _env: &dyn Env) -> Option<Confidence> {
        let has_bom = payload.starts_with(&[0xEF, 0xBB, 0xBF]);
        let text = std::str::from_utf8(payload).ok()?;
        let conv = text.contains("\"conversation_id\"");
        match (self.cursor_like, conv || has_bom) {
            (true, true) => Some(Confidence::Certain),
            (false, false) if text.contains("\"hook_event_name\"") => Some(Confidence::Inferred),
            _ => None,
        }
    }

    fn stderr_use(&self) -> StderrUse {
        if self.cursor_like {
            StderrUse::Logs
        } else {
            StderrUse::Reserved
        }
    }
}

/// The scripted handlers of the test hook binaries, chosen by env: `TEST_BEHAVIOR` = noop |
/// deny | deny-rm | ask | context | continue | panic | sleep | println | error, `TEST_FAIL` = open |
/// closed.
pub mod scripted {
    #![allow(clippy::print_stdout)] // printing to stdout from a handler is one of the behaviours

    use agenthooks_core::prelude::*;

    /// The behaviour named by `TEST_BEHAVIOR` (empty: no decision).
    pub fn behavior() -> String {
        std::env::var("TEST_BEHAVIOR").unwrap_or_default()
    }

    /// The reason the `deny` behaviour gives: a test tells a decoded event by it.
    pub const DENY_REASON: &str = "blocked by test";

    /// The tool-call handler: the decision or fault `TEST_BEHAVIOR` names.
    pub fn tool_pre(_cx: &Context, e: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
        match behavior().as_str() {
            "deny" => Ok(deny(DENY_REASON)),
            "deny-rm" if e.tool.command().is_some_and(|c| c.starts_with("rm")) => Ok(deny(DENY_REASON)),
            "ask" => Ok(ask_user("really?")),
            "context" => Ok(no_decision().with_context("ctx from test")),
            "panic" => panic!("boom in handler"),
            "sleep" => {
                std::thread::sleep(std::time::Duration::from_secs(30));
                Ok(no_decision())
            }
            "println" => {
                println!("noise from a handler");
                print!("more noise");
                Ok(deny("after noise"))
            }
            "error" => Err(HandlerError::msg("handler failed on purpose")),
            _ => Ok(no_decision()),
        }
    }

    /// The stop handler: continues under `continue`, else finishes.
    #[allow(clippy::unnecessary_wraps)]
    pub fn stop(_cx: &Context, _e: &StopEvent) -> Result<StopDecision, HandlerError> {
        if behavior() == "continue" {
            Ok(continue_with("keep going"))
        } else {
            Ok(finish())
        }
    }

    /// The router: both handlers, fail-closed when `TEST_FAIL=closed`.
    pub fn router() -> Router {
        let fail_closed = std::env::var("TEST_FAIL").is_ok_and(|v| v == "closed");
        let policy = if fail_closed {
            Policy::default().fail_closed()
        } else {
            Policy::default()
        };
        Router::new().with_policy(policy).on_tool_pre(tool_pre).on_stop(stop)
    }
}
