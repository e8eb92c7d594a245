//! The testkit's conformance suite (checks 1–8, tolerance included) and can't-drift agreement
//! test over `fixtures/gemini/`.
//!
//! Both run in full. Should an agreement failure ever come from the testkit's or the core's
//! modelling rather than this codec, it is listed in `KNOWN_AGREEMENT` with the reason; an
//! entry that stops matching fails the test, so the list cannot go stale silently.

use agenthooks_gemini::CODEC;
use agenthooks_testkit::{agreement, conformance, fixtures_dir};

/// `(needle in the failure line, why)`.
const KNOWN_AGREEMENT: &[(&str, &str)] = &[(
    "AfterTool (tool.post) [replace_output",
    "replace_output is encoded as deny + reason, and Gemini shows `Tool result blocked: <reason>` \
     (quirk #301), not the text alone: the capability promises more than the agent does. Surfaced \
     when a real tool.post capture (0.24.0) became the agreement's AfterTool case instead of \
     docs/after_tool-error; closes when the capability or the encoding says so",
)];

#[test]
fn conformance_suite() {
    // `AfterTool` with `tool_response.error` is `tool.error`: its fixture says so in `meta.toml`.
    let _ = conformance::Suite::new(&CODEC, fixtures_dir("gemini"))
        .min_fixtures(59)
        .run_full()
        .at_least(251, 501);
}

#[test]
fn agreement_with_the_fake_agent() {
    let dir = fixtures_dir("gemini");
    let report = agreement::check(&CODEC, Some(&dir));
    // Everything else agrees: the bulk of the cases.
    report.assert_agrees_except(KNOWN_AGREEMENT, 60);
}

/// MCP attribution over `fixtures/gemini/mcp/` (settings precedence, `$VAR` expansion,
/// `GEMINI_CLI_HOME`, `mcp_context` winning, underscores in server names, malformed files).
#[test]
fn mcp_calls_resolve_from_the_settings_files() {
    agenthooks_testkit::mcp::assert_corpus(&agenthooks_gemini::CODEC, "gemini");
}
