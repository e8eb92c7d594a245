//! Integration tests for the Kimi Code codec (one test binary).

mod codec;
mod detach;
mod kimi_agent;
mod native;
mod testkit;
mod tolerance;

use std::sync::OnceLock;

use agenthooks_testkit::{fixture, fixtures_dir, Fixture};

/// Every case under `fixtures/kimi/`, loaded once.
pub(crate) fn fixtures() -> &'static [Fixture] {
    static ALL: OnceLock<Vec<Fixture>> = OnceLock::new();
    ALL.get_or_init(|| fixture::load_all(&fixtures_dir("kimi")).unwrap_or_else(|e| panic!("{e}")))
}

/// The case whose directory is `name` (`stop-allow`) or ends with it (`docs/stop`).
pub(crate) fn case(name: &str) -> &'static Fixture {
    let suffix = format!("/{name}");
    fixtures()
        .iter()
        .find(|f| f.case == name || f.id().ends_with(&suffix))
        .unwrap_or_else(|| panic!("no fixture {name}"))
}
