//! Pinned npm packages in a reusable cache directory.
//!
//! Layout under the cache root (default `$HOME/.cache/agenthooks-e2e`, or
//! `$AGENTHOOKS_E2E_CACHE`):
//!
//! ```text
//! npm/<name>@<version>/             an `npm install --prefix` of exactly that package
//! npm/<name>@<version>/.complete    written last: a half-finished install is redone
//! npm-cache/                        npm's own download cache (npm_config_cache)
//! xdg-cache/                        shared XDG cache (Copilot unpacks ~235 MB there on first start)
//! ```
//!
//! Installs go to a temporary sibling first and are renamed into place, so an interrupted run
//! never leaves a directory that looks complete. A failed install is an error naming the
//! package, the registry and npm's output: a registry outage fails the run visibly.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Env: the cache root.
pub const CACHE_ENV: &str = "AGENTHOOKS_E2E_CACHE";

/// The Node.js the agents run under (and that Kimi Code, which needs ≥ 22.19, requires): the
/// registry package `node-linux-<arch>` at this version.
pub const NODE_VERSION: &str = "24.22.3";

/// The cache.
#[derive(Debug, Clone)]
pub struct Cache {
    root: PathBuf,
}

impl Cache {
    /// The cache at `$AGENTHOOKS_E2E_CACHE`, else `$HOME/.cache/agenthooks-e2e`, else the temp dir.
    pub fn from_env() -> Self {
        let root = std::env::var_os(CACHE_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|v| !v.is_empty())
                    .map(|h| Path::new(&h).join(".cache/agenthooks-e2e"))
            })
            .unwrap_or_else(|| std::env::temp_dir().join("agenthooks-e2e-cache"));
        Self { root }
    }

    /// A cache at `root`.
    pub fn at(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// The root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The shared XDG cache directory.
    pub fn xdg_cache(&self) -> PathBuf {
        self.root.join("xdg-cache")
    }

    /// The install prefix of `name@version` (whether or not it is installed).
    pub fn prefix(&self, name: &str, version: &str) -> PathBuf {
        self.root
            .join("npm")
            .join(format!("{}@{version}", name.replace('/', "+")))
    }

    /// Installs `name@version` unless already complete; returns the prefix.
    pub fn ensure(&self, name: &str, version: &str) -> Result<PathBuf, String> {
        self.ensure_under(name, version, None)
    }

    /// [`Cache::ensure`] with `node_bin` first on npm's `PATH`: npm then runs under that Node and
    /// its engine checks see it (OpenClaw needs Node ≥ 24.16; under Node 20 npm silently installs
    /// an empty placeholder).
    pub fn ensure_under(&self, name: &str, version: &str, node_bin: Option<&Path>) -> Result<PathBuf, String> {
        let prefix = self.prefix(name, version);
        if prefix.join(".complete").is_file() {
            return Ok(prefix);
        }
        let npm = which("npm").ok_or_else(|| format!("cannot install {name}@{version}: `npm` is not on PATH"))?;
        let parent = prefix.parent().unwrap_or(&self.root).to_path_buf();
        std::fs::create_dir_all(&parent).map_err(|e| format!("creating {}: {e}", parent.display()))?;
        let staging = parent.join(format!(
            ".staging-{}-{}",
            std::process::id(),
            prefix
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default()
        ));
        let _ = std::fs::remove_dir_all(&staging);
        std::fs::create_dir_all(&staging).map_err(|e| format!("creating {}: {e}", staging.display()))?;
        let spec = format!("{name}@{version}");
        let out = crate::run::output_with_timeout(
            Command::new(&npm)
                .args(["install", "--prefix"])
                .arg(&staging)
                .args([
                    "--no-audit",
                    "--no-fund",
                    "--no-save",
                    "--no-package-lock",
                    "--loglevel=error",
                    "--no-update-notifier",
                ])
                .arg(&spec)
                .env("npm_config_cache", self.root.join("npm-cache"))
                .envs(node_bin.map(|b| {
                    let path = std::env::var_os("PATH").unwrap_or_default();
                    let mut dirs = vec![b.to_path_buf()];
                    dirs.extend(std::env::split_paths(&path));
                    ("PATH", std::env::join_paths(dirs).unwrap_or(path))
                })),
            Duration::from_secs(600),
        )
        .map_err(|e| format!("npm install {spec}: {e}"))?;
        if !out.success {
            let _ = std::fs::remove_dir_all(&staging);
            let registry = crate::run::output_with_timeout(
                Command::new(&npm).args(["config", "get", "registry"]),
                Duration::from_secs(30),
            )
            .map(|o| o.stdout.trim().to_owned())
            .unwrap_or_default();
            let output = format!("{}{}", out.stdout, out.stderr);
            let headline = output
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("no output")
                .to_owned();
            let how = if out.timed_out {
                "timed out".to_owned()
            } else {
                out.code.map_or_else(|| "killed".to_owned(), |c| format!("exit {c}"))
            };
            return Err(format!(
                "npm install {spec} failed (registry {registry}, {how}): {headline}\n{output}"
            ));
        }
        std::fs::write(staging.join(".complete"), format!("{spec}\n"))
            .map_err(|e| format!("marking {spec} complete: {e}"))?;
        let _ = std::fs::remove_dir_all(&prefix);
        std::fs::rename(&staging, &prefix).map_err(|e| format!("moving {spec} into place: {e}"))?;
        // A postinstall that links its platform binary by absolute path (OpenCode 1.1.x:
        // `bin/opencode -> <staging>/node_modules/opencode-linux-x64/bin/opencode`) would point
        // into the staging directory, gone after the rename.
        repoint_symlinks(&prefix, &staging, &prefix);
        Ok(prefix)
    }

    /// Installs the pinned Node.js and returns its `bin` directory (put it first on `PATH`).
    pub fn node(&self) -> Result<PathBuf, String> {
        let arch = match std::env::consts::ARCH {
            "x86_64" => "x64",
            "aarch64" => "arm64",
            other => return Err(format!("no node-linux package for architecture {other}")),
        };
        let pkg = format!("node-linux-{arch}");
        let prefix = self.ensure(&pkg, NODE_VERSION)?;
        let bin = prefix.join("node_modules").join(&pkg).join("bin");
        if bin.join("node").is_file() {
            Ok(bin)
        } else {
            Err(format!(
                "{pkg}@{NODE_VERSION} installed but {} has no `node`",
                bin.display()
            ))
        }
    }
}

/// The first executable named `name` on `PATH`.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// Re-points every symlink under `dir` whose absolute target lies under `from` to the same path
/// under `to` (best effort: an entry that cannot be read or relinked is left as it is).
fn repoint_symlinks(dir: &Path, from: &Path, to: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            let Ok(target) = std::fs::read_link(&path) else {
                continue;
            };
            if let Ok(rest) = target.strip_prefix(from) {
                let fixed = to.join(rest);
                if std::fs::remove_file(&path).is_ok() {
                    let _ = link(&fixed, &path);
                }
            }
        } else if meta.is_dir() {
            repoint_symlinks(&path, from, to);
        }
    }
}

#[cfg(unix)]
fn link(target: &Path, at: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, at)
}

#[cfg(not(unix))]
fn link(target: &Path, at: &Path) -> std::io::Result<()> {
    std::fs::copy(target, at).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        let c = Cache::at("/c");
        assert_eq!(
            c.prefix("@openai/codex", "0.171.0"),
            Path::new("/c/npm/@openai+codex@0.171.0")
        );
        assert_eq!(c.xdg_cache(), Path::new("/c/xdg-cache"));
    }

    #[test]
    fn complete_installs_are_not_redone() {
        let dir = std::env::temp_dir().join(format!("agenthooks-e2e-npm-test-{}", std::process::id()));
        let c = Cache::at(&dir);
        let p = c.prefix("x", "1.0.0");
        std::fs::create_dir_all(&p).expect("mkdir");
        std::fs::write(p.join(".complete"), "x@1.0.0\n").expect("write");
        assert_eq!(c.ensure("x", "1.0.0").expect("cached"), p);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_into_the_staging_dir_follow_the_rename() {
        let root = std::env::temp_dir().join(format!("agenthooks-npm-relink-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (staging, prefix) = (root.join(".staging"), root.join("pkg@1"));
        let bin = staging.join("node_modules/a/bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(staging.join("node_modules/a/real"), "x").unwrap();
        std::os::unix::fs::symlink(staging.join("node_modules/a/real"), bin.join("tool")).unwrap();
        std::os::unix::fs::symlink("../real", bin.join("relative")).unwrap();
        std::fs::rename(&staging, &prefix).unwrap();
        super::repoint_symlinks(&prefix, &staging, &prefix);
        let tool = prefix.join("node_modules/a/bin/tool");
        assert_eq!(std::fs::read_link(&tool).unwrap(), prefix.join("node_modules/a/real"));
        assert_eq!(std::fs::read_to_string(&tool).unwrap(), "x");
        let rel = prefix.join("node_modules/a/bin/relative");
        assert_eq!(std::fs::read_link(rel).unwrap(), Path::new("../real"));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
