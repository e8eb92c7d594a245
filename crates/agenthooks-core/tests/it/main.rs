//! Integration tests of the core: router semantics (stacking, combinators against a model fold,
//! interceptors, observers, walk) and `degrade` against a table.

mod degrade_table;
mod router;
