//! Shared helpers.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use agenthooks_core::{CanonicalTool, EventKind, Provider};
use agenthooks_install::{CodexOptions, FailurePolicy, HookSpec, Identity, Manifest, McpGlob, Target, ToolMatcher};

/// A fresh empty directory under the target's tmp dir.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("agenthooks-install-it")
        .join(format!(
            "{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The manifest used by goldens and most tests.
pub(crate) fn manifest(command: &[&str]) -> Manifest {
    Manifest::new(command.iter().copied(), "guard")
        .with_identity(
            Identity::new("guard")
                .with_version("1.2.3")
                .with_description("Blocks dangerous commands"),
        )
        .with_failure(FailurePolicy::Closed)
        .with_hook(
            HookSpec::kind(EventKind::ToolPre)
                .with_tools(ToolMatcher::names(["Bash"]).with_class(CanonicalTool::FileEdit))
                .with_timeout(Duration::from_secs(10)),
        )
        .with_hook(HookSpec::kind(EventKind::ToolPost).non_blocking())
        .with_hook(HookSpec::kind(EventKind::ToolError))
        .with_hook(
            HookSpec::kind(EventKind::Permission)
                .with_tools(ToolMatcher::default().with_mcp(McpGlob::parse("github/create_*"))),
        )
        .with_hook(HookSpec::kind(EventKind::PromptSubmitted))
        .with_hook(HookSpec::kind(EventKind::Stop).non_blocking())
        .with_hook(HookSpec::kind(EventKind::SessionStart).with_timeout(Duration::from_millis(1500)))
        .with_hook(
            HookSpec::kind(EventKind::SessionEnd)
                .non_blocking()
                .with_timeout(Duration::from_secs(30)),
        )
        .with_hook(HookSpec::native(Provider::CLAUDE_CODE, "PostToolBatch"))
}

/// Every (case name, target) pair the goldens and the executed test cover.
pub(crate) fn cases(root: &Path, home: &Path) -> Vec<(&'static str, Target)> {
    vec![
        ("claude-code-user", Target::user(Provider::CLAUDE_CODE, home)),
        (
            "claude-code-project",
            Target::project(Provider::CLAUDE_CODE, root, home),
        ),
        (
            "claude-code-plugin",
            Target::plugin(Provider::CLAUDE_CODE, root.join("plugin"), home),
        ),
        ("codex-user", Target::user(Provider::CODEX, home)),
        ("codex-project", Target::project(Provider::CODEX, root, home)),
        (
            "codex-project-inline-trusted",
            Target::project(Provider::CODEX, root, home)
                .with_options(CodexOptions::default().with_inline_toml(true).with_trust_project(true)),
        ),
        ("gemini-user", Target::user(Provider::GEMINI, home)),
        ("gemini-project", Target::project(Provider::GEMINI, root, home)),
        ("copilot-user", Target::user(Provider::COPILOT, home)),
        ("copilot-project", Target::project(Provider::COPILOT, root, home)),
        ("kimi-user", Target::user(Provider::KIMI, home)),
        ("opencode-user", Target::user(Provider::OPENCODE, home)),
        ("opencode-project", Target::project(Provider::OPENCODE, root, home)),
        ("openclaw-user", Target::user(Provider::OPENCLAW, home)),
        ("openclaw-project", Target::project(Provider::OPENCLAW, root, home)),
        ("qwen-code-user", Target::user(Provider::QWEN, home)),
        ("qwen-code-project", Target::project(Provider::QWEN, root, home)),
        ("droid-user", Target::user(Provider::DROID, home)),
        ("droid-project", Target::project(Provider::DROID, root, home)),
    ]
}

/// Every string under a `command` key, recursively (JSON).
pub(crate) fn json_commands(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                if k == "command" {
                    if let Some(s) = v.as_str() {
                        out.push(s.to_owned());
                    }
                }
                json_commands(v, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|v| json_commands(v, out)),
        _ => {}
    }
}

/// Every `command` string in a rendered file (JSON or TOML).
pub(crate) fn commands_in(path: &Path, text: &str) -> Vec<String> {
    // The OpenCode shim spawns its argv directly (no shell string to check).
    if path.extension().is_some_and(|e| e == "js") {
        return Vec::new();
    }
    let v: serde_json::Value = if path.extension().is_some_and(|e| e == "toml") {
        agenthooks_core::kit::toml::to_json(text.parse::<toml_edit::DocumentMut>().unwrap().as_item())
    } else {
        serde_json::from_str(text).unwrap()
    };
    let mut out = Vec::new();
    json_commands(&v, &mut out);
    out
}

/// Applies a plan to an in-memory file system (what `Plan::apply` does on disk).
pub(crate) fn apply(fs: &mut agenthooks_install::MemFs, plan: &agenthooks_install::Plan) {
    for f in &plan.files {
        match &f.after {
            Some(text) => {
                fs.files.insert(f.path.clone(), text.clone());
            }
            None => {
                fs.files.remove(&f.path);
            }
        }
    }
}
