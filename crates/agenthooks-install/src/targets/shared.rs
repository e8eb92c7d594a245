//! What several targets write alike: warm mode's URLs and added hooks, the entries of a JSON
//! hooks file, a JSON-with-comments file's value.

use std::time::Duration;

use agenthooks_core::{EventKind, Provider};

use crate::error::InstallError;
use crate::hook::ResolvedHook;
use crate::manifest::Manifest;
use crate::plan::Cx;

/// The warm server URL of one hook of `provider`: the route carries what `--provider` and
/// `--event` carry, the query the timeout, the build the config is rendered for, the owner
/// marker (uninstall, diff and doctor recognize the URL as this command prefix's) and the tool
/// filter.
pub(crate) fn warm_url(
    provider: &Provider,
    ep: &crate::manifest::WarmEndpoint,
    owner: &crate::shell::Owner,
    h: &ResolvedHook,
) -> String {
    use agenthooks_runtime::http::encode_component as enc;
    let mut url = format!(
        "http://127.0.0.1:{}/v1/hook/{}/{}?timeout={}&build={}&{}",
        ep.port,
        provider,
        enc(&h.native),
        crate::shell::format_secs(h.timeout),
        enc(&ep.build),
        owner.warm_param()
    );
    if let Some(t) = &h.tools {
        url.push_str("&tools=");
        url.push_str(&enc(&t.to_string()));
    }
    url
}

/// The flag of the prompt command hook warm mode adds: it only (re)starts the server.
pub(crate) const WARM_ONLY: &str = " --warm-only";

/// The agent's native events warm mode adds hooks on: the session start (a command hook with
/// `--warm`: it starts the server), each prompt (a command hook with `--warm-only`: it restarts
/// a server gone mid-session and renews the session) and the session end (an http hook: the
/// server counts the session closed).
#[derive(Debug, Clone, Copy)]
pub(crate) struct WarmEvents {
    pub(crate) start: &'static str,
    pub(crate) prompt: &'static str,
    pub(crate) end: &'static str,
}

/// Whether `h` is the prompt hook warm mode added (rendered as a command hook).
pub(crate) fn is_warm_keeper(h: &ResolvedHook) -> bool {
    h.specs.is_empty() && h.command.ends_with(WARM_ONLY)
}

/// In warm mode, the hooks plus: a synchronous session-start command hook when the manifest
/// has none (with `--warm` it starts the server before the session's first http hook); a
/// prompt command hook with `--warm-only` when the manifest has no prompt hook (its own prompt
/// hook stays a command hook with `--warm`): either restarts the server when the turn's http
/// hooks would find it gone (a crash, a kill, an exit the session outlived; its cost per turn
/// is in the README); and a session-end hook when the manifest has none (the server counts
/// open sessions).
pub(crate) fn with_warm_start(
    manifest: &Manifest,
    hooks: &[ResolvedHook],
    provider: &Provider,
    ev: WarmEvents,
) -> Result<Vec<ResolvedHook>, InstallError> {
    let mut out = hooks.to_vec();
    let added = |native: &str, kind: EventKind, secs: u64, suffix: &str| -> Result<ResolvedHook, InstallError> {
        let timeout = Duration::from_secs(secs);
        let command = crate::shell::hook_command(&manifest.command, provider, native, timeout)? + suffix;
        Ok(ResolvedHook {
            specs: Vec::new(),
            native: native.into(),
            kind,
            matcher: None,
            blocking: true,
            timeout_value: secs,
            timeout,
            command,
            tools: None,
            fail_closed: false,
        })
    };
    if !hooks.iter().any(|h| h.native == ev.start) {
        out.push(added(ev.start, EventKind::SessionStart, 10, "")?);
    }
    if !hooks.iter().any(|h| h.native == ev.prompt) {
        // The manifest's own prompt hook stays a command hook with `--warm` (the target
        // renders it so); without one, a hook that only keeps the server up.
        out.push(added(ev.prompt, EventKind::PromptSubmitted, 5, WARM_ONLY)?);
    }
    if !hooks.iter().any(|h| h.native == ev.end) {
        let mut end = added(ev.end, EventKind::SessionEnd, 5, "")?;
        end.blocking = false;
        out.push(end);
    }
    Ok(out)
}

/// The `(native event, rendered value)` pairs a JSON hooks file is written from.
pub(crate) fn entries(
    hooks: &[ResolvedHook],
    render: impl Fn(&ResolvedHook) -> serde_json::Value,
) -> Vec<(String, serde_json::Value)> {
    hooks.iter().map(|h| (h.native.clone(), render(h))).collect()
}

/// A JSON-with-comments file's value: `None` when it is absent or does not parse.
pub(crate) fn jsonc_value(cx: &mut Cx<'_>, path: &std::path::Path) -> Result<Option<serde_json::Value>, InstallError> {
    let text = cx.text(path, crate::format::FileFormat::Jsonc)?;
    Ok(text.and_then(|t| crate::jsonc::parse(&t, true).ok().map(|n| n.to_value(&t))))
}
