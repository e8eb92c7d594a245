//! [`DroidCodec`]: the Factory Droid dialect as an [`agenthooks_core::Codec`].

use std::time::Duration;

use agenthooks_core::decision::reason_or_default;
use agenthooks_core::kit::{self, FromNative};
use agenthooks_core::{
    CompactPreEvent, Confidence, DecisionKind, DecodeError, EncodeError, Env, Envelope, Event, EventKind, EventTarget,
    Invocation, NotificationEvent, OtherEvent, Outcome, PromptEvent, Provider, RawJson, SessionEndEvent,
    SessionStartEvent, StderrUse, StopEvent, ToolCall, ToolPostEvent, ToolPreEvent, WireResponse,
};

use crate::native::NativeEvent;
use crate::output::Output;
use crate::tools;

/// The Factory Droid codec. See the crate docs for the dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DroidCodec;

/// Hook timeout Droid applies when the config gives none (`timeout` in seconds, default 60).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// What Droid writes itself when a Stop hook continues the agent without a reason.
const DEFAULT_CONTINUATION: &str = "Stop hook requested continuation";

/// The codec the facade registers.
pub static CODEC: DroidCodec = DroidCodec;

/// The native typed payload behind a Droid event (every field Droid sent, unknown keys in `extra`).
pub fn view(envelope: &Envelope) -> Option<&NativeEvent> {
    envelope.native_view::<NativeEvent>()
}

/// One event's native struct (`view_as::<native::PreToolUse>(env)`), when the event is that one.
pub fn view_as<T: FromNative<NativeEvent>>(envelope: &Envelope) -> Option<&T> {
    view(envelope).and_then(T::from_native)
}

impl agenthooks_core::Codec for DroidCodec {
    agenthooks_core::kit::kit_codec_tables!(provider: Provider::DROID, mcp, transcript);

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let decoded = NativeEvent::decode(&Provider::DROID, inv.payload.json_bytes(), inv.native_event)?;
        let native = &decoded.native;
        let mut env = Envelope::new(
            Provider::DROID,
            native.name().into(),
            native.kind(),
            inv.payload.clone(),
        );
        if let Some(v) = inv.variant {
            env.variant = v.clone();
        }
        if let Some(id) = native.session_id().filter(|id| !id.is_empty() && *id != "unknown") {
            env.session.id.clone_from(id);
        }
        if let Some(cwd) = native.cwd().filter(|c| !c.is_empty()) {
            env.session.cwd.clone_from(cwd);
            env.session.workspace_roots = vec![cwd.clone()];
        }
        if let Some(path) = native.transcript_path().filter(|p| !p.is_empty()) {
            env.session.transcript_path.clone_from(path);
        }
        if let Some(mode) = native.permission_mode() {
            env.session.permission_mode.clone_from(mode);
        }
        if let Some(id) = native.message_id().filter(|id| !id.is_empty()) {
            env.session.turn_id.clone_from(id);
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
        let reason = reason_or_default(outcome.reason().unwrap_or_default());
        let mut out = Output::default();
        match (env.kind, outcome.kind()) {
            (EventKind::ToolPre, DecisionKind::Deny) => {
                out.hook_specific_output.permission_decision = Some("deny");
                out.hook_specific_output.permission_decision_reason = Some(reason.to_owned());
            }
            (EventKind::ToolPre, DecisionKind::Allow) => {
                out.hook_specific_output.permission_decision = Some("allow");
            }
            // quirk 1004: `continue: false` is the JSON block of a prompt; the reason is its
            // `stopReason`.
            (EventKind::PromptSubmitted, DecisionKind::BlockPrompt) => {
                out.continue_ = Some(false);
                out.stop_reason = Some(reason.to_owned());
            }
            (EventKind::Stop, DecisionKind::Continue) => {
                let instruction = outcome.instruction().filter(|i| !i.trim().is_empty());
                out.decision = Some("block");
                out.reason = Some(instruction.unwrap_or(DEFAULT_CONTINUATION).to_owned());
            }
            (_, DecisionKind::NoDecision) => {}
            (_, kind) => {
                return Err(EncodeError::inexpressible(
                    Provider::DROID,
                    native,
                    &format!("a {kind} decision"),
                ))
            }
        }
        if let Some(input) = outcome.updated_input() {
            out.hook_specific_output.updated_input = Some(input.clone());
        }
        if !outcome.context().is_empty() && !outcome.blocks() {
            out.hook_specific_output.additional_context = Some(outcome.context().join("\n"));
        }
        if let Some(message) = outcome.system_message().filter(|m| !m.is_empty()) {
            out.system_message = Some(message.to_owned());
        }
        out.stop_agent(outcome);
        if out == Output::default() {
            return Ok(self.no_op(&EventTarget::of(event)));
        }
        Ok(out.wire())
    }

    /// Empty stdout: Droid parses stdout only when it starts with `{`, and plain stdout of a
    /// `SessionStart` hook would become context. The failure answer is the provided one: the
    /// encoded deny on `PreToolUse` and the blocked prompt on `UserPromptSubmit`, this no-op
    /// elsewhere.
    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::empty()
    }

    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        // Droid exports its own project variable beside Claude's (quirk: Claude's is shared).
        env.var("DROID_PROJECT_DIR").map(|_| Confidence::Certain)
    }

    fn sniff_payload(&self, payload: &[u8], _env: &dyn Env) -> Option<Confidence> {
        #[derive(serde::Deserialize)]
        struct Probe {
            hook_event_name: Option<String>,
            permission_mode: Option<String>,
            tool_name: Option<String>,
        }
        let p: Probe = serde_json::from_slice(agenthooks_core::event::strip_bom(payload)).ok()?;
        p.hook_event_name?;
        // Droid's autonomy modes and tool names are its own.
        let droid_mode = p
            .permission_mode
            .as_deref()
            .is_some_and(|m| matches!(m, "off" | "spec" | "auto-low" | "auto-medium" | "auto-high"));
        let droid_tool = p
            .tool_name
            .as_deref()
            .is_some_and(|t| matches!(t, "Execute" | "Create" | "LS" | "FetchUrl" | "ApplyPatch"));
        (droid_mode || droid_tool).then_some(Confidence::Inferred)
    }

    fn stderr_use(&self) -> StderrUse {
        // Droid reads stderr on exit 1 (a warning), 2 and 3; our answers exit 0 with JSON, but a
        // stray warning would still reach the user.
        StderrUse::Reserved
    }
}

/// A tool call from Droid's fields: canonical class, MCP identity for `<server>___<tool>` names
/// and the input as sent. Droid sends no tool-call id: the builder synthesizes one.
fn tool_call(env: &Envelope, name: &str, input: Option<&RawJson>) -> ToolCall {
    ToolCall::builder(name, input.cloned().unwrap_or_default())
        .class(tools::classify(name))
        .with_mcp(tools::parse_mcp(name))
        .build(&env.session)
}

fn build_event(env: Envelope, native: &NativeEvent) -> Event {
    match native {
        NativeEvent::PreToolUse(e) => {
            let tool = tool_call(&env, &e.tool_name, e.tool_input.as_ref());
            Event::ToolPre(ToolPreEvent::new(env, tool))
        }
        NativeEvent::PostToolUse(e) => {
            let tool = tool_call(&env, &e.tool_name, e.tool_input.as_ref());
            let output = e.tool_response.clone().unwrap_or_default();
            Event::ToolPost(ToolPostEvent::new(env, tool).with_output(output))
        }
        NativeEvent::UserPromptSubmit(e) => {
            Event::PromptSubmitted(PromptEvent::new(env, e.prompt.clone().unwrap_or_default()))
        }
        NativeEvent::Stop(e) => {
            Event::Stop(StopEvent::new(env).with_previously_continued(e.stop_hook_active.unwrap_or(false)))
        }
        NativeEvent::SubagentStop(e) => {
            let last = e.task_result.clone().or_else(|| e.task_error.clone());
            Event::SubagentStop(StopEvent::new(env).with_last_message(last))
        }
        NativeEvent::SessionStart(e) => Event::SessionStart(SessionStartEvent::new(env).with_source(e.source.clone())),
        NativeEvent::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::new(env).with_reason(e.reason.clone())),
        NativeEvent::PreCompact(e) => Event::CompactPre(CompactPreEvent::new(env).with_trigger(e.trigger.clone())),
        NativeEvent::Notification(e) => Event::Notification(
            NotificationEvent::new(env, e.message.clone().unwrap_or_default())
                .with_notification_type(e.notification_type.clone()),
        ),
        _ => Event::Other(OtherEvent::new(env)),
    }
}
