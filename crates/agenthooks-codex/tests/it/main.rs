//! Integration tests for the Codex codec: fixtures, schema agreement, trust vectors.

mod fixtures;
mod jsonschema;
mod schema_agreement;
mod support;
mod trust_vectors;
