//! Claude Code's tools and their canonical classes.
//!
//! Claude names its built-in tools in `PascalCase` (`Bash`, `Read`, `MultiEdit`) and MCP tools
//! `mcp__<server>__<tool>`, where `<server>` is the server's configured name with every
//! character outside `[A-Za-z0-9_-]` replaced by `_` (plugin servers appear as
//! `plugin_<plugin>_<server>`). Since ~2.1.3xx the tool events also carry
//! `mcp_server {name, source}`, the server's real name.
//!
//! Names are matched exactly: Claude's tool names are case-sensitive (`LS` is a tool, `ls` is
//! not), unlike the cross-provider lowercase table of the design.
//!
//! ```
//! use agenthooks_claude::tools::{classify, parse_mcp_name};
//! use agenthooks_core::CanonicalTool;
//!
//! assert_eq!(classify("MultiEdit"), CanonicalTool::FileEdit);
//! assert_eq!(classify("mcp__github__create_issue"), CanonicalTool::Mcp);
//! let mcp = parse_mcp_name("mcp__github__create_issue").unwrap();
//! assert_eq!((mcp.server, mcp.tool), ("github", Some("create_issue")));
//! ```

use agenthooks_core::kit::{McpNaming, ToolTable};
use agenthooks_core::mcp::{McpLookup, McpName};
use agenthooks_core::{CanonicalTool, McpCall, RawJson};
use serde_json::Value;

pub use crate::mcp_config::normalize_server_name;
use crate::native::McpServer;

/// Claude Code's built-in tools (2.1.x) and their classes.
///
/// Choices worth knowing:
/// - `WebSearch` is `fetch`, not `search`: it leaves the machine, like `WebFetch`; `search`
///   is reserved for local workspace discovery, so a read-only local policy can allow it.
/// - `LS` (removed in later 2.x builds, kept for older ones) is `search`, like `Glob`.
/// - `ListMcpResourcesTool` and `ReadMcpResourceTool` are `mcp`: they talk to an MCP server
///   (named by their `server` argument) even though their names are not `mcp__…`.
/// - `BashOutput`/`TaskOutput` and `KillShell`/`KillBash`/`TaskStop` only observe or stop a
///   background shell and run no new command: `other`, so a shell policy never sees a call
///   without a `command`.
/// - `TaskCreate`/`TaskGet`/`TaskList`/`TaskUpdate` are the agent-team task list, not
///   subagents: `other`.
pub static TOOLS: ToolTable = ToolTable::new(
    &[
        (CanonicalTool::Shell, &["Bash", "PowerShell"]),
        (CanonicalTool::FileRead, &["Read", "NotebookRead"]),
        (CanonicalTool::FileWrite, &["Write"]),
        (CanonicalTool::FileEdit, &["Edit", "MultiEdit", "NotebookEdit"]),
        (CanonicalTool::Search, &["Glob", "Grep", "LS"]),
        (CanonicalTool::Fetch, &["WebFetch", "WebSearch"]),
        (CanonicalTool::Task, &["Task", "Agent"]),
        (
            CanonicalTool::Other,
            &[
                "TodoWrite",
                "TodoRead",
                "BashOutput",
                "TaskOutput",
                "KillShell",
                "KillBash",
                "TaskStop",
                "ExitPlanMode",
                "EnterPlanMode",
                "AskUserQuestion",
                "Skill",
                "SlashCommand",
                "ToolSearch",
                "TaskCreate",
                "TaskGet",
                "TaskList",
                "TaskUpdate",
                "SendMessage",
                "TeamCreate",
                "TeamDelete",
                "EnterWorktree",
                "ExitWorktree",
                "CronCreate",
                "CronDelete",
                "CronList",
                "LSP",
            ],
        ),
    ],
    Some(McpNaming::new("mcp__", "__")),
    &["ListMcpResourcesTool", "ReadMcpResourceTool"],
);

/// The canonical class of a Claude tool name: [`CanonicalTool::Mcp`] for `mcp__…` names and
/// the MCP resource tools, the [`TOOLS`] class for built-ins, [`CanonicalTool::Other`] for
/// anything else.
pub fn classify(tool_name: &str) -> CanonicalTool {
    TOOLS.classify(tool_name)
}

/// The MCP identity of a call: `mcp__<server>__<tool>` names (server preferably from the
/// payload's `mcp_server.name`, #26) and the MCP resource tools (server from their `server`
/// argument).
///
/// The call carries an [`McpLookup`] for [`McpCall::resolve`]: by the payload's server name when
/// sent, else by the mangled name against the configured servers
/// ([`mcp_config`](crate::mcp_config)), so `mcp__my_server__t` resolves to a server
/// `my_server`.
pub fn parse_mcp(name: &str, input: &RawJson, mcp_server: Option<&McpServer>) -> Option<McpCall> {
    let lookup = |n: McpName| McpLookup::new("claude-code", crate::mcp_config::load, n);
    if let Some(parsed) = parse_mcp_name(name) {
        let server = mcp_server.map_or(parsed.server, |s| s.name.as_str());
        let by = match mcp_server {
            Some(s) => McpName::Server(s.name.clone()),
            None => McpName::Mangled(name.to_owned(), crate::mcp_config::MANGLING),
        };
        return Some(McpCall::new(server, parsed.tool.unwrap_or_default()).with_lookup(lookup(by)));
    }
    if is_mcp_resource_tool(name) {
        let server = mcp_server
            .map(|s| s.name.as_str())
            .map(str::to_owned)
            .or_else(|| match input.field("server") {
                Some(Value::String(s)) => Some(s),
                _ => None,
            })
            .unwrap_or_default();
        return Some(McpCall::new(server.clone(), name).with_lookup(lookup(McpName::Server(server))));
    }
    None
}

/// Whether the tool is one of Claude's MCP resource tools (`ListMcpResourcesTool`,
/// `ReadMcpResourceTool`), which talk to an MCP server named by their `server` argument.
pub fn is_mcp_resource_tool(tool_name: &str) -> bool {
    matches!(tool_name, "ListMcpResourcesTool" | "ReadMcpResourceTool")
}

/// The parts of an MCP tool name `mcp__<server>__<tool>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpToolName<'a> {
    /// The server segment (the normalized server name).
    pub server: &'a str,
    /// The tool as the server knows it; `None` for a bare `mcp__<server>` (the server-level
    /// form matchers use).
    pub tool: Option<&'a str>,
}

/// Splits `mcp__<server>__<tool>` the way Claude does: the server is the first segment after
/// `mcp__`, the tool is everything after the next `__` (so tool names may contain `__`).
/// Returns `None` when the name is not MCP-shaped or the server segment is empty.
pub fn parse_mcp_name(name: &str) -> Option<McpToolName<'_>> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = match rest.split_once("__") {
        Some((server, tool)) => (server, (!tool.is_empty()).then_some(tool)),
        None => (rest, None),
    };
    (!server.is_empty()).then_some(McpToolName { server, tool })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_classify() {
        let cases = [
            ("Bash", "shell"),
            ("PowerShell", "shell"),
            ("Read", "file-read"),
            ("Write", "file-write"),
            ("Edit", "file-edit"),
            ("MultiEdit", "file-edit"),
            ("NotebookEdit", "file-edit"),
            ("Glob", "search"),
            ("Grep", "search"),
            ("LS", "search"),
            ("WebFetch", "fetch"),
            ("WebSearch", "fetch"),
            ("Task", "task"),
            ("Agent", "task"),
            ("TodoWrite", "other"),
            ("ReadMcpResourceTool", "mcp"),
            ("BashOutput", "other"),
            ("bash", "other"),
            ("ls", "other"),
            ("", "other"),
            ("SomeFutureTool", "other"),
        ];
        for (name, want) in cases {
            assert_eq!(classify(name).as_str(), want, "{name}");
        }
    }

    #[test]
    fn builtin_table_has_no_duplicates() {
        assert_eq!(TOOLS.repeated_names(&[]), Vec::<&str>::new());
    }

    #[test]
    fn mcp_names_parse_like_claude() {
        let p = |n| parse_mcp_name(n).map(|m| (m.server, m.tool));
        assert_eq!(p("mcp__github__create_issue"), Some(("github", Some("create_issue"))));
        assert_eq!(p("mcp__srv__a__b"), Some(("srv", Some("a__b"))));
        assert_eq!(p("mcp__plugin_acme_db__query"), Some(("plugin_acme_db", Some("query"))));
        assert_eq!(p("mcp__srv"), Some(("srv", None)));
        assert_eq!(p("mcp__srv__"), Some(("srv", None)));
        assert_eq!(p("mcp____tool"), None);
        assert_eq!(p("mcp_srv_tool"), None);
        assert_eq!(p("Bash"), None);
        assert_eq!(classify("mcp__srv__t"), CanonicalTool::Mcp);
        assert_eq!(classify("mcp____t"), CanonicalTool::Other);
    }

    #[test]
    fn server_names_normalize() {
        assert_eq!(normalize_server_name("claude.ai Gmail"), "claude_ai_Gmail");
        assert_eq!(normalize_server_name("my-server_2"), "my-server_2");
    }
}
