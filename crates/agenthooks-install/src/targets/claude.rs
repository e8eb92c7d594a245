//! Claude Code: `settings.json` fragments (user `~/.claude/settings.json`, project
//! `.claude/settings.json`) and the plugin layout (`.claude-plugin/plugin.json` +
//! `hooks/hooks.json`, which must be at that path, not at the plugin root).
//!
//! - Timeouts in **seconds** (default 600).
//! - Non-blocking hooks get `async: true`, except `Stop`, which is forced synchronous (cowork
//!   drops async Stop hooks, quirk #1).
//! - Fail-closed blocking decision hooks get `onFailure: "block"` (the binary crashing, timing
//!   out or printing invalid JSON then blocks) where the version has it; Claude ignores it on
//!   `Stop`/`SubagentStop`, so it is not written there.
//! - Matchers: exact lists `A|B` when every name is `[A-Za-z0-9_]` (safe across the 2.1.x
//!   hyphen/comma gates), else an anchored regex.
//! - `${CLAUDE_PLUGIN_ROOT}`/`${CLAUDE_PLUGIN_DATA}` are substituted textually in plugin
//!   commands: a command containing them is refused.

use std::path::PathBuf;
use std::time::Duration;

use agenthooks_core::{CanonicalTool, EventKind, Provider};
use serde_json::{json, Value};

use super::{row, EventRow, TargetModule, TimeoutPlan, TimeoutRule};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::manifest::{FailurePolicy, Manifest};
use crate::matcher::{Dialect, Syntax};
use crate::merge::json::{self as jmerge, JsonHooksFile, Shape};
use crate::plan::{with_newline, Cx, FileFormat};
use crate::resolve::ResolvedHook;
use crate::target::{Scope, Target};

/// The Claude Code target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Claude;

/// The first version we verified to have `onFailure` (reference: 2.1.332).
pub(crate) const ON_FAILURE_MIN: &str = "2.1.332";

const EVENTS: &[EventRow] = &[
    row("PreToolUse", EventKind::ToolPre, true),
    row("PermissionRequest", EventKind::Permission, true),
    row("PermissionDenied", EventKind::Other, true),
    row("PostToolUse", EventKind::ToolPost, true),
    row("PostToolUseFailure", EventKind::ToolError, true),
    row("PostToolBatch", EventKind::Other, false),
    row("UserPromptSubmit", EventKind::PromptSubmitted, false),
    row("UserPromptExpansion", EventKind::Other, false),
    row("PreSkillShellCommand", EventKind::Other, false),
    row("Stop", EventKind::Stop, false),
    row("SubagentStop", EventKind::SubagentStop, false),
    row("StopFailure", EventKind::Other, false),
    row("SessionStart", EventKind::SessionStart, false),
    row("SessionEnd", EventKind::SessionEnd, false),
    row("Setup", EventKind::Other, false),
    row("SubagentStart", EventKind::SubagentStart, false),
    row("PreCompact", EventKind::CompactPre, false),
    row("PostCompact", EventKind::CompactPost, false),
    row("PreModelSwitch", EventKind::Other, false),
    row("PostModelSwitch", EventKind::Other, false),
    row("Notification", EventKind::Notification, false),
    row("Elicitation", EventKind::Other, false),
    row("ElicitationResult", EventKind::Other, false),
    row("TeammateIdle", EventKind::Other, false),
    row("TaskCreated", EventKind::Other, false),
    row("TaskCompleted", EventKind::Other, false),
    row("ConfigChange", EventKind::Other, false),
    row("InstructionsLoaded", EventKind::Other, false),
    row("WorktreeCreate", EventKind::Other, false),
    row("WorktreeRemove", EventKind::Other, false),
    row("CwdChanged", EventKind::Other, false),
    row("FileChanged", EventKind::FileEdited, false),
    row("DirectoryAdded", EventKind::Other, false),
    row("MessageDisplay", EventKind::ModelResponse, false),
];

const KINDS: &[(EventKind, &[&str])] = &[
    (EventKind::SessionStart, &["SessionStart"]),
    (EventKind::SessionEnd, &["SessionEnd"]),
    (EventKind::PromptSubmitted, &["UserPromptSubmit"]),
    (EventKind::ToolPre, &["PreToolUse"]),
    (EventKind::ToolPost, &["PostToolUse"]),
    (EventKind::ToolError, &["PostToolUseFailure"]),
    (EventKind::Permission, &["PermissionRequest"]),
    (EventKind::Stop, &["Stop"]),
    (EventKind::SubagentStart, &["SubagentStart"]),
    (EventKind::SubagentStop, &["SubagentStop"]),
    (EventKind::CompactPre, &["PreCompact"]),
    (EventKind::CompactPost, &["PostCompact"]),
    (EventKind::Notification, &["Notification"]),
    (EventKind::FileEdited, &["FileChanged"]),
    (EventKind::ModelResponse, &["MessageDisplay"]),
];

static DIALECT: Dialect = Dialect {
    classes: &[
        (CanonicalTool::Shell, &["Bash", "PowerShell"]),
        (CanonicalTool::FileRead, &["Read", "NotebookRead"]),
        (CanonicalTool::FileWrite, &["Write"]),
        (CanonicalTool::FileEdit, &["Edit", "MultiEdit", "NotebookEdit"]),
        (CanonicalTool::Search, &["Glob", "Grep", "LS"]),
        (CanonicalTool::Fetch, &["WebFetch", "WebSearch"]),
        (CanonicalTool::Task, &["Task", "Agent"]),
    ],
    mcp_naming: Some(("mcp__", "__")),
    mcp_builtins: &["ListMcpResourcesTool", "ReadMcpResourceTool"],
    syntax: Syntax::ClaudeList,
};

const TIMEOUT: TimeoutRule = TimeoutRule {
    unit_ms: 1000,
    default: 600,
    min: 1,
    max: None,
};

/// Events where Claude ignores `onFailure`.
const NO_ON_FAILURE: &[&str] = &["Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"];

fn settings_path(target: &Target) -> PathBuf {
    match target.scope {
        Scope::User => target.home.join(".claude").join("settings.json"),
        _ => target.root.join(".claude").join("settings.json"),
    }
}

fn plugin_hooks_path(target: &Target) -> PathBuf {
    target.root.join("hooks").join("hooks.json")
}

fn plugin_manifest_path(target: &Target) -> PathBuf {
    target.root.join(".claude-plugin").join("plugin.json")
}

/// Whether the hook runs asynchronously.
fn is_async(h: &ResolvedHook) -> bool {
    !h.blocking && h.native != "Stop"
}

/// Whether the hook gets `onFailure: "block"`.
fn on_failure(target: &Target, manifest: &Manifest, h: &ResolvedHook) -> bool {
    manifest.failure == FailurePolicy::Closed
        && !is_async(h)
        && h.kind.is_gating()
        && !NO_ON_FAILURE.contains(&h.native.as_str())
        && !target.version_below(ON_FAILURE_MIN)
}

fn group(target: &Target, manifest: &Manifest, h: &ResolvedHook) -> Value {
    let mut handler = json!({"type": "command", "command": h.command, "timeout": h.timeout_value});
    if is_async(h) {
        handler["async"] = Value::Bool(true);
    }
    if on_failure(target, manifest, h) {
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

impl Claude {
    fn hooks_file(target: &Target) -> (PathBuf, FileFormat) {
        match target.scope {
            Scope::Plugin => (plugin_hooks_path(target), FileFormat::Json),
            _ => (settings_path(target), FileFormat::Json),
        }
    }
}

impl TargetModule for Claude {
    fn provider(&self) -> Provider {
        Provider::CLAUDE_CODE
    }

    fn scopes(&self) -> &'static [Scope] {
        &[Scope::User, Scope::Project, Scope::Plugin]
    }

    fn scope_hint(&self) -> &'static str {
        "Claude Code reads user and project settings.json and plugin hooks/hooks.json"
    }

    fn events(&self) -> &'static [EventRow] {
        EVENTS
    }

    fn kinds(&self) -> &'static [(EventKind, &'static [&'static str])] {
        KINDS
    }

    fn dialect(&self) -> &'static Dialect {
        &DIALECT
    }

    fn timeout(&self, _native: &str, requested: Option<Duration>) -> TimeoutPlan {
        TIMEOUT.plan(requested)
    }

    fn substituted_tokens(&self) -> &'static [&'static str] {
        &["${CLAUDE_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_DATA}"]
    }

    fn notes(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        let p = self.provider();
        let mut out = Vec::new();
        for h in hooks {
            let first = h.specs[0];
            if !h.blocking && h.native == "Stop" {
                out.push(
                    Finding::new(
                        Severity::Degraded,
                        FindingCode::AsyncForcedSync,
                        &p,
                        "non-blocking Stop hook rendered synchronously (cowork drops async Stop hooks, quirk #1)",
                    )
                    .with_hook(first)
                    .with_native(&h.native),
                );
            }
            if manifest.failure == FailurePolicy::Closed && h.blocking && h.kind.is_gating() {
                if on_failure(target, manifest, h) {
                    out.push(
                        Finding::new(
                            Severity::Info,
                            FindingCode::FailClosedNative,
                            &p,
                            "onFailure: \"block\": a crash, timeout or invalid output of the hook binary blocks",
                        )
                        .with_hook(first)
                        .with_native(&h.native),
                    );
                } else {
                    let why = if NO_ON_FAILURE.contains(&h.native.as_str()) {
                        format!("Claude ignores onFailure on {}", h.native)
                    } else {
                        format!("onFailure needs Claude Code ≥ {ON_FAILURE_MIN}")
                    };
                    out.push(
                        Finding::new(
                            Severity::Degraded,
                            FindingCode::FailClosedUnsupported,
                            &p,
                            format!("{why}: a crash or timeout of the hook binary fails open (the runner still fails closed when it runs)"),
                        )
                        .with_hook(first)
                        .with_native(&h.native),
                    );
                }
            }
        }
        match target.scope {
            Scope::Project => {
                out.push(Finding::new(
                    Severity::Info,
                    FindingCode::ProjectTrust,
                    &p,
                    "interactive sessions run project hooks after the workspace trust dialog is accepted",
                ));
                out.push(Finding::new(
                    Severity::Info,
                    FindingCode::Location,
                    &p,
                    "Cursor also runs hooks from .claude/settings.json (Claude-compat): installing the same hooks for Cursor makes them fire twice there",
                ));
            }
            Scope::User => out.push(Finding::new(
                Severity::Info,
                FindingCode::Location,
                &p,
                "Cursor also runs hooks from ~/.claude/settings.json (Claude-compat): installing the same hooks for Cursor makes them fire twice there",
            )),
            Scope::Plugin => out.push(Finding::new(
                Severity::Info,
                FindingCode::Location,
                &p,
                "plugin hooks load once the plugin is installed and enabled (`/plugin`)",
            )),
        }
        out
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        let (path, format) = Self::hooks_file(cx.target);
        let entries: Vec<(String, Value)> = hooks
            .iter()
            .map(|h| (h.native.clone(), group(cx.target, cx.manifest, h)))
            .collect();
        JsonHooksFile {
            path: &path,
            format,
            shape: Shape::Grouped,
            create_keys: &[],
        }
        .install(cx, &entries)?;
        if cx.target.scope == Scope::Plugin {
            let path = plugin_manifest_path(cx.target);
            let keys = plugin_manifest(cx.manifest);
            let before = cx.text(&path, FileFormat::Json)?;
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
        let (path, format) = Self::hooks_file(cx.target);
        JsonHooksFile {
            path: &path,
            format,
            shape: Shape::Grouped,
            create_keys: &[],
        }
        .uninstall(cx)?;
        if cx.target.scope == Scope::Plugin {
            // The plugin manifest goes only when it is exactly what we would write.
            let path = plugin_manifest_path(cx.target);
            if let Some(text) = cx.text(&path, FileFormat::Json)? {
                let expected: Value = Value::Object(
                    plugin_manifest(cx.manifest)
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                );
                let is_ours = crate::jsonc::parse(&text, false).is_ok_and(|n| n.to_value(&text) == expected);
                if is_ours {
                    cx.set_text(&path, FileFormat::Json, None)?;
                    cx.set_ours(&path, FileFormat::Json, vec![expected], Vec::new())?;
                }
            }
        }
        Ok(())
    }
}
