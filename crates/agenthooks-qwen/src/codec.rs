//! [`QwenCodec`]: the [`Codec`] of Qwen Code's hook dialect.
//!
//! See the crate docs for the dialect and every lossy projection. The event rows
//! ([`native::EVENTS`]) drive both the capabilities the codec reports and what the encoder may
//! write: an outcome that needs a capability the event lacks is an [`EncodeError`], never
//! silently dropped.

use std::time::Duration;

use agenthooks_core::kit::{self, FromNative};
use agenthooks_core::{
    AgentInfo, CapSet, Codec, CompactPostEvent, CompactPreEvent, Confidence, DecisionKind, DecodeError, EncodeError,
    Env, Envelope, Event, EventKind, EventTarget, FailMode, Invocation, ModelResponseEvent, NotificationEvent, Outcome,
    PermissionEvent, PromptEvent, Provider, RawJson, SessionEndEvent, SessionInfo, SessionStartEvent, StderrUse,
    StopEvent, SubagentStartEvent, ToolCall, ToolErrorEvent, ToolPostEvent, ToolPreEvent, WireResponse,
};
use serde::Deserialize;
use serde_json::Value;

use crate::native::{self, NativeEvent};
use crate::output::{HookSpecificOutput, Output, PermissionRequestDecision, NO_OP};
use crate::tools;

/// The provider this codec serves.
const PROVIDER: Provider = Provider::QWEN;

/// Qwen Code's default command-hook timeout when the settings state none: 60 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Converts a duration to the value of a command hook's `timeout` in `settings.json`, in
/// **milliseconds**, at least 1000 (quirk 901): releases up to 0.15 read milliseconds, 0.2x
/// reads seconds but keeps reading any value of 1000 or more as milliseconds, so a value
/// ≥ 1000 means the same on every release.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(agenthooks_qwen::timeout_config_value(Duration::from_secs(30)), 30_000);
/// assert_eq!(agenthooks_qwen::timeout_config_value(Duration::from_millis(10)), 1_000);
/// ```
pub fn timeout_config_value(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1_000)
}

/// The Qwen Code codec. Stateless; use the crate's [`CODEC`](crate::CODEC) static.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct QwenCodec;

impl QwenCodec {
    /// The codec.
    pub const fn new() -> Self {
        Self
    }
}

/// The provider's native typed payload attached to a decoded event.
///
/// ```
/// use agenthooks_core::{Codec, Invocation};
/// use agenthooks_qwen::{native::NativeEvent, view, CODEC};
///
/// let env = std::collections::HashMap::<String, String>::new();
/// let inv = Invocation::new(
///     br#"{"session_id":"s","cwd":"/p","hook_event_name":"PreCompact","trigger":"auto"}"#.to_vec(),
///     &env,
/// );
/// let ev = CODEC.decode(&inv).unwrap();
/// let Some(NativeEvent::PreCompact(p)) = view(ev.envelope()) else { panic!() };
/// assert_eq!(p.trigger.as_deref(), Some("auto"));
/// ```
pub fn view(envelope: &Envelope) -> Option<&NativeEvent> {
    envelope.native_view::<NativeEvent>()
}

/// One event's native struct, when the envelope holds that event.
///
/// ```
/// use agenthooks_core::{Codec, Invocation};
/// use agenthooks_qwen::{native::UserPromptSubmit, view_as, CODEC};
///
/// let env = std::collections::HashMap::<String, String>::new();
/// let inv = Invocation::new(br#"{"hook_event_name":"UserPromptSubmit","prompt":"hi"}"#.to_vec(), &env);
/// let ev = CODEC.decode(&inv).unwrap();
/// assert_eq!(view_as::<UserPromptSubmit>(ev.envelope()).and_then(|e| e.prompt.as_deref()), Some("hi"));
/// ```
pub fn view_as<T: FromNative<NativeEvent>>(envelope: &Envelope) -> Option<&T> {
    view(envelope).and_then(T::from_native)
}

// ---------------------------------------------------------------------------------------------
// How a gate is spelled
// ---------------------------------------------------------------------------------------------

/// How an event's gate is spelled on the wire; it follows from the event's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gate {
    /// No decision field.
    None,
    /// `hookSpecificOutput.permissionDecision` + `permissionDecisionReason`.
    PermissionDecision,
    /// `hookSpecificOutput.decision {behavior, updatedInput | message}`.
    PermissionRequest,
    /// Top-level `decision: "block"` + `reason`: rejects the prompt, or continues a stopping
    /// agent with the reason as the next prompt.
    Block,
}

impl Gate {
    fn of(kind: EventKind) -> Self {
        match kind {
            EventKind::ToolPre => Self::PermissionDecision,
            EventKind::Permission => Self::PermissionRequest,
            EventKind::PromptSubmitted | EventKind::Stop | EventKind::SubagentStop => Self::Block,
            _ => Self::None,
        }
    }
}

/// What Qwen honours for a native event: its row's set; an unknown (future) event gets
/// [`native::NOTICE`] (Qwen reads `systemMessage` from every hook's output).
fn caps_of(native: &str) -> CapSet {
    QwenCodec.row(native).map_or(native::NOTICE, |r| r.caps)
}

// ---------------------------------------------------------------------------------------------
// Codec
// ---------------------------------------------------------------------------------------------

impl Codec for QwenCodec {
    agenthooks_core::kit::kit_codec_tables!(provider: PROVIDER, mcp: crate::mcp_config::load);

    fn transcript(&self) -> Option<&'static dyn agenthooks_core::kit::transcript::TranscriptFormat> {
        Some(&crate::transcript::TRANSCRIPT)
    }

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let decoded = NativeEvent::decode(&PROVIDER, inv.payload.json_bytes(), inv.native_event)?;
        let n = &decoded.native;
        let mut env = Envelope::new(PROVIDER, n.name().into(), n.kind(), inv.payload.clone());
        env.variant = inv.variant.cloned().unwrap_or_default();
        // Qwen's own clock, verbatim (a non-string is kept in `extra` by the decoder).
        env.provider_time = n
            .timestamp()
            .map(|t| Value::from(t.as_str()))
            .or_else(|| n.extra().get("timestamp").cloned());
        env.session = session_info(n, inv.env);
        env.agent = agent_info(n);
        let native = decoded.attach(&mut env);
        Ok(build_event(env, native))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let native = event.envelope().native.as_str();
        if let Some(no_op) = kit::expressible_or_no_op(self, event, outcome, caps_of(native))? {
            return Ok(no_op);
        }
        encode_reply(native, Gate::of(event.kind()), outcome).map(|out| out.wire())
    }

    /// `{}` on every event: Qwen's "no decision".
    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::stdout(NO_OP)
    }

    /// Fail-closed where the provided answer cannot be written. An event we cannot name, or
    /// have no row for: exit 2, which Qwen reads as `{"decision": "deny", "reason": stderr}`
    /// (its universal block), except on a known non-gating kind, where a deny would continue a
    /// stopping agent (quirk 905): the no-op. Blocking rows of no gate kind
    /// (`UserPromptExpansion`, `TodoCreated`, `TodoCompleted`) take the top-level
    /// `decision: "block"`. Every other target gets [`kit::failure_response`].
    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        kit::claude_family::failure_response(self, target, mode, reason, |_, text| Output::block(text).wire())
    }

    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        // Qwen exports QWEN_PROJECT_DIR beside the GEMINI_/CLAUDE_ ones (quirk 909).
        env.var("QWEN_PROJECT_DIR")
            .is_some_and(|v| !v.is_empty())
            .then_some(Confidence::Certain)
    }

    fn sniff_payload(&self, payload: &[u8], _env: &dyn Env) -> Option<Confidence> {
        sniff(agenthooks_core::event::strip_bom(payload))
    }

    fn stderr_use(&self) -> StderrUse {
        // Qwen parses stderr as the answer when stdout is empty, and on exit 2.
        StderrUse::Reserved
    }

    /// Qwen's http hooks read a 2xx `application/json` body only (a non-2xx status is a
    /// non-blocking error). Exit 2, the command path's universal block, becomes the event's
    /// JSON block (the fail-closed answer with stderr as the reason).
    fn http_response(&self, native: Option<&str>, response: WireResponse) -> WireResponse {
        kit::claude_family::http_response(self, native, response)
    }
}

// ---------------------------------------------------------------------------------------------
// Decode
// ---------------------------------------------------------------------------------------------

fn tool_call(session: &SessionInfo, name: &str, input: Option<&RawJson>, id: Option<&String>) -> ToolCall {
    ToolCall::builder(name, input.cloned().unwrap_or_default())
        .class(tools::classify(name))
        .with_id(id.cloned().unwrap_or_default())
        .with_mcp(tools::parse_mcp(name))
        .build(session)
}

/// One arm per mapped event: the typed event of a decoded payload.
fn build_event(env: Envelope, native: NativeEvent) -> Event {
    use NativeEvent as N;
    macro_rules! tool_of {
        ($e:expr) => {
            tool_call(
                &env.session,
                &$e.tool_name,
                $e.tool_input.as_ref(),
                $e.tool_use_id.as_ref(),
            )
        };
    }
    match native {
        N::PreToolUse(e) => {
            let t = tool_of!(e);
            Event::ToolPre(ToolPreEvent::new(env, t))
        }
        N::PermissionRequest(e) => {
            // Qwen sends no tool-use id here: the id is synthesized.
            let t = tool_call(&env.session, &e.tool_name, e.tool_input.as_ref(), None);
            Event::Permission(PermissionEvent::new(env, t).with_suggestions(e.permission_suggestions))
        }
        N::PostToolUse(e) => {
            let t = tool_of!(e);
            let output = e.tool_response.unwrap_or_default();
            Event::ToolPost(
                ToolPostEvent::new(env, t)
                    .with_output(output)
                    .with_duration_ms(e.duration_ms),
            )
        }
        N::PostToolUseFailure(e) => {
            let t = tool_of!(e);
            Event::ToolError(
                ToolErrorEvent::new(env, t)
                    .with_error(e.error.unwrap_or_default())
                    .with_interrupted(e.is_interrupt.unwrap_or(false))
                    .with_duration_ms(e.duration_ms),
            )
        }
        N::UserPromptSubmit(e) => Event::PromptSubmitted(PromptEvent::new(env, e.prompt.unwrap_or_default())),
        N::SessionStart(e) => Event::SessionStart(SessionStartEvent::new(env).with_source(e.source)),
        N::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::new(env).with_reason(e.reason)),
        N::Stop(e) => Event::Stop(
            StopEvent::new(env)
                .with_previously_continued(e.stop_hook_active.unwrap_or_default())
                .with_last_message(e.last_assistant_message),
        ),
        N::SubagentStop(e) => Event::SubagentStop(
            StopEvent::new(env)
                .with_previously_continued(e.stop_hook_active.unwrap_or_default())
                .with_last_message(e.last_assistant_message),
        ),
        N::SubagentStart(_) => Event::SubagentStart(SubagentStartEvent::new(env)),
        N::PreCompact(e) => Event::CompactPre(
            CompactPreEvent::new(env)
                .with_trigger(e.trigger)
                .with_instructions(e.custom_instructions),
        ),
        N::PostCompact(e) => Event::CompactPost(
            CompactPostEvent::new(env)
                .with_trigger(e.trigger)
                .with_summary(e.compact_summary),
        ),
        N::Notification(e) => Event::Notification(
            NotificationEvent::new(env, e.message.unwrap_or_default())
                .with_title(e.title)
                .with_notification_type(e.notification_type),
        ),
        // ⚠ The text displayed so far, not a model response.
        N::MessageDisplay(e) => {
            let response = serde_json::to_value(&e).unwrap_or(Value::Null);
            Event::ModelResponse(
                ModelResponseEvent::new(env)
                    .with_text(e.displayed_text)
                    .with_response(response),
            )
        }
        // Unmapped events (kind `other`), and payloads that could not be typed at all.
        _ => Event::bare(env),
    }
}

/// Session facts: `prompt_id` is the turn id; the model comes from `SessionStart`; the
/// workspace root is `QWEN_PROJECT_DIR` (the payload's `cwd` otherwise).
fn session_info(native: &NativeEvent, env: &dyn Env) -> SessionInfo {
    let model = match native {
        NativeEvent::SessionStart(e) => e.model.as_ref(),
        _ => None,
    };
    let fields = kit::claude_family::session_fields!(native, model);
    kit::claude_family::session_info(fields, "QWEN_PROJECT_DIR", env)
}

/// Subagent context: when the payload names a subagent (`agent_id`); the type is the
/// subagent events' `agent_type`.
fn agent_info(native: &NativeEvent) -> Option<AgentInfo> {
    let id = native.agent_id()?;
    let agent_type = match native {
        NativeEvent::SubagentStart(e) => e.agent_type.clone(),
        NativeEvent::SubagentStop(e) => e.agent_type.clone(),
        _ => None,
    };
    Some(AgentInfo::new(id, agent_type.unwrap_or_default()))
}

/// Keys that say which dialect a payload is.
#[derive(Deserialize)]
struct SniffProbe {
    hook_event_name: Option<String>,
    session_id: Option<Value>,
    timestamp: Option<serde::de::IgnoredAny>,
    permission_mode: Option<serde::de::IgnoredAny>,
    conversation_id: Option<serde::de::IgnoredAny>,
    client_type: Option<serde::de::IgnoredAny>,
    turn_id: Option<serde::de::IgnoredAny>,
    #[serde(rename = "sessionId")]
    session_id_camel: Option<serde::de::IgnoredAny>,
}

/// Event names Gemini CLI sends as well (with its own `timestamp`): without `permission_mode`
/// such a payload is only `Inferred`.
const SHARED_WITH_GEMINI: &[&str] = &["SessionStart", "SessionEnd", "Notification"];

/// Payload-shape detection: a Claude event name with Qwen's `timestamp` (Claude sends none) and
/// no marker of another dialect; `Certain` unless the name is one Gemini sends too and the
/// payload lacks `permission_mode` (which Gemini never sends).
fn sniff(payload: &[u8]) -> Option<Confidence> {
    let p: SniffProbe = serde_json::from_slice(payload).ok()?;
    let name = p.hook_event_name?;
    QwenCodec.row(&name)?;
    let foreign =
        p.conversation_id.is_some() || p.client_type.is_some() || p.turn_id.is_some() || p.session_id_camel.is_some();
    if foreign || p.timestamp.is_none() || !p.session_id.as_ref().is_some_and(Value::is_string) {
        return None;
    }
    Some(
        if p.permission_mode.is_some() || !SHARED_WITH_GEMINI.contains(&name.as_str()) {
            Confidence::Certain
        } else {
            Confidence::Inferred
        },
    )
}

// ---------------------------------------------------------------------------------------------
// Encode
// ---------------------------------------------------------------------------------------------

fn inexpressible(native: &str, what: &str) -> EncodeError {
    EncodeError::inexpressible(PROVIDER, native, what)
}

/// Translates an outcome into Qwen's fields for one event, or says what cannot be expressed.
fn encode_reply(native: &str, gate: Gate, outcome: &Outcome) -> Result<Output, EncodeError> {
    let mut r = Output {
        hook_specific_output: HookSpecificOutput::named(native),
        ..Output::default()
    };
    let reason = outcome.reason().unwrap_or_default();
    let hso = &mut r.hook_specific_output;

    // 1. The intent.
    match (outcome.kind(), gate) {
        (DecisionKind::NoDecision, _) => {}
        (DecisionKind::Deny, Gate::PermissionDecision) => {
            hso.permission_decision = Some("deny");
            hso.permission_decision_reason = Some(reason.to_owned());
        }
        (DecisionKind::Ask, Gate::PermissionDecision) => {
            hso.permission_decision = Some("ask");
            hso.permission_decision_reason = Some(reason.to_owned()).filter(|s| !s.is_empty());
        }
        (DecisionKind::Allow, Gate::PermissionRequest) => {
            let mut d = PermissionRequestDecision::new("allow");
            d.updated_input = outcome.updated_input().cloned();
            hso.decision = Some(d);
        }
        (DecisionKind::Deny, Gate::PermissionRequest) => {
            let mut d = PermissionRequestDecision::new("deny");
            d.message = Some(reason.to_owned());
            hso.decision = Some(d);
        }
        (DecisionKind::BlockPrompt, Gate::Block) => {
            (r.decision, r.reason) = (Some("block"), Some(reason.to_owned()));
        }
        (DecisionKind::Continue, Gate::Block) => {
            (r.decision, r.reason) = (Some("block"), Some(outcome.instruction().unwrap_or(reason).to_owned()));
        }
        (kind, _) => return Err(inexpressible(native, &format!("a {kind} decision"))),
    }

    // 2. A rewritten input: only with a PermissionRequest allow (written above).
    if outcome.updated_input().is_some() && !(gate == Gate::PermissionRequest && outcome.kind() == DecisionKind::Allow)
    {
        return Err(inexpressible(
            native,
            &format!("a rewritten input with a {} decision", outcome.kind()),
        ));
    }

    // 3. Context for the model, messages for the user (the system message, then an explicit
    //    block message when it differs from the reason), and a stop of the whole agent.
    r.write_notes(PROVIDER, native, caps_of(native), outcome)?;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::Capability as C;

    #[test]
    fn rows_are_consistent_with_their_kind() {
        for row in native::EVENTS {
            if !row.blocking {
                assert!(row.caps.is_empty() || row.caps == native::NOTICE, "{}", row.name);
                assert!(row.may_async, "{}", row.name);
            }
            let needs = match Gate::of(row.kind) {
                Gate::PermissionDecision | Gate::PermissionRequest => Some(C::Deny),
                Gate::Block if row.kind == EventKind::PromptSubmitted => Some(C::Deny),
                Gate::Block => Some(C::ContinueAgent),
                Gate::None => None,
            };
            if let Some(c) = needs {
                assert!(row.caps.contains(c), "{} cannot express its gate", row.name);
            }
        }
    }

    #[test]
    fn sniffing_tells_qwen_from_its_siblings() {
        let base = r#""session_id":"s","transcript_path":"/t","cwd":"/w","timestamp":"x""#;
        let pre = format!(r#"{{{base},"hook_event_name":"PreToolUse","tool_name":"x"}}"#);
        assert_eq!(sniff(pre.as_bytes()), Some(Confidence::Certain));
        let shared = format!(r#"{{{base},"hook_event_name":"SessionStart"}}"#);
        assert_eq!(sniff(shared.as_bytes()), Some(Confidence::Inferred));
        let moded = format!(r#"{{{base},"permission_mode":"yolo","hook_event_name":"SessionStart"}}"#);
        assert_eq!(sniff(moded.as_bytes()), Some(Confidence::Certain));
        let claude = r#"{"session_id":"s","transcript_path":"/t","hook_event_name":"PreToolUse"}"#;
        assert_eq!(sniff(claude.as_bytes()), None);
        let gemini = format!(r#"{{{base},"hook_event_name":"BeforeTool"}}"#);
        assert_eq!(sniff(gemini.as_bytes()), None);
        assert_eq!(sniff(b"nope"), None);
    }

    #[test]
    fn http_answers_carry_exit_2_as_json() {
        let c = QwenCodec::new();
        let pre = c.http_response(Some("PreToolUse"), WireResponse::exit(2, b"no rm".to_vec()));
        assert_eq!(pre.exit_code, 0);
        let v: Value = serde_json::from_slice(&pre.stdout).unwrap();
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
        let future = c.http_response(Some("Future"), WireResponse::exit(2, b"x".to_vec()));
        assert_eq!(future.stdout_str(), r#"{"decision":"block","reason":"x"}"#);
        let ok = WireResponse::stdout(b"{}".to_vec());
        assert_eq!(c.http_response(Some("PreToolUse"), ok.clone()), ok);
    }
}
