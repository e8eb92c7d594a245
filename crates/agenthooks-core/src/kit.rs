//! The provider kit: the one mechanism every codec is built on.
//!
//! A provider crate writes three things by hand: its native structs' *fields* (the fidelity
//! guarantee), one table of event facts, and its encoder. The kit supplies the rest:
//!
//! - [`native_events!`](crate::kit::native_events) turns a common-fields block and one row per
//!   native event into the per-event structs (common fields, event fields, `extra` capture), the
//!   native event enum with an `Other` variant for events a newer release added, name dispatch,
//!   `name()`, `kind()`, `row()`, `extra()`, one accessor per common field, [`FromNative`] for
//!   typed views, and the [`EventRow`] table;
//! - [`decode`] decodes a payload straight from its bytes, tolerantly (below), with the JSON path
//!   in errors and trailing data rejected;
//! - [`EventRow`] is the single source of an event's facts: `Codec::capabilities`, the encoders'
//!   checks ([`ensure_expressible`]), install's rendering, preflight, the docs tables and the
//!   fixture-coverage tests all read it;
//! - [`ToolTable`] is a provider's tool classification and MCP naming, read by both the codec's
//!   `classify` and install's matcher compiler.
//!
//! # Tolerant decoding (the rule)
//!
//! Agents add, drop and retype fields between releases, and users run old and new ones. So:
//!
//! 1. Only the fields that *identify* the event are required: the event name where the dialect
//!    carries it (else the `--event` hint) and, on tool events, the tool name. Every other field
//!    is an `Option` or defaulted.
//! 2. A field whose JSON type differs across releases accepts each shape any release sent (see
//!    [`lenient`]).
//! 3. When the typed view still cannot be built, nothing is lost: [`decode`] moves each value of
//!    an unexpected shape into the struct's `extra` map (so it is kept, and written back on
//!    serialization) and records a [`ProjectionIssue`]. When an identifying field is missing,
//!    the projection is built from a copy with a placeholder, the event still reaches handlers
//!    as its kind, and the native view is the event's `Other` form holding every key as sent.
//!    The issues are logged and stored on [`Envelope::projection_issues`].
//!
//! A missing, added or retyped field is never the reason a hook fails. The raw payload is
//! always kept byte for byte ([`Envelope::raw`]).
//!
//! ```
//! use agenthooks_core::kit::{self, EventRow, FailShape, NativeEvents as _};
//! use agenthooks_core::{CapSet, Capability, EventKind, Provider};
//!
//! const GATE: CapSet = CapSet::of(&[Capability::Deny]);
//!
//! agenthooks_core::kit::native_events! {
//!     /// A decoded payload of the toy agent.
//!     pub enum ToyEvent;
//!     unknown ToyUnknown;
//!     rows ROWS;
//!     name_key Some("event");
//!     common {
//!         /// The event name.
//!         event: Option<String>,
//!         /// The session id.
//!         session: Option<String>,
//!     }
//!     events {
//!         /// Before a tool runs.
//!         BeforeTool("before_tool", ToolPre, blocking, tool_matcher).caps(GATE).fail(FailShape::Block) {
//!             /// The tool (identifying).
//!             tool: String,
//!             /// Its arguments (an `Option`: absent is `None`, and `None` is not written back).
//!             args: Option<serde_json::Value>,
//!         }
//!         /// The session ended.
//!         SessionEnd("session_end", SessionEnd) {}
//!     }
//! }
//!
//! let p = Provider::from_static("toy");
//! // Fast path: the typed view.
//! let d = kit::decode::<ToyEvent>(&p, br#"{"event":"before_tool","tool":"sh","new":1}"#, None)?;
//! assert!(d.is_exact());
//! let ToyEvent::BeforeTool(ev) = &d.native else { unreachable!() };
//! assert_eq!((ev.tool.as_str(), &ev.extra["new"]), ("sh", &serde_json::json!(1)));
//! assert_eq!(d.native.kind(), EventKind::ToolPre);
//! assert_eq!(d.native.row().map(|r| r.caps), Some(GATE));
//!
//! // A session of another JSON type: kept in `extra`, the event still decodes.
//! let d = kit::decode::<ToyEvent>(&p, br#"{"event":"session_end","session":{"id":1}}"#, None)?;
//! assert_eq!(d.native.extra()["session"]["id"], 1);
//! assert_eq!(d.issues.len(), 1);
//!
//! // The identifying tool name is missing: the kind is kept, the view is the `Other` form.
//! let d = kit::decode::<ToyEvent>(&p, br#"{"event":"before_tool","session":"s"}"#, None)?;
//! assert!(!d.is_exact());
//! assert_eq!(d.native.kind(), EventKind::ToolPre);
//! assert!(matches!(d.view(), ToyEvent::Other(u) if u.name == "before_tool"));
//!
//! // An event a newer release added: `Other`, every key kept.
//! let d = kit::decode::<ToyEvent>(&p, br#"{"event":"brand_new","x":[1]}"#, None)?;
//! assert_eq!((d.native.name(), d.native.kind()), ("brand_new", EventKind::Other));
//! assert_eq!(d.native.extra()["x"][0], 1);
//! # Ok::<(), agenthooks_core::DecodeError>(())
//! ```
//!
//! [`Envelope::projection_issues`]: crate::Envelope::projection_issues
//! [`Envelope::raw`]: crate::Envelope::raw

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::capability::{CapSet, Capability};
use crate::codec::{Codec, EventTarget, WireResponse};
use crate::decision::Outcome;
use crate::error::{DecodeCategory, DecodeError, EncodeError};
use crate::event::{Envelope, Event};
use crate::kind::EventKind;
use crate::provider::Provider;

pub mod bridge;
mod capture;
pub mod claude_family;
pub mod frame;
pub mod lenient;
mod macros;
mod quirk_table;
mod table;
pub mod tolerant;
#[cfg(feature = "toml")]
#[cfg_attr(docsrs, doc(cfg(feature = "toml")))]
pub mod toml;
pub mod transcript;

pub use crate::event::{ProjectionIssue, Repair};
pub(crate) use capture::KeyCow;
pub use capture::{Capture, Extra};
pub use quirk_table::quirk_table_ok;
pub use table::{primary_row, row, EventRow, FailShape, McpNaming, ToolTable};

/// The codec macros, at their documented path (the crate-root copies are hidden; both work).
#[doc(inline)]
pub use crate::{kit_codec_tables, native_events, native_record, provider_surface, quirk_table};

/// The declaration macros of plain public types (a named enum, builder setters), at their
/// documented path (the crate-root copies are hidden; both work).
#[doc(inline)]
pub use crate::{named_enum, setters};

pub use crate::codec::{blocking_outcome, encode_block, failure_response};

// ---------------------------------------------------------------------------------------------
// Native enums
// ---------------------------------------------------------------------------------------------

/// A provider's native event enum, as generated by [`native_events!`](crate::kit::native_events).
pub trait NativeEvents: Sized + Clone + Serialize + Send + Sync + 'static {
    /// Every native event the crate knows, in reference order.
    const ROWS: &'static [EventRow];
    /// The payload key that carries the event name, when the dialect has one.
    const NAME_KEY: Option<&'static str>;

    /// Deserializes the payload as the event `name` (an unknown name gives the `Other` form).
    fn deserialize_named<'de, D: Deserializer<'de>>(name: &str, de: D) -> Result<Self, D::Error>;

    /// Deserializes the payload as the `Other` form of `name` (every key kept).
    fn deserialize_other<'de, D: Deserializer<'de>>(name: &str, de: D) -> Result<Self, D::Error>;

    /// The native event name.
    fn name(&self) -> &str;

    /// Keys this crate does not know, mutably.
    fn extra_mut(&mut self) -> &mut Extra;

    /// The row of this event (`None` for events this crate does not know).
    fn row(&self) -> Option<&'static EventRow> {
        row(Self::ROWS, self.name())
    }

    /// The unified kind ([`EventKind::Other`] for events this crate does not know).
    fn kind(&self) -> EventKind {
        self.row().map_or(EventKind::Other, |r| r.kind)
    }
}

/// A native event struct that can be borrowed out of its enum `N`: the typed views of a
/// provider crate's `view_as`.
pub trait FromNative<N>: Sized + 'static {
    /// The native event name.
    const NAME: &'static str;

    /// The struct, when `event` is this event.
    fn from_native(event: &N) -> Option<&Self>;
}

// ---------------------------------------------------------------------------------------------
// Tolerant decoding
// ---------------------------------------------------------------------------------------------

/// A decoded payload: the typed event to project from, and what the decoder had to repair.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Decoded<N> {
    /// The typed event the projection is built from.
    pub native: N,
    /// What could not be typed as sent (empty on the fast path).
    pub issues: Vec<ProjectionIssue>,
    /// The native view when `native` holds placeholders (the event's `Other` form).
    other_view: Option<N>,
}

impl<N: NativeEvents> Decoded<N> {
    /// Whether the typed view is the payload exactly (no placeholder).
    pub fn is_exact(&self) -> bool {
        self.other_view.is_none()
    }

    /// The native view to attach: the typed event, or its `Other` form when the typed event
    /// holds placeholders.
    pub fn view(&self) -> N {
        self.other_view.clone().unwrap_or_else(|| self.native.clone())
    }

    /// Attaches the native view and the projection issues to `env` (logging each issue) and
    /// returns the typed event to project from.
    pub fn attach(self, env: &mut Envelope) -> N {
        for issue in &self.issues {
            tracing::warn!(provider = %env.provider, event = %env.native, %issue, "payload field not typed as sent");
        }
        env.projection_issues = self.issues;
        match self.other_view {
            Some(view) => env.set_native_view(view),
            None => env.set_native_view(self.native.clone()),
        }
        self.native
    }
}

/// Decodes one payload of `N`'s dialect, tolerantly (see the [module docs](self)).
///
/// The event name is the payload's own (`N::NAME_KEY`) and else `hint` (the generated
/// config's `--event`); the payload wins when both are present. The bytes must be exactly one
/// JSON object (after a byte-order mark is stripped).
///
/// # Errors
///
/// Malformed JSON, trailing data, a payload that is not an object, or a payload that names no
/// event when no hint is given: a [`DecodeError`] with the JSON path. A field of an unexpected
/// shape is *not* an error.
pub fn decode<N: NativeEvents>(
    provider: &Provider,
    bytes: &[u8],
    hint: Option<&str>,
) -> Result<Decoded<N>, DecodeError> {
    let strict = decode_text::<N>(provider, bytes, hint);
    let Err(e) = strict else {
        return strict;
    };
    // Rule 4: what an agent's encoder writes and `serde_json` rejects (a lone surrogate escape,
    // nesting past its limit, a number past f64) is repaired in the decoded view, never a reason
    // the event is undecodable. Only on failure: the fast path pays nothing.
    // Bytes that are not UTF-8 are no agent's encoding (the runner refuses them at the edge).
    if matches!(
        e.category(),
        DecodeCategory::Empty | DecodeCategory::UnknownEvent | DecodeCategory::NotUtf8
    ) {
        return Err(e);
    }
    let Ok(repaired) = tolerant::repair(crate::event::strip_bom(bytes)) else {
        return Err(e);
    };
    if repaired.repairs.is_empty() {
        return Err(e);
    }
    let mut decoded = decode_text::<N>(provider, repaired.text.as_bytes(), hint)?;
    let issues: Vec<ProjectionIssue> = repaired.repairs.into_iter().map(ProjectionIssue::from).collect();
    decoded.issues.splice(0..0, issues);
    Ok(decoded)
}

/// [`decode`] without the repair fallback.
fn decode_text<N: NativeEvents>(
    provider: &Provider,
    bytes: &[u8],
    hint: Option<&str>,
) -> Result<Decoded<N>, DecodeError> {
    let bytes = crate::event::strip_bom(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(DecodeError::new(
            provider.clone(),
            DecodeCategory::Empty,
            "the payload is empty",
        ));
    }
    // Validated once here: the typed passes read the text (`from_str`), which skips the UTF-8
    // checks `from_slice` makes again per string and per raw field.
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            return Err(DecodeError::new(
                provider.clone(),
                DecodeCategory::NotUtf8,
                format!("the payload is not UTF-8 ({e})"),
            ))
        }
    };
    // A dialect without a name key takes the name from the hint: no probe pass (the typed pass
    // below rejects malformed JSON and trailing data, and the slow path reports them).
    //
    // With a name key, the fast path reads keys only up to the name (agents send it first or
    // near the start) and lets the typed pass validate the rest; when either fails, the full
    // probe below reads (and validates) the whole payload and reports the error as before.
    if let Some(key) = N::NAME_KEY {
        if let Some(name) = quick_name(text, key) {
            if let Some(fast) = typed_fast::<N>(text, &name) {
                return Ok(fast);
            }
        }
    }
    let payload_name = match N::NAME_KEY {
        Some(key) => probe_name(provider, bytes, Some(key))?,
        None => None,
    };
    let Some(name) = payload_name.as_deref().or(hint) else {
        let key = N::NAME_KEY.unwrap_or("--event");
        return Err(DecodeError::new(
            provider.clone(),
            DecodeCategory::UnknownEvent,
            format!("the payload names no event (`{key}`) and no `--event` was given"),
        )
        .with_path(key));
    };

    // Fast path: typed, straight from the bytes.
    if let Some(fast) = typed_fast::<N>(text, name) {
        return Ok(fast);
    }

    // Slow path: repair on a tree.
    let value: Value = serde_json::from_slice(bytes).map_err(|e| DecodeError::from_json(provider.clone(), &e))?;
    let Value::Object(original) = value else {
        return Err(not_an_object(provider));
    };
    let typed = repair(&original, |v, t| {
        N::deserialize_named(name, serde_path_to_error::Deserializer::new(v, t))
    });
    if typed.filled.is_empty() {
        if let Some(mut native) = typed.value {
            for (k, v) in moved_values(&original, &typed.moved) {
                native.extra_mut().insert(k, v);
            }
            return Ok(Decoded {
                native,
                issues: typed.issues,
                other_view: None,
            });
        }
    }
    let other = repair(&original, |v, t| {
        N::deserialize_other(name, serde_path_to_error::Deserializer::new(v, t))
    });
    let mut other_native = other.value.ok_or_else(|| not_an_object(provider))?;
    for (k, v) in moved_values(&original, &other.moved) {
        other_native.extra_mut().insert(k, v);
    }
    let mut issues = typed.issues;
    match typed.value {
        Some(native) => Ok(Decoded {
            native,
            issues,
            other_view: Some(other_native),
        }),
        None => {
            issues.push(ProjectionIssue {
                path: ".".into(),
                message: format!("the payload could not be typed as `{name}`"),
                repair: Repair::Untyped,
            });
            Ok(Decoded {
                native: other_native,
                issues,
                other_view: None,
            })
        }
    }
}
fn not_an_object(provider: &Provider) -> DecodeError {
    DecodeError::new(
        provider.clone(),
        DecodeCategory::Data,
        "the payload is not a JSON object",
    )
    .with_path(".")
}

/// Placeholder values tried, in order, for a missing identifying field.
fn placeholder(attempt: usize) -> Option<Value> {
    match attempt {
        0 => Some(Value::String(String::new())),
        1 => Some(Value::Object(Map::new())),
        2 => Some(Value::Array(Vec::new())),
        3 => Some(Value::from(0)),
        4 => Some(Value::Bool(false)),
        _ => None,
    }
}

/// The field name of a serde "missing field `x`" message.
fn missing_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("missing field `")?;
    rest.split('`').next()
}

/// The field name of a serde "duplicate field `x`" message.
fn duplicate_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("duplicate field `")?;
    rest.split('`').next()
}

/// The outcome of [`repair`].
struct Repaired<T> {
    value: Option<T>,
    issues: Vec<ProjectionIssue>,
    /// Keys taken out for an unexpected shape (their original values go to `extra`).
    moved: Vec<String>,
    /// Keys filled with a placeholder.
    filled: Vec<String>,
}

impl<T> Repaired<T> {
    /// Takes `key` out of the work map for a value the typed view cannot hold (its original value
    /// goes to `extra`, from the payload) and reports it at `path`; false when the key is absent.
    fn move_to_extra(&mut self, map: &mut Map<String, Value>, key: String, path: String, message: String) -> bool {
        if map.remove(&key).is_none() {
            return false;
        }
        self.issues.push(ProjectionIssue {
            path,
            message,
            repair: Repair::MovedToExtra,
        });
        self.moved.push(key);
        true
    }
}

/// The original values of the moved keys.
fn moved_values(original: &Map<String, Value>, moved: &[String]) -> Vec<(String, Value)> {
    moved
        .iter()
        .filter_map(|k| original.get(k).map(|v| (k.clone(), v.clone())))
        .collect()
}

/// Retries `attempt` on a copy of `original`, taking out each top-level value of an unexpected
/// shape and filling each missing required field with a placeholder, until it succeeds or no
/// repair applies.
fn repair<T>(
    original: &Map<String, Value>,
    mut attempt: impl FnMut(&Value, &mut serde_path_to_error::Track) -> Result<T, serde_json::Error>,
) -> Repaired<T> {
    let mut work = Value::Object(original.clone());
    let mut out = Repaired {
        value: None,
        issues: Vec::new(),
        moved: Vec::new(),
        filled: Vec::new(),
    };
    let mut tries: Vec<usize> = Vec::new();
    let limit = original.len() * 2 + 16;
    for _ in 0..limit {
        let mut track = serde_path_to_error::Track::new();
        lenient::repairs::clear();
        let err = match attempt(&work, &mut track) {
            Ok(v) => {
                out.issues.extend(lenient::repairs::take(&work));
                out.value = Some(v);
                return out;
            }
            Err(e) => e,
        };
        let path = track.path();
        let top = match path.iter().next() {
            Some(serde_path_to_error::Segment::Map { key }) => Some(key.clone()),
            _ => None,
        };
        let message = err.to_string();
        let Value::Object(map) = &mut work else {
            break;
        };
        if let Some(key) = top {
            if let Some(i) = out.filled.iter().position(|k| *k == key) {
                // A placeholder of the wrong type: try the next one.
                tries[i] += 1;
                match placeholder(tries[i]) {
                    Some(v) => {
                        map.insert(key, v);
                        continue;
                    }
                    None => break,
                }
            }
            if out.move_to_extra(map, key, path.to_string(), message) {
                continue;
            }
            break;
        }
        // Two spellings of one field (a name and its serde alias, such as Copilot's
        // `transcriptPath` and `transcript_path`) both present: the field's own name goes to
        // `extra` with its value, and the other spelling is read.
        if let Some(key) = duplicate_field(&message).map(str::to_owned) {
            if map.contains_key(&key) {
                let path = key.clone();
                out.move_to_extra(map, key, path, message);
                continue;
            }
        }
        match missing_field(&message).map(str::to_owned) {
            Some(key) if !out.filled.contains(&key) => {
                if let Some(v) = placeholder(0) {
                    map.insert(key.clone(), v);
                }
                out.issues.push(ProjectionIssue {
                    path: key.clone(),
                    message,
                    repair: Repair::Placeholder,
                });
                out.filled.push(key);
                tries.push(0);
            }
            _ => break,
        }
    }
    out
}
/// The typed view straight from the bytes, when the payload is exactly one object of `name`'s
/// shape (no trailing data).
fn typed_fast<N: NativeEvents>(text: &str, name: &str) -> Option<Decoded<N>> {
    lenient::repairs::clear();
    let mut de = serde_json::Deserializer::from_str(text);
    let native = N::deserialize_named(name, &mut de).ok()?;
    de.end().ok()?;
    // Nested objects repaired one level down (`lenient::nested`): their issues, located in the
    // payload (read again only then).
    let issues = if lenient::repairs::any() {
        lenient::repairs::take(&serde_json::from_str(text).unwrap_or_default())
    } else {
        Vec::new()
    };
    Some(Decoded {
        native,
        issues,
        other_view: None,
    })
}

/// The event name when it is a string among the payload's keys, reading (and skipping) only the
/// keys before it; `None` when it is not found that way (the full probe decides).
fn quick_name(text: &str, key: &'static str) -> Option<String> {
    let mut found = None;
    let mut de = serde_json::Deserializer::from_str(text);
    // Stops with an error as soon as the name is read: only `found` matters.
    let _ = de.deserialize_map(QuickName { key, found: &mut found });
    found
}

struct QuickName<'a> {
    key: &'static str,
    found: &'a mut Option<String>,
}

impl<'de> Visitor<'de> for QuickName<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(k) = map.next_key_seed(KeyCow)? {
            if k == self.key {
                if let Value::String(s) = map.next_value::<Value>()? {
                    *self.found = Some(s);
                }
                return Err(serde::de::Error::custom("name found"));
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

/// Reads the event name from the payload without typing anything else, validating the JSON
/// and rejecting trailing data.
fn probe_name(provider: &Provider, bytes: &[u8], key: Option<&'static str>) -> Result<Option<String>, DecodeError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let mut track = serde_path_to_error::Track::new();
    let name = NameSeed { key }
        .deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track))
        .map_err(|e| DecodeError::from_json(provider.clone(), &e).with_path(track.path().to_string()))?;
    de.end().map_err(|e| DecodeError::from_json(provider.clone(), &e))?;
    Ok(name)
}

struct NameSeed {
    key: Option<&'static str>,
}

impl<'de> DeserializeSeed<'de> for NameSeed {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for NameSeed {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut name = None;
        while let Some(k) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if self.key == Some(k.as_ref()) {
                // A name of another type counts as absent (the hint decides).
                name = match map.next_value::<Value>()? {
                    Value::String(s) => Some(s),
                    _ => None,
                };
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(name)
    }
}

// ---------------------------------------------------------------------------------------------
// Encoder helpers
// ---------------------------------------------------------------------------------------------

/// The check at the top of every encoder: the outcome is of the family that serves `kind`
/// ([`EncodeError::wrong_family`]), and `caps` holds every capability it needs
/// ([`EncodeError::unsupported`] naming the first one missing).
///
/// ```
/// use agenthooks_core::decision::{ask_user, deny};
/// use agenthooks_core::kit::ensure_expressible;
/// use agenthooks_core::{CapSet, Capability, EncodeCategory, EventKind, Outcome, Provider};
/// let caps = CapSet::of(&[Capability::Deny]);
/// let p = Provider::CODEX;
/// assert!(ensure_expressible(&p, "PreToolUse", EventKind::ToolPre, &Outcome::ToolPre(deny("no")), caps).is_ok());
/// let e = ensure_expressible(&p, "PreToolUse", EventKind::ToolPre, &Outcome::ToolPre(ask_user("?")), caps);
/// assert_eq!(e.unwrap_err().category(), EncodeCategory::Unsupported);
/// ```
pub fn ensure_expressible(
    provider: &Provider,
    native: &str,
    kind: EventKind,
    outcome: &Outcome,
    caps: CapSet,
) -> Result<(), EncodeError> {
    if !outcome.fits(kind) {
        return Err(EncodeError::wrong_family(
            provider.clone(),
            native,
            kind,
            outcome.kind().as_str(),
        ));
    }
    match missing(outcome.required_capabilities(), caps) {
        Some(cap) => Err(EncodeError::unsupported(provider.clone(), native, cap)),
        None => Ok(()),
    }
}

/// The opening every kit encoder shares: [`ensure_expressible`] for the event (its native name
/// and kind, the codec's provider, `caps`), then the answer to a bare neutral outcome, the
/// codec's [`no_op`](crate::Codec::no_op). `Ok(None)`: the outcome needs encoding.
///
/// ```ignore
/// fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
///     if let Some(no_op) = kit::expressible_or_no_op(self, event, outcome, self.event_capabilities(event))? {
///         return Ok(no_op);
///     }
///     // the event's own answer
/// }
/// ```
///
/// # Errors
///
/// The outcome does not fit the event's kind, or needs a capability `caps` lacks.
pub fn expressible_or_no_op<C: Codec + ?Sized>(
    codec: &C,
    event: &Event,
    outcome: &Outcome,
    caps: CapSet,
) -> Result<Option<WireResponse>, EncodeError> {
    ensure_expressible(
        &codec.provider(),
        event.envelope().native.as_str(),
        event.kind(),
        outcome,
        caps,
    )?;
    Ok(outcome.is_bare_neutral().then(|| codec.no_op(&EventTarget::of(event))))
}

/// What a Claude-shaped `systemMessage` carries for an outcome: the system message, then the
/// user-facing block message of a blocking outcome when it differs from the reason (the model
/// reads the reason; the user reads this), one per line. `None` when there is neither.
///
/// ```
/// use agenthooks_core::decision::deny;
/// use agenthooks_core::kit::user_message;
/// let d = deny("for the model").with_block_reason("for the user").with_system_message("note");
/// assert_eq!(user_message(&d.into()).as_deref(), Some("note\nfor the user"));
/// assert_eq!(user_message(&deny("same").with_block_reason("same").into()), None);
/// ```
pub fn user_message(outcome: &Outcome) -> Option<String> {
    let reason = outcome.reason().unwrap_or_default();
    let explicit_block = outcome
        .blocks()
        .then(|| outcome.block_message())
        .flatten()
        .filter(|m| *m != reason);
    let lines: Vec<&str> = outcome
        .system_message()
        .into_iter()
        .chain(explicit_block)
        .filter(|s| !s.is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The first capability of `need` that `have` lacks.
fn missing(need: CapSet, have: CapSet) -> Option<Capability> {
    need.iter().find(|c| !have.contains(*c))
}
