//! Openclaw codec for agenthooks — **not implemented yet**.
//!
//! This crate is a placeholder so that the workspace shape, the facade's `openclaw` feature and
//! dependency graphs are stable. It registers no codec (and is not in the facade's `full`
//! feature): `agenthooks::main` reports "provider `openclaw` is not implemented yet" for
//! `--provider=openclaw` until the issue that brings this codec lands. Payloads from this agent can
//! still be inspected byte for byte through the fixtures under `fixtures/openclaw/`.

/// The provider wire string this crate will serve once implemented.
pub const PROVIDER: &str = "openclaw";
