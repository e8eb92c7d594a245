//! One module per agent. Each states a [`TargetSpec`] (the agent's codec, scopes, timeout unit
//! and bounds, matcher syntax, substituted tokens, and the [`Notes`] its posture earns: async,
//! fail-closed, project trust), built with [`TargetSpec::new`] and only what differs from its
//! defaults, and implements [`TargetModule`]: how it writes, removes and checks its files.
//! Adding an agent is one module, a row in the `targets!` list below and a feature of the same
//! name in `Cargo.toml` that links its codec.
//!
//! **Install keeps no copy of codec data.** The native events, their kinds, blocking, tool
//! matcher support, which event is wired for a kind (`primary`), whether a hook may run
//! async and the timeout clamps come from the codec's rows ([`Codec::native_events`]); the
//! tool classes and MCP naming the matcher compiler uses come from [`Codec::tools`]. A target
//! adds only what install itself decides: events it deliberately does not write
//! ([`TargetSpec::not_installed`]). The agreement test (`agreement.rs`) pins the rest against
//! the codec rows.

use std::time::Duration;

use agenthooks_core::kit::ToolTable;
use agenthooks_core::{Codec, EventKind, EventRow, Provider};

use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::manifest::Manifest;
use crate::matcher::{MatcherDialect, Syntax};
use crate::plan::Cx;
use crate::resolve::ResolvedHook;
use crate::target::{Scope, Target};

#[cfg(all(test, feature = "all-providers"))]
mod agreement;

/// The one list of install targets: each row is a module (compiled in behind the feature of the
/// same name, which links its codec crate) and its [`TargetModule`]. It generates the module
/// declarations and [`all`]. The facade forwards its provider features here, so a hook built
/// with `features = ["claude", "cursor"]` links those two codecs and installs for those two
/// agents only.
macro_rules! targets {
    ($( $feature:literal => $module:ident :: $target:ident, )*) => {
        $(
            #[cfg(feature = $feature)]
            pub(crate) mod $module;
        )*

        /// Every target module compiled into this build, in a stable order (the facade's
        /// `PROVIDERS` order).
        pub(crate) fn all() -> &'static [&'static dyn TargetModule] {
            &[$(
                #[cfg(feature = $feature)]
                &$module::$target,
            )*]
        }
    };
}

targets! {
    "claude" => claude::Claude,
    "cursor" => cursor::Cursor,
    "codex" => codex::Codex,
    "gemini" => gemini::Gemini,
    "copilot" => copilot::Copilot,
    "kimi" => kimi::Kimi,
    "opencode" => opencode::OpenCode,
    "openclaw" => openclaw::OpenClaw,
}

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

    /// A finding of this target.
    pub(crate) fn finding(&self, severity: Severity, code: FindingCode, message: impl Into<String>) -> Finding {
        Finding::new(severity, code, &self.provider, message)
    }

    /// The warm-mode findings of a target that renders http hooks: the `start` command hook
    /// added to start the server (when the hooks have none), and the token written into a config
    /// file outside user scope.
    pub(crate) fn warm_start_findings(&self, target: &Target, hooks: &[ResolvedHook], start: &str) -> Vec<Finding> {
        let mut out = Vec::new();
        if !hooks.iter().any(|h| h.native == start) {
            out.push(self.finding(
                Severity::Info,
                FindingCode::Warm,
                format!("a {start} command hook with --warm is added: it starts the warm server"),
            ));
        }
        out.push(self.finding(
            Severity::Info,
            FindingCode::Warm,
            "the prompt hook is a command hook (the manifest's with --warm, else an added one with --warm-only): it restarts the warm server when it is gone, before the turn's http hooks; a session-end hook lets the server count open sessions",
        ));
        out.push(self.finding(
            Severity::Info,
            FindingCode::Warm,
            "on a multi-user host: hook clients check that the listener on the warm port is this binary's server (a challenge keyed by the token; on Linux the socket's owner and pid) and never send it the token, but while no server of ours holds the port (before the first session, after a crash or the grace exit) another local user can bind it: with a fail-closed policy the turns are blocked until the port is free, with a fail-open one that listener answers the turns' http hooks (it decides the tool gates) and gets the hooks' bearer; install command hooks (without --warm) where that matters",
        ));
        out.push(self.finding(
            Severity::Info,
            FindingCode::Warm,
            if target.scope == Scope::User {
                "the http hooks carry the warm server's bearer (not its token): a reader of this file can call the hooks, not answer for the server or stop it; a new file is created 0600, an existing one keeps its mode"
            } else {
                "the http hooks carry the warm server's bearer (not its token) in a local, git-ignored settings file created 0600"
            },
        ));
        out
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
/// The warm server URL of one hook of `provider`: the route carries what `--provider` and
/// `--event` carry, the query the timeout, the build the config is rendered for, the owner
/// marker (uninstall, diff and doctor recognize the URL as this command prefix's) and the tool
/// filter.
pub(crate) fn warm_url(
    provider: &Provider,
    ep: &crate::manifest::WarmEndpoint,
    owner: &crate::shell::Owner,
    h: &ResolvedHook,
) -> String {
    use agenthooks_runtime::http::encode_component as enc;
    let mut url = format!(
        "http://127.0.0.1:{}/v1/hook/{}/{}?timeout={}&build={}&{}",
        ep.port,
        provider,
        enc(&h.native),
        crate::shell::format_secs(h.timeout),
        enc(&ep.build),
        owner.warm_param()
    );
    if let Some(t) = &h.tools {
        url.push_str("&tools=");
        url.push_str(&enc(&t.to_string()));
    }
    url
}

/// The flag of the prompt command hook warm mode adds: it only (re)starts the server.
pub(crate) const WARM_ONLY: &str = " --warm-only";

/// The agent's native events warm mode adds hooks on: the session start (a command hook with
/// `--warm`: it starts the server), each prompt (a command hook with `--warm-only`: it restarts
/// a server gone mid-session and renews the session) and the session end (an http hook: the
/// server counts the session closed).
#[derive(Debug, Clone, Copy)]
pub(crate) struct WarmEvents {
    pub(crate) start: &'static str,
    pub(crate) prompt: &'static str,
    pub(crate) end: &'static str,
}

/// Whether `h` is the prompt hook warm mode added (rendered as a command hook).
pub(crate) fn is_warm_keeper(h: &ResolvedHook) -> bool {
    h.specs.is_empty() && h.command.ends_with(WARM_ONLY)
}

/// In warm mode, the hooks plus: a synchronous session-start command hook when the manifest
/// has none (with `--warm` it starts the server before the session's first http hook); a
/// prompt command hook with `--warm-only` when the manifest has no prompt hook (its own prompt
/// hook stays a command hook with `--warm`): either restarts the server when the turn's http
/// hooks would find it gone (a crash, a kill, an exit the session outlived; its cost per turn
/// is in the README); and a session-end hook when the manifest has none (the server counts
/// open sessions).
pub(crate) fn with_warm_start(
    manifest: &Manifest,
    hooks: &[ResolvedHook],
    provider: &Provider,
    ev: WarmEvents,
) -> Result<Vec<ResolvedHook>, InstallError> {
    let mut out = hooks.to_vec();
    let added = |native: &str, kind: EventKind, secs: u64, suffix: &str| -> Result<ResolvedHook, InstallError> {
        let timeout = Duration::from_secs(secs);
        let command = crate::shell::hook_command(&manifest.command, provider, native, timeout)? + suffix;
        Ok(ResolvedHook {
            specs: Vec::new(),
            native: native.into(),
            kind,
            matcher: None,
            blocking: true,
            timeout_value: secs,
            timeout,
            command,
            tools: None,
            fail_closed: false,
        })
    };
    if !hooks.iter().any(|h| h.native == ev.start) {
        out.push(added(ev.start, EventKind::SessionStart, 10, "")?);
    }
    if !hooks.iter().any(|h| h.native == ev.prompt) {
        // The manifest's own prompt hook stays a command hook with `--warm` (the target
        // renders it so); without one, a hook that only keeps the server up.
        out.push(added(ev.prompt, EventKind::PromptSubmitted, 5, WARM_ONLY)?);
    }
    if !hooks.iter().any(|h| h.native == ev.end) {
        let mut end = added(ev.end, EventKind::SessionEnd, 5, "")?;
        end.blocking = false;
        out.push(end);
    }
    Ok(out)
}

pub(crate) fn wants_fail_closed(_manifest: &Manifest, h: &ResolvedHook) -> bool {
    h.fail_closed && h.blocking && h.kind.is_gating()
}

/// The `(native event, rendered value)` pairs a JSON hooks file is written from.
pub(crate) fn entries(
    hooks: &[ResolvedHook],
    render: impl Fn(&ResolvedHook) -> serde_json::Value,
) -> Vec<(String, serde_json::Value)> {
    hooks.iter().map(|h| (h.native.clone(), render(h))).collect()
}

/// A JSON-with-comments file's value: `None` when it is absent or does not parse.
pub(crate) fn jsonc_value(cx: &mut Cx<'_>, path: &std::path::Path) -> Result<Option<serde_json::Value>, InstallError> {
    let text = cx.text(path, crate::plan::FileFormat::Jsonc)?;
    Ok(text.and_then(|t| crate::jsonc::parse(&t, true).ok().map(|n| n.to_value(&t))))
}

/// The module for a provider.
pub(crate) fn module(provider: &Provider) -> Result<&'static dyn TargetModule, InstallError> {
    all()
        .iter()
        .copied()
        .find(|m| m.spec().provider == *provider)
        .ok_or_else(|| InstallError::UnknownProvider(provider.clone()))
}

/// The native events this release installs for a kind on a provider (empty when none).
///
/// ```
/// use agenthooks_core::{EventKind, Provider};
/// use agenthooks_install::native_events_for;
/// assert_eq!(native_events_for(&Provider::GEMINI, EventKind::ToolPre), ["BeforeTool"]);
/// assert_eq!(native_events_for(&Provider::COPILOT, EventKind::Stop), ["agentStop"]);
/// assert!(native_events_for(&Provider::KIMI, EventKind::ModelRequest).is_empty());
/// ```
pub fn native_events_for(provider: &Provider, kind: EventKind) -> Vec<&'static str> {
    module(provider).map(|m| m.spec().natives_for(kind)).unwrap_or_default()
}

/// The providers this release can install for.
pub fn supported_providers() -> Vec<Provider> {
    all().iter().map(|m| m.spec().provider.clone()).collect()
}

/// Checks the scope is supported and the target's options are this agent's.
pub(crate) fn check_scope(m: &dyn TargetModule, target: &Target) -> Result<(), InstallError> {
    let spec = m.spec();
    if !spec.scopes.contains(&target.scope) {
        return Err(InstallError::UnsupportedScope {
            provider: spec.provider.clone(),
            scope: target.scope,
            why: spec.scope_hint,
        });
    }
    match target.options.provider() {
        Some(p) if p != spec.provider => Err(InstallError::OptionsMismatch {
            provider: spec.provider.clone(),
            options: p,
        }),
        _ => Ok(()),
    }
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

    #[test]
    fn every_kind_maps_to_installable_rows() {
        for m in all() {
            let spec = m.spec();
            for kind in EventKind::ALL {
                for n in spec.natives_for(kind) {
                    let row = spec
                        .event(n)
                        .unwrap_or_else(|| panic!("{} {n} is wired but not installable", spec.provider));
                    assert!(row.serves(kind), "{} {n}", spec.provider);
                }
            }
            // each native appears once
            let mut names: Vec<_> = spec.events().map(|r| r.name).collect();
            names.sort_unstable();
            let before = names.len();
            names.dedup();
            assert_eq!(before, names.len(), "{}", spec.provider);
        }
    }
}
