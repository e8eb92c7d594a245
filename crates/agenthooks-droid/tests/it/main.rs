//! Integration tests for the Factory Droid codec (one test binary).

mod codec;
mod testkit;
mod transcript;
