//! Merging our entries into configs that already exist, keeping everything else.

pub(crate) mod json;
pub(crate) mod toml;
