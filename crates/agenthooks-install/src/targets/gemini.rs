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

use super::{TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::manifest::{FailurePolicy, Manifest};
use crate::matcher::{MatcherDialect, Syntax};
use crate::merge::json::{JsonHooksFile, Shape};
use crate::plan::{Cx, FileFormat};
use crate::resolve::ResolvedHook;
use crate::target::{Scope, Target};

/// The Gemini CLI target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Gemini;

/// The Gemini CLI target's constants. Events, kinds and tools are the Gemini codec's
/// ([`agenthooks_gemini::CODEC`]).
pub(crate) static SPEC: TargetSpec = TargetSpec {
    provider: Provider::GEMINI,
    codec: &agenthooks_gemini::CODEC,
    scopes: &[Scope::User, Scope::Project],
    scope_hint: "Gemini CLI reads hooks from user and project settings.json (extensions are not generated)",
    timeout: TimeoutRule::new(1, 60_000),
    matcher: MatcherDialect::new(Syntax::Anchored),
    substituted_tokens: &["$GEMINI_", "${GEMINI_", "$CLAUDE_PROJECT_DIR", "${CLAUDE_PROJECT_DIR}"],
    not_installed: &[],
};

/// Events Gemini does not wait for anyway.
const NOT_AWAITED: &[&str] = &["SessionEnd", "PreCompress"];

pub(crate) fn settings_path(target: &Target) -> PathBuf {
    match target.scope {
        Scope::User => target.home.join(".gemini").join("settings.json"),
        _ => target.root.join(".gemini").join("settings.json"),
    }
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

fn file(path: &Path) -> JsonHooksFile<'_> {
    JsonHooksFile {
        path,
        format: FileFormat::Jsonc,
        shape: Shape::Grouped,
        create_keys: &[],
    }
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

    fn notes(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        let p = SPEC.provider.clone();
        let mut out = Vec::new();
        for h in hooks {
            let first = h.specs[0];
            if !h.blocking && !NOT_AWAITED.contains(&h.native.as_str()) {
                out.push(
                    Finding::new(
                        Severity::Degraded,
                        FindingCode::AsyncUnsupported,
                        &p,
                        "Gemini has no async hooks: this non-blocking hook runs synchronously (keep it fast)",
                    )
                    .with_hook(first)
                    .with_native(&h.native),
                );
            }
            if manifest.failure == FailurePolicy::Closed && h.blocking && h.kind.is_gating() {
                out.push(
                    Finding::new(
                        Severity::Degraded,
                        FindingCode::FailClosedUnsupported,
                        &p,
                        "Gemini has no fail-closed setting: a crash or timeout of the hook binary fails open (the runner answers deny itself when it runs)",
                    )
                    .with_hook(first)
                    .with_native(&h.native),
                );
            }
            if h.native == "AfterModel" {
                out.push(
                    Finding::new(
                        Severity::Info,
                        FindingCode::Location,
                        &p,
                        "AfterModel fires once per streamed chunk: a process per chunk",
                    )
                    .with_hook(first)
                    .with_native(&h.native),
                );
            }
        }
        if target.scope == Scope::Project {
            out.push(Finding::new(
                Severity::Info,
                FindingCode::ProjectTrust,
                &p,
                "Gemini skips project hooks in untrusted folders (trust the folder: ~/.gemini/trustedFolders.json, --skip-trust or GEMINI_CLI_TRUST_WORKSPACE=true); new project hooks show a one-time warning",
            ));
        }
        out
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        let path = settings_path(cx.target);
        let entries: Vec<(String, Value)> = hooks
            .iter()
            .map(|h| (h.native.clone(), group(cx.manifest, h)))
            .collect();
        file(&path).install(cx, &entries)
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        let path = settings_path(cx.target);
        file(&path).uninstall(cx)
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
            let Some(text) = cx.text(&path, FileFormat::Jsonc)? else {
                continue;
            };
            let Ok(root) = crate::jsonc::parse(&text, true) else {
                continue;
            };
            let v = root.to_value(&text);
            if v.pointer("/hooksConfig/enabled") == Some(&Value::Bool(false)) {
                out.push(Finding::new(
                    Severity::Error,
                    FindingCode::HooksDisabled,
                    &p,
                    format!("{}: hooksConfig.enabled is false", path.display()),
                ));
            }
            if let Some(disabled) = v.pointer("/hooksConfig/disabled").and_then(Value::as_array) {
                for n in &names {
                    if disabled.iter().any(|d| d.as_str() == Some(n)) {
                        out.push(Finding::new(
                            Severity::Error,
                            FindingCode::HooksDisabled,
                            &p,
                            format!("{}: hooksConfig.disabled lists {n}", path.display()),
                        ));
                    }
                }
            }
        }
        if cx.target.scope == Scope::Project {
            let trust_file = cx.target.home.join(".gemini").join("trustedFolders.json");
            let root = cx.canonical(&cx.target.root);
            let trusted = cx
                .text(&trust_file, FileFormat::Jsonc)?
                .and_then(|t| crate::jsonc::parse(&t, true).ok().map(|n| n.to_value(&t)))
                .and_then(|rules| folder_trusted(&rules, &root));
            match trusted {
                Some(true) => {}
                Some(false) => out.push(Finding::new(
                    Severity::Error,
                    FindingCode::ProjectTrust,
                    &p,
                    format!("{} is marked DO_NOT_TRUST: Gemini will skip its project hooks", root.display()),
                )),
                None => out.push(Finding::new(
                    Severity::Degraded,
                    FindingCode::ProjectTrust,
                    &p,
                    format!(
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
