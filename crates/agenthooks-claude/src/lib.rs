//! Claude Code codec for agenthooks.
//!
//! Claude Code's hook contract is the reference dialect the other agents copy: `snake_case` JSON
//! on stdin, camelCase JSON on stdout, exit codes 0 / 2 / other. This crate holds the native
//! typed structs for every hook event of Claude Code 2.1.x ([`native`]) and the classification
//! of Claude's tools ([`tools`]).
//!
//! The `Codec` that plugs Claude into the core arrives with the core contract; until then this
//! crate decodes and classifies only.

pub mod native;
pub mod tools;

pub use native::NativeEvent;

/// The provider wire string (`--provider=claude-code`).
pub const PROVIDER: &str = "claude-code";
