//! Integration tests for the Gemini CLI codec, over the corpus in `fixtures/gemini/` (loaded
//! with `agenthooks_testkit::fixture`).

mod codec_direct;
mod codec_fixtures;
mod encode;
mod native_fixtures;
mod native_payloads;
mod props;
mod quirks;
mod releases;
mod stdout;
mod testkit;

use agenthooks_core::{Codec, Event};
use agenthooks_gemini::CODEC;
use agenthooks_testkit::fixture::{self, Fixture};
use agenthooks_testkit::fixtures_dir;

/// Every case, sorted by path.
pub(crate) fn cases() -> Vec<Fixture> {
    fixture::load_all(&fixtures_dir("gemini")).expect("fixtures/gemini loads")
}

/// `version/case` of a fixture (`docs/after_tool-error`).
pub(crate) fn short_id(f: &Fixture) -> String {
    format!("{}/{}", f.version, f.case)
}

/// The case named `version/case`.
pub(crate) fn case(id: &str) -> Fixture {
    cases()
        .into_iter()
        .find(|c| short_id(c) == id)
        .unwrap_or_else(|| panic!("no fixture {id}"))
}

/// Decodes a case through the codec.
pub(crate) fn decode(c: &Fixture) -> Event {
    c.decode(&CODEC as &dyn Codec)
        .unwrap_or_else(|e| panic!("{}: {e}", c.id()))
}
