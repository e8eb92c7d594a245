//! GitHub Copilot CLI: one file of ours, `.github/hooks/<name>.json` (project) or
//! `~/.copilot/hooks/<name>.json` (user), `{"version": 1, "hooks": {"<event>": [entry]}}`.
//!
//! - camelCase event keys (the camelCase payload dialect); the native event is baked into argv
//!   (`--event=preToolUse`) since camelCase payloads carry no event name.
//! - Only `command` is written (Copilot copies it into `bash` and `powershell`), never `exec`.
//! - Timeouts in **seconds** as `timeoutSec` (default 30).
//! - **Never an empty matcher** (a validation error for the whole file): a match-all hook has
//!   no `matcher` key. Matchers are regexes Copilot anchors itself.
//! - No async, no fail-closed knob: Copilot fixes the posture per event (`preToolUse` denies
//!   when the hook errors, allows on timeout; everything else fails open).
//! - `{{project_dir}}`-style template variables are substituted: a command containing `{{` is
//!   refused.

use std::path::PathBuf;

use agenthooks_core::Provider;
use serde_json::{json, Value};

use super::{entries, jsonc_value, non_blocking, wants_fail_closed, HookNote, TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::manifest::Manifest;
use crate::matcher::{MatcherDialect, Syntax};
use crate::merge::json::JsonHooksFile;
use crate::plan::Cx;
use crate::resolve::ResolvedHook;
use crate::target::{Scope, Target};

/// The Copilot CLI target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Copilot;

/// The Copilot CLI target's constants. Events, kinds and tools are the Copilot codec's
/// ([`agenthooks_copilot::CODEC`]).
pub(crate) static SPEC: TargetSpec = TargetSpec::new(Provider::COPILOT, &agenthooks_copilot::CODEC)
    .timeouts(TimeoutRule::new(1000, 30))
    .scope_hint("Copilot CLI reads .github/hooks/*.json (project) and ~/.copilot/hooks/*.json (user)")
    .matcher(MatcherDialect::new(Syntax::ImplicitlyAnchored))
    .substituted(&["{{"])
    .hook_notes(&[
        HookNote::runs_sync(
            "Copilot has no async hooks: this non-blocking hook runs synchronously (keep it fast)",
            non_blocking,
        ),
        HookNote::fails_closed(
            "Copilot denies the tool when a preToolUse hook errors, whatever the policy; a timeout allows it",
            |_, h| h.native == "preToolUse",
        ),
        HookNote::fails_open(
            "Copilot has no fail-closed setting here: a crash or timeout of the hook binary fails open",
            |m, h| h.native != "preToolUse" && wants_fail_closed(m, h),
        ),
    ])
    .project_trust("Copilot loads repository hooks only in trusted folders (accept the trust prompt or pass --trust-folder; in -p mode the folder must already be trusted)");

pub(crate) fn hooks_path(target: &Target, manifest: &Manifest) -> PathBuf {
    let file = format!("{}.json", manifest.identity.name);
    match target.scope {
        Scope::User => target.home.join(".copilot").join("hooks").join(file),
        _ => target.root.join(".github").join("hooks").join(file),
    }
}

/// Our file: created as `{"version": 1, "hooks": …}`; deleted when only `version` is left.
fn hooks_file(cx: &Cx<'_>) -> JsonHooksFile {
    JsonHooksFile::flat_v1(hooks_path(cx.target, cx.manifest))
}

fn entry(h: &ResolvedHook) -> Value {
    let mut e = json!({"type": "command", "command": h.command});
    // Never write an empty matcher: it invalidates the file.
    if let Some(m) = h.matcher.as_deref().filter(|m| !m.is_empty()) {
        e["matcher"] = Value::from(m);
    }
    e["timeoutSec"] = Value::from(h.timeout_value);
    e
}

/// The gating events whose http hooks Copilot refuses on plain http to localhost unless
/// `COPILOT_HOOK_ALLOW_LOCALHOST=1` (reference copilot.md §5).
const HTTPS_ONLY: &[&str] = &["preToolUse", "preMcpToolCall", "permissionRequest"];

impl TargetModule for Copilot {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn notes(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        let mut out = SPEC.noted(target, manifest, hooks);
        if manifest.warm {
            // Warm mode keeps command hooks here: the localhost http hooks of the gating
            // events need an environment variable in the agent's environment, which install
            // cannot set; rendering them anyway would make every gate fail.
            let why = |h: &ResolvedHook| {
                let gate = HTTPS_ONLY.contains(&h.native.as_str());
                let needs_env = "Copilot CLI posts localhost http hooks on this event only with COPILOT_HOOK_ALLOW_LOCALHOST=1 in its environment";
                let opt_in = "Copilot CLI http hooks are an opt-in this release does not render yet";
                [opt_in, needs_env][usize::from(gate)]
            };
            out.extend(hooks.iter().map(|h| {
                let message = format!("{} stays a command hook in warm mode: {}", h.native, why(h));
                SPEC.hook_finding(h, Severity::Info, FindingCode::Warm, message)
            }));
        }
        out
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        hooks_file(cx).install(cx, &entries(hooks, entry))
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        hooks_file(cx).uninstall(cx)
    }

    fn health(&self, cx: &mut Cx<'_>, _hooks: &[ResolvedHook]) -> Result<Vec<Finding>, InstallError> {
        let mut out = Vec::new();
        if cx.target.scope == Scope::Project {
            let config = cx.target.home.join(".copilot").join("config.json");
            let root = cx.canonical(&cx.target.root);
            let listed = jsonc_value(cx, &config)?
                .and_then(|v| v.get("trusted_folders").and_then(Value::as_array).cloned())
                .is_some_and(|dirs| dirs.iter().filter_map(Value::as_str).any(|d| root.starts_with(d)));
            if !listed {
                out.push(SPEC.finding(
                    Severity::Degraded,
                    FindingCode::ProjectTrust,
                    format!(
                        "{} is not listed in trusted_folders of {}: Copilot loads repository hooks only in trusted folders (or with --trust-folder)",
                        root.display(),
                        config.display()
                    ),
                ));
            }
        }
        Ok(out)
    }
}
