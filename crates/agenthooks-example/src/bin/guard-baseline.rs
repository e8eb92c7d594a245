//! Benchmark baseline: a minimal hand-written `serde_json` hook doing the secret guard's job for
//! Claude's `PreToolUse` only (read stdin, parse, scan the tool input, answer).
#![allow(clippy::print_stdout)]

use std::io::{Read, Write};

fn main() {
    let mut buf = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut buf);
    let v: serde_json::Value = serde_json::from_slice(&buf).unwrap_or(serde_json::Value::Null);
    let input = v.get("tool_input").map(ToString::to_string).unwrap_or_default();
    let found = agenthooks_example::find_secrets(&input);
    let out = if found.is_empty() {
        "{}".to_owned()
    } else {
        serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
            "permissionDecisionReason": format!("Credential detected: {}", found.join(", "))}})
        .to_string()
    };
    let _ = std::io::stdout().write_all(out.as_bytes());
}
