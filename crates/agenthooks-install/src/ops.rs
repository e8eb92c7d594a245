//! The operations: [`render`] (no I/O), [`plan_install`] and [`plan_uninstall`] over any
//! [`FsView`], and [`diff`], [`install`] and [`uninstall`] against the disk, the last two under the
//! per-user lock.

use std::path::PathBuf;

use serde::Serialize;

use crate::error::InstallError;
use crate::finding::Finding;
use crate::format::FileFormat;
use crate::fsys::{self, FsView, RealFs};
use crate::lock;
use crate::manifest::Manifest;
use crate::plan::{self, Plan, TrustEntry};
use crate::resolve;
use crate::target::Target;
use crate::targets;
use crate::warm;

/// One rendered file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct RenderedFile {
    /// Where it goes.
    pub path: PathBuf,
    /// Its format.
    pub format: FileFormat,
    /// Its full text.
    pub contents: String,
}

/// What a fresh install writes, in memory.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Rendered {
    /// The files.
    pub files: Vec<RenderedFile>,
    /// What the agent will drop or degrade, and trust to know about.
    pub findings: Vec<Finding>,
    /// Codex trust entries.
    pub trust: Vec<TrustEntry>,
}

/// Renders a manifest for a target: the files a fresh install writes, with no I/O.
///
/// ```
/// use agenthooks_core::{EventKind, Provider};
/// use agenthooks_install::{render, HookSpec, Manifest, Target, ToolMatcher};
/// let m = Manifest::new(["/opt/guard"], "guard").with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::names(["Bash"])));
/// let r = render(&m, &Target::project(Provider::CLAUDE_CODE, "/work/repo", "/home/me")).unwrap();
/// assert_eq!(r.files[0].path, std::path::Path::new("/work/repo/.claude/settings.json"));
/// assert!(r.files[0].contents.contains(
///     r#""command": "/opt/guard agenthooks run --provider=claude-code --event=PreToolUse --timeout=600""#));
/// ```
pub fn render(manifest: &Manifest, target: &Target) -> Result<Rendered, InstallError> {
    let plan = plan_install(manifest, target, &fsys::EmptyFs)?;
    Ok(Rendered {
        files: plan
            .files
            .into_iter()
            .filter(|f| f.format != FileFormat::Record)
            .filter_map(|f| {
                Some(RenderedFile {
                    path: f.path,
                    format: f.format,
                    contents: f.after?,
                })
            })
            .collect(),
        findings: plan.findings,
        trust: plan.trust,
    })
}

/// Plans an install against a file-system view (no writes).
pub fn plan_install(manifest: &Manifest, target: &Target, fs: &dyn FsView) -> Result<Plan, InstallError> {
    manifest.validate()?;
    let m = targets::module(&target.provider)?;
    targets::check_scope(m, target)?;
    let (hooks, findings) = resolve::resolve(manifest, target, m)?;
    let mut cx = plan::Cx::new(manifest, target, fs);
    m.install(&mut cx, &hooks)?;
    cx.finish(findings)
}

/// Plans an uninstall against a file-system view (no writes).
pub fn plan_uninstall(manifest: &Manifest, target: &Target, fs: &dyn FsView) -> Result<Plan, InstallError> {
    manifest.validate()?;
    let m = targets::module(&target.provider)?;
    targets::check_scope(m, target)?;
    let mut cx = plan::Cx::new(manifest, target, fs);
    m.uninstall(&mut cx)?;
    cx.finish(Vec::new())
}

/// What [`install`] would change on disk.
pub fn diff(manifest: &Manifest, target: &Target) -> Result<Plan, InstallError> {
    plan_install(manifest, target, &RealFs)
}

/// Installs: plans against the disk, then writes each changed file atomically. Returns the
/// applied plan. On any planning error nothing is written. Planning and writing hold the
/// per-user install lock (concurrent installs and uninstalls take turns).
///
/// Warm mode, as the CLI's `install --warm` does it: a warm manifest without an endpoint gets
/// [`warm_endpoint`](crate::warm_endpoint)'s (with the `warm` feature; else
/// [`InstallError::WarmUnavailable`]); after writing, a warm install records its build and
/// the target in the hooks' warm directory, and an install without warm mode takes the target
/// off that directory's list (stopping the server and removing the directory when it was the
/// last). An endpoint made by hand (no directory) leaves the warm directories alone.
pub fn install(manifest: &Manifest, target: &Target) -> Result<Plan, InstallError> {
    let _lock = lock::lock(&target.home)?;
    let filled = warm::with_endpoint(manifest)?;
    let manifest = filled.as_ref().unwrap_or(manifest);
    let plan = plan_install(manifest, target, &RealFs)?;
    plan.apply()?;
    warm::installed(manifest, std::slice::from_ref(target))?;
    Ok(plan)
}

/// Uninstalls: removes exactly our entries (and Codex trust entries of ours). Returns the
/// applied plan. The target leaves the hooks' warm directory's list; when none is left (or the
/// directory has no list), the warm server is stopped and the directory removed, as the CLI's
/// `uninstall` does.
pub fn uninstall(manifest: &Manifest, target: &Target) -> Result<Plan, InstallError> {
    let _lock = lock::lock(&target.home)?;
    let plan = plan_uninstall(manifest, target, &RealFs)?;
    plan.apply()?;
    warm::released(manifest, std::slice::from_ref(target), true)?;
    Ok(plan)
}
