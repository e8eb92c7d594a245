//! The install subcommands as a library (feature `cli`): `install`, `uninstall`, `diff`,
//! `render`, `doctor`, `preflight` and `manifest`, shared by the `agenthooks` CLI and every
//! consumer binary built with `agenthooks::main` (facade feature `install`).
//!
//! ```text
//! <bin> agenthooks install   --provider P | --all  [--scope S] [--root DIR] [--home DIR] [--dry-run] [MANIFEST]
//! <bin> agenthooks uninstall --provider P | --all  [TARGET] [--dry-run] [MANIFEST]
//! <bin> agenthooks diff|render --provider P [TARGET] [MANIFEST]
//! <bin> agenthooks doctor    [--root DIR] [--home DIR] [--no-ping] [--json] [MANIFEST]
//! <bin> agenthooks preflight [--provider P…] [--scope S] [--json] [MANIFEST]
//! <bin> agenthooks manifest  [MANIFEST]
//! ```
//!
//! In a consumer binary ([`main_for_router`]) the manifest is **derived from the router**
//! ([`manifest_from_router`](crate::manifest_from_router)) and the command is the binary's own
//! canonical path (a warning is printed when it lives in a build or temporary directory such
//! as `target/debug`); `--command WORD…` overrides the command, `--name`, `--kind`, `--timeout`
//! and `--fail-closed` refine the derived manifest, and `--manifest FILE` replaces it. In the
//! standalone CLI ([`Source::Flags`]) one of `--manifest FILE` or `--command WORD…` is needed.
//!
//! Re-running `install` after the router changed replaces exactly our entries: hooks of kinds
//! the router no longer handles are removed, new ones added (ownership is the command prefix).
//! `doctor` says when the installed hooks differ from the binary's router and prints the diff;
//! `uninstall` removes every entry of ours, whatever version wrote it.

mod args;
mod commands;
mod error;
mod load;
mod self_install;
mod text;

pub use args::{ChangeArgs, DirArgs, ManifestArgs, ReportArgs, TargetArgs};
pub use commands::doctor::DoctorArgs;
pub use commands::manifest::PrintArgs;
pub use commands::preflight::PreflightArgs;
pub use commands::{run, InstallCommand};
pub use error::{CliError, EXIT_FAILED, EXIT_OK, EXIT_USAGE};
pub use load::Source;
pub use self_install::{main_for_package, main_for_router, own_command};

#[cfg(test)]
mod tests {
    use agenthooks_core::{Provider, Router};

    use super::main_for_router;

    /// Every subcommand's `--provider` help names every provider this build installs for (the
    /// targets registry, `targets!`); with every target compiled in, that is every provider
    /// core knows (an agent missing from the help, as OpenClaw once was, fails here).
    #[test]
    fn provider_help_names_every_registered_provider() {
        let registered = crate::supported_providers();
        #[cfg(feature = "all-providers")]
        for p in Provider::KNOWN {
            assert!(registered.contains(&p), "{p} has no install target");
        }
        let router = Router::new();
        for cmd in ["install", "uninstall", "diff", "render", "preflight"] {
            let argv: Vec<String> = ["guard", "agenthooks", cmd, "--help"].map(str::to_owned).into();
            let mut out = Vec::new();
            assert_eq!(
                main_for_router(&router, &argv, &mut out, &mut Vec::new()),
                Some(0),
                "{cmd}"
            );
            let help = String::from_utf8(out).unwrap();
            let line = help
                .lines()
                .find(|l| l.trim_start().starts_with("--provider"))
                .unwrap_or_else(|| panic!("{cmd}: no --provider line in\n{help}"));
            let listed: Vec<&str> = registered.iter().map(Provider::as_str).collect();
            assert!(line.contains(&format!("({})", listed.join(", "))), "{cmd}: {line}");
        }
    }
}
