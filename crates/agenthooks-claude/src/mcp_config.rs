//! Claude Code's MCP configuration: the servers it would load in a project, for
//! [`McpCall::resolve`](agenthooks_core::McpCall::resolve) and `agenthooks mcp`.
//!
//! Files, lowest precedence first (Claude's scopes: local > project > user; checked against
//! the 2.1.332 binary):
//!
//! 1. **user**: the global config's top-level `mcpServers`. The global config is
//!    `$CLAUDE_CONFIG_DIR/.claude.json` when `CLAUDE_CONFIG_DIR` is set, else `~/.claude.json`
//!    (a legacy `<config dir>/.config.json` is used instead when it exists).
//! 2. **project**: `.mcp.json` in the root and every ancestor (the closer file wins). Strings in
//!    `command`, `args` and `url` expand `${VAR}` and `${VAR:-default}` (an unset variable
//!    without a default stays as written; Claude reports it).
//! 3. **local**: the global config's `projects[<root>].mcpServers`.
//!
//! A `.mcp.json` server named in `disabledMcpjsonServers` (settings `settings.json`,
//! `.claude/settings.json`, `.claude/settings.local.json`, or `projects[<root>]`) is listed
//! disabled. Plugin and claude.ai connector servers are not in these files (the payload's
//! `mcp_server.source` names them): they resolve from the payload alone. Files are strict JSON
//! (Claude uses `JSON.parse`): a comment makes the file a logged miss.

use std::path::PathBuf;

use agenthooks_core::mcp::{
    ancestors_rootfirst, expand_vars, read_json, JsonSyntax, Mangling, McpScope, McpServers, VarSyntax,
};
use serde_json::Value;

/// Claude's tool-name scheme: `mcp__<server with [^A-Za-z0-9_-] as _>__<tool>`.
pub const MANGLING: Mangling = Mangling::new("mcp__", "__", normalize_server_name);

/// Claude's normalization of an MCP server name into the `<server>` segment of a tool name:
/// every character outside `[A-Za-z0-9_-]` becomes `_`.
pub fn normalize_server_name(name: &str) -> String {
    agenthooks_core::mcp::replace_unsafe(name, '_')
}

/// Claude's config directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub fn config_dir(scope: &McpScope) -> Option<PathBuf> {
    scope.dir_from_env("CLAUDE_CONFIG_DIR", ".claude")
}

/// The global config file (`~/.claude.json`, see the module docs).
pub fn global_config(scope: &McpScope) -> Option<PathBuf> {
    let legacy = config_dir(scope)
        .map(|d| d.join(".config.json"))
        .filter(|p| p.is_file());
    legacy.or_else(|| {
        scope
            .var("CLAUDE_CONFIG_DIR")
            .map(PathBuf::from)
            .or_else(|| scope.home())
            .map(|d| d.join(".claude.json"))
    })
}

/// The servers Claude Code would load in `scope.root` (see the module docs).
pub fn load(scope: &McpScope) -> McpServers {
    let mut out = McpServers::default();
    let plain = |s: &str| s.to_owned();
    let lookup = scope.lookup();
    let expand = |s: &str| expand_vars(s, VarSyntax::BRACED_DEFAULTS, &lookup);
    let global_path = global_config(scope);
    let global = global_path.as_deref().and_then(|p| read_json(p, JsonSyntax::Strict));
    let local = global
        .as_ref()
        .and_then(|g| g.get("projects")?.get(scope.root.to_str()?));
    if let (Some(g), Some(p)) = (&global, &global_path) {
        out.insert_map(g.get("mcpServers"), p, &plain);
    }
    let mut project_files = Vec::new();
    for dir in ancestors_rootfirst(&scope.root) {
        let file = dir.join(".mcp.json");
        if let Some(v) = read_json(&file, JsonSyntax::Strict) {
            out.insert_map(v.get("mcpServers"), &file, &expand);
            project_files.push(file);
        }
    }
    if let (Some(l), Some(p)) = (local, &global_path) {
        out.insert_map(l.get("mcpServers"), p, &plain);
    }
    let mut settings: Vec<Value> = [
        config_dir(scope).map(|d| d.join("settings.json")),
        Some(scope.root.join(".claude/settings.json")),
        Some(scope.root.join(".claude/settings.local.json")),
    ]
    .into_iter()
    .flatten()
    .filter_map(|p| read_json(&p, JsonSyntax::Strict))
    .collect();
    settings.extend(local.cloned());
    let disabled: Vec<String> = settings
        .iter()
        .filter_map(|s| s.get("disabledMcpjsonServers")?.as_array())
        .flatten()
        .filter_map(|n| n.as_str().map(str::to_owned))
        .collect();
    for name in disabled {
        let from_mcp_json = out
            .get(&name)
            .is_some_and(|s| project_files.iter().any(|f| f == &s.source));
        if from_mcp_json {
            out.disable(&name);
        }
    }
    out
}
