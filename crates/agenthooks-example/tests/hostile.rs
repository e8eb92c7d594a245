//! The secret guard against what the agents' encoders can emit (issue: a guard the guarded model
//! cannot switch off): on every stdin agent, every gating fixture gets a planted credential, and
//! then each hostile value of the testkit's property (lone surrogates, a reversed pair, a
//! surrogate inside the command, `\u0000`, huge numbers, 200- and 3000-deep arrays, a 300-deep
//! object) beside it, at the top level, in the tool input and in the prompt. The guard must
//! still ask, deny or block on each, through the same pipeline a hook process runs.
#![allow(clippy::print_stderr, reason = "the counts, for `--nocapture` runs")]

use agenthooks::decision::DecisionKind;
use agenthooks::{Codec, EventKind};
use agenthooks_testkit::harness::invoke_with;
use agenthooks_testkit::{fixture, fixtures_dir, hostile};
use serde_json::Value;

fn stdin_codecs() -> Vec<&'static dyn Codec> {
    agenthooks::codecs()
        .into_iter()
        .filter(|c| !matches!(c.provider().as_str(), "opencode" | "openclaw"))
        .collect()
}

#[test]
fn the_guard_asks_or_denies_beside_every_hostile_value_on_every_stdin_agent() {
    let router = agenthooks_example::router();
    let mut checked = 0;
    let mut per_provider = Vec::new();
    let mut failures = Vec::new();
    for codec in stdin_codecs() {
        let provider = codec.provider();
        let mut n = 0;
        for fx in fixture::load_all(&fixtures_dir(provider.as_str())).unwrap() {
            let Ok(original) = fx.decode(codec) else { continue };
            if !matches!(
                original.kind(),
                EventKind::ToolPre | EventKind::Permission | EventKind::PromptSubmitted
            ) {
                continue;
            }
            let Ok(mut v) = serde_json::from_slice::<Value>(&fx.input) else {
                continue;
            };
            if !agenthooks_example::demo::plant(&mut v) {
                continue;
            }
            let mut planted = fx.clone();
            planted.input = serde_json::to_vec(&v).unwrap();
            let Ok(event) = planted.decode(codec) else {
                failures.push(format!("{}: the planted payload does not decode", fx.id()));
                continue;
            };
            let guarded = |bytes: &[u8]| {
                let got = planted.with_invocation(bytes, |inv| invoke_with(&router, codec, inv));
                let decided = got.decided.as_ref().map(agenthooks::Outcome::kind);
                let ok = matches!(
                    decided,
                    Some(DecisionKind::Ask | DecisionKind::Deny | DecisionKind::BlockPrompt)
                );
                (ok, decided, got)
            };
            // Only where the guard sees the planted key as is (the demo plants into the first
            // command-like string, which for an MCP call may be the server's command, not the
            // tool input the guard scans).
            if !guarded(&planted.input).0 {
                continue;
            }
            for case in hostile::cases(&planted, &event) {
                n += 1;
                let (ok, decided, got) = guarded(&case.bytes);
                if !ok {
                    failures.push(format!(
                        "{}: {} at {}: the guard decided {decided:?} (failure: {:?})",
                        fx.id(),
                        case.stress.name,
                        case.place.as_str(),
                        got.failure.as_ref().map(ToString::to_string)
                    ));
                }
            }
        }
        per_provider.push(format!("{provider}: {n}"));
        assert!(n > 0, "no hostile cases for {provider}");
        checked += n;
    }
    eprintln!(
        "{checked} planted payloads with a hostile value ({})",
        per_provider.join(", ")
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every value at every place the events have (at least the top level and one more).
    assert!(checked >= 6 * 2 * hostile::values().len(), "{checked}");
}
