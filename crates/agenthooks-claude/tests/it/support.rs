//! Fixture helpers over the testkit's loader (`agenthooks_testkit::fixture`).

use agenthooks_claude::CODEC;
use agenthooks_core::Event;
use agenthooks_testkit::fixture::{self, Fixture};
use agenthooks_testkit::fixtures_dir;

/// Every case under `fixtures/claude-code/`, sorted.
pub(crate) fn cases() -> Vec<Fixture> {
    fixture::load_all(&fixtures_dir("claude-code")).unwrap_or_else(|e| panic!("fixtures: {e}"))
}

/// One case by `<version>/<case>`.
pub(crate) fn case(name: &str) -> Fixture {
    Fixture::load(&fixtures_dir("claude-code").join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `<version>/<case>`, for messages and lookups.
pub(crate) fn name(case: &Fixture) -> String {
    format!("{}/{}", case.version, case.case)
}

/// Decodes a case the way the runner would (env, `--event` hint, `--variant` when set).
pub(crate) fn decode(case: &Fixture) -> Event {
    case.decode(&CODEC).unwrap_or_else(|e| panic!("{}: {e}", case.id()))
}

/// Decodes a fixture by name with its own meta.
pub(crate) fn event(name: &str) -> Event {
    decode(&case(name))
}
