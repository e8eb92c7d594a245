//! Install writes only where it should and changes only what it added, on the real file
//! system: CRLF files keep their line ends, symlinked configs are written through only inside
//! the project (home), dangling links are never replaced or removed.

use std::path::{Path, PathBuf};

use agenthooks_core::{EventKind, Provider};
use agenthooks_install::{install, uninstall, HookSpec, Manifest, Target, ToolMatcher};
#[cfg(unix)]
use agenthooks_install::{CodexOptions, InstallError};

use crate::common::temp_dir;

fn m() -> Manifest {
    Manifest::new(["/bin/guard"], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::names(["Bash"])))
        .with_hook(HookSpec::kind(EventKind::Stop))
}

/// Every line end is CRLF (and there is one).
fn all_crlf(text: &str) -> bool {
    let lf = text.matches('\n').count();
    lf > 0 && text.matches("\r\n").count() == lf
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// A (project, home) pair of fresh directories.
fn dirs(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let (root, home) = (dir.join("project"), dir.join("home"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    (root, home)
}

#[test]
fn crlf_configs_stay_crlf_and_come_back_byte_for_byte() {
    let (root, home) = dirs("crlf");
    let claude = root.join(".claude/settings.json");
    let gemini = root.join(".gemini/settings.json");
    let codex_toml = home.join(".codex/config.toml");
    let kimi = home.join(".kimi-code/config.toml");
    let files: [(&Path, String); 4] = [
        (
            &claude,
            "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"theirs\"}]}]\n  }\n}\n"
                .replace('\n', "\r\n"),
        ),
        (
            &gemini,
            "// settings\n{\n  /* ui */ \"ui\": {\"theme\": \"dark\"} // dark\n}\n".replace('\n', "\r\n"),
        ),
        (
            &codex_toml,
            "# codex\nmodel = \"o3\"\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n".replace('\n', "\r\n"),
        ),
        (&kimi, "# kimi\ndefault_model = \"k2\"\n".replace('\n', "\r\n")),
    ];
    for (p, t) in &files {
        write(p, t);
    }
    let targets = [
        Target::project(Provider::CLAUDE_CODE, &root, &home),
        Target::project(Provider::GEMINI, &root, &home),
        // hooks.json created (LF), trust entries into the CRLF config.toml
        Target::project(Provider::CODEX, &root, &home),
        Target::user(Provider::KIMI, &home),
    ];
    for t in &targets {
        install(&m(), t).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    for (p, original) in &files {
        let now = read(p);
        assert_ne!(&now, original, "{}: nothing installed", p.display());
        assert!(all_crlf(&now), "{}: a bare LF:\n{now:?}", p.display());
    }
    assert!(read(&codex_toml).contains("trusted_hash"));
    for t in &targets {
        uninstall(&m(), t).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    for (p, original) in &files {
        assert_eq!(&read(p), original, "{}", p.display());
    }
    assert!(!root.join(".codex/hooks.json").exists());
}

#[cfg(unix)]
fn is_link(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

/// Makes `link` (its directory first) a symlink to `to`.
#[cfg(unix)]
fn link_to(link: &Path, to: impl AsRef<Path>) {
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(to, link).unwrap();
}

#[cfg(unix)]
#[test]
fn a_symlink_inside_the_project_is_written_through_and_kept() {
    let (root, home) = dirs("link-inside");
    let real = root.join("config/claude.json");
    let original = "{\n  \"model\": \"opus\"\n}\n";
    write(&real, original);
    let link = root.join(".claude/settings.json");
    link_to(&link, "../config/claude.json");
    let t = Target::project(Provider::CLAUDE_CODE, &root, &home);
    install(&m(), &t).unwrap();
    assert!(is_link(&link));
    assert!(read(&real).contains("agenthooks run --provider=claude-code"));
    uninstall(&m(), &t).unwrap();
    assert!(is_link(&link));
    assert_eq!(read(&real), original);
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_project_is_refused_naming_both_paths() {
    let (root, home) = dirs("link-outside");
    // A committed link to a file outside the project (here in the home directory: still not
    // the project's to change).
    let outside = home.join("notes.json");
    let original = "{\"x\": 1}\n";
    write(&outside, original);
    let link = root.join(".claude/settings.json");
    link_to(&link, &outside);
    let t = Target::project(Provider::CLAUDE_CODE, &root, &home);
    let e = install(&m(), &t).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, InstallError::SymlinkOutside { .. }), "{e:?}");
    assert!(msg.contains(&link.display().to_string()), "{msg}");
    let resolved = std::fs::canonicalize(&outside).unwrap();
    assert!(msg.contains(&resolved.display().to_string()), "{msg}");
    assert_eq!(read(&outside), original);
    assert!(is_link(&link));
    assert!(!home.join(".agenthooks").exists(), "nothing written, not even a record");

    // A linked directory out of the project is refused the same way.
    std::fs::remove_file(&link).unwrap();
    std::fs::remove_dir(link.parent().unwrap()).unwrap();
    let elsewhere = home.join("claude-dir");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, root.join(".claude")).unwrap();
    let e = install(&m(), &t).unwrap_err();
    assert!(matches!(e, InstallError::SymlinkOutside { .. }), "{e:?}");
    assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none());

    // User scope: a link out of the home directory is refused, one inside it is fine.
    let dir = root.parent().unwrap();
    let out_of_home = dir.join("shared/settings.json");
    write(&out_of_home, original);
    let user_link = home.join(".claude/settings.json");
    link_to(&user_link, &out_of_home);
    let user = Target::user(Provider::CLAUDE_CODE, &home);
    let e = install(&m(), &user).unwrap_err();
    assert!(matches!(e, InstallError::SymlinkOutside { .. }), "{e:?}");
    assert_eq!(read(&out_of_home), original);

    // Only writes are refused: an uninstall that finds nothing of ours there reads the
    // linked file and changes nothing.
    let un = uninstall(&m(), &user).unwrap();
    assert!(un.is_noop());
    assert_eq!(read(&out_of_home), original);
    assert!(is_link(&user_link));
}

#[cfg(unix)]
#[test]
fn a_dangling_symlink_is_never_replaced_nor_removed() {
    let (root, home) = dirs("link-dangling");
    let link = root.join(".claude/settings.json");
    link_to(&link, "../missing.json");
    let t = Target::project(Provider::CLAUDE_CODE, &root, &home);
    let e = install(&m(), &t).unwrap_err();
    assert!(matches!(e, InstallError::DanglingSymlink { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains(&link.display().to_string()), "{msg}");
    assert!(msg.contains(&root.join("missing.json").display().to_string()), "{msg}");
    assert!(is_link(&link));
    assert!(!root.join("missing.json").exists());
    // Uninstall finds nothing of ours and leaves the link alone.
    assert!(uninstall(&m(), &t).unwrap().is_noop());
    assert!(is_link(&link));
    assert!(!root.join("missing.json").exists());
}

#[cfg(unix)]
#[test]
fn uninstall_writes_through_a_symlink_it_would_delete() {
    let (root, home) = dirs("link-delete");
    let real = root.join("shared/cursor.json");
    let link = root.join(".cursor/hooks.json");
    // A file holding only what a fresh install leaves, linked; without an install record the
    // old rule deletes it on uninstall: the link must stay, the residue written through.
    write(&real, "{\n  \"version\": 1\n}\n");
    link_to(&link, "../shared/cursor.json");
    let t = Target::project(Provider::CURSOR, &root, &home);
    install(&m(), &t).unwrap();
    assert!(read(&real).contains("agenthooks run"));
    std::fs::remove_dir_all(home.join(".agenthooks")).unwrap();
    let un = uninstall(&m(), &t).unwrap();
    assert!(un.files.iter().all(|f| f.after.is_some()), "{un:?}");
    assert!(
        un.findings
            .iter()
            .any(|f| f.message.contains("is a symlink, never removed")),
        "{:?}",
        un.findings
    );
    assert!(is_link(&link));
    assert_eq!(read(&real), "{\n  \"version\": 1\n}\n");
    // A whole file of ours behind a link (OpenCode's shim moved into the repository and linked):
    // the link and its target stay, and the plan says so.
    let opencode = Target::project(Provider::OPENCODE, &root, &home);
    install(&m(), &opencode).unwrap();
    let shim = root.join(".opencode/plugin/agenthooks.js");
    let moved = root.join("shared/agenthooks.js");
    std::fs::rename(&shim, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &shim).unwrap();
    let un = uninstall(&m(), &opencode).unwrap();
    assert!(is_link(&shim) && moved.is_file());
    assert!(
        un.findings
            .iter()
            .any(|f| f.severity == agenthooks_install::Severity::Error && f.message.contains("remove it by hand")),
        "{:?}",
        un.findings
    );

    // Codex with a linked config.toml in the home directory: the same.
    let codex_real = home.join("dotfiles/codex.toml");
    write(&codex_real, "");
    let codex_link = home.join(".codex/config.toml");
    link_to(&codex_link, &codex_real);
    let t = Target::user(Provider::CODEX, &home).with_options(CodexOptions::default().with_inline_toml(true));
    install(&m(), &t).unwrap();
    assert!(read(&codex_real).contains("trusted_hash"));
    std::fs::remove_dir_all(home.join(".agenthooks")).unwrap();
    uninstall(&m(), &t).unwrap();
    assert!(is_link(&codex_link));
    assert_eq!(read(&codex_real), "");
}

/// Every handler in a Codex `hooks.json` has its trust entry (key at its position, hash of its
/// identity) in `config.toml`; returns how many handlers there are.
fn every_hook_trusted(hooks_json: &Path, config: &Path) -> usize {
    let source = std::fs::canonicalize(hooks_json).unwrap().display().to_string();
    let hooks: serde_json::Value = serde_json::from_str(&read(hooks_json)).unwrap();
    let cfg: toml_edit::DocumentMut = read(config).parse().unwrap();
    let state = cfg["hooks"]["state"].as_table_like().expect("[hooks.state]");
    let entries = agenthooks_install::codex_trust::handler_entries(&source, &hooks);
    for (key, hash) in &entries {
        let got = state
            .get(key)
            .and_then(|t| t.get("trusted_hash"))
            .and_then(|v| v.as_str());
        assert_eq!(got, Some(hash.as_str()), "{key}: no matching trust entry");
    }
    entries.len()
}

#[test]
fn concurrent_codex_installs_leave_every_hook_trusted() {
    const N: usize = 8;
    let (root, home) = dirs("concurrent");
    let t = Target::project(Provider::CODEX, &root, &home);
    let barrier = std::sync::Barrier::new(N);
    std::thread::scope(|s| {
        for i in 0..N {
            let (t, barrier) = (&t, &barrier);
            s.spawn(move || {
                // Different commands: each install adds its own hooks, shifting the positions
                // the trust keys name.
                let m = Manifest::new([format!("/bin/guard-{i}")], "guard")
                    .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::names(["Bash"])))
                    .with_hook(HookSpec::kind(EventKind::Stop));
                barrier.wait();
                install(&m, t).unwrap_or_else(|e| panic!("install {i}: {e}"));
            });
        }
    });
    let hooks = root.join(".codex/hooks.json");
    let n = every_hook_trusted(&hooks, &home.join(".codex/config.toml"));
    assert_eq!(n, 2 * N, "{}", read(&hooks));
    for i in 0..N {
        assert!(read(&hooks).contains(&format!("/bin/guard-{i} agenthooks run")));
    }
}

#[test]
fn uninstall_removes_the_directories_install_created_once_empty() {
    let (root, home) = dirs("created-dirs");
    let user_codex = Target::user(Provider::CODEX, &home);
    install(&m(), &user_codex).unwrap();
    assert!(home.join(".codex/hooks.json").is_file());
    assert!(home.join(".codex/config.toml").is_file());
    uninstall(&m(), &user_codex).unwrap();
    assert!(!home.join(".codex").exists(), "~/.codex stays after uninstall");
    assert!(!home.join(".agenthooks").exists());
    assert!(home.is_dir(), "the home directory itself stays");

    // Nested directories (Copilot's `.github/hooks/`) go innermost first; the project stays.
    let copilot = Target::project(Provider::COPILOT, &root, &home);
    install(&m(), &copilot).unwrap();
    assert!(root.join(".github/hooks").is_dir());
    uninstall(&m(), &copilot).unwrap();
    assert!(!root.join(".github").exists());
    assert!(root.is_dir());

    // OpenCode's shim (a whole file of ours, no config): its directories go too.
    let opencode = Target::project(Provider::OPENCODE, &root, &home);
    install(&m(), &opencode).unwrap();
    assert!(root.join(".opencode/plugin/agenthooks.js").is_file());
    uninstall(&m(), &opencode).unwrap();
    assert!(!root.join(".opencode").exists());
    assert!(!home.join(".agenthooks").exists());

    // A directory that was there before stays, empty or not; one the user filled meanwhile
    // stays too.
    std::fs::create_dir_all(root.join(".cursor")).unwrap();
    let cursor = Target::project(Provider::CURSOR, &root, &home);
    install(&m(), &cursor).unwrap();
    uninstall(&m(), &cursor).unwrap();
    assert!(root.join(".cursor").is_dir());
    install(&m(), &user_codex).unwrap();
    write(&home.join(".codex/auth.json"), "{}");
    uninstall(&m(), &user_codex).unwrap();
    assert_eq!(read(&home.join(".codex/auth.json")), "{}");
    assert!(!home.join(".codex/hooks.json").exists());
}

#[cfg(unix)]
#[test]
fn a_bare_program_is_resolved_on_path_or_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("bare-command");
    let (bin, other, project) = (dir.join("bin"), dir.join("other"), dir.join("project"));
    for (d, mode) in [(&other, 0o644), (&bin, 0o755), (&project, 0o755)] {
        write(&d.join("guard"), "#!/bin/sh\n");
        std::fs::set_permissions(d.join("guard"), std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let cmd = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    // The first executable file on PATH: `other/guard` is not executable, `.` and relative
    // entries (the project directory) are never searched.
    let path = std::env::join_paths([Path::new("."), Path::new("project"), &other, &bin]).unwrap();
    let got = agenthooks_install::absolute_command(&cmd(&["guard", "--cfg", "x"]), &project, Some(&path)).unwrap();
    assert_eq!(got, cmd(&[bin.join("guard").to_str().unwrap(), "--cfg", "x"]));
    // Not found: a clear refusal naming the program.
    let path = std::env::join_paths([Path::new("."), &other]).unwrap();
    let e = agenthooks_install::absolute_command(&cmd(&["guard"]), &project, Some(&path)).unwrap_err();
    assert!(matches!(e, InstallError::ProgramNotFound { .. }), "{e:?}");
    assert!(
        e.to_string()
            .contains("`guard` is not a path and was not found on PATH"),
        "{e}"
    );
    assert!(agenthooks_install::absolute_command(&cmd(&["guard"]), &project, None).is_err());
    // A relative path with a separator is joined to the current directory.
    let got = agenthooks_install::absolute_command(&cmd(&["../bin/guard"]), &project, None).unwrap();
    assert_eq!(got, cmd(&[bin.join("guard").to_str().unwrap()]));
    let got = agenthooks_install::absolute_command(&cmd(&["./guard"]), &project, None).unwrap();
    assert_eq!(got, cmd(&[project.join("guard").to_str().unwrap()]));
}
