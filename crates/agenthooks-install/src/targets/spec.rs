//! What an install target is: its constants ([`TargetSpec`]: codec, scopes, timeouts, matcher
//! dialect, substituted tokens, [`Notes`]) and its behaviour ([`TargetModule`]). Each target
//! module states one; the registry (`targets/mod.rs`) lists them.

use std::time::Duration;

use agenthooks_core::kit::ToolTable;
use agenthooks_core::{Codec, EventKind, EventRow, Provider};

use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::hook::ResolvedHook;
use crate::manifest::Manifest;
use crate::matcher::{MatcherDialect, Syntax};
use crate::plan::Cx;
use crate::scope::Scope;
use crate::target::Target;

/// What one agent's install target is: constants only (behaviour is [`TargetModule`]).
pub(crate) struct TargetSpec {
    /// The agent.
    pub(crate) provider: Provider,
    /// Its codec: the source of every event and tool fact.
    pub(crate) codec: &'static dyn Codec,
    /// The scopes it supports.
    pub(crate) scopes: &'static [Scope],
    /// Where the agent reads hooks (for unsupported-scope errors).
    pub(crate) scope_hint: &'static str,
    /// Timeout unit, default and bounds (per-event clamps come from the rows).
    pub(crate) timeout: TimeoutRule,
    /// How the agent spells matchers.
    pub(crate) matcher: MatcherDialect,
    /// Text the agent substitutes inside command strings before the shell sees them.
    pub(crate) substituted_tokens: &'static [&'static str],
    /// Native events of the codec that install deliberately does not write, and why.
    pub(crate) not_installed: &'static [(&'static str, &'static str)],
    /// What [`TargetModule::notes`] reports by default (see [`Notes`]).
    pub(crate) notes: Notes,
}

/// An empty tool table (a codec without one: every class is inexpressible).
static NO_TOOLS: ToolTable = ToolTable::new(&[], None, &[]);

impl TargetSpec {
    /// The spec of `provider`'s target read through `codec`: user and project scope, timeouts
    /// in seconds (default 60), anchored matchers, nothing substituted, every codec event
    /// installed, no notes. The builder methods below state what differs.
    pub(crate) const fn new(provider: Provider, codec: &'static dyn Codec) -> Self {
        Self {
            provider,
            codec,
            scopes: &[Scope::User, Scope::Project],
            scope_hint: "",
            timeout: TimeoutRule::new(1000, 60),
            matcher: MatcherDialect::new(Syntax::Anchored),
            substituted_tokens: &[],
            not_installed: &[],
            notes: Notes::NONE,
        }
    }

    /// With these scopes (instead of user and project).
    pub(crate) const fn scopes(mut self, scopes: &'static [Scope]) -> Self {
        self.scopes = scopes;
        self
    }

    /// With where the agent reads hooks (for unsupported-scope errors).
    pub(crate) const fn scope_hint(mut self, hint: &'static str) -> Self {
        self.scope_hint = hint;
        self
    }

    /// With this timeout rule.
    pub(crate) const fn timeouts(mut self, rule: TimeoutRule) -> Self {
        self.timeout = rule;
        self
    }

    /// With this matcher dialect.
    pub(crate) const fn matcher(mut self, matcher: MatcherDialect) -> Self {
        self.matcher = matcher;
        self
    }

    /// With text the agent substitutes inside command strings.
    pub(crate) const fn substituted(mut self, tokens: &'static [&'static str]) -> Self {
        self.substituted_tokens = tokens;
        self
    }

    /// With codec events install does not write, and why.
    pub(crate) const fn not_installed(mut self, events: &'static [(&'static str, &'static str)]) -> Self {
        self.not_installed = events;
        self
    }

    /// With these per-hook notes, in order.
    pub(crate) const fn hook_notes(mut self, notes: &'static [HookNote]) -> Self {
        self.notes.hooks = notes;
        self
    }

    /// With an info note at project scope: how the agent gates project hooks on trust.
    pub(crate) const fn project_trust(mut self, note: &'static str) -> Self {
        self.notes.project_trust = Some(note);
        self
    }

    /// The findings [`TargetSpec::notes`] states for these hooks at this target: for each hook,
    /// the hook notes that apply to it, in order; then the project-trust note.
    pub(crate) fn noted(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        let mut out = Vec::new();
        for h in hooks {
            for n in self.notes.hooks.iter().filter(|n| (n.when)(manifest, h)) {
                let message = n.message.replace("{native}", &h.native);
                out.push(self.hook_finding(h, n.severity, n.code, message));
            }
        }
        if let Some(note) = self.notes.project_trust.filter(|_| target.scope == Scope::Project) {
            out.push(self.finding(Severity::Info, FindingCode::ProjectTrust, note));
        }
        out
    }

    /// [`noted`](Self::noted), then, when the manifest installs warm, the target's own
    /// `warm_notes` (the warm server's transport and start-up findings).
    pub(crate) fn noted_with_warm(
        &self,
        target: &Target,
        manifest: &Manifest,
        hooks: &[ResolvedHook],
        warm_notes: fn(&Target, &Manifest, &[ResolvedHook]) -> Vec<Finding>,
    ) -> Vec<Finding> {
        let mut out = self.noted(target, manifest, hooks);
        if manifest.warm {
            out.extend(warm_notes(target, manifest, hooks));
        }
        out
    }

    /// A finding of this target.
    pub(crate) fn finding(&self, severity: Severity, code: FindingCode, message: impl Into<String>) -> Finding {
        Finding::new(severity, code, &self.provider, message)
    }

    /// The warm-mode findings of a target that renders http hooks: the `start` command hook
    /// added to start the server (when the hooks have none), and the token written into a config
    /// file outside user scope.
    pub(crate) fn warm_start_findings(&self, target: &Target, hooks: &[ResolvedHook], start: &str) -> Vec<Finding> {
        let added = (!hooks.iter().any(|h| h.native == start))
            .then(|| format!("a {start} command hook with --warm is added: it starts the warm server"));
        let bearer = if target.scope == Scope::User {
            "the http hooks carry the warm server's bearer (not its token): a reader of this file can call the hooks, not answer for the server or stop it; a new file is created 0600, an existing one keeps its mode"
        } else {
            "the http hooks carry the warm server's bearer (not its token) in a local, git-ignored settings file created 0600"
        };
        let notes = [
            "the prompt hook is a command hook (the manifest's with --warm, else an added one with --warm-only): it restarts the warm server when it is gone, before the turn's http hooks; a session-end hook lets the server count open sessions",
            "on a multi-user host: hook clients check that the listener on the warm port is this binary's server (a challenge keyed by the token; on Linux the socket's owner and pid) and never send it the token, but while no server of ours holds the port (before the first session, after a crash or the grace exit) another local user can bind it: with a fail-closed policy the turns are blocked until the port is free, with a fail-open one that listener answers the turns' http hooks (it decides the tool gates) and gets the hooks' bearer; install command hooks (without --warm) where that matters",
            bearer,
        ];
        added
            .into_iter()
            .chain(notes.into_iter().map(str::to_owned))
            .map(|message| self.finding(Severity::Info, FindingCode::Warm, message))
            .collect()
    }

    /// A finding about one hook: its first spec and its native event.
    pub(crate) fn hook_finding(
        &self,
        h: &ResolvedHook,
        severity: Severity,
        code: FindingCode,
        message: impl Into<String>,
    ) -> Finding {
        self.finding(severity, code, message)
            .with_hook(h.specs[0])
            .with_native(&h.native)
    }

    /// Every native event install writes for this agent: the codec's rows minus
    /// [`TargetSpec::not_installed`].
    pub(crate) fn events(&self) -> impl Iterator<Item = EventRow> + '_ {
        self.codec
            .native_events()
            .iter()
            .filter(|r| self.why_not_installed(r.name).is_none())
            .copied()
    }

    /// The row of an installable native event.
    pub(crate) fn event(&self, native: &str) -> Option<EventRow> {
        self.events().find(|r| r.name == native)
    }

    /// Why install does not write a native event the codec knows.
    pub(crate) fn why_not_installed(&self, native: &str) -> Option<&'static str> {
        self.not_installed
            .iter()
            .find(|(n, _)| *n == native)
            .map(|(_, why)| *why)
    }

    /// The native events a kind is installed on: the primary rows of that kind, then the
    /// primary rows whose payload may decide it ([`EventRow::also`]: `tool.error` on a failed
    /// Codex `PostToolUse`).
    pub(crate) fn natives_for(&self, kind: EventKind) -> Vec<&'static str> {
        if kind == EventKind::Other {
            return Vec::new();
        }
        let own = self.events().filter(|r| r.kind == kind && r.primary);
        let also = self.events().filter(|r| r.also == Some(kind) && r.primary);
        own.chain(also).map(|r| r.name).collect()
    }

    /// The tool table the matcher compiler reads.
    pub(crate) fn tools(&self) -> &'static ToolTable {
        self.codec.tools().unwrap_or(&NO_TOOLS)
    }

    /// Whether a hook on `native` may be configured to run asynchronously (an event the codec
    /// does not know: yes, the agent's general rule).
    pub(crate) fn may_async(&self, native: &str) -> bool {
        self.event(native).is_none_or(|r| r.may_async)
    }

    /// The timeout for a native event: the agent's rule, bounded by the row's clamp.
    pub(crate) fn timeout(&self, native: &str, requested: Option<Duration>) -> TimeoutPlan {
        let clamp = self.event(native).and_then(|r| r.timeout_clamp);
        self.timeout.clamped(clamp).plan(requested)
    }
}

/// What a target reports about hooks by default ([`TargetModule::notes`]): the agent's
/// posture on async, fail-closed and particular events, stated as data.
#[derive(Clone, Copy)]
pub(crate) struct Notes {
    /// Checked on each hook, in order.
    hooks: &'static [HookNote],
    /// Said once at project scope (an info [`FindingCode::ProjectTrust`]).
    project_trust: Option<&'static str>,
}

impl Notes {
    /// Nothing to note.
    pub(crate) const NONE: Self = Self {
        hooks: &[],
        project_trust: None,
    };
}

/// A finding a target notes on every hook a condition holds for.
#[derive(Clone, Copy)]
pub(crate) struct HookNote {
    /// When it applies.
    when: fn(&Manifest, &ResolvedHook) -> bool,
    /// How bad it is.
    severity: Severity,
    /// What it is about.
    code: FindingCode,
    /// The sentence; `{native}` stands for the hook's native event.
    pub(crate) message: &'static str,
}

impl HookNote {
    /// A note of any kind.
    pub(crate) const fn new(
        severity: Severity,
        code: FindingCode,
        message: &'static str,
        when: fn(&Manifest, &ResolvedHook) -> bool,
    ) -> Self {
        Self {
            when,
            severity,
            code,
            message,
        }
    }

    /// Degraded: a non-blocking hook the agent runs synchronously.
    pub(crate) const fn runs_sync(message: &'static str, when: fn(&Manifest, &ResolvedHook) -> bool) -> Self {
        Self::new(Severity::Degraded, FindingCode::AsyncUnsupported, message, when)
    }

    /// Degraded: a hook asked to fail closed whose crash or timeout the agent lets through.
    pub(crate) const fn fails_open(message: &'static str, when: fn(&Manifest, &ResolvedHook) -> bool) -> Self {
        Self::new(Severity::Degraded, FindingCode::FailClosedUnsupported, message, when)
    }

    /// Info: a hook whose crash or timeout the agent itself blocks on.
    pub(crate) const fn fails_closed(message: &'static str, when: fn(&Manifest, &ResolvedHook) -> bool) -> Self {
        Self::new(Severity::Info, FindingCode::FailClosedNative, message, when)
    }

    /// Info about something else.
    pub(crate) const fn info(
        code: FindingCode,
        message: &'static str,
        when: fn(&Manifest, &ResolvedHook) -> bool,
    ) -> Self {
        Self::new(Severity::Info, code, message, when)
    }
}

/// Whether a hook is non-blocking (telemetry the agent need not wait for).
pub(crate) fn non_blocking(_: &Manifest, h: &ResolvedHook) -> bool {
    !h.blocking
}

/// A timeout as the agent's config states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TimeoutPlan {
    /// The number written in the config, in the agent's unit.
    pub(crate) value: u64,
    /// What it means (passed to the runner as `--timeout`).
    pub(crate) effective: Duration,
    /// Why it differs from what was asked, if it does.
    pub(crate) note: Option<String>,
}

/// A timeout rule: unit, default and bounds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TimeoutRule {
    /// Milliseconds per unit (1000 = seconds).
    pub(crate) unit_ms: u64,
    /// The agent's default, in units.
    pub(crate) default: u64,
    /// Minimum, in units.
    pub(crate) min: u64,
    /// Maximum, in units, if any.
    pub(crate) max: Option<u64>,
    /// The default, in units, of an event whose row clamps the timeout (Codex: 1 s), when it is
    /// not the general default bounded by the clamp.
    pub(crate) clamped_default: Option<u64>,
}

impl TimeoutRule {
    /// A rule of `unit_ms` per unit with this default, minimum 1 and no maximum.
    pub(crate) const fn new(unit_ms: u64, default: u64) -> Self {
        Self {
            unit_ms,
            default,
            min: 1,
            max: None,
            clamped_default: None,
        }
    }

    /// With a minimum, in units.
    pub(crate) const fn min(mut self, min: u64) -> Self {
        self.min = min;
        self
    }

    /// With a maximum, in units.
    pub(crate) const fn max(mut self, max: u64) -> Self {
        self.max = Some(max);
        self
    }

    /// With the default of clamped events, in units.
    pub(crate) const fn clamped_default(mut self, default: u64) -> Self {
        self.clamped_default = Some(default);
        self
    }

    /// The rule for an event the agent clamps to `clamp` (a no-op without one).
    fn clamped(self, clamp: Option<Duration>) -> Self {
        let Some(clamp) = clamp else {
            return self;
        };
        let ms = u64::try_from(clamp.as_millis()).unwrap_or(u64::MAX);
        let cap = (ms / self.unit_ms).max(self.min);
        let max = self.max.map_or(cap, |m| m.min(cap));
        Self {
            max: Some(max),
            default: self.clamped_default.unwrap_or(self.default).clamp(self.min, max),
            ..self
        }
    }

    /// Converts a requested timeout (rounding up to the unit) and applies the bounds.
    pub(crate) fn plan(&self, requested: Option<Duration>) -> TimeoutPlan {
        let unit = if self.unit_ms == 1 { "ms" } else { "s" };
        let mut note = None;
        let mut value = match requested {
            None => self.default,
            Some(d) => {
                let ms = u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
                let v = ms.div_ceil(self.unit_ms);
                if v.saturating_mul(self.unit_ms) != ms {
                    note = Some(format!("{ms} ms rounded up to {v}{unit}"));
                }
                v
            }
        };
        if value < self.min {
            note = Some(format!("raised to the minimum of {}{unit}", self.min));
            value = self.min;
        }
        if let Some(max) = self.max {
            if value > max {
                note = Some(format!("lowered to the maximum of {max}{unit}"));
                value = max;
            }
        }
        TimeoutPlan {
            value,
            effective: Duration::from_millis(value.saturating_mul(self.unit_ms)),
            note,
        }
    }
}

/// What one agent's install target does (its constants are its [`TargetSpec`]).
pub(crate) trait TargetModule: Sync {
    /// The target's constants.
    fn spec(&self) -> &'static TargetSpec;

    /// Target-specific findings for these hooks (async, fail-closed, trust, locations): by
    /// default what the spec's [`Notes`] state.
    fn notes(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        self.spec().noted(target, manifest, hooks)
    }

    /// Writes our hooks into the plan (replacing our previous ones).
    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError>;

    /// Removes our hooks from the plan.
    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError>;

    /// Doctor checks beyond "installed and up to date" (trust, disabled hooks).
    fn health(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<Vec<Finding>, InstallError> {
        let _ = (cx, hooks);
        Ok(Vec::new())
    }
}

/// Whether the manifest asks a blocking, gating hook to fail closed (its own or the manifest's
/// failure policy; what a target notes when its agent cannot, or does so natively).
pub(crate) fn wants_fail_closed(_manifest: &Manifest, h: &ResolvedHook) -> bool {
    h.fail_closed && h.blocking && h.kind.is_gating()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_convert() {
        let secs = TimeoutRule::new(1000, 600).max(600);
        assert_eq!(secs.plan(None).value, 600);
        let p = secs.plan(Some(Duration::from_millis(1500)));
        assert_eq!((p.value, p.effective), (2, Duration::from_secs(2)));
        assert!(p.note.unwrap().contains("rounded up"));
        assert_eq!(secs.plan(Some(Duration::from_secs(9000))).value, 600);
        let ms = TimeoutRule::new(1, 60_000);
        let p = ms.plan(Some(Duration::from_millis(1500)));
        assert_eq!((p.value, p.note), (1500, None));
    }

    #[test]
    fn clamps_bound_the_rule() {
        let codex = TimeoutRule::new(1000, 600).clamped_default(1);
        let c = codex.clamped(Some(Duration::from_secs(3)));
        assert_eq!((c.default, c.max), (1, Some(3)));
        assert_eq!(c.plan(Some(Duration::from_secs(10))).value, 3);
        assert_eq!(codex.clamped(None).default, 600);
        let kimi = TimeoutRule::new(1000, 30)
            .max(600)
            .clamped(Some(Duration::from_secs(900)));
        assert_eq!((kimi.default, kimi.max), (30, Some(600)));
        let gemini = TimeoutRule::new(1, 60_000).clamped(Some(Duration::from_secs(5)));
        assert_eq!((gemini.default, gemini.max), (5000, Some(5000)));
    }
}
