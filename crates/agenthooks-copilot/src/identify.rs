//! Which event is this? Copilot's camelCase payloads do not name their event, so the codec
//! takes the event from argv (`--event=preToolUse`, which the install crate always bakes) and,
//! when that hint is missing, reconstructs it from the payload's keys.
//!
//! # Order of evidence
//!
//! 1. the payload's own `hook_event_name` (PascalCase dialect, and the camelCase
//!    `notification`): [`Basis::EventNameField`], [`IdentifyConfidence::Certain`]. The agent's
//!    statement about its payload wins over the config's, as everywhere in agenthooks
//!    (`agenthooks_core::kit::decode`); a disagreeing argv hint is kept in
//!    [`Identification::name_conflict`] and logged;
//! 2. the argv hint ([`Basis::Argv`], certain);
//! 3. `hookName` naming a known event (seen on `permissionRequest` in 1.0.102):
//!    [`Basis::HookNameField`], certain;
//! 4. the disjoint-key rules of the reference, checked in order ([`Basis::Shape`]):
//!    `toolInput` → permissionRequest · `toolResult` → postToolUse · `serverName` →
//!    preMcpToolCall · `toolName`+`error` → postToolUseFailure · `toolName` → preToolUse ·
//!    `errorContext` → errorOccurred · `trigger` → preCompact · `agentName`+`stopReason` →
//!    subagentStop · `agentName` → subagentStart · `stopReason` / `stop_hook_active` /
//!    `stopHookActive` → agentStop · `source` → sessionStart · `reason` → sessionEnd ·
//!    `transformedPrompt` → userPromptTransformed · `prompt` → userPromptSubmitted ·
//!    `notification_type` → notification. (`serverName`, `transformedPrompt` and the stop flags
//!    extend the reference's list to the events it does not cover.) A PascalCase payload
//!    without `hook_event_name` (never seen) uses the snake_case spelling of each rule, at most
//!    [`IdentifyConfidence::Medium`];
//! 5. a payload with only base keys (and possibly the stop fields) is most likely an
//!    `agentStop`, the one event whose own fields are all optional ([`Basis::Fallback`]);
//!    anything else is an unknown event.
//!
//! # Confidence
//!
//! A rule keyed on a field only one event has is [`IdentifyConfidence::High`]. A rule that
//! relies on a field being *absent* is [`IdentifyConfidence::Medium`]: `preToolUse` differs from
//! `postToolUseFailure` only by `error`, `subagentStart` from `subagentStop` only by
//! `stopReason`. Any payload that also carries a key owned by some other event, and every
//! fallback, is [`IdentifyConfidence::Low`]. The reconstruction never fails and never panics:
//! the worst answer is "unknown event, low confidence".
//!
//! The dialect is always read from the payload (a `hook_event_name` other than
//! `"Notification"`, an ISO string `timestamp`, or snake_case keys mean PascalCase), so an argv
//! hint in either spelling decodes a payload of either dialect.
//!
//! The payload is read once, keys only ([`PayloadKeys::from_json`]): no value is built beyond
//! the few the rules read.

use std::borrow::Cow;
use std::fmt;

use agenthooks_core::kit::EventRow;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

use crate::native::{self, Dialect};

/// How sure the identification is, from least to most (named apart from core's
/// [`agenthooks_core::Confidence`], which it maps onto).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum IdentifyConfidence {
    /// A fallback guess, or a shape carrying keys of more than one event.
    Low,
    /// A rule that relies on the absence of a key.
    Medium,
    /// A key only one event defines.
    High,
    /// The event was named (argv, `hook_event_name`, `hookName`).
    Certain,
}

impl IdentifyConfidence {
    /// A number in `0.0..=1.0` for observability (`Certain` = 1.0).
    pub const fn score(self) -> f32 {
        match self {
            Self::Low => 0.25,
            Self::Medium => 0.6,
            Self::High => 0.9,
            Self::Certain => 1.0,
        }
    }

    /// The envelope's confidence: named → certain, a shape rule → inferred, a guess → guess.
    pub const fn envelope(self) -> agenthooks_core::Confidence {
        match self {
            Self::Certain => agenthooks_core::Confidence::Certain,
            Self::High | Self::Medium => agenthooks_core::Confidence::Inferred,
            Self::Low => agenthooks_core::Confidence::Guess,
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
    /// The event's row, `None` when it is not one this crate knows.
    pub row: Option<&'static EventRow>,
    /// The native event name: the event's wire name in [`Self::dialect`], or the unknown name
    /// from argv / the payload, or `""` when nothing named it.
    pub native_name: String,
    /// The payload dialect.
    pub dialect: Dialect,
    /// How sure the identification is.
    pub confidence: IdentifyConfidence,
    /// What it rests on.
    pub basis: Basis,
    /// Payload keys that belong to another event than the one chosen (a sign of a wrong guess,
    /// or of a new release adding fields).
    pub foreign_keys: Vec<String>,
    /// When two names disagree (the payload's `hook_event_name` or `hookName` and the argv
    /// hint), the one that lost.
    pub name_conflict: Option<String>,
}

impl Identification {
    /// The name to decode the payload as: the row's (camelCase) name, else the native name.
    pub fn decode_name(&self) -> &str {
        self.row.map_or(self.native_name.as_str(), |r| r.name)
    }
}

/// The JSON type of a value the rules look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonType {
    /// A number.
    Number,
    /// A string.
    String,
    /// Anything else.
    Other,
}

impl JsonType {
    fn of(v: &Value) -> Self {
        match v {
            Value::Number(_) => Self::Number,
            Value::String(_) => Self::String,
            _ => Self::Other,
        }
    }
}

/// What identification reads from a payload: its top-level keys, the two name fields and the
/// type of `timestamp`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PayloadKeys {
    /// The top-level keys, in wire order.
    pub keys: Vec<String>,
    /// `hook_event_name`, when a string.
    pub hook_event_name: Option<String>,
    /// `hookName`, when a string.
    pub hook_name: Option<String>,
    /// The JSON type of `timestamp`, when present.
    pub timestamp: Option<JsonType>,
}

impl PayloadKeys {
    /// Reads the keys of a JSON object without building its values (a leading BOM is
    /// skipped). `None` when the bytes are not one JSON object. What an agent's encoder writes
    /// and the strict reader rejects (a lone surrogate, a huge number in `timestamp`) is read
    /// through the tolerant parse instead (`kit::tolerant`).
    pub fn from_json(bytes: &[u8]) -> Option<Self> {
        let bytes = agenthooks_core::event::strip_bom(bytes);
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let strict = (&mut de).deserialize_map(KeysVisitor).ok().filter(|_| de.end().is_ok());
        strict.or_else(|| match agenthooks_core::kit::tolerant::parse_slice(bytes) {
            Ok((Value::Object(map), _)) => Some(Self::from_map(&map)),
            _ => None,
        })
    }

    /// The keys of an object already parsed.
    pub fn from_map(map: &Map<String, Value>) -> Self {
        let text = |k: &str| map.get(k).and_then(Value::as_str).map(str::to_owned);
        Self {
            keys: map.keys().cloned().collect(),
            hook_event_name: text("hook_event_name"),
            hook_name: text("hookName"),
            timestamp: map.get("timestamp").map(JsonType::of),
        }
    }

    /// Whether the payload has `key`.
    pub fn has(&self, key: &str) -> bool {
        self.keys.iter().any(|k| k == key)
    }
}

struct KeysVisitor;

impl<'de> Visitor<'de> for KeysVisitor {
    type Value = PayloadKeys;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PayloadKeys, A::Error> {
        let mut out = PayloadKeys::default();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let text = |v: Value| match v {
                Value::String(s) => Some(s),
                _ => None,
            };
            match key.as_ref() {
                "hook_event_name" => out.hook_event_name = text(map.next_value()?),
                "hookName" => out.hook_name = text(map.next_value()?),
                "timestamp" => out.timestamp = Some(JsonType::of(&map.next_value()?)),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            out.keys.push(key.into_owned());
        }
        Ok(out)
    }
}

/// The keys a rule tests: all of `all`, and one of `any` when it is not empty.
#[derive(Debug, Clone, Copy)]
struct Test {
    id: &'static str,
    all: &'static [&'static str],
    any: &'static [&'static str],
}

impl Test {
    fn matches(&self, payload: &PayloadKeys) -> bool {
        self.all.iter().all(|k| payload.has(k)) && (self.any.is_empty() || self.any.iter().any(|k| payload.has(k)))
    }
}

/// A test that applies (every shape rule has one per dialect; `None` spells "no test").
#[allow(clippy::unnecessary_wraps)] // the rule table's slots are `Option<Test>`
const fn t(id: &'static str, all: &'static [&'static str], any: &'static [&'static str]) -> Option<Test> {
    Some(Test { id, all, any })
}

/// One shape rule: its test in the camelCase and in the snake_case dialect, and how sure it is.
struct Rule {
    confidence: IdentifyConfidence,
    camel: Option<Test>,
    snake: Option<Test>,
}

const fn r(confidence: IdentifyConfidence, camel: Option<Test>, snake: Option<Test>) -> Rule {
    Rule {
        confidence,
        camel,
        snake,
    }
}

/// What identification knows about one event: the keys it defines beyond [`BASE_KEYS`] (both
/// spellings; a key of another event is a sign of a wrong guess) and the rules that recognise
/// it.
struct Shape {
    event: &'static str,
    own: &'static [&'static str],
    rules: &'static [Rule],
    fallback: bool,
}

const fn shape(event: &'static str, own: &'static [&'static str], rules: &'static [Rule]) -> Shape {
    Shape {
        event,
        own,
        rules,
        fallback: false,
    }
}

impl Shape {
    /// The event guessed for a payload of base keys only (its own fields are all optional).
    const fn fallback(mut self) -> Self {
        self.fallback = true;
        self
    }
}

use IdentifyConfidence::{High, Medium};

/// Every event's shape, in the order the rules are tried (the reference's order, extended for
/// the events it does not list).
#[rustfmt::skip] // one line per rule: the table reads as the reference's list
const SHAPES: &[Shape] = &[
    shape("permissionRequest", &["toolName", "toolInput", "permissionSuggestions", "hookName", "tool_name", "tool_input", "permission_suggestions"], &[
        r(High, t("toolInput", &["toolInput"], &[]), t("tool_name+permission_suggestions", &["tool_name", "permission_suggestions"], &[])),
    ]),
    shape("postToolUse", &["toolName", "toolArgs", "toolResult", "tool_name", "tool_input", "tool_result", "tool_response"], &[
        r(High, t("toolResult", &["toolResult"], &[]), t("tool_result", &["tool_name"], &["tool_result", "tool_response"])),
    ]),
    shape("preMcpToolCall", &["toolCallId", "serverName", "toolName", "arguments", "_meta", "tool_call_id", "server_name", "tool_name"], &[
        r(High, t("serverName", &["serverName"], &[]), t("server_name", &["server_name"], &[])),
    ]),
    shape("postToolUseFailure", &["toolName", "toolArgs", "error", "tool_name", "tool_input"], &[
        r(High, t("toolName+error", &["toolName", "error"], &[]), t("tool_name+error", &["tool_name", "error"], &[])),
    ]),
    shape("preToolUse", &["toolName", "toolArgs", "tool_name", "tool_input"], &[
        r(Medium, t("toolName", &["toolName"], &[]), t("tool_name", &["tool_name"], &[])),
    ]),
    shape("errorOccurred", &["error", "errorContext", "recoverable", "error_context"], &[
        r(High, t("errorContext", &["errorContext"], &[]), t("error_context", &["error_context"], &[])),
    ]),
    shape("preCompact", &["trigger", "customInstructions", "custom_instructions"], &[
        r(High, t("trigger", &["trigger"], &[]), t("trigger", &["trigger"], &[])),
    ]),
    shape("subagentStop", &["agentName", "agentDisplayName", "agentDescription", "stopReason", "response", "stop_hook_active", "stopHookActive", "agent_name", "agent_display_name", "agent_description", "stop_reason"], &[
        r(High, t("agentName+stopReason", &["agentName", "stopReason"], &[]), t("agent_name+stop_reason", &["agent_name"], &["stop_reason", "response", "stop_hook_active"])),
        r(Medium, t("agentName+response", &["agentName"], &["response", "stop_hook_active", "stopHookActive"]), None),
    ]),
    shape("subagentStart", &["agentName", "agentDisplayName", "agentDescription", "agent_name", "agent_display_name", "agent_description"], &[
        r(Medium, t("agentName", &["agentName"], &[]), t("agent_name", &["agent_name"], &[])),
    ]),
    shape("agentStop", &["stopReason", "stop_hook_active", "stopHookActive", "stop_reason"], &[
        r(High, t("stopReason", &[], &["stopReason", "stop_hook_active", "stopHookActive"]), t("stop_reason", &[], &["stop_reason", "stop_hook_active"])),
    ]).fallback(),
    shape("sessionStart", &["source", "initialPrompt", "initial_prompt"], &[
        r(High, t("source", &["source"], &[]), t("source", &["source"], &[])),
    ]),
    shape("sessionEnd", &["reason", "finalMessage", "final_message", "error"], &[
        r(High, t("reason", &["reason"], &[]), t("reason", &["reason"], &[])),
    ]),
    shape("userPromptTransformed", &["prompt", "transformedPrompt", "transformed_prompt"], &[
        r(High, t("transformedPrompt", &["transformedPrompt"], &[]), t("transformed_prompt", &["transformed_prompt"], &[])),
    ]),
    shape("userPromptSubmitted", &["prompt"], &[
        r(High, t("prompt", &["prompt"], &[]), t("prompt", &["prompt"], &[])),
    ]),
    shape("notification", &["message", "title", "notification_type"], &[
        r(Medium, t("notification_type", &[], &["notification_type"]), t("notification_type", &[], &["notification_type"])),
    ]),
];

/// Keys every payload may carry whatever the event, in both dialects.
pub const BASE_KEYS: &[&str] = &[
    "sessionId",
    "session_id",
    "timestamp",
    "cwd",
    "hook_event_name",
    "transcriptPath",
    "transcript_path",
    "traceparent",
    "tracestate",
    "agentId",
    "agent_id",
    "agentType",
    "agent_type",
    "parentAgentId",
    "parent_agent_id",
];

/// The `hook_event_name` the camelCase `notification` carries (the only camelCase payload that
/// names itself, in the PascalCase spelling): not a sign of the PascalCase dialect.
pub const CAMEL_SELF_NAME: &str = "Notification";

fn own_keys(row: &EventRow) -> &'static [&'static str] {
    SHAPES.iter().find(|s| s.event == row.name).map_or(&[], |s| s.own)
}

/// Reads the dialect from the payload: `hook_event_name` other than `"Notification"`, an ISO
/// string `timestamp`, or a majority of snake_case spellings mean PascalCase.
pub fn detect_dialect(payload: &PayloadKeys) -> Dialect {
    const SNAKE: &[&str] = &["session_id", "tool_name", "tool_input", "transcript_path"];
    const CAMEL: &[&str] = &["sessionId", "toolName", "toolArgs", "toolInput", "transcriptPath"];
    if payload.hook_event_name.as_deref().is_some_and(|n| n != CAMEL_SELF_NAME) {
        return Dialect::Pascal;
    }
    match payload.timestamp {
        Some(JsonType::String) => return Dialect::Pascal,
        Some(JsonType::Number) => return Dialect::Camel,
        _ => {}
    }
    let count = |keys: &[&str]| keys.iter().filter(|k| payload.has(k)).count();
    if count(SNAKE) > count(CAMEL) {
        Dialect::Pascal
    } else {
        Dialect::Camel
    }
}

/// Keys of `payload` that some other event defines but `row` does not.
fn foreign_keys(row: &EventRow, payload: &PayloadKeys) -> Vec<String> {
    let own = own_keys(row);
    payload
        .keys
        .iter()
        .filter(|k| !own.contains(&k.as_str()) && !BASE_KEYS.contains(&k.as_str()))
        .filter(|k| SHAPES.iter().any(|s| s.own.contains(&k.as_str())))
        .cloned()
        .collect()
}

fn named(name: &str, dialect: Dialect, basis: Basis, payload: &PayloadKeys) -> Identification {
    let row = native::row(name);
    Identification {
        row,
        native_name: row.map_or_else(|| name.to_owned(), |r| native::name_in(r, dialect)),
        dialect,
        confidence: IdentifyConfidence::Certain,
        basis,
        foreign_keys: row.map_or_else(Vec::new, |r| foreign_keys(r, payload)),
        name_conflict: None,
    }
}

/// Whether two names name the same event (either spelling).
fn agree(a: &str, b: &str) -> bool {
    match (native::row(a), native::row(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Identifies the event of `payload`: its `hook_event_name`, else the argv-baked name, else
/// its shape.
///
/// Never fails: an unknown name gives `row: None` with that name, and a shape no rule
/// recognises gives `row: None`, `native_name: ""`, [`IdentifyConfidence::Low`].
pub fn identify(argv_event: Option<&str>, payload: &PayloadKeys) -> Identification {
    let dialect = detect_dialect(payload);
    let argv = argv_event.map(str::trim).filter(|s| !s.is_empty());
    if let Some(name) = payload.hook_event_name.as_deref() {
        let mut id = named(name, dialect, Basis::EventNameField, payload);
        id.name_conflict = argv.filter(|a| !agree(a, name)).map(str::to_owned);
        return id;
    }
    if let Some(argv) = argv {
        let mut id = named(argv, dialect, Basis::Argv, payload);
        id.name_conflict = payload
            .hook_name
            .clone()
            .filter(|h| native::row(h).is_some() && !agree(h, argv));
        return id;
    }
    reconstruct_with_dialect(payload, dialect)
}

/// Identifies the event of `payload` from its content alone (no argv hint).
pub fn reconstruct(payload: &PayloadKeys) -> Identification {
    identify(None, payload)
}

fn reconstruct_with_dialect(payload: &PayloadKeys, dialect: Dialect) -> Identification {
    if let Some(name) = payload.hook_name.as_deref().filter(|n| native::row(n).is_some()) {
        return named(name, dialect, Basis::HookNameField, payload);
    }
    let found = SHAPES.iter().find_map(|s| {
        s.rules.iter().find_map(|r| {
            let (test, confidence) = match dialect {
                Dialect::Camel => (r.camel?, r.confidence),
                Dialect::Pascal => (r.snake?, r.confidence.min(Medium)),
            };
            test.matches(payload).then_some((s, test, confidence))
        })
    });
    if let Some((row, test, confidence)) = found.and_then(|(s, t, c)| Some((native::row(s.event)?, t, c))) {
        let foreign = foreign_keys(row, payload);
        return Identification {
            row: Some(row),
            native_name: native::name_in(row, dialect),
            dialect,
            confidence: if foreign.is_empty() {
                confidence
            } else {
                IdentifyConfidence::Low
            },
            basis: Basis::Shape(test.id),
            foreign_keys: foreign,
            name_conflict: None,
        };
    }
    // No rule: only the fallback event has no required own field. Guess it when nothing else
    // is there.
    let fallback = SHAPES.iter().find(|s| s.fallback).and_then(|s| native::row(s.event));
    let only_known = |row: &EventRow| {
        let own = own_keys(row);
        payload
            .keys
            .iter()
            .all(|k| BASE_KEYS.contains(&k.as_str()) || own.contains(&k.as_str()))
    };
    let row = fallback.filter(|r| only_known(r));
    Identification {
        row,
        native_name: row.map_or_else(String::new, |r| native::name_in(r, dialect)),
        dialect,
        confidence: IdentifyConfidence::Low,
        basis: Basis::Fallback,
        foreign_keys: fallback.map_or_else(Vec::new, |r| foreign_keys(r, payload)),
        name_conflict: None,
    }
}

/// [`identify`] over raw bytes. A payload that is not a JSON object is identified from argv
/// alone (or as the fallback guess with [`IdentifyConfidence::Low`]); decoding then reports
/// the error.
pub fn identify_bytes(argv_event: Option<&str>, payload: &[u8]) -> Identification {
    identify(argv_event, &PayloadKeys::from_json(payload).unwrap_or_default())
}
