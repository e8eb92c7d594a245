//! Integration tests for the Codex codec: conformance, fixtures, native structs and tolerant
//! decoding, schema agreement, encoder edge cases, properties, trust vectors.

mod codec;
mod conformance;
mod fixtures;
mod native;
mod props;
mod schema_agreement;
mod support;
mod trust_vectors;
