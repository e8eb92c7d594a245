//! Which event is this? Copilot's camelCase payloads do not name their event, so the codec
//! takes the event from argv (`--event=preToolUse`, which the install crate always bakes) and,
//! when that hint is missing, reconstructs it from the payload's keys.
//!
//! # Order of evidence
//!
//! 1. the argv hint ([`Basis::Argv`], [`Confidence::Certain`]);
//! 2. a name inside the payload: `hook_event_name` (PascalCase dialect, and the camelCase
//!    `notification`) or `hookName` (seen on `permissionRequest` in 1.0.102) —
//!    [`Basis::EventNameField`] / [`Basis::HookNameField`], [`Confidence::Certain`];
//! 3. the disjoint-key rules of the reference, checked in order ([`Basis::Shape`]):
//!    `toolInput` → permissionRequest · `toolResult` → postToolUse · `serverName` →
//!    preMcpToolCall · `toolName`+`error` → postToolUseFailure · `toolName` → preToolUse ·
//!    `errorContext` → errorOccurred · `trigger` → preCompact · `agentName`+`stopReason` →
//!    subagentStop · `agentName` → subagentStart · `stopReason` / `stop_hook_active` /
//!    `stopHookActive` → agentStop · `source` → sessionStart · `reason` → sessionEnd ·
//!    `transformedPrompt` → userPromptTransformed · `prompt` → userPromptSubmitted ·
//!    `notification_type` → notification. (`serverName`, `transformedPrompt` and the stop flags
//!    extend the reference's list to the events it does not cover.)
//! 4. a payload with only base keys (and possibly `transcriptPath`) is most likely an
//!    `agentStop`, the one event whose own fields are all optional ([`Basis::Fallback`]);
//!    anything else is an unknown event.
//!
//! # Confidence
//!
//! A rule keyed on a field only one event has is [`Confidence::High`]. A rule that relies on a
//! field being *absent* is [`Confidence::Medium`]: `preToolUse` differs from
//! `postToolUseFailure` only by `error`, `subagentStart` from `subagentStop` only by
//! `stopReason`. Any payload that also carries a key owned by some other event (a shape that
//! matches no single event cleanly), and every fallback, is [`Confidence::Low`]. The
//! reconstruction never fails and never panics: the worst answer is "unknown event, low
//! confidence".
//!
//! The dialect is always read from the payload (a `hook_event_name` other than
//! `"Notification"`, an ISO string `timestamp`, or snake_case keys mean PascalCase), so an argv
//! hint in either spelling decodes a payload of either dialect.

use serde_json::{Map, Value};

use crate::native::{pascal, Dialect, EventName, BASE_KEYS_CAMEL};

/// How sure the identification is, from least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Confidence {
    /// A fallback guess, or a shape carrying keys of more than one event.
    Low,
    /// A rule that relies on the absence of a key.
    Medium,
    /// A key only one event defines.
    High,
    /// The event was named (argv, `hook_event_name`, `hookName`).
    Certain,
}

impl Confidence {
    /// A number in `0.0..=1.0` for observability (`Certain` = 1.0).
    pub const fn score(self) -> f32 {
        match self {
            Self::Low => 0.25,
            Self::Medium => 0.6,
            Self::High => 0.9,
            Self::Certain => 1.0,
        }
    }
}

/// The evidence the identification rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Basis {
    /// The argv-baked event name.
    Argv,
    /// The payload's `hook_event_name`.
    EventNameField,
    /// The payload's `hookName`.
    HookNameField,
    /// A shape rule; the string names the rule (the keys it tested).
    Shape(&'static str),
    /// No rule matched.
    Fallback,
}

/// The result of [`identify`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Identification {
    /// The event, `None` when it is not one this crate knows.
    pub event: Option<EventName>,
    /// The native event name: the event's wire name in [`Self::dialect`], or the unknown name
    /// from argv / the payload, or `""` when nothing named it.
    pub native_name: String,
    /// The payload dialect.
    pub dialect: Dialect,
    /// How sure the identification is.
    pub confidence: Confidence,
    /// What it rests on.
    pub basis: Basis,
    /// Payload keys that belong to another event than the one chosen (a sign of a wrong guess,
    /// or of a new release adding fields).
    pub foreign_keys: Vec<String>,
    /// When an explicit name (argv) disagrees with a name inside the payload, that other name.
    pub name_conflict: Option<String>,
}

/// One shape rule: all of `all` present, none of `none` present → `event`.
struct Rule {
    id: &'static str,
    all: &'static [&'static str],
    any: &'static [&'static str],
    none: &'static [&'static str],
    event: EventName,
    confidence: Confidence,
}

const fn rule(
    id: &'static str,
    all: &'static [&'static str],
    any: &'static [&'static str],
    none: &'static [&'static str],
    event: EventName,
    confidence: Confidence,
) -> Rule {
    Rule {
        id,
        all,
        any,
        none,
        event,
        confidence,
    }
}

use Confidence::{High, Medium};
use EventName as E;

/// The camelCase rules, in the reference's order (extended for the events it does not list).
const CAMEL_RULES: &[Rule] = &[
    rule("toolInput", &["toolInput"], &[], &[], E::PermissionRequest, High),
    rule("toolResult", &["toolResult"], &[], &[], E::PostToolUse, High),
    rule("serverName", &["serverName"], &[], &[], E::PreMcpToolCall, High),
    rule(
        "toolName+error",
        &["toolName", "error"],
        &[],
        &[],
        E::PostToolUseFailure,
        High,
    ),
    rule("toolName", &["toolName"], &[], &[], E::PreToolUse, Medium),
    rule("errorContext", &["errorContext"], &[], &[], E::ErrorOccurred, High),
    rule("trigger", &["trigger"], &[], &[], E::PreCompact, High),
    rule(
        "agentName+stopReason",
        &["agentName", "stopReason"],
        &[],
        &[],
        E::SubagentStop,
        High,
    ),
    rule(
        "agentName+response",
        &["agentName"],
        &["response", "stop_hook_active", "stopHookActive"],
        &[],
        E::SubagentStop,
        Medium,
    ),
    rule("agentName", &["agentName"], &[], &[], E::SubagentStart, Medium),
    rule(
        "stopReason",
        &[],
        &["stopReason", "stop_hook_active", "stopHookActive"],
        &[],
        E::AgentStop,
        High,
    ),
    rule("source", &["source"], &[], &[], E::SessionStart, High),
    rule("reason", &["reason"], &[], &[], E::SessionEnd, High),
    rule(
        "transformedPrompt",
        &["transformedPrompt"],
        &[],
        &[],
        E::UserPromptTransformed,
        High,
    ),
    rule("prompt", &["prompt"], &[], &[], E::UserPromptSubmitted, High),
    rule(
        "notification_type",
        &[],
        &["notification_type"],
        &[],
        E::Notification,
        Medium,
    ),
];

/// The snake_case rules, used only for PascalCase payloads that lack `hook_event_name`
/// (never seen; every rule is at most [`Confidence::Medium`]).
const PASCAL_RULES: &[Rule] = &[
    rule("server_name", &["server_name"], &[], &[], E::PreMcpToolCall, Medium),
    rule(
        "tool_result",
        &["tool_name"],
        &["tool_result", "tool_response"],
        &[],
        E::PostToolUse,
        Medium,
    ),
    rule(
        "tool_name+error",
        &["tool_name", "error"],
        &[],
        &[],
        E::PostToolUseFailure,
        Medium,
    ),
    rule(
        "tool_name+permission_suggestions",
        &["tool_name", "permission_suggestions"],
        &[],
        &[],
        E::PermissionRequest,
        Medium,
    ),
    rule("tool_name", &["tool_name"], &[], &[], E::PreToolUse, Medium),
    rule("error_context", &["error_context"], &[], &[], E::ErrorOccurred, Medium),
    rule("trigger", &["trigger"], &[], &[], E::PreCompact, Medium),
    rule(
        "agent_name+stop_reason",
        &["agent_name"],
        &["stop_reason", "response", "stop_hook_active"],
        &[],
        E::SubagentStop,
        Medium,
    ),
    rule("agent_name", &["agent_name"], &[], &[], E::SubagentStart, Medium),
    rule(
        "stop_reason",
        &[],
        &["stop_reason", "stop_hook_active"],
        &[],
        E::AgentStop,
        Medium,
    ),
    rule("source", &["source"], &[], &[], E::SessionStart, Medium),
    rule("reason", &["reason"], &[], &[], E::SessionEnd, Medium),
    rule(
        "transformed_prompt",
        &["transformed_prompt"],
        &[],
        &[],
        E::UserPromptTransformed,
        Medium,
    ),
    rule("prompt", &["prompt"], &[], &[], E::UserPromptSubmitted, Medium),
    rule(
        "notification_type",
        &[],
        &["notification_type"],
        &[],
        E::Notification,
        Medium,
    ),
];

impl Rule {
    fn matches(&self, payload: &Map<String, Value>) -> bool {
        self.all.iter().all(|k| payload.contains_key(*k))
            && (self.any.is_empty() || self.any.iter().any(|k| payload.contains_key(*k)))
            && !self.none.iter().any(|k| payload.contains_key(*k))
    }
}

/// Reads the dialect from the payload: `hook_event_name` other than `"Notification"`, an ISO
/// string `timestamp`, or a majority of snake_case spellings mean PascalCase.
pub fn detect_dialect(payload: &Map<String, Value>) -> Dialect {
    const SNAKE: &[&str] = &["session_id", "tool_name", "tool_input", "transcript_path"];
    const CAMEL: &[&str] = &["sessionId", "toolName", "toolArgs", "toolInput", "transcriptPath"];
    if let Some(Value::String(name)) = payload.get("hook_event_name") {
        if name != "Notification" {
            return Dialect::Pascal;
        }
    }
    match payload.get("timestamp") {
        Some(Value::String(_)) => return Dialect::Pascal,
        Some(Value::Number(_)) => return Dialect::Camel,
        _ => {}
    }
    let count = |keys: &[&str]| keys.iter().filter(|k| payload.contains_key(**k)).count();
    if count(SNAKE) > count(CAMEL) {
        Dialect::Pascal
    } else {
        Dialect::Camel
    }
}

fn base_keys(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Camel => BASE_KEYS_CAMEL,
        Dialect::Pascal => pascal::BASE_KEYS,
    }
}

/// Keys of `payload` that some other event defines but `event` does not.
fn foreign_keys(event: EventName, dialect: Dialect, payload: &Map<String, Value>) -> Vec<String> {
    let own = event.own_keys(dialect);
    let base = base_keys(dialect);
    payload
        .keys()
        .filter(|k| !own.contains(&k.as_str()) && !base.contains(&k.as_str()))
        .filter(|k| EventName::ALL.iter().any(|e| e.own_keys(dialect).contains(&k.as_str())))
        .cloned()
        .collect()
}

fn named(
    event: Option<EventName>,
    name: &str,
    dialect: Dialect,
    basis: Basis,
    payload: &Map<String, Value>,
) -> Identification {
    Identification {
        event,
        native_name: event.map_or_else(|| name.to_owned(), |e| e.name_in(dialect).to_owned()),
        dialect,
        confidence: Confidence::Certain,
        basis,
        foreign_keys: event.map_or_else(Vec::new, |e| foreign_keys(e, dialect, payload)),
        name_conflict: None,
    }
}

/// The event name the payload states about itself, if any: `hook_event_name`, else a
/// `hookName` that names a known event.
fn self_named(payload: &Map<String, Value>) -> Option<(&str, Basis)> {
    if let Some(Value::String(name)) = payload.get("hook_event_name") {
        return Some((name, Basis::EventNameField));
    }
    if let Some(Value::String(name)) = payload.get("hookName") {
        if EventName::parse(name).is_some() {
            return Some((name, Basis::HookNameField));
        }
    }
    None
}

/// Identifies the event of `payload`, using the argv-baked name when there is one.
///
/// Never fails: an unknown argv name gives `event: None` with that name, and a shape no rule
/// recognises gives `event: None`, `native_name: ""`, [`Confidence::Low`].
pub fn identify(argv_event: Option<&str>, payload: &Map<String, Value>) -> Identification {
    let dialect = detect_dialect(payload);
    if let Some(argv) = argv_event.map(str::trim).filter(|s| !s.is_empty()) {
        let event = EventName::parse(argv).map(|(e, _)| e);
        let mut id = named(event, argv, dialect, Basis::Argv, payload);
        if let Some((name, _)) = self_named(payload) {
            let agrees = match (event, EventName::parse(name)) {
                (Some(a), Some((b, _))) => a == b,
                _ => name == argv,
            };
            if !agrees {
                id.name_conflict = Some(name.to_owned());
            }
        }
        return id;
    }
    reconstruct_with_dialect(payload, dialect)
}

/// Identifies the event of `payload` from its keys alone (no argv hint).
pub fn reconstruct(payload: &Map<String, Value>) -> Identification {
    reconstruct_with_dialect(payload, detect_dialect(payload))
}

fn reconstruct_with_dialect(payload: &Map<String, Value>, dialect: Dialect) -> Identification {
    if let Some((name, basis)) = self_named(payload) {
        return named(EventName::parse(name).map(|(e, _)| e), name, dialect, basis, payload);
    }
    let rules = match dialect {
        Dialect::Camel => CAMEL_RULES,
        Dialect::Pascal => PASCAL_RULES,
    };
    if let Some(r) = rules.iter().find(|r| r.matches(payload)) {
        let foreign = foreign_keys(r.event, dialect, payload);
        return Identification {
            event: Some(r.event),
            native_name: r.event.name_in(dialect).to_owned(),
            dialect,
            confidence: if foreign.is_empty() {
                r.confidence
            } else {
                Confidence::Low
            },
            basis: Basis::Shape(r.id),
            foreign_keys: foreign,
            name_conflict: None,
        };
    }
    // No rule: only agentStop has no required own field. Guess it when nothing else is there.
    let foreign = foreign_keys(EventName::AgentStop, dialect, payload);
    let base = base_keys(dialect);
    let own = EventName::AgentStop.own_keys(dialect);
    let only_known = payload
        .keys()
        .all(|k| base.contains(&k.as_str()) || own.contains(&k.as_str()));
    let event = (only_known && foreign.is_empty()).then_some(EventName::AgentStop);
    Identification {
        event,
        native_name: event.map_or_else(String::new, |e| e.name_in(dialect).to_owned()),
        dialect,
        confidence: Confidence::Low,
        basis: Basis::Fallback,
        foreign_keys: foreign,
        name_conflict: None,
    }
}

/// [`identify`] over raw bytes. A payload that is not a JSON object is identified from argv
/// alone (or as unknown with [`Confidence::Low`]); decoding will then report the error.
pub fn identify_bytes(argv_event: Option<&str>, payload: &[u8]) -> Identification {
    let map: Map<String, Value> = serde_json::from_slice(payload).unwrap_or_default();
    identify(argv_event, &map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    fn shape(v: Value) -> Identification {
        reconstruct(&obj(v))
    }

    #[test]
    fn every_camel_rule_picks_its_event() {
        let base = json!({"sessionId": "s", "timestamp": 1, "cwd": "/w"});
        let cases = [
            (json!({"toolName": "bash", "toolInput": {}}), E::PermissionRequest, High),
            (
                json!({"toolName": "bash", "toolArgs": {}, "toolResult": {}}),
                E::PostToolUse,
                High,
            ),
            (
                json!({"serverName": "gh", "toolName": "t", "arguments": {}}),
                E::PreMcpToolCall,
                High,
            ),
            (
                json!({"toolName": "bash", "toolArgs": "{}", "error": "x"}),
                E::PostToolUseFailure,
                High,
            ),
            (json!({"toolName": "bash", "toolArgs": "{}"}), E::PreToolUse, Medium),
            (
                json!({"error": {}, "errorContext": "system", "recoverable": true}),
                E::ErrorOccurred,
                High,
            ),
            (
                json!({"transcriptPath": "/t", "trigger": "auto", "customInstructions": ""}),
                E::PreCompact,
                High,
            ),
            (
                json!({"transcriptPath": "/t", "agentName": "a", "stopReason": "end_turn"}),
                E::SubagentStop,
                High,
            ),
            (
                json!({"transcriptPath": "/t", "agentName": "a"}),
                E::SubagentStart,
                Medium,
            ),
            (
                json!({"transcriptPath": "/t", "stopReason": "end_turn", "stop_hook_active": false}),
                E::AgentStop,
                High,
            ),
            (json!({"stopHookActive": true}), E::AgentStop, High),
            (json!({"source": "new"}), E::SessionStart, High),
            (json!({"reason": "complete"}), E::SessionEnd, High),
            (
                json!({"prompt": "p", "transformedPrompt": "q"}),
                E::UserPromptTransformed,
                High,
            ),
            (json!({"prompt": "p"}), E::UserPromptSubmitted, High),
            (
                json!({"message": "m", "notification_type": "agent_idle"}),
                E::Notification,
                Medium,
            ),
        ];
        for (extra, event, confidence) in cases {
            let mut m = obj(base.clone());
            m.extend(obj(extra.clone()));
            let id = reconstruct(&m);
            assert_eq!(id.event, Some(event), "{extra}");
            assert_eq!(id.confidence, confidence, "{extra}");
            assert_eq!(id.dialect, Dialect::Camel, "{extra}");
            assert_eq!(id.native_name, event.camel());
            assert!(id.foreign_keys.is_empty(), "{extra}: {:?}", id.foreign_keys);
        }
    }

    #[test]
    fn names_inside_the_payload_are_certain() {
        let id = shape(
            json!({"timestamp": 1, "cwd": "/w", "hook_event_name": "Notification", "message": "m", "notification_type": "x"}),
        );
        assert_eq!(id.event, Some(E::Notification));
        assert_eq!(id.dialect, Dialect::Camel);
        assert_eq!(id.confidence, Confidence::Certain);
        assert_eq!(id.basis, Basis::EventNameField);

        let id = shape(
            json!({"hookName": "permissionRequest", "timestamp": 1, "cwd": "/w", "toolName": "bash", "toolInput": {}}),
        );
        assert_eq!(id.event, Some(E::PermissionRequest));
        assert_eq!(id.basis, Basis::HookNameField);

        let id = shape(json!({"hook_event_name": "Stop", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/w"}));
        assert_eq!(id.event, Some(E::AgentStop));
        assert_eq!(id.dialect, Dialect::Pascal);
        assert_eq!(id.native_name, "Stop");

        let id = shape(json!({"hook_event_name": "PostResult", "timestamp": "t", "cwd": "/w"}));
        assert_eq!(id.event, None);
        assert_eq!(id.native_name, "PostResult");
        assert_eq!(id.confidence, Confidence::Certain);
    }

    #[test]
    fn argv_wins_and_conflicts_are_reported() {
        let m = obj(json!({"timestamp": 1, "cwd": "/w", "toolName": "bash", "toolArgs": {}}));
        let id = identify(Some("postToolUseFailure"), &m);
        assert_eq!(id.event, Some(E::PostToolUseFailure));
        assert_eq!(id.basis, Basis::Argv);
        assert_eq!(id.confidence, Confidence::Certain);

        let id = identify(Some("postResult"), &m);
        assert_eq!(id.event, None);
        assert_eq!(id.native_name, "postResult");

        let pascal = obj(json!({"hook_event_name": "PreToolUse", "timestamp": "t", "cwd": "/w", "tool_name": "Bash"}));
        let id = identify(Some("preToolUse"), &pascal);
        assert_eq!(id.event, Some(E::PreToolUse));
        assert_eq!(id.dialect, Dialect::Pascal, "the payload decides the dialect");
        assert_eq!(id.native_name, "PreToolUse");
        assert_eq!(id.name_conflict, None);

        let id = identify(Some("postToolUse"), &pascal);
        assert_eq!(id.name_conflict.as_deref(), Some("PreToolUse"));

        let id = identify(Some("  "), &m);
        assert_eq!(id.basis, Basis::Shape("toolName"), "blank argv is no hint");
    }

    #[test]
    fn ambiguous_and_unknown_shapes_degrade_instead_of_failing() {
        let id = shape(json!({"sessionId": "s", "timestamp": 1, "cwd": "/w"}));
        assert_eq!(id.event, Some(E::AgentStop));
        assert_eq!(id.confidence, Confidence::Low);
        assert_eq!(id.basis, Basis::Fallback);

        let id = shape(json!({"timestamp": 1, "cwd": "/w", "toolName": "bash", "prompt": "p"}));
        assert_eq!(id.event, Some(E::PreToolUse));
        assert_eq!(id.confidence, Confidence::Low);
        assert_eq!(id.foreign_keys, vec!["prompt".to_owned()]);

        let id = shape(json!({"timestamp": 1, "cwd": "/w", "somethingNew": 1}));
        assert_eq!(id.event, None);
        assert_eq!(id.native_name, "");
        assert_eq!(id.confidence, Confidence::Low);

        let id = identify_bytes(None, b"not json");
        assert_eq!(id.event, Some(E::AgentStop), "empty object: fallback guess");
        assert_eq!(id.confidence, Confidence::Low);
        let id = identify_bytes(Some("preToolUse"), b"[1,2]");
        assert_eq!(id.event, Some(E::PreToolUse));
    }

    #[test]
    fn pascal_payloads_without_a_name_use_the_snake_rules() {
        let id = shape(json!({"session_id": "s", "cwd": "/w", "tool_name": "Bash", "tool_input": {}}));
        assert_eq!(id.dialect, Dialect::Pascal);
        assert_eq!(id.event, Some(E::PreToolUse));
        assert_eq!(id.confidence, Medium);
        let id =
            shape(json!({"session_id": "s", "timestamp": "t", "cwd": "/w", "tool_name": "Bash", "tool_response": {}}));
        assert_eq!(id.event, Some(E::PostToolUse));
        assert_eq!(id.native_name, "PostToolUse");
    }
}
