//! Warm mode's lifecycle around an install, in one place for [`install`](crate::install),
//! [`uninstall`](crate::uninstall), [`doctor`](crate::doctor) and the CLI.
//!
//! The hooks' binary has a warm directory (`agenthooks_runtime::warm_state::WarmDir`,
//! keyed by that binary's path, as the binary keys it from its own executable when it runs).
//! [`warm_endpoint`] fills a warm manifest's endpoint from it (the token, created `0600` on
//! first use; the port install records, a free one the first time; the build of the binary
//! the hooks run). After an install that rendered warm hooks, the build is recorded in the
//! directory's config (a session-start hook of that build retires a server of an older one)
//! and the target joins the directory's install list; after an uninstall, or an install
//! without warm mode, the target leaves the list, and when none is left the server is stopped
//! and the directory removed. An endpoint made by hand (no directory) leaves the warm
//! directories alone. Without the `warm` feature, [`warm_endpoint`] is
//! [`InstallError::WarmUnavailable`] and the rest does nothing.

use std::path::PathBuf;

use crate::error::InstallError;
use crate::manifest::{Manifest, WarmEndpoint};
use crate::target::Target;

/// The warm endpoint of a warm manifest: the token's bearer (the token itself never goes into
/// a config), the port and the build id of the binary the hooks run, in that binary's warm
/// directory (created on first use). What the CLI's `install --warm` renders; [`install`]
/// calls it for a warm manifest without an endpoint.
///
/// [`install`]: crate::install
#[cfg(feature = "warm")]
#[cfg_attr(docsrs, doc(cfg(feature = "warm")))]
pub fn warm_endpoint(manifest: &Manifest) -> Result<WarmEndpoint, InstallError> {
    let hooks = HookWarmDir::of(manifest);
    let dir = &hooks.dir;
    let token = dir.ensure_token().map_err(|e| hooks.error(e))?;
    let port = match dir.port() {
        Some(p) => p,
        None => {
            let p = st::free_port().map_err(|e| hooks.error(e))?;
            dir.write_config(p, None).map_err(|e| hooks.error(e))?;
            p
        }
    };
    // The hooks carry the token's bearer: it passes the hook routes, but whoever reads the
    // config cannot answer the server's challenge or stop it (both take the token itself).
    Ok(WarmEndpoint::new(port, st::bearer(&token), hooks.build()).with_dir(dir.path()))
}

/// A warm manifest's endpoint: this build has no warm mode.
#[cfg(not(feature = "warm"))]
pub fn warm_endpoint(manifest: &Manifest) -> Result<WarmEndpoint, InstallError> {
    let _ = manifest;
    Err(InstallError::WarmUnavailable)
}

/// The manifest [`install`](crate::install) renders: a warm one without an endpoint gets
/// [`warm_endpoint`]'s.
pub(crate) fn with_endpoint(manifest: &Manifest) -> Result<Option<Manifest>, InstallError> {
    if !manifest.warm || manifest.warm_endpoint.is_some() {
        return Ok(None);
    }
    let mut m = manifest.clone();
    m.warm_endpoint = Some(warm_endpoint(manifest)?);
    Ok(Some(m))
}

/// The warm directory of the binary the hooks run, for `doctor` (`None` in a build without
/// warm mode).
#[cfg_attr(feature = "warm", allow(clippy::unnecessary_wraps))] // `None` without warm mode
pub(crate) fn dir_of(manifest: &Manifest) -> Option<PathBuf> {
    #[cfg(feature = "warm")]
    {
        Some(HookWarmDir::of(manifest).dir.path().to_path_buf())
    }
    #[cfg(not(feature = "warm"))]
    {
        let _ = manifest;
        None
    }
}

/// After installing `manifest` for `targets`: a warm install with its warm directory records
/// the build and the targets there; an install without warm mode forgets the targets (see
/// [`released`]).
#[cfg_attr(not(feature = "warm"), allow(clippy::unnecessary_wraps))] // the warm build's signature
pub(crate) fn installed(manifest: &Manifest, targets: &[Target]) -> Result<(), InstallError> {
    #[cfg(feature = "warm")]
    {
        let Some(ep) = manifest.warm_endpoint.as_ref().filter(|_| manifest.warm) else {
            return released(manifest, targets, false);
        };
        let Some(path) = &ep.dir else {
            return Ok(()); // made by hand: no warm directory of ours to keep
        };
        let dir = st::WarmDir::at(path);
        let io = |e: std::io::Error| InstallError::Warm {
            dir: path.clone(),
            source: e,
        };
        dir.write_config(ep.port, Some(&ep.build)).map_err(io)?;
        for t in targets {
            dir.add_install(&label(t)).map_err(io)?;
        }
        Ok(())
    }
    #[cfg(not(feature = "warm"))]
    {
        let _ = (manifest, targets);
        Ok(())
    }
}

/// The targets no longer use warm mode (uninstalled, or re-installed without it): each leaves
/// the warm directory's install list, and when none is left the server is stopped and the
/// directory removed. A directory without a list (no install recorded one) is removed by
/// uninstall (`unlisted_too`: loading a warm manifest for it may just have created it) and left
/// alone by an install.
#[cfg_attr(not(feature = "warm"), allow(clippy::unnecessary_wraps))] // the warm build's signature
pub(crate) fn released(manifest: &Manifest, targets: &[Target], unlisted_too: bool) -> Result<(), InstallError> {
    #[cfg(feature = "warm")]
    {
        let hooks = HookWarmDir::of(manifest);
        let dir = &hooks.dir;
        let mut left = None;
        for t in targets {
            left = dir.remove_install(&label(t)).map_err(|e| hooks.error(e))?;
        }
        if left == Some(0) || (left.is_none() && unlisted_too && dir.path().is_dir()) {
            tracing::info!(dir = %dir.path().display(), "no warm install left: stopping the warm server and removing its directory");
            dir.discard(&hooks.build()).map_err(|e| hooks.error(e))?;
        }
        Ok(())
    }
    #[cfg(not(feature = "warm"))]
    {
        let _ = (manifest, targets, unlisted_too);
        Ok(())
    }
}

#[cfg(feature = "warm")]
use agenthooks_runtime::warm_state as st;

/// The binary the hooks run and its warm directory (the endpoint's, when it names one).
#[cfg(feature = "warm")]
struct HookWarmDir {
    /// The manifest's command's program when it is a file (a consumer binary's own canonical
    /// path, or `--command PATH`), else that program found on `PATH`; `None`: this executable.
    exe: Option<PathBuf>,
    dir: st::WarmDir,
}

#[cfg(feature = "warm")]
impl HookWarmDir {
    fn of(m: &Manifest) -> Self {
        let exe = m.command.first().and_then(|program| {
            let program = std::path::Path::new(program);
            if program.is_file() {
                return Some(program.to_path_buf());
            }
            if program.components().count() == 1 {
                let path = std::env::var_os("PATH")?;
                return std::env::split_paths(&path)
                    .map(|d| d.join(program))
                    .find(|p| p.is_file());
            }
            None
        });
        // The directory an endpoint was made in (the CLI's, or `warm_endpoint`'s), else the
        // one the binary keys from its path.
        let dir = match (m.warm_endpoint.as_ref().and_then(|e| e.dir.as_ref()), &exe) {
            (Some(dir), _) => st::WarmDir::at(dir),
            (None, Some(exe)) => st::WarmDir::for_exe(&agenthooks_core::ProcessEnv, exe),
            (None, None) => st::WarmDir::current(&agenthooks_core::ProcessEnv),
        };
        Self { exe, dir }
    }

    /// The build id of the binary the hooks run.
    fn build(&self) -> String {
        self.exe.as_deref().map_or_else(st::build_id, st::build_id_of)
    }

    fn error(&self, source: std::io::Error) -> InstallError {
        InstallError::Warm {
            dir: self.dir.path().to_path_buf(),
            source,
        }
    }
}

/// The warm directory's name for a target (provider, scope, canonical directories).
#[cfg(feature = "warm")]
fn label(t: &Target) -> String {
    use std::fmt::Write as _;
    let canon = |p: &std::path::Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let mut s = format!("{} ({}) home {}", t.provider, t.scope, canon(&t.home).display());
    if t.scope != crate::scope::Scope::User {
        let _ = write!(s, " root {}", canon(&t.root).display());
    }
    if let Some(h) = &t.agent_home {
        let _ = write!(s, " agent-home {}", canon(h).display());
    }
    s
}
