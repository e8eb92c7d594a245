//! File access for paths an agent's payload or the hook's environment names (a transcript, an
//! MCP config, the state and log directories): none of them can make the hook hang, read
//! without bound, or write through a link to a file it does not own.
//!
//! - `open_regular` (core's `safe_fs`, re-used here) opens for reading without blocking (`O_NONBLOCK` on Unix: a FIFO with no
//!   writer would block `open` forever) and refuses anything but a regular file (a FIFO,
//!   `/dev/zero`, a directory), checked on the open handle (`fstat`), so a swap between a check
//!   and the open changes nothing. `read_regular` adds a byte cap.
//! - [`private_dir`] makes or verifies a per-user directory: created `0700`; an existing one
//!   must be a directory (not a symlink) owned by the effective user; one with group or other
//!   access is tightened to `0700` when the caller says the path is the library's own (a
//!   directory a user named, such as `$AGENTHOOKS_STATE_DIR`, keeps its mode).
//! - [`open_append_private`] and [`create_new_private`] create files `0600` and never follow a
//!   symlink in the last component (`O_NOFOLLOW`; `O_EXCL` for a new file), and refuse what is
//!   not a regular file.
//!
//! Non-Unix builds check with `symlink_metadata` before opening (a narrower guarantee; the
//! platform's per-user temporary directory and ACLs do the rest).

use std::fs::{File, OpenOptions};
use std::io;

pub(crate) use agenthooks_core::safe_fs::{open_regular, read_regular};
use std::path::{Path, PathBuf};

/// An error for a path that is not a regular file.
fn not_regular(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{} is not a regular file", path.display()),
    )
}

/// The effective user id.
#[cfg(unix)]
#[allow(unsafe_code)]
pub(crate) fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Makes `dir` (and its missing parents) and verifies it is private (see the module docs);
/// `tighten`: an existing directory of ours with group or other access is made `0700`.
pub(crate) fn private_dir(dir: &Path, tighten: bool) -> io::Result<()> {
    // The common case, on every hook invocation: it exists and is fine (one `lstat`).
    if std::fs::symlink_metadata(dir).is_ok_and(|m| is_private(&m, tighten)) {
        return Ok(());
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    match builder.create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let meta = std::fs::symlink_metadata(dir)?;
    if meta.file_type().is_symlink() || !meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a directory (a symlink is refused)", dir.display()),
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        if meta.uid() != euid() {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("{} is owned by another user (uid {})", dir.display(), meta.uid()),
            ));
        }
        if tighten && meta.mode() & 0o077 != 0 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
    }
    #[cfg(not(unix))]
    let _ = tighten;
    Ok(())
}

/// Whether `meta` (from `lstat`) is a directory that [`private_dir`] accepts as it is.
#[allow(clippy::verbose_bit_mask)] // the permission mask reads as one
fn is_private(meta: &std::fs::Metadata, tighten: bool) -> bool {
    if meta.file_type().is_symlink() || !meta.is_dir() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.uid() == euid() && (!tighten || meta.mode() & 0o077 == 0)
    }
    #[cfg(not(unix))]
    {
        let _ = tighten;
        true
    }
}

/// A per-user directory under the system's temporary directory: `<temp>/<name>-<uid>` on Unix
/// (made and verified by [`private_dir`]: another user cannot have made it for us), `<temp>/<name>`
/// elsewhere (the temporary directory is per-user there).
pub(crate) fn user_temp_dir(name: &str) -> PathBuf {
    #[cfg(unix)]
    {
        std::env::temp_dir().join(format!("{name}-{}", euid()))
    }
    #[cfg(not(unix))]
    {
        std::env::temp_dir().join(name)
    }
}

/// Replaces the content of `path` (created `0600`; a symlink or a non-regular file is refused).
pub(crate) fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write as _;
    if cfg!(not(unix)) {
        refuse_symlink(path)?;
    }
    let mut opts = OpenOptions::new();
    opts.write(true).create(true);
    private_file_options(&mut opts);
    let mut f = opts.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(not_regular(path));
    }
    f.set_len(0)?;
    f.write_all(bytes)
}

fn private_file_options(opts: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    let _ = opts;
}

/// Whether `path` is a symlink (non-Unix builds check before opening; Unix refuses it in `open`).
fn refuse_symlink(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is a symlink", path.display()),
        )),
        _ => Ok(()),
    }
}

/// Opens `path` for appending, created `0600` when missing; a symlink or a non-regular file is
/// refused (see the module docs).
pub(crate) fn open_append_private(path: &Path) -> io::Result<File> {
    if cfg!(not(unix)) {
        refuse_symlink(path)?;
    }
    let mut opts = OpenOptions::new();
    opts.append(true).create(true);
    private_file_options(&mut opts);
    let f = opts.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(not_regular(path));
    }
    Ok(f)
}

/// Creates `path` exclusively (`0600`, never through a symlink): `Ok(true)` when this call made
/// it, `Ok(false)` when it exists.
pub(crate) fn create_new_private(path: &Path) -> io::Result<bool> {
    let mut opts = OpenOptions::new();
    opts.write(true).create_new(true);
    private_file_options(&mut opts);
    match opts.open(path) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A fresh, empty directory for one test (the runtime's unit tests cannot use the testkit's
    /// `TempDir`: the testkit depends on this crate).
    pub(crate) fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("agenthooks-safe-fs-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[cfg(unix)]
    fn mkfifo(p: &Path) {
        let ok = std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "mkfifo");
    }

    /// Core's reads (`open_regular`, `read_regular`), checked here beside the rest of the file
    /// access: FIFOs are made with `mkfifo`, and the flag is checked against `libc` below.
    #[test]
    fn only_regular_files_are_read_and_within_the_cap() {
        let d = scratch("read");
        let f = d.join("a.json");
        std::fs::write(&f, b"0123456789").unwrap();
        assert_eq!(read_regular(&f, 10).unwrap(), b"0123456789");
        let e = read_regular(&f, 9).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(open_regular(&d).unwrap_err().kind(), io::ErrorKind::InvalidInput);
        #[cfg(unix)]
        {
            // A FIFO with no writer: refused at once, never waited on.
            let fifo = d.join("fifo");
            mkfifo(&fifo);
            let started = Instant::now();
            assert_eq!(read_regular(&fifo, 10).unwrap_err().kind(), io::ErrorKind::InvalidInput);
            assert!(started.elapsed() < Duration::from_secs(1));
            assert_eq!(
                read_regular(Path::new("/dev/zero"), 10).unwrap_err().kind(),
                io::ErrorKind::InvalidInput
            );
            // A symlink to a regular file is read (transcripts may be links).
            std::os::unix::fs::symlink(&f, d.join("link")).unwrap();
            assert_eq!(read_regular(&d.join("link"), 10).unwrap(), b"0123456789");
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// Core spells `O_NONBLOCK` without `libc`: where it does, the value is libc's.
    #[cfg(unix)]
    #[test]
    fn core_s_o_nonblock_is_libc_s() {
        if let Some(flag) = agenthooks_core::safe_fs::O_NONBLOCK {
            assert_eq!(flag, libc::O_NONBLOCK);
        }
    }

    #[cfg(unix)]
    #[test]
    fn private_dirs_are_0700_ours_and_not_links() {
        use std::os::unix::fs::PermissionsExt;
        let d = scratch("dirs");
        let p = d.join("a/b/state");
        private_dir(&p, true).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&p), 0o700);
        // an existing one of ours with loose permissions is tightened
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        private_dir(&p, false).unwrap();
        assert_eq!(mode(&p), 0o755, "a directory a user named keeps its mode");
        private_dir(&p, true).unwrap();
        assert_eq!(mode(&p), 0o700);
        // a symlink (even to a dir of ours) and a file are refused
        std::os::unix::fs::symlink(&p, d.join("link")).unwrap();
        assert!(private_dir(&d.join("link"), false).is_err());
        std::fs::write(d.join("file"), b"").unwrap();
        assert!(private_dir(&d.join("file"), false).is_err());
        // another user's directory is refused (root's /, when we are not root)
        if euid() != 0 {
            assert_eq!(
                private_dir(Path::new("/"), false).unwrap_err().kind(),
                io::ErrorKind::PermissionDenied
            );
        }
        assert!(user_temp_dir("agenthooks").ends_with(format!("agenthooks-{}", euid())));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn private_files_are_0600_and_never_written_through_a_link() {
        use std::io::Write as _;
        use std::os::unix::fs::PermissionsExt;
        let d = scratch("files");
        let log = d.join("x.log");
        open_append_private(&log).unwrap().write_all(b"a\n").unwrap();
        open_append_private(&log).unwrap().write_all(b"b\n").unwrap();
        assert_eq!(std::fs::read(&log).unwrap(), b"a\nb\n");
        assert_eq!(std::fs::metadata(&log).unwrap().permissions().mode() & 0o777, 0o600);
        let target = d.join("bashrc");
        std::fs::write(&target, b"keep").unwrap();
        std::os::unix::fs::symlink(&target, d.join("link.log")).unwrap();
        assert!(open_append_private(&d.join("link.log")).is_err());
        assert!(
            !create_new_private(&d.join("link.log")).unwrap(),
            "exists: not made, not followed"
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        // a FIFO as the log: refused at once
        let fifo = d.join("fifo.log");
        mkfifo(&fifo);
        let started = Instant::now();
        assert!(open_append_private(&fifo).is_err());
        assert!(started.elapsed() < Duration::from_secs(1));
        write_private(&d.join("n"), b"12").unwrap();
        write_private(&d.join("n"), b"3").unwrap();
        assert_eq!(std::fs::read(d.join("n")).unwrap(), b"3");
        assert!(write_private(&d.join("link.log"), b"x").is_err());
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        assert!(create_new_private(&d.join("m")).unwrap());
        assert!(!create_new_private(&d.join("m")).unwrap());
        assert_eq!(
            std::fs::metadata(d.join("m")).unwrap().permissions().mode() & 0o777,
            0o600
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
}
