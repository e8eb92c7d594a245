//! The can't-drift agreement test over every compiled-in codec.

use agenthooks_testkit::{agreement, fixtures_dir};

fn check(provider: &str) {
    let codec = agenthooks_cli::codec(provider).expect("compiled-in codec");
    let dir = fixtures_dir(provider);
    let report = agreement::check(codec, dir.is_dir().then_some(dir.as_path()));
    assert!(!report.cases.is_empty(), "{provider}: no cases");
    assert!(report.ok(), "{report}");
}

#[test]
fn claude_code() {
    check("claude-code");
}

#[test]
fn codex() {
    check("codex");
}

#[test]
fn gemini() {
    check("gemini");
}

#[test]
fn copilot() {
    check("copilot");
}

#[test]
fn kimi() {
    check("kimi");
}
