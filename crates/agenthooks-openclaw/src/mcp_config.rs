//! OpenClaw's MCP configuration: `mcp.servers` of its config file, for
//! [`McpCall::resolve`](agenthooks_core::McpCall::resolve) and `agenthooks mcp`.
//!
//! One file (OpenClaw 2026.9.6 `resolveConfigDir` and docs "Configuration — MCP"):
//! `$OPENCLAW_CONFIG_PATH`, else `$OPENCLAW_STATE_DIR/openclaw.json`, else
//! `~/.openclaw/openclaw.json`; no project file. JSON5. Strings expand `${VAR}` (upper-case
//! names only; `$${VAR}` is a literal `${VAR}`; an unset variable stays visible). Entries:
//! `command` + `args` (stdio) or `url` with `transport` `streamable-http` / `sse`;
//! `enabled: false` keeps a definition without connecting it. ⚠ Not applied: `$include`
//! files, secret refs.
//!
//! OpenClaw names an MCP tool `<safe server>__<tool>` (`agent-bundle-mcp-names`: the server
//! with `[^A-Za-z0-9_-]` as `-`, `mcp-` prefixed when it does not start with a letter, at most
//! 30 characters).

use std::path::PathBuf;

use agenthooks_core::mcp::{expand_vars, read_json, JsonSyntax, Mangling, McpScope, McpServers, VarSyntax};

/// OpenClaw's tool-name scheme: `<safe server>__<tool>`.
pub const MANGLING: Mangling = Mangling::new("", "__", safe_server_name);

/// OpenClaw's model-facing server name (`sanitizeServerName` without collision suffixes).
///
/// ```
/// use agenthooks_openclaw::mcp_config::safe_server_name;
/// assert_eq!(safe_server_name("my docs.v2"), "my-docs-v2");
/// assert_eq!(safe_server_name("1pass"), "mcp-1pass");
/// ```
pub fn safe_server_name(name: &str) -> String {
    let cleaned = agenthooks_core::mcp::replace_unsafe(name.trim(), '-');
    let cleaned = if cleaned.is_empty() { "mcp".to_owned() } else { cleaned };
    let safe = if cleaned.starts_with(|c: char| c.is_ascii_alphabetic()) {
        cleaned
    } else {
        format!("mcp-{cleaned}")
    };
    safe.chars().take(30).collect()
}

/// The config file (see the module docs).
pub fn config_file(scope: &McpScope) -> Option<PathBuf> {
    if let Some(p) = scope.var("OPENCLAW_CONFIG_PATH") {
        return Some(PathBuf::from(p));
    }
    scope
        .dir_from_env("OPENCLAW_STATE_DIR", ".openclaw")
        .map(|d| d.join("openclaw.json"))
}

/// The servers OpenClaw would load (see the module docs).
pub fn load(scope: &McpScope) -> McpServers {
    let lookup = scope.lookup();
    let expand = |s: &str| expand_vars(s, VarSyntax::UPPERCASE_ESCAPED, &lookup);
    let mut out = McpServers::default();
    let Some(file) = config_file(scope) else { return out };
    if let Some(doc) = read_json(&file, JsonSyntax::Relaxed) {
        out.insert_map(doc.get("mcp").and_then(|m| m.get("servers")), &file, &expand);
    }
    out
}
