//! Cursor codec for agenthooks — **not implemented yet**.
//!
//! This crate is a placeholder so that the workspace shape, the facade's `cursor` feature and
//! dependency graphs are stable. It registers no codec (and is not in the facade's `full`
//! feature): `agenthooks::main` reports "provider `cursor` is not implemented yet" for
//! `--provider=cursor` until the issue that brings this codec lands. Payloads from this agent can still be inspected byte for byte through the
//! fixtures under `fixtures/cursor/`.

/// The provider wire string this crate will serve once implemented.
pub const PROVIDER: &str = "cursor";
