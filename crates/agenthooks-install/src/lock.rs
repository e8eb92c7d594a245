//! The per-user install lock: one install or uninstall at a time plans and writes a user's
//! configs, so a multi-file install (Codex `hooks.json` and the trust entries in
//! `config.toml`, whose keys are positions in `hooks.json`) is never interleaved with another.
//!
//! On Unix it is an advisory `flock` on the home directory itself (nothing is created, and the
//! kernel releases it when the process dies). Elsewhere it is a lock file,
//! `<home>/.agenthooks-install.lock`, created exclusively and removed on release; one older
//! than [`STALE`] is taken over (its holder died).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::InstallError;

/// How long to wait for the lock.
const WAIT: Duration = Duration::from_secs(60);

/// How long between attempts.
const POLL: Duration = Duration::from_millis(10);

/// The age at which a lock file is taken over (non-Unix).
#[cfg(not(unix))]
const STALE: Duration = Duration::from_secs(120);

/// A held lock, released on drop.
#[derive(Debug)]
pub(crate) struct Lock {
    #[cfg(unix)]
    _dir: std::fs::File,
    #[cfg(not(unix))]
    file: PathBuf,
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
            return Err(InstallError::Busy { path: lock_path(home) });
        }
        std::thread::sleep(POLL);
    }
}

#[cfg(unix)]
fn lock_path(home: &Path) -> PathBuf {
    home.to_owned()
}

#[cfg(unix)]
fn try_lock(home: &Path) -> Result<Option<Lock>, InstallError> {
    let dir = std::fs::File::open(home).map_err(|e| InstallError::io(home, e))?;
    if sys::flock_exclusive(&dir).map_err(|e| InstallError::io(home, e))? {
        Ok(Some(Lock { _dir: dir }))
    } else {
        Ok(None)
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
}

#[cfg(not(unix))]
fn lock_path(home: &Path) -> PathBuf {
    home.join(".agenthooks-install.lock")
}

#[cfg(not(unix))]
fn try_lock(home: &Path) -> Result<Option<Lock>, InstallError> {
    use std::io::Write as _;
    let file = lock_path(home);
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&file) {
        Ok(mut f) => {
            let _ = write!(f, "{}", std::process::id());
            Ok(Some(Lock { file }))
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

#[cfg(not(unix))]
impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excludes_a_second_holder_until_released() {
        let home = std::env::temp_dir().join(format!("agenthooks-lock-{}", std::process::id()));
        let held = lock(&home).unwrap();
        assert!(try_lock(&home).unwrap().is_none());
        drop(held);
        assert!(try_lock(&home).unwrap().is_some());
        let _ = std::fs::remove_dir_all(&home);
    }
}
