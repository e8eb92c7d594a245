//! The test hook's behaviours, the tokens it injects, and the log it writes.
//!
//! The hook binary (`agenthooks-e2e-hook`) is an ordinary agenthooks hook: the agent runs
//! `agenthooks-e2e-hook agenthooks run --provider=P --event=E` exactly as agenthooks-install
//! renders it. Its behaviour is chosen by environment variables, which every agent passes on to
//! its hooks:
//!
//! | variable | meaning |
//! |---|---|
//! | `AGENTHOOKS_E2E_MODE` | a [`Mode`] (`none`, `deny`, `context`, `continue`, `rewrite`, `crash`, `permission`, `deny-wrong-dialect`) |
//! | `AGENTHOOKS_E2E_LOG` | the JSONL file to append one [`HookRecord`] per invocation to |
//!
//! With a log configured the process is a *tap*: it reads the payload, runs itself again as the
//! real hook (`agenthooks::main`, the edge consumers ship) with the payload on stdin, and appends
//! what it saw: the exact payload, argv, env names, the decoded event (written by an `on_any`
//! observer in the inner process) and the exact response (stdout, stderr, exit code) that went
//! back to the agent. So a payload that fails to decode is still recorded, with the failure
//! response it got.

use std::path::Path;

use serde_json::{json, Value};

/// Env: the behaviour.
pub const MODE_ENV: &str = "AGENTHOOKS_E2E_MODE";
/// Env: the JSONL log.
pub const LOG_ENV: &str = "AGENTHOOKS_E2E_LOG";
/// Env (internal): set in the inner process to the file its observer writes the decoded event to.
pub const CHILD_ENV: &str = "AGENTHOOKS_E2E_CHILD";

/// The deny reason; the model must see it after a denied tool call.
pub const DENY_REASON: &str = "E2E-DENY-7d41 writing marker files is blocked by the e2e policy";
/// The token of [`DENY_REASON`] searched for in model requests.
pub const DENY_TOKEN: &str = "E2E-DENY-7d41";
/// Context added on session start.
pub const SESSION_CONTEXT: &str = "E2E-SESSION-CONTEXT-5b2e";
/// Context added on prompt submission.
pub const PROMPT_CONTEXT: &str = "E2E-PROMPT-CONTEXT-93c1";
/// The continue-with instruction on stop.
pub const CONTINUE_INSTRUCTION: &str = "E2E-CONTINUE-0f6a: add one more sentence";
/// The token of [`CONTINUE_INSTRUCTION`] searched for in model requests.
pub const CONTINUE_TOKEN: &str = "E2E-CONTINUE-0f6a";
/// The reason of an ask.
pub const ASK_REASON: &str = "E2E-ASK-61b0 writing marker files needs approval";

/// The command a rewrite substitutes for the model's.
pub const REWRITTEN_COMMAND: &str = "echo rewritten > rewritten.txt";
/// The file [`REWRITTEN_COMMAND`] creates.
pub const REWRITTEN_FILE: &str = "rewritten.txt";
/// The file the model's own command creates.
pub const MARKER_FILE: &str = "marker.txt";
/// The model's own command.
pub const MARKER_COMMAND: &str = "echo hi > marker.txt";
/// The continuation cap the `continue` mode runs with: exactly one more model turn.
pub const CONTINUATION_CAP: u32 = 1;

/// What the hook decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// No decision on any event (record only).
    None,
    /// Deny every `tool.pre` with [`DENY_REASON`].
    Deny,
    /// Add [`SESSION_CONTEXT`] on session start and [`PROMPT_CONTEXT`] on prompt submission.
    Context,
    /// Answer `continue_with(CONTINUE_INSTRUCTION)` on every stop, under a continuation cap of
    /// [`CONTINUATION_CAP`] (so the agent gets exactly one more model turn).
    Continue,
    /// Rewrite the shell command of every `tool.pre` to [`REWRITTEN_COMMAND`] (and allow).
    Rewrite,
    /// The daemon aborts on every `tool.pre` (a crash in the middle of a gate).
    Crash,
    /// Allow every `permission.request` (OpenCode: the daemon replies over the HTTP API).
    Permission,
    /// Ask for confirmation on every `tool.pre` with [`ASK_REASON`] (OpenClaw: nobody answers).
    Ask,
    /// [`Mode::Deny`] answered by a deliberately wrong encoder: the event is decoded by the
    /// agent's codec but the deny is written in Claude Code's dialect. Used to prove the suite
    /// catches a wrong encoder.
    DenyWrongDialect,
    /// Deny a `tool.pre` whose command (`command()`: `command`, else `cmd`) holds
    /// [`MARKER_COMMAND`], and no decision otherwise: a guard that must read the tool input.
    DenyOnCommand,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Self; 10] = [
        Self::None,
        Self::Crash,
        Self::Permission,
        Self::Deny,
        Self::Context,
        Self::Continue,
        Self::Rewrite,
        Self::DenyWrongDialect,
        Self::Ask,
        Self::DenyOnCommand,
    ];

    /// The env value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Deny => "deny",
            Self::Context => "context",
            Self::Continue => "continue",
            Self::Rewrite => "rewrite",
            Self::Crash => "crash",
            Self::Permission => "permission",
            Self::DenyWrongDialect => "deny-wrong-dialect",
            Self::Ask => "ask",
            Self::DenyOnCommand => "deny-on-command",
        }
    }

    /// Parses the env value.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// One invocation of the hook, as the tap logged it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct HookRecord {
    /// `--provider`.
    pub provider: String,
    /// `--event` (the native event the config named).
    pub event_arg: String,
    /// The mode in force.
    pub mode: String,
    /// The payload exactly as received (lossy UTF-8).
    pub payload: String,
    /// Names of the env vars the hook saw.
    pub env_names: Vec<String>,
    /// The native event the codec decoded, if decoding succeeded.
    pub native: Option<String>,
    /// The unified kind the codec decoded, if decoding succeeded.
    pub kind: Option<String>,
    /// The normalized event (`Event::to_json`), if decoding succeeded.
    pub event: Value,
    /// The hook's stdout.
    pub stdout: String,
    /// The hook's stderr.
    pub stderr: String,
    /// The hook's exit code (`None`: killed by a signal).
    pub exit: Option<i32>,
    /// The full line.
    pub line: Value,
}

impl HookRecord {
    /// Parses one log line.
    pub fn from_value(v: Value) -> Self {
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
        let decoded = v.get("decoded").cloned().unwrap_or(Value::Null);
        let ds = |k: &str| decoded.get(k).and_then(Value::as_str).map(str::to_owned);
        Self {
            provider: s("provider"),
            event_arg: s("event_arg"),
            mode: s("mode"),
            payload: s("payload"),
            env_names: v
                .get("env_names")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
                .unwrap_or_default(),
            native: ds("native"),
            kind: ds("kind"),
            event: decoded.get("event").cloned().unwrap_or(Value::Null),
            stdout: s("stdout"),
            stderr: s("stderr"),
            exit: v
                .get("exit")
                .and_then(Value::as_i64)
                .and_then(|x| i32::try_from(x).ok()),
            line: v,
        }
    }

    /// The native event name: the decoded one, else the one the config named.
    pub fn native_name(&self) -> &str {
        self.native.as_deref().unwrap_or(&self.event_arg)
    }

    /// The texts of the prompts backfilled from the transcript before this call's event (the
    /// hook opts in to backfill; an agent that fired its prompt hook gets none).
    pub fn backfilled(&self) -> Vec<&str> {
        self.line
            .get("backfilled")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    /// The payload parsed as JSON.
    pub fn payload_json(&self) -> Option<Value> {
        serde_json::from_str(&self.payload).ok()
    }
}

/// Reads a hook log; a missing file is an empty log, unparsable lines are skipped.
pub fn read_log(path: &Path) -> Vec<HookRecord> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(HookRecord::from_value)
        .collect()
}

/// The record the inner process's observer writes for a decoded event.
pub fn decoded_record(native: &str, kind: &str, event: &Value) -> Value {
    json!({"native": native, "kind": kind, "event": event})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_round_trip() {
        for m in Mode::ALL {
            assert_eq!(Mode::parse(m.as_str()), Some(m));
        }
        assert_eq!(Mode::parse("other"), None);
    }

    #[test]
    fn records_parse_leniently() {
        let v = json!({"provider": "kimi", "event_arg": "Stop", "mode": "none", "payload": "{}", "env_names": ["A"],
            "decoded": decoded_record("Stop", "agent.stop", &json!({"kind": "agent.stop"})), "stdout": "", "stderr": "", "exit": 0});
        let r = HookRecord::from_value(v);
        assert_eq!(
            (r.native_name(), r.kind.as_deref(), r.exit),
            ("Stop", Some("agent.stop"), Some(0))
        );
        assert_eq!(r.payload_json(), Some(json!({})));
        let bare = HookRecord::from_value(json!({"event_arg": "BeforeTool", "decoded": null}));
        assert_eq!(
            (bare.native_name(), bare.kind.as_deref(), bare.exit),
            ("BeforeTool", None, None)
        );
    }
}
