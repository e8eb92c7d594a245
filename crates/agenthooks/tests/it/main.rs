//! The runner over the real codecs: answers every stdin dialect can read, whoever invokes it.
//!
//! The answers are read back by the testkit's fake agents, which are written from each agent's
//! documented behaviour, not from our encoders.

/// Items that need every stdin agent's codec (the default build; CI runs the tests with it): the
/// one list of those features.
macro_rules! with_stdin_codecs {
    ($($item:item)*) => {$(
        #[cfg(all(
            feature = "claude",
            feature = "codex",
            feature = "cursor",
            feature = "gemini",
            feature = "copilot",
            feature = "kimi"
        ))]
        $item
    )*};
}

with_stdin_codecs! {
    // Every stdin agent's codec answers.
    mod dialects;
    // The transcript readers over the captured corpus, in each agent's own format.
    mod transcript;
}
mod surface;
#[cfg(feature = "warm")]
mod warm;
