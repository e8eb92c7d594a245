//! Qwen Code's transcript format ([`TRANSCRIPT`], returned by the codec's
//! [`transcript`](agenthooks_core::Codec::transcript)): the chat recording
//! `<project dir>/chats/<session>.jsonl`, one record per line with a `type` of `user`,
//! `assistant`, `tool_result` or `system` and the Gemini-style `message {role, parts}`: text
//! parts, `functionCall` parts (the model's tool calls) and `functionResponse` parts (their
//! results). Formats as the real agent wrote them (the corpus's
//! `fixtures/qwen-code/<version>/transcript.jsonl`). Anything not recognised yields no items.

use serde_json::Value;

use agenthooks_core::kit::transcript::{meta, str_at, ByType, Item};

/// The format the codec hands out.
pub static TRANSCRIPT: ByType = ByType::new(qwen);

/// The items of a record's `message.parts`: text as `text(…)`, calls and results as tool items.
fn parts(v: &Value, text: impl Fn(String) -> Item) -> Vec<Item> {
    let mut out = Vec::new();
    for p in v
        .pointer("/message/parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if p.get("thought").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        if let Some(t) = p.get("text").and_then(Value::as_str).filter(|t| !t.is_empty()) {
            out.push(text(t.to_owned()));
        } else if let Some(c) = p.get("functionCall") {
            out.push(Item::ToolCall {
                id: str_at(c, "id").to_owned(),
                name: str_at(c, "name").to_owned(),
                input: c.get("args").cloned().unwrap_or(Value::Null),
            });
        } else if let Some(r) = p.get("functionResponse") {
            out.push(Item::ToolResult {
                id: str_at(r, "id").to_owned(),
                output: r.get("response").cloned().unwrap_or(Value::Null),
                is_error: r.pointer("/response/error").map(|e| !e.is_null()),
            });
        }
    }
    out
}

fn qwen(ty: &str, v: &Value) -> Vec<Item> {
    let out = match ty {
        "user" => parts(v, |text| Item::UserPrompt { text }),
        "assistant" => parts(v, |text| Item::AssistantText { text }),
        "tool_result" => parts(v, |text| Item::System { text }),
        "system" => return meta(format!("system:{}", str_at(v, "subtype"))),
        _ => return Vec::new(),
    };
    if out.is_empty() {
        meta(format!("{ty}:empty"))
    } else {
        out
    }
}
