//! [`GeminiCodec`]: `impl agenthooks_core::Codec` for Gemini CLI's hook dialect.
//!
//! See the crate docs for the dialect and every lossy projection.

use std::time::Duration;

use agenthooks_core::decision::reason_or_default;
use agenthooks_core::event::strip_bom;
use agenthooks_core::kit;
use agenthooks_core::{
    Codec, CompactPreEvent, Confidence, DecisionKind, DecodeError, EncodeCategory, EncodeError, Env, Envelope, Event,
    EventKind, EventTarget, Invocation, ModelRequestEvent, ModelResponseEvent, NotificationEvent, OtherEvent, Outcome,
    PromptEvent, Provider, RawJson, SessionEndEvent, SessionInfo, SessionStartEvent, StderrUse, StopEvent, ToolCall,
    ToolErrorEvent, ToolPostEvent, ToolPreEvent, WireResponse,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::native::{LlmRequest, LlmResponse, McpContext, NativeEvent};
use crate::output::{HookSpecificOutput, Output};
use crate::tools;

/// Gemini CLI's default hook timeout when `settings.json` states none: 60 000 ms.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Converts a duration to the value of a `settings.json` hook `timeout`, which Gemini reads in
/// **milliseconds** (quirk #14; every other agent uses seconds). Saturates at `u64::MAX`.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(agenthooks_gemini::timeout_config_value(Duration::from_secs(30)), 30_000);
/// ```
pub fn timeout_config_value(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

pub use crate::output::NO_OP;

/// The Gemini CLI codec. Stateless; use the crate's [`CODEC`](crate::CODEC) static.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct GeminiCodec;

impl GeminiCodec {
    /// The codec.
    pub const fn new() -> Self {
        Self
    }
}

/// The unified kind of a decoded payload: the row's, except a failed `AfterTool`
/// (`tool_response.error` set), which is `tool.error`.
fn kind_of(native: &NativeEvent) -> EventKind {
    match native {
        NativeEvent::AfterTool(e) if e.is_error() => EventKind::ToolError,
        n => n.kind(),
    }
}

fn to_value<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The text of a model response chunk: `text` when Gemini sends it, else the first
/// candidate's text parts (plain strings or `{text}` objects) concatenated.
fn response_text(r: &LlmResponse) -> Option<String> {
    if let Some(t) = &r.text {
        return Some(t.clone());
    }
    let parts = r.candidates.as_deref()?.first()?.content.as_ref()?.parts.as_deref()?;
    let texts: Vec<&str> = parts
        .iter()
        .filter_map(|p| match p {
            Value::String(s) => Some(s.as_str()),
            Value::Object(m) => m.get("text").and_then(Value::as_str),
            _ => None,
        })
        .collect();
    (!texts.is_empty()).then(|| texts.concat())
}

fn tool_call(session: &SessionInfo, name: &str, input: Option<&RawJson>, ctx: Option<&McpContext>) -> ToolCall {
    ToolCall::builder(name, input.cloned().unwrap_or_default())
        .class(tools::classify(name))
        .with_mcp(tools::parse_mcp(name, ctx))
        .build(session)
}

/// The request of a model event, recording its model on the session.
fn model_request(env: &mut Envelope, request: Option<&LlmRequest>) -> Value {
    env.session.model = request.and_then(|r| r.model.clone()).unwrap_or_default();
    request.map_or(Value::Null, to_value)
}

/// One arm per mapped event: the typed event of a decoded payload.
fn build_event(mut env: Envelope, native: NativeEvent) -> Event {
    use NativeEvent as N;
    // The call of a tool event (`tool_name`, `tool_input`, `mcp_context`).
    macro_rules! tool_of {
        ($e:expr) => {
            tool_call(
                &env.session,
                &$e.tool_name,
                $e.tool_input.as_ref(),
                $e.mcp_context.as_ref(),
            )
        };
    }
    match native {
        N::SessionStart(e) => Event::SessionStart(SessionStartEvent::new(env).with_source(e.source)),
        N::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::new(env).with_reason(e.reason)),
        N::BeforeAgent(e) => Event::PromptSubmitted(PromptEvent::new(env, e.prompt.unwrap_or_default())),
        N::AfterAgent(e) => Event::Stop(
            StopEvent::new(env)
                .with_previously_continued(e.stop_hook_active.unwrap_or_default())
                .with_last_message(e.prompt_response),
        ),
        N::BeforeTool(e) => {
            let tool = tool_of!(e);
            Event::ToolPre(ToolPreEvent::new(env, tool))
        }
        N::AfterTool(e) => {
            let tool = tool_of!(e);
            match e.error_message() {
                Some(msg) => Event::ToolError(ToolErrorEvent::new(env, tool).with_error(msg)),
                None => Event::ToolPost(ToolPostEvent::new(env, tool).with_output(to_value(&e.tool_response).into())),
            }
        }
        N::BeforeModel(e) => {
            let request = model_request(&mut env, e.llm_request.as_ref());
            Event::ModelRequest(ModelRequestEvent::new(env, request))
        }
        N::BeforeToolSelection(e) => {
            let request = model_request(&mut env, e.llm_request.as_ref());
            Event::ModelRequest(ModelRequestEvent::new(env, request))
        }
        N::AfterModel(e) => {
            model_request(&mut env, e.llm_request.as_ref());
            let text = e.llm_response.as_ref().and_then(response_text);
            let response = e.llm_response.as_ref().map_or(Value::Null, to_value);
            Event::ModelResponse(ModelResponseEvent::new(env).with_text(text).with_response(response))
        }
        N::PreCompress(e) => Event::CompactPre(CompactPreEvent::new(env).with_trigger(e.trigger)),
        N::Notification(e) => Event::Notification(
            NotificationEvent::new(env, e.message.unwrap_or_default()).with_notification_type(e.notification_type),
        ),
        N::Other(_) => Event::Other(OtherEvent::new(env)),
    }
}

// ---------------------------------------------------------------------------------------------
// Encode
// ---------------------------------------------------------------------------------------------

/// Top-level keys a `BeforeTool` rewrite would remove from Gemini's original `tool_input`
/// (which Gemini merges shallowly: removals are impossible, quirk #12).
fn removed_keys(event: &Event, updated: &Map<String, Value>) -> Vec<String> {
    let original = match crate::view(event.envelope()) {
        Some(NativeEvent::BeforeTool(t)) => t.tool_input.as_ref().and_then(|i| i.as_object()),
        _ => event.tool().map(ToolCall::input),
    };
    original
        .map(|o| o.keys().filter(|k| !updated.contains_key(*k)).cloned().collect())
        .unwrap_or_default()
}

fn replacement_text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

/// The user-facing block message has no field of its own: Gemini shows `reason` (which goes to
/// the model) to both. A distinct one becomes the system message.
fn block_message(outcome: &Outcome) -> Option<&str> {
    match outcome {
        Outcome::ToolPre(d) if d.blocks() => d.block_reason(),
        Outcome::Prompt(d) if d.blocks() => d.block_reason(),
        _ => None,
    }
    .filter(|b| Some(*b) != outcome.reason())
}

impl Codec for GeminiCodec {
    agenthooks_core::kit::kit_codec_tables!(provider: Provider::GEMINI, mcp, transcript);

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let bytes = inv.payload.json_bytes();
        let decoded = NativeEvent::decode(&Provider::GEMINI, bytes, inv.native_event)?;
        let n = &decoded.native;
        let mut env = Envelope::new(Provider::GEMINI, n.name().into(), kind_of(n), inv.payload.clone());
        env.variant = inv.variant.cloned().unwrap_or_default();
        // Gemini's own clock, verbatim (a non-string is kept in `extra` by the decoder).
        env.provider_time = n
            .timestamp()
            .map(|t| Value::from(t.as_str()))
            .or_else(|| n.extra().get("timestamp").cloned());
        env.session.id = n.session_id().cloned().unwrap_or_default();
        env.session.cwd = n.cwd().cloned().unwrap_or_default();
        env.session.transcript_path = n.transcript_path().cloned().unwrap_or_default();
        if !env.session.cwd.is_empty() {
            env.session.workspace_roots = vec![env.session.cwd.clone()];
        }
        let native = decoded.attach(&mut env);
        Ok(build_event(env, native))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let envelope = event.envelope();
        let native = envelope.native.as_str();
        let caps = self.capabilities(&envelope.variant, native);
        if let Some(no_op) = kit::expressible_or_no_op(self, event, outcome, caps)? {
            return Ok(no_op);
        }

        let mut out = Output {
            system_message: outcome.system_message().or_else(|| block_message(outcome)),
            ..Output::default()
        };
        if let Some(stop) = outcome.stop_reason() {
            out.keep_going = Some(false);
            out.stop_reason = Some(stop);
        }
        (out.decision, out.reason) = match outcome.kind() {
            DecisionKind::Deny | DecisionKind::BlockPrompt => (
                Some("deny"),
                Some(reason_or_default(outcome.reason().unwrap_or_default()).to_owned()),
            ),
            DecisionKind::Ask => (
                Some("ask"),
                outcome.reason().filter(|r| !r.is_empty()).map(str::to_owned),
            ),
            // AfterAgent: deny = "retry with the reason as the next prompt" (#305).
            DecisionKind::Continue => (Some("deny"), outcome.instruction().map(str::to_owned)),
            // AfterTool: deny = "Tool result blocked: <reason>" replaces the result (#301).
            DecisionKind::ReplaceOutput => (
                Some("deny"),
                Some(outcome.replaced_output().map(replacement_text).unwrap_or_default()),
            ),
            _ => (None, None),
        };

        let tool_input = outcome.updated_input();
        if let Some(updated) = tool_input {
            let removed = removed_keys(event, updated);
            if !removed.is_empty() {
                return Err(EncodeError::new(
                    Provider::GEMINI,
                    EncodeCategory::LossyUpdate,
                    format!(
                        "the tool_input rewrite removes {removed:?}, but Gemini merges rewrites \
                         into the original arguments shallowly, so keys cannot be removed \
                         (quirk #12)"
                    ),
                ));
            }
        }
        let context = outcome.context();
        let additional_context = (!context.is_empty()).then(|| context.join("\n"));
        if tool_input.is_some() || additional_context.is_some() {
            out.hook_specific_output = Some(HookSpecificOutput {
                hook_event_name: native,
                tool_input,
                additional_context,
            });
        }
        Ok(out.wire())
    }

    /// `{}` on every event. The failure answer is the provided one: Gemini's block is the
    /// encoded deny body with exit 0 (a non-zero exit does not block, #306).
    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::stdout(NO_OP)
    }

    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        ["GEMINI_CWD", "GEMINI_SESSION_ID", "GEMINI_PROJECT_DIR"]
            .iter()
            .any(|k| env.var(k).is_some_and(|v| !v.is_empty()))
            .then_some(Confidence::Inferred)
    }

    fn sniff_payload(&self, payload: &[u8], _env: &dyn Env) -> Option<Confidence> {
        #[derive(Deserialize)]
        struct Shape {
            #[serde(default)]
            hook_event_name: Option<String>,
            #[serde(default)]
            timestamp: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            session_id: Option<serde::de::IgnoredAny>,
        }
        let shape: Shape = serde_json::from_slice(strip_bom(payload)).ok()?;
        let row = self.row(shape.hook_event_name.as_deref()?)?;
        if row.provider_only {
            Some(Confidence::Certain)
        } else {
            // Names shared with Claude Code; Gemini's carry its own `timestamp`.
            (shape.timestamp.is_some() && shape.session_id.is_some()).then_some(Confidence::Inferred)
        }
    }

    fn stderr_use(&self) -> StderrUse {
        // Gemini reads stderr as the decision when stdout is empty (quirk #11).
        StderrUse::Reserved
    }
}
