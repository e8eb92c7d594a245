//! Copilot CLI's MCP configuration, for [`McpCall::resolve`](agenthooks_core::McpCall::resolve)
//! and `agenthooks mcp`.
//!
//! Files (Copilot CLI 1.0.102 `copilot mcp --help`: "User ~/.copilot/mcp-config.json,
//! Workspace .mcp.json or .github/mcp.json"), lowest precedence first:
//!
//! 1. user: `$COPILOT_HOME/mcp-config.json`, else `~/.copilot/mcp-config.json`;
//! 2. workspace: `.github/mcp.json`, then `.mcp.json`, in each directory from the git root
//!    (else the root itself) down to the root — the closer file wins.
//!
//! Each file holds `{"mcpServers": {…}}` or, Claude-style, the bare server map. A server named
//! in `disabledMcpServers` of `<COPILOT_HOME>/config.json` is listed disabled. ⚠ Unverified:
//! the precedence between user and workspace files on a name clash (taken as workspace over
//! user, like Claude Code), and whether values expand variables (taken as not).

use std::path::{Path, PathBuf};

use agenthooks_core::mcp::{git_root, read_json, JsonSyntax, Mangling, McpScope, McpServers};
use serde_json::Value;

/// The Claude-compatible tool-name scheme: `mcp__<server>__<tool>`.
pub const MANGLING: Mangling = Mangling::new("mcp__", "__", sanitize);

/// Copilot's own scheme: `<server>-<tool>` (server names may contain `-`: the longest
/// configured server wins).
pub const HYPHENATED: Mangling = Mangling::new("", "-", str::to_owned);

fn sanitize(name: &str) -> String {
    agenthooks_core::mcp::replace_unsafe(name, '_')
}

/// Copilot's home: `$COPILOT_HOME`, else `~/.copilot`.
pub fn copilot_home(scope: &McpScope) -> Option<PathBuf> {
    scope.dir_from_env("COPILOT_HOME", ".copilot")
}

/// The servers Copilot CLI would load in `scope.root` (see the module docs).
pub fn load(scope: &McpScope) -> McpServers {
    let mut out = McpServers::default();
    let home = copilot_home(scope);
    let top = git_root(&scope.root).unwrap_or_else(|| scope.root.clone());
    let mut dirs: Vec<&Path> = scope.root.ancestors().take_while(|d| d.starts_with(&top)).collect();
    dirs.reverse();
    let files = home.as_ref().map(|h| h.join("mcp-config.json")).into_iter().chain(
        dirs.iter()
            .flat_map(|d| [d.join(".github/mcp.json"), d.join(".mcp.json")]),
    );
    for file in files {
        let Some(doc) = read_json(&file, JsonSyntax::Strict) else {
            continue;
        };
        let map = doc.get("mcpServers").unwrap_or(&doc);
        out.insert_map(Some(map), &file, &|s| s.to_owned());
    }
    let config = home.and_then(|h| read_json(&h.join("config.json"), JsonSyntax::Relaxed));
    let disabled = config
        .as_ref()
        .and_then(|c| c.get("disabledMcpServers")?.as_array().cloned());
    for name in disabled.unwrap_or_default().iter().filter_map(Value::as_str) {
        out.disable(name);
    }
    out
}
