//! The `OpenAI` Codex codec for agenthooks.
//!
//! Codex (`codex-cli` 0.171.0) speaks a deliberate Claude dialect: the same event names,
//! `snake_case` stdin, `camelCase` stdout and `hookSpecificOutput`, behind a much stricter parser.
//!
//! * [`native`]: typed stdin payloads for every Codex hook event, with unknown-key capture, plus
//!   the legacy `notify` argv payload.
//! * [`output`]: typed stdout matching Codex's `*.command.output.schema.json`, with Codex's own
//!   rejection rules.
//! * [`trust`]: the `[hooks.state]` key and `trusted_hash` an installer must pre-seed.

pub mod native;
pub mod output;
pub mod trust;

/// The provider wire string this crate serves.
pub const PROVIDER: &str = "codex";
