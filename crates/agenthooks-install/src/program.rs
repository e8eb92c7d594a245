//! The hook command's program, made absolute at install time.
//!
//! Agents run hook commands from the project directory, and the bridges start the command
//! there too (Windows searches the current directory before `PATH`): a bare program name in
//! a hook would run whatever file of that name a repository commits. So install writes an
//! absolute program: a bare name is looked up on `PATH` now (absolute entries only; on Windows
//! also with each `PATHEXT` extension), a relative path with a separator is joined to the
//! current directory.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::error::InstallError;
use crate::fsys::normalize;

/// `command` with its program (first word) made absolute: a bare name (no path separator)
/// is looked up in the directories of `path` (a `PATH` value; relative entries are skipped),
/// a relative path is joined to `cwd` (with `.` and `..` resolved lexically), an absolute one
/// is kept. The other words are kept.
///
/// ```
/// use std::path::Path;
/// use agenthooks_install::absolute_command;
/// let cmd = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// let cwd = Path::new("/work/repo");
/// assert_eq!(absolute_command(&cmd(&["./bin/guard", "-v"]), cwd, None).unwrap(), cmd(&["/work/repo/bin/guard", "-v"]));
/// assert_eq!(absolute_command(&cmd(&["/opt/guard"]), cwd, None).unwrap(), cmd(&["/opt/guard"]));
/// let e = absolute_command(&cmd(&["no-such-guard-program"]), cwd, Some("/nonexistent".as_ref())).unwrap_err();
/// assert!(e.to_string().contains("not found on PATH"));
/// ```
pub fn absolute_command(command: &[String], cwd: &Path, path: Option<&OsStr>) -> Result<Vec<String>, InstallError> {
    let Some(program) = command.first() else {
        return Ok(Vec::new());
    };
    let p = Path::new(program);
    if p.is_absolute() {
        return Ok(command.to_vec());
    }
    let bare = !program.contains('/') && !program.contains(std::path::MAIN_SEPARATOR);
    let resolved = if bare {
        search(program, path).ok_or_else(|| InstallError::ProgramNotFound {
            program: program.clone(),
        })?
    } else {
        normalize(&cwd.join(p))
    };
    let Some(text) = resolved.to_str() else {
        return Err(InstallError::ProgramNotFound {
            program: program.clone(),
        });
    };
    let mut out = vec![text.to_owned()];
    out.extend(command[1..].iter().cloned());
    Ok(out)
}

/// The first executable file named `name` in the absolute directories of `path`.
fn search(name: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    let path = path?;
    std::env::split_paths(path)
        .filter(|d| d.is_absolute())
        .flat_map(|d| candidates(&d, name))
        .find(|c| executable(c))
}

/// The file names to try in one directory.
#[cfg(windows)]
fn candidates(dir: &Path, name: &str) -> Vec<PathBuf> {
    let exts = std::env::var("PATHEXT").unwrap_or_else(|_| ".COM;.EXE;.BAT;.CMD".to_owned());
    let mut out = Vec::new();
    if Path::new(name).extension().is_some() {
        out.push(dir.join(name));
    }
    out.extend(
        exts.split(';')
            .filter(|e| !e.is_empty())
            .map(|e| dir.join(format!("{name}{e}"))),
    );
    out
}

#[cfg(not(windows))]
fn candidates(dir: &Path, name: &str) -> Vec<PathBuf> {
    vec![dir.join(name)]
}

#[cfg(unix)]
fn executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn executable(p: &Path) -> bool {
    p.is_file()
}
