//! One module per agent. Each states a [`TargetSpec`](spec::TargetSpec) (the agent's codec,
//! scopes, timeout unit and bounds, matcher syntax, substituted tokens, and the
//! [`Notes`](spec::Notes) its posture earns: async, fail-closed, project trust), built with
//! [`TargetSpec::new`](spec::TargetSpec::new) and only what differs from its defaults, and
//! implements [`TargetModule`]: how it writes, removes and checks its files (`spec.rs`; what
//! several targets write alike is `shared.rs` and `hooks_file.rs`, below this registry).
//! Adding an agent is one module, a row in the `targets!` list below and a feature of the same
//! name in `Cargo.toml` that links its codec.
//!
//! **Install keeps no copy of codec data.** The native events, their kinds, blocking, tool
//! matcher support, which event is wired for a kind (`primary`), whether a hook may run
//! async and the timeout clamps come from the codec's rows ([`Codec::native_events`]); the
//! tool classes and MCP naming the matcher compiler uses come from [`Codec::tools`]. A target
//! adds only what install itself decides: events it deliberately does not write
//! ([`TargetSpec::not_installed`](spec::TargetSpec::not_installed)). The agreement test (`agreement.rs`) pins the rest against
//! the codec rows.

use std::path::Path;

use agenthooks_core::{EventKind, Provider};

use crate::error::InstallError;
use crate::scope::Scope;
use crate::target::Target;

#[cfg(all(test, feature = "all-providers"))]
mod agreement;
pub(crate) mod hooks_file;
pub(crate) mod shared;
pub(crate) mod spec;

use spec::TargetModule;

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
    "qwen" => qwen::Qwen,
    "droid" => droid::Droid,
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

/// Every target this release knows for a project root and a home directory: each provider at
/// user scope, and at project scope where the provider has one (for `doctor`).
pub fn known_targets(root: impl AsRef<Path>, home: impl AsRef<Path>) -> Vec<Target> {
    let (root, home) = (root.as_ref(), home.as_ref());
    let mut out = Vec::new();
    for m in all() {
        let spec = m.spec();
        for scope in spec.scopes {
            match scope {
                Scope::User => out.push(Target::user(spec.provider.clone(), home)),
                Scope::Project => out.push(Target::project(spec.provider.clone(), root, home)),
                Scope::Plugin => {}
            }
        }
    }
    out
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
