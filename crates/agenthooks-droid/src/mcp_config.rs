//! Factory Droid's MCP configuration, for [`McpCall::resolve`](agenthooks_core::McpCall::resolve)
//! and `agenthooks mcp`.
//!
//! Two files, each `{"mcpServers": {…}}`, lowest precedence first: user `~/.factory/mcp.json`,
//! then project `<root>/.factory/mcp.json` (the root being the nearest ancestor with `.git`, else
//! the working directory). Entries: `type` `stdio` (`command` + `args`) or `http`/`sse` (`url`).

use agenthooks_core::mcp::{git_root, JsonSyntax, Mangling, McpScope, McpServers};

/// Droid's tool-name scheme: `<server>___<tool>` with characters outside `[A-Za-z0-9_-]` as `_`
/// (quirk 1007).
pub const MANGLING: Mangling = Mangling::new("", "___", sanitize);

/// Droid's rewrite of a server name in tool names.
pub fn sanitize(name: &str) -> String {
    agenthooks_core::mcp::replace_unsafe(name, '_')
}

/// The servers Droid would load with `scope.root` as its working directory.
pub fn load(scope: &McpScope) -> McpServers {
    let project = git_root(&scope.root).unwrap_or_else(|| scope.root.clone());
    let files = [
        scope.home().map(|h| h.join(".factory/mcp.json")),
        Some(project.join(".factory/mcp.json")),
    ];
    let mut out = McpServers::default();
    out.insert_files(
        files.into_iter().flatten(),
        JsonSyntax::Relaxed,
        &["mcpServers"],
        &|s| s.to_owned(),
    );
    out
}
