//! `secret-guard agenthooks install --provider claude-code`: the documented way to install the
//! example, end to end on the real binary (in a scratch project and home).
#![cfg(feature = "full")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("selfinstall-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("repo")).unwrap();
    std::fs::create_dir_all(dir.join("home/.claude")).unwrap();
    dir
}

fn guard(dir: &Path, args: &[&str]) -> Output {
    let root = dir.join("repo");
    let home = dir.join("home");
    let mut c = Command::new(env!("CARGO_BIN_EXE_secret-guard"));
    c.arg("agenthooks").args(args);
    if args[0] != "manifest" {
        c.args(["--root".as_ref(), root.as_os_str(), "--home".as_ref(), home.as_os_str()]);
    }
    c.output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn the_guard_installs_itself_detects_drift_and_uninstalls() {
    let dir = scratch("claude");
    let settings = dir.join("repo/.claude/settings.json");
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_secret-guard")).unwrap();

    // an older install of the same binary that wired only tool.pre
    let o = guard(&dir, &["install", "--provider", "claude-code", "--kind", "tool.pre"]);
    assert!(o.status.success(), "{}", text(&o));
    let old = std::fs::read_to_string(&settings).unwrap();
    assert!(old.contains("--event=PreToolUse") && !old.contains("--event=UserPromptSubmit"));
    assert!(
        old.contains(&format!("\"command\": \"{} agenthooks run", exe.display())),
        "{old}"
    );
    // a build directory is no place for an installed hook: warned
    assert!(text(&o).contains("cargo build directory"), "{}", text(&o));

    // doctor: the installed hooks differ from this binary's router, with the diff
    let o = guard(&dir, &["doctor", "--no-ping"]);
    let t = text(&o);
    assert!(
        t.contains("installed manifest differs from this binary's router"),
        "{t}"
    );
    assert!(
        t.lines()
            .any(|l| l.trim_start().starts_with('+') && l.contains("UserPromptSubmit")),
        "{t}"
    );

    // install again: the router's events, reported per agent; then idempotent
    let o = guard(&dir, &["install", "--provider", "claude-code"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("events: ") && t.contains("PreToolUse") && t.contains("PermissionRequest"),
        "{t}"
    );
    let now = std::fs::read_to_string(&settings).unwrap();
    assert!(now.contains("--event=UserPromptSubmit") && now.contains("--event=PostToolUse"));
    let o = guard(&dir, &["install", "--provider", "claude-code"]);
    assert!(text(&o).contains("up to date; nothing changed"), "{}", text(&o));
    let o = guard(&dir, &["doctor", "--no-ping"]);
    assert!(!text(&o).contains("differs"), "{}", text(&o));

    // the manifest as TOML, with this package's version (`agenthooks::main!`)
    let o = guard(&dir, &["manifest"]);
    let t = text(&o);
    assert!(t.contains("kind = \"tool.pre\""), "{t}");
    assert!(
        t.contains(&format!("version = \"{}\"", env!("CARGO_PKG_VERSION"))) && t.contains("name = \"secret-guard\""),
        "{t}"
    );
    assert!(
        t.contains(&format!("agenthooks-example {}", env!("CARGO_PKG_VERSION"))),
        "{t}"
    );

    // an older install (tool.pre only), removed by this binary's uninstall with no reinstall
    let o = guard(&dir, &["install", "--provider", "claude-code", "--kind", "tool.pre"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = guard(&dir, &["uninstall", "--provider", "claude-code"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        !settings.exists(),
        "{}",
        std::fs::read_to_string(&settings).unwrap_or_default()
    );
    let o = guard(&dir, &["install", "--provider", "claude-code"]);
    assert!(o.status.success(), "{}", text(&o));

    // uninstall removes everything ours (the file held only our hooks)
    let o = guard(&dir, &["uninstall", "--provider", "claude-code", "--dry-run"]);
    assert!(o.status.success() && settings.exists(), "{}", text(&o));
    let o = guard(&dir, &["uninstall", "--provider", "claude-code"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!settings.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn all_installs_for_the_detected_agents_only() {
    let dir = scratch("all");
    let o = guard(&dir, &["install", "--all", "--dry-run"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains(".claude/settings.json"), "{t}");
    assert!(!t.contains(".gemini"), "{t}");
    assert!(!dir.join("repo/.claude/settings.json").exists(), "a dry run wrote");
    let _ = std::fs::remove_dir_all(&dir);
}
