//! The README's main job as a test: the demo drives the real hook binary through every compiled-in
//! provider's fake agent over the bundled fixtures and must succeed.

use std::process::{Command, Stdio};

use agenthooks_testkit::process::output_of;

/// Runs the hook binary as `agenthooks run --provider=<provider> --event=<event>` with `payload`
/// on stdin: the exit code and stdout.
fn run_hook(provider: &str, event: &str, payload: &str) -> (Option<i32>, String) {
    let mut hook = Command::new(env!("CARGO_BIN_EXE_secret-guard"));
    hook.args([
        "agenthooks",
        "run",
        &format!("--provider={provider}"),
        &format!("--event={event}"),
    ])
    .env(
        "AGENTHOOKS_STATE_DIR",
        std::env::temp_dir().join("agenthooks-example-test"),
    )
    .stdout(Stdio::piped());
    let o = output_of(&mut hook, payload.as_bytes()).unwrap();
    (o.status.code(), String::from_utf8(o.stdout).unwrap())
}

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
    for provider in ["claude-code", "codex", "gemini", "copilot", "kimi", "qwen-code"] {
        assert!(text.lines().any(|l| l.starts_with(provider)), "no rows for {provider}");
    }
    assert!(
        text.contains("asked or blocked wherever the agent can gate: yes"),
        "{text}"
    );
    assert!(text.contains("malformed answers: 0"), "{text}");
    // An ask on a permission request is the agent's own dialog on every agent that has one.
    for provider in ["claude-code", "codex", "copilot", "kimi"] {
        let row = text
            .lines()
            .find(|l| {
                l.starts_with(provider) && l.to_lowercase().contains("| permissionrequest") && l.contains("+AKIA")
            })
            .unwrap_or_else(|| panic!("no planted permission-request row for {provider}:\n{text}"));
        assert!(
            row.contains("ask → no-decision") && row.contains("the agent's own dialog asks"),
            "{row}"
        );
    }
}

#[test]
fn the_hook_asks_on_claude_and_denies_on_codex_for_the_same_secret() {
    // Each agent's own shape: Claude marks its payloads with `prompt_id`, Codex sends `turn_id`
    // and `model` (a Codex-shaped payload under `--provider=claude-code` would be answered in
    // Codex's dialect: the runner's mismatch rule).
    let payload = |provider: &str| {
        let marker = if provider == "codex" {
            r#""model":"m","turn_id":"t""#
        } else {
            r#""prompt_id":"p""#
        };
        format!(
            r#"{{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse",{marker},"permission_mode":"default","tool_name":"Bash","tool_input":{{"command":"curl -H 'x: AKIAIOSFODNN7EXAMPLE' x"}},"tool_use_id":"u1"}}"#
        )
    };
    let run = |provider: &str| run_hook(provider, "PreToolUse", &payload(provider));
    let (code, claude) = run("claude-code");
    assert_eq!(code, Some(0));
    assert!(claude.contains(r#""permissionDecision":"ask""#), "{claude}");
    let (code, codex) = run("codex");
    assert_eq!(code, Some(0));
    assert!(codex.contains(r#""permissionDecision":"deny""#), "{codex}");
}

#[test]
fn on_a_permission_request_the_hook_lets_the_agent_ask() {
    let payload = r#"{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PermissionRequest","model":"m","permission_mode":"default","turn_id":"t","tool_name":"Bash","tool_input":{"command":"curl -H 'x: AKIAIOSFODNN7EXAMPLE' x"}}"#;
    for provider in ["claude-code", "codex"] {
        let (code, out) = run_hook(provider, "PermissionRequest", payload);
        assert_eq!(code, Some(0), "{provider}: {out}");
        // No decision (the agent's dialog shows), the reason as a message to the user.
        assert!(!out.contains("deny") && !out.contains("behavior"), "{provider}: {out}");
        assert!(
            out.contains(r#""systemMessage":"Credential detected"#),
            "{provider}: {out}"
        );
    }
}
