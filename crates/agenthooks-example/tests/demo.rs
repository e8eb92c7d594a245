//! The README's main job as a test: the demo drives the real hook binary through every compiled-in
//! provider's fake agent over the bundled fixtures and must succeed.

use std::io::Write;
use std::process::Command;

#[test]
fn demo_prints_the_table_for_every_provider_and_guards_planted_secrets() {
    let out = Command::new(env!("CARGO_BIN_EXE_secret-guard"))
        .arg("demo")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "demo failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for provider in ["claude-code", "cursor", "codex", "gemini", "copilot", "kimi"] {
        assert!(text.lines().any(|l| l.starts_with(provider)), "no rows for {provider}");
    }
    assert!(
        text.contains("asked or blocked wherever the agent can gate: yes"),
        "{text}"
    );
    assert!(text.contains("malformed answers: 0"), "{text}");
}

#[test]
fn the_hook_asks_on_claude_and_denies_on_codex_for_the_same_secret() {
    // Each agent's own shape for the same call: Codex's `turn_id` + `model` is now a certain
    // Codex marker, so a Claude payload carrying them would be answered in Codex's dialect.
    let payload = |provider: &str| {
        let codex_only = if provider == "codex" {
            r#""model":"m","turn_id":"t","#
        } else {
            ""
        };
        format!(
            r#"{{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse",{codex_only}"permission_mode":"default","tool_name":"Bash","tool_input":{{"command":"curl -H 'x: AKIAIOSFODNN7EXAMPLE' x"}},"tool_use_id":"u1"}}"#
        )
    };
    let run = |provider: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_secret-guard"))
            .args([
                "agenthooks",
                "run",
                &format!("--provider={provider}"),
                "--event=PreToolUse",
            ])
            .env(
                "AGENTHOOKS_STATE_DIR",
                std::env::temp_dir().join("agenthooks-example-test"),
            )
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload(provider).as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        (o.status.code(), String::from_utf8(o.stdout).unwrap())
    };
    let (code, claude) = run("claude-code");
    assert_eq!(code, Some(0));
    assert!(claude.contains(r#""permissionDecision":"ask""#), "{claude}");
    let (code, codex) = run("codex");
    assert_eq!(code, Some(0));
    assert!(codex.contains(r#""permissionDecision":"deny""#), "{codex}");
}
