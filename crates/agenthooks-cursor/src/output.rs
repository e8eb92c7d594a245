//! Cursor's hook stdout, typed per event (reference §4).
//!
//! Every key is snake_case (≥ 2.0.64, quirk #4; the only camelCase output key is
//! `workspaceOpen.pluginPaths`), optional and omitted when `None`, so serializing one never
//! writes a key Cursor does not read for that event, and the empty struct is `{}` — Cursor's
//! no-op (empty stdout is an `empty_stdout` *failure*, #601). Cursor merges the answers of all
//! matching hooks: permission deny > ask > allow, `continue` AND-ed, messages concatenated,
//! `additional_context` joined and dropped when over [`CONTEXT_LIMIT`] characters.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Cursor drops a merged `additional_context` longer than this many characters (BUNDLE).
pub const CONTEXT_LIMIT: usize = 10_000;

/// A permission verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Permission {
    /// Let the action run (auto-approves what the user would be asked about).
    Allow,
    /// Block it.
    Deny,
    /// Ask the user: enforced on `beforeShellExecution`/`beforeMCPExecution` only; parsed but
    /// ignored on `preToolUse`, read as deny on `subagentStart`.
    Ask,
}

impl Permission {
    /// What Cursor does with this verdict on `native`: `ask` is a deny on `subagentStart`,
    /// nothing on the other events that do not enforce it (`None`).
    pub fn effective(self, native: &str) -> Option<Self> {
        match (self, Shape::of(native)) {
            (Self::Ask, Some(Shape::Gate)) => Some(Self::Ask),
            (Self::Ask, Some(Shape::SubagentStart)) => Some(Self::Deny),
            (Self::Ask, _) => None,
            (p, _) => Some(p),
        }
    }
}

/// Which typed output answers an event: the one table from Cursor's event names to the output
/// structs below. What an event reads ([`Shape::keys`], [`recognised_keys`]), what `ask` means
/// there ([`Permission::effective`]) and what the encoder writes all follow from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shape {
    /// [`PreToolUseOutput`].
    PreToolUse,
    /// [`PermissionOutput`], `ask` enforced (the shell and MCP gates).
    Gate,
    /// [`PermissionOutput`], `ask` not enforced (the file-read gates).
    FileGate,
    /// [`PermissionOutput`], `ask` read as deny.
    SubagentStart,
    /// [`PostToolOutput`].
    PostTool,
    /// [`AfterMcpOutput`].
    AfterMcp,
    /// [`PromptOutput`]: the only output where `continue: false` means something (it blocks).
    Prompt,
    /// [`SessionStartOutput`].
    SessionStart,
    /// [`StopOutput`].
    Stop,
    /// [`PreCompactOutput`].
    PreCompact,
    /// [`WorkspaceOpenOutput`].
    WorkspaceOpen,
}

impl Shape {
    /// The output of `native` (`None`: Cursor reads no output there; any answer but `{}` is
    /// ignored).
    pub fn of(native: &str) -> Option<Self> {
        Some(match native {
            "preToolUse" => Self::PreToolUse,
            "beforeShellExecution" | "beforeMCPExecution" => Self::Gate,
            "beforeReadFile" | "beforeTabFileRead" => Self::FileGate,
            "subagentStart" => Self::SubagentStart,
            "postToolUse" => Self::PostTool,
            "afterMCPExecution" => Self::AfterMcp,
            "beforeSubmitPrompt" => Self::Prompt,
            "sessionStart" => Self::SessionStart,
            "stop" | "subagentStop" => Self::Stop,
            "preCompact" => Self::PreCompact,
            "workspaceOpen" => Self::WorkspaceOpen,
            _ => return None,
        })
    }

    /// The keys Cursor reads in this output: its struct's fields, as spelled on the wire.
    pub const fn keys(self) -> &'static [&'static str] {
        match self {
            Self::PreToolUse => PreToolUseOutput::KEYS,
            Self::Gate | Self::FileGate | Self::SubagentStart => PermissionOutput::KEYS,
            Self::PostTool => PostToolOutput::KEYS,
            Self::AfterMcp => AfterMcpOutput::KEYS,
            Self::Prompt => PromptOutput::KEYS,
            Self::SessionStart => SessionStartOutput::KEYS,
            Self::Stop => StopOutput::KEYS,
            Self::PreCompact => PreCompactOutput::KEYS,
            Self::WorkspaceOpen => WorkspaceOpenOutput::KEYS,
        }
    }
}

macro_rules! output {
    (@key $field:ident) => { stringify!($field) };
    (@key $field:ident $rename:literal) => { $rename };
    ($(#[$meta:meta])* $name:ident {
        $( $(#[$fmeta:meta])* $field:ident $(as $rename:literal)? : $ty:ty ),* $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        #[non_exhaustive]
        pub struct $name {
            $(
                $(#[$fmeta])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                $(#[serde(rename = $rename)])?
                pub $field: $ty,
            )*
        }

        impl $name {
            /// The keys of this output, as spelled on the wire, in the order they are written.
            pub const KEYS: &'static [&'static str] = &[$(output!(@key $field $($rename)?)),*];
        }
    };
}

output! {
    /// [`Shape::PreToolUse`].
    PreToolUseOutput {
        /// `permission`: allow/deny (`ask` is not enforced).
        permission: Option<Permission>,
        /// `user_message`: shown to the user when denied.
        user_message: Option<String>,
        /// `agent_message`: fed to the model when denied.
        agent_message: Option<String>,
        /// `updated_input`: replaces the tool input (applied even without `permission`).
        updated_input: Option<Map<String, Value>>,
        /// Legacy `continue: true` (harmless, AND-merged; quirk #4). Never `false` here.
        continue_ as "continue": Option<bool>,
    }
}

output! {
    /// [`Shape::Gate`], [`Shape::FileGate`], [`Shape::SubagentStart`].
    PermissionOutput {
        /// `permission` (`ask` on the shell and MCP gates only).
        permission: Option<Permission>,
        /// `user_message`.
        user_message: Option<String>,
        /// `agent_message` (not read on the file-read gates and `subagentStart`).
        agent_message: Option<String>,
        /// Legacy `continue: true` (harmless; quirk #4).
        continue_ as "continue": Option<bool>,
    }
}

output! {
    /// [`Shape::PostTool`].
    PostToolOutput {
        /// `additional_context`.
        additional_context: Option<String>,
        /// `updated_mcp_tool_output`: a string or `{content:[{type:"text",text}]}`; MCP tools only.
        updated_mcp_tool_output: Option<Value>,
    }
}

output! {
    /// [`Shape::AfterMcp`].
    AfterMcpOutput {
        /// `updated_mcp_tool_output`: a string or `{content:[{type:"text",text}]}`.
        updated_mcp_tool_output: Option<Value>,
    }
}

output! {
    /// [`Shape::Prompt`].
    PromptOutput {
        /// `continue: false` blocks the prompt (AND-merged: never `false` by accident).
        continue_ as "continue": Option<bool>,
        /// `user_message`: why it was blocked.
        user_message: Option<String>,
        /// `additional_context` (2026.09+ CLI, undocumented: #602).
        additional_context: Option<String>,
    }
}

output! {
    /// [`Shape::SessionStart`].
    SessionStartOutput {
        /// `env`: exported to every later hook of the session.
        env: Option<Map<String, Value>>,
        /// `additional_context`.
        additional_context: Option<String>,
        /// Legacy `continue` (read, never written by the encoder).
        continue_ as "continue": Option<bool>,
        /// `user_message` (read, never written by the encoder).
        user_message: Option<String>,
    }
}

output! {
    /// [`Shape::Stop`].
    StopOutput {
        /// `followup_message`: auto-submitted as the next user message (`subagentStop`: only
        /// when `status` is `completed`).
        followup_message: Option<String>,
    }
}

output! {
    /// [`Shape::PreCompact`].
    PreCompactOutput {
        /// `user_message`.
        user_message: Option<String>,
    }
}

output! {
    /// [`Shape::WorkspaceOpen`].
    WorkspaceOpenOutput {
        /// `pluginPaths` (camelCase on the wire).
        plugin_paths as "pluginPaths": Option<Vec<String>>,
    }
}

/// The output keys Cursor reads for an event (empty: none — any answer but `{}` is ignored).
pub fn recognised_keys(native: &str) -> &'static [&'static str] {
    Shape::of(native).map_or(&[], Shape::keys)
}

/// Why `stdout` is not an answer Cursor acts on as written for `native`: not one JSON object,
/// a key Cursor does not read there, or `continue: false` on an event that is not a prompt.
pub fn invalid_reason(native: &str, stdout: &[u8]) -> Option<String> {
    let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(stdout) else {
        return Some("stdout is not one JSON object".into());
    };
    let keys = recognised_keys(native);
    if let Some(k) = m.keys().find(|k| !keys.contains(&k.as_str())) {
        return Some(format!("`{k}` is not read on {native}"));
    }
    if m.get("continue") == Some(&Value::Bool(false)) && Shape::of(native) != Some(Shape::Prompt) {
        return Some(format!("`continue: false` on {native}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_outputs_are_the_no_op() {
        assert_eq!(serde_json::to_string(&PreToolUseOutput::default()).unwrap(), "{}");
        assert_eq!(serde_json::to_string(&WorkspaceOpenOutput::default()).unwrap(), "{}");
        let o = PermissionOutput {
            permission: Some(Permission::Ask),
            ..PermissionOutput::default()
        };
        assert_eq!(serde_json::to_string(&o).unwrap(), r#"{"permission":"ask"}"#);
        assert_eq!(Permission::Ask.effective("subagentStart"), Some(Permission::Deny));
        assert_eq!(Permission::Ask.effective("preToolUse"), None);
        assert!(invalid_reason("stop", br#"{"permission":"deny"}"#).is_some());
        assert!(invalid_reason("stop", br#"{"followup_message":"x"}"#).is_none());
        assert!(invalid_reason("preToolUse", br#"{"continue":false}"#).is_some());
        assert!(invalid_reason("beforeSubmitPrompt", br#"{"continue":false}"#).is_none());
    }

    /// The keys each event reads, as Cursor documents them (reference §4): the structs' fields.
    #[test]
    fn recognised_keys_are_the_structs_fields() {
        let gate: &[&str] = &["permission", "user_message", "agent_message", "continue"];
        for (native, keys) in [
            (
                "preToolUse",
                &[
                    "permission",
                    "user_message",
                    "agent_message",
                    "updated_input",
                    "continue",
                ][..],
            ),
            ("beforeShellExecution", gate),
            ("beforeMCPExecution", gate),
            ("beforeReadFile", gate),
            ("beforeTabFileRead", gate),
            ("subagentStart", gate),
            ("postToolUse", &["additional_context", "updated_mcp_tool_output"]),
            ("afterMCPExecution", &["updated_mcp_tool_output"]),
            (
                "beforeSubmitPrompt",
                &["continue", "user_message", "additional_context"],
            ),
            (
                "sessionStart",
                &["env", "additional_context", "continue", "user_message"],
            ),
            ("stop", &["followup_message"]),
            ("subagentStop", &["followup_message"]),
            ("preCompact", &["user_message"]),
            ("workspaceOpen", &["pluginPaths"]),
            ("afterFileEdit", &[]),
            ("somethingNew", &[]),
        ] {
            assert_eq!(recognised_keys(native), keys, "{native}");
        }
        let full = PreToolUseOutput {
            permission: Some(Permission::Deny),
            user_message: Some(String::new()),
            agent_message: Some(String::new()),
            updated_input: Some(Map::new()),
            continue_: Some(true),
        };
        let written: Vec<String> = match serde_json::to_value(&full).unwrap() {
            Value::Object(m) => m.keys().cloned().collect(),
            _ => Vec::new(),
        };
        assert_eq!(
            written,
            PreToolUseOutput::KEYS,
            "KEYS are the serialized keys, in order"
        );
    }
}
