//! Kimi Code's tool names and their canonical classes.
//!
//! Kimi Code 2.x registers its built-in tools under Claude-like names (`Bash`, `Read`, `Write`,
//! `Edit`, `Glob`, `Grep`, `FetchURL`, `WebSearch`, `Agent`, …) and MCP tools as
//! `mcp__<server>__<tool>`. The older Python Kimi CLI (`kimi-cli` 1.x) used `Shell`, `ReadFile`,
//! `WriteFile`, `StrReplaceFile`, `SearchWeb`, `Task`; those names are classified too, since
//! generated configs and consumers may meet either.

/// The canonical class of a tool (the design's §3.3 `CanonicalTool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolClass {
    /// Runs shell commands.
    Shell,
    /// Reads a file.
    FileRead,
    /// Creates or overwrites a file.
    FileWrite,
    /// Edits a file in place.
    FileEdit,
    /// Searches files or the web.
    Search,
    /// Fetches a URL.
    Fetch,
    /// Delegates to a subagent.
    Task,
    /// An MCP server's tool.
    Mcp,
    /// Anything else.
    Other,
}

/// Kimi's tool names with their classes: Kimi Code 2.x first, then the older `kimi-cli` names.
pub const TOOL_CLASSES: &[(&str, ToolClass)] = &[
    ("Bash", ToolClass::Shell),
    ("Read", ToolClass::FileRead),
    ("ReadMediaFile", ToolClass::FileRead),
    ("Write", ToolClass::FileWrite),
    ("Edit", ToolClass::FileEdit),
    ("Glob", ToolClass::Search),
    ("Grep", ToolClass::Search),
    ("WebSearch", ToolClass::Search),
    ("FetchURL", ToolClass::Fetch),
    ("Agent", ToolClass::Task),
    ("AgentSwarm", ToolClass::Task),
    // kimi-cli 1.x
    ("Shell", ToolClass::Shell),
    ("ReadFile", ToolClass::FileRead),
    ("WriteFile", ToolClass::FileWrite),
    ("StrReplaceFile", ToolClass::FileEdit),
    ("SearchWeb", ToolClass::Search),
    ("Task", ToolClass::Task),
];

/// The prefix of MCP tool names.
pub const MCP_PREFIX: &str = "mcp__";

/// Classifies a Kimi tool name (exact, case-sensitive match as Kimi's names are).
pub fn classify(name: &str) -> ToolClass {
    if name.starts_with(MCP_PREFIX) {
        return ToolClass::Mcp;
    }
    TOOL_CLASSES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(ToolClass::Other, |(_, c)| *c)
}

/// Splits `mcp__<server>__<tool>` into `(server, tool)`.
///
/// Kimi sanitizes both parts (characters outside `[A-Za-z0-9_-]` become `_`, runs of `_` collapse
/// to one), so a server name never contains `__` and the first `__` after the prefix is the
/// separator. ⚠ Lossy: the names are the sanitized ones, not the configured ones, and a qualified
/// name longer than 64 characters is cut and suffixed with a hash, so its tool part is not the
/// tool's real name.
pub fn split_mcp(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix(MCP_PREFIX)?;
    let (server, tool) = rest.split_once("__")?;
    if server.is_empty() || tool.is_empty() {
        return None;
    }
    Some((server, tool))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_kimi_code_tools() {
        assert_eq!(classify("Bash"), ToolClass::Shell);
        assert_eq!(classify("Read"), ToolClass::FileRead);
        assert_eq!(classify("Write"), ToolClass::FileWrite);
        assert_eq!(classify("Edit"), ToolClass::FileEdit);
        assert_eq!(classify("Grep"), ToolClass::Search);
        assert_eq!(classify("FetchURL"), ToolClass::Fetch);
        assert_eq!(classify("Agent"), ToolClass::Task);
        assert_eq!(classify("mcp__github__create_issue"), ToolClass::Mcp);
        assert_eq!(classify("TodoList"), ToolClass::Other);
        assert_eq!(classify("bash"), ToolClass::Other);
        assert_eq!(classify("StrReplaceFile"), ToolClass::FileEdit);
    }

    #[test]
    fn splits_mcp_names() {
        assert_eq!(split_mcp("mcp__github__create_issue"), Some(("github", "create_issue")));
        assert_eq!(split_mcp("mcp__my-srv__a__b"), Some(("my-srv", "a__b")));
        assert_eq!(split_mcp("mcp__github"), None);
        assert_eq!(split_mcp("mcp____x"), None);
        assert_eq!(split_mcp("Bash"), None);
    }
}
