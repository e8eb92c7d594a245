//! The cursor fixture corpus, through the testkit (`agenthooks_testkit::Corpus`).

use agenthooks_cursor::CODEC;
use agenthooks_testkit::Corpus;

/// Every case under `fixtures/cursor/`, loaded once.
pub(crate) static CORPUS: Corpus = Corpus::new(&CODEC);
