//! Conformance checks 1–8 over `fixtures/opencode/` (captured 1.18.33 frames and the reference's
//! examples), tolerance included.

use agenthooks_opencode::CODEC;
use agenthooks_testkit::conformance::Suite;
use agenthooks_testkit::fixtures_dir;

#[test]
fn every_fixture_conforms() {
    let report = Suite::new(&CODEC, fixtures_dir("opencode")).min_fixtures(20).run_full();
    assert!(report.tolerance_checks > 100, "{report}");
}

/// The can't-drift agreement: every decision of every event's family, encoded by the codec,
/// then applied by the fake OpenCode (the shim and OpenCode together, written from the
/// reference), does exactly what the sent (degraded) decision asks for.
#[test]
fn the_fake_opencode_agrees_with_the_capabilities() {
    use agenthooks_testkit::agreement::{run_with_known_gaps, KnownGap};
    const V1: &str =
        "the v1 per-session reply route takes only {response}: a deny's reason is not delivered (quirk #704)";
    let gaps = [
        KnownGap::new("permission.updated", "deny", V1),
        KnownGap::new("permission.updated", "ask_user", V1),
        KnownGap::new("permission.updated", "rewrite_input.ask_user", V1),
    ];
    let report = run_with_known_gaps(&CODEC, Some(&fixtures_dir("opencode")), &gaps);
    assert!(report.cases.len() > 50, "{report}");
}

/// MCP attribution over `fixtures/opencode/mcp/` (layered `opencode.json[c]`, `{env:…}`,
/// `XDG_CONFIG_HOME`, `OPENCODE_CONFIG`, `<server>_<tool>` ambiguity, a malformed file).
#[test]
fn mcp_calls_resolve_from_opencode_json() {
    agenthooks_testkit::mcp::assert_corpus(&agenthooks_opencode::CODEC, "opencode");
}
