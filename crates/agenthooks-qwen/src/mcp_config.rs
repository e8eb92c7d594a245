//! Qwen Code's MCP configuration: the `mcpServers` of its settings files, for
//! [`McpCall::resolve`](agenthooks_core::McpCall::resolve) and `agenthooks mcp`.
//!
//! Settings files, lowest precedence first (Gemini CLI's merge, kept by the fork; paths read
//! from the 0.24.4 bundle; a later file's server replaces an earlier one of the same name):
//!
//! 1. system defaults: `$QWEN_CODE_SYSTEM_DEFAULTS_PATH`, else `system-defaults.json` next to
//!    the system settings;
//! 2. user: `<qwen dir>/settings.json`, where `<qwen dir>` is `$QWEN_HOME`, else `~/.qwen`;
//! 3. workspace: `<root>/.qwen/settings.json` (not when it is the user file);
//! 4. system: `$QWEN_CODE_SYSTEM_SETTINGS_PATH`, else `/etc/qwen-code/settings.json`.
//!
//! Files are JSONC; `$VAR`, `${VAR}` and `${VAR:-default}` expand in every string. ⚠ Not
//! applied: folder trust, `mcp.allowed`/`mcp.excluded`, extensions' servers.

use std::path::PathBuf;

use agenthooks_core::mcp::{
    layered_settings_files, load_settings_servers, replace_unsafe, Mangling, McpScope, McpServers,
};

/// Qwen's tool-name scheme: `mcp__<server with [^A-Za-z0-9_-] as _>__<tool>`.
pub const MANGLING: Mangling = Mangling::new("mcp__", "__", sanitize);

/// Qwen's rewrite of a server name in tool names (`normalizeToolNameForProvider`): every
/// character outside `[A-Za-z0-9_-]` becomes `_`.
///
/// ```
/// assert_eq!(agenthooks_qwen::mcp_config::sanitize("shop.db x"), "shop_db_x");
/// ```
pub fn sanitize(name: &str) -> String {
    replace_unsafe(name, '_')
}

/// The settings files in precedence order (lowest first).
pub fn settings_files(scope: &McpScope) -> Vec<PathBuf> {
    let user = scope
        .dir_from_env("QWEN_HOME", ".qwen")
        .map(|d| d.join("settings.json"));
    layered_settings_files(
        scope,
        ("QWEN_CODE_SYSTEM_SETTINGS_PATH", "/etc/qwen-code/settings.json"),
        "QWEN_CODE_SYSTEM_DEFAULTS_PATH",
        user.as_deref(),
        scope.root.join(".qwen/settings.json"),
    )
}

/// The servers Qwen Code would load in `scope.root` (see the module docs).
pub fn load(scope: &McpScope) -> McpServers {
    load_settings_servers(scope, settings_files(scope))
}
