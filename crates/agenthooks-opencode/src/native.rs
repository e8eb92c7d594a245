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
use agenthooks_core::{CapSet, Capability as C, EventKind};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Unknown keys of a payload object, in wire order.
pub use agenthooks_core::kit::Extra;

// ---------------------------------------------------------------------------------------------
// Hook arguments
// ---------------------------------------------------------------------------------------------

agenthooks_core::kit::native_record! {
    /// `input` of `tool.execute.before`: `{tool, sessionID, callID}`.
    pub struct ToolBeforeInput {
        /// OpenCode's tool id (`bash`, `read`, `edit`, `<server>_<tool>` for MCP tools).
        tool: String,
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
        /// The model's tool-call id (the same on `tool.execute.after` and the tool part).
        #[serde(rename = "callID")]
        call_id: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// `output` of `tool.execute.before`: `{args}`, which a hook mutates to rewrite the call.
    pub struct ToolBeforeOutput {
        /// The tool arguments as the model produced them (an object).
        #[serde(deserialize_with = "present")]
        args: Option<Value>,
    }
}

agenthooks_core::kit::native_record! {
    /// `input` of `tool.execute.after`: `{tool, sessionID, callID, args}`.
    pub struct ToolAfterInput {
        /// OpenCode's tool id.
        tool: String,
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
        /// The model's tool-call id.
        #[serde(rename = "callID")]
        call_id: Option<String>,
        /// The arguments the tool ran with (after any rewrite).
        #[serde(deserialize_with = "present")]
        args: Option<Value>,
    }
}

agenthooks_core::kit::native_record! {
    /// `output` of `tool.execute.after`: `{title, output, metadata}`; `output` is what the model
    /// sees, so replacing it replaces the tool result.
    pub struct ToolAfterOutput {
        /// The result's title (shown in the UI).
        #[serde(deserialize_with = "lenient::opt_text")]
        title: Option<String>,
        /// The result text the model sees.
        #[serde(deserialize_with = "present")]
        output: Option<Value>,
        /// Tool-specific metadata (exit code, diff, preview, …).
        #[serde(deserialize_with = "present")]
        metadata: Option<Value>,
    }
}

agenthooks_core::kit::native_record! {
    /// A model reference `{providerID, modelID}` (`chat.message`'s `input.model`).
    pub struct ModelRef {
        /// The provider (`anthropic`, a custom provider id).
        #[serde(rename = "providerID")]
        provider_id: Option<String>,
        /// The model id.
        #[serde(rename = "modelID")]
        model_id: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// `input` of `chat.message`: `{sessionID, agent?, model?, messageID?, variant?}`.
    pub struct ChatMessageInput {
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
        /// The agent (`build`, `plan`, a custom agent).
        agent: Option<String>,
        /// The model the message goes to.
        model: Option<ModelRef>,
        /// The new user message's id.
        #[serde(rename = "messageID")]
        message_id: Option<String>,
        /// The model variant (reasoning effort).
        variant: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// `output` of `chat.message`: `{message, parts}`; a hook edits `parts` (context injection).
    pub struct ChatMessageOutput {
        /// The user message (`{id, sessionID, role, time, agent, model}`).
        #[serde(deserialize_with = "present")]
        message: Option<Value>,
        /// Its parts (`{id, sessionID, messageID, type: "text", text, synthetic?}`, files, …).
        parts: Option<Vec<Value>>,
    }
}

agenthooks_core::kit::native_record! {
    /// `input` of `chat.params` / `chat.headers`: `{sessionID, agent, model, provider, message}`.
    pub struct ChatRequestInput {
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
        /// The agent making the call (`build`, `title`, …).
        agent: Option<String>,
        /// The model (OpenCode's full model record).
        #[serde(deserialize_with = "present")]
        model: Option<Value>,
        /// The provider context.
        #[serde(deserialize_with = "present")]
        provider: Option<Value>,
        /// The user message being answered.
        #[serde(deserialize_with = "present")]
        message: Option<Value>,
    }
}

agenthooks_core::kit::native_record! {
    /// `input` of `experimental.text.complete`: `{sessionID, messageID, partID}`.
    pub struct TextCompleteInput {
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
        /// The assistant message.
        #[serde(rename = "messageID")]
        message_id: Option<String>,
        /// The text part.
        #[serde(rename = "partID")]
        part_id: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// `output` of `experimental.text.complete`: `{text}`, the part's final text.
    pub struct TextCompleteOutput {
        /// The text.
        #[serde(deserialize_with = "lenient::opt_text")]
        text: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// `input` of `experimental.session.compacting`: `{sessionID}`.
    pub struct SessionInput {
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// `output` of `experimental.session.compacting`: `{context, prompt?}`.
    pub struct CompactingOutput {
        /// Strings appended to the compaction prompt.
        #[serde(deserialize_with = "lenient::opt_string_list")]
        context: Option<Vec<String>>,
        /// A replacement compaction prompt.
        #[serde(deserialize_with = "lenient::opt_text")]
        prompt: Option<String>,
    }
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

agenthooks_core::kit::native_record! {
    /// Properties that name a session: `{sessionID, …}` (`session.idle`, `session.compacted`, …).
    pub struct SessionProps {
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// A session record (`session.created.properties.info`).
    pub struct SessionRecord {
        /// The session id.
        id: Option<String>,
        /// The parent session: set on a child (subagent) session.
        #[serde(rename = "parentID")]
        parent_id: Option<String>,
        /// The project.
        #[serde(rename = "projectID")]
        project_id: Option<String>,
        /// The session's directory.
        directory: Option<String>,
        /// The title.
        title: Option<String>,
        /// The OpenCode version that created it.
        version: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// `session.created` / `session.updated` / `session.deleted` properties: `{sessionID?, info}`.
    pub struct SessionInfoProps {
        /// The session (1.18 also sends it beside `info`).
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
        /// The session record.
        info: Option<SessionRecord>,
    }
}

agenthooks_core::kit::native_record! {
    /// The tool a permission is asked for (`permission.asked.properties.tool`).
    pub struct PermissionTool {
        /// The assistant message holding the call.
        #[serde(rename = "messageID")]
        message_id: Option<String>,
        /// The tool-call id (the `callID` of `tool.execute.before`).
        #[serde(rename = "callID")]
        call_id: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// `permission.asked` properties (v2, 1.18): `{id, sessionID, permission, patterns, metadata,
    /// always, tool?}`.
    pub struct PermissionAskedProps {
        /// The request id (`per_…`), the `{requestID}` of the reply route.
        id: Option<String>,
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
        /// The permission (`bash`, `edit`, `webfetch`, an MCP tool id, …).
        permission: Option<String>,
        /// The patterns asked for (the command, the path).
        #[serde(deserialize_with = "lenient::opt_string_list")]
        patterns: Option<Vec<String>>,
        /// Tool-specific details (`{command}` for bash).
        #[serde(deserialize_with = "present")]
        metadata: Option<Value>,
        /// The patterns an "always" reply would allow from now on.
        #[serde(deserialize_with = "lenient::opt_string_list")]
        always: Option<Vec<String>>,
        /// The tool call, when the ask comes from one.
        tool: Option<PermissionTool>,
    }
}

agenthooks_core::kit::native_record! {
    /// `permission.updated` properties (v1 `Permission`): `{id, type, pattern, sessionID,
    /// messageID, callID?, title, metadata, time}`.
    pub struct PermissionV1Props {
        /// The permission id (the `{permissionID}` of the legacy reply route).
        id: Option<String>,
        /// The permission type (`bash`, `edit`, …).
        #[serde(rename = "type")]
        permission_type: Option<String>,
        /// The pattern(s) asked for: a string or a list.
        #[serde(deserialize_with = "lenient::opt_string_list")]
        pattern: Option<Vec<String>>,
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
        /// The assistant message.
        #[serde(rename = "messageID")]
        message_id: Option<String>,
        /// The tool-call id.
        #[serde(rename = "callID")]
        call_id: Option<String>,
        /// A human title.
        title: Option<String>,
        /// Tool-specific details.
        #[serde(deserialize_with = "present")]
        metadata: Option<Value>,
        /// Timestamps.
        #[serde(deserialize_with = "present")]
        time: Option<Value>,
    }
}

agenthooks_core::kit::native_record! {
    /// A tool part's state (`message.part.updated.properties.part.state`).
    pub struct ToolState {
        /// `pending`, `running`, `completed`, `error`.
        status: Option<String>,
        /// The arguments.
        #[serde(deserialize_with = "present")]
        input: Option<Value>,
        /// The result (completed).
        #[serde(deserialize_with = "present")]
        output: Option<Value>,
        /// The error text (error).
        #[serde(deserialize_with = "lenient::opt_text")]
        error: Option<String>,
        /// Start/end times.
        #[serde(deserialize_with = "present")]
        time: Option<Value>,
    }
}

agenthooks_core::kit::native_record! {
    /// A message part (`message.part.updated.properties.part`): text, reasoning, tool, step, …
    pub struct Part {
        /// The part id.
        id: Option<String>,
        /// The part type (`text`, `tool`, `step-start`, `step-finish`, `reasoning`, …).
        #[serde(rename = "type")]
        part_type: Option<String>,
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
        /// The message.
        #[serde(rename = "messageID")]
        message_id: Option<String>,
        /// The tool id (tool parts).
        tool: Option<String>,
        /// The tool-call id (tool parts).
        #[serde(rename = "callID")]
        call_id: Option<String>,
        /// The tool state (tool parts).
        state: Option<ToolState>,
    }
}

agenthooks_core::kit::native_record! {
    /// `message.part.updated` properties: `{sessionID?, part, delta?}`.
    pub struct PartProps {
        /// The session.
        #[serde(rename = "sessionID")]
        session_id: Option<String>,
        /// The part.
        part: Option<Part>,
    }
}

agenthooks_core::kit::native_record! {
    /// `file.edited` properties: `{file}`.
    pub struct FileProps {
        /// The file path.
        file: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// `tui.toast.show` properties: `{title?, message, variant}`.
    pub struct ToastProps {
        /// The title.
        title: Option<String>,
        /// The message.
        message: Option<String>,
        /// `info`, `success`, `warning`, `error`.
        variant: Option<String>,
    }
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

agenthooks_core::kit::native_events! {
    /// A decoded OpenCode shim frame: one variant per hook and bus event of OpenCode 1.18.33,
    /// plus [`NativeEvent::Other`] for the ones this crate does not know.
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
            write_null output: Option<ToolBeforeOutput>,
        }
        /// `tool.execute.after`: a tool call finished normally (a tool that throws surfaces as
        /// an errored tool part instead: see `message.part.updated`).
        ToolExecuteAfter("tool.execute.after", ToolPost, blocking, tool_matcher)
            .caps(POST_TOOL).identify(INPUT) {
            /// `{tool, sessionID, callID, args}` (identifying: the tool).
            input: ToolAfterInput,
            /// `{title, output, metadata}`.
            write_null output: Option<ToolAfterOutput>,
        }
        /// `chat.message`: a new user message, before the model sees it.
        ChatMessage("chat.message", PromptSubmitted, blocking).caps(PROMPT).fail(FailShape::Block) {
            /// `{sessionID, agent?, model?, messageID?, variant?}`.
            write_null input: Option<ChatMessageInput>,
            /// `{message, parts}`.
            write_null output: Option<ChatMessageOutput>,
        }
        /// `chat.params`: the parameters of a model request (observed).
        ChatParams("chat.params", ModelRequest) {
            /// `{sessionID, agent, model, provider, message}`.
            write_null input: Option<ChatRequestInput>,
            /// `{temperature, topP, topK, maxOutputTokens, options}`.
            #[serde(deserialize_with = "present")]
            write_null output: Option<Value>,
        }
        /// `chat.headers`: the headers of a model request (observed; fires with `chat.params`).
        ChatHeaders("chat.headers", ModelRequest).secondary() {
            /// `{sessionID, agent, model, provider, message}`.
            write_null input: Option<ChatRequestInput>,
            /// `{headers}`.
            #[serde(deserialize_with = "present")]
            write_null output: Option<Value>,
        }
        /// `experimental.text.complete`: the final text of an assistant text part.
        TextComplete("experimental.text.complete", ModelResponse) {
            /// `{sessionID, messageID, partID}`.
            write_null input: Option<TextCompleteInput>,
            /// `{text}`.
            write_null output: Option<TextCompleteOutput>,
        }
        /// `experimental.session.compacting`: compaction is about to start.
        SessionCompacting("experimental.session.compacting", CompactPre, blocking).caps(COMPACTING) {
            /// `{sessionID}`.
            write_null input: Option<SessionInput>,
            /// `{context, prompt?}`.
            write_null output: Option<CompactingOutput>,
        }
        /// `permission.ask`: typed but never triggered since ~1.5 (quirk #18).
        /// `input` a v1 `Permission`, `output` `{status}`.
        PermissionAsk("permission.ask", Other).secondary()
        |
        /// `command.execute.before`: a slash command is expanded.
        /// `input` `{command, sessionID, arguments}`, `output` `{parts}`.
        CommandExecuteBefore("command.execute.before", Other)
        |
        /// `shell.env`: the environment of a shell tool call.
        /// `input` `{cwd, sessionID?, callID?}`, `output` `{env}`.
        ShellEnv("shell.env", Other)
        |
        /// `tool.definition`: a tool's schema before it is sent to the model.
        /// `input` `{toolID}`, `output` `{description, parameters}`.
        ToolDefinition("tool.definition", Other)
        |
        /// `experimental.chat.messages.transform`: the history sent to the model.
        /// `input` `{}`, `output` `{messages}`.
        MessagesTransform("experimental.chat.messages.transform", Other)
        |
        /// `experimental.chat.system.transform`: the system prompt.
        /// `input` `{sessionID?, model}`, `output` `{system}`.
        SystemTransform("experimental.chat.system.transform", Other)
        |
        /// `experimental.compaction.autocontinue`: whether a synthetic continue follows compaction.
        /// `input` `{sessionID, agent, model, provider, message, overflow}`, `output` `{enabled}`.
        CompactionAutocontinue("experimental.compaction.autocontinue", Other)
        |
        /// `experimental.provider.small_model`: the small model of a provider.
        /// `input` `{provider}`, `output` `{model?}`.
        SmallModel("experimental.provider.small_model", Other)
        {
            /// `input`, free shape (an explicit `null` kept).
            #[serde(deserialize_with = "present")]
            write_null input: Option<Value>,
            /// `output`, free shape (an explicit `null` kept).
            #[serde(deserialize_with = "present")]
            write_null output: Option<Value>,
        }
        /// `config`: the merged config at init. The shim sends only the MCP servers' names and
        /// types (`{mcp: {<name>: {type, enabled}}}`): the rest holds provider API keys.
        Config("config", Other) {
            /// `{mcp}` (sanitized by the shim).
            #[serde(deserialize_with = "present")]
            write_null input: Option<Value>,
        }
        /// `session.created`: a session started; a child session (`info.parentID`) is a
        /// subagent.
        SessionCreated("session.created", SessionStart).also(EventKind::SubagentStart).identify(INPUT) {
            /// `{event: {type, properties: {sessionID, info}}}`.
            input: Bus<SessionInfoProps>,
        }
        /// `session.idle`: the session's turn finished (child sessions too: subagent stop).
        SessionIdle("session.idle", Stop, blocking).caps(STOP).also(EventKind::SubagentStop) {
            /// `{event: {type, properties: {sessionID}}}`.
            write_null input: Option<Bus<SessionProps>>,
        }
        /// `session.compacted`: compaction finished.
        SessionCompacted("session.compacted", CompactPost) {
            /// `{event: {type, properties: {sessionID}}}`.
            write_null input: Option<Bus<SessionProps>>,
        }
        /// `file.edited`: a file was edited through a tool.
        FileEdited("file.edited", FileEdited) {
            /// `{event: {type, properties: {file}}}`.
            write_null input: Option<Bus<FileProps>>,
        }
        /// `permission.asked` (v2, 1.18): OpenCode asks the user; answered by a reply to
        /// `POST /permission/{requestID}/reply`.
        PermissionAsked("permission.asked", Permission, blocking).caps(PERMISSION).fail(FailShape::Block) {
            /// `{event: {type, properties: {id, sessionID, permission, patterns, metadata, always, tool}}}`.
            write_null input: Option<Bus<PermissionAskedProps>>,
        }
        /// `permission.updated` (v1, what the plugin types declare and older servers emit);
        /// answered by the legacy `POST /session/{id}/permissions/{permissionID}`.
        PermissionUpdated("permission.updated", Permission, blocking).caps(PERMISSION).fail(FailShape::Block).secondary() {
            /// `{event: {type, properties: Permission}}`.
            write_null input: Option<Bus<PermissionV1Props>>,
        }
        /// `permission.replied`: a permission was answered (by anyone).
        PermissionReplied("permission.replied", Other) {
            /// `{event: {type, properties: {sessionID, requestID, reply}}}`.
            write_null input: Option<Bus<Value>>,
        }
        /// `message.part.updated`: a part changed; an errored tool part is a `tool.error`.
        MessagePartUpdated("message.part.updated", Other).also(EventKind::ToolError).identify(INPUT) {
            /// `{event: {type, properties: {sessionID, part}}}`.
            input: Bus<PartProps>,
        }
        /// `server.instance.disposed`: the instance shut down (best-effort session end).
        InstanceDisposed("server.instance.disposed", SessionEnd) {
            /// `{event: {type, properties: {directory}}}`.
            write_null input: Option<Bus<Value>>,
        }
        /// `tui.toast.show`: a toast in the TUI.
        ToastShow("tui.toast.show", Notification) {
            /// `{event: {type, properties: {title?, message, variant}}}`.
            write_null input: Option<Bus<ToastProps>>,
        }
        /// `session.updated`: a session record changed.
        SessionUpdated("session.updated", Other) {
            /// `{event: {type, properties: {sessionID, info}}}`.
            write_null input: Option<Bus<SessionInfoProps>>,
        }
        /// `session.status`: busy/idle/retry.
        SessionStatus("session.status", Other) {
            /// `{event: {type, properties: {sessionID, status}}}`.
            write_null input: Option<Bus<Value>>,
        }
        /// `session.error`: a session failed.
        SessionError("session.error", Other) {
            /// `{event: {type, properties: {sessionID?, error}}}`.
            write_null input: Option<Bus<Value>>,
        }
        /// `session.deleted`: a session was deleted.
        SessionDeleted("session.deleted", Other) {
            /// `{event: {type, properties: {info}}}`.
            write_null input: Option<Bus<SessionInfoProps>>,
        }
        /// `message.updated`: a message record changed.
        MessageUpdated("message.updated", Other) {
            /// `{event: {type, properties: {sessionID, info}}}`.
            write_null input: Option<Bus<Value>>,
        }
        /// `message.part.delta`: a streamed delta (high volume: the shim forwards it only when
        /// a hook subscribes).
        MessagePartDelta("message.part.delta", Other).secondary() {
            /// `{event: {type, properties: {sessionID, messageID, partID, field, delta}}}`.
            write_null input: Option<Bus<Value>>,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::Provider;

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
