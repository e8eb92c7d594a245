//! Integration tests for the Gemini CLI codec.

mod native_fixtures;
