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
    assert!(report.errors.is_empty(), "{}", report.errors.join("\n"));
    assert!(
        report.synthetic.is_empty(),
        "events without a fixture: {:?}",
        report.synthetic
    );
    let differences: Vec<String> = report
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
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    assert!(report.cases.len() > 20, "{report}");
}
