//! Kimi Code codec for agenthooks (work in progress).
//!
//! This crate serves Kimi Code 2.x (`@moonshot-ai/kimi-code`). So far it holds the native layer:
//! [`native`] types every one of Kimi's 20 hook events field for field (unknown keys kept) and
//! decodes stdin payloads; [`tools`] classifies Kimi's tool names. The codec that maps these onto
//! the unified events and encodes decisions in Kimi's dialect lands with the core contract.

pub mod detach;
pub mod native;
pub mod tools;

/// The provider wire string (`--provider=kimi`).
pub const PROVIDER: &str = "kimi";
