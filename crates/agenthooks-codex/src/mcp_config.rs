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

use agenthooks_core::mcp::{
    git_root, merge_deep, read_text, replace_unsafe, Mangling, McpScope, McpServer, McpServers,
};
use serde_json::{Map, Value};
use toml_edit::{DocumentMut, Item};

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
    let mut merged: Vec<(String, Value, PathBuf)> = Vec::new();
    for file in config_files(scope) {
        let Some(text) = read_text(&file) else { continue };
        let doc = match text.parse::<DocumentMut>() {
            Ok(d) => d,
            Err(e) => {
                tracing::warn!(path = %file.display(), error = %e, "malformed MCP config; skipped");
                continue;
            }
        };
        let Some(Value::Object(servers)) = doc.get("mcp_servers").map(item_json) else {
            continue;
        };
        for (name, entry) in servers {
            match merged.iter_mut().find(|(n, _, _)| *n == name) {
                Some((_, v, src)) => {
                    merge_deep(v, entry);
                    src.clone_from(&file);
                }
                None => merged.push((name, entry, file.clone())),
            }
        }
    }
    let mut out = McpServers::default();
    for (name, entry, src) in merged {
        if let Some(s) = McpServer::from_json(&name, &entry, &src, &|v| v.to_owned()) {
            out.insert(s);
        }
    }
    out
}

/// A TOML item as JSON (datetimes as their text).
fn item_json(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Value(v) => value_json(v),
        Item::Table(t) => Value::Object(t.iter().map(|(k, v)| (k.to_owned(), item_json(v))).collect()),
        Item::ArrayOfTables(a) => Value::Array(
            a.iter()
                .map(|t| Value::Object(t.iter().map(|(k, v)| (k.to_owned(), item_json(v))).collect()))
                .collect(),
        ),
    }
}

fn value_json(v: &toml_edit::Value) -> Value {
    use toml_edit::Value as T;
    match v {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::from(*i.value()),
        T::Float(f) => serde_json::Number::from_f64(*f.value()).map_or(Value::Null, Value::Number),
        T::Boolean(b) => Value::Bool(*b.value()),
        T::Datetime(d) => Value::String(d.value().to_string()),
        T::Array(a) => Value::Array(a.iter().map(value_json).collect()),
        T::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), value_json(v)))
                .collect::<Map<_, _>>(),
        ),
    }
}
