//! Qwen Code's tools, their canonical classes and its MCP naming: one [`ToolTable`]
//! ([`TOOLS`]) read by the codec and by install's matcher compiler.
//!
//! Names are Qwen's registry names (`ToolNames` in `packages/core/src/tools/tool-names.ts`, read
//! from the 0.24.4 bundle), which are what hooks receive in `tool_name` (the canonical name,
//! after alias resolution) and what `PreToolUse`/`PostToolUse` matchers see. MCP tools are
//! `mcp__<server>__<tool>`, Claude's scheme, with every character outside `[A-Za-z0-9_-]`
//! replaced by `_` (quirk 908: a name over 64 characters is cut and gets a hash suffix, so
//! its tool part is not the server's tool name).
//!
//! ```
//! use agenthooks_core::CanonicalTool;
//! use agenthooks_qwen::tools::{classify, parse_mcp};
//!
//! assert_eq!(classify("run_shell_command"), CanonicalTool::Shell);
//! assert_eq!(classify("edit"), CanonicalTool::FileEdit);
//! assert_eq!(classify("mcp__shop_db__lookup_order"), CanonicalTool::Mcp);
//! let m = parse_mcp("mcp__shop_db__lookup_order").unwrap();
//! assert_eq!((m.server.as_str(), m.tool.as_str()), ("shop_db", "lookup_order"));
//! ```

use agenthooks_core::kit::{McpNaming, ToolTable};
use agenthooks_core::mcp::{McpLookup, McpName};
use agenthooks_core::{CanonicalTool, McpCall};

/// Qwen Code's built-in tools (0.24.4) and their classes.
///
/// - `exec` runs a command like `run_shell_command` (code mode): `shell`.
/// - `web_search` leaves the machine: `fetch`, like `web_fetch`.
/// - `agent` (and 0.12's `task`) spawns a subagent: `task`.
/// - `read_mcp_resource` talks to an MCP server named by its argument: `mcp`.
pub static TOOLS: ToolTable = ToolTable::new(
    &[
        (CanonicalTool::Shell, &["run_shell_command", "exec"]),
        (CanonicalTool::FileRead, &["read_file", "read_many_files"]),
        (CanonicalTool::FileWrite, &["write_file"]),
        (CanonicalTool::FileEdit, &["edit", "replace", "notebook_edit"]),
        (CanonicalTool::Search, &["grep_search", "glob", "list_directory", "lsp"]),
        (CanonicalTool::Fetch, &["web_fetch", "web_search"]),
        (CanonicalTool::Task, &["agent", "task"]),
        (
            CanonicalTool::Other,
            &[
                "todo_write",
                "save_memory",
                "skill",
                "exit_plan_mode",
                "enter_plan_mode",
                "ask_user_question",
                "zoom_image",
                "image_gen",
                "cron_create",
                "cron_list",
                "cron_delete",
                "loop_wakeup",
                "create_sub_session",
                "list_agents",
                "task_stop",
                "task_create",
                "task_update",
                "task_list",
                "team_create",
                "team_delete",
                "team_plan_approval",
                "request_shutdown",
                "send_message",
                "structured_output",
                "monitor",
                "tool_call",
                "tool_search",
                "enter_worktree",
                "exit_worktree",
                "workflow",
                "artifact",
            ],
        ),
    ],
    Some(McpNaming::new("mcp__", "__")),
    &["read_mcp_resource"],
);

/// The canonical class of a Qwen tool name ([`TOOLS`]).
pub fn classify(tool_name: &str) -> CanonicalTool {
    TOOLS.classify(tool_name)
}

/// The MCP identity of a call named `mcp__<server>__<tool>` (the server is the first segment,
/// the tool everything after the next `__`). `None` for other tools.
///
/// The call carries an [`McpLookup`] for [`McpCall::resolve`]: the mangled name against the
/// servers of Qwen's settings ([`mcp_config`](crate::mcp_config)).
pub fn parse_mcp(name: &str) -> Option<McpCall> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__").unwrap_or((rest, ""));
    if server.is_empty() {
        return None;
    }
    let by = McpName::Mangled(name.to_owned(), crate::mcp_config::MANGLING);
    Some(McpCall::new(server, tool).with_lookup(McpLookup::new("qwen-code", crate::mcp_config::load, by)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_classify() {
        let cases = [
            ("run_shell_command", "shell"),
            ("exec", "shell"),
            ("read_file", "file-read"),
            ("write_file", "file-write"),
            ("edit", "file-edit"),
            ("grep_search", "search"),
            ("glob", "search"),
            ("list_directory", "search"),
            ("web_fetch", "fetch"),
            ("web_search", "fetch"),
            ("agent", "task"),
            ("todo_write", "other"),
            ("read_mcp_resource", "mcp"),
            ("mcp__srv__t", "mcp"),
            ("Bash", "other"),
            ("", "other"),
        ];
        for (name, want) in cases {
            assert_eq!(classify(name).as_str(), want, "{name}");
        }
    }

    #[test]
    fn names_are_unique_and_mcp_names_split() {
        assert_eq!(TOOLS.repeated_names(&[]), Vec::<&str>::new());
        let m = parse_mcp("mcp__srv__a__b").expect("mcp");
        assert_eq!((m.server.as_str(), m.tool.as_str()), ("srv", "a__b"));
        assert!(parse_mcp("mcp____t").is_none());
        assert!(parse_mcp("read_file").is_none());
    }
}
