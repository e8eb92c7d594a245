//! OpenCode: the generated shim plugin, one ESM file, at project scope
//! (`<root>/.opencode/plugin/agenthooks.js`) or user scope (`$XDG_CONFIG_HOME/opencode/plugin/`,
//! default `~/.config/opencode/plugin/`; an explicit agent home is the OpenCode config dir).
//!
//! - The whole file is ours: it is rendered by `agenthooks_opencode::shim` with the consumer's
//!   command, the subscribed hooks and bus events, their deadlines (milliseconds, owned by the
//!   shim: OpenCode applies none) and the fail policy baked in. Rendering is deterministic, so a
//!   second install changes nothing; uninstall deletes the file (only when it is our shim).
//! - Tool matchers are compiled to anchored regexes that the shim tests on the tool id: other
//!   tools are not proxied at all. Where a regex cannot say the filter (the `other` class, MCP
//!   tools: OpenCode's MCP tool ids have no fixed prefix), the hook's `--tools` spec is baked in
//!   and sent on each frame; the daemon answers other tools with the neutral shape.
//! - Doctor spawns `<command> agenthooks serve --provider=opencode` and checks it answers the
//!   `agenthooks.ping` frame.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use agenthooks_core::{EventKind, Provider};
use agenthooks_opencode::shim::{self, ShimConfig, ShimFail, Subscription};
use serde_json::{json, Value};

use super::spec::{TargetModule, TargetSpec, TimeoutRule};
use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::manifest::Manifest;
use crate::plan::Cx;
use crate::format::FileFormat;
use crate::hook::ResolvedHook;
use crate::target::Target;
use crate::scope::Scope;

/// The OpenCode target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OpenCode;

/// The OpenCode target's constants. Events, kinds and tools are the OpenCode codec's
/// ([`agenthooks_opencode::CODEC`]).
pub(crate) static SPEC: TargetSpec = TargetSpec::new(Provider::OPENCODE, &agenthooks_opencode::CODEC)
    // The shim's per-hook deadline, in milliseconds.
    .timeouts(TimeoutRule::new(1, 60_000).max(3_600_000))
    .scope_hint("OpenCode loads plugins from <project>/.opencode/plugin/ and $XDG_CONFIG_HOME/opencode/plugin/")
    .not_installed(&[
        (
            "permission.ask",
            "typed but never called since OpenCode 1.5 (quirk #18): permission.asked is answered instead",
        ),
        (
            "config",
            "the shim always forwards it (only the MCP server names, for tool classification)",
        ),
    ]);

/// The OpenCode config directory of a target's scope.
fn config_dir(target: &Target) -> PathBuf {
    match target.scope {
        Scope::Project | Scope::Plugin => target.root.join(".opencode"),
        Scope::User => {
            if let Some(home) = &target.agent_home {
                return home.clone();
            }
            // `$XDG_CONFIG_HOME` counts only for the real user (a target with another home is a
            // test or a provisioning run for someone else).
            let real_home = std::env::var_os("HOME").map(PathBuf::from);
            let xdg = std::env::var_os("XDG_CONFIG_HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute());
            match xdg {
                Some(x) if real_home.as_deref() == Some(target.home.as_path()) => x.join("opencode"),
                _ => target.home.join(".config/opencode"),
            }
        }
    }
}

/// Where the shim goes.
pub(crate) fn shim_path(target: &Target) -> PathBuf {
    config_dir(target).join("plugin").join(shim::FILE_NAME)
}

fn config_for(m: &Manifest, hooks: &[ResolvedHook]) -> ShimConfig {
    hooks.iter().fold(ShimConfig::new(m.command.iter().cloned()), |cfg, h| {
        let fail = if h.fail_closed {
            ShimFail::Closed
        } else {
            ShimFail::Open
        };
        let ms = u64::try_from(h.timeout.as_millis()).unwrap_or(u64::MAX);
        cfg.with(
            Subscription::new(h.native.clone(), ms, fail)
                .with_matcher(h.matcher.clone())
                .with_tools(h.tools.as_ref().map(ToString::to_string)),
        )
    })
}

/// The installed subscriptions as entries (what doctor lists and plans compare).
fn entries(cfg: &ShimConfig) -> Vec<Value> {
    cfg.hooks
        .iter()
        .chain(&cfg.events)
        .map(|s| {
            let mut e = json!({"event": s.name, "timeout_ms": s.timeout_ms, "fail": if s.fail == ShimFail::Closed { "closed" } else { "open" }});
            if let Some(m) = &s.matcher {
                e["matcher"] = m.clone().into();
            }
            if let Some(t) = &s.tools {
                e["tools"] = t.clone().into();
            }
            e["command"] = json!(cfg.command);
            e
        })
        .collect()
}

/// Our shim in `text`, when it is ours (our header and our command).
fn ours(text: Option<&str>, cx: &Cx<'_>) -> Option<ShimConfig> {
    shim::parse(text?).filter(|c| c.command == cx.manifest.command)
}

impl TargetModule for OpenCode {
    fn spec(&self) -> &'static TargetSpec {
        &SPEC
    }

    fn notes(&self, target: &Target, manifest: &Manifest, hooks: &[ResolvedHook]) -> Vec<Finding> {
        let p = SPEC.provider.clone();
        let mut out = Vec::new();
        for h in hooks {
            let first = h.specs[0];
            if matches!(
                h.kind,
                EventKind::Permission | EventKind::Stop | EventKind::SubagentStop
            ) {
                out.push(
                    Finding::new(
                        Severity::Info,
                        FindingCode::CapabilityMissing,
                        &p,
                        "answered over OpenCode's HTTP API (permission replies, follow-up prompts): needs a listening server (`opencode serve`, `opencode run --attach`, the TUI); plain `opencode run` has none and auto-rejects permission asks (quirk #702)",
                    )
                    .with_hook(first)
                    .with_native(&h.native),
                );
            }
            if !h.blocking && !shim::is_bus_event(&h.native) {
                out.push(
                    Finding::new(
                        Severity::Info,
                        FindingCode::AsyncUnsupported,
                        &p,
                        "OpenCode awaits every plugin hook: this non-blocking hook is answered before OpenCode goes on (keep it fast)",
                    )
                    .with_hook(first)
                    .with_native(&h.native),
                );
            }
            if super::spec::wants_fail_closed(manifest, h) {
                let native = !matches!(h.native.as_str(), "tool.execute.before" | "chat.message");
                out.push(
                    Finding::new(
                        if native { Severity::Degraded } else { Severity::Info },
                        if native { FindingCode::FailClosedUnsupported } else { FindingCode::FailClosedNative },
                        &p,
                        if native {
                            "fail-closed: OpenCode honours a throw only from tool.execute.before and chat.message; here a dead or late daemon is a no-op"
                        } else {
                            "fail-closed: the shim throws at its deadline and when the daemon dies"
                        },
                    )
                    .with_hook(first)
                    .with_native(&h.native),
                );
            }
        }
        if target.scope == Scope::User {
            out.push(Finding::new(
                Severity::Info,
                FindingCode::Location,
                &p,
                format!("user-scope shim at {}", shim_path(target).display()),
            ));
        }
        out
    }

    fn install(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<(), InstallError> {
        let path = shim_path(cx.target);
        let before = cx.text(&path, FileFormat::Text)?;
        let found = ours(before.as_deref(), cx).map(|c| entries(&c)).unwrap_or_default();
        if before.as_deref().is_some_and(|t| shim::parse(t).is_none()) {
            return Err(InstallError::malformed(
                &path,
                "JavaScript",
                "a file of that name exists and is not our shim: not overwriting it".to_owned(),
            ));
        }
        let cfg = config_for(cx.manifest, hooks);
        let after = (!hooks.is_empty()).then(|| shim::render(&cfg));
        cx.set_text(&path, FileFormat::Text, after)?;
        cx.set_ours(
            &path,
            FileFormat::Text,
            found,
            if hooks.is_empty() { Vec::new() } else { entries(&cfg) },
        )
    }

    fn uninstall(&self, cx: &mut Cx<'_>) -> Result<(), InstallError> {
        let path = shim_path(cx.target);
        let before = cx.text(&path, FileFormat::Text)?;
        let Some(cfg) = ours(before.as_deref(), cx) else {
            return Ok(());
        };
        cx.set_text(&path, FileFormat::Text, None)?;
        cx.set_ours(&path, FileFormat::Text, entries(&cfg), Vec::new())
    }

    fn health(&self, cx: &mut Cx<'_>, hooks: &[ResolvedHook]) -> Result<Vec<Finding>, InstallError> {
        let _ = hooks;
        let p = SPEC.provider.clone();
        Ok(match ping_daemon(&cx.manifest.command, &p, Duration::from_secs(5)) {
            Ok(()) => Vec::new(),
            Err(e) => vec![Finding::new(
                Severity::Error,
                FindingCode::Command,
                &p,
                format!(
                    "the shim's daemon (`{} agenthooks serve --provider=opencode`) did not answer a ping frame: {e}",
                    crate::shell::shown(&cx.manifest.command)
                ),
            )],
        })
    }
}

/// Starts the daemon a bridge (OpenCode's shim, OpenClaw's plugin) would start and checks it
/// answers `agenthooks.ping`.
pub(crate) fn ping_daemon(command: &[String], provider: &Provider, timeout: Duration) -> Result<(), String> {
    let (program, args) = command.split_first().ok_or("the manifest has no command")?;
    let mut child = Command::new(program)
        .args(args)
        .args(["agenthooks", "serve", &format!("--provider={provider}")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start it: {e}"))?;
    let mut stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        if let Some(out) = stdout {
            let _ = BufReader::new(out).read_line(&mut line);
        }
        let _ = tx.send(line);
    });
    if let Some(s) = stdin.as_mut() {
        let _ = s.write_all(b"{\"seq\":\"doctor\",\"hook\":\"agenthooks.ping\"}\n");
        let _ = s.flush();
    }
    let line = rx.recv_timeout(timeout);
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let line = line.map_err(|_| format!("no answer within {timeout:?}"))?;
    let v: Value = serde_json::from_str(line.trim()).map_err(|_| format!("not a frame: {:?}", line.trim()))?;
    if v.pointer("/output/agenthooks").and_then(Value::as_str) == Some("pong") {
        Ok(())
    } else {
        Err(format!("unexpected answer {v}"))
    }
}
