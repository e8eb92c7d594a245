//! Claude Code: `settings.json` fragments (user `~/.claude/settings.json`, project
//! `.claude/settings.json`) and the plugin layout (`.claude-plugin/plugin.json` +
//! `hooks/hooks.json`, which must be at that path, not at the plugin root).
//!
//! - Timeouts in **seconds** (default 600).
//! - Non-blocking hooks get `async: true` where the codec row allows it (`may_async`): every
//!   event except `Stop`, which is forced synchronous (cowork drops async Stop hooks, quirk #1).
//! - Fail-closed blocking decision hooks get `onFailure: "block"` (the binary crashing, timing
//!   out or printing invalid JSON then blocks) where the version has it; Claude ignores it on
//!   `Stop`/`SubagentStop`, so it is not written there.
//! - Matchers: exact lists `A|B` when every name is `[A-Za-z0-9_]` (safe across the 2.1.x
//!   hyphen/comma gates), else an anchored regex.
//! - `${CLAUDE_PLUGIN_ROOT}`/`${CLAUDE_PLUGIN_DATA}` are substituted textually in plugin
//!   commands: a command containing them is refused.
//! - Warm mode ([`Manifest::warm`]): every hook becomes `{"type": "http", "url":
//!   "http://127.0.0.1:PORT/v1/hook/claude-code/EVENT?timeout=…&build=…&owner=…[&tools=…]",
//!   "headers": {"Authorization": "Bearer TOKEN"}, "timeout"}` (with `onFailure` as above),
//!   except on `SessionStart`/`Setup`, where Claude skips http hooks (quirk #111): those stay
//!   command hooks, and the `SessionStart` one (added when the manifest has none) carries
//!   `--warm` so it starts the server. `owner=` marks the URL as this command prefix's
//!   (uninstall, diff and doctor recognize it as they recognize the command).

use std::path::PathBuf;

use agenthooks_core::Provider;
use serde_json::{json, Value};

use super::shared::entries;
use super::spec::{wants_fail_closed, TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::manifest::{Manifest, WarmEndpoint};
use crate::matcher::{MatcherDialect, Syntax};
use crate::merge::json as jmerge;
use crate::targets::hooks_file::JsonHooksFile;
use crate::plan::Cx;
use crate::format::{FileFormat, with_newline};
use crate::hook::ResolvedHook;
use crate::shell::Owner;
use crate::target::Target;
use crate::scope::Scope;

/// The Claude Code target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Claude;

/// The first version we verified to have `onFailure` (reference: 2.1.332).
pub(crate) const ON_FAILURE_MIN: &str = "2.1.332";

/// The Claude Code target's constants. Events, kinds, tools and async facts are the Claude
/// codec's ([`agenthooks_claude::CODEC`]).
pub(crate) static SPEC: TargetSpec = TargetSpec::new(Provider::CLAUDE_CODE, &agenthooks_claude::CODEC)
    .timeouts(TimeoutRule::new(1000, 600))
    .scopes(&[Scope::User, Scope::Project, Scope::Plugin])
    .scope_hint("Claude Code reads user and project settings.json and plugin hooks/hooks.json")
    .matcher(MatcherDialect::new(Syntax::ClaudeList))
    .substituted(&["${CLAUDE_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_DATA}"]);

/// Events where Claude ignores `onFailure`.
const NO_ON_FAILURE: &[&str] = &["Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"];

fn settings_path(target: &Target) -> PathBuf {
    match target.scope {
        Scope::User => target.home.join(".claude").join("settings.json"),
        _ => target.root.join(".claude").join("settings.json"),
    }
}

/// The project's local settings (Claude Code git-ignores it): warm mode's http hooks, which
/// carry the server's bearer, go there at project scope, never into the committed file.
fn local_settings_path(target: &Target) -> PathBuf {
    target.root.join(".claude").join("settings.local.json")
}

fn plugin_hooks_path(target: &Target) -> PathBuf {
    target.root.join("hooks").join("hooks.json")
}

fn plugin_manifest_path(target: &Target) -> PathBuf {
    target.root.join(".claude-plugin").join("plugin.json")
}

/// Whether the hook runs asynchronously: non-blocking, on an event whose row allows it.
fn is_async(h: &ResolvedHook) -> bool {
    !h.blocking && SPEC.may_async(&h.native)
}

/// Whether the hook gets `onFailure: "block"`.
fn on_failure(target: &Target, h: &ResolvedHook) -> bool {
    h.fail_closed
        && !is_async(h)
        && h.kind.is_gating()
        && !NO_ON_FAILURE.contains(&h.native.as_str())
        && !target.version_below(ON_FAILURE_MIN)
}

/// Events whose http hooks Claude skips (quirk #111): warm mode keeps command hooks there.
const NO_HTTP: &[&str] = &["SessionStart", "Setup"];

/// The events warm mode adds hooks on.
const WARM_EVENTS: super::shared::WarmEvents = super::shared::WarmEvents {
    start: "SessionStart",
    prompt: "UserPromptSubmit",
    end: "SessionEnd",
};

/// Whether a warm hook stays a command hook carrying `--warm`: the session start (Claude skips
/// http hooks there) and the prompt (its process restarts a server gone mid-session before the
/// turn's http hooks, in the same process that answers the prompt).
fn warm_command(h: &ResolvedHook) -> bool {
    h.native == WARM_EVENTS.start || h.native == WARM_EVENTS.prompt
}

/// The handler of one hook: an http hook in warm mode where Claude has them, else a command
/// hook (the warm `SessionStart` and `UserPromptSubmit` ones carrying `--warm`, the prompt hook
/// warm mode adds `--warm-only`).
fn handler(h: &ResolvedHook, warm: Option<(&WarmEndpoint, &Owner)>) -> Value {
    match warm {
        Some((ep, owner)) if !NO_HTTP.contains(&h.native.as_str()) && !warm_command(h) && !super::shared::is_warm_keeper(h) => {
            json!({
                "type": "http",
                "url": super::shared::warm_url(&Provider::CLAUDE_CODE, ep, owner, h),
                "headers": {"Authorization": format!("Bearer {}", ep.token)},
                "timeout": h.timeout_value,
            })
        }
        _ => {
            let command = if warm.is_some() && warm_command(h) && !super::shared::is_warm_keeper(h) {
                format!("{} --warm", h.command)
            } else {
                h.command.clone()
            };
            let mut handler = json!({"type": "command", "command": command, "timeout": h.timeout_value});
            if is_async(h) {
                handler["async"] = Value::Bool(true);
            }
            handler
        }
    }
}

fn group(target: &Target, h: &ResolvedHook, warm: Option<(&WarmEndpoint, &Owner)>) -> Value {
    let mut handler = handler(h, warm);
    if on_failure(target, h) {
        handler["onFailure"] = Value::from("block");
    }
    let mut g = serde_json::Map::new();
    if let Some(m) = &h.matcher {
        g.insert("matcher".into(), Value::from(m.clone()));
    }
    g.insert("hooks".into(), Value::Array(vec![handler]));
    Value::Object(g)
}

fn plugin_manifest(manifest: &Manifest) -> [(&'static str, Value); 3] {
    [
        ("name", Value::from(manifest.identity.name.clone())),
        ("version", Value::from(manifest.identity.version.clone())),
        ("description", Value::from(manifest.identity.description_or_default())),
    ]
}

/// Whether `text` is a plugin manifest we wrote: exactly our three keys, our plugin's name and our
/// description shape (any version, so a newer binary re-installs and uninstalls an older one's).
fn is_our_plugin_manifest(text: &str, manifest: &Manifest) -> bool {
    let Ok(node) = crate::jsonc::parse(text, false) else {
        return false;
    };
    let Value::Object(found) = node.to_value(text) else {
        return false;
    };
    let expected = plugin_manifest(manifest);
    found.len() == expected.len()
        && expected.iter().all(|(k, _)| found.contains_key(*k))
        && found.get("name") == Some(&expected[0].1)
        && found.get("version").is_some_and(Value::is_string)
        && found
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| d == expected[2].1.as_str().unwrap_or_default() || d.ends_with("(agenthooks)"))
}

impl Claude {
    /// The file the hooks go to: at project scope in warm mode the local settings file.
    fn hooks_file(target: &Target, warm: bool) -> (PathBuf, FileFormat) {
        match target.scope {
            Scope::Plugin => (plugin_hooks_path(target), FileFormat::Json),
            Scope::Project if warm => (local_settings_path(target), FileFormat::Json),
            _ => (settings_path(target), FileFormat::Json),
        }
    }

    /// The other project file that may hold our hooks from an earlier install (warm or not).
    fn other_file(target: &Target, warm: bool) -> Option<PathBuf> {
        (target.scope == Scope::Project).then(|| {
            if warm {
                settings_path(target)
            } else {
                local_settings_path(target)
            }
        })
    }
}

/// What warm mode does with each hook, and where the token goes.
fn warm_notes(target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
    let Some(ep) = &manifest.warm_endpoint else {
        return vec![SPEC.finding(
            Severity::Degraded,
            FindingCode::Warm,
            "warm mode without a warm endpoint (no token or port): command hooks rendered",
        )];
    };
    let mut out = Vec::new();
    for h in hooks {
        let message = if NO_HTTP.contains(&h.native.as_str()) {
            format!(
                "{} stays a command hook: Claude skips http hooks there (quirk #111)",
                h.native
            )
        } else if warm_command(h) {
            format!(
                "{} stays a command hook with --warm: it restarts the warm server when it is gone, before the turn's http hooks",
                h.native
            )
        } else {
            format!(
                "{} is an http hook to the warm server on 127.0.0.1:{}",
                h.native, ep.port
            )
        };
        out.push(SPEC.hook_finding(h, Severity::Info, FindingCode::Warm, message));
    }
    out.extend(SPEC.warm_start_findings(target, hooks, "SessionStart"));
    out
}

impl TargetModule for Claude {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn notes(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        let mut out = Vec::new();
        for h in hooks {
            if !h.blocking && !is_async(h) {
                let why = if h.native == "Stop" {
                    "cowork drops async Stop hooks, quirk #1"
                } else {
                    "the codec does not allow async on it"
                };
                out.push(SPEC.hook_finding(
                    h,
                    Severity::Degraded,
                    FindingCode::AsyncForcedSync,
                    format!("non-blocking {} hook rendered synchronously ({why})", h.native),
                ));
            }
            if wants_fail_closed(manifest, h) {
                if on_failure(target, h) {
                    out.push(SPEC.hook_finding(
                        h,
                        Severity::Info,
                        FindingCode::FailClosedNative,
                        "onFailure: \"block\": a crash, timeout or invalid output of the hook binary blocks",
                    ));
                } else {
                    let why = if NO_ON_FAILURE.contains(&h.native.as_str()) {
                        format!("Claude ignores onFailure on {}", h.native)
                    } else {
                        format!("onFailure needs Claude Code ≥ {ON_FAILURE_MIN}")
                    };
                    out.push(SPEC.hook_finding(
                        h,
                        Severity::Degraded,
                        FindingCode::FailClosedUnsupported,
                        format!("{why}: a crash or timeout of the hook binary fails open (the runner still fails closed when it runs)"),
                    ));
                }
            }
        }
        if manifest.warm {
            out.extend(warm_notes(target, manifest, hooks));
        }
        match target.scope {
            Scope::Project => {
                out.push(SPEC.finding(
                    Severity::Info,
                    FindingCode::ProjectTrust,
                    "interactive sessions run project hooks after the workspace trust dialog is accepted",
                ));
                out.push(SPEC.finding(
                    Severity::Info,
                    FindingCode::Location,
                    "Cursor also runs hooks from .claude/settings.json (Claude-compat): installing the same hooks for Cursor makes them fire twice there",
                ));
            }
            Scope::User => out.push(SPEC.finding(Severity::Info, FindingCode::Location, "Cursor also runs hooks from ~/.claude/settings.json (Claude-compat): installing the same hooks for Cursor makes them fire twice there",
            )),
            Scope::Plugin => out.push(SPEC.finding(Severity::Info, FindingCode::Location, "plugin hooks load once the plugin is installed and enabled (`/plugin`)",
            )),
        }
        out
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        let warm_file = cx.manifest.warm_endpoint.is_some();
        let (path, format) = Self::hooks_file(cx.target, warm_file);
        if let Some(other) = Self::other_file(cx.target, warm_file) {
            // Switching between warm and command hooks at project scope moves ours.
            JsonHooksFile::grouped(other, FileFormat::Json).uninstall(cx)?;
        }
        if warm_file {
            cx.set_private(&path, format)?;
        }
        let hooks = if cx.manifest.warm_endpoint.is_some() {
            super::shared::with_warm_start(cx.manifest, hooks, &Provider::CLAUDE_CODE, WARM_EVENTS)?
        } else {
            hooks.to_vec()
        };
        let warm = cx.manifest.warm_endpoint.as_ref().map(|ep| (ep, &cx.owner));
        let entries = entries(&hooks, |h| group(cx.target, h, warm));
        JsonHooksFile::grouped(path.clone(), format).install(cx, &entries)?;
        if cx.target.scope == Scope::Plugin {
            // The plugin manifest is ours to write only when it is absent or one we wrote (any
            // version); a manifest the plugin's author wrote is left as it is.
            let path = plugin_manifest_path(cx.target);
            let keys = plugin_manifest(cx.manifest);
            let before = cx.text(&path, FileFormat::Json)?;
            if before
                .as_deref()
                .is_some_and(|text| !is_our_plugin_manifest(text, cx.manifest))
            {
                return Ok(());
            }
            let after = match &before {
                Some(text) => {
                    jmerge::set_keys(text, &keys, false).map_err(|e| InstallError::malformed(&path, "JSON", e))?
                }
                None => with_newline(
                    jmerge::set_keys("{}", &keys, false).map_err(|e| InstallError::malformed(&path, "JSON", e))?,
                ),
            };
            let ours = vec![Value::Object(
                keys.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect(),
            )];
            cx.set_text(&path, FileFormat::Json, Some(after))?;
            cx.set_ours(&path, FileFormat::Json, Vec::new(), ours)?;
        }
        Ok(())
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        let (path, format) = Self::hooks_file(cx.target, false);
        JsonHooksFile::grouped(path, format).uninstall(cx)?;
        if let Some(local) = Self::other_file(cx.target, false) {
            JsonHooksFile::grouped(local, FileFormat::Json).uninstall(cx)?;
        }
        if cx.target.scope == Scope::Plugin {
            // The plugin manifest goes only when it is one we wrote (this version or another).
            let path = plugin_manifest_path(cx.target);
            if let Some(text) = cx.text(&path, FileFormat::Json)? {
                if is_our_plugin_manifest(&text, cx.manifest) {
                    let before = crate::jsonc::parse(&text, false).map_or(Value::Null, |n| n.to_value(&text));
                    cx.set_text(&path, FileFormat::Json, None)?;
                    cx.set_ours(&path, FileFormat::Json, vec![before], Vec::new())?;
                }
            }
        }
        Ok(())
    }
}
