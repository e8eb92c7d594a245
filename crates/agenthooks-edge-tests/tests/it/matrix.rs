//! The hostile-input matrix (issue #23): every stdin agent's pre-tool event, under fail-open and
//! fail-closed, fed hostile stdin and handler faults through the real runner (`matrix-hook`:
//! every real codec through the facade), each answer judged by that agent's own rules (the
//! testkit's fake agents).
//!
//! Every cell must be answered within the deadline, with no panic text, stdout empty or JSON,
//! an exit code the agent reads without calling the hook broken, and the intended verdict: the
//! handler's deny where the input decodes, else the policy's (blocked under fail-closed, not
//! blocked under fail-open). The README's "Hostile input" table is this matrix; the test checks
//! that the table there is the one it computes.

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks_edge_tests::scripted::DENY_REASON;
use agenthooks_testkit::fake::{self, Effect, HookOutput, Verdict};
use serde_json::Value;

/// The per-event timeout the matrix passes (`--timeout`): every answer must come within it.
const TIMEOUT_SECS: u64 = 2;

/// A stdin agent, its pre-tool event and a real payload of it (from `fixtures/`).
struct Agent {
    provider: &'static str,
    event: &'static str,
    fixture: &'static str,
}

const AGENTS: &[Agent] = &[
    Agent {
        provider: "claude-code",
        event: "PreToolUse",
        fixture: "claude-code/2.1.197/pre_tool_use-allow",
    },
    Agent {
        provider: "codex",
        event: "PreToolUse",
        fixture: "codex/0.171.0/pre_tool_use-allow",
    },
    Agent {
        provider: "cursor",
        event: "preToolUse",
        fixture: "cursor/2026.02.13/pre_tool_use",
    },
    Agent {
        provider: "gemini",
        event: "BeforeTool",
        fixture: "gemini/gemini-cli-0.61.0/before_tool-allow",
    },
    Agent {
        provider: "copilot",
        event: "preToolUse",
        fixture: "copilot/1.0.102/pre_tool_use-allow",
    },
    Agent {
        provider: "kimi",
        event: "PreToolUse",
        fixture: "kimi/2.1.0/pre_tool_use-allow",
    },
    Agent {
        provider: "qwen-code",
        event: "PreToolUse",
        fixture: "qwen-code/0.24.4/pre_tool_use-e2e-no-decision",
    },
    Agent {
        provider: "droid",
        event: "PreToolUse",
        fixture: "droid/0.215.0/pre_tool_use-e2e-execute",
    },
];

impl Agent {
    fn payload(&self) -> Vec<u8> {
        let path = fixtures_dir().join(self.fixture).join("input.json");
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // compact: the rows below splice into it
        let v: Value = serde_json::from_slice(&text).unwrap();
        serde_json::to_vec(&v).unwrap()
    }
}

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// How stdin and stdout are wired for a row.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wiring {
    /// The payload on a pipe, stdout read.
    Normal,
    /// stdin is `/dev/null` (closed before the hook reads anything).
    StdinClosed,
    /// The reader of stdout is gone before the hook answers (writes get EPIPE).
    StdoutClosed,
}

/// What a row's input is to the runner.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Expect {
    /// It decodes: the handler's decision reaches the agent.
    Decoded,
    /// It cannot be decoded, or the handler fails: the policy's verdict.
    Failure,
    /// Another agent's payload: its agent reads the handler's decision in its own dialect, and
    /// the flagged agent reads that answer without calling the hook broken.
    Foreign,
    /// Nothing to judge but the process (stdout is gone).
    NoReader,
}

/// One row: an input (built from the agent's valid payload) and a handler behaviour.
struct Row {
    name: &'static str,
    /// The `--timeout` passed: every answer must come within it.
    timeout_secs: u64,
    behavior: &'static str,
    wiring: Wiring,
    expect: Expect,
    input: fn(&Agent, &[u8]) -> Vec<u8>,
}

/// The payload with `,"<key>":<raw>` spliced in before its closing brace.
fn splice(valid: &[u8], key: &str, raw: &[u8]) -> Vec<u8> {
    let mut out = valid[..valid.len() - 1].to_vec();
    out.extend_from_slice(format!(",\"{key}\":").as_bytes());
    out.extend_from_slice(raw);
    out.push(b'}');
    out
}

/// Every top-level value replaced by one of another JSON type.
fn wrong_types(valid: &[u8]) -> Vec<u8> {
    let Value::Object(m) = serde_json::from_slice::<Value>(valid).unwrap() else {
        panic!("payload is not an object")
    };
    let m: serde_json::Map<String, Value> = m
        .into_iter()
        .map(|(k, v)| {
            let w = match v {
                Value::String(_) => Value::from(42),
                Value::Number(_) => Value::from("7"),
                Value::Bool(_) => Value::from("true"),
                Value::Null => Value::from(false),
                Value::Array(_) => Value::Object(serde_json::Map::new()),
                Value::Object(_) => Value::Array(vec![Value::from(1)]),
            };
            (k, w)
        })
        .collect();
    serde_json::to_vec(&m).unwrap()
}

/// Only the event-name key of the payload (`{}` for an agent whose payload names no event).
fn only_event_name(valid: &[u8]) -> Vec<u8> {
    let v: Value = serde_json::from_slice(valid).unwrap();
    let mut m = serde_json::Map::new();
    if let Some(name) = v.get("hook_event_name") {
        m.insert("hook_event_name".into(), name.clone());
    }
    serde_json::to_vec(&m).unwrap()
}

/// The agent whose real payload is "another agent's payload" for `a`: Cursor (certain by its
/// shape) for every agent but Cursor, which gets Copilot's.
fn other_agent(a: &Agent) -> &'static Agent {
    if a.provider == "cursor" {
        &AGENTS[4]
    } else {
        &AGENTS[2]
    }
}

fn foreign(a: &Agent, _valid: &[u8]) -> Vec<u8> {
    other_agent(a).payload()
}

const DEEP: usize = 200_000;
const HUGE: usize = 40 << 20;

fn rows() -> Vec<Row> {
    use Expect::{Decoded, Failure, Foreign, NoReader};
    use Wiring::{Normal, StdinClosed, StdoutClosed};
    let row = |name, expect, input: fn(&Agent, &[u8]) -> Vec<u8>| Row {
        name,
        timeout_secs: TIMEOUT_SECS,
        behavior: "deny",
        wiring: Normal,
        expect,
        input,
    };
    let fault = |name, behavior, expect| Row {
        name,
        timeout_secs: TIMEOUT_SECS,
        behavior,
        wiring: Normal,
        expect,
        input: |_, v| v.to_vec(),
    };
    vec![
        row("valid payload", Decoded, |_, v| v.to_vec()),
        row("empty", Failure, |_, _| Vec::new()),
        row("whitespace", Failure, |_, _| b" \n\t \r\n".to_vec()),
        row("truncated JSON", Failure, |_, v| v[..v.len() / 2].to_vec()),
        row("JSON array", Failure, |_, _| b"[1,2,3]".to_vec()),
        row("JSON null", Failure, |_, _| b"null".to_vec()),
        row("JSON string", Failure, |_, _| b"\"PreToolUse\"".to_vec()),
        row("JSON number", Failure, |_, _| b"42".to_vec()),
        row("invalid UTF-8", Failure, |_, v| splice(v, "x", b"\"\xff\xfe\"")),
        // what agents' encoders write and strict readers reject is repaired in the decoded view
        // (`kit::tolerant`), never a reason the handler is skipped
        row("NUL byte in a string", Decoded, |_, v| splice(v, "x", b"\"a\0b\"")),
        row("lone surrogate escapes", Decoded, |_, v| {
            splice(v, "x", br#"["\ud800","\udc00","\udc00\ud800"]"#)
        }),
        row("number beyond f64", Decoded, |_, v| {
            splice(v, "x", b"[1e400,123456789012345678901234567890]")
        }),
        row("trailing NUL", Failure, |_, v| [v, b"\0"].concat()),
        row("BOM before valid JSON", Decoded, |_, v| {
            [&[0xEF, 0xBB, 0xBF][..], v].concat()
        }),
        row("trailing garbage", Failure, |_, v| [v, b" garbage"].concat()),
        row("nesting 200 000 deep", Decoded, |_, v| {
            splice(v, "deep", &[vec![b'['; DEEP], vec![b']'; DEEP]].concat())
        }),
        row("another agent's payload", Foreign, foreign),
        // decoding is lenient (kit): a missing or mistyped field is a placeholder or moves to
        // `extra`, logged; the handler still sees the call (and `--event` names it)
        row("only the event name", Decoded, |_, v| only_event_name(v)),
        row("every field of the wrong type", Decoded, |_, v| wrong_types(v)),
        row("40 MiB payload (over the stdin cap)", Failure, |_, v| {
            splice(v, "pad", format!("\"{}\"", "x".repeat(HUGE)).as_bytes())
        }),
        Row {
            name: "stdin closed early",
            timeout_secs: TIMEOUT_SECS,
            behavior: "deny",
            wiring: StdinClosed,
            expect: Failure,
            input: |_, _| Vec::new(),
        },
        Row {
            name: "EPIPE on stdout",
            timeout_secs: TIMEOUT_SECS,
            behavior: "deny",
            wiring: StdoutClosed,
            expect: NoReader,
            input: |_, v| v.to_vec(),
        },
        fault("handler panics", "panic", Failure),
        fault("handler returns an error", "error", Failure),
        fault("handler sleeps past --timeout", "sleep", Failure),
        fault("handler prints to stdout", "println", Decoded),
    ]
}

struct Answer {
    out: HookOutput,
    elapsed: Duration,
}

fn spawn(a: &Agent, row: &Row, fail: &str, payload: &[u8]) -> Answer {
    let state = std::env::temp_dir().join(format!(
        "agenthooks-matrix-{}-{}-{fail}",
        std::process::id(),
        a.provider
    ));
    let timeout = format!("--timeout={}", row.timeout_secs);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_matrix-hook"));
    cmd.args([
        "agenthooks",
        "run",
        &format!("--provider={}", a.provider),
        &format!("--event={}", a.event),
        &timeout,
    ])
    .env("TEST_BEHAVIOR", row.behavior)
    .env("TEST_FAIL", fail)
    .env("AGENTHOOKS_STATE_DIR", &state)
    .env_remove("AGENTHOOKS_LOG")
    .stdin(if row.wiring == Wiring::StdinClosed {
        Stdio::null()
    } else {
        Stdio::piped()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().unwrap();
    if let Some(mut sin) = child.stdin.take() {
        let bytes = payload.to_vec();
        // the hook stops reading at its cap: a broken pipe here is expected
        std::thread::spawn(move || {
            let _ = sin.write_all(&bytes);
        });
    }
    let mut sout = child.stdout.take().unwrap();
    let reader = if row.wiring == Wiring::StdoutClosed {
        drop(sout);
        None
    } else {
        Some(std::thread::spawn(move || {
            let mut b = Vec::new();
            let _ = sout.read_to_end(&mut b);
            b
        }))
    };
    let mut serr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = serr.read_to_end(&mut b);
        b
    });
    // the agent's own kill: well past the hook's deadline
    let kill_at = start + Duration::from_secs(row.timeout_secs + 3);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if Instant::now() >= kill_at {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let elapsed = start.elapsed();
    let stdout = reader.map(|r| r.join().unwrap()).unwrap_or_default();
    let stderr = err_reader.join().unwrap();
    let _ = std::fs::remove_dir_all(&state);
    let out = match status {
        Some(s) => HookOutput::new(s.code().unwrap_or(-1), stdout, stderr),
        None => HookOutput::timed_out(stdout, stderr),
    };
    Answer { out, elapsed }
}

/// A cell's text for the README table: what the agent does, and what it was given (stdout
/// `{}`, empty or JSON; the exit code when it is not 0).
fn describe(v: &Verdict, out: &HookOutput) -> String {
    let verdict = match &v.effect {
        Effect::Denied { .. } => "blocked",
        Effect::Proceed => "proceeds",
        e => e.name(),
    };
    let t = out.stdout_str();
    let stdout = match t.trim() {
        "" => "empty",
        "{}" => "`{}`",
        _ => "JSON",
    };
    match out.exit_code {
        Some(0) => format!("{verdict} ({stdout})"),
        c => format!(
            "{verdict} (exit {}, {stdout})",
            c.map_or_else(|| "killed".to_owned(), |c| c.to_string())
        ),
    }
}

/// Checks one cell; returns its README text (`verdict (exit, stdout)`) or the failures.
fn check(a: &Agent, row: &Row, fail: &str, valid: &[u8]) -> Result<String, String> {
    let payload = (row.input)(a, valid);
    let ans = spawn(a, row, fail, &payload);
    let agent = fake::agent(a.provider).unwrap();
    let verdict = agent.interpret(a.event, &payload, &ans.out);
    let mut bad = Vec::new();
    let stdout = ans.out.stdout_str();
    let stderr = ans.out.stderr_str();
    if ans.out.timed_out || ans.elapsed >= Duration::from_secs(row.timeout_secs) {
        bad.push(format!("answered after {:?}", ans.elapsed));
    }
    for (name, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        if text.contains("panicked at") || text.contains("RUST_BACKTRACE") {
            bad.push(format!("panic text on {name}: {text:?}"));
        }
    }
    let t = stdout.trim();
    if !t.is_empty() && serde_json::from_str::<Value>(t).is_err() {
        bad.push(format!("stdout is neither empty nor JSON: {t:?}"));
    }
    match row.expect {
        Expect::NoReader => {
            if ans.out.exit_code != Some(0) {
                bad.push(format!(
                    "exit {:?} with stdout closed (stderr {stderr:?})",
                    ans.out.exit_code
                ));
            }
        }
        Expect::Foreign => {
            let other = other_agent(a);
            let theirs = fake::agent(other.provider)
                .unwrap()
                .interpret(other.event, &payload, &ans.out);
            if !matches!(&theirs.effect, Effect::Denied { reason } if reason == DENY_REASON) {
                bad.push(format!("{} does not read the deny: {theirs}", other.provider));
            }
            // Known gap: Codex rejects any key it does not know, so another dialect's answer is
            // an invalid run to it (no effect: the call proceeds, as under fail-open). No agent
            // is known to read Codex's hooks file, so the runner does not translate for it.
            let strict_reader = a.provider == "codex" && verdict.effect == Effect::Proceed;
            if verdict.misbehaved() && !strict_reader {
                bad.push(format!("the agent calls the hook broken: {verdict}"));
            }
        }
        Expect::Decoded | Expect::Failure => {
            let blocked = matches!(verdict.effect, Effect::Denied { .. });
            let decoded_reason = matches!(&verdict.effect,
                Effect::Denied { reason } if reason == DENY_REASON || reason == "after noise");
            let intended = match (row.expect, fail) {
                (Expect::Decoded, _) => decoded_reason,
                (_, "closed") => blocked && !decoded_reason,
                _ => verdict.is_no_op(),
            };
            if !intended {
                bad.push(format!("verdict: {verdict}"));
            }
            // the agent must not call a fail-open answer a broken hook (a fail-closed block
            // may ride on the agent's own error rule, e.g. Copilot's "hook errored" deny)
            if verdict.misbehaved() && !(fail == "closed" && blocked) {
                bad.push(format!("the agent calls the hook broken: {verdict}"));
            }
        }
    }
    if bad.is_empty() {
        Ok(describe(&verdict, &ans.out))
    } else {
        Err(format!(
            "{} / {} / fail-{fail} / {}: {} [exit {:?}, stdout {:?}, stderr {:?}]",
            a.provider,
            a.event,
            row.name,
            bad.join("; "),
            ans.out.exit_code,
            truncate(&stdout),
            truncate(&stderr)
        ))
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(300).collect()
}

/// Runs the matrix; checks every cell, and that the README's "Hostile input" table is the one
/// computed here (rows whose cells are all alike are merged; each cell reads
/// `fail-open / fail-closed`).
#[test]
fn hostile_input_matrix() {
    let rows = rows();
    let payloads: Vec<Vec<u8>> = AGENTS.iter().map(Agent::payload).collect();
    let mut failures = Vec::new();
    // (input names, the cells of one row)
    let mut merged: Vec<(Vec<&str>, Vec<String>)> = Vec::new();
    for row in &rows {
        let mut cells = Vec::new();
        for (a, valid) in AGENTS.iter().zip(&payloads) {
            let mut cell = Vec::new();
            for fail in ["open", "closed"] {
                match check(a, row, fail, valid) {
                    Ok(c) => cell.push(c),
                    Err(e) => {
                        failures.push(e);
                        cell.push("FAILED".to_owned());
                    }
                }
            }
            cells.push(cell.join(" / "));
        }
        match merged.iter_mut().find(|(_, c)| *c == cells) {
            Some((names, _)) => names.push(row.name),
            None => merged.push((vec![row.name], cells)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} cells failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let mut table = String::from("| input (fail-open / fail-closed) |");
    for a in AGENTS {
        let _ = write!(table, " {} `{}` |", a.provider, a.event);
    }
    table.push_str("\n|---|");
    table.push_str(&"---|".repeat(AGENTS.len()));
    for (names, cells) in &merged {
        let _ = write!(table, "\n| {} | {} |", names.join(", "), cells.join(" | "));
    }
    let readme = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap();
    assert!(
        readme.contains(&table),
        "README.md's hostile-input table differs from the matrix; the matrix is:\n{table}"
    );
}

/// `payload` padded with a `"pad"` string to exactly `len` bytes.
fn padded_to(payload: &[u8], len: usize) -> Vec<u8> {
    let base = splice(payload, "pad", b"\"\"").len();
    splice(payload, "pad", format!("\"{}\"", "x".repeat(len - base)).as_bytes())
}

/// The documented bounds at their edge, through the real runner and every codec: a payload of
/// `DEFAULT_STDIN_CAP - 1` and `DEFAULT_STDIN_CAP` bytes reaches the handler, one byte more is
/// answered per policy (fail-closed here: blocked, with the reason the runner gives). Nesting is
/// no bound: `MAX_NESTING` levels and more reach the handler (past it, the deeper part is kept as
/// its text, `kit::tolerant`). The timeout is long: the
/// test binaries are debug builds, where decoding 32 MiB takes seconds (reading and decoding
/// count against the deadline).
#[test]
fn resource_bounds_at_the_boundary() {
    use agenthooks::runtime::{DEFAULT_STDIN_CAP, MAX_NESTING};
    let cell = |expect| Row {
        name: "bound",
        timeout_secs: 30,
        behavior: "deny",
        wiring: Wiring::Normal,
        expect,
        input: |_, v| v.to_vec(),
    };
    let mut failures = Vec::new();
    for a in AGENTS {
        let valid = a.payload();
        // the top-level object is one level; the spliced value adds the rest
        let deep = |depth: usize| splice(&valid, "deep", &[vec![b'['; depth - 1], vec![b']'; depth - 1]].concat());
        let cases = [
            (padded_to(&valid, DEFAULT_STDIN_CAP - 1), Expect::Decoded),
            (padded_to(&valid, DEFAULT_STDIN_CAP), Expect::Decoded),
            (padded_to(&valid, DEFAULT_STDIN_CAP + 1), Expect::Failure),
            (deep(MAX_NESTING - 1), Expect::Decoded),
            (deep(MAX_NESTING), Expect::Decoded),
            (deep(MAX_NESTING + 1), Expect::Decoded),
            (deep(MAX_NESTING * 40), Expect::Decoded),
        ];
        for (payload, expect) in cases {
            if let Err(e) = check(a, &cell(expect), "closed", &payload) {
                failures.push(format!("{} bytes: {e}", payload.len()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
