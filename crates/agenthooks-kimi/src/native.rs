//! Native Kimi Code hook payloads, typed field for field.
//!
//! One struct per native event of Kimi Code 2.x (`@moonshot-ai/kimi-code`, checked against the real
//! 2.1.0 CLI and the `agent-core-v2` runtime source). Every struct keeps the keys it does not know in
//! `extra`, so nothing Kimi sends is ever dropped, and [`NativeEvent::decode`] turns stdin bytes into
//! the right struct with errors that carry the JSON path.
//!
//! # Wire shape
//!
//! Kimi builds each payload from camelCase keys and converts only the **top-level** keys to
//! `snake_case`; nested objects keep their original casing (a content part's `imageUrl`, an approval
//! `display`). Keys whose value is `undefined` in the runtime are absent (dropped by
//! `JSON.stringify`). Every payload carries the base fields `hook_event_name`, `session_id` (a string,
//! `""` before the session has an id), `cwd`, `client_type` (e.g. `kimi_code_cli`) and, once the
//! session has a title, `session_title`.
//!
//! # Required or optional
//!
//! A field the runtime always sends is a plain field: a payload without it is not a Kimi Code 2.x
//! payload of that event, and decoding it fails with the path of the missing key. A field the
//! runtime may leave out (`undefined` in its source types, or absent in older releases) is an
//! `Option`. Two base fields are optional on purpose: `client_type` (absent before 2.x) and
//! `session_title` (absent until the session is titled).
//!
//! # Shapes a naive port gets wrong
//!
//! - [`PostToolUseFailure::error`] is an **object** `{code, message, name?, details?, retryable,
//!   cause?}` ([`ErrorPayload`]), not a string; older runtimes' string form still decodes
//!   ([`FailureError`]).
//! - [`PostToolUse::tool_output`] is a **string** (text parts joined, cut to 2000 characters).
//! - [`UserPromptSubmit::prompt`] is a string **or** an array of content parts (the 2.1.0 CLI sends
//!   parts even for plain text): see [`Prompt`], which normalizes the text and keeps the parts.
//! - `turn_id` is a number.

use std::borrow::Cow;
use std::fmt;

use agenthooks_core::{EventKind, EventRow};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

/// Upper bound Kimi applies to [`PostToolUse::tool_output`], in UTF-16 code units.
pub const TOOL_OUTPUT_LIMIT: usize = 2000;

// ---------------------------------------------------------------------------------------------
// Shared field types
// ---------------------------------------------------------------------------------------------

/// A user prompt as Kimi sends it: plain text, or the message's content parts.
///
/// Kimi Code 2.1.0 sends `UserPromptSubmit.prompt` as an array of content parts
/// (`[{"type":"text","text":"…"}]`) even for a plain typed message, while its docs show a string.
/// Both decode; [`Prompt::text`] gives the normalized text either way and [`Prompt::parts`] keeps
/// the parts (images, audio, video) that the text cannot carry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Prompt {
    /// The prompt as a plain string.
    Text(String),
    /// The prompt as content parts, exactly as sent.
    Parts(Vec<ContentPart>),
    /// Any other JSON value (never seen; kept so decoding does not fail).
    Other(Value),
}

impl Prompt {
    /// The prompt's text: the string, or the `text` of every `type: "text"` part joined with
    /// `\n` (the unified convention for multi-part prompts). Non-text parts contribute nothing
    /// (⚠ lossy: use [`Prompt::parts`] to see them). [`Prompt::Other`] yields `""`.
    pub fn text(&self) -> Cow<'_, str> {
        self.joined("\n")
    }

    /// The text Kimi's own hook matcher tests its regex against: text parts joined with a single
    /// space.
    pub fn matcher_text(&self) -> Cow<'_, str> {
        self.joined(" ")
    }

    fn joined(&self, sep: &str) -> Cow<'_, str> {
        match self {
            Prompt::Text(s) => Cow::Borrowed(s.as_str()),
            Prompt::Parts(parts) => {
                let mut texts = parts.iter().filter_map(ContentPart::as_text);
                match (texts.next(), texts.next()) {
                    (None, _) => Cow::Borrowed(""),
                    (Some(only), None) => Cow::Borrowed(only),
                    (Some(first), Some(second)) => {
                        let mut out = String::with_capacity(first.len() + second.len() + sep.len());
                        out.push_str(first);
                        out.push_str(sep);
                        out.push_str(second);
                        for t in texts {
                            out.push_str(sep);
                            out.push_str(t);
                        }
                        Cow::Owned(out)
                    }
                }
            }
            Prompt::Other(_) => Cow::Borrowed(""),
        }
    }

    /// The content parts, when the prompt was sent as an array.
    pub fn parts(&self) -> Option<&[ContentPart]> {
        match self {
            Prompt::Parts(parts) => Some(parts),
            _ => None,
        }
    }

    /// Whether any part is not plain text (an image, audio or video part, a `think` part …).
    pub fn has_non_text_parts(&self) -> bool {
        self.parts()
            .is_some_and(|parts| parts.iter().any(|p| p.as_text().is_none()))
    }
}

impl fmt::Display for Prompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// One content part of a rich prompt (`{"type": "text", "text": "…"}`, `{"type": "image_url",
/// "imageUrl": {…}}`, …). Nested keys keep Kimi's camelCase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ContentPart {
    /// The part type: `text`, `think`, `image_url`, `audio_url`, `video_url`, or a newer one.
    #[serde(rename = "type")]
    pub kind: String,
    /// The text of a `text` part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Every other key of the part (`imageUrl`, `think`, …), verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ContentPart {
    /// The text when this is a `text` part.
    pub fn as_text(&self) -> Option<&str> {
        if self.kind == "text" {
            self.text.as_deref()
        } else {
            None
        }
    }
}

/// The `error` of a [`PostToolUseFailure`].
///
/// Kimi Code 2.x sends an object ([`ErrorPayload`]); the runtime the older Go port was written
/// against was typed as a string. Both decode, and so does anything else.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum FailureError {
    /// The structured error object of Kimi Code 2.x.
    Structured(ErrorPayload),
    /// A bare message string.
    Message(String),
    /// Any other JSON value, kept verbatim.
    Other(Value),
}

impl FailureError {
    /// The human-readable message (`""` when there is none).
    pub fn message(&self) -> &str {
        match self {
            FailureError::Structured(e) => &e.message,
            FailureError::Message(m) => m,
            FailureError::Other(v) => v.get("message").and_then(Value::as_str).unwrap_or(""),
        }
    }

    /// The error code (`"internal"` for plain tool errors), when structured.
    pub fn code(&self) -> Option<&str> {
        match self {
            FailureError::Structured(e) => Some(&e.code),
            FailureError::Message(_) => None,
            FailureError::Other(v) => v.get("code").and_then(Value::as_str),
        }
    }

    /// The structured payload, when Kimi sent one.
    pub fn as_structured(&self) -> Option<&ErrorPayload> {
        match self {
            FailureError::Structured(e) => Some(e),
            _ => None,
        }
    }
}

/// Kimi's serialized error (`ErrorPayload` in its runtime): `{code, message, name?, details?,
/// retryable, cause?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ErrorPayload {
    /// The error code; `"internal"` for plain tool errors and hook blocks.
    pub code: String,
    /// The message, e.g. the block reason when a `PreToolUse` hook denied the call.
    pub message: String,
    /// The JavaScript error name, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Code-specific details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
    /// Whether Kimi considers the error retryable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retryable: Option<bool>,
    /// The underlying error, same shape (Kimi follows at most 8 levels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<Box<ErrorPayload>>,
    /// Unknown keys, verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

// ---------------------------------------------------------------------------------------------
// The 20 events
// ---------------------------------------------------------------------------------------------

/// Defines one native event struct: the base fields every Kimi payload carries, the event's own
/// fields, and the `extra` map last.
macro_rules! native_event {
    (
        $(#[$meta:meta])*
        $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty,
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[non_exhaustive]
        pub struct $name {
            #[doc = concat!("The native event name, `\"", stringify!($name), "\"`.")]
            pub hook_event_name: String,
            /// The session id (`""` when the session has none yet).
            pub session_id: String,
            /// The session's working directory (also the hook's cwd).
            pub cwd: String,
            /// The client platform, e.g. `kimi_code_cli` (absent before Kimi Code 2.x).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub client_type: Option<String>,
            /// The session title, once the session has one.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub session_title: Option<String>,
            $(
                $(#[$fmeta])*
                pub $field: $ty,
            )*
            /// Keys this version of the struct does not know, verbatim and in order.
            #[serde(flatten)]
            pub extra: Map<String, Value>,
        }
    };
}

native_event! {
    /// `PreToolUse`: before a tool call, **before** Kimi's permission checks. Can block
    /// (matcher: tool name).
    PreToolUse {
        /// The tool name (`Bash`, `Read`, `mcp__server__tool`, …).
        tool_name: String,
        /// The tool arguments; `{}` when the model's arguments were not an object.
        tool_input: Value,
        /// The model's tool-call id.
        tool_call_id: String,
    }
}

native_event! {
    /// `PostToolUse`: a tool call succeeded. Fire-and-forget; the hook runs under the tool call's
    /// abort signal and is killed ~100 ms after the tool finishes.
    PostToolUse {
        /// The tool name.
        tool_name: String,
        /// The tool arguments (`{}` when not an object).
        tool_input: Value,
        /// The model's tool-call id.
        tool_call_id: String,
        /// The tool output as text: text parts joined, cut to [`TOOL_OUTPUT_LIMIT`] characters.
        tool_output: String,
    }
}

native_event! {
    /// `PostToolUseFailure`: a tool call failed or was blocked (a `PreToolUse` deny lands here
    /// too). Fire-and-forget.
    PostToolUseFailure {
        /// The tool name.
        tool_name: String,
        /// The tool arguments (`{}` when not an object).
        tool_input: Value,
        /// The model's tool-call id.
        tool_call_id: String,
        /// The error, an object `{code, message, retryable, …}` in Kimi Code 2.x.
        error: FailureError,
    }
}

native_event! {
    /// `PermissionRequest`: Kimi is about to wait for the user's approval of a tool call.
    /// Observation only (matcher: tool name).
    PermissionRequest {
        /// The approval request id (`approval_<uuid>`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The agent asking (`main`, or a subagent id).
        agent_id: String,
        /// The turn number.
        turn_id: u64,
        /// The model's tool-call id.
        tool_call_id: String,
        /// The tool name.
        tool_name: String,
        /// What the approval is for, e.g. `Editing src/app.ts`.
        action: String,
        /// Kimi's UI hint for the input (`{"kind": "command", …}`, `{"kind": "file_io", …}`, …).
        display: Value,
        /// The tool arguments.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_input: Option<Value>,
    }
}

native_event! {
    /// `PermissionResult`: an approval was resolved. Observation only (matcher: tool name).
    PermissionResult {
        /// The approval request id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The agent that asked.
        agent_id: String,
        /// The turn number.
        turn_id: u64,
        /// The model's tool-call id.
        tool_call_id: String,
        /// The tool name.
        tool_name: String,
        /// What the approval was for.
        action: String,
        /// Kimi's UI hint for the input.
        display: Value,
        /// The tool arguments.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_input: Option<Value>,
        /// `approved`, `rejected`, `cancelled` or `error`.
        decision: String,
        /// `session` when the approval covers the rest of the session.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scope: Option<String>,
        /// The user's feedback text.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        feedback: Option<String>,
        /// The label of the option the user picked.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        selected_label: Option<String>,
        /// The error message when `decision` is `error`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    }
}

native_event! {
    /// `UserPromptSubmit`: a user message (origin `user` only), before the model sees it. Can
    /// block; exit-0 stdout (or JSON `message`) is added to the context (matcher: prompt text).
    UserPromptSubmit {
        /// The prompt: a string, or content parts (what the 2.1.0 CLI sends).
        prompt: Prompt,
        /// Whether the message steers a running turn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        is_steer: Option<bool>,
    }
}

native_event! {
    /// `UserPromptQueued`: a message was queued while a turn runs. Observation only.
    UserPromptQueued {
        /// The queued prompt's id.
        prompt_id: String,
        /// The queued prompt (content parts in 2.x).
        prompt: Prompt,
        /// How many prompts are queued now.
        queue_length: u64,
    }
}

native_event! {
    /// `TurnStarted`: a turn begins. Observation only (matcher: origin kind).
    TurnStarted {
        /// The turn number (0 for the session's first turn).
        turn_id: u64,
        /// Why the turn started: `user`, `task`, `system_trigger`, …
        origin_kind: String,
        /// The origin's name, for named origins (e.g. `stop_hook`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        origin_name: Option<String>,
        /// The turn's prompt text (a string in 2.1.0).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompt: Option<Prompt>,
    }
}

native_event! {
    /// `Stop`: the model is about to end the turn. Can block once per turn (the reason becomes a
    /// user message and the loop continues).
    Stop {
        /// Always `false` in Kimi Code 2.x: a second `Stop` in the same turn is not run at all.
        stop_hook_active: bool,
    }
}

native_event! {
    /// `StopFailure`: the turn failed with an error. Observation only (matcher: error type).
    StopFailure {
        /// The error's name, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error_type: Option<String>,
        /// The error message.
        error_message: String,
    }
}

native_event! {
    /// `Interrupt`: the user cancelled the turn (Esc); `Stop` does not fire. Observation only.
    Interrupt {
        /// The cancelled turn.
        turn_id: u64,
        /// Always `cancelled` so far.
        reason: String,
    }
}

native_event! {
    /// `SessionStart`: a session was created or resumed (not forked). Awaited, but its output never
    /// reaches the model (verified on 2.1.0). Matcher: `startup`/`resume`.
    SessionStart {
        /// `startup` or `resume`.
        source: String,
        /// The default model's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
        /// The default agent profile's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        profile: Option<String>,
    }
}

native_event! {
    /// `SessionEnd`: the session closes (awaited). Does not fire in `-p` mode. Matcher:
    /// `exit`/`archive`.
    SessionEnd {
        /// `exit` or `archive`.
        reason: String,
    }
}

native_event! {
    /// `SessionHeartbeat`: every 60 s while the session lives, only when a hook is configured for
    /// it. Observation only.
    SessionHeartbeat {
        /// Milliseconds since the session service started.
        uptime_ms: u64,
    }
}

native_event! {
    /// `SubagentStart`: before a subagent runs (awaited; output ignored). Matcher: agent name.
    SubagentStart {
        /// The subagent's name.
        agent_name: String,
        /// The prompt the subagent gets.
        prompt: String,
    }
}

native_event! {
    /// `SubagentStop`: a subagent completed. Observation only. Matcher: agent name.
    SubagentStop {
        /// The subagent's name.
        agent_name: String,
        /// The subagent's final response.
        response: String,
    }
}

native_event! {
    /// `TaskStarted`: a background task starts. Observation only. Matcher: task kind.
    TaskStarted {
        /// The task id.
        task_id: String,
        /// `agent`, `process` or `question`.
        kind: String,
        /// The task's description.
        description: String,
        /// The task status at start (e.g. `running`).
        status: String,
        /// Whether the task runs detached from the turn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detached: Option<bool>,
        /// Start time, milliseconds since the Unix epoch.
        started_at: u64,
    }
}

native_event! {
    /// `PreCompact`: before context compaction (awaited; output ignored). Matcher:
    /// `manual`/`auto`.
    PreCompact {
        /// `manual` or `auto`.
        trigger: String,
        /// The context size before compaction (an estimate; kept as sent).
        token_count: Number,
    }
}

native_event! {
    /// `PostCompact`: after context compaction. Observation only. Matcher: `manual`/`auto`.
    PostCompact {
        /// `manual` or `auto`.
        trigger: String,
        /// The estimated context size after compaction (kept as sent).
        estimated_token_count: Number,
    }
}

native_event! {
    /// `Notification`: a background-task notification. Observation only. Matcher: notification
    /// type (e.g. `task.completed`).
    Notification {
        /// Where the notification goes (`context`).
        sink: String,
        /// The agent the task belongs to (newer runtimes).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent_id: Option<String>,
        /// The notification type, e.g. `task.completed`.
        notification_type: String,
        /// The title.
        title: String,
        /// The body.
        body: String,
        /// `info` or `warning`.
        severity: String,
        /// What emitted it (e.g. `task`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source_kind: Option<String>,
        /// The emitter's id (e.g. the task id).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source_id: Option<String>,
    }
}

// ---------------------------------------------------------------------------------------------
// The event enum and decoding
// ---------------------------------------------------------------------------------------------

/// Every native event of Kimi Code 2.x with its unified kind, whether Kimi waits for a decision
/// on it, and whether its matcher runs on the tool name.
///
/// The seven events the design leaves unmapped stay [`EventKind::Other`] (their typed structs are
/// the way to read them; `on_other` observers receive them):
/// - `PermissionResult`: the unified taxonomy has no "permission resolved" kind;
/// - `UserPromptQueued`: the prompt is not submitted yet (a later `UserPromptSubmit`/turn picks
///   it up), so `prompt.submitted` would double-count it;
/// - `TurnStarted`: no unified turn kind (its prompt arrives as `prompt.submitted` first);
/// - `StopFailure`, `Interrupt`: the turn ends without `Stop`, and nothing can continue it, so
///   `agent.stop` (a decision point) would mislead;
/// - `SessionHeartbeat`: a timer, not a session boundary;
/// - `TaskStarted`: a background task, not a subagent (`SubagentStart` fires separately).
pub const EVENTS: &[EventRow] = &[
    EventRow::new("PreToolUse", EventKind::ToolPre, true, true),
    EventRow::new("PostToolUse", EventKind::ToolPost, false, true),
    EventRow::new("PostToolUseFailure", EventKind::ToolError, false, true),
    EventRow::new("PermissionRequest", EventKind::Permission, false, true),
    EventRow::new("PermissionResult", EventKind::Other, false, true),
    EventRow::new("UserPromptSubmit", EventKind::PromptSubmitted, true, false),
    EventRow::new("UserPromptQueued", EventKind::Other, false, false),
    EventRow::new("TurnStarted", EventKind::Other, false, false),
    EventRow::new("Stop", EventKind::Stop, true, false),
    EventRow::new("StopFailure", EventKind::Other, false, false),
    EventRow::new("Interrupt", EventKind::Other, false, false),
    EventRow::new("SessionStart", EventKind::SessionStart, false, false),
    EventRow::new("SessionEnd", EventKind::SessionEnd, false, false),
    EventRow::new("SessionHeartbeat", EventKind::Other, false, false),
    EventRow::new("SubagentStart", EventKind::SubagentStart, false, false),
    EventRow::new("SubagentStop", EventKind::SubagentStop, false, false),
    EventRow::new("TaskStarted", EventKind::Other, false, false),
    EventRow::new("PreCompact", EventKind::CompactPre, false, false),
    EventRow::new("PostCompact", EventKind::CompactPost, false, false),
    EventRow::new("Notification", EventKind::Notification, false, false),
];

/// The three events whose hook output can change what Kimi does; every other event is
/// fire-and-forget.
pub const GATING_EVENTS: &[&str] = &["PreToolUse", "UserPromptSubmit", "Stop"];

/// A decoded Kimi Code hook payload.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
#[allow(clippy::large_enum_variant)] // one event per process: boxing buys nothing
pub enum NativeEvent {
    /// See [`PreToolUse`].
    PreToolUse(PreToolUse),
    /// See [`PostToolUse`].
    PostToolUse(PostToolUse),
    /// See [`PostToolUseFailure`].
    PostToolUseFailure(PostToolUseFailure),
    /// See [`PermissionRequest`].
    PermissionRequest(PermissionRequest),
    /// See [`PermissionResult`].
    PermissionResult(PermissionResult),
    /// See [`UserPromptSubmit`].
    UserPromptSubmit(UserPromptSubmit),
    /// See [`UserPromptQueued`].
    UserPromptQueued(UserPromptQueued),
    /// See [`TurnStarted`].
    TurnStarted(TurnStarted),
    /// See [`Stop`].
    Stop(Stop),
    /// See [`StopFailure`].
    StopFailure(StopFailure),
    /// See [`Interrupt`].
    Interrupt(Interrupt),
    /// See [`SessionStart`].
    SessionStart(SessionStart),
    /// See [`SessionEnd`].
    SessionEnd(SessionEnd),
    /// See [`SessionHeartbeat`].
    SessionHeartbeat(SessionHeartbeat),
    /// See [`SubagentStart`].
    SubagentStart(SubagentStart),
    /// See [`SubagentStop`].
    SubagentStop(SubagentStop),
    /// See [`TaskStarted`].
    TaskStarted(TaskStarted),
    /// See [`PreCompact`].
    PreCompact(PreCompact),
    /// See [`PostCompact`].
    PostCompact(PostCompact),
    /// See [`Notification`].
    Notification(Notification),
    /// An event this crate does not know (a newer Kimi release), as the full JSON object.
    Other(Map<String, Value>),
}

/// Why a payload could not be decoded into a [`NativeEvent`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NativeError {
    /// The bytes are not JSON.
    #[error("payload is not valid JSON: {source}")]
    Syntax {
        /// The parser's error (line and column).
        #[source]
        source: serde_json::Error,
    },
    /// The JSON is not an object.
    #[error("payload is not a JSON object")]
    NotAnObject,
    /// `hook_event_name` is missing or not a string.
    #[error("payload has no string `hook_event_name`")]
    MissingEventName,
    /// A known event's payload does not have that event's shape.
    #[error("{event} payload does not match its schema at `{path}`: {source}")]
    Shape {
        /// The native event name.
        event: String,
        /// The JSON path of the offending value (`.` when at the top).
        path: String,
        /// serde's description of what was wrong.
        #[source]
        source: serde_json::Error,
    },
}

impl NativeError {
    /// The JSON path the error points at, when it is a shape error.
    pub fn path(&self) -> Option<&str> {
        match self {
            NativeError::Shape { path, .. } => Some(path),
            _ => None,
        }
    }
}

fn shape<T: serde::de::DeserializeOwned>(event: &str, map: Map<String, Value>) -> Result<T, NativeError> {
    serde_path_to_error::deserialize(Value::Object(map)).map_err(|e| NativeError::Shape {
        event: event.to_owned(),
        path: e.path().to_string(),
        source: e.into_inner(),
    })
}

impl NativeEvent {
    /// Decodes a payload exactly as Kimi writes it to the hook's stdin.
    ///
    /// Dispatches on `hook_event_name`; an unknown name yields [`NativeEvent::Other`], never an
    /// error.
    pub fn decode(bytes: &[u8]) -> Result<Self, NativeError> {
        let value: Value = serde_json::from_slice(bytes).map_err(|source| NativeError::Syntax { source })?;
        match value {
            Value::Object(map) => Self::from_map(map),
            _ => Err(NativeError::NotAnObject),
        }
    }

    /// Decodes an already parsed JSON object.
    pub fn from_map(map: Map<String, Value>) -> Result<Self, NativeError> {
        let Some(name) = map.get("hook_event_name").and_then(Value::as_str) else {
            return Err(NativeError::MissingEventName);
        };
        let name = name.to_owned();
        let n = name.as_str();
        Ok(match n {
            "PreToolUse" => Self::PreToolUse(shape(n, map)?),
            "PostToolUse" => Self::PostToolUse(shape(n, map)?),
            "PostToolUseFailure" => Self::PostToolUseFailure(shape(n, map)?),
            "PermissionRequest" => Self::PermissionRequest(shape(n, map)?),
            "PermissionResult" => Self::PermissionResult(shape(n, map)?),
            "UserPromptSubmit" => Self::UserPromptSubmit(shape(n, map)?),
            "UserPromptQueued" => Self::UserPromptQueued(shape(n, map)?),
            "TurnStarted" => Self::TurnStarted(shape(n, map)?),
            "Stop" => Self::Stop(shape(n, map)?),
            "StopFailure" => Self::StopFailure(shape(n, map)?),
            "Interrupt" => Self::Interrupt(shape(n, map)?),
            "SessionStart" => Self::SessionStart(shape(n, map)?),
            "SessionEnd" => Self::SessionEnd(shape(n, map)?),
            "SessionHeartbeat" => Self::SessionHeartbeat(shape(n, map)?),
            "SubagentStart" => Self::SubagentStart(shape(n, map)?),
            "SubagentStop" => Self::SubagentStop(shape(n, map)?),
            "TaskStarted" => Self::TaskStarted(shape(n, map)?),
            "PreCompact" => Self::PreCompact(shape(n, map)?),
            "PostCompact" => Self::PostCompact(shape(n, map)?),
            "Notification" => Self::Notification(shape(n, map)?),
            _ => Self::Other(map),
        })
    }

    /// The native event name (`hook_event_name`).
    pub fn name(&self) -> &str {
        self.base().0
    }

    /// The unified kind of this event (see [`EVENTS`]); [`EventKind::Other`] for unknown events.
    pub fn kind(&self) -> EventKind {
        kind_of(self.name())
    }

    /// Whether this event's hook output can change what Kimi does (see [`GATING_EVENTS`]).
    pub fn is_gating(&self) -> bool {
        GATING_EVENTS.contains(&self.name())
    }

    /// `session_id` (`""` when absent on an unknown event).
    pub fn session_id(&self) -> &str {
        self.base().1
    }

    /// `cwd` (`""` when absent on an unknown event).
    pub fn cwd(&self) -> &str {
        self.base().2
    }

    /// `client_type`, when sent.
    pub fn client_type(&self) -> Option<&str> {
        self.base().3
    }

    /// `session_title`, when sent.
    pub fn session_title(&self) -> Option<&str> {
        self.base().4
    }

    /// The keys the typed struct does not know (for [`NativeEvent::Other`], the whole object).
    pub fn extra(&self) -> &Map<String, Value> {
        macro_rules! pick {
            ($($v:ident),*) => {
                match self {
                    $(Self::$v(e) => &e.extra,)*
                    Self::Other(m) => m,
                }
            };
        }
        pick!(
            PreToolUse,
            PostToolUse,
            PostToolUseFailure,
            PermissionRequest,
            PermissionResult,
            UserPromptSubmit,
            UserPromptQueued,
            TurnStarted,
            Stop,
            StopFailure,
            Interrupt,
            SessionStart,
            SessionEnd,
            SessionHeartbeat,
            SubagentStart,
            SubagentStop,
            TaskStarted,
            PreCompact,
            PostCompact,
            Notification
        )
    }

    #[allow(clippy::type_complexity)]
    fn base(&self) -> (&str, &str, &str, Option<&str>, Option<&str>) {
        macro_rules! pick {
            ($($v:ident),*) => {
                match self {
                    $(Self::$v(e) => (
                        e.hook_event_name.as_str(),
                        e.session_id.as_str(),
                        e.cwd.as_str(),
                        e.client_type.as_deref(),
                        e.session_title.as_deref(),
                    ),)*
                    Self::Other(m) => {
                        let s = |k: &str| m.get(k).and_then(Value::as_str);
                        (
                            s("hook_event_name").unwrap_or(""),
                            s("session_id").unwrap_or(""),
                            s("cwd").unwrap_or(""),
                            s("client_type"),
                            s("session_title"),
                        )
                    }
                }
            };
        }
        pick!(
            PreToolUse,
            PostToolUse,
            PostToolUseFailure,
            PermissionRequest,
            PermissionResult,
            UserPromptSubmit,
            UserPromptQueued,
            TurnStarted,
            Stop,
            StopFailure,
            Interrupt,
            SessionStart,
            SessionEnd,
            SessionHeartbeat,
            SubagentStart,
            SubagentStop,
            TaskStarted,
            PreCompact,
            PostCompact,
            Notification
        )
    }
}

/// The unified kind of a native event name ([`EventKind::Other`] when unknown or unmapped).
pub fn kind_of(native: &str) -> EventKind {
    EVENTS
        .iter()
        .find(|s| s.name == native)
        .map_or(EventKind::Other, |s| s.kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(s: &str) -> NativeEvent {
        match NativeEvent::decode(s.as_bytes()) {
            Ok(e) => e,
            Err(e) => panic!("decode failed: {e}"),
        }
    }

    #[test]
    fn events_table_lists_twenty_unique_events() {
        assert_eq!(EVENTS.len(), 20);
        let mut names: Vec<_> = EVENTS.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 20);
        for g in GATING_EVENTS {
            assert!(names.contains(g));
        }
        let blocking: Vec<_> = EVENTS.iter().filter(|s| s.blocking).map(|s| s.name).collect();
        assert_eq!(blocking, GATING_EVENTS);
        let others = EVENTS.iter().filter(|s| s.kind == EventKind::Other).count();
        assert_eq!(others, 7);
    }

    #[test]
    fn prompt_as_content_parts_normalizes_text_and_keeps_parts() {
        let e = decode(
            r#"{"hook_event_name":"UserPromptSubmit","session_id":"s","cwd":"/p","client_type":"kimi_code_cli","prompt":[{"type":"text","text":"hello"},{"type":"image_url","imageUrl":{"url":"data:x"}},{"type":"text","text":"world"}],"is_steer":false}"#,
        );
        let NativeEvent::UserPromptSubmit(p) = e else {
            panic!("wrong variant")
        };
        assert_eq!(p.prompt.text(), "hello\nworld");
        assert_eq!(p.prompt.matcher_text(), "hello world");
        let parts = p.prompt.parts().map(<[ContentPart]>::len);
        assert_eq!(parts, Some(3));
        assert!(p.prompt.has_non_text_parts());
        let image = &p.prompt.parts().unwrap_or_default()[1];
        assert_eq!(image.kind, "image_url");
        assert_eq!(image.extra["imageUrl"]["url"], "data:x");
        assert_eq!(p.is_steer, Some(false));
        assert_eq!(p.client_type.as_deref(), Some("kimi_code_cli"));
    }

    #[test]
    fn prompt_as_string() {
        let e = decode(
            r#"{"hook_event_name":"UserPromptSubmit","session_id":"s","cwd":"/p","prompt":"hi there","is_steer":true}"#,
        );
        let NativeEvent::UserPromptSubmit(p) = e else {
            panic!("wrong variant")
        };
        assert_eq!(p.prompt, Prompt::Text("hi there".into()));
        assert_eq!(p.prompt.text(), "hi there");
        assert!(p.prompt.parts().is_none());
        assert!(!p.prompt.has_non_text_parts());
    }

    #[test]
    fn failure_error_object_is_typed() {
        let e = decode(
            r#"{"hook_event_name":"PostToolUseFailure","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"x"},"tool_call_id":"c1","error":{"code":"internal","message":"boom","retryable":false,"cause":{"code":"internal","message":"root","retryable":true,"hint":1}}}"#,
        );
        let NativeEvent::PostToolUseFailure(f) = e else {
            panic!("wrong variant")
        };
        assert_eq!(f.error.message(), "boom");
        assert_eq!(f.error.code(), Some("internal"));
        let s = f.error.as_structured().map(|s| (s.retryable, s.cause.is_some()));
        assert_eq!(s, Some((Some(false), true)));
        let cause = f.error.as_structured().and_then(|s| s.cause.as_deref());
        assert_eq!(cause.map(|c| c.extra["hint"].clone()), Some(Value::from(1)));
    }

    #[test]
    fn failure_error_string_still_decodes() {
        let e = decode(
            r#"{"hook_event_name":"PostToolUseFailure","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{},"tool_call_id":"c1","error":"old style"}"#,
        );
        let NativeEvent::PostToolUseFailure(f) = e else {
            panic!("wrong variant")
        };
        assert_eq!(f.error, FailureError::Message("old style".into()));
        assert_eq!(f.error.message(), "old style");
        assert_eq!(f.error.code(), None);
    }

    #[test]
    fn unknown_keys_land_in_extra_in_order() {
        let e = decode(
            r#"{"hook_event_name":"Stop","session_id":"s","cwd":"/p","z_new":1,"stop_hook_active":false,"a_new":{"x":[1]}}"#,
        );
        let keys: Vec<_> = e.extra().keys().cloned().collect();
        assert_eq!(keys, ["z_new", "a_new"]);
        assert_eq!(e.name(), "Stop");
        assert_eq!(e.kind(), EventKind::Stop);
        assert!(e.is_gating());
    }

    #[test]
    fn unknown_event_is_other_with_whole_object() {
        let e = decode(r#"{"hook_event_name":"BrandNew","session_id":"s","cwd":"/p","x":true}"#);
        assert!(matches!(e, NativeEvent::Other(_)));
        assert_eq!(e.name(), "BrandNew");
        assert_eq!(e.session_id(), "s");
        assert_eq!(e.cwd(), "/p");
        assert_eq!(e.kind(), EventKind::Other);
        assert!(!e.is_gating());
        assert_eq!(e.extra()["x"], Value::Bool(true));
    }

    #[test]
    fn missing_required_field_is_a_path_error() {
        let err = NativeEvent::decode(
            br#"{"hook_event_name":"PermissionRequest","session_id":"s","cwd":"/p","agent_id":"main","turn_id":"three","tool_call_id":"c","tool_name":"Bash","action":"a","display":{}}"#,
        );
        let Err(err) = err else { panic!("expected an error") };
        assert_eq!(err.path(), Some("turn_id"));
        assert!(err.to_string().contains("PermissionRequest"));

        let err = NativeEvent::decode(br#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p"}"#);
        let Err(err) = err else { panic!("expected an error") };
        assert!(matches!(err, NativeError::Shape { .. }), "{err}");
        assert!(err.to_string().contains("tool_name"), "{err}");
    }

    #[test]
    fn non_object_and_garbage_are_typed_errors() {
        assert!(matches!(NativeEvent::decode(b"[1]"), Err(NativeError::NotAnObject)));
        assert!(matches!(NativeEvent::decode(b"{"), Err(NativeError::Syntax { .. })));
        assert!(matches!(NativeEvent::decode(b""), Err(NativeError::Syntax { .. })));
        assert!(matches!(
            NativeEvent::decode(br#"{"session_id":"s"}"#),
            Err(NativeError::MissingEventName)
        ));
        assert!(matches!(
            NativeEvent::decode(br#"{"hook_event_name":7}"#),
            Err(NativeError::MissingEventName)
        ));
    }

    #[test]
    fn numbers_stay_numbers() {
        let e = decode(
            r#"{"hook_event_name":"PreCompact","session_id":"s","cwd":"/p","trigger":"auto","token_count":123456}"#,
        );
        let NativeEvent::PreCompact(c) = e else {
            panic!("wrong variant")
        };
        assert_eq!(c.token_count.as_u64(), Some(123_456));
        let e = decode(
            r#"{"hook_event_name":"PostCompact","session_id":"s","cwd":"/p","trigger":"auto","estimated_token_count":1.5}"#,
        );
        let NativeEvent::PostCompact(c) = e else {
            panic!("wrong variant")
        };
        assert_eq!(c.estimated_token_count.as_f64(), Some(1.5));
    }

    #[test]
    fn serialize_round_trips_to_equal_value() {
        let src = r#"{"hook_event_name":"PermissionResult","session_id":"s","cwd":"/p","client_type":"kimi_code_cli","id":"approval_1","agent_id":"main","turn_id":2,"tool_call_id":"c","tool_name":"Write","action":"Writing a.txt","display":{"kind":"file_io","operation":"write","path":"/p/a.txt"},"tool_input":{"path":"a.txt"},"decision":"approved","scope":"session","later":"x"}"#;
        let e = decode(src);
        let back = serde_json::to_value(&e).ok();
        let orig: Option<Value> = serde_json::from_str(src).ok();
        assert!(back.is_some());
        assert_eq!(back, orig);
    }
}
