//! Integration tests for the Cursor codec (one binary; see the modules).

mod backfill;
mod dedup;
mod encode;
mod fixtures;
mod quirks;
mod support;
mod testkit;
