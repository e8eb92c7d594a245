//! Copilot CLI's transcript format ([`TRANSCRIPT`], returned by the codec's
//! [`transcript`](agenthooks_core::Codec::transcript)): `events.jsonl`: `user.message`, `assistant.message` (text and `toolRequests`), `tool.execution_complete`, `system.message`. Formats as the real agent
//! wrote them (the corpus's `fixtures/copilot/<version>/transcript.jsonl`). Anything not
//! recognised yields no items.

use serde_json::Value;

use agenthooks_core::kit::transcript::{meta, str_at, ByType, Item};

/// The format the codec hands out.
pub static TRANSCRIPT: ByType = ByType::new(copilot);

fn copilot(ty: &str, v: &Value) -> Vec<Item> {
    let d = v.get("data").unwrap_or(&Value::Null);
    match ty {
        "user.message" => vec![Item::UserPrompt {
            text: str_at(d, "content").to_owned(),
        }],
        "system.message" => vec![Item::System {
            text: str_at(d, "content").to_owned(),
        }],
        "assistant.message" => {
            let mut out = Vec::new();
            let text = str_at(d, "content");
            if !text.is_empty() {
                out.push(Item::AssistantText { text: text.to_owned() });
            }
            for t in d.get("toolRequests").and_then(Value::as_array).into_iter().flatten() {
                out.push(Item::ToolCall {
                    id: str_at(t, "toolCallId").to_owned(),
                    name: str_at(t, "name").to_owned(),
                    input: t.get("arguments").cloned().unwrap_or(Value::Null),
                });
            }
            if out.is_empty() {
                out = meta("assistant.message:empty");
            }
            out
        }
        "tool.execution_complete" => vec![Item::ToolResult {
            id: str_at(d, "toolCallId").to_owned(),
            output: d
                .get("result")
                .or_else(|| d.get("error"))
                .cloned()
                .unwrap_or(Value::Null),
            is_error: d.get("success").and_then(Value::as_bool).map(|ok| !ok),
        }],
        t if [
            "session.",
            "hook.",
            "assistant.turn_",
            "assistant.usage",
            "assistant.reasoning",
            "tool.execution_",
            "subagent.",
            "skill.",
        ]
        .iter()
        .any(|p| t.starts_with(p)) =>
        {
            meta(t)
        }
        _ => Vec::new(),
    }
}
