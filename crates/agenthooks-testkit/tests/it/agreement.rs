//! The agreement test catches a capability entry changed without the encoder.

use agenthooks_core::Capability;
use agenthooks_testkit::agreement::{self, KnownGap};

use crate::toy::{self, TempDir};

#[test]
fn a_consistent_codec_agrees() {
    let dir = TempDir::new("agree");
    toy::write_fixtures(&dir.0);
    let report = agreement::check(&toy::GOOD, Some(&dir.0.join("claude-code")));
    assert!(report.strict_ok(), "{report}");
    assert!(report.synthetic.is_empty());
    // 4 events × constructors × modifiers (none, context, system message, stop agent, and the
    // block reason on blocking decisions): PreToolUse 7×4+1, prompt 2×4+1, stop 2×4, session 1×4.
    assert_eq!(report.cases.len(), 29 + 9 + 8 + 4, "{report}");
    let deny = report
        .cases
        .iter()
        .find(|c| c.native == "PreToolUse" && c.decision == "deny+with_context")
        .unwrap();
    assert_eq!(deny.verdict.context, ["agenthooks-testkit: context"]);
    // Without fixtures the same codec is checked on synthetic events.
    let synthetic = agreement::check(&toy::GOOD, None);
    assert!(synthetic.ok(), "{synthetic}");
    assert_eq!(synthetic.synthetic.len(), 4);
}

#[test]
fn promising_a_capability_the_encoder_lacks_fails() {
    let report = agreement::check(&toy::OVER, None);
    assert!(!report.ok());
    let failures = report.failures();
    assert!(
        failures
            .iter()
            .all(|f| f.contains("PreToolUse") && f.contains("ask_user")),
        "only the changed entry fails: {failures:#?}"
    );
    assert!(
        failures
            .iter()
            .any(|f| f.contains("the runner answered with the failure response")),
        "{failures:#?}"
    );
    assert!(
        failures.iter().any(|f| f.contains("effect: expected Asked")),
        "{failures:#?}"
    );
    let r = std::panic::catch_unwind(|| agreement::run(&toy::OVER, None));
    assert!(r.is_err(), "agreement::run panics on drift");
}

#[test]
fn withdrawing_a_capability_the_encoder_delivers_is_reported() {
    let report = agreement::check(&toy::UNDER, None);
    assert!(report.ok(), "degradation keeps every promise: {report}");
    assert!(!report.strict_ok());
    let under: Vec<_> = report.cases.iter().filter(|c| c.under_promised.is_some()).collect();
    assert!(!under.is_empty());
    assert!(under.iter().all(|c| c.native == "SessionStart"));
    assert!(under[0]
        .under_promised
        .as_deref()
        .unwrap()
        .contains(&format!("{:?}", Capability::AddContext)));
}

#[test]
fn known_gaps_excuse_and_cannot_go_stale() {
    let mut report = agreement::check(&toy::OVER, None);
    report.apply_known_gaps(&[
        KnownGap::new("PreToolUse", "ask_user", "toy cannot ask"),
        KnownGap::new("PreToolUse", "rewrite_input.ask_user", "toy cannot ask"),
    ]);
    assert!(report.ok(), "{report}");
    assert!(report.excused().count() >= 4);
    assert!(report.to_string().contains("~ known gap PreToolUse [ask_user]"));
    let mut report = agreement::check(&toy::GOOD, None);
    report.apply_known_gaps(&[KnownGap::new("Stop", "finish", "nothing to excuse")]);
    assert!(!report.ok());
    assert!(report.errors[0].contains("no longer fails"), "{:?}", report.errors);
}
