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
//! - Warm mode ([`Manifest::warm`]) renders http hooks only with
//!   [`Manifest::copilot_allow_localhost`] (the user runs Copilot with
//!   `COPILOT_HOOK_ALLOW_LOCALHOST=1`; without it Copilot blocks every http hook to loopback,
//!   quirk 413): `{"type": "http", "url":
//!   "http://127.0.0.1:PORT/v1/hook/copilot/EVENT?timeout=…&build=…&owner=…[&tools=…]",
//!   "headers": {"Authorization": "Bearer TOKEN"}, "timeoutSec"}` on every event but
//!   `sessionStart`, which stays a command hook with `--warm` (added when the manifest has
//!   none) and starts the server. Without the opt-in every hook stays a command hook and
//!   preflight says why.

use std::path::PathBuf;

use agenthooks_core::Provider;
use serde_json::{json, Value};

use super::shared::{entries, jsonc_value};
use super::spec::{non_blocking, wants_fail_closed, HookNote, TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::manifest::{Manifest, WarmEndpoint};
use crate::matcher::{MatcherDialect, Syntax};
use crate::targets::hooks_file::JsonHooksFile;
use crate::plan::Cx;
use crate::hook::ResolvedHook;
use crate::shell::Owner;
use crate::target::Target;
use crate::scope::Scope;

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

/// The session-start event: in warm mode a command hook with `--warm` (it starts the server).
const START: &str = "sessionStart";

/// The events warm mode adds hooks on.
const WARM_EVENTS: super::shared::WarmEvents = super::shared::WarmEvents {
    start: START,
    prompt: "userPromptSubmitted",
    end: "sessionEnd",
};

/// The warm endpoint when this manifest renders Copilot http hooks (warm, an endpoint, the
/// user's `COPILOT_HOOK_ALLOW_LOCALHOST=1` opt-in, and user scope: Copilot has no git-ignored
/// project file, and the bearer never goes into `.github/hooks/`).
fn warm_http<'m>(manifest: &'m Manifest, target: &Target) -> Option<&'m WarmEndpoint> {
    manifest
        .warm_endpoint
        .as_ref()
        .filter(|_| manifest.warm && manifest.copilot_allow_localhost && target.scope == Scope::User)
}

fn entry(h: &ResolvedHook, warm: Option<(&WarmEndpoint, &Owner)>) -> Value {
    let mut e = match warm {
        Some((ep, owner)) if h.native != START && h.native != WARM_EVENTS.prompt && !super::shared::is_warm_keeper(h) => {
            json!({
                "type": "http",
                "url": super::shared::warm_url(&Provider::COPILOT, ep, owner, h),
                "headers": {"Authorization": format!("Bearer {}", ep.token)},
            })
        }
        Some(_) if super::shared::is_warm_keeper(h) => json!({"type": "command", "command": h.command}),
        Some(_) => json!({"type": "command", "command": format!("{} --warm", h.command)}),
        None => json!({"type": "command", "command": h.command}),
    };
    // Never write an empty matcher: it invalidates the file.
    if let Some(m) = h.matcher.as_deref().filter(|m| !m.is_empty()) {
        e["matcher"] = Value::from(m);
    }
    e["timeoutSec"] = Value::from(h.timeout_value);
    e
}

/// The gating events whose http hooks Copilot skips at load on plain http to loopback unless
/// `COPILOT_HOOK_ALLOW_LOCALHOST=1`, and fails closed (denies) on a non-2xx answer or a
/// refused connection (quirks 413, 414).
const HTTPS_ONLY: &[&str] = &["preToolUse", "preMcpToolCall", "permissionRequest"];

/// What warm mode does with each Copilot hook.
fn warm_notes(target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(ep) = warm_http(manifest, target) else {
        // Without the opt-in every hook stays a command hook: Copilot blocks http hooks to
        // loopback without the variable, which install cannot set in the agent's environment.
        let why = if manifest.copilot_allow_localhost && target.scope != Scope::User {
            "Copilot CLI has no git-ignored project hooks file, and warm http hooks carry the server's bearer: install at user scope for http hooks".to_owned()
        } else if manifest.copilot_allow_localhost {
            "warm mode without a warm endpoint (no token or port)".to_owned()
        } else {
            "Copilot CLI blocks http hooks to loopback unless COPILOT_HOOK_ALLOW_LOCALHOST=1 is in its environment (quirk 413); set it and install with --copilot-allow-localhost (manifest `copilot_allow_localhost = true`) for http hooks".to_owned()
        };
        out.extend(hooks.iter().map(|h| {
            let message = format!("{} stays a command hook in warm mode: {why}", h.native);
            SPEC.hook_finding(h, Severity::Info, FindingCode::Warm, message)
        }));
        return out;
    };
    for h in hooks {
        if h.native == START || h.native == WARM_EVENTS.prompt {
            out.push(SPEC.hook_finding(
                h,
                Severity::Info,
                FindingCode::Warm,
                format!(
                    "{} stays a command hook with --warm: it (re)starts the warm server",
                    h.native
                ),
            ));
            continue;
        }
        out.push(SPEC.hook_finding(
            h,
            Severity::Info,
            FindingCode::Warm,
            format!(
                "{} is an http hook to the warm server on 127.0.0.1:{} (Copilot must run with COPILOT_HOOK_ALLOW_LOCALHOST=1, else it blocks it)",
                h.native, ep.port
            ),
        ));
        if HTTPS_ONLY.contains(&h.native.as_str()) && !h.fail_closed {
            out.push(SPEC.hook_finding(
                h,
                Severity::Degraded,
                FindingCode::Warm,
                format!(
                    "Copilot denies the tool when the {} http hook gets a non-2xx answer or a refused connection (quirk 414): with this fail-open policy a warm server that is down still blocks",
                    h.native
                ),
            ));
        }
    }
    out.extend(SPEC.warm_start_findings(target, hooks, START));
    out
}

impl TargetModule for Copilot {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn notes(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        SPEC.noted_with_warm(target, manifest, hooks, warm_notes)
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        if warm_http(cx.manifest, cx.target).is_some() {
            cx.set_private(&hooks_path(cx.target, cx.manifest), crate::format::FileFormat::Json)?;
        }
        let warm = warm_http(cx.manifest, cx.target).map(|ep| (ep, &cx.owner));
        let hooks = if warm.is_some() {
            super::shared::with_warm_start(cx.manifest, hooks, &Provider::COPILOT, WARM_EVENTS)?
        } else {
            hooks.to_vec()
        };
        hooks_file(cx).install(cx, &entries(&hooks, |h| entry(h, warm)))
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
