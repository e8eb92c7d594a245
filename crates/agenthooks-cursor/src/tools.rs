//! Cursor's tools and their canonical classes.
//!
//! Cursor names its built-in tools in `PascalCase` (`Shell`, `Read`, `Write`, `Grep`, `Delete`,
//! `Task`) on `preToolUse`/`postToolUse`, and MCP tools `MCP:<tool>` — the prefix carries **no
//! server** (#3, #15). The server is only on `beforeMCPExecution`/`afterMCPExecution`
//! (`mcp_server_name`, plus `url`/`mcp_server_url` or `command`), so the codec takes it from
//! there; on the generic events `McpCall::server` is empty.
//!
//! ```
//! use agenthooks_cursor::tools::{classify, parse_mcp};
//! use agenthooks_core::CanonicalTool;
//!
//! assert_eq!(classify("Shell"), CanonicalTool::Shell);
//! assert_eq!(classify("MCP:create_issue"), CanonicalTool::Mcp);
//! let mcp = parse_mcp("MCP:create_issue", Some("linear"), None, None).unwrap();
//! assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("linear", "create_issue"));
//! ```

use agenthooks_core::kit::ToolTable;
use agenthooks_core::mcp::{McpLookup, McpName};
use agenthooks_core::{CanonicalTool, McpCall};

/// The prefix of MCP tool names on the generic events.
pub const MCP_PREFIX: &str = "MCP:";

/// Cursor's built-in tools and their classes (docs tool list and the 2026.09 bundle).
///
/// `mcp` is `None`: the kit's [`McpNaming`](agenthooks_core::kit::McpNaming) is
/// `<prefix><server><sep><tool>`, and Cursor's `MCP:<tool>` has no server segment. The prefix
/// is [`MCP_PREFIX`], applied by [`classify`] (and by install's matcher compiler).
pub static TOOLS: ToolTable = ToolTable::new(
    &[
        (CanonicalTool::Shell, &["Shell"]),
        (CanonicalTool::FileRead, &["Read", "TabRead"]),
        (CanonicalTool::FileWrite, &["Write", "TabWrite", "Delete"]),
        (CanonicalTool::FileEdit, &["Edit", "MultiEdit", "StrReplace"]),
        (
            CanonicalTool::Search,
            &["Grep", "Glob", "LS", "SemanticSearch", "CodebaseSearch"],
        ),
        (CanonicalTool::Fetch, &["WebSearch", "WebFetch", "Fetch"]),
        (CanonicalTool::Task, &["Task"]),
        (
            CanonicalTool::Other,
            &["TodoWrite", "ReadLints", "AskQuestion", "CreatePlan"],
        ),
    ],
    None,
    &[],
);

/// The canonical class of a Cursor tool name: `MCP:<tool>` is [`CanonicalTool::Mcp`], built-ins
/// per [`TOOLS`], anything else [`CanonicalTool::Other`].
pub fn classify(tool_name: &str) -> CanonicalTool {
    if mcp_tool(tool_name).is_some() {
        return CanonicalTool::Mcp;
    }
    TOOLS.classify(tool_name)
}

/// The MCP tool of an `MCP:<tool>` name.
pub fn mcp_tool(tool_name: &str) -> Option<&str> {
    tool_name.strip_prefix(MCP_PREFIX).filter(|t| !t.is_empty())
}

/// The MCP identity of a call: `MCP:<tool>` names, or any name when the event names a server
/// (`beforeMCPExecution`, `afterMCPExecution` send the bare tool name). The transport is the
/// URL (`url`, else `mcp_server_url`) or the stdio `command`. The call carries an
/// [`McpLookup`] for [`McpCall::resolve`] ([`mcp_config`](crate::mcp_config)): by the server
/// name when the event has one (its transport wins over the file's), else the only enabled
/// server.
pub fn parse_mcp(tool_name: &str, server: Option<&str>, url: Option<&str>, command: Option<&str>) -> Option<McpCall> {
    let tool = match (mcp_tool(tool_name), server) {
        (Some(t), _) => t,
        (None, Some(_)) => tool_name,
        (None, None) => return None,
    };
    let by = server
        .filter(|s| !s.is_empty())
        .map_or(McpName::Unnamed, |s| McpName::Server(s.to_owned()));
    let mut call = McpCall::new(server.unwrap_or_default(), tool).with_lookup(McpLookup::new(
        "cursor",
        crate::mcp_config::load,
        by,
    ));
    url.unwrap_or_default().clone_into(&mut call.url);
    command.unwrap_or_default().clone_into(&mut call.command);
    Some(call)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_and_mcp_classify() {
        for (name, want) in [
            ("Shell", "shell"),
            ("Read", "file-read"),
            ("Write", "file-write"),
            ("Delete", "file-write"),
            ("Grep", "search"),
            ("Task", "task"),
            ("MCP:create_issue", "mcp"),
            ("MCP:", "other"),
            ("shell", "other"),
            ("Future", "other"),
        ] {
            assert_eq!(classify(name).as_str(), want, "{name}");
        }
        let m = parse_mcp("query", Some("db"), None, Some("npx db-mcp")).unwrap();
        assert_eq!(
            (m.server.as_str(), m.tool.as_str(), m.command.as_str()),
            ("db", "query", "npx db-mcp")
        );
        assert!(parse_mcp("Shell", None, None, None).is_none());
        let m = parse_mcp("MCP:q", None, None, None).unwrap();
        assert_eq!((m.server.as_str(), m.tool.as_str()), ("", "q"));
    }

    #[test]
    fn builtin_table_has_no_duplicates() {
        assert_eq!(TOOLS.repeated_names(&[]), Vec::<&str>::new());
    }
}
