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
        ("ask_msg", ask_user("a").with_system_message("m").into()),
        ("ask_blank", ask_user(" ").into()),
        ("rewrite_allow", rewrite_input(input()).allow().into()),
        ("rewrite_ask", rewrite_input(input()).ask_user("a").into()),
        ("rewrite_none", rewrite_input(input()).no_decision().into()),
        (
            "deny_ctx_msg_stop",
            deny("d")
                .with_context("c")
                .with_system_message("m")
                .with_stop_agent("s")
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

/// What is compared: kind, whether a rewrite is kept, context, system message, stop-agent.
type Got = (DecisionKind, bool, Vec<String>, Option<String>, bool);

fn got(o: &Outcome) -> Got {
    (
        o.kind(),
        o.updated_input().is_some(),
        o.context().to_vec(),
        o.system_message().map(str::to_owned),
        o.stop_reason().is_some(),
    )
}

/// The table: what each intent needs and what it becomes without it.
fn expected(name: &str, o: &Outcome, caps: CapSet, p: &Policy) -> Got {
    let has = |c| caps.contains(c);
    let mut kind = o.kind();
    let mut input = o.updated_input().is_some();
    let mut ctx: Vec<String> = o.context().to_vec();
    let mut msg = o.system_message().map(str::to_owned);
    let _ = name;
    // intent row
    match kind {
        DecisionKind::Deny | DecisionKind::BlockPrompt if !has(C::Deny) => {
            kind = DecisionKind::NoDecision;
            input = false;
        }
        // A permission request: the agent's own dialog asks; the reason goes to the user.
        DecisionKind::Ask if !has(C::Ask) && has(C::PermissionDialog) => {
            kind = DecisionKind::NoDecision;
            let reason = o.reason().unwrap_or_default();
            if msg.is_none() && !reason.trim().is_empty() {
                msg = Some(reason.to_owned());
            }
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
    if !has(C::SystemMessage) {
        msg = None;
    }
    let stop = o.stop_reason().is_some() && has(C::StopAgent);
    (kind, input, ctx, msg, stop)
}

/// The one change `degrade` records without it being a loss: an ask answered by the agent's
/// permission dialog (never an error under `Strict`).
fn is_dialog(d: &agenthooks_core::Degradation, caps: CapSet) -> bool {
    d.capability == C::Ask && d.to == DecisionKind::NoDecision && caps.contains(C::PermissionDialog)
}

/// Every subset of the capabilities.
fn subsets() -> impl Iterator<Item = CapSet> {
    (0..=CapSet::ALL.bits()).map(CapSet::from_bits)
}

#[test]
fn exhaustive_over_every_subset() {
    let p = Policy::default();
    let mut checked = 0;
    for caps in subsets() {
        for (name, o) in shapes() {
            let d = degrade(o.clone(), caps, &p).unwrap();
            assert_eq!(
                got(&d.outcome),
                expected(name, &o, caps, &p),
                "shape {name} caps {caps:?}"
            );
            // never silently lost: a change implies a degradation entry
            if d.outcome != o {
                assert!(!d.degradations.is_empty(), "{name} {caps:?} changed without a record");
            } else {
                assert!(d.degradations.is_empty());
            }
            checked += 1;
        }
    }
    assert_eq!(checked, (1 << C::ALL.len()) * shapes().len());
}

#[test]
fn ask_on_a_permission_dialog_never_denies() {
    // Whatever the policy: the agent's dialog is the ask.
    for ask_fallback in [AskFallback::Deny, AskFallback::NoDecision] {
        for unsupported in [UnsupportedMode::Degrade, UnsupportedMode::Strict] {
            let p = Policy::default()
                .with_ask_fallback(ask_fallback)
                .with_unsupported(unsupported);
            for caps in subsets().filter(|c| c.contains(C::PermissionDialog) && !c.contains(C::Ask)) {
                let d = degrade(ask_user("a").into(), caps, &p).unwrap();
                assert_eq!(d.outcome.kind(), DecisionKind::NoDecision, "{caps:?} {p:?}");
                assert!(d.degradations.iter().all(|x| is_dialog(x, caps)), "{caps:?}");
            }
        }
    }
}

proptest! {
    #[test]
    fn policy_variants_agree(bits in 0u16..(1 << C::ALL.len()), idx in 0usize..shapes().len(), ask_deny in any::<bool>(), strict in any::<bool>()) {
        let caps = CapSet::from_bits(bits);
        let (name, o) = shapes().swap_remove(idx);
        let p = Policy::default()
            .with_ask_fallback(if ask_deny { AskFallback::Deny } else { AskFallback::NoDecision })
            .with_unsupported(if strict { UnsupportedMode::Strict } else { UnsupportedMode::Degrade });
        let lenient = degrade(o.clone(), caps, &p.with_unsupported(UnsupportedMode::Degrade));
        let lenient = lenient.unwrap();
        match degrade(o.clone(), caps, &p) {
            Ok(d) => {
                prop_assert_eq!(got(&d.outcome), expected(name, &o, caps, &p));
                if strict { prop_assert!(d.degradations.iter().all(|x| is_dialog(x, caps))); }
            }
            Err(e) => {
                prop_assert!(strict);
                let first_loss = lenient.degradations.iter().find(|x| !is_dialog(x, caps));
                prop_assert_eq!(Some(e.capability), first_loss.map(|x| x.capability));
            }
        }
    }
}
