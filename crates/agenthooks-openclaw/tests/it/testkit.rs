//! The shared testkit: conformance over `fixtures/openclaw/` and the agreement test.

use agenthooks_openclaw::CODEC;
use agenthooks_testkit::{agreement, conformance::Suite, fixtures_dir};

use agenthooks_testkit::fake::OpenClaw;

#[test]
fn conformance() {
    let report = Suite::new(&CODEC, fixtures_dir("openclaw")).min_fixtures(30).run_full();
    // Every frame has droppable fields (`seq`, `ctx`, …).
    assert!(report.tolerance_checks >= 4 * report.fixtures, "{report}");
}

#[test]
fn agreement_with_openclaws_rules() {
    let dir = fixtures_dir("openclaw");
    let report = agreement::check_with(&CODEC, &OpenClaw::default(), Some(&dir));
    assert!(report.errors.is_empty(), "{}", report.errors.join("\n"));
    assert!(report.cases.len() > 40, "{report}");
    let unexpected: Vec<String> = report
        .cases
        .iter()
        .flat_map(|c| {
            c.differences.iter().map(move |d| {
                format!(
                    "{} [{}]: {d}\n    response: exit {} stdout {:?}",
                    c.native,
                    c.decision,
                    c.response.exit_code,
                    c.response.stdout_str()
                )
            })
        })
        .collect();
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}

/// MCP attribution over `fixtures/openclaw/mcp/` (JSON5, `${VAR}`, safe server names,
/// `OPENCLAW_CONFIG_PATH`, a malformed file).
#[test]
fn mcp_calls_resolve_from_openclaw_json() {
    agenthooks_testkit::mcp::assert_corpus(&agenthooks_openclaw::CODEC, "openclaw");
}
