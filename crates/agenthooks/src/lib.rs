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
//! | `claude` | Claude Code codec | [`agenthooks-claude`](claude) |
//! | `codex` | OpenAI Codex codec | `agenthooks-codex` |
//! | `cursor` | Cursor codec (placeholder until its issue lands: registers no codec) | `agenthooks-cursor` |
//! | `gemini` | Gemini CLI codec | `agenthooks-gemini` |
//! | `copilot` | GitHub Copilot CLI codec | `agenthooks-copilot` |
//! | `kimi` | Kimi Code codec | `agenthooks-kimi` |
//! | `opencode` | OpenCode bridge (placeholder: registers no codec) | `agenthooks-opencode` |
//! | `openclaw` | OpenClaw bridge (placeholder: registers no codec) | `agenthooks-openclaw` |
//! | `install` | config generation and installation | `agenthooks-install` |
//! | `full` (default) | all of the above | |
//!
//! `agenthooks = { version = "0.1", default-features = false, features = ["claude", "codex"] }`
//! compiles in only those codecs; an invocation for another provider gets a clear error naming
//! the feature to enable.

pub use agenthooks_core as core;
pub use agenthooks_core::{
    all, any, decision, degrade, match_canonical, match_mcp, match_tools, prelude, quirks, runner, when, AgentInfo,
    CanonicalTool, CapSet, Capability, Codec, Confidence, Context, DecodeError, EncodeError, Envelope, Event,
    EventKind, FailMode, HandlerError, McpCall, NativeName, Outcome, Policy, PolicySource, Provider, RawPayload,
    Router, SessionInfo, ToolCall, Variant, WireResponse,
};

#[cfg(feature = "claude")]
pub use agenthooks_claude as claude;
#[cfg(feature = "codex")]
pub use agenthooks_codex as codex;
#[cfg(feature = "copilot")]
pub use agenthooks_copilot as copilot;
#[cfg(feature = "cursor")]
pub use agenthooks_cursor as cursor;
#[cfg(feature = "gemini")]
pub use agenthooks_gemini as gemini;
#[cfg(feature = "install")]
pub use agenthooks_install as install;
#[cfg(feature = "kimi")]
pub use agenthooks_kimi as kimi;
#[cfg(feature = "openclaw")]
pub use agenthooks_openclaw as openclaw;
#[cfg(feature = "opencode")]
pub use agenthooks_opencode as opencode;

/// `tracing`, re-exported: logs from handlers go through it (to stderr or the log file the runner
/// picks per agent — never stdout).
pub use tracing;

/// The README's example, compiled as a doctest so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

use agenthooks_core::runner::Runner;

/// The codecs compiled into this build, in [`Provider::KNOWN`] order.
///
/// ```
/// let names: Vec<String> = agenthooks::codecs().iter().map(|c| c.provider().to_string()).collect();
/// assert!(names.iter().all(|n| agenthooks::Provider::new(n.as_str()).is_known()));
/// ```
#[allow(clippy::vec_init_then_push)] // each push is behind its own feature
pub fn codecs() -> Vec<&'static dyn Codec> {
    #[allow(unused_mut)]
    let mut v: Vec<&'static dyn Codec> = Vec::new();
    #[cfg(feature = "claude")]
    v.push(&agenthooks_claude::CODEC);
    #[cfg(feature = "codex")]
    v.push(&agenthooks_codex::CODEC);
    #[cfg(feature = "gemini")]
    v.push(&agenthooks_gemini::CODEC);
    #[cfg(feature = "copilot")]
    v.push(&agenthooks_copilot::CODEC);
    #[cfg(feature = "kimi")]
    v.push(&agenthooks_kimi::CODEC);
    v
}

/// The feature that compiles in a provider's codec.
pub fn feature_for(provider: &str) -> Option<&'static str> {
    Some(match provider {
        "claude-code" => "claude",
        "codex" => "codex",
        "cursor" => "cursor",
        "gemini" => "gemini",
        "copilot" => "copilot",
        "kimi" => "kimi",
        "opencode" => "opencode",
        "openclaw" => "openclaw",
        _ => return None,
    })
}

/// A runner over every compiled-in codec.
pub fn runner(router: Router) -> Runner {
    Runner::new(router, codecs())
}

/// The one call a hook's `main` makes. Handles `… agenthooks run|notify|serve|ping …` and exits
/// the process with the agent-correct exit code. When argv has no `agenthooks` word it returns,
/// so the binary's own CLI can run.
pub fn main(router: Router) {
    let argv: Vec<String> = std::env::args().collect();
    let runner = runner(router);
    if let Ok(Some(cmd)) = agenthooks_core::runner::parse_args(&argv) {
        if let Some(p) = cmd.provider.as_deref() {
            if runner.codec(p).is_none() {
                let hint = match feature_for(p) {
                    Some(f) => format!(
                        "provider `{p}` is not compiled into this binary: enable the `{f}` feature of agenthooks"
                    ),
                    None => format!("unknown provider `{p}`"),
                };
                tracing_free_stderr(&format!("agenthooks: {hint}\n"));
                #[allow(clippy::exit)]
                std::process::exit(1);
            }
        }
    }
    agenthooks_core::runner::main_with(&runner);
}

fn tracing_free_stderr(msg: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(msg.as_bytes());
}
