//! The process spawner runs real hook commands the way each agent does.

use std::time::Duration;

use agenthooks_core::Transport;
use agenthooks_testkit::fake::{self, Effect, HookCommand, SpawnOptions};

use crate::toy::TempDir;

fn sh(s: &str) -> HookCommand {
    HookCommand::Shell(s.to_owned())
}

#[test]
fn claude_exit_2_denies_with_stderr_and_exports_env() {
    let dir = TempDir::new("spawn");
    let payload = format!(
        r#"{{"session_id":"s9","cwd":"{}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"ls"}}}}"#,
        dir.0.display()
    );
    let claude = fake::agent("claude-code").unwrap();
    let cmd = sh(
        r#"in=$(cat); case "$in" in *'"command":"ls"'*) ;; *) exit 9;; esac; echo "no: $CLAUDE_PROJECT_DIR $CLAUDE_CODE_SESSION_ID $(pwd)" >&2; exit 2"#,
    );
    let s = fake::run(claude, &cmd, "PreToolUse", payload.as_bytes(), &SpawnOptions::default()).unwrap();
    let want = format!("no: {d} s9 {d}", d = dir.0.display());
    assert_eq!(s.verdict.effect, Effect::Denied { reason: want });
    assert_eq!(s.output.exit_code, Some(2));
    assert_eq!(s.cwd, dir.0);
    assert_eq!(s.timeout, Duration::from_secs(600));
    assert_eq!(
        s.argv,
        [
            "sh",
            "-c",
            match &cmd {
                HookCommand::Shell(c) => c.as_str(),
                _ => "",
            }
        ]
    );
}

#[test]
fn gemini_timeouts_are_milliseconds_and_fail_open() {
    let gemini = fake::agent("gemini").unwrap();
    let opts = SpawnOptions::default().with_timeout(300);
    let s = fake::run(gemini, &sh("echo started >&2; sleep 5"), "BeforeTool", b"{}", &opts).unwrap();
    assert!(s.output.timed_out, "{s:?}");
    assert!(
        s.elapsed < Duration::from_secs(4),
        "killed at the deadline: {:?}",
        s.elapsed
    );
    assert_eq!(s.verdict.effect, Effect::Proceed);
    assert!(s.verdict.misbehaved());
}

#[test]
fn gemini_reads_stderr_when_stdout_is_empty() {
    let gemini = fake::agent("gemini").unwrap();
    let s = fake::run(
        gemini,
        &sh(r#"echo '{"decision":"deny","reason":"from stderr"}' >&2"#),
        "BeforeTool",
        b"{}",
        &SpawnOptions::default(),
    )
    .unwrap();
    assert_eq!(
        s.verdict.effect,
        Effect::Denied {
            reason: "from stderr".into()
        }
    );
}

#[test]
fn codex_notify_gets_the_payload_in_argv() {
    let dir = TempDir::new("notify");
    let out = dir.0.join("arg.json");
    let codex = fake::agent("codex").unwrap();
    let payload = br#"{"type":"agent-turn-complete","thread-id":"t"}"#;
    let cmd = HookCommand::Exec(vec![
        "sh".into(),
        "-c".into(),
        format!("printf %s \"$1\" > {}", out.display()),
        "notify".into(),
    ]);
    let s = fake::run(codex, &cmd, "agent-turn-complete", payload, &SpawnOptions::default()).unwrap();
    assert_eq!(s.output.exit_code, Some(0));
    assert_eq!(std::fs::read(&out).unwrap(), payload);
    // The same through a config command string, and the legacy Cursor argv transport.
    let mut opts = SpawnOptions::default();
    opts.transport = Some(Transport::Argv);
    let cursor = fake::agent("cursor").unwrap();
    let s = fake::run(
        cursor,
        &sh(&format!("printf %s \"$1\" > {}; echo '{{}}'", out.display())),
        "preToolUse",
        b"{\"a\":1}",
        &opts,
    )
    .unwrap();
    assert!(s.verdict.is_no_op() && !s.verdict.misbehaved(), "{}", s.verdict);
    assert_eq!(std::fs::read(&out).unwrap(), b"{\"a\":1}");
}

#[test]
fn copilot_denies_pre_tool_use_on_a_crash_and_kimi_allows() {
    let copilot = fake::agent("copilot").unwrap();
    let s = fake::run(copilot, &sh("exit 1"), "preToolUse", b"{}", &SpawnOptions::default()).unwrap();
    assert!(matches!(s.verdict.effect, Effect::Denied { .. }));
    assert!(s.agent_env.iter().any(|(k, v)| k == "COPILOT_CLI" && v == "1"));
    let kimi = fake::agent("kimi").unwrap();
    let s = fake::run(kimi, &sh("exit 1"), "PreToolUse", b"{}", &SpawnOptions::default()).unwrap();
    assert_eq!(s.verdict.effect, Effect::Proceed);
}

#[test]
fn config_env_and_missing_programs() {
    let claude = fake::agent("claude-code").unwrap();
    let opts = SpawnOptions::default().with_env("GREETING", "hi");
    let s = fake::run(claude, &sh("echo \"$GREETING\""), "UserPromptSubmit", b"{}", &opts).unwrap();
    assert_eq!(s.verdict.context, ["hi"]);
    let err = fake::run(
        claude,
        &HookCommand::Exec(vec!["/nonexistent/hook".into()]),
        "Stop",
        b"{}",
        &SpawnOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("/nonexistent/hook"));
    assert!(fake::run(
        claude,
        &HookCommand::Exec(vec![]),
        "Stop",
        b"{}",
        &SpawnOptions::default()
    )
    .is_err());
}
