//! The provider kit: the one mechanism every codec is built on.
//!
//! A provider crate writes three things by hand: its native structs' *fields* (the fidelity
//! guarantee), one table of event facts, and its encoder. The kit supplies the rest:
//!
//! - [`native_events!`](crate::native_events) turns a common-fields block and one row per
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
//! agenthooks_core::native_events! {
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
use std::time::Duration;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::capability::{CapSet, Capability};
use crate::decision::Outcome;
use crate::error::{DecodeCategory, DecodeError, EncodeError};
use crate::event::{CanonicalTool, Envelope};
use crate::kind::EventKind;
use crate::provider::Provider;

mod capture;
pub mod frame;
pub mod lenient;
mod macros;
mod quirk_table;
pub mod tolerant;
pub mod transcript;

pub use capture::Capture;
pub(crate) use capture::KeyCow;
pub use quirk_table::quirk_table_ok;

/// Unknown keys of a payload object, in wire order.
pub type Extra = Map<String, Value>;

// ---------------------------------------------------------------------------------------------
// Event rows
// ---------------------------------------------------------------------------------------------

/// What the hook answers for an event when it fails (handler error, panic, timeout,
/// undecodable payload) under a fail-closed policy. Fail-open always answers the no-op.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum FailShape {
    /// The agent cannot be stopped here: answer the no-op.
    #[default]
    NoOp,
    /// The event's own block, as the codec spells it (a deny, a prompt block, …).
    Block,
    /// Exit with this code and the reason on stderr (the agent's universal block).
    Exit(i32),
}

/// One native event's facts, owned by its provider crate: the single source that the codec's
/// capabilities and encoder checks, install, preflight, the docs and the coverage tests read.
///
/// Built in const context: `EventRow::new(name, kind, blocking, tool_matcher)` followed by
/// modifiers.
///
/// ```
/// use agenthooks_core::kit::{EventRow, FailShape};
/// use agenthooks_core::{CapSet, Capability, EventKind};
/// const ROW: EventRow = EventRow::new("PreToolUse", EventKind::ToolPre, true, true)
///     .caps(CapSet::of(&[Capability::Deny]))
///     .fail(FailShape::Block);
/// assert!(ROW.caps.contains(Capability::Deny) && ROW.primary && !ROW.may_async);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
#[allow(clippy::struct_excessive_bools)] // independent facts of one event, read by name
pub struct EventRow {
    /// The native name, exactly as the agent spells it.
    pub name: &'static str,
    /// The unified kind.
    pub kind: EventKind,
    /// Whether the agent waits for the hook and acts on its answer (it can gate, inject context
    /// or otherwise change what happens).
    pub blocking: bool,
    /// Whether the agent filters the event by a tool matcher.
    pub tool_matcher: bool,
    /// What the agent honours in the answer (the default variant's set).
    pub caps: CapSet,
    /// Whether install may configure the hook to run asynchronously.
    pub may_async: bool,
    /// The longest timeout the agent grants, when it clamps the configured one.
    pub timeout_clamp: Option<Duration>,
    /// The answer under fail-closed when the hook fails.
    pub failure: FailShape,
    /// Whether only this provider fires an event of this name (payload sniffing).
    pub provider_only: bool,
    /// Whether install wires this event for its kind (`false` for a second event of the same
    /// kind that a hook must ask for by native name).
    pub primary: bool,
    /// The payload fields that identify the event besides its name (the tool name on tool
    /// events, a field that decides the kind): the only ones tolerant decoding may not do
    /// without.
    pub identifying: &'static [&'static str],
    /// A second kind the payload may decide (Gemini `AfterTool` is `tool.post`, or `tool.error`
    /// when its response carries an error): install wires the event for this kind too.
    pub also: Option<EventKind>,
}

impl EventRow {
    /// A row with no capabilities, not async, no clamp, [`FailShape::NoOp`], not
    /// provider-only, primary.
    pub const fn new(name: &'static str, kind: EventKind, blocking: bool, tool_matcher: bool) -> Self {
        Self {
            name,
            kind,
            blocking,
            tool_matcher,
            caps: CapSet::EMPTY,
            may_async: false,
            timeout_clamp: None,
            failure: FailShape::NoOp,
            provider_only: false,
            primary: true,
            identifying: &[],
            also: None,
        }
    }

    /// The agent waits for and acts on the answer.
    #[must_use]
    pub const fn blocking(mut self) -> Self {
        self.blocking = true;
        self
    }

    /// The agent filters the event by a tool matcher.
    #[must_use]
    pub const fn tool_matcher(mut self) -> Self {
        self.tool_matcher = true;
        self
    }

    /// What the agent honours in the answer.
    #[must_use]
    pub const fn caps(mut self, caps: CapSet) -> Self {
        self.caps = caps;
        self
    }

    /// Install may run the hook asynchronously.
    #[must_use]
    pub const fn may_async(mut self) -> Self {
        self.may_async = true;
        self
    }

    /// The agent clamps the timeout to `secs` seconds.
    #[must_use]
    pub const fn clamp_secs(mut self, secs: u64) -> Self {
        self.timeout_clamp = Some(Duration::from_secs(secs));
        self
    }

    /// The answer under fail-closed when the hook fails.
    #[must_use]
    pub const fn fail(mut self, shape: FailShape) -> Self {
        self.failure = shape;
        self
    }

    /// Only this provider fires an event of this name.
    #[must_use]
    pub const fn provider_only(mut self) -> Self {
        self.provider_only = true;
        self
    }

    /// The payload fields that identify the event besides its name.
    #[must_use]
    pub const fn identify(mut self, fields: &'static [&'static str]) -> Self {
        self.identifying = fields;
        self
    }

    /// The payload may decide a second kind for this event.
    #[must_use]
    pub const fn also(mut self, kind: EventKind) -> Self {
        self.also = Some(kind);
        self
    }

    /// Whether the event serves `kind` (its own, or the second one the payload may decide).
    pub fn serves(&self, kind: EventKind) -> bool {
        self.kind == kind || self.also == Some(kind)
    }

    /// Install does not wire this event for its kind by default.
    #[must_use]
    pub const fn secondary(mut self) -> Self {
        self.primary = false;
        self
    }
}

/// The row of `name` in `rows`.
pub fn row<'a>(rows: &'a [EventRow], name: &str) -> Option<&'a EventRow> {
    rows.iter().find(|r| r.name == name)
}

/// The first primary row serving `kind` (the event install wires for it): what a failure
/// answer uses when only the kind is known.
pub fn primary_row(rows: &[EventRow], kind: EventKind) -> Option<&EventRow> {
    rows.iter().find(|r| r.primary && r.serves(kind))
}

// ---------------------------------------------------------------------------------------------
// Tool tables
// ---------------------------------------------------------------------------------------------

/// How a provider names MCP tools: `<prefix><server><separator><tool>`
/// (Claude `mcp__github__create_issue`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpNaming {
    /// The prefix (`mcp__`).
    pub prefix: &'static str,
    /// The separator between server and tool (`__`).
    pub separator: &'static str,
}

impl McpNaming {
    /// A naming scheme.
    pub const fn new(prefix: &'static str, separator: &'static str) -> Self {
        Self { prefix, separator }
    }

    /// Splits a tool name into `(server, tool)`; the tool is `None` for a bare server name
    /// (`mcp__github`, as matchers use).
    ///
    /// ```
    /// use agenthooks_core::kit::McpNaming;
    /// let n = McpNaming::new("mcp__", "__");
    /// assert_eq!(n.split("mcp__github__create_issue"), Some(("github", Some("create_issue"))));
    /// assert_eq!(n.split("mcp__github"), Some(("github", None)));
    /// assert_eq!(n.split("Bash"), None);
    /// ```
    pub fn split<'a>(&self, name: &'a str) -> Option<(&'a str, Option<&'a str>)> {
        let rest = name.strip_prefix(self.prefix)?;
        if rest.is_empty() {
            return None;
        }
        match rest.split_once(self.separator) {
            Some((server, tool)) if !server.is_empty() => Some((server, Some(tool).filter(|t| !t.is_empty()))),
            Some(_) => None,
            None => Some((rest, None)),
        }
    }
}

/// A provider's built-in tools by canonical class, and its MCP naming: one table read by the
/// codec's `classify` and by install's matcher compiler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolTable {
    /// Built-in tool names per canonical class.
    pub classes: &'static [(CanonicalTool, &'static [&'static str])],
    /// The MCP naming scheme, when the agent has one.
    pub mcp: Option<McpNaming>,
    /// Built-in tools that act on MCP servers (Claude `ListMcpResourcesTool`).
    pub mcp_builtins: &'static [&'static str],
}

impl ToolTable {
    /// A table.
    pub const fn new(
        classes: &'static [(CanonicalTool, &'static [&'static str])],
        mcp: Option<McpNaming>,
        mcp_builtins: &'static [&'static str],
    ) -> Self {
        Self {
            classes,
            mcp,
            mcp_builtins,
        }
    }

    /// The canonical class of a tool name: MCP by naming scheme or built-in, else the class
    /// that lists it, else [`CanonicalTool::Other`].
    ///
    /// ```
    /// use agenthooks_core::kit::{McpNaming, ToolTable};
    /// use agenthooks_core::CanonicalTool;
    /// const T: ToolTable = ToolTable::new(
    ///     &[(CanonicalTool::Shell, &["Bash"])],
    ///     Some(McpNaming::new("mcp__", "__")),
    ///     &[],
    /// );
    /// assert_eq!(T.classify("Bash"), CanonicalTool::Shell);
    /// assert_eq!(T.classify("mcp__gh__x"), CanonicalTool::Mcp);
    /// assert_eq!(T.classify("Zap"), CanonicalTool::Other);
    /// ```
    pub fn classify(&self, name: &str) -> CanonicalTool {
        if self.parse_mcp(name).is_some() || self.mcp_builtins.contains(&name) {
            return CanonicalTool::Mcp;
        }
        self.classes
            .iter()
            .find(|(_, names)| names.contains(&name))
            .map_or(CanonicalTool::Other, |(c, _)| *c)
    }

    /// The `(server, tool)` of an MCP tool name under this table's naming scheme.
    pub fn parse_mcp<'a>(&self, name: &'a str) -> Option<(&'a str, Option<&'a str>)> {
        self.mcp.and_then(|n| n.split(name))
    }

    /// The built-in names of a class.
    pub fn names(&self, class: CanonicalTool) -> &'static [&'static str] {
        self.classes
            .iter()
            .find(|(c, _)| *c == class)
            .map_or(&[], |(_, names)| names)
    }
}

impl ToolTable {
    /// Built-in names the table lists more than once (within a class or across two), plus any
    /// of `also` (names the crate keeps outside the classes) already listed or repeated; empty
    /// for a well-formed table.
    ///
    /// ```
    /// use agenthooks_core::{kit::ToolTable, CanonicalTool as T};
    /// const TOOLS: ToolTable = ToolTable::new(&[(T::Shell, &["sh"]), (T::FileRead, &["cat", "sh"])], None, &[]);
    /// assert_eq!(TOOLS.repeated_names(&["ls"]), ["sh"]);
    /// assert_eq!(TOOLS.repeated_names(&["cat"]), ["cat", "sh"]);
    /// ```
    pub fn repeated_names(&self, also: &[&'static str]) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self.classes.iter().flat_map(|(_, n)| n.iter().copied()).collect();
        names.extend_from_slice(also);
        names.sort_unstable();
        let mut repeated: Vec<&'static str> = names.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]).collect();
        repeated.dedup();
        repeated
    }
}

// ---------------------------------------------------------------------------------------------
// Native enums
// ---------------------------------------------------------------------------------------------

/// A provider's native event enum, as generated by [`native_events!`](crate::native_events).
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

/// What the decoder did about a field it could not type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Repair {
    /// The value had a shape no release this crate knows sent: it is kept in `extra`.
    MovedToExtra,
    /// An identifying field was missing: the projection used a placeholder, the native view is
    /// the event's `Other` form.
    Placeholder,
    /// The payload could not be typed at all: the event is delivered as `Other`.
    Untyped,
    /// The text held what `serde_json` rejects but an agent's encoder writes (a lone surrogate
    /// escape, bytes that are not UTF-8, a raw control character): the decoded view holds U+FFFD
    /// (or the escape) instead; the raw payload is unchanged ([`tolerant`]).
    Replaced,
    /// A value nested deeper than [`tolerant::MAX_DEPTH`], or a number beyond `f64`'s range: the
    /// decoded view holds a string with its exact JSON text ([`tolerant`]).
    KeptAsText,
}

/// A field the typed view could not hold as sent. The event still reaches handlers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProjectionIssue {
    /// The JSON path of the field (`tool_input`, `tool_calls[0].tool_name`, `.` for the root).
    pub path: String,
    /// The decoder's message.
    pub message: String,
    /// What was done about it.
    pub repair: Repair,
}

impl Repair {
    /// A stable name: `moved-to-extra`, `placeholder`, `untyped`, `replaced`, `kept-as-text`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::MovedToExtra => "moved-to-extra",
            Self::Placeholder => "placeholder",
            Self::Untyped => "untyped",
            Self::Replaced => "replaced",
            Self::KeptAsText => "kept-as-text",
        }
    }
}

impl fmt::Display for ProjectionIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {} ({})", self.path, self.message, self.repair.as_str())
    }
}

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

impl From<tolerant::TextRepair> for ProjectionIssue {
    fn from(r: tolerant::TextRepair) -> Self {
        let repair = match r.kind {
            tolerant::TextRepairKind::TooDeep | tolerant::TextRepairKind::NumberOutOfRange => Repair::KeptAsText,
            _ => Repair::Replaced,
        };
        ProjectionIssue {
            message: r.kind.describe().to_owned(),
            path: r.path,
            repair,
        }
    }
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

/// The outcome of [`repair`].
struct Repaired<T> {
    value: Option<T>,
    issues: Vec<ProjectionIssue>,
    /// Keys taken out for an unexpected shape (their original values go to `extra`).
    moved: Vec<String>,
    /// Keys filled with a placeholder.
    filled: Vec<String>,
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
        let err = match attempt(&work, &mut track) {
            Ok(v) => {
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
            if map.remove(&key).is_some() {
                out.issues.push(ProjectionIssue {
                    path: path.to_string(),
                    message,
                    repair: Repair::MovedToExtra,
                });
                out.moved.push(key);
                continue;
            }
            break;
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
    let mut de = serde_json::Deserializer::from_str(text);
    let native = N::deserialize_named(name, &mut de).ok()?;
    de.end().ok()?;
    Some(Decoded {
        native,
        issues: Vec::new(),
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
pub fn expressible_or_no_op<C: crate::Codec + ?Sized>(
    codec: &C,
    event: &crate::Event,
    outcome: &Outcome,
    caps: CapSet,
) -> Result<Option<crate::WireResponse>, EncodeError> {
    ensure_expressible(
        &codec.provider(),
        event.envelope().native.as_str(),
        event.kind(),
        outcome,
        caps,
    )?;
    Ok(outcome
        .is_bare_neutral()
        .then(|| codec.no_op(&crate::EventTarget::of(event))))
}

/// The outcome that blocks an event of `kind` with `reason`: [`deny`](crate::decision::deny) on
/// tool gates and permission requests, [`block_prompt`](crate::decision::block_prompt) on a
/// submitted prompt, `None` for kinds whose outcomes cannot block.
///
/// ```
/// use agenthooks_core::kit::blocking_outcome;
/// use agenthooks_core::{DecisionKind, EventKind};
/// assert_eq!(blocking_outcome(EventKind::Permission, "no").map(|o| o.kind()), Some(DecisionKind::Deny));
/// assert_eq!(blocking_outcome(EventKind::PromptSubmitted, "").map(|o| o.kind()), Some(DecisionKind::BlockPrompt));
/// assert!(blocking_outcome(EventKind::SessionStart, "no").is_none());
/// ```
pub fn blocking_outcome(kind: EventKind, reason: &str) -> Option<Outcome> {
    let reason = crate::decision::reason_or_default(reason);
    match kind {
        EventKind::ToolPre | EventKind::Permission => Some(crate::decision::deny(reason).into()),
        EventKind::PromptSubmitted => Some(crate::decision::block_prompt(reason).into()),
        _ => None,
    }
}

/// The encoding of a block on `row`'s event for a failure target: the codec's own
/// [`encode`](crate::Codec::encode) of the target's bare event (its native name, else the row's;
/// its variant and payload) with the [`blocking_outcome`] of the row's kind. `None` when the
/// kind has no blocking outcome, or the codec refuses it (logged: the answer is then the no-op).
pub fn encode_block<C: crate::Codec + ?Sized>(
    codec: &C,
    row: &EventRow,
    target: &crate::EventTarget,
    reason: &str,
) -> Option<crate::WireResponse> {
    let outcome = blocking_outcome(row.kind, reason)?;
    let native = target
        .native
        .clone()
        .unwrap_or_else(|| crate::NativeName::from_static(row.name));
    let mut env = crate::Envelope::new(
        codec.provider(),
        native,
        row.kind,
        target.payload.clone().unwrap_or_default(),
    );
    env.variant = target.variant.clone();
    codec
        .encode(&crate::Event::bare(env), &outcome)
        .map_err(|e| {
            tracing::warn!(
                event = row.name,
                "fail-closed, but the codec cannot encode the block: {e}"
            );
        })
        .ok()
}

/// The provided [`Codec::failure_response`](crate::Codec::failure_response), callable from an
/// override for the targets it does not handle itself.
///
/// - fail-open, or a target without a row: the codec's [`no_op`](crate::Codec::no_op);
/// - [`FailShape::Block`]: [`encode_block`] (the codec's deny or blocked prompt), else the no-op;
/// - [`FailShape::Exit`]: that exit code with the reason ([`reason_or_default`]) on stderr;
/// - [`FailShape::NoOp`]: the no-op.
///
/// [`reason_or_default`]: crate::decision::reason_or_default
pub fn failure_response<C: crate::Codec + ?Sized>(
    codec: &C,
    target: &crate::EventTarget,
    mode: crate::FailMode,
    reason: &str,
) -> crate::WireResponse {
    if mode != crate::FailMode::Closed {
        return codec.no_op(target);
    }
    match codec.row_for(target) {
        Some(row) if row.failure == FailShape::Block => {
            encode_block(codec, row, target, reason).unwrap_or_else(|| codec.no_op(target))
        }
        Some(EventRow {
            failure: FailShape::Exit(code),
            ..
        }) => crate::WireResponse::exit(*code, crate::decision::reason_or_default(reason)),
        _ => codec.no_op(target),
    }
}

/// The first capability of `need` that `have` lacks.
fn missing(need: CapSet, have: CapSet) -> Option<Capability> {
    need.iter().find(|c| !have.contains(*c))
}
