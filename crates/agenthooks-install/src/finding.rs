//! [`Finding`]: one line of a preflight, render or doctor report.

use std::fmt;

use agenthooks_core::Provider;
use serde::Serialize;

agenthooks_core::kit::named_enum! {
    /// How much a finding matters.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
    #[serde(rename_all = "kebab-case")]
    #[non_exhaustive]
    pub enum Severity {
        /// Worth knowing; nothing is lost.
        Info => "info",
        /// Works, but differently from what the manifest asked (a wider matcher, a clamped
        /// timeout, a synchronous hook, a decision the agent cannot express).
        Degraded => "degraded",
        /// Something in the manifest will not happen on this agent.
        Dropped => "dropped",
        /// Something is broken (doctor): a hook will not run.
        Error => "error",
    }
}

agenthooks_core::kit::named_enum! {
    /// What a finding is about (stable names for tools and tests).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "kebab-case")]
    #[non_exhaustive]
    pub enum FindingCode {
        /// The agent has no event for this kind.
        EventUnavailable => "event-unavailable",
        /// The kind arrives folded into another native event (e.g. Codex tool failures on
        /// `PostToolUse`).
        EventFolded => "event-folded",
        /// A native event this release does not list for the agent; rendered as given.
        UnknownNativeEvent => "unknown-native-event",
        /// The agent does not honour a capability the hook uses on this event.
        CapabilityMissing => "capability-missing",
        /// The agent has no asynchronous hooks: a non-blocking hook runs synchronously.
        AsyncUnsupported => "async-unsupported",
        /// A non-blocking hook is forced synchronous (Claude `Stop`, quirk #1).
        AsyncForcedSync => "async-forced-sync",
        /// A non-blocking hook is wrapped in a detached background worker (Codex, quirk #10).
        AsyncDetached => "async-detached",
        /// Fire-and-forget hooks are killed early by the agent; slow work must detach.
        KilledEarly => "killed-early",
        /// The agent cannot be told to fail closed when the hook binary crashes or times out.
        FailClosedUnsupported => "fail-closed-unsupported",
        /// Fail-closed uses the agent's native per-hook setting.
        FailClosedNative => "fail-closed-native",
        /// The timeout was clamped or rounded to what the agent accepts.
        TimeoutAdjusted => "timeout-adjusted",
        /// The tool matcher could not be expressed: the hook matches every tool and the runner
        /// filters in-process.
        MatcherBroadened => "matcher-broadened",
        /// Part of the tool matcher can never match on this agent (it fires no hooks for those
        /// tools).
        MatcherUnreachable => "matcher-unreachable",
        /// The event has no tool matcher; the manifest's matcher is ignored.
        MatcherIgnored => "matcher-ignored",
        /// Codex per-hook trust (`[hooks.state]`), quirk #9.
        HookTrust => "hook-trust",
        /// A project/folder trust gate the agent applies before loading project hooks.
        ProjectTrust => "project-trust",
        /// Something about where the agent reads this file.
        Location => "location",
        /// Doctor: our hooks are not installed here.
        NotInstalled => "not-installed",
        /// Doctor: our hooks are installed but differ from the manifest.
        Outdated => "outdated",
        /// Doctor: a config file does not parse.
        ParseError => "parse-error",
        /// Doctor: the same hook is reachable from two files.
        Duplicate => "duplicate",
        /// Doctor: the hook command does not resolve or does not answer `agenthooks ping`.
        Command => "command",
        /// Doctor: the agent's hooks are disabled by a setting.
        HooksDisabled => "hooks-disabled",
        /// Warm mode: how a hook is rendered (an http hook to the warm server, or a command
        /// hook kept), or the warm server's state (doctor).
        Warm => "warm",
    }
}

/// One observation about a manifest on an agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Finding {
    /// How much it matters.
    pub severity: Severity,
    /// What it is about.
    pub code: FindingCode,
    /// The agent.
    pub provider: Provider,
    /// Index of the manifest hook it concerns, if any.
    pub hook: Option<usize>,
    /// The native event it concerns, if any.
    pub native_event: Option<String>,
    /// A human sentence.
    pub message: String,
}

impl Finding {
    /// Builds a finding about the whole target.
    pub fn new(severity: Severity, code: FindingCode, provider: &Provider, message: impl Into<String>) -> Self {
        Self {
            severity,
            code,
            provider: provider.clone(),
            hook: None,
            native_event: None,
            message: message.into(),
        }
    }
}

agenthooks_core::kit::setters! {
    impl Finding {
        /// Sets the manifest hook index.
        with_hook(hook: usize) => Some;
        /// Sets the native event.
        with_native(native_event: impl Into<String>) => Some;
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {} {}", self.severity, self.provider, self.code)?;
        if let Some(h) = self.hook {
            write!(f, " hook#{h}")?;
        }
        if let Some(n) = &self.native_event {
            write!(f, " {n}")?;
        }
        write!(f, ": {}", self.message)
    }
}
