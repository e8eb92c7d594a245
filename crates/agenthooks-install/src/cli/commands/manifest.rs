//! `manifest`: prints the manifest (TOML) the other commands use.

use std::io::Write;

use clap::Args;

use super::super::args::ManifestArgs;
use super::super::error::{CliError, EXIT_OK};
use super::super::load::{require, Source};
use super::super::text::emit;

/// `manifest`.
#[derive(Debug, Args)]
pub struct PrintArgs {
    #[command(flatten)]
    pub(crate) manifest: ManifestArgs,
}

pub(crate) fn exec(a: &PrintArgs, src: &Source, out: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = require(&a.manifest, src)?;
    emit(out, &loaded.manifest.to_toml())?;
    Ok(EXIT_OK)
}
