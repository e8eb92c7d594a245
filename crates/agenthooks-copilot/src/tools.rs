//! Copilot CLI tool names and their canonical classes.
//!
//! Copilot's built-in tools use lower-case snake names (`bash`, `view`, `edit`, …): [`TOOLS`]
//! lists them (install's matcher compiler reads the same table). Claude-format plugin hooks and
//! the PascalCase dialect report Copilot's tools under Claude-compatible names (`Bash`, 1.0.62):
//! [`CLAUDE_COMPATIBLE`] maps each such name onto the Copilot tool it stands for, so a tool has
//! one class whatever it is called. ⚠ Only `Bash` is confirmed on the wire; the other entries
//! follow Claude's name for the same tool, and a Claude-only name (`MultiEdit`, `LS`, …) is not
//! a Copilot tool and classifies as `other`.
//!
//! MCP tools appear as `mcp__<server>__<tool>` (Claude-compatible form) or as `<server>-<tool>`:
//! Copilot's own tools never contain a hyphen, so a hyphenated name is classed as MCP (quirk
//! 412). ⚠ In the hyphenated form the server/tool split is ambiguous (server names contain
//! hyphens themselves: `github-mcp-server-list_issues`), so [`parse_mcp`] reports no server for
//! it. Neither form fits [`McpNaming`](agenthooks_core::kit::McpNaming) (a fixed prefix and an
//! unambiguous separator), so [`TOOLS`] declares none and the rules live here.
//!
//! ```
//! use agenthooks_copilot::tools::{classify, parse_mcp};
//! use agenthooks_core::CanonicalTool;
//! assert_eq!(classify("bash"), CanonicalTool::Shell);
//! assert_eq!(classify("Read"), CanonicalTool::FileRead); // Claude-compatible name of `view`
//! assert_eq!(classify("github-mcp-server-get_issue"), CanonicalTool::Mcp);
//! let mcp = parse_mcp("mcp__github__get_issue").unwrap();
//! assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("github", "get_issue"));
//! ```

use agenthooks_core::kit::ToolTable;
use agenthooks_core::mcp::{McpLookup, McpName};
use agenthooks_core::{CanonicalTool, McpCall};

/// Copilot CLI's built-in tools by canonical class. The shell's read/stop/list companions only
/// observe a running shell and run no new command: `other`.
pub static TOOLS: ToolTable = ToolTable::new(
    &[
        (
            CanonicalTool::Shell,
            &["bash", "powershell", "write_bash", "write_powershell"],
        ),
        (CanonicalTool::FileRead, &["view"]),
        (CanonicalTool::FileWrite, &["create"]),
        (CanonicalTool::FileEdit, &["edit", "str_replace_editor", "apply_patch"]),
        (CanonicalTool::Search, &["glob", "grep", "rg"]),
        (CanonicalTool::Fetch, &["web_fetch", "web_search"]),
        (CanonicalTool::Task, &["task"]),
        (
            CanonicalTool::Other,
            &[
                "read_bash",
                "stop_bash",
                "list_bash",
                "read_powershell",
                "stop_powershell",
                "list_powershell",
            ],
        ),
    ],
    None,
    &[],
);

/// The Claude-compatible names Copilot reports its own tools under (Claude-format plugin hooks,
/// PascalCase dialect), and the Copilot tool each stands for.
pub const CLAUDE_COMPATIBLE: &[(&str, &str)] = &[
    ("Bash", "bash"),
    ("PowerShell", "powershell"),
    ("Read", "view"),
    ("Write", "create"),
    ("Edit", "edit"),
    ("Glob", "glob"),
    ("Grep", "grep"),
    ("WebFetch", "web_fetch"),
    ("WebSearch", "web_search"),
    ("Task", "task"),
];

/// The Copilot tool a name stands for (a Claude-compatible name mapped, anything else as is).
pub fn copilot_name(name: &str) -> &str {
    CLAUDE_COMPATIBLE
        .iter()
        .find(|(claude, _)| *claude == name)
        .map_or(name, |(_, own)| own)
}

/// The class of a native tool name: [`TOOLS`] (through [`copilot_name`]), else MCP by either
/// naming form, else [`CanonicalTool::Other`]. Names are case-sensitive.
pub fn classify(name: &str) -> CanonicalTool {
    match TOOLS.classify(copilot_name(name)) {
        CanonicalTool::Other if parse_mcp(name).is_some() => CanonicalTool::Mcp,
        class => class,
    }
}

/// The MCP identity of a tool name: `mcp__<server>__<tool>`, or a hyphenated `<server>-<tool>`
/// with an empty server and the whole name as the tool (see the module docs). `None` for
/// non-MCP names.
///
/// Either form carries an [`McpLookup`] for [`McpCall::resolve`], which finds the server among
/// the configured ones ([`mcp_config`](crate::mcp_config)): the longest configured server that
/// fits wins, which also splits the hyphenated form.
pub fn parse_mcp(name: &str) -> Option<McpCall> {
    let lookup = |m| McpLookup::new("copilot", crate::mcp_config::load, McpName::Mangled(name.to_owned(), m));
    if let Some(rest) = name.strip_prefix("mcp__") {
        let (server, tool) = rest.split_once("__")?;
        return (!server.is_empty() && !tool.is_empty())
            .then(|| McpCall::new(server, tool).with_lookup(lookup(crate::mcp_config::MANGLING)));
    }
    let hyphenated =
        name.contains('-') && !name.starts_with('-') && !name.ends_with('-') && !name.chars().any(char::is_whitespace);
    hyphenated.then(|| McpCall::new("", name).with_lookup(lookup(crate::mcp_config::HYPHENATED)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_and_claude_compatible_names_classify() {
        for (name, class) in [
            ("bash", CanonicalTool::Shell),
            ("powershell", CanonicalTool::Shell),
            ("Bash", CanonicalTool::Shell),
            ("view", CanonicalTool::FileRead),
            ("create", CanonicalTool::FileWrite),
            ("Write", CanonicalTool::FileWrite),
            ("edit", CanonicalTool::FileEdit),
            ("glob", CanonicalTool::Search),
            ("web_fetch", CanonicalTool::Fetch),
            ("task", CanonicalTool::Task),
            ("read_bash", CanonicalTool::Other),
            ("report_intent", CanonicalTool::Other),
            ("MultiEdit", CanonicalTool::Other),
            ("BASH", CanonicalTool::Other),
        ] {
            assert_eq!(classify(name), class, "{name}");
        }
        for (claude, own) in CLAUDE_COMPATIBLE {
            assert_ne!(
                TOOLS.classify(own),
                CanonicalTool::Other,
                "{claude} maps onto a tool of TOOLS"
            );
        }
    }

    #[test]
    fn mcp_names_decode() {
        let m = parse_mcp("mcp__github__get_issue").unwrap();
        assert_eq!((m.server.as_str(), m.tool.as_str()), ("github", "get_issue"));
        assert_eq!(classify("github-mcp-server-list_issues"), CanonicalTool::Mcp);
        let m = parse_mcp("github-mcp-server-list_issues").unwrap();
        assert_eq!(
            (m.server.as_str(), m.tool.as_str()),
            ("", "github-mcp-server-list_issues")
        );
        assert_eq!(parse_mcp("mcp__broken"), None);
        assert_eq!(parse_mcp("-x"), None);
        assert_eq!(classify("mcp____"), CanonicalTool::Other);
    }
}
