//! Warm mode: `agenthooks serve --http`, a loopback HTTP/1.1 server that answers agents'
//! `http` hooks (Claude Code `type: "http"`, Copilot CLI `type: "http"` since 1.0.35) through
//! the same pipeline, and with the same wire body, as the command hook.
//!
//! ## Routes
//!
//! - `POST /v1/hook/<provider>/<event>[?timeout=SECS&variant=V&tools=SPEC&build=ID]` answers one
//!   event: the path carries what `run --provider/--event` carry, the query what `--timeout`,
//!   `--variant` and `--tools` carry (percent-encoded). The body is the payload the command
//!   hook reads on stdin. The answer is [`Runner::respond`]'s — the command path's pipeline —
//!   passed through the codec's [`http_response`](agenthooks_core::Codec::http_response): exit 0 is
//!   `200` with stdout as the body (`{}` when stdout is empty: both http dialects read it as no
//!   opinion), any other exit code is `500` with stderr (the agent's "hook failed" path, which
//!   its `onFailure` decides). `build=ID` names the build the config was written for: a server
//!   of another build answers `409` and stays up (only `/v1/retire` stops it). A `SessionEnd`
//!   (`sessionEnd`) event also closes its session (the payload's `session_id`/`sessionId`).
//! - `POST /v1/ping` answers `{"agenthooks": "pong", "version", "build", "pid", "port"}`, and
//!   with an [`X-Agenthooks-Nonce`](super::warm_state::NONCE_HEADER) of 16 to 128 hex digits
//!   also `"proof"`: [`proof`](super::warm_state::proof)`(token, nonce, build)`. It needs no
//!   credential: it is how a client checks that this listener is its server before it sends the
//!   token ([`WarmDir::probe`](super::warm_state::WarmDir::probe)).
//! - `POST /v1/retire` `{"build": ID}` (the token only): the server exits when `ID` is at least
//!   as new as its own build ([`build_at_least`](super::warm_state::build_at_least)), else `409`.
//! - `POST /v1/session/start` and `/v1/session/end` `{"session": ID}` (the token only): the
//!   server does not exit on idle while a registered session is open (see [`WarmConfig`]).
//!
//! ## Credentials
//!
//! The hook routes take the token or its [`bearer`](super::warm_state::bearer) (what install
//! writes into the agents' configs); retiring and sessions take the token itself, so a reader
//! of a config can call the hooks but neither stop the server nor prove to be it. Both are sent
//! as `Authorization: Bearer …` or [`TOKEN_HEADER`] and compared in constant time.
//!
//! ## Refusals (each closes the connection, right after the head)
//!
//! In this order: a method other than `POST` — `OPTIONS` included, and no CORS header is ever
//! sent — `405`; a `Host` header that is missing or not a loopback name (`127.0.0.1`,
//! `localhost`, `[::1]`, with this server's port if a port is given: DNS rebinding) `403`; a
//! missing or wrong credential `401`; an unknown route `404`; no `Content-Length` (chunked
//! bodies are not accepted) `411`; a body over the cap ([`HTTP_BODY_CAP`], refused from the
//! header, before reading it) `413`; a request head over [`HEAD_CAP`] `431`, or not complete
//! within [`HEAD_DEADLINE`] of its first byte `408`.
//!
//! ## Connections
//!
//! Thread per connection (agents run hooks in parallel, each on its own connection), up to
//! [`MAX_CONNECTIONS`] open: at the limit a new connection closes the one that has waited
//! longest for a request head, so idle sockets never keep a hook out; only when every
//! connection is inside a request is the new one answered `503`. A new connection must send
//! its first head within [`HEAD_DEADLINE`]; HTTP/1.1 keep-alive (an idle connection is closed
//! after [`KEEP_ALIVE_IDLE`]); `Expect: 100-continue` is answered. Each event gets the
//! pipeline's deadline ([`deadline_budget`](super::deadline_budget) of the route's `timeout`,
//! else the codec's default): a handler still running at it is abandoned and the request
//! answered per policy. Requests are logged (method, route, status, duration) without their
//! bodies unless [`WarmConfig::log_bodies`] (`AGENTHOOKS_WARM_LOG_BODIES=1`).
//!
//! ## Lifetime
//!
//! The server exits when no request is being answered, no registered session is open (a
//! session counts for [`WarmConfig::session_max`] after it last registered) and no request
//! came for [`WarmConfig::idle_exit`]; or when retired, or stopped ([`StopHandle`]).
//!
//! The server holds no per-event state besides the pipeline's own (the continuation store on
//! disk); what a hook keeps across events is the consumer's (its router lives for the server's
//! life).

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::codec::{Env, WireResponse};

use super::args::{Command, Mode};
use super::http1;
use super::Runner;

/// The largest request body the server reads, in bytes: the runner's stdin cap
/// ([`DEFAULT_STDIN_CAP`](super::DEFAULT_STDIN_CAP), 32 MiB), so a payload the command hook
/// would read is one the server reads. A larger `Content-Length` is refused with `413` before
/// any of the body is read. Set per server with [`WarmConfig::body_cap`].
pub const HTTP_BODY_CAP: usize = super::DEFAULT_STDIN_CAP;
/// The largest request head (request line and headers), in bytes; a larger head gets `431`.
pub const HEAD_CAP: usize = 16 << 10;
/// The most connections open at once. At the limit a new connection closes the one that has
/// waited longest for a request head (idle sockets never hold the hooks out); only when every
/// connection is inside a request is the new one answered `503` and closed.
pub const MAX_CONNECTIONS: usize = 512;
/// How long a kept-alive connection may sit idle between requests before the server closes it.
pub const KEEP_ALIVE_IDLE: Duration = Duration::from_secs(60);
/// How long a new connection may take to send its whole first request head (agents send it at
/// once), and any connection to finish a head it started: past it the connection is closed.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(2);
/// How long a client may take to send a request body once its head was accepted.
pub const REQUEST_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The grace period: how long the server runs with no request and no open session before it
/// exits (the next session-start or prompt hook starts it again).
pub const IDLE_EXIT: Duration = Duration::from_secs(30 * 60);
/// How long a registered session counts as open after it last registered (its session start
/// or a prompt): the bound for sessions that never send their end.
pub const SESSION_MAX: Duration = Duration::from_secs(12 * 60 * 60);
/// The most sessions tracked at once (the oldest is dropped beyond it).
const MAX_SESSIONS: usize = 4096;
/// The header that carries the token when `Authorization: Bearer` is not used.
pub const TOKEN_HEADER: &str = "x-agenthooks-token";

/// How often blocked reads wake to check the stop flag and idle limits.
const POLL: Duration = Duration::from_millis(250);

/// A warm server's settings.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct WarmConfig {
    /// The token: `/v1/retire` and `/v1/session/*` carry it; the hook routes carry it or its
    /// [`bearer`](super::warm_state::bearer); the ping's proof is keyed by it.
    pub token: String,
    /// This build's id ([`build_id`](super::warm_state::build_id)); a hook route naming another
    /// build is refused (`409`).
    pub build: String,
    /// The body cap ([`HTTP_BODY_CAP`]).
    pub body_cap: usize,
    /// Exit after this long without a request while no session is open (`None`: never).
    pub idle_exit: Option<Duration>,
    /// How long a registered session counts as open after it last registered.
    pub session_max: Duration,
    /// Log request bodies (at debug level).
    pub log_bodies: bool,
    /// The most connections served at once ([`MAX_CONNECTIONS`]).
    pub max_connections: usize,
}

impl WarmConfig {
    /// Settings with `token` and `build`, every limit at its default.
    pub fn new(token: impl Into<String>, build: impl Into<String>) -> Self {
        Self {
            token: token.into(),
            build: build.into(),
            body_cap: HTTP_BODY_CAP,
            idle_exit: Some(IDLE_EXIT),
            session_max: SESSION_MAX,
            log_bodies: false,
            max_connections: MAX_CONNECTIONS,
        }
    }
}

crate::setters! {
    impl WarmConfig {
        /// Sets the body cap.
        with_body_cap(body_cap: usize);
        /// Sets the idle exit.
        with_idle_exit(idle_exit: Option<Duration>);
        /// Sets the bound of a session that never ends.
        with_session_max(session_max: Duration);
        /// Sets body logging.
        with_log_bodies(log_bodies: bool);
        /// Sets the connection limit.
        with_max_connections(max_connections: usize);
    }
}

/// Why a warm server stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stopped {
    /// No request for [`WarmConfig::idle_exit`] and no open session.
    Idle,
    /// `POST /v1/retire` with the token and a build at least as new as this server's.
    Retired,
    /// [`StopHandle::stop`] was called.
    Requested,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WarmError {
    /// The address is not a loopback address.
    #[error("warm mode listens on loopback only, not {0}")]
    NotLoopback(IpAddr),
    /// The token is empty.
    #[error("warm mode needs a non-empty token")]
    NoToken,
    /// Binding or reading the socket failed.
    #[error("warm server socket: {0}")]
    Io(#[from] io::Error),
}

#[derive(Debug)]
struct Shared {
    stop: AtomicBool,
    reason: Mutex<Option<Stopped>>,
    last_request: Mutex<Instant>,
    /// Open connections.
    active: AtomicUsize,
    /// Requests being answered.
    busy: AtomicUsize,
    /// Connections waiting for a request head, by accept order (the oldest is closed first
    /// when the connection limit is reached).
    waiting: Mutex<BTreeMap<u64, TcpStream>>,
    next_conn: AtomicU64,
    /// Open sessions: id → when it last registered.
    sessions: Mutex<HashMap<String, Instant>>,
    addr: SocketAddr,
}

impl Shared {
    fn stop(&self, why: Stopped) {
        if let Ok(mut r) = self.reason.lock() {
            r.get_or_insert(why);
        }
        if !self.stop.swap(true, Ordering::SeqCst) {
            // Wake the accept loop.
            let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        }
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    fn touch(&self) {
        if let Ok(mut t) = self.last_request.lock() {
            *t = Instant::now();
        }
    }

    fn idle_for(&self) -> Duration {
        self.last_request.lock().map(|t| t.elapsed()).unwrap_or_default()
    }

    fn wait_begin(&self, id: u64, stream: &TcpStream) {
        if let (Ok(mut w), Ok(clone)) = (self.waiting.lock(), stream.try_clone()) {
            w.insert(id, clone);
        }
    }

    fn wait_end(&self, id: u64) {
        if let Ok(mut w) = self.waiting.lock() {
            w.remove(&id);
        }
    }

    /// Closes the connection that has waited longest for a request head; whether there was one.
    fn evict_oldest(&self) -> bool {
        let oldest = self.waiting.lock().ok().and_then(|mut w| w.pop_first());
        match oldest {
            Some((_, s)) => {
                let _ = s.shutdown(Shutdown::Both);
                true
            }
            None => false,
        }
    }

    fn session_start(&self, id: &str) {
        if let Ok(mut s) = self.sessions.lock() {
            if s.len() >= MAX_SESSIONS && !s.contains_key(id) {
                let oldest = s.iter().min_by_key(|(_, t)| **t).map(|(k, _)| k.clone());
                if let Some(k) = oldest {
                    s.remove(&k);
                }
            }
            s.insert(id.to_owned(), Instant::now());
        }
    }

    fn session_end(&self, id: &str) {
        if let Ok(mut s) = self.sessions.lock() {
            s.remove(id);
        }
    }

    /// The sessions still open (those past `max` are dropped).
    fn open_sessions(&self, max: Duration) -> usize {
        self.sessions.lock().map_or(0, |mut s| {
            s.retain(|_, t| t.elapsed() < max);
            s.len()
        })
    }
}

/// Stops a running [`WarmServer`] from another thread.
#[derive(Debug, Clone)]
pub struct StopHandle(Arc<Shared>);

impl StopHandle {
    /// Stops the server: it stops accepting, and [`WarmServer::serve`] returns once open
    /// connections finish their current request.
    pub fn stop(&self) {
        self.0.stop(Stopped::Requested);
    }
}

/// A bound warm server (see the module docs).
#[derive(Debug)]
pub struct WarmServer {
    listener: TcpListener,
    config: WarmConfig,
    /// The token's [`bearer`](super::warm_state::bearer) (what the hook configs carry).
    bearer: String,
    shared: Arc<Shared>,
}

impl WarmServer {
    /// Binds `127.0.0.1:port` (`0`: a port the system picks; read it with [`Self::port`]).
    pub fn bind(port: u16, config: WarmConfig) -> Result<Self, WarmError> {
        Self::bind_addr(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port), config)
    }

    /// Binds `addr`, which must be a loopback address.
    pub fn bind_addr(addr: SocketAddr, config: WarmConfig) -> Result<Self, WarmError> {
        if !addr.ip().is_loopback() {
            return Err(WarmError::NotLoopback(addr.ip()));
        }
        if config.token.is_empty() {
            return Err(WarmError::NoToken);
        }
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        Ok(Self {
            listener,
            bearer: super::warm_state::bearer(&config.token),
            config,
            shared: Arc::new(Shared {
                stop: AtomicBool::new(false),
                reason: Mutex::new(None),
                last_request: Mutex::new(Instant::now()),
                active: AtomicUsize::new(0),
                busy: AtomicUsize::new(0),
                waiting: Mutex::new(BTreeMap::new()),
                next_conn: AtomicU64::new(0),
                sessions: Mutex::new(HashMap::new()),
                addr,
            }),
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.shared.addr.port()
    }

    /// A handle that stops the server.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.shared))
    }

    /// The sessions the server counts as open (registered, not ended, within
    /// [`WarmConfig::session_max`]).
    pub fn open_sessions(&self) -> usize {
        self.shared.open_sessions(self.config.session_max)
    }

    /// Serves until stopped (idle, retired, or [`StopHandle::stop`]); returns why.
    /// `env` is what the pipeline reads as the environment.
    pub fn serve(&self, runner: &Runner, env: &dyn Env) -> Stopped {
        let shared = &self.shared;
        std::thread::scope(|scope| {
            if let Some(idle) = self.config.idle_exit {
                let session_max = self.config.session_max;
                let spawned = std::thread::Builder::new()
                    .name("agenthooks-warm-idle".into())
                    .spawn_scoped(scope, move || {
                        while !shared.stopping() {
                            std::thread::sleep(POLL.min(idle));
                            if shared.busy.load(Ordering::SeqCst) == 0
                                && shared.open_sessions(session_max) == 0
                                && shared.idle_for() >= idle
                            {
                                tracing::info!(idle = ?idle, "warm server idle with no open session; exiting");
                                shared.stop(Stopped::Idle);
                            }
                        }
                    });
                if let Err(e) = spawned {
                    tracing::error!(error = %e, "warm server: no idle-exit thread (it runs until stopped)");
                }
            }
            for conn in self.listener.incoming() {
                if shared.stopping() {
                    break;
                }
                let Ok(mut stream) = conn else { continue };
                if shared.active.load(Ordering::SeqCst) >= self.config.max_connections && !shared.evict_oldest() {
                    tracing::warn!(
                        limit = self.config.max_connections,
                        "warm server: every connection is inside a request"
                    );
                    let _ = stream.set_write_timeout(Some(POLL));
                    let _ = write_response(&mut stream, &Reply::refusal(503, "too many connections"), false);
                    continue;
                }
                shared.active.fetch_add(1, Ordering::SeqCst);
                let id = shared.next_conn.fetch_add(1, Ordering::SeqCst);
                let spawned = std::thread::Builder::new()
                    .name("agenthooks-warm-conn".into())
                    .spawn_scoped(scope, move || {
                        Connection {
                            server: self,
                            runner,
                            env,
                            id,
                        }
                        .run(stream);
                        shared.active.fetch_sub(1, Ordering::SeqCst);
                    });
                if let Err(e) = spawned {
                    shared.active.fetch_sub(1, Ordering::SeqCst);
                    tracing::error!(error = %e, "warm server: could not start a connection thread");
                }
            }
        });
        self.shared
            .reason
            .lock()
            .ok()
            .and_then(|r| *r)
            .unwrap_or(Stopped::Requested)
    }
}

/// `serve --http` over the process: reads the token from the warm directory, binds `port`
/// (else the port install recorded, else one the system picks), records itself (pid, port,
/// build, executable) in `server.json`, releases the start lock, serves until it stops, and
/// removes its record. `AGENTHOOKS_WARM_LOG_BODIES=1` logs bodies; `AGENTHOOKS_WARM_IDLE_SECS`
/// sets the grace period after the last session (`0`: never exit; default [`IDLE_EXIT`]);
/// `AGENTHOOKS_WARM_SESSION_SECS` the bound of a session that never ends (default
/// [`SESSION_MAX`]).
pub fn serve_process(runner: &Runner, port: Option<u16>, env: &dyn Env) -> Result<Stopped, WarmError> {
    use super::warm_state as st;
    let dir = st::WarmDir::current(env);
    let token = dir.token().map_err(|e| {
        dir.release_lock();
        WarmError::Io(io::Error::new(
            e.kind(),
            format!(
                "no warm token in {} (install with --warm first): {e}",
                dir.path().display()
            ),
        ))
    })?;
    let idle = match env.var("AGENTHOOKS_WARM_IDLE_SECS").and_then(|s| s.parse::<u64>().ok()) {
        Some(0) => None,
        Some(s) => Some(Duration::from_secs(s)),
        None => Some(IDLE_EXIT),
    };
    let session_max = env
        .var("AGENTHOOKS_WARM_SESSION_SECS")
        .and_then(|s| s.parse::<u64>().ok())
        .filter(|s| *s > 0)
        .map_or(SESSION_MAX, Duration::from_secs);
    let build = st::build_id();
    let config = WarmConfig::new(token, build.clone())
        .with_log_bodies(env.var("AGENTHOOKS_WARM_LOG_BODIES").as_deref() == Some("1"))
        .with_idle_exit(idle)
        .with_session_max(session_max);
    let port = port.or_else(|| dir.port()).unwrap_or(0);
    let server = match WarmServer::bind(port, config) {
        Ok(s) => s,
        Err(e) => {
            dir.release_lock();
            return Err(e);
        }
    };
    let pid = std::process::id();
    let mut record = st::ServerRecord::new(pid, server.port(), build);
    if let Ok(exe) = std::env::current_exe() {
        record = record.with_exe(exe.to_string_lossy());
    }
    if let Err(e) = dir.write_record(&record) {
        dir.release_lock();
        return Err(e.into());
    }
    dir.release_lock();
    tracing::info!(port = server.port(), pid, "warm server listening");
    let stopped = server.serve(runner, env);
    dir.remove_record(pid);
    Ok(stopped)
}

/// One request head, owned ([`http1`](super::http1)'s).
type Head = http1::RequestHead;

/// What the server sends back.
#[derive(Debug)]
struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    allow_post: bool,
}

impl Reply {
    fn json(status: u16, body: Vec<u8>) -> Self {
        Self {
            status,
            content_type: "application/json",
            body,
            allow_post: false,
        }
    }

    fn refusal(status: u16, message: &str) -> Self {
        Self {
            status,
            content_type: "text/plain; charset=utf-8",
            body: message.as_bytes().to_vec(),
            allow_post: status == 405,
        }
    }
}

fn write_response(stream: &mut TcpStream, reply: &Reply, keep_alive: bool) -> io::Result<()> {
    let mut headers = vec![("Content-Type", reply.content_type), ("Cache-Control", "no-store")];
    if reply.allow_post {
        headers.push(("Allow", "POST"));
    }
    http1::write_response(stream, reply.status, &headers, &reply.body, keep_alive, false)
}

/// The routes.
#[derive(Debug, PartialEq, Eq)]
enum Route {
    Ping,
    Retire,
    Session {
        start: bool,
    },
    Hook {
        provider: String,
        event: String,
        query: Vec<(String, String)>,
    },
}

impl Route {
    fn parse(target: &str) -> Option<Self> {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let query: Vec<(String, String)> = query
            .split('&')
            .filter(|p| !p.is_empty())
            .filter_map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                Some((percent_decode(k)?, percent_decode(v)?))
            })
            .collect();
        let parts: Vec<&str> = path.split('/').collect();
        match parts.as_slice() {
            ["", "v1", "ping"] => Some(Self::Ping),
            ["", "v1", "retire"] => Some(Self::Retire),
            ["", "v1", "session", "start"] => Some(Self::Session { start: true }),
            ["", "v1", "session", "end"] => Some(Self::Session { start: false }),
            ["", "v1", "hook", provider, event] if !provider.is_empty() && !event.is_empty() => Some(Self::Hook {
                provider: percent_decode(provider)?,
                event: percent_decode(event)?,
                query,
            }),
            _ => None,
        }
    }
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// A top-level string field of a JSON object body.
fn field(body: &[u8], name: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(body).ok()?;
    v.get(name)?.as_str().map(str::to_owned)
}

/// Constant-time token comparison: the digests of both are compared byte for byte without an
/// early exit, so neither the length nor a prefix of the token leaks through timing.
fn token_matches(given: &[u8], expected: &[u8]) -> bool {
    let a = Sha256::digest(given);
    let b = Sha256::digest(expected);
    a.iter().zip(b.iter()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `host` (a `Host` header) names this loopback server.
fn host_allowed(host: &str, port: u16) -> bool {
    let (name, given_port) = if let Some(rest) = host.strip_prefix('[') {
        let Some((name, after)) = rest.split_once(']') else {
            return false;
        };
        (format!("[{name}]"), after.strip_prefix(':'))
    } else {
        match host.split_once(':') {
            Some((n, p)) => (n.to_owned(), Some(p)),
            None => (host.to_owned(), None),
        }
    };
    let loopback = matches!(name.to_ascii_lowercase().as_str(), "127.0.0.1" | "localhost" | "[::1]");
    loopback && given_port.is_none_or(|p| p.parse::<u16>().ok() == Some(port))
}

/// How a request ended, for the connection loop.
enum Next {
    KeepAlive,
    Close,
}

struct Connection<'s> {
    server: &'s WarmServer,
    runner: &'s Runner,
    env: &'s dyn Env,
    id: u64,
}

impl Connection<'_> {
    fn run(&self, mut stream: TcpStream) {
        let shared = &self.server.shared;
        let _ = stream.set_nodelay(true);
        let _ = stream.set_read_timeout(Some(POLL));
        let _ = stream.set_write_timeout(Some(REQUEST_READ_TIMEOUT));
        let mut buf = Vec::new();
        let mut served = 0usize;
        loop {
            // Waiting for a head: the connection may be closed for a newer one at the limit.
            shared.wait_begin(self.id, &stream);
            let idle_limit = if served == 0 { HEAD_DEADLINE } else { KEEP_ALIVE_IDLE };
            let head = self.read_head(&mut stream, &mut buf, idle_limit);
            shared.wait_end(self.id);
            let head = match head {
                Ok(Some(h)) => h,
                Ok(None) => break,
                Err(status) => {
                    let _ = write_response(&mut stream, &Reply::refusal(status, http1::reason(status)), false);
                    break;
                }
            };
            served += 1;
            let started = Instant::now();
            shared.busy.fetch_add(1, Ordering::SeqCst);
            let (reply, next, route) = self.handle(&mut stream, &mut buf, &head);
            shared.busy.fetch_sub(1, Ordering::SeqCst);
            let keep = matches!(next, Next::KeepAlive) && head.keep_alive() && !self.server.shared.stopping();
            tracing::info!(
                method = %head.method,
                route = %route,
                status = reply.status,
                micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
                "warm request"
            );
            if write_response(&mut stream, &reply, keep).is_err() || !keep {
                break;
            }
        }
        let _ = stream.shutdown(Shutdown::Both);
    }

    /// Reads one request head into `buf` (leftover bytes stay for the body) within
    /// [`HEAD_DEADLINE`] of its first byte; no byte within `idle_limit` closes the connection.
    /// `Ok(None)`: the client closed, or the connection idled out; `Err(status)`: answer it and
    /// close.
    fn read_head(&self, stream: &mut TcpStream, buf: &mut Vec<u8>, idle_limit: Duration) -> Result<Option<Head>, u16> {
        let waiting = Instant::now();
        let mut started: Option<Instant> = (!buf.is_empty()).then(Instant::now);
        let mut chunk = [0u8; 4 << 10];
        loop {
            if !buf.is_empty() {
                let limits = http1::Limits {
                    head: HEAD_CAP,
                    headers: 64,
                };
                match http1::parse_request(buf, &limits) {
                    Ok(Some((head, n))) => {
                        buf.drain(..n);
                        return Ok(Some(head));
                    }
                    Ok(None) => {}
                    Err(http1::Error::HeadTooLarge(_) | http1::Error::TooManyHeaders(_)) => return Err(431),
                    Err(_) => return Err(400),
                }
            }
            match stream.read(&mut chunk) {
                Ok(0) => return Ok(None),
                Ok(n) => {
                    started.get_or_insert_with(Instant::now);
                    buf.extend_from_slice(&chunk[..n]);
                }
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                    let idle_out = self.server.shared.stopping() || waiting.elapsed() > idle_limit;
                    match started {
                        Some(s) if s.elapsed() > HEAD_DEADLINE => return Err(408),
                        None if idle_out => return Ok(None),
                        _ => {}
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return Ok(None),
            }
            if started.is_none() && waiting.elapsed() > idle_limit {
                return Ok(None);
            }
        }
    }

    /// Checks, reads the body and answers one request. Returns the reply, whether the
    /// connection may stay open, and the route for the log (the path without its query).
    fn handle(&self, stream: &mut TcpStream, buf: &mut Vec<u8>, head: &Head) -> (Reply, Next, String) {
        let path = head.target.split('?').next().unwrap_or("").to_owned();
        match self.checked(stream, buf, head) {
            Ok((route, body)) => {
                self.server.shared.touch();
                let (reply, next) = self.answer(route, head, body);
                (reply, next, path)
            }
            Err(reply) => (reply, Next::Close, path),
        }
    }

    /// The refusals, in the module docs' order, then the body.
    fn checked(&self, stream: &mut TcpStream, buf: &mut Vec<u8>, head: &Head) -> Result<(Route, Vec<u8>), Reply> {
        let cfg = &self.server.config;
        if head.method != "POST" {
            return Err(Reply::refusal(405, "only POST is served"));
        }
        match head.header_str("host") {
            Some(h) if host_allowed(h, self.server.port()) => {}
            _ => return Err(Reply::refusal(403, "the Host header must name this loopback server")),
        }
        let token = head
            .header_str("authorization")
            .and_then(|v| v.strip_prefix("Bearer "))
            .or_else(|| head.header_str(TOKEN_HEADER))
            .unwrap_or("")
            .trim()
            .as_bytes();
        let route = Route::parse(&head.target);
        // The ping is the challenge a client sends before it trusts this server with the
        // token: it needs none. The hook routes take the token or its bearer; retiring and
        // sessions only the token.
        let authorized = match &route {
            Some(Route::Ping) => true,
            Some(Route::Hook { .. }) => {
                token_matches(token, cfg.token.as_bytes()) | token_matches(token, self.server.bearer.as_bytes())
            }
            _ => token_matches(token, cfg.token.as_bytes()),
        };
        if !authorized {
            return Err(Reply::refusal(401, "missing or wrong token"));
        }
        let Some(route) = route else {
            return Err(Reply::refusal(404, "no such route"));
        };
        let len = match head.framing() {
            Ok(http1::Framing::Length(n)) if head.header("content-length").is_some() => n,
            Err(http1::Error::BadLength(_)) => return Err(Reply::refusal(400, "bad Content-Length")),
            _ => return Err(Reply::refusal(411, "a Content-Length body is required")),
        };
        if len > cfg.body_cap {
            return Err(Reply::refusal(
                413,
                &format!("the body exceeds the {}-byte cap", cfg.body_cap),
            ));
        }
        if head.expects_continue() {
            let _ = stream.write_all(http1::CONTINUE);
        }
        let body = read_body(stream, buf, len).map_err(|_| Reply::refusal(408, "the body did not arrive"))?;
        if cfg.log_bodies {
            tracing::debug!(body = %String::from_utf8_lossy(&body), "warm request body");
        }
        Ok((route, body))
    }

    fn answer(&self, route: Route, head: &Head, body: Vec<u8>) -> (Reply, Next) {
        let cfg = &self.server.config;
        let shared = &self.server.shared;
        let (provider, event, query) = match route {
            Route::Ping => {
                let mut v = serde_json::json!({
                    "agenthooks": "pong",
                    "version": env!("CARGO_PKG_VERSION"),
                    "build": cfg.build,
                    "pid": std::process::id(),
                    "port": self.server.port(),
                });
                let nonce = head
                    .header_str(super::warm_state::NONCE_HEADER)
                    .filter(|n| (16..=128).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_hexdigit()));
                if let Some(n) = nonce {
                    v["proof"] = serde_json::Value::from(super::warm_state::proof(&cfg.token, n, &cfg.build));
                }
                return (Reply::json(200, v.to_string().into_bytes()), Next::KeepAlive);
            }
            Route::Retire => {
                let theirs = field(&body, "build").unwrap_or_default();
                if !super::warm_state::build_at_least(&theirs, &cfg.build) {
                    tracing::warn!(requester = %theirs, server = %cfg.build, "refusing to retire for an older or unknown build");
                    let v =
                        serde_json::json!({"error": "a server is retired only by a build at least as new as its own"});
                    return (Reply::json(409, v.to_string().into_bytes()), Next::Close);
                }
                tracing::info!(requester = %theirs, "retired by a build at least as new; the warm server exits");
                shared.stop(Stopped::Retired);
                return (Reply::json(200, br#"{"retiring":true}"#.to_vec()), Next::Close);
            }
            Route::Session { start } => {
                let Some(id) = field(&body, "session").filter(|s| !s.is_empty() && s.len() <= 256) else {
                    return (Reply::refusal(400, "no session id"), Next::Close);
                };
                if start {
                    shared.session_start(&id);
                } else {
                    shared.session_end(&id);
                }
                let open = shared.open_sessions(cfg.session_max);
                let v = serde_json::json!({ "sessions": open });
                return (Reply::json(200, v.to_string().into_bytes()), Next::KeepAlive);
            }
            Route::Hook { provider, event, query } => (provider, event, query),
        };
        let param = |k: &str| query.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        if let Some(b) = param("build") {
            if b != cfg.build {
                tracing::warn!(config = b, server = %cfg.build, "a config written for another build: refused (the next session-start or prompt hook of that build retires this server)");
                let v = serde_json::json!({"error": "this warm server is another build than the config; the next session-start or prompt hook of the config's build replaces it"});
                return (Reply::json(409, v.to_string().into_bytes()), Next::Close);
            }
        }
        if event.eq_ignore_ascii_case("SessionEnd") {
            if let Some(id) = field(&body, "session_id").or_else(|| field(&body, "sessionId")) {
                shared.session_end(&id);
            }
        }
        let Some(codec) = self.runner.codec(&provider) else {
            return (Reply::refusal(404, "no such provider in this build"), Next::Close);
        };
        let mut cmd = Command::new(Mode::Run)
            .with_provider(provider.clone())
            .with_event(event.clone());
        if let Some(t) = param("timeout").and_then(|t| t.parse::<f64>().ok()) {
            if t.is_finite() && t > 0.0 && t <= 86_400.0 {
                cmd.timeout = Some(Duration::from_secs_f64(t));
            }
        }
        cmd.variant = param("variant").map(str::to_owned);
        cmd.tools = param("tools").map(str::to_owned);
        match self.runner.respond_body(&cmd, body, self.env) {
            Ok(r) => (http_reply(codec.http_response(Some(&event), r)), Next::KeepAlive),
            Err(e) => (Reply::refusal(404, &e.to_string()), Next::Close),
        }
    }
}

/// The HTTP form of a command answer (after the codec's
/// [`http_response`](agenthooks_core::Codec::http_response)).
fn http_reply(r: WireResponse) -> Reply {
    if r.exit_code == 0 {
        let body = if r.stdout.trim_ascii().is_empty() {
            b"{}".to_vec()
        } else {
            r.stdout
        };
        Reply::json(200, body)
    } else {
        let mut body = r.stderr;
        if body.trim_ascii().is_empty() {
            body = format!("hook failed (exit {})", r.exit_code).into_bytes();
        }
        Reply {
            status: 500,
            content_type: "text/plain; charset=utf-8",
            body,
            allow_post: false,
        }
    }
}

/// Reads exactly `len` body bytes: what is left in `buf` after the head first, then the socket.
/// Bytes after the body (a pipelined request) stay in `buf`.
fn read_body(stream: &mut TcpStream, buf: &mut Vec<u8>, len: usize) -> io::Result<Vec<u8>> {
    if buf.len() >= len {
        let rest = buf.split_off(len);
        return Ok(std::mem::replace(buf, rest));
    }
    let mut body = std::mem::take(buf);
    body.reserve_exact(len - body.len());
    let started = Instant::now();
    let mut chunk = vec![0u8; (len - body.len()).min(256 << 10)];
    while body.len() < len {
        let want = (len - body.len()).min(chunk.len());
        match stream.read(&mut chunk[..want]) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                if started.elapsed() > REQUEST_READ_TIMEOUT {
                    return Err(io::ErrorKind::TimedOut.into());
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_parse() {
        assert_eq!(Route::parse("/v1/ping"), Some(Route::Ping));
        assert_eq!(
            Route::parse("/v1/hook/claude-code/PreToolUse?timeout=5&tools=mcp%3Agh%2F*&build=x"),
            Some(Route::Hook {
                provider: "claude-code".into(),
                event: "PreToolUse".into(),
                query: vec![
                    ("timeout".into(), "5".into()),
                    ("tools".into(), "mcp:gh/*".into()),
                    ("build".into(), "x".into())
                ],
            })
        );
        for bad in [
            "/",
            "/v1",
            "/v1/hook/claude-code",
            "/v1/hook//x",
            "/v2/ping",
            "/v1/hook/a/b/c",
            "/v1/hook/a/%zz",
        ] {
            assert_eq!(Route::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn hosts() {
        for ok in [
            "127.0.0.1",
            "127.0.0.1:4000",
            "localhost:4000",
            "LOCALHOST",
            "[::1]:4000",
            "[::1]",
        ] {
            assert!(host_allowed(ok, 4000), "{ok}");
        }
        for bad in [
            "127.0.0.1:4001",
            "evil.example",
            "evil.example:4000",
            "127.0.0.1.evil:4000",
            "[::2]:4000",
            "",
            "localhost:x",
            "[::1",
        ] {
            assert!(!host_allowed(bad, 4000), "{bad}");
        }
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(token_matches(b"abc", b"abc"));
        assert!(!token_matches(b"abd", b"abc"));
        assert!(!token_matches(b"ab", b"abc"));
        assert!(!token_matches(b"", b"abc"));
    }

    #[test]
    fn command_answers_become_http() {
        let ok = http_reply(WireResponse::stdout(b"{\"a\":1}".to_vec()));
        assert_eq!((ok.status, ok.body.as_slice()), (200, &b"{\"a\":1}"[..]));
        let empty = http_reply(WireResponse::empty());
        assert_eq!((empty.status, empty.body.as_slice()), (200, &b"{}"[..]));
        let failed = http_reply(WireResponse::exit(1, b"boom".to_vec()));
        assert_eq!((failed.status, failed.body.as_slice()), (500, &b"boom"[..]));
        let silent = http_reply(WireResponse::exit(3, Vec::new()));
        assert_eq!(silent.body, b"hook failed (exit 3)");
    }
}
