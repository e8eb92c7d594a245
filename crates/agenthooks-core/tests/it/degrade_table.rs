//! `degrade()` over every decision shape × every capability subset, against a table.

use agenthooks_core::decision::*;
use agenthooks_core::{degrade, AskFallback, CapSet, Capability as C, Outcome, Policy, UnsupportedMode};
use proptest::prelude::*;
use serde_json::{json, Map};

fn input() -> Map<String, serde_json::Value> {
    let mut m = Map::new();
    m.insert("command".into(), json!("ls"));
    m
}

/// Shapes: (name, outcome).
fn shapes() -> Vec<(&'static str, Outcome)> {
    vec![
        ("no_decision", no_decision().into()),
        ("allow", allow().into()),
        ("deny", deny("d").into()),
        ("ask", ask_user("a").into()),
        ("rewrite_allow", rewrite_input(input()).allow().into()),
        ("rewrite_ask", rewrite_input(input()).ask_user("a").into()),
        ("rewrite_none", rewrite_input(input()).no_decision().into()),
        (
            "deny_ctx_msg_stop",
            deny("d")
                .with_context("c")
                .with_system_message("m")
                .stop_agent("s")
                .into(),
        ),
        ("block_prompt", block_prompt("b").into()),
        ("accept_ctx", accept_prompt().with_context("c").into()),
        ("continue", continue_with("go").into()),
        ("finish_ctx", finish().with_context("c").into()),
        ("flag", flag_output("f").into()),
        ("replace", replace_output("r").into()),
        ("observed_ctx", observed().with_context("c").into()),
    ]
}

/// The table: what each intent needs and what it becomes without it.
fn expected(name: &str, o: &Outcome, caps: CapSet, p: &Policy) -> (DecisionKind, bool, Vec<String>, bool, bool) {
    let has = |c| caps.contains(c);
    let mut kind = o.kind();
    let mut input = o.updated_input().is_some();
    let mut ctx: Vec<String> = o.context().to_vec();
    let _ = name;
    // intent row
    match kind {
        DecisionKind::Deny | DecisionKind::BlockPrompt if !has(C::Deny) => {
            kind = DecisionKind::NoDecision;
            input = false;
        }
        DecisionKind::Ask if !has(C::Ask) => {
            if p.ask_fallback == AskFallback::Deny && has(C::Deny) {
                kind = DecisionKind::Deny;
                input = false;
            } else {
                kind = DecisionKind::NoDecision;
            }
        }
        DecisionKind::Allow if !has(C::Allow) => kind = DecisionKind::NoDecision,
        DecisionKind::Continue if !has(C::ContinueAgent) => kind = DecisionKind::NoDecision,
        DecisionKind::ReplaceOutput if !has(C::ReplaceOutput) => {
            kind = if has(C::FlagOutput) {
                DecisionKind::FlagOutput
            } else {
                DecisionKind::NoDecision
            };
        }
        _ => {}
    }
    if kind == DecisionKind::FlagOutput && !has(C::FlagOutput) {
        if has(C::AddContext) {
            ctx.push(o.reason().unwrap_or_default().to_owned());
        }
        kind = DecisionKind::NoDecision;
    }
    // modifier rows
    if input && kind == DecisionKind::NoDecision && !has(C::NeutralRewrite) {
        input = false;
    }
    if input && !has(C::UpdateInput) {
        input = false;
        if kind == DecisionKind::Allow {
            kind = DecisionKind::NoDecision;
        }
    }
    if !has(C::AddContext) {
        ctx.clear();
    }
    let msg = o.system_message().is_some() && has(C::SystemMessage);
    let stop = o.stop_reason().is_some() && has(C::StopAgent);
    (kind, input, ctx, msg, stop)
}

#[test]
fn exhaustive_over_every_subset() {
    let p = Policy::default();
    let mut checked = 0;
    for bits in 0..=CapSet::ALL.bits() {
        let bits: u16 = bits;
        let caps = CapSet::from_bits(bits);
        for (name, o) in shapes() {
            let d = degrade(o.clone(), caps, &p).unwrap();
            let got = (
                d.outcome.kind(),
                d.outcome.updated_input().is_some(),
                d.outcome.context().to_vec(),
                d.outcome.system_message().is_some(),
                d.outcome.stop_reason().is_some(),
            );
            assert_eq!(got, expected(name, &o, caps, &p), "shape {name} caps {caps:?}");
            // never silently lost: a change implies a degradation entry
            if d.outcome != o {
                assert!(!d.degradations.is_empty(), "{name} {caps:?} changed without a record");
            } else {
                assert!(d.degradations.is_empty());
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 2048 * shapes().len());
}

proptest! {
    #[test]
    fn policy_variants_agree(bits in 0u16..2048, idx in 0usize..15, ask_deny in any::<bool>(), strict in any::<bool>()) {
        let caps = CapSet::from_bits(bits);
        let (name, o) = shapes().swap_remove(idx);
        let p = Policy::default()
            .with_ask_fallback(if ask_deny { AskFallback::Deny } else { AskFallback::NoDecision })
            .with_unsupported(if strict { UnsupportedMode::Strict } else { UnsupportedMode::Degrade });
        let lenient = degrade(o.clone(), caps, &p.with_unsupported(UnsupportedMode::Degrade));
        let lenient = lenient.unwrap();
        match degrade(o.clone(), caps, &p) {
            Ok(d) => {
                let got = (d.outcome.kind(), d.outcome.updated_input().is_some(), d.outcome.context().to_vec(), d.outcome.system_message().is_some(), d.outcome.stop_reason().is_some());
                prop_assert_eq!(got, expected(name, &o, caps, &p));
                if strict { prop_assert!(d.degradations.is_empty()); }
            }
            Err(e) => {
                prop_assert!(strict);
                prop_assert!(!lenient.degradations.is_empty());
                prop_assert_eq!(e.capability, lenient.degradations[0].capability);
            }
        }
    }
}
