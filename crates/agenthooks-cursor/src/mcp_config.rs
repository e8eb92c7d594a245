//! Cursor's MCP configuration, for [`McpCall::resolve`](agenthooks_core::McpCall::resolve) and
//! `agenthooks mcp`.
//!
//! Files (Cursor docs, "Model Context Protocol"), lowest precedence first: global
//! `~/.cursor/mcp.json`, then project `<root>/.cursor/mcp.json` (the project's server of a name
//! wins). Each holds `{"mcpServers": {…}}`: `command` + `args` (stdio) or `url` (HTTP/SSE).
//! Values interpolate `${env:NAME}`, `${userHome}`, `${workspaceFolder}`,
//! `${workspaceFolderBasename}`, `${pathSeparator}` and `${/}` ([`interpolate`]). Read as
//! JSONC (Cursor's editor tolerates comments). ⚠ From the docs: no Cursor build is in the e2e
//! cache to check against.
//!
//! The payload's own server info wins: `beforeMCPExecution`/`afterMCPExecution` name the
//! server (`mcp_server_name`) and its `url` or `command`; the generic events' `MCP:<tool>`
//! names none, and resolves only when exactly one server is enabled.

use agenthooks_core::mcp::{replace_tokens, JsonSyntax, McpScope, McpServers};

/// Cursor's `${…}` interpolation of a config string (an unknown form stays as written).
///
/// ```
/// use agenthooks_core::mcp::McpScope;
/// use agenthooks_cursor::mcp_config::interpolate;
/// let s = McpScope::new("/w/shop").with_home("/h").with_env([("TOKEN", "t")]);
/// assert_eq!(interpolate("${userHome}/x ${workspaceFolderBasename} ${env:TOKEN} ${nope}", &s), "/h/x shop t ${nope}");
/// ```
pub fn interpolate(value: &str, scope: &McpScope) -> String {
    replace_tokens(value, "${", &|token| match token {
        "userHome" => scope.home().map(|h| h.display().to_string()),
        "workspaceFolder" => Some(scope.root.display().to_string()),
        "workspaceFolderBasename" => scope.root.file_name().map(|f| f.to_string_lossy().into_owned()),
        "pathSeparator" | "/" => Some(std::path::MAIN_SEPARATOR.to_string()),
        t => t.strip_prefix("env:").map(|n| scope.var(n).unwrap_or_default()),
    })
}

/// The servers Cursor would load in `scope.root` (see the module docs).
pub fn load(scope: &McpScope) -> McpServers {
    let files = [
        scope.home().map(|h| h.join(".cursor/mcp.json")),
        Some(scope.root.join(".cursor/mcp.json")),
    ];
    let mut out = McpServers::default();
    out.insert_files(
        files.into_iter().flatten(),
        JsonSyntax::Relaxed,
        &["mcpServers"],
        &|s| interpolate(s, scope),
    );
    out
}
