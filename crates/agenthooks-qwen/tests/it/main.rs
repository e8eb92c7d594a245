//! Integration tests for the Qwen Code codec (one binary; see the modules).

mod encode;
mod fixtures;
mod props;
mod quirks;
mod support;
mod testkit;
