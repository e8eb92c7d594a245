//! [`KimiCodec`]: the Kimi Code dialect as an [`agenthooks_core::Codec`].

use std::time::Duration;

use agenthooks_core::{
    CapSet, Capability, Codec, CompactPostEvent, CompactPreEvent, Confidence, DecisionKind, DecodeCategory,
    DecodeError, EncodeCategory, EncodeError, Env, Envelope, Event, EventKind, EventRow, EventTarget, FailMode,
    Invocation, NotificationEvent, OtherEvent, Outcome, PermissionEvent, PromptEvent, Provider, Quirk, SessionEndEvent,
    SessionStartEvent, StderrUse, StopEvent, SubagentStartEvent, ToolErrorEvent, ToolPostEvent, ToolPreEvent, Variant,
    WireResponse,
};
use serde_json::{Map, Value};

use crate::native::{self, NativeError, NativeEvent};
use crate::tools::tool_call;

/// How [`KimiCodec`] blocks on the three gating events. Both are honoured by Kimi Code 2.x
/// (verified on the real 2.1.0 CLI).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum BlockStyle {
    /// Exit 0 with `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":…}}`
    /// on stdout. stderr stays free for logs.
    #[default]
    Json,
    /// Exit 2 with the reason on stderr (Kimi trims it). stderr is then reserved: logs go to a
    /// file.
    ExitCode,
}

/// The Kimi Code codec. See the crate docs for the dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KimiCodec {
    style: BlockStyle,
}

/// Hook timeout Kimi applies when the config gives none (`timeout` defaults to 30 s).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

const GATE_TOOL: CapSet = CapSet::of(&[Capability::Deny]);
const GATE_PROMPT: CapSet = CapSet::of(&[Capability::Deny, Capability::AddContext]);
const GATE_STOP: CapSet = CapSet::of(&[Capability::ContinueAgent]);

impl KimiCodec {
    /// The codec with JSON blocks ([`BlockStyle::Json`]).
    pub const fn new() -> Self {
        Self {
            style: BlockStyle::Json,
        }
    }

    /// The same codec blocking with another [`BlockStyle`].
    #[must_use]
    pub const fn with_block_style(mut self, style: BlockStyle) -> Self {
        self.style = style;
        self
    }

    /// The block style in use.
    pub const fn block_style(&self) -> BlockStyle {
        self.style
    }

    /// What Kimi honours on a native event (independent of the variant: Kimi has none).
    pub const fn capabilities_of(native: &str) -> CapSet {
        match native.as_bytes() {
            b"PreToolUse" => GATE_TOOL,
            b"UserPromptSubmit" => GATE_PROMPT,
            b"Stop" => GATE_STOP,
            _ => CapSet::EMPTY,
        }
    }

    /// The block response: JSON deny (exit 0) or exit 2 with the reason on stderr.
    /// `message` is the optional top-level `message` (what Kimi records for a blocked prompt).
    fn block(self, reason: &str, message: Option<&str>) -> WireResponse {
        match self.style {
            BlockStyle::ExitCode => WireResponse::exit(2, reason.as_bytes().to_vec()),
            BlockStyle::Json => {
                let mut hso = Map::new();
                hso.insert("permissionDecision".into(), "deny".into());
                hso.insert("permissionDecisionReason".into(), reason.into());
                let mut top = Map::new();
                top.insert("hookSpecificOutput".into(), Value::Object(hso));
                if let Some(m) = message {
                    top.insert("message".into(), m.into());
                }
                WireResponse::json(&Value::Object(top))
            }
        }
    }
}

/// The codec the facade registers (JSON blocks).
pub static CODEC: KimiCodec = KimiCodec::new();

/// The native typed payload behind a Kimi event (every field Kimi sent, unknown keys in `extra`).
pub fn view(envelope: &Envelope) -> Option<&NativeEvent> {
    envelope.native_view::<NativeEvent>()
}

fn provider() -> Provider {
    Provider::KIMI
}

fn decode_error(e: NativeError) -> DecodeError {
    match e {
        NativeError::Syntax { source } => DecodeError::from_json(provider(), &source),
        NativeError::NotAnObject => DecodeError::new(provider(), DecodeCategory::Data, "payload is not a JSON object"),
        NativeError::MissingEventName => DecodeError::new(
            provider(),
            DecodeCategory::UnknownEvent,
            "payload has no `hook_event_name` and no --event was given",
        ),
        NativeError::Shape { event, path, source } => DecodeError::new(
            provider(),
            DecodeCategory::of_json(&source),
            format!("{event}: {source}"),
        )
        .with_path(path),
    }
}

fn unsupported(what: &str, native: &str) -> EncodeError {
    EncodeError::new(
        provider(),
        EncodeCategory::WrongFamily,
        format!("{what} is not supported by Kimi Code on {native} (degrade the outcome first)"),
    )
}

/// The capability each part of an outcome needs, to check it against the event's set.
fn required(outcome: &Outcome) -> Vec<(Capability, &'static str)> {
    let mut need = Vec::new();
    match outcome.kind() {
        DecisionKind::Deny | DecisionKind::BlockPrompt => need.push((Capability::Deny, "blocking")),
        DecisionKind::Ask => need.push((Capability::Ask, "ask")),
        DecisionKind::Allow => need.push((Capability::Allow, "allow")),
        DecisionKind::Continue => need.push((Capability::ContinueAgent, "continuing the agent")),
        DecisionKind::FlagOutput => need.push((Capability::FlagOutput, "flagging output")),
        DecisionKind::ReplaceOutput => {
            need.push((Capability::ReplaceOutput, "replacing output"));
        }
        _ => {}
    }
    if outcome.updated_input().is_some() {
        need.push((Capability::UpdateInput, "rewriting tool input"));
    }
    if !outcome.context().is_empty() {
        need.push((Capability::AddContext, "context"));
    }
    if outcome.system_message().is_some() {
        need.push((Capability::SystemMessage, "a system message"));
    }
    if outcome.stop_reason().is_some() {
        need.push((Capability::StopAgent, "stopping the agent"));
    }
    need
}

/// Events only Kimi Code sends (used by payload sniffing).
const KIMI_ONLY: [&str; 6] = [
    "PermissionResult",
    "UserPromptQueued",
    "TurnStarted",
    "Interrupt",
    "SessionHeartbeat",
    "TaskStarted",
];

impl Codec for KimiCodec {
    fn provider(&self) -> Provider {
        provider()
    }

    fn native_events(&self) -> &'static [EventRow] {
        native::EVENTS
    }

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let bytes = inv.payload.json_bytes();
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let value: Value =
            serde_path_to_error::deserialize(&mut de).map_err(|e| DecodeError::from_path_error(provider(), e))?;
        de.end().map_err(|e| DecodeError::from_json(provider(), &e))?;
        let Value::Object(mut map) = value else {
            return Err(decode_error(NativeError::NotAnObject));
        };
        // Kimi always names the event; fall back to the config's --event for robustness.
        if !map.contains_key("hook_event_name") {
            if let Some(hint) = inv.native_event {
                map.insert("hook_event_name".into(), hint.into());
            }
        }
        let native = NativeEvent::from_map(map).map_err(decode_error)?;
        Ok(build_event(native, inv))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let env = event.envelope();
        let native = env.native.as_str();
        let caps = Self::capabilities_of(native);
        if let Some((_, what)) = required(outcome).into_iter().find(|(c, _)| !caps.contains(*c)) {
            return Err(unsupported(what, native));
        }
        match (native, outcome.kind()) {
            ("PreToolUse", DecisionKind::Deny) => Ok(self.block(outcome.reason().unwrap_or_default(), None)),
            ("UserPromptSubmit", DecisionKind::BlockPrompt) => {
                // ⚠ Context cannot ride on a blocked prompt: the model is not called this turn.
                if !outcome.context().is_empty() {
                    tracing::info!("context on a blocked Kimi prompt is not delivered");
                }
                let reason = outcome.reason().unwrap_or_default();
                // A distinct user-facing block message becomes Kimi's `message`, which is what it
                // records for the blocked prompt (JSON only; exit 2 has one text).
                let message = outcome.block_message().filter(|m| *m != reason);
                Ok(self.block(reason, message))
            }
            ("UserPromptSubmit", DecisionKind::NoDecision) if !outcome.context().is_empty() => {
                let mut top = Map::new();
                top.insert("message".into(), outcome.context().join("\n").into());
                Ok(WireResponse::json(&Value::Object(top)))
            }
            ("Stop", DecisionKind::Continue) => Ok(self.block(outcome.instruction().unwrap_or_default(), None)),
            (_, DecisionKind::NoDecision) => Ok(WireResponse::empty()),
            (_, kind) => Err(EncodeError::new(
                provider(),
                EncodeCategory::WrongFamily,
                format!("a {kind} decision does not fit {native}"),
            )),
        }
    }

    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::empty()
    }

    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        if mode != FailMode::Closed {
            return WireResponse::empty();
        }
        let native = target.native.as_ref().map(agenthooks_core::NativeName::as_str);
        let blocks = match native {
            Some(n) => matches!(n, "PreToolUse" | "UserPromptSubmit"),
            None => matches!(target.kind, Some(EventKind::ToolPre | EventKind::PromptSubmitted)),
        };
        if blocks {
            let text = if reason.trim().is_empty() {
                "Blocked: the hook failed.".to_owned()
            } else {
                format!("Blocked: the hook failed ({reason}).")
            };
            self.block(&text, None)
        } else {
            // Stop "blocked" would keep the agent going; fire-and-forget events cannot block.
            WireResponse::empty()
        }
    }

    fn capabilities(&self, _variant: &Variant, native: &str) -> CapSet {
        Self::capabilities_of(native)
    }

    fn default_timeout(&self) -> Duration {
        DEFAULT_TIMEOUT
    }

    fn quirks(&self) -> &'static [Quirk] {
        crate::quirks::QUIRKS
    }

    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        // Kimi exports no variable to ordinary hooks; plugin hooks get KIMI_PLUGIN_ROOT.
        env.var("KIMI_PLUGIN_ROOT").map(|_| Confidence::Inferred)
    }

    fn sniff_payload(&self, payload: &[u8], _env: &dyn Env) -> Option<Confidence> {
        #[derive(serde::Deserialize)]
        struct Probe {
            hook_event_name: Option<String>,
            client_type: Option<Value>,
            tool_call_id: Option<Value>,
            tool_use_id: Option<Value>,
        }
        let p: Probe = serde_json::from_slice(agenthooks_core::event::strip_bom(payload)).ok()?;
        let name = p.hook_event_name?;
        // `client_type` is sent by Kimi Code 2.x only.
        if p.client_type.is_some_and(|c| c.is_string()) {
            return Some(Confidence::Certain);
        }
        if KIMI_ONLY.contains(&name.as_str()) || (p.tool_call_id.is_some() && p.tool_use_id.is_none()) {
            return Some(Confidence::Inferred);
        }
        None
    }

    fn stderr_use(&self) -> StderrUse {
        match self.style {
            // Kimi reads stderr only on exit 2, which JSON blocks never use.
            BlockStyle::Json => StderrUse::Logs,
            BlockStyle::ExitCode => StderrUse::Reserved,
        }
    }
}

fn build_event(native: NativeEvent, inv: &Invocation<'_>) -> Event {
    let name = native.name().to_owned();
    let kind = native.kind();
    let mut env = Envelope::new(provider(), name.as_str().into(), kind, inv.payload.clone());
    if let Some(v) = inv.variant {
        env.variant = v.clone();
    }
    let session_id = native.session_id().to_owned();
    env.session.id.clone_from(&session_id);
    native.cwd().clone_into(&mut env.session.cwd);
    if !env.session.cwd.is_empty() {
        env.session.workspace_roots = vec![env.session.cwd.clone()];
    }
    let turn = match &native {
        NativeEvent::PermissionRequest(e) => Some(e.turn_id),
        NativeEvent::PermissionResult(e) => Some(e.turn_id),
        NativeEvent::TurnStarted(e) => Some(e.turn_id),
        NativeEvent::Interrupt(e) => Some(e.turn_id),
        _ => None,
    };
    if let Some(t) = turn {
        env.session.turn_id = t.to_string();
    }
    let agent_id = match &native {
        NativeEvent::PermissionRequest(e) => Some(e.agent_id.as_str()),
        NativeEvent::PermissionResult(e) => Some(e.agent_id.as_str()),
        NativeEvent::Notification(e) => e.agent_id.as_deref(),
        _ => None,
    };
    if let Some(id) = agent_id.filter(|id| !id.is_empty() && *id != "main") {
        env.agent = Some(agenthooks_core::AgentInfo::new(id, ""));
    }
    match &native {
        NativeEvent::SubagentStart(e) => {
            env.agent = Some(agenthooks_core::AgentInfo::new("", e.agent_name.as_str()));
        }
        NativeEvent::SubagentStop(e) => {
            env.agent = Some(agenthooks_core::AgentInfo::new("", e.agent_name.as_str()));
        }
        NativeEvent::SessionStart(e) => {
            if let Some(m) = &e.model {
                env.session.model.clone_from(m);
            }
        }
        _ => {}
    }
    let turn = env.session.turn_id.clone();
    let event = match &native {
        NativeEvent::PreToolUse(e) => Event::ToolPre(ToolPreEvent::new(
            env,
            tool_call(&e.tool_name, e.tool_input.clone(), &e.tool_call_id, &session_id, &turn),
        )),
        NativeEvent::PostToolUse(e) => Event::ToolPost(ToolPostEvent::from_parts(
            env,
            tool_call(&e.tool_name, e.tool_input.clone(), &e.tool_call_id, &session_id, &turn),
            Value::String(e.tool_output.clone()),
            None,
        )),
        NativeEvent::PostToolUseFailure(e) => Event::ToolError(ToolErrorEvent::from_parts(
            env,
            tool_call(&e.tool_name, e.tool_input.clone(), &e.tool_call_id, &session_id, &turn),
            e.error.message().to_owned(),
            false,
            None,
        )),
        NativeEvent::PermissionRequest(e) => Event::Permission(PermissionEvent::from_parts(
            env,
            tool_call(
                &e.tool_name,
                e.tool_input.clone().unwrap_or(Value::Null),
                &e.tool_call_id,
                &session_id,
                &turn,
            ),
            None,
        )),
        NativeEvent::UserPromptSubmit(e) => Event::PromptSubmitted(PromptEvent::new(env, e.prompt.text().into_owned())),
        NativeEvent::Stop(e) => Event::Stop(StopEvent::from_parts(env, e.stop_hook_active, None, None)),
        NativeEvent::SubagentStop(e) => {
            Event::SubagentStop(StopEvent::from_parts(env, false, None, Some(e.response.clone())))
        }
        NativeEvent::SubagentStart(_) => Event::SubagentStart(SubagentStartEvent::new(env)),
        NativeEvent::SessionStart(e) => Event::SessionStart(SessionStartEvent::from_parts(env, Some(e.source.clone()))),
        NativeEvent::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::from_parts(env, Some(e.reason.clone()))),
        NativeEvent::PreCompact(e) => {
            Event::CompactPre(CompactPreEvent::from_parts(env, Some(e.trigger.clone()), None))
        }
        NativeEvent::PostCompact(e) => {
            Event::CompactPost(CompactPostEvent::from_parts(env, Some(e.trigger.clone()), None))
        }
        NativeEvent::Notification(e) => Event::Notification(NotificationEvent::from_parts(
            env,
            e.body.clone(),
            Some(e.title.clone()),
            Some(e.notification_type.clone()),
        )),
        _ => Event::Other(OtherEvent::new(env)),
    };
    let mut event = event;
    event.envelope_mut().set_native_view(native);
    event
}
