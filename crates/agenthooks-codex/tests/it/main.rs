//! Integration tests for the Codex codec: fixtures, schema agreement, trust vectors.

mod codec;
mod conformance;
mod fixtures;
mod jsonschema;
mod props;
mod schema_agreement;
mod support;
mod trust_vectors;
