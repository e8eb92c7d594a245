//! Every provider crate exports the same names for the same things (`docs/codec-guide.md`).

use std::path::Path;

/// The naming contract, checked per implemented provider crate.
#[test]
fn provider_crates_follow_the_naming_contract() {
    agenthooks_testkit::assert_provider_surface!(agenthooks::claude);
    agenthooks_testkit::assert_provider_surface!(agenthooks::kimi);
    agenthooks_testkit::assert_provider_surface!(agenthooks::gemini);
    agenthooks_testkit::assert_provider_surface!(agenthooks::copilot);
    agenthooks_testkit::assert_provider_surface!(agenthooks::codex);
    agenthooks_testkit::assert_provider_surface!(agenthooks::cursor);
    agenthooks_testkit::assert_provider_surface!(agenthooks::opencode);
    agenthooks_testkit::assert_provider_surface!(agenthooks::openclaw);
    agenthooks_testkit::assert_provider_surface!(agenthooks::openclaw);
}

/// No provider crate re-declares a provider string (`Provider::*` in core is the one).
#[test]
fn no_provider_string_consts() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for name in ["claude", "codex", "cursor", "gemini", "copilot", "kimi"] {
        let lib = crates.join(format!("agenthooks-{name}")).join("src").join("lib.rs");
        let text = std::fs::read_to_string(&lib).unwrap_or_default();
        assert!(
            !text.contains("pub const PROVIDER: &str"),
            "{}: declares its own PROVIDER string",
            lib.display()
        );
    }
}
