//! Cursor's transcript format ([`TRANSCRIPT`], returned by the codec's
//! [`transcript`](agenthooks_core::Codec::transcript)): agent transcript JSONL, `role`
//! `user`/`assistant` with `message.content` text and `tool_use`/`tool_result` blocks; the `role`
//! stands for the type. Typed as Cursor's sources write it (no capture yet: no Cursor build is
//! installable here, and the CLI sends `transcript_path: null`). Anything not recognised yields no
//! items.

use serde_json::Value;

use agenthooks_core::kit::transcript::{blocks, str_at, Item, Speaker, TranscriptFormat};

/// Cursor's transcript format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Transcript;

/// The format the codec hands out.
pub static TRANSCRIPT: Transcript = Transcript;

impl TranscriptFormat for Transcript {
    fn classify(&self, v: &Value) -> (String, Vec<Item>) {
        let ty = match str_at(v, "type") {
            "" => str_at(v, "role"),
            t => t,
        };
        (ty.to_owned(), cursor(v))
    }
}

fn cursor(v: &Value) -> Vec<Item> {
    let content = v
        .pointer("/message/content")
        .or_else(|| v.get("content"))
        .unwrap_or(&Value::Null);
    match str_at(v, "role") {
        "user" => blocks(content, Speaker::User),
        "assistant" => blocks(content, Speaker::Assistant),
        "system" => blocks(content, Speaker::System),
        _ => Vec::new(),
    }
}
