//! The benchmark baseline: a minimal hand-written `serde_json` hook doing the same job as
//! `test-hook` with `TEST_BEHAVIOR=deny` on a `PreToolUse` payload (read stdin, parse, answer).
#![allow(clippy::print_stdout)]

use std::io::{Read, Write};

fn main() {
    let mut buf = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut buf);
    let v: serde_json::Value = serde_json::from_slice(&buf).unwrap_or(serde_json::Value::Null);
    let out = if v.get("hook_event_name").and_then(serde_json::Value::as_str) == Some("PreToolUse") {
        serde_json::json!({"decision": "deny", "reason": "blocked by test"})
    } else {
        serde_json::json!({})
    };
    let _ = std::io::stdout().write_all(out.to_string().as_bytes());
}
