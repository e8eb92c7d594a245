//! Integration tests of the Copilot codec, driven by `fixtures/copilot/`.

mod conformance;
mod decode;
mod encode;
mod fixtures;
mod native;
mod props;
mod runner;
mod shape;
