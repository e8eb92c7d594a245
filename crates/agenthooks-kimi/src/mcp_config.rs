//! Kimi Code's MCP configuration, for [`McpCall::resolve`](agenthooks_core::McpCall::resolve)
//! and `agenthooks mcp`.
//!
//! Three files, each `{"mcpServers": {…}}`, lowest precedence first (Kimi Code 2.1.0's
//! `mcp-config` skill: "on key collision, later entries in this precedence order override
//! earlier ones"):
//!
//! 1. user: `$KIMI_CODE_HOME/mcp.json`, else `~/.kimi-code/mcp.json`;
//! 2. project root: `<root>/.mcp.json`, the root being the nearest ancestor with `.git`, else
//!    the working directory (the Claude-compatible file);
//! 3. project local: `<cwd>/.kimi-code/mcp.json`.
//!
//! Entries: `command` + `args` (stdio) or `url` (HTTP). No variable expansion is documented.

use agenthooks_core::mcp::{git_root, JsonSyntax, Mangling, McpScope, McpServers};

/// Kimi's tool-name scheme: `mcp__<server>__<tool>`, the server with `[^A-Za-z0-9_-]` as `_`
/// and runs of `_` collapsed.
pub const MANGLING: Mangling = Mangling::new("mcp__", "__", sanitize);

/// Kimi's rewrite of a server name in tool names.
pub fn sanitize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in agenthooks_core::mcp::replace_unsafe(name, '_').chars() {
        if !(c == '_' && out.ends_with('_')) {
            out.push(c);
        }
    }
    out
}

/// The servers Kimi Code would load with `scope.root` as its working directory.
pub fn load(scope: &McpScope) -> McpServers {
    let project = git_root(&scope.root).unwrap_or_else(|| scope.root.clone());
    let files = [
        scope
            .dir_from_env("KIMI_CODE_HOME", ".kimi-code")
            .map(|d| d.join("mcp.json")),
        Some(project.join(".mcp.json")),
        Some(scope.root.join(".kimi-code/mcp.json")),
    ];
    let mut out = McpServers::default();
    out.insert_files(files.into_iter().flatten(), JsonSyntax::Strict, &["mcpServers"], &|s| {
        s.to_owned()
    });
    out
}
