//! The can't-drift agreement test over every codec of the registry (the CLI compiles in all).

use agenthooks_testkit::agreement::{self, KnownGap};
use agenthooks_testkit::fixtures_dir;

/// The gaps each provider crate's own agreement test accepts, with its reason.
const KNOWN_GAPS: &[(&str, KnownGap)] = &[
    (
        "gemini",
        KnownGap::new("AfterTool", "replace_output", "see the Gemini crate's KNOWN_AGREEMENT"),
    ),
    ("opencode", KnownGap::new("permission.updated", "deny", OPENCODE_V1)),
    ("opencode", KnownGap::new("permission.updated", "ask_user", OPENCODE_V1)),
    (
        "opencode",
        KnownGap::new("permission.updated", "rewrite_input.ask_user", OPENCODE_V1),
    ),
    ("qwen-code", KnownGap::new("PreToolUse", "deny+with_context", QWEN_914)),
    (
        "qwen-code",
        KnownGap::new("PreToolUse", "ask_user+with_context", QWEN_914),
    ),
    (
        "qwen-code",
        KnownGap::new("PreToolUse", "rewrite_input.ask_user+with_context", QWEN_914),
    ),
];

const QWEN_914: &str =
    "Qwen reads no additionalContext beside a PreToolUse deny or ask (quirk 914; the Qwen crate's KNOWN_AGREEMENT)";

const OPENCODE_V1: &str =
    "the v1 per-session reply route takes only {response}: a deny's reason is not delivered (quirk #704)";

/// One provider's agreement report, less its known gaps: `None` when it agrees.
fn disagreement(provider: &str) -> Option<String> {
    let codec = agenthooks_cli::codec(provider).expect("the CLI compiles in every codec");
    let dir = fixtures_dir(provider);
    let mut report = agreement::check(codec, dir.is_dir().then_some(dir.as_path()));
    if report.cases.is_empty() {
        return Some(format!("{provider}: no cases"));
    }
    let gaps: Vec<KnownGap> = KNOWN_GAPS
        .iter()
        .filter(|(p, _)| *p == provider)
        .map(|(_, g)| *g)
        .collect();
    report.apply_known_gaps(&gaps);
    (!report.ok()).then(|| report.to_string())
}

#[test]
fn every_registered_provider_agrees() {
    let failed: Vec<String> = agenthooks::PROVIDERS
        .iter()
        .inspect(|e| assert!(e.compiled_in, "{} is not compiled into the CLI", e.provider))
        .filter_map(|e| disagreement(e.provider))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
