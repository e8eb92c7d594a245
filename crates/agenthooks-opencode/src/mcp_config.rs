//! OpenCode's MCP configuration: the `mcp` map of its `opencode.json[c]` files, for
//! [`McpCall::resolve`](agenthooks_core::McpCall::resolve) and `agenthooks mcp`.
//!
//! Files, lowest precedence first, merged deeply (OpenCode 1.18.33's config loader):
//!
//! 1. global: `config.json`, `opencode.json`, `opencode.jsonc` in `$XDG_CONFIG_HOME/opencode`
//!    (else `~/.config/opencode`);
//! 2. project: `opencode.json` and `opencode.jsonc` in every ancestor of the root, farthest
//!    first (the closer file wins);
//! 3. `<root>/.opencode/opencode.json[c]`;
//! 4. `$OPENCODE_CONFIG`.
//!
//! Files are JSONC; `{env:VAR}` in the text becomes the variable's value (empty when unset)
//! before parsing, as OpenCode substitutes it. Entries: `{"type": "local", "command": [...],
//! "enabled": false}` (stdio) and `{"type": "remote", "url": ...}`. A server's `source` is the
//! highest-precedence file that declares it. ⚠ Not applied: `{file:…}` substitution,
//! `OPENCODE_CONFIG_CONTENT`, remote well-known configs.

use std::path::PathBuf;

use agenthooks_core::mcp::{
    ancestors_rootfirst, relaxed_json, replace_tokens, replace_unsafe, Mangling, McpScope, McpServers,
};

/// OpenCode's tool-name scheme: `<server with [^A-Za-z0-9_-] as _>_<tool>`, no prefix.
pub const MANGLING: Mangling = Mangling::new("", "_", sanitize);

/// The sanitized form OpenCode gives a server name in tool ids.
pub fn sanitize(server: &str) -> String {
    replace_unsafe(server, '_')
}

/// The config files in precedence order (lowest first).
pub fn config_files(scope: &McpScope) -> Vec<PathBuf> {
    let global = scope
        .var("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| scope.home().map(|h| h.join(".config")))
        .map(|d| d.join("opencode"));
    let mut files: Vec<PathBuf> = global
        .iter()
        .flat_map(|d| ["config.json", "opencode.json", "opencode.jsonc"].map(|f| d.join(f)))
        .collect();
    for dir in ancestors_rootfirst(&scope.root) {
        files.extend(["opencode.json", "opencode.jsonc"].map(|f| dir.join(f)));
    }
    files.extend(["opencode.json", "opencode.jsonc"].map(|f| scope.root.join(".opencode").join(f)));
    files.extend(scope.var("OPENCODE_CONFIG").map(PathBuf::from));
    files
}

/// OpenCode's `{env:VAR}` substitution.
///
/// ```
/// use agenthooks_core::mcp::McpScope;
/// let s = McpScope::new("/p").with_env([("T", "x")]);
/// assert_eq!(agenthooks_opencode::mcp_config::substitute("a{env:T}b{env:U}c{file:f}", &s), "axbc{file:f}");
/// ```
pub fn substitute(text: &str, scope: &McpScope) -> String {
    replace_tokens(text, "{env:", &|name| Some(scope.var(name).unwrap_or_default()))
}

/// The servers OpenCode would load in `scope.root` (see the module docs).
pub fn load(scope: &McpScope) -> McpServers {
    McpServers::from_layers(
        config_files(scope),
        &|text| relaxed_json(&substitute(text, scope)),
        "mcp",
    )
}
