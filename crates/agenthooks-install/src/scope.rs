//! [`Scope`]: where hooks are installed for an agent (a leaf value: errors, targets and plans
//! name it).

use serde::{Deserialize, Serialize};

agenthooks_core::kit::named_enum! {
    /// Where hooks are installed for an agent.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    #[non_exhaustive]
    pub enum Scope {
        /// The user's own config (every project).
        User => "user",
        /// One project's config (checked into the repository).
        Project => "project",
        /// A plugin directory (Claude Code's `.claude-plugin` layout).
        Plugin => "plugin",
    }
}

impl std::str::FromStr for Scope {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "user" => Ok(Self::User),
            "project" => Ok(Self::Project),
            "plugin" => Ok(Self::Plugin),
            other => Err(format!("unknown scope `{other}` (expected user, project or plugin)")),
        }
    }
}
