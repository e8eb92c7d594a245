//! Gemini CLI's transcript format ([`TRANSCRIPT`], returned by the codec's
//! [`transcript`](agenthooks_core::Codec::transcript)): session JSON document (≤ 0.2x) or JSONL (later): `user`, `gemini` (text, `toolCalls` with their `result`), `info`/`error`/`warning`; the session header and `$set` updates are meta. Formats as the real agent
//! wrote them (the corpus's `fixtures/gemini/<version>/transcript.jsonl`). Anything not
//! recognised yields no items.

use serde_json::Value;

use agenthooks_core::kit::transcript::{meta, str_at, text_of, ByType, Item};

/// The format the codec hands out (Gemini CLI before its JSONL format rewrites one
/// pretty-printed JSON document).
pub static TRANSCRIPT: ByType = ByType::new(gemini).document();

fn gemini(ty: &str, v: &Value) -> Vec<Item> {
    match ty {
        // 0.6x also stores the tool results it sends back as `user` parts (`functionResponse`):
        // those are results, not prompts.
        "user" => {
            let content = v.get("content").unwrap_or(&Value::Null);
            let mut out: Vec<Item> = text_of(content)
                .map(|text| Item::UserPrompt { text })
                .into_iter()
                .collect();
            for r in content
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| p.get("functionResponse"))
            {
                out.push(Item::ToolResult {
                    id: str_at(r, "id").to_owned(),
                    output: r.get("response").cloned().unwrap_or(Value::Null),
                    is_error: None,
                });
            }
            if out.is_empty() {
                out = meta("user:empty");
            }
            out
        }
        "gemini" => {
            let mut out = Vec::new();
            if let Some(text) = v.get("content").and_then(text_of).filter(|t| !t.is_empty()) {
                out.push(Item::AssistantText { text });
            }
            for c in v.get("toolCalls").and_then(Value::as_array).into_iter().flatten() {
                let id = str_at(c, "id").to_owned();
                out.push(Item::ToolCall {
                    id: id.clone(),
                    name: str_at(c, "name").to_owned(),
                    input: c.get("args").cloned().unwrap_or(Value::Null),
                });
                if let Some(result) = c.get("result").filter(|r| !r.is_null()) {
                    out.push(Item::ToolResult {
                        id,
                        output: result.clone(),
                        is_error: c.get("status").and_then(Value::as_str).map(|s| s == "error"),
                    });
                }
            }
            if out.is_empty() {
                out = meta("gemini:empty");
            }
            out
        }
        "info" | "error" | "warning" => vec![Item::System {
            text: text_of(v.get("content").unwrap_or(&Value::Null)).unwrap_or_default(),
        }],
        "" if v.get("$set").is_some() => meta("$set"),
        "" if v.get("$rewindTo").is_some() => meta("$rewindTo"),
        "" if v.get("sessionId").is_some() => meta("session"),
        _ => Vec::new(),
    }
}
