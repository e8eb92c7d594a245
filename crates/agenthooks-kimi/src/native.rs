//! Native Kimi Code hook payloads, typed field for field.
//!
//! One struct per native event of Kimi Code 2.x (`@moonshot-ai/kimi-code`, checked against the real
//! 2.1.0 CLI and the `agent-core-v2` runtime source), all declared by one
//! [`agenthooks_core::kit::native_events!`] table: each row carries the event's facts ([`EVENTS`]:
//! kind, whether Kimi acts on the answer, tool matcher, capabilities, fail-closed answer, timeout
//! clamp, sniffing) and the event's own fields. Every struct keeps the keys it does not know in
//! `extra`, so nothing Kimi sends is ever dropped, and [`NativeEvent::decode`] turns stdin bytes
//! into the right struct straight from the bytes.
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
//! # Required or optional (tolerant decoding)
//!
//! Only what identifies an event is required: the event name (`hook_event_name`, else the
//! generated config's `--event`) and, on the tool events, `tool_name` (the row's `identify`).
//! Every other field is an `Option`, because releases differ:
//!
//! - `client_type`, `session_title`, `SessionStart.model`/`profile` and `UserPromptSubmit.is_steer`
//!   were added in kimi-code 0.32.0 (commit `75395f6ab`) and are absent before;
//! - `SubagentStart`/`SubagentStop` lacked `session_id` and `cwd` before 0.32.0;
//! - `session_id` and `tool_call_id` may be `""` (an empty id counts as none);
//! - the older Python `kimi-cli` sends a string `PostToolUseFailure.error` and a string
//!   `UserPromptSubmit.prompt` (both still decode, see below).
//!
//! A value of a shape no release sent does not fail the hook: the kit's decoder keeps it in
//! `extra` and records a projection issue; a missing `tool_name` gives the event's `Other` form
//! as the native view while the event still reaches handlers as its kind
//! ([`agenthooks_core::kit`]).
//!
//! # Shapes a naive port gets wrong
//!
//! - [`PostToolUseFailure::error`] is an **object** `{code, message, name?, details?, retryable,
//!   cause?}` ([`ErrorPayload`]) in kimi-code, a string in kimi-cli: see [`FailureError`].
//! - [`PostToolUse::tool_output`] is a **string** (text parts joined, cut to 2000 characters) in
//!   every upstream release; an object (seen in the Go port's fixtures) is kept as sent.
//! - [`UserPromptSubmit::prompt`] is a string **or** an array of content parts (the 2.1.0 CLI sends
//!   parts even for plain text): see [`Prompt`], which normalizes the text and keeps the parts.
//! - `turn_id` is a number.
//!
//! # The unmapped events
//!
//! Seven events stay [`EventKind::Other`](agenthooks_core::EventKind::Other) (their typed structs
//! are the way to read them; `on_other` observers receive them):
//! - `PermissionResult`: the unified taxonomy has no "permission resolved" kind;
//! - `UserPromptQueued`: the prompt is not submitted yet (a later `UserPromptSubmit`/turn picks
//!   it up), so `prompt.submitted` would double-count it;
//! - `TurnStarted`: no unified turn kind (its prompt arrives as `prompt.submitted` first);
//! - `StopFailure`, `Interrupt`: the turn ends without `Stop`, and nothing can continue it, so
//!   `agent.stop` (a decision point) would mislead;
//! - `SessionHeartbeat`: a timer, not a session boundary;
//! - `TaskStarted`: a background task, not a subagent (`SubagentStart` fires separately).
//!
//! Install does not wire them for a kind (`.secondary()`): a hook asks for them by native name.

use std::borrow::Cow;
use std::fmt;

use agenthooks_core::kit::{lenient, FailShape};
use agenthooks_core::{CapSet, Capability};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Number, Value};

/// Upper bound Kimi applies to [`PostToolUse::tool_output`], in UTF-16 code units.
pub const TOOL_OUTPUT_LIMIT: usize = 2000;

/// The longest hook timeout Kimi accepts (`timeout`, 1–600 s; install lowers longer ones).
pub const MAX_TIMEOUT_SECS: u64 = 600;

/// What Kimi honours on `PreToolUse`: a deny.
pub const GATE_TOOL: CapSet = CapSet::of(&[Capability::Deny]);
/// What Kimi honours on `UserPromptSubmit`: a block, and context (a JSON `message`).
pub const GATE_PROMPT: CapSet = CapSet::of(&[Capability::Deny, Capability::AddContext]);
/// What Kimi honours on `Stop`: continuing once per turn (a deny of the stop).
pub const GATE_STOP: CapSet = CapSet::of(&[Capability::ContinueAgent]);

/// An optional field whose explicit `null` (or any shape) goes to `T`'s own fallback instead of
/// folding into `None`: for the untagged types below, which accept every JSON value.
fn some<'de, D: Deserializer<'de>, T: Deserialize<'de>>(de: D) -> Result<Option<T>, D::Error> {
    T::deserialize(de).map(Some)
}

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

agenthooks_core::kit::native_record! {
    /// One content part of a rich prompt (`{"type": "text", "text": "…"}`, `{"type": "image_url",
    /// "imageUrl": {…}}`, …). Nested keys keep Kimi's camelCase.
    pub struct ContentPart {
        /// The part type: `text`, `think`, `image_url`, `audio_url`, `video_url`, or a newer one.
        #[serde(rename = "type")]
        kind: String,
        /// The text of a `text` part.
        text: Option<String>,
    }
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
/// Kimi Code sends an object ([`ErrorPayload`]); the older Python `kimi-cli` sends a string.
/// Both decode, and so does anything else (kept verbatim in [`FailureError::Other`]).
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

agenthooks_core::kit::native_record! {
    /// Kimi's serialized error (`ErrorPayload` in its runtime): `{code, message, name?, details?,
    /// retryable, cause?}`.
    pub struct ErrorPayload {
        /// The error code; `"internal"` for plain tool errors and hook blocks.
        code: String,
        /// The message, e.g. the block reason when a `PreToolUse` hook denied the call.
        message: String,
        /// The JavaScript error name, when known.
        name: Option<String>,
        /// Code-specific details.
        details: Option<Value>,
        /// Whether Kimi considers the error retryable.
        retryable: Option<bool>,
        /// The underlying error, same shape (Kimi follows at most 8 levels).
        cause: Option<Box<ErrorPayload>>,
    }
}

// ---------------------------------------------------------------------------------------------
// The 20 events
// ---------------------------------------------------------------------------------------------

agenthooks_core::kit::native_events! {
    /// A decoded Kimi Code hook payload.
    name_key Some("hook_event_name");
    // Kimi clamps every hook's timeout.
    defaults .clamp_secs(MAX_TIMEOUT_SECS);
    common {
        /// The native event name (absent only when the name came from `--event`).
        hook_event_name: Option<String>,
        /// The session id (`""` when the session has none yet; absent on `SubagentStart`/`SubagentStop`
        /// before 0.32.0).
        session_id: Option<String>,
        /// The session's working directory (also the hook's cwd; absent on
        /// `SubagentStart`/`SubagentStop` before 0.32.0).
        cwd: Option<String>,
        /// The client platform, e.g. `kimi_code_cli` (added in 0.32.0).
        client_type: Option<String>,
        /// The session title, once the session has one (added in 0.32.0).
        session_title: Option<String>,
    }
    events {
        /// `PreToolUse`: before a tool call, **before** Kimi's permission checks. Can block
        /// (matcher: tool name).
        PreToolUse("PreToolUse", ToolPre, blocking, tool_matcher)
            .caps(GATE_TOOL).fail(FailShape::Block).identify(&["tool_name"]) {
            /// The tool name (`Bash`, `Read`, `mcp__server__tool`, …); identifying, required.
            tool_name: String,
            /// The tool arguments; `{}` when the model's arguments were not an object.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// The model's tool-call id (`""` when unknown in kimi-cli).
            tool_call_id: Option<String>,
        }
        /// `PostToolUse`: a tool call succeeded. Fire-and-forget; the hook runs under the tool call's
        /// abort signal and is killed ~100 ms after the tool finishes.
        PostToolUse("PostToolUse", ToolPost, tool_matcher)
            .identify(&["tool_name"]) {
            /// The tool name; identifying, required.
            tool_name: String,
            /// The tool arguments (`{}` when not an object).
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// The model's tool-call id.
            tool_call_id: Option<String>,
            /// The tool output: a string in every upstream release (text parts joined, cut to
            /// [`TOOL_OUTPUT_LIMIT`] characters), kept as sent whatever its shape.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_output: Option<agenthooks_core::RawJson>,
        }
        /// `PostToolUseFailure`: a tool call failed or was blocked (a `PreToolUse` deny lands here
        /// too). Fire-and-forget.
        PostToolUseFailure("PostToolUseFailure", ToolError, tool_matcher)
            .identify(&["tool_name"]) {
            /// The tool name; identifying, required.
            tool_name: String,
            /// The tool arguments (`{}` when not an object).
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// The model's tool-call id.
            tool_call_id: Option<String>,
            /// The error: an object `{code, message, retryable, …}` in Kimi Code, a string in
            /// kimi-cli.
            #[serde(deserialize_with = "some")]
            error: Option<FailureError>,
        }
        /// `PermissionRequest`: Kimi is about to wait for the user's approval of a tool call.
        /// Observation only (matcher: tool name).
        PermissionRequest("PermissionRequest", Permission, tool_matcher)
            .identify(&["tool_name"]) {
            /// The approval request id (`approval_<uuid>`).
            id: Option<String>,
            /// The agent asking (`main`, or a subagent id).
            agent_id: Option<String>,
            /// The turn number.
            turn_id: Option<u64>,
            /// The model's tool-call id.
            tool_call_id: Option<String>,
            /// The tool name; identifying, required.
            tool_name: String,
            /// What the approval is for, e.g. `Editing src/app.ts`.
            action: Option<String>,
            /// Kimi's UI hint for the input (`{"kind": "command", …}`, `{"kind": "file_io", …}`, …).
            #[serde(deserialize_with = "lenient::present")]
            display: Option<Value>,
            /// The tool arguments.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
        }
        /// `PermissionResult`: an approval was resolved. Observation only (matcher: tool name).
        PermissionResult("PermissionResult", Other, tool_matcher)
            .provider_only().secondary() {
            /// The approval request id.
            id: Option<String>,
            /// The agent that asked.
            agent_id: Option<String>,
            /// The turn number.
            turn_id: Option<u64>,
            /// The model's tool-call id.
            tool_call_id: Option<String>,
            /// The tool name.
            tool_name: Option<String>,
            /// What the approval was for.
            action: Option<String>,
            /// Kimi's UI hint for the input.
            #[serde(deserialize_with = "lenient::present")]
            display: Option<Value>,
            /// The tool arguments.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// `approved`, `rejected`, `cancelled` or `error`.
            decision: Option<String>,
            /// `session` when the approval covers the rest of the session.
            scope: Option<String>,
            /// The user's feedback text.
            feedback: Option<String>,
            /// The label of the option the user picked.
            selected_label: Option<String>,
            /// The error message when `decision` is `error`.
            error: Option<String>,
        }
        /// `UserPromptSubmit`: a user message (origin `user` only), before the model sees it. Can
        /// block; exit-0 stdout (or JSON `message`) is added to the context (matcher: prompt text).
        UserPromptSubmit("UserPromptSubmit", PromptSubmitted, blocking)
            .caps(GATE_PROMPT).fail(FailShape::Block) {
            /// The prompt: content parts (what the 2.1.0 CLI sends), or a string (docs, kimi-cli).
            #[serde(deserialize_with = "some")]
            prompt: Option<Prompt>,
            /// Whether the message steers a running turn (added in 0.32.0).
            is_steer: Option<bool>,
        }
        /// `UserPromptQueued`: a message was queued while a turn runs. Observation only.
        UserPromptQueued("UserPromptQueued", Other)
            .provider_only().secondary() {
            /// The queued prompt's id.
            prompt_id: Option<String>,
            /// The queued prompt (content parts in 2.x).
            #[serde(deserialize_with = "some")]
            prompt: Option<Prompt>,
            /// How many prompts are queued now.
            queue_length: Option<u64>,
        }
        /// `TurnStarted`: a turn begins. Observation only (matcher: origin kind).
        TurnStarted("TurnStarted", Other)
            .provider_only().secondary() {
            /// The turn number (0 for the session's first turn).
            turn_id: Option<u64>,
            /// Why the turn started: `user`, `task`, `system_trigger`, …
            origin_kind: Option<String>,
            /// The origin's name, for named origins (e.g. `stop_hook`).
            origin_name: Option<String>,
            /// The turn's prompt text (a string in 2.1.0; parts are accepted too).
            #[serde(deserialize_with = "some")]
            prompt: Option<Prompt>,
        }
        /// `Stop`: the model is about to end the turn. Can block once per turn (the reason becomes a
        /// user message and the loop continues).
        Stop("Stop", Stop, blocking).caps(GATE_STOP) {
            /// Always `false` in Kimi Code 2.x: a second `Stop` in the same turn is not run at all
            /// (kimi-cli could send `true` on the re-run).
            stop_hook_active: Option<bool>,
        }
        /// `StopFailure`: the turn failed with an error. Observation only (matcher: error type).
        StopFailure("StopFailure", Other).secondary() {
            /// The error's name, when known.
            error_type: Option<String>,
            /// The error message.
            error_message: Option<String>,
        }
        /// `Interrupt`: the user cancelled the turn (Esc); `Stop` does not fire. Observation only.
        Interrupt("Interrupt", Other)
            .provider_only().secondary() {
            /// The cancelled turn.
            turn_id: Option<u64>,
            /// Always `cancelled` so far.
            reason: Option<String>,
        }
        /// `SessionStart`: a session was created or resumed (not forked). Awaited, but its output
        /// never reaches the model (verified on 2.1.0). Matcher: `startup`/`resume`.
        SessionStart("SessionStart", SessionStart) {
            /// `startup` or `resume`.
            source: Option<String>,
            /// The default model's name (added in 0.32.0).
            model: Option<String>,
            /// The default agent profile's name (added in 0.32.0).
            profile: Option<String>,
        }
        /// `SessionEnd`: the session closes (awaited). Does not fire in `-p` mode. Matcher:
        /// `exit`/`archive`.
        SessionEnd("SessionEnd", SessionEnd) {
            /// `exit` or `archive` (always `exit` before 0.32.0).
            reason: Option<String>,
        }
        /// `SessionHeartbeat`: every 60 s while the session lives, only when a hook is configured
        /// for it. Observation only.
        SessionHeartbeat("SessionHeartbeat", Other)
            .provider_only().secondary() {
            /// Milliseconds since the session service started.
            uptime_ms: Option<u64>,
        }
        /// `SubagentStart`: before a subagent runs (awaited; output ignored). Matcher: agent name.
        SubagentStart("SubagentStart", SubagentStart) {
            /// The subagent's name.
            agent_name: Option<String>,
            /// The prompt the subagent gets.
            prompt: Option<String>,
        }
        /// `SubagentStop`: a subagent completed. Observation only. Matcher: agent name.
        SubagentStop("SubagentStop", SubagentStop) {
            /// The subagent's name.
            agent_name: Option<String>,
            /// The subagent's final response.
            response: Option<String>,
        }
        /// `TaskStarted`: a background task starts. Observation only. Matcher: task kind.
        TaskStarted("TaskStarted", Other)
            .provider_only().secondary() {
            /// The task id.
            task_id: Option<String>,
            /// `agent`, `process` or `question`.
            kind: Option<String>,
            /// The task's description.
            description: Option<String>,
            /// The task status at start (e.g. `running`).
            status: Option<String>,
            /// Whether the task runs detached from the turn.
            detached: Option<bool>,
            /// Start time, milliseconds since the Unix epoch.
            started_at: Option<u64>,
        }
        /// `PreCompact`: before context compaction (awaited; output ignored). Matcher:
        /// `manual`/`auto`.
        PreCompact("PreCompact", CompactPre) {
            /// `manual` or `auto`.
            trigger: Option<String>,
            /// The context size before compaction (an estimate; kept as sent).
            token_count: Option<Number>,
        }
        /// `PostCompact`: after context compaction. Observation only. Matcher: `manual`/`auto`.
        PostCompact("PostCompact", CompactPost) {
            /// `manual` or `auto`.
            trigger: Option<String>,
            /// The estimated context size after compaction (kept as sent).
            estimated_token_count: Option<Number>,
        }
        /// `Notification`: a background-task notification. Observation only. Matcher: notification
        /// type (e.g. `task.completed`).
        Notification("Notification", Notification) {
            /// Where the notification goes (`context`).
            sink: Option<String>,
            /// The agent the task belongs to (kimi-code only).
            agent_id: Option<String>,
            /// The notification type, e.g. `task.completed`.
            notification_type: Option<String>,
            /// The title.
            title: Option<String>,
            /// The body.
            body: Option<String>,
            /// `info` or `warning`.
            severity: Option<String>,
            /// What emitted it (e.g. `task`; kimi-code only).
            source_kind: Option<String>,
            /// The emitter's id (e.g. the task id; kimi-code only).
            source_id: Option<String>,
        }
    }
}

impl NativeEvent {
    /// The turn number, on the events that carry one (`PermissionRequest`, `PermissionResult`,
    /// `TurnStarted`, `Interrupt`).
    pub fn turn_id(&self) -> Option<u64> {
        match self {
            Self::PermissionRequest(e) => e.turn_id,
            Self::PermissionResult(e) => e.turn_id,
            Self::TurnStarted(e) => e.turn_id,
            Self::Interrupt(e) => e.turn_id,
            _ => None,
        }
    }

    /// The agent id, on the events that carry one (`PermissionRequest`, `PermissionResult`,
    /// `Notification`): `main` or a subagent's id.
    pub fn agent_id(&self) -> Option<&str> {
        match self {
            Self::PermissionRequest(e) => e.agent_id.as_deref(),
            Self::PermissionResult(e) => e.agent_id.as_deref(),
            Self::Notification(e) => e.agent_id.as_deref(),
            _ => None,
        }
    }
}

impl PostToolUse {
    /// The tool output as text: the string Kimi sends, or the compact JSON of any other shape
    /// (`""` when absent).
    pub fn tool_output_text(&self) -> Cow<'_, str> {
        match self.tool_output.as_ref() {
            None => Cow::Borrowed(""),
            Some(raw) if raw.is_null() => Cow::Borrowed(""),
            Some(raw) => match raw.value() {
                Value::String(s) => Cow::Borrowed(s),
                other => Cow::Owned(other.to_string()),
            },
        }
    }
}
