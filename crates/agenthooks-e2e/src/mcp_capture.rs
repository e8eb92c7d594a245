//! MCP capture: the `mcp` scenario's run becomes a case of the MCP attribution corpus
//! (`fixtures/<provider>/mcp/`, checked by `agenthooks_testkit::mcp::assert_corpus`).
//!
//! `agenthooks-e2e capture-mcp --agent <a>` (or `AGENTHOOKS_E2E_CAPTURE=1` on an `mcp` run)
//! writes `mcp/captured/<version>/`:
//!
//! - `project/…` and `home/…`: the agent's MCP config files as they were after the run (the
//!   files [`crate::agents::declare_mcp`] wrote or edited, with what the agent added), the
//!   run's project and home rewritten to `{dir}/captured/<version>/project` and `…/home` (the
//!   corpus expands `{dir}`), the rest of the run's directory to `/tmp/e2e` and the test hook
//!   to `/tmp/e2e/bin/agenthooks-e2e-hook`;
//! - `<snake_event>.json`: the first payload of each native tool event of the MCP call, as the
//!   agent sent it, the run's directory rewritten to `/tmp/e2e` (a bridge's call also keeps the
//!   connection state the frames before it left, as `conn`);
//!
//! and replaces the scenario named `captured: <agent> <version> …` in `cases.json`: the servers
//! the run declared (exactly the stub, from the file it was declared in) and one call per
//! payload, which must resolve to [`SERVER`] / [`TOOL`] over stdio with the stub's command and
//! arguments. Those expectations are what the run declared, not what the resolver says: a
//! resolver that disagrees with the real agent fails the corpus.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::agents::{AgentId, AgentSpec};
use crate::mcp_stub::{SERVER, TOOL};
use crate::scenario::RunReport;

/// The env vars naming config locations inside the sandbox home that the corpus scenario
/// passes on (rewritten), per agent.
fn location_vars(agent: AgentId) -> &'static [&'static str] {
    match agent {
        AgentId::Codex => &["CODEX_HOME"],
        AgentId::Kimi => &["KIMI_CODE_HOME"],
        AgentId::OpenClaw => &["OPENCLAW_CONFIG_PATH"],
        _ => &[],
    }
}

/// Rewrites a run's paths: `project` and `home` to the fixture's (`None`: left to the root
/// rule), the rest of `root` (also in the slug form agents derive from paths) to `/tmp/e2e`,
/// and the hook binary to `/tmp/e2e/bin/agenthooks-e2e-hook`.
struct Rewrite {
    root: String,
    hook: String,
    fixture: Option<(String, String)>,
}

impl Rewrite {
    fn apply(&self, text: &str) -> String {
        let mut t = text.replace(&self.hook, "/tmp/e2e/bin/agenthooks-e2e-hook");
        if let Some((project, home)) = &self.fixture {
            t = t
                .replace(&format!("{}/proj", self.root), project)
                .replace(&format!("{}/home", self.root), home);
        }
        let t = t
            .replace(&self.root, "/tmp/e2e")
            .replace(&self.root.replace('/', "-"), "-tmp-e2e");
        fixed_ports(&t)
    }
}

/// `http://127.0.0.1:<port>` (the run's fake model) as `http://127.0.0.1:8765`, so a recapture
/// does not differ by the port alone.
fn fixed_ports(text: &str) -> String {
    const HOST: &str = "http://127.0.0.1:";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(HOST) {
        let after = &rest[i + HOST.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        out.push_str(&rest[..i + HOST.len()]);
        out.push_str(if digits > 0 { "8765" } else { "" });
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// Writes the run as `mcp/captured/<version>/` and its scenario in `cases.json`; returns the
/// files written. Fails when the run has no MCP tool event (nothing to capture).
pub fn capture_mcp(
    agent: &AgentSpec,
    report: &RunReport,
    fixtures: &Path,
    hook_bin: &Path,
) -> Result<Vec<PathBuf>, String> {
    let (Some(sb), Some(stub)) = (&report.sandbox, &report.mcp) else {
        return Err("not an mcp run with a sandbox".into());
    };
    let mcp_dir = fixtures.join(agent.provider).join("mcp");
    let rel = format!("captured/{}", agent.version);
    let dir = mcp_dir.join(&rel);
    let fixture_project = format!("{{dir}}/{rel}/project");
    let fixture_home = format!("{{dir}}/{rel}/home");
    let root = sb.root.display().to_string();
    let hook = hook_bin.display().to_string();
    let config = Rewrite {
        root: root.clone(),
        hook: hook.clone(),
        fixture: Some((fixture_project.clone(), fixture_home.clone())),
    };
    let payload = Rewrite {
        root,
        hook,
        fixture: None,
    };
    let mut records: Vec<(String, String, serde_json::Map<String, Value>)> = Vec::new();
    for e in crate::scenario::mcp_tool_records(report, &stub.run_env) {
        let native = e.record.native_name().to_owned();
        if !records.iter().any(|(n, _, _)| *n == native) {
            records.push((native, e.record.payload.clone(), e.conn));
        }
    }
    if records.is_empty() {
        return Err("the run has no MCP tool event to capture".into());
    }
    let _ = std::fs::remove_dir_all(&dir);
    let mut written = Vec::new();
    let mut declared_in = String::new();
    for (i, f) in stub.files.iter().enumerate() {
        let (base, sub) = if let Ok(r) = f.strip_prefix(&sb.project) {
            ("project", r)
        } else if let Ok(r) = f.strip_prefix(&sb.home) {
            ("home", r)
        } else {
            continue;
        };
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let out = dir.join(base).join(sub);
        write(&out, &config.apply(&text))?;
        if i == 0 {
            declared_in = format!("{rel}/{base}/{}", sub.display());
        }
        written.push(out);
    }
    let framed = matches!(agent.id, AgentId::OpenCode | AgentId::OpenClaw);
    let mut calls = Vec::new();
    let command = "/tmp/e2e/bin/agenthooks-e2e-mcp";
    let args = json!(["--log", "/tmp/e2e/mcp.jsonl"]);
    for (native, text, conn) in records {
        let name = format!("{}.json", crate::capture::snake(&native));
        let out = dir.join(&name);
        write(&out, &(payload.apply(text.trim_end()) + "\n"))?;
        written.push(out);
        let mut call = json!({"payload": format!("{rel}/{name}"), "event": native});
        if framed {
            call["frame"] = json!(true);
        }
        if !conn.is_empty() {
            let text = payload.apply(&Value::Object(conn).to_string());
            call["conn"] = serde_json::from_str(&text).unwrap_or(Value::Null);
        }
        for (k, v) in [
            ("server", json!(SERVER)),
            ("tool", json!(TOOL)),
            ("transport", json!("stdio")),
            ("command", json!(command)),
            ("args", args.clone()),
            ("source", json!(declared_in)),
        ] {
            call[k] = v;
        }
        calls.push(call);
    }
    let mut env = serde_json::Map::new();
    for (k, v) in &stub.run_env {
        if location_vars(agent.id).contains(&k.as_str()) {
            env.insert(k.clone(), json!(config.apply(v)));
        }
    }
    let scenario = json!({
        "name": format!("captured: {} {}, the e2e mcp run (agenthooks-e2e capture-mcp): server {SERVER} declared in {declared_in}", agent.name, agent.version),
        "root": format!("{rel}/project"),
        "home": format!("{rel}/home"),
        "env": env,
        "servers": [{"name": SERVER, "transport": "stdio", "command": command, "args": args, "enabled": true, "source": declared_in}],
        "calls": calls,
    });
    let cases = mcp_dir.join("cases.json");
    update_cases(&cases, agent, scenario)?;
    written.push(cases);
    Ok(written)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(|e| format!("creating {}: {e}", p.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Replaces (or appends) the agent's captured scenario of this version in `cases.json`,
/// keeping the other scenarios as they are.
fn update_cases(path: &Path, agent: &AgentSpec, scenario: Value) -> Result<(), String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|_| "{\"scenarios\": []}".into());
    let mut doc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let prefix = format!("captured: {} {},", agent.name, agent.version);
    let list = doc["scenarios"]
        .as_array_mut()
        .ok_or("cases.json has no scenarios array")?;
    list.retain(|s| !s["name"].as_str().is_some_and(|n| n.starts_with(&prefix)));
    list.push(scenario);
    write(path, &format_cases(&doc))
}

/// `cases.json` in the corpus's layout: one line per server and per call.
pub fn format_cases(doc: &Value) -> String {
    use std::fmt::Write;
    let mut s = String::from("{\n");
    let top: Vec<(&String, &Value)> = doc.as_object().map(|m| m.iter().collect()).unwrap_or_default();
    for (ti, (k, v)) in top.iter().enumerate() {
        let last_top = ti + 1 == top.len();
        if *k == "scenarios" {
            let _ = writeln!(s, "  \"scenarios\": [");
            let list = v.as_array().cloned().unwrap_or_default();
            for (si, sc) in list.iter().enumerate() {
                s.push_str("    {\n");
                let fields: Vec<(&String, &Value)> = sc.as_object().map(|m| m.iter().collect()).unwrap_or_default();
                for (fi, (fk, fv)) in fields.iter().enumerate() {
                    let comma = if fi + 1 == fields.len() { "" } else { "," };
                    match fv {
                        Value::Array(items) if !items.is_empty() => {
                            let _ = writeln!(s, "      {}: [", json!(fk));
                            for (ii, it) in items.iter().enumerate() {
                                let c = if ii + 1 == items.len() { "" } else { "," };
                                let _ = writeln!(s, "        {}{c}", compact(it));
                            }
                            let _ = writeln!(s, "      ]{comma}");
                        }
                        other => {
                            let _ = writeln!(s, "      {}: {}{comma}", json!(fk), compact(other));
                        }
                    }
                }
                let c = if si + 1 == list.len() { "" } else { "," };
                let _ = writeln!(s, "    }}{c}");
            }
            let _ = writeln!(s, "  ]{}", if last_top { "" } else { "," });
        } else {
            let _ = writeln!(s, "  {}: {}{}", json!(k), compact(v), if last_top { "" } else { "," });
        }
    }
    s.push_str("}\n");
    s
}

/// One-line JSON with a space after `:` and `,` (the corpus's hand-written style).
fn compact(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let inner: Vec<String> = m.iter().map(|(k, v)| format!("{}: {}", json!(k), compact(v))).collect();
            format!("{{{}}}", inner.join(", "))
        }
        Value::Array(a) => {
            let inner: Vec<String> = a.iter().map(compact).collect();
            format!("[{}]", inner.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_fixture_dirs_then_the_root_then_slugs() {
        let r = Rewrite {
            root: "/w/run-1".into(),
            hook: "/t/debug/agenthooks-e2e-hook".into(),
            fixture: Some(("{dir}/c/project".into(), "{dir}/c/home".into())),
        };
        assert_eq!(
            r.apply(r#"{"p": "/w/run-1/proj", "h": "/w/run-1/home/.codex", "b": "/w/run-1/bin/x", "s": "-w-run-1-proj", "k": "/t/debug/agenthooks-e2e-hook run"}"#),
            r#"{"p": "{dir}/c/project", "h": "{dir}/c/home/.codex", "b": "/tmp/e2e/bin/x", "s": "-tmp-e2e-proj", "k": "/tmp/e2e/bin/agenthooks-e2e-hook run"}"#
        );
        assert_eq!(
            fixed_ports("a http://127.0.0.1:39109/v1 b http://127.0.0.1:/x http://127.0.0.1:1"),
            "a http://127.0.0.1:8765/v1 b http://127.0.0.1:/x http://127.0.0.1:8765"
        );
    }

    #[test]
    fn cases_keep_one_line_per_entry_and_round_trip() {
        let doc = json!({"_note": "n", "scenarios": [{"name": "a", "env": {}, "servers": [{"name": "s", "args": ["x"]}], "calls": []}]});
        let text = format_cases(&doc);
        assert!(
            text.contains("        {\"name\": \"s\", \"args\": [\"x\"]}\n"),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Value>(&text).expect("valid JSON"), doc);
    }
}
