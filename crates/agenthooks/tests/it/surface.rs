//! Every provider crate exports the same names for the same things (`docs/codec-guide.md`), and
//! every hand-kept list of providers outside the facade agrees with its registry.

use std::path::Path;

use agenthooks::{Codec as _, Provider, PROVIDERS};

/// The naming contract, checked for every provider of the registry compiled into this build.
#[test]
fn provider_crates_follow_the_naming_contract() {
    macro_rules! surface {
        ($( $provider:literal => $module:ident = $krate:ident, feature $feature:literal; )*) => {{
            let mut checked: Vec<&str> = Vec::new();
            $(
                #[cfg(feature = $feature)]
                {
                    agenthooks_testkit::assert_provider_surface!(agenthooks::$module);
                    assert_eq!(agenthooks::$module::CODEC.provider().as_str(), $provider);
                    checked.push($provider);
                }
            )*
            checked
        }};
    }
    let checked = agenthooks::for_each_provider!(surface);
    let compiled_in: Vec<&str> = PROVIDERS.iter().filter(|e| e.compiled_in).map(|e| e.provider).collect();
    assert_eq!(checked, compiled_in);
}

/// The registry is `Provider::KNOWN`, in its order, each row once with its own feature.
#[test]
fn the_registry_is_every_known_provider() {
    let registry: Vec<&str> = PROVIDERS.iter().map(|e| e.provider).collect();
    let known: Vec<String> = Provider::KNOWN.iter().map(ToString::to_string).collect();
    assert_eq!(registry, known);
    let mut features: Vec<&str> = PROVIDERS.iter().map(|e| e.feature).collect();
    features.sort_unstable();
    features.dedup();
    assert_eq!(features.len(), PROVIDERS.len(), "two rows share a feature");
    let codecs: Vec<String> = agenthooks::codecs().iter().map(|c| c.provider().to_string()).collect();
    let compiled_in: Vec<&str> = PROVIDERS.iter().filter(|e| e.compiled_in).map(|e| e.provider).collect();
    assert_eq!(codecs, compiled_in);
}

/// In any build: a provider whose feature is off gets a hint naming the feature, and one that
/// is compiled in has a codec (the runner never asks for its hint).
#[test]
fn a_provider_left_out_is_named_by_its_feature() {
    use agenthooks::runtime::ProviderHint;
    for e in PROVIDERS {
        assert_eq!(agenthooks::feature_for(e.provider), Some(e.feature));
        let codec = agenthooks::codecs().into_iter().find(|c| c.provider() == e.provider);
        if e.compiled_in {
            assert!(codec.is_some(), "{}: compiled in without a codec", e.provider);
            assert_eq!(agenthooks::provider_hint(e.provider), ProviderHint::Unknown);
        } else {
            assert!(codec.is_none(), "{}: a codec with its feature off", e.provider);
            assert_eq!(
                agenthooks::provider_hint(e.provider),
                ProviderHint::FeatureOff(e.feature)
            );
        }
    }
    assert_eq!(agenthooks::provider_hint("some-future-agent"), ProviderHint::Unknown);
}

/// Each provider's feature is declared in the facade's `Cargo.toml`, is in `full`, and is
/// forwarded to `agenthooks-install` (its install target), and install declares it too.
#[test]
fn every_provider_feature_is_forwarded_to_install() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let facade = std::fs::read_to_string(crates.join("agenthooks/Cargo.toml")).unwrap();
    let install = std::fs::read_to_string(crates.join("agenthooks-install/Cargo.toml")).unwrap();
    let full = facade
        .lines()
        .find(|l| l.starts_with("full = "))
        .expect("a `full` feature");
    for e in PROVIDERS {
        let (f, krate) = (e.feature, e.crate_name);
        let line = format!("{f} = [\"dep:{krate}\", \"agenthooks-install?/{f}\"]");
        assert!(facade.lines().any(|l| l == line), "facade Cargo.toml lacks `{line}`");
        assert!(full.contains(&format!("\"{f}\"")), "`full` lacks `{f}`");
        let line = format!("{f} = [\"dep:{krate}\"]");
        assert!(
            install.lines().any(|l| l == line),
            "install's Cargo.toml lacks `{line}`"
        );
        assert!(crates.join(krate).join("Cargo.toml").is_file(), "no crate {krate}");
    }
}

/// The lists kept outside the facade (they cannot depend on it) name the registry's providers:
/// install's targets (with every provider compiled in) and the testkit's fake agents.
#[cfg(all(
    feature = "install",
    feature = "claude",
    feature = "codex",
    feature = "cursor",
    feature = "gemini",
    feature = "copilot",
    feature = "kimi",
    feature = "opencode",
    feature = "openclaw",
    feature = "qwen"
))]
#[test]
fn install_targets_and_fake_agents_follow_the_registry() {
    let registry: Vec<&str> = PROVIDERS.iter().map(|e| e.provider).collect();
    let targets: Vec<String> = agenthooks::install::supported_providers()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(targets, registry, "install's `targets!` list");
    let mut fakes: Vec<&str> = agenthooks_testkit::fake::agents()
        .iter()
        .map(|a| a.provider())
        .collect();
    let mut sorted = registry.clone();
    fakes.sort_unstable();
    sorted.sort_unstable();
    assert_eq!(fakes, sorted, "the testkit's fake agents");
}

/// No provider crate re-declares a provider string (`Provider::*` in core is the one).
#[test]
fn no_provider_string_consts() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for e in PROVIDERS {
        let lib = crates.join(e.crate_name).join("src").join("lib.rs");
        let text = std::fs::read_to_string(&lib).unwrap();
        assert!(
            !text.contains("pub const PROVIDER: &str"),
            "{}: declares its own PROVIDER string",
            lib.display()
        );
    }
}
