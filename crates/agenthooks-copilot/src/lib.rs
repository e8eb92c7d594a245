//! GitHub Copilot CLI codec for agenthooks.
//!
//! Copilot CLI runs one process per hook with a JSON payload on stdin and reads optional JSON on
//! stdout. Its payloads come in two dialects, picked by the spelling of the event key in the
//! hook config: camelCase keys (`preToolUse`, what agenthooks renders) give camelCase fields,
//! millisecond timestamps and **no event name in the payload**; PascalCase keys (`PreToolUse`,
//! VS Code compatible) give snake_case fields, `hook_event_name` and ISO timestamps.
//!
//! - [`native`]: typed structs for every event in both dialects, with unknown keys kept.
//! - [`identify`]: the event from the argv hint, else reconstructed from the payload's keys.
//! - [`args`]: `toolArgs` arrives as a JSON string or an object; normalized, raw form kept.
//! - [`tools`]: Copilot tool names and their canonical classes.

pub mod args;
pub mod identify;
pub mod native;
pub mod tools;

/// The provider wire string.
pub const PROVIDER: &str = "copilot";
