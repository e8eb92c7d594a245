//! Process-level tests: spawn the real `test-hook` binary (built on the runner) and assert the
//! exact stdout bytes and exit code under fail-open and fail-closed, for bad input, panics,
//! deadlines, stdout noise, a closed stdout and a payload from another agent.

mod bridge;
mod circles;
mod matrix;
#[path = "../support/serve.rs"]
mod serve_support;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Run {
    stdout: Vec<u8>,
    stderr: String,
    code: i32,
    elapsed: Duration,
}

fn state_dir(tag: &str) -> PathBuf {
    let d = state_dir_path(tag);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn state_dir_path(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("agenthooks-edge-{}-{tag}", std::process::id()))
}

fn run(args: &[&str], env: &[(&str, &str)], stdin: &[u8], tag: &str) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_test-hook"));
    cmd.arg("agenthooks")
        .args(args)
        .env("AGENTHOOKS_STATE_DIR", state_dir(tag))
        .env_remove("AGENTHOOKS_LOG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut sin = child.stdin.take().unwrap();
    let _ = sin.write_all(stdin);
    drop(sin);
    let out = child.wait_with_output().unwrap();
    Run {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
        elapsed: start.elapsed(),
    }
}

const PRE: &[u8] =
    br#"{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}"#;

fn both(args: &[&str], behavior: &str, stdin: &[u8], tag: &str) -> (Run, Run) {
    let open = run(
        args,
        &[("TEST_BEHAVIOR", behavior), ("TEST_FAIL", "open")],
        stdin,
        &format!("{tag}-o"),
    );
    let closed = run(
        args,
        &[("TEST_BEHAVIOR", behavior), ("TEST_FAIL", "closed")],
        stdin,
        &format!("{tag}-c"),
    );
    (open, closed)
}

/// fail-open answers the no-op; fail-closed answers exit 2 with the reason on stderr (alpha).
fn assert_failure_pair(open: &Run, closed: &Run, reason_part: &str) {
    assert_eq!(open.stdout, b"{}", "fail-open stdout");
    assert_eq!(open.code, 0);
    assert_eq!(closed.stdout, b"", "fail-closed stdout must be empty");
    assert_eq!(closed.code, 2);
    assert!(
        closed.stderr.contains(reason_part),
        "stderr {:?} lacks {reason_part:?}",
        closed.stderr
    );
}

const ARGS: &[&str] = &["run", "--provider=alpha", "--event=PreToolUse"];

#[test]
fn decisions_reach_the_wire_exactly() {
    let r = run(ARGS, &[("TEST_BEHAVIOR", "deny")], PRE, "deny");
    assert_eq!(r.stdout, br#"{"decision":"deny","reason":"blocked by test"}"#);
    assert_eq!(r.code, 0);
    let r = run(ARGS, &[("TEST_BEHAVIOR", "noop")], PRE, "noop");
    assert_eq!(r.stdout, b"{}");
    let r = run(ARGS, &[("TEST_BEHAVIOR", "context")], PRE, "ctx");
    assert_eq!(r.stdout, br#"{"context":["ctx from test"]}"#);
}

/// Payloads no codec can read: fail-open proceeds, fail-closed blocks with a reason that
/// names the problem.
#[test]
fn unreadable_payloads_fail_per_policy() {
    let rows: [(&str, &[u8], &str); 4] = [
        ("empty", b"", "empty payload"),
        ("malformed", b"{\"hook_event_name\": ", "syntax"),
        (
            "shape",
            br#"{"hook_event_name":"PreToolUse","tool_name":7}"#,
            "tool_name",
        ),
        ("utf8", b"{\"a\":\"\xff\xfe\"}", "UTF-8"),
    ];
    for (tag, payload, reason_part) in rows {
        let (o, c) = both(ARGS, "deny", payload, tag);
        assert_failure_pair(&o, &c, reason_part);
    }
}

#[test]
fn cap_plus_one_bytes() {
    let cap = PRE.len() - 1;
    let cap_s = cap.to_string();
    let open = run(
        ARGS,
        &[("TEST_BEHAVIOR", "deny"), ("TEST_STDIN_CAP", &cap_s)],
        PRE,
        "cap-o",
    );
    let closed = run(
        ARGS,
        &[
            ("TEST_BEHAVIOR", "deny"),
            ("TEST_FAIL", "closed"),
            ("TEST_STDIN_CAP", &cap_s),
        ],
        PRE,
        "cap-c",
    );
    assert_failure_pair(&open, &closed, "cap");
    // exactly at the cap is accepted
    let at = (PRE.len()).to_string();
    let r = run(
        ARGS,
        &[("TEST_BEHAVIOR", "deny"), ("TEST_STDIN_CAP", &at)],
        PRE,
        "cap-at",
    );
    assert!(r.stdout.starts_with(b"{\"decision\":\"deny\""));
}

#[test]
fn handler_panic() {
    let (o, c) = both(ARGS, "panic", PRE, "panic");
    assert_failure_pair(&o, &c, "boom in handler");
    assert!(
        !o.stderr.contains("panicked at"),
        "panic message leaked to stderr: {}",
        o.stderr
    );
}

#[test]
fn handler_error() {
    let (o, c) = both(ARGS, "error", PRE, "error");
    assert_failure_pair(&o, &c, "handler failed on purpose");
}

#[test]
fn handler_past_the_deadline() {
    let args = ["run", "--provider=alpha", "--event=PreToolUse", "--timeout=1"];
    let (o, c) = both(&args, "sleep", PRE, "sleep");
    assert_failure_pair(&o, &c, "deadline");
    for r in [&o, &c] {
        assert!(r.elapsed < Duration::from_secs(1), "answered after {:?}", r.elapsed);
        assert!(
            r.elapsed >= Duration::from_millis(850),
            "answered too early {:?}",
            r.elapsed
        );
    }
}

#[test]
fn handler_println_cannot_corrupt_stdout() {
    let r = run(ARGS, &[("TEST_BEHAVIOR", "println")], PRE, "println");
    assert_eq!(r.stdout, br#"{"decision":"deny","reason":"after noise"}"#);
    assert_eq!(r.code, 0);
    // alpha reserves stderr: the noise went to the log file, not stderr either
    assert!(!r.stderr.contains("noise"));
    // beta tolerates stderr: the noise goes there
    let beta_payload =
        br#"{"conversation_id":"c1","hook_event_name":"PreToolUse","tool_name":"Shell","tool_input":{}}"#;
    let r = run(
        &["run", "--provider=beta"],
        &[("TEST_BEHAVIOR", "println")],
        beta_payload,
        "println-b",
    );
    assert_eq!(r.stdout, br#"{"permission":"deny","reason":"after noise"}"#);
    assert!(r.stderr.contains("noise from a handler"));
}

#[test]
fn closed_stdout_is_not_a_crash() {
    for (fail, code) in [("open", 0), ("closed", 0)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_test-hook"))
            .args(["agenthooks", "run", "--provider=alpha"])
            .env("TEST_BEHAVIOR", "deny")
            .env("TEST_FAIL", fail)
            .env("AGENTHOOKS_STATE_DIR", state_dir("epipe"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes away: writes get EPIPE
        let mut sin = child.stdin.take().unwrap();
        sin.write_all(PRE).unwrap();
        drop(sin);
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn payload_from_another_agent_is_answered_in_its_dialect() {
    // A BOM-prefixed Cursor-like payload arriving under --provider=alpha.
    let mut payload = vec![0xEF, 0xBB, 0xBF];
    payload.extend_from_slice(
        br#"{"conversation_id":"c1","hook_event_name":"PreToolUse","tool_name":"Shell","tool_input":{"command":"ls"}}"#,
    );
    let r = run(
        &["run", "--provider=alpha"],
        &[("TEST_BEHAVIOR", "deny")],
        &payload,
        "mismatch",
    );
    assert_eq!(r.stdout, br#"{"permission":"deny","reason":"blocked by test"}"#);
    assert_eq!(r.code, 0);
}

#[test]
fn unknown_provider_and_usage() {
    let r = run(&["run", "--provider=nope"], &[], PRE, "unknown");
    assert_eq!(r.code, 1);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("not supported in this build"), "{}", r.stderr);
    let r = run(&["fly"], &[], PRE, "usage");
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    let r = run(&["ping"], &[], b"", "ping");
    assert_eq!(r.code, 0);
    assert!(String::from_utf8_lossy(&r.stdout).contains("\"pong\""));
}

#[test]
fn unknown_flags_are_ignored_and_logged() {
    let tag = "unknown-flag";
    let args = [
        "run",
        "--from-a-newer-release",
        "--provider=alpha",
        "--shiny=1",
        "--event=PreToolUse",
    ];
    let (r, log) = denied_with_log(&args, tag);
    // alpha reserves stderr: the notes went to the log file, never stdout or stderr
    assert!(!r.stderr.contains("shiny"), "{}", r.stderr);
    assert!(
        log.contains("--from-a-newer-release") && log.contains("--shiny=1"),
        "log: {log}"
    );
}

/// Runs the deny behaviour on an alpha `PreToolUse`, checks the deny went out, and returns the
/// run and the hook's log file.
fn denied_with_log(args: &[&str], tag: &str) -> (Run, String) {
    let r = run(args, &[("TEST_BEHAVIOR", "deny")], PRE, tag);
    assert_eq!(r.stdout, br#"{"decision":"deny","reason":"blocked by test"}"#);
    assert_eq!(r.code, 0);
    let log = std::fs::read_to_string(state_dir_path(tag).join("agenthooks.log")).unwrap_or_default();
    (r, log)
}

#[test]
fn a_repeated_flag_keeps_the_last_value_and_is_logged() {
    let tag = "repeated-flag";
    // beta's payload shape is certain, so use a neutral alpha payload: the last --provider wins
    let args = ["run", "--provider=beta", "--event=PreToolUse", "--provider=alpha"];
    let (_, log) = denied_with_log(&args, tag);
    assert!(
        log.contains("--provider") && log.contains("last value wins"),
        "log: {log}"
    );
}

#[test]
fn an_undetectable_provider_gets_no_opinion() {
    // no --provider, no agent env, a payload neither test codec recognises
    for (fail, tag) in [("open", "nodetect-o"), ("closed", "nodetect-c")] {
        let r = run(
            &["run"],
            &[("TEST_BEHAVIOR", "deny"), ("TEST_FAIL", fail)],
            br#"{"who":"knows"}"#,
            tag,
        );
        assert_eq!(r.stdout, b"{}", "stderr: {}", r.stderr);
        assert_eq!(r.code, 0);
        assert!(r.stderr.is_empty(), "{}", r.stderr);
    }
}

#[test]
fn continuation_cap_holds_across_processes() {
    let tag = "cont";
    let dir = state_dir(tag);
    let stop_first = br#"{"hook_event_name":"Stop","session_id":"s9","stop_hook_active":false}"#;
    let stop_again = br#"{"hook_event_name":"Stop","session_id":"s9","stop_hook_active":true}"#;
    let go = |payload: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_test-hook"))
            .args(["agenthooks", "run", "--provider=alpha"])
            .env("TEST_BEHAVIOR", "continue")
            .env("AGENTHOOKS_STATE_DIR", &dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(payload).unwrap();
        child.wait_with_output().unwrap().stdout
    };
    let cont = br#"{"decision":"block","reason":"keep going"}"#.to_vec();
    assert_eq!(go(stop_first), cont);
    for _ in 0..4 {
        assert_eq!(go(stop_again), cont);
    }
    // default cap is 5: the sixth continuation in a row is refused
    assert_eq!(go(stop_again), b"{}");
    // a fresh turn resets the counter
    assert_eq!(go(stop_first), cont);
}

mod serve {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use agenthooks_core::prelude::*;
    use agenthooks_core::ProcessEnv;
    use agenthooks_runtime::{serve, RunOptions, Runner};
    use serde_json::Value;

    use crate::serve_support::{serve_text, tool_frame, Sink};

    fn slow_deny(_: &Context, e: &ToolPreEvent) -> ToolPreDecision {
        if e.tool.command() == Some("slow") {
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        deny(format!("no {}", e.tool.command().unwrap_or("")))
    }

    #[test]
    fn frames_errors_order_and_eof() {
        let runner = Runner::new(
            Router::new().on_tool_pre(slow_deny),
            vec![&agenthooks_edge_tests::ALPHA],
        )
        .with_options(RunOptions::default().with_stdin_cap(300));
        let big = format!("{{\"seq\":9,\"pad\":\"{}\"}}", "x".repeat(400));
        let input = format!(
            "{}\n{}\nnot json\n{}\n\n{}\n",
            r#"{"seq":1,"hook":"tool","hook_event_name":"PreToolUse","session_id":"A","tool_name":"Bash","tool_input":{"command":"slow"}}"#,
            r#"{"seq":2,"hook":"tool","hook_event_name":"PreToolUse","session_id":"A","tool_name":"Bash","tool_input":{"command":"fast"}}"#,
            big,
            r#"{"seq":3,"hook":"tool","hook_event_name":"PreToolUse","session_id":"B","tool_name":"Bash","tool_input":{"command":"b"}}"#,
        );
        let text = serve_text(&runner, &input);
        let frames: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(frames.len(), 5, "{text}");
        let by_seq = |s: i64| frames.iter().find(|f| f["seq"] == s).cloned().unwrap();
        assert_eq!(by_seq(1)["output"]["reason"], "no slow");
        assert_eq!(by_seq(2)["output"]["reason"], "no fast");
        assert_eq!(by_seq(3)["output"]["reason"], "no b");
        // A line that is not a JSON object gets an error frame naming its line (no seq to read);
        // the oversize frame is answered per policy under the seq its first bytes carry.
        let errors: Vec<&Value> = frames.iter().filter(|f| f.get("error").is_some()).collect();
        assert_eq!(errors.len(), 1, "{text}");
        assert_eq!(
            (&errors[0]["seq"], &errors[0]["line"]),
            (&Value::Null, &Value::from(3)),
            "{text}"
        );
        assert_eq!(by_seq(9), serde_json::json!({"seq": 9, "output": {}}), "{text}");
        // serialized within session A: 1 answers before 2 even though 1 is slow
        let pos = |s: i64| frames.iter().position(|f| f["seq"] == s).unwrap();
        assert!(pos(1) < pos(2));
        // concurrent across sessions: B (fast) does not wait behind A's slow frame
        assert!(pos(3) < pos(2) || pos(3) < pos(1), "{text}");
    }

    /// The frame cap is the runner's stdin cap, per line without its newline: frames of cap - 1
    /// and cap bytes are answered, one of cap + 1 is not parsed (answered per policy under the
    /// seq its first bytes carry, at once), and the loop goes on.
    #[test]
    fn the_frame_cap_at_its_edge() {
        const CAP: usize = 300;
        let runner = Runner::new(
            Router::new().on_tool_pre(slow_deny),
            vec![&agenthooks_edge_tests::ALPHA],
        )
        .with_options(RunOptions::default().with_stdin_cap(CAP));
        let frame = |seq: usize, len: usize| {
            let head = format!(
                r#"{{"seq":{seq},"hook":"tool","hook_event_name":"PreToolUse","session_id":"A","tool_name":"Bash","tool_input":{{"command":"c{seq}"}},"pad":""#
            );
            let f = format!("{head}{}\"}}", "x".repeat(len - head.len() - 2));
            assert_eq!(f.len(), len);
            f
        };
        let input = format!(
            "{}\n{}\n{}\n{}\n",
            frame(1, CAP - 1),
            frame(2, CAP),
            frame(3, CAP + 1),
            frame(4, CAP)
        );
        let text = serve_text(&runner, &input);
        let frames: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(frames.len(), 4, "{text}");
        let reason = |seq: i64| {
            frames
                .iter()
                .find(|f| f["seq"] == seq)
                .map(|f| f["output"]["reason"].clone())
        };
        assert_eq!(reason(1), Some("no c1".into()), "{text}");
        assert_eq!(reason(2), Some("no c2".into()), "{text}");
        assert_eq!(reason(3), Some(Value::Null), "an oversize frame is not parsed: {text}");
        assert_eq!(reason(4), Some("no c4".into()), "{text}");
        let over = frames.iter().find(|f| f["seq"] == 3).unwrap();
        assert_eq!(over, &serde_json::json!({"seq": 3, "output": {}}), "fail-open: {text}");
        assert!(frames.iter().all(|f| !f["seq"].is_null()), "{text}");
    }

    fn behave(_: &Context, e: &ToolPreEvent) -> ToolPreDecision {
        match e.tool.command() {
            Some("sleep") => {
                std::thread::sleep(std::time::Duration::from_secs(5));
                deny("too late")
            }
            Some("panic") => panic!("boom in a frame"),
            _ => deny("fine"),
        }
    }

    fn keep_going(_: &Context, _: &StopEvent) -> StopDecision {
        continue_with("keep going")
    }

    fn serve_frames(policy: Policy, input: &str, tag: &str) -> (Vec<Value>, std::time::Duration) {
        let dir = std::env::temp_dir().join(format!("agenthooks-edge-serve-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let runner = Runner::new(
            Router::new()
                .with_policy(policy)
                .on_tool_pre(behave)
                .on_stop(keep_going),
            vec![&agenthooks_edge_tests::ALPHA],
        )
        .with_options(RunOptions::default().with_state_dir(&dir));
        let start = std::time::Instant::now();
        let text = serve_text(&runner, input);
        let took = start.elapsed();
        let frames = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        (frames, took)
    }

    #[test]
    fn a_frame_past_its_deadline_is_answered_per_policy_within_it() {
        // timeout_ms 1000 → the handlers get 900 ms; the handler sleeps 5 s
        let input = format!(
            "{}\n{}\n",
            tool_frame(1, "A", "sleep", r#","timeout_ms":1000"#),
            tool_frame(2, "A", "after", "")
        );
        let (frames, took) = serve_frames(Policy::default(), &input, "deadline-open");
        assert_eq!(frames.len(), 2, "{frames:?}");
        // fail-open: alpha's no-op; the session goes on
        assert_eq!(frames[0], serde_json::json!({"seq": 1, "output": {}}));
        assert_eq!(frames[1]["output"]["reason"], "fine");
        assert!(took < std::time::Duration::from_secs(2), "answered after {took:?}");

        let input = format!("{}\n", tool_frame(3, "B", "sleep", r#","timeout_ms":600"#));
        let (frames, took) = serve_frames(Policy::default().fail_closed(), &input, "deadline-closed");
        // fail-closed: alpha blocks with exit 2 + the reason, which a frame carries as `error`
        assert_eq!(frames.len(), 1);
        assert_eq!(frames[0]["seq"], 3);
        let err = frames[0]["error"].as_str().unwrap();
        assert!(err.contains("deadline"), "{err}");
        assert!(took < std::time::Duration::from_millis(1500), "answered after {took:?}");
    }

    #[test]
    fn a_panicking_frame_is_answered_per_policy() {
        let input = format!(
            "{}\n{}\n",
            tool_frame(1, "A", "panic", ""),
            tool_frame(2, "A", "after", "")
        );
        let (frames, _) = serve_frames(Policy::default(), &input, "panic-open");
        assert_eq!(frames[0], serde_json::json!({"seq": 1, "output": {}}));
        assert_eq!(frames[1]["output"]["reason"], "fine");
        let (frames, _) = serve_frames(Policy::default().fail_closed(), &input, "panic-closed");
        let err = frames[0]["error"].as_str().unwrap();
        assert!(err.contains("boom in a frame"), "{err}");
        assert_eq!(frames[1]["output"]["reason"], "fine");
    }

    /// A `Stop` frame of `session`; `again` is its `stop_hook_active`.
    fn stop_frame(seq: u32, session: &str, again: bool) -> String {
        format!(
            r#"{{"seq":{seq},"hook":"stop","hook_event_name":"Stop","session_id":"{session}","stop_hook_active":{again}}}"#
        )
    }

    #[test]
    fn the_continuation_cap_holds_across_frames_of_one_session() {
        let mut input = String::new();
        input.push_str(&stop_frame(1, "S", false));
        input.push('\n');
        for seq in 2..=7 {
            input.push_str(&stop_frame(seq, "S", true));
            input.push('\n');
        }
        // another session is counted on its own
        input.push_str(&stop_frame(8, "T", false));
        input.push('\n');
        let (frames, _) = serve_frames(Policy::default(), &input, "cont");
        let by_seq = |s: u32| frames.iter().find(|f| f["seq"] == s).cloned().unwrap();
        let cont = serde_json::json!({"decision": "block", "reason": "keep going"});
        for seq in 1..=5 {
            assert_eq!(by_seq(seq)["output"], cont, "frame {seq}: {frames:?}");
        }
        // the default cap is 5: the sixth continuation in a row is refused, and so is the next
        assert_eq!(by_seq(6)["output"], serde_json::json!({}));
        assert_eq!(by_seq(7)["output"], serde_json::json!({}));
        assert_eq!(by_seq(8)["output"], cont);
    }

    /// Two sessions' stop frames alternate on one connection: each session's continuation
    /// counter is its own (the default cap of 5 holds per session, not per connection).
    #[test]
    fn interleaved_sessions_keep_their_own_continuation_counts() {
        let mut input = String::new();
        let mut seq = 0;
        for round in 0..7 {
            for session in ["S", "T"] {
                seq += 1;
                input.push_str(&stop_frame(seq, session, round > 0));
                input.push('\n');
            }
        }
        let (frames, _) = serve_frames(Policy::default(), &input, "interleaved");
        assert_eq!(frames.len(), 14, "{frames:?}");
        let cont = serde_json::json!({"decision": "block", "reason": "keep going"});
        for f in &frames {
            let seq = f["seq"].as_u64().unwrap();
            let round = (seq - 1) / 2;
            let want = if round < 5 { cont.clone() } else { serde_json::json!({}) };
            assert_eq!(f["output"], want, "frame {seq} (round {round}): {frames:?}");
        }
    }

    /// A reader that yields `len` bytes of `x` without holding them, then `tail`.
    struct Huge {
        left: usize,
        tail: std::io::Cursor<Vec<u8>>,
        chunk: Vec<u8>,
    }

    impl std::io::Read for Huge {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = std::io::BufRead::fill_buf(self)?.len().min(out.len());
            out[..n].copy_from_slice(&std::io::BufRead::fill_buf(self)?[..n]);
            std::io::BufRead::consume(self, n);
            Ok(n)
        }
    }

    impl std::io::BufRead for Huge {
        fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
            if self.left > 0 {
                let n = self.left.min(self.chunk.len());
                return Ok(&self.chunk[..n]);
            }
            self.tail.fill_buf()
        }
        fn consume(&mut self, n: usize) {
            if self.left > 0 {
                self.left -= n;
            } else {
                self.tail.consume(n);
            }
        }
    }

    /// A 40 MiB line (over the default 32 MiB frame cap, never held whole) gets one error
    /// frame, and the frame after it on the same connection is answered.
    #[test]
    fn a_huge_line_is_refused_and_the_stream_goes_on() {
        let runner = Runner::new(
            Router::new().on_tool_pre(slow_deny),
            vec![&agenthooks_edge_tests::ALPHA],
        );
        const { assert!(40 << 20 > agenthooks_runtime::DEFAULT_STDIN_CAP) };
        let mut tail = b"\n".to_vec();
        tail.extend_from_slice(tool_frame(2, "A", "after", "").as_bytes());
        tail.push(b'\n');
        let mut reader = Huge {
            left: 40 << 20,
            tail: std::io::Cursor::new(tail),
            chunk: vec![b'x'; 64 << 10],
        };
        let sink = Sink::default();
        let out: Arc<Mutex<Box<dyn Write + Send>>> = Arc::new(Mutex::new(Box::new(sink.clone())));
        serve(&runner, &agenthooks_edge_tests::ALPHA, &mut reader, &out, &ProcessEnv);
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let frames: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(frames.len(), 2, "{text}");
        assert!(frames[0]["seq"].is_null(), "{text}");
        assert!(frames[0]["error"].as_str().unwrap().contains("byte cap"), "{text}");
        assert_eq!(frames[1]["seq"], 2);
        assert_eq!(frames[1]["output"]["reason"], "no after");
    }

    #[test]
    fn an_undecodable_frame_is_answered_per_policy() {
        let input = r#"{"seq":4,"hook":"tool","hook_event_name":"PreToolUse","tool_name":7}"#.to_owned() + "\n";
        let (frames, _) = serve_frames(Policy::default(), &input, "decode-open");
        assert_eq!(frames, [serde_json::json!({"seq": 4, "output": {}})]);
        let (frames, _) = serve_frames(Policy::default().fail_closed(), &input, "decode-closed");
        assert_eq!(frames[0]["seq"], 4);
        assert!(frames[0]["error"].as_str().unwrap().contains("tool_name"), "{frames:?}");
    }
}

#[test]
fn help_lists_every_mode_with_one_line_each() {
    for word in ["help", "--help", "-h"] {
        let r = run(&[word], &[], b"", &format!("help{word}"));
        let text = String::from_utf8(r.stdout).unwrap();
        assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{word}: {text}");
        assert!(
            text.starts_with("usage: test-hook agenthooks <mode> [flags]"),
            "{word}: {text}"
        );
        for (mode, rest) in [
            ("run", "answer one hook event"),
            ("notify", "answer one event whose payload is the last argument"),
            ("serve", "answer NDJSON frames"),
            ("ping", "print a JSON pong"),
            ("help", "print this list"),
        ] {
            let lines: Vec<&str> = text
                .lines()
                .filter(|l| l.split_whitespace().next() == Some(mode))
                .collect();
            assert_eq!(lines.len(), 1, "{word}: one line for `{mode}`: {text}");
            assert!(lines[0].contains(rest), "{word}: {}", lines[0]);
        }
    }
}

#[test]
fn an_unknown_mode_points_at_help() {
    let r = run(&["fly"], &[], b"", "unknown-mode");
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty(), "nothing on stdout");
    assert!(
        r.stderr
            .contains("unknown agenthooks mode `fly` (`agenthooks help` lists the modes)"),
        "{}",
        r.stderr
    );
}
