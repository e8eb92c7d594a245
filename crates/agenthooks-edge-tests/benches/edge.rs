//! Whole-process benchmark of the runner (issue: "≤ 1.10× a hand-written serde_json hook").
//!
//! Spawns `test-hook` (built on the runner, deny decision) and `baseline-hook` (hand-written
//! serde_json) alternately, N times each, and prints medians and the ratio measured in this run.
//! Run: `cargo bench -p agenthooks-edge-tests --bench edge`.
#![allow(
    clippy::print_stdout,
    missing_docs,
    clippy::many_single_char_names,
    clippy::doc_markdown
)]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks_testkit::process::output_of;

const PAYLOAD: &[u8] = br#"{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x","description":"cleanup"},"tool_use_id":"toolu_1"}"#;

fn once(cmd: &mut Command) -> Duration {
    let start = Instant::now();
    let out = output_of(cmd.stdout(Stdio::piped()).stderr(Stdio::null()), PAYLOAD).expect("run");
    let d = start.elapsed();
    assert!(
        out.stdout.starts_with(b"{\"decision\":\"deny\""),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    d
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let n: usize = std::env::var("EDGE_BENCH_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let state = std::env::temp_dir().join("agenthooks-edge-bench");
    let mut ours = Command::new(env!("CARGO_BIN_EXE_test-hook"));
    ours.args(["agenthooks", "run", "--provider=alpha"])
        .env("TEST_BEHAVIOR", "deny")
        .env("AGENTHOOKS_STATE_DIR", &state);
    let mut base = Command::new(env!("CARGO_BIN_EXE_baseline-hook"));
    let mut bare = Command::new("true");
    // warm up
    for _ in 0..20 {
        once(&mut ours);
        once(&mut base);
    }
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        a.push(once(&mut ours));
        b.push(once(&mut base));
        let s = Instant::now();
        let _ = bare.stdin(Stdio::null()).stdout(Stdio::null()).status();
        c.push(s.elapsed());
    }
    let (ma, mb, mc) = (median(&mut a), median(&mut b), median(&mut c));
    println!("edge bench ({n} runs each, interleaved)");
    println!("  bare process spawn (true):  {:>8.3} ms", mc.as_secs_f64() * 1e3);
    println!("  hand-written serde_json:    {:>8.3} ms", mb.as_secs_f64() * 1e3);
    println!("  agenthooks runner:          {:>8.3} ms", ma.as_secs_f64() * 1e3);
    println!(
        "  ratio runner / baseline:    {:>8.3}x",
        ma.as_secs_f64() / mb.as_secs_f64()
    );
    println!(
        "  overhead over bare spawn:   runner {:.3} ms, baseline {:.3} ms",
        (ma.saturating_sub(mc)).as_secs_f64() * 1e3,
        (mb.saturating_sub(mc)).as_secs_f64() * 1e3
    );
}
