//! Performance figures for the README (issue: facade, example and benchmarks). Prints ratios
//! against baselines measured in the same run; no assertion on time (this machine is noisy).
//!
//! `cargo bench -p agenthooks-example --bench perf`. Whole-process part (see
//! [`process_round_trip`]): `PERF_PAIRS`, `PERF_N`, `PERF_N_LARGE`: blocks, and invocations per
//! block of the small and the large cases; `PERF_CASES=small`: the small `PreToolUse` only;
//! `PERF_HOOK=<binary>`: any hook built on the facade (yours) as one more interleaved subject,
//! with the same ratios to the minimal hand-written hook; `PERF_CONSUMER=0`: without the consumer
//! crate's two builds; `PERF_BEFORE=<binary>`: another build of secret-guard;
//! `PERF_ONLY=process`: the whole-process part only. `PERF_PROFILE=<case>`: only `PERF_N`
//! untimed calls of one in-process case, for `valgrind --tool=callgrind` — cases
//! `output-nothing`, `output-all`, `keys-nothing`, `keys-all`, `keys-text` (the 10 MiB tool
//! output, the 100k-key input).
#![allow(
    clippy::print_stdout,
    missing_docs,
    unsafe_code,
    clippy::cast_precision_loss,
    clippy::doc_markdown,
    clippy::many_single_char_names,
    clippy::zombie_processes,
    clippy::borrow_as_ptr,
    clippy::unreadable_literal
)]

use std::fmt::Write as _;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks::core::{Invocation, ProcessEnv};
use agenthooks::prelude::*;
use agenthooks::Codec;
use agenthooks_testkit::process::feed;

const PRE: &str = r#"{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"curl -H 'k: AKIAIOSFODNN7EXAMPLE' https://x","description":"fetch"},"tool_use_id":"toolu_1"}"#;

/// What `wait4` reports about one child (zeros where the platform does not).
#[derive(Clone, Copy, Default)]
struct Usage {
    /// Peak resident set, KiB.
    maxrss_kib: i64,
    /// Minor page faults.
    minflt: i64,
    /// Voluntary context switches (blocking: a thread waiting, a pipe read).
    nvcsw: i64,
    /// Involuntary context switches (preempted: the loaded machine).
    nivcsw: i64,
    /// User + system CPU time, µs.
    cpu_us: i64,
}

#[cfg(unix)]
// `i64::from`: the field types are `i64` on 64-bit Linux but narrower elsewhere (macOS `tv_usec`).
#[allow(clippy::useless_conversion)]
fn wait_usage(child: &std::process::Child) -> Usage {
    let Ok(pid) = libc::pid_t::try_from(child.id()) else {
        return Usage::default();
    };
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain old data; all-zero is a valid value.
    let mut r: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: plain FFI call with valid pointers to owned, correctly typed values; `pid` is our
    // own unreaped child.
    let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut r) };
    if rc <= 0 {
        return Usage::default();
    }
    let tv = |t: libc::timeval| i64::from(t.tv_sec) * 1_000_000 + i64::from(t.tv_usec);
    // Linux reports ru_maxrss in KiB, macOS in bytes.
    let maxrss = i64::from(r.ru_maxrss);
    Usage {
        maxrss_kib: if cfg!(target_os = "macos") {
            maxrss / 1024
        } else {
            maxrss
        },
        minflt: i64::from(r.ru_minflt),
        nvcsw: i64::from(r.ru_nvcsw),
        nivcsw: i64::from(r.ru_nivcsw),
        cpu_us: tv(r.ru_utime) + tv(r.ru_stime),
    }
}

#[cfg(not(unix))]
fn wait_usage(child: &std::process::Child) -> Usage {
    let _ = child;
    Usage::default()
}

/// Spawns, writes the payload, closes stdin, reaps the child: wall time and its rusage.
fn spawn_once(cmd: &mut Command, payload: &[u8]) -> (Duration, Usage) {
    let start = Instant::now();
    // A bare `true` may exit before reading: a broken pipe is fine there (`feed` ignores it).
    let child = feed(cmd.stdout(Stdio::null()).stderr(Stdio::null()), payload).expect("spawn");
    #[cfg(not(unix))]
    let child = {
        let mut child = child;
        let _ = child.wait();
        child
    };
    let u = wait_usage(&child);
    (start.elapsed(), u)
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn median_f(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn median_i(mut v: Vec<i64>) -> i64 {
    v.sort_unstable();
    v[v.len() / 2]
}

/// `min / median / max` of a list of ratios.
fn spread(v: &mut [f64]) -> String {
    let m = median_f(v);
    format!("{:.3} / {:.3} / {:.3}", v[0], m, v[v.len() - 1])
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// One process under test: its program, whether it takes the runner's argv, and every sample
/// taken in the current case.
struct Subject {
    label: String,
    program: std::path::PathBuf,
    /// Called as `<program> agenthooks run --provider=claude-code --event=<event>`.
    hook: bool,
    wall: Vec<Duration>,
    usage: Vec<Usage>,
}

impl Subject {
    fn new(label: impl Into<String>, program: impl Into<std::path::PathBuf>, hook: bool) -> Self {
        Self {
            label: label.into(),
            program: program.into(),
            hook,
            wall: Vec::new(),
            usage: Vec::new(),
        }
    }

    fn run(&mut self, event: &str, payload: &[u8]) {
        let mut cmd = Command::new(&self.program);
        if self.hook {
            cmd.args(["agenthooks", "run", "--provider=claude-code"])
                .arg(format!("--event={event}"))
                .env(
                    "AGENTHOOKS_STATE_DIR",
                    std::env::temp_dir().join("agenthooks-perf-bench"),
                );
        }
        let (d, u) = spawn_once(&mut cmd, payload);
        self.wall.push(d);
        self.usage.push(u);
    }

    fn clear(&mut self) {
        self.wall.clear();
        self.usage.clear();
    }

    /// The median wall time of the samples from `from` on (one block).
    fn block_median(&self, from: usize) -> Duration {
        median(&mut self.wall[from..].to_vec())
    }

    fn peak_rss(&self) -> i64 {
        self.usage.iter().map(|u| u.maxrss_kib).max().unwrap_or(0)
    }

    fn report(&self) {
        let u = |f: fn(&Usage) -> i64| median_i(self.usage.iter().map(f).collect());
        println!(
            "  {:<34} {:>8.3} ms  peak RSS {:>6} KiB (median {:>6})  minflt {:>5}  ctxsw vol {:>2} invol {:>2}  cpu {:>6} µs",
            self.label,
            median(&mut self.wall.clone()).as_secs_f64() * 1e3,
            self.peak_rss(),
            u(|u| u.maxrss_kib),
            u(|u| u.minflt),
            u(|u| u.nvcsw),
            u(|u| u.nivcsw),
            u(|u| u.cpu_us),
        );
    }
}

/// The consumer crate (`consumer/`): a hook crate written and built as README's "Building your
/// hook" says (`cargo build --release`, its own release profile and `build.rs`), in
/// `<target>/consumer`; the binary is copied to `consumer-hook-<variant>` there. `None` (after a
/// message) when the build fails.
fn build_consumer(variant: &str, features: &[&str]) -> Option<std::path::PathBuf> {
    let manifest_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| manifest_dir.join("../../target"), std::path::PathBuf::from)
        .join("consumer");
    println!("building the consumer hook ({variant}) with `cargo build --release` …");
    let _ = std::io::stdout().flush();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(manifest_dir.join("consumer/Cargo.toml"))
        .args(features)
        .env("CARGO_TARGET_DIR", &target)
        // The bench's own build settings are not the hook author's.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .status();
    let bin = target.join(format!("release/consumer-hook-{variant}"));
    if !status.is_ok_and(|s| s.success()) || std::fs::copy(target.join("release/consumer-hook"), &bin).is_err() {
        println!("  the consumer build ({variant}) failed; skipped");
        return None;
    }
    Some(bin)
}

/// One whole-process case: a payload and the event it is sent as.
struct Case {
    label: &'static str,
    event: &'static str,
    payload: fn() -> Vec<u8>,
    /// Invocations per block.
    n: usize,
}

/// The whole-process bench: hook binaries, the minimal hand-written hook and a bare spawn,
/// interleaved invocation by invocation (the order rotates so none always runs first), in
/// `PERF_PAIRS` blocks per case. Each block gives one ratio of medians per hook against the
/// hand-written hook; the spread of those ratios over the blocks is what the machine's noise
/// does to the figure.
///
/// Subjects: the secret guard (all codecs, its ordered link); the consumer crate in two
/// variants (`PERF_CONSUMER=0` skips them); `PERF_HOOK=<binary>`, any hook built on the facade
/// (a hook author's own build); `PERF_BEFORE=<binary>`, another build of the secret guard.
/// Cases: a small Claude `PreToolUse` (`PERF_N` invocations per block), a `PostToolUse` with a
/// 100k-key tool input and one with a 10 MiB tool output (`PERF_N_LARGE`), none of which the
/// consumer has a handler for; `PERF_CASES=small` runs the first only.
fn process_round_trip() {
    let pairs = env_usize("PERF_PAIRS", 9).max(1);
    let n = env_usize("PERF_N", 100).max(1);
    let n_large = env_usize("PERF_N_LARGE", 20).max(1);
    let guard = env!("CARGO_BIN_EXE_secret-guard");
    let base = env!("CARGO_BIN_EXE_guard-baseline");
    let mut hooks = vec![Subject::new("secret-guard (all codecs)", guard, true)];
    if std::env::var("PERF_CONSUMER").map_or(true, |v| v != "0") {
        let variants: [(&str, &str, &[&str]); 2] = [
            (
                "two",
                "consumer hook (claude + cursor)",
                &["--no-default-features", "--features", "two"],
            ),
            ("all", "consumer hook (all eight)", &[]),
        ];
        for (variant, label, features) in variants {
            if let Some(bin) = build_consumer(variant, features) {
                hooks.push(Subject::new(label, bin, true));
            }
        }
    }
    if let Some(p) = std::env::var_os("PERF_HOOK") {
        hooks.push(Subject::new("PERF_HOOK", p, true));
    }
    if let Some(p) = std::env::var_os("PERF_BEFORE") {
        hooks.push(Subject::new("PERF_BEFORE secret-guard", p, true));
    }
    let hooks_n = hooks.len();
    let mut subjects = hooks;
    subjects.push(Subject::new("hand-written serde_json hook", base, false));
    subjects.push(Subject::new("bare spawn (`true`)", "true", false));
    let (hand, spawn) = (hooks_n, hooks_n + 1);

    // Each payload is built when its case runs and dropped after it: a spawned child's peak RSS
    // (`wait4`) starts from the bench's own, so the small case runs with no large payload held.
    let mut cases: Vec<Case> = vec![Case {
        label: "small Claude PreToolUse with a planted key",
        event: "PreToolUse",
        payload: || PRE.as_bytes().to_vec(),
        n,
    }];
    if std::env::var("PERF_CASES").map_or(true, |v| v != "small") {
        cases.push(Case {
            label: "PostToolUse with a 100k-key tool input (consumer: no handler)",
            event: "PostToolUse",
            payload: || many_keys_post(100_000),
            n: n_large,
        });
        cases.push(Case {
            label: "PostToolUse with a 10 MiB tool output (consumer: no handler)",
            event: "PostToolUse",
            payload: || post_payload(10 << 20),
            n: n_large,
        });
    }

    for case in &cases {
        let payload = (case.payload)();
        for _ in 0..5 {
            for s in &mut subjects {
                s.run(case.event, &payload);
            }
        }
        for s in &mut subjects {
            s.clear();
        }
        let mut ratio = vec![Vec::new(); hooks_n];
        let mut net = vec![Vec::new(); hooks_n];
        for _ in 0..pairs {
            let from = subjects[0].wall.len();
            let m = subjects.len();
            for i in 0..case.n {
                for k in 0..m {
                    subjects[(i + k) % m].run(case.event, &payload);
                }
            }
            let b = subjects[hand].block_median(from).as_secs_f64();
            let c = subjects[spawn].block_median(from).as_secs_f64();
            for h in 0..hooks_n {
                let a = subjects[h].block_median(from).as_secs_f64();
                ratio[h].push(a / b);
                net[h].push((a - c) / (b - c).max(1e-9));
            }
        }
        println!(
            "whole-process round trip, {} ({} KiB; {pairs} blocks of {} interleaved invocations each)",
            case.label,
            payload.len() >> 10,
            case.n
        );
        for s in &subjects {
            s.report();
        }
        println!("  ratio to the hand-written hook, min / median / max over blocks (net of the bare spawn):");
        for h in 0..hooks_n {
            println!(
                "    {:<34} {}  ({})  peak RSS {:.2}x",
                subjects[h].label,
                spread(&mut ratio[h]),
                spread(&mut net[h]),
                subjects[h].peak_rss() as f64 / subjects[hand].peak_rss().max(1) as f64
            );
        }
        for s in &mut subjects {
            s.clear();
        }
    }
    let size = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.len());
    println!("  binary sizes:");
    for s in &subjects[..=hand] {
        println!("    {:<34} {:.2} MiB", s.label, size(&s.program) as f64 / 1048576.0);
    }
}

fn post_payload(bytes: usize) -> Vec<u8> {
    let out = "x".repeat(bytes);
    format!(
        r#"{{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{{"command":"cat big"}},"tool_response":{{"stdout":"{out}","stderr":"","interrupted":false}},"tool_use_id":"toolu_1"}}"#
    )
    .into_bytes()
}

/// A Claude `PostToolUse` whose tool input has `keys` keys.
fn many_keys_post(keys: usize) -> Vec<u8> {
    let mut s = String::from(
        r#"{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"mcp__db__insert","tool_use_id":"toolu_1","tool_response":{"ok":true},"tool_input":{"#,
    );
    for i in 0..keys {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, r#""k{i}":"v{i}""#);
    }
    s.push_str("}}");
    s.into_bytes()
}

fn many_keys_payload(keys: usize) -> Vec<u8> {
    let mut s = String::from(
        r#"{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"mcp__db__insert","tool_use_id":"toolu_1","tool_input":{"#,
    );
    for i in 0..keys {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, r#""k{i}":"v{i}""#);
    }
    s.push_str("}}");
    s.into_bytes()
}

/// The old baseline (its figures keep their meaning): a typed decode whose large parts are
/// `Value`s (a `Map` for the tool input).
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Plain {
    session_id: String,
    transcript_path: String,
    cwd: String,
    hook_event_name: String,
    tool_name: String,
    tool_input: serde_json::Value,
    #[serde(default)]
    tool_response: serde_json::Value,
    tool_use_id: String,
}

/// The real limit (issue #20): a typed decode that keeps the large parts as raw JSON slices.
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Raw {
    session_id: String,
    transcript_path: String,
    cwd: String,
    hook_event_name: String,
    tool_name: String,
    tool_input: Box<serde_json::value::RawValue>,
    #[serde(default)]
    tool_response: Option<Box<serde_json::value::RawValue>>,
    tool_use_id: String,
}

/// Bytes of every string and key in `v`: a handler that looks at all of its input.
fn weigh(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::String(s) => s.len(),
        serde_json::Value::Array(a) => a.iter().map(weigh).sum(),
        serde_json::Value::Object(m) => m.iter().map(|(k, v)| k.len() + weigh(v)).sum(),
        _ => 1,
    }
}

fn input_weight(m: &serde_json::Map<String, serde_json::Value>) -> usize {
    m.iter().map(|(k, v)| k.len() + weigh(v)).sum()
}

/// Handlers that read nothing of the input (the tool name only).
fn router_reads_nothing() -> Router {
    Router::new()
        .on_tool_post(|_cx: &Context, e: &ToolPostEvent| {
            if e.tool.name.is_empty() {
                flag_output("?")
            } else {
                observed()
            }
        })
        .on_tool_pre(|_cx: &Context, e: &ToolPreEvent| {
            if e.tool.name.is_empty() {
                deny("nameless")
            } else {
                no_decision()
            }
        })
}

/// Handlers that read every byte of the tool input (and the output, for `tool.post`).
fn router_reads_all() -> Router {
    Router::new()
        .on_tool_post(|_cx: &Context, e: &ToolPostEvent| {
            if input_weight(e.tool.input()) + weigh(&e.output) == 0 {
                flag_output("empty")
            } else {
                observed()
            }
        })
        .on_tool_pre(|_cx: &Context, e: &ToolPreEvent| {
            if input_weight(e.tool.input()) > usize::MAX / 2 {
                deny("too big")
            } else {
                no_decision()
            }
        })
}

/// A byte scan of raw JSON text: every byte of the input looked at, nothing built.
fn text_weight(text: &str) -> usize {
    text.bytes().filter(|b| *b == b'"').count()
}

/// Handlers that read every byte of the tool input (and the output) as the agent's raw text
/// (`ToolCall::raw_json`, `ToolPostEvent::output`'s text), the way the secret guard scans: no
/// tree, no map.
fn router_reads_text() -> Router {
    Router::new()
        .on_tool_post(|_cx: &Context, e: &ToolPostEvent| {
            if text_weight(e.tool.raw_json().get()) + text_weight(e.output.get()) == 0 {
                flag_output("empty")
            } else {
                observed()
            }
        })
        .on_tool_pre(|_cx: &Context, e: &ToolPreEvent| {
            if text_weight(e.tool.raw_json().get()) > usize::MAX / 2 {
                deny("too big")
            } else {
                no_decision()
            }
        })
}

/// Seconds per call of `f`: the median of 5 rounds of `iters` calls.
fn time_per_call<R>(iters: usize, mut f: impl FnMut() -> R) -> f64 {
    let _ = std::hint::black_box(f());
    let mut rounds: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                std::hint::black_box(f());
            }
            t.elapsed().as_secs_f64() / iters as f64
        })
        .collect();
    median_f(&mut rounds)
}

/// Like [`time_per_call`], each call consuming an input `setup` made before the timed loop
/// (outside it: the copy of a payload the subject takes by value, and its page faults, are the
/// stdin read's, which the borrowing baselines do not time either).
fn time_per_call_owned<T, R>(iters: usize, mut setup: impl FnMut() -> T, mut f: impl FnMut(T) -> R) -> f64 {
    let _ = std::hint::black_box(f(setup()));
    let mut rounds: Vec<f64> = (0..5)
        .map(|_| {
            let inputs: Vec<T> = (0..iters).map(|_| setup()).collect();
            let t = Instant::now();
            for input in inputs {
                std::hint::black_box(f(input));
            }
            t.elapsed().as_secs_f64() / iters as f64
        })
        .collect();
    median_f(&mut rounds)
}

/// MB/s of decode + dispatch + degrade + encode through the Claude codec with `router` (the
/// payload handed over as the runner hands over what it read from stdin: an owned buffer,
/// copied before the timed loop).
fn ours(payload: &[u8], router: &Router, iters: usize) -> f64 {
    let codec: &'static dyn Codec = &agenthooks::claude::CODEC;
    let env = ProcessEnv;
    let s = time_per_call_owned(
        iters,
        || payload.to_vec(),
        |buf| {
            let inv = Invocation::new(buf, &env);
            let mut ev = codec.decode(&inv).expect("decode");
            let cx = Context::default();
            let o = router.dispatch(&cx, &mut ev).expect("dispatch");
            let d = agenthooks::degrade(o, codec.event_capabilities(&ev), &Policy::default()).expect("degrade");
            codec.encode(&ev, &d.outcome).expect("encode")
        },
    );
    payload.len() as f64 / 1e6 / s
}

/// One untimed-for-print round of every subject of [`throughput`] (allocator warm-up).
fn throughput_quiet(payload: &[u8]) -> f64 {
    let iters = 2;
    let a = ours(payload, &router_reads_all(), iters);
    let b = time_per_call(iters, || serde_json::from_slice::<Raw>(payload).expect("raw"));
    a + b
}

/// One payload: the library with handlers reading nothing / everything against the two typed
/// decodes, each as MB/s, plus the ratios to the RawValue baseline.
fn throughput(label: &str, payload: &[u8]) {
    // About 8 MB per round: short enough for a loaded 2-core machine, long enough to time.
    let iters = (8_000_000 / payload.len()).clamp(2, 20_000);
    let mbs = |s: f64| payload.len() as f64 / 1e6 / s;
    let nothing = ours(payload, &router_reads_nothing(), iters);
    let all = ours(payload, &router_reads_all(), iters);
    let text = ours(payload, &router_reads_text(), iters);
    let plain = mbs(time_per_call(iters, || {
        serde_json::from_slice::<Plain>(payload).expect("plain")
    }));
    let raw = mbs(time_per_call(iters, || {
        serde_json::from_slice::<Raw>(payload).expect("raw")
    }));
    println!(
        "  {label:<20} {nothing:>8.1} {all:>8.1} {text:>8.1}  | {plain:>8.1} {raw:>8.1}  | {:>5.2}x {:>5.2}x {:>5.2}x {:>5.2}x",
        nothing / raw,
        all / raw,
        text / raw,
        nothing / plain,
    );
}

/// `PERF_PROFILE=<case>`: `PERF_N` (default 3) untimed calls of one in-process case, nothing else
/// (a profiler's view of where the time goes). `false` when the variable is unset.
fn profile_case() -> bool {
    let Ok(case) = std::env::var("PERF_PROFILE") else {
        return false;
    };
    let (payload, router) = match case.as_str() {
        "output-nothing" => (post_payload(10 << 20), router_reads_nothing()),
        "output-all" => (post_payload(10 << 20), router_reads_all()),
        "keys-nothing" => (many_keys_payload(100_000), router_reads_nothing()),
        "keys-all" => (many_keys_payload(100_000), router_reads_all()),
        "keys-text" => (many_keys_payload(100_000), router_reads_text()),
        other => panic!("PERF_PROFILE={other}: one of output-nothing, output-all, keys-nothing, keys-all, keys-text"),
    };
    let n = env_usize("PERF_N", 3).max(1);
    let codec: &'static dyn Codec = &agenthooks::claude::CODEC;
    let env = ProcessEnv;
    for _ in 0..n {
        let inv = Invocation::new(payload.clone(), &env);
        let mut ev = codec.decode(&inv).expect("decode");
        let o = router.dispatch(&Context::default(), &mut ev).expect("dispatch");
        let d = agenthooks::degrade(o, codec.event_capabilities(&ev), &Policy::default()).expect("degrade");
        std::hint::black_box(codec.encode(&ev, &d.outcome).expect("encode"));
    }
    true
}

fn main() {
    if profile_case() {
        return;
    }
    process_round_trip();
    // `PERF_ONLY=process`: the whole-process figures only.
    if std::env::var("PERF_ONLY").is_ok_and(|v| v == "process") {
        return;
    }
    let header = || {
        println!(
            "  {:<20} {:>8} {:>8} {:>8}  | {:>8} {:>8}  | {:>6} {:>6} {:>6} {:>6}",
            "MB/s", "nothing", "all", "text", "Value", "RawValue", "n/raw", "a/raw", "t/raw", "n/val"
        );
    };
    // Warm the allocator first: the first 10 MiB allocations of a process are fresh `mmap`s
    // (page faults on every page) until glibc raises its mmap threshold; without this the first
    // row's first subject (ours) paid that alone.
    let _ = throughput_quiet(&post_payload(10 << 20));
    println!(
        "\nin-process decode + dispatch + degrade + encode (Claude codec); handler reads nothing / all of the input"
    );
    println!(
        "(`all`: the parsed `input()` map and output value; `text`: a scan of every byte of their raw JSON text);"
    );
    println!("baselines: serde_json typed decode with `Value` large parts / with `Box<RawValue>` large parts");
    header();
    throughput("10 MiB tool output", &post_payload(10 << 20));
    throughput("100k-key tool input", &many_keys_payload(100_000));
    println!("\nscaling (tool output size; linear time = flat MB/s)");
    header();
    for (label, size) in [
        ("1 KiB", 1 << 10),
        ("10 KiB", 10 << 10),
        ("100 KiB", 100 << 10),
        ("1 MiB", 1 << 20),
        ("10 MiB", 10 << 20),
    ] {
        throughput(label, &post_payload(size));
    }
    println!("\nscaling (tool input keys)");
    header();
    for keys in [100, 1_000, 10_000, 100_000] {
        let p = many_keys_payload(keys);
        throughput(&format!("{keys} keys ({} KiB)", p.len() >> 10), &p);
    }
    let _ = std::io::stdout().flush();
}
