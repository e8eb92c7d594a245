//! The crate's files form layers: no file reaches, through `crate::` or `super::` paths, a file
//! that reaches it back (leaf values → `merge` → `plan` → `targets` → `lib`, the CLI on top).
//!
//! The scan reads each source file's code lines (comments and the trailing `#[cfg(test)]`
//! module are skipped), resolves every `crate::a::b…` and `super::…` path (`use` lines, braced
//! groups and paths written inline) to the file defining its longest module prefix, and fails
//! on any strongly connected component of more than one file, naming its files and edges. A
//! path to a root item (`crate::InstallError`) is an edge to `lib.rs`, so the lower layers name
//! the defining module instead.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use agenthooks_testkit::graph::circles;

/// A module path (`["targets", "codex", "trust"]`; the root is empty) → its file.
type Files = BTreeMap<Vec<String>, PathBuf>;

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `lib.rs` → `[]`, `a/mod.rs` and `a.rs` → `[a]`, `a/b.rs` → `[a, b]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut words: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(words.last().map(String::as_str), Some("mod" | "lib")) {
        words.pop();
    }
    words
}

fn ident_at(s: &str) -> (&str, &str) {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (&s[..end], &s[end..])
}

/// The paths a code line names from `crate::`, `super::` (resolved against `here`), `self::`
/// and a child module of `here` (`targets::module`, as `lib.rs` writes), as module-path word
/// lists; a braced group yields one path per item.
fn paths_in(line: &str, here: &[String], child: &dyn Fn(&str) -> bool) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < line.len() {
        let rest = &line[pos..];
        let before = line[..pos].chars().last();
        let (w, _) = ident_at(rest);
        if w.is_empty() {
            pos += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        pos += w.len();
        if before.is_some_and(|c| c == ':' || c == '$' || c == '\'') {
            continue;
        }
        let mut base = match w {
            "crate" => Vec::new(),
            "super" | "self" => here.to_vec(),
            w if child(w) && rest[w.len()..].starts_with("::") => here.to_vec(),
            _ => continue,
        };
        let mut after = rest;
        // `super::super::…`
        loop {
            if let Some(t) = after.strip_prefix("super::") {
                base.pop();
                after = t;
            } else if let Some(t) = after.strip_prefix("self::").or_else(|| after.strip_prefix("crate::")) {
                after = t;
            } else {
                break;
            }
        }
        if after.len() == rest.len() && matches!(w, "crate" | "super" | "self") {
            continue; // `crate`, `super` or `self` not followed by `::`
        }
        let mut prefix = base;
        loop {
            if let Some(group) = after.strip_prefix('{') {
                // `{a, b::c, self}`: the first word of each item (nested groups go deeper only
                // through modules, which the first word already names).
                let mut depth = 0usize;
                let mut item_start = true;
                for (j, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => item_start = true,
                        c if item_start && (c.is_ascii_alphabetic() || c == '_') => {
                            item_start = false;
                            let (w, _) = ident_at(&group[j..]);
                            let mut p = prefix.clone();
                            if w != "self" {
                                p.push(w.to_owned());
                            }
                            out.push(p);
                        }
                        _ => {}
                    }
                }
                break;
            }
            let (w, t) = ident_at(after);
            if w.is_empty() {
                out.push(prefix);
                break;
            }
            prefix.push(w.to_owned());
            match t.strip_prefix("::") {
                Some(t) => after = t,
                None => {
                    out.push(prefix);
                    break;
                }
            }
        }
        pos = pos.max(line.len() - after.len());
    }
    out
}

/// The file a path lands in: the longest module prefix that is a file of the crate.
fn file_of<'a>(files: &'a Files, path: &[String]) -> &'a PathBuf {
    (0..=path.len())
        .rev()
        .find_map(|n| files.get(&path[..n]))
        .expect("the root is a file")
}

/// Each file → the files it names.
fn edges(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut list = Vec::new();
    rs_files(src, &mut list);
    let files: Files = list.iter().map(|f| (module_of(src, f), f.clone())).collect();
    let mut out = BTreeMap::new();
    for (module, file) in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut to = BTreeSet::new();
        // Inline modules (`mod sys {`, by their indentation, as rustfmt lays them out): their
        // `super::` is the file's own module.
        let mut inline: Vec<(usize, String)> = Vec::new();
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next() {
            let code = line.trim_start();
            let indent = line.len() - code.len();
            if code == "#[cfg(test)]" && lines.peek().is_some_and(|l| l.trim_start().starts_with("mod tests")) {
                break;
            }
            if code.starts_with("//") {
                continue;
            }
            while inline
                .last()
                .is_some_and(|(i, _)| *i == indent && code.starts_with('}'))
            {
                inline.pop();
            }
            let code = code.split(" //").next().unwrap_or(code);
            let mut here = module.clone();
            here.extend(inline.iter().map(|(_, m)| m.clone()));
            let child = |w: &str| {
                let mut m = here.clone();
                m.push(w.to_owned());
                files.contains_key(&m)
            };
            for p in paths_in(code, &here, &child) {
                let target = file_of(&files, &p);
                if target != file {
                    to.insert(target.clone());
                }
            }
            let decl = code
                .strip_prefix("pub(crate) ")
                .or_else(|| code.strip_prefix("pub "))
                .unwrap_or(code);
            if let Some(name) = decl.strip_prefix("mod ").and_then(|r| r.strip_suffix(" {")) {
                inline.push((indent, name.to_owned()));
            }
        }
        out.insert(file.clone(), to);
    }
    out
}

#[test]
fn no_file_of_the_crate_imports_a_file_that_imports_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = edges(&src);
    let name = |p: &PathBuf| p.strip_prefix(&src).unwrap().display().to_string();
    let mut report = String::new();
    for c in circles(&g) {
        let _ = writeln!(report, "circle of {} files:", c.len());
        for f in &c {
            let inside: Vec<String> = g[f].iter().filter(|t| c.contains(t)).map(name).collect();
            let _ = writeln!(report, "  {} -> {}", name(f), inside.join(", "));
        }
    }
    assert!(report.is_empty(), "{report}");
}

#[test]
fn the_scan_sees_paths_groups_and_super() {
    let here = vec!["targets".to_owned(), "codex".to_owned()];
    let w = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let child = |w: &str| w == "trust";
    let paths = |line: &str| paths_in(line, &here, &child);
    assert_eq!(
        paths("use crate::{eol, plan::{Cx, FileFormat}, self};"),
        [w(&["eol"]), w(&["plan"]), w(&[])]
    );
    assert_eq!(paths("use super::super::target::Scope;"), [w(&["target", "Scope"])]);
    assert_eq!(
        paths("let x = crate::targets::module(p)?; $crate::no; a::trust::b"),
        [w(&["targets", "module"])]
    );
    assert_eq!(
        paths("pub use trust::Entry; self::trust::x(crate)"),
        [
            w(&["targets", "codex", "trust", "Entry"]),
            w(&["targets", "codex", "trust", "x"])
        ]
    );
    assert!(paths("let supercrate::x = 1; trusty::x").is_empty());
    // A circle is found, a chain is not.
    let p = |s: &str| PathBuf::from(s);
    let mut g = BTreeMap::new();
    g.insert(p("a"), BTreeSet::from([p("b")]));
    g.insert(p("b"), BTreeSet::from([p("c")]));
    g.insert(p("c"), BTreeSet::from([p("a")]));
    g.insert(p("d"), BTreeSet::from([p("a")]));
    assert_eq!(circles(&g), [vec![p("a"), p("b"), p("c")]]);
    g.insert(p("c"), BTreeSet::new());
    assert!(circles(&g).is_empty());
}
