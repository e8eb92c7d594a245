//! The stdout guard: file descriptor 1 points away from the real stdout while handlers run (to
//! stderr, or to a log file where the agent reserves stderr), so a stray `println!` cannot
//! corrupt the response; the response is written to the saved original.
//!
//! The workspace's one `unsafe` call (`dup2`) lives here, in `mod sys`, with a non-Unix
//! fallback that does not redirect.

use std::io::{self, Write};
use std::path::Path;

use crate::codec::{StderrUse, WireResponse};

/// Points fd 1 away from the real stdout while handlers run and writes the response to the
/// saved original.
pub(super) struct StdoutGuard {
    pub(super) saved: Option<std::fs::File>,
}

impl StdoutGuard {
    pub(super) fn none() -> Self {
        Self { saved: None }
    }

    pub(super) fn redirect(enabled: bool, stderr_use: StderrUse, state_dir: &Path) -> Self {
        if !enabled {
            return Self::none();
        }
        Self {
            saved: sys::redirect_stdout(stderr_use == StderrUse::Logs, &state_dir.join("handler-stdout.log")),
        }
    }

    /// A duplicate of the saved stdout, for the watchdog.
    pub(super) fn clone_saved(&self) -> Option<std::fs::File> {
        self.saved.as_ref().and_then(|f| f.try_clone().ok())
    }

    /// Writes the response and returns the exit code. A closed stdout (EPIPE) is ignored.
    pub(super) fn finish(self, r: &WireResponse) -> i32 {
        let _ = io::stdout().flush();
        if !r.stdout.is_empty() {
            let res = match self.saved {
                Some(mut f) => f.write_all(&r.stdout).and_then(|()| f.flush()),
                None => {
                    let mut o = io::stdout().lock();
                    o.write_all(&r.stdout).and_then(|()| o.flush())
                }
            };
            if let Err(e) = res {
                tracing::warn!(error = %e, "could not write the response to stdout");
            }
        }
        if !r.stderr.is_empty() {
            let _ = io::stderr().write_all(&r.stderr);
        }
        r.exit_code
    }
}

#[cfg(unix)]
#[allow(unsafe_code)]
mod sys {
    //! The one unsafe call of the workspace: `dup2`, to point fd 1 elsewhere while handlers run.
    use std::os::fd::{AsFd, AsRawFd};
    use std::os::raw::c_int;
    use std::path::Path;

    extern "C" {
        fn dup2(oldfd: c_int, newfd: c_int) -> c_int;
    }

    /// Saves the real stdout and points fd 1 at stderr (`to_stderr`) or at `log`.
    pub(super) fn redirect_stdout(to_stderr: bool, log: &Path) -> Option<std::fs::File> {
        let saved = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
        let target: std::fs::File = if to_stderr {
            std::fs::File::from(std::io::stderr().as_fd().try_clone_to_owned().ok()?)
        } else {
            if let Some(p) = log.parent() {
                let _ = std::fs::create_dir_all(p);
            }
            match std::fs::OpenOptions::new().create(true).append(true).open(log) {
                Ok(f) => f,
                Err(_) => std::fs::OpenOptions::new().write(true).open("/dev/null").ok()?,
            }
        };
        // SAFETY: both descriptors are valid and owned for the duration of the call; dup2 only
        // replaces fd 1, which Rust's std treats as an opaque, always-open descriptor.
        let rc = unsafe { dup2(target.as_raw_fd(), 1) };
        if rc < 0 {
            return None;
        }
        Some(std::fs::File::from(saved))
    }
}

#[cfg(not(unix))]
mod sys {
    //! Fallback: no descriptor redirection on this platform; handlers must not print to stdout.
    use std::path::Path;

    pub(super) fn redirect_stdout(_to_stderr: bool, _log: &Path) -> Option<std::fs::File> {
        None
    }
}
