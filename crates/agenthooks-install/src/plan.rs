//! Plans: what `install` or `uninstall` would write, computed without writing.
//!
//! A [`Plan`] holds, per file, the text before and after and the entries of ours found in each
//! (their [`Fingerprint`]s make `diff` cheap to read). [`render`](crate::render) is a plan
//! against an empty file system; [`install`](crate::install) is a plan against the disk,
//! applied.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use agenthooks_core::digest::{canonical_json, sha256_tagged};
use serde::Serialize;
use serde_json::Value;

use crate::eol;
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::format::FileFormat;
use crate::fsys::{self, FsView};
use crate::manifest::Manifest;
use crate::record::{self, Prune, Record};
use crate::scope::Scope;
use crate::shell::Owner;
use crate::target::Target;

/// What applying a [`FileChange`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ChangeStatus {
    /// Nothing.
    Unchanged,
    /// Creates the file.
    Create,
    /// Rewrites the file.
    Update,
    /// Deletes the file (it held only our entries).
    Delete,
}

/// A SHA-256 over our entries in a file (canonical JSON, keys sorted), `sha256:<hex>`.
/// Equal fingerprints mean our hooks there are exactly the same.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Fingerprint(pub String);

impl Fingerprint {
    /// The fingerprint of a list of entries.
    pub fn of(entries: &[Value]) -> Self {
        let text = canonical_json(&Value::Array(entries.to_vec()));
        Self(sha256_tagged(text.as_bytes()))
    }
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One file a plan touches.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct FileChange {
    /// The path.
    pub path: PathBuf,
    /// Its format.
    pub format: FileFormat,
    /// The text now (`None`: the file does not exist).
    pub before: Option<String>,
    /// The text after (`None`: the file is deleted / stays absent).
    pub after: Option<String>,
    /// Our entries in `before`, canonical form.
    pub ours_before: Vec<Value>,
    /// Our entries in `after`.
    pub ours_after: Vec<Value>,
    /// The text holds a credential (warm mode's bearer): a file the plan creates is created
    /// readable by its owner only (`0600` on Unix). An existing file keeps its mode.
    #[serde(skip)]
    pub private: bool,
}

impl FileChange {
    /// What applying it does.
    pub fn status(&self) -> ChangeStatus {
        match (&self.before, &self.after) {
            (None, None) => ChangeStatus::Unchanged,
            (a, b) if a == b => ChangeStatus::Unchanged,
            (None, Some(_)) => ChangeStatus::Create,
            (Some(_), None) => ChangeStatus::Delete,
            (Some(_), Some(_)) => ChangeStatus::Update,
        }
    }

    /// The fingerprint of our entries before.
    pub fn fingerprint_before(&self) -> Fingerprint {
        Fingerprint::of(&self.ours_before)
    }

    /// The fingerprint of our entries after.
    pub fn fingerprint_after(&self) -> Fingerprint {
        Fingerprint::of(&self.ours_after)
    }

    /// A unified diff of the change (empty when unchanged).
    pub fn unified_diff(&self) -> String {
        if self.status() == ChangeStatus::Unchanged {
            return String::new();
        }
        let name = self.path.display();
        let a = self.before.as_deref().unwrap_or("");
        let b = self.after.as_deref().unwrap_or("");
        let mut out = format!(
            "--- {}\n+++ {}\n",
            if self.before.is_some() {
                format!("a{name}")
            } else {
                "/dev/null".into()
            },
            if self.after.is_some() {
                format!("b{name}")
            } else {
                "/dev/null".into()
            }
        );
        out.push_str(&crate::diff::unified(a, b, 3));
        out
    }
}

/// What an install or uninstall would do on one target.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Plan {
    /// The target.
    #[serde(skip)]
    pub target: Target,
    /// The files it touches, in a stable order.
    pub files: Vec<FileChange>,
    /// What the agent will drop or degrade, and trust to know about.
    pub findings: Vec<Finding>,
    /// Codex per-hook trust entries written (`[hooks.state."<key>"] trusted_hash`).
    pub trust: Vec<TrustEntry>,
    /// Directories an install created that applying this plan removes when they are empty,
    /// innermost first (an uninstall deleting the install's record).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub remove_dirs: Vec<PathBuf>,
}

/// One Codex trust entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TrustEntry {
    /// The native event.
    pub native_event: String,
    /// The state key (`<hooks file>:<event_label>:<group>:<handler>`).
    pub key: String,
    /// The trusted hash (`sha256:<hex>`).
    pub hash: String,
    /// The config file holding `[hooks.state]`.
    pub config: PathBuf,
}

impl Plan {
    /// Whether applying changes nothing.
    pub fn is_noop(&self) -> bool {
        self.files.iter().all(|f| f.status() == ChangeStatus::Unchanged)
    }

    /// The files that change.
    pub fn changes(&self) -> impl Iterator<Item = &FileChange> {
        self.files.iter().filter(|f| f.status() != ChangeStatus::Unchanged)
    }

    /// Writes the plan to disk, all or nothing: first checks that every file still holds what
    /// the plan read (else [`InstallError::Conflict`] and nothing is written), then writes each
    /// changed file atomically; when a write fails, the files already written get their
    /// earlier text back. ([`install`](crate::install) and [`uninstall`](crate::uninstall)
    /// hold the per-user install lock around planning and this.)
    pub fn apply(&self) -> Result<(), InstallError> {
        for f in self.changes() {
            if crate::fsys::RealFs.read(&f.path)? != f.before {
                return Err(InstallError::Conflict { path: f.path.clone() });
            }
        }
        let mut done: Vec<&FileChange> = Vec::new();
        for f in self.changes() {
            if let Err(e) = write_change(&f.path, f.after.as_deref(), f.private) {
                for w in done.iter().rev() {
                    if let Err(re) = write_change(&w.path, w.before.as_deref(), w.private) {
                        tracing::error!(path = %w.path.display(), error = %re, "could not restore after a failed install");
                    }
                }
                return Err(e);
            }
            tracing::debug!(path = %f.path.display(), status = ?f.status(), "agenthooks-install wrote");
            done.push(f);
        }
        for d in &self.remove_dirs {
            fsys::remove_empty_dir(d);
        }
        Ok(())
    }

    /// A unified diff of every change to a config file (the install record that goes with
    /// them, [`FileFormat::Record`], is bookkeeping and left out; [`Plan::files`] has it).
    pub fn unified_diff(&self) -> String {
        self.changes()
            .filter(|f| f.format != FileFormat::Record)
            .map(FileChange::unified_diff)
            .collect()
    }
}

/// Writes `text` to `path` atomically, or removes it (`None`).
fn write_change(path: &Path, text: Option<&str>, private: bool) -> Result<(), InstallError> {
    match text {
        Some(text) => fsys::atomic_write(path, text, private),
        None => fsys::remove(path),
    }
}

/// The planning context a target module writes into.
pub(crate) struct Cx<'a> {
    pub(crate) manifest: &'a Manifest,
    pub(crate) target: &'a Target,
    pub(crate) owner: Owner,
    fs: &'a dyn FsView,
    files: Vec<FileChange>,
    pub(crate) trust: Vec<TrustEntry>,
    /// The install records of the config files planned so far.
    records: Vec<Pending>,
    /// The files whose every line ends in CRLF: target modules see and write their LF view
    /// (see [`crate::eol`]).
    crlf: Vec<PathBuf>,
    /// What a file deleted by the plan holds once our entries are gone: written through instead
    /// when the file is a symlink (a link is never removed).
    residues: Vec<(PathBuf, String)>,
}

/// The install record of one config file while a plan is made.
struct Pending {
    /// The config file (as the target module names it).
    config: PathBuf,
    /// The canonical config path the record names.
    canonical: PathBuf,
    /// Where the record lives.
    path: PathBuf,
    /// The record on disk, if any (and readable).
    on_disk: Option<Record>,
    /// The record this plan writes (set by [`Cx::note_install`]).
    noted: Option<Record>,
}

impl Pending {
    /// The record in force: this plan's, else the one on disk.
    fn current(&self) -> Option<&Record> {
        self.noted.as_ref().or(self.on_disk.as_ref())
    }
}

impl<'a> Cx<'a> {
    pub(crate) fn new(manifest: &'a Manifest, target: &'a Target, fs: &'a dyn FsView) -> Self {
        Self {
            manifest,
            target,
            owner: Owner::new(&manifest.command),
            fs,
            files: Vec::new(),
            trust: Vec::new(),
            records: Vec::new(),
            crlf: Vec::new(),
            residues: Vec::new(),
        }
    }

    /// The install record state of a config file (its record read on first access).
    fn pending(&mut self, config: &Path) -> Result<&mut Pending, InstallError> {
        if let Some(i) = self.records.iter().position(|p| p.config == config) {
            return Ok(&mut self.records[i]);
        }
        let canonical = self.fs.canonical(config);
        let path = record::path(&self.target.home, &canonical, &self.manifest.command);
        let on_disk = self
            .text(&path, FileFormat::Record)?
            .and_then(|t| Record::parse(&path, &t))
            .filter(|r| r.file == canonical && r.command == self.manifest.command);
        self.records.push(Pending {
            config: config.to_owned(),
            canonical,
            path,
            on_disk,
            noted: None,
        });
        let last = self.records.len() - 1;
        Ok(&mut self.records[last])
    }

    /// Which containers of `config` emptied by removing our entries may go: those its record
    /// lists, or (no record) every one (see [`crate::record`]).
    pub(crate) fn prune(&mut self, config: &Path) -> Result<Prune, InstallError> {
        Ok(match self.pending(config)?.current() {
            Some(r) => Prune::Only(r.created.clone()),
            None => Prune::Emptied,
        })
    }

    /// Whether `config` may be deleted once only what a file of ours holds is left: its record
    /// says install created it, or (no record) yes.
    pub(crate) fn may_delete(&mut self, config: &Path) -> Result<bool, InstallError> {
        Ok(self.pending(config)?.current().is_none_or(|r| r.created_file))
    }

    /// Records what an install step created in `config`: the containers in `after` that are
    /// not in `base` (the document the step started from, our old entries removed), plus those
    /// the record already lists that are still there. `before` (the document before the plan)
    /// and `residue` (our old entries were there and the document without them is what a file
    /// of ours leaves) infer the record of a config installed before records existed.
    pub(crate) fn note_install(
        &mut self,
        config: &Path,
        before: Option<&Value>,
        base: &Value,
        after: &Value,
        residue: bool,
    ) -> Result<(), InstallError> {
        let absent = self.files.iter().any(|f| f.path == config && f.before.is_none());
        let command = self.manifest.command.clone();
        let p = self.pending(config)?;
        let mut rec = match (p.noted.take(), &p.on_disk) {
            (Some(r), _) => r,
            (None, Some(r)) => r.clone(),
            (None, None) => {
                let mut r = Record::new(p.canonical.clone(), command);
                if let Some(b) = before {
                    let kept = record::containers(base);
                    r.created = record::containers(b)
                        .into_iter()
                        .filter(|c| !kept.contains(c))
                        .collect();
                }
                r.created_file = residue;
                r
            }
        };
        rec.created_file |= absent;
        let now = record::containers(after);
        let base = record::containers(base);
        rec.created = now
            .iter()
            .filter(|c| rec.created.contains(*c) || !base.contains(*c))
            .cloned()
            .collect();
        p.noted = Some(rec);
        Ok(())
    }

    fn slot(&mut self, path: &Path, format: FileFormat) -> Result<&mut FileChange, InstallError> {
        if let Some(i) = self.files.iter().position(|f| f.path == path) {
            return Ok(&mut self.files[i]);
        }
        let before = self.fs.read(path)?;
        if before.as_deref().is_some_and(eol::is_crlf) {
            self.crlf.push(path.to_owned());
        }
        self.files.push(FileChange {
            path: path.to_owned(),
            format,
            after: before.clone(),
            before,
            ours_before: Vec::new(),
            ours_after: Vec::new(),
            private: false,
        });
        let last = self.files.len() - 1;
        Ok(&mut self.files[last])
    }

    /// Marks the file as holding a credential (see [`FileChange::private`]).
    pub(crate) fn set_private(&mut self, path: &Path, format: FileFormat) -> Result<(), InstallError> {
        self.slot(path, format)?.private = true;
        Ok(())
    }

    /// The directory a file of this target must resolve inside: the project (plugin) directory
    /// for a file in it at project (plugin) scope, else the user's home.
    fn write_root(&self, path: &Path) -> &Path {
        let t = self.target;
        let lexical = fsys::normalize(path);
        let in_root = lexical.starts_with(fsys::normalize(&t.root));
        let in_home = lexical.starts_with(fsys::normalize(&t.home));
        if t.scope != Scope::User && (in_root || !in_home) {
            &t.root
        } else {
            &t.home
        }
    }

    /// Refuses a file the plan writes that resolves (through a symlink, its own or a
    /// directory's) outside [`Cx::write_root`]. A file outside both the project and the home
    /// directory that is not itself a link (an agent home set by its environment variable) is
    /// where the user pointed: allowed. (A dangling link reads as no file; writing one is
    /// refused in [`Cx::set_text`].)
    fn guard(&self, path: &Path) -> Result<(), InstallError> {
        let link = self.fs.read_link(path);
        let root = self.write_root(path);
        if link.is_none() && !fsys::normalize(path).starts_with(fsys::normalize(root)) {
            return Ok(());
        }
        let (resolved, root) = (self.fs.canonical(path), self.fs.canonical(root));
        if resolved.starts_with(&root) {
            Ok(())
        } else {
            Err(InstallError::SymlinkOutside {
                link: path.to_owned(),
                target: resolved,
                root,
            })
        }
    }

    /// Sets the planned text (LF line ends); `None` plans deleting the file, a file of ours
    /// left holding only `residue`: when the file is a symlink, the residue is written through
    /// instead (see [`Cx::finish`]).
    pub(crate) fn set_text_or_residue(
        &mut self,
        path: &Path,
        format: FileFormat,
        text: Option<String>,
        residue: String,
    ) -> Result<(), InstallError> {
        if text.is_some() {
            return self.set_text(path, format, text);
        }
        let residue = if self.crlf.iter().any(|p| p == path) {
            eol::to_crlf(&residue)
        } else {
            residue
        };
        self.residues.retain(|(p, _)| p != path);
        self.residues.push((path.to_owned(), residue));
        self.set_text(path, format, None)
    }

    /// The file's planned text so far (its current text on first access), with LF line ends
    /// (a CRLF file's LF view: see [`crate::eol`]).
    pub(crate) fn text(&mut self, path: &Path, format: FileFormat) -> Result<Option<String>, InstallError> {
        let after = self.slot(path, format)?.after.clone();
        Ok(if self.crlf.iter().any(|p| p == path) {
            after.map(|t| eol::to_lf(&t))
        } else {
            after
        })
    }

    /// Sets the planned text (given with LF line ends; a CRLF file gets CRLF back).
    pub(crate) fn set_text(
        &mut self,
        path: &Path,
        format: FileFormat,
        text: Option<String>,
    ) -> Result<(), InstallError> {
        let crlf = self.crlf.iter().any(|p| p == path);
        let link = self.fs.read_link(path);
        let slot = self.slot(path, format)?;
        if let (Some(to), None, Some(_)) = (link, &slot.before, &text) {
            // A dangling symlink: never replaced by a file.
            let dir = path.parent().unwrap_or(Path::new(""));
            return Err(InstallError::DanglingSymlink {
                link: path.to_owned(),
                target: fsys::normalize(&dir.join(to)),
            });
        }
        slot.after = if crlf { text.map(|t| eol::to_crlf(&t)) } else { text };
        Ok(())
    }

    /// Records our entries before (only the first call counts) and after.
    pub(crate) fn set_ours(
        &mut self,
        path: &Path,
        format: FileFormat,
        before: Vec<Value>,
        after: Vec<Value>,
    ) -> Result<(), InstallError> {
        let f = self.slot(path, format)?;
        if f.ours_before.is_empty() {
            f.ours_before = before;
        }
        f.ours_after = after;
        Ok(())
    }

    /// The canonical path (symlinks resolved as far as they exist).
    pub(crate) fn canonical(&self, path: &Path) -> PathBuf {
        self.fs.canonical(path)
    }

    /// The directories writing `path` creates: its missing ancestors strictly inside
    /// [`Cx::write_root`].
    fn new_dirs(&self, path: &Path) -> Vec<PathBuf> {
        let root = fsys::normalize(self.write_root(path));
        let path = fsys::normalize(path);
        let mut out = Vec::new();
        let mut dir = path.parent();
        while let Some(d) = dir {
            if d == root || !d.starts_with(&root) || self.fs.is_dir(d) {
                break;
            }
            out.push(d.to_owned());
            dir = d.parent();
        }
        out
    }

    /// Whether `dir` lies strictly inside the project or the home directory.
    fn removable(&self, dir: &Path) -> bool {
        let dir = fsys::normalize(dir);
        [&self.target.root, &self.target.home].iter().any(|r| {
            let r = fsys::normalize(r);
            dir != r && dir.starts_with(&r)
        })
    }

    pub(crate) fn finish(mut self, mut findings: Vec<Finding>) -> Result<Plan, InstallError> {
        // The directories this plan creates, for the records it writes.
        let created: BTreeSet<PathBuf> = self
            .files
            .iter()
            .filter(|f| f.before.is_none() && f.after.is_some() && f.format != FileFormat::Record)
            .flat_map(|f| self.new_dirs(&f.path))
            .collect();
        // A whole generated file of ours (OpenCode's shim) has no record of its own: when the
        // plan creates directories and writes no other record, the file gets one holding
        // them; uninstalling it reads that record (and removes the directories).
        let whole = |f: &&FileChange| f.format == FileFormat::Text;
        let shim = self
            .files
            .iter()
            .filter(whole)
            .find(|f| f.before.is_none() && f.after.is_some() && !f.ours_after.is_empty())
            .map(|f| f.path.clone());
        if let (Some(path), false) = (
            shim,
            created.is_empty() || self.records.iter().any(|p| p.noted.is_some()),
        ) {
            let command = self.manifest.command.clone();
            let p = self.pending(&path)?;
            let mut r = p
                .on_disk
                .clone()
                .unwrap_or_else(|| Record::new(p.canonical.clone(), command));
            r.created_file = true;
            p.noted = Some(r);
        }
        let deleted: Vec<PathBuf> = self
            .files
            .iter()
            .filter(whole)
            .filter(|f| f.before.is_some() && f.after.is_none() && !f.ours_before.is_empty())
            .map(|f| f.path.clone())
            .collect();
        for path in deleted {
            self.pending(&path)?;
        }
        let mut remove_dirs: BTreeSet<PathBuf> = BTreeSet::new();
        // A record lives while entries of ours are in its file.
        for p in std::mem::take(&mut self.records) {
            let installed = self
                .files
                .iter()
                .any(|f| f.path == p.config && f.after.is_some() && !f.ours_after.is_empty());
            if let Some(f) = self.files.iter_mut().find(|f| f.path == p.path) {
                if !installed {
                    f.after = None;
                    if f.before.is_some() {
                        remove_dirs.extend(p.on_disk.iter().flat_map(|r| r.dirs.iter().cloned()));
                    }
                } else if let Some(r) = &p.noted {
                    let mut r = r.clone();
                    r.dirs.extend(created.iter().cloned());
                    f.after = Some(r.to_text());
                }
            }
        }
        // Innermost first.
        let mut remove_dirs: Vec<PathBuf> = remove_dirs.into_iter().filter(|d| self.removable(d)).collect();
        remove_dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        // A symlink is never removed: what a deleted config would leave is written through it
        // (a whole file of ours is left as it is).
        for f in &mut self.files {
            if f.after.is_none() && f.before.is_some() && self.fs.read_link(&f.path).is_some() {
                let residue = self.residues.iter().find(|(p, _)| *p == f.path).map(|(_, r)| r.clone());
                let (severity, what) = if residue.is_some() {
                    (
                        Severity::Info,
                        "what is left once our entries are gone is written through it",
                    )
                } else {
                    (
                        Severity::Error,
                        "it is left as it is (our file, still in use): remove it by hand",
                    )
                };
                let message = format!("{} is a symlink, never removed: {what}", f.path.display());
                tracing::warn!("{message}");
                findings.push(Finding::new(
                    severity,
                    FindingCode::Location,
                    &self.target.provider,
                    message,
                ));
                f.after = residue.or_else(|| f.before.clone());
            }
        }
        // Every file the plan changes must resolve where this target may write (a file only
        // read, such as an agent's trust list, may be anywhere).
        for f in self.files.iter().filter(|f| f.status() != ChangeStatus::Unchanged) {
            self.guard(&f.path)?;
        }
        let mut files = self.files;
        files.retain(|f| f.before.is_some() || f.after.is_some());
        Ok(Plan {
            target: self.target.clone(),
            files,
            findings,
            trust: self.trust,
            remove_dirs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::same_entries;
    use serde_json::json;

    #[test]
    fn fingerprints_hash_canonical_entries() {
        // Known vectors (`sha256` of `[]` and of `[{"a":1,"b":2}]`): fingerprints written by
        // earlier versions must keep matching.
        assert_eq!(
            Fingerprint::of(&[]).0,
            "sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"
        );
        assert_eq!(
            Fingerprint::of(&[json!({"b": 2, "a": 1})]).0,
            "sha256:44c7deead2ed8313d29655e45c0d1469419213c93d9f44d66da7c7afe46e74e3"
        );
        assert!(same_entries(
            &[json!({"b": 2, "a": 1}), json!(1)],
            &[json!(1), json!({"a": 1, "b": 2})]
        ));
    }

    #[test]
    fn statuses() {
        let mut c = FileChange {
            path: "/x".into(),
            format: FileFormat::Json,
            before: None,
            after: Some("{}".into()),
            ours_before: vec![],
            ours_after: vec![],
            private: false,
        };
        assert_eq!(c.status(), ChangeStatus::Create);
        assert!(c
            .unified_diff()
            .starts_with("--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+{}"));
        c.before = Some("{}".into());
        assert_eq!(c.status(), ChangeStatus::Unchanged);
        assert_eq!(c.unified_diff(), "");
        c.after = None;
        assert_eq!(c.status(), ChangeStatus::Delete);
    }
}
