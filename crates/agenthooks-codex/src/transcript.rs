//! Codex's transcript format ([`TRANSCRIPT`], returned by the codec's
//! [`transcript`](agenthooks_core::Codec::transcript)): rollout JSONL: `event_msg` `user_message`/`agent_message` (≤ 0.14x) or `item_completed` `UserMessage`/`AgentMessage` (0.17x): what the user typed and read; `response_item` `function_call`/`function_call_output` (and the custom and local-shell calls); the `response_item` messages (the model's input and output, injected context included) are [`Item::System`]. Formats as the real agent
//! wrote them (the corpus's `fixtures/codex/<version>/transcript.jsonl`). Anything not
//! recognised yields no items.

use serde_json::Value;

use agenthooks_core::kit::transcript::{meta, str_at, text_of, ByType, Item};

/// The format the codec hands out.
pub static TRANSCRIPT: ByType = ByType::new(codex);

fn codex(ty: &str, v: &Value) -> Vec<Item> {
    let p = v.get("payload").unwrap_or(&Value::Null);
    let pty = str_at(p, "type");
    match (ty, pty) {
        ("event_msg", "user_message") => vec![Item::UserPrompt {
            text: str_at(p, "message").to_owned(),
        }],
        ("event_msg", "agent_message") => vec![Item::AssistantText {
            text: str_at(p, "message").to_owned(),
        }],
        // 0.17x: the UI items arrive as `item_completed` (`UserMessage`, `AgentMessage`, …).
        ("event_msg", "item_completed") => {
            let item = p.get("item").unwrap_or(&Value::Null);
            let text = || text_of(item.get("content").unwrap_or(&Value::Null)).unwrap_or_default();
            match str_at(item, "type") {
                "UserMessage" => vec![Item::UserPrompt { text: text() }],
                "AgentMessage" => vec![Item::AssistantText { text: text() }],
                t => meta(format!("item_completed:{t}")),
            }
        }
        ("event_msg", t) => meta(format!("event_msg:{t}")),
        ("response_item", "function_call" | "custom_tool_call") => vec![Item::ToolCall {
            id: str_at(p, "call_id").to_owned(),
            name: str_at(p, "name").to_owned(),
            // `arguments` is the JSON text of the arguments: parsed when it parses.
            input: match p.get("arguments").or_else(|| p.get("input")) {
                Some(Value::String(s)) => serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone())),
                Some(v) => v.clone(),
                None => Value::Null,
            },
        }],
        ("response_item", "local_shell_call") => vec![Item::ToolCall {
            id: str_at(p, "call_id").to_owned(),
            name: "local_shell".to_owned(),
            input: p.get("action").cloned().unwrap_or(Value::Null),
        }],
        ("response_item", "function_call_output" | "custom_tool_call_output") => vec![Item::ToolResult {
            id: str_at(p, "call_id").to_owned(),
            output: p.get("output").cloned().unwrap_or(Value::Null),
            is_error: p.pointer("/output/success").and_then(Value::as_bool).map(|ok| !ok),
        }],
        // The model's input and output as sent; the user's and the assistant's words are the
        // `event_msg` records above (the same text, without the injected context).
        ("response_item", "message") => vec![Item::System {
            text: text_of(p.get("content").unwrap_or(&Value::Null)).unwrap_or_default(),
        }],
        ("response_item", t) => meta(format!("response_item:{t}")),
        ("session_meta" | "turn_context" | "world_state" | "compacted" | "token_usage_record", _) => meta(ty),
        _ => Vec::new(),
    }
}
