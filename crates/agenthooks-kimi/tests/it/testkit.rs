//! The shared testkit: conformance over `fixtures/kimi/` and the can't-drift agreement test.

use agenthooks_kimi::CODEC;
use agenthooks_testkit::{agreement, conformance::Suite, fake, fixtures_dir};

use crate::kimi_agent::KimiRules;

#[test]
fn conformance() {
    let report = Suite::new(&CODEC, fixtures_dir("kimi")).min_fixtures(40).run_full();
    assert!(report.responses > report.fixtures, "{report}");
    // Every fixture has droppable fields (at least the base fields).
    assert!(report.tolerance_checks >= 4 * report.fixtures, "{report}");
}

/// The one documented loss (⚠ in the crate docs): context attached to a blocked prompt is not
/// delivered, because Kimi does not call the model for a blocked prompt.
fn documented_loss(c: &agreement::Case, difference: &str) -> bool {
    c.native == "UserPromptSubmit"
        && c.decision.starts_with("block_prompt+with_context")
        && difference.starts_with("context:")
}

fn assert_agrees(report: &agreement::Report) {
    assert!(report.errors.is_empty(), "{}", report.errors.join("\n"));
    assert!(report.cases.len() > 40, "{report}");
    assert!(
        report.synthetic.is_empty(),
        "events without a fixture: {:?}",
        report.synthetic
    );
    let mut unexpected = Vec::new();
    let mut documented = 0;
    for c in &report.cases {
        for d in &c.differences {
            if documented_loss(c, d) {
                documented += 1;
            } else {
                unexpected.push(format!(
                    "{} [{}]: {d}\n    response: exit {} stdout {:?} stderr {:?}",
                    c.native,
                    c.decision,
                    c.response.exit_code,
                    c.response.stdout_str(),
                    c.response.stderr_str()
                ));
            }
        }
    }
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
    assert!(
        documented <= 1,
        "the documented loss should show at most once, got {documented}"
    );
}

#[test]
fn agreement_with_kimis_rules() {
    let dir = fixtures_dir("kimi");
    assert_agrees(&agreement::check_with(&CODEC, &KimiRules, Some(&dir)));
}

/// The testkit's own Kimi fake agent (an independent reading of Kimi's rules).
#[test]
fn agreement_with_the_testkit_fake_agent() {
    let agent = fake::agent("kimi").expect("the testkit has a Kimi fake agent");
    assert_eq!(
        agent.events().len(),
        20,
        "the testkit's Kimi agent knows every Kimi event"
    );
    let dir = fixtures_dir("kimi");
    assert_agrees(&agreement::check(&CODEC, Some(&dir)));
}

/// MCP attribution over `fixtures/kimi/mcp/` (three files, `KIMI_CODE_HOME`, sanitized names,
/// a malformed file).
#[test]
fn mcp_calls_resolve_from_the_mcp_files() {
    agenthooks_testkit::mcp::assert_corpus(&agenthooks_kimi::CODEC, "kimi");
}
