//! Integration tests for the Kimi Code codec (one test binary).

mod codec;
mod detach;
mod kimi_agent;
mod native;
mod testkit;
mod tolerance;

use agenthooks_kimi::CODEC;
use agenthooks_testkit::Corpus;

/// Every case under `fixtures/kimi/`, loaded once.
pub(crate) static CORPUS: Corpus = Corpus::new(&CODEC);
