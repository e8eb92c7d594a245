//! [`EventKind`]: the unified event taxonomy (design §3.3).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The kind table: the one list of unified kinds, from which [`EventKind`], the typed
/// [`Event`](crate::Event) enum and its dispatch, the router's slots and `on_*` methods, and
/// [`Outcome::neutral_for`](crate::Outcome::neutral_for) are generated. A row is
/// `Variant, "dotted.name", EventStruct, OutcomeVariant, router_slot, on_method, "doc"`;
/// `Other` (any native event without a mapping) is the rest and has no row.
///
/// Adding a kind is one row here plus its event struct.
macro_rules! for_each_kind {
    ($m:ident) => {
        $m! {
            SessionStart, "session.start", SessionStartEvent, Context, session_start, on_session_start, "`session.start`";
            SessionEnd, "session.end", SessionEndEvent, Context, session_end, on_session_end, "`session.end`";
            PromptSubmitted, "prompt.submitted", PromptEvent, Prompt, prompt, on_prompt_submitted, "`prompt.submitted`";
            ToolPre, "tool.pre", ToolPreEvent, ToolPre, tool_pre, on_tool_pre, "`tool.pre`: gate or rewrite a tool call before it runs.";
            ToolPost, "tool.post", ToolPostEvent, ToolPost, tool_post, on_tool_post, "`tool.post`: a tool call finished successfully.";
            ToolError, "tool.error", ToolErrorEvent, Context, tool_error, on_tool_error, "`tool.error`: a tool call failed.";
            Permission, "permission.request", PermissionEvent, ToolPre, permission, on_permission, "`permission.request`: the agent is about to ask the user for permission.";
            Stop, "agent.stop", StopEvent, Stop, stop, on_stop, "`agent.stop`: the main agent's turn is finishing.";
            SubagentStart, "subagent.start", SubagentStartEvent, Context, subagent_start, on_subagent_start, "`subagent.start`";
            SubagentStop, "subagent.stop", StopEvent, Stop, subagent_stop, on_subagent_stop, "`subagent.stop`";
            CompactPre, "compact.pre", CompactPreEvent, Context, compact_pre, on_compact_pre, "`compact.pre`";
            CompactPost, "compact.post", CompactPostEvent, Context, compact_post, on_compact_post, "`compact.post`";
            Notification, "notification", NotificationEvent, Context, notification, on_notification, "`notification`";
            FileEdited, "file.edited", FileEditedEvent, Context, file_edited, on_file_edited, "`file.edited`: post-hoc file-change report.";
            ModelRequest, "model.request", ModelRequestEvent, Context, model_request, on_model_request, "`model.request` (experimental): before a model call.";
            ModelResponse, "model.response", ModelResponseEvent, Context, model_response, on_model_response, "`model.response` (experimental): model output (may fire per streamed chunk).";
        }
    };
}
pub(crate) use for_each_kind;

macro_rules! kind_enum {
    ($($kind:ident, $dotted:literal, $ev:ident, $family:ident, $slot:ident, $method:ident, $doc:literal;)*) => {
        /// The normalized kind of an event. Every native event maps to exactly one kind; native
        /// events without a mapping are [`EventKind::Other`] and still reach `on_any` /
        /// `on_other` observers with their native name and raw payload.
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
            $( #[doc = $doc] $kind, )*
            /// `other`: any native event without a mapping.
            Other,
        }

        impl EventKind {
            /// Every kind, in declaration order.
            pub const ALL: [Self; [$(stringify!($kind),)*].len() + 1] = [$(Self::$kind,)* Self::Other];

            /// The dotted wire name (`tool.pre`, `agent.stop`, …).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Self::$kind => $dotted, )*
                    Self::Other => "other",
                }
            }
        }
    };
}

for_each_kind!(kind_enum);

impl EventKind {
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
