//! Codex per-hook trust (quirk #9): the state key and trusted hash, computed exactly as Codex
//! does — by the Codex codec's implementation ([`agenthooks_codex::trust`]), adapted here to
//! handlers as they stand in config files (reference: Codex "Trust — exact algorithm"; vectors verified against codex 0.171.0).
//!
//! Codex runs a non-managed hook only if `[hooks.state."<key>"].trusted_hash` in the user's
//! `config.toml` equals the hook's current hash; otherwise it skips the hook **silently**.
//!
//! - **State key**: `<source>:<event_label>:<group_index>:<handler_index>`, where `source` is
//!   the absolute canonical path of the `hooks.json`/`config.toml` that declares the hook.
//! - **Hash**: `sha256:` + lowercase hex SHA-256 of the identity
//!   `{"event_name", "matcher"?, "hooks": [normalized handler]}` serialized as compact JSON with
//!   keys sorted recursively. The normalized handler is `type: "command"`, `command`,
//!   `timeout` always present (`unwrap_or(600).max(1)`; `SessionEnd` and `Interrupt`
//!   `unwrap_or(1)` clamped to 1–3), `async` always present, `statusMessage` only when set. The matcher is dropped for
//!   `UserPromptSubmit` and `Stop` and kept verbatim (even `""`) elsewhere when present.
//!
//! ```
//! use agenthooks_install::codex_trust::{hook_hash, identity, state_key};
//! use serde_json::json;
//! let handler = json!({"type": "command", "command": "guard"});
//! let id = identity("PreToolUse", Some(&json!("Bash")), &handler).unwrap();
//! assert_eq!(id, r#"{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"guard","timeout":600,"type":"command"}],"matcher":"Bash"}"#);
//! assert!(hook_hash("PreToolUse", Some(&json!("Bash")), &handler).unwrap().starts_with("sha256:"));
//! assert_eq!(state_key("/p/.codex/hooks.json", "pre_tool_use", 0, 1), "/p/.codex/hooks.json:pre_tool_use:0:1");
//! ```

use agenthooks_codex::trust::{self as codex, CommandHook};
use serde_json::Value;

/// Codex's default hook timeout, seconds.
pub const DEFAULT_TIMEOUT: u64 = 600;

/// The event label of a native event (`PreToolUse` → `pre_tool_use`).
pub fn event_label(native: &str) -> Option<&'static str> {
    codex::event_label(native)
}

/// The state key of a hook.
pub fn state_key(source: &str, label: &str, group: usize, handler: usize) -> String {
    format!("{source}:{label}:{group}:{handler}")
}

/// The canonical identity bytes of one command handler as it stands in a config file (a JSON
/// object), or `None` for an unknown event or a handler Codex does not run (not
/// `type: "command"`, no `command` string). The algorithm is the Codex codec's
/// ([`agenthooks_codex::trust::identity`]); this adapts a config handler to it.
pub fn identity(native: &str, matcher: Option<&Value>, handler: &Value) -> Option<String> {
    let h = handler.as_object()?;
    if h.get("type").and_then(Value::as_str) != Some("command") {
        return None;
    }
    let mut hook = CommandHook::new(h.get("command").and_then(Value::as_str)?);
    hook.timeout = h.get("timeout").and_then(Value::as_u64);
    hook.is_async = h.get("async").and_then(Value::as_bool).unwrap_or(false);
    hook.status_message = h.get("statusMessage").and_then(Value::as_str).map(str::to_owned);
    hook.additional_context_limit = h.get("additionalContextLimit").and_then(Value::as_u64);
    let matcher = match matcher {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) => Some(m.as_str()),
        // Codex's config schema only has string matchers.
        Some(_) => return None,
    };
    codex::identity(native, matcher, &hook).ok()
}

/// `sha256:<hex>` of identity bytes.
pub fn trusted_hash(identity: &str) -> String {
    agenthooks_core::digest::sha256_tagged(identity.as_bytes())
}

/// The trusted hash of one handler (see [`identity`]).
pub fn hook_hash(native: &str, matcher: Option<&Value>, handler: &Value) -> Option<String> {
    identity(native, matcher, handler).map(|id| trusted_hash(&id))
}

/// The state key and trusted hash of every handler of a `hooks.json` document (`source`: the
/// file's canonical path), in file order: what `config.toml` must hold for Codex to run them.
/// A handler Codex does not run, or one of an unknown event, has no entry.
///
/// ```
/// use agenthooks_install::codex_trust::handler_entries;
/// let hooks = serde_json::json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "g"}]}]}});
/// let entries = handler_entries("/p/.codex/hooks.json", &hooks);
/// assert_eq!(entries[0].0, "/p/.codex/hooks.json:stop:0:0");
/// assert!(entries[0].1.starts_with("sha256:"));
/// ```
pub fn handler_entries(source: &str, hooks_json: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let events = hooks_json.get("hooks").and_then(Value::as_object).into_iter().flatten();
    for (event, groups) in events {
        let Some(label) = event_label(event) else { continue };
        for (g, group) in groups.as_array().into_iter().flatten().enumerate() {
            let handlers = group.get("hooks").and_then(Value::as_array).into_iter().flatten();
            for (h, handler) in handlers.enumerate() {
                if let Some(hash) = hook_hash(event, group.get("matcher"), handler) {
                    out.push((state_key(source, label, g, h), hash));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reference_example() {
        let id = identity(
            "PreToolUse",
            Some(&json!("Bash")),
            &json!({"type": "command", "command": "guard"}),
        )
        .unwrap();
        assert_eq!(
            id,
            r#"{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"guard","timeout":600,"type":"command"}],"matcher":"Bash"}"#
        );
    }

    #[test]
    fn normalization_rules() {
        let h = json!({"type": "command", "command": "c", "timeout": 0, "async": true, "statusMessage": "s", "commandWindows": "w"});
        assert_eq!(
            identity("Stop", Some(&json!("x")), &h).unwrap(),
            r#"{"event_name":"stop","hooks":[{"async":true,"command":"c","statusMessage":"s","timeout":1,"type":"command"}]}"#
        );
        assert!(identity(
            "SessionEnd",
            None,
            &json!({"type": "command", "command": "c", "timeout": 30})
        )
        .unwrap()
        .contains("\"timeout\":3"));
        assert!(
            identity("SessionEnd", None, &json!({"type": "command", "command": "c"}))
                .unwrap()
                .contains("\"timeout\":1,")
        );
        assert!(identity(
            "PreToolUse",
            Some(&json!("")),
            &json!({"type": "command", "command": "c"})
        )
        .unwrap()
        .ends_with(",\"matcher\":\"\"}"));
        assert_eq!(
            identity("PreToolUse", None, &json!({"type": "prompt", "command": "c"})),
            None
        );
        assert_eq!(
            identity("Nope", None, &json!({"type": "command", "command": "c"})),
            None
        );
        // serde_json escaping: no HTML escaping, quotes and backslashes escaped
        let id = identity(
            "PreToolUse",
            None,
            &json!({"type": "command", "command": "a \"b\" <c> \\ é"}),
        )
        .unwrap();
        assert!(id.contains(r#""command":"a \"b\" <c> \\ é""#));
    }
}
