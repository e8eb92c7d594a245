//! OpenClaw's built-in tools by canonical class (2026.9.6, the `tools` list of a captured
//! `llm_input`), read by the codec and by install's matcher compiler (OpenClaw's `api.on`
//! `matcher` option takes these canonical tool ids).
//!
//! OpenClaw exposes MCP servers' tools through its own tool registry as `<safe server>__<tool>`
//! ([`parse_mcp`]). `before_tool_call` carries no other server identity; an `after_tool_call`
//! result does (`result.details.mcpServer` / `mcpTool`, captured from 2026.9.6,
//! [`mcp_from_result`]), and wins. The name has no fixed prefix, so [`TOOLS`] declares no MCP
//! naming (install's matcher cannot select MCP tools by pattern).

use agenthooks_core::kit::ToolTable;
use agenthooks_core::mcp::{McpLookup, McpName};
use agenthooks_core::{CanonicalTool, McpCall};
use serde_json::Value;

/// The tool table.
pub static TOOLS: ToolTable = ToolTable::new(
    &[
        (CanonicalTool::Shell, &["exec", "process"]),
        (CanonicalTool::FileRead, &["read", "file_fetch", "memory_get"]),
        (CanonicalTool::FileWrite, &["write", "file_write"]),
        (CanonicalTool::FileEdit, &["edit", "apply_patch"]),
        (
            CanonicalTool::Search,
            &["ls", "dir_list", "memory_search", "sessions_search", "tool_search"],
        ),
        (CanonicalTool::Fetch, &["web_fetch", "web_search", "browser"]),
        (CanonicalTool::Task, &["sessions_spawn", "subagents", "agents_wait"]),
    ],
    None,
    &[],
);

/// The canonical class of an OpenClaw tool id.
pub fn classify(name: &str) -> CanonicalTool {
    TOOLS.classify(name)
}

/// The MCP identity of a call named `<safe server>__<tool>` (OpenClaw's bundle-MCP tool
/// names; built-in tool ids never contain `__`): the segment before the first `__` as the
/// server, the rest as the tool, with an [`McpLookup`] that resolves the configured server
/// (and its transport) from `openclaw.json` ([`mcp_config`](crate::mcp_config)).
///
/// ```
/// use agenthooks_openclaw::tools::parse_mcp;
/// let m = parse_mcp("docs__search").unwrap();
/// assert_eq!((m.server.as_str(), m.tool.as_str()), ("docs", "search"));
/// assert!(parse_mcp("exec").is_none());
/// ```
pub fn parse_mcp(name: &str) -> Option<McpCall> {
    let (server, tool) = name.split_once("__")?;
    if server.is_empty() || tool.is_empty() {
        return None;
    }
    let by = McpName::Mangled(name.to_owned(), crate::mcp_config::MANGLING);
    Some(McpCall::new(server, tool).with_lookup(McpLookup::new("openclaw", crate::mcp_config::load, by)))
}

/// The MCP identity an `after_tool_call` result reports itself: `details.mcpServer` (the server
/// as configured, not its sanitized form) and `details.mcpTool`, as OpenClaw 2026.9.6 sets them
/// on a bundle-MCP tool's result. The lookup is by that name, so servers whose sanitized names
/// collide (`my.db` and `my-db` are both `my-db__…`) resolve apart. `None` without both.
///
/// ```
/// use agenthooks_openclaw::tools::mcp_from_result;
/// let result = serde_json::json!({"content": [], "details": {"mcpServer": "my.db", "mcpTool": "query"}});
/// let m = mcp_from_result(Some(&result)).unwrap();
/// assert_eq!((m.server.as_str(), m.tool.as_str()), ("my.db", "query"));
/// assert!(mcp_from_result(Some(&serde_json::json!({"details": {}}))).is_none());
/// ```
pub fn mcp_from_result(result: Option<&Value>) -> Option<McpCall> {
    let details = result?.get("details")?;
    let field = |k: &str| details.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    let (server, tool) = (field("mcpServer")?, field("mcpTool")?);
    let by = McpName::Server(server.to_owned());
    Some(McpCall::new(server, tool).with_lookup(McpLookup::new("openclaw", crate::mcp_config::load, by)))
}
