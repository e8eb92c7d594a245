//! Factory Droid's transcript format ([`TRANSCRIPT`], returned by the codec's
//! [`transcript`](agenthooks_core::Codec::transcript)): the session JSONL
//! `~/.factory/sessions/<cwd slug>/<session id>.jsonl` that every hook payload names in
//! `transcript_path`. Records as the 0.215.0 and 0.225.2 releases write them (the corpus's
//! `fixtures/droid/<version>/transcript.jsonl`):
//!
//! - `session_start` (the header: id, title, cwd), `agent_turn_outcome` (a turn's end) and
//!   `compaction_state` (the summary that replaces older messages after a compaction, read from
//!   the release's session loader; no corpus run compacts): [`Item::Meta`];
//! - `message` with `message.role` `user` (the prompt's text blocks, `tool_result` blocks) or
//!   `assistant` (`text`, `tool_use`), Anthropic-style content blocks. Droid also stores two kinds
//!   of bookkeeping as user messages: a hook run (`message.hookEventName`, empty content, the
//!   hook's commands and results) is `Meta` `hook:<event>`, and the context it injects for the
//!   model (`visibility: "llm_only"`, text blocks that open with `<system-reminder>`) is
//!   [`Item::System`], never a user prompt.
//!
//! Anything not recognised yields no items.
//!
//! ```
//! use agenthooks_core::kit::transcript::{Item, TranscriptFormat};
//! use agenthooks_droid::transcript::TRANSCRIPT;
//!
//! let line = serde_json::json!({"type": "message", "message": {"role": "user",
//!     "content": [{"type": "text", "text": "write notes"}]}});
//! let (ty, items) = TRANSCRIPT.classify(&line);
//! assert_eq!((ty.as_str(), items), ("message", vec![Item::UserPrompt { text: "write notes".into() }]));
//! ```

use serde_json::Value;

use agenthooks_core::kit::transcript::{blocks, meta, str_at, ByType, Item, Speaker};

/// The format the codec hands out.
pub static TRANSCRIPT: ByType = ByType::new(droid);

/// The opening of the context Droid injects as user-role text (tool lists, skills, the date).
const SYSTEM_REMINDER: &str = "<system-reminder>";

fn droid(ty: &str, v: &Value) -> Vec<Item> {
    match ty {
        "message" => message(v.get("message").unwrap_or(&Value::Null)),
        "session_start" | "agent_turn_outcome" | "compaction_state" => meta(ty),
        _ => Vec::new(),
    }
}

/// One `message` record's `message` object.
fn message(m: &Value) -> Vec<Item> {
    if let Some(event) = m.get("hookEventName").and_then(Value::as_str) {
        return meta(format!("hook:{event}"));
    }
    let content = m.get("content").unwrap_or(&Value::Null);
    let role = str_at(m, "role");
    let items: Vec<Item> = match role {
        "user" if str_at(m, "visibility") == "llm_only" => blocks(content, Speaker::System),
        "user" => blocks(content, Speaker::User)
            .into_iter()
            .map(|item| match item {
                Item::UserPrompt { text } if text.trim_start().starts_with(SYSTEM_REMINDER) => Item::System { text },
                other => other,
            })
            .collect(),
        "assistant" => blocks(content, Speaker::Assistant),
        "system" => blocks(content, Speaker::System),
        _ => return Vec::new(),
    };
    if items.is_empty() {
        meta(format!("message:{role}:empty"))
    } else {
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::kit::transcript::TranscriptFormat;
    use serde_json::json;

    fn items(v: &Value) -> Vec<Item> {
        TRANSCRIPT.classify(v).1
    }

    #[test]
    fn reminders_are_system_text_even_without_the_visibility_mark() {
        let v = json!({"type": "message", "message": {"role": "user", "content": [
            {"type": "text", "text": "\n<system-reminder>Current date: x</system-reminder>"},
            {"type": "text", "text": "fix the bug"},
        ]}});
        assert_eq!(
            items(&v),
            vec![
                Item::System {
                    text: "\n<system-reminder>Current date: x</system-reminder>".into()
                },
                Item::UserPrompt {
                    text: "fix the bug".into()
                },
            ]
        );
        let v = json!({"type": "message", "message": {"role": "user", "visibility": "llm_only",
            "content": [{"type": "text", "text": "context"}]}});
        assert_eq!(items(&v), vec![Item::System { text: "context".into() }]);
    }

    #[test]
    fn hook_runs_and_empty_messages_are_meta_and_unknown_shapes_yield_nothing() {
        let hook = json!({"type": "message", "message": {"role": "user", "content": [],
            "hookEventName": "PreToolUse", "hookStatus": "completed"}});
        assert_eq!(items(&hook), meta("hook:PreToolUse"));
        let empty = json!({"type": "message", "message": {"role": "assistant", "content": []}});
        assert_eq!(items(&empty), meta("message:assistant:empty"));
        let compaction = json!({"type": "compaction_state", "id": "c1", "summaryText": "earlier work"});
        assert_eq!(items(&compaction), meta("compaction_state"));
        for v in [
            json!({"type": "message"}),
            json!({"type": "message", "message": {"role": 7}}),
            json!({"type": "todo_state"}),
            json!([1, 2]),
        ] {
            assert!(items(&v).is_empty(), "{v}");
        }
    }
}
