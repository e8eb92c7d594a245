//! `serve` mode: a long-lived NDJSON bridge (the OpenCode and OpenClaw plugins run on it).
//!
//! Frames `{seq, hook, …}` come in, one JSON object per line; `{seq, output?, error?}` go out.
//! The rest of a frame is the provider's (OpenCode `{input, output}`, OpenClaw `{event, ctx}`);
//! `seq` is any JSON value the plugin uses to correlate concurrent in-flight calls, echoed back.
//!
//! ## The frame protocol (provider-agnostic)
//!
//! - **Control frames** are answered here, never decoded by the codec:
//!   `{"seq", "hook": "agenthooks.hello", "input": {…}}` stores `input` in the connection's
//!   [`ConnState`] under [`HELLO_KEY`] (the plugin's context: OpenCode's `serverUrl`,
//!   `directory`, `worktree`, `projectID`) and answers `{"seq", "output": {"agenthooks":
//!   "ready", "version", "provider"}}`; `"hook": "agenthooks.ping"` answers `{"agenthooks":
//!   "pong", …}` (install's doctor checks a shim's daemon with it).
//! - **Replies.** The codec's [`WireResponse`] becomes the response frame: when stdout is a
//!   non-empty JSON object whose keys are all among `output`, `error` and `effects`, it is a
//!   *reply envelope* and those keys are lifted into the frame; any other stdout is the frame's
//!   `output` as is (JSON when it parses). A non-zero exit code adds `error` (stderr, or "blocked
//!   by hook") unless the envelope has one.
//! - **Effects** (`effects` in a reply envelope) are things the daemon does itself after the
//!   frame is answered, in order, on the session's worker: `{"http": {"method", "path",
//!   "query"?, "body"?, "fallback"?}}` is a request to the plugin's local server (the hello
//!   frame's `serverUrl`, loopback only, see [`http`](super::http)); `fallback` is the same shape,
//!   sent when the server answers 404 or 405 (a route an older server lacks). Effects never
//!   reach the plugin; their failures are logged.
//!
//! ## One pipeline
//!
//! Each frame is answered by the same pipeline as `run`: the same per-event deadline (the
//! frame's `timeout_ms` when it carries one, else `serve --timeout`, else the codec's default
//! timeout; the handlers get [`deadline_budget`](super::deadline_budget) of it), the same
//! continuation cap (its store is per session, so it holds across the frames of one session),
//! the same panic guard, and failures answered per the policy's failure mode. The decoded event
//! is moved to its session's worker, never copied.
//!
//! ## The in-process tool filter
//!
//! A frame may carry `"tools": "SPEC"` (the [`ToolSelector`] syntax of `run --tools`): the
//! generated shim or plugin adds it to every frame of a hook whose tool matcher the agent cannot
//! express (OpenCode has no matcher for the `other` class or MCP globs; OpenClaw's `matcher` is
//! exact tool ids only). For a tool call outside it the frame is answered with the kind's
//! neutral decision without running interceptors or handlers; observers still see the event. A
//! spec that does not parse, or is empty, is ignored (the handlers run: a bad filter never
//! silences a gate).
//!
//! Concurrent across sessions, serialized within one: each session's frames go to its worker
//! thread, and workers with nothing pending are retired (idle for a minute, or the longest idle
//! once 64 are kept), so a daemon that saw thousands of sessions holds a bounded number of
//! threads; when no thread can be started the frame is answered on the reader, in order, and
//! the daemon goes on. EOF ends cleanly after in-flight frames are answered. A handler still
//! running at its deadline is abandoned: the frame is answered per policy and the session's next
//! frame goes on.
//!
//! ## Frames that cannot be read are answered at once, under their own `seq`
//!
//! The envelope (`seq`, `hook`, `timeout_ms`, `tools`, a hello frame's `input`) is read by a
//! tolerant scan of the line's top-level members, not by parsing the frame: a lone surrogate
//! escape or deep nesting in the payload never makes a frame unreadable here (the whole line
//! goes to the codec as it came), and a frame that is not valid JSON still gives up its `seq`
//! and `hook`. A frame the codec cannot decode, an invalid one, and an oversize one (whose
//! first 64 KiB are scanned) are answered at once with the failure policy's answer for the
//! frame's `hook` (when the codec knows that event; else the answer for an event that may
//! gate), under the frame's `seq`, so the plugin settles that call without waiting out its
//! deadline. A line that is not a JSON object (an oversize one included) gets `{"seq", "error"}`. When no `seq`
//! can be read, the reply's `seq` is `null` and it carries `"line": N`, the frame's 1-based line
//! number on this connection (blank lines count), which a plugin that counts the lines it
//! writes matches to its call.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::codec::{Codec, ConnState, Env, Invocation, Transport, WireResponse};
use crate::event::Event;
use crate::tool_filter::ToolSelector;

use super::call::Call;
use super::frame::Scan;
use super::http::{self, BaseUrl};
use super::input::read_line_capped;
use super::invoked::Failure;
use super::pipeline::{decode_guarded, Dispatch};
use super::Runner;

/// Where `serve` writes response frames (shared by the per-session workers).
pub type FrameSink = Arc<Mutex<Box<dyn Write + Send>>>;

pub use agenthooks_core::kit::frame::{HELLO, HELLO_KEY, PING};
/// How long one effect's HTTP request may take (connecting, writing and reading together).
pub const EFFECT_TIMEOUT: Duration = Duration::from_secs(5);

/// One decoded frame on its way to its session's worker.
struct Job {
    seq: Value,
    event: Event,
    call: Call,
}

/// A session's worker: its queue, the frames sent to it and not yet answered, when it was
/// last sent one, and its thread.
struct SessionWorker {
    tx: mpsc::Sender<Job>,
    pending: Arc<AtomicUsize>,
    last: Instant,
    thread: std::thread::JoinHandle<()>,
}

/// The most session workers kept: past it, idle ones (nothing pending) are retired, the
/// longest idle first. Workers idle for [`WORKER_IDLE`] are retired at the next frame.
const MAX_SESSION_WORKERS: usize = 64;
/// How long a session worker with nothing pending is kept for its session's next frame.
const WORKER_IDLE: Duration = Duration::from_secs(60);

/// Retires idle workers: those idle past [`WORKER_IDLE`], and, while more than `keep` are
/// left, the longest idle. A retired worker's queue is closed; its thread ends (it has nothing
/// pending) and is joined later from `retired`.
fn prune_workers(
    workers: &mut HashMap<String, SessionWorker>,
    retired: &mut Vec<std::thread::JoinHandle<()>>,
    keep: usize,
) {
    let idle = |w: &SessionWorker| w.pending.load(Ordering::SeqCst) == 0;
    let stale: Vec<String> = workers
        .iter()
        .filter(|(_, w)| idle(w) && w.last.elapsed() >= WORKER_IDLE)
        .map(|(k, _)| k.clone())
        .collect();
    let mut gone: Vec<SessionWorker> = stale.iter().filter_map(|k| workers.remove(k)).collect();
    if workers.len() > keep {
        let mut idle_keys: Vec<(Instant, String)> = workers
            .iter()
            .filter(|(_, w)| idle(w))
            .map(|(k, w)| (w.last, k.clone()))
            .collect();
        idle_keys.sort();
        let excess = workers.len() - keep;
        gone.extend(
            idle_keys
                .into_iter()
                .take(excess)
                .filter_map(|(_, k)| workers.remove(&k)),
        );
    }
    for w in gone {
        drop(w.tx);
        retired.push(w.thread);
    }
    // Join the retired threads that ended (their queues are closed, so they end at once).
    let mut i = 0;
    while i < retired.len() {
        if retired[i].is_finished() {
            let _ = retired.swap_remove(i).join();
        } else {
            i += 1;
        }
    }
}

/// `serve` mode over `input` and `out` (see the module docs); the per-event timeout defaults to
/// the codec's.
pub fn serve(runner: &Runner, codec: &'static dyn Codec, input: &mut dyn BufRead, out: &FrameSink, env: &dyn Env) {
    serve_with(runner, codec, input, out, env, None);
}

/// [`serve`] over the frames in `input` (NDJSON): the reply frames it writes, parsed, in the
/// order written (tests and tools; a line that is not JSON is skipped).
///
/// ```
/// use agenthooks_runtime::{serve_frames, Runner};
/// # use agenthooks_core::{Codec, Event, EventRow, Invocation, DecodeError, DecodeCategory, Outcome, EncodeError, EventTarget, FailMode, WireResponse, Provider};
/// # struct NoCodec;
/// # impl Codec for NoCodec {
/// #     fn provider(&self) -> Provider { Provider::from_static("zz") }
/// #     fn native_events(&self) -> &'static [EventRow] { &[] }
/// #     fn decode(&self, _: &Invocation<'_>) -> Result<Event, DecodeError> { Err(DecodeError::new(self.provider(), DecodeCategory::Data, "no")) }
/// #     fn encode(&self, _: &Event, _: &Outcome) -> Result<WireResponse, EncodeError> { Ok(WireResponse::empty()) }
/// #     fn no_op(&self, _: &EventTarget) -> WireResponse { WireResponse::empty() }
/// #     fn failure_response(&self, _: &EventTarget, _: FailMode, _: &str) -> WireResponse { WireResponse::empty() }
/// #     fn default_timeout(&self) -> std::time::Duration { std::time::Duration::from_secs(1) }
/// # }
/// # static CODEC: NoCodec = NoCodec;
/// let runner = Runner::new(agenthooks_core::Router::new(), vec![&CODEC]);
/// let env: Vec<(String, String)> = Vec::new();
/// let out = serve_frames(&runner, &CODEC, b"{\"seq\":7,\"hook\":\"agenthooks.ping\"}\n", &env);
/// assert_eq!(out[0]["seq"], 7);
/// assert_eq!(out[0]["output"]["agenthooks"], "pong");
/// ```
pub fn serve_frames(runner: &Runner, codec: &'static dyn Codec, input: &[u8], env: &dyn Env) -> Vec<Value> {
    serve_bytes(runner, codec, &mut &input[..], env)
        .split(|b| *b == b'\n')
        .filter_map(|l| serde_json::from_slice(l).ok())
        .collect()
}

/// [`serve`] over `input` to the end, returning every byte it wrote (for callers that check
/// the output stream itself, such as the fuzzer's "every line is a JSON frame").
pub fn serve_bytes(runner: &Runner, codec: &'static dyn Codec, input: &mut dyn BufRead, env: &dyn Env) -> Vec<u8> {
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?
                .extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let shared = Shared::default();
    let out: FrameSink = Arc::new(Mutex::new(Box::new(shared.clone())));
    serve(runner, codec, input, &out, env);
    let bytes = shared.0.lock().map(|b| b.clone()).unwrap_or_default();
    bytes
}

/// [`serve`] with a default per-event timeout (`serve --timeout`) for frames that carry none.
pub(super) fn serve_with(
    runner: &Runner,
    codec: &'static dyn Codec,
    input: &mut dyn BufRead,
    out: &FrameSink,
    env: &dyn Env,
    timeout: Option<Duration>,
) {
    let conn = Arc::new(ConnState::default());
    let state_dir: Arc<Option<PathBuf>> = Arc::new(runner.options.private_state_dir(env));
    let default_timeout = timeout.unwrap_or_else(|| codec.default_timeout());
    let mut workers: HashMap<String, SessionWorker> = HashMap::new();
    // A session's answerer: on its worker thread, or on the reader when no worker can run.
    let session_run = || SessionRun {
        runner: runner.clone(),
        codec,
        out: Arc::clone(out),
        state_dir: Arc::clone(&state_dir),
        conn: Arc::clone(&conn),
    };
    let mut retired: Vec<std::thread::JoinHandle<()>> = Vec::new();
    let cap = runner.options.stdin_cap;
    let mut line = Vec::new();
    // The lines read so far (blank ones included): a reply whose `seq` could not be read names
    // the frame by its line number instead (see the module docs).
    let mut line_no: u64 = 0;
    loop {
        line.clear();
        let read = read_line_capped(input, &mut line, cap);
        if matches!(read, Ok(0)) {
            break;
        }
        line_no += 1;
        let trimmed: &[u8] = line.trim_ascii();
        let scan = Scan::of(trimmed);
        let mut head = scan.head();
        let seq = head.remove("seq").unwrap_or(Value::Null);
        // The frame's event, as a hint for a failure answer: only a name the codec knows (a
        // `hook` that names no event of the codec leaves the event unknown: the answer for an
        // event that may gate).
        let hook = head
            .get("hook")
            .and_then(Value::as_str)
            .filter(|h| codec.row(h).is_some())
            .map(str::to_owned);
        let hints = FrameHints {
            seq: &seq,
            line: line_no,
            hook: hook.as_deref(),
        };
        if let Err(e) = read {
            // An oversize frame: its prefix (kept by the read) names its seq and hook.
            let why = super::input::chain(&e);
            if scan.object {
                let failure = Failure::Decode(crate::error::DecodeError::new(codec.provider(), e.category(), why));
                answer_failed(runner, codec, env, out, &hints, trimmed, failure);
            } else {
                write_frame(out, &hints.error_frame(why));
            }
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        if !scan.object {
            write_frame(
                out,
                &hints.error_frame("malformed frame: expected a JSON object".into()),
            );
            continue;
        }
        if let Some(reply) = control_reply(codec, &conn, &head) {
            let mut frame = serde_json::Map::new();
            frame.insert("seq".into(), seq);
            frame.insert("output".into(), reply);
            write_frame(out, &Value::Object(frame));
            continue;
        }
        let timeout = frame_timeout(&head).unwrap_or(default_timeout);
        let mut call = Call::new(trimmed.to_vec()).with_timeout(Some(timeout));
        let inv = call
            .invocation(env)
            .with_transport(Transport::Frame)
            .with_conn(Some(&*conn))
            .with_state_dir(state_dir.as_deref());
        let event = match decode_guarded(codec, &inv) {
            Ok(e) => e,
            Err(e) => {
                answer_failed(runner, codec, env, out, &hints, trimmed, Failure::Decode(e));
                continue;
            }
        };
        let key = event.envelope().session.id.clone();
        call.filter = frame_filter(&head);
        let job = Job { seq, event, call };
        if !workers.contains_key(&key) {
            prune_workers(&mut workers, &mut retired, MAX_SESSION_WORKERS.saturating_sub(1));
            let (tx, rx) = mpsc::channel::<Job>();
            let pending = Arc::new(AtomicUsize::new(0));
            let worker = session_run();
            let left = Arc::clone(&pending);
            let spawned = std::thread::Builder::new()
                .name("agenthooks-serve-session".into())
                .spawn(move || {
                    for job in rx {
                        worker.answer(job);
                        left.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            match spawned {
                Ok(thread) => {
                    workers.insert(
                        key.clone(),
                        SessionWorker {
                            tx,
                            pending,
                            last: Instant::now(),
                            thread,
                        },
                    );
                }
                Err(e) => {
                    // No thread to be had: answer here (the session has no other worker, so
                    // its frames stay in order) rather than take the daemon down.
                    tracing::error!(error = %e, "serve: could not start a session worker; answering on the reader");
                    session_run().answer(job);
                    continue;
                }
            }
        }
        if let Some(w) = workers.get_mut(&key) {
            w.pending.fetch_add(1, Ordering::SeqCst);
            w.last = Instant::now();
            if let Err(mpsc::SendError(job)) = w.tx.send(job) {
                // The worker died (it cannot: its answers are panic-guarded); answer here.
                w.pending.fetch_sub(1, Ordering::SeqCst);
                if let Some(w) = workers.remove(&key) {
                    retired.push(w.thread);
                }
                session_run().answer(job);
            }
        }
    }
    for (_, w) in workers.drain() {
        drop(w.tx);
        let _ = w.thread.join();
    }
    for h in retired {
        let _ = h.join();
    }
}

/// What a session's frames are answered with (on its worker, or on the reader when no thread
/// can be started).
struct SessionRun {
    runner: Runner,
    codec: &'static dyn Codec,
    out: FrameSink,
    state_dir: Arc<Option<PathBuf>>,
    conn: Arc<ConnState>,
}

impl SessionRun {
    fn answer(&self, job: Job) {
        let Job { seq, event, call } = job;
        // The frame's clock starts when its session's worker takes it.
        let call = call.with_started(Instant::now());
        let answered = catch_unwind(AssertUnwindSafe(|| {
            self.runner
                .answer_event(self.codec, event, &call, self.state_dir.as_deref(), Dispatch::Worker)
        }));
        let (frame, effects) = match answered {
            Ok(a) => reply_of(seq, &a.response),
            Err(_) => (
                serde_json::json!({"seq": seq, "error": "agenthooks: the pipeline panicked"}),
                Vec::new(),
            ),
        };
        write_frame(&self.out, &frame);
        run_effects(&self.conn, &effects);
    }
}

/// What a frame's reply is matched by: its `seq`, its line number on the connection, and its
/// `hook` (the event whose failure answer it gets when it cannot be decoded).
struct FrameHints<'a> {
    seq: &'a Value,
    line: u64,
    hook: Option<&'a str>,
}

impl FrameHints<'_> {
    /// `{seq, error}`, plus `line` when the seq could not be read.
    fn error_frame(&self, error: String) -> Value {
        let mut frame = serde_json::Map::new();
        frame.insert("seq".into(), self.seq.clone());
        frame.insert("error".into(), Value::String(error));
        self.mark_line(&mut frame);
        Value::Object(frame)
    }

    fn mark_line(&self, frame: &mut serde_json::Map<String, Value>) {
        if self.seq.is_null() {
            frame.insert("line".into(), Value::from(self.line));
        }
    }
}

/// Answers a frame that could not be read or decoded at once: the failure policy's answer for
/// the frame's event (its `hook`, when the scan found one), under its `seq`.
fn answer_failed(
    runner: &Runner,
    codec: &dyn Codec,
    env: &dyn Env,
    out: &FrameSink,
    hints: &FrameHints<'_>,
    bytes: &[u8],
    failure: Failure,
) {
    let inv = Invocation::new(bytes.to_vec(), env)
        .with_transport(Transport::Frame)
        .with_native_event(hints.hook);
    let answered = runner.answer_unread(codec, &inv, failure);
    let (mut frame, _) = reply_of(hints.seq.clone(), &answered.response);
    if let Value::Object(m) = &mut frame {
        hints.mark_line(m);
    }
    write_frame(out, &frame);
}

/// The frame's own timeout: a positive `timeout_ms` number.
fn frame_timeout(head: &serde_json::Map<String, Value>) -> Option<Duration> {
    let ms = head.get("timeout_ms")?.as_f64()?;
    (ms.is_finite() && ms > 0.0 && ms <= 86_400_000.0).then(|| Duration::from_secs_f64(ms / 1000.0))
}

/// The frame's in-process tool filter: its `tools` spec (see the module docs).
fn frame_filter(head: &serde_json::Map<String, Value>) -> Option<ToolSelector> {
    let spec = head.get("tools")?.as_str()?;
    ToolSelector::parse(spec)
        .map_err(|e| tracing::warn!(error = %e, "ignoring the frame's tools filter: handlers run for every tool"))
        .ok()
        .filter(|s| !s.is_empty())
}

/// Answers a control frame (`agenthooks.hello`, `agenthooks.ping`); `None` for any other frame.
fn control_reply(codec: &dyn Codec, conn: &ConnState, head: &serde_json::Map<String, Value>) -> Option<Value> {
    let hook = head.get("hook").and_then(Value::as_str)?;
    let word = match hook {
        HELLO => {
            let input = head.get("input").cloned().unwrap_or(Value::Null);
            tracing::debug!(hello = %input, "serve: plugin context");
            conn.set(HELLO_KEY, input);
            "ready"
        }
        PING => "pong",
        _ => return None,
    };
    Some(serde_json::json!({
        "agenthooks": word,
        "version": env!("CARGO_PKG_VERSION"),
        "provider": codec.provider().as_str(),
    }))
}

/// The keys of a reply envelope.
const ENVELOPE_KEYS: [&str; 3] = ["output", "error", "effects"];

/// The response frame for a wire response, and the effects the daemon runs after writing it
/// (see the module docs: a reply envelope's keys are lifted; other stdout is `output`; a
/// non-zero exit code adds `error`).
pub(super) fn reply_of(seq: Value, wire: &WireResponse) -> (Value, Vec<Value>) {
    let mut frame = serde_json::Map::new();
    frame.insert("seq".into(), seq);
    let mut effects = Vec::new();
    if !wire.stdout.is_empty() {
        match serde_json::from_slice::<Value>(&wire.stdout) {
            Ok(Value::Object(m)) if !m.is_empty() && m.keys().all(|k| ENVELOPE_KEYS.contains(&k.as_str())) => {
                for (k, v) in m {
                    match (k.as_str(), v) {
                        ("effects", Value::Array(list)) => effects = list,
                        ("effects", _) => {}
                        (_, v) => {
                            frame.insert(k, v);
                        }
                    }
                }
            }
            Ok(v) => {
                frame.insert("output".into(), v);
            }
            Err(_) => {
                frame.insert("output".into(), Value::String(wire.stdout_str().into_owned()));
            }
        }
    }
    if wire.exit_code != 0 && !frame.contains_key("error") {
        let msg = if wire.stderr.is_empty() {
            "blocked by hook".to_owned()
        } else {
            wire.stderr_str().trim().to_owned()
        };
        frame.insert("error".into(), Value::String(msg));
    }
    (Value::Object(frame), effects)
}

/// Runs a reply's effects against the plugin's server (the hello frame's `serverUrl`).
fn run_effects(conn: &ConnState, effects: &[Value]) {
    if effects.is_empty() {
        return;
    }
    let server = conn
        .get(HELLO_KEY)
        .and_then(|h| h.get("serverUrl").and_then(Value::as_str).map(str::to_owned));
    for effect in effects {
        let Some(req) = effect.get("http") else {
            tracing::warn!(%effect, "serve: unknown effect ignored");
            continue;
        };
        let Some(server) = server.as_deref() else {
            tracing::warn!(%effect, "serve: no serverUrl from the plugin's hello frame; effect dropped");
            continue;
        };
        match run_http(server, req) {
            Ok(r) if r.is_success() => tracing::debug!(status = r.status, "serve: effect delivered"),
            Ok(r) if matches!(r.status, 404 | 405) && req.get("fallback").is_some() => {
                match req.get("fallback").map(|f| run_http(server, f)) {
                    Some(Ok(r)) if r.is_success() => {
                        tracing::debug!(status = r.status, "serve: effect delivered (fallback route)");
                    }
                    Some(Ok(r)) => {
                        tracing::warn!(status = r.status, body = %r.body, "serve: effect refused (fallback route)");
                    }
                    Some(Err(e)) => tracing::warn!(error = %e, "serve: effect failed (fallback route)"),
                    None => {}
                }
            }
            Ok(r) => tracing::warn!(status = r.status, body = %r.body, "serve: effect refused"),
            Err(e) => tracing::warn!(error = %e, server, "serve: effect failed"),
        }
    }
}

/// One `http` effect: `{method, path, query?, body?}`.
fn run_http(server: &str, req: &Value) -> Result<http::Response, http::HttpError> {
    let base = BaseUrl::parse(server)?;
    let method = req.get("method").and_then(Value::as_str).unwrap_or("POST");
    let mut path = req.get("path").and_then(Value::as_str).unwrap_or("/").to_owned();
    if let Some(q) = req.get("query").and_then(Value::as_object) {
        let pairs: Vec<String> = q
            .iter()
            .filter_map(|(k, v)| {
                let v = v.as_str()?;
                Some(format!("{}={}", http::encode_component(k), http::encode_component(v)))
            })
            .collect();
        if !pairs.is_empty() {
            path.push(if path.contains('?') { '&' } else { '?' });
            path.push_str(&pairs.join("&"));
        }
    }
    http::request(&base, method, &path, req.get("body"), EFFECT_TIMEOUT)
}

fn write_frame(out: &FrameSink, v: &Value) {
    if let Ok(mut w) = out.lock() {
        let mut bytes = serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec());
        bytes.push(b'\n');
        let _ = w.write_all(&bytes);
        let _ = w.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn wire(stdout: &str, code: i32, stderr: &str) -> WireResponse {
        let mut w = WireResponse::stdout(stdout.as_bytes().to_vec());
        w.exit_code = code;
        w.stderr = stderr.as_bytes().to_vec();
        w
    }

    #[test]
    fn replies_lift_an_envelope_and_keep_other_stdout_as_output() {
        let (f, e) = reply_of(json!(1), &wire(r#"{"output":{"args":{"a":1}}}"#, 0, ""));
        assert_eq!((f, e.len()), (json!({"seq": 1, "output": {"args": {"a": 1}}}), 0));
        let (f, e) = reply_of(
            json!("s"),
            &wire(r#"{"error":"no","effects":[{"http":{"path":"/x"}}]}"#, 0, ""),
        );
        assert_eq!(f, json!({"seq": "s", "error": "no"}));
        assert_eq!(e, vec![json!({"http": {"path": "/x"}})]);
        // `{}` and objects with other keys are outputs as they are
        assert_eq!(
            reply_of(json!(2), &wire("{}", 0, "")).0,
            json!({"seq": 2, "output": {}})
        );
        assert_eq!(
            reply_of(json!(3), &wire(r#"{"reason":"r"}"#, 0, "")).0,
            json!({"seq": 3, "output": {"reason": "r"}})
        );
        assert_eq!(
            reply_of(json!(4), &wire("", 2, "")).0,
            json!({"seq": 4, "error": "blocked by hook"})
        );
        assert_eq!(
            reply_of(json!(5), &wire("text", 2, " why \n")).0,
            json!({"seq": 5, "output": "text", "error": "why"})
        );
    }

    /// A codec that decodes nothing: every frame is answered by its failure response, which
    /// names the event the runner told it (`native`) and the policy's mode.
    struct Refusing;
    static REFUSING_ROWS: [crate::EventRow; 1] = [crate::EventRow::new(
        "before_tool_call",
        crate::EventKind::ToolPre,
        true,
        true,
    )];
    impl Codec for Refusing {
        fn provider(&self) -> crate::Provider {
            crate::Provider::from_static("zz")
        }
        fn native_events(&self) -> &'static [crate::EventRow] {
            &REFUSING_ROWS
        }
        fn decode(&self, _: &Invocation<'_>) -> Result<Event, crate::DecodeError> {
            Err(crate::DecodeError::new(
                self.provider(),
                crate::DecodeCategory::Data,
                "unreadable",
            ))
        }
        fn encode(&self, _: &Event, _: &crate::Outcome) -> Result<WireResponse, crate::EncodeError> {
            Ok(WireResponse::empty())
        }
        fn no_op(&self, _: &crate::EventTarget) -> WireResponse {
            WireResponse::empty()
        }
        fn failure_response(&self, t: &crate::EventTarget, mode: crate::FailMode, _: &str) -> WireResponse {
            let native = t.native.as_ref().map(|n| n.as_str().to_owned());
            WireResponse::json(&json!({"output": {"failed": native, "closed": mode == crate::FailMode::Closed}}))
        }
        fn default_timeout(&self) -> Duration {
            Duration::from_secs(1)
        }
    }
    static REFUSING: Refusing = Refusing;

    /// A `Read` fed line by line from a channel: the input stays open between frames.
    struct Feed(mpsc::Receiver<Vec<u8>>, Vec<u8>);
    impl std::io::Read for Feed {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.1.is_empty() {
                match self.0.recv() {
                    Ok(b) => self.1 = b,
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.1.len());
            buf[..n].copy_from_slice(&self.1[..n]);
            self.1.drain(..n);
            Ok(n)
        }
    }

    /// A sink that sends each written line to a channel.
    struct Lines(mpsc::Sender<Value>, Vec<u8>);
    impl Write for Lines {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.1.extend_from_slice(b);
            while let Some(i) = self.1.iter().position(|c| *c == b'\n') {
                let line: Vec<u8> = self.1.drain(..=i).collect();
                let _ = self.0.send(serde_json::from_slice(&line).unwrap_or(Value::Null));
            }
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn nested(depth: usize) -> String {
        format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }

    /// Malformed frames, each answered under its own `seq` with the failure answer for its
    /// `hook`, within 100 ms of being written, while the connection stays open.
    #[test]
    fn a_malformed_frame_is_answered_under_its_seq_at_once() {
        let runner = Runner::new(
            crate::Router::new().with_policy(crate::Policy::default().fail_closed()),
            vec![&REFUSING],
        );
        let (tx_in, rx_in) = mpsc::channel::<Vec<u8>>();
        let (tx_out, rx_out) = mpsc::channel::<Value>();
        let out: FrameSink = Arc::new(Mutex::new(Box::new(Lines(tx_out, Vec::new()))));
        let server = std::thread::spawn(move || {
            let env: Vec<(String, String)> = Vec::new();
            let mut input = std::io::BufReader::new(Feed(rx_in, Vec::new()));
            serve(&runner, &REFUSING, &mut input, &out, &env);
        });
        let deep = nested(5000);
        let frames = [
            // invalid JSON (truncated)
            (json!(11), r#"{"seq": 11, "hook": "tool.execute.before", "input": {"tool": "#.to_owned()),
            // lone surrogates, which serde_json refuses
            (
                json!(12),
                r#"{"seq":12,"hook":"before_tool_call","event":{"params":{"command":"rm -rf /","description":"\ud800"}}}"#.to_owned(),
            ),
            // nesting far deeper than serde_json's recursion limit
            (json!(13), format!(r#"{{"seq":13,"hook":"before_tool_call","event":{{"d":{deep}}}}}"#)),
            // garbage between members
            (json!("s-14"), r#"{"hook": "x" ??? "seq": "s-14"}"#.to_owned()),
        ];
        for (seq, frame) in &frames {
            let started = Instant::now();
            tx_in.send(format!("{frame}\n").into_bytes()).unwrap();
            let reply = rx_out.recv_timeout(Duration::from_secs(5)).expect("a reply");
            let took = started.elapsed();
            assert_eq!(&reply["seq"], seq, "{reply}");
            assert!(took < Duration::from_millis(100), "{seq}: answered after {took:?}");
            assert_eq!(reply["output"]["closed"], true, "{reply}");
            assert!(reply.get("line").is_none(), "{reply}");
        }
        // The failure answer is the one for the frame's event (a `hook` the codec knows).
        tx_in
            .send(b"{\"seq\":15,\"hook\":\"before_tool_call\",\"event\":\"\\udc00\"}\n".to_vec())
            .unwrap();
        let reply = rx_out.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(reply["output"]["failed"], "before_tool_call", "{reply}");
        // A `hook` the codec does not know is no hint: the answer for an event that may gate.
        tx_in
            .send(b"{\"seq\":16,\"hook\":\"tool\",\"x\":\"\\udc00\"}\n".to_vec())
            .unwrap();
        let reply = rx_out.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(
            (&reply["seq"], &reply["output"]["failed"]),
            (&json!(16), &Value::Null),
            "{reply}"
        );
        // No seq to read: the reply names the frame by its line on the connection (1-based).
        tx_in.send(b"{\"hook\":\"x\", \"seq\": }\n[1]\n".to_vec()).unwrap();
        let a = rx_out.recv_timeout(Duration::from_secs(5)).unwrap();
        let b = rx_out.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!((&a["seq"], &a["line"]), (&Value::Null, &json!(7)), "{a}");
        assert_eq!((&b["seq"], &b["line"]), (&Value::Null, &json!(8)), "{b}");
        assert!(
            b["error"].as_str().is_some_and(|e| e.contains("malformed frame")),
            "{b}"
        );
        drop(tx_in);
        server.join().unwrap();
    }

    /// An oversize frame is answered under the seq its prefix carries.
    #[test]
    fn an_oversize_frame_is_answered_under_its_seq() {
        let runner = Runner::new(
            crate::Router::new().with_policy(crate::Policy::default().fail_closed()),
            vec![&REFUSING],
        )
        .with_options(super::super::RunOptions::default().with_stdin_cap(1000));
        let big = "x".repeat(5000);
        let input = format!(
            "{{\"seq\":3,\"hook\":\"before_tool_call\",\"event\":{{\"params\":\"{big}\"}}}}\n{{\"seq\":4,\"hook\":\"agenthooks.ping\"}}\n"
        );
        let env: Vec<(String, String)> = Vec::new();
        let out = serve_frames(&runner, &REFUSING, input.as_bytes(), &env);
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(out[0]["seq"], 3, "{}", out[0]);
        assert_eq!(out[0]["output"]["failed"], "before_tool_call", "{}", out[0]);
        assert_eq!(out[1]["output"]["agenthooks"], "pong");
    }

    #[test]
    fn hello_is_stored_and_ping_answers() {
        let conn = ConnState::default();
        let head = |v: Value| v.as_object().cloned().unwrap();
        let r = control_reply(
            &REFUSING,
            &conn,
            &head(json!({"hook": HELLO, "input": {"serverUrl": "http://127.0.0.1:1"}})),
        );
        assert_eq!(r.unwrap()["agenthooks"], "ready");
        assert_eq!(conn.get(HELLO_KEY).unwrap()["serverUrl"], "http://127.0.0.1:1");
        let r = control_reply(&REFUSING, &conn, &head(json!({"hook": PING}))).unwrap();
        assert_eq!(
            (r["agenthooks"].as_str(), r["provider"].as_str()),
            (Some("pong"), Some("zz"))
        );
        assert!(control_reply(&REFUSING, &conn, &head(json!({"hook": "tool.execute.before"}))).is_none());
    }
}
