//! Integration tests for the Kimi Code codec (one test binary).

mod codec;
mod detach;
mod fixtures;
mod kimi_agent;
mod testkit;
