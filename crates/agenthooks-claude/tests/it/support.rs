//! Fixture loading and small helpers shared by the test modules.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use agenthooks_claude::CODEC;
use agenthooks_core::{Codec, Event, Invocation, Variant};

/// Root of the shared fixture corpus.
pub(crate) fn fixtures_root() -> PathBuf {
    std::env::var_os("AGENTHOOKS_FIXTURES").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures"),
        PathBuf::from,
    )
}

/// One fixture case: `fixtures/claude-code/<version>/<case>/`.
pub(crate) struct Case {
    pub(crate) dir: PathBuf,
    pub(crate) input: Vec<u8>,
    pub(crate) native_event: String,
    pub(crate) variant: String,
    pub(crate) env: HashMap<String, String>,
}

impl Case {
    /// `<version>/<case>`, for messages.
    pub(crate) fn name(&self) -> String {
        let case = self.dir.file_name().unwrap_or_default().to_string_lossy();
        let version = self
            .dir
            .parent()
            .and_then(Path::file_name)
            .unwrap_or_default()
            .to_string_lossy();
        format!("{version}/{case}")
    }

    /// Decodes the case the way the runner would (env, `--event` hint, `--variant` when set).
    pub(crate) fn decode(&self) -> Event {
        let variant = Variant::new(self.variant.clone());
        let inv = Invocation::new(self.input.clone(), &self.env)
            .with_native_event(Some(&self.native_event))
            .with_variant(Some(&variant));
        CODEC.decode(&inv).unwrap_or_else(|e| panic!("{}: {e}", self.name()))
    }
}

/// Every case under `fixtures/claude-code/`, sorted.
pub(crate) fn cases() -> Vec<Case> {
    let root = fixtures_root().join("claude-code");
    let mut out = Vec::new();
    for version in read_dir(&root) {
        for dir in read_dir(&version) {
            out.push(load(dir));
        }
    }
    out.sort_by(|a, b| a.dir.cmp(&b.dir));
    out
}

/// One case by `<version>/<case>`.
pub(crate) fn case(name: &str) -> Case {
    load(fixtures_root().join("claude-code").join(name))
}

fn read_dir(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

fn load(dir: PathBuf) -> Case {
    let input = std::fs::read(dir.join("input.json")).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let meta_text = std::fs::read_to_string(dir.join("meta.toml")).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let meta: toml_edit::DocumentMut = meta_text.parse().unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let text = |key: &str| meta.get(key).and_then(|v| v.as_str()).unwrap_or_default().to_owned();
    let env = meta
        .get("env")
        .and_then(toml_edit::Item::as_table_like)
        .map(|t| {
            t.iter()
                .map(|(k, v)| (k.to_owned(), v.as_str().unwrap_or_default().to_owned()))
                .collect()
        })
        .unwrap_or_default();
    Case {
        native_event: text("native_event"),
        variant: text("variant"),
        env,
        input,
        dir,
    }
}

/// Decodes a fixture by name with its own meta.
pub(crate) fn event(name: &str) -> Event {
    case(name).decode()
}
