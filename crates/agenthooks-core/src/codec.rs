//! The [`Codec`] trait: one implementation per agent dialect.
//!
//! A codec turns an [`Invocation`] (bytes, env, hints) into a typed [`Event`], and an
//! [`Outcome`] into a [`WireResponse`] (stdout bytes, stderr bytes, exit code). It also states
//! what the agent honours ([`Codec::capabilities`]), its no-op and failure responses, its default
//! timeout and its quirks. The trait is object-safe and unsealed: new agents can be added outside
//! this repository, and the runner holds codecs as `&'static dyn Codec`.
//!
//! It is designed against the hard cases of all eight dialects:
//! - payloads without their own event name (Copilot): the native event comes from
//!   [`Invocation::native_event`] (baked into the generated config's argv);
//! - payloads in argv (legacy Cursor CLI, Codex `notify`): [`Transport::Argv`];
//! - cross-process state (Cursor dedup): [`Invocation::state_dir`];
//! - long-lived NDJSON frames with per-connection state (OpenCode, OpenClaw):
//!   [`Transport::Frame`] and [`Invocation::conn`].

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;

use crate::capability::{CapSet, FailMode};
use crate::decision::Outcome;
use crate::error::{DecodeError, EncodeError};
use crate::event::{Envelope, Event, RawPayload};
use crate::kind::EventKind;
use crate::kit::{EventRow, Extra, FailShape, ToolTable};
use crate::provider::{Confidence, NativeName, Provider, Variant};
use crate::quirks::{Quirk, QuirkSource};

/// How the payload arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Transport {
    /// On standard input (one process per event).
    #[default]
    Stdin,
    /// As a command-line argument.
    Argv,
    /// As one NDJSON frame of `serve` mode.
    Frame,
}

pub use crate::env::{Env, ProcessEnv};

/// Per-connection state for `serve` mode (a small JSON key-value store with interior
/// mutability). Codecs use it to backfill fields that only some frames carry.
#[derive(Debug, Default)]
pub struct ConnState(Mutex<serde_json::Map<String, Value>>);

impl ConnState {
    /// A value.
    pub fn get(&self, key: &str) -> Option<Value> {
        self.0.lock().ok()?.get(key).cloned()
    }

    /// Sets a value.
    pub fn set(&self, key: impl Into<String>, v: Value) {
        if let Ok(mut m) = self.0.lock() {
            m.insert(key.into(), v);
        }
    }

    /// Removes a value, returning it.
    pub fn take(&self, key: &str) -> Option<Value> {
        self.0.lock().ok()?.remove(key)
    }

    /// A copy of every value (what a connection's frames left, e.g. to preset a test's state).
    ///
    /// ```
    /// use agenthooks_core::ConnState;
    /// let c = ConnState::default();
    /// c.set("k", serde_json::json!(["a"]));
    /// assert_eq!(c.snapshot().get("k"), Some(&serde_json::json!(["a"])));
    /// ```
    pub fn snapshot(&self) -> serde_json::Map<String, Value> {
        self.0.lock().map(|m| m.clone()).unwrap_or_default()
    }
}

/// One hook invocation as the runner received it.
#[non_exhaustive]
pub struct Invocation<'a> {
    /// The payload bytes exactly as received.
    pub payload: RawPayload,
    /// Environment lookup.
    pub env: &'a dyn Env,
    /// The native event named by the generated config (`--event=…`), if any.
    pub native_event: Option<&'a str>,
    /// The variant named by the generated config, if any.
    pub variant: Option<&'a Variant>,
    /// How the payload arrived.
    pub transport: Transport,
    /// A directory for cross-process state (dedup windows), when the runner has one.
    pub state_dir: Option<&'a Path>,
    /// Per-connection state in `serve` mode.
    pub conn: Option<&'a ConnState>,
}

impl<'a> Invocation<'a> {
    /// A stdin invocation with no hints (tests, tools).
    pub fn new(payload: impl Into<RawPayload>, env: &'a dyn Env) -> Self {
        Self {
            payload: payload.into(),
            env,
            native_event: None,
            variant: None,
            transport: Transport::Stdin,
            state_dir: None,
            conn: None,
        }
    }
}

crate::setters! {
    impl<'a> Invocation<'a> {
        /// Sets the native event hint.
        with_native_event(native_event: Option<&'a str>);
        /// Sets the transport.
        with_transport(transport: Transport);
        /// Sets the variant hint.
        with_variant(variant: Option<&'a Variant>);
        /// Sets the state directory.
        with_state_dir(state_dir: Option<&'a Path>);
        /// Sets the per-connection state.
        with_conn(conn: Option<&'a ConnState>);
    }
}

/// What the hook process answers: exactly these bytes and this exit code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct WireResponse {
    /// Bytes for stdout.
    pub stdout: Vec<u8>,
    /// Bytes for stderr.
    pub stderr: Vec<u8>,
    /// Exit code.
    pub exit_code: i32,
}

impl WireResponse {
    /// Exit 0 with these stdout bytes.
    pub fn stdout(bytes: impl Into<Vec<u8>>) -> Self {
        Self {
            stdout: bytes.into(),
            stderr: Vec::new(),
            exit_code: 0,
        }
    }

    /// Exit 0 with a JSON value on stdout (compact).
    pub fn json(v: &Value) -> Self {
        Self::stdout(serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec()))
    }

    /// Exit 0, nothing written.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Exit 0 with `{}` on stdout: the explicit "no opinion" of the JSON dialects.
    ///
    /// ```
    /// use agenthooks_core::WireResponse;
    /// assert_eq!(WireResponse::empty_object().stdout, b"{}");
    /// ```
    pub fn empty_object() -> Self {
        Self::stdout(b"{}".to_vec())
    }

    /// Exit `code` with `stderr` text.
    pub fn exit(code: i32, stderr: impl Into<Vec<u8>>) -> Self {
        Self {
            stdout: Vec::new(),
            stderr: stderr.into(),
            exit_code: code,
        }
    }

    /// stdout as UTF-8 (lossy), for tests and logs.
    pub fn stdout_str(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.stdout)
    }

    /// stderr as UTF-8 (lossy).
    pub fn stderr_str(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.stderr)
    }
}

/// What the runner knows about the event when it must answer without a decoded event
/// (decode failed, the deadline passed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct EventTarget {
    /// The native event, when known (from the payload or `--event`).
    pub native: Option<NativeName>,
    /// The unified kind, when known.
    pub kind: Option<EventKind>,
    /// The variant.
    pub variant: Variant,
    /// The payload as received, when the runner has it: a codec may need an id from it to spell
    /// its failure answer (OpenCode rejects a permission ask by its request id).
    pub payload: Option<RawPayload>,
}

impl EventTarget {
    /// A target from its parts.
    pub fn new(native: Option<NativeName>, kind: Option<EventKind>) -> Self {
        Self {
            native,
            kind,
            variant: Variant::DEFAULT,
            payload: None,
        }
    }

    /// The target of a decoded event.
    pub fn of(event: &Event) -> Self {
        let env = event.envelope();
        Self {
            native: Some(env.native.clone()),
            kind: Some(event.kind()),
            variant: env.variant.clone(),
            payload: Some(env.raw().clone()),
        }
    }
}

crate::setters! {
    impl EventTarget {
        /// Sets the payload.
        with_payload(payload: Option<RawPayload>);
    }
}

/// Where diagnostics may go for this agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StderrUse {
    /// The agent shows or logs stderr harmlessly: logs may go there.
    Logs,
    /// The agent parses or surfaces stderr as a decision/message: logs go to a file.
    Reserved,
}

/// One agent dialect. Object-safe; new methods get defaults.
pub trait Codec: Send + Sync + 'static {
    /// The provider this codec serves.
    fn provider(&self) -> Provider;

    /// The native events this codec knows, one [`EventRow`] each: the single source of their
    /// facts (unknown events still decode as `other`).
    fn native_events(&self) -> &'static [EventRow];

    /// The payload key that carries the event name, when the dialect has one
    /// (`hook_event_name`).
    fn name_key(&self) -> Option<&'static str> {
        None
    }

    /// The row of a native event.
    fn row(&self, native: &str) -> Option<&'static EventRow> {
        crate::kit::row(self.native_events(), native)
    }

    /// The row a target names: the row of its native event ([`Codec::row`]), or, for a target
    /// that names no event, the first primary row serving its kind (the event install wires
    /// for it). `None` for an event the codec has no row for. The one row lookup of encoders
    /// and failure answers.
    ///
    /// ```
    /// use agenthooks_core::kit::EventRow;
    /// use agenthooks_core::{Codec, EventKind, EventTarget, NativeName};
    /// # struct Toy;
    /// # impl Codec for Toy {
    /// #     fn provider(&self) -> agenthooks_core::Provider { agenthooks_core::Provider::from_static("toy") }
    /// #     fn native_events(&self) -> &'static [EventRow] { ROWS }
    /// #     fn decode(&self, _: &agenthooks_core::Invocation<'_>) -> Result<agenthooks_core::Event, agenthooks_core::DecodeError> {
    /// #         Err(agenthooks_core::DecodeError::new(self.provider(), agenthooks_core::DecodeCategory::Empty, "a row-lookup example decodes nothing"))
    /// #     }
    /// #     fn encode(&self, e: &agenthooks_core::Event, _: &agenthooks_core::Outcome) -> Result<agenthooks_core::WireResponse, agenthooks_core::EncodeError> { Ok(self.no_op(&EventTarget::of(e))) }
    /// #     fn no_op(&self, _: &EventTarget) -> agenthooks_core::WireResponse { agenthooks_core::WireResponse::empty() }
    /// #     fn default_timeout(&self) -> std::time::Duration { std::time::Duration::from_secs(1) }
    /// # }
    /// const ROWS: &[EventRow] = &[EventRow::new("BeforeTool", EventKind::ToolPre, true, true)];
    /// let named = EventTarget::new(Some(NativeName::from("BeforeTool")), None);
    /// assert_eq!(Toy.row_for(&named).map(|r| r.name), Some("BeforeTool"));
    /// let by_kind = EventTarget::new(None, Some(EventKind::ToolPre));
    /// assert_eq!(Toy.row_for(&by_kind).map(|r| r.name), Some("BeforeTool"));
    /// assert!(Toy.row_for(&EventTarget::new(Some(NativeName::from("Future")), Some(EventKind::ToolPre))).is_none());
    /// ```
    fn row_for(&self, target: &EventTarget) -> Option<&'static EventRow> {
        match &target.native {
            Some(native) => self.row(native.as_str()),
            None => target
                .kind
                .and_then(|k| crate::kit::primary_row(self.native_events(), k)),
        }
    }

    /// The provider's tool classification and MCP naming, when it has tools.
    fn tools(&self) -> Option<&'static ToolTable> {
        None
    }

    /// The provider's MCP config reader (`agenthooks mcp`, [`McpCall::resolve`](crate::McpCall::resolve)),
    /// when the agent has MCP servers.
    fn mcp_loader(&self) -> Option<crate::mcp::McpLoader> {
        None
    }

    /// The native view's `extra` map (keys the provider crate does not know) of an event this
    /// codec decoded.
    fn native_extra<'a>(&self, envelope: &'a Envelope) -> Option<&'a Extra> {
        let _ = envelope;
        None
    }

    /// Decodes an invocation. Must never panic on any input.
    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError>;

    /// Encodes a (degraded) outcome for a decoded event.
    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError>;

    /// The agent's "no opinion" answer for a target.
    fn no_op(&self, target: &EventTarget) -> WireResponse;

    /// The answer when the hook failed (handler error, panic, timeout, undecodable payload),
    /// under the failure mode, using the agent's real blocking mechanism where the event can
    /// block. `reason` is a short human text.
    ///
    /// Provided: [`kit::failure_response`](crate::kit::failure_response), the encoding of a
    /// deny or a blocked prompt. Fail-open is the [`no_op`](Codec::no_op); fail-closed follows
    /// the [row](Codec::row_for)'s [`FailShape`]: `Block` is
    /// [`encode`](Codec::encode) of the target's bare event with `deny(reason)` (tool gates,
    /// permission requests) or `block_prompt(reason)` (prompts), `Exit(code)` exits with the
    /// reason on stderr, and `NoOp` (or no row) is the no-op. Override only where the wire
    /// cannot carry that answer (an event the codec cannot name, a block the unified outcomes
    /// cannot state), and call [`kit::failure_response`](crate::kit::failure_response) for the
    /// rest.
    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        failure_response(self, target, mode, reason)
    }

    /// What the agent honours for a native event in a variant. Defaults to the event row's
    /// [`EventRow::caps`] (and nothing for events without a row).
    fn capabilities(&self, variant: &Variant, native: &str) -> CapSet {
        let _ = variant;
        self.row(native).map_or(CapSet::EMPTY, |r| r.caps)
    }

    /// What the agent honours for a decoded event. Defaults to
    /// [`Codec::capabilities`] of its variant and native name; override to gate on what only the
    /// event carries (e.g. the agent version in [`Envelope::agent_version`](crate::Envelope)).
    fn event_capabilities(&self, event: &Event) -> CapSet {
        let env = event.envelope();
        self.capabilities(&env.variant, env.native.as_str())
    }

    /// The agent's default hook timeout when the config states none.
    fn default_timeout(&self) -> Duration;

    /// The quirks this codec encodes.
    fn quirks(&self) -> &'static [Quirk] {
        &[]
    }

    /// How this agent writes its session transcripts ([`kit::transcript`](crate::kit::transcript)); `None` (the
    /// default) for an agent that names none, whose records the readers keep untyped.
    fn transcript(&self) -> Option<&'static dyn crate::kit::transcript::TranscriptFormat> {
        None
    }

    /// Whether this agent's hook env plainly identifies it (used when `--provider` is absent).
    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        let _ = env;
        None
    }

    /// Whether this payload plainly comes from this agent (used when `--provider` is absent,
    /// and to detect a payload from another agent under a flag, e.g. Cursor running hooks from
    /// `.claude/settings.json`). Return [`Confidence::Certain`] only for shapes no other agent
    /// produces.
    fn sniff_payload(&self, payload: &[u8], env: &dyn Env) -> Option<Confidence> {
        let _ = (payload, env);
        None
    }

    /// Where logs may go.
    fn stderr_use(&self) -> StderrUse {
        StderrUse::Reserved
    }

    /// The answer for this agent's `http` hooks (warm mode), from the answer a command hook
    /// would print for `native`. An agent whose http path reads only a JSON body has no exit
    /// code to read: its codec turns an exit-code answer into the JSON that means the same.
    /// The default keeps the command answer: the warm server sends exit 0 as `200` with stdout
    /// as the body, and any other exit code as a non-2xx status with stderr.
    fn http_response(&self, native: Option<&str>, response: WireResponse) -> WireResponse {
        let _ = native;
        response
    }

    /// The unified kind of a native event name, from [`Codec::native_events`].
    fn kind_of(&self, native: &str) -> EventKind {
        self.row(native).map_or(EventKind::Other, |r| r.kind)
    }
}

impl std::fmt::Debug for dyn Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Codec({})", self.provider())
    }
}
/// Every codec is a source of quirks for [`registry`](crate::quirks::registry).
impl<C: Codec + ?Sized> QuirkSource for &C {
    fn quirk_table(&self) -> &'static [Quirk] {
        (**self).quirks()
    }
}

// ---------------------------------------------------------------------------------------------
// The provided failure answer (re-exported by the kit, where codec authors find it)
// ---------------------------------------------------------------------------------------------

/// The outcome that blocks an event of `kind` with `reason`: [`deny`](crate::decision::deny) on
/// tool gates and permission requests, [`block_prompt`](crate::decision::block_prompt) on a
/// submitted prompt, `None` for kinds whose outcomes cannot block.
///
/// ```
/// use agenthooks_core::kit::blocking_outcome;
/// use agenthooks_core::{DecisionKind, EventKind};
/// assert_eq!(blocking_outcome(EventKind::Permission, "no").map(|o| o.kind()), Some(DecisionKind::Deny));
/// assert_eq!(blocking_outcome(EventKind::PromptSubmitted, "").map(|o| o.kind()), Some(DecisionKind::BlockPrompt));
/// assert!(blocking_outcome(EventKind::SessionStart, "no").is_none());
/// ```
pub fn blocking_outcome(kind: EventKind, reason: &str) -> Option<Outcome> {
    let reason = crate::decision::reason_or_default(reason);
    match kind {
        EventKind::ToolPre | EventKind::Permission => Some(crate::decision::deny(reason).into()),
        EventKind::PromptSubmitted => Some(crate::decision::block_prompt(reason).into()),
        _ => None,
    }
}

/// The encoding of a block on `row`'s event for a failure target: the codec's own
/// [`encode`](crate::Codec::encode) of the target's bare event (its native name, else the row's;
/// its variant and payload) with the [`blocking_outcome`] of the row's kind. `None` when the
/// kind has no blocking outcome, or the codec refuses it (logged: the answer is then the no-op).
pub fn encode_block<C: Codec + ?Sized>(
    codec: &C,
    row: &EventRow,
    target: &EventTarget,
    reason: &str,
) -> Option<WireResponse> {
    let outcome = blocking_outcome(row.kind, reason)?;
    let native = target
        .native
        .clone()
        .unwrap_or_else(|| NativeName::from_static(row.name));
    let mut env = Envelope::new(
        codec.provider(),
        native,
        row.kind,
        target.payload.clone().unwrap_or_default(),
    );
    env.variant = target.variant.clone();
    codec
        .encode(&Event::bare(env), &outcome)
        .map_err(|e| {
            tracing::warn!(
                event = row.name,
                "fail-closed, but the codec cannot encode the block: {e}"
            );
        })
        .ok()
}

/// The provided [`Codec::failure_response`], callable from an
/// override for the targets it does not handle itself.
///
/// - fail-open, or a target without a row: the codec's [`no_op`](crate::Codec::no_op);
/// - [`FailShape::Block`]: [`encode_block`] (the codec's deny or blocked prompt), else the no-op;
/// - [`FailShape::Exit`]: that exit code with the reason ([`reason_or_default`]) on stderr;
/// - [`FailShape::NoOp`]: the no-op.
///
/// [`reason_or_default`]: crate::decision::reason_or_default
pub fn failure_response<C: Codec + ?Sized>(
    codec: &C,
    target: &EventTarget,
    mode: FailMode,
    reason: &str,
) -> WireResponse {
    if mode != FailMode::Closed {
        return codec.no_op(target);
    }
    match codec.row_for(target) {
        Some(row) if row.failure == FailShape::Block => {
            encode_block(codec, row, target, reason).unwrap_or_else(|| codec.no_op(target))
        }
        Some(EventRow {
            failure: FailShape::Exit(code),
            ..
        }) => WireResponse::exit(*code, crate::decision::reason_or_default(reason)),
        _ => codec.no_op(target),
    }
}
