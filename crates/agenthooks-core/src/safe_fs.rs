//! Reads of paths an agent's payload or the hook's environment names (an MCP config, a
//! transcript): none of them can make the hook hang or read without bound.
//!
//! [`open_regular`] opens for reading without blocking (`O_NONBLOCK` on Unix: a FIFO with no
//! writer would block `open` forever) and refuses anything but a regular file (a FIFO,
//! `/dev/zero`, a directory), checked on the open handle (`fstat`), so a swap between a check
//! and the open changes nothing. [`read_regular`] adds a byte cap.
//!
//! Core links no `libc`: the flag's value is spelled here for the targets whose value is known
//! (Linux on its common architectures, macOS and the BSDs; `agenthooks-runtime` checks it
//! against `libc` in its tests, beside its tests of these reads on a FIFO and `/dev/zero`).
//! Other targets check with `metadata` before opening (a narrower guarantee: a swap between
//! the check and the open is not caught).

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// `O_NONBLOCK` where its value is known (see the module docs): each target list is written
/// once, and a target on neither list gets `None`.
#[doc(hidden)]
pub const O_NONBLOCK: Option<i32> = if cfg!(all(
    any(target_os = "linux", target_os = "android"),
    any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv64",
        target_arch = "powerpc",
        target_arch = "powerpc64",
        target_arch = "s390x",
        target_arch = "loongarch64"
    )
)) {
    Some(0o4000)
} else if cfg!(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly"
)) {
    Some(0x0004)
} else {
    None
};

/// An error for a path that is not a regular file.
fn not_regular(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{} is not a regular file", path.display()),
    )
}

/// Opens `path` for reading when it is a regular file, without ever blocking (see the module
/// docs); symlinks are followed (an agent's transcript may be one).
///
/// ```
/// let e = agenthooks_core::safe_fs::open_regular(std::path::Path::new("/")).unwrap_err();
/// assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
/// ```
pub fn open_regular(path: &Path) -> io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.read(true);
    match O_NONBLOCK {
        #[cfg(unix)]
        Some(flag) => {
            use std::os::unix::fs::OpenOptionsExt;
            opts.custom_flags(flag);
        }
        _ => {
            if !std::fs::metadata(path)?.is_file() {
                return Err(not_regular(path));
            }
        }
    }
    let f = opts.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(not_regular(path));
    }
    Ok(f)
}

/// Reads a regular file of at most `cap` bytes ([`open_regular`]); a larger one is an error of
/// kind [`io::ErrorKind::FileTooLarge`], read no further than `cap + 1` bytes.
pub fn read_regular(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let f = open_regular(path)?;
    let mut bytes = Vec::new();
    f.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("{} is larger than {cap} bytes", path.display()),
        ));
    }
    Ok(bytes)
}
