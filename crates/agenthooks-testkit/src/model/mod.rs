//! Fake model servers: the real agent CLIs, driven offline against scripted conversations.
//!
//! Each [`FakeModel`] speaks one model API well enough for a coding agent to run a headless turn:
//!
//! | [`Api`] | endpoints | agents |
//! |---|---|---|
//! | [`Api::AnthropicMessages`] | `HEAD /`, `POST /v1/messages` (SSE or JSON), `POST /v1/messages/count_tokens` | Claude Code |
//! | [`Api::OpenAiResponses`] | `POST /v1/responses` (SSE), `GET /v1/models` | Codex |
//! | [`Api::Gemini`] | `POST /v1beta/models/<m>:streamGenerateContent?alt=sse`, `:generateContent`, `:countTokens` | Gemini CLI |
//! | [`Api::OpenAiChat`] | `POST /v1/chat/completions` (SSE or JSON), `GET /v1/models` | Copilot CLI, Kimi Code, OpenCode, OpenClaw |
//!
//! A [`Script`] is the conversation: a list of [`Turn`]s (typically "call the shell tool with
//! these arguments", then "answer with this text"). The server picks the turn from the
//! conversation the agent sends, not from a request counter: turn *n* is answered when the
//! request's history already holds *n* assistant turns, and the last turn repeats after the
//! script runs out. So a tool round trip, a retry after a denied tool, or one more model turn
//! after a stop hook continued the agent each get the right answer, and side requests (a title,
//! a routing decision, a structured-output check: requests without tools) get plain text or a
//! value of the requested JSON schema without consuming a turn.
//!
//! Every request is recorded ([`FakeModel::requests`]), so a test can check what reached the
//! model: whether a hook's injected context is in the first request, whether a deny reason came
//! back as the tool result, whether a continuation instruction started one more turn.
//!
//! The server binds `127.0.0.1` on a free port (never another interface), serves each connection
//! on its own thread, stops when the [`FakeModel`] is dropped and, in any case, after a bounded
//! lifetime ([`FakeModel::start_with_lifetime`], default [`DEFAULT_LIFETIME`]), so a test that
//! leaks one cannot leave a listener behind.
//!
//! ## Why a small std-only server, not an HTTP crate
//!
//! The agents need very little HTTP: HTTP/1.1 requests whose bodies are framed by
//! `Content-Length` or `Transfer-Encoding: chunked`, and complete responses (JSON, or a
//! `text/event-stream` body of server-sent events) with `Connection: close`. No TLS (the agents
//! are pointed at `http://127.0.0.1`), no HTTP/2, no keep-alive, no streaming back-pressure. A
//! well-kept server crate (hyper, axum, `tiny_http`) would bring an async runtime or a dozen
//! transitive crates into every consumer's dev-dependencies and into CI builds, for a few hundred
//! lines of code that are easy to test here (`http.rs`). This module therefore uses only `std`
//! and `serde_json`, with every read bounded (head and body size caps, a shutdown poll, a
//! per-connection deadline) and no panic on anything a client sends.
//!
//! ```
//! use agenthooks_testkit::model::{Api, FakeModel, Script};
//! use serde_json::json;
//!
//! let server = FakeModel::start(
//!     Api::AnthropicMessages,
//!     Script::tool_then_text("Bash", json!({"command": "echo hi > marker.txt"}), "Done."),
//! )?;
//! assert!(server.base_url().starts_with("http://127.0.0.1:"));
//! // … run `claude -p …` with ANTHROPIC_BASE_URL = server.base_url(), then:
//! let context_reached_the_model = server.requests().iter().any(|r| r.contains("my-injected-context"));
//! assert!(!context_reached_the_model); // no agent ran in this example
//! # Ok::<(), std::io::Error>(())
//! ```

mod anthropic;
mod gemini;
mod http;
mod openai_chat;
mod openai_responses;

use std::borrow::Cow;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long a server lives when no lifetime is given: it stops by itself after this.
pub const DEFAULT_LIFETIME: Duration = Duration::from_secs(600);

/// How long one connection may take, from accept to the last byte of the response.
const CONNECTION_DEADLINE: Duration = Duration::from_secs(120);

/// The model API a [`FakeModel`] speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Api {
    /// Anthropic Messages (`/v1/messages`, SSE when `stream: true`).
    AnthropicMessages,
    /// OpenAI Responses (`/v1/responses`, SSE).
    OpenAiResponses,
    /// Gemini `generateContent` and `streamGenerateContent?alt=sse`.
    Gemini,
    /// OpenAI Chat Completions (`/v1/chat/completions`, SSE when `stream: true`).
    OpenAiChat,
}

impl Api {
    /// A short name (`anthropic-messages`, `openai-responses`, `gemini`, `openai-chat`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::AnthropicMessages => "anthropic-messages",
            Self::OpenAiResponses => "openai-responses",
            Self::Gemini => "gemini",
            Self::OpenAiChat => "openai-chat",
        }
    }
}

impl std::fmt::Display for Api {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One scripted model turn.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Turn {
    /// Call a tool with these arguments (an object; sent as the API's tool-call shape).
    ToolCall {
        /// The tool name exactly as the agent declares it (`Bash`, `exec_command`,
        /// `run_shell_command`, `bash`, …).
        name: String,
        /// The arguments.
        args: Value,
    },
    /// Answer with text and end the turn.
    Text(String),
    /// Call the first tool the request declares whose name contains `contains` (an MCP tool,
    /// whose name each agent mangles its own way: `mcp__shop_db__lookup_order`,
    /// `shop_db__lookup_order`, …). Served as a [`Turn::ToolCall`] of that name; when no
    /// declared tool matches, of `contains` itself.
    ToolCallMatching {
        /// The part of the tool name to look for.
        contains: String,
        /// The arguments.
        args: Value,
    },
    /// Call a tool declared inside a tool namespace (OpenAI Responses `{"type": "namespace",
    /// "name": "mcp__shop_db", "tools": [...]}`, how Codex offers MCP tools): sent with the
    /// namespace beside the name. What a [`Turn::ToolCallMatching`] becomes when the matching
    /// tool is namespaced; other APIs send `<namespace><name>`.
    NamespacedToolCall {
        /// The namespace.
        namespace: String,
        /// The tool's name inside it.
        name: String,
        /// The arguments.
        args: Value,
    },
}

impl Turn {
    /// A tool call.
    pub fn tool_call(name: impl Into<String>, args: Value) -> Self {
        Self::ToolCall {
            name: name.into(),
            args,
        }
    }

    /// A tool call whose arguments are this JSON text, sent verbatim where the API carries the
    /// arguments as text (Anthropic's streamed `input_json_delta`, OpenAI's `arguments`): what a
    /// model can write and a `serde_json::Value` cannot hold, such as a lone surrogate escape
    /// (`"\ud800"`). Where the API carries an object (Gemini's `args`, Anthropic's non-streamed
    /// `input`), its tolerant parse is sent (a lone surrogate as U+FFFD).
    ///
    /// ```
    /// use agenthooks_testkit::model::Turn;
    /// let t = Turn::tool_call_text("Bash", r#"{"command":"ls","description":"\ud800"}"#);
    /// assert!(matches!(t, Turn::ToolCall { .. }));
    /// ```
    pub fn tool_call_text(name: impl Into<String>, text: impl Into<String>) -> Self {
        let mut args = serde_json::Map::new();
        args.insert(RAW_ARGUMENTS.to_owned(), Value::String(text.into()));
        Self::ToolCall {
            name: name.into(),
            args: Value::Object(args),
        }
    }

    /// A final text answer.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    /// A call of the declared tool whose name contains `contains` ([`Turn::ToolCallMatching`]).
    ///
    /// ```
    /// use agenthooks_testkit::model::{Script, Turn};
    /// use serde_json::json;
    ///
    /// let script = Script::new([
    ///     Turn::tool_call_matching("lookup_order", json!({"order_id": "A-1"})),
    ///     Turn::text("done"),
    /// ]);
    /// assert_eq!(script.turns().len(), 2);
    /// ```
    pub fn tool_call_matching(contains: impl Into<String>, args: Value) -> Self {
        Self::ToolCallMatching {
            contains: contains.into(),
            args,
        }
    }

    /// This turn with a [`Turn::ToolCallMatching`] made a call of the first tool in `declared`
    /// whose name contains the needle (else of the needle itself): a [`Turn::ToolCall`], or a
    /// [`Turn::NamespacedToolCall`] for a tool inside a namespace.
    fn resolved(self, declared: &[Declared]) -> Self {
        match self {
            Self::ToolCallMatching { contains, args } => {
                match declared.iter().find(|d| d.name.contains(contains.as_str())) {
                    Some(Declared {
                        namespace: Some(ns),
                        name,
                    }) => Self::NamespacedToolCall {
                        namespace: ns.clone(),
                        name: name.clone(),
                        args,
                    },
                    Some(d) => Self::ToolCall {
                        name: d.name.clone(),
                        args,
                    },
                    None => Self::ToolCall { name: contains, args },
                }
            }
            other => other,
        }
    }
}

/// A turn as the APIs without tool namespaces send it: a call of one flat name, or text.
enum Flat<'a> {
    Call(std::borrow::Cow<'a, str>, &'a Value),
    Text(&'a str),
}

impl Turn {
    /// The turn as a flat call or text: a namespaced call is named `<namespace><name>`; an
    /// unresolved matching call by its needle.
    fn flat(&self) -> Flat<'_> {
        match self {
            Self::ToolCall { name, args } | Self::ToolCallMatching { contains: name, args } => {
                Flat::Call(std::borrow::Cow::Borrowed(name), args)
            }
            Self::NamespacedToolCall { namespace, name, args } => {
                Flat::Call(std::borrow::Cow::Owned(format!("{namespace}{name}")), args)
            }
            Self::Text(t) => Flat::Text(t),
        }
    }
}

/// A scripted conversation: the turns, in order, and the model name reported back.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    turns: Vec<Turn>,
    model: String,
    side_text: String,
}

impl Script {
    /// A script of these turns. An empty script answers every request with `"ok"`.
    pub fn new(turns: impl IntoIterator<Item = Turn>) -> Self {
        Self {
            turns: turns.into_iter().collect(),
            model: "fake-model".to_owned(),
            side_text: "ok".to_owned(),
        }
    }

    /// The usual two-turn script: call `tool` with `args`, then answer `text`.
    pub fn tool_then_text(tool: impl Into<String>, args: Value, text: impl Into<String>) -> Self {
        Self::new([Turn::tool_call(tool, args), Turn::text(text)])
    }

    /// The model name used in responses and in `GET /v1/models` (default `fake-model`).
    #[must_use]
    pub fn with_model(mut self, model: impl Into<String>) -> Self {
        self.model = model.into();
        self
    }

    /// The text answered to side requests (requests that declare no tools; default `ok`).
    #[must_use]
    pub fn with_side_text(mut self, text: impl Into<String>) -> Self {
        self.side_text = text.into();
        self
    }

    /// The turns.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The model name.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The turn answered when the history holds `assistant_turns` assistant turns: that index,
    /// or the last turn once the script has run out. `None` for an empty script.
    pub fn turn_at(&self, assistant_turns: usize) -> Option<(usize, &Turn)> {
        let i = assistant_turns.min(self.turns.len().checked_sub(1)?);
        self.turns.get(i).map(|t| (i, t))
    }

    /// What a request gets, given its history position, whether it is a side request and the
    /// tool names it declares.
    fn reply(&self, assistant_turns: usize, side: bool, declared: &[Declared]) -> (Served, Turn) {
        if side {
            return (Served::Side, Turn::Text(self.side_text.clone()));
        }
        match self.turn_at(assistant_turns) {
            Some((i, t)) => (Served::Turn(i), t.clone().resolved(declared)),
            None => (Served::Side, Turn::Text(self.side_text.clone())),
        }
    }
}

/// What the server answered to a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Served {
    /// The script's turn at this index.
    Turn(usize),
    /// A side request (no tools declared, or structured output): plain text or a schema value.
    Side,
    /// Not a model call (`HEAD /`, a model list, token counting): answered with this status.
    Meta(u16),
    /// Rejected with this status (unknown path, malformed request or body).
    Error(u16),
}

/// One request as the server received it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RecordedRequest {
    /// Arrival order, from 0.
    pub seq: usize,
    /// The method.
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query string, without `?`.
    pub query: Option<String>,
    /// Headers in arrival order.
    pub headers: Vec<(String, String)>,
    /// The body (de-chunked, otherwise as sent).
    pub body: Vec<u8>,
    /// What the server answered.
    pub served: Served,
    /// When it arrived.
    pub at: Instant,
}

impl RecordedRequest {
    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON, if it is JSON.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// The body as text (lossy).
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.body)
    }

    /// Whether the body contains `needle`, either verbatim or as it reads inside a JSON string
    /// (quotes, backslashes and control characters escaped).
    pub fn contains(&self, needle: &str) -> bool {
        let text = self.text();
        if text.contains(needle) {
            return true;
        }
        let escaped = serde_json::to_string(needle).unwrap_or_default();
        let inner = escaped.get(1..escaped.len().saturating_sub(1)).unwrap_or_default();
        !inner.is_empty() && text.contains(inner)
    }

    /// Whether this request was answered with a scripted turn.
    pub fn is_turn(&self) -> bool {
        matches!(self.served, Served::Turn(_))
    }
}

struct Shared {
    api: Api,
    script: Script,
    requests: Mutex<Vec<RecordedRequest>>,
    seq: AtomicUsize,
    stop: AtomicBool,
    deadline: Instant,
    workers: Mutex<Vec<JoinHandle<()>>>,
}

impl Shared {
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst) || Instant::now() >= self.deadline
    }
}

/// A running fake model server. Dropping it stops the server and joins its threads.
pub struct FakeModel {
    addr: SocketAddr,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for FakeModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeModel")
            .field("api", &self.shared.api)
            .field("addr", &self.addr)
            .field("requests", &self.request_count())
            .finish_non_exhaustive()
    }
}

impl FakeModel {
    /// Starts a server for `api` answering from `script`, on `127.0.0.1` at a free port, for at
    /// most [`DEFAULT_LIFETIME`].
    pub fn start(api: Api, script: Script) -> std::io::Result<Self> {
        Self::start_with_lifetime(api, script, DEFAULT_LIFETIME)
    }

    /// [`FakeModel::start`] with a bounded lifetime: after `lifetime` the server stops
    /// accepting and closes its connections even if it is never dropped.
    pub fn start_with_lifetime(api: Api, script: Script, lifetime: Duration) -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            api,
            script,
            requests: Mutex::new(Vec::new()),
            seq: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            deadline: Instant::now() + lifetime,
            workers: Mutex::new(Vec::new()),
        });
        let s = Arc::clone(&shared);
        let acceptor = std::thread::Builder::new()
            .name(format!("fake-model-{api}"))
            .spawn(move || accept_loop(&listener, &s))?;
        Ok(Self {
            addr,
            shared,
            acceptor: Some(acceptor),
        })
    }

    /// The API spoken.
    pub fn api(&self) -> Api {
        self.shared.api
    }

    /// The script.
    pub fn script(&self) -> &Script {
        &self.shared.script
    }

    /// The bound address (always `127.0.0.1`).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:<port>` (no trailing slash, no `/v1`).
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Whether the server still accepts connections.
    pub fn is_running(&self) -> bool {
        !self.shared.stopping()
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        let mut v = self
            .shared
            .requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        v.sort_by_key(|r| r.seq);
        v
    }

    /// How many requests arrived.
    pub fn request_count(&self) -> usize {
        self.shared
            .requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// The requests answered with a scripted turn (the agent's real model calls).
    pub fn turn_requests(&self) -> Vec<RecordedRequest> {
        self.requests().into_iter().filter(RecordedRequest::is_turn).collect()
    }

    /// Whether any request body contains `needle` (see [`RecordedRequest::contains`]).
    pub fn any_request_contains(&self, needle: &str) -> bool {
        self.requests().iter().any(|r| r.contains(needle))
    }

    /// Stops the server and joins its threads (also done on drop). Idempotent.
    pub fn shutdown(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.acceptor.take() {
            let _ = h.join();
        }
        let workers: Vec<JoinHandle<()>> =
            std::mem::take(&mut *self.shared.workers.lock().unwrap_or_else(PoisonError::into_inner));
        for w in workers {
            let _ = w.join();
        }
    }
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    while !shared.stopping() {
        match listener.accept() {
            Ok((stream, peer)) => {
                if !peer.ip().is_loopback() {
                    continue;
                }
                let s = Arc::clone(shared);
                let spawned = std::thread::Builder::new()
                    .name("fake-model-conn".into())
                    .spawn(move || serve_connection(stream, &s));
                if let Ok(h) = spawned {
                    let mut workers = shared.workers.lock().unwrap_or_else(PoisonError::into_inner);
                    workers.retain(|w| !w.is_finished());
                    workers.push(h);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

fn serve_connection(mut stream: TcpStream, shared: &Arc<Shared>) {
    let stop = || shared.stopping();
    let Ok(mut conn) = http::Conn::new(&mut stream, &stop, Instant::now() + CONNECTION_DEADLINE) else {
        return;
    };
    let req = match conn.read_request() {
        Ok(r) => r,
        Err(http::HttpError::Bad(msg)) => {
            let _ = conn.write_response(&http::Response::error(400, &msg), false);
            return;
        }
        Err(_) => return,
    };
    let seq = shared.seq.fetch_add(1, Ordering::SeqCst);
    let (resp, served) = route(shared.api, &req, &shared.script, seq);
    let record = RecordedRequest {
        seq,
        method: req.method.clone(),
        path: req.path.clone(),
        query: req.query.clone(),
        headers: req.headers.clone(),
        body: req.body,
        served,
        at: Instant::now(),
    };
    shared
        .requests
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(record);
    let _ = conn.write_response(&resp, req.method == "HEAD");
}

/// Dispatches by API, with the answers every API shares.
fn route(api: Api, req: &http::Request, script: &Script, seq: usize) -> (http::Response, Served) {
    if req.method == "HEAD" || (req.method == "GET" && req.path == "/") {
        return (http::Response::json(200, &serde_json::json!({})), Served::Meta(200));
    }
    if req.method == "GET" && (req.path == "/v1/models" || req.path == "/models") {
        let list = serde_json::json!({
            "object": "list",
            "data": [{"id": script.model(), "object": "model", "created": 0, "owned_by": "fake"}],
            "models": [],
        });
        return (http::Response::json(200, &list), Served::Meta(200));
    }
    match api {
        Api::AnthropicMessages => anthropic::respond(req, script, seq),
        Api::OpenAiResponses => openai_responses::respond(req, script, seq),
        Api::Gemini => gemini::respond(req, script, seq),
        Api::OpenAiChat => openai_chat::respond(req, script, seq),
    }
}

/// Parses a POST body as a JSON object, or answers 400.
fn json_body(req: &http::Request) -> Result<serde_json::Map<String, Value>, (http::Response, Served)> {
    if req.method != "POST" {
        return Err((
            http::Response::error(405, "only POST is served here"),
            Served::Error(405),
        ));
    }
    match serde_json::from_slice::<Value>(&req.body) {
        Ok(Value::Object(m)) => Ok(m),
        _ => {
            let enc = req.header("content-encoding").unwrap_or("identity");
            Err((
                http::Response::error(400, &format!("body is not a JSON object (content-encoding {enc})")),
                Served::Error(400),
            ))
        }
    }
}

/// A 404 for paths an API does not serve.
/// A conversation request of an API module: on one of `paths`, a JSON object body. Gives the
/// body, what the script serves for it (`assistant_turns` counts the history position) and the
/// model the request names; or the error response to send.
fn conversation(
    req: &http::Request,
    script: &Script,
    paths: &[&str],
    assistant_turns: fn(&serde_json::Map<String, Value>) -> usize,
) -> Result<Conversation, (http::Response, Served)> {
    if !paths.contains(&req.path.as_str()) {
        return Err(not_found(req));
    }
    let body = json_body(req)?;
    let (served, turn) = script.reply(assistant_turns(&body), !declares_tools(&body), &declared_tools(&body));
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .map_or_else(|| script.model().to_owned(), str::to_owned);
    Ok(Conversation {
        body,
        served,
        turn,
        model,
    })
}

/// A conversation request, read ([`conversation`]).
struct Conversation {
    body: serde_json::Map<String, Value>,
    served: Served,
    turn: Turn,
    model: String,
}

fn not_found(req: &http::Request) -> (http::Response, Served) {
    (
        http::Response::error(404, &format!("fake model: no route for {} {}", req.method, req.path)),
        Served::Error(404),
    )
}

/// Whether a request declares tools (`tools` is a non-empty array). Requests without tools are
/// side requests.
fn declares_tools(body: &serde_json::Map<String, Value>) -> bool {
    body.get("tools")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
}

/// A tool a request declares: its name, and the namespace it is declared in.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Declared {
    namespace: Option<String>,
    name: String,
}

/// The tools a request declares, in order, in any of the APIs' shapes: `tools[].name`
/// (Anthropic, OpenAI Responses), `tools[].function.name` (Chat Completions),
/// `tools[].functionDeclarations[].name` (Gemini), and the tools of a Responses namespace
/// (`{"type": "namespace", "name": …, "tools": [...]}`).
fn declared_tools(body: &serde_json::Map<String, Value>) -> Vec<Declared> {
    let mut out = Vec::new();
    let name_of = |v: &Value| v.get("name").and_then(Value::as_str).map(str::to_owned);
    for t in body.get("tools").and_then(Value::as_array).into_iter().flatten() {
        if t.get("type").and_then(Value::as_str) == Some("namespace") {
            let ns = name_of(t);
            for d in t.get("tools").and_then(Value::as_array).into_iter().flatten() {
                out.extend(name_of(d).map(|name| Declared {
                    namespace: ns.clone(),
                    name,
                }));
            }
            continue;
        }
        let direct = name_of(t).or_else(|| t.get("function").and_then(name_of));
        out.extend(direct.map(|name| Declared { namespace: None, name }));
        for d in t
            .get("functionDeclarations")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.extend(name_of(d).map(|name| Declared { namespace: None, name }));
        }
    }
    out
}

/// The one key of the arguments of a [`Turn::tool_call_text`]: its value is the JSON text.
const RAW_ARGUMENTS: &str = "$agenthooks_testkit_arguments_text";

/// The text of a [`Turn::tool_call_text`]'s arguments.
fn raw_arguments(args: &Value) -> Option<&str> {
    let m = args.as_object()?;
    if m.len() != 1 {
        return None;
    }
    m.get(RAW_ARGUMENTS)?.as_str()
}

/// Tool-call arguments as the JSON text most APIs carry (a [`Turn::tool_call_text`]'s verbatim).
fn args_text(args: &Value) -> String {
    if let Some(text) = raw_arguments(args) {
        return text.to_owned();
    }
    serde_json::to_string(args).unwrap_or_else(|_| "{}".to_owned())
}

/// Tool-call arguments as an object, for the APIs that carry one (a [`Turn::tool_call_text`]'s
/// text read tolerantly).
fn args_value(args: &Value) -> Value {
    match raw_arguments(args) {
        Some(text) => agenthooks_core::kit::tolerant::parse(text).map_or(Value::Null, |(v, _)| v),
        None => args.clone(),
    }
}

#[cfg(test)]
mod tests;
