//! Integration tests for the OpenClaw codec (one test binary).

mod bridge;
mod encode;
mod openclaw_agent;
mod shim;
mod testkit;

use std::sync::OnceLock;

use agenthooks_testkit::{fixture, fixtures_dir, Fixture};

/// Every case under `fixtures/openclaw/`, loaded once.
pub(crate) fn fixtures() -> &'static [Fixture] {
    static ALL: OnceLock<Vec<Fixture>> = OnceLock::new();
    ALL.get_or_init(|| fixture::load_all(&fixtures_dir("openclaw")).unwrap_or_else(|e| panic!("{e}")))
}

/// The case whose directory is `name` or ends with it (`docs/agent_end`).
pub(crate) fn case(name: &str) -> &'static Fixture {
    let suffix = format!("/{name}");
    fixtures()
        .iter()
        .find(|f| f.case == name || f.id().ends_with(&suffix))
        .unwrap_or_else(|| panic!("no fixture {name}"))
}
