//! Native OpenCode shim frames, one typed struct per hook and per bus event.
//!
//! OpenCode has no hook process protocol: its plugins are functions inside the OpenCode server.
//! The generated shim plugin ([`crate::shim`]) forwards each hook call to the `serve` daemon as
//! one NDJSON frame, `{"seq", "hook", "timeout_ms"?, "input", "output"?}`: `hook` is OpenCode's
//! hook name (`tool.execute.before`, `chat.message`, …), `input` and `output` are the two
//! arguments OpenCode passed, JSON-safe (functions and URL objects stripped). Bus events arrive
//! through the `event` hook: `{"hook": "event", "input": {"event": {"id", "type",
//! "properties"}}}`; their native name is the bus event's `type` (`session.idle`,
//! `permission.asked`), so every bus event has its own row.
//!
//! The table at the end of this module is the provider kit's `native_events!`: one row per
//! native event with its facts (kind, blocking, tool matcher, capabilities, fail-closed shape,
//! identifying fields). Typing rules (tolerant decoding, `docs/codec-guide.md`):
//!
//! - The native name is not a payload key (`hook` is `event` for every bus event), so the codec
//!   computes it and passes it as the hint ([`NativeEvent::NAME_KEY`] is `None`).
//! - Only `input` identifies an event where the kind or the tool depends on it (tool hooks,
//!   `session.created`, `message.part.updated`); every other field is optional. OpenCode's
//!   hook inputs gained fields over 1.x (`chat.message` had only `sessionID` before ~1.0.100;
//!   `agent`, `model`, `messageID`, `variant` came later — the 1.18.33 capture still sends only
//!   `sessionID` from `opencode run`), so every nested field is an `Option` too.
//! - Free-shape values (tool `args`, `metadata`, message `parts`, models) are
//!   [`serde_json::Value`]; unknown keys land in each struct's `extra`.
//! - The permission event is decoded in both shapes: v2 `permission.asked` (what 1.18 emits)
//!   and v1 `permission.updated` (what the plugin types still declare, and older servers emit).

use agenthooks_core::kit::lenient::{self, present};
use agenthooks_core::kit::FailShape;
use agenthooks_core::{CapSet, Capability as C};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Unknown keys of a payload object, in wire order.
pub use agenthooks_core::kit::Extra;

// ---------------------------------------------------------------------------------------------
// Hook arguments
// ---------------------------------------------------------------------------------------------

/// `input` of `tool.execute.before`: `{tool, sessionID, callID}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolBeforeInput {
    /// OpenCode's tool id (`bash`, `read`, `edit`, `<server>_<tool>` for MCP tools).
    pub tool: String,
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The model's tool-call id (the same on `tool.execute.after` and the tool part).
    #[serde(rename = "callID", default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `output` of `tool.execute.before`: `{args}`, which a hook mutates to rewrite the call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolBeforeOutput {
    /// The tool arguments as the model produced them (an object).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub args: Option<Value>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `input` of `tool.execute.after`: `{tool, sessionID, callID, args}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolAfterInput {
    /// OpenCode's tool id.
    pub tool: String,
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The model's tool-call id.
    #[serde(rename = "callID", default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// The arguments the tool ran with (after any rewrite).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub args: Option<Value>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `output` of `tool.execute.after`: `{title, output, metadata}`; `output` is what the model
/// sees, so replacing it replaces the tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolAfterOutput {
    /// The result's title (shown in the UI).
    #[serde(
        default,
        deserialize_with = "lenient::opt_text",
        skip_serializing_if = "Option::is_none"
    )]
    pub title: Option<String>,
    /// The result text the model sees.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// Tool-specific metadata (exit code, diff, preview, …).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A model reference `{providerID, modelID}` (`chat.message`'s `input.model`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ModelRef {
    /// The provider (`anthropic`, a custom provider id).
    #[serde(rename = "providerID", default, skip_serializing_if = "Option::is_none")]
    pub provider_id: Option<String>,
    /// The model id.
    #[serde(rename = "modelID", default, skip_serializing_if = "Option::is_none")]
    pub model_id: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `input` of `chat.message`: `{sessionID, agent?, model?, messageID?, variant?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ChatMessageInput {
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The agent (`build`, `plan`, a custom agent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The model the message goes to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelRef>,
    /// The new user message's id.
    #[serde(rename = "messageID", default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// The model variant (reasoning effort).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `output` of `chat.message`: `{message, parts}`; a hook edits `parts` (context injection).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ChatMessageOutput {
    /// The user message (`{id, sessionID, role, time, agent, model}`).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub message: Option<Value>,
    /// Its parts (`{id, sessionID, messageID, type: "text", text, synthetic?}`, files, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<Value>>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `input` of `chat.params` / `chat.headers`: `{sessionID, agent, model, provider, message}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ChatRequestInput {
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The agent making the call (`build`, `title`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The model (OpenCode's full model record).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub model: Option<Value>,
    /// The provider context.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub provider: Option<Value>,
    /// The user message being answered.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub message: Option<Value>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `input` of `experimental.text.complete`: `{sessionID, messageID, partID}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TextCompleteInput {
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The assistant message.
    #[serde(rename = "messageID", default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// The text part.
    #[serde(rename = "partID", default, skip_serializing_if = "Option::is_none")]
    pub part_id: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `output` of `experimental.text.complete`: `{text}`, the part's final text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TextCompleteOutput {
    /// The text.
    #[serde(
        default,
        deserialize_with = "lenient::opt_text",
        skip_serializing_if = "Option::is_none"
    )]
    pub text: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `input` of `experimental.session.compacting`: `{sessionID}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SessionInput {
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `output` of `experimental.session.compacting`: `{context, prompt?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompactingOutput {
    /// Strings appended to the compaction prompt.
    #[serde(
        default,
        deserialize_with = "lenient::opt_string_list",
        skip_serializing_if = "Option::is_none"
    )]
    pub context: Option<Vec<String>>,
    /// A replacement compaction prompt.
    #[serde(
        default,
        deserialize_with = "lenient::opt_text",
        skip_serializing_if = "Option::is_none"
    )]
    pub prompt: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

// ---------------------------------------------------------------------------------------------
// Bus events (the `event` hook)
// ---------------------------------------------------------------------------------------------

/// `input` of the `event` hook: `{event}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Bus<P> {
    /// The bus event.
    pub event: BusEvent<P>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One bus event: `{id?, type, properties}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BusEvent<P> {
    /// The event id (`evt_…`, 1.18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The event type (the native name).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The event's properties.
    #[serde(default = "Option::default", skip_serializing_if = "Option::is_none")]
    pub properties: Option<P>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Properties that name a session: `{sessionID, …}` (`session.idle`, `session.compacted`, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SessionProps {
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A session record (`session.created.properties.info`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SessionRecord {
    /// The session id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The parent session: set on a child (subagent) session.
    #[serde(rename = "parentID", default, skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
    /// The project.
    #[serde(rename = "projectID", default, skip_serializing_if = "Option::is_none")]
    pub project_id: Option<String>,
    /// The session's directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directory: Option<String>,
    /// The title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The OpenCode version that created it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `session.created` / `session.updated` / `session.deleted` properties: `{sessionID?, info}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SessionInfoProps {
    /// The session (1.18 also sends it beside `info`).
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The session record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info: Option<SessionRecord>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// The tool a permission is asked for (`permission.asked.properties.tool`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PermissionTool {
    /// The assistant message holding the call.
    #[serde(rename = "messageID", default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// The tool-call id (the `callID` of `tool.execute.before`).
    #[serde(rename = "callID", default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `permission.asked` properties (v2, 1.18): `{id, sessionID, permission, patterns, metadata,
/// always, tool?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PermissionAskedProps {
    /// The request id (`per_…`), the `{requestID}` of the reply route.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The permission (`bash`, `edit`, `webfetch`, an MCP tool id, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission: Option<String>,
    /// The patterns asked for (the command, the path).
    #[serde(
        default,
        deserialize_with = "lenient::opt_string_list",
        skip_serializing_if = "Option::is_none"
    )]
    pub patterns: Option<Vec<String>>,
    /// Tool-specific details (`{command}` for bash).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    /// The patterns an "always" reply would allow from now on.
    #[serde(
        default,
        deserialize_with = "lenient::opt_string_list",
        skip_serializing_if = "Option::is_none"
    )]
    pub always: Option<Vec<String>>,
    /// The tool call, when the ask comes from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<PermissionTool>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `permission.updated` properties (v1 `Permission`): `{id, type, pattern, sessionID,
/// messageID, callID?, title, metadata, time}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PermissionV1Props {
    /// The permission id (the `{permissionID}` of the legacy reply route).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The permission type (`bash`, `edit`, …).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub permission_type: Option<String>,
    /// The pattern(s) asked for: a string or a list.
    #[serde(
        default,
        deserialize_with = "lenient::opt_string_list",
        skip_serializing_if = "Option::is_none"
    )]
    pub pattern: Option<Vec<String>>,
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The assistant message.
    #[serde(rename = "messageID", default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// The tool-call id.
    #[serde(rename = "callID", default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// A human title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Tool-specific details.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    /// Timestamps.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub time: Option<Value>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A tool part's state (`message.part.updated.properties.part.state`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolState {
    /// `pending`, `running`, `completed`, `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The arguments.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    /// The result (completed).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// The error text (error).
    #[serde(
        default,
        deserialize_with = "lenient::opt_text",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<String>,
    /// Start/end times.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub time: Option<Value>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A message part (`message.part.updated.properties.part`): text, reasoning, tool, step, …
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Part {
    /// The part id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The part type (`text`, `tool`, `step-start`, `step-finish`, `reasoning`, …).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub part_type: Option<String>,
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The message.
    #[serde(rename = "messageID", default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// The tool id (tool parts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The tool-call id (tool parts).
    #[serde(rename = "callID", default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// The tool state (tool parts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<ToolState>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `message.part.updated` properties: `{sessionID?, part, delta?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PartProps {
    /// The session.
    #[serde(rename = "sessionID", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<Part>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `file.edited` properties: `{file}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FileProps {
    /// The file path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `tui.toast.show` properties: `{title?, message, variant}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToastProps {
    /// The title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `info`, `success`, `warning`, `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

// ---------------------------------------------------------------------------------------------
// What OpenCode (through the shim) honours, per event (the rows' `caps`)
// ---------------------------------------------------------------------------------------------

/// `tool.execute.before`: deny (a throw, the reason is the tool result the model sees) and a
/// rewrite (mutated `args`, applied with or without a verdict).
pub const TOOL_GATE: CapSet = CapSet::of(&[C::Deny, C::UpdateInput, C::NeutralRewrite]);
/// `tool.execute.after`: replace the output the model sees.
pub const POST_TOOL: CapSet = CapSet::of(&[C::ReplaceOutput]);
/// `chat.message`: block the prompt (a throw) and add context (an added synthetic text part).
pub const PROMPT: CapSet = CapSet::of(&[C::Deny, C::AddContext]);
/// `experimental.session.compacting`: add context to the compaction prompt.
pub const COMPACTING: CapSet = CapSet::of(&[C::AddContext]);
/// `session.idle`: continue (a follow-up prompt through the HTTP API).
pub const STOP: CapSet = CapSet::of(&[C::ContinueAgent]);
/// `permission.asked` / `permission.updated`: allow or deny (a reply over the HTTP API).
pub const PERMISSION: CapSet = CapSet::of(&[C::Allow, C::Deny]);

/// The identifying field of events whose tool or kind is in `input`.
const INPUT: &[&str] = &["input"];

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

agenthooks_core::native_events! {
    /// A decoded OpenCode shim frame: one variant per hook and bus event of OpenCode 1.18.33,
    /// plus [`NativeEvent::Other`] for the ones this crate does not know.
    pub enum NativeEvent;
    unknown Unknown;
    rows EVENTS;
    name_key None;
    common {
        /// `seq`: the shim's correlation id (echoed in the response frame).
        #[serde(deserialize_with = "present")]
        seq: Option<Value>,
        /// `hook`: OpenCode's hook name (`event` for every bus event).
        hook: Option<String>,
        /// `timeout_ms`: the shim's deadline for this call (the daemon answers within it).
        #[serde(deserialize_with = "present")]
        timeout_ms: Option<Value>,
    }
    events {
        /// `tool.execute.before`: a tool call about to run, before OpenCode's permission ask.
        /// Throw to block (the error is the tool result the model sees); mutate `args` to
        /// rewrite.
        ToolExecuteBefore("tool.execute.before", ToolPre, blocking, tool_matcher)
            .caps(TOOL_GATE).fail(FailShape::Block).identify(INPUT) {
            /// `{tool, sessionID, callID}` (identifying: the tool).
            input: ToolBeforeInput,
            /// `{args}`.
            #[serde(default)]
            output: Option<ToolBeforeOutput>,
        }
        /// `tool.execute.after`: a tool call finished normally (a tool that throws surfaces as
        /// an errored tool part instead: see `message.part.updated`).
        ToolExecuteAfter("tool.execute.after", ToolPost, blocking, tool_matcher)
            .caps(POST_TOOL).identify(INPUT) {
            /// `{tool, sessionID, callID, args}` (identifying: the tool).
            input: ToolAfterInput,
            /// `{title, output, metadata}`.
            #[serde(default)]
            output: Option<ToolAfterOutput>,
        }
        /// `chat.message`: a new user message, before the model sees it.
        ChatMessage("chat.message", PromptSubmitted, blocking).caps(PROMPT).fail(FailShape::Block) {
            /// `{sessionID, agent?, model?, messageID?, variant?}`.
            #[serde(default)]
            input: Option<ChatMessageInput>,
            /// `{message, parts}`.
            #[serde(default)]
            output: Option<ChatMessageOutput>,
        }
        /// `chat.params`: the parameters of a model request (observed).
        ChatParams("chat.params", ModelRequest) {
            /// `{sessionID, agent, model, provider, message}`.
            #[serde(default)]
            input: Option<ChatRequestInput>,
            /// `{temperature, topP, topK, maxOutputTokens, options}`.
            #[serde(default, deserialize_with = "present")]
            output: Option<Value>,
        }
        /// `chat.headers`: the headers of a model request (observed; fires with `chat.params`).
        ChatHeaders("chat.headers", ModelRequest).secondary() {
            /// `{sessionID, agent, model, provider, message}`.
            #[serde(default)]
            input: Option<ChatRequestInput>,
            /// `{headers}`.
            #[serde(default, deserialize_with = "present")]
            output: Option<Value>,
        }
        /// `experimental.text.complete`: the final text of an assistant text part.
        TextComplete("experimental.text.complete", ModelResponse) {
            /// `{sessionID, messageID, partID}`.
            #[serde(default)]
            input: Option<TextCompleteInput>,
            /// `{text}`.
            #[serde(default)]
            output: Option<TextCompleteOutput>,
        }
        /// `experimental.session.compacting`: compaction is about to start.
        SessionCompacting("experimental.session.compacting", CompactPre, blocking).caps(COMPACTING) {
            /// `{sessionID}`.
            #[serde(default)]
            input: Option<SessionInput>,
            /// `{context, prompt?}`.
            #[serde(default)]
            output: Option<CompactingOutput>,
        }
        /// `permission.ask`: typed but never triggered since ~1.5 (quirk #18).
        PermissionAsk("permission.ask", Other).secondary() {
            /// A v1 `Permission`.
            #[serde(default, deserialize_with = "present")]
            input: Option<Value>,
            /// `{status}`.
            #[serde(default, deserialize_with = "present")]
            output: Option<Value>,
        }
        /// `command.execute.before`: a slash command is expanded.
        CommandExecuteBefore("command.execute.before", Other) {
            /// `{command, sessionID, arguments}`.
            #[serde(default, deserialize_with = "present")]
            input: Option<Value>,
            /// `{parts}`.
            #[serde(default, deserialize_with = "present")]
            output: Option<Value>,
        }
        /// `shell.env`: the environment of a shell tool call.
        ShellEnv("shell.env", Other) {
            /// `{cwd, sessionID?, callID?}`.
            #[serde(default, deserialize_with = "present")]
            input: Option<Value>,
            /// `{env}`.
            #[serde(default, deserialize_with = "present")]
            output: Option<Value>,
        }
        /// `tool.definition`: a tool's schema before it is sent to the model.
        ToolDefinition("tool.definition", Other) {
            /// `{toolID}`.
            #[serde(default, deserialize_with = "present")]
            input: Option<Value>,
            /// `{description, parameters}`.
            #[serde(default, deserialize_with = "present")]
            output: Option<Value>,
        }
        /// `experimental.chat.messages.transform`: the history sent to the model.
        MessagesTransform("experimental.chat.messages.transform", Other) {
            /// `{}`.
            #[serde(default, deserialize_with = "present")]
            input: Option<Value>,
            /// `{messages}`.
            #[serde(default, deserialize_with = "present")]
            output: Option<Value>,
        }
        /// `experimental.chat.system.transform`: the system prompt.
        SystemTransform("experimental.chat.system.transform", Other) {
            /// `{sessionID?, model}`.
            #[serde(default, deserialize_with = "present")]
            input: Option<Value>,
            /// `{system}`.
            #[serde(default, deserialize_with = "present")]
            output: Option<Value>,
        }
        /// `experimental.compaction.autocontinue`: whether a synthetic continue follows compaction.
        CompactionAutocontinue("experimental.compaction.autocontinue", Other) {
            /// `{sessionID, agent, model, provider, message, overflow}`.
            #[serde(default, deserialize_with = "present")]
            input: Option<Value>,
            /// `{enabled}`.
            #[serde(default, deserialize_with = "present")]
            output: Option<Value>,
        }
        /// `experimental.provider.small_model`: the small model of a provider.
        SmallModel("experimental.provider.small_model", Other) {
            /// `{provider}`.
            #[serde(default, deserialize_with = "present")]
            input: Option<Value>,
            /// `{model?}`.
            #[serde(default, deserialize_with = "present")]
            output: Option<Value>,
        }
        /// `config`: the merged config at init. The shim sends only the MCP servers' names and
        /// types (`{mcp: {<name>: {type, enabled}}}`): the rest holds provider API keys.
        Config("config", Other) {
            /// `{mcp}` (sanitized by the shim).
            #[serde(default, deserialize_with = "present")]
            input: Option<Value>,
        }
        /// `session.created`: a session started; a child session (`info.parentID`) is a
        /// subagent.
        SessionCreated("session.created", SessionStart).identify(INPUT) {
            /// `{event: {type, properties: {sessionID, info}}}`.
            input: Bus<SessionInfoProps>,
        }
        /// `session.idle`: the session's turn finished (child sessions too: subagent stop).
        SessionIdle("session.idle", Stop, blocking).caps(STOP) {
            /// `{event: {type, properties: {sessionID}}}`.
            #[serde(default)]
            input: Option<Bus<SessionProps>>,
        }
        /// `session.compacted`: compaction finished.
        SessionCompacted("session.compacted", CompactPost) {
            /// `{event: {type, properties: {sessionID}}}`.
            #[serde(default)]
            input: Option<Bus<SessionProps>>,
        }
        /// `file.edited`: a file was edited through a tool.
        FileEdited("file.edited", FileEdited) {
            /// `{event: {type, properties: {file}}}`.
            #[serde(default)]
            input: Option<Bus<FileProps>>,
        }
        /// `permission.asked` (v2, 1.18): OpenCode asks the user; answered by a reply to
        /// `POST /permission/{requestID}/reply`.
        PermissionAsked("permission.asked", Permission, blocking).caps(PERMISSION).fail(FailShape::Block) {
            /// `{event: {type, properties: {id, sessionID, permission, patterns, metadata, always, tool}}}`.
            #[serde(default)]
            input: Option<Bus<PermissionAskedProps>>,
        }
        /// `permission.updated` (v1, what the plugin types declare and older servers emit);
        /// answered by the legacy `POST /session/{id}/permissions/{permissionID}`.
        PermissionUpdated("permission.updated", Permission, blocking).caps(PERMISSION).fail(FailShape::Block).secondary() {
            /// `{event: {type, properties: Permission}}`.
            #[serde(default)]
            input: Option<Bus<PermissionV1Props>>,
        }
        /// `permission.replied`: a permission was answered (by anyone).
        PermissionReplied("permission.replied", Other) {
            /// `{event: {type, properties: {sessionID, requestID, reply}}}`.
            #[serde(default)]
            input: Option<Bus<Value>>,
        }
        /// `message.part.updated`: a part changed; an errored tool part is a `tool.error`.
        MessagePartUpdated("message.part.updated", Other).identify(INPUT) {
            /// `{event: {type, properties: {sessionID, part}}}`.
            input: Bus<PartProps>,
        }
        /// `server.instance.disposed`: the instance shut down (best-effort session end).
        InstanceDisposed("server.instance.disposed", SessionEnd) {
            /// `{event: {type, properties: {directory}}}`.
            #[serde(default)]
            input: Option<Bus<Value>>,
        }
        /// `tui.toast.show`: a toast in the TUI.
        ToastShow("tui.toast.show", Notification) {
            /// `{event: {type, properties: {title?, message, variant}}}`.
            #[serde(default)]
            input: Option<Bus<ToastProps>>,
        }
        /// `session.updated`: a session record changed.
        SessionUpdated("session.updated", Other) {
            /// `{event: {type, properties: {sessionID, info}}}`.
            #[serde(default)]
            input: Option<Bus<SessionInfoProps>>,
        }
        /// `session.status`: busy/idle/retry.
        SessionStatus("session.status", Other) {
            /// `{event: {type, properties: {sessionID, status}}}`.
            #[serde(default)]
            input: Option<Bus<Value>>,
        }
        /// `session.error`: a session failed.
        SessionError("session.error", Other) {
            /// `{event: {type, properties: {sessionID?, error}}}`.
            #[serde(default)]
            input: Option<Bus<Value>>,
        }
        /// `session.deleted`: a session was deleted.
        SessionDeleted("session.deleted", Other) {
            /// `{event: {type, properties: {info}}}`.
            #[serde(default)]
            input: Option<Bus<SessionInfoProps>>,
        }
        /// `message.updated`: a message record changed.
        MessageUpdated("message.updated", Other) {
            /// `{event: {type, properties: {sessionID, info}}}`.
            #[serde(default)]
            input: Option<Bus<Value>>,
        }
        /// `message.part.delta`: a streamed delta (high volume: the shim forwards it only when
        /// a hook subscribes).
        MessagePartDelta("message.part.delta", Other).secondary() {
            /// `{event: {type, properties: {sessionID, messageID, partID, field, delta}}}`.
            #[serde(default)]
            input: Option<Bus<Value>>,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::{EventKind, Provider};

    #[test]
    fn frames_decode_by_their_computed_name() {
        let b = br#"{"seq":1,"hook":"event","input":{"event":{"type":"session.idle","properties":{"sessionID":"s"}}}}"#;
        let d = NativeEvent::decode(&Provider::OPENCODE, b, Some("session.idle")).unwrap();
        assert!(d.is_exact());
        assert_eq!((d.native.name(), d.native.kind()), ("session.idle", EventKind::Stop));
        let NativeEvent::SessionIdle(e) = &d.native else {
            unreachable!()
        };
        let sid = e
            .input
            .as_ref()
            .and_then(|i| i.event.properties.as_ref())
            .and_then(|p| p.session_id.as_deref());
        assert_eq!(sid, Some("s"));
        let b = br#"{"seq":2,"hook":"event","input":{"event":{"type":"lsp.updated","properties":{}}}}"#;
        let d = NativeEvent::decode(&Provider::OPENCODE, b, Some("lsp.updated")).unwrap();
        assert_eq!(d.native.kind(), EventKind::Other);
        assert_eq!(d.native.extra()["input"]["event"]["type"], "lsp.updated");
    }
}
