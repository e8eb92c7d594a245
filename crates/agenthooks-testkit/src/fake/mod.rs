//! Fake agents: each agent's own rules for reading a hook's result, and a process spawner that
//! runs a hook command the way the agent does.
//!
//! The rules are written from the agents' documented and observed behaviour
//! (`reference/providers/*.md`, `e2e/README.md`), **not** from our encoders, so that the
//! agreement test catches encoder bugs: Codex rejects a bare `allow` and unknown keys; Gemini
//! reads stderr when stdout is empty and blocks on any non-zero exit but 1 when there is text;
//! Copilot denies `preToolUse` on any hook error; OpenCode's shim throws only from its two gates; Kimi only gates `PreToolUse`,
//! `UserPromptSubmit` and `Stop`; Claude blocks on exit 2 with stderr as the reason; Cursor
//! treats empty stdout as a failure and blocks permission hooks on invalid JSON.
//!
//! ```
//! use agenthooks_testkit::fake::{self, Effect, HookOutput};
//! let codex = fake::agent("codex").unwrap();
//! let bare_allow = HookOutput::new(0, br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#, b"");
//! let v = codex.interpret("PreToolUse", b"{}", &bare_allow);
//! assert_eq!(v.effect, Effect::Proceed);
//! assert!(v.misbehaved(), "Codex marks a bare allow as a failed hook run");
//!
//! let claude = fake::agent("claude-code").unwrap();
//! let v = claude.interpret("PreToolUse", b"{}", &HookOutput::new(2, b"", b"no rm -rf"));
//! assert_eq!(v.effect, Effect::Denied { reason: "no rm -rf".into() });
//! ```

mod claude;
mod codex;
mod copilot;
mod cursor;
mod droid;
mod gemini;
mod kimi;
mod openclaw;
mod opencode;
mod qwen;
mod spawn;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use agenthooks_core::decision::{DecisionKind, Outcome};
use agenthooks_core::{Transport, WireResponse};
use serde_json::{Map, Value};

pub use claude::Claude;
pub use codex::Codex;
pub use copilot::Copilot;
pub use cursor::Cursor;
pub use droid::Droid;
pub use gemini::Gemini;
pub use kimi::Kimi;
pub use openclaw::OpenClaw;
pub use opencode::OpenCode;
pub use qwen::Qwen;
pub use spawn::{run, shell_join, HookCommand, Pipes, SpawnError, SpawnOptions, Spawned};

/// The fakes' unit tests: `agent`'s verdict on a hook of `native_event` that received
/// `payload` and exited `code` with `stdout` and `stderr`.
#[cfg(test)]
fn verdict_of(
    agent: &dyn FakeAgent,
    native_event: &str,
    payload: &[u8],
    (code, stdout, stderr): (i32, &str, &str),
) -> Verdict {
    agent.interpret(native_event, payload, &HookOutput::new(code, stdout, stderr))
}

/// What a hook process produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct HookOutput {
    /// The exit code (`None` when killed by a signal or the timeout).
    pub exit_code: Option<i32>,
    /// Everything written to stdout.
    pub stdout: Vec<u8>,
    /// Everything written to stderr.
    pub stderr: Vec<u8>,
    /// Whether the agent's timeout killed the hook.
    pub timed_out: bool,
}

impl HookOutput {
    /// An exited process.
    pub fn new(exit_code: i32, stdout: impl Into<Vec<u8>>, stderr: impl Into<Vec<u8>>) -> Self {
        Self {
            exit_code: Some(exit_code),
            stdout: stdout.into(),
            stderr: stderr.into(),
            timed_out: false,
        }
    }

    /// A process the agent killed at its timeout (with whatever it wrote until then).
    pub fn timed_out(stdout: impl Into<Vec<u8>>, stderr: impl Into<Vec<u8>>) -> Self {
        Self {
            exit_code: None,
            stdout: stdout.into(),
            stderr: stderr.into(),
            timed_out: true,
        }
    }

    /// stdout as text (lossy).
    pub fn stdout_str(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// stderr as text (lossy).
    pub fn stderr_str(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// stderr as text, trimmed: the reason most agents read from a blocking exit.
    pub fn stderr_reason(&self) -> String {
        self.stderr_str().trim().to_owned()
    }
}

impl From<&WireResponse> for HookOutput {
    fn from(r: &WireResponse) -> Self {
        Self::new(r.exit_code, r.stdout.clone(), r.stderr.clone())
    }
}

impl From<WireResponse> for HookOutput {
    fn from(r: WireResponse) -> Self {
        Self::from(&r)
    }
}

/// The main effect of a hook result on the agent.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub enum Effect {
    /// Nothing decided: the agent's own flow runs (also what an ignored result means).
    #[default]
    Proceed,
    /// The permission prompt is skipped (the action runs).
    Allowed,
    /// The action (tool call, prompt, …) is prevented; the reason the agent reads from the hook.
    Denied {
        /// The reason as the hook gave it.
        reason: String,
    },
    /// A confirmation prompt is forced.
    Asked {
        /// The reason shown in the prompt.
        reason: String,
    },
    /// The agent keeps going with the instruction as its next input.
    Continued {
        /// The instruction.
        instruction: String,
    },
    /// A note about the tool output is fed to the model.
    OutputFlagged {
        /// The note.
        reason: String,
    },
    /// The tool output the model sees is replaced.
    OutputReplaced {
        /// What the model sees instead.
        output: Value,
    },
}

impl Effect {
    /// A stable kebab-case name.
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Proceed => "proceed",
            Self::Allowed => "allowed",
            Self::Denied { .. } => "denied",
            Self::Asked { .. } => "asked",
            Self::Continued { .. } => "continued",
            Self::OutputFlagged { .. } => "output-flagged",
            Self::OutputReplaced { .. } => "output-replaced",
        }
    }

    /// The reason, instruction or replacement text, when there is one.
    pub fn text(&self) -> Option<String> {
        match self {
            Self::Proceed | Self::Allowed => None,
            Self::Denied { reason } | Self::Asked { reason } | Self::OutputFlagged { reason } => Some(reason.clone()),
            Self::Continued { instruction } => Some(instruction.clone()),
            Self::OutputReplaced { output } => Some(output.as_str().map_or_else(|| output.to_string(), str::to_owned)),
        }
    }
}

/// How an agent reads one hook result: its effect plus everything else it does with it.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Verdict {
    /// The main effect.
    pub effect: Effect,
    /// The tool input as the agent will run it, when the hook rewrote it.
    pub input_rewritten: Option<Map<String, Value>>,
    /// Context the model receives, in order.
    pub context: Vec<String>,
    /// A message shown to the user.
    pub system_message: Option<String>,
    /// The whole agent stops (with the reason, possibly empty).
    pub agent_stopped: Option<String>,
    /// Things in the result the agent ignores, with why.
    pub ignored: Vec<String>,
    /// Ways the hook misbehaved in the agent's eyes (invalid output, error exit, timeout).
    pub problems: Vec<String>,
}

/// The verdict a correct encoder produces for a sent (degraded) decision.
///
/// An ask on a `permission.request` whose capabilities include
/// [`Capability::PermissionDialog`](agenthooks_core::Capability::PermissionDialog) is sent as no decision (with its reason as the system
/// message where the event has one), so the agent's verdict is [`Effect::Proceed`]: its own
/// permission dialog asks the user. Where no dialog follows (no `permission-dialog`), the ask
/// fallback's deny is expected instead, as [`degrade`](agenthooks_core::degrade) decides.
pub fn expected_verdict(sent: &Outcome) -> Verdict {
    let text = || sent.reason().unwrap_or_default().to_owned();
    let effect = match sent.kind() {
        DecisionKind::Allow => Effect::Allowed,
        DecisionKind::Deny | DecisionKind::BlockPrompt => Effect::Denied { reason: text() },
        DecisionKind::Ask => Effect::Asked { reason: text() },
        DecisionKind::Continue => Effect::Continued {
            instruction: sent.instruction().map_or_else(text, str::to_owned),
        },
        DecisionKind::FlagOutput => Effect::OutputFlagged { reason: text() },
        DecisionKind::ReplaceOutput => Effect::OutputReplaced {
            output: sent.replaced_output().cloned().unwrap_or_default(),
        },
        _ => Effect::Proceed,
    };
    let mut v = Verdict::with_effect(effect);
    v.input_rewritten = sent.updated_input().cloned();
    // A blocked prompt never reaches the model, so context for it has nowhere to go.
    if !(matches!(sent, Outcome::Prompt(_)) && sent.blocks()) {
        v.context = sent.context().to_vec();
    }
    v.system_message = sent.system_message().map(str::to_owned);
    v.agent_stopped = sent.stop_reason().map(str::to_owned);
    v
}

impl Verdict {
    /// The agent's own flow runs; nothing else.
    pub fn proceed() -> Self {
        Self::default()
    }

    /// A verdict with an effect.
    pub fn with_effect(effect: Effect) -> Self {
        Self {
            effect,
            ..Self::default()
        }
    }

    /// Whether the agent considers the hook to have misbehaved.
    pub fn misbehaved(&self) -> bool {
        !self.problems.is_empty()
    }

    /// Whether the result has no effect at all (the agent proceeds as if no hook ran).
    pub fn is_no_op(&self) -> bool {
        self.effect == Effect::Proceed
            && self.input_rewritten.is_none()
            && self.context.is_empty()
            && self.system_message.is_none()
            && self.agent_stopped.is_none()
    }

    /// The verdict as JSON (stable field names: `effect`, `reason`/`instruction`/`output`,
    /// `input_rewritten`, `context`, `system_message`, `agent_stopped`, `ignored`, `problems`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("effect".into(), self.effect.name().into());
        match &self.effect {
            Effect::Denied { reason } | Effect::Asked { reason } | Effect::OutputFlagged { reason } => {
                m.insert("reason".into(), reason.clone().into());
            }
            Effect::Continued { instruction } => {
                m.insert("instruction".into(), instruction.clone().into());
            }
            Effect::OutputReplaced { output } => {
                m.insert("output".into(), output.clone());
            }
            Effect::Proceed | Effect::Allowed => {}
        }
        m.insert(
            "input_rewritten".into(),
            self.input_rewritten.clone().map_or(Value::Null, Value::Object),
        );
        m.insert("context".into(), self.context.clone().into());
        m.insert("system_message".into(), self.system_message.clone().into());
        m.insert("agent_stopped".into(), self.agent_stopped.clone().into());
        m.insert("ignored".into(), self.ignored.clone().into());
        m.insert("problems".into(), self.problems.clone().into());
        Value::Object(m)
    }

    pub(crate) fn ignore(&mut self, why: impl Into<String>) {
        self.ignored.push(why.into());
    }

    pub(crate) fn problem(&mut self, why: impl Into<String>) {
        self.problems.push(why.into());
    }

    pub(crate) fn add_context(&mut self, text: &str) {
        if !text.is_empty() {
            self.context.push(text.to_owned());
        }
    }

    /// `text` reaches the model where the event reads context (`read`); elsewhere it is
    /// ignored, for the reason `why` gives.
    pub(crate) fn context_where(&mut self, read: bool, text: &str, why: impl FnOnce() -> String) {
        if read {
            self.add_context(text);
        } else {
            self.ignore(why());
        }
    }

    /// The hook's `field` (`out`) replaces the tool's output where the tool is an MCP tool
    /// (`mcp`); elsewhere it is ignored.
    pub(crate) fn replace_mcp_output(&mut self, mcp: bool, field: &str, out: &Value) {
        if mcp {
            self.effect = Effect::OutputReplaced { output: out.clone() };
        } else {
            self.ignore(format!("`{field}` only applies to MCP tools"));
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        match &self.effect {
            Effect::Proceed => parts.push("no effect: the agent's own flow runs".to_owned()),
            Effect::Allowed => parts.push("allowed".to_owned()),
            Effect::Denied { reason } => parts.push(format!("denied: {reason:?}")),
            Effect::Asked { reason } => parts.push(format!("asked: {reason:?}")),
            Effect::Continued { instruction } => parts.push(format!("continued: {instruction:?}")),
            Effect::OutputFlagged { reason } => parts.push(format!("output flagged: {reason:?}")),
            Effect::OutputReplaced { output } => parts.push(format!("output replaced: {output}")),
        }
        if let Some(i) = &self.input_rewritten {
            parts.push(format!("input rewritten: {}", Value::Object(i.clone())));
        }
        for c in &self.context {
            parts.push(format!("context added: {c:?}"));
        }
        if let Some(s) = &self.system_message {
            parts.push(format!("system message: {s:?}"));
        }
        if let Some(s) = &self.agent_stopped {
            parts.push(format!("agent stopped: {s:?}"));
        }
        for i in &self.ignored {
            parts.push(format!("ignored: {i}"));
        }
        for p in &self.problems {
            parts.push(format!("hook misbehaved: {p}"));
        }
        f.write_str(&parts.join("; "))
    }
}

/// The unit an agent's config states hook timeouts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TimeoutUnit {
    /// Seconds (Claude, Codex, Copilot, Kimi, Cursor).
    Seconds,
    /// Milliseconds (Gemini, Qwen Code).
    Milliseconds,
}

impl TimeoutUnit {
    /// A config value in this unit as a duration.
    pub fn to_duration(self, value: u64) -> Duration {
        match self {
            Self::Seconds => Duration::from_secs(value),
            Self::Milliseconds => Duration::from_millis(value),
        }
    }
}

/// What an agent is called, what it fires and how it times and reports its hooks: the facts
/// every fake agent states, as data.
///
/// ```
/// use agenthooks_testkit::fake::{Profile, TimeoutUnit};
/// const P: Profile = Profile::new("my-agent", &["BeforeTool"], TimeoutUnit::Milliseconds, 5_000)
///     .failures("timed out: the action proceeds", "the action proceeds");
/// assert_eq!(P.provider, "my-agent");
/// assert_eq!(P.timeout_for(None).as_millis(), 5_000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Profile {
    /// The provider wire string.
    pub provider: &'static str,
    /// The native events this agent fires hooks for (documented names).
    pub events: &'static [&'static str],
    /// The unit of the config's `timeout` field.
    pub timeout_unit: TimeoutUnit,
    /// The timeout (in [`Self::timeout_unit`]) when the config states none.
    pub default_timeout: u64,
    /// The range the agent clamps a configured timeout into (in [`Self::timeout_unit`]).
    pub timeout_range: (u64, u64),
    /// The problem the agent records when it kills a hook at its timeout.
    pub timed_out: &'static str,
    /// What an error exit (not 0, not a blocking exit) means, after `exit <code>: `.
    pub on_error: &'static str,
}

impl Profile {
    /// A profile: who the agent is, and the unit and default of its config's `timeout` field
    /// (no clamp, generic failure texts).
    pub const fn new(
        provider: &'static str,
        events: &'static [&'static str],
        timeout_unit: TimeoutUnit,
        default_timeout: u64,
    ) -> Self {
        Self {
            provider,
            events,
            timeout_unit,
            default_timeout,
            timeout_range: (0, u64::MAX),
            timed_out: "timed out",
            on_error: "the hook failed",
        }
    }

    /// What failures mean: the problem recorded for a hook killed at its timeout, and what an
    /// error exit means (the problem reads `exit <code>: <on_error>`).
    #[must_use]
    pub const fn failures(mut self, timed_out: &'static str, on_error: &'static str) -> Self {
        self.timed_out = timed_out;
        self.on_error = on_error;
        self
    }

    /// The timeout for a configured value (`None`: the default), clamped.
    pub fn timeout_for(&self, configured: Option<u64>) -> Duration {
        let (min, max) = self.timeout_range;
        self.timeout_unit
            .to_duration(configured.unwrap_or(self.default_timeout).clamp(min, max))
    }

    /// The range a configured timeout is clamped into.
    #[must_use]
    pub const fn clamp(mut self, min: u64, max: u64) -> Self {
        self.timeout_range = (min, max);
        self
    }
}

/// One agent's rules: how it reads a hook result and how it runs a hook process.
///
/// An agent states its facts in [`FakeAgent::profile`]; reading a result follows the protocol
/// most agents share (a timeout, exit 0, exit 2, any other exit), each step a method with a
/// default to override: [`FakeAgent::timed_out`], [`FakeAgent::exit_0`], [`FakeAgent::exit_2`],
/// [`FakeAgent::exit_error`]. An agent that reads results another way overrides
/// [`FakeAgent::exited`] (or [`FakeAgent::interpret`]).
pub trait FakeAgent: Send + Sync + 'static {
    /// The agent's facts: provider, events, timeouts, what failures mean.
    fn profile(&self) -> &'static Profile;

    /// The provider wire string.
    fn provider(&self) -> &'static str {
        self.profile().provider
    }

    /// The native events this agent fires hooks for (documented names).
    fn events(&self) -> &'static [&'static str] {
        self.profile().events
    }

    /// Interprets a hook result for a native event. `payload` is what the hook received (some
    /// rules depend on it, e.g. MCP-only output replacement, Cursor `subagentStop` status).
    /// Default: [`FakeAgent::timed_out`] for a killed hook, else [`FakeAgent::exited`].
    fn interpret(&self, native_event: &str, payload: &[u8], out: &HookOutput) -> Verdict {
        let mut v = Verdict::proceed();
        if out.timed_out {
            self.timed_out(&mut v, native_event, out);
        } else {
            self.exited(&mut v, native_event, payload, out);
        }
        v
    }

    /// A hook killed at the timeout. Default: the profile's `timed_out` problem, no effect.
    fn timed_out(&self, v: &mut Verdict, native_event: &str, out: &HookOutput) {
        let _ = (native_event, out);
        v.problem(self.profile().timed_out);
    }

    /// A hook that exited. Default: exit 0 → [`FakeAgent::exit_0`], exit 2 →
    /// [`FakeAgent::exit_2`], any other → [`FakeAgent::exit_error`].
    fn exited(&self, v: &mut Verdict, native_event: &str, payload: &[u8], out: &HookOutput) {
        by_exit_code(self, v, native_event, payload, out);
    }

    /// Exit 0: what the agent reads from the output. Default: nothing.
    fn exit_0(&self, v: &mut Verdict, native_event: &str, payload: &[u8], out: &HookOutput) {
        let _ = (v, native_event, payload, out);
    }

    /// Exit 2 (the blocking exit of most agents). Default: like any other error exit.
    fn exit_2(&self, v: &mut Verdict, native_event: &str, out: &HookOutput) {
        self.exit_error(v, native_event, out.exit_code);
    }

    /// Any other exit (`None`: killed by a signal). Default: the problem
    /// `exit <code>: <profile.on_error>`, no effect.
    fn exit_error(&self, v: &mut Verdict, native_event: &str, code: Option<i32>) {
        let _ = native_event;
        v.problem(format!("exit {code:?}: {}", self.profile().on_error));
    }

    /// The unit of the config's `timeout` field.
    fn timeout_unit(&self) -> TimeoutUnit {
        self.profile().timeout_unit
    }

    /// The timeout when the config states none (and clamps, e.g. Codex `SessionEnd`).
    /// Default: [`Profile::timeout_for`].
    fn timeout(&self, native_event: &str, configured: Option<u64>) -> Duration {
        let _ = native_event;
        self.profile().timeout_for(configured)
    }

    /// Env vars the agent exports to the hook on top of its own environment. Default: none.
    fn hook_env(&self, native_event: &str, payload: &Value, cwd: &Path) -> Vec<(String, String)> {
        let _ = (native_event, payload, cwd);
        Vec::new()
    }

    /// How the payload reaches the hook for an event.
    fn transport(&self, native_event: &str) -> Transport {
        let _ = native_event;
        Transport::Stdin
    }

    /// The working directory the agent gives the hook (from the payload), when it has one.
    fn cwd(&self, payload: &Value) -> Option<PathBuf> {
        payload.get("cwd").and_then(Value::as_str).map(PathBuf::from)
    }

    /// The shell the agent runs a configured command string with.
    fn shell(&self) -> &'static [&'static str] {
        &["sh", "-c"]
    }
}

/// The exit-code protocol most agents share: exit 0 → [`FakeAgent::exit_0`], exit 2 →
/// [`FakeAgent::exit_2`], any other → [`FakeAgent::exit_error`] (what [`FakeAgent::exited`]
/// does unless overridden; for an override that handles a few events first).
pub fn by_exit_code<A: FakeAgent + ?Sized>(
    agent: &A,
    v: &mut Verdict,
    native_event: &str,
    payload: &[u8],
    out: &HookOutput,
) {
    match out.exit_code {
        Some(0) => agent.exit_0(v, native_event, payload, out),
        Some(2) => agent.exit_2(v, native_event, out),
        code => agent.exit_error(v, native_event, code),
    }
}

impl fmt::Debug for dyn FakeAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FakeAgent({})", self.provider())
    }
}

static CLAUDE: Claude = Claude;
static CODEX: Codex = Codex;
static GEMINI: Gemini = Gemini;
static COPILOT: Copilot = Copilot;
static KIMI: Kimi = Kimi;
static CURSOR: Cursor = Cursor::new();
static OPENCODE: OpenCode = OpenCode;
static OPENCLAW: OpenClaw = OpenClaw;
static QWEN: Qwen = Qwen;
static DROID: Droid = Droid;

/// Every fake agent: claude-code, codex, gemini, copilot, kimi, cursor, opencode (the shim and
/// OpenCode together), openclaw (the plugin and OpenClaw together), qwen-code, droid. One per provider of the
/// facade's registry (`agenthooks::PROVIDERS`; the testkit links no codec, so it cannot read it:
/// the facade's surface test checks the two lists agree).
pub fn agents() -> [&'static dyn FakeAgent; 10] {
    [
        &CLAUDE, &CODEX, &GEMINI, &COPILOT, &KIMI, &CURSOR, &OPENCODE, &OPENCLAW, &QWEN, &DROID,
    ]
}

/// The fake agent of a provider.
pub fn agent(provider: &str) -> Option<&'static dyn FakeAgent> {
    agents().into_iter().find(|a| a.provider() == provider)
}

/// Interprets a hook result with the fake agent of `provider` (`None`: no fake agent).
pub fn interpret(provider: &str, native_event: &str, payload: &[u8], out: &HookOutput) -> Option<Verdict> {
    agent(provider).map(|a| a.interpret(native_event, payload, out))
}

// ---- helpers shared by the agents ----

/// How stdout parsed.
pub(crate) enum Parsed {
    /// Nothing (only whitespace).
    Empty,
    /// A JSON object.
    Object(Map<String, Value>),
    /// JSON, but not an object.
    OtherJson(Value),
    /// Starts like JSON (`{` or `[`) but does not parse.
    BrokenJson(String),
    /// Plain text.
    Text(String),
}

pub(crate) fn parse_stdout(bytes: &[u8]) -> Parsed {
    let text = String::from_utf8_lossy(bytes);
    let t = text.trim();
    if t.is_empty() {
        return Parsed::Empty;
    }
    match serde_json::from_str::<Value>(t) {
        Ok(Value::Object(m)) => Parsed::Object(m),
        Ok(v) => Parsed::OtherJson(v),
        Err(e) if t.starts_with('{') || t.starts_with('[') => Parsed::BrokenJson(e.to_string()),
        Err(_) => Parsed::Text(t.to_owned()),
    }
}

pub(crate) fn payload_value(payload: &[u8]) -> Value {
    let b = payload.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(payload);
    serde_json::from_slice(b).unwrap_or(Value::Null)
}

pub(crate) fn str_field<'a>(m: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    m.get(k).and_then(Value::as_str)
}

/// Whether the payload's `tool_name` starts with `prefix` (how an agent names its MCP tools).
pub(crate) fn tool_name_starts_with(payload: &Value, prefix: &str) -> bool {
    payload
        .get("tool_name")
        .and_then(Value::as_str)
        .is_some_and(|n| n.starts_with(prefix))
}

/// How an agent of the Claude family reads `hookSpecificOutput.decision` of `PermissionRequest`
/// (Claude Code's and Qwen Code's shared reading): `allow` (with `updatedInput` a rewrite), or
/// `deny` with `message` as the reason and `interrupt: true` stopping the agent. Any other
/// `behavior` is returned for the agent to judge (Claude: a problem; Qwen: no decision).
pub(crate) fn read_permission_request_decision<'a>(
    v: &mut Verdict,
    d: &'a Map<String, Value>,
) -> Result<(), Option<&'a str>> {
    match str_field(d, "behavior") {
        Some("allow") => {
            v.effect = Effect::Allowed;
            if let Some(m) = d.get("updatedInput").and_then(Value::as_object) {
                v.input_rewritten = Some(m.clone());
            }
        }
        Some("deny") => {
            v.effect = Effect::Denied {
                reason: str_field(d, "message").unwrap_or_default().to_owned(),
            };
            if d.get("interrupt") == Some(&Value::Bool(true)) {
                v.agent_stopped = Some(String::new());
            }
        }
        other => return Err(other),
    }
    Ok(())
}

pub(crate) fn path_str(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_renders() {
        let mut v = Verdict::with_effect(Effect::Denied { reason: "no".into() });
        v.add_context("c");
        v.ignore("x");
        assert_eq!(v.to_string(), "denied: \"no\"; context added: \"c\"; ignored: x");
        let j = v.to_json();
        assert_eq!(j["effect"], "denied");
        assert_eq!(j["reason"], "no");
        assert_eq!(j["context"][0], "c");
        assert!(!v.misbehaved() && !v.is_no_op());
        assert!(Verdict::proceed().is_no_op());
    }

    #[test]
    fn agents_are_registered() {
        let names: Vec<&str> = agents().iter().map(|a| a.provider()).collect();
        assert_eq!(
            names,
            [
                "claude-code",
                "codex",
                "gemini",
                "copilot",
                "kimi",
                "cursor",
                "opencode",
                "openclaw",
                "qwen-code",
                "droid"
            ]
        );
        assert!(agent("windsurf").is_none());
        assert!(agents().iter().all(|a| !a.events().is_empty()));
    }

    /// The effect each agent makes of a hook's exit code, stdout and stderr: one row a case (the
    /// agent, its native event, the exit code, stdout, stderr, the effect), one payload for all.
    #[test]
    fn effects() {
        use Effect::{Asked, Continued, Denied, OutputFlagged, OutputReplaced, Proceed};
        let hso_deny = r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}"#;
        let codex_deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}"#;
        let mcp_output = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":"x"}}"#;
        let top_deny = r#"{"permissionDecision":"deny","permissionDecisionReason":"r"}"#;
        let block_more = r#"{"decision":"block","reason":"more"}"#;
        let (deny_r, deny_again) = (
            r#"{"decision":"deny","reason":"r"}"#,
            r#"{"decision":"deny","reason":"again"}"#,
        );
        // a JSON string of JSON
        let deny_quoted = r#""{\"decision\":\"deny\",\"reason\":\"r\"}""#;
        let s = |t: &str| t.to_owned();
        let cases: Vec<(&dyn FakeAgent, &str, i32, &str, &str, Effect)> = vec![
            (&Claude, "PreToolUse", 2, "{}", "nope", Denied { reason: s("nope") }),
            (
                &Claude,
                "Stop",
                2,
                "",
                "go on",
                Continued {
                    instruction: s("go on"),
                },
            ),
            (&Claude, "PostToolUse", 2, "", "bad", OutputFlagged { reason: s("bad") }),
            // updatedMCPToolOutput on a tool that is not an MCP tool
            (&Claude, "PostToolUse", 0, mcp_output, "", Proceed),
            (&Codex, "PreToolUse", 0, codex_deny, "", Denied { reason: s("r") }),
            (&Codex, "Stop", 0, block_more, "", Continued { instruction: s("more") }),
            (&Codex, "PreToolUse", 2, "", "no", Denied { reason: s("no") }),
            (&Copilot, "preToolUse", 2, "", "no", Denied { reason: s("no") }),
            (&Copilot, "preToolUse", 0, top_deny, "", Denied { reason: s("r") }),
            (
                &Copilot,
                "agentStop",
                0,
                block_more,
                "",
                Continued { instruction: s("more") },
            ),
            (
                &Copilot,
                "permissionRequest",
                2,
                r#"{"message":"m"}"#,
                "ignored",
                Denied { reason: s("m") },
            ),
            (&Gemini, "BeforeTool", 2, "", "nope", Denied { reason: s("nope") }),
            // JSON wins over the exit code, also from stderr
            (&Gemini, "BeforeTool", 2, "", r#"{"decision":"allow"}"#, Proceed),
            (&Gemini, "BeforeTool", 0, deny_quoted, "", Denied { reason: s("r") }),
            (
                &Gemini,
                "BeforeTool",
                0,
                r#"{"decision":"ask","reason":"q"}"#,
                "",
                Asked { reason: s("q") },
            ),
            (
                &Gemini,
                "AfterAgent",
                0,
                deny_again,
                "",
                Continued {
                    instruction: s("again"),
                },
            ),
            (
                &Gemini,
                "AfterTool",
                0,
                deny_r,
                "",
                OutputReplaced {
                    output: "Tool result blocked: r".into(),
                },
            ),
            (
                &Kimi,
                "PreToolUse",
                2,
                "",
                "",
                Denied {
                    reason: s("Blocked by PreToolUse hook"),
                },
            ),
            (
                &Kimi,
                "Stop",
                2,
                "",
                "again",
                Continued {
                    instruction: s("again"),
                },
            ),
            (&Kimi, "PreToolUse", 0, hso_deny, "", Denied { reason: s("r") }),
        ];
        let payload = br#"{"tool_name":"Bash","tool_input":{"command":"ls","dir":"."}}"#;
        for (agent, event, code, stdout, stderr, want) in cases {
            let v = verdict_of(agent, event, payload, (code, stdout, stderr));
            let case = format!(
                "{} {event} exit {code} stdout {stdout:?} stderr {stderr:?}",
                agent.provider()
            );
            assert_eq!(v.effect, want, "{case}");
        }
    }

    #[test]
    fn stdout_parsing() {
        assert!(matches!(parse_stdout(b"  \n"), Parsed::Empty));
        assert!(matches!(parse_stdout(b"{}\n"), Parsed::Object(_)));
        assert!(matches!(parse_stdout(b"[1]"), Parsed::OtherJson(_)));
        assert!(matches!(parse_stdout(b"{oops"), Parsed::BrokenJson(_)));
        assert!(matches!(parse_stdout(b"hello"), Parsed::Text(_)));
    }
}
