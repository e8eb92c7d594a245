//! The runner over the real codecs: answers every stdin dialect can read, whoever invokes it.
//!
//! The answers are read back by the testkit's fake agents, which are written from each agent's
//! documented behaviour, not from our encoders.

mod dialects;
mod surface;
#[cfg(feature = "warm")]
mod warm;
