//! Factory Droid: the `hooks` key of `settings.json` (user `~/.factory/settings.json`, project
//! `.factory/settings.json`; JSON with comments, which are kept), Claude's grouped structure.
//!
//! - Droid 0.215.0 (and 0.99.0) read hooks from both `hooks.json` and the `hooks` key of
//!   `settings.json` in each `.factory` folder. Install writes `settings.json`, the file Droid's
//!   docs name and the one whose structure every release reads the same way; within one folder a
//!   `hooks.json` list for the same event replaces ours (quirk 1005), which `doctor` reports.
//! - Only `type: "command"` handlers (a handler of another type makes Droid ignore the whole
//!   hooks object), timeouts in **seconds** (default 60).
//! - Matchers: Droid tests an unanchored regex, so they are anchored here; MCP tools are
//!   `<server>___<tool>`.
//! - No async flag and no fail-closed setting: hooks are fail-open.

use std::path::PathBuf;

use agenthooks_core::Provider;
use serde_json::{json, Value};

use super::shared::{entries, jsonc_value};
use super::spec::{non_blocking, wants_fail_closed, HookNote, TargetModule, TargetSpec};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::format::FileFormat;
use crate::hook::ResolvedHook;
use crate::plan::Cx;
use crate::scope::Scope;
use crate::target::Target;
use crate::targets::hooks_file::JsonHooksFile;

/// The Factory Droid target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Droid;

/// The Factory Droid target's constants. Events, kinds and tools are the Droid codec's
/// ([`agenthooks_droid::CODEC`]).
pub(crate) static SPEC: TargetSpec = TargetSpec::new(Provider::DROID, &agenthooks_droid::CODEC)
    .scope_hint("Factory Droid reads hooks from ~/.factory and <project>/.factory (settings.json `hooks`, or hooks.json)")
    .hook_notes(&[
        HookNote::runs_sync(
            "Droid has no async hooks: this non-blocking hook is awaited (keep it fast)",
            non_blocking,
        ),
        HookNote::fails_open(
            "Droid hooks are fail-open: a crash or timeout of the hook binary lets the action proceed (the runner answers deny itself when it runs)",
            wants_fail_closed,
        ),
    ]);

fn factory_dir(target: &Target) -> PathBuf {
    match target.scope {
        Scope::User => target.home.join(".factory"),
        _ => target.root.join(".factory"),
    }
}

pub(crate) fn settings_path(target: &Target) -> PathBuf {
    factory_dir(target).join("settings.json")
}

/// Our hooks in `settings.json` (JSON with comments, which are kept).
fn settings_file(target: &Target) -> JsonHooksFile {
    JsonHooksFile::grouped(settings_path(target), FileFormat::Jsonc)
}

fn group(h: &ResolvedHook) -> Value {
    let handler = json!({
        "type": "command",
        "command": h.command,
        "timeout": h.timeout_value,
    });
    let mut g = serde_json::Map::new();
    if let Some(m) = &h.matcher {
        g.insert("matcher".into(), Value::from(m.clone()));
    }
    g.insert("hooks".into(), Value::Array(vec![handler]));
    Value::Object(g)
}

impl TargetModule for Droid {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        settings_file(cx.target).install(cx, &entries(hooks, group))
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        settings_file(cx.target).uninstall(cx)
    }

    /// `hooksDisabled` in the `hooks` object, and a `hooks.json` beside our `settings.json` that
    /// lists one of our events (its list replaces ours, quirk 1005).
    fn health(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<Vec<Finding>, InstallError> {
        let mut out = Vec::new();
        let settings = settings_path(cx.target);
        if let Some(v) = jsonc_value(cx, &settings)? {
            if v.pointer("/hooks/hooksDisabled") == Some(&Value::Bool(true)) {
                out.push(SPEC.finding(
                    Severity::Error,
                    FindingCode::HooksDisabled,
                    format!("{}: hooks.hooksDisabled is true", settings.display()),
                ));
            }
        }
        let hooks_json = factory_dir(cx.target).join("hooks.json");
        if let Some(v) = jsonc_value(cx, &hooks_json)? {
            for h in hooks {
                if v.get(&h.native).is_some() {
                    out.push(SPEC.finding(
                        Severity::Degraded,
                        FindingCode::Location,
                        format!(
                            "{}: its `{}` list replaces the hooks settings.json lists for that event",
                            hooks_json.display(),
                            h.native
                        ),
                    ));
                }
            }
        }
        Ok(out)
    }
}
