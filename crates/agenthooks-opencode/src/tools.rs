//! OpenCode's tools and their canonical classes.
//!
//! OpenCode names its built-in tools in lowercase (`bash`, `read`, `edit`, `webfetch`) and MCP
//! tools `<server>_<tool>`, where `<server>` is the configured server name with every
//! character outside `[A-Za-z0-9_-]` replaced by `_` — with **no reserved prefix** (quirk #28):
//! `github_create_issue` could be the `create_issue` tool of a server `github` or a plugin tool
//! of that name. So an MCP call is recognised only against the configured servers (the `config`
//! frame's `mcp` names, which the codec keeps per connection); without them a name stays
//! unclassified (`other`), never guessed.
//!
//! ```
//! use agenthooks_opencode::tools::{classify, parse_mcp};
//! use agenthooks_core::CanonicalTool;
//!
//! assert_eq!(classify("bash"), CanonicalTool::Shell);
//! let servers = vec!["github".to_owned(), "my.docs".to_owned()];
//! let mcp = parse_mcp("my_docs_search", &servers).unwrap();
//! assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("my.docs", "search"));
//! assert!(parse_mcp("bash", &servers).is_none());
//! ```

use agenthooks_core::kit::ToolTable;
use agenthooks_core::mcp::{McpLookup, McpName};
use agenthooks_core::{CanonicalTool, McpCall};

pub use crate::mcp_config::sanitize;

/// OpenCode's built-in tools (1.18.33) and their classes.
///
/// - `list` and `lsp` only look: `search`; `codesearch`/`websearch` leave the machine: `fetch`.
/// - `patch`/`multiedit`/`apply_patch` (older and model-specific edit tools) are `file_edit`.
/// - `todowrite`, `todoread`, `question`, `skill`, `invalid`, `batch`, `plan_*` run nothing on
///   the machine: `other`.
pub static TOOLS: ToolTable = ToolTable::new(
    &[
        (CanonicalTool::Shell, &["bash"]),
        (CanonicalTool::FileRead, &["read"]),
        (CanonicalTool::FileWrite, &["write"]),
        (CanonicalTool::FileEdit, &["edit", "patch", "multiedit", "apply_patch"]),
        (CanonicalTool::Search, &["glob", "grep", "list", "lsp"]),
        (CanonicalTool::Fetch, &["webfetch", "websearch", "codesearch"]),
        (CanonicalTool::Task, &["task"]),
        (
            CanonicalTool::Other,
            &[
                "todowrite",
                "todoread",
                "question",
                "skill",
                "invalid",
                "batch",
                "plan_enter",
                "plan_exit",
            ],
        ),
    ],
    None,
    &[],
);

/// The canonical class of a built-in tool name (MCP tools need the configured servers: see
/// [`classify_with`]).
pub fn classify(name: &str) -> CanonicalTool {
    TOOLS.classify(name)
}

/// The canonical class of a tool name given the configured MCP servers.
pub fn classify_with(name: &str, servers: &[String]) -> CanonicalTool {
    match TOOLS.classify(name) {
        CanonicalTool::Other if parse_mcp(name, servers).is_some() => CanonicalTool::Mcp,
        c => c,
    }
}

/// The MCP identity of a tool id: the longest configured server whose sanitized name plus `_`
/// prefixes it (the server as configured, the rest as the tool). Built-in names never match.
/// The call carries an [`McpLookup`] for [`McpCall::resolve`] (the transport from the
/// `opencode.json` files, [`mcp_config`](crate::mcp_config)).
pub fn parse_mcp(name: &str, servers: &[String]) -> Option<McpCall> {
    let by = McpName::Mangled(name.to_owned(), crate::mcp_config::MANGLING);
    let lookup = McpLookup::new("opencode", crate::mcp_config::load, by);
    if TOOLS.classes.iter().any(|(_, names)| names.contains(&name)) {
        return None;
    }
    servers
        .iter()
        .filter_map(|s| {
            let rest = name.strip_prefix(&sanitize(s))?.strip_prefix('_')?;
            (!rest.is_empty()).then_some((s, rest))
        })
        .max_by_key(|(s, _)| s.len())
        .map(|(s, rest)| McpCall::new(s.clone(), rest).with_lookup(lookup))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_server_wins_and_builtins_never_match() {
        let servers = vec!["git".to_owned(), "git_hub".to_owned()];
        let m = parse_mcp("git_hub_list", &servers).unwrap();
        assert_eq!((m.server.as_str(), m.tool.as_str()), ("git_hub", "list"));
        assert_eq!(classify_with("git_hub_list", &servers), CanonicalTool::Mcp);
        assert_eq!(classify_with("git_hub_list", &[]), CanonicalTool::Other);
        assert!(parse_mcp("git_", &servers).is_none());
        assert!(parse_mcp("read", &["read".to_owned()]).is_none());
    }
}
