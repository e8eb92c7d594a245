//! Per-frame cost of `serve` mode: frames/s and latency of a `tool.pre` round trip through the
//! shim's protocol (NDJSON frames over the daemon's stdio, exactly what the shim writes), with
//! the process-per-event `run` mode of the same codec and router as the baseline.
//!
//! ```text
//! cargo run --release -p agenthooks-opencode --example serve_bench [-- FRAMES]
//! ```
//!
//! The same binary is the hook: `serve_bench agenthooks serve --provider=opencode` and
//! `serve_bench agenthooks run --provider=opencode` (a handler that denies `rm` and allows the
//! rest, so every frame goes through decode, dispatch, degrade and encode).

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks_core::decision::{deny, no_decision};
use agenthooks_core::{Context, Router, ToolPreEvent};
use agenthooks_runtime::{main_with, Runner};

fn router() -> Router {
    Router::new().on_tool_pre(|_: &Context, e: &ToolPreEvent| {
        if e.tool.command().is_some_and(|c| c.starts_with("rm")) {
            deny("no rm")
        } else {
            no_decision()
        }
    })
}

fn frame(seq: usize, session: usize) -> String {
    format!(
        r#"{{"seq":{seq},"hook":"tool.execute.before","timeout_ms":30000,"input":{{"tool":"bash","sessionID":"ses_{session}","callID":"call_{seq}"}},"output":{{"args":{{"command":"echo {seq}","description":"bench"}}}}}}"#
    )
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn report(name: &str, mut rtts: Vec<Duration>, wall: Duration) {
    rtts.sort();
    #[allow(clippy::cast_precision_loss)]
    let rate = rtts.len() as f64 / wall.as_secs_f64();
    println!(
        "{name:<44} n={:<6} {rate:>9.0} frames/s  p50 {:>8.1} µs  p99 {:>8.1} µs  max {:>8.1} µs",
        rtts.len(),
        percentile(&rtts, 0.50).as_secs_f64() * 1e6,
        percentile(&rtts, 0.99).as_secs_f64() * 1e6,
        rtts.last().copied().unwrap_or_default().as_secs_f64() * 1e6,
    );
}

/// This binary as the OpenCode hook in `mode` (`serve` or `run`), stdin and stdout piped.
fn hook(exe: &Path, state: &Path, mode: &str) -> Child {
    Command::new(exe)
        .args(["agenthooks", mode, "--provider=opencode"])
        .env("AGENTHOOKS_STATE_DIR", state)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {mode}: {e}"))
}

fn main() {
    let runner = Runner::new(router(), vec![&agenthooks_opencode::CODEC]);
    main_with(&runner); // returns only when argv has no `agenthooks` word
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let exe = std::env::current_exe().expect("current exe");
    let state = std::env::temp_dir().join(format!("agenthooks-serve-bench-{}", std::process::id()));

    // serve: one daemon, frames over its stdio.
    let mut child = hook(&exe, &state, "serve");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let mut roundtrip = |frame: &str| {
        let t = Instant::now();
        input.write_all(frame.as_bytes()).expect("write");
        input.write_all(b"\n").expect("write");
        input.flush().expect("flush");
        line.clear();
        output.read_line(&mut line).expect("read");
        t.elapsed()
    };
    for i in 0..200 {
        roundtrip(&frame(i, 0)); // warm-up
    }
    let start = Instant::now();
    let rtts: Vec<Duration> = (0..n).map(|i| roundtrip(&frame(i, 0))).collect();
    report("serve, one in flight (tool.pre round trip)", rtts, start.elapsed());

    // serve: 8 sessions × in flight at once (the shim's concurrent calls), correlated by seq.
    let window = 8;
    let start = Instant::now();
    let mut sent = std::collections::HashMap::new();
    let mut rtts = Vec::with_capacity(n);
    let mut next = 0;
    while rtts.len() < n {
        while next < n && sent.len() < window {
            let seq = 1_000_000 + next;
            sent.insert(seq, Instant::now());
            input.write_all(frame(seq, next % window).as_bytes()).expect("write");
            input.write_all(b"\n").expect("write");
            next += 1;
        }
        input.flush().expect("flush");
        line.clear();
        output.read_line(&mut line).expect("read");
        let v: serde_json::Value = serde_json::from_str(&line).expect("reply frame");
        let seq = usize::try_from(v["seq"].as_u64().expect("seq")).expect("seq");
        if let Some(t) = sent.remove(&seq) {
            rtts.push(t.elapsed());
        }
    }
    report("serve, 8 sessions in flight", rtts, start.elapsed());
    drop(input);
    let _ = child.wait();

    // baseline: `run`, one process per event (what the stdin agents do).
    let m = (n / 20).clamp(50, 300);
    let start = Instant::now();
    let rtts: Vec<Duration> = (0..m)
        .map(|i| {
            let t = Instant::now();
            let mut c = hook(&exe, &state, "run");
            c.stdin
                .take()
                .expect("stdin")
                .write_all(frame(i, 0).as_bytes())
                .expect("write");
            let out = c.wait_with_output().expect("wait");
            assert!(out.status.success());
            t.elapsed()
        })
        .collect();
    report("baseline: run, one process per event", rtts, start.elapsed());
    let _ = std::fs::remove_dir_all(&state);
}
