//! The fixture corpus under `fixtures/gemini/` (layout shared with the testkit).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

/// One fixture case.
pub(crate) struct Case {
    /// The case directory.
    pub(crate) dir: PathBuf,
    /// `docs` or the agent version directory (`gemini-cli-0.61.0`).
    pub(crate) version: String,
    /// The case name.
    pub(crate) name: String,
    /// `input.json`, byte for byte.
    pub(crate) input: Vec<u8>,
    /// `native_event` from `meta.toml`.
    pub(crate) native_event: String,
    /// `source` from `meta.toml`.
    pub(crate) source: String,
    /// The `[env]` table of `meta.toml`.
    pub(crate) env: HashMap<String, String>,
}

impl Case {
    /// `version/name`, for messages.
    pub(crate) fn id(&self) -> String {
        format!("{}/{}", self.version, self.name)
    }
}

pub(crate) fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/gemini")
}

fn toml_string(v: &str) -> String {
    // meta.toml values are basic strings whose escapes are a subset of JSON's.
    serde_json::from_str(v.trim()).unwrap_or_else(|e| panic!("bad TOML string {v}: {e}"))
}

fn parse_meta(text: &str) -> (HashMap<String, String>, HashMap<String, String>) {
    let (mut top, mut env) = (HashMap::new(), HashMap::new());
    let mut in_env = false;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('[') {
            in_env = line == "[env]";
            continue;
        }
        let Some((k, v)) = line.split_once(" = ") else {
            continue;
        };
        if !v.trim_start().starts_with('"') {
            continue; // arrays (argv) are not used by Gemini fixtures
        }
        let target = if in_env { &mut env } else { &mut top };
        target.insert(k.trim().to_owned(), toml_string(v));
    }
    (top, env)
}

/// Every case, sorted by version then name.
pub(crate) fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for version in fs::read_dir(fixtures_root()).expect("fixtures/gemini exists") {
        let version = version.expect("readable dir").path();
        if !version.is_dir() {
            continue;
        }
        for dir in fs::read_dir(&version).expect("readable version dir") {
            let dir = dir.expect("readable case").path();
            if !dir.join("input.json").is_file() {
                continue;
            }
            let input = fs::read(dir.join("input.json")).expect("input.json");
            let meta = fs::read_to_string(dir.join("meta.toml")).expect("meta.toml");
            let (top, env) = parse_meta(&meta);
            out.push(Case {
                version: version
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default()
                    .to_owned(),
                name: dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned(),
                native_event: top.get("native_event").cloned().expect("native_event"),
                source: top.get("source").cloned().expect("source"),
                dir,
                input,
                env,
            });
        }
    }
    out.sort_by(|a, b| (&a.version, &a.name).cmp(&(&b.version, &b.name)));
    out
}

/// The case named `version/name`.
pub(crate) fn case(id: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.id() == id)
        .unwrap_or_else(|| panic!("no fixture {id}"))
}
