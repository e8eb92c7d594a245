//! [`CodexCodec`]: `impl agenthooks_core::Codec` for Codex's hook dialect.
//!
//! See the crate docs for the dialect; this module holds the mechanics.

use std::time::Duration;

use agenthooks_core::decision::DEFAULT_BLOCK_REASON;
use agenthooks_core::provider::NativeName;
use agenthooks_core::{
    AgentInfo, CanonicalTool, CapSet, Capability, Codec, CompactPostEvent, CompactPreEvent, Confidence, DecisionKind,
    DecodeCategory, DecodeError, EncodeCategory, EncodeError, Env, Envelope, Event, EventKind, EventRow, EventTarget,
    FailMode, Invocation, NotificationEvent, OtherEvent, Outcome, PermissionEvent, PromptEvent, Provider, Quirk,
    SessionEndEvent, SessionInfo, SessionStartEvent, StderrUse, StopEvent, SubagentStartEvent, ToolCall,
    ToolErrorEvent, ToolPostEvent, ToolPreEvent, Transport, Variant, WireResponse,
};
use serde::Serialize;
use serde_json::{json, Value};

use crate::native::{self, NativeError, NativeEvent};
use crate::output::{
    BlockDecision, ContextHookSpecificOutput, InterruptOutput, PermissionBehavior, PermissionDecision,
    PermissionRequestDecision, PermissionRequestHookSpecificOutput, PermissionRequestOutput, PostCompactOutput,
    PostToolUseHookSpecificOutput, PostToolUseOutput, PreCompactOutput, PreToolUseHookSpecificOutput, PreToolUseOutput,
    SessionStartOutput, StopOutput, SubagentStartOutput, SubagentStopOutput, UserPromptSubmitOutput,
};
use crate::{quirks, tools};

/// Codex's default hook timeout (`timeout` in seconds, default 600).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// The legacy `notify` payload's native name (its `type`).
pub const NOTIFY_EVENT: &str = "agent-turn-complete";

/// The native events Codex fires, with their unified kinds. `PostToolUse` decodes as
/// `tool.error` when the payload shows a failure (see [`tools::failure`]).
pub static NATIVE_EVENTS: &[EventRow] = &[
    EventRow::new("SessionStart", EventKind::SessionStart, true, false),
    EventRow::new("SessionEnd", EventKind::SessionEnd, false, false),
    EventRow::new("UserPromptSubmit", EventKind::PromptSubmitted, true, false),
    EventRow::new("PreToolUse", EventKind::ToolPre, true, true),
    EventRow::new("PermissionRequest", EventKind::Permission, true, true),
    EventRow::new("PostToolUse", EventKind::ToolPost, true, true),
    EventRow::new("PreCompact", EventKind::CompactPre, true, false),
    EventRow::new("PostCompact", EventKind::CompactPost, true, false),
    EventRow::new("SubagentStart", EventKind::SubagentStart, true, false),
    EventRow::new("SubagentStop", EventKind::SubagentStop, true, false),
    EventRow::new("Stop", EventKind::Stop, true, false),
    EventRow::new("Interrupt", EventKind::Other, true, false),
    EventRow::new("StopFailure", EventKind::Other, false, false),
    EventRow::new(NOTIFY_EVENT, EventKind::Notification, false, false),
];

use Capability as C;

const PRE_TOOL_USE: CapSet = CapSet::of(&[
    C::Deny,
    C::UpdateInput,
    C::NeutralRewrite,
    C::AddContext,
    C::SystemMessage,
]);
// Fired just before Codex's approval prompt: abstaining lets the user decide (an ask is answered
// no decision).
const PERMISSION_REQUEST: CapSet = CapSet::of(&[C::Allow, C::Deny, C::SystemMessage, C::PermissionDialog]);
// Not `ReplaceOutput`: 0.171.0 replaces only MCP tool output (quirk #209), and capabilities are
// per event, not per tool; the core degrades a replacement to feedback.
const POST_TOOL_USE: CapSet = CapSet::of(&[C::FlagOutput, C::AddContext, C::StopAgent, C::SystemMessage]);
const USER_PROMPT_SUBMIT: CapSet = CapSet::of(&[C::Deny, C::AddContext, C::StopAgent, C::SystemMessage]);
const STOP: CapSet = CapSet::of(&[C::ContinueAgent, C::StopAgent, C::SystemMessage]);
const START: CapSet = CapSet::of(&[C::AddContext, C::StopAgent, C::SystemMessage]);
const COMPACT: CapSet = CapSet::of(&[C::StopAgent, C::SystemMessage]);
const INTERRUPT: CapSet = CapSet::of(&[C::SystemMessage]);

/// What Codex 0.171.0 honours for a native event (the variant does not matter for Codex).
///
/// ```
/// use agenthooks_codex::codec::capabilities_for;
/// use agenthooks_core::Capability;
/// let pre = capabilities_for("PreToolUse");
/// assert!(pre.contains(Capability::Deny) && pre.contains(Capability::UpdateInput));
/// assert!(!pre.contains(Capability::Ask) && !pre.contains(Capability::Allow));
/// assert!(capabilities_for("SessionEnd").is_empty());
/// ```
pub fn capabilities_for(native: &str) -> CapSet {
    match native {
        "PreToolUse" => PRE_TOOL_USE,
        "PermissionRequest" => PERMISSION_REQUEST,
        "PostToolUse" => POST_TOOL_USE,
        "UserPromptSubmit" => USER_PROMPT_SUBMIT,
        "Stop" | "SubagentStop" => STOP,
        "SessionStart" | "SubagentStart" => START,
        "PreCompact" | "PostCompact" => COMPACT,
        "Interrupt" => INTERRUPT,
        _ => CapSet::EMPTY,
    }
}

/// The `OpenAI` Codex CLI codec. Use the shared [`crate::CODEC`].
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct CodexCodec;

impl CodexCodec {
    /// The codec.
    pub const fn new() -> Self {
        Self
    }
}

fn decode_error(err: NativeError) -> DecodeError {
    let provider = Provider::CODEX;
    match err {
        NativeError::Syntax(e) => DecodeError::from_json(provider, &e),
        NativeError::NotAnObject => DecodeError::new(provider, DecodeCategory::Data, "payload is not a JSON object"),
        NativeError::MissingEventName => DecodeError::new(
            provider,
            DecodeCategory::UnknownEvent,
            "payload has no string `hook_event_name`",
        )
        .with_path("hook_event_name"),
        NativeError::Invalid { path, source, .. } => DecodeError::from_json(provider, &source).with_path(path),
    }
}

/// Session facts every Codex payload shares.
struct Facts<'a> {
    session_id: &'a str,
    turn_id: Option<&'a str>,
    transcript_path: Option<&'a str>,
    cwd: &'a str,
    model: Option<&'a str>,
    permission_mode: Option<&'a str>,
    agent: Option<(&'a str, &'a str)>,
}

impl<'a> Facts<'a> {
    fn of(event: &'a NativeEvent) -> Option<Self> {
        fn agent<'b>(id: Option<&'b String>, ty: Option<&'b String>) -> Option<(&'b str, &'b str)> {
            match (id, ty) {
                (None, None) => None,
                (id, ty) => Some((id.map_or("", String::as_str), ty.map_or("", String::as_str))),
            }
        }
        let f = |session_id: &'a String, turn: Option<&'a String>, tp: &'a Option<String>, cwd: &'a String| Self {
            session_id,
            turn_id: turn.map(String::as_str),
            transcript_path: tp.as_deref(),
            cwd,
            model: None,
            permission_mode: None,
            agent: None,
        };
        Some(match event {
            NativeEvent::SessionStart(e) => Self {
                model: Some(&e.model),
                permission_mode: Some(e.permission_mode.as_str()),
                ..f(&e.session_id, None, &e.transcript_path, &e.cwd)
            },
            NativeEvent::SessionEnd(e) => f(&e.session_id, None, &e.transcript_path, &e.cwd),
            NativeEvent::UserPromptSubmit(e) => Self {
                model: Some(&e.model),
                permission_mode: Some(e.permission_mode.as_str()),
                agent: agent(e.agent_id.as_ref(), e.agent_type.as_ref()),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::PreToolUse(e) => Self {
                model: Some(&e.model),
                permission_mode: Some(e.permission_mode.as_str()),
                agent: agent(e.agent_id.as_ref(), e.agent_type.as_ref()),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::PermissionRequest(e) => Self {
                model: Some(&e.model),
                permission_mode: Some(e.permission_mode.as_str()),
                agent: agent(e.agent_id.as_ref(), e.agent_type.as_ref()),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::PostToolUse(e) => Self {
                model: Some(&e.model),
                permission_mode: Some(e.permission_mode.as_str()),
                agent: agent(e.agent_id.as_ref(), e.agent_type.as_ref()),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::PreCompact(e) => Self {
                model: Some(&e.model),
                agent: agent(e.agent_id.as_ref(), e.agent_type.as_ref()),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::PostCompact(e) => Self {
                model: Some(&e.model),
                agent: agent(e.agent_id.as_ref(), e.agent_type.as_ref()),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::SubagentStart(e) => Self {
                model: Some(&e.model),
                permission_mode: Some(e.permission_mode.as_str()),
                agent: Some((&e.agent_id, &e.agent_type)),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::SubagentStop(e) => Self {
                model: Some(&e.model),
                permission_mode: Some(e.permission_mode.as_str()),
                agent: Some((&e.agent_id, &e.agent_type)),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::Stop(e) => Self {
                model: Some(&e.model),
                permission_mode: Some(e.permission_mode.as_str()),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::Interrupt(e) => Self {
                model: Some(&e.model),
                permission_mode: Some(e.permission_mode.as_str()),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::StopFailure(e) => Self {
                model: Some(&e.model),
                permission_mode: Some(e.permission_mode.as_str()),
                ..f(&e.session_id, Some(&e.turn_id), &e.transcript_path, &e.cwd)
            },
            NativeEvent::LegacyNotify(n) => Self {
                session_id: n.thread_id.as_deref().unwrap_or_default(),
                turn_id: n.turn_id.as_deref(),
                transcript_path: None,
                cwd: n.cwd.as_deref().unwrap_or_default(),
                model: None,
                permission_mode: None,
                agent: None,
            },
            NativeEvent::Other(_) => return None,
        })
    }

    fn session(&self) -> SessionInfo {
        let mut s = SessionInfo::default();
        self.session_id.clone_into(&mut s.id);
        self.turn_id.unwrap_or_default().clone_into(&mut s.turn_id);
        self.cwd.clone_into(&mut s.cwd);
        if !self.cwd.is_empty() {
            s.workspace_roots = vec![self.cwd.to_owned()];
        }
        self.transcript_path
            .unwrap_or_default()
            .clone_into(&mut s.transcript_path);
        self.model.unwrap_or_default().clone_into(&mut s.model);
        self.permission_mode
            .unwrap_or_default()
            .clone_into(&mut s.permission_mode);
        s
    }
}

/// Best-effort session facts of an unknown event (the keys every Codex payload uses).
fn other_session(map: &serde_json::Map<String, Value>) -> (SessionInfo, Option<AgentInfo>) {
    let text = |k: &str| map.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut s = SessionInfo::default();
    s.id = text("session_id");
    s.turn_id = text("turn_id");
    s.cwd = text("cwd");
    if !s.cwd.is_empty() {
        s.workspace_roots = vec![s.cwd.clone()];
    }
    s.transcript_path = text("transcript_path");
    s.model = text("model");
    s.permission_mode = text("permission_mode");
    let agent = map
        .get("agent_id")
        .and_then(Value::as_str)
        .map(|id| AgentInfo::new(id, text("agent_type")));
    (s, agent)
}

fn tool_call(name: &str, input: &Value, id: Option<&str>, session: &SessionInfo) -> ToolCall {
    let call = ToolCall::from_parts(
        name,
        tools::canonical(name),
        input.clone(),
        id.map(str::to_owned),
        &session.id,
        &session.turn_id,
    );
    match tools::mcp_call(name) {
        Some(mcp) => call.with_mcp(mcp),
        None => call,
    }
}

fn build_event(native: NativeEvent, inv: &Invocation<'_>) -> Event {
    let (session, agent) = match &native {
        NativeEvent::Other(map) => other_session(map),
        known => match Facts::of(known) {
            Some(facts) => (facts.session(), facts.agent.map(|(id, ty)| AgentInfo::new(id, ty))),
            None => (SessionInfo::default(), None),
        },
    };
    let name = native.hook_event_name().to_owned();
    let envelope = |kind: EventKind| {
        let mut env = Envelope::new(
            Provider::CODEX,
            NativeName::new(name.clone()),
            kind,
            inv.payload.clone(),
        );
        if let Some(variant) = inv.variant {
            env.variant = variant.clone();
        }
        env.session = session.clone();
        env.agent.clone_from(&agent);
        env
    };
    let mut event = match &native {
        NativeEvent::SessionStart(e) => Event::SessionStart(SessionStartEvent::from_parts(
            envelope(EventKind::SessionStart),
            Some(e.source.as_str().to_owned()),
        )),
        NativeEvent::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::from_parts(
            envelope(EventKind::SessionEnd),
            Some(e.reason.as_str().to_owned()),
        )),
        NativeEvent::UserPromptSubmit(e) => {
            Event::PromptSubmitted(PromptEvent::new(envelope(EventKind::PromptSubmitted), e.prompt.clone()))
        }
        NativeEvent::PreToolUse(e) => Event::ToolPre(ToolPreEvent::new(
            envelope(EventKind::ToolPre),
            tool_call(&e.tool_name, &e.tool_input, Some(&e.tool_use_id), &session),
        )),
        NativeEvent::PermissionRequest(e) => Event::Permission(PermissionEvent::from_parts(
            envelope(EventKind::Permission),
            tool_call(&e.tool_name, &e.tool_input, None, &session),
            None,
        )),
        NativeEvent::PostToolUse(e) => {
            let tool = tool_call(&e.tool_name, &e.tool_input, Some(&e.tool_use_id), &session);
            match tools::failure(&e.tool_response) {
                Some(error) => Event::ToolError(ToolErrorEvent::from_parts(
                    envelope(EventKind::ToolError),
                    tool,
                    error,
                    false,
                    None,
                )),
                None => Event::ToolPost(ToolPostEvent::from_parts(
                    envelope(EventKind::ToolPost),
                    tool,
                    e.tool_response.clone(),
                    None,
                )),
            }
        }
        NativeEvent::PreCompact(e) => Event::CompactPre(CompactPreEvent::from_parts(
            envelope(EventKind::CompactPre),
            Some(e.trigger.as_str().to_owned()),
            None,
        )),
        NativeEvent::PostCompact(e) => Event::CompactPost(CompactPostEvent::from_parts(
            envelope(EventKind::CompactPost),
            Some(e.trigger.as_str().to_owned()),
            None,
        )),
        NativeEvent::SubagentStart(_) => {
            Event::SubagentStart(SubagentStartEvent::new(envelope(EventKind::SubagentStart)))
        }
        NativeEvent::SubagentStop(e) => Event::SubagentStop(StopEvent::from_parts(
            envelope(EventKind::SubagentStop),
            e.stop_hook_active,
            None,
            e.last_assistant_message.clone(),
        )),
        NativeEvent::Stop(e) => Event::Stop(StopEvent::from_parts(
            envelope(EventKind::Stop),
            e.stop_hook_active,
            None,
            e.last_assistant_message.clone(),
        )),
        NativeEvent::LegacyNotify(n) => Event::Notification(NotificationEvent::from_parts(
            envelope(EventKind::Notification),
            n.last_assistant_message.clone().unwrap_or_default(),
            None,
            Some(n.kind.clone()),
        )),
        NativeEvent::Interrupt(_) | NativeEvent::StopFailure(_) | NativeEvent::Other(_) => {
            Event::Other(OtherEvent::new(envelope(EventKind::Other)))
        }
    };
    event.envelope_mut().set_native_view(native);
    event
}

fn unsupported(native: &str, what: &str) -> EncodeError {
    EncodeError::new(
        Provider::CODEX,
        EncodeCategory::WrongFamily,
        format!("Codex {native} cannot express {what}"),
    )
}

fn wrong_family(native: &str, outcome: &Outcome) -> EncodeError {
    EncodeError::new(
        Provider::CODEX,
        EncodeCategory::WrongFamily,
        format!("a {} decision does not fit Codex {native}", outcome.kind()),
    )
}

/// A reason Codex accepts: trimmed non-empty, else the core's default block reason.
fn reason_text(reason: Option<&str>) -> String {
    match reason {
        Some(r) if !r.trim().is_empty() => r.to_owned(),
        _ => DEFAULT_BLOCK_REASON.to_owned(),
    }
}

/// Context lines joined the way Codex joins several hooks' contexts.
fn joined_context(outcome: &Outcome) -> Option<String> {
    let lines = outcome.context();
    (!lines.is_empty()).then(|| lines.join("\n\n"))
}

/// The user-facing block message, when it differs from the model-facing reason and no
/// explicit system message is set: Codex shows `systemMessage` to the user.
fn block_notice(outcome: &Outcome) -> Option<String> {
    let shown = outcome.block_message()?;
    (outcome.system_message().is_none() && Some(shown) != outcome.reason()).then(|| shown.to_owned())
}

fn respond<T: Serialize>(native: &str, out: &T) -> Result<WireResponse, EncodeError> {
    let value = serde_json::to_value(out)
        .map_err(|e| EncodeError::new(Provider::CODEX, EncodeCategory::Serialize, e.to_string()))?;
    if value.as_object().is_some_and(serde_json::Map::is_empty) {
        // Empty stdout is Codex's "no opinion".
        return Ok(WireResponse::empty());
    }
    let bytes = serde_json::to_vec(&value)
        .map_err(|e| EncodeError::new(Provider::CODEX, EncodeCategory::Serialize, e.to_string()))?;
    tracing::trace!(event = native, stdout = %String::from_utf8_lossy(&bytes), "codex response");
    Ok(WireResponse::stdout(bytes))
}

fn check(native: &str, invalid: Option<String>) -> Result<(), EncodeError> {
    match invalid {
        None => Ok(()),
        Some(why) => Err(EncodeError::new(
            Provider::CODEX,
            EncodeCategory::WrongFamily,
            format!("Codex would reject this {native} result: {why}"),
        )),
    }
}

/// Encodes an outcome for a Codex native event. `mcp_tool` says whether the event's tool call
/// targets an MCP tool (output replacement is MCP-only on `PostToolUse`).
///
/// Returns empty stdout for "no opinion"; an [`EncodeError`] when the outcome holds something
/// the event cannot express (the runner degrades outcomes first, so this only happens when
/// `encode` is called directly).
///
/// ```
/// use agenthooks_codex::codec::encode_for;
/// use agenthooks_core::decision::deny;
/// let r = encode_for("PreToolUse", &deny("rm -rf is blocked").into(), false)?;
/// assert_eq!(
///     r.stdout_str(),
///     r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked"}}"#
/// );
/// assert_eq!(r.exit_code, 0);
/// # Ok::<(), agenthooks_core::EncodeError>(())
/// ```
pub fn encode_for(native: &str, outcome: &Outcome, mcp_tool: bool) -> Result<WireResponse, EncodeError> {
    let parts = Parts {
        native,
        outcome,
        kind: outcome.kind(),
        ctx: joined_context(outcome),
        system_message: outcome.system_message().map(str::to_owned),
        stop: outcome.stop_reason().map(str::to_owned),
    };
    match native {
        "PreToolUse" => encode_pre_tool_use(&parts),
        "PermissionRequest" => encode_permission_request(&parts),
        "PostToolUse" => encode_post_tool_use(parts, mcp_tool),
        "UserPromptSubmit" => encode_user_prompt_submit(parts),
        "Stop" | "SubagentStop" => encode_stop(parts),
        "SessionStart" | "SubagentStart" | "PreCompact" | "PostCompact" | "Interrupt" => encode_context_only(parts),
        // SessionEnd (nothing is read), StopFailure, notify and unknown events: only no opinion.
        _ => encode_silent(&parts),
    }
}

/// An outcome taken apart for encoding.
struct Parts<'a> {
    native: &'a str,
    outcome: &'a Outcome,
    kind: DecisionKind,
    ctx: Option<String>,
    system_message: Option<String>,
    stop: Option<String>,
}

impl Parts<'_> {
    fn no_ctx(&self) -> Result<(), EncodeError> {
        match self.ctx {
            Some(_) => Err(unsupported(self.native, "context")),
            None => Ok(()),
        }
    }

    fn no_stop(&self) -> Result<(), EncodeError> {
        match self.stop {
            Some(_) => Err(unsupported(self.native, "stop-agent (continue:false)")),
            None => Ok(()),
        }
    }

    fn no_message(&self) -> Result<(), EncodeError> {
        match self.system_message {
            Some(_) => Err(unsupported(self.native, "a system message")),
            None => Ok(()),
        }
    }

    fn wrong_family(&self) -> EncodeError {
        wrong_family(self.native, self.outcome)
    }

    /// `continue` / `stopReason` for a stop-agent request.
    fn stop_fields(&mut self) -> (Option<bool>, Option<String>) {
        match self.stop.take() {
            Some(reason) => (Some(false), Some(reason)),
            None => (None, None),
        }
    }
}

fn encode_pre_tool_use(p: &Parts<'_>) -> Result<WireResponse, EncodeError> {
    let Outcome::ToolPre(d) = p.outcome else {
        return Err(p.wrong_family());
    };
    p.no_stop()?;
    let mut hso = PreToolUseHookSpecificOutput {
        additional_context: p.ctx.clone(),
        ..Default::default()
    };
    let mut out = PreToolUseOutput {
        system_message: p.system_message.clone(),
        ..PreToolUseOutput::default()
    };
    match (p.kind, d.updated_input()) {
        (DecisionKind::Deny, None) => {
            hso.permission_decision = Some(PermissionDecision::Deny);
            hso.permission_decision_reason = Some(reason_text(d.reason()));
            if out.system_message.is_none() {
                out.system_message = block_notice(p.outcome);
            }
        }
        (DecisionKind::NoDecision | DecisionKind::Allow, Some(input)) => {
            // `allow` is only the vehicle of a rewrite: it does not skip Codex's approval.
            hso.permission_decision = Some(PermissionDecision::Allow);
            hso.updated_input = Some(Value::Object(input.clone()));
        }
        (DecisionKind::NoDecision, None) => {}
        (DecisionKind::Allow, None) => {
            return Err(unsupported(
                p.native,
                "a bare allow (Codex rejects allow without updatedInput)",
            ));
        }
        (DecisionKind::Ask, _) => return Err(unsupported(p.native, "ask")),
        _ => return Err(p.wrong_family()),
    }
    if hso != PreToolUseHookSpecificOutput::default() {
        out.hook_specific_output = Some(hso);
    }
    check(p.native, out.invalid_reason())?;
    respond(p.native, &out)
}

fn encode_permission_request(p: &Parts<'_>) -> Result<WireResponse, EncodeError> {
    let Outcome::ToolPre(d) = p.outcome else {
        return Err(p.wrong_family());
    };
    p.no_stop()?;
    p.no_ctx()?;
    if d.updated_input().is_some() {
        return Err(unsupported(p.native, "an input rewrite (updatedInput is reserved)"));
    }
    let mut out = PermissionRequestOutput {
        system_message: p.system_message.clone(),
        ..PermissionRequestOutput::default()
    };
    let decision = match p.kind {
        DecisionKind::Allow => Some(PermissionRequestDecision::new(PermissionBehavior::Allow)),
        DecisionKind::Deny => {
            if out.system_message.is_none() {
                out.system_message = block_notice(p.outcome);
            }
            let mut deny = PermissionRequestDecision::new(PermissionBehavior::Deny);
            deny.message = Some(reason_text(d.reason()));
            Some(deny)
        }
        DecisionKind::Ask => {
            return Err(unsupported(
                p.native,
                "ask (no decision shows Codex's own prompt, without the reason)",
            ));
        }
        DecisionKind::NoDecision => None,
        _ => return Err(p.wrong_family()),
    };
    if let Some(decision) = decision {
        out.hook_specific_output = Some(PermissionRequestHookSpecificOutput {
            decision: Some(decision),
            ..Default::default()
        });
    }
    check(p.native, out.invalid_reason())?;
    respond(p.native, &out)
}

fn encode_post_tool_use(mut p: Parts<'_>, mcp_tool: bool) -> Result<WireResponse, EncodeError> {
    let (continue_processing, stop_reason) = p.stop_fields();
    let mut out = PostToolUseOutput {
        continue_processing,
        stop_reason,
        system_message: p.system_message.clone(),
        ..PostToolUseOutput::default()
    };
    let mut hso = PostToolUseHookSpecificOutput {
        additional_context: p.ctx.clone(),
        ..Default::default()
    };
    match (p.outcome, p.kind) {
        (Outcome::ToolPost(_) | Outcome::Context(_), DecisionKind::NoDecision) => {}
        (Outcome::ToolPost(d), DecisionKind::FlagOutput) => {
            out.decision = Some(BlockDecision::Block);
            out.reason = Some(reason_text(d.reason()));
        }
        (Outcome::ToolPost(d), DecisionKind::ReplaceOutput) => {
            if !mcp_tool {
                return Err(unsupported(
                    p.native,
                    "an output replacement for a non-MCP tool (quirk #209)",
                ));
            }
            // Codex replaces the MCP `CallToolResult`: a plain text replacement becomes one.
            hso.updated_mcp_tool_output = Some(match d.replaced_output().cloned().unwrap_or(Value::Null) {
                Value::String(text) => json!({"content": [{"type": "text", "text": text}]}),
                other => other,
            });
        }
        _ => return Err(p.wrong_family()),
    }
    if hso != PostToolUseHookSpecificOutput::default() {
        out.hook_specific_output = Some(hso);
    }
    check(p.native, out.invalid_reason())?;
    respond(p.native, &out)
}

fn encode_user_prompt_submit(mut p: Parts<'_>) -> Result<WireResponse, EncodeError> {
    if !matches!(p.outcome, Outcome::Prompt(_)) {
        return Err(p.wrong_family());
    }
    let (continue_processing, stop_reason) = p.stop_fields();
    let mut out = UserPromptSubmitOutput {
        continue_processing,
        stop_reason,
        system_message: p.system_message.clone(),
        hook_specific_output: p.ctx.clone().map(|c| ContextHookSpecificOutput::new(p.native, Some(c))),
        ..UserPromptSubmitOutput::default()
    };
    match p.kind {
        DecisionKind::BlockPrompt => {
            out.decision = Some(BlockDecision::Block);
            out.reason = Some(reason_text(p.outcome.reason()));
            if out.system_message.is_none() {
                out.system_message = block_notice(p.outcome);
            }
        }
        DecisionKind::NoDecision => {}
        _ => return Err(p.wrong_family()),
    }
    check(p.native, out.invalid_reason())?;
    respond(p.native, &out)
}

fn encode_stop(mut p: Parts<'_>) -> Result<WireResponse, EncodeError> {
    let Outcome::Stop(d) = p.outcome else {
        return Err(p.wrong_family());
    };
    p.no_ctx()?;
    let (decision, reason) = match p.kind {
        DecisionKind::Continue => match d.instruction().filter(|i| !i.trim().is_empty()) {
            Some(instruction) => (Some(BlockDecision::Block), Some(instruction.to_owned())),
            None => return Err(unsupported(p.native, "a continuation without an instruction")),
        },
        DecisionKind::NoDecision => (None, None),
        _ => return Err(p.wrong_family()),
    };
    let (continue_processing, stop_reason) = p.stop_fields();
    let system_message = p.system_message.clone();
    if p.native == "Stop" {
        let out = StopOutput {
            continue_processing,
            stop_reason,
            system_message,
            decision,
            reason,
            ..StopOutput::default()
        };
        check(p.native, out.invalid_reason())?;
        respond(p.native, &out)
    } else {
        let out = SubagentStopOutput {
            continue_processing,
            stop_reason,
            system_message,
            decision,
            reason,
            ..SubagentStopOutput::default()
        };
        check(p.native, out.invalid_reason())?;
        respond(p.native, &out)
    }
}

/// `SessionStart`, `SubagentStart`, `PreCompact`, `PostCompact`, `Interrupt`: no gating.
fn encode_context_only(mut p: Parts<'_>) -> Result<WireResponse, EncodeError> {
    if !matches!(p.outcome, Outcome::Context(_)) || p.kind != DecisionKind::NoDecision {
        return Err(p.wrong_family());
    }
    if p.native == "Interrupt" {
        p.no_ctx()?;
        p.no_stop()?;
        return respond(
            p.native,
            &InterruptOutput {
                system_message: p.system_message.clone(),
            },
        );
    }
    let (continue_processing, stop_reason) = p.stop_fields();
    let system_message = p.system_message.clone();
    let hso = p.ctx.clone().map(|c| ContextHookSpecificOutput::new(p.native, Some(c)));
    match p.native {
        "SessionStart" => respond(
            p.native,
            &SessionStartOutput {
                continue_processing,
                stop_reason,
                system_message,
                hook_specific_output: hso,
                ..SessionStartOutput::default()
            },
        ),
        "SubagentStart" => respond(
            p.native,
            &SubagentStartOutput {
                continue_processing,
                stop_reason,
                system_message,
                hook_specific_output: hso,
                ..SubagentStartOutput::default()
            },
        ),
        "PreCompact" => {
            p.no_ctx()?;
            respond(
                p.native,
                &PreCompactOutput {
                    continue_processing,
                    stop_reason,
                    system_message,
                    ..PreCompactOutput::default()
                },
            )
        }
        _ => {
            p.no_ctx()?;
            respond(
                p.native,
                &PostCompactOutput {
                    continue_processing,
                    stop_reason,
                    system_message,
                    ..PostCompactOutput::default()
                },
            )
        }
    }
}

/// Events whose answer Codex does not read: only the neutral outcome encodes (as nothing).
fn encode_silent(p: &Parts<'_>) -> Result<WireResponse, EncodeError> {
    if p.outcome.is_bare_neutral() {
        return Ok(WireResponse::empty());
    }
    p.no_ctx()?;
    p.no_stop()?;
    p.no_message()?;
    Err(unsupported(p.native, &format!("a {} decision", p.kind)))
}

/// The native event a failure target names, falling back on its kind.
fn target_native(target: &EventTarget) -> Option<&str> {
    if let Some(native) = &target.native {
        return Some(native.as_str());
    }
    Some(match target.kind? {
        EventKind::ToolPre => "PreToolUse",
        EventKind::Permission => "PermissionRequest",
        EventKind::PromptSubmitted => "UserPromptSubmit",
        _ => return None,
    })
}

impl Codec for CodexCodec {
    fn provider(&self) -> Provider {
        Provider::CODEX
    }

    fn native_events(&self) -> &'static [EventRow] {
        NATIVE_EVENTS
    }

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let value: Value = serde_json::from_slice(inv.payload.json_bytes())
            .map_err(|e| DecodeError::from_json(Provider::CODEX, &e))?;
        let notify = inv.transport == Transport::Argv
            || (value.get("hook_event_name").is_none() && value.get("type").is_some_and(Value::is_string));
        let native = if notify {
            native::notify_from_value(value).map(NativeEvent::LegacyNotify)
        } else {
            native::from_value(value)
        }
        .map_err(decode_error)?;
        Ok(build_event(native, inv))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let mcp_tool = event.tool().is_some_and(|t| t.canonical == CanonicalTool::Mcp);
        encode_for(event.envelope().native.as_str(), outcome, mcp_tool)
    }

    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::empty()
    }

    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        if mode != FailMode::Closed {
            return WireResponse::empty();
        }
        let reason = reason_text(Some(reason));
        let value = match target_native(target) {
            Some("PreToolUse") => serde_json::to_value(PreToolUseOutput {
                hook_specific_output: Some(PreToolUseHookSpecificOutput {
                    permission_decision: Some(PermissionDecision::Deny),
                    permission_decision_reason: Some(reason),
                    ..Default::default()
                }),
                ..PreToolUseOutput::default()
            }),
            Some("PermissionRequest") => {
                let mut deny = PermissionRequestDecision::new(PermissionBehavior::Deny);
                deny.message = Some(reason);
                serde_json::to_value(PermissionRequestOutput {
                    hook_specific_output: Some(PermissionRequestHookSpecificOutput {
                        decision: Some(deny),
                        ..Default::default()
                    }),
                    ..PermissionRequestOutput::default()
                })
            }
            Some("UserPromptSubmit") => serde_json::to_value(UserPromptSubmitOutput {
                decision: Some(BlockDecision::Block),
                reason: Some(reason),
                ..UserPromptSubmitOutput::default()
            }),
            // No blocking mechanism (or blocking would mean continuing, on Stop): no opinion.
            _ => return WireResponse::empty(),
        };
        value.map_or_else(|_| WireResponse::empty(), |v| WireResponse::json(&v))
    }

    fn capabilities(&self, _variant: &Variant, native: &str) -> CapSet {
        capabilities_for(native)
    }

    fn default_timeout(&self) -> Duration {
        DEFAULT_TIMEOUT
    }

    fn quirks(&self) -> &'static [Quirk] {
        quirks::QUIRKS
    }

    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        if env.var("CODEX_MANAGED_BY_NPM").is_some() || env.var("CODEX_MANAGED_PACKAGE_ROOT").is_some() {
            Some(Confidence::Inferred)
        } else if env.var("CODEX_HOME").is_some() {
            Some(Confidence::Guess)
        } else {
            None
        }
    }

    fn sniff_payload(&self, payload: &[u8], _env: &dyn Env) -> Option<Confidence> {
        let value: Value = serde_json::from_slice(agenthooks_core::event::strip_bom(payload)).ok()?;
        let obj = value.as_object()?;
        if obj
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.starts_with("agent-turn-"))
            && (obj.contains_key("turn-id") || obj.contains_key("input-messages"))
        {
            return Some(Confidence::Certain);
        }
        let name = obj.get("hook_event_name")?.as_str()?;
        let known = NATIVE_EVENTS.iter().any(|spec| spec.name == name);
        let codex_shape =
            obj.get("turn_id").is_some_and(Value::is_string) && obj.get("model").is_some_and(Value::is_string);
        (known && codex_shape).then_some(Confidence::Inferred)
    }

    fn stderr_use(&self) -> StderrUse {
        // Codex reads stderr only on exit 2 (as the block reason); the codec always exits 0.
        StderrUse::Logs
    }
}
