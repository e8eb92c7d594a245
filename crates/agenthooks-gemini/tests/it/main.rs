//! Integration tests for the Gemini CLI codec, over the corpus in `fixtures/gemini/` (loaded
//! with `agenthooks_testkit::fixture`).

mod codec_direct;
mod codec_fixtures;
mod encode;
mod native_fixtures;
mod native_payloads;
mod props;
mod quirks;
mod releases;
mod stdout;
mod testkit;

use agenthooks_gemini::CODEC;
use agenthooks_testkit::Corpus;

/// Every case under `fixtures/gemini/`, loaded once.
pub(crate) static CORPUS: Corpus = Corpus::new(&CODEC);
