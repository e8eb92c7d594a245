//! Performance figures for the README (issue: facade, example and benchmarks). Prints ratios
//! against baselines measured in the same run; no assertion on time (this machine is noisy).
//!
//! `cargo bench -p agenthooks-example --bench perf` (`PERF_PAIRS`, `PERF_N`: blocks and invocations
//! per block; `PERF_ONLY=process`: the whole-process part only; `PERF_BEFORE=<binary>`: another
//! build of secret-guard as a fourth interleaved subject; `PERF_PROFILE=<case>`: only `PERF_N`
//! untimed calls of one in-process case, for `valgrind --tool=callgrind` — cases `output-nothing`,
//! `output-all`, `keys-nothing`, `keys-all`, `keys-text` (the 10 MiB tool output, the 100k-key
//! input))
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

/// One process under test: its command and every sample taken.
struct Subject {
    label: &'static str,
    cmd: Command,
    wall: Vec<Duration>,
    usage: Vec<Usage>,
}

impl Subject {
    fn new(label: &'static str, cmd: Command) -> Self {
        Self {
            label,
            cmd,
            wall: Vec::new(),
            usage: Vec::new(),
        }
    }

    fn run(&mut self, payload: &[u8]) {
        let (d, u) = spawn_once(&mut self.cmd, payload);
        self.wall.push(d);
        self.usage.push(u);
    }

    /// The median wall time of the samples from `from` on (one block).
    fn block_median(&self, from: usize) -> Duration {
        median(&mut self.wall[from..].to_vec())
    }

    fn report(&self) {
        let u = |f: fn(&Usage) -> i64| median_i(self.usage.iter().map(f).collect());
        let peak = self.usage.iter().map(|u| u.maxrss_kib).max().unwrap_or(0);
        println!(
            "  {:<30} {:>7.3} ms  peak RSS {:>5} KiB (median {:>5})  minflt {:>4}  ctxsw vol {:>2} invol {:>2}  cpu {:>5} µs",
            self.label,
            median(&mut self.wall.clone()).as_secs_f64() * 1e3,
            peak,
            u(|u| u.maxrss_kib),
            u(|u| u.minflt),
            u(|u| u.nvcsw),
            u(|u| u.nivcsw),
            u(|u| u.cpu_us),
        );
    }
}

/// The whole-process bench: the library hook, the minimal hand-written hook and a bare spawn,
/// interleaved invocation by invocation (the order rotates so none always runs first), in
/// `PERF_PAIRS` blocks of `PERF_N` invocations each. Each block gives one ratio of medians; the
/// spread of those ratios over the blocks is what the machine's noise does to the figure.
fn process_round_trip() {
    let pairs = env_usize("PERF_PAIRS", 9).max(1);
    let n = env_usize("PERF_N", 100).max(1);
    let guard = env!("CARGO_BIN_EXE_secret-guard");
    let base = env!("CARGO_BIN_EXE_guard-baseline");
    let state = std::env::temp_dir().join("agenthooks-perf-bench");
    let mut ours = Command::new(guard);
    ours.args(["agenthooks", "run", "--provider=claude-code", "--event=PreToolUse"])
        .env("AGENTHOOKS_STATE_DIR", &state);
    let mut subjects = vec![
        Subject::new("secret-guard (all codecs)", ours),
        Subject::new("hand-written serde_json hook", Command::new(base)),
        Subject::new("bare spawn (`true`)", Command::new("true")),
    ];
    // `PERF_BEFORE=<path to another build of secret-guard>`: a fourth subject, interleaved with
    // the others, for a before/after figure in one run.
    let before = std::env::var_os("PERF_BEFORE");
    if let Some(p) = &before {
        let mut c = Command::new(p);
        c.args(["agenthooks", "run", "--provider=claude-code", "--event=PreToolUse"])
            .env("AGENTHOOKS_STATE_DIR", &state);
        subjects.push(Subject::new("PERF_BEFORE secret-guard", c));
    }
    for _ in 0..20 {
        for s in &mut subjects {
            s.run(PRE.as_bytes());
        }
    }
    for s in &mut subjects {
        s.wall.clear();
        s.usage.clear();
    }
    let (mut ratio, mut net, mut vs_before) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..pairs {
        let from = subjects[0].wall.len();
        for i in 0..n {
            let m = subjects.len();
            for k in 0..m {
                subjects[(i + k) % m].run(PRE.as_bytes());
            }
        }
        let [a, b, c] = [0, 1, 2].map(|k| subjects[k].block_median(from).as_secs_f64());
        ratio.push(a / b);
        net.push((a - c) / (b - c).max(1e-9));
        if let Some(d) = subjects.get(3) {
            vs_before.push(a / d.block_median(from).as_secs_f64());
        }
    }
    println!(
        "whole-process round trip, Claude PreToolUse with a planted key ({pairs} blocks of {n} interleaved invocations each)"
    );
    for s in &subjects {
        s.report();
    }
    println!(
        "  ratio secret-guard / hand-written hook, min / median / max over blocks: {}",
        spread(&mut ratio)
    );
    println!(
        "  same, net of the bare spawn ((a - spawn) / (b - spawn)):              {}",
        spread(&mut net)
    );
    if !vs_before.is_empty() {
        println!(
            "  ratio secret-guard / PERF_BEFORE, min / median / max over blocks:    {}",
            spread(&mut vs_before)
        );
    }
    let peak = |s: &Subject| s.usage.iter().map(|u| u.maxrss_kib).max().unwrap_or(0);
    println!(
        "  peak RSS ratio: {:.2}x",
        peak(&subjects[0]) as f64 / peak(&subjects[1]).max(1) as f64
    );
    let size = |p: &str| std::fs::metadata(p).map_or(0, |m| m.len());
    println!(
        "  binary size: secret-guard {:.2} MiB, baseline {:.2} MiB",
        size(guard) as f64 / 1048576.0,
        size(base) as f64 / 1048576.0
    );
}

fn post_payload(bytes: usize) -> Vec<u8> {
    let out = "x".repeat(bytes);
    format!(
        r#"{{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{{"command":"cat big"}},"tool_response":{{"stdout":"{out}","stderr":"","interrupted":false}},"tool_use_id":"toolu_1"}}"#
    )
    .into_bytes()
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
