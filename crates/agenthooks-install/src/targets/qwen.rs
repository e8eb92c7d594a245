//! Qwen Code: `hooks` in `settings.json` (user `~/.qwen/settings.json`, project
//! `.qwen/settings.json`; JSON with comments, which are kept), Claude's structure
//! (`{"<Event>": [{"matcher", "hooks": [{"type": "command", …}]}]}`).
//!
//! - Timeouts in **milliseconds**, at least 1000 (default 60000): 0.2x reads small values as
//!   seconds but any value of 1000 or more as milliseconds, so ≥ 1000 ms means the same on every
//!   release (quirk 901).
//! - Non-blocking hooks get `async: true` where the codec row allows it (`may_async`; Qwen runs
//!   async command hooks in the background).
//! - No fail-closed knob: Qwen fails open when a hook crashes or times out (reported).
//! - Matchers: exact lists `A|B` (Qwen's `matchesHookPattern` compares list entries exactly),
//!   else an anchored regex; MCP tools are `mcp__<server>__<tool>`.
//! - `$QWEN_PROJECT_DIR`, `$CLAUDE_PROJECT_DIR` and `$GEMINI_PROJECT_DIR` are substituted
//!   textually for non-bash shells: a command containing them is refused.
//! - Project hooks are skipped in untrusted folders when `security.folderTrust.enabled` is set
//!   (reported; `doctor` checks `disableAllHooks`).
//! - Warm mode ([`Manifest::warm`]), user scope only (the project file is committed and the
//!   http hooks carry the server's bearer): every hook becomes `{"type": "http", "url":
//!   "http://127.0.0.1:PORT/v1/hook/qwen-code/EVENT?timeout=…&build=…&owner=…[&tools=…]",
//!   "headers": {"Authorization": "Bearer TOKEN"}, "timeout"}` (seconds: http hooks read
//!   seconds), except `SessionStart` and `UserPromptSubmit`, which stay command hooks with
//!   `--warm` and (re)start the server. Qwen's SSRF guard lets loopback through and an empty
//!   `allowedHttpHookUrls` allows every URL (quirk 911).

use std::path::PathBuf;

use agenthooks_core::Provider;
use serde_json::{json, Value};

use super::shared::{entries, jsonc_value};
use super::spec::{wants_fail_closed, HookNote, TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::format::FileFormat;
use crate::hook::ResolvedHook;
use crate::manifest::{Manifest, WarmEndpoint};
use crate::matcher::{MatcherDialect, Syntax};
use crate::plan::Cx;
use crate::scope::Scope;
use crate::shell::Owner;
use crate::target::Target;
use crate::targets::hooks_file::JsonHooksFile;

/// The Qwen Code target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Qwen;

/// The Qwen Code target's constants. Events, kinds, tools and async facts are the Qwen codec's
/// ([`agenthooks_qwen::CODEC`]).
pub(crate) static SPEC: TargetSpec = TargetSpec::new(Provider::QWEN, &agenthooks_qwen::CODEC)
    .timeouts(TimeoutRule::new(1, 60_000).min(1_000))
    .scope_hint("Qwen Code reads hooks from user and project settings.json")
    .matcher(MatcherDialect::new(Syntax::ClaudeList))
    .substituted(&[
        "$QWEN_PROJECT_DIR",
        "$CLAUDE_PROJECT_DIR",
        "$GEMINI_PROJECT_DIR",
    ])
    .hook_notes(&[
        HookNote::runs_sync(
            "the codec does not allow async on this event: this non-blocking hook runs synchronously",
            |_, h| !h.blocking && !SPEC.may_async(&h.native),
        ),
        HookNote::fails_open(
            "Qwen Code has no fail-closed setting: a crash or timeout of the hook binary fails open (the runner answers deny itself when it runs)",
            wants_fail_closed,
        ),
    ])
    .project_trust("Qwen Code skips project hooks in untrusted folders when security.folderTrust.enabled is true (off by default)");

fn settings_path(target: &Target) -> PathBuf {
    match target.scope {
        Scope::User => target.home.join(".qwen").join("settings.json"),
        _ => target.root.join(".qwen").join("settings.json"),
    }
}

/// Our hooks in `settings.json` (JSON with comments, which are kept).
fn settings_file(target: &Target) -> JsonHooksFile {
    JsonHooksFile::grouped(settings_path(target), FileFormat::Jsonc)
}

/// The events warm mode adds hooks on.
const WARM_EVENTS: super::shared::WarmEvents = super::shared::WarmEvents {
    start: "SessionStart",
    prompt: "UserPromptSubmit",
    end: "SessionEnd",
};

/// The warm endpoint when this target renders http hooks: warm, an endpoint, and user scope.
fn warm_http<'m>(manifest: &'m Manifest, target: &Target) -> Option<&'m WarmEndpoint> {
    manifest
        .warm_endpoint
        .as_ref()
        .filter(|_| manifest.warm && target.scope == Scope::User)
}

/// Whether a warm hook stays a command hook carrying `--warm`: the session start (it starts
/// the server) and the prompt (it restarts a server gone mid-session before the turn's http
/// hooks).
fn warm_command(h: &ResolvedHook) -> bool {
    h.native == WARM_EVENTS.start || h.native == WARM_EVENTS.prompt
}

/// The handler of one hook.
fn handler(h: &ResolvedHook, warm: Option<(&WarmEndpoint, &Owner)>) -> Value {
    match warm {
        Some((ep, owner)) if !warm_command(h) && !super::shared::is_warm_keeper(h) => json!({
            "type": "http",
            "url": super::shared::warm_url(&Provider::QWEN, ep, owner, h),
            "headers": {"Authorization": format!("Bearer {}", ep.token)},
            // http hooks read seconds.
            "timeout": h.timeout.as_secs().max(1),
        }),
        _ => {
            let command = if warm.is_some() && warm_command(h) && !super::shared::is_warm_keeper(h) {
                format!("{} --warm", h.command)
            } else {
                h.command.clone()
            };
            // The hooks warm mode adds state seconds: written as milliseconds like the rest.
            let timeout = agenthooks_qwen::timeout_config_value(h.timeout);
            let mut handler = json!({"type": "command", "command": command, "timeout": timeout});
            if !h.blocking && SPEC.may_async(&h.native) {
                handler["async"] = Value::Bool(true);
            }
            handler
        }
    }
}

fn group(h: &ResolvedHook, warm: Option<(&WarmEndpoint, &Owner)>) -> Value {
    let mut g = serde_json::Map::new();
    if let Some(m) = &h.matcher {
        g.insert("matcher".into(), Value::from(m.clone()));
    }
    g.insert("hooks".into(), Value::Array(vec![handler(h, warm)]));
    Value::Object(g)
}

/// What warm mode does with each hook.
fn warm_notes(target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
    let Some(ep) = warm_http(manifest, target) else {
        let why = if target.scope == Scope::User {
            "warm mode without a warm endpoint (no token or port)"
        } else {
            "Qwen Code has no git-ignored project settings file, and warm http hooks carry the server's bearer: install at user scope for http hooks"
        };
        return hooks
            .iter()
            .map(|h| {
                let message = format!("{} stays a command hook in warm mode: {why}", h.native);
                SPEC.hook_finding(h, Severity::Info, FindingCode::Warm, message)
            })
            .collect();
    };
    let mut out: Vec<Finding> = hooks
        .iter()
        .map(|h| {
            let message = if warm_command(h) {
                format!(
                    "{} stays a command hook with --warm: it (re)starts the warm server before the turn's http hooks",
                    h.native
                )
            } else {
                format!("{} is an http hook to the warm server on 127.0.0.1:{}", h.native, ep.port)
            };
            SPEC.hook_finding(h, Severity::Info, FindingCode::Warm, message)
        })
        .collect();
    out.extend(SPEC.warm_start_findings(target, hooks, WARM_EVENTS.start));
    out
}

impl TargetModule for Qwen {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn notes(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        SPEC.noted_with_warm(target, manifest, hooks, warm_notes)
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        let hooks = if warm_http(cx.manifest, cx.target).is_some() {
            cx.set_private(&settings_path(cx.target), FileFormat::Jsonc)?;
            super::shared::with_warm_start(cx.manifest, hooks, &Provider::QWEN, WARM_EVENTS)?
        } else {
            hooks.to_vec()
        };
        let warm = warm_http(cx.manifest, cx.target).map(|ep| (ep, &cx.owner));
        settings_file(cx.target).install(cx, &entries(&hooks, |h| group(h, warm)))
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        settings_file(cx.target).uninstall(cx)
    }

    fn health(&self, cx: &mut Cx<'_>, _hooks: &[ResolvedHook]) -> Result<Vec<Finding>, InstallError> {
        let mut settings = vec![settings_path(&Target::user(SPEC.provider.clone(), cx.target.home.clone()))];
        if cx.target.scope == Scope::Project {
            settings.push(settings_path(cx.target));
        }
        let mut out = Vec::new();
        for path in settings {
            let Some(v) = jsonc_value(cx, &path)? else {
                continue;
            };
            if v.get("disableAllHooks") == Some(&Value::Bool(true)) {
                out.push(SPEC.finding(
                    Severity::Error,
                    FindingCode::HooksDisabled,
                    format!("{}: disableAllHooks is true: Qwen Code runs no hooks", path.display()),
                ));
            }
        }
        Ok(out)
    }
}
