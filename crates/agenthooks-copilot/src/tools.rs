//! Copilot CLI tool names and their canonical classes.
//!
//! Copilot's built-in tools use lower-case snake names (`bash`, `view`, `edit`, …); Claude-format
//! plugin hooks and the PascalCase dialect carry Claude names (`Bash`, `Read`, …, 1.0.62), so
//! both spellings are listed. MCP tools appear as `mcp__<server>__<tool>` (Claude-compatible
//! form) or as `<server>-<tool>`: Copilot's own tools never contain a hyphen, so a hyphenated
//! name is classed as MCP. ⚠ In the hyphenated form the server/tool split is ambiguous
//! (server names contain hyphens themselves: `github-mcp-server-list_issues`), so
//! [`mcp_parts`] reports no server for it.

use agenthooks_core::CanonicalTool;

/// Known tool names and their classes.
pub const TOOL_CLASSES: &[(&str, CanonicalTool)] = &[
    // Copilot CLI built-ins.
    ("bash", CanonicalTool::Shell),
    ("powershell", CanonicalTool::Shell),
    ("write_bash", CanonicalTool::Shell),
    ("write_powershell", CanonicalTool::Shell),
    ("read_bash", CanonicalTool::Other),
    ("stop_bash", CanonicalTool::Other),
    ("list_bash", CanonicalTool::Other),
    ("read_powershell", CanonicalTool::Other),
    ("stop_powershell", CanonicalTool::Other),
    ("list_powershell", CanonicalTool::Other),
    ("view", CanonicalTool::FileRead),
    ("create", CanonicalTool::FileWrite),
    ("edit", CanonicalTool::FileEdit),
    ("str_replace_editor", CanonicalTool::FileEdit),
    ("apply_patch", CanonicalTool::FileEdit),
    ("glob", CanonicalTool::Search),
    ("grep", CanonicalTool::Search),
    ("rg", CanonicalTool::Search),
    ("web_fetch", CanonicalTool::Fetch),
    ("web_search", CanonicalTool::Fetch),
    ("task", CanonicalTool::Task),
    // Claude names (Claude-format plugin hooks, PascalCase dialect).
    ("Bash", CanonicalTool::Shell),
    ("PowerShell", CanonicalTool::Shell),
    ("Read", CanonicalTool::FileRead),
    ("Write", CanonicalTool::FileWrite),
    ("Edit", CanonicalTool::FileEdit),
    ("MultiEdit", CanonicalTool::FileEdit),
    ("NotebookEdit", CanonicalTool::FileEdit),
    ("Glob", CanonicalTool::Search),
    ("Grep", CanonicalTool::Search),
    ("LS", CanonicalTool::Search),
    ("WebFetch", CanonicalTool::Fetch),
    ("WebSearch", CanonicalTool::Fetch),
    ("Task", CanonicalTool::Task),
    ("Agent", CanonicalTool::Task),
];

/// The class of a native tool name.
pub fn classify(name: &str) -> CanonicalTool {
    if let Some((_, class)) = TOOL_CLASSES.iter().find(|(n, _)| *n == name) {
        return *class;
    }
    if mcp_parts(name).is_some() {
        CanonicalTool::Mcp
    } else {
        CanonicalTool::Other
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
        assert_eq!(classify("bash"), CanonicalTool::Shell);
        assert_eq!(classify("powershell"), CanonicalTool::Shell);
        assert_eq!(classify("Bash"), CanonicalTool::Shell);
        assert_eq!(classify("view"), CanonicalTool::FileRead);
        assert_eq!(classify("create"), CanonicalTool::FileWrite);
        assert_eq!(classify("edit"), CanonicalTool::FileEdit);
        assert_eq!(classify("glob"), CanonicalTool::Search);
        assert_eq!(classify("web_fetch"), CanonicalTool::Fetch);
        assert_eq!(classify("task"), CanonicalTool::Task);
        assert_eq!(classify("read_bash"), CanonicalTool::Other);
        assert_eq!(classify("report_intent"), CanonicalTool::Other);
        assert_eq!(classify("BASH"), CanonicalTool::Other, "names are case-sensitive");
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
        assert_eq!(classify("github-mcp-server-list_issues"), CanonicalTool::Mcp);
        assert_eq!(mcp_parts("github-mcp-server-list_issues").and_then(|m| m.server), None);
        assert_eq!(mcp_parts("mcp__broken"), None);
        assert_eq!(mcp_parts("-x"), None);
        assert_eq!(classify("mcp____"), CanonicalTool::Other);
    }
}
