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
        match (self, native) {
            (Self::Ask, "beforeShellExecution" | "beforeMCPExecution") => Some(Self::Ask),
            (Self::Ask, "subagentStart") => Some(Self::Deny),
            (Self::Ask, _) => None,
            (p, _) => Some(p),
        }
    }
}

macro_rules! output {
    ($(#[$meta:meta])* $name:ident { $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        #[non_exhaustive]
        pub struct $name {
            $(
                $(#[$fmeta])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: $ty,
            )*
        }
    };
}

output! {
    /// `preToolUse`.
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
        #[serde(rename = "continue")]
        continue_: Option<bool>,
    }
}

output! {
    /// `beforeShellExecution`, `beforeMCPExecution`, `beforeReadFile`, `beforeTabFileRead`,
    /// `subagentStart`.
    PermissionOutput {
        /// `permission` (`ask` on the shell and MCP events only).
        permission: Option<Permission>,
        /// `user_message`.
        user_message: Option<String>,
        /// `agent_message` (not read on the file-read events and `subagentStart`).
        agent_message: Option<String>,
        /// Legacy `continue: true` (harmless; quirk #4).
        #[serde(rename = "continue")]
        continue_: Option<bool>,
    }
}

output! {
    /// `postToolUse`, `afterMCPExecution`.
    PostToolOutput {
        /// `additional_context` (`postToolUse` only).
        additional_context: Option<String>,
        /// `updated_mcp_tool_output`: a string or `{content:[{type:"text",text}]}`; MCP tools only.
        updated_mcp_tool_output: Option<Value>,
    }
}

output! {
    /// `beforeSubmitPrompt`.
    PromptOutput {
        /// `continue: false` blocks the prompt (AND-merged: never `false` by accident).
        #[serde(rename = "continue")]
        continue_: Option<bool>,
        /// `user_message`: why it was blocked.
        user_message: Option<String>,
        /// `additional_context` (2026.09+ CLI, undocumented: #602).
        additional_context: Option<String>,
    }
}

output! {
    /// `sessionStart`.
    SessionStartOutput {
        /// `env`: exported to every later hook of the session.
        env: Option<Map<String, Value>>,
        /// `additional_context`.
        additional_context: Option<String>,
    }
}

output! {
    /// `stop`, `subagentStop`.
    StopOutput {
        /// `followup_message`: auto-submitted as the next user message (`subagentStop`: only
        /// when `status` is `completed`).
        followup_message: Option<String>,
    }
}

output! {
    /// `preCompact`.
    PreCompactOutput {
        /// `user_message`.
        user_message: Option<String>,
    }
}

output! {
    /// `workspaceOpen`.
    WorkspaceOpenOutput {
        /// `pluginPaths` (camelCase on the wire).
        #[serde(rename = "pluginPaths")]
        plugin_paths: Option<Vec<String>>,
    }
}

/// The output keys Cursor reads for an event (empty: none — any answer but `{}` is ignored).
pub fn recognised_keys(native: &str) -> &'static [&'static str] {
    match native {
        "preToolUse" => &[
            "permission",
            "user_message",
            "agent_message",
            "updated_input",
            "continue",
        ],
        "beforeShellExecution" | "beforeMCPExecution" => &["permission", "user_message", "agent_message", "continue"],
        "beforeReadFile" | "beforeTabFileRead" | "subagentStart" => {
            &["permission", "user_message", "agent_message", "continue"]
        }
        "postToolUse" => &["additional_context", "updated_mcp_tool_output"],
        "afterMCPExecution" => &["updated_mcp_tool_output"],
        "beforeSubmitPrompt" => &["continue", "user_message", "additional_context"],
        "sessionStart" => &["env", "additional_context", "continue", "user_message"],
        "stop" | "subagentStop" => &["followup_message"],
        "preCompact" => &["user_message"],
        "workspaceOpen" => &["pluginPaths"],
        _ => &[],
    }
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
    if m.get("continue") == Some(&Value::Bool(false)) && native != "beforeSubmitPrompt" {
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
    }
}
