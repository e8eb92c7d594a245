//! OpenClaw: the generated native plugin (three files, all ours) and its entry in the config
//! file OpenClaw reads.
//!
//! - **Plugin directory** `agenthooks/` under a discovery root: project scope
//!   `<workspace>/.openclaw/extensions/`, user scope `<config dir>/extensions/`, where the
//!   config dir is OpenClaw's: `$OPENCLAW_STATE_DIR`, else the directory of
//!   `$OPENCLAW_CONFIG_PATH`, else `~/.openclaw` (an explicit agent home is the state dir). The
//!   files are rendered by [`agenthooks_openclaw::plugin`] with the consumer's command, the
//!   hooks, their deadlines and the fail policy baked in; rendering is deterministic, so a
//!   second install changes nothing.
//! - **Config entry** `plugins.entries.agenthooks` in `$OPENCLAW_CONFIG_PATH` (or
//!   [`crate::OpenClawOptions::config_path`]), else `<state dir>/openclaw.json`: `enabled: true`
//!   (a workspace plugin is disabled by default), `hooks.allowConversationAccess` when a
//!   conversation-scope hook is installed (quirk #801) and `hooks.timeouts` above the shim's
//!   deadlines. The file is edited in place (comments kept); every other key, including other
//!   keys of our entry, is left alone. A file in JSON5 syntax beyond comments (unquoted keys,
//!   trailing commas) is refused with an error and nothing is written.
//! - Tool matchers become OpenClaw's `matcher` option (exact canonical tool ids); where that
//!   cannot say the filter, the hook's `--tools` spec is baked into the plugin and sent on each
//!   frame, and the daemon answers other tools with the neutral shape.
//! - Doctor spawns `<command> agenthooks serve --provider=openclaw` and checks it answers the
//!   `agenthooks.ping` frame.

use std::path::{Path, PathBuf};
use std::time::Duration;

use agenthooks_core::Provider;
use agenthooks_openclaw::plugin::{self, PluginConfig, ShimHook, PLUGIN_ID};
use serde_json::{json, Map, Value};

use super::spec::{wants_fail_closed, HookNote, TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::jsonc::{self, Seg};
use crate::manifest::{FailurePolicy, Manifest};
use crate::matcher::{MatcherDialect, Syntax};
use crate::plan::Cx;
use crate::format::{FileFormat, with_newline};
use crate::record::Prune;
use crate::hook::ResolvedHook;
use crate::target::Target;
use crate::scope::Scope;

/// The OpenClaw target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OpenClaw;

/// The OpenClaw target's constants. Events, kinds and tools are the OpenClaw codec's
/// ([`agenthooks_openclaw::CODEC`]).
pub(crate) static SPEC: TargetSpec = TargetSpec::new(Provider::OPENCLAW, &agenthooks_openclaw::CODEC)
    .scope_hint("OpenClaw discovers plugins in <workspace>/.openclaw/extensions/ and <state dir>/extensions/")
    // The shim's deadline for an awaited hook, in milliseconds: at most OpenClaw's 600 s
    // handler maximum minus the host margin (the host timeout is written above it).
    .timeouts(TimeoutRule {
        unit_ms: 1,
        default: 10_000,
        min: 1_000,
        max: Some(598_000),
        clamped_default: None,
    })
    .matcher(MatcherDialect::new(Syntax::ExactList))
    .not_installed(&[(
        plugin::LOCAL_DECISION,
        "the shim's own report of a decision it made itself (not an OpenClaw hook)",
    )])
    .hook_notes(&[
        HookNote::info(
            FindingCode::CapabilityMissing,
            "a conversation-scope hook: the entry sets hooks.allowConversationAccess (quirk #801)",
            |_, h| plugin::CONVERSATION_HOOKS.contains(&h.native.as_str()),
        ),
        HookNote::info(
            FindingCode::AsyncUnsupported,
            "OpenClaw ignores what this hook returns: the shim fires it and forgets it",
            |_, h| h.blocking && !awaited(h),
        ),
        HookNote::fails_closed(
            "fail-closed: the shim blocks at its deadline and when the daemon dies, and OpenClaw blocks on a handler that fails",
            |m, h| wants_fail_closed(m, h) && awaited(h) && FAIL_CLOSED_HOOKS.contains(&h.native.as_str()),
        ),
        HookNote::fails_open(
            "fail-closed: OpenClaw skips a failed or late handler here; a dead daemon lets the run go on",
            |m, h| wants_fail_closed(m, h) && awaited(h) && !FAIL_CLOSED_HOOKS.contains(&h.native.as_str()),
        ),
    ]);

/// The hooks whose failure OpenClaw itself treats as a block (15 s, fail closed): the shim's
/// fail-closed answer there is honoured. Elsewhere OpenClaw skips a failed handler.
const FAIL_CLOSED_HOOKS: &[&str] = &["before_tool_call", "before_agent_run"];

/// The OpenClaw state directory (`$OPENCLAW_STATE_DIR`) of a target.
fn state_dir(target: &Target) -> PathBuf {
    if let Some(home) = &target.agent_home {
        return home.clone();
    }
    real_user_env(target, "OPENCLAW_STATE_DIR").unwrap_or_else(|| target.home.join(".openclaw"))
}

/// An absolute path from the environment, only for the real user (a target with another home
/// is a test or a provisioning run for someone else).
fn real_user_env(target: &Target, var: &str) -> Option<PathBuf> {
    let real_home = std::env::var_os("HOME").map(PathBuf::from)?;
    if real_home != target.home {
        return None;
    }
    std::env::var_os(var).map(PathBuf::from).filter(|p| p.is_absolute())
}

/// The config file named explicitly: the target's option, else `$OPENCLAW_CONFIG_PATH` (real
/// user only).
fn explicit_config(target: &Target) -> Option<PathBuf> {
    target
        .options
        .openclaw()
        .config_path
        .or_else(|| real_user_env(target, "OPENCLAW_CONFIG_PATH"))
}

/// The config file OpenClaw reads.
pub(crate) fn config_path(target: &Target) -> PathBuf {
    explicit_config(target).unwrap_or_else(|| state_dir(target).join("openclaw.json"))
}

/// Where the plugin directory goes.
pub(crate) fn plugin_dir(target: &Target) -> PathBuf {
    let root = match target.scope {
        Scope::Project | Scope::Plugin => target.root.join(".openclaw"),
        Scope::User if target.agent_home.is_some() || real_user_env(target, "OPENCLAW_STATE_DIR").is_some() => {
            state_dir(target)
        }
        Scope::User => match explicit_config(target) {
            Some(c) => c.parent().map_or_else(|| state_dir(target), Path::to_path_buf),
            None => state_dir(target),
        },
    };
    root.join("extensions").join(PLUGIN_ID)
}

/// The plugin for these hooks.
/// Whether the shim awaits the hook (a blocking hook on an event whose row blocks).
fn awaited(h: &ResolvedHook) -> bool {
    ShimHook::new(h.native.clone()).with_awaited(h.blocking).awaited
}

fn config_for(m: &Manifest, hooks: &[ResolvedHook]) -> PluginConfig {
    let closed = m.failure == FailurePolicy::Closed;
    let cfg = PluginConfig::new(m.command.iter().cloned())
        .fail_closed(closed)
        .with_identity(m.identity.name.clone(), m.identity.version.clone());
    hooks.iter().fold(cfg, |cfg, h| {
        let mut s = ShimHook::new(h.native.clone())
            .with_awaited(h.blocking)
            .with_fail_closed((h.fail_closed != closed).then_some(h.fail_closed));
        if s.awaited {
            s = s.with_deadline(h.timeout);
        }
        let tools = h.matcher.as_ref().map(|m| m.split('|').map(str::to_owned).collect());
        cfg.with_hook(
            s.with_matcher(tools)
                .with_tools(h.tools.as_ref().map(ToString::to_string)),
        )
    })
}

/// `plugins.entries.agenthooks`'s keys that are ours, for these hooks.
fn entry_for(cfg: &PluginConfig) -> Value {
    let timeouts: Map<String, Value> = cfg.host_timeouts().into_iter().map(|(k, v)| (k, v.into())).collect();
    let mut hooks = Map::new();
    if cfg.needs_conversation_access() {
        hooks.insert("allowConversationAccess".into(), true.into());
    }
    if !timeouts.is_empty() {
        hooks.insert("timeouts".into(), timeouts.into());
    }
    json!({"enabled": true, "hooks": hooks})
}

/// The installed hooks as entries (what doctor lists and plans compare).
fn entries(cfg: &PluginConfig) -> Vec<Value> {
    cfg.hooks
        .iter()
        .map(|h| {
            let mut e = json!({"event": h.hook, "await": h.awaited, "command": cfg.command, "failClosed": h.fail_closed.unwrap_or(cfg.fail_closed)});
            if h.awaited {
                e["deadline_ms"] = u64::try_from(h.deadline.as_millis()).unwrap_or(u64::MAX).into();
            }
            if let Some(m) = &h.matcher {
                e["matcher"] = json!(m);
            }
            if let Some(t) = &h.tools {
                e["tools"] = json!(t);
            }
            e
        })
        .collect()
}

/// What the plugin directory holds.
enum Installed {
    /// Nothing (no `index.js`).
    Absent,
    /// Our plugin, for this manifest's command.
    Ours(PluginConfig),
    /// Something else: another command's agenthooks plugin, or not ours at all.
    Foreign(InstallError),
}

/// What the plugin directory of the target holds.
fn installed(cx: &mut Cx<'_>) -> Result<Installed, InstallError> {
    let index = plugin_dir(cx.target).join("index.js");
    let Some(text) = cx.text(&index, FileFormat::Text)? else {
        return Ok(Installed::Absent);
    };
    let foreign = |why: String| Installed::Foreign(InstallError::malformed(&index, "JavaScript", why));
    Ok(match plugin::parse(&text) {
        Some(cfg) if cfg.command == cx.manifest.command => Installed::Ours(cfg),
        Some(cfg) => foreign(format!(
            "an agenthooks plugin for another command (`{}`) is installed here: uninstall it with that command first",
            crate::shell::shown(&cfg.command)
        )),
        None => foreign("a plugin directory named agenthooks exists and is not ours: not overwriting it".to_owned()),
    })
}

/// Parses the config text (JSON with comments; OpenClaw also reads JSON5, which we refuse
/// beyond comments rather than guess at).
fn parse_config(path: &Path, text: &str) -> Result<jsonc::Node, InstallError> {
    let root = jsonc::parse(text, true).map_err(|e| {
        InstallError::malformed(
            path,
            "JSON5",
            format!("{e} (only JSON with comments is edited; add `plugins.entries.{PLUGIN_ID}` by hand or rewrite the file as JSON)"),
        )
    })?;
    if root.members().is_none() {
        return Err(InstallError::malformed(
            path,
            "JSON5",
            "the config is not an object".to_owned(),
        ));
    }
    Ok(root)
}

fn edit_failed(path: &Path) -> InstallError {
    InstallError::malformed(path, "JSON5", "could not edit the document".to_owned())
}

/// Sets (`Some`) or removes (`None`) the member `key` of the object at `path`, creating the
/// objects on the way when setting. Errors when something on the way is not an object.
fn set_member(
    file: &Path,
    text: &str,
    path: &[&str],
    key: &str,
    value: Option<&Value>,
) -> Result<String, InstallError> {
    let mut text = text.to_owned();
    let mut depth = 0;
    while depth <= path.len() {
        let root = parse_config(file, &text)?;
        let segs: Vec<Seg<'_>> = path[..depth].iter().map(|k| Seg::Key(k)).collect();
        let Some(node) = jsonc::find(&root, &segs) else {
            // A missing parent: nothing to remove; create it to set.
            if value.is_none() {
                return Ok(text);
            }
            let parent: Vec<Seg<'_>> = path[..depth - 1].iter().map(|k| Seg::Key(k)).collect();
            text = jsonc::append_child(&text, &root, &parent, Some(path[depth - 1]), &json!({}))
                .ok_or_else(|| edit_failed(file))?;
            continue; // the same depth again, now present
        };
        if node.members().is_none() {
            return Err(InstallError::malformed(
                file,
                "JSON5",
                format!("`{}` is not an object", path[..depth].join(".")),
            ));
        }
        if depth < path.len() {
            depth += 1;
            continue;
        }
        let existing = node.get(key).map(|n| n.to_value(&text));
        text = match (existing, value) {
            (Some(old), Some(v)) if old == *v => text,
            (Some(_), Some(v)) => {
                let mut full = segs.clone();
                full.push(Seg::Key(key));
                jsonc::replace_value(&text, &root, &full, v).ok_or_else(|| edit_failed(file))?
            }
            (None, Some(v)) => {
                jsonc::append_child(&text, &root, &segs, Some(key), v).ok_or_else(|| edit_failed(file))?
            }
            (Some(_), None) => jsonc::remove_member(&text, &root, &segs, key).ok_or_else(|| edit_failed(file))?,
            (None, None) => text,
        };
        break;
    }
    Ok(text)
}

/// Removes the objects along `path` (deepest first) that are left empty, as far as `prune`
/// allows.
fn prune_empty(file: &Path, text: &str, path: &[&str], prune: &Prune) -> Result<String, InstallError> {
    let mut text = text.to_owned();
    for depth in (1..=path.len()).rev() {
        let root = parse_config(file, &text)?;
        let segs: Vec<Seg<'_>> = path[..depth].iter().map(|k| Seg::Key(k)).collect();
        if prune.may(&path[..depth])
            && jsonc::find(&root, &segs)
                .and_then(jsonc::Node::members)
                .is_some_and(<[_]>::is_empty)
        {
            text = jsonc::remove_member(&text, &root, &segs[..depth - 1], path[depth - 1])
                .ok_or_else(|| edit_failed(file))?;
        } else {
            break;
        }
    }
    Ok(text)
}

const ENTRY: [&str; 3] = ["plugins", "entries", PLUGIN_ID];

/// Our keys of `plugins.entries.agenthooks` in the config as it is.
fn entry_in(file: &Path, text: Option<&str>) -> Result<Option<Value>, InstallError> {
    let Some(text) = text else { return Ok(None) };
    let root = parse_config(file, text)?;
    let segs: Vec<Seg<'_>> = ENTRY.iter().map(|k| Seg::Key(k)).collect();
    Ok(jsonc::find(&root, &segs).map(|n| {
        let v = n.to_value(text);
        let mut hooks = Map::new();
        for k in ["allowConversationAccess", "timeouts"] {
            if let Some(x) = v.pointer(&format!("/hooks/{k}")) {
                hooks.insert(k.into(), x.clone());
            }
        }
        json!({"enabled": v.get("enabled").cloned().unwrap_or(Value::Null), "hooks": hooks})
    }))
}

/// Writes (`Some`) or removes (`None`) our keys of the entry.
fn write_entry(cx: &mut Cx<'_>, entry: Option<&Value>) -> Result<(), InstallError> {
    let file = config_path(cx.target);
    let before = cx.text(&file, FileFormat::Jsonc)?;
    let found = entry_in(&file, before.as_deref())?;
    if found.as_ref() == entry {
        return cx.set_ours(
            &file,
            FileFormat::Jsonc,
            found.into_iter().collect(),
            entry.into_iter().cloned().collect(),
        );
    }
    let created = before.is_none();
    let original = before.clone().unwrap_or_else(|| "{}".to_owned());
    let prune = cx.prune(&file)?;
    // Our keys only: anything else the user put in the entry (`config`, other `hooks` keys)
    // stays, and the objects left empty that we created are removed.
    let hooks = [ENTRY[0], ENTRY[1], ENTRY[2], "hooks"];
    let set_ours = |mut text: String, entry: Option<&Value>| -> Result<String, InstallError> {
        text = set_member(&file, &text, &ENTRY, "enabled", entry.map(|e| &e["enabled"]))?;
        for k in ["allowConversationAccess", "timeouts"] {
            text = set_member(&file, &text, &hooks, k, entry.and_then(|e| e["hooks"].get(k)))?;
        }
        prune_empty(&file, &text, &hooks, &prune)
    };
    // The document without our keys (what a reinstall starts from; what install created is
    // what it adds to it).
    let had_ours = found
        .as_ref()
        .is_some_and(|f| !f["enabled"].is_null() || f["hooks"].as_object().is_some_and(|h| !h.is_empty()));
    let stripped = if had_ours {
        set_ours(original.clone(), None)?
    } else {
        original.clone()
    };
    let text = match entry {
        None => stripped.clone(),
        Some(_) => set_ours(original.clone(), entry)?,
    };
    let members_empty =
        |t: &str| -> Result<bool, InstallError> { Ok(parse_config(&file, t)?.members().is_some_and(<[_]>::is_empty)) };
    if entry.is_some() {
        let value = |t: &str| parse_config(&file, t).map(|n| n.to_value(t));
        let residue = had_ours && members_empty(&stripped)?;
        let b = before.as_deref().filter(|_| had_ours).map(value).transpose()?;
        cx.note_install(&file, b.as_ref(), &value(&stripped)?, &value(&text)?, residue)?;
    }
    let residue = text.clone();
    let after = if created {
        entry.is_some().then(|| with_newline(text))
    } else if entry.is_none() && members_empty(&text)? && cx.may_delete(&file)? {
        // Nothing but our entry was there, and the file is ours.
        None
    } else {
        Some(text)
    };
    cx.set_text_or_residue(&file, FileFormat::Jsonc, after, residue)?;
    cx.set_ours(
        &file,
        FileFormat::Jsonc,
        found.into_iter().collect(),
        entry.into_iter().cloned().collect(),
    )
}

impl TargetModule for OpenClaw {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn notes(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        let mut out = vec![SPEC.finding(
            Severity::Info,
            FindingCode::Location,
            format!(
                "plugin at {}, entry `plugins.entries.{PLUGIN_ID}` in {}; OpenClaw fires these hooks under `openclaw agent --local` and the Gateway, never under `openclaw agent exec` (quirk #806)",
                plugin_dir(target).display(),
                config_path(target).display()
            ),
        )];
        out.extend(SPEC.noted(target, manifest, hooks));
        out
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        let found = match installed(cx)? {
            Installed::Absent => Vec::new(),
            Installed::Ours(c) => entries(&c),
            Installed::Foreign(e) => return Err(e),
        };
        let dir = plugin_dir(cx.target);
        let cfg = config_for(cx.manifest, hooks);
        let files = cfg.render();
        for (name, text) in &files {
            let path = dir.join(name);
            // A foreign index.js is refused above; the other two files are ours once it is.
            // Without our index.js, a file there that is not what we render is someone else's:
            // never overwritten (uninstall would delete it).
            let existing = cx.text(&path, FileFormat::Text)?;
            if found.is_empty() && existing.as_ref().is_some_and(|e| e != text) {
                return Err(InstallError::malformed(
                    &path,
                    "plugin file",
                    "a file of our plugin's name exists and is not ours: not overwriting it".to_owned(),
                ));
            }
            cx.set_text(&path, FileFormat::Text, (!hooks.is_empty()).then(|| text.clone()))?;
        }
        let index = dir.join("index.js");
        cx.set_ours(
            &index,
            FileFormat::Text,
            found,
            if hooks.is_empty() { Vec::new() } else { entries(&cfg) },
        )?;
        write_entry(cx, (!hooks.is_empty()).then(|| entry_for(&cfg)).as_ref())
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        let Installed::Ours(cfg) = installed(cx)? else {
            // Not ours (or nothing): another command's plugin is left to that command.
            return Ok(());
        };
        let dir = plugin_dir(cx.target);
        for (name, _) in cfg.render() {
            let path = dir.join(name);
            cx.text(&path, FileFormat::Text)?;
            cx.set_text(&path, FileFormat::Text, None)?;
        }
        cx.set_ours(&dir.join("index.js"), FileFormat::Text, entries(&cfg), Vec::new())?;
        write_entry(cx, None)
    }

    fn health(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<Vec<Finding>, InstallError> {
        let _ = hooks;
        Ok(
            match super::opencode::ping_daemon(&cx.manifest.command, &SPEC.provider, Duration::from_secs(5)) {
                Ok(()) => Vec::new(),
                Err(e) => vec![SPEC.finding(
                    Severity::Error,
                    FindingCode::Command,
                    format!(
                        "the plugin's daemon (`{} agenthooks serve --provider=openclaw`) did not answer a ping frame: {e}",
                        crate::shell::shown(&cx.manifest.command)
                    ),
                )],
            },
        )
    }
}
