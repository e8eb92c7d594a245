//! A minimal reader of the shared fixture layout (`input.json` + `meta.toml`).

use std::fs;
use std::path::{Path, PathBuf};

/// One fixture case.
pub(crate) struct Case {
    /// `<version>/<case>`, for messages.
    pub(crate) id: String,
    /// `input.json`, byte for byte.
    pub(crate) input: Vec<u8>,
    /// `meta.toml`'s `native_event`.
    pub(crate) native_event: String,
    /// The `--event=` value of `meta.toml`'s `argv`, when present.
    pub(crate) argv_event: Option<String>,
    /// `meta.toml`'s `source`.
    pub(crate) source: String,
}

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/copilot")
}

/// The value of a top-level `key = "string"` line of a flat TOML file.
fn toml_string(meta: &str, key: &str) -> Option<String> {
    meta.lines()
        .take_while(|l| !l.trim_start().starts_with('['))
        .find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == key).then(|| serde_json::from_str::<String>(v.trim()).ok())?
        })
}

fn argv_event(meta: &str) -> Option<String> {
    let line = meta.lines().find(|l| l.trim_start().starts_with("argv"))?;
    let (_, list) = line.split_once('=')?;
    let argv: Vec<String> = serde_json::from_str(list.trim()).ok()?;
    argv.iter().find_map(|a| a.strip_prefix("--event=").map(str::to_owned))
}

/// Every case under `fixtures/copilot/`, sorted.
pub(crate) fn all() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut versions: Vec<_> = fs::read_dir(root())
        .expect("fixtures/copilot exists")
        .map(|e| e.expect("dir entry").path())
        .collect();
    versions.sort();
    for version in versions {
        let mut dirs: Vec<_> = fs::read_dir(&version)
            .expect("version dir")
            .map(|e| e.expect("dir entry").path())
            .collect();
        dirs.sort();
        for dir in dirs {
            let meta = fs::read_to_string(dir.join("meta.toml")).expect("meta.toml");
            let id = format!(
                "{}/{}",
                version.file_name().unwrap().to_string_lossy(),
                dir.file_name().unwrap().to_string_lossy()
            );
            cases.push(Case {
                input: fs::read(dir.join("input.json")).expect("input.json"),
                native_event: toml_string(&meta, "native_event").expect("native_event"),
                argv_event: argv_event(&meta),
                source: toml_string(&meta, "source").expect("source"),
                id,
            });
        }
    }
    assert!(
        cases.len() >= 60,
        "expected the full fixture set, found {}",
        cases.len()
    );
    cases
}
