//! Codex CLI: `hooks.json` (project `<root>/.codex/hooks.json`, user `$CODEX_HOME/hooks.json`)
//! or, with [`CodexOptions::inline_toml`], `[[hooks.<Event>]]` tables inline in the layer's
//! `config.toml` (edited with `toml_edit`, so comments and formatting survive).
//!
//! - Timeouts in **seconds** (default 600, minimum 1; `SessionEnd` and `Interrupt` default to 1
//!   and are clamped to 1–3, as the real 0.171 binary does: the clamp is the codec row's).
//! - **Trust** (quirk #9): every hook of ours gets `[hooks.state."<key>"] trusted_hash` in
//!   `$CODEX_HOME/config.toml`, computed by [`trust`] exactly as Codex does; stale entries of
//!   ours are removed and entries of foreign hooks whose position shifted move with them.
//!   Project trust (`[projects."<root>"] trust_level = "trusted"`) is a separate gate: reported,
//!   and written only with [`CodexOptions::trust_project`].
//! - Non-blocking hooks are wrapped in a detached background worker (the payload is teed to a
//!   temp file and the command runs in the background), because Codex parses `async: true`
//!   but runs it synchronously in the versions checked (quirk #10).
//! - Matchers: anchored regexes on tool events only (Codex ignores them on `UserPromptSubmit`
//!   and `Stop`); Codex fires tool hooks only for shell, `apply_patch` and MCP tools.
//! - No fail-closed setting: a crashed or timed-out hook is a failed run with no effect.

pub(crate) mod trust;

use std::path::{Path, PathBuf};

use agenthooks_core::{CanonicalTool, Provider};
use serde_json::{json, Value};
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, TableLike};

use crate::targets::shared::entries;
use crate::targets::spec::{wants_fail_closed, HookNote, TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::manifest::Manifest;
use crate::matcher::{MatcherDialect, Syntax};
use crate::merge::json::{self as jmerge, Found, Shape};
use crate::targets::hooks_file::JsonHooksFile;
use crate::merge::toml as tm;
use crate::plan::{Cx, TrustEntry};
use crate::format::FileFormat;
use crate::record::Prune;
use crate::hook::ResolvedHook;
use crate::shell::Owner;
use crate::target::Target;
use crate::scope::Scope;
#[cfg(doc)]
use crate::target::CodexOptions;

/// The Codex target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Codex;

/// The Codex target's constants. Events, kinds and tools are the Codex codec's
/// ([`agenthooks_codex::CODEC`]).
pub(crate) static SPEC: TargetSpec = TargetSpec::new(Provider::CODEX, &agenthooks_codex::CODEC)
    // Clamped events (`SessionEnd`, `Interrupt`) default to 1 s, as the real 0.171 binary does.
    .timeouts(TimeoutRule::new(1000, trust::DEFAULT_TIMEOUT).clamped_default(1))
    .scope_hint("Codex reads $CODEX_HOME and <project>/.codex hooks (plugin hooks were removed in 0.147)")
    .matcher(MatcherDialect {
        syntax: Syntax::Anchored,
        // Codex fires tool hooks only for shell, `apply_patch` and MCP tools.
        no_tool_hooks: &[
            CanonicalTool::FileRead,
            CanonicalTool::FileWrite,
            CanonicalTool::Search,
            CanonicalTool::Fetch,
            CanonicalTool::Task,
        ],
    })
    .substituted(&["${PLUGIN_ROOT}", "${PLUGIN_DATA}", "${CLAUDE_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_DATA}"])
    .not_installed(&[
        (
            agenthooks_codex::native::NOTIFY_EVENT,
            "the legacy `notify` program (`notify = [...]` in config.toml), not a hook",
        ),
        (
            "StopFailure",
            "Codex 0.171 does not load a StopFailure hook from hooks.json (its app-server's hooks/list \
             omits it: checked by the e2e trust scenario); the codec decodes the payload for newer releases",
        ),
    ])
    .hook_notes(&[
        HookNote::info(
            FindingCode::AsyncDetached,
            "non-blocking: runs in a detached background worker (Codex runs async hooks synchronously, quirk #10); its decisions are ignored",
            |_, h| is_detached(h),
        ),
        HookNote::runs_sync(
            "the codec does not allow async on {native}: this non-blocking hook runs synchronously (keep it fast)",
            |_, h| !h.blocking && !is_detached(h),
        ),
        HookNote::fails_open(
            "Codex has no fail-closed setting: a crash or timeout of the hook binary is a failed run with no effect",
            wants_fail_closed,
        ),
    ]);

fn codex_home(target: &Target) -> PathBuf {
    target.agent_home_or(".codex")
}

/// The file declaring our hooks, and its format.
pub(crate) fn hooks_file(target: &Target) -> (PathBuf, FileFormat) {
    let dir = match target.scope {
        Scope::User => codex_home(target),
        _ => target.root.join(".codex"),
    };
    if target.options.codex().inline_toml {
        (dir.join("config.toml"), FileFormat::Toml)
    } else {
        (dir.join("hooks.json"), FileFormat::Json)
    }
}

/// The user config holding `[hooks.state]` and `[projects]`.
pub(crate) fn trust_file(target: &Target) -> PathBuf {
    codex_home(target).join("config.toml")
}

/// The detached-worker wrapper for non-blocking hooks: tee stdin to a temp file, run the
/// command in the background on it, answer nothing at once.
pub(crate) fn detached(command: &str) -> String {
    format!("t=$(mktemp \"${{TMPDIR:-/tmp}}/agenthooks.XXXXXX\") || exit 0; cat >\"$t\"; ( {command} <\"$t\"; rm -f \"$t\" ) >/dev/null 2>&1 </dev/null &")
}

/// Whether a hook runs in the detached worker: non-blocking, on an event whose row allows async.
fn is_detached(h: &ResolvedHook) -> bool {
    !h.blocking && SPEC.may_async(&h.native)
}

fn handler(h: &ResolvedHook) -> Value {
    let command = if is_detached(h) {
        detached(&h.command)
    } else {
        h.command.clone()
    };
    json!({"type": "command", "command": command, "timeout": h.timeout_value})
}

fn group(h: &ResolvedHook) -> Value {
    let mut g = serde_json::Map::new();
    if let Some(m) = &h.matcher {
        g.insert("matcher".into(), Value::from(m.clone()));
    }
    g.insert("hooks".into(), Value::Array(vec![handler(h)]));
    Value::Object(g)
}

// ---------------------------------------------------------------------------------------------
// Inline TOML hooks: [[hooks.<Event>]] groups with [[hooks.<Event>.hooks]] handlers.

fn list_len(item: &Item) -> Option<usize> {
    match item {
        Item::ArrayOfTables(a) => Some(a.len()),
        Item::Value(toml_edit::Value::Array(a)) => Some(a.len()),
        _ => None,
    }
}

fn list_get(item: &Item, i: usize) -> Option<&dyn TableLike> {
    match item {
        Item::ArrayOfTables(a) => a.get(i).map(|t| t as &dyn TableLike),
        Item::Value(toml_edit::Value::Array(a)) => a.get(i)?.as_inline_table().map(|t| t as &dyn TableLike),
        _ => None,
    }
}

fn list_get_mut(item: &mut Item, i: usize) -> Option<&mut dyn TableLike> {
    match item {
        Item::ArrayOfTables(a) => a.get_mut(i).map(|t| t as &mut dyn TableLike),
        Item::Value(toml_edit::Value::Array(a)) => a.get_mut(i)?.as_inline_table_mut().map(|t| t as &mut dyn TableLike),
        _ => None,
    }
}

fn list_remove(item: &mut Item, i: usize) {
    match item {
        Item::ArrayOfTables(a) => a.remove(i),
        Item::Value(toml_edit::Value::Array(a)) => {
            a.remove(i);
        }
        _ => {}
    }
}

fn owns(t: &dyn TableLike, owner: &Owner) -> bool {
    tm::str_of(t, "command").is_some_and(|c| owner.owns(c))
}

fn event_keys(hooks: &dyn TableLike) -> Vec<String> {
    hooks
        .iter()
        .map(|(k, _)| k.to_owned())
        .filter(|k| k != "state")
        .collect()
}

fn toml_scan(doc: &DocumentMut, owner: &Owner) -> Result<Vec<Found>, String> {
    let Some(hooks) = doc.get("hooks") else {
        return Ok(Vec::new());
    };
    let hooks = hooks.as_table_like().ok_or("`hooks` must be a table")?;
    let mut out = Vec::new();
    for ev in event_keys(hooks) {
        let Some(groups) = hooks.get(&ev) else { continue };
        let Some(n) = list_len(groups) else { continue };
        for g in 0..n {
            let Some(group) = list_get(groups, g) else { continue };
            let matcher = group.get("matcher").map(tm::to_json);
            let Some(handlers) = group.get("hooks") else { continue };
            for h in 0..list_len(handlers).unwrap_or(0) {
                if let Some(t) = list_get(handlers, h) {
                    out.push(Found {
                        event: ev.clone(),
                        group: g,
                        handler: h,
                        matcher: matcher.clone(),
                        value: tm::table_json(t),
                        ours: owns(t, owner),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Removes our handlers, the groups that leaves empty, and the event arrays and `hooks` table it
/// empties when `prune` allows.
fn toml_strip(doc: &mut DocumentMut, owner: &Owner, prune: &Prune) -> Result<usize, String> {
    let Some(item) = doc.get_mut("hooks") else {
        return Ok(0);
    };
    let hooks = item.as_table_like_mut().ok_or("`hooks` must be a table")?;
    let mut total = 0;
    for ev in event_keys(hooks) {
        let Some(groups) = hooks.get_mut(&ev) else { continue };
        let Some(n) = list_len(groups) else { continue };
        let mut removed_here = 0;
        for g in (0..n).rev() {
            let Some(group) = list_get_mut(groups, g) else { continue };
            let Some(handlers) = group.get_mut("hooks") else {
                continue;
            };
            let mut removed = 0;
            for h in (0..list_len(handlers).unwrap_or(0)).rev() {
                if list_get(handlers, h).is_some_and(|t| owns(t, owner)) {
                    list_remove(handlers, h);
                    removed += 1;
                }
            }
            if removed > 0 && list_len(handlers) == Some(0) {
                list_remove(groups, g);
            }
            removed_here += removed;
        }
        if removed_here > 0 && list_len(groups) == Some(0) && prune.may(&["hooks", &ev]) {
            hooks.remove(&ev);
        }
        total += removed_here;
    }
    if total > 0 && hooks.is_empty() && prune.may(&["hooks"]) {
        doc.remove("hooks");
    }
    Ok(total)
}

fn toml_add(doc: &mut DocumentMut, entries: &[(String, Value)]) -> Result<(), String> {
    if entries.is_empty() {
        return Ok(());
    }
    if doc.get("hooks").is_none() {
        doc.insert("hooks", Item::Table(tm::implicit_table()));
    }
    let hooks = doc
        .get_mut("hooks")
        .and_then(Item::as_table_mut)
        .ok_or("`hooks` must be a [hooks] table to add hooks to it")?;
    for (ev, group) in entries {
        let mut t = Table::new();
        if let Some(m) = group.get("matcher").and_then(Value::as_str) {
            t.insert("matcher", toml_edit::value(m));
        }
        let mut handlers = ArrayOfTables::new();
        for h in group.get("hooks").and_then(Value::as_array).into_iter().flatten() {
            let mut ht = Table::new();
            for (k, v) in h.as_object().into_iter().flatten() {
                let val = match v {
                    Value::String(s) => toml_edit::value(s.clone()),
                    Value::Number(n) => toml_edit::value(n.as_i64().unwrap_or(0)),
                    Value::Bool(b) => toml_edit::value(*b),
                    _ => continue,
                };
                ht.insert(k, val);
            }
            handlers.push(ht);
        }
        t.insert("hooks", Item::ArrayOfTables(handlers));
        match hooks.get_mut(ev) {
            None => {
                let mut aot = ArrayOfTables::new();
                aot.push(t);
                hooks.insert(ev, Item::ArrayOfTables(aot));
            }
            Some(Item::ArrayOfTables(aot)) => aot.push(t),
            Some(Item::Value(toml_edit::Value::Array(arr))) => arr.push(t.into_inline_table()),
            Some(_) => return Err(format!("`hooks.{ev}` must be an array of tables")),
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------

impl Codex {
    /// Every handler in the hooks file's planned text.
    fn scan(cx: &mut Cx<'_>, path: &Path, format: FileFormat) -> Result<Vec<Found>, InstallError> {
        let Some(text) = cx.text(path, format)? else {
            return Ok(Vec::new());
        };
        match format {
            FileFormat::Toml => {
                let doc = tm::parse(path, &text)?;
                toml_scan(&doc, &cx.owner).map_err(|e| InstallError::malformed(path, "TOML", e))
            }
            _ => jmerge::scan(&text, Shape::Grouped, &cx.owner, false)
                .map_err(|e| InstallError::malformed(path, "JSON", e)),
        }
    }

    fn write_toml_hooks(
        cx: &mut Cx<'_>,
        path: &Path,
        entries: &[(String, Value)],
        remove_only: bool,
    ) -> Result<(), InstallError> {
        let malformed = |m: String| InstallError::malformed(path, "TOML", m);
        let desired: Vec<Value> = entries
            .iter()
            .map(|(e, v)| jmerge::rendered_entry(Shape::Grouped, e, v))
            .collect();
        let before = cx.text(path, FileFormat::Toml)?;
        let mut doc = match &before {
            Some(t) => tm::parse(path, t)?,
            None if entries.is_empty() => return Ok(()),
            None => DocumentMut::new(),
        };
        let found: Vec<Value> = toml_scan(&doc, &cx.owner)
            .map_err(malformed)?
            .iter()
            .filter(|f| f.ours)
            .map(Found::entry)
            .collect();
        let after = if !remove_only && before.is_some() && crate::format::same_entries(&found, &desired) {
            before.clone()
        } else {
            let original = before.is_some().then(|| tm::to_json(doc.as_item()));
            let prune = cx.prune(path)?;
            let removed = toml_strip(&mut doc, &cx.owner, &prune).map_err(malformed)?;
            if remove_only && removed == 0 {
                before.clone()
            } else {
                let base = tm::to_json(doc.as_item());
                let residue = removed > 0 && tm::is_blank(&doc);
                toml_add(&mut doc, entries).map_err(malformed)?;
                if !entries.is_empty() {
                    cx.note_install(path, original.as_ref(), &base, &tm::to_json(doc.as_item()), residue)?;
                }
                if tm::is_blank(&doc)
                    && doc.trailing().as_str().is_none_or(|t| t.trim().is_empty())
                    && cx.may_delete(path)?
                {
                    None
                } else {
                    Some(tm::render(before.as_deref().unwrap_or(""), &doc))
                }
            }
        };
        let residue = tm::render(before.as_deref().unwrap_or(""), &doc);
        cx.set_text_or_residue(path, FileFormat::Toml, after, residue)?;
        cx.set_ours(
            path,
            FileFormat::Toml,
            found,
            if remove_only { Vec::new() } else { desired },
        )
    }

    /// Rewrites `[hooks.state]` (and project trust) after the hooks file changed from
    /// `before` to `after`.
    fn update_trust(cx: &mut Cx<'_>, source: &str, before: &[Found], after: &[Found]) -> Result<(), InstallError> {
        let key = |f: &Found| trust::event_label(&f.event).map(|l| trust::state_key(source, l, f.group, f.handler));
        let old_ours: Vec<String> = before.iter().filter(|f| f.ours).filter_map(key).collect();
        let new_ours: Vec<(String, String, String)> = after
            .iter()
            .filter(|f| f.ours)
            .filter_map(|f| {
                Some((
                    key(f)?,
                    trust::hook_hash(&f.event, f.matcher.as_ref(), &f.value)?,
                    f.event.clone(),
                ))
            })
            .collect();
        let mut moves: Vec<(String, String)> = Vec::new();
        let mut events: Vec<&str> = before.iter().chain(after).map(|f| f.event.as_str()).collect();
        events.sort_unstable();
        events.dedup();
        for ev in events {
            let old: Vec<&Found> = before.iter().filter(|f| !f.ours && f.event == ev).collect();
            let new: Vec<&Found> = after.iter().filter(|f| !f.ours && f.event == ev).collect();
            for (o, n) in old.iter().zip(new.iter()) {
                if let (Some(ko), Some(kn)) = (key(o), key(n)) {
                    if ko != kn {
                        moves.push((ko, kn));
                    }
                }
            }
        }
        let trust_project = cx.target.options.codex().trust_project && cx.target.scope == Scope::Project;
        let path = trust_file(cx.target);
        let text = cx.text(&path, FileFormat::Toml)?;
        if text.is_none() && new_ours.is_empty() && !trust_project {
            return Ok(());
        }
        let mut doc = match &text {
            Some(t) => tm::parse(&path, t)?,
            None => DocumentMut::new(),
        };
        let base = tm::to_json(doc.as_item());
        let prune = cx.prune(&path)?;
        let malformed = |m: &str| InstallError::malformed(&path, "TOML", m.to_owned());
        let had_state = doc
            .get("hooks")
            .and_then(|h| h.as_table_like())
            .is_some_and(|h| h.contains_key("state"));
        let had_hooks = doc.contains_key("hooks");
        let mut found_before = Vec::new();
        let mut changed = false;
        if had_state || !new_ours.is_empty() {
            if !had_hooks {
                doc.insert("hooks", Item::Table(tm::implicit_table()));
            }
            let hooks = doc
                .get_mut("hooks")
                .and_then(Item::as_table_like_mut)
                .ok_or_else(|| malformed("`hooks` must be a table"))?;
            if !hooks.contains_key("state") {
                hooks.insert("state", Item::Table(tm::implicit_table()));
            }
            let state = hooks
                .get_mut("state")
                .and_then(Item::as_table_like_mut)
                .ok_or_else(|| malformed("`hooks.state` must be a table"))?;
            for k in &old_ours {
                if let Some(h) = state
                    .get(k)
                    .and_then(Item::as_table_like)
                    .and_then(|t| tm::str_of(t, "trusted_hash"))
                {
                    found_before.push(json!({"key": k, "trusted_hash": h}));
                }
            }
            let mut taken = Vec::new();
            for (old, new) in &moves {
                if let Some(item) = state.remove(old) {
                    taken.push((new.clone(), item));
                    changed = true;
                }
            }
            for k in &old_ours {
                if !new_ours.iter().any(|(nk, _, _)| nk == k) && state.remove(k).is_some() {
                    changed = true;
                }
            }
            for (k, item) in taken {
                state.insert(&k, item);
            }
            for (k, hash, _) in &new_ours {
                match state.get_mut(k).and_then(Item::as_table_like_mut) {
                    Some(t) if tm::str_of(t, "trusted_hash") == Some(hash.as_str()) => {}
                    Some(t) => {
                        t.insert("trusted_hash", toml_edit::value(hash.clone()));
                        changed = true;
                    }
                    None => {
                        let mut t = Table::new();
                        t.insert("trusted_hash", toml_edit::value(hash.clone()));
                        state.insert(k, Item::Table(t));
                        changed = true;
                    }
                }
            }
            // Emptied tables go when this step added them, or our removal emptied them and we
            // created them (see `crate::record`).
            let state_empty = state.is_empty();
            if state_empty && (!had_state || (changed && prune.may(&["hooks", "state"]))) {
                hooks.remove("state");
            }
            if hooks.is_empty() && (!had_hooks || (changed && prune.may(&["hooks"]))) {
                doc.remove("hooks");
            }
        }
        if trust_project {
            let root = cx.canonical(&cx.target.root).display().to_string();
            if doc.get("projects").is_none() {
                doc.insert("projects", Item::Table(tm::implicit_table()));
            }
            let projects = doc
                .get_mut("projects")
                .and_then(Item::as_table_like_mut)
                .ok_or_else(|| malformed("`projects` must be a table"))?;
            let already = projects
                .get(&root)
                .and_then(Item::as_table_like)
                .is_some_and(|t| tm::str_of(t, "trust_level") == Some("trusted"));
            if !already {
                match projects.get_mut(&root).and_then(Item::as_table_like_mut) {
                    Some(t) => {
                        t.insert("trust_level", toml_edit::value("trusted"));
                    }
                    None => {
                        let mut t = Table::new();
                        t.insert("trust_level", toml_edit::value("trusted"));
                        projects.insert(&root, Item::Table(t));
                    }
                }
                changed = true;
            }
        }
        if changed && !new_ours.is_empty() {
            cx.note_install(&path, Some(&base), &base, &tm::to_json(doc.as_item()), false)?;
        }
        let after_text = if !changed {
            text.clone()
        } else if tm::is_blank(&doc)
            && doc.trailing().as_str().is_none_or(|t| t.trim().is_empty())
            && cx.may_delete(&path)?
        {
            None
        } else {
            Some(tm::render(text.as_deref().unwrap_or(""), &doc))
        };
        let ours_after: Vec<Value> = new_ours
            .iter()
            .map(|(k, h, _)| json!({"key": k, "trusted_hash": h}))
            .collect();
        for (k, h, ev) in &new_ours {
            cx.trust.push(TrustEntry {
                native_event: ev.clone(),
                key: k.clone(),
                hash: h.clone(),
                config: path.clone(),
            });
        }
        let residue = tm::render(text.as_deref().unwrap_or(""), &doc);
        cx.set_text_or_residue(&path, FileFormat::Toml, after_text, residue)?;
        cx.set_ours(&path, FileFormat::Toml, found_before, ours_after)
    }
}

impl TargetModule for Codex {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn notes(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        let mut out = SPEC.noted(target, manifest, hooks);
        let config = trust_file(target);
        out.push(SPEC.finding(
            Severity::Info,
            FindingCode::HookTrust,
            format!(
                "trusted hashes are written to [hooks.state] in {}; Codex silently skips a hook whose hash does not match (editing it by hand untrusts it)",
                config.display()
            ),
        ));
        if target.scope == Scope::Project {
            if target.options.codex().trust_project {
                out.push(SPEC.finding(
                    Severity::Info,
                    FindingCode::ProjectTrust,
                    format!("marks {} trusted in {}", target.root.display(), config.display()),
                ));
            } else {
                out.push(SPEC.finding(
                    Severity::Degraded,
                    FindingCode::ProjectTrust,
                    format!(
                        "Codex loads project hooks only when the project is trusted ([projects.\"{}\"] trust_level = \"trusted\" in {}); not written unless asked",
                        target.root.display(),
                        config.display()
                    ),
                ));
            }
        }
        out
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        let (path, format) = hooks_file(cx.target);
        let before = Self::scan(cx, &path, format)?;
        let entries = entries(hooks, group);
        match format {
            FileFormat::Toml => Self::write_toml_hooks(cx, &path, &entries, false)?,
            _ => JsonHooksFile::grouped(path.clone(), FileFormat::Json).install(cx, &entries)?,
        }
        let after = Self::scan(cx, &path, format)?;
        let source = cx.canonical(&path).display().to_string();
        Self::update_trust(cx, &source, &before, &after)
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        let (path, format) = hooks_file(cx.target);
        let before = Self::scan(cx, &path, format)?;
        match format {
            FileFormat::Toml => Self::write_toml_hooks(cx, &path, &[], true)?,
            _ => JsonHooksFile::grouped(path.clone(), FileFormat::Json).uninstall(cx)?,
        }
        let after = Self::scan(cx, &path, format)?;
        let source = cx.canonical(&path).display().to_string();
        Self::update_trust(cx, &source, &before, &after)
    }

    fn health(&self, cx: &mut Cx<'_>, _hooks: &[ResolvedHook]) -> Result<Vec<Finding>, InstallError> {
        let mut out = Vec::new();
        let (path, format) = hooks_file(cx.target);
        let found = Self::scan(cx, &path, format)?;
        let source = cx.canonical(&path).display().to_string();
        let config = trust_file(cx.target);
        let doc = match cx.text(&config, FileFormat::Toml)? {
            Some(t) => Some(tm::parse(&config, &t)?),
            None => None,
        };
        let state_hash = |key: &str| -> Option<String> {
            doc.as_ref()?
                .get("hooks")?
                .as_table_like()?
                .get("state")?
                .as_table_like()?
                .get(key)?
                .as_table_like()
                .and_then(|t| tm::str_of(t, "trusted_hash"))
                .map(str::to_owned)
        };
        for f in found.iter().filter(|f| f.ours) {
            let (Some(label), Some(hash)) = (
                trust::event_label(&f.event),
                trust::hook_hash(&f.event, f.matcher.as_ref(), &f.value),
            ) else {
                continue;
            };
            let key = trust::state_key(&source, label, f.group, f.handler);
            match state_hash(&key) {
                Some(h) if h == hash => {}
                Some(h) => out.push(
                    SPEC.finding(Severity::Error, FindingCode::HookTrust, format!("[hooks.state.\"{key}\"] trusted_hash is {h}, the hook's hash is {hash}: Codex skips it silently (reinstall)"),
                    )
                    .with_native(&f.event),
                ),
                None => out.push(
                    SPEC.finding(Severity::Error, FindingCode::HookTrust, format!("no [hooks.state.\"{key}\"] in {}: Codex skips the hook silently (reinstall)", config.display()),
                    )
                    .with_native(&f.event),
                ),
            }
        }
        if cx.target.scope == Scope::Project {
            let root = cx.canonical(&cx.target.root).display().to_string();
            let trusted = doc.as_ref().and_then(|d| {
                d.get("projects")?
                    .as_table_like()?
                    .get(&root)?
                    .as_table_like()
                    .and_then(|t| tm::str_of(t, "trust_level"))
                    .map(str::to_owned)
            });
            if trusted.as_deref() != Some("trusted") {
                out.push(SPEC.finding(
                    Severity::Error,
                    FindingCode::ProjectTrust,
                    format!(
                        "{root} is not a trusted project in {}: Codex will not load its hooks",
                        config.display()
                    ),
                ));
            }
        }
        // Both files in one layer load together (Codex warns).
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let other = if format == FileFormat::Toml {
            dir.join("hooks.json")
        } else {
            dir.join("config.toml")
        };
        let other_format = if format == FileFormat::Toml {
            FileFormat::Json
        } else {
            FileFormat::Toml
        };
        if let Ok(other_found) = Self::scan(cx, &other, other_format) {
            if other_found.iter().any(|f| f.ours) {
                out.push(SPEC.finding(
                    Severity::Degraded,
                    FindingCode::Duplicate,
                    format!(
                        "hooks of ours are declared in both {} and {}: both load",
                        path.display(),
                        other.display()
                    ),
                ));
            }
        }
        Ok(out)
    }
}
