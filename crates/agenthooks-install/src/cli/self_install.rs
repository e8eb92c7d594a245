//! The install subcommands of a consumer's hook binary (`<bin> agenthooks install …`): the
//! manifest derived from the binary's router, the command its own path.

use std::io::Write;
use std::path::{Path, PathBuf};

use agenthooks_core::Router;
use clap::Parser;

use super::commands::{run, InstallCommand};
use super::error::{EXIT_OK, EXIT_USAGE};
use super::load::Source;

#[derive(Debug, Parser)]
#[command(no_binary_name = true)]
struct SelfCli {
    #[command(subcommand)]
    command: InstallCommand,
}

/// The install subcommands of a hook binary: when argv holds `agenthooks` followed by one of
/// [`InstallCommand::NAMES`], runs it with the manifest derived from `router` (the command is
/// [`own_command`]'s) and returns the exit status; otherwise `None` (the runner's modes, or
/// the binary's own CLI).
///
/// ```
/// use agenthooks_core::prelude::*;
/// use agenthooks_install::cli::main_for_router;
/// let router = Router::new().on_stop(|_cx: &Context, _e: &StopEvent| finish());
/// let argv = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let code = main_for_router(&router, &argv(&["guard", "agenthooks", "manifest", "--command", "/opt/guard"]), &mut out, &mut err);
/// assert_eq!(code, Some(0));
/// assert!(String::from_utf8(out).unwrap().contains("kind = \"agent.stop\""));
/// assert_eq!(main_for_router(&router, &argv(&["guard", "agenthooks", "run"]), &mut Vec::new(), &mut Vec::new()), None);
/// ```
pub fn main_for_router(router: &Router, argv: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Option<i32> {
    self_main(router, None, argv, out, err)
}

/// [`main_for_router`] for a binary that knows its package (`package` and `version` as its
/// `Cargo.toml` says, captured at the consumer's call site with `env!("CARGO_PKG_NAME")` and
/// `env!("CARGO_PKG_VERSION")`; the facade's `agenthooks::main!` does it): the derived manifest's
/// identity carries that version (instead of `0.0.0`) and a description naming the package; the
/// identity name stays the binary's file name (it names files such as Copilot's hooks file).
///
/// ```
/// use agenthooks_core::prelude::*;
/// use agenthooks_install::cli::main_for_package;
/// let router = Router::new().on_stop(|_cx: &Context, _e: &StopEvent| finish());
/// let argv: Vec<String> = ["guard", "agenthooks", "manifest", "--command", "/opt/guard"].iter().map(|s| s.to_string()).collect();
/// let mut out = Vec::new();
/// let code = main_for_package(&router, ("guard-pkg", "2.1.0"), &argv, &mut out, &mut Vec::new());
/// assert_eq!(code, Some(0));
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("name = \"guard\"") && text.contains("version = \"2.1.0\""), "{text}");
/// assert!(text.contains("guard-pkg 2.1.0"), "{text}");
/// ```
pub fn main_for_package(
    router: &Router,
    package: (&str, &str),
    argv: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Option<i32> {
    self_main(router, Some(package), argv, out, err)
}

fn self_main(
    router: &Router,
    package: Option<(&str, &str)>,
    argv: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Option<i32> {
    let pos = argv.iter().skip(1).position(|a| a == "agenthooks")? + 1;
    let word = argv.get(pos + 1)?;
    if !InstallCommand::NAMES.contains(&word.as_str()) {
        return None;
    }
    let cli = match SelfCli::try_parse_from(&argv[pos + 1..]) {
        Ok(c) => c,
        Err(e) => {
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                err.write_all(text.as_bytes())
            } else {
                out.write_all(text.as_bytes())
            };
            return Some(if e.use_stderr() { EXIT_USAGE } else { EXIT_OK });
        }
    };
    let overridden = match &cli.command {
        InstallCommand::Install(a)
        | InstallCommand::Uninstall(a)
        | InstallCommand::Diff(a)
        | InstallCommand::Render(a) => &a.manifest,
        InstallCommand::Doctor(a) => &a.report.manifest,
        InstallCommand::Preflight(a) => &a.report.manifest,
        InstallCommand::Manifest(a) => &a.manifest,
    };
    let command = if overridden.command.is_empty() && overridden.manifest.is_none() {
        let (command, warning) = own_command(argv.first().map_or("", String::as_str));
        if let Some(w) = warning {
            let _ = writeln!(err, "warning: {w}");
        }
        command
    } else {
        vec!["agenthooks-overridden".to_owned()]
    };
    let mut manifest = crate::manifest_from_router(router, command);
    if let Some((name, version)) = package {
        manifest.identity = manifest
            .identity
            .with_version(version)
            .with_description(format!("{name} {version} (agenthooks)"));
    }
    let src = Source::Router(manifest);
    Some(match run(&cli.command, &src, out, err) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(err, "agenthooks: {}", e.message);
            e.code
        }
    })
}

/// The binary's own command: its canonical path (`argv[0]` when the executable cannot be
/// found), and a warning when it lives in a build or temporary directory (the config would
/// break when that directory is cleaned; pass `--command` to override).
pub fn own_command(argv0: &str) -> (Vec<String>, Option<String>) {
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .unwrap_or_else(|_| PathBuf::from(argv0));
    let warning = transient_dir(&exe).map(|why| {
        format!(
            "{} lives in {why}; the installed hooks break when it is rebuilt or cleaned (install a release build, or pass --command PATH)",
            exe.display()
        )
    });
    (vec![exe.to_string_lossy().into_owned()], warning)
}

/// Why a path is a poor place for an installed hook binary: a cargo build directory or the
/// temporary directory.
fn transient_dir(p: &Path) -> Option<&'static str> {
    let words: Vec<&str> = p.components().filter_map(|c| c.as_os_str().to_str()).collect();
    if words
        .windows(2)
        .any(|w| w[0] == "target" && matches!(w[1], "debug" | "release"))
    {
        return Some("a cargo build directory");
    }
    let tmp = std::fs::canonicalize(std::env::temp_dir()).unwrap_or_else(|_| std::env::temp_dir());
    (p.starts_with(&tmp) || p.starts_with("/tmp")).then_some("the temporary directory")
}
