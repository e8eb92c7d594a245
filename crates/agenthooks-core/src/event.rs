//! The envelope every event carries, the tool-call projection, and the typed events.
//!
//! Fidelity (design §5): [`Envelope::raw`] holds the payload *exactly* as received — the
//! original buffer, not a re-serialization and not trimmed. Everything else on an event is a
//! projection over it. Provider crates attach their complete native typed struct to the envelope
//! ([`Envelope::native_view`]) so nothing the agent sent is ever out of reach.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::SystemTime;

use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::kind::EventKind;
pub use crate::mcp::McpCall;
use crate::provider::{Confidence, NativeName, Provider, Variant};
pub use crate::raw_json::{normalize_input, RawJson};

/// The payload exactly as the agent sent it (after transport framing only: argv decoding for
/// argv transports, frame extraction for `serve` mode).
///
/// Cloning is cheap (reference counted).
///
/// ```
/// use agenthooks_core::RawPayload;
/// let raw = RawPayload::from(b" {\"a\":1}\n".to_vec());
/// assert_eq!(raw.as_bytes(), b" {\"a\":1}\n"); // surrounding whitespace kept
/// assert_eq!(raw.as_str(), Some(" {\"a\":1}\n"));
/// ```
#[derive(Clone, PartialEq, Eq, Default)]
// An `Arc<Vec<u8>>`, not an `Arc<[u8]>`: the stdin buffer moves in without a copy (a 10 MiB
// payload would otherwise be copied once more into the `Arc`'s own allocation).
pub struct RawPayload(Arc<Vec<u8>>);

impl RawPayload {
    /// The exact bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_slice()
    }

    /// The bytes as UTF-8, if they are.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// Number of bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no bytes were received (backfilled events).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Parses the raw bytes as a JSON value (allocates; for inspection, not the hot path),
    /// tolerantly: what an agent's encoder writes and `serde_json` rejects is repaired as the
    /// decoder repairs it ([`kit::tolerant`](crate::kit::tolerant)). `None` when it is not JSON.
    pub fn to_value(&self) -> Option<Value> {
        crate::kit::tolerant::parse_slice(self.json_bytes())
            .ok()
            .map(|(v, _)| v)
    }

    /// The bytes without a leading UTF-8 byte-order mark (Cursor prepends one), for parsing.
    pub fn json_bytes(&self) -> &[u8] {
        strip_bom(&self.0)
    }

    /// Looks up a top-level field of the raw payload by name (allocates; fidelity escape hatch).
    pub fn field(&self, name: &str) -> Option<Value> {
        match self.to_value()? {
            Value::Object(mut m) => m.remove(name),
            _ => None,
        }
    }
}

/// Strips a UTF-8 byte-order mark, if present.
pub fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(b)
}

impl From<Vec<u8>> for RawPayload {
    fn from(v: Vec<u8>) -> Self {
        Self(Arc::new(v))
    }
}

impl From<&[u8]> for RawPayload {
    fn from(v: &[u8]) -> Self {
        Self(Arc::new(v.to_vec()))
    }
}

impl fmt::Debug for RawPayload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_str() {
            Some(s) if s.len() <= 256 => write!(f, "RawPayload({s:?})"),
            Some(s) => write!(
                f,
                "RawPayload({:?}… {} bytes)",
                &s[..s.floor_char_boundary_compat(256)],
                s.len()
            ),
            None => write!(f, "RawPayload(<{} non-UTF-8 bytes>)", self.0.len()),
        }
    }
}

trait FloorCharBoundary {
    fn floor_char_boundary_compat(&self, i: usize) -> usize;
}

impl FloorCharBoundary for str {
    fn floor_char_boundary_compat(&self, mut i: usize) -> usize {
        if i >= self.len() {
            return self.len();
        }
        while !self.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

/// A type-keyed map for embedder data. The library never reads, writes or propagates it.
///
/// ```
/// use agenthooks_core::Extensions;
/// #[derive(Debug, PartialEq)]
/// struct TenantId(u32);
/// let mut ext = Extensions::default();
/// ext.insert(TenantId(7));
/// assert_eq!(ext.get::<TenantId>(), Some(&TenantId(7)));
/// ```
#[derive(Clone, Default)]
pub struct Extensions(HashMap<TypeId, Arc<dyn Any + Send + Sync>>);

impl Extensions {
    /// Inserts a value, replacing any value of the same type.
    pub fn insert<T: Any + Send + Sync>(&mut self, v: T) {
        self.0.insert(TypeId::of::<T>(), Arc::new(v));
    }

    /// The value of type `T`, if present.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.0.get(&TypeId::of::<T>()).and_then(|v| v.downcast_ref())
    }

    /// Removes the value of type `T`; returns whether one was present.
    pub fn remove<T: Any + Send + Sync>(&mut self) -> bool {
        self.0.remove(&TypeId::of::<T>()).is_some()
    }

    /// Number of stored values.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Extensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Extensions({} entries)", self.0.len())
    }
}

/// Session-scoped facts every provider reports in some form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SessionInfo {
    /// Session id (Claude/Codex/Gemini `session_id`, Cursor `conversation_id`, Copilot `sessionId`).
    pub id: String,
    /// Turn id: Codex `turn_id`, Cursor `generation_id`, Claude `prompt_id` (empty if absent).
    pub turn_id: String,
    /// Working directory of the agent.
    pub cwd: String,
    /// Workspace roots (Cursor multi-root; others `[cwd]` or the project dir).
    pub workspace_roots: Vec<String>,
    /// Transcript path, when the agent reports one.
    pub transcript_path: String,
    /// Model name, when reported.
    pub model: String,
    /// Permission mode (Claude/Codex `permission_mode`).
    pub permission_mode: String,
    /// User e-mail (Cursor `user_email`).
    pub user_email: String,
}

/// Subagent context (present only inside a subagent).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct AgentInfo {
    /// Subagent id.
    pub id: String,
    /// The provider's subagent type name.
    pub agent_type: String,
}

impl AgentInfo {
    /// Builds agent info.
    pub fn new(id: impl Into<String>, agent_type: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            agent_type: agent_type.into(),
        }
    }
}

/// Everything an event carries besides its kind-specific projection.
#[derive(Clone)]
#[non_exhaustive]
pub struct Envelope {
    /// The agent that sent it.
    pub provider: Provider,
    /// The agent's surface/variant.
    pub variant: Variant,
    /// The native event name exactly as the agent spells it.
    pub native: NativeName,
    /// The unified kind.
    pub kind: EventKind,
    /// When the library received the payload.
    pub received_at: SystemTime,
    /// The agent's own timestamp, verbatim, when it sends one (Gemini `timestamp`, Copilot ms).
    pub provider_time: Option<Value>,
    /// The agent's version, when known (e.g. `COPILOT_CLI_BINARY_VERSION`).
    pub agent_version: Option<String>,
    /// Session facts.
    pub session: SessionInfo,
    /// Subagent context, when inside one.
    pub agent: Option<AgentInfo>,
    /// A synthesized event for a provider miss: reporting only, empty raw, no capabilities.
    pub backfilled: bool,
    /// How sure detection was about provider and event.
    pub confidence: Confidence,
    /// Fields the typed native view could not hold as sent (tolerant decoding, see
    /// [`crate::kit`]): empty when the payload decoded exactly. The event still reached the
    /// handlers; the values are in the native view's `extra` or its `Other` form.
    pub projection_issues: Vec<ProjectionIssue>,
    raw: RawPayload,
    native_view: Option<Arc<dyn Any + Send + Sync>>,
    /// Embedder data; never read by the library.
    pub extensions: Extensions,
}

impl Envelope {
    /// A new envelope with the required identity and the raw payload; other fields default.
    pub fn new(provider: Provider, native: NativeName, kind: EventKind, raw: RawPayload) -> Self {
        Self {
            provider,
            variant: Variant::DEFAULT,
            native,
            kind,
            received_at: SystemTime::now(),
            provider_time: None,
            agent_version: None,
            session: SessionInfo::default(),
            agent: None,
            backfilled: false,
            confidence: Confidence::Certain,
            projection_issues: Vec::new(),
            raw,
            native_view: None,
            extensions: Extensions::default(),
        }
    }

    /// The exact bytes received (read-only: interceptors may change the projection, never this).
    pub fn raw(&self) -> &RawPayload {
        &self.raw
    }

    /// Attaches the provider's native typed struct (called by codecs).
    pub fn set_native_view<T: Any + Send + Sync>(&mut self, view: T) {
        self.native_view = Some(Arc::new(view));
    }

    /// The provider's native typed struct, if it is of type `T` (provider crates wrap this in
    /// typed accessors such as `agenthooks_claude::view`).
    pub fn native_view<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.native_view.as_deref().and_then(|v| v.downcast_ref())
    }
}

impl fmt::Debug for Envelope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Envelope")
            .field("provider", &self.provider)
            .field("variant", &self.variant)
            .field("native", &self.native)
            .field("kind", &self.kind)
            .field("session", &self.session)
            .field("agent", &self.agent)
            .field("backfilled", &self.backfilled)
            .field("confidence", &self.confidence)
            .field("raw", &self.raw)
            .finish_non_exhaustive()
    }
}

crate::named_enum! {
    /// Canonical class of a tool, across agents.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
    #[serde(rename_all = "kebab-case")]
    #[non_exhaustive]
    pub enum CanonicalTool {
        /// Shell command execution.
        Shell => "shell",
        /// Reading a file.
        FileRead => "file-read",
        /// Writing (creating/overwriting) a file.
        FileWrite => "file-write",
        /// Editing a file in place.
        FileEdit => "file-edit",
        /// Searching files (glob/grep/ls).
        Search => "search",
        /// Fetching from the network (web fetch/search).
        Fetch => "fetch",
        /// Spawning a subagent/task.
        Task => "task",
        /// An MCP tool.
        Mcp => "mcp",
        /// Anything else.
        #[default]
        Other => "other",
    }
}

impl CanonicalTool {
    /// Every class.
    pub const ALL: [Self; 9] = [
        Self::Shell,
        Self::FileRead,
        Self::FileWrite,
        Self::FileEdit,
        Self::Search,
        Self::Fetch,
        Self::Task,
        Self::Mcp,
        Self::Other,
    ];
}

// Tolerant decoding: what the typed view could not hold.

/// What the decoder did about a field it could not type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Repair {
    /// The value had a shape no release this crate knows sent: it is kept in `extra`.
    MovedToExtra,
    /// An identifying field was missing: the projection used a placeholder, the native view is
    /// the event's `Other` form.
    Placeholder,
    /// The payload could not be typed at all: the event is delivered as `Other`.
    Untyped,
    /// The text held what `serde_json` rejects but an agent's encoder writes (a lone surrogate
    /// escape, bytes that are not UTF-8, a raw control character): the decoded view holds U+FFFD
    /// (or the escape) instead; the raw payload is unchanged ([`tolerant`](crate::kit::tolerant)).
    Replaced,
    /// A value nested deeper than [`tolerant::MAX_DEPTH`](crate::kit::tolerant::MAX_DEPTH), or a number
    /// beyond `f64`'s range: the decoded view holds a string with its exact JSON text
    /// ([`tolerant`](crate::kit::tolerant)).
    KeptAsText,
}

/// A field the typed view could not hold as sent. The event still reaches handlers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProjectionIssue {
    /// The JSON path of the field (`tool_input`, `tool_calls[0].tool_name`, `.` for the root).
    pub path: String,
    /// The decoder's message.
    pub message: String,
    /// What was done about it.
    pub repair: Repair,
}

impl Repair {
    /// A stable name: `moved-to-extra`, `placeholder`, `untyped`, `replaced`, `kept-as-text`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::MovedToExtra => "moved-to-extra",
            Self::Placeholder => "placeholder",
            Self::Untyped => "untyped",
            Self::Replaced => "replaced",
            Self::KeptAsText => "kept-as-text",
        }
    }
}

impl fmt::Display for ProjectionIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {} ({})", self.path, self.message, self.repair.as_str())
    }
}

impl From<crate::kit::tolerant::TextRepair> for ProjectionIssue {
    fn from(r: crate::kit::tolerant::TextRepair) -> Self {
        let repair = match r.kind {
            crate::kit::tolerant::TextRepairKind::TooDeep | crate::kit::tolerant::TextRepairKind::NumberOutOfRange => {
                Repair::KeptAsText
            }
            _ => Repair::Replaced,
        };
        ProjectionIssue {
            message: r.kind.describe().to_owned(),
            path: r.path,
            repair,
        }
    }
}

/// A tool call, normalized across agents.
///
/// The input is held once, as the raw JSON text the agent sent ([`ToolCall::raw_json`], shared
/// with the native view), and projected on first access: [`ToolCall::input`] builds the
/// normalized object once and caches it; [`ToolCall::input_field`], [`ToolCall::command`] and
/// [`ToolCall::file_path`] read single keys without building it. A handler that reads only the
/// tool name and the command pays for the command, not for the rest of the input.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ToolCall {
    /// Native tool-call id, or a synthesized one (see [`ToolCall::synthesized`]).
    pub id: String,
    /// Whether [`ToolCall::id`] was synthesized because the agent sent none.
    pub synthesized: bool,
    /// Native tool name, verbatim.
    pub name: String,
    /// Canonical class.
    pub canonical: CanonicalTool,
    /// MCP details when the call targets an MCP tool.
    pub mcp: Option<McpCall>,
    raw_input: RawJson,
    input: OnceLock<Map<String, Value>>,
    command: OnceLock<Option<String>>,
    file_path: OnceLock<Option<String>>,
}

/// The keys [`ToolCall::file_path`] reads, in priority order.
const FILE_PATH_KEYS: [&str; 5] = ["file_path", "path", "filePath", "absolute_path", "notebook_path"];

impl ToolCall {
    /// Starts a tool call from the native tool name and the input exactly as the agent sent
    /// it (a [`RawJson`] from the native view, or a [`Value`]); finish with
    /// [`ToolCallBuilder::build`], which synthesizes an id when the agent sent none.
    ///
    /// ```
    /// use agenthooks_core::{CanonicalTool, SessionInfo, ToolCall};
    /// use serde_json::json;
    /// let session = SessionInfo::default();
    /// let a = ToolCall::builder("Shell", json!("{\"command\":\"ls\"}"))
    ///     .class(CanonicalTool::Shell)
    ///     .build(&session);
    /// assert_eq!(a.input()["command"], "ls");
    /// assert_eq!(a.command(), Some("ls"));
    /// assert!(a.synthesized && a.id.starts_with("hook_synth_"));
    /// let b = ToolCall::builder("Shell", json!({"command": "ls"})).class(CanonicalTool::Shell).build(&session);
    /// assert_eq!(a.id, b.id); // pre and post correlate
    /// let c = ToolCall::builder("Bash", json!({})).with_id("toolu_1").build(&session);
    /// assert_eq!((c.id.as_str(), c.synthesized), ("toolu_1", false));
    /// ```
    pub fn builder(name: impl Into<String>, raw_input: impl Into<RawJson>) -> ToolCallBuilder {
        ToolCallBuilder {
            name: name.into(),
            raw_input: raw_input.into(),
            canonical: CanonicalTool::Other,
            id: String::new(),
            mcp: None,
        }
    }

    fn from_parts(
        name: impl Into<String>,
        canonical: CanonicalTool,
        raw_input: RawJson,
        id: Option<String>,
        session: &str,
        turn: &str,
    ) -> Self {
        let name = name.into();
        let (id, synthesized) = match id {
            Some(id) if !id.is_empty() => (id, false),
            _ => (synth_tool_id_raw(session, turn, &name, &raw_input), true),
        };
        Self {
            id,
            synthesized,
            name,
            canonical,
            mcp: None,
            raw_input,
            input: OnceLock::new(),
            command: OnceLock::new(),
            file_path: OnceLock::new(),
        }
    }

    /// Sets the MCP details (and the canonical class to [`CanonicalTool::Mcp`]).
    #[must_use]
    pub fn with_mcp(mut self, mcp: McpCall) -> Self {
        self.canonical = CanonicalTool::Mcp;
        self.mcp = Some(mcp);
        self
    }

    /// The input, always a JSON object (un-stringified when the agent sent a JSON string; a
    /// non-object input is wrapped as `{"value": …}`). Built on the first call, then cached.
    pub fn input(&self) -> &Map<String, Value> {
        self.input.get_or_init(|| self.raw_input.to_object())
    }

    /// The input, mutably (interceptors rewriting the projection; the raw input and
    /// [`Envelope::raw`] stay as sent).
    pub fn input_mut(&mut self) -> &mut Map<String, Value> {
        let _ = self.input();
        self.command = OnceLock::new();
        self.file_path = OnceLock::new();
        self.input
            .get_mut()
            .unwrap_or_else(|| unreachable!("initialized above"))
    }

    /// The input exactly as the agent sent it, parsed (a string stays a string). Byte-exact
    /// text is [`ToolCall::raw_json`].
    pub fn raw_input(&self) -> &Value {
        self.raw_input.value()
    }

    /// The input as the agent sent it, as raw JSON text (shared with the native view).
    pub fn raw_json(&self) -> &RawJson {
        &self.raw_input
    }

    /// One top-level key of the (normalized) input, without building the whole object when it
    /// has not been built yet.
    pub fn input_field(&self, key: &str) -> Option<Value> {
        self.input_fields(&[key]).pop().flatten()
    }

    /// Several top-level keys of the input in one scan (see [`ToolCall::input_field`]).
    fn input_fields(&self, keys: &[&str]) -> Vec<Option<Value>> {
        if let Some(m) = self.input.get() {
            return keys.iter().map(|k| m.get(*k).cloned()).collect();
        }
        if self.raw_input.is_object() {
            return self.raw_input.fields(keys);
        }
        // A stringified object (Cursor MCP, Copilot): scan the inner text; anything else is
        // `{"value": …}` and small.
        if self.raw_input.is_string() {
            if let Value::String(inner) = self.raw_input.value() {
                if inner.trim_start().starts_with('{') {
                    return crate::raw_json::scan_fields(inner.trim(), keys);
                }
            }
        }
        let m = self.input();
        keys.iter().map(|k| m.get(*k).cloned()).collect()
    }

    /// The `command` string of a shell call (`command`, else `cmd`), when present.
    pub fn command(&self) -> Option<&str> {
        self.command
            .get_or_init(|| {
                let mut v = self.input_fields(&["command", "cmd"]).into_iter();
                let (command, cmd) = (v.next().flatten(), v.next().flatten());
                [command, cmd].into_iter().flatten().find_map(|v| match v {
                    Value::String(s) => Some(s),
                    _ => None,
                })
            })
            .as_deref()
    }

    /// The file path argument, under the names agents use (`file_path`, `path`, `filePath`, …).
    pub fn file_path(&self) -> Option<&str> {
        self.file_path
            .get_or_init(|| {
                self.input_fields(&FILE_PATH_KEYS)
                    .into_iter()
                    .flatten()
                    .find_map(|v| match v {
                        Value::String(s) => Some(s),
                        _ => None,
                    })
            })
            .as_deref()
    }
}

impl PartialEq for ToolCall {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.synthesized == other.synthesized
            && self.name == other.name
            && self.canonical == other.canonical
            && self.mcp == other.mcp
            && self.input() == other.input()
            && self.raw_input == other.raw_input
    }
}

/// Serializes as `{id, synthesized, name, canonical, mcp, input, raw_input}` (the normalized
/// JSON's `tool`).
impl Serialize for ToolCall {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut st = s.serialize_struct("ToolCall", 7)?;
        st.serialize_field("id", &self.id)?;
        st.serialize_field("synthesized", &self.synthesized)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("canonical", &self.canonical)?;
        st.serialize_field("mcp", &self.mcp)?;
        st.serialize_field("input", self.input())?;
        st.serialize_field("raw_input", self.raw_input())?;
        st.end()
    }
}

/// An empty call (named `""`, no input, a synthesized id): the tool of a payload whose typed
/// view could not be built.
impl Default for ToolCall {
    fn default() -> Self {
        ToolCall::builder("", Value::Null).build(&SessionInfo::default())
    }
}

/// A [`ToolCall`] under construction (see [`ToolCall::builder`]).
#[derive(Debug, Clone)]
#[must_use]
pub struct ToolCallBuilder {
    name: String,
    raw_input: RawJson,
    canonical: CanonicalTool,
    id: String,
    mcp: Option<McpCall>,
}

impl ToolCallBuilder {
    /// The canonical class (default [`CanonicalTool::Other`]).
    pub fn class(mut self, canonical: CanonicalTool) -> Self {
        self.canonical = canonical;
        self
    }

    /// The agent's tool-call id; an empty id counts as none (one is synthesized).
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = id.into();
        self
    }

    /// The MCP identity (sets the class to [`CanonicalTool::Mcp`]).
    pub fn with_mcp(mut self, mcp: Option<McpCall>) -> Self {
        self.mcp = mcp;
        self
    }

    /// The call, with an id synthesized from the session and turn when the agent sent none.
    pub fn build(self, session: &SessionInfo) -> ToolCall {
        let id = Some(self.id).filter(|i| !i.is_empty());
        let call = ToolCall::from_parts(
            self.name,
            self.canonical,
            self.raw_input,
            id,
            &session.id,
            &session.turn_id,
        );
        match self.mcp {
            Some(mcp) => call.with_mcp(mcp.rooted(session.workspace_roots.first().unwrap_or(&session.cwd))),
            None => call,
        }
    }
}

/// A deterministic tool-call id: `hook_synth_` + the first 16 hex digits of
/// `sha256(session | turn | tool | compact-JSON(input))`. Codecs use [`synth_tool_id_raw`],
/// which hashes the input's own text instead of re-serializing it (the same id for a compact
/// input).
///
/// ```
/// use agenthooks_core::synth_tool_id;
/// let input = serde_json::Map::new();
/// let a = synth_tool_id("s", "t", "Bash", &input);
/// assert_eq!(a, synth_tool_id("s", "t", "Bash", &input));
/// assert_eq!(a.len(), "hook_synth_".len() + 16);
/// assert_ne!(a, synth_tool_id("s", "t2", "Bash", &input));
/// ```
pub fn synth_tool_id(session: &str, turn: &str, tool: &str, input: &Map<String, Value>) -> String {
    // Serializing a Map cannot fail.
    let body = serde_json::to_vec(input).unwrap_or_default();
    synth_id_of(session, turn, tool, &[&body])
}

/// The id of [`synth_tool_id`] computed from the input as the agent sent it, hashing its raw
/// bytes: an object's text as is; a JSON string that holds an object, its content (so a
/// stringified input and the same input sent as an object correlate); `null` as `{}`;
/// anything else as `{"value":<text>}`. For an input sent compact (what agents send) this is
/// exactly [`synth_tool_id`] of [`ToolCall::input`].
///
/// ```
/// use agenthooks_core::{synth_tool_id, synth_tool_id_raw, RawJson};
/// let raw: RawJson = serde_json::from_str(r#"{"command":"ls","cwd":"/"}"#)?;
/// let map = raw.to_object();
/// assert_eq!(synth_tool_id_raw("s", "t", "Bash", &raw), synth_tool_id("s", "t", "Bash", &map));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn synth_tool_id_raw(session: &str, turn: &str, tool: &str, input: &RawJson) -> String {
    let text = input.get();
    match text.as_bytes().first() {
        Some(b'{') => synth_id_of(session, turn, tool, &[text.as_bytes()]),
        Some(b'"') => match input.value() {
            Value::String(inner) if crate::kit::tolerant::parse(inner).is_ok_and(|(v, _)| v.is_object()) => {
                synth_id_of(session, turn, tool, &[inner.trim().as_bytes()])
            }
            _ => synth_id_of(session, turn, tool, &[b"{\"value\":", text.as_bytes(), b"}"]),
        },
        None | Some(b'n') => synth_id_of(session, turn, tool, &[b"{}"]),
        Some(_) => synth_id_of(session, turn, tool, &[b"{\"value\":", text.as_bytes(), b"}"]),
    }
}

fn synth_id_of(session: &str, turn: &str, tool: &str, body: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    h.update(session.as_bytes());
    h.update(b"|");
    h.update(turn.as_bytes());
    h.update(b"|");
    h.update(tool.as_bytes());
    h.update(b"|");
    for part in body {
        h.update(part);
    }
    format!("hook_synth_{}", crate::digest::hex(&h.finalize()[..8]))
}

// Declares a typed event: its envelope, the fields `new` takes (`required`) and the fields
// that default and have a `with_*` setter (`optional`).
macro_rules! typed_event {
    (
        $(#[$meta:meta])*
        $name:ident {
            required { $($(#[$rmeta:meta])* pub $rfield:ident : $rty:ty),* $(,)? }
            optional { $($(#[$ometa:meta])* pub $ofield:ident : $oty:ty => $setter:ident),* $(,)? }
        }
    ) => {
        $(#[$meta])*
        ///
        /// Serializes as its kind-specific fields (the `detail` of [`Event::to_json`]).
        #[derive(Debug, Clone, Serialize)]
        #[non_exhaustive]
        pub struct $name {
            /// The envelope (provider, session, raw payload, …).
            #[serde(skip)]
            pub envelope: Envelope,
            $($(#[$rmeta])* pub $rfield: $rty,)*
            $($(#[$ometa])* pub $ofield: $oty,)*
        }

        impl $name {
            /// Builds the event from its envelope and required fields; the others default and
            /// are set with the `with_*` methods (used by codecs).
            pub fn new(envelope: Envelope $(, $rfield: $rty)*) -> Self {
                Self {
                    envelope,
                    $($rfield,)*
                    $($ofield: Default::default(),)*
                }
            }

            $(
                #[doc = concat!("Sets `", stringify!($ofield), "`.")]
                #[must_use]
                pub fn $setter(mut self, $ofield: $oty) -> Self {
                    self.$ofield = $ofield;
                    self
                }
            )*

            /// The event with every field defaulted: what [`Event::bare`] builds for a payload
            /// whose typed view could not be built.
            pub fn bare(envelope: Envelope) -> Self {
                Self {
                    envelope,
                    $($rfield: Default::default(),)*
                    $($ofield: Default::default(),)*
                }
            }

            /// The envelope.
            pub fn envelope(&self) -> &Envelope {
                &self.envelope
            }
        }

        impl AsRef<Envelope> for $name {
            fn as_ref(&self) -> &Envelope {
                &self.envelope
            }
        }
    };
}

typed_event!(
    /// `tool.pre`: a tool call about to run.
    ToolPreEvent {
        required {
            /// The call.
            pub tool: ToolCall,
        }
        optional {}
    }
);
typed_event!(
    /// `permission.request`: the agent is about to ask the user to allow a tool call.
    PermissionEvent {
        required {
            /// The call.
            pub tool: ToolCall,
        }
        optional {
            /// The agent's permission suggestions, verbatim (Claude `permission_suggestions`).
            pub suggestions: Option<Value> => with_suggestions,
        }
    }
);
typed_event!(
    /// `tool.post`: a tool call finished.
    ToolPostEvent {
        required {
            /// The call.
            pub tool: ToolCall,
        }
        optional {
            /// The tool's output/response as the agent reported it (`null` when it sent none):
            /// raw JSON, parsed on first access (shared with the native view).
            pub output: RawJson => with_output,
            /// Execution time, when reported.
            pub duration_ms: Option<u64> => with_duration_ms,
        }
    }
);
typed_event!(
    /// `tool.error`: a tool call failed.
    ToolErrorEvent {
        required {
            /// The call.
            pub tool: ToolCall,
        }
        optional {
            /// The error text (empty when the agent sent none).
            pub error: String => with_error,
            /// Whether the failure was a user interrupt.
            pub interrupted: bool => with_interrupted,
            /// Execution time, when reported.
            pub duration_ms: Option<u64> => with_duration_ms,
        }
    }
);
typed_event!(
    /// `prompt.submitted`: a user prompt before the model sees it.
    PromptEvent {
        required {
            /// The prompt text (text parts joined with newlines when the agent sends parts).
            pub prompt: String,
        }
        optional {}
    }
);
typed_event!(
    /// `agent.stop` / `subagent.stop`: the (sub)agent is about to finish its turn.
    StopEvent {
        required {}
        optional {
            /// Whether a stop hook already continued this turn (`stop_hook_active`, `loop_count > 0`).
            pub previously_continued: bool => with_previously_continued,
            /// Whether the agent said so itself ([`ContinuationFlag`]): when it does not (Copilot
            /// CLI before 1.0.72), the runner keeps its per-session counter across stops and sets
            /// `previously_continued` from it. Not serialized (the runner's input, not the event's).
            #[serde(skip)]
            pub continuation_flag: ContinuationFlag => with_continuation_flag,
            /// How many times the turn has been continued, when known (provider loop count or the
            /// runner's per-session counter).
            pub continuation_count: Option<u32> => with_continuation_count,
            /// The last assistant message, when reported.
            pub last_message: Option<String> => with_last_message,
        }
    }
);
/// What the agent's own stop payload says about a continuation: the tri-state behind
/// [`StopEvent::previously_continued`] (`stop_hook_active: true` / `false` / no such field).
///
/// A codec that only calls [`StopEvent::with_previously_continued`] leaves the default
/// ([`ContinuationFlag::NotContinued`]): the bool is the agent's word. With
/// [`ContinuationFlag::Absent`] the runner cannot tell a turn's first stop from a re-entry, so it
/// keeps its per-session continuation counter (reset when a handler does not continue, or when
/// the cap ends the loop) instead of resetting it on every stop.
///
/// ```
/// use agenthooks_core::event::ContinuationFlag;
/// assert_eq!(ContinuationFlag::from_reported(Some(true)), ContinuationFlag::Continued);
/// assert_eq!(ContinuationFlag::from_reported(None), ContinuationFlag::Absent);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContinuationFlag {
    /// The agent says this stop re-enters after a continuation.
    Continued,
    /// The agent says this is the turn's first stop (or the codec set only the bool).
    #[default]
    NotContinued,
    /// The agent does not say.
    Absent,
}

impl ContinuationFlag {
    /// The flag of an optional payload field (`stop_hook_active`).
    pub fn from_reported(reported: Option<bool>) -> Self {
        match reported {
            Some(true) => Self::Continued,
            Some(false) => Self::NotContinued,
            None => Self::Absent,
        }
    }
}

impl StopEvent {
    /// Sets [`StopEvent::previously_continued`] and [`StopEvent::continuation_flag`] from an
    /// optional payload flag: `None` (the agent does not say) leaves the runner's counter in charge.
    #[must_use]
    pub fn with_reported_continuation(self, reported: Option<bool>) -> Self {
        self.with_previously_continued(reported == Some(true))
            .with_continuation_flag(ContinuationFlag::from_reported(reported))
    }
}

typed_event!(
    /// `subagent.start`.
    SubagentStartEvent {
        required {}
        optional {}
    }
);
typed_event!(
    /// `session.start`.
    SessionStartEvent {
        required {}
        optional {
            /// Why the session started (`startup`, `resume`, `clear`, `compact`, …), when reported.
            pub source: Option<String> => with_source,
        }
    }
);
typed_event!(
    /// `session.end`.
    SessionEndEvent {
        required {}
        optional {
            /// Why the session ended, when reported.
            pub reason: Option<String> => with_reason,
        }
    }
);
typed_event!(
    /// `compact.pre`.
    CompactPreEvent {
        required {}
        optional {
            /// `manual` or `auto`, when reported.
            pub trigger: Option<String> => with_trigger,
            /// User instructions for the compaction.
            pub instructions: Option<String> => with_instructions,
        }
    }
);
typed_event!(
    /// `compact.post`.
    CompactPostEvent {
        required {}
        optional {
            /// `manual` or `auto`, when reported.
            pub trigger: Option<String> => with_trigger,
            /// The compaction summary.
            pub summary: Option<String> => with_summary,
        }
    }
);
typed_event!(
    /// `notification`.
    NotificationEvent {
        required {
            /// The message (empty when the agent sent none).
            pub message: String,
        }
        optional {
            /// Title, when reported.
            pub title: Option<String> => with_title,
            /// The agent's notification type.
            pub notification_type: Option<String> => with_notification_type,
        }
    }
);
typed_event!(
    /// `file.edited`: a post-hoc report that a file changed.
    FileEditedEvent {
        required {
            /// The file path.
            pub path: String,
        }
        optional {
            /// Edits, verbatim, when reported.
            pub edits: Option<Value> => with_edits,
        }
    }
);
typed_event!(
    /// `model.request` (experimental).
    ModelRequestEvent {
        required {
            /// The request, verbatim as the agent exposes it.
            pub request: Value,
        }
        optional {}
    }
);
typed_event!(
    /// `model.response` (experimental; may fire per streamed chunk).
    ModelResponseEvent {
        required {}
        optional {
            /// Text of the response (or chunk), when extractable.
            pub text: Option<String> => with_text,
            /// The response, verbatim as the agent exposes it.
            pub response: Value => with_response,
        }
    }
);
typed_event!(
    /// `other`: a native event without a unified mapping. The native name is
    /// [`Envelope::native`]; everything else is in the raw payload and the native view.
    OtherEvent {
        required {}
        optional {}
    }
);

macro_rules! event_enum {
    ($($kind:ident, $dotted:literal, $ev:ident, $family:ident, $slot:ident, $method:ident, $doc:literal;)*) => {
        /// A decoded event: one variant per [`EventKind`].
        #[derive(Debug, Clone)]
        #[non_exhaustive]
        pub enum Event {
            $( #[doc = concat!("`", $dotted, "`")] $kind($ev), )*
            /// `other`
            Other(OtherEvent),
        }

        impl Event {
            /// The event of the envelope's kind with nothing projected beyond the envelope: an
            /// empty tool call (named `""`) on tool kinds, empty texts, `null` values. Codecs
            /// use it for a payload whose typed view could not be built (tolerant decoding,
            /// [`crate::kit`]) and for native events without a unified mapping (kind
            /// `other`), so the event still reaches handlers as its kind with its raw payload.
            ///
            /// ```
            /// use agenthooks_core::{Envelope, Event, EventKind, Provider, RawPayload};
            /// let env = Envelope::new(Provider::CODEX, "PreToolUse".into(), EventKind::ToolPre, RawPayload::default());
            /// let e = Event::bare(env);
            /// assert_eq!(e.kind(), EventKind::ToolPre);
            /// assert_eq!(e.tool().map(|t| t.name.as_str()), Some(""));
            /// ```
            pub fn bare(envelope: Envelope) -> Self {
                match envelope.kind {
                    $( EventKind::$kind => Self::$kind($ev::bare(envelope)), )*
                    _ => Self::Other(OtherEvent::bare(envelope)),
                }
            }

            /// The unified kind (derived from the variant).
            pub fn kind(&self) -> EventKind {
                match self {
                    $( Self::$kind(_) => EventKind::$kind, )*
                    Self::Other(_) => EventKind::Other,
                }
            }

            /// The kind-specific fields as JSON (the `detail` of [`Event::to_json`]).
            fn detail(&self) -> Value {
                match self {
                    $( Self::$kind(e) => to_value(e), )*
                    Self::Other(e) => to_value(e),
                }
            }

            /// The envelope.
            pub fn envelope(&self) -> &Envelope {
                match self {
                    $( Self::$kind(e) => &e.envelope, )*
                    Self::Other(e) => &e.envelope,
                }
            }

            /// The envelope, mutably (interceptors may change the projection, never the raw
            /// payload).
            pub fn envelope_mut(&mut self) -> &mut Envelope {
                match self {
                    $( Self::$kind(e) => &mut e.envelope, )*
                    Self::Other(e) => &mut e.envelope,
                }
            }
        }
    };
}

crate::kind::for_each_kind!(event_enum);

impl Event {
    /// The tool call, for kinds that carry one.
    pub fn tool(&self) -> Option<&ToolCall> {
        match self {
            Self::ToolPre(e) => Some(&e.tool),
            Self::ToolPost(e) => Some(&e.tool),
            Self::ToolError(e) => Some(&e.tool),
            Self::Permission(e) => Some(&e.tool),
            _ => None,
        }
    }

    /// The tool call, mutably.
    pub fn tool_mut(&mut self) -> Option<&mut ToolCall> {
        match self {
            Self::ToolPre(e) => Some(&mut e.tool),
            Self::ToolPost(e) => Some(&mut e.tool),
            Self::ToolError(e) => Some(&mut e.tool),
            Self::Permission(e) => Some(&mut e.tool),
            _ => None,
        }
    }

    /// The normalized event as JSON with stable field names (documented in the crate docs).
    /// `received_at` is omitted so the output is deterministic; `raw` is included (parsed, or as
    /// a string when it is not JSON) only when `include_raw` is set.
    pub fn to_json(&self, include_raw: bool) -> Value {
        let env = self.envelope();
        let mut m = Map::new();
        m.insert("provider".into(), env.provider.as_str().into());
        m.insert("variant".into(), env.variant.as_str().into());
        m.insert("native_event".into(), env.native.as_str().into());
        m.insert("kind".into(), self.kind().as_str().into());
        m.insert("confidence".into(), env.confidence.as_str().into());
        m.insert("backfilled".into(), env.backfilled.into());
        m.insert("session".into(), to_value(&env.session));
        m.insert("agent".into(), env.agent.as_ref().map_or(Value::Null, to_value));
        if let Some(t) = &env.provider_time {
            m.insert("provider_time".into(), t.clone());
        }
        if let Some(v) = &env.agent_version {
            m.insert("agent_version".into(), v.as_str().into());
        }
        if !env.projection_issues.is_empty() {
            let issues = env.projection_issues.iter().map(|i| {
                let mut o = Map::new();
                o.insert("path".into(), i.path.clone().into());
                o.insert("message".into(), i.message.clone().into());
                o.insert("repair".into(), i.repair.as_str().into());
                Value::Object(o)
            });
            m.insert("projection_issues".into(), Value::Array(issues.collect()));
        }
        m.insert("detail".into(), self.detail());
        if include_raw {
            let raw = env
                .raw()
                .to_value()
                .unwrap_or_else(|| Value::String(String::from_utf8_lossy(env.raw().as_bytes()).into_owned()));
            m.insert("raw".into(), raw);
        }
        Value::Object(m)
    }
}

fn to_value<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn synthesized_ids_are_deterministic_and_distinct() {
        let i1 = normalize_input(&json!({"command": "ls"}));
        let i2 = normalize_input(&json!({"command": "ls -la"}));
        let a = synth_tool_id("s", "t", "Bash", &i1);
        assert_eq!(a, synth_tool_id("s", "t", "Bash", &i1));
        assert_ne!(a, synth_tool_id("s", "t", "Bash", &i2));
        assert_ne!(a, synth_tool_id("s2", "t", "Bash", &i1));
        assert_ne!(a, synth_tool_id("s", "t", "Write", &i1));
        assert!(a.starts_with("hook_synth_"));
        assert!(a["hook_synth_".len()..].chars().all(|c| c.is_ascii_hexdigit()));
        // known vector, so the algorithm cannot drift silently
        assert_eq!(synth_tool_id("", "", "", &Map::new()), {
            let mut h = Sha256::new();
            h.update(b"|||{}");
            let d = h.finalize();
            let hex: String = d[..8]
                .iter()
                .flat_map(|b| [b >> 4, b & 15])
                .map(|n| char::from_digit(u32::from(n), 16).unwrap())
                .collect();
            format!("hook_synth_{hex}")
        });
    }

    #[test]
    fn inputs_normalize_to_objects() {
        assert_eq!(normalize_input(&json!("{\"a\":1}"))["a"], 1);
        assert_eq!(normalize_input(&json!("not json"))["value"], "not json");
        assert_eq!(normalize_input(&json!([1, 2]))["value"], json!([1, 2]));
        assert!(normalize_input(&Value::Null).is_empty());
        let t = ToolCall::from_parts(
            "x",
            CanonicalTool::Other,
            json!("{\"a\":1}").into(),
            Some("id1".into()),
            "",
            "",
        );
        assert_eq!(t.id, "id1");
        assert!(!t.synthesized);
        assert_eq!(t.raw_input(), &json!("{\"a\":1}"));
        assert_eq!(t.input()["a"], 1);
    }

    #[test]
    fn the_input_is_projected_only_when_read() {
        let raw: RawJson =
            serde_json::from_str(r#"{"big":[1,2,3],"description":"d","command":"ls -la","path":"/x"}"#).unwrap();
        let t = ToolCall::builder("Bash", raw.clone())
            .with_id("t1")
            .build(&SessionInfo::default());
        assert_eq!((t.command(), t.file_path()), (Some("ls -la"), Some("/x")));
        assert_eq!(t.input_field("description"), Some(json!("d")));
        assert!(!raw.is_parsed() && t.input.get().is_none(), "single keys build nothing");
        assert_eq!(t.input()["big"][2], 3);
        assert_eq!(t.raw_json().get(), raw.get(), "shared text");
        // A rewrite through `input_mut` is what the accessors see next.
        let mut t = t;
        t.input_mut().insert("command".into(), json!("pwd"));
        assert_eq!(t.command(), Some("pwd"));
        assert_eq!(t.raw_input()["command"], "ls -la", "the raw input stays as sent");
        // A stringified input is scanned inside the string.
        let s = ToolCall::builder("x", json!("{\"cmd\":\"echo\"}")).build(&SessionInfo::default());
        assert_eq!(s.command(), Some("echo"));
    }

    #[test]
    fn raw_ids_match_the_map_ids_for_compact_inputs() {
        for text in [
            r#"{"command":"ls","n":1}"#,
            r#""{\"a\":1}""#,
            "null",
            "[1,2]",
            r#""plain""#,
        ] {
            let raw: RawJson = serde_json::from_str(text).unwrap();
            assert_eq!(
                synth_tool_id_raw("s", "t", "Bash", &raw),
                synth_tool_id("s", "t", "Bash", &raw.to_object()),
                "{text}"
            );
        }
    }

    #[test]
    fn raw_keeps_bytes_and_bom() {
        let raw = RawPayload::from(b"\xEF\xBB\xBF{\"a\":1} \n".to_vec());
        assert_eq!(raw.as_bytes()[0], 0xEF);
        assert_eq!(raw.field("a"), Some(json!(1)));
        assert_eq!(raw.len(), 12);
    }

    #[test]
    fn native_view_downcasts() {
        let mut env = Envelope::new(
            Provider::CODEX,
            NativeName::from_static("Stop"),
            EventKind::Stop,
            RawPayload::default(),
        );
        env.set_native_view(42_u32);
        assert_eq!(env.native_view::<u32>(), Some(&42));
        assert_eq!(env.native_view::<String>(), None);
    }
}
