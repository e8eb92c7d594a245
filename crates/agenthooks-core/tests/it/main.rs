#![allow(
    clippy::type_complexity,
    clippy::items_after_statements,
    clippy::trivially_copy_pass_by_ref,
    clippy::if_not_else
)]
//! Integration tests of the core: router semantics (stacking, combinators against a model fold,
//! interceptors, observers, walk), `degrade` against a table, and the provided failure answer.

mod degrade_table;
mod failure;
mod router;
