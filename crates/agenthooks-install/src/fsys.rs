//! File access: the read-only [`FsView`] planning uses, and atomic writes.
//!
//! Planning never writes: it reads current contents through an [`FsView`] ([`RealFs`] for the
//! disk, [`MemFs`] for tests and dry runs, an empty view for [`render`](crate::render)). Writing
//! happens only in [`Plan::apply`](crate::Plan::apply), one file at a time, each atomically.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::InstallError;

/// Read access to config files.
pub trait FsView {
    /// The file's text, or `None` if it does not exist.
    fn read(&self, path: &Path) -> Result<Option<String>, InstallError>;

    /// The canonical form of a path (symlinks resolved) as far as it exists; the rest is
    /// appended lexically. Codex trust keys and project-trust keys use it.
    fn canonical(&self, path: &Path) -> PathBuf {
        normalize(path)
    }

    /// Where `path` points when it is a symlink (its last component; the link's text, as
    /// written), else `None`. Planning refuses a dangling link and one that resolves outside
    /// the directory the target may write in. The default: no symlinks.
    fn read_link(&self, path: &Path) -> Option<PathBuf> {
        let _ = path;
        None
    }

    /// Whether a directory exists at `path` (install records the directories it creates, so
    /// that uninstall removes them). The default: none does.
    fn is_dir(&self, path: &Path) -> bool {
        let _ = path;
        false
    }
}

/// The real file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct RealFs;

impl FsView for RealFs {
    fn read(&self, path: &Path) -> Result<Option<String>, InstallError> {
        match fs::read(path) {
            Ok(bytes) => String::from_utf8(bytes)
                .map(Some)
                .map_err(|e| InstallError::malformed(path, "text", format!("not UTF-8 ({e})"))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(InstallError::io(path, e)),
        }
    }

    fn canonical(&self, path: &Path) -> PathBuf {
        let path = normalize(path);
        let mut existing = path.as_path();
        let mut rest = Vec::new();
        loop {
            if let Ok(c) = fs::canonicalize(existing) {
                let mut out = c;
                for r in rest.iter().rev() {
                    out.push(r);
                }
                return out;
            }
            match (existing.parent(), existing.file_name()) {
                (Some(parent), Some(name)) => {
                    rest.push(name.to_owned());
                    existing = parent;
                }
                _ => return path,
            }
        }
    }

    fn read_link(&self, path: &Path) -> Option<PathBuf> {
        fs::symlink_metadata(path)
            .ok()
            .filter(|m| m.file_type().is_symlink())
            .and_then(|_| fs::read_link(path).ok())
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }
}

/// An in-memory file system (tests, previews).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemFs {
    /// Files by path.
    pub files: BTreeMap<PathBuf, String>,
}

impl MemFs {
    /// An empty file system.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file.
    #[must_use]
    pub fn with(mut self, path: impl Into<PathBuf>, text: impl Into<String>) -> Self {
        self.files.insert(path.into(), text.into());
        self
    }
}

impl FsView for MemFs {
    fn read(&self, path: &Path) -> Result<Option<String>, InstallError> {
        Ok(self.files.get(path).cloned())
    }

    /// A directory exists where a file lies below it.
    fn is_dir(&self, path: &Path) -> bool {
        self.files.keys().any(|f| f != path && f.starts_with(path))
    }
}

/// A view with no files (used by `render`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct EmptyFs;

impl FsView for EmptyFs {
    fn read(&self, _: &Path) -> Result<Option<String>, InstallError> {
        Ok(None)
    }
}

/// Removes `.` and resolves `..` lexically: `..` of the root is the root, and a relative path
/// keeps the leading `..`s it cannot resolve.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir) => {}
                _ => out.push(".."),
            },
            other => out.push(other.as_os_str()),
        }
    }
    out
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `contents` to `path` atomically: a temporary file in the same directory, written,
/// flushed and fsynced, given the existing file's permissions (and owner, where allowed), then
/// renamed over the target, and the directory fsynced. A symlink is followed: its target is
/// replaced, the link stays; a dangling one is never replaced by a file. A new file is created
/// `0600` on Unix when `private` (it holds a credential); an existing one keeps its mode either
/// way.
pub(crate) fn atomic_write(path: &Path, contents: &str, private: bool) -> Result<(), InstallError> {
    let real = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).map_err(|_| InstallError::DanglingSymlink {
            link: path.to_owned(),
            target: link_target(path),
        })?,
        _ => path.to_owned(),
    };
    let dir = real
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| InstallError::io(dir, e))?;
    let existing = fs::metadata(&real).ok();
    let name = real
        .file_name()
        .map_or_else(|| "config".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(
        ".{name}.agenthooks-{}-{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| -> io::Result<()> {
        let mut opts = fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        if private && existing.is_none() {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        #[cfg(not(unix))]
        let _ = private;
        let mut f = opts.open(&tmp)?;
        if let Some(m) = &existing {
            f.set_permissions(m.permissions())?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                let (uid, gid) = (m.uid(), m.gid());
                // Keep the owner when we may (e.g. root editing a user's file); ignore refusal.
                let _ = std::os::unix::fs::fchown(&f, Some(uid), Some(gid));
            }
        }
        f.write_all(contents.as_bytes())?;
        f.flush()?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, &real)?;
        sync_dir(dir);
        Ok(())
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(InstallError::io(&real, e));
    }
    Ok(())
}

/// The name of a directory that is ours alone (OpenClaw's `extensions/agenthooks/`): removed
/// with the last file in it.
const OUR_DIR: &str = "agenthooks";

/// Whether `dir` is a directory only agenthooks puts things in, removed once empty: our
/// plugin directory, and the install records' `.agenthooks/created/` (see [`crate::record`]).
fn ours_alone(dir: &Path) -> bool {
    let [top, sub] = crate::record::RECORD_DIR;
    let name = dir.file_name();
    name.is_some_and(|n| n == OUR_DIR || n == top)
        || (name.is_some_and(|n| n == sub) && dir.parent().and_then(Path::file_name).is_some_and(|n| n == top))
}

/// Where the symlink at `path` points, its relative text resolved against its directory.
pub(crate) fn link_target(path: &Path) -> PathBuf {
    fs::read_link(path).map_or_else(
        |_| path.to_owned(),
        |to| normalize(&path.parent().unwrap_or(Path::new("")).join(to)),
    )
}

/// Removes a file and fsyncs its directory; directories of ours left empty go too. A symlink
/// is never removed (planning writes through it instead; see `Cx::finish`).
pub(crate) fn remove(path: &Path) -> Result<(), InstallError> {
    if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        tracing::warn!(path = %path.display(), "not removing a symlink");
        return Ok(());
    }
    match fs::remove_file(path) {
        Ok(()) => {
            let mut dir = path.parent();
            while let Some(d) = dir {
                if !(ours_alone(d) && fs::remove_dir(d).is_ok()) {
                    sync_dir(d);
                    break;
                }
                dir = d.parent();
            }
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(InstallError::io(path, e)),
    }
}

/// Removes `dir` when it is an empty directory (not a symlink to one); anything else stays.
pub(crate) fn remove_empty_dir(dir: &Path) {
    if fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) && fs::remove_dir(dir).is_ok() {
        tracing::debug!(dir = %dir.display(), "removed a directory install created");
        if let Some(parent) = dir.parent() {
            sync_dir(parent);
        }
    }
}

fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes() {
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(normalize(Path::new("a/../../b")), PathBuf::from("../b"));
        assert_eq!(normalize(Path::new("../../b/./c/..")), PathBuf::from("../../b"));
        assert_eq!(normalize(Path::new("/a/../../b")), PathBuf::from("/b"));
        assert_eq!(normalize(Path::new("./.")), PathBuf::new());
    }
}
