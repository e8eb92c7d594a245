//! The stdout guard: file descriptor 1 points away from the real stdout while handlers run (to
//! stderr, or where the agent reserves stderr, to a buffer copied to `handler-stdout.log` in the
//! state directory when a handler wrote to it), so a stray `println!` cannot corrupt the
//! response; the response is written to the saved original.
//!
//! The redirect costs no filesystem call on the fast path: on Linux the buffer is an anonymous
//! `memfd` (one system call, no path walk, no `mkdir`), and the log file is opened only when the
//! buffer is not empty at the end. On other Unix systems fd 1 points at the log file itself
//! (opened directly; its directory is created only when the open fails).
//!
//! The `unsafe` calls (`dup2`, `memfd_create`) live here, in `mod sys`, with a non-Unix fallback
//! that does not redirect; the deadline's live in `deadline::sys`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::codec::{StderrUse, WireResponse};

/// What fd 1 points at while handlers run, when it is a buffer to copy to the log at the end.
pub(super) struct Stray {
    /// The buffer (fd 1 is a duplicate of it).
    pub(super) file: std::fs::File,
    /// Where its bytes go when there are any.
    pub(super) log: PathBuf,
}

/// Points fd 1 away from the real stdout while handlers run and writes the response to the
/// saved original.
pub(super) struct StdoutGuard {
    pub(super) saved: Option<std::fs::File>,
    pub(super) stray: Option<Stray>,
}

impl StdoutGuard {
    pub(super) fn none() -> Self {
        Self {
            saved: None,
            stray: None,
        }
    }

    pub(super) fn redirect(enabled: bool, stderr_use: StderrUse, state_dir: Option<&Path>) -> Self {
        if !enabled {
            return Self::none();
        }
        let log = state_dir.map(|d| d.join("handler-stdout.log"));
        match sys::redirect_stdout(stderr_use == StderrUse::Logs, log.as_deref()) {
            Some((saved, stray)) => Self {
                saved: Some(saved),
                stray,
            },
            None => Self::none(),
        }
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
        if let Some(s) = self.stray {
            if let Err(e) = s.keep() {
                tracing::warn!(error = %e, log = %s.log.display(), "could not keep a handler's stdout");
            }
        }
        r.exit_code
    }
}

impl Stray {
    /// Appends what handlers wrote to fd 1 (if anything) to the log.
    fn keep(&self) -> io::Result<()> {
        use std::io::{Seek, SeekFrom};
        if self.file.metadata()?.len() == 0 {
            return Ok(());
        }
        let mut log = open_append(&self.log)?;
        let mut buf = &self.file;
        buf.seek(SeekFrom::Start(0))?;
        io::copy(&mut buf, &mut log).map(drop)
    }
}

/// Opens `path` (in the private state directory) for appending: created `0600`, never through
/// a symlink.
fn open_append(path: &Path) -> io::Result<std::fs::File> {
    crate::safe_fs::open_append_private(path)
}

#[cfg(unix)]
#[allow(unsafe_code)]
mod sys {
    //! `dup2`, to point fd 1 elsewhere while handlers run, and `memfd_create` (Linux) for the
    //! buffer it points at.
    use std::os::fd::{AsFd, AsRawFd};
    use std::path::Path;

    use super::Stray;

    /// Saves the real stdout and points fd 1 at stderr (`to_stderr`), else at a buffer for
    /// `log` (Linux) or at `log` itself; `/dev/null` when neither can be had (or there is no
    /// `log`: no private state directory).
    pub(super) fn redirect_stdout(to_stderr: bool, log: Option<&Path>) -> Option<(std::fs::File, Option<Stray>)> {
        let saved = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
        let (target, stray) = if to_stderr {
            (
                std::fs::File::from(std::io::stderr().as_fd().try_clone_to_owned().ok()?),
                None,
            )
        } else if let Some((buf, log)) = log.and_then(|l| Some((memfd()?, l))) {
            let target = buf.try_clone().ok()?;
            (
                target,
                Some(Stray {
                    file: buf,
                    log: log.to_path_buf(),
                }),
            )
        } else {
            match log.map_or_else(|| Err(std::io::ErrorKind::NotFound.into()), super::open_append) {
                Ok(f) => (f, None),
                Err(_) => (std::fs::OpenOptions::new().write(true).open("/dev/null").ok()?, None),
            }
        };
        // SAFETY: both descriptors are valid and owned for the duration of the call; dup2 only
        // replaces fd 1, which Rust's std treats as an opaque, always-open descriptor.
        let rc = unsafe { libc::dup2(target.as_raw_fd(), 1) };
        if rc < 0 {
            return None;
        }
        Some((std::fs::File::from(saved), stray))
    }

    /// An anonymous in-memory file (close-on-exec; fd 1, its duplicate, is inherited as before).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn memfd() -> Option<std::fs::File> {
        use std::os::fd::FromRawFd;
        // SAFETY: a NUL-terminated name and valid flags; the call returns a new descriptor or -1.
        let fd = unsafe { libc::memfd_create(c"agenthooks-handler-stdout".as_ptr(), libc::MFD_CLOEXEC) };
        // SAFETY: a fresh descriptor nobody else owns.
        (fd >= 0).then(|| unsafe { std::fs::File::from_raw_fd(fd) })
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn memfd() -> Option<std::fs::File> {
        None
    }
}

#[cfg(not(unix))]
mod sys {
    //! Fallback: no descriptor redirection on this platform; handlers must not print to stdout.
    use std::path::Path;

    use super::Stray;

    pub(super) fn redirect_stdout(_to_stderr: bool, _log: Option<&Path>) -> Option<(std::fs::File, Option<Stray>)> {
        None
    }
}
