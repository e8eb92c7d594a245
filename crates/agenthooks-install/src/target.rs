//! [`Target`]: which agent, which scope, and where on disk.

use std::fmt;
use std::path::PathBuf;

use crate::scope::Scope;
use agenthooks_core::Provider;

/// An install target: an agent, a scope and the directories that locate its config files.
///
/// ```
/// use agenthooks_core::Provider;
/// use agenthooks_install::{CodexOptions, Scope, Target};
/// let t = Target::project(Provider::CLAUDE_CODE, "/work/repo", "/home/me");
/// assert_eq!(t.scope, Scope::Project);
/// let c = Target::user(Provider::CODEX, "/home/me")
///     .with_agent_home("/opt/codex-home")
///     .with_options(CodexOptions::default().with_inline_toml(true));
/// assert_eq!(c.agent_home.as_deref(), Some(std::path::Path::new("/opt/codex-home")));
/// assert!(c.options.codex().inline_toml);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Target {
    /// The agent.
    pub provider: Provider,
    /// The scope.
    pub scope: Scope,
    /// The project root (project scope) or the plugin directory (plugin scope). Unused for
    /// user scope. Should be absolute: Codex trust keys embed it.
    pub root: PathBuf,
    /// The user's home directory.
    pub home: PathBuf,
    /// The agent's own home when it is not the default under [`Target::home`]
    /// (`$CODEX_HOME`, `$KIMI_CODE_HOME`).
    pub agent_home: Option<PathBuf>,
    /// The agent's version, when known (gates version-dependent keys such as Claude's
    /// `onFailure`). `None` means "a current release".
    pub agent_version: Option<String>,
    /// Options only this agent's target reads (an agent's options on another agent's target
    /// are an error).
    pub options: TargetOptions,
}

impl Target {
    /// A target from its parts.
    pub fn new(provider: Provider, scope: Scope, root: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Self {
        Self {
            provider,
            scope,
            root: root.into(),
            home: home.into(),
            agent_home: None,
            agent_version: None,
            options: TargetOptions::None,
        }
    }

    /// Project scope.
    pub fn project(provider: Provider, root: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Self {
        Self::new(provider, Scope::Project, root, home)
    }

    /// User scope.
    pub fn user(provider: Provider, home: impl Into<PathBuf>) -> Self {
        let home = home.into();
        Self::new(provider, Scope::User, home.clone(), home)
    }

    /// Plugin scope (`dir` is the plugin's root directory).
    pub fn plugin(provider: Provider, dir: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Self {
        Self::new(provider, Scope::Plugin, dir, home)
    }

    /// The agent home, or `default` under the user's home.
    pub(crate) fn agent_home_or(&self, default: &str) -> PathBuf {
        self.agent_home.clone().unwrap_or_else(|| self.home.join(default))
    }

    /// Whether the agent version is known to be older than `min` (dotted numbers).
    pub(crate) fn version_below(&self, min: &str) -> bool {
        self.agent_version.as_deref().is_some_and(|v| version_lt(v, min))
    }
}

agenthooks_core::kit::setters! {
    impl Target {
        /// Sets the agent's home (`$CODEX_HOME`, `$KIMI_CODE_HOME`).
        with_agent_home(agent_home: impl Into<PathBuf>) => Some;
        /// Sets the agent version.
        with_agent_version(agent_version: impl Into<String>) => Some;
        /// Sets the agent-specific options.
        with_options(options: impl Into<TargetOptions>);
    }
}

/// Options that only one agent's target reads.
///
/// ```
/// use agenthooks_core::Provider;
/// use agenthooks_install::{CodexOptions, TargetOptions};
/// let o: TargetOptions = CodexOptions::default().with_trust_project(true).into();
/// assert_eq!(o.provider(), Some(Provider::CODEX));
/// assert!(o.codex().trust_project && !o.codex().inline_toml);
/// assert!(!TargetOptions::None.codex().trust_project);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum TargetOptions {
    /// No agent-specific options.
    #[default]
    None,
    /// Codex's.
    Codex(CodexOptions),
    /// OpenClaw's.
    OpenClaw(OpenClawOptions),
}

impl TargetOptions {
    /// The agent these options are for (`None` for [`TargetOptions::None`]).
    pub fn provider(&self) -> Option<Provider> {
        match self {
            Self::None => None,
            Self::Codex(_) => Some(Provider::CODEX),
            Self::OpenClaw(_) => Some(Provider::OPENCLAW),
        }
    }

    /// The Codex options (the defaults when these are not Codex's).
    pub fn codex(&self) -> CodexOptions {
        match self {
            Self::Codex(o) => *o,
            _ => CodexOptions::default(),
        }
    }

    /// The OpenClaw options (the defaults when these are not OpenClaw's).
    pub fn openclaw(&self) -> OpenClawOptions {
        match self {
            Self::OpenClaw(o) => o.clone(),
            _ => OpenClawOptions::default(),
        }
    }
}

impl From<OpenClawOptions> for TargetOptions {
    fn from(o: OpenClawOptions) -> Self {
        Self::OpenClaw(o)
    }
}

/// OpenClaw install options.
///
/// ```
/// use agenthooks_core::Provider;
/// use agenthooks_install::{OpenClawOptions, Target};
/// let t = Target::user(Provider::OPENCLAW, "/home/me")
///     .with_options(OpenClawOptions::default().with_config_path("/etc/openclaw/openclaw.json"));
/// assert!(t.options.openclaw().config_path.is_some());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct OpenClawOptions {
    /// The config file OpenClaw reads, as `$OPENCLAW_CONFIG_PATH` names it (default: the
    /// environment's `$OPENCLAW_CONFIG_PATH` for the real user, else `openclaw.json` in the
    /// state directory).
    pub config_path: Option<PathBuf>,
}

impl OpenClawOptions {
    /// Sets the config file.
    #[must_use]
    pub fn with_config_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.config_path = Some(path.into());
        self
    }
}

impl From<CodexOptions> for TargetOptions {
    fn from(o: CodexOptions) -> Self {
        Self::Codex(o)
    }
}

/// Codex install options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CodexOptions {
    /// Declare hooks inline in `config.toml` (`[[hooks.<Event>]]`) instead of `hooks.json`.
    pub inline_toml: bool,
    /// Also mark the project trusted (`[projects."<root>"] trust_level = "trusted"`). Off by
    /// default: project trust is the user's decision, and it is reported instead.
    pub trust_project: bool,
}

agenthooks_core::kit::setters! {
    impl CodexOptions {
        /// Hooks inline in `config.toml`.
        with_inline_toml(inline_toml: bool);
        /// Also write project trust.
        with_trust_project(trust_project: bool);
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}", self.provider, self.scope)?;
        if self.scope != Scope::User {
            write!(f, " {}", self.root.display())?;
        }
        f.write_str(")")
    }
}

/// `a < b` for dotted version strings, comparing numeric components (`1.0.9 < 1.0.10`);
/// non-numeric suffixes are ignored.
pub(crate) fn version_lt(a: &str, b: &str) -> bool {
    fn parts(v: &str) -> Vec<u64> {
        v.trim_start_matches('v')
            .split(['.', '-', '+'])
            .map_while(|p| p.parse::<u64>().ok())
            .collect()
    }
    let (a, b) = (parts(a), parts(b));
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied().unwrap_or(0), b.get(i).copied().unwrap_or(0));
        if x != y {
            return x < y;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare() {
        assert!(version_lt("2.1.197", "2.1.332"));
        assert!(!version_lt("2.1.332", "2.1.332"));
        assert!(version_lt("1.0.9", "1.0.10"));
        assert!(!version_lt("v3", "2.9"));
        assert!(version_lt("0.171.0-nightly", "0.172"));
    }
}
