//! [`KimiCodec`]: the Kimi Code dialect as an [`agenthooks_core::Codec`].

use std::time::Duration;

use agenthooks_core::decision::reason_or_default;
use agenthooks_core::kit;
use agenthooks_core::{
    AgentInfo, CompactPostEvent, CompactPreEvent, Confidence, DecisionKind, DecodeError, EncodeError, Env, Envelope,
    Event, EventKind, EventTarget, Invocation, NotificationEvent, OtherEvent, Outcome, PermissionEvent, PromptEvent,
    Provider, RawJson, SessionEndEvent, SessionStartEvent, StderrUse, StopEvent, SubagentStartEvent, ToolCall,
    ToolErrorEvent, ToolPostEvent, ToolPreEvent, WireResponse,
};
use serde_json::Value;

use crate::native::NativeEvent;
use crate::output::Output;
use crate::tools;

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

    /// The block response: JSON deny (exit 0) or exit 2 with the reason on stderr.
    /// `message` is the optional top-level `message` (what Kimi records for a blocked prompt).
    fn block(self, reason: &str, message: Option<&str>) -> WireResponse {
        match self.style {
            BlockStyle::ExitCode => WireResponse::exit(2, reason.as_bytes().to_vec()),
            BlockStyle::Json => Output::deny(reason, message).wire(),
        }
    }
}

impl agenthooks_core::Codec for KimiCodec {
    agenthooks_core::kit::kit_codec_tables!(provider: Provider::KIMI, mcp, transcript);

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        // Straight from the bytes; the name is the payload's own, else the config's --event (the
        // native view then has no `hook_event_name`: nothing Kimi did not send is added).
        let decoded = NativeEvent::decode(&Provider::KIMI, inv.payload.json_bytes(), inv.native_event)?;
        let native = &decoded.native;
        let mut env = Envelope::new(Provider::KIMI, native.name().into(), native.kind(), inv.payload.clone());
        if let Some(v) = inv.variant {
            env.variant = v.clone();
        }
        if let Some(id) = native.session_id() {
            env.session.id.clone_from(id);
        }
        if let Some(cwd) = native.cwd().filter(|c| !c.is_empty()) {
            env.session.cwd.clone_from(cwd);
            env.session.workspace_roots = vec![cwd.clone()];
        }
        if let Some(t) = native.turn_id() {
            env.session.turn_id = t.to_string();
        }
        if let Some(id) = native.agent_id().filter(|id| !id.is_empty() && *id != "main") {
            env.agent = Some(AgentInfo::new(id, ""));
        }
        let native = decoded.attach(&mut env);
        Ok(build_event(env, &native))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let env = event.envelope();
        let native = env.native.as_str();
        if let Some(no_op) = kit::expressible_or_no_op(self, event, outcome, self.event_capabilities(event))? {
            return Ok(no_op);
        }
        // Past the check, the kind names the native event: each gating kind has one Kimi event.
        match (env.kind, outcome.kind()) {
            (EventKind::ToolPre, DecisionKind::Deny) => {
                Ok(self.block(reason_or_default(outcome.reason().unwrap_or_default()), None))
            }
            (EventKind::PromptSubmitted, DecisionKind::BlockPrompt) => {
                // ⚠ Context cannot ride on a blocked prompt: the model is not called this turn.
                if !outcome.context().is_empty() {
                    tracing::info!("context on a blocked Kimi prompt is not delivered");
                }
                let reason = reason_or_default(outcome.reason().unwrap_or_default());
                // A distinct user-facing block message becomes Kimi's `message`, which is what it
                // records for the blocked prompt (JSON only; exit 2 has one text).
                let message = outcome.block_message().filter(|m| *m != reason);
                Ok(self.block(reason, message))
            }
            (EventKind::PromptSubmitted, DecisionKind::NoDecision) if !outcome.context().is_empty() => {
                let context = outcome.context().join("\n");
                Ok(Output {
                    hook_specific_output: None,
                    message: Some(&context),
                }
                .wire())
            }
            // The instruction is the model's next input: an empty one stays empty.
            (EventKind::Stop, DecisionKind::Continue) => {
                Ok(self.block(outcome.instruction().unwrap_or_default(), None))
            }
            (_, DecisionKind::NoDecision) => Ok(WireResponse::empty()),
            (_, kind) => Err(EncodeError::inexpressible(
                Provider::KIMI,
                native,
                &format!("a {kind} decision"),
            )),
        }
    }

    /// Empty stdout on every event. The failure answer is the provided one: the encoded block
    /// (in the codec's [`BlockStyle`]) on the two gates, this no-op elsewhere (a blocked `Stop`
    /// would keep the agent going, and fire-and-forget events cannot block).
    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::empty()
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
        let kimi_only = self.row(&name).is_some_and(|r| r.provider_only);
        if kimi_only || (p.tool_call_id.is_some() && p.tool_use_id.is_none()) {
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

/// A tool call from Kimi's fields: canonical class, MCP identity for `mcp__…` names, the input as
/// sent (Kimi already sends `{}` for non-object arguments; an absent one is `null`) and Kimi's
/// own tool-call id (an empty or absent id gets a synthesized one).
fn tool_call(env: &Envelope, name: &str, input: Option<&RawJson>, id: Option<&String>) -> ToolCall {
    ToolCall::builder(name, input.cloned().unwrap_or_default())
        .class(tools::classify(name))
        .with_id(id.cloned().unwrap_or_default())
        .with_mcp(tools::parse_mcp(name))
        .build(&env.session)
}

fn text(s: Option<&String>) -> String {
    s.cloned().unwrap_or_default()
}

fn build_event(mut env: Envelope, native: &NativeEvent) -> Event {
    match native {
        NativeEvent::PreToolUse(e) => {
            let tool = tool_call(&env, &e.tool_name, e.tool_input.as_ref(), e.tool_call_id.as_ref());
            Event::ToolPre(ToolPreEvent::new(env, tool))
        }
        NativeEvent::PostToolUse(e) => {
            let tool = tool_call(&env, &e.tool_name, e.tool_input.as_ref(), e.tool_call_id.as_ref());
            let output = e.tool_output.clone().unwrap_or_default();
            Event::ToolPost(ToolPostEvent::new(env, tool).with_output(output))
        }
        NativeEvent::PostToolUseFailure(e) => {
            let tool = tool_call(&env, &e.tool_name, e.tool_input.as_ref(), e.tool_call_id.as_ref());
            let error = e.error.as_ref().map(|x| x.message().to_owned()).unwrap_or_default();
            Event::ToolError(ToolErrorEvent::new(env, tool).with_error(error))
        }
        NativeEvent::PermissionRequest(e) => {
            let tool = tool_call(&env, &e.tool_name, e.tool_input.as_ref(), e.tool_call_id.as_ref());
            Event::Permission(PermissionEvent::new(env, tool))
        }
        NativeEvent::UserPromptSubmit(e) => {
            let prompt = e.prompt.as_ref().map(|p| p.text().into_owned()).unwrap_or_default();
            Event::PromptSubmitted(PromptEvent::new(env, prompt))
        }
        NativeEvent::Stop(e) => {
            Event::Stop(StopEvent::new(env).with_previously_continued(e.stop_hook_active.unwrap_or(false)))
        }
        NativeEvent::SubagentStart(e) => {
            env.agent = Some(AgentInfo::new("", text(e.agent_name.as_ref())));
            Event::SubagentStart(SubagentStartEvent::new(env))
        }
        NativeEvent::SubagentStop(e) => {
            env.agent = Some(AgentInfo::new("", text(e.agent_name.as_ref())));
            Event::SubagentStop(StopEvent::new(env).with_last_message(e.response.clone()))
        }
        NativeEvent::SessionStart(e) => {
            if let Some(m) = &e.model {
                env.session.model.clone_from(m);
            }
            Event::SessionStart(SessionStartEvent::new(env).with_source(e.source.clone()))
        }
        NativeEvent::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::new(env).with_reason(e.reason.clone())),
        NativeEvent::PreCompact(e) => Event::CompactPre(CompactPreEvent::new(env).with_trigger(e.trigger.clone())),
        NativeEvent::PostCompact(e) => Event::CompactPost(CompactPostEvent::new(env).with_trigger(e.trigger.clone())),
        NativeEvent::Notification(e) => Event::Notification(
            NotificationEvent::new(env, text(e.body.as_ref()))
                .with_title(e.title.clone())
                .with_notification_type(e.notification_type.clone()),
        ),
        _ => Event::Other(OtherEvent::new(env)),
    }
}
