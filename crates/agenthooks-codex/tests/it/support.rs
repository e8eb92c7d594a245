//! Shared helpers: the crate's vendored schemas and the fixture corpus.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::jsonschema::Schema;

/// `crates/agenthooks-codex`.
pub(crate) fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `fixtures/codex`.
pub(crate) fn fixtures_dir() -> PathBuf {
    crate_dir().join("../../fixtures/codex")
}

/// Native event name → schema file stem (`PreToolUse` → `pre-tool-use`).
pub(crate) fn kebab(native: &str) -> String {
    let mut out = String::new();
    for (i, ch) in native.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

fn load(path: &Path) -> Option<Schema> {
    let text = fs::read_to_string(path).ok()?;
    Some(Schema::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// The input schema of a native event, if Codex publishes one.
pub(crate) fn input_schema(native: &str) -> Option<Schema> {
    load(&crate_dir().join(format!("schemas/{}.command.input.schema.json", kebab(native))))
}

/// The output schema of a native event, if Codex publishes one.
pub(crate) fn output_schema(native: &str) -> Option<Schema> {
    load(&crate_dir().join(format!("schemas/{}.command.output.schema.json", kebab(native))))
}

/// Every `*.json` schema file name in `schemas/`.
pub(crate) fn schema_files() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(crate_dir().join("schemas"))
        .expect("schemas dir")
        .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
        .filter(|n| {
            Path::new(n)
                .extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("json"))
        })
        .collect();
    names.sort();
    names
}

/// One fixture case.
#[derive(Debug)]
pub(crate) struct Case {
    /// `<version>/<case>`.
    pub(crate) id: String,
    /// The raw `input.json` bytes.
    pub(crate) input: Vec<u8>,
    /// `native_event` from `meta.toml`.
    pub(crate) native_event: String,
    /// `transport` from `meta.toml`.
    pub(crate) transport: String,
    /// `argv` from `meta.toml` (empty when absent).
    pub(crate) argv: Vec<String>,
    /// `source` from `meta.toml`.
    pub(crate) source: String,
}

impl Case {
    /// The input parsed as JSON.
    pub(crate) fn json(&self) -> Value {
        serde_json::from_slice(&self.input).unwrap_or_else(|e| panic!("{}: {e}", self.id))
    }
}

/// Every case under `fixtures/codex/*/*/`, sorted.
pub(crate) fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut versions: Vec<PathBuf> = fs::read_dir(fixtures_dir())
        .expect("fixtures/codex")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .collect();
    versions.sort();
    for version in versions {
        let mut dirs: Vec<PathBuf> = fs::read_dir(&version)
            .expect("version dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            let id = format!(
                "{}/{}",
                version.file_name().unwrap().to_string_lossy(),
                dir.file_name().unwrap().to_string_lossy()
            );
            let input = fs::read(dir.join("input.json")).unwrap_or_else(|e| panic!("{id}: {e}"));
            let meta_text = fs::read_to_string(dir.join("meta.toml")).unwrap_or_else(|e| panic!("{id}: {e}"));
            let meta: toml_edit::DocumentMut = meta_text.parse().unwrap_or_else(|e| panic!("{id}: meta.toml: {e}"));
            let text = |key: &str| {
                meta.get(key)
                    .and_then(|item| item.as_str())
                    .unwrap_or_else(|| panic!("{id}: meta.toml lacks `{key}`"))
                    .to_owned()
            };
            assert!(meta.get("variant").is_some(), "{id}: meta.toml lacks `variant`");
            assert!(
                meta.get("env").and_then(|e| e.as_table()).is_some(),
                "{id}: meta.toml lacks an [env] table"
            );
            let argv = meta
                .get("argv")
                .and_then(|item| item.as_array())
                .map(|arr| {
                    arr.iter()
                        .map(|v| v.as_str().expect("argv strings").to_owned())
                        .collect()
                })
                .unwrap_or_default();
            out.push(Case {
                native_event: text("native_event"),
                transport: text("transport"),
                source: text("source"),
                argv,
                input,
                id,
            });
        }
    }
    out
}
