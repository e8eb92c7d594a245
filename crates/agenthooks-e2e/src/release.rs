//! One published release of an agent: its version list on the registry, the native events its
//! own bundle lists, and the config schema it ships.
//!
//! The event list is read from the installed package, not from our codec: every file of the
//! agent's package (and of its platform packages, `<package>-linux-x64` and the like) is scanned
//! for string-literal lists (`"A","B","C"`, as a bundler writes an enum or a `z.enum([...])`)
//! holding at least three of the codec's event names; the list with the most of them is the
//! release's own ([`ReleaseEvents::listed`]). Where no such list exists (Gemini's compiled
//! TypeScript enum, for one) the codec's events are checked one by one for a quoted occurrence
//! in the bundle ([`ReleaseEvents::present`]): an event the release never mentions is not
//! registered, so an old release is not handed a config key it may reject.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Files larger than this are not scanned (no agent bundle comes close).
const MAX_SCAN_BYTES: u64 = 600 * 1024 * 1024;

/// The events of one release.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReleaseEvents {
    /// The release's own event list, when its bundle has one (in bundle order).
    pub listed: Option<Vec<String>>,
    /// The codec's events whose quoted name occurs somewhere in the bundle.
    pub present: Vec<String>,
    /// The codec's events the bundle never mentions.
    pub absent: Vec<String>,
}

impl ReleaseEvents {
    /// The events to register for a capture: the release's list and the codec's events it
    /// mentions (never empty when the codec has events: with nothing found at all, every codec
    /// event).
    pub fn to_register(&self, codec_events: &[&str]) -> Vec<String> {
        if self.listed.is_none() && self.present.is_empty() {
            return codec_events.iter().map(|s| (*s).to_owned()).collect();
        }
        let mut out: Vec<String> = self.listed.clone().unwrap_or_default();
        for p in &self.present {
            if !out.contains(p) {
                out.push(p.clone());
            }
        }
        out
    }

    /// Where the list came from, for reports.
    pub fn source(&self) -> &'static str {
        if self.listed.is_some() {
            "the release's bundle (event list)"
        } else if self.present.is_empty() {
            "the codec's table (the bundle names none of its events)"
        } else {
            "the codec's table, filtered to the names the bundle mentions"
        }
    }
}

/// The package's published versions, oldest first (`npm view <pkg> versions --json`), without
/// pre-releases and platform builds (a `-` in the version).
pub fn published_versions(package: &str) -> Result<Vec<String>, String> {
    let out = npm_view(package, "versions")?;
    let v: serde_json::Value = serde_json::from_str(&out).map_err(|e| format!("npm view {package} versions: {e}"))?;
    Ok(v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(serde_json::Value::as_str)
                .filter(|s| !s.contains('-'))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default())
}

/// The package's `latest` dist-tag.
pub fn latest_version(package: &str) -> Result<String, String> {
    let out = npm_view(package, "dist-tags.latest")?;
    let v = out.trim().trim_matches('"').to_owned();
    if v.is_empty() {
        return Err(format!("npm view {package}: no latest dist-tag"));
    }
    Ok(v)
}

fn npm_view(package: &str, field: &str) -> Result<String, String> {
    let npm = crate::npm::which("npm").ok_or("`npm` is not on PATH")?;
    let out = crate::run::output_with_timeout(
        Command::new(npm).args(["view", package, field, "--json"]),
        Duration::from_secs(120),
    )
    .map_err(|e| format!("npm view {package} {field}: {e}"))?;
    if !out.success {
        return Err(format!("npm view {package} {field} failed: {}", out.stderr.trim()));
    }
    Ok(out.stdout)
}

/// The agent's own package directories under an install prefix: `node_modules/<package>` and
/// its platform siblings (`node_modules/<package>-<platform>`).
pub fn package_dirs(prefix: &Path, package: &str) -> Vec<PathBuf> {
    let main = prefix.join("node_modules").join(package);
    let mut dirs = vec![main.clone()];
    let (parent, base) = match main.parent() {
        Some(p) => (
            p.to_path_buf(),
            main.file_name().map(|f| f.to_string_lossy().into_owned()),
        ),
        None => return dirs,
    };
    let Some(base) = base else { return dirs };
    if let Ok(entries) = std::fs::read_dir(&parent) {
        let mut siblings: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with(&format!("{base}-")))
            .map(|e| e.path())
            .collect();
        siblings.sort();
        dirs.extend(siblings);
    }
    // Platform packages nested inside the main one (Codex ships them as its dependencies).
    let nested = main.join("node_modules");
    if nested.is_dir() {
        dirs.push(nested);
    }
    dirs
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.filter_map(Result::ok) {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            files_under(&p, out);
        } else if ft.is_file() {
            out.push(p);
        }
    }
}

/// Whether a file may hold the event names: scripts, JSON, type declarations, extension-less
/// executables (native builds).
fn scannable(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.ends_with(".d.ts") {
        return true;
    }
    match p.extension().and_then(|e| e.to_str()) {
        Some("js" | "mjs" | "cjs" | "json" | "node" | "exe") | None => true,
        Some(_) => false,
    }
}

/// Reads the release's events from the installed package.
pub fn events(prefix: &Path, package: &str, codec_events: &[&str]) -> ReleaseEvents {
    let mut files = Vec::new();
    for d in package_dirs(prefix, package) {
        files_under(&d, &mut files);
    }
    files.retain(|p| scannable(p) && std::fs::metadata(p).is_ok_and(|m| m.len() <= MAX_SCAN_BYTES));
    let known: BTreeSet<&str> = codec_events.iter().copied().collect();
    let mut best: Option<(usize, Vec<String>)> = None;
    let mut present = BTreeSet::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else { continue };
        for list in string_lists(&bytes) {
            let hits = list.iter().filter(|s| known.contains(s.as_str())).count();
            if hits >= 3
                && best
                    .as_ref()
                    .is_none_or(|(n, l)| hits > *n || (hits == *n && list.len() < l.len()))
            {
                best = Some((hits, list));
            }
        }
        for ev in codec_events {
            if !present.contains(ev) && contains_quoted(&bytes, ev) {
                present.insert(*ev);
            }
        }
    }
    // A list naming fewer than half of the codec events the bundle mentions is some other
    // list (a tool's subset), not the release's event list.
    let listed = best.filter(|(hits, _)| 2 * hits >= present.len()).map(|(_, mut l)| {
        let mut seen = BTreeSet::new();
        l.retain(|s| seen.insert(s.clone()));
        l
    });
    ReleaseEvents {
        listed,
        present: codec_events
            .iter()
            .filter(|e| present.contains(*e))
            .map(|s| (*s).to_owned())
            .collect(),
        absent: codec_events
            .iter()
            .filter(|e| !present.contains(*e))
            .map(|s| (*s).to_owned())
            .collect(),
    }
}

/// Whether any file of the installed package (see [`package_dirs`]) contains `needle`: how
/// the suite tells which CLI flags an older release has.
pub fn mentions(prefix: &Path, package: &str, needle: &str) -> bool {
    type Seen = std::sync::Mutex<BTreeMap<(PathBuf, String), bool>>;
    static SEEN: std::sync::OnceLock<Seen> = std::sync::OnceLock::new();
    let key = (prefix.to_path_buf(), needle.to_owned());
    let seen = SEEN.get_or_init(Seen::default);
    if let Some(hit) = seen.lock().ok().and_then(|m| m.get(&key).copied()) {
        return hit;
    }
    let hit = scan_mentions(prefix, package, needle);
    if let Ok(mut m) = seen.lock() {
        m.insert(key, hit);
    }
    hit
}

fn scan_mentions(prefix: &Path, package: &str, needle: &str) -> bool {
    let mut files = Vec::new();
    for d in package_dirs(prefix, package) {
        files_under(&d, &mut files);
    }
    files
        .iter()
        .filter(|p| scannable(p) && std::fs::metadata(p).is_ok_and(|m| m.len() <= MAX_SCAN_BYTES))
        .any(|f| std::fs::read(f).is_ok_and(|b| find(&b, needle.as_bytes())))
}

fn contains_quoted(hay: &[u8], name: &str) -> bool {
    let needles = [format!("\"{name}\""), format!("'{name}'"), format!("`{name}`")];
    needles.iter().any(|n| find(hay, n.as_bytes()))
}

fn find(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut i = 0;
    while let Some(off) = hay[i..].iter().position(|&b| b == first) {
        let at = i + off;
        if hay[at + 1..].starts_with(rest) {
            return true;
        }
        i = at + 1;
    }
    false
}

fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

/// Every run of ≥ 3 comma-separated double-quoted identifiers (`"a","b", "c"`) in `bytes`.
///
/// ```text
/// x=["PreToolUse","PostToolUse","Stop"]  →  [["PreToolUse", "PostToolUse", "Stop"]]
/// ```
pub fn string_lists(bytes: &[u8]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut cur: Vec<String> = Vec::new();
    let n = bytes.len();
    let mut i = 0;
    let flush = |cur: &mut Vec<String>, out: &mut Vec<Vec<String>>| {
        if cur.len() >= 3 {
            out.push(std::mem::take(cur));
        } else {
            cur.clear();
        }
    };
    while i < n {
        if bytes[i] != b'"' {
            if !cur.is_empty() {
                flush(&mut cur, &mut out);
            }
            i += 1;
            continue;
        }
        let start = i + 1;
        let mut j = start;
        while j < n && ident_byte(bytes[j]) {
            j += 1;
        }
        if j == start || j >= n || bytes[j] != b'"' || j - start > 64 {
            flush(&mut cur, &mut out);
            i = j.max(i + 1);
            continue;
        }
        cur.push(String::from_utf8_lossy(&bytes[start..j]).into_owned());
        let mut k = j + 1;
        while k < n && bytes[k] == b' ' {
            k += 1;
        }
        if k < n && bytes[k] == b',' {
            k += 1;
            while k < n && (bytes[k] == b' ' || bytes[k] == b'\n') {
                k += 1;
            }
            if k < n && bytes[k] == b'"' {
                i = k;
                continue;
            }
        }
        flush(&mut cur, &mut out);
        i = k;
    }
    flush(&mut cur, &mut out);
    out
}

/// The JSON schemas the agent's own package ships (`*schema*.json`), as `(file name, path)`.
pub fn schemas(prefix: &Path, package: &str) -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    for d in package_dirs(prefix, package) {
        if d.ends_with("node_modules") {
            continue;
        }
        files_under(&d, &mut files);
    }
    let mut out: Vec<(String, PathBuf)> = files
        .into_iter()
        .filter(|p| {
            let name = p
                .file_name()
                .map(|f| f.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            p.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) && name.contains("schema")
        })
        .map(|p| {
            (
                p.file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                p,
            )
        })
        .collect();
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_of_quoted_identifiers() {
        let js = br#"a=1;E=["PreToolUse","PostToolUse", "Stop"];f("x","y");z.enum(["a.b","c_d","e"])"#;
        assert_eq!(
            string_lists(js),
            vec![
                vec!["PreToolUse".to_owned(), "PostToolUse".to_owned(), "Stop".to_owned()],
                vec!["a.b".to_owned(), "c_d".to_owned(), "e".to_owned()],
            ]
        );
        assert!(
            string_lists(br#""a b","c","d""#).is_empty(),
            "a non-identifier breaks the list"
        );
    }

    #[test]
    fn events_prefer_the_bundle_list_and_fall_back_to_mentions() {
        let dir = std::env::temp_dir().join(format!("agenthooks-e2e-release-test-{}", std::process::id()));
        let pkg = dir.join("node_modules/@x/agent");
        std::fs::create_dir_all(&pkg).expect("mkdir");
        std::fs::write(
            pkg.join("cli.js"),
            br#"H=["PreToolUse","PostToolUse","Stop","NewEvent"];"#,
        )
        .expect("write");
        let ev = events(&dir, "@x/agent", &["PreToolUse", "PostToolUse", "Stop", "SessionEnd"]);
        assert_eq!(
            ev.listed.as_deref(),
            Some(&["PreToolUse", "PostToolUse", "Stop", "NewEvent"].map(str::to_owned)[..])
        );
        assert_eq!(ev.absent, vec!["SessionEnd".to_owned()]);
        assert_eq!(
            ev.to_register(&[]).len(),
            4,
            "the list, plus the codec events it mentions"
        );
        std::fs::write(pkg.join("cli.js"), br#"if(e==="PreToolUse")x();y='Stop'"#).expect("write");
        let ev = events(&dir, "@x/agent", &["PreToolUse", "PostToolUse", "Stop"]);
        assert_eq!(ev.listed, None);
        assert_eq!(ev.to_register(&[]), vec!["PreToolUse".to_owned(), "Stop".to_owned()]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
