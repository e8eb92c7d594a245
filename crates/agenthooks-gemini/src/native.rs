//! Native Gemini CLI hook payloads, typed field for field.
//!
//! Gemini CLI sends one `snake_case` JSON object on stdin per hook call. Every payload carries the
//! base fields `session_id`, `transcript_path` (`""` when the session is not recorded), `cwd`,
//! `hook_event_name` and `timestamp` (ISO-8601, Gemini's own clock — kept verbatim beside the
//! library's receive time), plus the event's own fields (reference: `gemini.md` §2, Gemini CLI
//! `packages/core/src/hooks/types.ts`).
//!
//! Fidelity rules for every struct here:
//!
//! - each field of the reference is a pub field with its wire spelling;
//! - top-level fields the reference lists as always present are required (a missing one is a
//!   [`NativeDecodeError`] carrying the JSON path, never a panic); fields marked optional are
//!   `Option` and are not written back when absent;
//! - nested vendor shapes (`llm_request`, `llm_response`, `tool_response`, …) type every known field
//!   as `Option` or [`Value`], so a change inside a nested object never fails a whole event;
//! - every struct ends with `extra`, which captures unknown keys instead of dropping them.
//!
//! [`decode`] reads `hook_event_name` and dispatches to the matching struct; an event name this
//! crate does not know decodes as [`NativeEvent::Other`] with the whole object kept.

use agenthooks_core::{EventKind, EventRow};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

// ---------------------------------------------------------------------------------------------
// Event names and their unified kinds
// ---------------------------------------------------------------------------------------------

/// The 11 native events of Gemini CLI's hook system, in the reference's order, with their
/// unified kinds (design §3.4), whether Gemini awaits the hook's answer, and whether the
/// `settings.json` matcher is a tool-name regex.
///
/// `AfterTool` is listed as `tool.post`; a payload whose `tool_response.error` is set decodes as
/// `tool.error` instead (see [`AfterTool::error`]).
pub static NATIVE_EVENTS: &[EventRow] = &[
    EventRow::new(SessionStart::NAME, EventKind::SessionStart, true, false),
    EventRow::new(SessionEnd::NAME, EventKind::SessionEnd, false, false),
    EventRow::new(BeforeAgent::NAME, EventKind::PromptSubmitted, true, false),
    EventRow::new(AfterAgent::NAME, EventKind::Stop, true, false),
    EventRow::new(BeforeTool::NAME, EventKind::ToolPre, true, true),
    EventRow::new(AfterTool::NAME, EventKind::ToolPost, true, true),
    EventRow::new(BeforeModel::NAME, EventKind::ModelRequest, true, false),
    EventRow::new(AfterModel::NAME, EventKind::ModelResponse, true, false),
    EventRow::new(BeforeToolSelection::NAME, EventKind::ModelRequest, true, false),
    EventRow::new(PreCompress::NAME, EventKind::CompactPre, false, false),
    EventRow::new(Notification::NAME, EventKind::Notification, false, false),
];

/// Looks up a native event by its exact (case-sensitive) name.
pub fn event_info(name: &str) -> Option<&'static EventRow> {
    NATIVE_EVENTS.iter().find(|e| e.name == name)
}

// ---------------------------------------------------------------------------------------------
// Shared nested shapes
// ---------------------------------------------------------------------------------------------

/// Deserializes a present field as `Some`, even when its value is `null`, so that `"k": null`
/// survives a decode/encode round trip (absence stays `None` through `default`).
fn present<'de, D>(de: D) -> Result<Option<Value>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    Value::deserialize(de).map(Some)
}

/// `mcp_context` on `BeforeTool`/`AfterTool` when the tool is served by an MCP server.
///
/// `server_name` and `tool_name` (the name on the server) are authoritative: prefer them over
/// parsing the `mcp_<server>_<tool>` tool name (see [`crate::mcp`]). Transport info is one of
/// `command`/`args`/`cwd` (stdio), `url` (SSE / streamable HTTP) or `tcp` (WebSocket).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct McpContext {
    /// The MCP server's name as configured in `mcpServers`.
    pub server_name: String,
    /// The tool's name as the MCP server knows it.
    pub tool_name: String,
    /// stdio transport: the server command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// stdio transport: the server command's arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
    /// stdio transport: the server's working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// SSE / HTTP transport: the server URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// WebSocket transport: the server address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<String>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `tool_response` on `AfterTool`: Gemini's `ToolResult` projection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolResponse {
    /// What the model receives: a string, a `Part` or an array of parts.
    #[serde(
        rename = "llmContent",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub llm_content: Option<Value>,
    /// What the user sees: a string or a structured display (e.g. a file diff object).
    #[serde(
        rename = "returnDisplay",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub return_display: Option<Value>,
    /// Present when the tool failed: `{type, message}` (e.g. `shell_execute_error`).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `llm_request` on the model-level events: Gemini's decoupled request shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmRequest {
    /// The model id the request goes to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The conversation so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<LlmMessage>>,
    /// Generation config (`temperature`, `topP`, `topK`, …), free shape.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub config: Option<Value>,
    /// Tool config (`mode` `AUTO|ANY|NONE`, `allowedFunctionNames`), free shape.
    #[serde(
        rename = "toolConfig",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_config: Option<Value>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One message of [`LlmRequest::messages`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmMessage {
    /// `user`, `model` or `system`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The message content: a string in 0.61.0, possibly parts in other versions.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub content: Option<Value>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `llm_response` on `AfterModel`: one streamed chunk (or a whole response).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmResponse {
    /// The chunk's text, concatenated by Gemini (sent by 0.61.0, not in the reference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<LlmCandidate>>,
    /// Token usage (`promptTokenCount`, `candidatesTokenCount`, `totalTokenCount`), free shape.
    #[serde(
        rename = "usageMetadata",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub usage_metadata: Option<Value>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One candidate of [`LlmResponse::candidates`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmCandidate {
    /// The candidate's content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<LlmContent>,
    /// `STOP`, `MAX_TOKENS`, `SAFETY`, … (absent on intermediate chunks).
    #[serde(rename = "finishReason", default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// The candidate's index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<i64>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// [`LlmCandidate::content`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmContent {
    /// Usually `model`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The parts: plain strings for text in 0.61.0, objects (`functionCall`, …) otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<Value>>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

// ---------------------------------------------------------------------------------------------
// The 11 events
// ---------------------------------------------------------------------------------------------

/// `SessionStart`: startup, resume or `/clear`. Not a gate: context and a system message only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SessionStart {
    /// The session id (also exported as `GEMINI_SESSION_ID`).
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `SessionStart`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// `startup`, `resume` or `clear` (the matcher input, compared exactly).
    pub source: String,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `SessionEnd`: exit, `/clear` or logout. Best effort: Gemini does not wait for the hook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SessionEnd {
    /// The session id.
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `SessionEnd`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// `exit`, `clear`, `logout`, `prompt_input_exit` or `other`.
    pub reason: String,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `BeforeAgent`: a prompt was submitted, before planning (≈ Claude's `UserPromptSubmit`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BeforeAgent {
    /// The session id.
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `BeforeAgent`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// The submitted prompt.
    pub prompt: String,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `AfterAgent`: once per turn after the final answer (≈ Claude's `Stop`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AfterAgent {
    /// The session id.
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `AfterAgent`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// The prompt of the turn that just finished.
    pub prompt: String,
    /// The agent's final answer.
    pub prompt_response: String,
    /// `true` when this turn is itself a retry caused by an earlier `AfterAgent` deny.
    pub stop_hook_active: bool,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `BeforeTool`: before a tool call. Gate: deny, stop, rewrite input (shallow merge), ask.
///
/// No tool-call id is sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BeforeTool {
    /// The session id.
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `BeforeTool`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// The tool's registry name (`run_shell_command`, `mcp_<server>_<tool>`, …).
    pub tool_name: String,
    /// The tool's arguments (a JSON object).
    pub tool_input: Value,
    /// Set for MCP tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_context: Option<McpContext>,
    /// The name the model asked for when Gemini resolved it to another tool (an alias).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_request_name: Option<String>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `AfterTool`: after a tool call, successful or not (errors in `tool_response.error`).
///
/// No tool-call id is sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AfterTool {
    /// The session id.
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `AfterTool`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// The tool's registry name.
    pub tool_name: String,
    /// The tool's arguments as they were run (after any `BeforeTool` rewrite).
    pub tool_input: Value,
    /// The tool's result.
    pub tool_response: ToolResponse,
    /// Set for MCP tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_context: Option<McpContext>,
    /// The name the model asked for when Gemini resolved it to another tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_request_name: Option<String>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl AfterTool {
    /// The tool failure carried in `tool_response.error`, if any (`null` counts as none).
    pub fn error(&self) -> Option<&Value> {
        self.tool_response.error.as_ref().filter(|e| !e.is_null())
    }

    /// A human-readable failure message: `error.message` when it is a string, the error itself
    /// when it is a string, else its compact JSON. `None` when the tool succeeded.
    pub fn error_message(&self) -> Option<String> {
        let err = self.error()?;
        Some(match err {
            Value::String(s) => s.clone(),
            Value::Object(m) => match m.get("message") {
                Some(Value::String(s)) => s.clone(),
                _ => err.to_string(),
            },
            other => other.to_string(),
        })
    }

    /// Whether this call failed (reported as `tool.error` by the unified layer).
    pub fn is_error(&self) -> bool {
        self.error().is_some()
    }
}

/// `BeforeModel`: before each LLM request. Gate: deny, partial request override, synthetic
/// response. Experimental in the unified layer (hot path: fires for every model call).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BeforeModel {
    /// The session id.
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `BeforeModel`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// The request about to be sent.
    pub llm_request: LlmRequest,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `AfterModel`: once per streamed response **chunk**. Gate: deny, replace the chunk.
/// Experimental in the unified layer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AfterModel {
    /// The session id.
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `AfterModel`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// The request this chunk answers.
    pub llm_request: LlmRequest,
    /// The chunk.
    pub llm_response: LlmResponse,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `BeforeToolSelection`: before the model picks tools. Can only restrict the tools
/// (`hookSpecificOutput.toolConfig`). Experimental in the unified layer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BeforeToolSelection {
    /// The session id.
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `BeforeToolSelection`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// The request the tool selection applies to.
    pub llm_request: LlmRequest,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `PreCompress`: before history compression. Advisory; Gemini does not wait for the hook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PreCompress {
    /// The session id.
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `PreCompress`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// `manual` or `auto`.
    pub trigger: String,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `Notification`: a system alert (only `ToolPermission` today). Observe only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Notification {
    /// The session id.
    pub session_id: String,
    /// The transcript file, `""` when the session is not recorded.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// Always `Notification`.
    pub hook_event_name: String,
    /// Gemini's own ISO-8601 timestamp for this hook call.
    pub timestamp: String,
    /// `ToolPermission` (the matcher input, compared exactly).
    pub notification_type: String,
    /// The alert text.
    pub message: String,
    /// Details of the alert (for `ToolPermission`: the confirmation details), free shape.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

macro_rules! impl_name {
    ($($t:ident),* $(,)?) => {
        $(
            impl $t {
                #[doc = concat!("The native event name, `", stringify!($t), "`.")]
                pub const NAME: &'static str = stringify!($t);
            }
        )*
    };
}

impl_name!(
    SessionStart,
    SessionEnd,
    BeforeAgent,
    AfterAgent,
    BeforeTool,
    AfterTool,
    BeforeModel,
    AfterModel,
    BeforeToolSelection,
    PreCompress,
    Notification,
);

// ---------------------------------------------------------------------------------------------
// NativeEvent and decode
// ---------------------------------------------------------------------------------------------

/// Any Gemini CLI hook payload, decoded into its typed struct.
///
/// Serializes back to the payload's JSON object (untagged: every struct carries its own
/// `hook_event_name`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum NativeEvent {
    /// [`SessionStart`].
    SessionStart(SessionStart),
    /// [`SessionEnd`].
    SessionEnd(SessionEnd),
    /// [`BeforeAgent`].
    BeforeAgent(BeforeAgent),
    /// [`AfterAgent`].
    AfterAgent(AfterAgent),
    /// [`BeforeTool`].
    BeforeTool(BeforeTool),
    /// [`AfterTool`].
    AfterTool(AfterTool),
    /// [`BeforeModel`].
    BeforeModel(BeforeModel),
    /// [`AfterModel`].
    AfterModel(AfterModel),
    /// [`BeforeToolSelection`].
    BeforeToolSelection(BeforeToolSelection),
    /// [`PreCompress`].
    PreCompress(PreCompress),
    /// [`Notification`].
    Notification(Notification),
    /// An event this crate does not know (a newer Gemini CLI), with the whole object kept.
    Other(Map<String, Value>),
}

macro_rules! each_known {
    ($self:expr, $ev:ident => $known:expr, $map:ident => $other:expr) => {
        match $self {
            NativeEvent::SessionStart($ev) => $known,
            NativeEvent::SessionEnd($ev) => $known,
            NativeEvent::BeforeAgent($ev) => $known,
            NativeEvent::AfterAgent($ev) => $known,
            NativeEvent::BeforeTool($ev) => $known,
            NativeEvent::AfterTool($ev) => $known,
            NativeEvent::BeforeModel($ev) => $known,
            NativeEvent::AfterModel($ev) => $known,
            NativeEvent::BeforeToolSelection($ev) => $known,
            NativeEvent::PreCompress($ev) => $known,
            NativeEvent::Notification($ev) => $known,
            NativeEvent::Other($map) => $other,
        }
    };
}

fn map_str<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

impl NativeEvent {
    /// The native event name (`hook_event_name`; `""` for an [`Other`](Self::Other) payload
    /// whose name is not a string, which [`decode`] never produces).
    pub fn name(&self) -> &str {
        each_known!(self, e => e.hook_event_name.as_str(), m => map_str(m, "hook_event_name").unwrap_or(""))
    }

    /// The unified kind of [`NATIVE_EVENTS`] ([`EventKind::ToolError`] for a failed
    /// `AfterTool`, [`EventKind::Other`] when the event is unknown).
    pub fn kind(&self) -> EventKind {
        match self {
            Self::AfterTool(e) if e.is_error() => EventKind::ToolError,
            Self::Other(_) => EventKind::Other,
            _ => event_info(self.name()).map_or(EventKind::Other, |i| i.kind),
        }
    }

    /// `session_id`.
    pub fn session_id(&self) -> Option<&str> {
        each_known!(self, e => Some(e.session_id.as_str()), m => map_str(m, "session_id"))
    }

    /// `cwd`.
    pub fn cwd(&self) -> Option<&str> {
        each_known!(self, e => Some(e.cwd.as_str()), m => map_str(m, "cwd"))
    }

    /// `transcript_path` (`Some("")` when the session is not recorded).
    pub fn transcript_path(&self) -> Option<&str> {
        each_known!(self, e => Some(e.transcript_path.as_str()), m => map_str(m, "transcript_path"))
    }

    /// Gemini's own `timestamp` (ISO-8601), verbatim.
    pub fn timestamp(&self) -> Option<&str> {
        each_known!(self, e => Some(e.timestamp.as_str()), m => map_str(m, "timestamp"))
    }

    /// The unknown keys of the payload (for [`Other`](Self::Other), the whole object).
    pub fn extra(&self) -> &Map<String, Value> {
        each_known!(self, e => &e.extra, m => m)
    }

    /// The payload as a JSON value (the typed fields re-serialized, `extra` included).
    pub fn to_value(&self) -> Value {
        // Serializing these types cannot fail: keys are strings and values are JSON already.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Why a payload could not be decoded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NativeDecodeError {
    /// The bytes are not a JSON object of the expected shape.
    #[error(
        "gemini: invalid {} payload at `{path}`: {source}",
        event.as_deref().unwrap_or("hook")
    )]
    Invalid {
        /// The native event name when it could be read.
        event: Option<String>,
        /// The JSON path of the failure (`.` for the root).
        path: String,
        /// The underlying error.
        #[source]
        source: serde_json::Error,
    },
}

impl NativeDecodeError {
    /// The JSON path of the failure.
    pub fn path(&self) -> &str {
        match self {
            Self::Invalid { path, .. } => path,
        }
    }

    /// The native event name, when it could be read.
    pub fn event(&self) -> Option<&str> {
        match self {
            Self::Invalid { event, .. } => event.as_deref(),
        }
    }

    /// `serde_json`'s category: syntax, data (shape), EOF or I/O.
    pub fn classify(&self) -> serde_json::error::Category {
        match self {
            Self::Invalid { source, .. } => source.classify(),
        }
    }
}

#[derive(Deserialize)]
struct Probe {
    #[serde(default)]
    hook_event_name: Option<String>,
}

#[derive(Deserialize)]
struct RequiredProbe {
    #[allow(dead_code)]
    hook_event_name: String,
}

fn invalid(event: Option<&str>, path: String, source: serde_json::Error) -> NativeDecodeError {
    NativeDecodeError::Invalid {
        event: event.map(str::to_owned),
        path,
        source,
    }
}

/// Where a payload is parsed from: the received bytes, or a patched value.
trait Source {
    fn parse<T: DeserializeOwned>(&self, event: Option<&str>) -> Result<T, NativeDecodeError>;
}

impl Source for [u8] {
    fn parse<T: DeserializeOwned>(&self, event: Option<&str>) -> Result<T, NativeDecodeError> {
        let mut de = serde_json::Deserializer::from_slice(self);
        let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            invalid(event, path, e.into_inner())
        })?;
        de.end().map_err(|e| invalid(event, ".".to_owned(), e))?;
        Ok(value)
    }
}

impl Source for Value {
    fn parse<T: DeserializeOwned>(&self, event: Option<&str>) -> Result<T, NativeDecodeError> {
        serde_path_to_error::deserialize(self.clone()).map_err(|e| {
            let path = e.path().to_string();
            invalid(event, path, e.into_inner())
        })
    }
}

fn dispatch<S: Source + ?Sized>(src: &S, name: &str) -> Result<NativeEvent, NativeDecodeError> {
    let ev = Some(name);
    Ok(match name {
        SessionStart::NAME => NativeEvent::SessionStart(src.parse(ev)?),
        SessionEnd::NAME => NativeEvent::SessionEnd(src.parse(ev)?),
        BeforeAgent::NAME => NativeEvent::BeforeAgent(src.parse(ev)?),
        AfterAgent::NAME => NativeEvent::AfterAgent(src.parse(ev)?),
        BeforeTool::NAME => NativeEvent::BeforeTool(src.parse(ev)?),
        AfterTool::NAME => NativeEvent::AfterTool(src.parse(ev)?),
        BeforeModel::NAME => NativeEvent::BeforeModel(src.parse(ev)?),
        AfterModel::NAME => NativeEvent::AfterModel(src.parse(ev)?),
        BeforeToolSelection::NAME => NativeEvent::BeforeToolSelection(src.parse(ev)?),
        PreCompress::NAME => NativeEvent::PreCompress(src.parse(ev)?),
        Notification::NAME => NativeEvent::Notification(src.parse(ev)?),
        _ => NativeEvent::Other(src.parse(ev)?),
    })
}

/// Decodes one hook payload (the stdin bytes) into its typed native struct.
///
/// ```
/// use agenthooks_gemini::native::{decode, NativeEvent};
///
/// let ev = decode(br#"{"session_id":"s","transcript_path":"","cwd":"/p",
///     "hook_event_name":"BeforeAgent","timestamp":"2026-11-30T11:59:25.552Z",
///     "prompt":"hi","new_field":1}"#).unwrap();
/// let NativeEvent::BeforeAgent(e) = &ev else { panic!() };
/// assert_eq!(e.prompt, "hi");
/// assert_eq!(e.timestamp, "2026-11-30T11:59:25.552Z");
/// assert_eq!(e.extra["new_field"], 1);
/// assert_eq!(ev.kind().as_str(), "prompt.submitted");
/// ```
pub fn decode(bytes: &[u8]) -> Result<NativeEvent, NativeDecodeError> {
    decode_with_hint(bytes, None)
}

/// Like [`decode`], but when the payload has no `hook_event_name` (Gemini always sends one;
/// hand-made payloads may not) the `hint` — the generated config's `--event` — names the
/// event and is added to the decoded struct. A payload that names its event wins over the
/// hint.
pub fn decode_with_hint(bytes: &[u8], hint: Option<&str>) -> Result<NativeEvent, NativeDecodeError> {
    let probe: Probe = bytes.parse(None)?;
    match (probe.hook_event_name, hint) {
        (Some(name), _) => dispatch(bytes, &name),
        (None, Some(hint)) => {
            let mut map: Map<String, Value> = bytes.parse(None)?;
            map.insert("hook_event_name".to_owned(), Value::from(hint));
            dispatch(&Value::Object(map), hint)
        }
        (None, None) => {
            // The precise error: a missing field, or `null` where a string belongs.
            let _: RequiredProbe = bytes.parse(None)?;
            Err(invalid(
                None,
                "hook_event_name".to_owned(),
                serde::de::Error::custom("`hook_event_name` is missing"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str =
        r#""session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","timestamp":"2026-11-30T11:59:25.376Z""#;

    fn payload(event: &str, rest: &str) -> Vec<u8> {
        let sep = if rest.is_empty() { "" } else { "," };
        format!(r#"{{{BASE},"hook_event_name":"{event}"{sep}{rest}}}"#).into_bytes()
    }

    #[test]
    fn events_table_lists_all_eleven_with_kinds() {
        let names: Vec<_> = NATIVE_EVENTS.iter().map(|e| e.name).collect();
        assert_eq!(
            names,
            [
                "SessionStart",
                "SessionEnd",
                "BeforeAgent",
                "AfterAgent",
                "BeforeTool",
                "AfterTool",
                "BeforeModel",
                "AfterModel",
                "BeforeToolSelection",
                "PreCompress",
                "Notification"
            ]
        );
        assert_eq!(
            event_info("BeforeToolSelection").map(|e| e.kind),
            Some(EventKind::ModelRequest)
        );
        assert_eq!(event_info("AfterAgent").map(|e| e.kind), Some(EventKind::Stop));
        assert_eq!(
            event_info("PreCompress").map(|e| (e.kind, e.blocking, e.tool_matcher)),
            Some((EventKind::CompactPre, false, false))
        );
        assert_eq!(
            event_info("AfterTool").map(|e| (e.kind, e.blocking, e.tool_matcher)),
            Some((EventKind::ToolPost, true, true))
        );
        assert!(event_info("beforetool").is_none());
    }

    #[test]
    fn decodes_each_event_and_keeps_timestamp() {
        let cases: &[(&str, &str, &str)] = &[
            ("SessionStart", r#""source":"resume""#, "session.start"),
            ("SessionEnd", r#""reason":"logout""#, "session.end"),
            ("BeforeAgent", r#""prompt":"p""#, "prompt.submitted"),
            (
                "AfterAgent",
                r#""prompt":"p","prompt_response":"r","stop_hook_active":true"#,
                "agent.stop",
            ),
            (
                "BeforeTool",
                r#""tool_name":"read_file","tool_input":{"file_path":"a"}"#,
                "tool.pre",
            ),
            (
                "AfterTool",
                r#""tool_name":"read_file","tool_input":{},"tool_response":{"llmContent":"x","returnDisplay":""}"#,
                "tool.post",
            ),
            (
                "BeforeModel",
                r#""llm_request":{"model":"m","messages":[]}"#,
                "model.request",
            ),
            (
                "AfterModel",
                r#""llm_request":{},"llm_response":{"candidates":[{"content":{"role":"model","parts":["a",{"text":"b"}]},"finishReason":"STOP","index":0}]}"#,
                "model.response",
            ),
            (
                "BeforeToolSelection",
                r#""llm_request":{"toolConfig":{"mode":"AUTO"}}"#,
                "model.request",
            ),
            ("PreCompress", r#""trigger":"manual""#, "compact.pre"),
            (
                "Notification",
                r#""notification_type":"ToolPermission","message":"m","details":{"type":"exec"}"#,
                "notification",
            ),
        ];
        for (name, rest, kind) in cases {
            let ev = decode(&payload(name, rest)).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(ev.name(), *name);
            assert_eq!(ev.kind().as_str(), *kind, "{name}");
            assert_eq!(ev.timestamp(), Some("2026-11-30T11:59:25.376Z"));
            assert_eq!(ev.session_id(), Some("s1"));
            assert_eq!(ev.cwd(), Some("/p"));
            assert_eq!(ev.transcript_path(), Some("/t.jsonl"));
            assert!(ev.extra().is_empty(), "{name}: {:?}", ev.extra());
            assert!(!matches!(ev, NativeEvent::Other(_)), "{name}");
        }
    }

    #[test]
    fn typed_fields_decode() {
        let ev = decode(&payload(
            "AfterAgent",
            r#""prompt":"p","prompt_response":"r","stop_hook_active":true"#,
        ))
        .unwrap();
        let NativeEvent::AfterAgent(a) = ev else {
            panic!("wrong variant")
        };
        assert!(a.stop_hook_active);
        assert_eq!(a.prompt_response, "r");

        let ev = decode(&payload(
            "AfterModel",
            r#""llm_request":{"model":"m","messages":[{"role":"user","content":"hi"}],"config":{"topK":64}},"llm_response":{"text":"ok","candidates":[{"content":{"role":"model","parts":["ok"]},"finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":15}}"#,
        ))
        .unwrap();
        let NativeEvent::AfterModel(m) = ev else {
            panic!("wrong variant")
        };
        assert_eq!(m.llm_request.model.as_deref(), Some("m"));
        let msgs = m.llm_request.messages.as_deref().unwrap_or_default();
        assert_eq!(msgs[0].role.as_deref(), Some("user"));
        assert_eq!(msgs[0].content, Some(Value::from("hi")));
        assert_eq!(m.llm_response.text.as_deref(), Some("ok"));
        let cands = m.llm_response.candidates.as_deref().unwrap_or_default();
        assert_eq!(cands[0].finish_reason.as_deref(), Some("STOP"));
        assert_eq!(cands[0].index, Some(0));
        assert_eq!(
            cands[0].content.as_ref().and_then(|c| c.parts.clone()),
            Some(vec![Value::from("ok")])
        );
        assert_eq!(
            m.llm_response.usage_metadata,
            Some(serde_json::json!({"totalTokenCount": 15}))
        );
    }

    #[test]
    fn mcp_context_and_original_name() {
        let ev = decode(&payload(
            "BeforeTool",
            r#""tool_name":"mcp_github_create_issue","tool_input":{"title":"t"},"mcp_context":{"server_name":"github","tool_name":"create_issue","url":"https://x/mcp","headers_seen":true},"original_request_name":"create_issue""#,
        ))
        .unwrap();
        let NativeEvent::BeforeTool(t) = ev else {
            panic!("wrong variant")
        };
        let mcp = t.mcp_context.as_ref().unwrap();
        assert_eq!(mcp.server_name, "github");
        assert_eq!(mcp.tool_name, "create_issue");
        assert_eq!(mcp.url.as_deref(), Some("https://x/mcp"));
        assert_eq!(mcp.command, None);
        assert_eq!(mcp.extra["headers_seen"], true);
        assert_eq!(t.original_request_name.as_deref(), Some("create_issue"));
    }

    #[test]
    fn after_tool_error_is_tool_error() {
        let ev = decode(&payload(
            "AfterTool",
            r#""tool_name":"run_shell_command","tool_input":{"command":"false"},"tool_response":{"llmContent":"x","returnDisplay":"y","error":{"type":"shell_execute_error","message":"exit 1"}}"#,
        ))
        .unwrap();
        assert_eq!(ev.kind(), EventKind::ToolError);
        let NativeEvent::AfterTool(t) = ev else {
            panic!("wrong variant")
        };
        assert_eq!(t.error_message().as_deref(), Some("exit 1"));

        let null_err = decode(&payload(
            "AfterTool",
            r#""tool_name":"x","tool_input":{},"tool_response":{"error":null}"#,
        ))
        .unwrap();
        assert_eq!(null_err.kind(), EventKind::ToolPost);

        let str_err = decode(&payload(
            "AfterTool",
            r#""tool_name":"x","tool_input":{},"tool_response":{"error":"boom"}"#,
        ))
        .unwrap();
        let NativeEvent::AfterTool(t) = str_err else {
            panic!("wrong variant")
        };
        assert_eq!(t.error_message().as_deref(), Some("boom"));
    }

    #[test]
    fn unknown_keys_land_in_extra_and_round_trip() {
        let bytes = payload("BeforeAgent", r#""prompt":"p","future":{"a":[1,2]},"z":null"#);
        let ev = decode(&bytes).unwrap();
        assert_eq!(ev.extra().len(), 2);
        assert_eq!(ev.extra()["future"], serde_json::json!({"a": [1, 2]}));
        assert_eq!(ev.extra()["z"], Value::Null);
        let original: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(ev.to_value(), original);
    }

    #[test]
    fn unknown_event_is_other() {
        let ev = decode(&payload("AfterCompress", r#""trigger":"auto""#)).unwrap();
        assert_eq!(ev.name(), "AfterCompress");
        assert_eq!(ev.kind(), EventKind::Other);
        assert_eq!(ev.timestamp(), Some("2026-11-30T11:59:25.376Z"));
        let NativeEvent::Other(m) = &ev else {
            panic!("wrong variant")
        };
        assert_eq!(m["trigger"], "auto");
    }

    #[test]
    fn errors_carry_path_and_event() {
        let e = decode(&payload("AfterAgent", r#""prompt":"p","prompt_response":"r""#)).unwrap_err();
        assert_eq!(e.event(), Some("AfterAgent"));
        assert!(e.to_string().contains("stop_hook_active"), "{e}");
        assert_eq!(e.classify(), serde_json::error::Category::Data);

        let e = decode(&payload(
            "AfterModel",
            r#""llm_request":{},"llm_response":{"candidates":[{"index":"zero"}]}"#,
        ))
        .unwrap_err();
        assert_eq!(e.path(), "llm_response.candidates[0].index");

        let e = decode(br#"{"session_id":"s"}"#).unwrap_err();
        assert_eq!(e.event(), None);
        assert!(e.to_string().contains("hook_event_name"), "{e}");

        for bad in [&b""[..], b"[]", b"{", b"null", b"\xff", br#"{"hook_event_name":1}"#] {
            assert!(decode(bad).is_err(), "{bad:?}");
        }
        let e = decode(&[payload("BeforeAgent", r#""prompt":"p""#), b" x".to_vec()].concat()).unwrap_err();
        assert_eq!(e.classify(), serde_json::error::Category::Syntax);
    }

    #[test]
    fn trailing_whitespace_is_fine() {
        let mut b = payload("PreCompress", r#""trigger":"auto""#);
        b.extend_from_slice(b"\n");
        assert_eq!(decode(&b).unwrap().kind(), EventKind::CompactPre);
    }
}
