//! The generated native plugin: the three files of the OpenClaw plugin directory, rendered with
//! the consumer's command baked in (install writes them; tests and the e2e suite render them
//! directly).
//!
//! | file | content |
//! |---|---|
//! | `openclaw.plugin.json` | `{id, name, description, configSchema, activation: {onStartup: true}}` |
//! | `package.json` | `{"name", "version", "type": "module", "openclaw": {"extensions": ["./index.js"]}}` |
//! | `index.js` | plain JS, Node built-ins only: default export `{id, name, description, register(api)}` |
//!
//! `index.js` spawns `<command> agenthooks serve --provider=openclaw` on the first hook call of a
//! Gateway or embedded run (never in `register`, which OpenClaw also calls in discovery mode)
//! and proxies frames `{seq, hook, event, ctx}` → `{seq, output?}` (see [`crate::native`]). It
//! registers only the hooks in [`PluginConfig::hooks`], with OpenClaw's `matcher` option when a
//! hook is restricted to tools (never an empty list) — and, where that exact-id list cannot say
//! the filter, the hook's `--tools` spec on each of its frames as `tools` (the daemon filters;
//! [`ShimHook::tools`]) — and:
//!
//! - strips functions, handles and the Gateway config (`ctx.config`, `ctx.cfg`: API keys) from
//!   every context before it leaves the process (quirk #803);
//! - awaits the gates ([`ShimHook::awaited`]) under [`ShimHook::deadline`], below OpenClaw's
//!   15 s fail-closed budget, and registers them with a host `timeoutMs` above it; when the
//!   daemon is gone, errs or misses the deadline it applies the hook's fail policy
//!   ([`ShimHook::fail_closed`], else [`PluginConfig::fail_closed`]) itself (`{block: true, blockReason}` on `before_tool_call`, `{outcome: "block"}` on
//!   `before_agent_run`, nothing elsewhere) and reports the local decision in an
//!   `agenthooks_local_decision` frame (quirk #804);
//! - fires observers and forgets them (each waits at most 250 ms for its frame to reach the
//!   pipe, inside the 2 s shutdown drain); the synchronous hooks return at once;
//! - respawns a daemon that died (exit, spawn error, EPIPE on its stdin) on the next call, at
//!   once after a first crash; crashes in a row (each within 30 s of its start) wait 100 ms
//!   doubling to 10 s, and a gate made meanwhile waits for the respawn when it comes before its
//!   daemon deadline (else fails per policy at once; an observer is dropped). A crash fails only
//!   the calls the dead daemon was sent, never resent; its late replies settle nothing.
//!
//! The spawning, framing, deadlines, respawn and JSON writing are the shared bridge's
//! ([`agenthooks_core::kit::bridge`], inlined by [`PluginConfig::render`]); `index.js` is
//! OpenClaw's adapter of it. A hook's data that has no JSON text (a getter or `toJSON` that
//! throws) fails its gate per policy at once (cause `unwritable-input`).

use std::time::Duration;

use agenthooks_core::kit::bridge;
use serde_json::{json, Value};

use crate::native;

/// The plugin id (`plugins.entries.<id>` in `openclaw.json`).
pub const PLUGIN_ID: &str = "agenthooks";

/// The native name of the shim's own report (not an OpenClaw hook: never registered).
pub const LOCAL_DECISION: &str = "agenthooks_local_decision";

/// The shim's default deadline for an awaited hook: below OpenClaw's 15 s budget.
pub const DEFAULT_GATE_DEADLINE: Duration = Duration::from_secs(10);

/// How much earlier than the shim's deadline the daemon must answer (its `timeout_ms`).
pub const DAEMON_MARGIN: Duration = Duration::from_secs(1);

/// How much later than the shim's deadline OpenClaw's own handler timeout is set.
pub const HOST_MARGIN: Duration = Duration::from_secs(2);

/// The longest handler timeout OpenClaw accepts (`hooks.timeouts.*`, ms).
pub const HOST_TIMEOUT_MAX: Duration = Duration::from_secs(600);

/// The adapter template (`src/plugin/index.js`): the hook registration, the context stripping,
/// the local fail policy, and two slots (the shared bridge, the config) that
/// [`PluginConfig::render`] fills ([`agenthooks_core::kit::bridge::render`]).
const INDEX_JS: &str = include_str!("plugin/index.js");

/// One hook the plugin registers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShimHook {
    /// The OpenClaw hook name.
    pub hook: String,
    /// Whether the shim awaits the daemon's answer (the hook's row is blocking); else the call
    /// is fired and forgotten.
    pub awaited: bool,
    /// The shim's deadline for an awaited hook.
    pub deadline: Duration,
    /// OpenClaw's `matcher` (canonical tool ids), when the hook is restricted to tools; an empty
    /// list is never rendered.
    pub matcher: Option<Vec<String>>,
    /// The in-process tool filter (a `--tools` spec, [`agenthooks_core::ToolSelector`] syntax)
    /// where `matcher` cannot say it (a class without fixed ids, an MCP glob): sent as each
    /// frame's `tools`, and the daemon answers a tool outside it with the neutral shape without
    /// running the filtered handlers.
    pub tools: Option<String>,
    /// This hook's fail policy when it differs from the plugin's [`PluginConfig::fail_closed`]
    /// (a consumer whose policy is per event); `None`: the plugin's.
    pub fail_closed: Option<bool>,
}

impl ShimHook {
    /// A hook as its row says: awaited when the row is blocking, the default deadline, no
    /// matcher.
    pub fn new(hook: impl Into<String>) -> Self {
        let hook = hook.into();
        let awaited = agenthooks_core::kit::row(native::EVENTS, &hook).is_some_and(|r| r.blocking);
        Self {
            hook,
            awaited,
            deadline: DEFAULT_GATE_DEADLINE,
            matcher: None,
            tools: None,
            fail_closed: None,
        }
    }

    /// Sets the deadline (kept between 1 s and OpenClaw's maximum minus the host margin).
    #[must_use]
    pub fn with_deadline(mut self, d: Duration) -> Self {
        self.deadline = d.clamp(Duration::from_secs(1), HOST_TIMEOUT_MAX.saturating_sub(HOST_MARGIN));
        self
    }

    /// Sets whether the shim awaits the daemon (a telemetry hook on a gate row is fired and
    /// forgotten: `false`); `true` on a row that is not blocking changes nothing.
    #[must_use]
    pub fn with_awaited(mut self, awaited: bool) -> Self {
        self.awaited = self.awaited && awaited;
        self
    }

    /// Sets the tool matcher (`None` or an empty list: every tool).
    #[must_use]
    pub fn with_matcher(mut self, tools: Option<Vec<String>>) -> Self {
        self.matcher = tools.filter(|t| !t.is_empty());
        self
    }

    /// OpenClaw's handler timeout for this hook (`hooks.timeouts.<hook>` and the registration's
    /// `timeoutMs`): the shim's deadline plus [`HOST_MARGIN`], for awaited hooks.
    pub fn host_timeout(&self) -> Option<Duration> {
        self.awaited
            .then(|| (self.deadline + HOST_MARGIN).min(HOST_TIMEOUT_MAX))
    }

    /// The daemon's deadline (`timeout_ms` of the frame): the shim's minus [`DAEMON_MARGIN`].
    pub fn daemon_timeout(&self) -> Duration {
        self.deadline
            .saturating_sub(DAEMON_MARGIN)
            .max(Duration::from_millis(500))
    }

    fn to_json(&self) -> Value {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let mut v = json!({"hook": self.hook, "await": self.awaited});
        if self.awaited {
            v["deadlineMs"] = ms(self.deadline).into();
            v["daemonMs"] = ms(self.daemon_timeout()).into();
            if let Some(h) = self.host_timeout() {
                v["hostTimeoutMs"] = ms(h).into();
            }
        }
        if let Some(m) = &self.matcher {
            v["matcher"] = json!(m);
        }
        if let Some(t) = &self.tools {
            v["tools"] = t.clone().into();
        }
        if let Some(c) = self.fail_closed {
            v["failClosed"] = c.into();
        }
        v
    }
}

agenthooks_core::kit::setters! {
    impl ShimHook {
        /// Sets this hook's own fail policy (`None`: the plugin's).
        with_fail_closed(fail_closed: Option<bool>);
        /// Sets the in-process tool filter sent with the hook's frames (`None`: none).
        with_tools(tools: Option<String>);
    }
}

/// What the plugin is rendered from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PluginConfig {
    /// The consumer's command (argv); `agenthooks serve --provider=openclaw` is appended.
    pub command: Vec<String>,
    /// The hooks to register.
    pub hooks: Vec<ShimHook>,
    /// The consumer's fail policy for a daemon that does not answer a gate.
    pub fail_closed: bool,
    /// The plugin's display name.
    pub name: String,
    /// The plugin's version (`package.json`).
    pub version: String,
}

impl PluginConfig {
    /// A plugin running `command`, no hooks yet, fail-open.
    pub fn new<I, S>(command: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            command: command.into_iter().map(Into::into).collect(),
            hooks: Vec::new(),
            fail_closed: false,
            name: "agenthooks".into(),
            version: "0.0.0".into(),
        }
    }

    /// Adds a hook (a second entry for the same hook replaces the first; the shim's own
    /// [`LOCAL_DECISION`] report is not a hook and is skipped).
    #[must_use]
    pub fn with_hook(mut self, hook: ShimHook) -> Self {
        if hook.hook == LOCAL_DECISION {
            return self;
        }
        self.hooks.retain(|h| h.hook != hook.hook);
        self.hooks.push(hook);
        self
    }

    /// Sets the fail policy.
    #[must_use]
    pub fn fail_closed(mut self, closed: bool) -> Self {
        self.fail_closed = closed;
        self
    }

    /// Sets the display name and version.
    #[must_use]
    pub fn with_identity(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.name = name.into();
        self.version = version.into();
        self
    }

    /// Whether a conversation-scope hook is registered (then OpenClaw needs
    /// `hooks.allowConversationAccess: true` for this plugin, quirk #801).
    pub fn needs_conversation_access(&self) -> bool {
        self.hooks.iter().any(|h| CONVERSATION_HOOKS.contains(&h.hook.as_str()))
    }

    /// `hooks.timeouts` for `openclaw.json`: one entry per awaited hook, in milliseconds.
    pub fn host_timeouts(&self) -> Vec<(String, u64)> {
        self.hooks
            .iter()
            .filter_map(|h| {
                let t = h.host_timeout()?;
                Some((h.hook.clone(), u64::try_from(t.as_millis()).unwrap_or(u64::MAX)))
            })
            .collect()
    }

    /// The rendered files, `(file name, contents)`, in a stable order.
    pub fn render(&self) -> Vec<(&'static str, String)> {
        let manifest = json!({
            "id": PLUGIN_ID,
            "name": self.name,
            "description": "agenthooks bridge: forwards OpenClaw hooks to the consumer's hook binary",
            "configSchema": {"type": "object", "additionalProperties": false},
            "activation": {"onStartup": true},
        });
        let package = json!({
            "name": "agenthooks-openclaw-plugin",
            "version": self.version,
            "private": true,
            "type": "module",
            "openclaw": {"extensions": ["./index.js"]},
        });
        let config = json!({
            "id": PLUGIN_ID,
            "name": self.name,
            "command": self.command,
            "version": self.version,
            "failClosed": self.fail_closed,
            "hooks": self.hooks.iter().map(ShimHook::to_json).collect::<Vec<_>>(),
        });
        let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default() + "\n";
        vec![
            ("openclaw.plugin.json", pretty(&manifest)),
            ("package.json", pretty(&package)),
            ("index.js", bridge::render(INDEX_JS, &config)),
        ]
    }
}

/// The configuration baked into a rendered `index.js`, when `text` is one this crate rendered
/// (its `const CONFIG = {…};` slot parses and names our plugin id); `None` for any other file.
/// Install uses it to recognise its own plugin and to list what it installed; plugins rendered
/// before the bridge was shared (the config written over several lines) read the same.
///
/// ```
/// use agenthooks_openclaw::plugin::{parse, PluginConfig, ShimHook};
/// let cfg = PluginConfig::new(["/bin/guard"]).with_hook(ShimHook::new("before_tool_call")).fail_closed(true);
/// let files = cfg.render();
/// let index = &files.iter().find(|(n, _)| *n == "index.js").unwrap().1;
/// assert_eq!(parse(index).as_ref(), Some(&cfg));
/// assert_eq!(parse("export default {}"), None);
/// ```
pub fn parse(text: &str) -> Option<PluginConfig> {
    let v = bridge::config(text)?;
    if v["id"] != PLUGIN_ID {
        return None;
    }
    let ms = |x: &Value| x.as_u64().map(Duration::from_millis);
    let hooks = v["hooks"]
        .as_array()?
        .iter()
        .map(|h| {
            let hook = h["hook"].as_str()?.to_owned();
            let matcher = h["matcher"]
                .as_array()
                .map(|m| m.iter().filter_map(|t| t.as_str().map(str::to_owned)).collect());
            Some(ShimHook {
                hook,
                awaited: h["await"].as_bool()?,
                deadline: ms(&h["deadlineMs"]).unwrap_or(DEFAULT_GATE_DEADLINE),
                matcher,
                tools: h["tools"].as_str().map(str::to_owned),
                fail_closed: h["failClosed"].as_bool(),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(PluginConfig {
        command: v["command"]
            .as_array()?
            .iter()
            .map(|c| c.as_str().map(str::to_owned))
            .collect::<Option<_>>()?,
        hooks,
        fail_closed: v["failClosed"].as_bool()?,
        name: v["name"].as_str()?.to_owned(),
        version: v["version"].as_str().unwrap_or("0.0.0").to_owned(),
    })
}

/// The hooks OpenClaw gates behind `hooks.allowConversationAccess` for non-bundled plugins
/// (2026.9.6).
pub const CONVERSATION_HOOKS: &[&str] = &[
    "before_model_resolve",
    "agent_turn_prepare",
    "before_prompt_build",
    "before_agent_reply",
    "llm_input",
    "llm_output",
    "before_agent_finalize",
    "agent_end",
    "before_agent_run",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gates_are_awaited_under_the_host_budget() {
        let h = ShimHook::new("before_tool_call");
        assert!(h.awaited);
        assert!(h.deadline < Duration::from_secs(15));
        assert!(h.daemon_timeout() < h.deadline);
        assert!(h.host_timeout().is_some_and(|t| t > h.deadline));
        assert!(!ShimHook::new("after_tool_call").awaited);
        assert_eq!(ShimHook::new("agent_end").host_timeout(), None);
    }

    #[test]
    fn empty_matchers_are_not_rendered() {
        let h = ShimHook::new("before_tool_call").with_matcher(Some(Vec::new()));
        assert_eq!(h.matcher, None);
        let files = PluginConfig::new(["/bin/hook"]).with_hook(h).render();
        let js = &files[2].1;
        assert!(js.contains("\"before_tool_call\"") && !js.contains("\"matcher\""));
        assert!(!js.contains("__AGENTHOOKS_CONFIG__") && js.contains("function createBridge(options)"));
    }
}
