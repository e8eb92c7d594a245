//! The MCP attribution corpus: `fixtures/<provider>/mcp/cases.json` drives one check per agent.
//!
//! Each provider directory holds fixture projects (`project/`, `home/`, …) with MCP servers
//! declared in the agent's config files, and `cases.json`:
//!
//! ```json
//! {"scenarios": [{
//!   "name": "project over user",
//!   "root": "project", "home": "home", "env": {"CODEX_HOME": "{dir}/codex-home"},
//!   "servers": [{"name": "gh", "transport": "stdio", "command": "npx", "args": ["gh"],
//!                "enabled": true, "source": "project/.mcp.json"}],
//!   "calls": [{"payload": "../docs/post_tool_use-mcp", "server": "gh", "tool": "get_issue",
//!              "transport": "stdio", "source": "project/.mcp.json"},
//!             {"payload": "payloads/underscore.json", "event": "PreToolUse", "server": "my_server", …}]
//! }]}
//! ```
//!
//! `root`/`home` are relative to the `mcp/` directory, which is checked on a temporary copy
//! where `{dir}` (in config files, env values and expectations) is the copy's absolute path.
//! `servers` is exactly what the provider's loader lists (as `agenthooks mcp` prints it,
//! sources relative to `mcp/`). A call's `payload` is a fixture case directory (decoded with
//! its `meta.toml`) or a JSON file decoded as the native `event` (a documented shape, marked
//! so in its `_note` key; `"frame": true` sends it as a `serve` frame, `conn` presets the
//! connection state, e.g. the server names a `config` frame left). It must resolve to `server`
//! and `tool`, and, when given, to `transport`, `url`, `command`, `args` and `source`; a call
//! with `"server": null` must not resolve.

use std::path::{Path, PathBuf};

use agenthooks_core::mcp::{McpScope, ResolvedMcp};
use agenthooks_core::{Codec, ConnState, Invocation, Transport};
use serde_json::Value;

use crate::fixture::Fixture;

/// Runs every scenario of the provider's `cases.json` and panics listing each mismatch;
/// returns the number of checked calls.
pub fn assert_corpus(codec: &dyn Codec, provider_dir: &str) -> usize {
    let dir = crate::fixtures_dir(provider_dir).join("mcp");
    let (calls, failures) = check_corpus(codec, &dir);
    assert!(failures.is_empty(), "{}:\n{}", dir.display(), failures.join("\n"));
    assert!(calls > 0, "{}: no calls checked", dir.display());
    calls
}

/// Checks the corpus under `dir` (a provider's `mcp/` directory): the number of calls checked
/// and every mismatch.
pub fn check_corpus(codec: &dyn Codec, dir: &Path) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let Some(loader) = codec.mcp_loader() else {
        return (0, vec![format!("{}: the codec has no MCP loader", codec.provider())]);
    };
    let src = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
    // Config files may name absolute paths (`{dir}`): the checks run on a copy.
    let work = crate::TempDir::new("mcp-corpus");
    let abs = std::fs::canonicalize(&work.0).unwrap_or_else(|_| work.0.clone());
    if let Err(e) = copy_tree(&src, &abs, &abs.display().to_string()) {
        return (0, vec![format!("copying {}: {e}", src.display())]);
    }
    let text = match std::fs::read_to_string(abs.join("cases.json")) {
        Ok(t) => t,
        Err(e) => return (0, vec![format!("cases.json: {e}")]),
    };
    let cases: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => return (0, vec![format!("cases.json: {e}")]),
    };
    let mut checked = 0;
    for sc in cases["scenarios"].as_array().into_iter().flatten() {
        let name = sc["name"].as_str().unwrap_or("?");
        let scope = scope_of(sc, &abs);
        let listed: Vec<Value> = loader(&scope).iter().map(|s| relative(s.to_json(), &abs)).collect();
        let want = sc["servers"].as_array().cloned().unwrap_or_default();
        if listed != want {
            failures.push(format!(
                "[{name}] servers:\n  want {}\n  got  {}",
                Value::Array(want),
                Value::Array(listed)
            ));
        }
        for call in sc["calls"].as_array().into_iter().flatten() {
            checked += 1;
            let payload = call["payload"].as_str().unwrap_or_default();
            match resolve(codec, &src.join(payload), call, &scope) {
                Err(e) => failures.push(format!("[{name}] {payload}: {e}")),
                Ok(got) => {
                    if let Some(m) = mismatch(call, got.as_ref(), &abs) {
                        failures.push(format!("[{name}] {payload}: {m}"));
                    }
                }
            }
        }
    }
    (checked, failures)
}

fn copy_tree(from: &Path, to: &Path, dir: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type()?.is_dir() {
            copy_tree(&src, &dst, dir)?;
        } else {
            std::fs::write(&dst, std::fs::read_to_string(&src)?.replace("{dir}", dir))?;
        }
    }
    Ok(())
}

fn scope_of(sc: &Value, abs: &Path) -> McpScope {
    let dir = abs.display().to_string();
    let mut scope = McpScope::new(abs.join(sc["root"].as_str().unwrap_or("project")))
        .with_home(abs.join(sc["home"].as_str().unwrap_or("home")));
    let env: Vec<(String, String)> = sc["env"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().replace("{dir}", &dir)))
                .collect()
        })
        .unwrap_or_default();
    scope = scope.with_env(env);
    scope
}

fn relative(mut v: Value, abs: &Path) -> Value {
    if let Some(src) = v.get("source").and_then(Value::as_str) {
        let rel = Path::new(src)
            .strip_prefix(abs)
            .map_or_else(|_| src.to_owned(), |p| p.display().to_string());
        v["source"] = rel.into();
    }
    v
}

fn resolve(codec: &dyn Codec, payload: &Path, call: &Value, scope: &McpScope) -> Result<Option<ResolvedMcp>, String> {
    let decoded = if payload.is_dir() {
        Fixture::load(payload).map_err(|e| e.to_string())?.decode(codec)
    } else {
        let bytes = std::fs::read(payload).map_err(|e| format!("{}: {e}", payload.display()))?;
        let env: [(&str, &str); 0] = [];
        let conn = ConnState::default();
        for (k, v) in call["conn"].as_object().into_iter().flatten() {
            conn.set(k.clone(), v.clone());
        }
        let transport = if call["frame"].as_bool() == Some(true) {
            Transport::Frame
        } else {
            Transport::Stdin
        };
        let inv = Invocation::new(bytes, &env)
            .with_native_event(call["event"].as_str())
            .with_transport(transport)
            .with_conn(Some(&conn));
        codec.decode(&inv)
    }
    .map_err(|e| format!("decode: {e}"))?;
    let tool = decoded.tool().ok_or("the event carries no tool call")?;
    Ok(tool.mcp.as_ref().and_then(|m| m.resolve_in(scope)))
}

fn mismatch(call: &Value, got: Option<&ResolvedMcp>, abs: &Path) -> Option<String> {
    let Some(r) = got else {
        return (!call["server"].is_null()).then(|| format!("want server {} but nothing resolved", call["server"]));
    };
    if call["server"].is_null() {
        return Some(format!("want no resolution, got {}", r.server.name));
    }
    let mut have = relative(r.server.to_json(), abs);
    have["server"] = r.server.name.clone().into();
    have["tool"] = r.tool.clone().into();
    let src = PathBuf::from(have["source"].as_str().unwrap_or_default());
    have["source"] = src.display().to_string().into();
    let keys = ["server", "tool", "transport", "url", "command", "args", "source"];
    let wrong: Vec<String> = keys
        .iter()
        .filter(|k| !call[**k].is_null() && call[**k] != have[**k])
        .map(|k| format!("{k}: want {} got {}", call[*k], have[*k]))
        .collect();
    (!wrong.is_empty()).then(|| wrong.join("; "))
}
