//! One module per command, each with its arguments and its `exec` (cargo's `commands/`), and
//! [`run`], which dispatches.

use std::io::Write;

use clap::Subcommand;

use super::args::ChangeArgs;
use super::error::CliError;
use super::load::Source;
use doctor::DoctorArgs;
use manifest::PrintArgs;
use preflight::PreflightArgs;

pub(crate) mod diff;
pub(crate) mod doctor;
pub(crate) mod install;
pub(crate) mod manifest;
pub(crate) mod preflight;
pub(crate) mod render;
pub(crate) mod uninstall;

/// The install subcommands.
#[derive(Debug, Subcommand)]
#[non_exhaustive]
pub enum InstallCommand {
    /// Install hooks into an agent's config files (merging; foreign content is kept).
    Install(ChangeArgs),
    /// Remove exactly our hooks from an agent's config files.
    Uninstall(ChangeArgs),
    /// Print the unified diff `install` would apply.
    Diff(ChangeArgs),
    /// Print the files a fresh install writes, without writing anything.
    Render(ChangeArgs),
    /// Report the health of our hooks for every agent this release knows.
    Doctor(DoctorArgs),
    /// Report what each agent will drop or degrade of a manifest.
    Preflight(PreflightArgs),
    /// Print the manifest (TOML) the other commands use.
    Manifest(PrintArgs),
}

impl InstallCommand {
    /// The subcommand words, for callers that route argv (`install`, `uninstall`, …).
    pub const NAMES: [&'static str; 7] = [
        "install",
        "uninstall",
        "diff",
        "render",
        "doctor",
        "preflight",
        "manifest",
    ];
}

/// Runs one install subcommand. Findings and warnings go to `err`, results to `out`.
///
/// # Errors
///
/// A usage error ([`EXIT_USAGE`](super::EXIT_USAGE)) or a failed operation
/// ([`EXIT_FAILED`](super::EXIT_FAILED)); the caller prints
/// the message.
pub fn run(cmd: &InstallCommand, src: &Source, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    match cmd {
        InstallCommand::Install(a) => install::exec(a, src, out, err),
        InstallCommand::Uninstall(a) => uninstall::exec(a, src, out, err),
        InstallCommand::Diff(a) => diff::exec(a, src, out, err),
        InstallCommand::Render(a) => render::exec(a, src, out, err),
        InstallCommand::Doctor(a) => doctor::exec(a, src, out),
        InstallCommand::Preflight(a) => preflight::exec(a, src, out),
        InstallCommand::Manifest(a) => manifest::exec(a, src, out),
    }
}
