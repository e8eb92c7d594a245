//! The codec tables: one [`EventRow`] per native event and the [`ToolTable`] of tool names (a
//! leaf: the [`Codec`](crate::Codec) trait returns them, the kit's decoder and macros read them).

use std::time::Duration;

use crate::capability::CapSet;
use crate::event::CanonicalTool;
use crate::kind::EventKind;

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

    /// The agent clamps the timeout to `secs` seconds.
    #[must_use]
    pub const fn clamp_secs(mut self, secs: u64) -> Self {
        self.timeout_clamp = Some(Duration::from_secs(secs));
        self
    }

    /// Whether the event serves `kind` (its own, or the second one the payload may decide).
    pub fn serves(&self, kind: EventKind) -> bool {
        self.kind == kind || self.also == Some(kind)
    }
}

crate::setters! {
    impl EventRow {
        /// The agent waits for and acts on the answer.
        const blocking() => blocking = true;
        /// The agent filters the event by a tool matcher.
        const tool_matcher() => tool_matcher = true;
        /// What the agent honours in the answer.
        const caps(caps: CapSet);
        /// Install may run the hook asynchronously.
        const may_async() => may_async = true;
        /// The answer under fail-closed when the hook fails.
        const fail(failure: FailShape);
        /// Only this provider fires an event of this name.
        const provider_only() => provider_only = true;
        /// The payload fields that identify the event besides its name.
        const identify(identifying: &'static [&'static str]);
        /// The payload may decide a second kind for this event.
        const also(also: EventKind) => Some;
        /// Install does not wire this event for its kind by default.
        const secondary() => primary = false;
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
