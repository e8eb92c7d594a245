//! Fixture helpers over the testkit's loader (`agenthooks_testkit::fixture`).

use agenthooks_core::Event;
use agenthooks_cursor::CODEC;
use agenthooks_testkit::fixture::{self, Fixture};
use agenthooks_testkit::fixtures_dir;

/// Every case under `fixtures/cursor/`, sorted.
pub(crate) fn cases() -> Vec<Fixture> {
    fixture::load_all(&fixtures_dir("cursor")).unwrap_or_else(|e| panic!("fixtures: {e}"))
}

/// One case by `<version>/<case>`.
pub(crate) fn case(name: &str) -> Fixture {
    Fixture::load(&fixtures_dir("cursor").join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `<version>/<case>`.
pub(crate) fn name(case: &Fixture) -> String {
    format!("{}/{}", case.version, case.case)
}

/// Decodes a case the way the runner would.
pub(crate) fn decode(case: &Fixture) -> Event {
    case.decode(&CODEC).unwrap_or_else(|e| panic!("{}: {e}", case.id()))
}

/// Decodes a fixture by name.
pub(crate) fn event(name: &str) -> Event {
    decode(&case(name))
}
