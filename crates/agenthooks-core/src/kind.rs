//! [`EventKind`]: the unified event taxonomy (design §3.3).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The normalized kind of an event. Every native event maps to exactly one kind; native events
/// without a mapping are [`EventKind::Other`] and still reach `on_any` / `on_other` observers
/// with their native name and raw payload.
///
/// ```
/// use agenthooks_core::EventKind;
/// assert_eq!(EventKind::ToolPre.as_str(), "tool.pre");
/// assert_eq!("agent.stop".parse::<EventKind>(), Ok(EventKind::Stop));
/// assert!(EventKind::ToolPre.is_gating());
/// assert!(!EventKind::Notification.is_gating());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum EventKind {
    /// `session.start`
    SessionStart,
    /// `session.end`
    SessionEnd,
    /// `prompt.submitted`
    PromptSubmitted,
    /// `tool.pre`: gate or rewrite a tool call before it runs.
    ToolPre,
    /// `tool.post`: a tool call finished successfully.
    ToolPost,
    /// `tool.error`: a tool call failed.
    ToolError,
    /// `permission.request`: the agent is about to ask the user for permission.
    Permission,
    /// `agent.stop`: the main agent's turn is finishing.
    Stop,
    /// `subagent.start`
    SubagentStart,
    /// `subagent.stop`
    SubagentStop,
    /// `compact.pre`
    CompactPre,
    /// `compact.post`
    CompactPost,
    /// `notification`
    Notification,
    /// `file.edited`: post-hoc file-change report.
    FileEdited,
    /// `model.request` (experimental): before a model call.
    ModelRequest,
    /// `model.response` (experimental): model output (may fire per streamed chunk).
    ModelResponse,
    /// `other`: any native event without a mapping.
    Other,
}

impl EventKind {
    /// Every kind, in declaration order.
    pub const ALL: [Self; 17] = [
        Self::SessionStart,
        Self::SessionEnd,
        Self::PromptSubmitted,
        Self::ToolPre,
        Self::ToolPost,
        Self::ToolError,
        Self::Permission,
        Self::Stop,
        Self::SubagentStart,
        Self::SubagentStop,
        Self::CompactPre,
        Self::CompactPost,
        Self::Notification,
        Self::FileEdited,
        Self::ModelRequest,
        Self::ModelResponse,
        Self::Other,
    ];

    /// The dotted wire name (`tool.pre`, `agent.stop`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::SessionStart => "session.start",
            Self::SessionEnd => "session.end",
            Self::PromptSubmitted => "prompt.submitted",
            Self::ToolPre => "tool.pre",
            Self::ToolPost => "tool.post",
            Self::ToolError => "tool.error",
            Self::Permission => "permission.request",
            Self::Stop => "agent.stop",
            Self::SubagentStart => "subagent.start",
            Self::SubagentStop => "subagent.stop",
            Self::CompactPre => "compact.pre",
            Self::CompactPost => "compact.post",
            Self::Notification => "notification",
            Self::FileEdited => "file.edited",
            Self::ModelRequest => "model.request",
            Self::ModelResponse => "model.response",
            Self::Other => "other",
        }
    }

    /// Whether a decision on this kind can prevent or redirect something (the kinds whose
    /// decision types carry deny/block/continue intents): tool.pre, permission.request,
    /// prompt.submitted, agent.stop, subagent.stop.
    pub const fn is_gating(self) -> bool {
        matches!(
            self,
            Self::ToolPre | Self::Permission | Self::PromptSubmitted | Self::Stop | Self::SubagentStop
        )
    }

    /// Whether events of this kind carry a [`ToolCall`](crate::ToolCall).
    pub const fn has_tool(self) -> bool {
        matches!(
            self,
            Self::ToolPre | Self::ToolPost | Self::ToolError | Self::Permission
        )
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for an unknown dotted kind name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown event kind `{0}`")]
#[non_exhaustive]
pub struct UnknownKind(pub String);

impl FromStr for EventKind {
    type Err = UnknownKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| UnknownKind(s.to_owned()))
    }
}

impl Serialize for EventKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for EventKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip() {
        for k in EventKind::ALL {
            assert_eq!(k.as_str().parse::<EventKind>().unwrap(), k);
            let j = serde_json::to_string(&k).unwrap();
            assert_eq!(serde_json::from_str::<EventKind>(&j).unwrap(), k);
        }
        assert!("tool.later".parse::<EventKind>().is_err());
        // 16 mapped kinds plus Other
        assert_eq!(EventKind::ALL.len(), 17);
    }
}
