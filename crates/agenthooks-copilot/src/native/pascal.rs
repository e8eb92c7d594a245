//! The PascalCase (VS Code compatible) dialect: chosen when the hook config spells the event key
//! in PascalCase (`PreToolUse`, `Stop`, …).
//!
//! Fields are snake_case, every payload names its event in `hook_event_name`, `timestamp` is an
//! ISO-8601 string, and the tool arguments arrive as `tool_input`, parsed to an object when
//! possible. Plugin hooks in the Claude format also carry Claude tool names (`Bash`, 1.0.62).
//!
//! Only `PreToolUse` has been seen on the wire from Copilot CLI in this dialect (Copilot CLI
//! 1.0.x, third-party reports); the other structs mirror the camelCase fields under their
//! snake_case spelling, plus `transcript_path` which VS Code sends on every event. Unknown keys
//! land in `extra` as everywhere else, so a spelling this crate guessed wrong is never lost.
//! `UserPromptTransformed` and `PreMcpToolCall` have no documented PascalCase key; their names
//! here are mechanical.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{de, ErrorDetail, EventName, NativeError, Timestamp};

/// Keys every PascalCase payload may carry, whatever the event.
pub const BASE_KEYS: &[&str] = &[
    "session_id",
    "timestamp",
    "cwd",
    "hook_event_name",
    "transcript_path",
    "traceparent",
    "tracestate",
    "agent_id",
    "agent_type",
    "parent_agent_id",
];

pub(super) const fn own_keys(event: EventName) -> &'static [&'static str] {
    match event {
        EventName::SessionStart => &["source", "initial_prompt"],
        EventName::SessionEnd => &["reason", "final_message", "error"],
        EventName::UserPromptSubmitted => &["prompt"],
        EventName::UserPromptTransformed => &["prompt", "transformed_prompt"],
        EventName::PreToolUse => &["tool_name", "tool_input"],
        EventName::PreMcpToolCall => &["tool_call_id", "server_name", "tool_name", "arguments", "_meta"],
        EventName::PostToolUse => &["tool_name", "tool_input", "tool_result", "tool_response"],
        EventName::PostToolUseFailure => &["tool_name", "tool_input", "error"],
        EventName::PermissionRequest => &["tool_name", "tool_input", "permission_suggestions"],
        EventName::AgentStop => &["stop_reason", "stop_hook_active"],
        EventName::SubagentStart => &["agent_name", "agent_display_name", "agent_description"],
        EventName::SubagentStop => &[
            "agent_name",
            "agent_display_name",
            "agent_description",
            "stop_reason",
            "response",
            "stop_hook_active",
        ],
        EventName::PreCompact => &["trigger", "custom_instructions"],
        EventName::ErrorOccurred => &["error", "error_context", "recoverable"],
        EventName::Notification => &["message", "title", "notification_type"],
    }
}

/// Defines a PascalCase-dialect payload struct with the common base fields.
macro_rules! pascal_event {
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
        #[non_exhaustive]
        pub struct $name {
            /// `session_id`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub session_id: Option<String>,
            /// `timestamp`: an ISO-8601 string.
            pub timestamp: Timestamp,
            /// `cwd`.
            pub cwd: String,
            /// `hook_event_name`: the PascalCase event name.
            pub hook_event_name: String,
            /// `transcript_path`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub transcript_path: Option<String>,
            $(
                $(#[$fmeta])*
                pub $field: $ty,
            )*
            /// `traceparent` (W3C trace context).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub traceparent: Option<String>,
            /// `tracestate` (W3C trace context).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub tracestate: Option<String>,
            /// `agent_id`: the subagent actor id.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub agent_id: Option<String>,
            /// `agent_type`: the subagent type.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub agent_type: Option<String>,
            /// `parent_agent_id`: the immediate parent actor id.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub parent_agent_id: Option<String>,
            /// Unknown keys, kept verbatim.
            #[serde(flatten)]
            pub extra: Map<String, Value>,
        }
    };
}

pascal_event! {
    /// `SessionStart`.
    SessionStart {
        /// `source`: `startup` | `resume` | `new`.
        source: String,
        /// `initial_prompt`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        initial_prompt: Option<String>,
    }
}

pascal_event! {
    /// `SessionEnd`.
    SessionEnd {
        /// `reason`.
        reason: String,
        /// `final_message`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        final_message: Option<String>,
        /// `error`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<ErrorDetail>,
    }
}

pascal_event! {
    /// `UserPromptSubmit` (camelCase `userPromptSubmitted`).
    UserPromptSubmit {
        /// `prompt`.
        prompt: String,
    }
}

pascal_event! {
    /// `UserPromptTransformed` (mechanical name; undocumented in this dialect).
    UserPromptTransformed {
        /// `prompt`.
        prompt: String,
        /// `transformed_prompt`.
        transformed_prompt: String,
    }
}

pascal_event! {
    /// `PreToolUse`.
    PreToolUse {
        /// `tool_name` (Claude names such as `Bash` for Claude-format plugin hooks).
        tool_name: String,
        /// `tool_input`: an object when Copilot could parse the arguments, else the raw value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_input: Option<Value>,
    }
}

pascal_event! {
    /// `PreMcpToolCall` (mechanical name; undocumented in this dialect).
    PreMcpToolCall {
        /// `tool_call_id`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_call_id: Option<String>,
        /// `server_name`.
        server_name: String,
        /// `tool_name`.
        tool_name: String,
        /// `arguments`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        arguments: Option<Value>,
        /// `_meta`.
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        meta: Option<Value>,
    }
}

pascal_event! {
    /// `PostToolUse`.
    PostToolUse {
        /// `tool_name`.
        tool_name: String,
        /// `tool_input`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_input: Option<Value>,
        /// `tool_result` (snake_case of the camelCase `toolResult`; spelling unverified).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_result: Option<Value>,
        /// `tool_response` (the Claude-compatible spelling; accepted as well).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_response: Option<Value>,
    }
}

pascal_event! {
    /// `PostToolUseFailure`.
    PostToolUseFailure {
        /// `tool_name`.
        tool_name: String,
        /// `tool_input`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_input: Option<Value>,
        /// `error`.
        error: ErrorDetail,
    }
}

pascal_event! {
    /// `PermissionRequest`.
    PermissionRequest {
        /// `tool_name`.
        tool_name: String,
        /// `tool_input`.
        tool_input: Value,
        /// `permission_suggestions`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        permission_suggestions: Option<Value>,
    }
}

pascal_event! {
    /// `Stop` (camelCase `agentStop`).
    Stop {
        /// `stop_reason`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stop_reason: Option<String>,
        /// `stop_hook_active`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stop_hook_active: Option<bool>,
    }
}

pascal_event! {
    /// `SubagentStart`.
    SubagentStart {
        /// `agent_name`.
        agent_name: String,
        /// `agent_display_name`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent_display_name: Option<String>,
        /// `agent_description`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent_description: Option<String>,
    }
}

pascal_event! {
    /// `SubagentStop`.
    SubagentStop {
        /// `agent_name`.
        agent_name: String,
        /// `agent_display_name`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent_display_name: Option<String>,
        /// `agent_description`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent_description: Option<String>,
        /// `stop_reason`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stop_reason: Option<String>,
        /// `response`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        response: Option<String>,
        /// `stop_hook_active`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stop_hook_active: Option<bool>,
    }
}

pascal_event! {
    /// `PreCompact`.
    PreCompact {
        /// `trigger`: `manual` | `auto`.
        trigger: String,
        /// `custom_instructions`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        custom_instructions: Option<String>,
    }
}

pascal_event! {
    /// `ErrorOccurred`.
    ErrorOccurred {
        /// `error`.
        error: ErrorDetail,
        /// `error_context`.
        error_context: String,
        /// `recoverable`.
        recoverable: bool,
    }
}

pascal_event! {
    /// `Notification`.
    Notification {
        /// `message`.
        message: String,
        /// `title`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// `notification_type`.
        notification_type: String,
    }
}

impl Stop {
    /// Whether this stop re-enters after a previous `block`.
    pub fn previously_continued(&self) -> bool {
        self.stop_hook_active == Some(true)
    }
}

impl SubagentStop {
    /// Whether this stop re-enters after a previous `block`.
    pub fn previously_continued(&self) -> bool {
        self.stop_hook_active == Some(true)
    }
}

/// Any payload of the PascalCase dialect. Serializes as the payload object itself.
// One payload is decoded per process: boxing variants would only add indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum PascalEvent {
    /// `SessionStart`.
    SessionStart(SessionStart),
    /// `SessionEnd`.
    SessionEnd(SessionEnd),
    /// `UserPromptSubmit`.
    UserPromptSubmit(UserPromptSubmit),
    /// `UserPromptTransformed`.
    UserPromptTransformed(UserPromptTransformed),
    /// `PreToolUse`.
    PreToolUse(PreToolUse),
    /// `PreMcpToolCall`.
    PreMcpToolCall(PreMcpToolCall),
    /// `PostToolUse`.
    PostToolUse(PostToolUse),
    /// `PostToolUseFailure`.
    PostToolUseFailure(PostToolUseFailure),
    /// `PermissionRequest`.
    PermissionRequest(PermissionRequest),
    /// `Stop`.
    Stop(Stop),
    /// `SubagentStart`.
    SubagentStart(SubagentStart),
    /// `SubagentStop`.
    SubagentStop(SubagentStop),
    /// `PreCompact`.
    PreCompact(PreCompact),
    /// `ErrorOccurred`.
    ErrorOccurred(ErrorOccurred),
    /// `Notification`.
    Notification(Notification),
}

impl PascalEvent {
    /// Decodes `payload` as `event`.
    pub fn decode(event: EventName, payload: &[u8]) -> Result<Self, NativeError> {
        let name = event.pascal();
        Ok(match event {
            EventName::SessionStart => Self::SessionStart(de(name, payload)?),
            EventName::SessionEnd => Self::SessionEnd(de(name, payload)?),
            EventName::UserPromptSubmitted => Self::UserPromptSubmit(de(name, payload)?),
            EventName::UserPromptTransformed => Self::UserPromptTransformed(de(name, payload)?),
            EventName::PreToolUse => Self::PreToolUse(de(name, payload)?),
            EventName::PreMcpToolCall => Self::PreMcpToolCall(de(name, payload)?),
            EventName::PostToolUse => Self::PostToolUse(de(name, payload)?),
            EventName::PostToolUseFailure => Self::PostToolUseFailure(de(name, payload)?),
            EventName::PermissionRequest => Self::PermissionRequest(de(name, payload)?),
            EventName::AgentStop => Self::Stop(de(name, payload)?),
            EventName::SubagentStart => Self::SubagentStart(de(name, payload)?),
            EventName::SubagentStop => Self::SubagentStop(de(name, payload)?),
            EventName::PreCompact => Self::PreCompact(de(name, payload)?),
            EventName::ErrorOccurred => Self::ErrorOccurred(de(name, payload)?),
            EventName::Notification => Self::Notification(de(name, payload)?),
        })
    }

    /// The event.
    pub fn event(&self) -> EventName {
        match self {
            Self::SessionStart(_) => EventName::SessionStart,
            Self::SessionEnd(_) => EventName::SessionEnd,
            Self::UserPromptSubmit(_) => EventName::UserPromptSubmitted,
            Self::UserPromptTransformed(_) => EventName::UserPromptTransformed,
            Self::PreToolUse(_) => EventName::PreToolUse,
            Self::PreMcpToolCall(_) => EventName::PreMcpToolCall,
            Self::PostToolUse(_) => EventName::PostToolUse,
            Self::PostToolUseFailure(_) => EventName::PostToolUseFailure,
            Self::PermissionRequest(_) => EventName::PermissionRequest,
            Self::Stop(_) => EventName::AgentStop,
            Self::SubagentStart(_) => EventName::SubagentStart,
            Self::SubagentStop(_) => EventName::SubagentStop,
            Self::PreCompact(_) => EventName::PreCompact,
            Self::ErrorOccurred(_) => EventName::ErrorOccurred,
            Self::Notification(_) => EventName::Notification,
        }
    }

    /// The unknown keys the payload carried.
    pub fn extra(&self) -> &Map<String, Value> {
        match self {
            Self::SessionStart(e) => &e.extra,
            Self::SessionEnd(e) => &e.extra,
            Self::UserPromptSubmit(e) => &e.extra,
            Self::UserPromptTransformed(e) => &e.extra,
            Self::PreToolUse(e) => &e.extra,
            Self::PreMcpToolCall(e) => &e.extra,
            Self::PostToolUse(e) => &e.extra,
            Self::PostToolUseFailure(e) => &e.extra,
            Self::PermissionRequest(e) => &e.extra,
            Self::Stop(e) => &e.extra,
            Self::SubagentStart(e) => &e.extra,
            Self::SubagentStop(e) => &e.extra,
            Self::PreCompact(e) => &e.extra,
            Self::ErrorOccurred(e) => &e.extra,
            Self::Notification(e) => &e.extra,
        }
    }

    /// The `hook_event_name` the payload carried.
    pub fn hook_event_name(&self) -> &str {
        match self {
            Self::SessionStart(e) => &e.hook_event_name,
            Self::SessionEnd(e) => &e.hook_event_name,
            Self::UserPromptSubmit(e) => &e.hook_event_name,
            Self::UserPromptTransformed(e) => &e.hook_event_name,
            Self::PreToolUse(e) => &e.hook_event_name,
            Self::PreMcpToolCall(e) => &e.hook_event_name,
            Self::PostToolUse(e) => &e.hook_event_name,
            Self::PostToolUseFailure(e) => &e.hook_event_name,
            Self::PermissionRequest(e) => &e.hook_event_name,
            Self::Stop(e) => &e.hook_event_name,
            Self::SubagentStart(e) => &e.hook_event_name,
            Self::SubagentStop(e) => &e.hook_event_name,
            Self::PreCompact(e) => &e.hook_event_name,
            Self::ErrorOccurred(e) => &e.hook_event_name,
            Self::Notification(e) => &e.hook_event_name,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pre_tool_use_decodes_the_vscode_shape() {
        let raw = br#"{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-07-08T10:51:48.535Z","cwd":"/w","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"x"}"#;
        let PascalEvent::PreToolUse(e) = PascalEvent::decode(EventName::PreToolUse, raw).unwrap() else {
            panic!("wrong variant")
        };
        assert_eq!(e.tool_name, "Bash");
        assert_eq!(e.timestamp.unix_millis(), Some(1_783_507_908_535));
        assert_eq!(e.extra.get("tool_use_id"), Some(&Value::from("x")));
        assert_eq!(e.extra.len(), 1);
    }

    #[test]
    fn stop_requires_hook_event_name() {
        let err = PascalEvent::decode(EventName::AgentStop, br#"{"timestamp":"x","cwd":"/w"}"#).unwrap_err();
        assert_eq!(err.event, "Stop");
        assert!(err.source.to_string().contains("hook_event_name"));
    }
}
