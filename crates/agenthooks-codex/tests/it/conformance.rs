//! The testkit's conformance suite (checks 1–8, tolerance included) and agreement test over
//! `fixtures/codex`, and Codex's own acceptance of every blessed response.

use agenthooks_codex::CODEC;
use agenthooks_testkit::conformance::Suite;

use crate::support::CORPUS;

#[test]
fn conformance_suite() {
    // A failed `PostToolUse` is `tool.error` (quirk #202): its fixture says so in `meta.toml`.
    let _ = Suite::new(&CODEC, agenthooks_testkit::fixtures_dir("codex"))
        .min_fixtures(30)
        .run_full()
        .at_least(150, 400);
}

#[test]
fn blessed_responses_are_accepted_by_codex() {
    let mut checked = 0;
    for fx in CORPUS.cases() {
        let Ok(entries) = std::fs::read_dir(fx.dir.join("responses")) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let golden: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let stdout = golden["stdout"].as_str().unwrap().as_bytes().to_vec();
            let stderr = golden["stderr"].as_str().unwrap().as_bytes().to_vec();
            let exit = i32::try_from(golden["exit_code"].as_i64().unwrap()).unwrap();
            let mut r = agenthooks_core::WireResponse::exit(exit, stderr);
            r.stdout = stdout;
            crate::codec::assert_codex_accepts(&fx.meta.native_event, &r, &path.display().to_string());
            checked += 1;
        }
    }
    assert!(checked >= 150, "{checked}");
}

#[test]
fn agreement_with_the_fake_codex() {
    agenthooks_testkit::agreement::check(&CODEC, Some(&agenthooks_testkit::fixtures_dir("codex"))).assert_agrees(100);
}
