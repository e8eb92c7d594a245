//! [`ResolvedHook`]: one hook entry to render on a target (what [`crate::resolve`] makes of
//! the manifest's hooks, and what every target writes).

use std::time::Duration;

use agenthooks_core::EventKind;

/// One hook entry to render on a target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ResolvedHook {
    /// Indexes of the manifest hooks merged into it.
    pub(crate) specs: Vec<usize>,
    /// The native event.
    pub(crate) native: String,
    /// Its unified kind.
    pub(crate) kind: EventKind,
    /// The compiled matcher (`None` = every tool / no matcher).
    pub(crate) matcher: Option<String>,
    /// Whether any merged hook is blocking.
    pub(crate) blocking: bool,
    /// The timeout in the agent's unit.
    pub(crate) timeout_value: u64,
    /// The timeout as a duration (what `--timeout` says).
    pub(crate) timeout: Duration,
    /// The command line (before any agent-specific wrapper).
    pub(crate) command: String,
    /// The in-process tool filter where the agent's matcher cannot express the hook's (the
    /// command carries it as `--tools=…`; the bridges send it on each frame).
    pub(crate) tools: Option<agenthooks_core::ToolSelector>,
    /// Whether a merged hook's failure policy ([`crate::manifest::HookSpec::effective_failure`]) is closed.
    pub(crate) fail_closed: bool,
}
