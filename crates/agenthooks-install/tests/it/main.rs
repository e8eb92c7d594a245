//! Integration tests for agenthooks-install.

mod common;
mod golden;
mod trust;
mod exec;
mod props;
