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

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use agenthooks_core::{CapSet, Capability, EventKind, Provider, Router, Variant};
use clap::{Args, Parser, Subcommand};
use serde_json::Value;

use crate::{
    default_uses, known_targets, supported_providers, ChangeStatus, CodexOptions, DoctorOptions, DoctorReport,
    FailurePolicy, Finding, FindingCode, HookSpec, InstallError, Manifest, OpenClawOptions, Plan, Preflight, Scope,
    Target,
};

/// Exit status: success.
pub const EXIT_OK: i32 = 0;
/// Exit status: an install operation failed, or doctor found a problem.
pub const EXIT_FAILED: i32 = 1;
/// Exit status: usage error.
pub const EXIT_USAGE: i32 = 2;

/// A failed command: its exit status and message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
#[non_exhaustive]
pub struct CliError {
    /// The exit status ([`EXIT_FAILED`] or [`EXIT_USAGE`]).
    pub code: i32,
    /// What went wrong.
    pub message: String,
}

fn fail(code: i32, message: impl Into<String>) -> CliError {
    CliError {
        code,
        message: message.into(),
    }
}

const EXIT_MISBEHAVED: i32 = EXIT_FAILED;

fn usage(m: impl Into<String>) -> CliError {
    fail(EXIT_USAGE, m)
}

fn write_json(out: &mut dyn Write, v: &Value) -> Result<(), CliError> {
    let mut s = serde_json::to_string_pretty(v).map_err(|e| fail(EXIT_MISBEHAVED, e.to_string()))?;
    s.push('\n');
    emit(out, &s)
}

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

/// Where the manifest comes from when `--manifest FILE` is not given.
#[derive(Debug, Clone)]
#[non_exhaustive]
#[allow(clippy::large_enum_variant)] // one value per CLI run, never in a collection
pub enum Source {
    /// The standalone CLI: `--command WORD…` builds one hook per kind.
    Flags,
    /// A consumer binary: the manifest derived from its router (with its own path as command).
    Router(Manifest),
}

/// Where to install: the agent, the scope and the directories.
#[derive(Debug, Clone, Args)]
pub struct TargetArgs {
    // "The agent (…)": every target compiled into this build (`targets!`).
    #[arg(long, required_unless_present = "all", conflicts_with = "all", help = providers_help("The agent"))]
    provider: Option<String>,
    /// Every agent detected on this machine (its directory exists under `--home`).
    #[arg(long)]
    all: bool,
    /// `project` (the default), `user`, or `plugin` (Claude Code; `--root` is the plugin dir).
    #[arg(long, default_value = "project")]
    scope: Scope,
    #[command(flatten)]
    dirs: DirArgs,
    /// The agent's own home (`$CODEX_HOME`, `$KIMI_CODE_HOME`, `$OPENCLAW_STATE_DIR`); default:
    /// that variable, else the agent's directory under `--home`.
    #[arg(long, value_name = "DIR")]
    agent_home: Option<PathBuf>,
    /// The agent's version, when an older release needs different keys.
    #[arg(long, value_name = "VERSION")]
    agent_version: Option<String>,
    /// Codex: declare the hooks inline in `config.toml` instead of `hooks.json`.
    #[arg(long)]
    inline_toml: bool,
    /// Codex: also mark the project trusted in `config.toml` (otherwise it is only reported).
    #[arg(long)]
    trust_project: bool,
    /// OpenClaw: the config file it reads (`$OPENCLAW_CONFIG_PATH`); default: that variable,
    /// else `openclaw.json` in the state directory.
    #[arg(long, value_name = "FILE")]
    openclaw_config: Option<PathBuf>,
}

/// The project root and the home directory.
#[derive(Debug, Clone, Args)]
pub struct DirArgs {
    /// The project root (project scope) or plugin directory (plugin scope); default: the
    /// current directory.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// The user's home directory; default: `$HOME`.
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
}

/// What to install: a manifest file, or a command with one hook per kind (standalone CLI), or
/// the router's manifest (consumer binaries).
#[derive(Debug, Args)]
pub struct ManifestArgs {
    /// A manifest file (`.toml` or `.json`).
    #[arg(long, value_name = "FILE", conflicts_with = "command")]
    manifest: Option<PathBuf>,
    /// The consumer's command (program and leading arguments). Standalone: a default manifest of
    /// one hook per event kind, blocking where a decision can change something, telemetry
    /// elsewhere. In a hook binary: overrides its own path in the router's manifest.
    /// Repeat `--command` (or write `--command=-x`) for words starting with `-`. A bare program
    /// name is looked up on `PATH` now (install refuses one it does not find), a relative path
    /// made absolute: hooks run from the project directory.
    #[arg(long, num_args = 1.., value_name = "WORD")]
    command: Vec<String>,
    /// The identity name (default: the program's file name).
    #[arg(long)]
    name: Option<String>,
    /// Only these kinds (repeatable; default: every kind, or the router's).
    #[arg(long = "kind", value_name = "KIND")]
    kinds: Vec<EventKind>,
    /// Every hook's timeout in seconds (default: each agent's).
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// A crash or timeout of the hook binary blocks, where the agent can say so.
    #[arg(long)]
    fail_closed: bool,
    /// Warm mode: http hooks to the warm loopback server where the agent has them (Claude
    /// Code), command hooks elsewhere (also the manifest's `warm = true`).
    #[arg(long)]
    warm: bool,
    /// In warm mode: Copilot CLI runs with `COPILOT_HOOK_ALLOW_LOCALHOST=1` (without it Copilot
    /// blocks http hooks to loopback), so its hooks become http hooks too (also the manifest's
    /// `copilot_allow_localhost = true`).
    #[arg(long)]
    copilot_allow_localhost: bool,
}

impl ManifestArgs {
    /// Whether any refining flag is given (the standalone CLI needs `--command` for them).
    fn refines(&self) -> bool {
        self.name.is_some() || !self.kinds.is_empty() || self.timeout.is_some() || self.fail_closed
    }
}

/// `install`, `uninstall`, `diff`, `render`.
#[derive(Debug, Args)]
pub struct ChangeArgs {
    /// `install`/`uninstall`: print what would change (a unified diff), write nothing
    /// (`render` never writes; `diff` is always a dry run).
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    target: TargetArgs,
    #[command(flatten)]
    manifest: ManifestArgs,
}

/// `doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    #[command(flatten)]
    dirs: DirArgs,
    #[command(flatten)]
    manifest: ManifestArgs,
    /// Do not run `<command> agenthooks ping`.
    #[arg(long)]
    no_ping: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// `manifest`.
#[derive(Debug, Args)]
pub struct PrintArgs {
    #[command(flatten)]
    manifest: ManifestArgs,
}

/// `preflight`.
#[derive(Debug, Args)]
pub struct PreflightArgs {
    /// Only these agents (repeatable; default: every agent this release installs for).
    #[arg(long = "provider", value_name = "P")]
    providers: Vec<String>,
    /// The scope (default: project where the agent has project hooks, else user).
    #[arg(long)]
    scope: Option<Scope>,
    #[command(flatten)]
    dirs: DirArgs,
    #[command(flatten)]
    manifest: ManifestArgs,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// A manifest and where it came from (for error messages).
struct Loaded {
    manifest: Manifest,
    /// `FILE: ` or empty.
    label: String,
}

fn out_err(e: &std::io::Error) -> CliError {
    fail(EXIT_MISBEHAVED, format!("<stdout>: {e}"))
}

fn emit(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    out.write_all(text.as_bytes()).map_err(|e| out_err(&e))
}

fn load(a: &ManifestArgs, src: &Source) -> Result<Option<Loaded>, CliError> {
    let Some(mut loaded) = load_plain(a, src)? else {
        return Ok(None);
    };
    if a.warm {
        loaded.manifest.warm = true;
    }
    if a.copilot_allow_localhost {
        loaded.manifest.copilot_allow_localhost = true;
    }
    if loaded.manifest.warm && loaded.manifest.warm_endpoint.is_none() {
        loaded.manifest.warm_endpoint = Some(warm_endpoint(&loaded.manifest, src)?);
    }
    Ok(Some(loaded))
}

/// The executable the hooks run: the manifest's command's program when it is a file (a
/// consumer binary's own canonical path, or `--command PATH`), else that program found on
/// `PATH`, else this executable. Its path keys the warm directory, as the hook binary keys it
/// from its own executable when it runs.
#[cfg(feature = "warm")]
fn hook_exe(m: &Manifest) -> Option<PathBuf> {
    let program = Path::new(m.command.first()?);
    if program.is_file() {
        return Some(program.to_path_buf());
    }
    if program.components().count() == 1 {
        let path = std::env::var_os("PATH")?;
        return std::env::split_paths(&path)
            .map(|d| d.join(program))
            .find(|p| p.is_file());
    }
    None
}

/// The warm directory of the binary the hooks run (see [`hook_exe`]).
#[cfg(feature = "warm")]
fn hook_warm_dir(m: &Manifest) -> PathBuf {
    use agenthooks_runtime::warm_state as st;
    match hook_exe(m) {
        Some(exe) => st::warm_dir_for(&agenthooks_core::ProcessEnv, &exe),
        None => st::warm_dir(&agenthooks_core::ProcessEnv),
    }
}

/// The warm endpoint: the token (created on first use, `0600`), the port install records (a
/// free one the first time) and the build id of the binary the hooks start, in that binary's
/// warm directory.
#[cfg(feature = "warm")]
fn warm_endpoint(m: &Manifest, src: &Source) -> Result<crate::WarmEndpoint, CliError> {
    use agenthooks_runtime::warm_state as st;
    let dir = hook_warm_dir(m);
    let io = |e: std::io::Error| fail(EXIT_MISBEHAVED, format!("warm directory {}: {e}", dir.display()));
    let token = st::ensure_token(&dir).map_err(io)?;
    let port = match st::configured_port(&dir) {
        Some(p) => p,
        None => {
            let p = st::free_port().map_err(io)?;
            st::write_config(&dir, p).map_err(io)?;
            p
        }
    };
    let build = match (src, m.command.first()) {
        (Source::Flags, Some(program)) if Path::new(program).is_file() => st::build_id_of(Path::new(program)),
        _ => st::build_id(),
    };
    // The hooks carry the token's bearer: it passes the hook routes, but whoever reads the
    // config cannot answer the server's challenge or stop it (both take the token itself).
    Ok(crate::WarmEndpoint::new(port, st::bearer(&token), build).with_dir(dir))
}

/// `--warm` in a build without warm mode.
#[cfg(not(feature = "warm"))]
fn warm_endpoint(_: &Manifest, _: &Source) -> Result<crate::WarmEndpoint, CliError> {
    Err(usage(
        "--warm: this binary is built without warm mode (the `warm` feature)",
    ))
}

fn load_plain(a: &ManifestArgs, src: &Source) -> Result<Option<Loaded>, CliError> {
    if let Some(path) = &a.manifest {
        if a.refines() {
            return Err(usage(
                "--name, --kind, --timeout and --fail-closed do not apply to --manifest FILE",
            ));
        }
        return load_file(path).map(Some);
    }
    let manifest = match src {
        Source::Router(m) => refine(m.clone(), a)?,
        Source::Flags if a.command.is_empty() => {
            if a.refines() {
                return Err(usage(
                    "--name, --kind, --timeout and --fail-closed need --command WORD…",
                ));
            }
            return Ok(None);
        }
        Source::Flags => from_flags(a)?,
    };
    Ok(Some(Loaded {
        manifest,
        label: String::new(),
    }))
}

fn require(a: &ManifestArgs, src: &Source) -> Result<Loaded, CliError> {
    load(a, src)?.ok_or_else(|| usage("one of --manifest FILE or --command WORD… is required"))
}

/// The router's manifest refined by the flags: `--command` replaces the command, `--name` the
/// identity name, `--kind` keeps only those kinds, `--timeout` and `--fail-closed` apply to all.
fn refine(mut m: Manifest, a: &ManifestArgs) -> Result<Manifest, CliError> {
    if !a.command.is_empty() {
        m.command.clone_from(&a.command);
        m.identity.name = crate::name_of_program(&a.command[0]);
    }
    if let Some(n) = &a.name {
        m.identity.name.clone_from(n);
    }
    if !a.kinds.is_empty() {
        m.hooks
            .retain(|h| matches!(h.on, crate::HookOn::Kind(k) if a.kinds.contains(&k)));
    }
    if let Some(t) = timeout_flag(a)? {
        m.hooks = m.hooks.into_iter().map(|h| h.with_timeout(t)).collect();
    }
    if a.fail_closed {
        m = m.with_failure(FailurePolicy::Closed);
    }
    m.validate().map_err(|e| usage(e.to_string()))?;
    Ok(m)
}

fn timeout_flag(a: &ManifestArgs) -> Result<Option<Duration>, CliError> {
    match a.timeout {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(usage(format!("--timeout {s}: expected a positive number of seconds"))),
    }
}

/// Reads a manifest file, TOML or JSON by its extension.
fn load_file(path: &Path) -> Result<Loaded, CliError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("{name}: {e}")))?;
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let parsed = match ext.as_deref() {
        Some("toml") => Manifest::from_toml(&text),
        Some("json") => Manifest::from_json(&text),
        _ => return Err(usage(format!("{name}: a manifest file must end in .toml or .json"))),
    };
    let manifest = parsed.map_err(|e| usage(format!("{name}: {e}")))?;
    Ok(Loaded {
        manifest,
        label: format!("{name}: "),
    })
}

/// The default manifest of `--command`: one hook per kind; kinds whose decisions can change
/// nothing ([`default_uses`] empty) are telemetry (non-blocking).
fn from_flags(a: &ManifestArgs) -> Result<Manifest, CliError> {
    let timeout = timeout_flag(a)?;
    let kinds: Vec<EventKind> = if a.kinds.is_empty() {
        EventKind::ALL.into_iter().filter(|k| *k != EventKind::Other).collect()
    } else {
        a.kinds.clone()
    };
    if kinds.contains(&EventKind::Other) {
        return Err(usage(
            "--kind other names no event; use a manifest file with `provider` and `native`",
        ));
    }
    let program = a.command.first().map_or("", String::as_str);
    let name = a.name.clone().unwrap_or_else(|| crate::name_of_program(program));
    let mut m = Manifest::new(a.command.iter().cloned(), name);
    if a.fail_closed {
        m = m.with_failure(FailurePolicy::Closed);
    }
    for k in kinds {
        let mut h = HookSpec::kind(k);
        if default_uses(k).is_empty() {
            h = h.non_blocking();
        }
        if let Some(t) = timeout {
            h = h.with_timeout(t);
        }
        m = m.with_hook(h);
    }
    m.validate().map_err(|e| usage(e.to_string()))?;
    Ok(m)
}

/// `--provider` help: `what` and the providers this build installs for, e.g. `The agent
/// (claude-code, cursor)`.
fn providers_help(what: &str) -> String {
    let all = supported_providers();
    let list: Vec<&str> = all.iter().map(Provider::as_str).collect();
    format!("{what} ({})", list.join(", "))
}

fn provider(name: &str) -> Result<Provider, CliError> {
    let all = supported_providers();
    all.iter().find(|p| p.as_str() == name).cloned().ok_or_else(|| {
        let list: Vec<&str> = all.iter().map(Provider::as_str).collect();
        usage(format!(
            "no install target for provider `{name}` (known: {})",
            list.join(", ")
        ))
    })
}

/// An absolute path with `.` and `..` resolved lexically (Codex trust keys embed the root).
fn absolute(cwd: &Path, p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in cwd.join(p).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `--root` (default: the current directory) and `--home` (default: `$HOME`), absolute.
fn dirs(a: &DirArgs) -> Result<(PathBuf, PathBuf), CliError> {
    let cwd = std::env::current_dir().map_err(|e| fail(EXIT_MISBEHAVED, format!("the current directory: {e}")))?;
    let abs = |p: &Path| absolute(&cwd, p);
    let root = a.root.as_deref().map_or_else(|| cwd.clone(), abs);
    let home = match &a.home {
        Some(h) => abs(h),
        None => std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(|h| abs(Path::new(&h)))
            .ok_or_else(|| usage("--home DIR is required when $HOME is not set"))?,
    };
    Ok((root, home))
}

/// The agent's own home from its environment variable, if set.
fn agent_home_env(p: &Provider) -> Option<PathBuf> {
    let var = if *p == Provider::CODEX {
        "CODEX_HOME"
    } else if *p == Provider::KIMI {
        "KIMI_CODE_HOME"
    } else if *p == Provider::OPENCLAW {
        "OPENCLAW_STATE_DIR"
    } else {
        return None;
    };
    std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from)
}

fn with_env_home(t: Target) -> Target {
    match agent_home_env(&t.provider) {
        Some(h) => t.with_agent_home(h),
        None => t,
    }
}

/// The targets of `--provider P` (one) or `--all` (every agent detected under the home
/// directory, at `--scope` where the agent has it, else at user scope).
fn targets(a: &TargetArgs, m: &Manifest) -> Result<Vec<Target>, CliError> {
    let Some(name) = &a.provider else {
        let (_, home) = dirs(&a.dirs)?;
        let mut out = Vec::new();
        for p in supported_providers() {
            let t = target_for(a, p.clone())?;
            let t = if crate::targets::module(&p).is_ok_and(|m| m.spec().scopes.contains(&a.scope)) {
                t
            } else {
                target_for(
                    &TargetArgs {
                        scope: Scope::User,
                        ..a.clone()
                    },
                    p,
                )?
            };
            if detected(m, &t, &home) {
                out.push(t);
            }
        }
        if out.is_empty() {
            return Err(usage(format!("--all: no agent detected under {}", home.display())));
        }
        return Ok(out);
    };
    Ok(vec![target_for(a, provider(name)?)?])
}

/// Whether an agent is present: the directory (under the home directory, or the agent's own
/// home) that its user-scope config lives in exists.
fn detected(m: &Manifest, t: &Target, home: &Path) -> bool {
    let user = Target::user(t.provider.clone(), home);
    let user = match &t.agent_home {
        Some(h) => user.with_agent_home(h),
        None => user,
    };
    let Ok(r) = crate::render(m, &user) else {
        return false;
    };
    r.files.iter().any(|f| {
        let top = match (f.path.strip_prefix(home), &t.agent_home) {
            (_, Some(h)) if f.path.starts_with(h) => h.clone(),
            (Ok(rel), _) => rel
                .components()
                .next()
                .map_or_else(|| home.to_path_buf(), |c| home.join(c)),
            (Err(_), _) => f.path.parent().map(Path::to_path_buf).unwrap_or_default(),
        };
        top.is_dir()
    })
}

fn target_for(a: &TargetArgs, p: Provider) -> Result<Target, CliError> {
    let (root, home) = dirs(&a.dirs)?;
    let mut t = if a.scope == Scope::User {
        Target::user(p, home)
    } else {
        Target::new(p, a.scope, root, home)
    };
    t = match &a.agent_home {
        Some(h) => t.with_agent_home(h),
        None => with_env_home(t),
    };
    if let Some(v) = &a.agent_version {
        t = t.with_agent_version(v);
    }
    if t.provider == Provider::CODEX {
        t = t.with_options(
            CodexOptions::default()
                .with_inline_toml(a.inline_toml)
                .with_trust_project(a.trust_project),
        );
    }
    if t.provider == Provider::OPENCLAW {
        let config = a.openclaw_config.clone().or_else(|| {
            std::env::var_os("OPENCLAW_CONFIG_PATH")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        });
        if let Some(c) = config {
            t = t.with_options(OpenClawOptions::default().with_config_path(c));
        }
    }
    Ok(t)
}

/// The manifest with the program of `--command` made absolute at install time (see
/// [`crate::absolute_command`]); a bare name not found on `PATH` is a usage error, except for
/// uninstall and doctor (`strict` false), which then look for hooks written with the bare name.
fn program_made_absolute(mut loaded: Loaded, a: &ManifestArgs, strict: bool) -> Result<Loaded, CliError> {
    if a.command.is_empty() {
        return Ok(loaded);
    }
    let cwd = std::env::current_dir().map_err(|e| fail(EXIT_MISBEHAVED, format!("the current directory: {e}")))?;
    match crate::absolute_command(&loaded.manifest.command, &cwd, std::env::var_os("PATH").as_deref()) {
        Ok(command) => loaded.manifest.command = command,
        Err(e) if strict => return Err(usage(e.to_string())),
        Err(_) => {}
    }
    Ok(loaded)
}

/// Usage errors (exit 2) for what the command line asked for; failures (exit 1) otherwise.
fn op_fail(loaded: &Loaded, e: &InstallError) -> CliError {
    match e {
        InstallError::InvalidManifest(_) | InstallError::MatcherNotExpressible { .. } => {
            usage(format!("{}{e}", loaded.label))
        }
        InstallError::UnknownProvider(_) | InstallError::UnsupportedScope { .. } => usage(e.to_string()),
        InstallError::UnsafeCommand { .. } => fail(EXIT_MISBEHAVED, format!("{}{e}", loaded.label)),
        _ => fail(EXIT_MISBEHAVED, e.to_string()),
    }
}

/// Findings go to stderr as notes: stdout carries the command's result.
fn notes(err: &mut dyn Write, findings: &[Finding]) {
    for f in findings {
        let _ = writeln!(err, "note: {f}");
    }
}

fn status_word(s: ChangeStatus) -> &'static str {
    match s {
        ChangeStatus::Create => "created",
        ChangeStatus::Update => "updated",
        ChangeStatus::Delete => "deleted",
        _ => "unchanged",
    }
}

fn describe_applied(plan: &Plan, done: &str, noop: &str) -> String {
    let mut s = String::new();
    if plan.is_noop() {
        let _ = writeln!(s, "{}: {noop}; nothing changed", plan.target);
        return s;
    }
    let _ = writeln!(s, "{}: {done}", plan.target);
    // The install record is bookkeeping (see `Plan::unified_diff`): only configs are listed.
    for f in plan.changes().filter(|f| f.format != crate::FileFormat::Record) {
        let _ = writeln!(s, "  {} {}", status_word(f.status()), f.path.display());
    }
    s
}

fn install(a: &ChangeArgs, src: &Source, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = require(&a.manifest, src)?;
    if a.dry_run {
        return diff(a, src, out, err);
    }
    let targets = targets(&a.target, &loaded.manifest)?;
    let loaded = program_made_absolute(loaded, &a.manifest, true)?;
    for t in &targets {
        let plan = crate::install(&loaded.manifest, t).map_err(|e| op_fail(&loaded, &e))?;
        let mut s = describe_applied(&plan, "installed", "up to date");
        for tr in &plan.trust {
            let _ = writeln!(
                s,
                "  trusted {} in {}: {} = {}",
                tr.native_event,
                tr.config.display(),
                tr.key,
                tr.hash
            );
        }
        if matches!(src, Source::Router(_)) {
            s.push_str(&events_line(&loaded.manifest, t));
        }
        emit(out, &s)?;
        notes(err, &plan.findings);
    }
    record_warm_build(&loaded.manifest, &targets)?;
    Ok(EXIT_OK)
}

/// The warm directory of the binary the hooks run, for `doctor`'s warm report.
#[cfg(feature = "warm")]
fn warm_dir_json(m: &Manifest) -> Value {
    Value::String(hook_warm_dir(m).display().to_string())
}

#[cfg(not(feature = "warm"))]
fn warm_dir_json(_: &Manifest) -> Value {
    Value::Null
}

/// The warm directory's name for a target (provider, scope, canonical directories).
#[cfg(feature = "warm")]
fn warm_label(t: &Target) -> String {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let mut s = format!("{} ({}) home {}", t.provider, t.scope, canon(&t.home).display());
    if t.scope != Scope::User {
        let _ = write!(s, " root {}", canon(&t.root).display());
    }
    if let Some(h) = &t.agent_home {
        let _ = write!(s, " agent-home {}", canon(h).display());
    }
    s
}

/// After an install: a warm one records the build the hooks were rendered for in the warm
/// config (so a session-start hook of that build retires a server of an older one) and the
/// targets in the warm directory's install list; one without warm mode forgets the targets
/// (see [`release_warm`]).
#[cfg(feature = "warm")]
fn record_warm_build(m: &Manifest, targets: &[Target]) -> Result<(), CliError> {
    use agenthooks_runtime::warm_state as st;
    let Some(ep) = m.warm_endpoint.as_ref().filter(|_| m.warm) else {
        return release_warm(m, targets, false);
    };
    let dir = hook_warm_dir(m);
    let io = |e: std::io::Error| fail(EXIT_MISBEHAVED, format!("warm directory {}: {e}", dir.display()));
    st::write_config_for(&dir, ep.port, Some(&ep.build)).map_err(io)?;
    for t in targets {
        st::add_install(&dir, &warm_label(t)).map_err(io)?;
    }
    Ok(())
}

/// The targets no longer use warm mode (uninstalled, or re-installed without it): each leaves
/// the warm directory's install list, and when none is left the server is stopped and the
/// directory removed. A directory without a list (no install recorded one) is removed by
/// uninstall (`unlisted_too`: loading a warm manifest for it may just have created it) and left
/// alone by an install.
#[cfg(feature = "warm")]
fn release_warm(m: &Manifest, targets: &[Target], unlisted_too: bool) -> Result<(), CliError> {
    use agenthooks_runtime::warm_state as st;
    let dir = hook_warm_dir(m);
    let io = |e: std::io::Error| fail(EXIT_MISBEHAVED, format!("warm directory {}: {e}", dir.display()));
    let mut left = None;
    for t in targets {
        left = st::remove_install(&dir, &warm_label(t)).map_err(io)?;
    }
    if left == Some(0) || (left.is_none() && unlisted_too && dir.is_dir()) {
        tracing::info!(dir = %dir.display(), "no warm install left: stopping the warm server and removing its directory");
        let build = hook_exe(m).map_or_else(st::build_id, |exe| st::build_id_of(&exe));
        st::discard(&dir, &build).map_err(io)?;
    }
    Ok(())
}

#[cfg(not(feature = "warm"))]
#[allow(clippy::unnecessary_wraps)] // the warm build's signature
fn record_warm_build(_: &Manifest, _: &[Target]) -> Result<(), CliError> {
    Ok(())
}

#[cfg(not(feature = "warm"))]
#[allow(clippy::unnecessary_wraps)] // the warm build's signature
fn release_warm(_: &Manifest, _: &[Target], _: bool) -> Result<(), CliError> {
    Ok(())
}

/// `  events: A, B, …` — the native events the target gets.
fn events_line(m: &Manifest, t: &Target) -> String {
    let caps = |_: &Provider, _: &str| CapSet::EMPTY;
    let report = crate::preflight(m, std::slice::from_ref(t), &caps);
    let mut names: Vec<String> = Vec::new();
    for h in report.targets.iter().flat_map(|t| &t.hooks) {
        for n in &h.native_events {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    format!(
        "  events: {}\n",
        if names.is_empty() {
            "-".to_owned()
        } else {
            names.join(", ")
        }
    )
}

fn uninstall(a: &ChangeArgs, src: &Source, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = require(&a.manifest, src)?;
    let targets = targets(&a.target, &loaded.manifest)?;
    let loaded = program_made_absolute(loaded, &a.manifest, false)?;
    for t in targets {
        if a.dry_run {
            let plan = crate::plan_uninstall(&loaded.manifest, &t, &crate::RealFs).map_err(|e| op_fail(&loaded, &e))?;
            emit(out, &diff_text(&plan, "no hooks of ours"))?;
            continue;
        }
        let plan = crate::uninstall(&loaded.manifest, &t).map_err(|e| op_fail(&loaded, &e))?;
        emit(out, &describe_applied(&plan, "removed our hooks", "no hooks of ours"))?;
        notes(err, &plan.findings);
        release_warm(&loaded.manifest, std::slice::from_ref(&t), true)?;
    }
    Ok(EXIT_OK)
}

fn diff_text(plan: &Plan, noop: &str) -> String {
    if plan.is_noop() {
        format!("{}: {noop}\n", plan.target)
    } else {
        plan.unified_diff()
    }
}

fn diff(a: &ChangeArgs, src: &Source, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = require(&a.manifest, src)?;
    let targets = targets(&a.target, &loaded.manifest)?;
    let loaded = program_made_absolute(loaded, &a.manifest, true)?;
    for t in targets {
        let plan = crate::diff(&loaded.manifest, &t).map_err(|e| op_fail(&loaded, &e))?;
        emit(out, &diff_text(&plan, "up to date"))?;
        notes(err, &plan.findings);
    }
    Ok(EXIT_OK)
}

fn render(a: &ChangeArgs, src: &Source, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    let _ = a.dry_run;
    let loaded = require(&a.manifest, src)?;
    let mut s = String::new();
    let mut findings = Vec::new();
    let targets = targets(&a.target, &loaded.manifest)?;
    let loaded = program_made_absolute(loaded, &a.manifest, true)?;
    for t in targets {
        let r = crate::render(&loaded.manifest, &t).map_err(|e| op_fail(&loaded, &e))?;
        if r.files.is_empty() {
            let _ = writeln!(s, "{t}: nothing to write");
        }
        for f in &r.files {
            if !s.is_empty() {
                s.push('\n');
            }
            let _ = writeln!(s, "==> {} <==", f.path.display());
            s.push_str(&f.contents);
            if !f.contents.ends_with('\n') {
                s.push('\n');
            }
        }
        findings.extend(r.findings);
    }
    emit(out, &s)?;
    notes(err, &findings);
    Ok(EXIT_OK)
}

fn print_manifest(a: &PrintArgs, src: &Source, out: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = require(&a.manifest, src)?;
    emit(out, &loaded.manifest.to_toml())?;
    Ok(EXIT_OK)
}

fn where_(provider: &Provider, scope: Scope, root: &Path) -> String {
    if scope == Scope::User {
        format!("{provider} ({scope})")
    } else {
        format!("{provider} ({scope} {})", root.display())
    }
}

/// What a target whose hooks differ is told, and the diff install would apply (per target, in
/// the report's order).
struct Drift<'a> {
    label: &'a str,
    diffs: Vec<Option<String>>,
}

fn doctor_text(r: &DoctorReport, with_manifest: bool, drift: &Drift<'_>) -> String {
    let mut s = String::new();
    for (i, t) in r.targets.iter().enumerate() {
        let _ = writeln!(s, "{}", where_(&t.provider, t.scope, &t.root));
        if with_manifest {
            if t.installed.is_empty() {
                let _ = writeln!(s, "  not installed");
            } else {
                for f in &t.installed {
                    let events: Vec<&str> = f
                        .entries
                        .iter()
                        .filter_map(|e| e.get("event").and_then(Value::as_str))
                        .collect();
                    let _ = writeln!(s, "  installed in {}: {}", f.path.display(), events.join(", "));
                }
                let _ = writeln!(s, "  {}", if t.up_to_date { "up to date" } else { drift.label });
                if let (false, Some(Some(d))) = (t.up_to_date, drift.diffs.get(i)) {
                    for line in d.lines() {
                        let _ = writeln!(s, "    {line}");
                    }
                }
            }
        }
        let shown: Vec<&Finding> = t
            .findings
            .iter()
            .filter(|f| f.code != FindingCode::NotInstalled)
            .collect();
        if !with_manifest && shown.is_empty() {
            let _ = writeln!(s, "  config files parse");
        }
        for f in shown {
            let _ = writeln!(s, "  {f}");
        }
    }
    if with_manifest {
        let c = &r.command;
        let resolved = c.resolved.as_ref().map_or_else(
            || "does not resolve".to_owned(),
            |p| format!("resolves to {}", p.display()),
        );
        let pong = if c.pong.is_some() { ", answers ping" } else { "" };
        let _ = writeln!(s, "command `{}`: {resolved}{pong}", c.program);
        if let Some(d) = r.warm.as_ref().and_then(|w| w["dir"].as_str()) {
            let _ = writeln!(s, "warm directory: {d}");
        }
        for f in &c.findings {
            let _ = writeln!(s, "  {f}");
        }
        if !r.findings.is_empty() {
            let _ = writeln!(s, "across targets");
            for f in &r.findings {
                let _ = writeln!(s, "  {f}");
            }
        }
    } else {
        let _ = writeln!(
            s,
            "(no manifest: only checked that the config files parse; pass --manifest FILE or --command WORD… to find our hooks, check trust and ping the command)"
        );
    }
    let errors = r
        .all_findings()
        .filter(|f| f.severity == crate::Severity::Error)
        .count();
    let _ = writeln!(
        s,
        "{}",
        if errors == 0 {
            "no problems".to_owned()
        } else {
            format!("{errors} problem(s)")
        }
    );
    s
}

fn doctor(a: &DoctorArgs, src: &Source, out: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = load(&a.manifest, src)?;
    let (root, home) = dirs(&a.dirs)?;
    let loaded = loaded
        .map(|l| program_made_absolute(l, &a.manifest, false))
        .transpose()?;
    let targets: Vec<Target> = known_targets(&root, &home).into_iter().map(with_env_home).collect();
    let with_manifest = loaded.is_some();
    let mut report = match &loaded {
        Some(l) => {
            let opts = DoctorOptions::default().with_ping(!a.no_ping);
            crate::doctor(&l.manifest, &targets, &opts)
        }
        None => {
            // Without a manifest nothing is "ours": the doctor only parses each agent's
            // files. The command check of the placeholder is meaningless, so it is dropped.
            let placeholder = Manifest::new(["agenthooks-doctor-no-manifest"], "agenthooks");
            let opts = DoctorOptions::default().with_ping(false);
            let mut r = crate::doctor(&placeholder, &targets, &opts);
            r.command.findings.clear();
            r
        }
    };
    if !with_manifest {
        report.findings.clear();
    }
    if let (Some(l), Some(Value::Object(w))) = (&loaded, report.warm.as_mut()) {
        w.insert("dir".into(), warm_dir_json(&l.manifest));
    }
    if a.json {
        let mut v = serde_json::to_value(&report).map_err(|e| fail(EXIT_MISBEHAVED, e.to_string()))?;
        if !with_manifest {
            if let Some(o) = v.as_object_mut() {
                o.remove("command");
            }
        }
        write_json(out, &v)?;
    } else {
        let label = match (src, &a.manifest.manifest) {
            (Source::Router(_), None) => "installed manifest differs from this binary's router",
            _ => "differs from the manifest",
        };
        let diffs = report
            .targets
            .iter()
            .map(|h| {
                let t = targets
                    .iter()
                    .find(|t| t.provider == h.provider && t.scope == h.scope && t.root == h.root)?;
                let l = loaded.as_ref().filter(|_| !h.up_to_date && !h.installed.is_empty())?;
                crate::diff(&l.manifest, t).ok().map(|p| p.unified_diff())
            })
            .collect();
        emit(out, &doctor_text(&report, with_manifest, &Drift { label, diffs }))?;
    }
    Ok(if report.has_errors() { EXIT_MISBEHAVED } else { EXIT_OK })
}

fn caps_list(c: CapSet) -> String {
    if c.is_empty() {
        "-".to_owned()
    } else {
        c.iter().map(Capability::as_str).collect::<Vec<_>>().join(", ")
    }
}

fn secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

fn preflight_text(r: &Preflight, root: &Path) -> String {
    let mut s = String::new();
    for t in &r.targets {
        let _ = writeln!(s, "{}", where_(&t.provider, t.scope, root));
        if let Some(e) = &t.error {
            let _ = writeln!(s, "  cannot install: {e}");
            continue;
        }
        for h in &t.hooks {
            if h.native_events.is_empty() {
                let _ = writeln!(s, "  hook #{} {} → dropped (no event)", h.hook, h.on);
                continue;
            }
            let mut line = format!("  hook #{} {} → {}", h.hook, h.on, h.native_events.join(", "));
            if let Some(m) = &h.matcher {
                let _ = write!(line, " matching {m}");
            }
            line.push_str(if h.blocking { ", blocking" } else { ", non-blocking" });
            if let Some(d) = h.timeout {
                let _ = write!(line, ", timeout {}", secs(d));
            }
            let _ = writeln!(s, "{line}");
            let _ = writeln!(
                s,
                "    honours: {}; uses: {}; missing: {}",
                caps_list(h.capabilities),
                caps_list(h.uses),
                caps_list(h.missing)
            );
        }
        for f in &t.findings {
            let _ = writeln!(s, "  {f}");
        }
    }
    s
}

fn preflight(a: &PreflightArgs, src: &Source, out: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = require(&a.manifest, src)?;
    let (root, home) = dirs(&a.dirs)?;
    let providers: Vec<Provider> = if a.providers.is_empty() {
        supported_providers()
    } else {
        a.providers.iter().map(|p| provider(p)).collect::<Result<_, _>>()?
    };
    let known = known_targets(&root, &home);
    let targets: Vec<Target> = providers
        .into_iter()
        .map(|p| {
            let t = match a.scope {
                Some(Scope::User) => Target::user(p, &home),
                Some(scope) => Target::new(p, scope, &root, &home),
                None => {
                    let mine: Vec<&Target> = known.iter().filter(|t| t.provider == p).collect();
                    mine.iter()
                        .find(|t| t.scope == Scope::Project)
                        .or_else(|| mine.first())
                        .map_or_else(|| Target::project(p.clone(), &root, &home), |t| (*t).clone())
                }
            };
            with_env_home(t)
        })
        .collect();
    let caps = |p: &Provider, native: &str| {
        crate::targets::module(p).map_or(CapSet::EMPTY, |m| {
            m.spec().codec.capabilities(&Variant::DEFAULT, native)
        })
    };
    let report = crate::preflight(&loaded.manifest, &targets, &caps);
    if a.json {
        let v = serde_json::to_value(&report).map_err(|e| fail(EXIT_MISBEHAVED, e.to_string()))?;
        write_json(out, &v)?;
    } else {
        emit(out, &preflight_text(&report, &root))?;
    }
    Ok(EXIT_OK)
}

/// Runs one install subcommand. Findings and warnings go to `err`, results to `out`.
///
/// # Errors
///
/// A usage error ([`EXIT_USAGE`]) or a failed operation ([`EXIT_FAILED`]); the caller prints
/// the message.
pub fn run(cmd: &InstallCommand, src: &Source, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    match cmd {
        InstallCommand::Install(a) => install(a, src, out, err),
        InstallCommand::Uninstall(a) => uninstall(a, src, out, err),
        InstallCommand::Diff(a) => diff(a, src, out, err),
        InstallCommand::Render(a) => render(a, src, out, err),
        InstallCommand::Doctor(a) => doctor(a, src, out),
        InstallCommand::Preflight(a) => preflight(a, src, out),
        InstallCommand::Manifest(a) => print_manifest(a, src, out),
    }
}

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
        InstallCommand::Doctor(a) => &a.manifest,
        InstallCommand::Preflight(a) => &a.manifest,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_made_absolute() {
        let cwd = Path::new("/work/repo");
        assert_eq!(absolute(cwd, Path::new("../home/./me")), Path::new("/work/home/me"));
        assert_eq!(absolute(cwd, Path::new("/x/../y")), Path::new("/y"));
        assert_eq!(absolute(cwd, Path::new(".")), Path::new("/work/repo"));
    }

    #[test]
    fn names_from_programs() {
        assert_eq!(crate::name_of_program("/opt/my tools/guard"), "guard");
        assert_eq!(crate::name_of_program("/opt/x/my guard"), "my-guard");
        assert_eq!(crate::name_of_program(".hidden"), "hidden");
        assert_eq!(crate::name_of_program("/"), "agenthooks");
    }

    #[test]
    fn flags_give_one_hook_per_kind() {
        let a = ManifestArgs {
            manifest: None,
            command: vec!["/opt/guard".into(), "--cfg".into()],
            name: None,
            kinds: Vec::new(),
            timeout: Some(1.5),
            fail_closed: true,
            warm: false,
            copilot_allow_localhost: false,
        };
        let m = from_flags(&a).unwrap();
        assert_eq!(m.command, ["/opt/guard", "--cfg"]);
        assert_eq!(m.identity.name, "guard");
        assert_eq!(m.failure, FailurePolicy::Closed);
        assert_eq!(m.hooks.len(), EventKind::ALL.len() - 1);
        let pre = &m.hooks[m
            .hooks
            .iter()
            .position(|h| h.on == crate::HookOn::Kind(EventKind::ToolPre))
            .unwrap()];
        assert!(pre.blocking);
        assert_eq!(pre.timeout, Some(Duration::from_millis(1500)));
        let end = m
            .hooks
            .iter()
            .find(|h| h.on == crate::HookOn::Kind(EventKind::SessionEnd))
            .unwrap();
        assert!(!end.blocking);
        let bad = ManifestArgs {
            timeout: Some(-1.0),
            ..a
        };
        assert!(from_flags(&bad).is_err());
    }
}
