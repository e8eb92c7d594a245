//! Claude Code's transcript format ([`TRANSCRIPT`], returned by the codec's
//! [`transcript`](agenthooks_core::Codec::transcript)): session JSONL: `user` (prompt or `tool_result` blocks), `assistant` (`text`, `tool_use`), `system`; bookkeeping types are [`Item::Meta`]. Formats as the real agent
//! wrote them (the corpus's `fixtures/claude-code/<version>/transcript.jsonl`). Anything not
//! recognised yields no items.

use serde_json::Value;

use agenthooks_core::kit::transcript::{blocks, meta, str_at, ByType, Item, Speaker};

/// The format the codec hands out.
pub static TRANSCRIPT: ByType = ByType::new(claude);

/// Claude Code's bookkeeping record types (no conversation content).
const CLAUDE_META: &[&str] = &[
    "queue-operation",
    "last-prompt",
    "summary",
    "file-history-snapshot",
    "api-request",
    "api-request-blob",
    "api-request-shape",
    "atis-latch",
    "cost-state",
    "tools-used",
    "progress",
    "custom-title",
];

fn claude(ty: &str, v: &Value) -> Vec<Item> {
    let content = v.pointer("/message/content").unwrap_or(&Value::Null);
    let is_meta = v.get("isMeta").and_then(Value::as_bool) == Some(true);
    match ty {
        "user" => blocks(content, if is_meta { Speaker::System } else { Speaker::User }),
        "assistant" => blocks(content, Speaker::Assistant),
        "system" => vec![Item::System {
            text: str_at(v, "content").to_owned(),
        }],
        "attachment" => meta(format!(
            "attachment:{}",
            v.pointer("/attachment/type").and_then(Value::as_str).unwrap_or("")
        )),
        t if CLAUDE_META.contains(&t) => meta(t),
        _ => Vec::new(),
    }
}
