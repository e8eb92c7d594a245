//! OpenClaw's built-in tools by canonical class (2026.9.6, the `tools` list of a captured
//! `llm_input`), read by the codec and by install's matcher compiler (OpenClaw's `api.on`
//! `matcher` option takes these canonical tool ids).
//!
//! OpenClaw exposes MCP servers' tools through its own tool registry under plain names; the
//! payload carries no server identity, so there is no MCP naming scheme (⚠ an MCP tool decodes
//! as [`CanonicalTool::Other`]).

use agenthooks_core::kit::ToolTable;
use agenthooks_core::{CanonicalTool, McpCall};

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

/// The MCP identity of a call: never known from an OpenClaw payload (see the module docs).
pub fn parse_mcp(name: &str) -> Option<McpCall> {
    let _ = name;
    None
}
