//! Native typed payloads of the GitHub Copilot CLI hooks, in both of its dialects.
//!
//! Copilot picks the payload dialect from the **spelling of the event key in the hook config**
//! (since 1.0.21):
//!
//! | config key | fields | `timestamp` | event name in the payload |
//! |---|---|---|---|
//! | `preToolUse` (camelCase, what agenthooks installs) | camelCase | Unix **milliseconds** (number) | none (except `notification`) |
//! | `PreToolUse` (PascalCase, VS Code compatible) | snake_case | ISO-8601 string | `hook_event_name` |
//!
//! One [`agenthooks_core::kit::native_events!`] table serves both: its rows are the camelCase names
//! (the ones install bakes into `--event`), and each field is spelled camelCase with
//! `#[serde(alias = "snake_case")]` for the PascalCase dialect. The PascalCase event names map
//! onto the rows through [`row`] (the capitalized camelCase name, except the two irregular
//! spellings in one list: `Stop` and `UserPromptSubmit`). The dialect is not a property of the
//! struct: it is read from the payload ([`crate::identify`]) and recorded on the envelope
//! (variant `vscode`, the PascalCase native name). ⚠ A struct decoded from a PascalCase payload
//! serializes back with camelCase keys; the bytes as sent stay in `Envelope::raw`.
//!
//! Every struct is `#[non_exhaustive]`, keeps every documented field as a `pub` field and ends
//! with `extra`, which collects every key this crate does not know (nothing is ever dropped).
//! Tolerant decoding (`docs/codec-guide.md`): the event name (argv `--event`, `hook_event_name`
//! or the payload's shape) and, on tool events, `toolName` are the only required fields; every
//! other field is an `Option`, because releases differ:
//!
//! - `sessionId` is absent from the older documentation's examples; `traceparent`/`tracestate`
//!   arrive with 1.0.81; `agentId`/`agentType`/`parentAgentId` in newer builds;
//! - `toolArgs` is a JSON-encoded **string** up to at least 1.0.63 (the raw patch text for
//!   `apply_patch`) and an **object** by 1.0.82 (1.0.102 captured): kept as a raw [`Value`]
//!   (see [`crate::args`]);
//! - `timestamp` is a number in the camelCase dialect (1.0.71 sent fractional values) and an
//!   ISO string in the PascalCase one: [`Timestamp`];
//! - `error` is a string (`postToolUseFailure`, SDK callbacks) or an object (`errorOccurred`
//!   command hooks): [`ErrorDetail`];
//! - `stop_hook_active` (1.0.72, snake_case even in camelCase payloads) and the SDK's
//!   `stopHookActive` are both kept;
//! - 1.0.102's `permissionRequest` adds the undocumented `hookName` and
//!   `permissionSuggestions`.
//!
//! A value of a shape no release sent moves to `extra` (the kit's repair), so a retyped field
//! never fails a hook.

use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

use agenthooks_core::kit::{lenient, EventRow, FailShape};
use agenthooks_core::{CapSet, Capability as C};

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

/// `preToolUse`: the gate.
const PRE_TOOL: CapSet = CapSet::of(&[C::Deny, C::Ask, C::Allow, C::UpdateInput, C::AddContext]);
/// `permissionRequest`: allow / deny short-circuit (`interrupt` is not claimed, quirk 410).
// Fired just before Copilot's permission dialog: abstaining lets the user decide (an ask is
// answered no decision). ⚠ `-p` runs fire it too, with no dialog after it, but neither the
// payload nor the environment says so: the codec cannot tell headless runs apart yet.
const PERMISSION: CapSet = CapSet::of(&[C::Deny, C::Allow, C::PermissionDialog]);
/// `agentStop` / `subagentStop`: `decision: "block"` continues the agent.
const STOP: CapSet = CapSet::of(&[C::ContinueAgent]);
/// Events whose `additionalContext` reaches the model.
const CONTEXT: CapSet = CapSet::of(&[C::AddContext]);
/// The identifying field of tool events, in both dialects.
const TOOL: &[&str] = &["toolName", "tool_name"];

agenthooks_core::kit::native_events! {
    /// A decoded Copilot CLI hook payload (either dialect): one variant per native event, plus
    /// [`NativeEvent::Other`] for events this crate does not know (`postResult`, …).
    name_key None;
    common {
        /// `sessionId` / `session_id`. Present in current releases; absent from the older
        /// documentation.
        #[serde(rename = "sessionId", alias = "session_id")]
        session_id: Option<String>,
        /// `timestamp`: Unix milliseconds (camelCase) or an ISO-8601 string (PascalCase).
        timestamp: Option<Timestamp>,
        /// `cwd`: the working directory.
        cwd: Option<String>,
        /// `hook_event_name`: the PascalCase event name, on every PascalCase payload and on the
        /// camelCase `notification` (always `"Notification"`).
        hook_event_name: Option<String>,
        /// `transcriptPath` / `transcript_path`: the session's `events.jsonl` (camelCase: stop,
        /// subagent and compaction events; PascalCase: every event).
        #[serde(rename = "transcriptPath", alias = "transcript_path")]
        transcript_path: Option<String>,
        /// `traceparent` (W3C trace context, 1.0.81+).
        traceparent: Option<String>,
        /// `tracestate` (W3C trace context, 1.0.81+).
        tracestate: Option<String>,
        /// `agentId` / `agent_id`: the subagent actor id (newer builds; absent for the root
        /// agent).
        #[serde(rename = "agentId", alias = "agent_id")]
        agent_id: Option<String>,
        /// `agentType` / `agent_type`: the subagent type, when known.
        #[serde(rename = "agentType", alias = "agent_type")]
        agent_type: Option<String>,
        /// `parentAgentId` / `parent_agent_id`: the immediate parent actor id.
        #[serde(rename = "parentAgentId", alias = "parent_agent_id")]
        parent_agent_id: Option<String>,
    }
    events {
        /// `sessionStart` / `SessionStart`: a new or resumed session. Context.
        SessionStart("sessionStart", SessionStart, blocking).caps(CONTEXT) {
            /// `source`: `startup` | `resume` | `new`.
            source: Option<String>,
            /// `initialPrompt` / `initial_prompt`: the prompt the session was started with.
            #[serde(rename = "initialPrompt", alias = "initial_prompt")]
            initial_prompt: Option<String>,
        }
        /// `sessionEnd` / `SessionEnd`: the session terminates (in `-p` mode once per completed
        /// turn, 1.0.78). Output ignored.
        SessionEnd("sessionEnd", SessionEnd) {
            /// `reason`: `complete` | `error` | `abort` | `timeout` | `user_exit`.
            reason: Option<String>,
            /// `finalMessage` / `final_message` (SDK).
            #[serde(rename = "finalMessage", alias = "final_message")]
            final_message: Option<String>,
            /// `error` (SDK).
            error: Option<ErrorDetail>,
        }
        /// `userPromptSubmitted` / `UserPromptSubmit`: the user submitted a prompt. Context from
        /// 1.0.65 (quirk 408).
        UserPromptSubmitted("userPromptSubmitted", PromptSubmitted, blocking).caps(CONTEXT) {
            /// `prompt`: the prompt text.
            prompt: Option<String>,
        }
        /// `userPromptTransformed`: after prompt expansion, before it is stored or sent (newer
        /// builds; modify-only, not mapped; the PascalCase spelling is mechanical).
        UserPromptTransformed("userPromptTransformed", Other) {
            /// `prompt`: the prompt as submitted.
            prompt: Option<String>,
            /// `transformedPrompt` / `transformed_prompt`: the prompt after expansion.
            #[serde(rename = "transformedPrompt", alias = "transformed_prompt")]
            transformed_prompt: Option<String>,
        }
        /// `preToolUse` / `PreToolUse`: before each tool call (the gate). Fail-closed: an
        /// explicit deny (quirk 405).
        PreToolUse("preToolUse", ToolPre, blocking, tool_matcher).caps(PRE_TOOL).fail(FailShape::Block).identify(TOOL) {
            /// `toolName` / `tool_name` (identifying): the native tool name (`bash`, `edit`, …;
            /// Claude names such as `Bash` in Claude-format plugin hooks, 1.0.62).
            #[serde(rename = "toolName", alias = "tool_name")]
            tool_name: String,
            /// `toolArgs` (camelCase) / `tool_input` (PascalCase): a JSON-encoded **string** up to
            /// at least 1.0.63, an object by 1.0.82; absent when the tool takes no arguments.
            /// See [`crate::args::normalize`].
            #[serde(rename = "toolArgs", alias = "tool_input")]
            tool_args: Option<Value>,
        }
        /// `preMcpToolCall`: before an MCP request is sent (1.0.51; adjusts `_meta` only, not
        /// mapped; the PascalCase spelling is mechanical).
        PreMcpToolCall("preMcpToolCall", Other) {
            /// `toolCallId` / `tool_call_id` (the only tool event that carries an id).
            #[serde(rename = "toolCallId", alias = "tool_call_id")]
            tool_call_id: Option<String>,
            /// `serverName` / `server_name`: the MCP server.
            #[serde(rename = "serverName", alias = "server_name")]
            server_name: Option<String>,
            /// `toolName` / `tool_name`: the tool as the MCP server knows it.
            #[serde(rename = "toolName", alias = "tool_name")]
            tool_name: Option<String>,
            /// `arguments`: the MCP call arguments, free shape.
            arguments: Option<Value>,
            /// `_meta`: the outgoing request metadata.
            #[serde(rename = "_meta")]
            meta: Option<Value>,
        }
        /// `postToolUse` / `PostToolUse`: after a **successful** tool call (1.0.15). Context.
        PostToolUse("postToolUse", ToolPost, blocking, tool_matcher).caps(CONTEXT).identify(TOOL) {
            /// `toolName` / `tool_name` (identifying).
            #[serde(rename = "toolName", alias = "tool_name")]
            tool_name: String,
            /// `toolArgs` / `tool_input` (string or object, see [`PreToolUse::tool_args`]).
            #[serde(rename = "toolArgs", alias = "tool_input")]
            tool_args: Option<Value>,
            /// `toolResult` / `tool_result` (snake spelling unverified).
            #[serde(rename = "toolResult", alias = "tool_result")]
            tool_result: Option<ToolResult>,
            /// `tool_response`: the Claude-compatible spelling a PascalCase payload may use.
            tool_response: Option<Value>,
        }
        /// `postToolUseFailure` / `PostToolUseFailure`: after a tool call whose result is
        /// `failure`. Context.
        PostToolUseFailure("postToolUseFailure", ToolError, blocking, tool_matcher).caps(CONTEXT).identify(TOOL) {
            /// `toolName` / `tool_name` (identifying).
            #[serde(rename = "toolName", alias = "tool_name")]
            tool_name: String,
            /// `toolArgs` / `tool_input` (string or object).
            #[serde(rename = "toolArgs", alias = "tool_input")]
            tool_args: Option<Value>,
            /// `error`: the failure message.
            error: Option<ErrorDetail>,
        }
        /// `permissionRequest` / `PermissionRequest`: before the permission service decides on
        /// a tool call. Allow / deny; fail-closed: an explicit deny.
        PermissionRequest("permissionRequest", Permission, blocking, tool_matcher).caps(PERMISSION).fail(FailShape::Block).identify(TOOL) {
            /// `toolName` / `tool_name` (identifying).
            #[serde(rename = "toolName", alias = "tool_name")]
            tool_name: String,
            /// `toolInput` / `tool_input`: the tool arguments as an **object** (not a string,
            /// unlike `toolArgs`).
            #[serde(rename = "toolInput", alias = "tool_input")]
            tool_input: Option<Value>,
            /// `permissionSuggestions` / `permission_suggestions` (seen as `[]` on 1.0.102;
            /// undocumented).
            #[serde(rename = "permissionSuggestions", alias = "permission_suggestions")]
            permission_suggestions: Option<Value>,
            /// `hookName`: `"permissionRequest"` on 1.0.102 (undocumented; the only camelCase
            /// payload seen to name its own event).
            #[serde(rename = "hookName")]
            hook_name: Option<String>,
        }
        /// `agentStop` / `Stop`: the main agent finished a turn. `decision: "block"` continues.
        AgentStop("agentStop", Stop, blocking).caps(STOP) {
            /// `stopReason` / `stop_reason`: `end_turn`.
            #[serde(rename = "stopReason", alias = "stop_reason")]
            stop_reason: Option<String>,
            /// `stop_hook_active` (1.0.72, snake_case on the wire in both dialects): this stop
            /// re-enters after a previous `block`.
            #[serde(deserialize_with = "lenient::opt_bool")]
            stop_hook_active: Option<bool>,
            /// `stopHookActive`: the SDK spelling of the same flag; both are accepted.
            #[serde(rename = "stopHookActive", deserialize_with = "lenient::opt_bool")]
            stop_hook_active_camel: Option<bool>,
        }
        /// `subagentStart` / `SubagentStart`: a subagent was spawned. Context (prepended to the
        /// child's prompt).
        SubagentStart("subagentStart", SubagentStart, blocking).caps(CONTEXT) {
            /// `agentName` / `agent_name`.
            #[serde(rename = "agentName", alias = "agent_name")]
            agent_name: Option<String>,
            /// `agentDisplayName` / `agent_display_name`.
            #[serde(rename = "agentDisplayName", alias = "agent_display_name")]
            agent_display_name: Option<String>,
            /// `agentDescription` / `agent_description`.
            #[serde(rename = "agentDescription", alias = "agent_description")]
            agent_description: Option<String>,
        }
        /// `subagentStop` / `SubagentStop`: a subagent completed. `decision: "block"` continues.
        SubagentStop("subagentStop", SubagentStop, blocking).caps(STOP) {
            /// `agentName` / `agent_name`.
            #[serde(rename = "agentName", alias = "agent_name")]
            agent_name: Option<String>,
            /// `agentDisplayName` / `agent_display_name`.
            #[serde(rename = "agentDisplayName", alias = "agent_display_name")]
            agent_display_name: Option<String>,
            /// `agentDescription` / `agent_description`.
            #[serde(rename = "agentDescription", alias = "agent_description")]
            agent_description: Option<String>,
            /// `stopReason` / `stop_reason`: `end_turn`.
            #[serde(rename = "stopReason", alias = "stop_reason")]
            stop_reason: Option<String>,
            /// `response`: the child's last assistant message (SDK).
            response: Option<String>,
            /// `stop_hook_active` (Claude-compatible spelling).
            #[serde(deserialize_with = "lenient::opt_bool")]
            stop_hook_active: Option<bool>,
            /// `stopHookActive` (SDK spelling).
            #[serde(rename = "stopHookActive", deserialize_with = "lenient::opt_bool")]
            stop_hook_active_camel: Option<bool>,
        }
        /// `preCompact` / `PreCompact`: context compaction begins. Output ignored.
        PreCompact("preCompact", CompactPre) {
            /// `trigger`: `manual` | `auto`.
            trigger: Option<String>,
            /// `customInstructions` / `custom_instructions`: the `/compact` instructions (empty
            /// when none).
            #[serde(rename = "customInstructions", alias = "custom_instructions")]
            custom_instructions: Option<String>,
        }
        /// `errorOccurred` / `ErrorOccurred`: an error during execution (not mapped).
        ErrorOccurred("errorOccurred", Other) {
            /// `error`: `{message, name, stack?}` from command hooks, a string from SDK callbacks.
            error: Option<ErrorDetail>,
            /// `errorContext` / `error_context`: `model_call` | `tool_execution` | `system` |
            /// `user_input`.
            #[serde(rename = "errorContext", alias = "error_context")]
            error_context: Option<String>,
            /// `recoverable`.
            #[serde(deserialize_with = "lenient::opt_bool")]
            recoverable: Option<bool>,
        }
        /// `notification` / `Notification`: an asynchronous system notification
        /// (fire-and-forget; `additionalContext` is injected as a user message).
        Notification("notification", Notification, blocking).caps(CONTEXT) {
            /// `message`.
            message: Option<String>,
            /// `title`.
            title: Option<String>,
            /// `notification_type` (snake_case in both dialects): `shell_completed`,
            /// `shell_detached_completed`, `agent_completed`, `agent_idle`, `permission_prompt`,
            /// `elicitation_dialog`.
            notification_type: Option<String>,
        }
    }
}

/// The PascalCase (VS Code compatible) names that are not the camelCase row name capitalized:
/// the one place the two spellings of an event differ.
const PASCAL_IRREGULAR: &[(&str, &str)] = &[("Stop", "agentStop"), ("UserPromptSubmit", "userPromptSubmitted")];

/// The row of a native event name in either spelling (`preToolUse`, `PreToolUse`, `Stop`),
/// with the dialect the spelling implies. Names are case-sensitive.
pub fn spelled(name: &str) -> Option<(&'static EventRow, Dialect)> {
    if let Some(row) = EVENTS.iter().find(|r| r.name == name) {
        return Some((row, Dialect::Camel));
    }
    let camel = match PASCAL_IRREGULAR.iter().find(|(pascal, _)| *pascal == name) {
        Some((_, camel)) => EVENTS.iter().find(|r| r.name == *camel),
        None => EVENTS
            .iter()
            .filter(|r| !PASCAL_IRREGULAR.iter().any(|(_, camel)| camel == &r.name))
            .find(|r| is_capitalized(r.name, name)),
    };
    camel.map(|row| (row, Dialect::Pascal))
}

/// The row of a native event name in either spelling.
pub fn row(name: &str) -> Option<&'static EventRow> {
    spelled(name).map(|(row, _)| row)
}

/// The name of a row in `dialect` (`agentStop` → `Stop` in [`Dialect::Pascal`]).
pub fn name_in(row: &EventRow, dialect: Dialect) -> String {
    if dialect == Dialect::Camel {
        return row.name.to_owned();
    }
    if let Some((pascal, _)) = PASCAL_IRREGULAR.iter().find(|(_, camel)| *camel == row.name) {
        return (*pascal).to_owned();
    }
    let mut chars = row.name.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// Whether `pascal` is `camel` with its first letter capitalized.
fn is_capitalized(camel: &str, pascal: &str) -> bool {
    match (camel.as_bytes().split_first(), pascal.as_bytes().split_first()) {
        (Some((c, c_rest)), Some((p, p_rest))) => {
            c.is_ascii_lowercase() && c.to_ascii_uppercase() == *p && c_rest == p_rest
        }
        _ => false,
    }
}

/// The continuation flag's readers, for each stop event that carries both spellings of it.
macro_rules! stop_flag_readers {
    ($($Stop:ident),+) => {$(
        impl $Stop {
            /// Whether this stop re-enters after a previous `block` (either spelling of the flag).
            pub fn previously_continued(&self) -> bool {
                self.reported_continuation() == Some(true)
            }

            /// The flag as sent (either spelling), `None` when the payload has neither (releases
            /// before 1.0.72): the runner's counter decides then.
            pub fn reported_continuation(&self) -> Option<bool> {
                self.stop_hook_active.or(self.stop_hook_active_camel)
            }
        }
    )+};
}

stop_flag_readers!(AgentStop, SubagentStop);

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

    /// The error as one text: the message, else the JSON of the object or value.
    pub fn text(&self) -> String {
        match self {
            Self::Message(m) => m.clone(),
            Self::Object(o) => o
                .message
                .clone()
                .unwrap_or_else(|| serde_json::to_string(o).unwrap_or_default()),
            Self::Other(v) => v.to_string(),
        }
    }
}

agenthooks_core::kit::native_record! {
    /// A structured error as sent on `errorOccurred`.
    pub struct ErrorObject {
        /// The error message.
        message: Option<String>,
        /// The error class name (`Error`, `TypeError`, …).
        name: Option<String>,
        /// A stack trace, when sent.
        stack: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// A tool result as sent on `postToolUse` (`toolResult`).
    #[serde(rename_all = "camelCase")]
    pub struct ToolResult {
        /// `success` on `postToolUse` (older docs also list `failure` / `denied`; the SDK adds
        /// `rejected` / `timeout`).
        result_type: Option<String>,
        /// The text the model sees.
        text_result_for_llm: Option<String>,
        /// Binary results (SDK), free shape.
        binary_results_for_llm: Option<Value>,
        /// Error text of a failed result (SDK).
        error: Option<Value>,
        /// Session log text (SDK).
        session_log: Option<Value>,
        /// Tool telemetry (SDK), free shape.
        tool_telemetry: Option<Value>,
        /// Names of tools returned by a tool-search tool (SDK).
        tool_references: Option<Value>,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn error_detail_accepts_string_and_object() {
        let e: ErrorDetail = serde_json::from_str(r#""boom""#).unwrap();
        assert_eq!((e.message(), e.text().as_str()), (Some("boom"), "boom"));
        let e: ErrorDetail = serde_json::from_str(r#"{"message":"m","name":"Error","code":7}"#).unwrap();
        let ErrorDetail::Object(o) = &e else {
            panic!("object expected")
        };
        assert_eq!(o.extra.get("code"), Some(&Value::from(7)));
        assert_eq!(e.message(), Some("m"));
        let e: ErrorDetail = serde_json::from_str(r#"{"name":"Error"}"#).unwrap();
        assert_eq!(e.text(), r#"{"name":"Error"}"#);
        let e: ErrorDetail = serde_json::from_str("42").unwrap();
        assert_eq!(
            (e.clone(), e.text().as_str()),
            (ErrorDetail::Other(Value::from(42)), "42")
        );
    }
}
