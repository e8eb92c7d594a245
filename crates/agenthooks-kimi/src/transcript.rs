//! Kimi Code's transcript format ([`TRANSCRIPT`], returned by the codec's
//! [`transcript`](agenthooks_core::Codec::transcript)): `agents/<id>/wire.jsonl`, found by
//! [`Transcript::locate`] (the payloads name none). `context.append_message` holds the user's
//! prompts (user-role messages the agent injects are [`Item::System`]),
//! `context.append_loop_event` the assistant's text and the tool calls and results
//! (`content.part`, `tool.call`, `tool.result`); every other type is meta (bookkeeping, by Kimi's
//! own account). Formats as the real agent wrote them (the corpus's
//! `fixtures/kimi/<version>/transcript.jsonl`). Anything not recognised yields no items.

use std::path::{Path, PathBuf};

use serde_json::Value;

use agenthooks_core::kit::transcript::{meta, str_at, text_of, Item, TranscriptFormat};
use agenthooks_core::{Env, Envelope};

/// Kimi Code's transcript format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Transcript;

/// The format the codec hands out.
pub static TRANSCRIPT: Transcript = Transcript;

impl TranscriptFormat for Transcript {
    fn classify(&self, v: &Value) -> (String, Vec<Item>) {
        let ty = str_at(v, "type").to_owned();
        let items = kimi(&ty, v);
        (ty, items)
    }

    fn locates_unnamed(&self) -> bool {
        true
    }

    /// The session file Kimi Code keeps without naming it:
    /// `<$KIMI_CODE_HOME or ~/.kimi-code>/sessions/<workspace>/<session id>/agents/<main or the
    /// subagent id>/wire.jsonl`. `None` when there is none, or the session id is not one path
    /// component.
    fn locate(&self, envelope: &Envelope, vars: &dyn Env) -> Option<PathBuf> {
        let id = &envelope.session.id;
        if id.is_empty() || id.contains(['/', '\\']) || id.starts_with('.') {
            return None;
        }
        let home = vars
            .var("KIMI_CODE_HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .or_else(|| vars.var("HOME").map(|h| Path::new(&h).join(".kimi-code")))?;
        let agent = envelope.agent.as_ref().map_or("main", |a| a.id.as_str());
        std::fs::read_dir(home.join("sessions"))
            .ok()?
            .flatten()
            .map(|w| w.path().join(id).join("agents").join(agent).join("wire.jsonl"))
            .find(|p| p.is_file())
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
