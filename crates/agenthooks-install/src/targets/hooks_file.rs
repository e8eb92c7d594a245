//! [`JsonHooksFile`]: a target's JSON hooks file edited through the planning context (the
//! splices are [`crate::merge::json`]'s; what was there before, what we created and what is
//! ours go to the plan).

use std::path::PathBuf;

use serde_json::Value;

use crate::error::InstallError;
use crate::format::{same_entries, with_newline, FileFormat};
use crate::jsonc;
use crate::merge::json::{add, rendered_entry, scan, set_keys, strip, Found, Shape};
use crate::plan::Cx;

/// How a target's hooks file is edited.
pub(crate) struct JsonHooksFile {
    pub(crate) path: PathBuf,
    pub(crate) format: FileFormat,
    pub(crate) shape: Shape,
    /// Top-level keys written first when the file is created (Copilot and Cursor `version`).
    pub(crate) create_keys: Vec<(&'static str, Value)>,
}

impl JsonHooksFile {
    /// A grouped hooks file (`{"hooks": {"<event>": [{matcher, hooks: […]}]}}`) inside a file
    /// that is not ours alone.
    pub(crate) fn grouped(path: impl Into<PathBuf>, format: FileFormat) -> Self {
        Self {
            path: path.into(),
            format,
            shape: Shape::Grouped,
            create_keys: Vec::new(),
        }
    }

    /// A flat hooks.json v1 of ours (`{"version": 1, "hooks": {"<event>": [entry]}}`), created
    /// with `version` first and deleted when only it is left.
    pub(crate) fn flat_v1(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            format: FileFormat::Json,
            shape: Shape::Flat,
            create_keys: vec![("version", Value::from(1))],
        }
    }
}

impl JsonHooksFile {
    fn comments(&self) -> bool {
        self.format == FileFormat::Jsonc
    }

    fn malformed(&self, msg: String) -> InstallError {
        InstallError::malformed(&self.path, self.format.name(), msg)
    }

    /// The document's value (for the install record).
    fn value(&self, text: &str) -> Result<Value, InstallError> {
        jsonc::parse(text, self.comments())
            .map(|n| n.to_value(text))
            .map_err(|e| self.malformed(e.to_string()))
    }

    /// What a file we created holds once our entries are gone.
    fn fresh(&self) -> Result<String, InstallError> {
        set_keys("{}", &self.create_keys, false).map_err(|e| self.malformed(e))
    }

    /// Replaces our entries with `entries`, leaving the file untouched when our entries there
    /// already equal them; records what it created (see [`crate::record`]).
    pub(crate) fn install(&self, cx: &mut Cx<'_>, entries: &[(String, Value)]) -> Result<(), InstallError> {
        if entries.is_empty() {
            // Nothing of ours to write: exactly an uninstall (a file left holding only residue of
            // ours is deleted, as a fresh install of nothing would never have created it).
            return self.uninstall(cx);
        }
        let before = cx.text(&self.path, self.format)?;
        let desired: Vec<Value> = entries.iter().map(|(e, v)| rendered_entry(self.shape, e, v)).collect();
        let (found, after) = match &before {
            Some(text) => {
                let found: Vec<Value> = scan(text, self.shape, &cx.owner, self.comments())
                    .map_err(|e| self.malformed(e))?
                    .iter()
                    .filter(|f| f.ours)
                    .map(Found::entry)
                    .collect();
                if same_entries(&found, &desired) {
                    (found, text.clone())
                } else {
                    let prune = cx.prune(&self.path)?;
                    let (stripped, removed) =
                        strip(text, self.shape, &cx.owner, self.comments(), &prune).map_err(|e| self.malformed(e))?;
                    let added = add(&stripped, entries, self.comments()).map_err(|e| self.malformed(e))?;
                    let residue = removed > 0 && stripped == with_newline(self.fresh()?);
                    let (b, s, a) = (self.value(text)?, self.value(&stripped)?, self.value(&added)?);
                    cx.note_install(&self.path, Some(&b), &s, &a, residue)?;
                    (found, added)
                }
            }
            None => {
                let base = self.fresh()?;
                let added = with_newline(add(&base, entries, false).map_err(|e| self.malformed(e))?);
                let (s, a) = (self.value(&base)?, self.value(&added)?);
                cx.note_install(&self.path, None, &s, &a, false)?;
                (Vec::new(), added)
            }
        };
        cx.set_text(&self.path, self.format, Some(after))?;
        cx.set_ours(&self.path, self.format, found, desired)
    }

    /// Removes our entries and the containers we created that this empties; deletes the file
    /// when we created it and nothing but residue is left (without a record: see
    /// [`crate::record`]).
    pub(crate) fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        let Some(text) = cx.text(&self.path, self.format)? else {
            return Ok(());
        };
        let found: Vec<Value> = scan(&text, self.shape, &cx.owner, self.comments())
            .map_err(|e| self.malformed(e))?
            .iter()
            .filter(|f| f.ours)
            .map(Found::entry)
            .collect();
        let prune = cx.prune(&self.path)?;
        let (stripped, removed) =
            strip(&text, self.shape, &cx.owner, self.comments(), &prune).map_err(|e| self.malformed(e))?;
        // Delete the file only when what is left is exactly what a file we created leaves
        // (so a user's own `{}` survives).
        let after = if removed > 0 && stripped == with_newline(self.fresh()?) && cx.may_delete(&self.path)? {
            None
        } else {
            Some(stripped.clone())
        };
        cx.set_text_or_residue(&self.path, self.format, after, stripped)?;
        cx.set_ours(&self.path, self.format, found, Vec::new())
    }
}
