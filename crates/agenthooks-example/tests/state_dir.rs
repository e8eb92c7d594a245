//! The repository does not steer the hook (#33): with `HOME` unset the state directory is a
//! per-user `0700` directory (never a shared predictable name in the temp dir), nothing is written
//! through a symlink there, and `AGENTHOOKS_LOG_FILE` (which a project's `.env` can set) is
//! written only when it names a `*.log` file inside the state directory. The secret guard binary
//! is the hook; `TMPDIR` points the temp dir at a scratch directory.
#![cfg(unix)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agenthooks_testkit::process::output_of;

const PAYLOAD: &str = r#"{"session_id":"s","transcript_path":"/nonexistent/t.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","prompt_id":"p","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"curl -H 'x: AKIAIOSFODNN7EXAMPLE' x"},"tool_use_id":"u1"}"#;

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("agenthooks-state-dir-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the guard on Claude's `PreToolUse` with `HOME` and the state variables unset, the temp dir
/// at `tmp`, debug logging, and `vars`; returns stdout (the hook still answers: asserted).
fn run(tmp: &Path, vars: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_secret-guard"));
    cmd.args(["agenthooks", "run", "--provider=claude-code", "--event=PreToolUse"])
        .env_remove("HOME")
        .env_remove("XDG_STATE_HOME")
        .env_remove("AGENTHOOKS_STATE_DIR")
        .env_remove("AGENTHOOKS_LOG_FILE")
        .env("TMPDIR", tmp)
        .env("AGENTHOOKS_LOG", "debug")
        .envs(vars.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let o = output_of(&mut cmd, PAYLOAD.as_bytes()).unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains(r#""permissionDecision":"ask""#), "the hook answers: {out}");
    out
}

fn uid(tmp: &Path) -> u32 {
    std::fs::metadata(tmp).unwrap().uid()
}

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn without_home_the_state_dir_is_a_private_per_user_dir() {
    let tmp = scratch("home");
    run(&tmp, &[]);
    let state = tmp.join(format!("agenthooks-{}", uid(&tmp)));
    assert_eq!(mode(&state), 0o700, "{}", state.display());
    let log = state.join("agenthooks.log");
    assert_eq!(mode(&log), 0o600);
    assert!(std::fs::read_to_string(&log).unwrap().contains(" pid="));
    assert!(!tmp.join("agenthooks").exists(), "no shared predictable name");
    // One made earlier with loose permissions is tightened.
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o755)).unwrap();
    run(&tmp, &[]);
    assert_eq!(mode(&state), 0o700);
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn a_symlink_is_never_followed_for_the_state_dir_or_the_log() {
    let tmp = scratch("links");
    let state = tmp.join(format!("agenthooks-{}", uid(&tmp)));
    // The state dir planted as a symlink: refused, nothing written where it points.
    let elsewhere = tmp.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &state).unwrap();
    run(&tmp, &[]);
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    std::fs::remove_file(&state).unwrap();
    // The log planted as a symlink inside a good state dir: not written through.
    std::fs::create_dir(&state).unwrap();
    let victim = tmp.join("victim");
    std::fs::write(&victim, "keep\n").unwrap();
    std::os::unix::fs::symlink(&victim, state.join("agenthooks.log")).unwrap();
    run(&tmp, &[]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep\n");
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn agenthooks_log_file_is_confined_to_the_state_dir() {
    let tmp = scratch("logfile");
    let state = tmp.join("state");
    std::fs::create_dir_all(&state).unwrap();
    let state_var = state.display().to_string();
    let victim = tmp.join("bashrc");
    std::fs::write(&victim, "keep\n").unwrap();
    let outside = victim.display().to_string();
    let dotdot = format!("{state_var}/../bashrc.log");
    let not_log = format!("{state_var}/notes.txt");
    std::os::unix::fs::symlink(&tmp, state.join("up")).unwrap();
    let via_link = format!("{state_var}/up/bashrc.log");
    for bad in [outside.as_str(), &dotdot, &not_log, &via_link] {
        run(
            &tmp,
            &[("AGENTHOOKS_STATE_DIR", &state_var), ("AGENTHOOKS_LOG_FILE", bad)],
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep\n", "{bad}");
        assert!(
            !tmp.join("bashrc.log").exists() && !state.join("notes.txt").exists(),
            "{bad}"
        );
        // Refused, and said so in the state dir's own log.
        let log = std::fs::read_to_string(state.join("agenthooks.log")).unwrap();
        assert!(log.contains("log file refused"), "{bad}: {log}");
    }
    // A `*.log` inside the state dir (relative to it, or absolute) is honoured.
    run(
        &tmp,
        &[
            ("AGENTHOOKS_STATE_DIR", &state_var),
            ("AGENTHOOKS_LOG_FILE", "logs/hook.log"),
        ],
    );
    assert!(std::fs::read_to_string(state.join("logs/hook.log"))
        .unwrap()
        .contains(" pid="));
    assert_eq!(mode(&state.join("logs/hook.log")), 0o600);
    // A relative AGENTHOOKS_STATE_DIR (relative to a project's directory) is ignored.
    run(&tmp, &[("AGENTHOOKS_STATE_DIR", "state-rel")]);
    assert!(tmp.join(format!("agenthooks-{}", uid(&tmp))).is_dir());
    std::fs::remove_dir_all(&tmp).unwrap();
}
