//! Cursor: `.cursor/hooks.json` (project) or `~/.cursor/hooks.json` (user), hooks.json v1:
//! `{"version": 1, "hooks": {"<event>": [{"command", "matcher"?, "timeout", "failClosed"?}]}}`,
//! merged into the file (foreign entries kept).
//!
//! - camelCase event keys; only events this release knows are written: **one unknown event key
//!   discards the whole file** (BUNDLE), so never an event a build may not know.
//! - Timeouts in **seconds** (default 60).
//! - Decision hooks get `"failClosed": true` when the manifest's policy is fail-closed (#7): then
//!   a crash, timeout or non-zero exit of the hook binary blocks. Telemetry hooks stay fail-open.
//! - Matchers are unanchored JS regexes: we write `^(?:…)$`, only on the events whose matcher is
//!   a tool name (`preToolUse`, `postToolUse`, `postToolUseFailure`; #609); an un-compilable
//!   regex discards the whole file, so every matcher is checked before writing.
//! - Cursor strips `//` comments naively inside strings: a command containing `//` (a
//!   `scheme://` URL) breaks the whole file (#29) and is refused.
//! - No async hooks: non-blocking hooks run synchronously.
//! - The double fire (`preToolUse` + the specific `before*`, #2) is handled in the binary, not
//!   with `^(?!MCP:)` matchers, so every process still answers its own event's neutral shape.

use std::path::PathBuf;

use agenthooks_core::Provider;
use serde_json::{json, Value};

use super::shared::entries;
use super::spec::{non_blocking, wants_fail_closed, HookNote, TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::FindingCode;
use crate::manifest::Manifest;
use crate::targets::hooks_file::JsonHooksFile;
use crate::plan::Cx;
use crate::hook::ResolvedHook;
use crate::target::Target;
use crate::scope::Scope;

/// The Cursor target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cursor;

/// The Cursor target's constants. Events, kinds and tools are the Cursor codec's
/// ([`agenthooks_cursor::CODEC`]): the specific `before*` gates are primary rows beside
/// `preToolUse` (ask is enforced only there, and only `beforeMCPExecution` names the MCP
/// server); the binary dedupes the double fire.
pub(crate) static SPEC: TargetSpec = TargetSpec::new(Provider::CURSOR, &agenthooks_cursor::CODEC)
    .timeouts(TimeoutRule::new(1000, 60))
    .scope_hint("Cursor reads .cursor/hooks.json (project, trusted workspaces) and ~/.cursor/hooks.json (user)")
    // Cursor's naive `//` comment stripper breaks the whole file on `scheme://` (#29).
    .substituted(&["//"])
    .hook_notes(&[
        HookNote::runs_sync(
            "Cursor has no async hooks: this non-blocking hook runs synchronously (keep it fast)",
            non_blocking,
        ),
        HookNote::fails_closed(
            "failClosed: true is set, so a crash, timeout or bad exit of the hook binary blocks (Cursor fails open otherwise)",
            fail_closed,
        ),
        HookNote::fails_open(
            "Cursor cannot block on this event: a crash or timeout of the hook binary fails open",
            |m, h| !fail_closed(m, h) && wants_fail_closed(m, h),
        ),
        HookNote::info(
            FindingCode::EventUnavailable,
            "cursor-agent -p (print mode) fires neither beforeSubmitPrompt nor stop (#31)",
            |_, h| matches!(h.native.as_str(), "beforeSubmitPrompt" | "stop"),
        ),
    ])
    .project_trust("Cursor runs project hooks only in trusted workspaces (the headless CLI needs --trust or --force); cloud agents run project hooks only");

/// The events whose failure can block (permission hooks and the prompt): `failClosed` there.
const CAN_FAIL_CLOSED: &[&str] = &[
    "preToolUse",
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "beforeTabFileRead",
    "subagentStart",
    "beforeSubmitPrompt",
];

pub(crate) fn hooks_path(target: &Target) -> PathBuf {
    match target.scope {
        Scope::User => target.home.join(".cursor").join("hooks.json"),
        _ => target.root.join(".cursor").join("hooks.json"),
    }
}

/// Whether a JS `RegExp` would compile the pattern, as far as a structural check can tell:
/// balanced groups and classes, no dangling escape, no empty alternation group at the start.
pub(crate) fn js_regex_compiles(p: &str) -> bool {
    let mut depth = 0i32;
    let mut in_class = false;
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        match c {
            // An escape takes the next character; a dangling one does not compile.
            '\\' if chars.next().is_none() => return false,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0 && !in_class
}

fn entry(manifest: &Manifest, h: &ResolvedHook) -> Value {
    let mut e = json!({"command": h.command});
    if let Some(m) = h.matcher.as_deref().filter(|m| !m.is_empty()) {
        e["matcher"] = Value::from(m);
    }
    e["timeout"] = Value::from(h.timeout_value);
    if fail_closed(manifest, h) {
        e["failClosed"] = Value::Bool(true);
    }
    e
}

fn fail_closed(_manifest: &Manifest, h: &ResolvedHook) -> bool {
    h.fail_closed && h.blocking && CAN_FAIL_CLOSED.contains(&h.native.as_str())
}

impl TargetModule for Cursor {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        for h in hooks {
            if SPEC.event(&h.native).is_none() {
                return Err(InstallError::InvalidManifest(format!(
                    "cursor: `{}` is not an event this release knows (one unknown key discards Cursor's whole hooks.json)",
                    h.native
                )));
            }
            if let Some(m) = h.matcher.as_deref().filter(|m| !js_regex_compiles(m)) {
                return Err(InstallError::MatcherNotExpressible {
                    hook: h.specs[0],
                    provider: Provider::CURSOR,
                    why: format!("`{m}` would not compile as a JS regex (Cursor discards the whole hooks.json)"),
                });
            }
        }
        JsonHooksFile::flat_v1(hooks_path(cx.target)).install(cx, &entries(hooks, |h| entry(cx.manifest, h)))
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        JsonHooksFile::flat_v1(hooks_path(cx.target)).uninstall(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_regex_check() {
        assert!(js_regex_compiles("^(?:Shell|Read)$"));
        assert!(js_regex_compiles(r"^(?:MCP:a\.b)$"));
        assert!(!js_regex_compiles("^(?:Shell"));
        assert!(!js_regex_compiles("[abc"));
        assert!(!js_regex_compiles("x\\"));
    }
}
