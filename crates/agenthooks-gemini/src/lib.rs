//! Gemini CLI codec for agenthooks.
//!
//! Gemini CLI's hook contract is Claude-shaped with renamed events (`BeforeTool` for
//! `PreToolUse`, `AfterAgent` for `Stop`, …), Gemini's own `timestamp` on every payload, a
//! **top-level `decision`** on output, and model-level hooks no other agent has
//! (`BeforeModel`, `AfterModel`, `BeforeToolSelection`).
//!
//! This crate currently provides the native layer:
//!
//! - [`native`]: one typed struct per native event with unknown-field capture, the
//!   [`NativeEvent`](native::NativeEvent) enum and its [`decode`](native::decode) function, and the
//!   [`EVENTS`](native::EVENTS) table of native names with their unified kinds;
//! - [`mcp`]: parsing of Gemini's `mcp_<server>_<tool>` names, with the ambiguity documented;
//! - [`tools`]: Gemini's built-in tool names and their canonical classes.
//!
//! The `Codec` implementation lands once `agenthooks-core` exposes the contract.

pub mod mcp;
pub mod native;
pub mod tools;

/// The provider wire string (`--provider=gemini`).
pub const PROVIDER: &str = "gemini";
