//! The Copilot fixture corpus, through the testkit's loader.

use std::collections::HashMap;

use agenthooks_copilot::CODEC;
use agenthooks_core::{Codec, Event, Invocation};
use agenthooks_testkit::fixture::{load_all, Fixture};
use agenthooks_testkit::fixtures_dir;

/// `<version>/<case>`, for lookups and messages.
pub(crate) fn name(f: &Fixture) -> String {
    format!("{}/{}", f.version, f.case)
}

/// Every case under `fixtures/copilot/`.
pub(crate) fn all() -> Vec<Fixture> {
    load_all(&fixtures_dir("copilot")).expect("fixtures/copilot loads")
}

/// The case `<version>/<case>`.
pub(crate) fn case(id: &str) -> Fixture {
    all()
        .into_iter()
        .find(|f| name(f) == id)
        .unwrap_or_else(|| panic!("no fixture {id}"))
}

/// The `--event=` value of the case's argv.
pub(crate) fn argv_event(f: &Fixture) -> Option<&str> {
    f.meta.argv.iter().find_map(|a| a.strip_prefix("--event="))
}

/// Decodes a case as the runner would (`argv`), or with no event hint at all.
pub(crate) fn decode(f: &Fixture, argv: bool) -> Event {
    let decoded = if argv {
        f.decode(&CODEC)
    } else {
        let env: HashMap<String, String> = f.env_map();
        CODEC.decode(&Invocation::new(f.input.clone(), &env))
    };
    decoded.unwrap_or_else(|e| panic!("{}: {e}", name(f)))
}
