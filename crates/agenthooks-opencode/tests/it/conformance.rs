//! Conformance checks 1–8 over `fixtures/opencode/` (captured 1.18.33 frames and the reference's
//! examples), tolerance included.

use agenthooks_opencode::CODEC;
use agenthooks_testkit::conformance::Suite;
use agenthooks_testkit::fixtures_dir;

#[test]
fn every_fixture_conforms() {
    let report = Suite::new(&CODEC, fixtures_dir("opencode"))
        .tolerance(true)
        .min_fixtures(20)
        .run();
    assert!(report.tolerance_checks > 100, "{report}");
}
