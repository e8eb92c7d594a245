//! Integration tests for the Gemini CLI codec.

mod codec_fixtures;
mod encode;
mod fixtures;
mod native_fixtures;
mod props;
mod quirks;
mod stdout;
mod testkit;
