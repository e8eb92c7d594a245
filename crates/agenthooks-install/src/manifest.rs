//! [`Manifest`]: what to install, once, for every agent.

use std::time::Duration;

use agenthooks_core::{CapSet, Capability, EventKind, FailMode, Provider};
use serde::{Deserialize, Serialize};

use crate::error::InstallError;
use crate::matcher::ToolMatcher;

/// What the generated configs run and on which events.
///
/// Build it in code, or deserialize it from a small TOML/JSON file:
///
/// ```
/// use agenthooks_core::EventKind;
/// use agenthooks_install::{HookSpec, Manifest, ToolMatcher};
/// let m = Manifest::new(["/usr/local/bin/guard"], "guard")
///     .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::names(["Bash"])))
///     .with_hook(HookSpec::kind(EventKind::SessionEnd).non_blocking());
/// assert_eq!(m.hooks.len(), 2);
///
/// let parsed: Manifest = serde_json::from_str(r#"{
///   "command": ["/usr/local/bin/guard"],
///   "identity": {"name": "guard"},
///   "hooks": [{"kind": "tool.pre", "tools": {"names": ["Bash"]}},
///             {"kind": "session.end", "blocking": false}]
/// }"#).unwrap();
/// assert_eq!(parsed, m);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Manifest {
    /// How to start the consumer binary: the program (an absolute path, or a name looked up on
    /// `PATH`) and any leading arguments. Each generated command is these words, shell-quoted,
    /// followed by `agenthooks run --provider=P --event=NATIVE --timeout=SECS`.
    pub command: Vec<String>,
    /// The hooks.
    #[serde(default)]
    pub hooks: Vec<HookSpec>,
    /// Name, version and description (plugin manifests, Gemini hook names, Copilot file name).
    pub identity: Identity,
    /// What a crash or timeout of the hook binary itself should mean where the agent lets the
    /// config say so (Claude `onFailure`). The runner's own policy is set in code.
    #[serde(default)]
    pub failure: FailurePolicy,
    /// Warm mode (`install --warm`): render `http` hooks to the warm server where the agent
    /// has them (Claude Code; Copilot CLI with [`Manifest::copilot_allow_localhost`]), command
    /// hooks elsewhere. Rendering needs [`Manifest::warm_endpoint`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warm: bool,
    /// Warm mode on Copilot CLI: the user runs Copilot with `COPILOT_HOOK_ALLOW_LOCALHOST=1`
    /// (without it Copilot blocks every http hook to loopback, quirk 413), so its hooks may be
    /// http hooks to the warm server (`install --warm --copilot-allow-localhost`). Off, Copilot
    /// keeps command hooks in warm mode.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub copilot_allow_localhost: bool,
    /// The warm server's endpoint the http hooks name (set by the CLI from the warm directory;
    /// never read from or written to a manifest file: it holds the token).
    #[serde(skip)]
    pub warm_endpoint: Option<WarmEndpoint>,
}

/// Where warm mode's http hooks post: the port, the credential they send and the build id
/// they carry.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WarmEndpoint {
    /// The loopback port.
    pub port: u16,
    /// The credential the hooks send (`Authorization: Bearer …`): the CLI renders the warm
    /// token's bearer ([`bearer`](agenthooks_runtime::warm_state::bearer) in a build with
    /// warm mode), never the token itself.
    pub token: String,
    /// The build id the server checks.
    pub build: String,
    /// The warm directory (the token, the server's record): `doctor` verifies the server with
    /// it. `None` when the endpoint was made by hand.
    pub dir: Option<std::path::PathBuf>,
}

impl WarmEndpoint {
    /// An endpoint.
    pub fn new(port: u16, token: impl Into<String>, build: impl Into<String>) -> Self {
        Self {
            port,
            token: token.into(),
            build: build.into(),
            dir: None,
        }
    }

    /// The endpoint with its warm directory.
    #[must_use]
    pub fn with_dir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.dir = Some(dir.into());
        self
    }
}

impl std::fmt::Debug for WarmEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarmEndpoint")
            .field("port", &self.port)
            .field("token", &"<redacted>")
            .field("build", &self.build)
            .field("dir", &self.dir)
            .finish()
    }
}

impl Manifest {
    /// A manifest with a command and an identity name, and no hooks yet.
    pub fn new(command: impl IntoIterator<Item = impl Into<String>>, name: impl Into<String>) -> Self {
        Self {
            command: command.into_iter().map(Into::into).collect(),
            hooks: Vec::new(),
            identity: Identity::new(name),
            failure: FailurePolicy::Open,
            warm: false,
            copilot_allow_localhost: false,
            warm_endpoint: None,
        }
    }

    /// Warm mode with this endpoint (see [`Manifest::warm`]).
    #[must_use]
    pub fn with_warm(mut self, endpoint: WarmEndpoint) -> Self {
        self.warm = true;
        self.warm_endpoint = Some(endpoint);
        self
    }

    /// Adds a hook.
    #[must_use]
    pub fn with_hook(mut self, hook: HookSpec) -> Self {
        self.hooks.push(hook);
        self
    }

    /// Parses a manifest file in TOML (then validates it).
    ///
    /// ```
    /// use agenthooks_install::Manifest;
    /// let m = Manifest::from_toml(r#"
    /// command = ["/usr/local/bin/guard"]
    /// failure = "closed"
    /// [identity]
    /// name = "guard"
    /// [[hooks]]
    /// kind = "tool.pre"
    /// tools = { classes = ["shell"], mcp = ["github/*"] }
    /// timeout = 10
    /// [[hooks]]
    /// provider = "claude-code"
    /// native = "PostToolBatch"
    /// blocking = false
    /// "#).unwrap();
    /// assert_eq!(m.hooks.len(), 2);
    /// assert!(Manifest::from_toml("command = []\n[identity]\nname = \"x\"").is_err());
    /// ```
    pub fn from_toml(text: &str) -> Result<Self, InstallError> {
        let doc = text
            .parse::<toml_edit::DocumentMut>()
            .map_err(|e| InstallError::InvalidManifest(e.to_string().trim_end().to_owned()))?;
        let m: Self = serde_json::from_value(crate::merge::toml::to_json(doc.as_item()))
            .map_err(|e| InstallError::InvalidManifest(e.to_string()))?;
        m.validate()?;
        Ok(m)
    }

    /// Parses a manifest file in JSON (then validates it).
    pub fn from_json(text: &str) -> Result<Self, InstallError> {
        let m: Self = serde_json::from_str(text).map_err(|e| InstallError::InvalidManifest(e.to_string()))?;
        m.validate()?;
        Ok(m)
    }

    /// Checks the manifest.
    pub fn validate(&self) -> Result<(), InstallError> {
        let bad = |m: String| Err(InstallError::InvalidManifest(m));
        match self.command.first() {
            None => return bad("`command` is empty".into()),
            Some(p) if p.is_empty() => return bad("the program (first word of `command`) is empty".into()),
            Some(_) => {}
        }
        if self.command.iter().any(|w| w.contains('\0')) {
            return bad("`command` contains a NUL byte".into());
        }
        let name = &self.identity.name;
        if name.is_empty()
            || name.starts_with(['.', '-'])
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        {
            return bad(format!(
                "identity name `{name}` must be non-empty ASCII letters, digits, `.`, `_` or `-`, not starting with `.` or `-`"
            ));
        }
        for (i, h) in self.hooks.iter().enumerate() {
            if h.timeout.is_some_and(|t| t.is_zero()) {
                return bad(format!("hook #{i}: timeout must be positive"));
            }
            if let HookOn::Native { event, .. } = &h.on {
                if event.is_empty() || event.chars().any(char::is_whitespace) {
                    return bad(format!("hook #{i}: native event `{event}` is not a name"));
                }
            }
        }
        Ok(())
    }
}

agenthooks_core::kit::setters! {
    impl Manifest {
        /// Sets the identity.
        with_identity(identity: Identity);
        /// Sets the failure policy.
        with_failure(failure: FailurePolicy);
        /// Sets [`Manifest::copilot_allow_localhost`]: the user runs Copilot CLI with
        /// `COPILOT_HOOK_ALLOW_LOCALHOST=1`.
        ///
        /// ```
        /// use agenthooks_install::{Manifest, WarmEndpoint};
        /// let m = Manifest::new(["/bin/guard"], "guard")
        ///     .with_warm(WarmEndpoint::new(4711, "token", "0.1.0-abc-def"))
        ///     .with_copilot_allow_localhost(true);
        /// assert!(m.warm && m.copilot_allow_localhost);
        /// ```
        with_copilot_allow_localhost(copilot_allow_localhost: bool);
    }
}

/// Plugin name, version and description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Identity {
    /// A short name: ASCII letters, digits, `.`, `_`, `-` (used in file names).
    pub name: String,
    /// A version string.
    #[serde(default = "default_version")]
    pub version: String,
    /// One line about what the hooks do.
    #[serde(default)]
    pub description: String,
}

fn default_version() -> String {
    "0.0.0".to_owned()
}

impl Identity {
    /// An identity with a name, version `0.0.0` and no description.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: default_version(),
            description: String::new(),
        }
    }

    /// The description, or a default built from the name.
    pub(crate) fn description_or_default(&self) -> String {
        if self.description.trim().is_empty() {
            format!("{} (agenthooks)", self.name)
        } else {
            self.description.clone()
        }
    }
}

agenthooks_core::kit::setters! {
    impl Identity {
        /// Sets the version.
        with_version(version: impl Into<String>);
        /// Sets the description.
        with_description(description: impl Into<String>);
    }
}

/// What a crash or timeout of the hook binary means, where the agent's config can say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum FailurePolicy {
    /// The agent proceeds (every agent's default).
    #[default]
    Open,
    /// Blocking hooks block the action (Claude `onFailure: "block"`); reported where the
    /// agent cannot express it.
    Closed,
}

impl From<FailMode> for FailurePolicy {
    fn from(m: FailMode) -> Self {
        match m {
            FailMode::Closed => Self::Closed,
            _ => Self::Open,
        }
    }
}

/// Which event a hook is for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HookOn {
    /// A unified kind: rendered on every agent that has it.
    Kind(EventKind),
    /// One agent's native event (other agents skip it).
    Native {
        /// The agent.
        provider: Provider,
        /// The native event name as the agent spells it.
        event: String,
    },
}

impl std::fmt::Display for HookOn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Kind(k) => f.write_str(k.as_str()),
            Self::Native { provider, event } => write!(f, "{provider}:{event}"),
        }
    }
}

/// One hook of the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawHookSpec", into = "RawHookSpec")]
#[non_exhaustive]
pub struct HookSpec {
    /// The event.
    pub on: HookOn,
    /// What a crash or timeout of the hook binary means for this hook; `None` = the manifest's
    /// [`Manifest::failure`] (a router whose policy differs per event sets it per hook).
    pub failure: Option<FailurePolicy>,
    /// Which tools (tool events only); empty = every tool.
    pub tools: ToolMatcher,
    /// Whether the agent should wait for the hook's decision (`true`, the default) or run it
    /// in the background as telemetry.
    pub blocking: bool,
    /// The hook's timeout; `None` = the agent's default.
    pub timeout: Option<Duration>,
    /// The capabilities the handler uses (for the preflight report); `None` = everything the
    /// kind can do.
    pub uses: Option<CapSet>,
}

impl HookSpec {
    /// A blocking hook on a unified kind, every tool, the agent's default timeout.
    pub fn kind(kind: EventKind) -> Self {
        Self {
            on: HookOn::Kind(kind),
            tools: ToolMatcher::default(),
            blocking: true,
            timeout: None,
            uses: None,
            failure: None,
        }
    }

    /// A blocking hook on one agent's native event.
    pub fn native(provider: Provider, event: impl Into<String>) -> Self {
        Self {
            on: HookOn::Native {
                provider,
                event: event.into(),
            },
            ..Self::kind(EventKind::Other)
        }
    }

    /// Marks the hook as telemetry (the agent should not wait for it).
    #[must_use]
    pub fn non_blocking(mut self) -> Self {
        self.blocking = false;
        self
    }

    /// The hook's failure policy: its own [`HookSpec::failure`], else the manifest's.
    pub fn effective_failure(&self, manifest: &Manifest) -> FailurePolicy {
        self.failure.unwrap_or(manifest.failure)
    }

    /// The capabilities the preflight checks: [`HookSpec::uses`], or what the kind can do.
    pub fn effective_uses(&self, kind: EventKind) -> CapSet {
        self.uses.unwrap_or_else(|| default_uses(kind))
    }
}

agenthooks_core::kit::setters! {
    impl HookSpec {
        /// Sets the tool matcher.
        with_tools(tools: ToolMatcher);
        /// Sets the timeout.
        with_timeout(timeout: Duration) => Some;
        /// Declares the capabilities the handler uses.
        with_uses(uses: CapSet) => Some;
        /// Sets this hook's failure policy (overriding the manifest's).
        with_failure(failure: FailurePolicy) => Some;
    }
}

/// What a handler of this kind can ask for, at most (the preflight's default).
pub fn default_uses(kind: EventKind) -> CapSet {
    use Capability as C;
    match kind {
        EventKind::ToolPre => CapSet::of(&[C::Deny, C::Ask, C::Allow, C::UpdateInput, C::AddContext]),
        EventKind::Permission => CapSet::of(&[C::Deny, C::Allow, C::UpdateInput]),
        EventKind::PromptSubmitted => CapSet::of(&[C::Deny, C::AddContext]),
        EventKind::ToolPost => CapSet::of(&[C::AddContext, C::ReplaceOutput, C::FlagOutput]),
        EventKind::ToolError | EventKind::SessionStart | EventKind::SubagentStart => CapSet::of(&[C::AddContext]),
        EventKind::Stop | EventKind::SubagentStop => CapSet::of(&[C::ContinueAgent]),
        _ => CapSet::EMPTY,
    }
}

/// The serde shape of a [`HookSpec`].
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHookSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<EventKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    provider: Option<Provider>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    native: Option<String>,
    #[serde(default, skip_serializing_if = "ToolMatcher::is_any")]
    tools: ToolMatcher,
    #[serde(default = "yes")]
    blocking: bool,
    /// Seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    timeout: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    uses: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    failure: Option<FailurePolicy>,
}

fn yes() -> bool {
    true
}

impl TryFrom<RawHookSpec> for HookSpec {
    type Error = String;

    fn try_from(r: RawHookSpec) -> Result<Self, Self::Error> {
        let on = match (r.kind, r.provider, r.native) {
            (Some(k), None, None) => HookOn::Kind(k),
            (None, Some(provider), Some(event)) => HookOn::Native { provider, event },
            _ => return Err("a hook needs either `kind`, or both `provider` and `native`".into()),
        };
        let timeout = match r.timeout {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Some(Duration::from_secs_f64(s)),
            Some(s) => return Err(format!("timeout {s} is not a positive number of seconds")),
        };
        let uses = match r.uses {
            None => None,
            Some(names) => {
                let mut set = CapSet::EMPTY;
                for n in names {
                    let c = Capability::ALL
                        .into_iter()
                        .find(|c| c.as_str() == n)
                        .ok_or_else(|| format!("unknown capability `{n}`"))?;
                    set = set.with(c);
                }
                Some(set)
            }
        };
        Ok(Self {
            on,
            tools: r.tools,
            blocking: r.blocking,
            timeout,
            uses,
            failure: r.failure,
        })
    }
}

impl From<HookSpec> for RawHookSpec {
    fn from(h: HookSpec) -> Self {
        let (kind, provider, native) = match h.on {
            HookOn::Kind(k) => (Some(k), None, None),
            HookOn::Native { provider, event } => (None, Some(provider), Some(event)),
        };
        Self {
            kind,
            provider,
            native,
            tools: h.tools,
            blocking: h.blocking,
            timeout: h.timeout.map(|d| d.as_secs_f64()),
            uses: h.uses.map(|s| s.iter().map(|c| c.as_str().to_owned()).collect()),
            failure: h.failure,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validates() {
        assert!(Manifest::new(["/bin/x"], "ok-name_1.2").validate().is_ok());
        assert!(Manifest::new(Vec::<String>::new(), "x").validate().is_err());
        assert!(Manifest::new([""], "x").validate().is_err());
        assert!(Manifest::new(["/bin/x"], "bad name").validate().is_err());
        assert!(Manifest::new(["/bin/x"], ".hidden").validate().is_err());
        assert!(Manifest::new(["/bin/x"], "../up").validate().is_err());
        let m = Manifest::new(["/bin/x"], "x").with_hook(HookSpec::kind(EventKind::Stop).with_timeout(Duration::ZERO));
        assert!(m.validate().is_err());
    }

    #[test]
    fn serde_round_trip() {
        let m = Manifest::new(["/bin/x", "--flag"], "x")
            .with_identity(Identity::new("x").with_version("1.2.3").with_description("d"))
            .with_failure(FailurePolicy::Closed)
            .with_hook(
                HookSpec::kind(EventKind::ToolPre)
                    .with_timeout(Duration::from_millis(1500))
                    .with_uses(CapSet::of(&[Capability::Deny]))
                    .with_failure(FailurePolicy::Open),
            )
            .with_hook(HookSpec::native(Provider::CLAUDE_CODE, "PostToolBatch").non_blocking());
        let j = serde_json::to_string(&m).unwrap();
        let back: Manifest = serde_json::from_str(&j).unwrap();
        assert_eq!(back, m);
        let bad = r#"{"command":["x"],"identity":{"name":"x"},"hooks":[{"kind":"tool.pre","native":"X"}]}"#;
        assert!(serde_json::from_str::<Manifest>(bad).is_err());
        let bad = r#"{"command":["x"],"identity":{"name":"x"},"hooks":[{"kind":"tool.pre","uses":["fly"]}]}"#;
        assert!(serde_json::from_str::<Manifest>(bad)
            .unwrap_err()
            .to_string()
            .contains("fly"));
    }

    #[test]
    fn default_uses_by_kind() {
        assert!(default_uses(EventKind::ToolPre).contains(Capability::Ask));
        assert!(default_uses(EventKind::Notification).is_empty());
        let h = HookSpec::kind(EventKind::Stop);
        assert_eq!(
            h.effective_uses(EventKind::Stop),
            CapSet::of(&[Capability::ContinueAgent])
        );
    }
}
