//! The per-user install lock: one install or uninstall at a time plans and writes a user's
//! configs, so a multi-file install (Codex `hooks.json` and the trust entries in
//! `config.toml`, whose keys are positions in `hooks.json`) is never interleaved with another.
//!
//! On Unix it is an advisory `flock` on the home directory itself (nothing is created, and the
//! kernel releases it when the process dies). Elsewhere, and where the file system has no
//! `flock` (some network mounts), it is a lock file, `<home>/.agenthooks-install.lock`,
//! created exclusively and removed on release; one older than [`STALE`] is taken over (its
//! holder died).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::InstallError;

/// How long to wait for the lock.
const WAIT: Duration = Duration::from_secs(60);

/// How long between attempts.
const POLL: Duration = Duration::from_millis(10);

/// The age at which a lock file is taken over.
const STALE: Duration = Duration::from_secs(120);

/// A held lock, released on drop.
#[derive(Debug)]
pub(crate) struct Lock {
    /// The directory holding the `flock` (Unix).
    _dir: Option<std::fs::File>,
    /// The lock file to remove on release.
    file: Option<PathBuf>,
}

impl Drop for Lock {
    fn drop(&mut self) {
        if let Some(f) = &self.file {
            let _ = std::fs::remove_file(f);
        }
    }
}

/// Takes the install lock of the user whose home is `home` (created if missing), waiting up
/// to [`WAIT`].
pub(crate) fn lock(home: &Path) -> Result<Lock, InstallError> {
    std::fs::create_dir_all(home).map_err(|e| InstallError::io(home, e))?;
    let until = Instant::now() + WAIT;
    loop {
        if let Some(l) = try_lock(home)? {
            return Ok(l);
        }
        if Instant::now() >= until {
            return Err(InstallError::Busy { path: home.to_owned() });
        }
        std::thread::sleep(POLL);
    }
}

/// One attempt: `flock` where it works, else the lock file.
fn try_lock(home: &Path) -> Result<Option<Lock>, InstallError> {
    #[cfg(unix)]
    {
        let dir = std::fs::File::open(home).map_err(|e| InstallError::io(home, e))?;
        match sys::flock_exclusive(&dir) {
            Ok(true) => {
                return Ok(Some(Lock {
                    _dir: Some(dir),
                    file: None,
                }))
            }
            Ok(false) => return Ok(None),
            Err(e) if sys::unsupported(&e) => {
                tracing::debug!(home = %home.display(), error = %e, "no flock here: using a lock file");
            }
            Err(e) => return Err(InstallError::io(home, e)),
        }
    }
    lock_file(home)
}

/// The exclusive lock file (taken over when older than [`STALE`]).
fn lock_file(home: &Path) -> Result<Option<Lock>, InstallError> {
    use std::io::Write as _;
    let file = home.join(".agenthooks-install.lock");
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&file) {
        Ok(mut f) => {
            let _ = write!(f, "{}", std::process::id());
            Ok(Some(Lock {
                _dir: None,
                file: Some(file),
            }))
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let stale = std::fs::metadata(&file)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > STALE);
            if stale {
                tracing::warn!(path = %file.display(), "taking over a stale install lock");
                let _ = std::fs::remove_file(&file);
            }
            Ok(None)
        }
        Err(e) => Err(InstallError::io(&file, e)),
    }
}

#[cfg(unix)]
#[allow(unsafe_code)]
mod sys {
    use std::io;
    use std::os::unix::io::AsRawFd;

    /// `flock(LOCK_EX | LOCK_NB)`: `Ok(false)` when another holds it.
    pub(super) fn flock_exclusive(f: &std::fs::File) -> io::Result<bool> {
        // SAFETY: `flock` on a file descriptor we own for the duration of the call; no memory
        // is passed.
        let rc = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EWOULDBLOCK | libc::EINTR) => Ok(false),
            _ => Err(e),
        }
    }

    /// Whether the file system has no `flock`.
    pub(super) fn unsupported(e: &io::Error) -> bool {
        matches!(e.raw_os_error(), Some(libc::ENOLCK | libc::EOPNOTSUPP | libc::ENOSYS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_testkit::TempDir;

    #[test]
    fn excludes_a_second_holder_until_released() {
        let tmp = TempDir::new("lock-flock");
        let home = &tmp.0;
        let held = lock(home).unwrap();
        assert!(try_lock(home).unwrap().is_none());
        drop(held);
        assert!(try_lock(home).unwrap().is_some());
    }

    /// The lock-file fallback: exclusive, removed on release, a stale one taken over.
    #[test]
    fn the_lock_file_fallback() {
        let tmp = TempDir::new("lock-file");
        let home = &tmp.0;
        let held = lock_file(home).unwrap().unwrap();
        let file = home.join(".agenthooks-install.lock");
        assert!(file.is_file());
        assert!(lock_file(home).unwrap().is_none());
        drop(held);
        assert!(!file.exists());
        // A lock file left by a dead holder, older than STALE: taken over on the next try.
        std::fs::write(&file, "1").unwrap();
        let old = std::time::SystemTime::now() - STALE - Duration::from_secs(1);
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(lock_file(home).unwrap().is_none());
        assert!(lock_file(home).unwrap().is_some());
    }
}
