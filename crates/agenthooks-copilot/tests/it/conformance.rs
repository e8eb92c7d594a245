//! The shared conformance suite and agreement test of `agenthooks-testkit`.

use agenthooks_copilot::CODEC;
use agenthooks_testkit::{agreement, conformance, fixtures_dir};

/// Every fixture: decode, raw bytes, native event and kind, neutral → no-op, normalized event
/// (`event.json`), the wire response of every decision shape through the runner
/// (`responses/*.json`), an injected unknown key landing in the native view's `extra`, and the
/// drop/retype tolerance property. `AGENTHOOKS_BLESS=1` rewrites the expected files.
#[test]
fn conformance_suite() {
    let _ = conformance::Suite::new(&CODEC, fixtures_dir("copilot"))
        .min_fixtures(60)
        .run_full()
        .at_least(201, 501);
}

/// Capabilities, encoder and the fake Copilot agent agree on every event × decision, and the
/// failure responses are honest (fail-closed denies `preToolUse` / `permissionRequest`).
#[test]
fn agreement_with_the_fake_agent() {
    let dir = fixtures_dir("copilot");
    agreement::check(&CODEC, Some(&dir)).assert_agrees(101);
}
