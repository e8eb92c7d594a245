//! Kimi Code: `[[hooks]]` tables in `$KIMI_CODE_HOME/config.toml` (default
//! `~/.kimi-code/config.toml`), user scope only, edited with `toml_edit` so comments and
//! formatting survive.
//!
//! - Exactly the four keys Kimi's strict schema allows: `event`, `matcher` (only when the hook
//!   narrows tools), `command`, `timeout`. Any other key, or an unknown event, makes Kimi refuse
//!   the whole config, so neither is ever written.
//! - Timeouts in **seconds**, 1–600 (default 30).
//! - Matchers: Kimi tests the regex unanchored, so they are anchored here.
//! - No async and no fail-closed: hooks are fail-open; fire-and-forget hooks are killed about
//!   100 ms after what triggered them ends (use `agenthooks_kimi::detach` for slow work).

use std::path::PathBuf;

use agenthooks_core::Provider;
use serde_json::{json, Value};
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, TableLike};

use super::spec::{wants_fail_closed, HookNote, TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::FindingCode;
use crate::merge::toml as tm;
use crate::plan::Cx;
use crate::format::FileFormat;
use crate::record::Prune;
use crate::hook::ResolvedHook;
use crate::shell::Owner;
use crate::target::Target;
use crate::scope::Scope;

/// The Kimi Code target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Kimi;

/// The Kimi Code target's constants. Events, kinds and tools are the Kimi codec's
/// ([`agenthooks_kimi::CODEC`]).
pub(crate) static SPEC: TargetSpec = TargetSpec::new(Provider::KIMI, &agenthooks_kimi::CODEC)
    .timeouts(TimeoutRule::new(1000, 30).max(600))
    .scopes(&[Scope::User])
    .scope_hint("Kimi Code reads hooks only from $KIMI_CODE_HOME/config.toml (user scope)")
    .hook_notes(&[
        HookNote::info(
            FindingCode::KilledEarly,
            "Kimi kills fire-and-forget hooks ~100 ms after what triggered them ends: detach slow work (agenthooks_kimi::detach)",
            |_, h| !awaited(h),
        ),
        HookNote::runs_sync(
            "Kimi has no async hooks: this non-blocking hook is awaited (keep it fast)",
            |_, h| awaited(h) && !h.blocking,
        ),
        HookNote::fails_open(
            "Kimi hooks are hard fail-open: a crash or timeout of the hook binary allows the action",
            wants_fail_closed,
        ),
    ]);

/// Events Kimi awaits (the rest are fire-and-forget and killed early). Install's own table: the
/// codec rows carry no "awaited" fact (`blocking` is narrower: Kimi awaits `SessionStart` but
/// ignores its answer).
const AWAITED: &[&str] = &[
    "PreToolUse",
    "UserPromptSubmit",
    "Stop",
    "SessionStart",
    "SessionEnd",
    "SubagentStart",
];

/// Whether Kimi awaits the hook's event.
fn awaited(h: &ResolvedHook) -> bool {
    AWAITED.contains(&h.native.as_str())
}

pub(crate) fn config_path(target: &Target) -> PathBuf {
    target.agent_home_or(".kimi-code").join("config.toml")
}

fn entry(h: &ResolvedHook) -> Value {
    let mut e = json!({"event": h.native});
    if let Some(m) = &h.matcher {
        e["matcher"] = Value::from(m.clone());
    }
    e["command"] = Value::from(h.command.clone());
    e["timeout"] = Value::from(h.timeout_value);
    e
}

fn table(h: &ResolvedHook) -> Table {
    let mut t = Table::new();
    t.insert("event", toml_edit::value(h.native.clone()));
    if let Some(m) = &h.matcher {
        t.insert("matcher", toml_edit::value(m.clone()));
    }
    t.insert("command", toml_edit::value(h.command.clone()));
    t.insert(
        "timeout",
        toml_edit::value(i64::try_from(h.timeout_value).unwrap_or(600)),
    );
    t
}

fn owns(t: &dyn TableLike, owner: &Owner) -> bool {
    tm::str_of(t, "command").is_some_and(|c| owner.owns(c))
}

const SHAPE_ERR: &str = "`hooks` must be an array of tables ([[hooks]])";

/// Our entries in the document.
fn ours(doc: &DocumentMut, owner: &Owner) -> Result<Vec<Value>, String> {
    match doc.get("hooks") {
        None => Ok(Vec::new()),
        Some(Item::ArrayOfTables(aot)) => Ok(aot
            .iter()
            .filter(|t| owns(*t, owner))
            .map(|t| tm::table_json(t))
            .collect()),
        Some(Item::Value(toml_edit::Value::Array(arr))) => Ok(arr
            .iter()
            .filter_map(toml_edit::Value::as_inline_table)
            .filter(|t| owns(*t, owner))
            .map(|t| tm::table_json(t))
            .collect()),
        Some(_) => Err(SHAPE_ERR.into()),
    }
}

/// Removes our entries (and `hooks` when that empties it and `prune` allows); returns how many.
fn strip(doc: &mut DocumentMut, owner: &Owner, prune: &Prune) -> Result<usize, String> {
    let removed;
    let emptied;
    match doc.get_mut("hooks") {
        None => return Ok(0),
        Some(Item::ArrayOfTables(aot)) => {
            let n = aot.len();
            aot.retain(|t| !owns(t, owner));
            removed = n - aot.len();
            emptied = aot.is_empty();
        }
        Some(Item::Value(toml_edit::Value::Array(arr))) => {
            let n = arr.len();
            arr.retain(|v| !v.as_inline_table().is_some_and(|t| owns(t, owner)));
            removed = n - arr.len();
            emptied = arr.is_empty();
        }
        Some(_) => return Err(SHAPE_ERR.into()),
    }
    if removed > 0 && emptied && prune.may(&["hooks"]) {
        doc.remove("hooks");
    }
    Ok(removed)
}

fn add(doc: &mut DocumentMut, hooks: &[ResolvedHook]) -> Result<(), String> {
    if hooks.is_empty() {
        return Ok(());
    }
    match doc.get_mut("hooks") {
        None => {
            let mut aot = ArrayOfTables::new();
            for h in hooks {
                aot.push(table(h));
            }
            doc.insert("hooks", Item::ArrayOfTables(aot));
        }
        Some(Item::ArrayOfTables(aot)) => {
            for h in hooks {
                aot.push(table(h));
            }
        }
        Some(Item::Value(toml_edit::Value::Array(arr))) => {
            for h in hooks {
                arr.push(table(h).into_inline_table());
            }
        }
        Some(_) => return Err(SHAPE_ERR.into()),
    }
    Ok(())
}

impl TargetModule for Kimi {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        if let Some(h) = hooks.iter().find(|h| SPEC.event(&h.native).is_none()) {
            return Err(InstallError::InvalidManifest(format!(
                "Kimi's strict config schema rejects unknown events; `{}` is not one this release knows",
                h.native
            )));
        }
        let path = config_path(cx.target);
        let malformed = |m: String| InstallError::malformed(&path, "TOML", m);
        let desired: Vec<Value> = hooks.iter().map(entry).collect();
        let before = cx.text(&path, FileFormat::Toml)?;
        let (found, after) = match &before {
            Some(text) => {
                let mut doc = tm::parse(&path, text)?;
                let found = ours(&doc, &cx.owner).map_err(malformed)?;
                if crate::format::same_entries(&found, &desired) {
                    (found, Some(text.clone()))
                } else {
                    let original = tm::to_json(doc.as_item());
                    let prune = cx.prune(&path)?;
                    let removed = strip(&mut doc, &cx.owner, &prune).map_err(malformed)?;
                    let base = tm::to_json(doc.as_item());
                    let residue = removed > 0 && tm::is_blank(&doc);
                    add(&mut doc, hooks).map_err(malformed)?;
                    cx.note_install(&path, Some(&original), &base, &tm::to_json(doc.as_item()), residue)?;
                    // A manifest with no hooks left leaves nothing of ours: a file we created
                    // goes, as on uninstall (not an empty file).
                    let emptied = hooks.is_empty()
                        && tm::is_blank(&doc)
                        && doc.trailing().as_str().is_none_or(|t| t.trim().is_empty())
                        && cx.may_delete(&path)?;
                    (found, (!emptied).then(|| tm::render(text, &doc)))
                }
            }
            None if hooks.is_empty() => (Vec::new(), None),
            None => {
                let mut doc = DocumentMut::new();
                add(&mut doc, hooks).map_err(malformed)?;
                cx.note_install(&path, None, &json!({}), &tm::to_json(doc.as_item()), false)?;
                (Vec::new(), Some(doc.to_string()))
            }
        };
        cx.set_text(&path, FileFormat::Toml, after)?;
        cx.set_ours(&path, FileFormat::Toml, found, desired)
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        let path = config_path(cx.target);
        let Some(text) = cx.text(&path, FileFormat::Toml)? else {
            return Ok(());
        };
        let malformed = |m: String| InstallError::malformed(&path, "TOML", m);
        let mut doc = tm::parse(&path, &text)?;
        let found = ours(&doc, &cx.owner).map_err(malformed)?;
        let prune = cx.prune(&path)?;
        let removed = strip(&mut doc, &cx.owner, &prune).map_err(malformed)?;
        let residue = tm::render(&text, &doc);
        let after = if removed == 0 {
            Some(text)
        } else if tm::is_blank(&doc)
            && doc.trailing().as_str().is_none_or(|t| t.trim().is_empty())
            && cx.may_delete(&path)?
        {
            None
        } else {
            Some(residue.clone())
        };
        cx.set_text_or_residue(&path, FileFormat::Toml, after, residue)?;
        cx.set_ours(&path, FileFormat::Toml, found, Vec::new())
    }
}
