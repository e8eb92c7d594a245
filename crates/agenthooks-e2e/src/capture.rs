//! Capture mode (`AGENTHOOKS_E2E_CAPTURE=1`): the payloads the real agents sent become fixtures,
//! so the corpus tracks real agent versions.
//!
//! Each hook call of a run is written to `<fixtures>/<provider>/<agent version>/<case>/` as
//! `input.json` (the payload as the agent sent it, with the run's temp directory rewritten to
//! `/tmp/e2e`) and `meta.toml` (native event, transport, source, argv, the agent's env var
//! names with placeholder values). The case is `<snake_event>-e2e-<scenario>`. A payload whose
//! shape (keys and value types, recursively) equals one already in the version directory for
//! the same event is skipped, and existing cases are never overwritten. The first run of a
//! version that leaves a transcript also writes it as `transcript.jsonl` ([`transcript`]; never
//! overwritten), the input of the transcript readers' goldens. `<fixtures>` is
//! `$AGENTHOOKS_E2E_FIXTURES`, else the workspace's `fixtures/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::agents::AgentSpec;
use crate::hook::HookRecord;

/// Env: turn capture on.
pub const CAPTURE_ENV: &str = "AGENTHOOKS_E2E_CAPTURE";
/// Env: where fixtures go.
pub const FIXTURES_ENV: &str = "AGENTHOOKS_E2E_FIXTURES";

/// Whether capture mode is on.
pub fn enabled() -> bool {
    std::env::var(CAPTURE_ENV).is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

/// The fixtures root.
pub fn fixtures_root() -> PathBuf {
    std::env::var_os(FIXTURES_ENV).filter(|v| !v.is_empty()).map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures"),
        PathBuf::from,
    )
}

/// `preToolUse` / `PreToolUse` → `pre_tool_use`.
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out
}

/// The shape of a JSON value: keys and value types, recursively (arrays by their first item).
pub fn shape(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::Number(_) => "number".into(),
        Value::String(_) => "string".into(),
        Value::Array(a) => format!("[{}]", a.first().map(shape).unwrap_or_default()),
        Value::Object(m) => {
            let sorted: BTreeMap<&String, String> = m.iter().map(|(k, v)| (k, shape(v))).collect();
            let inner: Vec<String> = sorted.into_iter().map(|(k, s)| format!("{k}:{s}")).collect();
            format!("{{{}}}", inner.join(","))
        }
    }
}

/// The env var names worth keeping for a provider (the agent's own), with placeholder values.
fn env_table(agent: &AgentSpec, names: &[String], payload: &Value) -> Vec<(String, String)> {
    let session = payload
        .get("session_id")
        .or_else(|| payload.get("sessionId"))
        .and_then(Value::as_str)
        .unwrap_or("1")
        .to_owned();
    let prefixes: &[&str] = match agent.provider {
        "claude-code" => &["CLAUDE", "ANTHROPIC"],
        "codex" => &["CODEX"],
        "gemini" => &["GEMINI", "GOOGLE_GEMINI", "CLAUDE_PROJECT_DIR"],
        "copilot" => &["COPILOT", "CLAUDE_PROJECT_DIR"],
        "kimi" => &["KIMI"],
        _ => &[],
    };
    names
        .iter()
        .filter(|n| prefixes.iter().any(|p| n.starts_with(p)))
        .map(|n| {
            let v = match n.as_str() {
                "COPILOT_CLI_BINARY_VERSION" => agent.version.to_owned(),
                n if n.ends_with("_PROJECT_DIR") || n == "GEMINI_CWD" => "/tmp/e2e/proj".to_owned(),
                // The hook's env agrees with the payload's session.
                n if n.ends_with("_SESSION_ID") => session.clone(),
                n if n.ends_with("_HOME") => "/tmp/e2e/home".to_owned(),
                n if n.ends_with("_BASE_URL") => "http://127.0.0.1:8765".to_owned(),
                n if n.ends_with("_KEY") => "placeholder".to_owned(),
                _ => "1".to_owned(),
            };
            (n.clone(), v)
        })
        .collect()
}

/// The committed fixture directory of `agent`'s version: `fixtures/<provider>/<version>`, or a
/// directory named `<something>-<version>` (Gemini's `gemini-cli-0.61.0`).
pub fn version_dir(fixtures: &Path, agent: &AgentSpec) -> Option<PathBuf> {
    let base = fixtures.join(agent.provider);
    let exact = base.join(agent.version);
    if exact.is_dir() {
        return Some(exact);
    }
    let suffix = format!("-{}", agent.version);
    std::fs::read_dir(&base)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.is_dir() && p.file_name().is_some_and(|f| f.to_string_lossy().ends_with(&suffix)))
}

/// Writes the run's payloads as fixtures; returns the case directories written.
pub fn capture(
    agent: &AgentSpec,
    scenario: &str,
    records: &[HookRecord],
    run_root: &Path,
    fixtures: &Path,
) -> Result<Vec<PathBuf>, String> {
    // The committed directory when there is one (Gemini's pin is `gemini-cli-<version>`).
    let dir = version_dir(fixtures, agent).unwrap_or_else(|| fixtures.join(agent.provider).join(agent.version));
    let kept = dir.join("transcript.jsonl");
    if !kept.exists() {
        if let Some(t) = transcript(records, run_root) {
            std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
            std::fs::write(&kept, t).map_err(|e| format!("writing {}: {e}", kept.display()))?;
        }
    }
    let mut seen: Vec<(String, String)> = existing_shapes(&dir);
    let root = run_root.display().to_string();
    let mut written = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let native = r.native_name().to_owned();
        if native.is_empty() {
            continue;
        }
        // The run's temp root, also in the slug form agents derive from paths
        // (`-tmp-…-proj` in Claude's transcript directory).
        let text = r
            .payload
            .trim_end()
            .replace(&root, "/tmp/e2e")
            .replace(&root.replace('/', "-"), "-tmp-e2e");
        let Ok(v) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let sig = shape(&v);
        if seen.iter().any(|(n, s)| *n == native && *s == sig) {
            continue;
        }
        let case = dir.join(format!("{}-e2e-{}", snake(&native), scenario));
        if case.exists() {
            continue;
        }
        std::fs::create_dir_all(&case).map_err(|e| format!("creating {}: {e}", case.display()))?;
        std::fs::write(case.join("input.json"), &text).map_err(|e| format!("writing {}: {e}", case.display()))?;
        let mut meta = toml_edit::DocumentMut::new();
        meta["native_event"] = toml_edit::value(native.as_str());
        // The bridges (OpenCode's shim, OpenClaw's plugin) hand the daemon frames.
        let transport = match agent.id {
            crate::agents::AgentId::OpenCode | crate::agents::AgentId::OpenClaw => "frame",
            _ => "stdin",
        };
        meta["transport"] = toml_edit::value(transport);
        // A payload-dependent kind (a failed call on a post-tool event is `tool.error`).
        if let (Some(kind), Some(codec)) = (r.kind.as_deref(), agent.codec()) {
            if codec.kind_of(&native).as_str() != kind {
                meta["kind"] = toml_edit::value(kind);
            }
        }
        meta["variant"] = toml_edit::value("");
        meta["source"] = toml_edit::value(format!(
            "agenthooks-e2e capture: {} {}, scenario {}, hook call {}",
            agent.name,
            agent.version,
            scenario,
            i + 1
        ));
        let argv: Vec<String> = r
            .line
            .get("argv")
            .and_then(Value::as_array)
            .map(|a| a.iter().skip(1).filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        let mut arr = toml_edit::Array::new();
        for a in argv {
            arr.push(a);
        }
        meta["argv"] = toml_edit::value(arr);
        let mut env = toml_edit::Table::new();
        for (k, v) in env_table(agent, &r.env_names, &v) {
            env[k.as_str()] = toml_edit::value(v);
        }
        meta["env"] = toml_edit::Item::Table(env);
        std::fs::write(case.join("meta.toml"), meta.to_string())
            .map_err(|e| format!("writing {}: {e}", case.display()))?;
        seen.push((native, sig));
        written.push(case);
    }
    Ok(written)
}

/// The run's transcript with its run root rewritten to `/tmp/e2e`: the file the payloads point
/// at (`transcript_path` / `transcriptPath`) when it lies inside the run's directory, else the
/// session file an agent keeps without naming it (Kimi Code's
/// `…/sessions/…/agents/main/wire.jsonl` under the sandbox home).
pub fn transcript(records: &[HookRecord], root: &Path) -> Option<String> {
    let roots = root.display().to_string();
    let named = records.iter().rev().find_map(|r| {
        let v = r.payload_json()?;
        let p = v
            .get("transcript_path")
            .or_else(|| v.get("transcriptPath"))
            .and_then(Value::as_str)?
            .to_owned();
        Path::new(&p).starts_with(root).then(|| PathBuf::from(p))
    });
    let path = named.or_else(|| find_main_wire(&root.join("home"), 0))?;
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        text.replace(&roots, "/tmp/e2e")
            .replace(&roots.replace('/', "-"), "-tmp-e2e"),
    )
}

/// `agents/main/wire.jsonl` somewhere under `dir` (a few levels deep).
fn find_main_wire(dir: &Path, depth: usize) -> Option<PathBuf> {
    let wire = dir.join("agents").join("main").join("wire.jsonl");
    if wire.is_file() {
        return Some(wire);
    }
    if depth >= 6 {
        return None;
    }
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    subdirs.sort();
    subdirs.into_iter().find_map(|d| find_main_wire(&d, depth + 1))
}

/// `(native event, shape)` of every case already in a version directory.
fn existing_shapes(dir: &Path) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let meta = std::fs::read_to_string(e.path().join("meta.toml")).ok()?;
            let doc: toml_edit::DocumentMut = meta.parse().ok()?;
            let native = doc.get("native_event")?.as_str()?.to_owned();
            let input: Value =
                serde_json::from_str(&std::fs::read_to_string(e.path().join("input.json")).ok()?).ok()?;
            Some((native, shape(&input)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn snake_case_names() {
        assert_eq!(snake("PreToolUse"), "pre_tool_use");
        assert_eq!(snake("preToolUse"), "pre_tool_use");
        assert_eq!(snake("userPromptSubmitted"), "user_prompt_submitted");
        assert_eq!(snake("BeforeToolSelection"), "before_tool_selection");
    }

    #[test]
    fn shapes_ignore_values_not_keys() {
        assert_eq!(
            shape(&json!({"b": 1, "a": ["x"]})),
            shape(&json!({"a": ["y", "z"], "b": 2}))
        );
        assert_ne!(shape(&json!({"a": 1})), shape(&json!({"a": "1"})));
        assert_ne!(shape(&json!({"a": 1})), shape(&json!({"a": 1, "b": null})));
    }

    #[test]
    fn writes_new_shapes_once_and_never_overwrites() {
        let tmp = std::env::temp_dir().join(format!("agenthooks-e2e-capture-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let agent = crate::agents::AgentSpec::get(crate::agents::AgentId::Copilot);
        let rec = |payload: &str| {
            HookRecord::from_value(json!({
                "provider": "copilot", "event_arg": "preToolUse", "payload": payload,
                "argv": ["/x/hook", "agenthooks", "run", "--provider=copilot", "--event=preToolUse"],
                "env_names": ["COPILOT_CLI_BINARY_VERSION", "PATH", "AGENTHOOKS_E2E_MODE"],
                "decoded": {"native": "preToolUse", "kind": "tool.pre"},
            }))
        };
        let root = Path::new("/tmp/run-1");
        let records = [
            rec(r#"{"cwd":"/tmp/run-1/proj","toolName":"bash","t":"/h/-tmp-run-1-proj/s.jsonl"}"#),
            rec(r#"{"cwd":"/other","toolName":"x","t":"y"}"#),
        ];
        let written = capture(agent, crate::scenario::Scenario::Deny.name(), &records, root, &tmp).expect("capture");
        assert_eq!(written.len(), 1, "the second payload has the same shape");
        let case = tmp.join("copilot/1.0.102/pre_tool_use-e2e-deny");
        assert_eq!(written[0], case);
        assert_eq!(
            std::fs::read_to_string(case.join("input.json")).expect("input"),
            r#"{"cwd":"/tmp/e2e/proj","toolName":"bash","t":"/h/-tmp-e2e-proj/s.jsonl"}"#
        );
        let meta = std::fs::read_to_string(case.join("meta.toml")).expect("meta");
        assert!(meta.contains("native_event = \"preToolUse\""), "{meta}");
        assert!(
            meta.contains("argv = [\"agenthooks\", \"run\", \"--provider=copilot\", \"--event=preToolUse\"]"),
            "{meta}"
        );
        assert!(meta.contains("COPILOT_CLI_BINARY_VERSION = \"1.0.102\""), "{meta}");
        assert!(
            !meta.contains("PATH") && !meta.contains("AGENTHOOKS_E2E_MODE"),
            "{meta}"
        );
        // A rerun finds the shape on disk and writes nothing.
        assert!(
            capture(agent, crate::scenario::Scenario::Context.name(), &records, root, &tmp)
                .expect("capture")
                .is_empty()
        );
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
