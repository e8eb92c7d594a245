//! The CLI's exit statuses and its error: a status and a message.

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

pub(crate) fn fail(code: i32, message: impl Into<String>) -> CliError {
    CliError {
        code,
        message: message.into(),
    }
}

pub(crate) const EXIT_MISBEHAVED: i32 = EXIT_FAILED;

pub(crate) fn usage(m: impl Into<String>) -> CliError {
    fail(EXIT_USAGE, m)
}

pub(crate) fn out_err(e: &std::io::Error) -> CliError {
    fail(EXIT_MISBEHAVED, format!("<stdout>: {e}"))
}
