//! Transcript formats: the part of the contract between a provider crate, which knows how its agent writes
//! a session's transcript, and the readers (`agenthooks-runtime`'s `transcript::{Reader, Tail}`,
//! the prompt backfill, `agenthooks transcript`), which do the I/O.
//!
//! A codec hands its format out with [`Codec::transcript`](crate::Codec::transcript): a
//! [`TranscriptFormat`] types one parsed record (a line of a JSONL file, or one part of a JSON
//! document) into its type name and the [`Item`]s it holds. Nothing here reads a file. A record
//! a format does not recognise yields no items (it is kept, untyped, by the readers); [`Untyped`]
//! is the format of an agent that names no transcript.
//!
//! The helpers ([`str_at`], [`text_of`], [`blocks`], [`meta`]) are the shapes several agents
//! share (Anthropic-style content blocks, text parts).
//!
//! ```
//! use agenthooks_core::kit::transcript::{str_at, Item, TranscriptFormat};
//! use serde_json::{json, Value};
//!
//! #[derive(Debug)]
//! struct Toy;
//! impl TranscriptFormat for Toy {
//!     fn classify(&self, record: &Value) -> (String, Vec<Item>) {
//!         let ty = str_at(record, "type").to_owned();
//!         let items = match ty.as_str() {
//!             "prompt" => vec![Item::UserPrompt { text: str_at(record, "text").to_owned() }],
//!             _ => Vec::new(),
//!         };
//!         (ty, items)
//!     }
//! }
//! let (ty, items) = Toy.classify(&json!({"type": "prompt", "text": "hi"}));
//! assert_eq!((ty.as_str(), items), ("prompt", vec![Item::UserPrompt { text: "hi".into() }]));
//! ```

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use crate::codec::Env;
use crate::event::Envelope;

/// How one agent writes its session transcripts (see the [module docs](self)).
pub trait TranscriptFormat: fmt::Debug + Send + Sync + 'static {
    /// The record's type name as the agent spells it (`""` when it has none) and what it holds,
    /// in the record's order; no items for a record not recognised.
    fn classify(&self, record: &Value) -> (String, Vec<Item>);

    /// Whether a file whose first line is not a complete JSON value is one pretty-printed JSON
    /// document (`{…, "messages": [...]}`, Gemini CLI before its JSONL format) rather than lines.
    fn may_be_document(&self) -> bool {
        false
    }

    /// Whether [`locate`](Self::locate) can find a session's file when the payload names none
    /// (the runner asks before it touches the file system).
    fn locates_unnamed(&self) -> bool {
        false
    }

    /// The transcript file of a session whose payload names none (Kimi Code keeps one without
    /// naming it); variables are read through `vars`. `None` by default.
    fn locate(&self, envelope: &Envelope, vars: &dyn Env) -> Option<PathBuf> {
        let _ = (envelope, vars);
        None
    }
}

/// The format of an agent whose records name their type in a top-level `type` field: that name,
/// and what `items` reads from the record under it. A provider crate's transcript format is
/// usually one `static` of it.
///
/// ```
/// use agenthooks_core::kit::transcript::{str_at, ByType, Item, TranscriptFormat};
/// fn items(ty: &str, v: &serde_json::Value) -> Vec<Item> {
///     match ty {
///         "user" => vec![Item::UserPrompt { text: str_at(v, "text").to_owned() }],
///         _ => Vec::new(),
///     }
/// }
/// static TRANSCRIPT: ByType = ByType::new(items);
/// let (ty, got) = TRANSCRIPT.classify(&serde_json::json!({"type": "user", "text": "hi"}));
/// assert_eq!((ty.as_str(), got), ("user", vec![Item::UserPrompt { text: "hi".into() }]));
/// assert!(!TRANSCRIPT.may_be_document());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ByType {
    items: fn(&str, &Value) -> Vec<Item>,
    document: bool,
}

impl ByType {
    /// The format whose records `items` reads, by their type.
    pub const fn new(items: fn(&str, &Value) -> Vec<Item>) -> Self {
        Self { items, document: false }
    }

    /// A file may also be one pretty-printed JSON document
    /// ([`TranscriptFormat::may_be_document`]).
    #[must_use]
    pub const fn document(mut self) -> Self {
        self.document = true;
        self
    }
}

impl TranscriptFormat for ByType {
    fn classify(&self, record: &Value) -> (String, Vec<Item>) {
        let ty = str_at(record, "type").to_owned();
        let items = (self.items)(&ty, record);
        (ty, items)
    }

    fn may_be_document(&self) -> bool {
        self.document
    }
}

/// The format of an agent that names no transcript: every record is kept untyped (its `type`
/// only).
#[derive(Debug, Clone, Copy, Default)]
pub struct Untyped;

impl TranscriptFormat for Untyped {
    fn classify(&self, record: &Value) -> (String, Vec<Item>) {
        (str_at(record, "type").to_owned(), Vec::new())
    }
}

/// One typed piece of a transcript record. A record may hold several (a Claude `assistant`
/// line with text and a tool call; a Gemini message with its tool calls and their results).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "item", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Item {
    /// Text the user sent.
    UserPrompt {
        /// The prompt text (text parts joined by newlines).
        text: String,
    },
    /// Text the assistant wrote.
    AssistantText {
        /// The text.
        text: String,
    },
    /// A tool call the assistant made.
    ToolCall {
        /// The call id (`""` when the agent records none).
        id: String,
        /// The tool name as the agent spells it.
        name: String,
        /// The input, verbatim.
        input: Value,
    },
    /// A tool call's result.
    ToolResult {
        /// The id of the call it answers (`""` when the agent records none).
        id: String,
        /// The output, verbatim.
        output: Value,
        /// Whether the agent marked it failed (`None` when it does not say).
        is_error: Option<bool>,
    },
    /// System or context text: system prompts, injected context, agent notices.
    System {
        /// The text (`""` when the record has none, e.g. a hook summary).
        text: String,
    },
    /// A known bookkeeping record (session header, hook progress, token counts, …).
    Meta {
        /// What it is: the record's type, refined where the agent nests one
        /// (`attachment:hook_success`, `event_msg:token_count`).
        what: String,
    },
}

/// Who wrote a run of content blocks ([`blocks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    /// The user: text blocks are [`Item::UserPrompt`].
    User,
    /// The assistant: text blocks are [`Item::AssistantText`].
    Assistant,
    /// The agent itself (injected context): text blocks are [`Item::System`].
    System,
}

/// The string at `key` (`""` when absent or not a string).
///
/// ```
/// assert_eq!(agenthooks_core::kit::transcript::str_at(&serde_json::json!({"a": "x", "b": 1}), "b"), "");
/// ```
pub fn str_at<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A bookkeeping record: one [`Item::Meta`].
pub fn meta(what: impl Into<String>) -> Vec<Item> {
    vec![Item::Meta { what: what.into() }]
}

/// Text of a string, or of an array of parts (`{"type":"text","text":…}`, `{"text":…}`),
/// joined by newlines.
///
/// ```
/// use serde_json::json;
/// let parts = json!([{"type": "text", "text": "a"}, {"type": "image"}, {"text": "b"}]);
/// assert_eq!(agenthooks_core::kit::transcript::text_of(&parts).as_deref(), Some("a\nb"));
/// ```
pub fn text_of(v: &Value) -> Option<String> {
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

/// Anthropic-style content blocks (Claude Code, Cursor): text, `tool_use`, `tool_result`; a
/// plain string is one text block. Thinking, image and document blocks are [`Item::Meta`].
///
/// ```
/// use agenthooks_core::kit::transcript::{blocks, Item, Speaker};
/// let content = serde_json::json!([{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]);
/// assert!(matches!(&blocks(&content, Speaker::Assistant)[0], Item::ToolCall { id, .. } if id == "t1"));
/// ```
pub fn blocks(content: &Value, speaker: Speaker) -> Vec<Item> {
    let mut out = Vec::new();
    let Some(parts) = content.as_array() else {
        if let Some(text) = content.as_str() {
            out.push(text_item(text.to_owned(), speaker));
        }
        return out;
    };
    for b in parts {
        match str_at(b, "type") {
            "text" => out.push(text_item(str_at(b, "text").to_owned(), speaker)),
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

fn text_item(text: String, speaker: Speaker) -> Item {
    match speaker {
        Speaker::System => Item::System { text },
        Speaker::User => Item::UserPrompt { text },
        Speaker::Assistant => Item::AssistantText { text },
    }
}
