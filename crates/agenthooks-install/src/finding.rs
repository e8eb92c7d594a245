//! [`Finding`]: one line of a preflight, render or doctor report.

use std::fmt;

use agenthooks_core::Provider;
use serde::Serialize;

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Severity {
    /// Worth knowing; nothing is lost.
    Info,
    /// Works, but differently from what the manifest asked (a wider matcher, a clamped
    /// timeout, a synchronous hook, a decision the agent cannot express).
    Degraded,
    /// Something in the manifest will not happen on this agent.
    Dropped,
    /// Something is broken (doctor): a hook will not run.
    Error,
}

impl Severity {
    /// The stable kebab-case name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Info => "info",
            Self::Degraded => "degraded",
            Self::Dropped => "dropped",
            Self::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a finding is about (stable names for tools and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum FindingCode {
    /// The agent has no event for this kind.
    EventUnavailable,
    /// The kind arrives folded into another native event (e.g. Codex tool failures on
    /// `PostToolUse`).
    EventFolded,
    /// A native event this release does not list for the agent; rendered as given.
    UnknownNativeEvent,
    /// The agent does not honour a capability the hook uses on this event.
    CapabilityMissing,
    /// The agent has no asynchronous hooks: a non-blocking hook runs synchronously.
    AsyncUnsupported,
    /// A non-blocking hook is forced synchronous (Claude `Stop`, quirk #1).
    AsyncForcedSync,
    /// A non-blocking hook is wrapped in a detached background worker (Codex, quirk #10).
    AsyncDetached,
    /// Fire-and-forget hooks are killed early by the agent; slow work must detach.
    KilledEarly,
    /// The agent cannot be told to fail closed when the hook binary crashes or times out.
    FailClosedUnsupported,
    /// Fail-closed uses the agent's native per-hook setting.
    FailClosedNative,
    /// The timeout was clamped or rounded to what the agent accepts.
    TimeoutAdjusted,
    /// The tool matcher could not be expressed: the hook matches every tool and the runner
    /// filters in-process.
    MatcherBroadened,
    /// Part of the tool matcher can never match on this agent (it fires no hooks for those
    /// tools).
    MatcherUnreachable,
    /// The event has no tool matcher; the manifest's matcher is ignored.
    MatcherIgnored,
    /// Codex per-hook trust (`[hooks.state]`), quirk #9.
    HookTrust,
    /// A project/folder trust gate the agent applies before loading project hooks.
    ProjectTrust,
    /// Something about where the agent reads this file.
    Location,
    /// Doctor: our hooks are not installed here.
    NotInstalled,
    /// Doctor: our hooks are installed but differ from the manifest.
    Outdated,
    /// Doctor: a config file does not parse.
    ParseError,
    /// Doctor: the same hook is reachable from two files.
    Duplicate,
    /// Doctor: the hook command does not resolve or does not answer `agenthooks ping`.
    Command,
    /// Doctor: the agent's hooks are disabled by a setting.
    HooksDisabled,
}

impl FindingCode {
    /// The stable kebab-case name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::EventUnavailable => "event-unavailable",
            Self::EventFolded => "event-folded",
            Self::UnknownNativeEvent => "unknown-native-event",
            Self::CapabilityMissing => "capability-missing",
            Self::AsyncUnsupported => "async-unsupported",
            Self::AsyncForcedSync => "async-forced-sync",
            Self::AsyncDetached => "async-detached",
            Self::KilledEarly => "killed-early",
            Self::FailClosedUnsupported => "fail-closed-unsupported",
            Self::FailClosedNative => "fail-closed-native",
            Self::TimeoutAdjusted => "timeout-adjusted",
            Self::MatcherBroadened => "matcher-broadened",
            Self::MatcherUnreachable => "matcher-unreachable",
            Self::MatcherIgnored => "matcher-ignored",
            Self::HookTrust => "hook-trust",
            Self::ProjectTrust => "project-trust",
            Self::Location => "location",
            Self::NotInstalled => "not-installed",
            Self::Outdated => "outdated",
            Self::ParseError => "parse-error",
            Self::Duplicate => "duplicate",
            Self::Command => "command",
            Self::HooksDisabled => "hooks-disabled",
        }
    }
}

impl fmt::Display for FindingCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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

    /// Sets the manifest hook index.
    #[must_use]
    pub fn with_hook(mut self, hook: usize) -> Self {
        self.hook = Some(hook);
        self
    }

    /// Sets the native event.
    #[must_use]
    pub fn with_native(mut self, native: impl Into<String>) -> Self {
        self.native_event = Some(native.into());
        self
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
