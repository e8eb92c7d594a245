//! Copilot CLI tool names and their canonical classes.
//!
//! Copilot's built-in tools use lower-case snake names (`bash`, `view`, `edit`, …); Claude-format
//! plugin hooks and the PascalCase dialect carry Claude names (`Bash`, `Read`, …, 1.0.62), so
//! both spellings are listed. MCP tools appear as `mcp__<server>__<tool>` (Claude-compatible
//! form) or as `<server>-<tool>`: Copilot's own tools never contain a hyphen, so a hyphenated
//! name is classed as MCP. ⚠ In the hyphenated form the server/tool split is ambiguous
//! (server names contain hyphens themselves: `github-mcp-server-list_issues`), so
//! [`mcp_parts`] reports no server for it.

/// The canonical class of a tool (mirrors the unified `CanonicalTool` set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolClass {
    /// Runs shell commands.
    Shell,
    /// Reads a file.
    FileRead,
    /// Creates / overwrites a file.
    FileWrite,
    /// Edits a file in place.
    FileEdit,
    /// Searches files by name or content.
    Search,
    /// Fetches or searches the web.
    Fetch,
    /// Spawns a subagent.
    Task,
    /// An MCP server tool.
    Mcp,
    /// Anything else.
    Other,
}

/// Known tool names and their classes.
pub const TOOL_CLASSES: &[(&str, ToolClass)] = &[
    // Copilot CLI built-ins.
    ("bash", ToolClass::Shell),
    ("powershell", ToolClass::Shell),
    ("write_bash", ToolClass::Shell),
    ("write_powershell", ToolClass::Shell),
    ("read_bash", ToolClass::Other),
    ("stop_bash", ToolClass::Other),
    ("list_bash", ToolClass::Other),
    ("read_powershell", ToolClass::Other),
    ("stop_powershell", ToolClass::Other),
    ("list_powershell", ToolClass::Other),
    ("view", ToolClass::FileRead),
    ("create", ToolClass::FileWrite),
    ("edit", ToolClass::FileEdit),
    ("str_replace_editor", ToolClass::FileEdit),
    ("apply_patch", ToolClass::FileEdit),
    ("glob", ToolClass::Search),
    ("grep", ToolClass::Search),
    ("rg", ToolClass::Search),
    ("web_fetch", ToolClass::Fetch),
    ("web_search", ToolClass::Fetch),
    ("task", ToolClass::Task),
    // Claude names (Claude-format plugin hooks, PascalCase dialect).
    ("Bash", ToolClass::Shell),
    ("PowerShell", ToolClass::Shell),
    ("Read", ToolClass::FileRead),
    ("Write", ToolClass::FileWrite),
    ("Edit", ToolClass::FileEdit),
    ("MultiEdit", ToolClass::FileEdit),
    ("NotebookEdit", ToolClass::FileEdit),
    ("Glob", ToolClass::Search),
    ("Grep", ToolClass::Search),
    ("LS", ToolClass::Search),
    ("WebFetch", ToolClass::Fetch),
    ("WebSearch", ToolClass::Fetch),
    ("Task", ToolClass::Task),
    ("Agent", ToolClass::Task),
];

/// The class of a native tool name.
pub fn classify(name: &str) -> ToolClass {
    if let Some((_, class)) = TOOL_CLASSES.iter().find(|(n, _)| *n == name) {
        return *class;
    }
    if mcp_parts(name).is_some() {
        ToolClass::Mcp
    } else {
        ToolClass::Other
    }
}

/// An MCP tool name taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpName {
    /// The server, when the name encodes it unambiguously (`mcp__server__tool`).
    pub server: Option<String>,
    /// The tool as the MCP server knows it (the whole name when the split is ambiguous).
    pub tool: String,
}

/// Decodes an MCP tool name: `mcp__<server>__<tool>`, or a hyphenated `<server>-<tool>` (no
/// server reported, see the module docs). `None` for non-MCP names.
pub fn mcp_parts(name: &str) -> Option<McpName> {
    if let Some(rest) = name.strip_prefix("mcp__") {
        let (server, tool) = rest.split_once("__")?;
        if server.is_empty() || tool.is_empty() {
            return None;
        }
        return Some(McpName {
            server: Some(server.to_owned()),
            tool: tool.to_owned(),
        });
    }
    let hyphenated =
        name.contains('-') && !name.starts_with('-') && !name.ends_with('-') && !name.chars().any(char::is_whitespace);
    hyphenated.then(|| McpName {
        server: None,
        tool: name.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_and_claude_names_classify() {
        assert_eq!(classify("bash"), ToolClass::Shell);
        assert_eq!(classify("powershell"), ToolClass::Shell);
        assert_eq!(classify("Bash"), ToolClass::Shell);
        assert_eq!(classify("view"), ToolClass::FileRead);
        assert_eq!(classify("create"), ToolClass::FileWrite);
        assert_eq!(classify("edit"), ToolClass::FileEdit);
        assert_eq!(classify("glob"), ToolClass::Search);
        assert_eq!(classify("web_fetch"), ToolClass::Fetch);
        assert_eq!(classify("task"), ToolClass::Task);
        assert_eq!(classify("read_bash"), ToolClass::Other);
        assert_eq!(classify("report_intent"), ToolClass::Other);
        assert_eq!(classify("BASH"), ToolClass::Other, "names are case-sensitive");
    }

    #[test]
    fn mcp_names_decode() {
        assert_eq!(
            mcp_parts("mcp__github__get_issue"),
            Some(McpName {
                server: Some("github".into()),
                tool: "get_issue".into()
            })
        );
        assert_eq!(classify("github-mcp-server-list_issues"), ToolClass::Mcp);
        assert_eq!(mcp_parts("github-mcp-server-list_issues").and_then(|m| m.server), None);
        assert_eq!(mcp_parts("mcp__broken"), None);
        assert_eq!(mcp_parts("-x"), None);
        assert_eq!(classify("mcp____"), ToolClass::Other);
    }
}
