//! The shared testkit: conformance over `fixtures/kimi/` and the can't-drift agreement test.

use agenthooks_core::decision::{rewrite_input, ToolPreDecision};
use agenthooks_core::{Codec, Context, HandlerError, Invocation, Router, ToolPreEvent};
use agenthooks_kimi::{native::NativeEvent, view, CODEC};
use agenthooks_testkit::{agreement, conformance::Suite, fake, fixtures_dir};

use crate::kimi_agent::KimiRules;

#[test]
fn conformance() {
    let report = Suite::new(&CODEC, fixtures_dir("kimi"))
        .with_extra(|env| view(env).map(NativeEvent::extra))
        .min_fixtures(40)
        .run();
    assert!(report.fixtures >= 40, "{report}");
    assert!(report.responses > report.fixtures, "{report}");
    assert_eq!(report.extra_checks, report.fixtures, "{report}");
}

/// The one documented loss (⚠ in the crate docs): context attached to a blocked prompt is not
/// delivered, because Kimi does not call the model for a blocked prompt.
fn documented_loss(c: &agreement::Case, difference: &str) -> bool {
    c.native == "UserPromptSubmit"
        && c.decision.starts_with("block_prompt+with_context")
        && difference.starts_with("context:")
}

/// A core router issue, not this codec's: a neutral decision carrying a rewrite
/// (`rewrite_input(..).no_decision()`) loses its rewrite when the router merges neutral stages,
/// before degradation can report it. Excused only while the router still does that.
fn router_drops_neutral_rewrites() -> bool {
    let mut input = serde_json::Map::new();
    input.insert("command".into(), "ls".into());
    let handler = move |_cx: &Context, _e: &ToolPreEvent| -> Result<ToolPreDecision, HandlerError> {
        Ok(rewrite_input(input.clone()).no_decision())
    };
    let ev = crate::fixtures::case("pre_tool_use-allow");
    let env = std::collections::HashMap::<String, String>::new();
    let inv = Invocation::new(ev.input, &env);
    let Ok(event) = CODEC.decode(&inv) else {
        return false;
    };
    Router::new()
        .on_tool_pre(handler)
        .decide(event)
        .is_ok_and(|o| o.updated_input().is_none())
}

fn core_issue(c: &agreement::Case, difference: &str, excused: bool) -> bool {
    excused
        && c.decision.starts_with("rewrite_input.no_decision")
        && (difference.starts_with("lost silently: the decision needed `update-input`")
            || difference.starts_with("the decision changed without a degradation"))
}

fn assert_agrees(report: &agreement::Report) {
    let excused = router_drops_neutral_rewrites();
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
            } else if !core_issue(c, d, excused) {
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

/// The testkit's own Kimi fake agent, once it knows Kimi's events (it is a stub until then).
#[test]
fn agreement_with_the_testkit_fake_agent() {
    let Some(agent) = fake::agent("kimi") else {
        return;
    };
    if agent.events().len() < 20 {
        return; // still the placeholder; `agreement_with_kimis_rules` covers the codec meanwhile
    }
    let dir = fixtures_dir("kimi");
    assert_agrees(&agreement::check(&CODEC, Some(&dir)));
}
