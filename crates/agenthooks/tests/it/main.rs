//! The runner over the real codecs: answers every stdin dialect can read, whoever invokes it.
//!
//! The answers are read back by the testkit's fake agents, which are written from each agent's
//! documented behaviour, not from our encoders.

// Every stdin agent's codec answers (the default build; CI runs the tests with it).
#[cfg(all(
    feature = "claude",
    feature = "codex",
    feature = "cursor",
    feature = "gemini",
    feature = "copilot",
    feature = "kimi"
))]
mod dialects;
mod surface;
// The transcript readers over the captured corpus, in each agent's own format.
#[cfg(all(
    feature = "claude",
    feature = "codex",
    feature = "cursor",
    feature = "gemini",
    feature = "copilot",
    feature = "kimi"
))]
mod transcript;
#[cfg(feature = "warm")]
mod warm;
