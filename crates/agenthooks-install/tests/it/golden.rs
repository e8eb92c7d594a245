//! Golden tests: the rendered files of every target and scope, byte for byte.
//! `AGENTHOOKS_BLESS=1` rewrites them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use agenthooks_install::{plan_install, plan_uninstall, render, MemFs};

use crate::common::{cases, manifest};

const ROOT: &str = "/work/repo";
const HOME: &str = "/home/user";
const COMMAND: &[&str] = &["/opt/My Tools/guard's", "--config=$HOME/.guard.toml"];

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("golden")
}

fn bless() -> bool {
    std::env::var_os("AGENTHOOKS_BLESS").is_some_and(|v| v == "1")
}

/// `/work/repo/.claude/settings.json` → `ROOT/.claude/settings.json`. A generated script
/// (`.js`) is stored as `<name>.js.golden`: the goldens are expected output (data), not
/// source of ours.
fn logical(path: &Path) -> String {
    let s = path.display().to_string();
    let s = s.replacen(ROOT, "ROOT", 1).replacen(HOME, "HOME", 1);
    if path.extension().is_some_and(|e| e == "js") {
        s + ".golden"
    } else {
        s
    }
}

#[test]
fn rendered_files_match_goldens() {
    let m = manifest(COMMAND);
    let mut failures = Vec::new();
    for (name, target) in cases(Path::new(ROOT), Path::new(HOME)) {
        let r = render(&m, &target).unwrap_or_else(|e| panic!("{name}: {e}"));
        let dir = golden_dir().join(name);
        let mut expected: Vec<(PathBuf, String)> = r
            .files
            .iter()
            .map(|f| (dir.join(logical(&f.path)), f.contents.clone()))
            .collect();
        let mut report = String::new();
        for f in &r.findings {
            let _ = writeln!(report, "{f}");
        }
        for t in &r.trust {
            let _ = writeln!(
                report,
                "trust {} {} = {}",
                t.native_event,
                logical(Path::new(&t.key)),
                t.hash
            );
        }
        expected.push((dir.join("findings.txt"), report));
        if bless() {
            let _ = std::fs::remove_dir_all(&dir);
            for (path, text) in &expected {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            continue;
        }
        for (path, text) in &expected {
            match std::fs::read_to_string(path) {
                Ok(g) if g == *text => {}
                Ok(g) => failures.push(format!(
                    "{}: differs\n--- golden\n{g}\n--- rendered\n{text}",
                    path.display()
                )),
                Err(_) => failures.push(format!("{}: missing (run with AGENTHOOKS_BLESS=1)", path.display())),
            }
        }
        // No stray golden files.
        let mut on_disk = Vec::new();
        walk(&dir, &mut on_disk);
        for p in on_disk {
            if !expected.iter().any(|(e, _)| *e == p) {
                failures.push(format!("{}: golden file not rendered any more", p.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The OpenCode shim and the OpenClaw `index.js` as install wrote them before the bridge was
/// shared (the goldens of then, kept by the provider crates as test data): install takes them
/// for its own, upgrades them to the rendered file, and uninstall removes them.
#[test]
fn bridge_files_of_the_earlier_format_are_upgraded_and_uninstalled() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let legacy = [
        (
            "opencode-user",
            "agenthooks-opencode/tests/data/shim-before-bridge.js.txt",
            "plugin/agenthooks.js",
        ),
        (
            "openclaw-user",
            "agenthooks-openclaw/tests/data/index-before-bridge.js.txt",
            "extensions/agenthooks/index.js",
        ),
    ];
    let m = manifest(COMMAND);
    let all = cases(Path::new(ROOT), Path::new(HOME));
    for (case, data, file) in legacy {
        let old = std::fs::read_to_string(crates.join(data)).expect("legacy file");
        let target = &all.iter().find(|(n, _)| *n == case).expect("case").1;
        let rendered = render(&m, target).expect("render");
        let ours = rendered
            .files
            .iter()
            .find(|f| f.path.ends_with(file))
            .unwrap_or_else(|| panic!("{case}: no {file}"));
        // Everything installed as today, but the bridge file of the earlier format.
        let fs = rendered.files.iter().fold(MemFs::new(), |fs, f| {
            let text = if f.path == ours.path {
                old.clone()
            } else {
                f.contents.clone()
            };
            fs.with(&f.path, text)
        });
        let up = plan_install(&m, target, &fs).unwrap_or_else(|e| panic!("{case}: {e}"));
        let planned = up.files.iter().find(|f| f.path == ours.path).expect("planned");
        assert!(!planned.ours_before.is_empty(), "{case}: taken for ours");
        assert_eq!(
            planned.after.as_deref(),
            Some(ours.contents.as_str()),
            "{case}: upgraded"
        );
        let down = plan_uninstall(&m, target, &fs).unwrap_or_else(|e| panic!("{case}: {e}"));
        let removed = down.files.iter().find(|f| f.path == ours.path).expect("planned");
        assert_eq!(removed.after, None, "{case}: removed");
        assert!(!removed.ours_before.is_empty());
    }
}
