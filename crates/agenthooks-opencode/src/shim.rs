//! The generated shim plugin: one ESM file that OpenCode loads from `.opencode/plugin/` (or
//! `~/.config/opencode/plugin/`), with the consumer's command, the subscribed hooks, bus events,
//! deadlines and fail policies baked in.
//!
//! The template is `src/shim.js`, OpenCode's adapter of the shared bridge
//! ([`agenthooks_core::kit::bridge`], inlined by [`render`]): plain JavaScript, Node built-ins
//! only, one default-exported async factory so the 1.18 loader and older 1.x loaders both take
//! it. It spawns
//! `<command> agenthooks serve --provider=opencode` at the first hook call, sends the plugin's context as
//! the `agenthooks.hello` frame (`serverUrl`, `directory`, `worktree`, `projectID`) and proxies
//! every subscribed hook as a frame. What it guarantees:
//!
//! | concern | behaviour |
//! |---|---|
//! | correlation | `seq` per call; concurrent in-flight calls (sessions interleave) |
//! | replies | `Object.assign(output, reply.output)` on OpenCode's own object, in place: a patched array's contents are replaced wholesale, a patched object keeps only the patch's keys, and both keep their identity (OpenCode reads its own `args` and `parts` references after the hook) |
//! | errors | re-thrown from `tool.execute.before` (blocks the tool) and `chat.message`; swallowed elsewhere |
//! | tool filter | a matcher (regex on the tool id) skips other tools in the shim; where none can say it, the hook's `--tools` spec rides on each frame as `tools` and the daemon filters |
//! | deadlines | per hook, owned by the shim (OpenCode has none); sent as `timeout_ms` so the daemon answers first |
//! | failure | past the deadline, on a crash or EOF: `closed` throws (on the two throwing hooks), `open` does nothing |
//! | crash | the calls the dead daemon was sent settle per policy (never resent); the next call respawns it at once; only after crashes in a row (each within 30 s of its start) does a respawn wait (100 ms doubling to 10 s), and calls made meanwhile wait for it, in order, sent with what is left of their deadline (one whose deadline ends first fails per policy at once); bus events made meanwhile wait up to their timeout, then are dropped |
//! | dead pipe | a write error (EPIPE: the daemon stopped reading) counts as a crash, so calls do not wait out their deadline on it |
//! | bus events | fire-and-forget; only subscribed types; `message.part.delta` and `session.next.*` only when named |
//! | serialisation | taken when the hook is called, at any depth: `toJSON` applied (a `URL` is its href), functions, symbols, `AbortSignal`s and cycles dropped; an input whose getter or `toJSON` throws fails its call per policy at once |
//! | teardown | `dispose` closes stdin, waits 500 ms, kills; at process `exit` the daemon gets end of input (it answers what is in flight and ends) |
//! | stdout | never written (it is OpenCode's TUI) |

use agenthooks_core::kit::bridge;
use serde_json::{json, Map, Value};

/// The adapter template (`src/shim.js`): the hook table, how a reply is applied, and two slots
/// (the shared bridge, the config) that [`render`] fills.
pub const TEMPLATE: &str = include_str!("shim.js");

/// The file name install writes.
pub const FILE_NAME: &str = "agenthooks.js";

/// What happens when the daemon cannot answer in time or has died.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ShimFail {
    /// Do nothing: OpenCode's own flow runs.
    #[default]
    Open,
    /// Throw (on `tool.execute.before` and `chat.message`, the hooks whose throw OpenCode honours).
    Closed,
}

impl ShimFail {
    fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Closed => "closed",
        }
    }
}

/// One subscription: a hook name, or a bus event type (`*` for every event but the
/// high-volume ones).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Subscription {
    /// The hook or bus event.
    pub name: String,
    /// The shim's deadline in milliseconds.
    pub timeout_ms: u64,
    /// The fail policy.
    pub fail: ShimFail,
    /// A tool matcher (a JavaScript regex source tested against the tool id) on tool hooks:
    /// other tools are not proxied.
    pub matcher: Option<String>,
    /// The in-process tool filter (a `--tools` spec, [`agenthooks_core::ToolSelector`] syntax)
    /// where the matcher cannot say it: the shim sends it as the frame's `tools` and the daemon
    /// answers a tool outside it with the neutral shape, without running the filtered handlers.
    pub tools: Option<String>,
}

impl Subscription {
    /// A subscription (every tool).
    pub fn new(name: impl Into<String>, timeout_ms: u64, fail: ShimFail) -> Self {
        Self {
            name: name.into(),
            timeout_ms,
            fail,
            matcher: None,
            tools: None,
        }
    }
}

agenthooks_core::kit::setters! {
    impl Subscription {
        /// Narrows a tool hook to the tools `matcher` (a regex source) matches.
        with_matcher(matcher: Option<String>);
        /// Sets the in-process tool filter sent with every frame of the hook (`None`: none).
        with_tools(tools: Option<String>);
    }
}

/// What the shim is rendered with.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ShimConfig {
    /// The consumer's command (the binary and its own leading arguments); the shim appends
    /// `agenthooks serve --provider=opencode`.
    pub command: Vec<String>,
    /// Subscribed hooks (by OpenCode hook name).
    pub hooks: Vec<Subscription>,
    /// Subscribed bus events (by type).
    pub events: Vec<Subscription>,
}

impl ShimConfig {
    /// A config for `command` with no subscriptions.
    pub fn new(command: impl IntoIterator<Item = impl Into<String>>) -> Self {
        Self {
            command: command.into_iter().map(Into::into).collect(),
            hooks: Vec::new(),
            events: Vec::new(),
        }
    }

    /// Subscribes a native event: a hook row, or a bus event row (by its type).
    #[must_use]
    pub fn subscribe(self, native: &str, timeout_ms: u64, fail: ShimFail) -> Self {
        self.with(Subscription::new(native, timeout_ms, fail))
    }

    /// Adds a subscription (to the hooks or the bus events, by its name).
    #[must_use]
    pub fn with(mut self, s: Subscription) -> Self {
        if is_bus_event(&s.name) {
            self.events.push(s);
        } else {
            self.hooks.push(s);
        }
        self
    }
}

/// Whether a native name is a bus event (delivered through the `event` hook) rather than a hook.
pub fn is_bus_event(native: &str) -> bool {
    !(native == "config"
        || native == "event"
        || native.starts_with("tool.")
        || native.starts_with("chat.")
        || native.starts_with("experimental.")
        || native == "permission.ask"
        || native.starts_with("command.")
        || native.starts_with("shell."))
}

fn table(subs: &[Subscription]) -> Value {
    let mut m = Map::new();
    for s in subs {
        let mut spec = json!({"timeoutMs": s.timeout_ms, "fail": s.fail.as_str()});
        if let Some(matcher) = &s.matcher {
            spec["matcher"] = matcher.clone().into();
        }
        if let Some(tools) = &s.tools {
            spec["tools"] = tools.clone().into();
        }
        m.insert(s.name.clone(), spec);
    }
    Value::Object(m)
}

fn subscriptions(v: Option<&Value>) -> Vec<Subscription> {
    let Some(Value::Object(m)) = v else { return Vec::new() };
    m.iter()
        .map(|(name, spec)| {
            let fail = if spec["fail"] == "closed" {
                ShimFail::Closed
            } else {
                ShimFail::Open
            };
            Subscription::new(name.clone(), spec["timeoutMs"].as_u64().unwrap_or(0), fail)
                .with_matcher(spec["matcher"].as_str().map(str::to_owned))
                .with_tools(spec["tools"].as_str().map(str::to_owned))
        })
        .collect()
}

fn command(v: &Value) -> Option<Vec<String>> {
    Some(
        v.as_array()?
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
    )
}

/// The subscriptions and command a rendered shim holds (`None` when `text` is not our shim):
/// install reads them back to know what is installed. Shims rendered before the bridge was
/// shared (one `/*AGENTHOOKS:…*/` marker line per table) are read too, so install upgrades and
/// uninstalls them.
pub fn parse(text: &str) -> Option<ShimConfig> {
    if !text.starts_with(HEADER) {
        return None;
    }
    let Some(cfg) = bridge::config(text) else {
        return parse_marker_lines(text);
    };
    Some(ShimConfig {
        command: command(&cfg["command"])?,
        hooks: subscriptions(cfg.get("hooks")),
        events: subscriptions(cfg.get("events")),
    })
}

/// A shim of the earlier format: `const COMMAND = /*AGENTHOOKS:COMMAND*/[…];` and the like.
fn parse_marker_lines(text: &str) -> Option<ShimConfig> {
    let value = |marker: &str| -> Option<Value> {
        let line = text.lines().find(|l| l.contains(marker))?;
        let rest = &line[line.find(marker)? + marker.len()..];
        serde_json::from_str(rest.trim_end().trim_end_matches(';')).ok()
    };
    Some(ShimConfig {
        command: command(&value("/*AGENTHOOKS:COMMAND*/")?)?,
        hooks: subscriptions(value("/*AGENTHOOKS:HOOKS*/").as_ref()),
        events: subscriptions(value("/*AGENTHOOKS:EVENTS*/").as_ref()),
    })
}

/// The first line of every rendered shim (how install recognises its own file).
pub const HEADER: &str = "// agenthooks shim for OpenCode: generated by agenthooks";

/// Renders the shim for a config (deterministic: the same config gives the same bytes): the
/// adapter template with the shared bridge inlined and `{command, hooks, events}` in its config
/// slot ([`agenthooks_core::kit::bridge::render`]).
///
/// ```
/// use agenthooks_opencode::shim::{render, ShimConfig, ShimFail};
/// let cfg = ShimConfig::new(["/usr/local/bin/guard"])
///     .subscribe("tool.execute.before", 30_000, ShimFail::Closed)
///     .subscribe("session.idle", 30_000, ShimFail::Open);
/// let js = render(&cfg);
/// assert!(js.contains(r#"const CONFIG = {"command":["/usr/local/bin/guard"],"hooks":{"tool.execute.before":{"#));
/// assert!(js.contains(r#""fail":"closed""#) && js.contains(r#""timeoutMs":30000"#));
/// assert!(js.contains(r#""events":{"session.idle""#));
/// assert!(js.contains("function createBridge(options)"), "the bridge is inlined");
/// assert!(!js.contains("console.log"));
/// ```
pub fn render(cfg: &ShimConfig) -> String {
    let config = json!({
        "command": cfg.command,
        "hooks": table(&cfg.hooks),
        "events": table(&cfg.events),
    });
    bridge::render(TEMPLATE, &config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_and_bus_events_are_told_apart() {
        for hook in [
            "tool.execute.before",
            "chat.message",
            "experimental.session.compacting",
            "permission.ask",
            "shell.env",
            "config",
        ] {
            assert!(!is_bus_event(hook), "{hook}");
        }
        for ev in [
            "session.idle",
            "permission.asked",
            "permission.updated",
            "file.edited",
            "message.part.delta",
        ] {
            assert!(is_bus_event(ev), "{ev}");
        }
    }

    #[test]
    fn rendered_shims_parse_back() {
        let cfg = ShimConfig::new(["/bin/guard", "--x"])
            .with(
                Subscription::new("tool.execute.before", 5000, ShimFail::Closed)
                    .with_matcher(Some("^(?:bash)$".into())),
            )
            .with(Subscription::new("tool.execute.after", 5000, ShimFail::Open).with_tools(Some("class:other".into())))
            .subscribe("session.idle", 9000, ShimFail::Open);
        let text = render(&cfg);
        assert_eq!(parse(&text), Some(cfg));
        assert_eq!(parse("// someone else's plugin"), None);
    }

    #[test]
    fn the_rendered_shim_exports_only_its_default() {
        let js = render(&ShimConfig::new(["/bin/guard"]));
        let exports: Vec<&str> = js.lines().filter(|l| l.starts_with("export")).collect();
        assert_eq!(exports, ["export default async function agenthooks(input) {"]);
        assert!(!js.contains("console."), "the shim never writes to stdout");
        assert!(js
            .lines()
            .filter(|l| l.starts_with("import"))
            .all(|l| l.contains("\"node:")));
        assert!(js.contains("function createBridge(options)"), "the bridge is inlined");
    }

    /// A shim as install wrote it before the bridge was shared (the install golden of then: one
    /// `/*AGENTHOOKS:…*/` marker line per table): still ours, so install upgrades and
    /// uninstalls it.
    #[test]
    fn a_shim_of_the_earlier_format_is_read_back() {
        let old = include_str!("../tests/data/shim-before-bridge.js.txt");
        let cfg = parse(old).expect("ours");
        assert_eq!(cfg.command, ["/opt/My Tools/guard's", "--config=$HOME/.guard.toml"]);
        assert_eq!(cfg.hooks.len(), 3);
        assert_eq!(cfg.hooks[0].name, "tool.execute.before");
        assert_eq!(cfg.hooks[0].fail, ShimFail::Closed);
        assert_eq!(cfg.hooks[0].timeout_ms, 10_000);
        assert_eq!(cfg.events.len(), 5);
        let again = render(&cfg);
        assert_eq!(parse(&again), Some(cfg));
        assert!(!again.contains("/*AGENTHOOKS:"));
    }
}
