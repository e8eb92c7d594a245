//! The qwen-code fixture corpus, through the testkit (`agenthooks_testkit::Corpus`).

use agenthooks_qwen::CODEC;
use agenthooks_testkit::Corpus;

/// Every case under `fixtures/qwen-code/`, loaded once.
pub(crate) static CORPUS: Corpus = Corpus::new(&CODEC);
