//! The arguments the commands share (where to install, what to install, `install`'s and its
//! siblings'), and what they select: the targets of `--provider P` or `--all`.

use std::path::{Path, PathBuf};

use agenthooks_core::{EventKind, Provider};
use clap::Args;

use super::error::{fail, usage, CliError, EXIT_MISBEHAVED};
use crate::{supported_providers, CodexOptions, Manifest, OpenClawOptions, Scope, Target};

/// Where to install: the agent, the scope and the directories.
#[derive(Debug, Clone, Args)]
pub struct TargetArgs {
    // "The agent (…)": every target compiled into this build (`targets!`).
    #[arg(long, required_unless_present = "all", conflicts_with = "all", help = providers_help("The agent"))]
    pub(crate) provider: Option<String>,
    /// Every agent detected on this machine (its directory exists under `--home`).
    #[arg(long)]
    pub(crate) all: bool,
    /// `project` (the default), `user`, or `plugin` (Claude Code; `--root` is the plugin dir).
    #[arg(long, default_value = "project")]
    pub(crate) scope: Scope,
    #[command(flatten)]
    pub(crate) dirs: DirArgs,
    /// The agent's own home (`$CODEX_HOME`, `$KIMI_CODE_HOME`, `$OPENCLAW_STATE_DIR`); default:
    /// that variable, else the agent's directory under `--home`.
    #[arg(long, value_name = "DIR")]
    pub(crate) agent_home: Option<PathBuf>,
    /// The agent's version, when an older release needs different keys.
    #[arg(long, value_name = "VERSION")]
    pub(crate) agent_version: Option<String>,
    /// Codex: declare the hooks inline in `config.toml` instead of `hooks.json`.
    #[arg(long)]
    pub(crate) inline_toml: bool,
    /// Codex: also mark the project trusted in `config.toml` (otherwise it is only reported).
    #[arg(long)]
    pub(crate) trust_project: bool,
    /// OpenClaw: the config file it reads (`$OPENCLAW_CONFIG_PATH`); default: that variable,
    /// else `openclaw.json` in the state directory.
    #[arg(long, value_name = "FILE")]
    pub(crate) openclaw_config: Option<PathBuf>,
}

/// The project root and the home directory.
#[derive(Debug, Clone, Args)]
pub struct DirArgs {
    /// The project root (project scope) or plugin directory (plugin scope); default: the
    /// current directory.
    #[arg(long, value_name = "DIR")]
    pub(crate) root: Option<PathBuf>,
    /// The user's home directory; default: `$HOME`.
    #[arg(long, value_name = "DIR")]
    pub(crate) home: Option<PathBuf>,
}

/// What to install: a manifest file, or a command with one hook per kind (standalone CLI), or
/// the router's manifest (consumer binaries).
#[derive(Debug, Args)]
pub struct ManifestArgs {
    /// A manifest file (`.toml` or `.json`).
    #[arg(long, value_name = "FILE", conflicts_with = "command")]
    pub(crate) manifest: Option<PathBuf>,
    /// The consumer's command (program and leading arguments). Standalone: a default manifest of
    /// one hook per event kind, blocking where a decision can change something, telemetry
    /// elsewhere. In a hook binary: overrides its own path in the router's manifest.
    /// Repeat `--command` (or write `--command=-x`) for words starting with `-`. A bare program
    /// name is looked up on `PATH` now (install refuses one it does not find), a relative path
    /// made absolute: hooks run from the project directory.
    #[arg(long, num_args = 1.., value_name = "WORD")]
    pub(crate) command: Vec<String>,
    /// The identity name (default: the program's file name).
    #[arg(long)]
    pub(crate) name: Option<String>,
    /// Only these kinds (repeatable; default: every kind, or the router's).
    #[arg(long = "kind", value_name = "KIND")]
    pub(crate) kinds: Vec<EventKind>,
    /// Every hook's timeout in seconds (default: each agent's).
    #[arg(long, value_name = "SECS")]
    pub(crate) timeout: Option<f64>,
    /// A crash or timeout of the hook binary blocks, where the agent can say so.
    #[arg(long)]
    pub(crate) fail_closed: bool,
    /// Warm mode: http hooks to the warm loopback server where the agent has them (Claude
    /// Code), command hooks elsewhere (also the manifest's `warm = true`).
    #[arg(long)]
    pub(crate) warm: bool,
    /// In warm mode: Copilot CLI runs with `COPILOT_HOOK_ALLOW_LOCALHOST=1` (without it Copilot
    /// blocks http hooks to loopback), so its hooks become http hooks too (also the manifest's
    /// `copilot_allow_localhost = true`).
    #[arg(long)]
    pub(crate) copilot_allow_localhost: bool,
}

impl ManifestArgs {
    /// Whether any refining flag is given (the standalone CLI needs `--command` for them).
    pub(crate) fn refines(&self) -> bool {
        self.name.is_some() || !self.kinds.is_empty() || self.timeout.is_some() || self.fail_closed
    }
}

/// `install`, `uninstall`, `diff`, `render`.
#[derive(Debug, Args)]
pub struct ChangeArgs {
    /// `install`/`uninstall`: print what would change (a unified diff), write nothing
    /// (`render` never writes; `diff` is always a dry run).
    #[arg(long)]
    pub(crate) dry_run: bool,
    #[command(flatten)]
    pub(crate) target: TargetArgs,
    #[command(flatten)]
    pub(crate) manifest: ManifestArgs,
}

/// `doctor`, `preflight`: the reports' directories, manifest and output format.
#[derive(Debug, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub(crate) dirs: DirArgs,
    #[command(flatten)]
    pub(crate) manifest: ManifestArgs,
    /// Print the report as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// `--provider` help: `what` and the providers this build installs for, e.g. `The agent
/// (claude-code, cursor)`.
pub(crate) fn providers_help(what: &str) -> String {
    let all = supported_providers();
    let list: Vec<&str> = all.iter().map(Provider::as_str).collect();
    format!("{what} ({})", list.join(", "))
}

pub(crate) fn provider(name: &str) -> Result<Provider, CliError> {
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
pub(crate) fn absolute(cwd: &Path, p: &Path) -> PathBuf {
    crate::fsys::normalize(&cwd.join(p))
}

/// `--root` (default: the current directory) and `--home` (default: `$HOME`), absolute.
pub(crate) fn dirs(a: &DirArgs) -> Result<(PathBuf, PathBuf), CliError> {
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
pub(crate) fn agent_home_env(p: &Provider) -> Option<PathBuf> {
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

pub(crate) fn with_env_home(t: Target) -> Target {
    match agent_home_env(&t.provider) {
        Some(h) => t.with_agent_home(h),
        None => t,
    }
}

/// The targets of `--provider P` (one) or `--all` (every agent detected under the home
/// directory, at `--scope` where the agent has it, else at user scope).
pub(crate) fn targets(a: &TargetArgs, m: &Manifest) -> Result<Vec<Target>, CliError> {
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
pub(crate) fn detected(m: &Manifest, t: &Target, home: &Path) -> bool {
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

pub(crate) fn target_for(a: &TargetArgs, p: Provider) -> Result<Target, CliError> {
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
}
