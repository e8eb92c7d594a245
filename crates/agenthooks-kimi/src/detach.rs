//! Opt-in helper to run slow work **after** the hook process has answered.
//!
//! Kimi Code runs every fire-and-forget hook (`PostToolUse`, `PostToolUseFailure`, `Notification`,
//! …) under the abort signal of what triggered it, and it kills the hook's whole process group
//! (SIGTERM, then SIGKILL 100 ms later) when that signal fires. On the real 2.1.0 CLI a
//! `PostToolUse` hook is killed ~15–100 ms after it starts, because the tool call finishes. A
//! handler that uploads telemetry, calls a server or writes a large file inline on those events is
//! cut off part-way, silently (quirk #501).
//!
//! [`detach`] hands the work to a new process and returns at once, so the hook can answer and
//! exit while the worker carries on:
//!
//! 1. the payload is written to a private temporary file (mode `0600` on Unix), in a per-user
//!    `0700` directory (`<temp>/agenthooks-detached-<uid>`, refused when it is a symlink or another
//!    user's)
//!    unless [`Detach::with_temp_dir`] names one;
//! 2. the current executable is spawned again with argv `[DETACH_ARG, task]`, the task name in
//!    [`TASK_ENV`], the file path in [`PAYLOAD_FILE_ENV`], stdin/stdout/stderr on the null device,
//!    and, on Unix, in a **new process group** (on Windows: a new process group, no console), so
//!    Kimi's group kill does not reach it and Kimi does not wait for it — Kimi waits for the hook's
//!    stdout and stderr to close, and the worker holds neither;
//! 3. nothing waits for the worker; it is reparented when the hook exits.
//!
//! The same binary, started as a worker, calls [`take`] first thing in `main`, before any hook
//! dispatch, and does the work. The two variables can also come from a project's `.env` (agents
//! load it into the hook's environment), so [`take`] reads and removes only a file that looks
//! like one [`detach`] wrote: a regular file (not a symlink) named `agenthooks-detached-…`, and on
//! Unix with no group or other permissions and one link. For anything else [`take`] answers
//! `Ok(None)` (logged): the process is not a worker, runs as the hook it was started as, and the
//! file is neither read nor removed.
//!
//! ```no_run
//! fn main() {
//!     match agenthooks_kimi::detach::take() {
//!         Ok(Some(work)) => {
//!             // A detached worker: stdout/stderr go nowhere; log to a file if needed.
//!             if work.task == "upload" {
//!                 upload(&work.payload);
//!             }
//!             return;
//!         }
//!         Ok(None) => {} // a normal hook invocation
//!         Err(_) => return, // the worker could not read its payload
//!     }
//!     // … run the hook as usual; in a PostToolUse handler:
//!     let raw = br#"{"hook_event_name":"PostToolUse"}"#;
//!     let _ = agenthooks_kimi::detach::detach("upload", raw);
//! }
//! # fn upload(_: &[u8]) {}
//! ```
//!
//! Use it only for work whose result nobody waits for: the worker's outcome never reaches Kimi.
//! It is not needed on the three gating events (`PreToolUse`, `UserPromptSubmit`, `Stop`), which
//! Kimi awaits up to the configured timeout.
//!
//! Platforms: Unix and Windows detach as above; elsewhere the worker is spawned plainly (null
//! stdio, not waited for), which still lets the hook answer first but shares its process group.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// First argument of a detached worker's argv (makes workers recognizable in `ps`).
pub const DETACH_ARG: &str = "__agenthooks-detached";
/// Environment variable carrying the task name to the worker.
pub const TASK_ENV: &str = "AGENTHOOKS_DETACHED_TASK";
/// Environment variable carrying the payload file's path to the worker.
pub const PAYLOAD_FILE_ENV: &str = "AGENTHOOKS_DETACHED_PAYLOAD_FILE";

/// The prefix of payload file names in the temporary directory.
const FILE_PREFIX: &str = "agenthooks-detached-";

/// Work received by a detached worker (see [`take`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DetachedWork {
    /// The task name given to [`detach`].
    pub task: String,
    /// The payload bytes given to [`detach`], exactly.
    pub payload: Vec<u8>,
}

/// Why work could not be detached or received.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DetachError {
    /// The current executable's path could not be found.
    #[error("cannot locate the current executable: {0}")]
    CurrentExe(#[source] io::Error),
    /// The payload file could not be written.
    #[error("cannot write the detached payload to {path}: {source}")]
    WritePayload {
        /// The file's path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The worker process could not be started.
    #[error("cannot spawn the detached worker {program}: {source}")]
    Spawn {
        /// The program that was started.
        program: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// A worker found [`PAYLOAD_FILE_ENV`] but could not read the file.
    #[error("cannot read the detached payload {path}: {source}")]
    ReadPayload {
        /// The file's path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// A worker's [`TASK_ENV`] is not valid UTF-8.
    #[error("the detached task name is not UTF-8")]
    TaskNotUtf8,
}

/// A detached worker about to be started; [`detach`] is the short form.
#[derive(Debug, Clone)]
#[must_use]
pub struct Detach {
    task: String,
    program: Option<PathBuf>,
    args: Option<Vec<OsString>>,
    envs: Vec<(OsString, OsString)>,
    temp_dir: Option<PathBuf>,
}

impl Detach {
    /// Work named `task` (the worker sees it as [`DetachedWork::task`]).
    pub fn new(task: impl Into<String>) -> Self {
        Self {
            task: task.into(),
            program: None,
            args: None,
            envs: Vec::new(),
            temp_dir: None,
        }
    }

    /// Starts `program` instead of the current executable.
    pub fn with_program(mut self, program: impl Into<PathBuf>) -> Self {
        self.program = Some(program.into());
        self
    }

    /// Replaces the worker's arguments (default: `[DETACH_ARG, task]`).
    pub fn with_args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        self.args = Some(args.into_iter().map(Into::into).collect());
        self
    }

    /// Adds an environment variable for the worker (it inherits the hook's environment).
    pub fn with_env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.envs.push((key.into(), value.into()));
        self
    }

    /// Writes payload files under `dir` instead of the per-user temporary directory.
    pub fn with_temp_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.temp_dir = Some(dir.into());
        self
    }

    /// Writes the payload, starts the worker and returns its process id without waiting for it.
    pub fn spawn(&self, payload: &[u8]) -> Result<u32, DetachError> {
        let program = match &self.program {
            Some(p) => p.clone(),
            None => std::env::current_exe().map_err(DetachError::CurrentExe)?,
        };
        let dir = match &self.temp_dir {
            Some(d) => d.clone(),
            None => private_temp_dir().map_err(|source| DetachError::WritePayload {
                path: std::env::temp_dir(),
                source,
            })?,
        };
        let path = write_payload(&dir, payload)?;

        let mut cmd = Command::new(&program);
        match &self.args {
            Some(args) => {
                cmd.args(args);
            }
            None => {
                cmd.arg(DETACH_ARG).arg(&self.task);
            }
        }
        cmd.env(TASK_ENV, &self.task)
            .env(PAYLOAD_FILE_ENV, &path)
            .envs(self.envs.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        platform::detach(&mut cmd);

        match cmd.spawn() {
            // Dropping `Child` neither waits for nor kills the process.
            Ok(child) => Ok(child.id()),
            Err(source) => {
                let _ = fs::remove_file(&path);
                Err(DetachError::Spawn { program, source })
            }
        }
    }
}

/// Runs `task` with `payload` in a detached copy of the current executable (see the module docs).
/// Returns the worker's process id.
pub fn detach(task: &str, payload: &[u8]) -> Result<u32, DetachError> {
    Detach::new(task).spawn(payload)
}

/// In a worker started by [`detach`]: the work to do, with its payload file already removed.
/// `Ok(None)` in any other process, including one whose variables name a file [`detach`] did not
/// write (see the module docs).
pub fn take() -> Result<Option<DetachedWork>, DetachError> {
    take_from(std::env::var_os(TASK_ENV), std::env::var_os(PAYLOAD_FILE_ENV))
}

fn take_from(task: Option<OsString>, file: Option<OsString>) -> Result<Option<DetachedWork>, DetachError> {
    let (Some(task), Some(file)) = (task, file) else {
        return Ok(None);
    };
    let task = task.into_string().map_err(|_| DetachError::TaskNotUtf8)?;
    let path = PathBuf::from(file);
    if !looks_like_payload_file(&path) {
        tracing::warn!(path = %path.display(), "{PAYLOAD_FILE_ENV} names no detached payload file: not a worker, the file is left alone");
        return Ok(None);
    }
    let payload = fs::read(&path).map_err(|source| DetachError::ReadPayload {
        path: path.clone(),
        source,
    })?;
    let _ = fs::remove_file(&path);
    Ok(Some(DetachedWork { task, payload }))
}

/// Whether `path` is a file [`detach`] could have written (see the module docs).
fn looks_like_payload_file(path: &Path) -> bool {
    let named = path
        .file_name()
        .and_then(OsStr::to_str)
        .is_some_and(|n| n.starts_with(FILE_PREFIX));
    let Ok(meta) = fs::symlink_metadata(path) else {
        return false;
    };
    named && meta.file_type().is_file() && platform::private_single_link(&meta)
}

/// The per-user directory of payload files: `<temp>/agenthooks-detached-<uid>` on Unix, made
/// `0700` or verified (a directory, not a symlink, owned by the effective user; tightened to
/// `0700`); `<temp>/agenthooks-detached` elsewhere (the temporary directory is per-user there).
fn private_temp_dir() -> io::Result<PathBuf> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
        // SAFETY: geteuid has no preconditions and cannot fail.
        #[allow(unsafe_code)]
        let euid = unsafe { libc::geteuid() };
        let dir = std::env::temp_dir().join(format!("agenthooks-detached-{euid}"));
        match fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        let meta = fs::symlink_metadata(&dir)?;
        if meta.file_type().is_symlink() || !meta.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a directory (a symlink is refused)", dir.display()),
            ));
        }
        if meta.uid() != euid {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("{} is owned by another user (uid {})", dir.display(), meta.uid()),
            ));
        }
        if meta.mode() & 0o077 != 0 {
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o700))?;
        }
        Ok(dir)
    }
    #[cfg(not(unix))]
    {
        let dir = std::env::temp_dir().join("agenthooks-detached");
        fs::create_dir_all(&dir)?;
        Ok(dir)
    }
}

fn write_payload(dir: &Path, payload: &[u8]) -> Result<PathBuf, DetachError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let mut last_err = None;
    for _ in 0..8 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = format!("{FILE_PREFIX}{}-{nanos:x}-{n}", std::process::id());
        let path = dir.join(name);
        match create_private(&path).and_then(|mut f| f.write_all(payload).and_then(|()| f.flush())) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last_err = Some(e),
            Err(source) => {
                let _ = fs::remove_file(&path);
                return Err(DetachError::WritePayload { path, source });
            }
        }
    }
    Err(DetachError::WritePayload {
        path: dir.to_path_buf(),
        source: last_err.unwrap_or_else(|| io::Error::from(io::ErrorKind::AlreadyExists)),
    })
}

fn create_private(path: &Path) -> io::Result<fs::File> {
    let mut opts = fs::OpenOptions::new();
    opts.write(true).create_new(true);
    platform::private_mode(&mut opts);
    opts.open(path)
}

/// Whether `args` (as from [`std::env::args_os`], program name first) are a detached worker's.
pub fn is_worker_argv<I, S>(args: I) -> bool
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    args.into_iter()
        .nth(1)
        .is_some_and(|a| a.as_ref() == OsStr::new(DETACH_ARG))
}

#[cfg(unix)]
mod platform {
    use std::fs::OpenOptions;
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// A new process group: Kimi kills the hook's group on abort and timeout.
    pub(super) fn detach(cmd: &mut Command) {
        cmd.process_group(0);
    }

    pub(super) fn private_mode(opts: &mut OpenOptions) {
        opts.mode(0o600);
    }

    /// No group or other permissions, and one link (a hard link to another file has two).
    #[allow(clippy::verbose_bit_mask)] // the permission mask reads as one
    pub(super) fn private_single_link(meta: &std::fs::Metadata) -> bool {
        use std::os::unix::fs::MetadataExt;
        meta.mode() & 0o077 == 0 && meta.nlink() == 1
    }
}

#[cfg(windows)]
mod platform {
    use std::fs::OpenOptions;
    use std::os::windows::process::CommandExt;
    use std::process::Command;

    const DETACHED_PROCESS: u32 = 0x0000_0008;
    const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;

    pub(super) fn detach(cmd: &mut Command) {
        cmd.creation_flags(DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP);
    }

    pub(super) fn private_mode(_opts: &mut OpenOptions) {}

    pub(super) fn private_single_link(_meta: &std::fs::Metadata) -> bool {
        true
    }
}

#[cfg(not(any(unix, windows)))]
mod platform {
    use std::fs::OpenOptions;
    use std::process::Command;

    /// Fallback: a plain spawn with null stdio, not waited for.
    pub(super) fn detach(_cmd: &mut Command) {}

    pub(super) fn private_mode(_opts: &mut OpenOptions) {}

    pub(super) fn private_single_link(_meta: &std::fs::Metadata) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_testkit::TempDir;

    #[test]
    fn take_without_env_is_none() {
        assert!(matches!(take_from(None, None), Ok(None)));
        assert!(matches!(take_from(Some("t".into()), None), Ok(None)));
    }

    #[test]
    fn payload_round_trips_through_the_file_and_the_file_is_removed() {
        let tmp = TempDir::new("kimi-roundtrip");
        let dir = tmp.0.clone();
        let payload = b"{\"a\":1}\n\x00\xffbinary";
        let path = write_payload(&dir, payload).unwrap_or_else(|e| panic!("{e}"));
        assert!(path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with(FILE_PREFIX)));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).map(|m| m.permissions().mode() & 0o777);
            assert_eq!(mode.ok(), Some(0o600));
        }
        let work = take_from(Some("upload".into()), Some(path.clone().into_os_string()));
        let work = work
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("no work"));
        assert_eq!(work.task, "upload");
        assert_eq!(work.payload, payload);
        assert!(!path.exists());
        // A second take finds the file gone: a typed error, not a panic.
        let again = take_from(Some("upload".into()), Some(path.into_os_string()));
        assert!(matches!(again, Ok(None)));
    }

    /// The variables can come from a project's `.env`: what `detach` did not write is neither
    /// read nor removed, and the process is not taken for a worker (it runs as the hook).
    #[test]
    fn take_leaves_alone_what_detach_did_not_write() {
        let tmp = TempDir::new("kimi-confined");
        let dir = tmp.0.clone();
        let victim = dir.join(".bashrc");
        fs::write(&victim, b"keep").unwrap();
        let refused = |p: &Path| matches!(take_from(Some("t".into()), Some(p.as_os_str().to_owned())), Ok(None));
        assert!(refused(&victim), "not a payload file's name");
        assert!(refused(&dir), "a directory");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let link = dir.join(format!("{FILE_PREFIX}link"));
            std::os::unix::fs::symlink(&victim, &link).unwrap();
            assert!(refused(&link), "a symlink");
            fs::set_permissions(&victim, fs::Permissions::from_mode(0o600)).unwrap();
            let hard = dir.join(format!("{FILE_PREFIX}hard"));
            fs::hard_link(&victim, &hard).unwrap();
            assert!(refused(&hard), "a second link to another file");
            let loose = dir.join(format!("{FILE_PREFIX}loose"));
            fs::write(&loose, b"x").unwrap();
            fs::set_permissions(&loose, fs::Permissions::from_mode(0o644)).unwrap();
            assert!(refused(&loose), "group or other permissions");
            assert!(loose.exists());
        }
        assert_eq!(fs::read(&victim).unwrap(), b"keep");
    }

    /// Without a directory given, payload files go to a per-user 0700 directory, not the shared
    /// temporary directory.
    #[cfg(unix)]
    #[test]
    fn the_default_payload_dir_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = private_temp_dir().unwrap();
        assert_ne!(dir.parent(), None);
        assert_ne!(dir, std::env::temp_dir());
        assert_eq!(fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
    }

    #[test]
    fn distinct_files_for_concurrent_payloads() {
        let tmp = TempDir::new("kimi-distinct");
        let dir = tmp.0.clone();
        let a = write_payload(&dir, b"a").unwrap_or_else(|e| panic!("{e}"));
        let b = write_payload(&dir, b"b").unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(a, b);
    }

    #[test]
    fn worker_argv_is_recognized() {
        assert!(is_worker_argv(["hook", DETACH_ARG, "upload"]));
        assert!(!is_worker_argv(["hook", "agenthooks", "run"]));
        assert!(!is_worker_argv(["hook"]));
    }

    #[test]
    fn spawn_failure_removes_the_payload_file() {
        let tmp = TempDir::new("kimi-spawnfail");
        let dir = tmp.0.clone();
        let err = Detach::new("t")
            .with_program(dir.join("does-not-exist"))
            .with_temp_dir(&dir)
            .spawn(b"x");
        assert!(matches!(err, Err(DetachError::Spawn { .. })));
        let left = fs::read_dir(&dir).map_or(usize::MAX, Iterator::count);
        assert_eq!(left, 0);
    }
}
