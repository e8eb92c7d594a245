//! [`InstallError`]: everything `render`, `install`, `diff` and `uninstall` can fail with.

use std::path::PathBuf;

use agenthooks_core::Provider;

use crate::scope::Scope;

/// Why a render, install, diff or uninstall did not happen. When any of these is returned by
/// [`install`](crate::install) or [`uninstall`](crate::uninstall), **nothing was written**
/// (except for [`InstallError::Io`] during the final writes, which names the file).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstallError {
    /// The manifest is unusable (empty command, bad identity name, …).
    #[error("invalid manifest: {0}")]
    InvalidManifest(String),

    /// No install target exists for this provider in this release.
    #[error("no install target for provider `{0}` in this release")]
    UnknownProvider(Provider),

    /// The provider has no hooks at this scope.
    #[error("{provider} has no {scope} hooks: {why}")]
    UnsupportedScope {
        /// The provider.
        provider: Provider,
        /// The scope asked for.
        scope: Scope,
        /// Where the agent does read hooks.
        why: &'static str,
    },

    /// The target carries another agent's options.
    #[error("{provider} target with {options} options")]
    OptionsMismatch {
        /// The target's agent.
        provider: Provider,
        /// The agent the options are for.
        options: Provider,
    },

    /// An existing config file does not parse, or does not have the shape the agent requires
    /// where we need to edit it. Nothing was written.
    #[error("{path}: malformed {format}: {message}", path = path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// `JSON`, `JSON with comments` or `TOML`.
        format: &'static str,
        /// What is wrong, with a position when known.
        message: String,
    },

    /// A hook's tool matcher cannot be expressed in the agent's dialect and the manifest asked
    /// for [`MatcherFallback::Error`](crate::MatcherFallback::Error).
    #[error("hook #{hook}: its tool matcher cannot be expressed for {provider}: {why}")]
    MatcherNotExpressible {
        /// Index of the hook in the manifest.
        hook: usize,
        /// The provider.
        provider: Provider,
        /// What could not be expressed.
        why: String,
    },

    /// The generated command contains text the agent substitutes before running it, which
    /// would break the quoting.
    #[error("{provider} substitutes `{token}` textually in hook commands; the command `{command}` contains it")]
    UnsafeCommand {
        /// The provider.
        provider: Provider,
        /// The token found.
        token: &'static str,
        /// The command.
        command: String,
    },

    /// The hook command's program is a bare name not found on `PATH` (install writes an
    /// absolute program: see [`absolute_command`](crate::absolute_command)).
    #[error("`{program}` is not a path and was not found on PATH: pass the program's path (hooks run from the project directory, where a bare name could run a file the repository holds)")]
    ProgramNotFound {
        /// The program as given.
        program: String,
    },

    /// A word of the hook command cannot be written in the agent's shell (a NUL byte).
    #[error("cannot write the hook command: {0}")]
    Unquotable(#[from] agenthooks_runtime::shell::QuoteError),

    /// A config file is a symlink (or lies under a symlinked directory) that resolves outside
    /// the directory this install may write in: the project (or plugin) directory for a file
    /// in it, else the user's home. Nothing was written.
    #[error(
        "{link} resolves to {target}, outside {root}: not writing through the symlink",
        link = link.display(),
        target = target.display(),
        root = root.display()
    )]
    SymlinkOutside {
        /// The config path (the link, or the path under a linked directory).
        link: PathBuf,
        /// Where it resolves to.
        target: PathBuf,
        /// The directory it had to stay inside.
        root: PathBuf,
    },

    /// A config file is a symlink to nothing: it is never replaced by a regular file. Nothing
    /// was written.
    #[error(
        "{link} is a dangling symlink (to {target}): not replacing it with a file",
        link = link.display(),
        target = target.display()
    )]
    DanglingSymlink {
        /// The link.
        link: PathBuf,
        /// Where it points.
        target: PathBuf,
    },

    /// Another install or uninstall held the per-user install lock for too long. Nothing was
    /// written.
    #[error("{path}: another agenthooks install holds the install lock; try again", path = path.display())]
    Busy {
        /// What is locked (the home directory, or the lock file).
        path: PathBuf,
    },

    /// A file changed on disk between planning and writing; nothing more was written.
    #[error("{path} changed while installing; run again", path = path.display())]
    Conflict {
        /// The file.
        path: PathBuf,
    },

    /// The warm directory of the hooks' binary could not be read or written (warm mode's
    /// token, config or install list).
    #[error("warm directory {}: {source}", dir.display())]
    Warm {
        /// The warm directory.
        dir: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// A warm manifest needs its endpoint, and this build has no warm mode (the `warm`
    /// feature).
    #[error("this binary is built without warm mode (the `warm` feature)")]
    WarmUnavailable,

    /// Reading or writing a file failed.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

impl InstallError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn malformed(path: impl Into<PathBuf>, format: &'static str, message: impl Into<String>) -> Self {
        Self::Malformed {
            path: path.into(),
            format,
            message: message.into(),
        }
    }
}
