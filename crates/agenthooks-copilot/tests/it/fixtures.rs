//! The Copilot fixture corpus, through the testkit's loader.

use std::collections::HashMap;

use agenthooks_copilot::CODEC;
use agenthooks_core::{Codec, Event, Invocation};
use agenthooks_testkit::{Corpus, Fixture};

/// Every case under `fixtures/copilot/`, loaded once.
pub(crate) static CORPUS: Corpus = Corpus::new(&CODEC);

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
    decoded.unwrap_or_else(|e| panic!("{}: {e}", f.short_id()))
}

/// MCP attribution over `fixtures/copilot/mcp/` (user and workspace files, `COPILOT_HOME`,
/// `disabledMcpServers`, both MCP name forms, a malformed file).
#[test]
fn mcp_calls_resolve_from_the_mcp_config_files() {
    agenthooks_testkit::mcp::assert_corpus(&agenthooks_copilot::CODEC, "copilot");
}
