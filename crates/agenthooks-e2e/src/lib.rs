//! agenthooks-e2e (work in progress).

#[path = "../../agenthooks-testkit/src/model/mod.rs"]
pub mod model;
pub mod hook;
