//! Gemini CLI's MCP configuration: the `mcpServers` of its settings files, for
//! [`McpCall::resolve`](agenthooks_core::McpCall::resolve) and `agenthooks mcp`.
//!
//! Settings files, lowest precedence first (Gemini CLI 0.61.0 `mergeSettings`; `mcpServers`
//! merges shallowly: a server of a later file replaces the earlier one of the same name):
//!
//! 1. system defaults: `$GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, else `system-defaults.json` next to
//!    the system settings;
//! 2. user: `<home>/.gemini/settings.json`, where `<home>` is `$GEMINI_CLI_HOME`, else the home
//!    directory;
//! 3. workspace: `<root>/.gemini/settings.json` (not when it is the user file);
//! 4. system: `$GEMINI_CLI_SYSTEM_SETTINGS_PATH`, else `/etc/gemini-cli/settings.json`.
//!
//! Files are JSONC. Gemini expands `$VAR`, `${VAR}` and `${VAR:-default}` in every string
//! (`resolveEnvVarsInObject`; an unset variable stays as written). Transports: `command` +
//! `args` (stdio), `url` (SSE unless `type` says otherwise), `httpUrl` (streamable HTTP),
//! `tcp` (WebSocket). ⚠ Not applied: folder trust (an untrusted workspace's settings are
//! ignored by Gemini, listed here), `mcp.allowed`/`mcp.excluded`, extensions' servers.
//!
//! The payload's `mcp_context` (server name and transport) wins over the files.

use std::path::PathBuf;

use agenthooks_core::mcp::{
    layered_settings_files, load_settings_servers, replace_unsafe, Mangling, McpScope, McpServers,
};

/// Gemini's tool-name scheme: `mcp_<server with [^A-Za-z0-9_.-] as _>_<tool>`.
pub const MANGLING: Mangling = Mangling::new(crate::mcp::MCP_PREFIX, "_", sanitize);

/// Gemini's rewrite of a server name in tool names (`[^A-Za-z0-9_.-]` → `_`): the common rule
/// ([`replace_unsafe`]) with `.` kept.
///
/// ```
/// assert_eq!(agenthooks_gemini::mcp_config::sanitize("my.docs srv/x.."), "my.docs_srv_x..");
/// ```
pub fn sanitize(name: &str) -> String {
    name.split('.')
        .map(|piece| replace_unsafe(piece, '_'))
        .collect::<Vec<_>>()
        .join(".")
}

/// The settings files in precedence order (lowest first).
pub fn settings_files(scope: &McpScope) -> Vec<PathBuf> {
    let user = scope
        .var("GEMINI_CLI_HOME")
        .map(PathBuf::from)
        .or_else(|| scope.home())
        .map(|h| h.join(".gemini/settings.json"));
    layered_settings_files(
        scope,
        ("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "/etc/gemini-cli/settings.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
        user.as_deref(),
        scope.root.join(".gemini/settings.json"),
    )
}

/// The servers Gemini CLI would load in `scope.root` (see the module docs).
pub fn load(scope: &McpScope) -> McpServers {
    load_settings_servers(scope, settings_files(scope))
}
