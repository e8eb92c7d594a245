//! The Copilot fixture corpus, read with the testkit's loader.

use std::collections::HashMap;

use agenthooks_testkit::{fixture, fixtures_dir};

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
    /// `meta.toml`'s `[env]` table.
    pub(crate) env: HashMap<String, String>,
}

/// The case with this id (`<version>/<case>`).
pub(crate) fn case(id: &str) -> Case {
    all()
        .into_iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no fixture {id}"))
}

/// Every case under `fixtures/copilot/`, sorted.
pub(crate) fn all() -> Vec<Case> {
    let cases: Vec<Case> = fixture::load_all(&fixtures_dir("copilot"))
        .expect("fixtures/copilot loads")
        .into_iter()
        .map(|f| Case {
            id: format!("{}/{}", f.version, f.case),
            argv_event: f
                .meta
                .argv
                .iter()
                .find_map(|a| a.strip_prefix("--event=").map(str::to_owned)),
            env: f.env_map(),
            native_event: f.meta.native_event.clone(),
            source: f.meta.source.clone(),
            input: f.input,
        })
        .collect();
    assert!(cases.iter().any(|c| c.env.contains_key("COPILOT_CLI_BINARY_VERSION")));
    assert!(
        cases.len() >= 60,
        "expected the full fixture set, found {}",
        cases.len()
    );
    cases
}
