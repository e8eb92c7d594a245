//! One module per agent. Each states its tables (native events per kind, tool matcher
//! dialect, timeout unit and default) and how it writes, removes and checks its files. Adding
//! an agent is one module implementing [`TargetModule`] plus a line in [`all`].

use std::time::Duration;

use agenthooks_core::{EventKind, Provider};

use crate::error::InstallError;
use crate::finding::Finding;
use crate::matcher::Dialect;
use crate::plan::Cx;
use crate::resolve::ResolvedHook;
use crate::target::{Scope, Target};

pub(crate) mod claude;
pub(crate) mod codex;
pub(crate) mod copilot;
pub(crate) mod cursor;
pub(crate) mod gemini;
pub(crate) mod kimi;

/// One native event an agent fires.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EventRow {
    /// The native name.
    pub(crate) native: &'static str,
    /// Its unified kind.
    pub(crate) kind: EventKind,
    /// Whether its matcher selects tools.
    pub(crate) tool_matcher: bool,
}

pub(crate) const fn row(native: &'static str, kind: EventKind, tool_matcher: bool) -> EventRow {
    EventRow {
        native,
        kind,
        tool_matcher,
    }
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
}

impl TimeoutRule {
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

/// What one agent's install target knows and does.
pub(crate) trait TargetModule: Sync {
    /// The agent.
    fn provider(&self) -> Provider;

    /// The scopes it supports.
    fn scopes(&self) -> &'static [Scope];

    /// Where the agent reads hooks (for unsupported-scope errors).
    fn scope_hint(&self) -> &'static str;

    /// Every native event this release knows for the agent.
    fn events(&self) -> &'static [EventRow];

    /// The native events each unified kind is installed on.
    fn kinds(&self) -> &'static [(EventKind, &'static [&'static str])];

    /// The matcher dialect.
    fn dialect(&self) -> &'static Dialect;

    /// The timeout for a native event.
    fn timeout(&self, native: &str, requested: Option<Duration>) -> TimeoutPlan;

    /// Text the agent substitutes inside command strings before the shell sees them.
    fn substituted_tokens(&self) -> &'static [&'static str] {
        &[]
    }

    /// Target-specific findings for these hooks (async, fail-closed, trust, locations).
    fn notes(&self, target: &Target, manifest: &crate::Manifest, hooks: &[ResolvedHook]) -> Vec<Finding>;

    /// Writes our hooks into the plan (replacing our previous ones).
    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError>;

    /// Removes our hooks from the plan.
    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError>;

    /// Doctor checks beyond "installed and up to date" (trust, disabled hooks).
    fn health(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<Vec<Finding>, InstallError> {
        let _ = (cx, hooks);
        Ok(Vec::new())
    }

    /// The row of a native event.
    fn event(&self, native: &str) -> Option<&'static EventRow> {
        self.events().iter().find(|r| r.native == native)
    }
}

/// Every target module, in a stable order.
pub(crate) fn all() -> [&'static dyn TargetModule; 6] {
    [
        &claude::Claude,
        &cursor::Cursor,
        &codex::Codex,
        &gemini::Gemini,
        &copilot::Copilot,
        &kimi::Kimi,
    ]
}

/// The module for a provider.
pub(crate) fn module(provider: &Provider) -> Result<&'static dyn TargetModule, InstallError> {
    all()
        .into_iter()
        .find(|m| m.provider() == *provider)
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
    module(provider)
        .ok()
        .and_then(|m| m.kinds().iter().find(|(k, _)| *k == kind).map(|(_, n)| n.to_vec()))
        .unwrap_or_default()
}

/// The providers this release can install for.
pub fn supported_providers() -> Vec<Provider> {
    all().iter().map(|m| m.provider()).collect()
}

/// Checks the scope is supported.
pub(crate) fn check_scope(m: &dyn TargetModule, target: &Target) -> Result<(), InstallError> {
    if m.scopes().contains(&target.scope) {
        Ok(())
    } else {
        Err(InstallError::UnsupportedScope {
            provider: m.provider(),
            scope: target.scope,
            why: m.scope_hint(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_convert() {
        let secs = TimeoutRule {
            unit_ms: 1000,
            default: 600,
            min: 1,
            max: Some(600),
        };
        assert_eq!(secs.plan(None).value, 600);
        let p = secs.plan(Some(Duration::from_millis(1500)));
        assert_eq!((p.value, p.effective), (2, Duration::from_secs(2)));
        assert!(p.note.unwrap().contains("rounded up"));
        assert_eq!(secs.plan(Some(Duration::from_secs(9000))).value, 600);
        let ms = TimeoutRule {
            unit_ms: 1,
            default: 60_000,
            min: 1,
            max: None,
        };
        let p = ms.plan(Some(Duration::from_millis(1500)));
        assert_eq!((p.value, p.note), (1500, None));
    }

    #[test]
    fn every_kind_maps_to_known_rows() {
        for m in all() {
            for (kind, natives) in m.kinds() {
                for n in *natives {
                    let row = m
                        .event(n)
                        .unwrap_or_else(|| panic!("{} {n} missing from events()", m.provider()));
                    assert!(
                        row.kind == *kind || matches!(kind, EventKind::ToolError),
                        "{} {n}",
                        m.provider()
                    );
                }
            }
            // each native appears once
            let mut names: Vec<_> = m.events().iter().map(|r| r.native).collect();
            names.sort_unstable();
            let before = names.len();
            names.dedup();
            assert_eq!(before, names.len(), "{}", m.provider());
        }
    }
}
