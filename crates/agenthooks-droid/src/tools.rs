//! Droid's built-in tools by canonical class, and its MCP tool names.
//!
//! Tool names as Droid 0.215.0 offers them to the model (and sends as `tool_name`): `Execute`
//! (shell), `Read`, `LS`, `Create`, `Edit`, `MultiEdit`, `ApplyPatch`, `Grep`, `Glob`,
//! `WebSearch`, `FetchUrl`, `Task`, `TodoWrite`, `Skill`, … MCP tools are `<server>___<tool>`
//! (three underscores, no prefix), characters outside `[A-Za-z0-9_-]` replaced by `_`, and names
//! longer than 64 characters cut and suffixed with a hash.

use agenthooks_core::kit::ToolTable;
use agenthooks_core::mcp::McpLookup;
use agenthooks_core::{CanonicalTool, McpCall};

/// The separator between server and tool in an MCP tool name.
pub const MCP_SEPARATOR: &str = crate::mcp_config::MANGLING.separator;

/// Built-in tools per class. Droid's MCP names have no prefix, so the table has no
/// [`McpNaming`](agenthooks_core::kit::McpNaming); [`classify`] and [`parse_mcp`] apply the
/// `___` rule.
pub static TOOLS: ToolTable = ToolTable::new(
    &[
        (CanonicalTool::Shell, &["Execute"]),
        (CanonicalTool::FileRead, &["Read", "LS"]),
        (CanonicalTool::FileWrite, &["Create"]),
        (CanonicalTool::FileEdit, &["Edit", "MultiEdit", "ApplyPatch"]),
        (CanonicalTool::Search, &["Grep", "Glob"]),
        (CanonicalTool::Fetch, &["WebSearch", "FetchUrl"]),
        (CanonicalTool::Task, &["Task"]),
    ],
    None,
    &[],
);

/// The canonical class of a Droid tool name: the table, then `<server>___<tool>` as MCP.
pub fn classify(name: &str) -> CanonicalTool {
    match TOOLS.classify(name) {
        CanonicalTool::Other if parse_mcp(name).is_some() => CanonicalTool::Mcp,
        class => class,
    }
}

/// The MCP identity of a `<server>___<tool>` name (server and tool both non-empty).
pub fn parse_mcp(name: &str) -> Option<McpCall> {
    let (server, tool) = name.split_once(MCP_SEPARATOR)?;
    let lookup = || McpLookup::mangled("droid", crate::mcp_config::load, name, crate::mcp_config::MANGLING);
    (!server.is_empty() && !tool.is_empty()).then(|| McpCall::new(server, tool).with_lookup(lookup()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_droid_tools() {
        use CanonicalTool::{Fetch, FileEdit, FileRead, FileWrite, Mcp, Other, Search, Shell, Task};
        for (name, class) in [
            ("Execute", Shell),
            ("Read", FileRead),
            ("LS", FileRead),
            ("Create", FileWrite),
            ("Edit", FileEdit),
            ("ApplyPatch", FileEdit),
            ("Grep", Search),
            ("FetchUrl", Fetch),
            ("Task", Task),
            ("shop_db___lookup_order", Mcp),
            ("TodoWrite", Other),
            ("Bash", Other),
            ("___x", Other),
        ] {
            assert_eq!(classify(name), class, "{name}");
        }
    }

    #[test]
    fn parses_mcp_names() {
        let parts = |n: &str| parse_mcp(n).map(|m| (m.server, m.tool));
        assert_eq!(
            parts("shop_db___lookup_order"),
            Some(("shop_db".into(), "lookup_order".into()))
        );
        assert_eq!(parts("a___b___c"), Some(("a".into(), "b___c".into())));
        assert_eq!(parts("shop_db___"), None);
        assert_eq!(parts("Execute"), None);
    }
}
