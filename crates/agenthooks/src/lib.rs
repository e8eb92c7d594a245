//! # agenthooks
//!
//! Write a coding-agent hook once and run it on every agent. You write typed handlers
//! (`on_tool_pre`, `on_prompt_submitted`, `on_stop`, …) that return typed decisions (deny, ask,
//! allow, no decision, rewrite input, add context, continue); agenthooks owns the wire: each
//! agent's JSON dialect, exit codes, stderr discipline, timeouts, config files and the bugs each
//! agent ships. The raw payload is always kept byte for byte.
//!
//! ```no_run
//! use agenthooks::prelude::*;
//!
//! // One gate for `tool.pre` and `permission.request`; it returns the decision itself.
//! fn guard(_cx: &Context, gate: ToolGateEvent<'_>) -> ToolPreDecision {
//!     if gate.tool().command().is_some_and(|c| c.contains("rm -rf")) {
//!         return deny("destructive command blocked by policy");
//!     }
//!     no_decision()
//! }
//!
//! fn main() {
//!     agenthooks::main(Router::new().on_tool_gate(guard));
//! }
//! ```
//!
//! A handler that can fail returns a `Result` whose error converts into `HandlerError`
//! (see [`IntoDecision`](prelude::IntoDecision)).
//!
//! The generated agent configs call `<your binary> agenthooks run --provider=P --event=E`.
//!
//! ## Features
//!
//! | feature | what it adds | crate |
//! |---|---|---|
//! | `claude` | Claude Code codec (and its install target with `install`) | [`agenthooks-claude`](claude) |
//! | `codex` | OpenAI Codex codec (and install target) | [`agenthooks-codex`](codex) |
//! | `cursor` | Cursor codec: IDE, CLI, cloud agents (and install target) | [`agenthooks-cursor`](cursor) |
//! | `gemini` | Gemini CLI codec (and install target) | [`agenthooks-gemini`](gemini) |
//! | `copilot` | GitHub Copilot CLI codec (and install target) | [`agenthooks-copilot`](copilot) |
//! | `kimi` | Kimi Code codec (and install target) | [`agenthooks-kimi`](kimi) |
//! | `opencode` | OpenCode bridge: serve-mode codec and the generated shim plugin | [`agenthooks-opencode`](opencode) |
//! | `openclaw` | OpenClaw bridge: serve-mode codec and the generated native plugin | [`agenthooks-openclaw`](openclaw) |
//! | `qwen` | Qwen Code codec (and install target) | [`agenthooks-qwen`](qwen) |
//! | `droid` | Factory Droid codec (and install target) | [`agenthooks-droid`](droid) |
//! | `install` | config generation and installation for the enabled providers, and `<bin> agenthooks install …` on the hook binary itself ([`main()`], [`main!`]) | [`agenthooks-install`](install) |
//! | `warm` | warm mode: `<bin> agenthooks serve --http` and `install --warm` | |
//! | `full` (default) | every provider above plus `install` and `warm` | |
//!
//! The default is every agent: a guardrail shipped to a fleet must answer whichever agent a
//! machine runs, and installs into every agent it finds (`install --all`).
//! `agenthooks = { version = "0.1", default-features = false, features = ["claude", "cursor", "install"] }`
//! compiles in exactly those two codecs and their install targets, nothing of the other agents
//! (CI checks the dependency tree); an invocation for another provider gets a clear error naming
//! the feature to enable. One table, [`for_each_provider!`], generates the re-exports,
//! [`PROVIDERS`] (read by [`feature_for`] and [`provider_hint`]) and [`codecs`]; each provider
//! feature is forwarded to `agenthooks-install`, whose target list is gated by the same
//! features.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub use agenthooks_core as core;
pub use agenthooks_core::{
    all, any, decision, degrade, match_canonical, match_mcp, match_tools, prelude, quirks, when, AgentInfo,
    CanonicalTool, CapSet, Capability, Codec, Confidence, Context, DecodeError, EncodeError, Envelope, Event,
    EventKind, FailMode, HandlerError, McpCall, NativeName, Outcome, Policy, PolicySource, Provider, RawPayload,
    Router, SessionInfo, ToolCall, Variant, WireResponse,
};

/// The runtime (`agenthooks-runtime`): the hook process, `serve`, warm mode, transcript readers.
pub use agenthooks_runtime as runtime;
/// The runner's entry points ([`runtime`] has the rest).
pub use agenthooks_runtime::{main_with, Invoked, ProviderHint, RunOptions, Runner};

#[cfg(feature = "install")]
pub use agenthooks_install as install;
/// Audit export over OpenTelemetry (the `otel` feature).
#[cfg(feature = "otel")]
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
pub use agenthooks_otel as otel;

/// `tracing`, re-exported: logs from handlers go through it (to stderr or the log file the runner
/// picks per agent — never stdout).
pub use tracing;

/// The crate README's examples, compiled as doctests so they cannot rot (the workspace README's
/// are doctested in `agenthooks-example`, which is not published).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// One row of the provider registry ([`PROVIDERS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProviderEntry {
    /// The provider's wire name (`--provider=…`), one of [`Provider::KNOWN`].
    pub provider: &'static str,
    /// The facade feature that compiles its crate in (and, with `install`, its install target).
    pub feature: &'static str,
    /// The provider's crate: `agenthooks-` and the feature (`agenthooks-claude`, …).
    pub crate_name: &'static str,
    /// Whether the feature is on in this build.
    pub compiled_in: bool,
}

impl ProviderEntry {
    /// Whether this build answers the provider (its feature is on).
    pub const fn has_codec(&self) -> bool {
        self.compiled_in
    }
}

/// Calls the macro `$callback` with the provider table, one row per provider:
/// `"wire-name" => module = crate_ident, feature "feature";`.
///
/// The table is the one provider registry: the facade generates [`PROVIDERS`], [`codecs`] and
/// the crate re-exports from it, and the workspace's tests iterate it at compile time (each
/// provider crate's naming contract). Adding a provider is one row here, a feature of the same
/// name in `Cargo.toml` forwarded to `agenthooks-install`, its crate, its install target and
/// its fake agent (`CONTRIBUTING.md`).
///
/// ```
/// macro_rules! features {
///     ($( $provider:literal => $module:ident = $krate:ident, feature $feature:literal; )*) => {
///         [$($feature),*]
///     };
/// }
/// let features = agenthooks::for_each_provider!(features);
/// assert_eq!(features.len(), agenthooks::PROVIDERS.len());
/// ```
#[macro_export]
macro_rules! for_each_provider {
    ($($callback:tt)+) => {
        $($callback)+! {
            "claude-code" => claude = agenthooks_claude, feature "claude";
            "cursor" => cursor = agenthooks_cursor, feature "cursor";
            "codex" => codex = agenthooks_codex, feature "codex";
            "gemini" => gemini = agenthooks_gemini, feature "gemini";
            "copilot" => copilot = agenthooks_copilot, feature "copilot";
            "kimi" => kimi = agenthooks_kimi, feature "kimi";
            "opencode" => opencode = agenthooks_opencode, feature "opencode";
            "openclaw" => openclaw = agenthooks_openclaw, feature "openclaw";
            "qwen-code" => qwen = agenthooks_qwen, feature "qwen";
            "droid" => droid = agenthooks_droid, feature "droid";
        }
    };
}

/// Generates, from [`for_each_provider!`]'s table, each crate re-export (behind its feature),
/// [`PROVIDERS`] and [`codecs`].
macro_rules! providers {
    ($( $provider:literal => $module:ident = $krate:ident, feature $feature:literal; )*) => {
        $(
            #[cfg(feature = $feature)]
            pub use $krate as $module;
        )*

        /// Every provider this release knows, in [`Provider::KNOWN`] order, with its feature and
        /// whether this build compiles it in.
        ///
        /// ```
        /// let openclaw = agenthooks::PROVIDERS.iter().find(|e| e.provider == "openclaw").unwrap();
        /// assert_eq!(openclaw.feature, "openclaw");
        /// assert_eq!(openclaw.crate_name, "agenthooks-openclaw");
        /// ```
        pub const PROVIDERS: &[ProviderEntry] = &[$(
            ProviderEntry {
                provider: $provider,
                feature: $feature,
                crate_name: concat!("agenthooks-", $feature),
                compiled_in: cfg!(feature = $feature),
            },
        )*];

        /// The codecs compiled into this build, in [`Provider::KNOWN`] order.
        ///
        /// ```
        /// let names: Vec<String> = agenthooks::codecs().iter().map(|c| c.provider().to_string()).collect();
        /// assert!(names.iter().all(|n| agenthooks::Provider::new(n.as_str()).is_known()));
        /// ```
        pub fn codecs() -> Vec<&'static dyn Codec> {
            let compiled_in: &[&'static dyn Codec] = &[$(
                #[cfg(feature = $feature)]
                &$krate::CODEC,
            )*];
            compiled_in.to_vec()
        }
    };
}

for_each_provider!(providers);

/// The feature that compiles in a provider's crate.
///
/// ```
/// assert_eq!(agenthooks::feature_for("claude-code"), Some("claude"));
/// assert_eq!(agenthooks::feature_for("nope"), None);
/// ```
pub fn feature_for(provider: &str) -> Option<&'static str> {
    PROVIDERS.iter().find(|e| e.provider == provider).map(|e| e.feature)
}

/// What this build knows about a provider it has no codec for: a feature to enable only when
/// that feature is off and enabling it would bring a codec.
///
/// ```
/// use agenthooks::ProviderHint;
/// assert_eq!(agenthooks::provider_hint("nope"), ProviderHint::Unknown);
/// ```
pub fn provider_hint(provider: &str) -> ProviderHint {
    match PROVIDERS.iter().find(|e| e.provider == provider) {
        Some(e) if !e.compiled_in => ProviderHint::FeatureOff(e.feature),
        // unknown, or compiled in (then the runner never asks)
        _ => ProviderHint::Unknown,
    }
}

/// A runner over every compiled-in codec, with the registry's hints for the others.
///
/// With the `otel` feature, the runner audits every answer when the environment asks for it
/// ([`otel::Audit::from_env`]: an OTLP endpoint in `OTEL_EXPORTER_OTLP_ENDPOINT`, or
/// `AGENTHOOKS_AUDIT=1`, and no kill switch).
pub fn runner(router: Router) -> Runner {
    let r = Runner::new(router, codecs()).with_provider_hint(provider_hint);
    #[cfg(feature = "otel")]
    if let Some(a) = agenthooks_otel::Audit::from_env() {
        return r.with_audit(std::sync::Arc::new(a));
    }
    r
}

/// The one call a hook's `main` makes. Handles `… agenthooks run|notify|serve|ping …` and exits
/// the process with the agent-correct exit code. When argv has no `agenthooks` word it returns,
/// so the binary's own CLI can run.
///
/// With the `install` feature the binary also installs itself:
/// `<bin> agenthooks install|uninstall|diff|render|doctor|preflight|manifest …` run the
/// [`install::cli`] commands with the manifest derived from this router (one hook per native
/// event of each kind it handles, its tool filters compiled to each agent's matcher, its fail
/// policy; see [`install::manifest_from_router`]) and the binary's own path as the command:
///
/// ```text
/// secret-guard agenthooks install --provider claude-code
/// secret-guard agenthooks doctor
/// ```
///
/// The installed manifest's identity version is `0.0.0` here; the [`main!`] macro captures the
/// calling package's name and version ([`main_for_package`]).
pub fn main(router: Router) {
    run_main(router, None);
}

/// [`main()`] for a binary that names its package (what [`main!`] expands to): the self-installed
/// manifest carries `version` and a description naming `package` (`install` feature; without
/// it they are unused).
pub fn main_for_package(router: Router, package: &'static str, version: &'static str) {
    run_main(router, Some((package, version)));
}

/// [`main()`] with the calling crate's `CARGO_PKG_NAME` and `CARGO_PKG_VERSION` captured at the
/// call site, so `<bin> agenthooks install` writes the binary's own version into the configs
/// that carry one (plugin manifests, OpenClaw's `package.json`):
///
/// ```no_run
/// use agenthooks::prelude::*;
/// fn main() {
///     agenthooks::main!(Router::new().on_stop(|_cx: &Context, _e: &StopEvent| finish()));
/// }
/// ```
#[macro_export]
macro_rules! main {
    ($router:expr) => {
        $crate::main_for_package($router, env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
    };
}

fn run_main(router: Router, package: Option<(&'static str, &'static str)>) {
    #[cfg(feature = "otel")]
    {
        let argv: Vec<String> = std::env::args().collect();
        let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr().lock());
        if let Some(code) = agenthooks_otel::cli(&argv, &mut out, &mut err) {
            drop((out, err));
            #[allow(clippy::exit)] // the process edge: the command's exit status
            std::process::exit(code);
        }
    }
    #[cfg(feature = "install")]
    {
        let argv: Vec<String> = std::env::args().collect();
        let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr().lock());
        let code = match package {
            Some(p) => agenthooks_install::cli::main_for_package(&router, p, &argv, &mut out, &mut err),
            None => agenthooks_install::cli::main_for_router(&router, &argv, &mut out, &mut err),
        };
        drop((out, err));
        if let Some(code) = code {
            #[allow(clippy::exit)] // the process edge: the command's exit status
            std::process::exit(code);
        }
    }
    #[cfg(not(feature = "install"))]
    let _ = package;
    agenthooks_runtime::main_with(&runner(router));
}
