//! The claude-code fixture corpus, through the testkit (`agenthooks_testkit::Corpus`).

use agenthooks_claude::CODEC;
use agenthooks_testkit::Corpus;

/// Every case under `fixtures/claude-code/`, loaded once.
pub(crate) static CORPUS: Corpus = Corpus::new(&CODEC);
