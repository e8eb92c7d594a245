//! Gemini CLI: `hooks` in `settings.json` (user `~/.gemini/settings.json`, project
//! `.gemini/settings.json`; JSON with comments, which are kept).
//!
//! - Timeouts in **milliseconds** (default 60000, quirk #14).
//! - Each hook has a `name` (`<identity>-<Event>`, used by `/hooks enable|disable` and
//!   `hooksConfig.disabled`) and a `description`.
//! - Matchers: anchored JS regex on the tool name (Gemini falls back to an exact compare when
//!   the regex is invalid); MCP tools are `mcp_<server>_<tool>`.
//! - No async flag: non-blocking hooks run synchronously (reported).
//! - Gemini substitutes `$GEMINI_*`/`$CLAUDE_PROJECT_DIR` textually in commands: a command
//!   containing them is refused.
//! - Project hooks run only in trusted folders (reported; `doctor` checks
//!   `~/.gemini/trustedFolders.json`).

use std::path::{Path, PathBuf};

use agenthooks_core::Provider;
use serde_json::{json, Value};

use super::shared::{entries, jsonc_value};
use super::spec::{wants_fail_closed, HookNote, TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::manifest::Manifest;
use crate::targets::hooks_file::JsonHooksFile;
use crate::plan::Cx;
use crate::format::FileFormat;
use crate::hook::ResolvedHook;
use crate::target::Target;
use crate::scope::Scope;

/// The Gemini CLI target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Gemini;

/// The Gemini CLI target's constants. Events, kinds and tools are the Gemini codec's
/// ([`agenthooks_gemini::CODEC`]).
pub(crate) static SPEC: TargetSpec = TargetSpec::new(Provider::GEMINI, &agenthooks_gemini::CODEC)
    .timeouts(TimeoutRule::new(1, 60_000))
    .scope_hint("Gemini CLI reads hooks from user and project settings.json (extensions are not generated)")
    .substituted(&["$GEMINI_", "${GEMINI_", "$CLAUDE_PROJECT_DIR", "${CLAUDE_PROJECT_DIR}"])
    .hook_notes(&[
        HookNote::runs_sync(
            "Gemini has no async hooks: this non-blocking hook runs synchronously (keep it fast)",
            |_, h| !h.blocking && !NOT_AWAITED.contains(&h.native.as_str()),
        ),
        HookNote::fails_open(
            "Gemini has no fail-closed setting: a crash or timeout of the hook binary fails open (the runner answers deny itself when it runs)",
            wants_fail_closed,
        ),
        HookNote::info(
            FindingCode::Location,
            "AfterModel fires once per streamed chunk: a process per chunk",
            |_, h| h.native == "AfterModel",
        ),
    ])
    .project_trust("Gemini skips project hooks in untrusted folders (trust the folder: ~/.gemini/trustedFolders.json, --skip-trust or GEMINI_CLI_TRUST_WORKSPACE=true); new project hooks show a one-time warning");

/// Events Gemini does not wait for anyway.
const NOT_AWAITED: &[&str] = &["SessionEnd", "PreCompress"];

pub(crate) fn settings_path(target: &Target) -> PathBuf {
    match target.scope {
        Scope::User => target.home.join(".gemini").join("settings.json"),
        _ => target.root.join(".gemini").join("settings.json"),
    }
}

/// Our hooks in `settings.json` (JSON with comments, which are kept).
fn settings_file(target: &Target) -> JsonHooksFile {
    JsonHooksFile::grouped(settings_path(target), FileFormat::Jsonc)
}

/// The `name` of one of our hooks.
pub(crate) fn hook_name(manifest: &Manifest, native: &str) -> String {
    format!("{}-{native}", manifest.identity.name)
}

fn group(manifest: &Manifest, h: &ResolvedHook) -> Value {
    let handler = json!({
        "type": "command",
        "name": hook_name(manifest, &h.native),
        "command": h.command,
        "timeout": h.timeout_value,
        "description": manifest.identity.description_or_default(),
    });
    let mut g = serde_json::Map::new();
    if let Some(m) = &h.matcher {
        g.insert("matcher".into(), Value::from(m.clone()));
    }
    g.insert("hooks".into(), Value::Array(vec![handler]));
    Value::Object(g)
}

/// Whether `dir` is trusted per a `trustedFolders.json` value.
pub(crate) fn folder_trusted(rules: &Value, dir: &Path) -> Option<bool> {
    let map = rules.as_object()?;
    let mut best: Option<(usize, bool)> = None;
    for (path, level) in map {
        let p = Path::new(path);
        let (scope, trusted) = match level.as_str()? {
            "TRUST_FOLDER" => (p.to_path_buf(), true),
            "TRUST_PARENT" => (p.parent().unwrap_or(p).to_path_buf(), true),
            "DO_NOT_TRUST" => (p.to_path_buf(), false),
            _ => continue,
        };
        if dir.starts_with(&scope) {
            let depth = scope.components().count();
            if best.is_none_or(|(d, _)| depth >= d) {
                best = Some((depth, trusted));
            }
        }
    }
    best.map(|(_, t)| t)
}

impl TargetModule for Gemini {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        settings_file(cx.target).install(cx, &entries(hooks, |h| group(cx.manifest, h)))
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        settings_file(cx.target).uninstall(cx)
    }

    fn health(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<Vec<Finding>, InstallError> {
        let p = SPEC.provider.clone();
        let mut out = Vec::new();
        // hooksConfig in user and project settings.
        let mut settings = vec![settings_path(&Target::user(p.clone(), cx.target.home.clone()))];
        if cx.target.scope == Scope::Project {
            settings.push(settings_path(cx.target));
        }
        let names: Vec<String> = hooks.iter().map(|h| hook_name(cx.manifest, &h.native)).collect();
        for path in settings {
            let Some(v) = jsonc_value(cx, &path)? else {
                continue;
            };
            if v.pointer("/hooksConfig/enabled") == Some(&Value::Bool(false)) {
                out.push(SPEC.finding(
                    Severity::Error,
                    FindingCode::HooksDisabled,
                    format!("{}: hooksConfig.enabled is false", path.display()),
                ));
            }
            if let Some(disabled) = v.pointer("/hooksConfig/disabled").and_then(Value::as_array) {
                for n in &names {
                    if disabled.iter().any(|d| d.as_str() == Some(n)) {
                        out.push(SPEC.finding(
                            Severity::Error,
                            FindingCode::HooksDisabled,
                            format!("{}: hooksConfig.disabled lists {n}", path.display()),
                        ));
                    }
                }
            }
        }
        if cx.target.scope == Scope::Project {
            let trust_file = cx.target.home.join(".gemini").join("trustedFolders.json");
            let root = cx.canonical(&cx.target.root);
            let trusted = jsonc_value(cx, &trust_file)?.and_then(|rules| folder_trusted(&rules, &root));
            match trusted {
                Some(true) => {}
                Some(false) => out.push(SPEC.finding(Severity::Error, FindingCode::ProjectTrust, format!("{} is marked DO_NOT_TRUST: Gemini will skip its project hooks", root.display()),
                )),
                None => out.push(SPEC.finding(Severity::Degraded, FindingCode::ProjectTrust, format!(
                        "{} is not in {}: Gemini skips project hooks unless the folder is trusted (or --skip-trust / GEMINI_CLI_TRUST_WORKSPACE=true)",
                        root.display(),
                        trust_file.display()
                    ),
                )),
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_rules() {
        let rules =
            json!({"/work": "TRUST_FOLDER", "/work/secret": "DO_NOT_TRUST", "/home/me/proj/sub": "TRUST_PARENT"});
        assert_eq!(folder_trusted(&rules, Path::new("/work/a")), Some(true));
        assert_eq!(folder_trusted(&rules, Path::new("/work/secret/x")), Some(false));
        assert_eq!(folder_trusted(&rules, Path::new("/home/me/proj")), Some(true));
        assert_eq!(folder_trusted(&rules, Path::new("/elsewhere")), None);
    }
}
