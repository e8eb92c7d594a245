//! Native typed payloads of the GitHub Copilot CLI hooks, in both of its dialects.
//!
//! Copilot picks the payload dialect from the **spelling of the event key in the hook config**
//! (since 1.0.21):
//!
//! | config key | module | fields | `timestamp` | event name in the payload |
//! |---|---|---|---|---|
//! | `preToolUse` (camelCase) | this module | camelCase | Unix **milliseconds** (number) | none (except `notification`) |
//! | `PreToolUse` (PascalCase, VS Code compatible) | [`pascal`] | snake_case | ISO-8601 string | `hook_event_name` |
//!
//! Every struct is `#[non_exhaustive]`, keeps every documented field as a `pub` field spelled
//! exactly as on the wire, and ends with `extra`, which collects every key this crate does not
//! know (nothing is ever dropped). Fields whose type drifted between releases use lenient types:
//! [`Timestamp`] (number or string), `toolArgs` as a raw [`Value`] (JSON-encoded string in older
//! releases, object in 1.0.102 — see [`crate::args`]), [`ErrorDetail`] (string or object).
//!
//! [`NativeEvent`] is the sum of all of them; [`NativeEvent::decode`] decodes a payload for a known
//! event with [`serde_path_to_error`], so errors carry the JSON path of the offending field.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

pub mod pascal;

/// The two payload dialects of Copilot CLI, chosen by the config key spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// camelCase config key (`preToolUse`): camelCase fields, ms timestamps, no event name.
    Camel,
    /// PascalCase config key (`PreToolUse`, VS Code compatible): snake_case fields,
    /// `hook_event_name`, ISO-8601 timestamps.
    Pascal,
}

impl Dialect {
    /// A short stable name (`"camel"` / `"pascal"`), used in fixture metadata and logs.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Camel => "camel",
            Self::Pascal => "pascal",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One Copilot CLI hook event, independent of the dialect it arrived in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum EventName {
    /// `sessionStart` / `SessionStart`.
    SessionStart,
    /// `sessionEnd` / `SessionEnd`.
    SessionEnd,
    /// `userPromptSubmitted` / `UserPromptSubmit`.
    UserPromptSubmitted,
    /// `userPromptTransformed` (newer builds; the PascalCase spelling is not documented).
    UserPromptTransformed,
    /// `preToolUse` / `PreToolUse`.
    PreToolUse,
    /// `preMcpToolCall` (1.0.51; the PascalCase spelling is not documented).
    PreMcpToolCall,
    /// `postToolUse` / `PostToolUse` (successful tool results only).
    PostToolUse,
    /// `postToolUseFailure` / `PostToolUseFailure` (`resultType: "failure"` only).
    PostToolUseFailure,
    /// `permissionRequest` / `PermissionRequest`.
    PermissionRequest,
    /// `agentStop` / `Stop`.
    AgentStop,
    /// `subagentStart` / `SubagentStart`.
    SubagentStart,
    /// `subagentStop` / `SubagentStop`.
    SubagentStop,
    /// `preCompact` / `PreCompact`.
    PreCompact,
    /// `errorOccurred` / `ErrorOccurred`.
    ErrorOccurred,
    /// `notification` / `Notification`.
    Notification,
}

/// One row of [`NATIVE_EVENTS`]: the wire names of an event and its unified kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EventSpec {
    /// The event.
    pub event: EventName,
    /// camelCase config key (the name `agenthooks` bakes into argv).
    pub camel: &'static str,
    /// PascalCase config key / `hook_event_name` of the VS Code compatible dialect.
    pub pascal: &'static str,
    /// Whether the PascalCase spelling is documented (`false`: mechanically derived).
    pub pascal_documented: bool,
    /// The unified event kind's wire string (`tool.pre`, …; `other` when unmapped).
    pub kind: &'static str,
}

const fn spec(
    event: EventName,
    camel: &'static str,
    pascal: &'static str,
    pascal_documented: bool,
    kind: &'static str,
) -> EventSpec {
    EventSpec {
        event,
        camel,
        pascal,
        pascal_documented,
        kind,
    }
}

/// Every native event with its camelCase and PascalCase names and its unified kind.
///
/// `userPromptTransformed`, `preMcpToolCall` and `errorOccurred` have no unified kind (they
/// surface as `other` with the native name and raw payload).
pub const NATIVE_EVENTS: &[EventSpec] = &[
    spec(
        EventName::SessionStart,
        "sessionStart",
        "SessionStart",
        true,
        "session.start",
    ),
    spec(EventName::SessionEnd, "sessionEnd", "SessionEnd", true, "session.end"),
    spec(
        EventName::UserPromptSubmitted,
        "userPromptSubmitted",
        "UserPromptSubmit",
        true,
        "prompt.submitted",
    ),
    spec(
        EventName::UserPromptTransformed,
        "userPromptTransformed",
        "UserPromptTransformed",
        false,
        "other",
    ),
    spec(EventName::PreToolUse, "preToolUse", "PreToolUse", true, "tool.pre"),
    spec(
        EventName::PreMcpToolCall,
        "preMcpToolCall",
        "PreMcpToolCall",
        false,
        "other",
    ),
    spec(EventName::PostToolUse, "postToolUse", "PostToolUse", true, "tool.post"),
    spec(
        EventName::PostToolUseFailure,
        "postToolUseFailure",
        "PostToolUseFailure",
        true,
        "tool.error",
    ),
    spec(
        EventName::PermissionRequest,
        "permissionRequest",
        "PermissionRequest",
        true,
        "permission.request",
    ),
    spec(EventName::AgentStop, "agentStop", "Stop", true, "agent.stop"),
    spec(
        EventName::SubagentStart,
        "subagentStart",
        "SubagentStart",
        true,
        "subagent.start",
    ),
    spec(
        EventName::SubagentStop,
        "subagentStop",
        "SubagentStop",
        true,
        "subagent.stop",
    ),
    spec(EventName::PreCompact, "preCompact", "PreCompact", true, "compact.pre"),
    spec(
        EventName::ErrorOccurred,
        "errorOccurred",
        "ErrorOccurred",
        true,
        "other",
    ),
    spec(
        EventName::Notification,
        "notification",
        "Notification",
        true,
        "notification",
    ),
];

impl EventName {
    /// All events, in [`NATIVE_EVENTS`] order.
    pub const ALL: [EventName; 15] = [
        Self::SessionStart,
        Self::SessionEnd,
        Self::UserPromptSubmitted,
        Self::UserPromptTransformed,
        Self::PreToolUse,
        Self::PreMcpToolCall,
        Self::PostToolUse,
        Self::PostToolUseFailure,
        Self::PermissionRequest,
        Self::AgentStop,
        Self::SubagentStart,
        Self::SubagentStop,
        Self::PreCompact,
        Self::ErrorOccurred,
        Self::Notification,
    ];

    /// This event's row of [`NATIVE_EVENTS`].
    pub const fn spec(self) -> &'static EventSpec {
        &NATIVE_EVENTS[self as usize]
    }

    /// The camelCase name (`preToolUse`).
    pub const fn camel(self) -> &'static str {
        self.spec().camel
    }

    /// The PascalCase name (`PreToolUse`; `Stop` for `agentStop`).
    pub const fn pascal(self) -> &'static str {
        self.spec().pascal
    }

    /// The wire name in `dialect`.
    pub const fn name_in(self, dialect: Dialect) -> &'static str {
        match dialect {
            Dialect::Camel => self.camel(),
            Dialect::Pascal => self.pascal(),
        }
    }

    /// The unified kind's wire string (`tool.pre`, …, `other`).
    pub const fn unified_kind(self) -> &'static str {
        self.spec().kind
    }

    /// Looks a camelCase name up (exact, case-sensitive).
    pub fn from_camel(name: &str) -> Option<Self> {
        NATIVE_EVENTS.iter().find(|s| s.camel == name).map(|s| s.event)
    }

    /// Looks a PascalCase name up (exact, case-sensitive).
    pub fn from_pascal(name: &str) -> Option<Self> {
        NATIVE_EVENTS.iter().find(|s| s.pascal == name).map(|s| s.event)
    }

    /// Looks a name up in either spelling, returning the dialect its spelling implies.
    pub fn parse(name: &str) -> Option<(Self, Dialect)> {
        Self::from_camel(name)
            .map(|e| (e, Dialect::Camel))
            .or_else(|| Self::from_pascal(name).map(|e| (e, Dialect::Pascal)))
    }

    /// The payload keys this event defines in `dialect`, beyond the common base keys
    /// ([`BASE_KEYS_CAMEL`] / [`pascal::BASE_KEYS`]). Used by shape reconstruction to spot keys
    /// that belong to another event.
    pub const fn own_keys(self, dialect: Dialect) -> &'static [&'static str] {
        match dialect {
            Dialect::Camel => camel_keys(self),
            Dialect::Pascal => pascal::own_keys(self),
        }
    }
}

impl fmt::Display for EventName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.camel())
    }
}

/// Keys every camelCase payload may carry, whatever the event.
pub const BASE_KEYS_CAMEL: &[&str] = &[
    "sessionId",
    "timestamp",
    "cwd",
    "traceparent",
    "tracestate",
    "agentId",
    "agentType",
    "parentAgentId",
];

const fn camel_keys(event: EventName) -> &'static [&'static str] {
    match event {
        EventName::SessionStart => &["source", "initialPrompt"],
        EventName::SessionEnd => &["reason", "finalMessage", "error"],
        EventName::UserPromptSubmitted => &["prompt"],
        EventName::UserPromptTransformed => &["prompt", "transformedPrompt"],
        EventName::PreToolUse => &["toolName", "toolArgs"],
        EventName::PreMcpToolCall => &["toolCallId", "serverName", "toolName", "arguments", "_meta"],
        EventName::PostToolUse => &["toolName", "toolArgs", "toolResult"],
        EventName::PostToolUseFailure => &["toolName", "toolArgs", "error"],
        EventName::PermissionRequest => &["toolName", "toolInput", "permissionSuggestions", "hookName"],
        EventName::AgentStop => &["transcriptPath", "stopReason", "stop_hook_active", "stopHookActive"],
        EventName::SubagentStart => &["transcriptPath", "agentName", "agentDisplayName", "agentDescription"],
        EventName::SubagentStop => &[
            "transcriptPath",
            "agentName",
            "agentDisplayName",
            "agentDescription",
            "stopReason",
            "response",
            "stop_hook_active",
            "stopHookActive",
        ],
        EventName::PreCompact => &["transcriptPath", "trigger", "customInstructions"],
        EventName::ErrorOccurred => &["error", "errorContext", "recoverable"],
        EventName::Notification => &["hook_event_name", "message", "title", "notification_type"],
    }
}

/// A hook timestamp: Unix milliseconds (camelCase dialect; 1.0.71 sent fractional values such as
/// `1784283185447.0`) or an ISO-8601 / RFC 3339 string (PascalCase dialect).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Timestamp {
    /// Unix time in milliseconds, kept as the exact JSON number that was sent.
    Millis(Number),
    /// An ISO-8601 string, kept verbatim.
    Iso(String),
}

impl Timestamp {
    /// Unix milliseconds, when the value is representable (fractions truncated, ISO strings
    /// parsed as RFC 3339). `None` for unparseable strings and out-of-range numbers.
    pub fn unix_millis(&self) -> Option<i64> {
        match self {
            Self::Millis(n) => n.as_i64().or_else(|| n.as_f64().and_then(f64_to_i64)),
            Self::Iso(s) => parse_rfc3339_millis(s),
        }
    }
}

/// Truncates a finite float inside the `i64` range.
#[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
fn f64_to_i64(f: f64) -> Option<i64> {
    // `i64::MAX as f64` rounds up to 2^63, so compare strictly below it.
    (f.is_finite() && f > i64::MIN as f64 && f < i64::MAX as f64).then(|| f.trunc() as i64)
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)` into Unix milliseconds. Never panics.
pub(crate) fn parse_rfc3339_millis(text: &str) -> Option<i64> {
    fn num(text: &str, range: std::ops::Range<usize>) -> Option<i64> {
        let part = text.get(range)?;
        if part.is_empty() || !part.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        part.parse().ok()
    }
    let bytes = text.as_bytes();
    if bytes.len() < 20
        || bytes.get(4) != Some(&b'-')
        || bytes.get(7) != Some(&b'-')
        || !matches!(bytes.get(10), Some(b'T' | b't' | b' '))
        || bytes.get(13) != Some(&b':')
        || bytes.get(16) != Some(&b':')
    {
        return None;
    }
    let (year, month, day) = (num(text, 0..4)?, num(text, 5..7)?, num(text, 8..10)?);
    let (hour, min, sec) = (num(text, 11..13)?, num(text, 14..16)?, num(text, 17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || min > 59 || sec > 60 {
        return None;
    }
    let mut i = 19;
    let mut millis = 0i64;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return None;
        }
        let frac = text.get(start..i)?;
        let first3: String = frac.chars().chain("000".chars()).take(3).collect();
        millis = first3.parse().ok()?;
    }
    let offset_min = match bytes.get(i) {
        Some(b'Z' | b'z') if i + 1 == bytes.len() => 0,
        Some(sign @ (b'+' | b'-')) if i + 6 == bytes.len() && bytes.get(i + 3) == Some(&b':') => {
            let (h, m) = (num(text, i + 1..i + 3)?, num(text, i + 4..i + 6)?);
            if h > 23 || m > 59 {
                return None;
            }
            let off = h * 60 + m;
            if *sign == b'-' {
                -off
            } else {
                off
            }
        }
        _ => return None,
    };
    // Days from civil (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + hour * 3_600 + min * 60 + sec - offset_min * 60;
    Some(secs * 1_000 + millis)
}

/// An error value: a plain string (SDK callbacks, `postToolUseFailure`) or an object
/// `{message, name, stack?}` (`errorOccurred` command hooks). Anything else is kept as-is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum ErrorDetail {
    /// A plain message.
    Message(String),
    /// A structured error.
    Object(ErrorObject),
    /// Any other JSON value, kept verbatim.
    Other(Value),
}

impl ErrorDetail {
    /// The human-readable message, when there is one.
    pub fn message(&self) -> Option<&str> {
        match self {
            Self::Message(m) => Some(m),
            Self::Object(o) => o.message.as_deref(),
            Self::Other(_) => None,
        }
    }
}

/// A structured error as sent on `errorOccurred`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ErrorObject {
    /// The error message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The error class name (`Error`, `TypeError`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A stack trace, when sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A tool result as sent on `postToolUse` (`toolResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolResult {
    /// `success` on `postToolUse` (older docs also list `failure` / `denied`; the SDK adds
    /// `rejected` / `timeout`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<String>,
    /// The text the model sees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_result_for_llm: Option<String>,
    /// Binary results (SDK), free shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binary_results_for_llm: Option<Value>,
    /// Error text of a failed result (SDK).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
    /// Session log text (SDK).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_log: Option<Value>,
    /// Tool telemetry (SDK), free shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_telemetry: Option<Value>,
    /// Names of tools returned by a tool-search tool (SDK).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_references: Option<Value>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Defines a camelCase-dialect payload struct with the common base fields.
macro_rules! camel_event {
    (
        $(#[$meta:meta])*
        $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "camelCase")]
        #[non_exhaustive]
        pub struct $name {
            /// `sessionId`. Present in current releases; absent from the older documentation.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub session_id: Option<String>,
            /// `timestamp`: Unix milliseconds.
            pub timestamp: Timestamp,
            /// `cwd`: the working directory.
            pub cwd: String,
            $(
                $(#[$fmeta])*
                pub $field: $ty,
            )*
            /// `traceparent` (W3C trace context, 1.0.81+).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub traceparent: Option<String>,
            /// `tracestate` (W3C trace context, 1.0.81+).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub tracestate: Option<String>,
            /// `agentId`: the subagent actor id (newer builds; absent for the root agent).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub agent_id: Option<String>,
            /// `agentType`: the subagent type, when known.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub agent_type: Option<String>,
            /// `parentAgentId`: the immediate parent actor id.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub parent_agent_id: Option<String>,
            /// Unknown keys, kept verbatim.
            #[serde(flatten)]
            pub extra: Map<String, Value>,
        }
    };
}

camel_event! {
    /// `sessionStart`: a new or resumed session.
    SessionStart {
        /// `source`: `startup` | `resume` | `new`.
        source: String,
        /// `initialPrompt`: the prompt the session was started with.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        initial_prompt: Option<String>,
    }
}

camel_event! {
    /// `sessionEnd`: the session terminates (in `-p` mode once per completed turn).
    SessionEnd {
        /// `reason`: `complete` | `error` | `abort` | `timeout` | `user_exit`.
        reason: String,
        /// `finalMessage` (SDK).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        final_message: Option<String>,
        /// `error` (SDK).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<ErrorDetail>,
    }
}

camel_event! {
    /// `userPromptSubmitted`: the user submitted a prompt.
    UserPromptSubmitted {
        /// `prompt`: the prompt text.
        prompt: String,
    }
}

camel_event! {
    /// `userPromptTransformed`: after prompt expansion, before it is stored or sent.
    UserPromptTransformed {
        /// `prompt`: the prompt as submitted.
        prompt: String,
        /// `transformedPrompt`: the prompt after expansion.
        transformed_prompt: String,
    }
}

camel_event! {
    /// `preToolUse`: before each tool call (the gate).
    PreToolUse {
        /// `toolName`: the native tool name (`bash`, `edit`, …).
        tool_name: String,
        /// `toolArgs`: a JSON-encoded **string** in older releases, an object in 1.0.102;
        /// absent when the tool takes no arguments. See [`crate::args::normalize`].
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_args: Option<Value>,
    }
}

camel_event! {
    /// `preMcpToolCall`: before an MCP request is sent (adjusts `_meta` only).
    PreMcpToolCall {
        /// `toolCallId` (the only tool event that carries an id).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_call_id: Option<String>,
        /// `serverName`: the MCP server.
        server_name: String,
        /// `toolName`: the tool as the MCP server knows it.
        tool_name: String,
        /// `arguments`: the MCP call arguments, free shape.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        arguments: Option<Value>,
        /// `_meta`: the outgoing request metadata.
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        meta: Option<Value>,
    }
}

camel_event! {
    /// `postToolUse`: after a **successful** tool call.
    PostToolUse {
        /// `toolName`.
        tool_name: String,
        /// `toolArgs` (string or object, see [`PreToolUse::tool_args`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_args: Option<Value>,
        /// `toolResult`.
        tool_result: ToolResult,
    }
}

camel_event! {
    /// `postToolUseFailure`: after a tool call whose result is `failure`.
    PostToolUseFailure {
        /// `toolName`.
        tool_name: String,
        /// `toolArgs` (string or object).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_args: Option<Value>,
        /// `error`: the failure message.
        error: ErrorDetail,
    }
}

camel_event! {
    /// `permissionRequest`: before the permission service decides on a tool call.
    PermissionRequest {
        /// `toolName`.
        tool_name: String,
        /// `toolInput`: the tool arguments as an **object** (not a string, unlike `toolArgs`).
        tool_input: Value,
        /// `permissionSuggestions` (seen as `[]` on 1.0.102; undocumented).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        permission_suggestions: Option<Value>,
        /// `hookName`: `"permissionRequest"` on 1.0.102 (undocumented; the only camelCase
        /// payload seen to name its own event).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hook_name: Option<String>,
    }
}

camel_event! {
    /// `agentStop`: the main agent finished a turn.
    AgentStop {
        /// `transcriptPath`: the session's `events.jsonl`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        transcript_path: Option<String>,
        /// `stopReason`: `end_turn`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stop_reason: Option<String>,
        /// `stop_hook_active` (1.0.72, snake_case on the wire): this stop re-enters after a
        /// previous `block`.
        #[serde(rename = "stop_hook_active", default, skip_serializing_if = "Option::is_none")]
        stop_hook_active: Option<bool>,
        /// `stopHookActive`: the SDK spelling of the same flag; both are accepted.
        #[serde(rename = "stopHookActive", default, skip_serializing_if = "Option::is_none")]
        stop_hook_active_camel: Option<bool>,
    }
}

camel_event! {
    /// `subagentStart`: a subagent was spawned.
    SubagentStart {
        /// `transcriptPath`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        transcript_path: Option<String>,
        /// `agentName`.
        agent_name: String,
        /// `agentDisplayName`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent_display_name: Option<String>,
        /// `agentDescription`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent_description: Option<String>,
    }
}

camel_event! {
    /// `subagentStop`: a subagent completed.
    SubagentStop {
        /// `transcriptPath`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        transcript_path: Option<String>,
        /// `agentName`.
        agent_name: String,
        /// `agentDisplayName`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent_display_name: Option<String>,
        /// `agentDescription`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent_description: Option<String>,
        /// `stopReason`: `end_turn`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stop_reason: Option<String>,
        /// `response`: the child's last assistant message (SDK).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        response: Option<String>,
        /// `stop_hook_active` (Claude-compatible spelling).
        #[serde(rename = "stop_hook_active", default, skip_serializing_if = "Option::is_none")]
        stop_hook_active: Option<bool>,
        /// `stopHookActive` (SDK spelling).
        #[serde(rename = "stopHookActive", default, skip_serializing_if = "Option::is_none")]
        stop_hook_active_camel: Option<bool>,
    }
}

camel_event! {
    /// `preCompact`: context compaction begins.
    PreCompact {
        /// `transcriptPath`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        transcript_path: Option<String>,
        /// `trigger`: `manual` | `auto`.
        trigger: String,
        /// `customInstructions`: the `/compact` instructions (empty when none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        custom_instructions: Option<String>,
    }
}

camel_event! {
    /// `errorOccurred`: an error during execution.
    ErrorOccurred {
        /// `error`: `{message, name, stack?}` from command hooks, a string from SDK callbacks.
        error: ErrorDetail,
        /// `errorContext`: `model_call` | `tool_execution` | `system` | `user_input`.
        error_context: String,
        /// `recoverable`.
        recoverable: bool,
    }
}

camel_event! {
    /// `notification`: an asynchronous system notification (fire-and-forget).
    Notification {
        /// `hook_event_name`: always `"Notification"`, even in the camelCase dialect.
        #[serde(rename = "hook_event_name", default, skip_serializing_if = "Option::is_none")]
        hook_event_name: Option<String>,
        /// `message`.
        message: String,
        /// `title`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// `notification_type` (snake_case on the wire): `shell_completed`,
        /// `shell_detached_completed`, `agent_completed`, `agent_idle`, `permission_prompt`,
        /// `elicitation_dialog`.
        #[serde(rename = "notification_type")]
        notification_type: String,
    }
}

impl AgentStop {
    /// Whether this stop re-enters after a previous `block` (either spelling of the flag).
    pub fn previously_continued(&self) -> bool {
        self.stop_hook_active.or(self.stop_hook_active_camel) == Some(true)
    }
}

impl SubagentStop {
    /// Whether this stop re-enters after a previous `block` (either spelling of the flag).
    pub fn previously_continued(&self) -> bool {
        self.stop_hook_active.or(self.stop_hook_active_camel) == Some(true)
    }
}

/// Any decoded Copilot payload. Serializes as the payload object itself.
// One payload is decoded per process: boxing variants would only add indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum NativeEvent {
    /// `sessionStart`.
    SessionStart(SessionStart),
    /// `sessionEnd`.
    SessionEnd(SessionEnd),
    /// `userPromptSubmitted`.
    UserPromptSubmitted(UserPromptSubmitted),
    /// `userPromptTransformed`.
    UserPromptTransformed(UserPromptTransformed),
    /// `preToolUse`.
    PreToolUse(PreToolUse),
    /// `preMcpToolCall`.
    PreMcpToolCall(PreMcpToolCall),
    /// `postToolUse`.
    PostToolUse(PostToolUse),
    /// `postToolUseFailure`.
    PostToolUseFailure(PostToolUseFailure),
    /// `permissionRequest`.
    PermissionRequest(PermissionRequest),
    /// `agentStop`.
    AgentStop(AgentStop),
    /// `subagentStart`.
    SubagentStart(SubagentStart),
    /// `subagentStop`.
    SubagentStop(SubagentStop),
    /// `preCompact`.
    PreCompact(PreCompact),
    /// `errorOccurred`.
    ErrorOccurred(ErrorOccurred),
    /// `notification`.
    Notification(Notification),
    /// Any event of the PascalCase (VS Code compatible) dialect.
    Pascal(pascal::PascalEvent),
    /// An event this crate does not know (a future release, `postResult`, …): the payload
    /// object, verbatim.
    Other(Map<String, Value>),
}

/// A payload that does not decode as the event it was identified as.
#[derive(Debug, thiserror::Error)]
#[error("copilot {event} payload: {source} (at `{path}`)")]
#[non_exhaustive]
pub struct NativeError {
    /// The wire name of the event the payload was decoded as (empty for unknown events).
    pub event: String,
    /// The JSON path of the offending value (`.` for the root).
    pub path: String,
    /// The underlying serde error.
    #[source]
    pub source: serde_json::Error,
}

impl NativeError {
    /// Whether the payload was not JSON at all (as opposed to JSON of the wrong shape).
    pub fn is_syntax(&self) -> bool {
        matches!(
            self.source.classify(),
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof
        )
    }
}

fn de<T: serde::de::DeserializeOwned>(event: &str, payload: &[u8]) -> Result<T, NativeError> {
    let mut deserializer = serde_json::Deserializer::from_slice(payload);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| NativeError {
        event: event.to_owned(),
        path: e.path().to_string(),
        source: e.into_inner(),
    })?;
    deserializer.end().map_err(|e| NativeError {
        event: event.to_owned(),
        path: ".".to_owned(),
        source: e,
    })?;
    Ok(value)
}

impl NativeEvent {
    /// Decodes `payload` as `event` in `dialect`.
    pub fn decode(event: EventName, dialect: Dialect, payload: &[u8]) -> Result<Self, NativeError> {
        if dialect == Dialect::Pascal {
            return pascal::PascalEvent::decode(event, payload).map(Self::Pascal);
        }
        let name = event.camel();
        Ok(match event {
            EventName::SessionStart => Self::SessionStart(de(name, payload)?),
            EventName::SessionEnd => Self::SessionEnd(de(name, payload)?),
            EventName::UserPromptSubmitted => Self::UserPromptSubmitted(de(name, payload)?),
            EventName::UserPromptTransformed => Self::UserPromptTransformed(de(name, payload)?),
            EventName::PreToolUse => Self::PreToolUse(de(name, payload)?),
            EventName::PreMcpToolCall => Self::PreMcpToolCall(de(name, payload)?),
            EventName::PostToolUse => Self::PostToolUse(de(name, payload)?),
            EventName::PostToolUseFailure => Self::PostToolUseFailure(de(name, payload)?),
            EventName::PermissionRequest => Self::PermissionRequest(de(name, payload)?),
            EventName::AgentStop => Self::AgentStop(de(name, payload)?),
            EventName::SubagentStart => Self::SubagentStart(de(name, payload)?),
            EventName::SubagentStop => Self::SubagentStop(de(name, payload)?),
            EventName::PreCompact => Self::PreCompact(de(name, payload)?),
            EventName::ErrorOccurred => Self::ErrorOccurred(de(name, payload)?),
            EventName::Notification => Self::Notification(de(name, payload)?),
        })
    }

    /// Decodes the payload of an unknown event: any JSON object.
    pub fn decode_other(name: &str, payload: &[u8]) -> Result<Self, NativeError> {
        de(name, payload).map(Self::Other)
    }

    /// The event, `None` for [`NativeEvent::Other`].
    pub fn event(&self) -> Option<EventName> {
        Some(match self {
            Self::SessionStart(_) => EventName::SessionStart,
            Self::SessionEnd(_) => EventName::SessionEnd,
            Self::UserPromptSubmitted(_) => EventName::UserPromptSubmitted,
            Self::UserPromptTransformed(_) => EventName::UserPromptTransformed,
            Self::PreToolUse(_) => EventName::PreToolUse,
            Self::PreMcpToolCall(_) => EventName::PreMcpToolCall,
            Self::PostToolUse(_) => EventName::PostToolUse,
            Self::PostToolUseFailure(_) => EventName::PostToolUseFailure,
            Self::PermissionRequest(_) => EventName::PermissionRequest,
            Self::AgentStop(_) => EventName::AgentStop,
            Self::SubagentStart(_) => EventName::SubagentStart,
            Self::SubagentStop(_) => EventName::SubagentStop,
            Self::PreCompact(_) => EventName::PreCompact,
            Self::ErrorOccurred(_) => EventName::ErrorOccurred,
            Self::Notification(_) => EventName::Notification,
            Self::Pascal(p) => p.event(),
            Self::Other(_) => return None,
        })
    }

    /// The dialect, `None` for [`NativeEvent::Other`].
    pub fn dialect(&self) -> Option<Dialect> {
        match self {
            Self::Pascal(_) => Some(Dialect::Pascal),
            Self::Other(_) => None,
            _ => Some(Dialect::Camel),
        }
    }

    /// The wire name of the event in its dialect, `None` for [`NativeEvent::Other`].
    pub fn wire_name(&self) -> Option<&'static str> {
        Some(self.event()?.name_in(self.dialect()?))
    }

    /// The unknown keys the payload carried (`None` for [`NativeEvent::Other`], whose whole
    /// payload is unknown).
    pub fn extra(&self) -> Option<&Map<String, Value>> {
        Some(match self {
            Self::SessionStart(e) => &e.extra,
            Self::SessionEnd(e) => &e.extra,
            Self::UserPromptSubmitted(e) => &e.extra,
            Self::UserPromptTransformed(e) => &e.extra,
            Self::PreToolUse(e) => &e.extra,
            Self::PreMcpToolCall(e) => &e.extra,
            Self::PostToolUse(e) => &e.extra,
            Self::PostToolUseFailure(e) => &e.extra,
            Self::PermissionRequest(e) => &e.extra,
            Self::AgentStop(e) => &e.extra,
            Self::SubagentStart(e) => &e.extra,
            Self::SubagentStop(e) => &e.extra,
            Self::PreCompact(e) => &e.extra,
            Self::ErrorOccurred(e) => &e.extra,
            Self::Notification(e) => &e.extra,
            Self::Pascal(p) => p.extra(),
            Self::Other(_) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_spec_rows_are_in_enum_order() {
        for (i, e) in EventName::ALL.iter().enumerate() {
            assert_eq!(NATIVE_EVENTS[i].event, *e);
            assert_eq!(EventName::from_camel(e.camel()), Some(*e));
            assert_eq!(EventName::from_pascal(e.pascal()), Some(*e));
        }
        assert_eq!(EventName::parse("Stop"), Some((EventName::AgentStop, Dialect::Pascal)));
        assert_eq!(
            EventName::parse("userPromptSubmitted"),
            Some((EventName::UserPromptSubmitted, Dialect::Camel))
        );
        assert_eq!(EventName::parse("postResult"), None);
        assert_eq!(EventName::PreToolUse.unified_kind(), "tool.pre");
    }

    #[test]
    fn timestamps_parse_in_both_forms() {
        let ms: Timestamp = serde_json::from_str("1796040711043").unwrap();
        assert_eq!(ms.unix_millis(), Some(1_796_040_711_043));
        let frac: Timestamp = serde_json::from_str("1784283185447.0").unwrap();
        assert_eq!(frac.unix_millis(), Some(1_784_283_185_447));
        let iso: Timestamp = serde_json::from_str("\"2026-07-08T10:51:48.535Z\"").unwrap();
        assert_eq!(iso.unix_millis(), Some(1_783_507_908_535));
        assert_eq!(parse_rfc3339_millis("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339_millis("1970-01-01T01:00:00+01:00"),
            Some(0),
            "offsets are applied"
        );
        assert_eq!(parse_rfc3339_millis("2026-13-01T00:00:00Z"), None);
        assert_eq!(parse_rfc3339_millis("not a date at all!!!"), None);
        assert_eq!(parse_rfc3339_millis("2026-01-01T00:00:00.Z"), None);
        assert_eq!(parse_rfc3339_millis("é"), None);
        let huge: Timestamp = serde_json::from_str("1e300").unwrap();
        assert_eq!(huge.unix_millis(), None);
    }

    #[test]
    fn pre_tool_use_keeps_unknown_keys_and_raw_args() {
        let raw = br#"{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}","future":{"x":1}}"#;
        let NativeEvent::PreToolUse(e) = NativeEvent::decode(EventName::PreToolUse, Dialect::Camel, raw).unwrap()
        else {
            panic!("wrong variant")
        };
        assert_eq!(e.tool_name, "bash");
        assert_eq!(e.tool_args, Some(Value::String(r#"{"command":"ls"}"#.into())));
        assert_eq!(e.extra.get("future"), Some(&serde_json::json!({"x": 1})));
        assert_eq!(e.extra.len(), 1);
    }

    #[test]
    fn missing_required_field_is_an_error_with_a_path() {
        let err = NativeEvent::decode(
            EventName::ErrorOccurred,
            Dialect::Camel,
            br#"{"timestamp":1,"cwd":"/w","error":"x","errorContext":"system","recoverable":"yes"}"#,
        )
        .unwrap_err();
        assert_eq!(err.event, "errorOccurred");
        assert!(err.path.contains("recoverable"), "path was {}", err.path);
        assert!(!err.is_syntax());
        let err = NativeEvent::decode(EventName::PreToolUse, Dialect::Camel, b"{\"cwd\":").unwrap_err();
        assert!(err.is_syntax());
    }

    #[test]
    fn both_stop_hook_active_spellings_are_accepted() {
        for raw in [
            &br#"{"timestamp":1,"cwd":"/w","stop_hook_active":true}"#[..],
            &br#"{"timestamp":1,"cwd":"/w","stopHookActive":true}"#[..],
        ] {
            let NativeEvent::AgentStop(e) = NativeEvent::decode(EventName::AgentStop, Dialect::Camel, raw).unwrap()
            else {
                panic!("wrong variant")
            };
            assert!(e.previously_continued());
            assert!(e.extra.is_empty());
        }
    }

    #[test]
    fn error_detail_accepts_string_and_object() {
        let e: ErrorDetail = serde_json::from_str(r#""boom""#).unwrap();
        assert_eq!(e.message(), Some("boom"));
        let e: ErrorDetail = serde_json::from_str(r#"{"message":"m","name":"Error","code":7}"#).unwrap();
        let ErrorDetail::Object(o) = &e else {
            panic!("object expected")
        };
        assert_eq!(o.extra.get("code"), Some(&Value::from(7)));
        assert_eq!(e.message(), Some("m"));
        let e: ErrorDetail = serde_json::from_str("42").unwrap();
        assert_eq!(e, ErrorDetail::Other(Value::from(42)));
    }

    #[test]
    fn other_events_keep_the_whole_object() {
        let e = NativeEvent::decode_other("postResult", br#"{"a":1}"#).unwrap();
        assert_eq!(e.event(), None);
        let NativeEvent::Other(m) = e else {
            panic!("other expected")
        };
        assert_eq!(m.get("a"), Some(&Value::from(1)));
        assert!(NativeEvent::decode_other("postResult", b"[1]").is_err());
    }
}
