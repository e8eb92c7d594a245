//! Integration tests for the OpenClaw codec (one test binary).

mod bridge;
mod encode;
mod lenient;
mod plugin;
mod testkit;

use agenthooks_openclaw::CODEC;
use agenthooks_testkit::Corpus;

/// Every case under `fixtures/openclaw/`, loaded once.
pub(crate) static CORPUS: Corpus = Corpus::new(&CODEC);
