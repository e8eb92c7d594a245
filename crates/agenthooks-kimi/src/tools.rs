//! Kimi Code's tool names and their canonical classes.
//!
//! Kimi Code 2.x registers its built-in tools under Claude-like names (`Bash`, `Read`, `Write`,
//! `Edit`, `Glob`, `Grep`, `FetchURL`, `WebSearch`, `Agent`, …) and MCP tools as
//! `mcp__<server>__<tool>`. The older Python Kimi CLI (`kimi-cli` 1.x) used `Shell`, `ReadFile`,
//! `WriteFile`, `StrReplaceFile`, `SearchWeb`, `Task`; those names are classified too, since
//! generated configs and consumers may meet either. [`TOOLS`] is the one table: the codec's
//! [`classify`] and install's matcher compiler both read it.

use agenthooks_core::kit::{McpNaming, ToolTable};
use agenthooks_core::mcp::McpLookup;
use agenthooks_core::{CanonicalTool, McpCall};

/// Kimi's built-in tools per canonical class (Kimi Code 2.x names first, then the older
/// `kimi-cli` ones) and its MCP naming, `mcp__<server>__<tool>`.
pub static TOOLS: ToolTable = ToolTable::new(
    &[
        (CanonicalTool::Shell, &["Bash", "Shell"]),
        (CanonicalTool::FileRead, &["Read", "ReadMediaFile", "ReadFile"]),
        (CanonicalTool::FileWrite, &["Write", "WriteFile"]),
        (CanonicalTool::FileEdit, &["Edit", "StrReplaceFile"]),
        (CanonicalTool::Search, &["Glob", "Grep"]),
        (CanonicalTool::Fetch, &["WebSearch", "FetchURL", "SearchWeb"]),
        (CanonicalTool::Task, &["Agent", "AgentSwarm", "Task"]),
    ],
    Some(McpNaming::new("mcp__", "__")),
    &[],
);

/// Classifies a Kimi tool name (exact, case-sensitive match as Kimi's names are).
pub fn classify(name: &str) -> CanonicalTool {
    TOOLS.classify(name)
}

/// The MCP identity of a call named `mcp__<server>__<tool>`.
///
/// Kimi sanitizes both parts (characters outside `[A-Za-z0-9_-]` become `_`, runs of `_` collapse
/// to one), so a server name never contains `__` and the first `__` after the prefix is the
/// separator. ⚠ Lossy: the names are the sanitized ones, not the configured ones, and a qualified
/// name longer than 64 characters is cut and suffixed with a hash, so its tool part is not the
/// tool's real name. A bare `mcp__<server>` has no tool and gives `None`.
///
/// The call carries an [`McpLookup`] for [`McpCall::resolve`]: the name resolves against the
/// configured servers ([`mcp_config`](crate::mcp_config)), giving the configured name back.
pub fn parse_mcp(name: &str) -> Option<McpCall> {
    let lookup = || McpLookup::mangled("kimi", crate::mcp_config::load, name, crate::mcp_config::MANGLING);
    match TOOLS.parse_mcp(name)? {
        (server, Some(tool)) if !tool.is_empty() => Some(McpCall::new(server, tool).with_lookup(lookup())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_kimi_code_tools() {
        use CanonicalTool::{Fetch, FileEdit, FileRead, FileWrite, Mcp, Other, Search, Shell, Task};
        for (name, class) in [
            ("Bash", Shell),
            ("Read", FileRead),
            ("Write", FileWrite),
            ("Edit", FileEdit),
            ("Grep", Search),
            ("WebSearch", Fetch),
            ("FetchURL", Fetch),
            ("Agent", Task),
            ("mcp__github__create_issue", Mcp),
            ("TodoList", Other),
            ("bash", Other),
            ("StrReplaceFile", FileEdit),
        ] {
            assert_eq!(classify(name), class, "{name}");
        }
    }

    #[test]
    fn parses_mcp_names() {
        let parts = |n: &str| parse_mcp(n).map(|m| (m.server, m.tool));
        assert_eq!(
            parts("mcp__github__create_issue"),
            Some(("github".into(), "create_issue".into()))
        );
        assert_eq!(parts("mcp__my-srv__a__b"), Some(("my-srv".into(), "a__b".into())));
        assert_eq!(parts("mcp__github"), None);
        assert_eq!(parts("mcp____x"), None);
        assert_eq!(parts("mcp__github__"), None);
        assert_eq!(parts("Bash"), None);
    }
}
