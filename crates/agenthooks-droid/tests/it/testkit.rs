//! The shared testkit: conformance over `fixtures/droid/` and the can't-drift agreement test.

use agenthooks_droid::CODEC;
use agenthooks_testkit::{agreement, conformance::Suite, fake, fixtures_dir};

#[test]
fn conformance() {
    let report = Suite::new(&CODEC, fixtures_dir("droid")).min_fixtures(13).run_full();
    assert!(report.responses > report.fixtures, "{report}");
    assert!(report.tolerance_checks >= 4 * report.fixtures, "{report}");
}

/// The fake agent (written from Droid's runner, not from the encoder) agrees with the
/// capabilities on every event and decision shape.
#[test]
fn agreement_with_the_testkit_fake_agent() {
    let agent = fake::agent("droid").expect("the testkit has a Droid fake agent");
    assert_eq!(agent.events().len(), 9, "the fake agent knows every Droid event");
    let report = agreement::check(&CODEC, Some(&fixtures_dir("droid")));
    // No errors, no synthetic event, more than 20 cases, no difference.
    report.assert_agrees(21);
}
