//! Integration tests of the `agenthooks` command and the agreement of every compiled-in codec.

mod agreement;
mod cli;
mod install;
