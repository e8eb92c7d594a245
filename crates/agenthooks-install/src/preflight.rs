//! The preflight report: for a manifest and a set of targets, what each agent will drop or
//! degrade, before anything is installed.

use std::time::Duration;

use agenthooks_core::{CapSet, Capability, EventKind, Provider};
use serde::{Serialize, Serializer};

use crate::finding::{Finding, FindingCode, Severity};
use crate::manifest::{HookOn, Manifest};
use crate::resolve::resolve;
use crate::scope::Scope;
use crate::target::Target;
use crate::targets;

/// What each agent will drop or degrade.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Preflight {
    /// One report per target, in the order given.
    pub targets: Vec<TargetPreflight>,
}

impl Preflight {
    /// Every finding of every target.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.targets.iter().flat_map(|t| t.findings.iter())
    }

    /// Whether any target drops something of the manifest or failed to resolve.
    pub fn drops_anything(&self) -> bool {
        self.targets.iter().any(|t| t.error.is_some()) || self.findings().any(|f| f.severity >= Severity::Dropped)
    }
}

/// One target's preflight.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TargetPreflight {
    /// The agent.
    pub provider: Provider,
    /// The scope.
    pub scope: Scope,
    /// Per manifest hook that applies to this agent.
    pub hooks: Vec<HookPreflight>,
    /// Everything that will be dropped, degraded or is worth knowing.
    pub findings: Vec<Finding>,
    /// Why the target cannot be rendered at all (unsupported scope, inexpressible matcher, …).
    pub error: Option<String>,
}

/// How one manifest hook lands on one agent.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct HookPreflight {
    /// Index of the hook in the manifest.
    pub hook: usize,
    /// The manifest's event (`tool.pre`, or `provider:Native`).
    pub on: String,
    /// The native events it is installed on (empty: dropped).
    pub native_events: Vec<String>,
    /// The rendered matcher (`None`: every tool, or no matcher).
    pub matcher: Option<String>,
    /// Whether the agent waits for it.
    pub blocking: bool,
    /// The effective timeout.
    #[serde(serialize_with = "ser_duration")]
    pub timeout: Option<Duration>,
    /// What the agent honours on those events (from the codecs).
    #[serde(serialize_with = "ser_caps")]
    pub capabilities: CapSet,
    /// What the hook uses (declared, or what its kind can do).
    #[serde(serialize_with = "ser_caps")]
    pub uses: CapSet,
    /// Used but not honoured: decisions needing these are degraded (core `degrade`).
    #[serde(serialize_with = "ser_caps")]
    pub missing: CapSet,
}

#[allow(clippy::ref_option)]
fn ser_duration<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_f64(d.as_secs_f64()),
        None => s.serialize_none(),
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn ser_caps<S: Serializer>(c: &CapSet, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(c.iter().map(Capability::as_str))
}

fn minus(a: CapSet, b: CapSet) -> CapSet {
    a.iter().filter(|c| !b.contains(*c)).collect()
}

/// The preflight report for a manifest on some targets. `capabilities(provider, native)` is
/// what the provider's codec honours on a native event (the facade passes the real codecs'
/// [`Codec::capabilities`](agenthooks_core::Codec::capabilities) for the default variant).
///
/// ```
/// use agenthooks_core::{CapSet, Capability, EventKind, Provider};
/// use agenthooks_install::{preflight, HookSpec, Manifest, Target};
/// let m = Manifest::new(["/bin/guard"], "guard").with_hook(HookSpec::kind(EventKind::ToolPre));
/// let caps = |p: &Provider, _native: &str| {
///     if *p == Provider::CODEX { CapSet::of(&[Capability::Deny, Capability::UpdateInput]) } else { CapSet::ALL }
/// };
/// let r = preflight(&m, &[Target::project(Provider::CODEX, "/p", "/h")], &caps);
/// let h = &r.targets[0].hooks[0];
/// assert!(h.missing.contains(Capability::Ask));
/// assert!(!h.missing.contains(Capability::Deny));
/// ```
pub fn preflight(
    manifest: &Manifest,
    targets: &[Target],
    capabilities: &dyn Fn(&Provider, &str) -> CapSet,
) -> Preflight {
    let out = targets
        .iter()
        .map(|t| {
            let mut tp = TargetPreflight {
                provider: t.provider.clone(),
                scope: t.scope,
                hooks: Vec::new(),
                findings: Vec::new(),
                error: None,
            };
            let resolved = manifest
                .validate()
                .and_then(|()| targets::module(&t.provider))
                .and_then(|m| targets::check_scope(m, t).map(|()| m))
                .and_then(|m| resolve(manifest, t, m).map(|r| (m, r)));
            let (m, (hooks, findings)) = match resolved {
                Ok(x) => x,
                Err(e) => {
                    tp.error = Some(e.to_string());
                    return tp;
                }
            };
            tp.findings = findings;
            for (i, spec) in manifest.hooks.iter().enumerate() {
                if let HookOn::Native { provider, .. } = &spec.on {
                    if *provider != t.provider {
                        continue;
                    }
                }
                let mine: Vec<_> = hooks.iter().filter(|h| h.specs.contains(&i)).collect();
                let kind = match &spec.on {
                    HookOn::Kind(k) => *k,
                    HookOn::Native { event, .. } => m.spec().event(event).map_or(EventKind::Other, |r| r.kind),
                };
                let caps = mine
                    .iter()
                    .fold(CapSet::EMPTY, |acc, h| acc.union(capabilities(&t.provider, &h.native)));
                // The agent's own permission dialog delivers an ask (core `degrade`).
                let delivered = if caps.contains(Capability::PermissionDialog) {
                    caps.with(Capability::Ask)
                } else {
                    caps
                };
                let uses = spec.effective_uses(kind);
                let missing = if spec.blocking && !mine.is_empty() {
                    minus(uses, delivered)
                } else {
                    CapSet::EMPTY
                };
                if !missing.is_empty() {
                    let names: Vec<&str> = missing.iter().map(Capability::as_str).collect();
                    let natives: Vec<&str> = mine.iter().map(|h| h.native.as_str()).collect();
                    tp.findings.push(
                        Finding::new(
                            Severity::Degraded,
                            FindingCode::CapabilityMissing,
                            &t.provider,
                            format!(
                                "{} does not honour {} on {}: decisions needing {} are degraded per policy",
                                t.provider,
                                names.join(", "),
                                natives.join(", "),
                                if names.len() == 1 { "it" } else { "them" }
                            ),
                        )
                        .with_hook(i),
                    );
                }
                tp.hooks.push(HookPreflight {
                    hook: i,
                    on: spec.on.to_string(),
                    native_events: mine.iter().map(|h| h.native.clone()).collect(),
                    matcher: mine.first().and_then(|h| h.matcher.clone()),
                    blocking: spec.blocking,
                    timeout: mine.first().map(|h| h.timeout),
                    capabilities: caps,
                    uses,
                    missing,
                });
            }
            tp
        })
        .collect();
    Preflight { targets: out }
}
