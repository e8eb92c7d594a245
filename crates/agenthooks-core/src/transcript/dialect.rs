//! Per-agent record typing: a parsed line in, its type name and items out. Formats as the real
//! agents wrote them (the corpus's `fixtures/<agent>/<version>/transcript.jsonl`) and, where no
//! capture exists yet, as their sources write them. Anything not recognised yields no items.

use serde_json::Value;

use super::{Dialect, Item};

/// The record's type name and what it holds.
pub(super) fn classify(dialect: Dialect, v: &Value) -> (String, Vec<Item>) {
    let ty = str_at(v, "type").to_owned();
    let items = match dialect {
        Dialect::ClaudeCode => claude(&ty, v),
        Dialect::Codex => codex(&ty, v),
        Dialect::Gemini => gemini(&ty, v),
        Dialect::Copilot => copilot(&ty, v),
        Dialect::Kimi => kimi(&ty, v),
        Dialect::Cursor => cursor(v),
        Dialect::Unknown => Vec::new(),
    };
    let ty = if ty.is_empty() && dialect == Dialect::Cursor {
        str_at(v, "role").to_owned()
    } else {
        ty
    };
    (ty, items)
}

fn str_at<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn meta(what: impl Into<String>) -> Vec<Item> {
    vec![Item::Meta { what: what.into() }]
}

/// Text of a string, or of an array of parts (`{"type":"text","text":…}`, `{"text":…}`),
/// joined by newlines.
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter(|p| {
                    matches!(
                        p.get("type").and_then(Value::as_str),
                        None | Some("text" | "Text" | "input_text" | "output_text")
                    )
                })
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n"))
        }
        _ => None,
    }
}

/// Anthropic-style content blocks (Claude Code, Cursor): text, `tool_use`, `tool_result`.
fn blocks(content: &Value, user: bool, system: bool) -> Vec<Item> {
    let mut out = Vec::new();
    let Some(parts) = content.as_array() else {
        if let Some(text) = content.as_str() {
            out.push(text_item(text.to_owned(), user, system));
        }
        return out;
    };
    for b in parts {
        match str_at(b, "type") {
            "text" => out.push(text_item(str_at(b, "text").to_owned(), user, system)),
            "tool_use" => out.push(Item::ToolCall {
                id: str_at(b, "id").to_owned(),
                name: str_at(b, "name").to_owned(),
                input: b.get("input").cloned().unwrap_or(Value::Null),
            }),
            "tool_result" => out.push(Item::ToolResult {
                id: str_at(b, "tool_use_id").to_owned(),
                output: b.get("content").cloned().unwrap_or(Value::Null),
                is_error: b.get("is_error").and_then(Value::as_bool),
            }),
            "thinking" | "redacted_thinking" | "image" | "document" => out.push(Item::Meta {
                what: str_at(b, "type").to_owned(),
            }),
            _ => {}
        }
    }
    out
}

fn text_item(text: String, user: bool, system: bool) -> Item {
    match (user, system) {
        (_, true) => Item::System { text },
        (true, false) => Item::UserPrompt { text },
        (false, false) => Item::AssistantText { text },
    }
}

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
        "user" => blocks(content, true, is_meta),
        "assistant" => blocks(content, false, false),
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

fn kimi(ty: &str, v: &Value) -> Vec<Item> {
    match ty {
        "context.append_message" => {
            let m = v.get("message").unwrap_or(&Value::Null);
            let text = text_of(m.get("content").unwrap_or(&Value::Null)).unwrap_or_default();
            // User-role messages the agent injects (skill activations, reminders) carry an
            // `origin` other than the user's.
            let typed = matches!(m.pointer("/origin/kind").and_then(Value::as_str), None | Some("user"));
            match str_at(m, "role") {
                "user" if typed => vec![Item::UserPrompt { text }],
                "assistant" => vec![Item::AssistantText { text }],
                "tool" => vec![Item::ToolResult {
                    id: str_at(m, "toolCallId").to_owned(),
                    output: m.get("content").cloned().unwrap_or(Value::Null),
                    is_error: None,
                }],
                _ => vec![Item::System { text }],
            }
        }
        "context.append_loop_event" => {
            let e = v.get("event").unwrap_or(&Value::Null);
            match str_at(e, "type") {
                "content.part" => {
                    let part = e.get("part").unwrap_or(&Value::Null);
                    match str_at(part, "type") {
                        "text" => vec![Item::AssistantText {
                            text: str_at(part, "text").to_owned(),
                        }],
                        t => meta(format!("content.part:{t}")),
                    }
                }
                "tool.call" => {
                    // 2.1.0: `toolCallId`, `name`, `args` on the event itself.
                    let c = e.get("toolCall").unwrap_or(e);
                    vec![Item::ToolCall {
                        id: first_str(c, &["toolCallId", "id"]),
                        name: first_str(c, &["name", "toolName"]),
                        input: ["args", "input", "arguments"]
                            .iter()
                            .find_map(|k| c.get(*k))
                            .cloned()
                            .unwrap_or(Value::Null),
                    }]
                }
                "tool.result" => {
                    let r = e.get("result").unwrap_or(&Value::Null);
                    vec![Item::ToolResult {
                        id: first_str(e, &["toolCallId", "id"]),
                        output: r.get("output").cloned().unwrap_or_else(|| r.clone()),
                        is_error: r.get("isError").or_else(|| e.get("isError")).and_then(Value::as_bool),
                    }]
                }
                t => meta(format!("loop:{t}")),
            }
        }
        "" => Vec::new(),
        // Everything else is bookkeeping by the agent's own account (its context-recovery
        // notes: "Every other type … is bookkeeping").
        t => meta(t),
    }
}

fn first_str(v: &Value, keys: &[&str]) -> String {
    keys.iter()
        .find_map(|k| v.get(*k).and_then(Value::as_str))
        .unwrap_or("")
        .to_owned()
}

/// Cursor's agent transcripts: `{"role": "user"|"assistant", "message": {"content": …}}`.
fn cursor(v: &Value) -> Vec<Item> {
    let content = v
        .pointer("/message/content")
        .or_else(|| v.get("content"))
        .unwrap_or(&Value::Null);
    match str_at(v, "role") {
        "user" => blocks(content, true, false),
        "assistant" => blocks(content, false, false),
        "system" => blocks(content, false, true),
        _ => Vec::new(),
    }
}
