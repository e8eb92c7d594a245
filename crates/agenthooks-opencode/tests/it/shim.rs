//! Runs the shim's Node tests (`tests/shim/*.test.mjs`, Node's built-in runner) when `node` is on
//! `PATH`: deadlines, crash/respawn, concurrent calls, in-place replies, event filtering.

use std::path::Path;
use std::process::Command;

#[test]
#[allow(clippy::print_stderr)] // the skip notice
fn the_shim_passes_its_node_tests() {
    let Some(node) =
        std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join("node")).find(|n| n.is_file()))
    else {
        eprintln!("the_shim_passes_its_node_tests: skipped (no `node` on PATH)");
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shim");
    let out = Command::new(node).arg("--test").arg(&dir).output().expect("node runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "node --test {}:\n{text}", dir.display());
    assert!(text.contains("# fail 0"), "{text}");
}

/// With the real `serve` as the daemon (this process, the OpenCode codec, a router that denies
/// `rm`, fail-closed) behind two FIFOs: tool calls whose args carry a lone surrogate or 3000-deep
/// nesting (frames `serde_json` refuses; `JSON.stringify` writes them) are decided at once —
/// denied, or blocked by the failure policy — never by the shim's deadline; a clean call passes.
#[cfg(unix)]
#[test]
#[allow(clippy::print_stderr)] // the skip notice
fn the_real_daemon_answers_a_frame_serde_json_refuses_at_once() {
    use agenthooks_core::decision::{deny, no_decision};
    use agenthooks_core::{Context, Policy, Router, ToolPreEvent};
    use agenthooks_opencode::CODEC;
    use agenthooks_runtime::{serve, FrameSink, RunOptions, Runner};
    const DRIVER: &str = r#"
import agenthooks from "SHIM";
const command = JSON.parse(process.env.DAEMON);
const bridge = agenthooks.createBridge({ command, hello: { serverUrl: "", directory: "", worktree: "", projectID: "p" } });
const hooks = agenthooks.hooksFor(bridge, { "tool.execute.before": { timeoutMs: 20000, fail: "closed" } }, {});
let deep = [];
for (let i = 0; i < 3000; i++) deep = [deep];
const steps = [];
for (const args of [{ command: "rm -rf /", description: "x \ud800 y" }, { command: "rm -rf /", deep }, { command: "ls" }]) {
  const t = Date.now();
  let error = null;
  try {
    await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: `c${steps.length}` }, { args });
  } catch (e) {
    error = String(e.message);
  }
  steps.push({ error, ms: Date.now() - t });
}
await bridge.stop(2000);
console.log(JSON.stringify({ steps }));
"#;
    let Some(node) =
        std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join("node")).find(|n| n.is_file()))
    else {
        eprintln!("the_real_daemon_answers_a_frame_serde_json_refuses_at_once: skipped (no `node` on PATH)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("agenthooks-opencode-real-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let (fin, fout) = (dir.join("in.fifo"), dir.join("out.fifo"));
    for f in [&fin, &fout] {
        let ok = Command::new("mkfifo").arg(f).status().is_ok_and(|s| s.success());
        assert!(ok, "mkfifo {}", f.display());
    }
    let state = dir.join("state");
    let (fin2, fout2) = (fin.clone(), fout.clone());
    let server = std::thread::spawn(move || {
        let router =
            Router::new()
                .with_policy(Policy::default().fail_closed())
                .on_tool_pre(|_: &Context, e: &ToolPreEvent| match e.tool.command() {
                    Some(c) if c.starts_with("rm") => deny("no rm"),
                    _ => no_decision(),
                });
        let runner = Runner::new(router, vec![&CODEC]).with_options(RunOptions::default().with_state_dir(state));
        let input = std::fs::File::open(&fin2).expect("open the input fifo");
        let output = std::fs::OpenOptions::new()
            .write(true)
            .open(&fout2)
            .expect("open the output fifo");
        let out: FrameSink = std::sync::Arc::new(std::sync::Mutex::new(Box::new(output)));
        let env: Vec<(String, String)> = Vec::new();
        serve(&runner, &CODEC, &mut std::io::BufReader::new(input), &out, &env);
    });
    let script = format!("cat '{}' & exec cat > '{}'", fout.display(), fin.display());
    let daemon = serde_json::json!(["/bin/sh", "-c", script, "sh"]).to_string();
    let shim = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/shim.js");
    let driver = DRIVER.replace("SHIM", &format!("file://{}", shim.display()));
    std::fs::write(dir.join("driver.mjs"), driver).expect("write driver");
    let o = Command::new(node)
        .arg(dir.join("driver.mjs"))
        .env("DAEMON", daemon)
        .output()
        .expect("running node");
    assert!(
        o.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    server.join().expect("serve ends at the shim's end of input");
    let out: serde_json::Value = serde_json::from_slice(&o.stdout).expect("driver output");
    let steps = out["steps"].as_array().cloned().unwrap_or_default();
    assert_eq!(steps.len(), 3, "{out}");
    for s in &steps[..2] {
        let error = s["error"].as_str().unwrap_or_default();
        assert!(
            !error.is_empty() && !error.contains("no answer from agenthooks"),
            "the daemon blocked it: {s}"
        );
        assert!(s["ms"].as_u64().is_some_and(|ms| ms < 2000), "at once: {s}");
    }
    assert_eq!(steps[2]["error"], serde_json::Value::Null, "{}", steps[2]);
    let _ = std::fs::remove_dir_all(&dir);
}
