//! Codex's MCP configuration: the `[mcp_servers.<name>]` tables of its `config.toml` layers,
//! for [`McpCall::resolve`](agenthooks_core::McpCall::resolve) and `agenthooks mcp`.
//!
//! Layers, lowest precedence first, merged key by key (Codex merges its TOML layers deeply, so
//! a project table can override one field of a user server):
//!
//! 1. user: `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`;
//! 2. project: `.codex/config.toml` in each directory from the project root (the nearest
//!    ancestor with `.git`, else the root itself) down to the root.
//!
//! A server's `source` is the highest-precedence file that declares it. Transports: `command` +
//! `args` (stdio) or `url` (streamable HTTP); `enabled = false` lists it disabled. Codex
//! expands no variables in these values (`env_vars` only names variables to pass through).
//! ⚠ Not applied: project trust (Codex reads project layers of trusted projects only),
//! `/etc/codex` managed layers, `--config` overrides and profiles.

use std::path::{Path, PathBuf};

use agenthooks_core::kit::toml;
use agenthooks_core::mcp::{git_root, replace_unsafe, Mangling, McpScope, McpServers};
use toml_edit::DocumentMut;

/// Codex's tool-name scheme: `mcp__<server with [^A-Za-z0-9_-] as _>__<tool>`.
pub const MANGLING: Mangling = Mangling::new("mcp__", "__", sanitize);

fn sanitize(name: &str) -> String {
    replace_unsafe(name, '_')
}

/// The config layers in precedence order (lowest first).
pub fn config_files(scope: &McpScope) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = scope
        .dir_from_env("CODEX_HOME", ".codex")
        .map(|d| d.join("config.toml"))
        .into_iter()
        .collect();
    let top = git_root(&scope.root).unwrap_or_else(|| scope.root.clone());
    let mut dirs: Vec<&Path> = scope.root.ancestors().take_while(|d| d.starts_with(&top)).collect();
    dirs.reverse();
    files.extend(dirs.into_iter().map(|d| d.join(".codex/config.toml")));
    files
}

/// The servers Codex would load in `scope.root` (see the module docs).
pub fn load(scope: &McpScope) -> McpServers {
    let parse = |text: &str| text.parse::<DocumentMut>().map(|d| toml::to_json(d.as_item()));
    McpServers::from_layers(config_files(scope), &parse, "mcp_servers")
}
