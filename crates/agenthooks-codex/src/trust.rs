//! Codex's per-hook trust: the `[hooks.state."<key>"]` key and the `trusted_hash` (quirk #9).
//!
//! Codex runs a non-managed command hook only when `config.toml` holds
//! `[hooks.state."<state key>"] trusted_hash = "<hash>"` and the hash equals the one Codex
//! computes from the hook's definition now; otherwise the hook is **skipped silently**. An
//! installer therefore pre-seeds both values, computed with [`state_key`] and [`trusted_hash`].
//!
//! # Algorithm (codex-cli 0.171.0)
//!
//! * **Event label**: the native name in snake case (`PreToolUse` → `pre_tool_use`), for every
//!   row of [`native::EVENTS`] but the argv `notify` payload.
//! * **State key**: `<key_source>:<event_label>:<group_index>:<handler_index>`, where
//!   `key_source` is the absolute, canonicalised path of the `hooks.json` / `config.toml` that
//!   declares the hook (or `<plugin>@<marketplace>:<relative hooks path>` for plugin hooks) and
//!   the indexes are positions in the event's matcher-group array and the group's `hooks` array.
//! * **Identity**: `{"event_name": <event_label>, "hooks": [<handler>], "matcher": <m>}` with the
//!   handler normalised: `type: "command"`, the raw `command` (before `${VAR}` substitution),
//!   `timeout` always present (`unwrap_or(600).max(1)`; `SessionEnd` and `Interrupt`, the rows
//!   with a timeout clamp: `unwrap_or(1)` clamped to 1–3), `async` always present, `statusMessage` only when set. `matcher` is dropped for
//!   `UserPromptSubmit` and `Stop` and when absent; an explicit `""` is kept. Absent optionals
//!   vanish (Codex round-trips the identity through TOML), object keys are sorted recursively
//!   and the JSON is written compactly by `serde_json`.
//! * **Hash**: `sha256:` + lowercase hex SHA-256 of those bytes.
//!
//! Verified against all eleven vectors the real 0.171.0 produced
//! (`tests/data/trust-hash-vectors-0.171.0.json`). ⚠ Newer releases may add
//! `additionalContextLimit` (kept only on the events that accept it and only when ≠ 2500, per
//! upstream source) and `visibilityHint` to the identity; [`CommandHook::additional_context_limit`]
//! follows the upstream rule but is not verified against a real release, and `visibilityHint`
//! is not modelled. Re-check the vectors per release.

use std::sync::OnceLock;

use agenthooks_core::digest::{canonical_json, sha256_tagged};
use agenthooks_core::{Capability, EventRow};
use serde_json::{Map, Value};

use crate::native;

/// Events on which Codex ignores (and drops from the identity) the matcher.
const MATCHERLESS: &[&str] = &["user_prompt_submit", "stop"];

/// Codex's default `additionalContextLimit`; the default is left out of the identity.
const DEFAULT_CONTEXT_LIMIT: u64 = 2500;

/// A hook event's trust facts, from its row in [`native::EVENTS`].
struct Hooked {
    /// The snake-case label Codex uses in state keys and identities.
    label: String,
    row: &'static EventRow,
}

/// Every event a `hooks.json` declares (the rows but the argv `notify` payload), labelled
/// the way Codex serialises its event names (`PreToolUse` → `pre_tool_use`).
fn hooked() -> &'static [Hooked] {
    static HOOKED: OnceLock<Vec<Hooked>> = OnceLock::new();
    HOOKED.get_or_init(|| {
        native::EVENTS
            .iter()
            .filter(|row| row.name != native::NOTIFY_EVENT)
            .map(|row| Hooked {
                label: snake(row.name),
                row,
            })
            .collect()
    })
}

fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, ch) in name.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

fn hooked_event(event: &str) -> Option<&'static Hooked> {
    hooked().iter().find(|h| h.row.name == event || h.label == event)
}

/// The trust label of an event, from its native name (`PreToolUse`) or its label itself
/// (`pre_tool_use`); `None` for events Codex does not hook.
///
/// ```
/// use agenthooks_codex::trust::event_label;
/// assert_eq!(event_label("PermissionRequest"), Some("permission_request"));
/// assert_eq!(event_label("post_compact"), Some("post_compact"));
/// assert_eq!(event_label("Notification"), None);
/// ```
pub fn event_label(event: &str) -> Option<&'static str> {
    hooked_event(event).map(|h| h.label.as_str())
}

/// Why a trust value could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TrustError {
    /// The event is not one Codex hooks.
    #[error("`{0}` is not a Codex hook event")]
    UnknownEvent(String),
}

/// One command handler as declared in `hooks.json` / `config.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CommandHook {
    /// The command text exactly as written (Unix form, before `${VAR}` substitution).
    pub command: String,
    /// `timeout` in seconds, if the config sets one.
    pub timeout: Option<u64>,
    /// `async`.
    pub is_async: bool,
    /// `statusMessage`, if set.
    pub status_message: Option<String>,
    /// `additionalContextLimit`, if set (newer releases; ⚠ unverified, see the module docs).
    pub additional_context_limit: Option<u64>,
}

impl CommandHook {
    /// A synchronous handler with no timeout or status message.
    pub fn new(command: impl Into<String>) -> Self {
        Self {
            command: command.into(),
            timeout: None,
            is_async: false,
            status_message: None,
            additional_context_limit: None,
        }
    }
}

agenthooks_core::kit::setters! {
    impl CommandHook {
        /// Sets `timeout` (seconds).
        with_timeout(timeout: u64) => Some;
        /// Sets `async`.
        with_async(is_async: bool);
        /// Sets `statusMessage`.
        with_status_message(status_message: impl Into<String>) => Some;
        /// Sets `additionalContextLimit`.
        with_additional_context_limit(additional_context_limit: u64) => Some;
    }
}

/// The `[hooks.state]` key of a handler:
/// `<key_source>:<event_label>:<group_index>:<handler_index>`.
///
/// `key_source` is the canonical absolute path of the declaring file (or the plugin key);
/// `event` is a native name or a label.
///
/// ```
/// use agenthooks_codex::trust;
/// assert_eq!(
///     trust::state_key("/p/.codex/hooks.json", "PreToolUse", 0, 1)?,
///     "/p/.codex/hooks.json:pre_tool_use:0:1"
/// );
/// # Ok::<(), trust::TrustError>(())
/// ```
pub fn state_key(
    key_source: &str,
    event: &str,
    group_index: usize,
    handler_index: usize,
) -> Result<String, TrustError> {
    let label = &hooked_or_err(event)?.label;
    Ok(format!("{key_source}:{label}:{group_index}:{handler_index}"))
}

/// The canonical identity bytes Codex hashes for one handler of a matcher group.
pub fn identity(event: &str, matcher: Option<&str>, hook: &CommandHook) -> Result<String, TrustError> {
    let hooked = hooked_or_err(event)?;
    let label = hooked.label.as_str();

    // Codex 0.171 clamps the events of a clamped row (SessionEnd, Interrupt: 3 s, default 1)
    // before hashing (e2e-verified).
    let timeout = match hooked.row.timeout_clamp {
        Some(max) => hook.timeout.unwrap_or(1).clamp(1, max.as_secs().max(1)),
        None => hook.timeout.unwrap_or(600).max(1),
    };
    let mut handler = Map::new();
    handler.insert("type".into(), Value::from("command"));
    handler.insert("command".into(), Value::from(hook.command.as_str()));
    handler.insert("timeout".into(), Value::from(timeout));
    handler.insert("async".into(), Value::from(hook.is_async));
    if let Some(message) = &hook.status_message {
        handler.insert("statusMessage".into(), Value::from(message.as_str()));
    }
    if let Some(limit) = hook.additional_context_limit {
        // Accepted by the events that take `additionalContext` (upstream source, newer releases).
        if hooked.row.caps.contains(Capability::AddContext) && limit != DEFAULT_CONTEXT_LIMIT {
            handler.insert("additionalContextLimit".into(), Value::from(limit));
        }
    }

    let mut identity = Map::new();
    identity.insert("event_name".into(), Value::from(label));
    if let Some(matcher) = matcher.filter(|_| !MATCHERLESS.contains(&label)) {
        identity.insert("matcher".into(), Value::from(matcher));
    }
    identity.insert("hooks".into(), Value::Array(vec![Value::Object(handler)]));

    Ok(canonical_json(&Value::Object(identity)))
}

/// The `trusted_hash` Codex expects for one handler: `sha256:<lowercase hex>` of
/// [`identity`].
///
/// ```
/// use agenthooks_codex::trust::{self, CommandHook};
/// let hash = trust::trusted_hash("PreToolUse", Some("Bash"), &CommandHook::new("guard"))?;
/// assert!(hash.starts_with("sha256:") && hash.len() == 7 + 64);
/// # Ok::<(), trust::TrustError>(())
/// ```
pub fn trusted_hash(event: &str, matcher: Option<&str>, hook: &CommandHook) -> Result<String, TrustError> {
    let bytes = identity(event, matcher, hook)?;
    Ok(sha256_tagged(bytes.as_bytes()))
}

fn hooked_or_err(event: &str) -> Result<&'static Hooked, TrustError> {
    hooked_event(event).ok_or_else(|| TrustError::UnknownEvent(event.to_owned()))
}
