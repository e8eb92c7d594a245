//! Payload shape: sniffing a Cursor payload, and Cursor payloads that carry Claude Code's event
//! names (Claude-compat mode).
//!
//! Cursor also runs the hooks of `.claude/settings.json` (and `settings.local.json`,
//! `~/.claude/settings.json`). A hook installed with `--provider=claude-code` then receives a
//! **Cursor** payload (`conversation_id`, `generation_id`, `cursor_version`,
//! `workspace_roots`): [`sniff`] recognises it with certainty, so the runner answers with this
//! codec (`Confidence::Mismatch`) in Cursor's dialect, which Cursor reads from every hook source
//! (it also honours Claude's `decision`/`hookSpecificOutput` shapes, but its own keys are the
//! documented ones). Whether such a payload names its event in Cursor's camelCase or with
//! Claude's name is not documented (#607): a Claude name on a Cursor-shaped payload is read as
//! the Cursor event of the same meaning ([`CLAUDE_ALIASES`]).

use agenthooks_core::kit::{self, NativeEvents as _, ProjectionIssue};
use agenthooks_core::{Confidence, DecodeError, Provider};
use serde::Deserialize;
use serde_json::Value;

use crate::native::{self, NativeEvent};

/// Claude Code event names and the Cursor event Claude-compat mode runs for them.
pub const CLAUDE_ALIASES: &[(&str, &str)] = &[
    ("SessionStart", "sessionStart"),
    ("SessionEnd", "sessionEnd"),
    ("UserPromptSubmit", "beforeSubmitPrompt"),
    ("PreToolUse", "preToolUse"),
    ("PostToolUse", "postToolUse"),
    ("PostToolUseFailure", "postToolUseFailure"),
    ("SubagentStart", "subagentStart"),
    ("SubagentStop", "subagentStop"),
    ("PreCompact", "preCompact"),
    ("Stop", "stop"),
];

/// The Cursor event for a Claude name.
pub fn alias(name: &str) -> Option<&'static str> {
    CLAUDE_ALIASES.iter().find(|(c, _)| *c == name).map(|(_, n)| *n)
}

#[derive(Deserialize)]
struct Probe {
    hook_event_name: Option<Value>,
    conversation_id: Option<Value>,
    generation_id: Option<Value>,
    cursor_version: Option<Value>,
    workspace_roots: Option<Value>,
}

impl Probe {
    fn name(&self) -> Option<&str> {
        self.hook_event_name.as_ref().and_then(Value::as_str)
    }

    /// Keys no sibling dialect sends.
    fn cursor_shaped(&self) -> bool {
        let s = |v: &Option<Value>| v.as_ref().is_some_and(Value::is_string);
        s(&self.conversation_id) || s(&self.generation_id) || s(&self.cursor_version)
    }
}

/// Payload-shape detection: `Certain` for a Cursor event name (or a Claude alias) with a key
/// only Cursor sends (`conversation_id`, `generation_id`, `cursor_version`), or a Cursor-only
/// event with `workspace_roots`; `Inferred` for a Cursor event name alone.
pub fn sniff(payload: &[u8]) -> Option<Confidence> {
    let p: Probe = serde_json::from_slice(payload).ok()?;
    let name = p.name()?;
    let row = kit::row(native::EVENTS, name).or_else(|| alias(name).and_then(|n| kit::row(native::EVENTS, n)));
    let row = row?;
    let own = kit::row(native::EVENTS, name).is_some();
    if p.cursor_shaped() || (own && row.provider_only && p.workspace_roots.as_ref().is_some_and(Value::is_array)) {
        return Some(Confidence::Certain);
    }
    own.then_some(Confidence::Inferred)
}

/// A decoded payload: the event to project from, the native view, the repairs.
pub(crate) struct Decoded {
    pub(crate) native: NativeEvent,
    pub(crate) view: NativeEvent,
    pub(crate) issues: Vec<ProjectionIssue>,
}

impl Decoded {
    pub(crate) fn view(&self) -> NativeEvent {
        self.view.clone()
    }

    /// Records the issues on the envelope (logged) and returns the event to project from.
    pub(crate) fn attach(self, env: &mut agenthooks_core::Envelope) -> NativeEvent {
        for issue in &self.issues {
            tracing::warn!(provider = %env.provider, event = %env.native, %issue, "payload field not typed as sent");
        }
        env.projection_issues = self.issues;
        self.native
    }
}

/// Decodes tolerantly (the kit's decoder), reading a Claude event name on a Cursor-shaped
/// payload as its Cursor alias.
pub(crate) fn decode(bytes: &[u8], hint: Option<&str>) -> Result<Decoded, DecodeError> {
    let d = NativeEvent::decode(&Provider::CURSOR, bytes, hint)?;
    if let NativeEvent::Other(u) = &d.native {
        if let Some(cursor) = alias(&u.name).filter(|_| u.conversation_id.is_some() || u.cursor_version.is_some()) {
            if let Some(aliased) = decode_as(bytes, &u.name, cursor) {
                return Ok(aliased);
            }
        }
    }
    Ok(Decoded {
        view: d.view(),
        issues: d.issues.clone(),
        native: d.native,
    })
}

/// Decodes a payload named `claude` (a Claude event name) as the Cursor event `cursor`, with
/// the kit's tolerance, keeping `hook_event_name` as sent in the native view.
fn decode_as(bytes: &[u8], claude: &str, cursor: &str) -> Option<Decoded> {
    // Tolerant: a lone surrogate or deep nesting anywhere is repaired (and reported), as the
    // kit's decoder does, never the reason the event falls back to `Other`.
    let (mut v, repairs) = kit::tolerant::parse_slice(agenthooks_core::event::strip_bom(bytes)).ok()?;
    v.as_object_mut()?.insert("hook_event_name".into(), cursor.into());
    let renamed = serde_json::to_vec(&v).ok()?;
    let mut d = NativeEvent::decode(&Provider::CURSOR, &renamed, None).ok()?;
    d.issues.splice(0..0, repairs.into_iter().map(ProjectionIssue::from));
    // Puts the name back as sent: the typed fields round-trip without the `extra` map (which
    // holds any value the kit moved there for its shape), then `extra` is restored.
    let restore = |mut n: NativeEvent| {
        let extra = std::mem::take(n.extra_mut());
        let mut v = serde_json::to_value(&n).ok()?;
        v.as_object_mut()?.insert("hook_event_name".into(), claude.into());
        let mut back = match n {
            NativeEvent::Other(_) => NativeEvent::deserialize_other(cursor, v).ok()?,
            _ => NativeEvent::deserialize_named(cursor, v).ok()?,
        };
        *back.extra_mut() = extra;
        Some(back)
    };
    let view = restore(d.view())?;
    let issues = d.issues.clone();
    let native = restore(d.native)?;
    Some(Decoded { native, view, issues })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing_tells_cursor_from_its_siblings() {
        let cursor = br#"{"hook_event_name":"preToolUse","conversation_id":"c","tool_name":"Shell"}"#;
        assert_eq!(sniff(cursor), Some(Confidence::Certain));
        let ws = br#"{"hook_event_name":"workspaceOpen","workspace_roots":["/w"]}"#;
        assert_eq!(sniff(ws), Some(Confidence::Certain));
        let bare = br#"{"hook_event_name":"preToolUse","tool_name":"x"}"#;
        assert_eq!(sniff(bare), Some(Confidence::Inferred));
        let claude = br#"{"hook_event_name":"PreToolUse","session_id":"s","transcript_path":"/t"}"#;
        assert_eq!(sniff(claude), None);
        let compat = br#"{"hook_event_name":"PreToolUse","conversation_id":"c","cursor_version":"2.4.1"}"#;
        assert_eq!(sniff(compat), Some(Confidence::Certain));
        assert_eq!(sniff(b"nope"), None);
    }

    #[test]
    fn claude_names_on_cursor_payloads_decode_as_the_cursor_event() {
        let b = br#"{"hook_event_name":"PreToolUse","conversation_id":"c","tool_name":"Shell","tool_input":{}}"#;
        let d = decode(b, None).unwrap();
        assert_eq!(d.native.name(), "preToolUse");
        let claude = br#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash"}"#;
        assert!(matches!(decode(claude, None).unwrap().native, NativeEvent::Other(_)));
    }
}
