//! Integration tests of the Copilot codec, driven by `fixtures/copilot/`.

mod fixtures;
mod native;
mod shape;
