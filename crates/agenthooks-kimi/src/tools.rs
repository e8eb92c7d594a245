//! Kimi Code's tool names and their canonical classes.
//!
//! Kimi Code 2.x registers its built-in tools under Claude-like names (`Bash`, `Read`, `Write`,
//! `Edit`, `Glob`, `Grep`, `FetchURL`, `WebSearch`, `Agent`, …) and MCP tools as
//! `mcp__<server>__<tool>`. The older Python Kimi CLI (`kimi-cli` 1.x) used `Shell`, `ReadFile`,
//! `WriteFile`, `StrReplaceFile`, `SearchWeb`, `Task`; those names are classified too, since
//! generated configs and consumers may meet either.

use agenthooks_core::{CanonicalTool, McpCall, ToolCall};
use serde_json::Value;

/// Kimi's tool names with their classes: Kimi Code 2.x first, then the older `kimi-cli` names.
pub const TOOL_CLASSES: &[(&str, CanonicalTool)] = &[
    ("Bash", CanonicalTool::Shell),
    ("Read", CanonicalTool::FileRead),
    ("ReadMediaFile", CanonicalTool::FileRead),
    ("Write", CanonicalTool::FileWrite),
    ("Edit", CanonicalTool::FileEdit),
    ("Glob", CanonicalTool::Search),
    ("Grep", CanonicalTool::Search),
    ("WebSearch", CanonicalTool::Fetch),
    ("FetchURL", CanonicalTool::Fetch),
    ("Agent", CanonicalTool::Task),
    ("AgentSwarm", CanonicalTool::Task),
    // kimi-cli 1.x
    ("Shell", CanonicalTool::Shell),
    ("ReadFile", CanonicalTool::FileRead),
    ("WriteFile", CanonicalTool::FileWrite),
    ("StrReplaceFile", CanonicalTool::FileEdit),
    ("SearchWeb", CanonicalTool::Fetch),
    ("Task", CanonicalTool::Task),
];

/// The prefix of MCP tool names.
pub const MCP_PREFIX: &str = "mcp__";

/// Classifies a Kimi tool name (exact, case-sensitive match as Kimi's names are).
pub fn classify(name: &str) -> CanonicalTool {
    if name.starts_with(MCP_PREFIX) {
        return CanonicalTool::Mcp;
    }
    TOOL_CLASSES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(CanonicalTool::Other, |(_, c)| *c)
}

/// Builds the normalized [`ToolCall`] for a Kimi tool call: canonical class, MCP details for
/// `mcp__…` names, the input normalized to an object (Kimi already sends `{}` for non-object
/// arguments) and Kimi's own tool-call id.
pub fn tool_call(name: &str, input: Value, id: &str, session: &str, turn: &str) -> ToolCall {
    let id = (!id.is_empty()).then(|| id.to_owned());
    let call = ToolCall::from_parts(name, classify(name), input, id, session, turn);
    match split_mcp(name) {
        Some((server, tool)) => call.with_mcp(McpCall::new(server, tool)),
        None => call,
    }
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
        assert_eq!(classify("Bash"), CanonicalTool::Shell);
        assert_eq!(classify("Read"), CanonicalTool::FileRead);
        assert_eq!(classify("Write"), CanonicalTool::FileWrite);
        assert_eq!(classify("Edit"), CanonicalTool::FileEdit);
        assert_eq!(classify("Grep"), CanonicalTool::Search);
        assert_eq!(classify("WebSearch"), CanonicalTool::Fetch);
        assert_eq!(classify("FetchURL"), CanonicalTool::Fetch);
        assert_eq!(classify("Agent"), CanonicalTool::Task);
        assert_eq!(classify("mcp__github__create_issue"), CanonicalTool::Mcp);
        assert_eq!(classify("TodoList"), CanonicalTool::Other);
        assert_eq!(classify("bash"), CanonicalTool::Other);
        assert_eq!(classify("StrReplaceFile"), CanonicalTool::FileEdit);
    }

    #[test]
    fn builds_tool_calls() {
        let t = tool_call(
            "mcp__github__create_issue",
            serde_json::json!({"title": "x"}),
            "call_1",
            "s",
            "",
        );
        assert_eq!(t.canonical, CanonicalTool::Mcp);
        let mcp = t.mcp.as_ref().map(|m| (m.server.as_str(), m.tool.as_str()));
        assert_eq!(mcp, Some(("github", "create_issue")));
        assert_eq!((t.id.as_str(), t.synthesized), ("call_1", false));
        let t = tool_call("Bash", serde_json::json!({"command": "ls"}), "", "s", "");
        assert!(t.synthesized && t.id.starts_with("hook_synth_"));
        assert_eq!(t.command(), Some("ls"));
        assert!(t.mcp.is_none());
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
