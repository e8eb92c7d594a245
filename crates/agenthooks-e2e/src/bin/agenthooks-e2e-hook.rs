//! The e2e test hook: `agenthooks-e2e-hook agenthooks run --provider=P --event=E`.
//!
//! Behaviour is chosen by `AGENTHOOKS_E2E_MODE`; with `AGENTHOOKS_E2E_LOG` set the process
//! taps every invocation into that JSONL log (see `agenthooks_e2e::hook`).

use std::io::{BufRead, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use agenthooks::core::codec::{Env, EventTarget, ProcessEnv, StderrUse};
use agenthooks::core::EventRow;
use agenthooks::core::{EncodeCategory, Quirk};
use agenthooks::prelude::*;
use agenthooks::runtime::{self as runner, Runner};
use agenthooks::{CapSet, Codec, Confidence, DecodeError, EncodeError, Variant, WireResponse};
use agenthooks_e2e::hook::{
    decoded_record, Mode, ASK_REASON, CHILD_ENV, CONTINUATION_CAP, CONTINUE_INSTRUCTION, DENY_REASON, LOG_ENV,
    MODE_ENV, PROMPT_CONTEXT, REWRITTEN_COMMAND, SESSION_CONTEXT,
};
use serde_json::{json, Value};

/// Payloads larger than this are cut (the runner's own cap is 32 MiB).
const PAYLOAD_CAP: u64 = 32 << 20;

fn main() {
    let mode = std::env::var(MODE_ENV)
        .ok()
        .and_then(|m| Mode::parse(&m))
        .unwrap_or(Mode::None);
    let argv: Vec<String> = std::env::args().collect();
    // The audit shipper a hook process starts (`agenthooks audit ship`): no tap, no log record.
    if argv.windows(2).any(|w| w[0] == "agenthooks" && w[1] == "audit") {
        hook(Mode::None, None);
    }
    let parsed = runner::parse_args(&argv).ok().flatten();
    let serving = parsed.as_ref().is_some_and(|c| c.mode == runner::Mode::Serve);
    // The warm server first: started detached by a session-start hook's inner process, it
    // inherits that process's CHILD_ENV, which is not its own.
    if serving && parsed.as_ref().is_some_and(|c| c.http) {
        serve_http(mode, std::env::var(LOG_ENV).ok());
    } else if let Ok(out) = std::env::var(CHILD_ENV) {
        hook(mode, Some(out));
    } else if let (Ok(log), true) = (std::env::var(LOG_ENV), serving) {
        let code = tap_serve(&log, mode);
        #[allow(clippy::exit)] // the daemon's end
        std::process::exit(code);
    } else if let Ok(log) = std::env::var(LOG_ENV) {
        let code = tap(&log, mode);
        #[allow(clippy::exit)] // the hook's exit code is its answer to the agent
        std::process::exit(code);
    } else {
        hook(mode, None);
    }
    let _ = writeln!(
        std::io::stderr(),
        "usage: agenthooks-e2e-hook agenthooks run --provider=P --event=E (behaviour from {MODE_ENV}, log to {LOG_ENV})"
    );
    #[allow(clippy::exit)]
    std::process::exit(2);
}

/// The real hook: the router for `mode` behind `agenthooks::main`, plus an observer that writes
/// the decoded event to `decoded_out`.
fn hook(mode: Mode, decoded_out: Option<String>) {
    let router = router(mode, decoded_out);
    if mode == Mode::DenyWrongDialect {
        let argv: Vec<String> = std::env::args().collect();
        let provider = runner::parse_args(&argv).ok().flatten().and_then(|c| c.provider);
        let inner = provider.and_then(|p| agenthooks::codecs().into_iter().find(|c| c.provider() == p.as_str()));
        if let Some(inner) = inner {
            let wrong: &'static Misdirected = Box::leak(Box::new(Misdirected { inner }));
            runner::main_with(&Runner::new(router, vec![wrong]));
            return;
        }
    }
    agenthooks::main(router);
}

/// `serve --http`: the warm server with the router for `mode`. With a log, every codec is
/// wrapped in an [`HttpTap`], so the server itself records each request it answered (the
/// payload, the decoded event, the answer, its own pid) with `"transport": "http"`.
fn serve_http(mode: Mode, log: Option<String>) {
    let router = router(mode, None);
    let Some(log) = log else {
        agenthooks::main(router);
        return;
    };
    let argv: Vec<String> = std::env::args().collect();
    let taps: Vec<&'static dyn Codec> = agenthooks::codecs()
        .into_iter()
        .map(|inner| -> &'static dyn Codec {
            Box::leak(Box::new(HttpTap {
                inner,
                log: log.clone(),
                mode,
                argv: argv.clone(),
            }))
        })
        .collect();
    runner::main_with(&Runner::new(router, taps));
}

/// The router for `mode`, with the decoded-event observer when `decoded_out` is set.
fn router(mode: Mode, decoded_out: Option<String>) -> Router {
    // Backfilled prompts (from the transcript, where the agent skipped the prompt hook) reach
    // the observer too; the tap reports them apart from the hook call's own event.
    let mut router = Router::new().backfill_prompts();
    if let Some(path) = decoded_out {
        router = router.on_any(move |_cx: &Context, ev: &Event| {
            let mut rec = decoded_record(ev.envelope().native.as_str(), ev.kind().as_str(), &ev.to_json(false));
            // In serve mode one process decodes many frames: each line carries its frame's seq.
            if let Some(seq) = ev.envelope().raw().to_value().and_then(|f| f.get("seq").cloned()) {
                rec["seq"] = seq;
            }
            let mut line = rec.to_string();
            line.push('\n');
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .and_then(|mut f| f.write_all(line.as_bytes()))
                .map_err(|e| HandlerError::msg(format!("recording: {e}")))
        });
    }
    router = match mode {
        Mode::Deny | Mode::DenyWrongDialect => router.on_tool_pre(|_cx: &Context, _e: &ToolPreEvent| deny(DENY_REASON)),
        Mode::DenyOnCommand => router.on_tool_pre(|_cx: &Context, e: &ToolPreEvent| {
            if e.tool
                .command()
                .is_some_and(|c| c.contains(agenthooks_e2e::hook::MARKER_COMMAND))
            {
                deny(DENY_REASON)
            } else {
                no_decision()
            }
        }),
        Mode::Context => router
            .on_session_start(|_cx: &Context, _e: &SessionStartEvent| {
                ContextDecision::default().with_context(SESSION_CONTEXT)
            })
            .on_prompt_submitted(|_cx: &Context, _e: &PromptEvent| accept_prompt().with_context(PROMPT_CONTEXT)),
        // The daemon dies in the middle of a tool gate (the shim's crash path).
        Mode::Crash => router.on_tool_pre(
            |_cx: &Context, _e: &ToolPreEvent| -> Result<ToolPreDecision, HandlerError> { std::process::abort() },
        ),
        Mode::Permission => router.on_permission(|_cx: &Context, _e: &PermissionEvent| allow()),
        Mode::Ask => router.on_tool_pre(|_cx: &Context, _e: &ToolPreEvent| ask_user(ASK_REASON)),
        Mode::Continue => router
            .with_policy(Policy::default().with_continuation_cap(CONTINUATION_CAP))
            .on_stop(|_cx: &Context, _e: &StopEvent| continue_with(CONTINUE_INSTRUCTION)),
        // Rewrite and allow: the intent a hook author writes; where the agent has no allow the
        // core degrades the verdict and keeps the rewrite.
        Mode::Rewrite => router.on_tool_pre(|_cx: &Context, e: &ToolPreEvent| {
            let mut input = e.tool.input().clone();
            let Some(key) = ["command", "cmd"].into_iter().find(|k| input.contains_key(*k)) else {
                return no_decision();
            };
            input.insert(key.into(), REWRITTEN_COMMAND.into());
            rewrite_input(input).allow()
        }),
        // `none`, and modes a newer suite adds: record only.
        _ => router,
    };
    router
}

/// Where the child writes what it decoded (unique per process and moment), and the sorted
/// names of the environment the agent gave the hook.
fn tap_context(log: &str) -> (String, Vec<String>) {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_nanos();
    let decoded_path = format!("{log}.{}-{nanos}.decoded", std::process::id());
    let mut env_names: Vec<String> = std::env::vars_os()
        .map(|(k, _)| k.to_string_lossy().into_owned())
        .collect();
    env_names.sort();
    (decoded_path, env_names)
}

/// Runs the hook as a child with the same argv, logs what went in and out, returns the child's
/// exit code.
fn tap(log: &str, mode: Mode) -> i32 {
    let started = Instant::now();
    let argv: Vec<String> = std::env::args().collect();
    let mut payload = Vec::new();
    let _ = std::io::stdin().take(PAYLOAD_CAP).read_to_end(&mut payload);
    let cmd = runner::parse_args(&argv).ok().flatten();
    let (decoded_path, env_names) = tap_context(log);

    let output = std::env::current_exe().and_then(|exe| {
        let mut child = Command::new(exe)
            .args(argv.iter().skip(1))
            .env(CHILD_ENV, &decoded_path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let mut stdin = child.stdin.take();
        let bytes = payload.clone();
        let writer = std::thread::spawn(move || {
            if let Some(s) = stdin.as_mut() {
                let _ = s.write_all(&bytes);
            }
        });
        let out = child.wait_with_output();
        let _ = writer.join();
        out
    });
    // The call's own event, and the prompts backfilled before it (dispatched first).
    let lines: Vec<Value> = std::fs::read_to_string(&decoded_path)
        .map(|s| s.lines().filter_map(|l| serde_json::from_str(l).ok()).collect())
        .unwrap_or_default();
    let is_backfill = |v: &Value| v.pointer("/event/backfilled") == Some(&Value::Bool(true));
    let decoded = lines.iter().find(|v| !is_backfill(v)).cloned().unwrap_or(Value::Null);
    let backfilled: Vec<Value> = lines
        .iter()
        .filter(|v| is_backfill(v))
        .map(|v| v.pointer("/event/detail/prompt").cloned().unwrap_or(Value::Null))
        .collect();
    let _ = std::fs::remove_file(&decoded_path);
    let (stdout, stderr, exit, spawn_error) = match &output {
        Ok(o) => (o.stdout.clone(), o.stderr.clone(), o.status.code(), Value::Null),
        Err(e) => (Vec::new(), Vec::new(), Some(0), Value::String(e.to_string())),
    };
    let record = json!({
        "provider": cmd.as_ref().and_then(|c| c.provider.clone()),
        "event_arg": cmd.as_ref().and_then(|c| c.event.clone()),
        "mode": mode.as_str(),
        "argv": argv,
        "cwd": std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default(),
        "env_names": env_names,
        "payload": String::from_utf8_lossy(&payload),
        "decoded": decoded,
        "backfilled": backfilled,
        "stdout": String::from_utf8_lossy(&stdout),
        "stderr": String::from_utf8_lossy(&stderr),
        "exit": exit,
        "spawn_error": spawn_error,
        "elapsed_ms": u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    });
    let mut line = record.to_string();
    line.push('\n');
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(log) {
        let _ = f.write_all(line.as_bytes());
    }
    let _ = std::io::stdout().write_all(&stdout);
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(&stderr);
    exit.unwrap_or(1)
}

/// The tap of `agenthooks serve`: runs the real daemon as a child, forwards frames both ways and
/// logs one record per answered frame (the frame, the decoded event, the reply). When the child
/// dies, the frames it never answered are logged unanswered and the tap exits too, so the shim
/// A frame the shim sent, awaiting its reply: as read, as sent, and when.
type Sent = (Value, String, Instant);

/// sees the crash.
fn tap_serve(log: &str, mode: Mode) -> i32 {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};
    let argv: Vec<String> = std::env::args().collect();
    let cmd = runner::parse_args(&argv).ok().flatten();
    let provider = cmd.as_ref().and_then(|c| c.provider.clone());
    let (decoded_path, env_names) = tap_context(log);
    let Ok(exe) = std::env::current_exe() else { return 1 };
    let Ok(mut child) = Command::new(exe)
        .args(argv.iter().skip(1))
        .env(CHILD_ENV, &decoded_path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return 1;
    };
    // Each frame as read (tolerantly: a frame may carry what only an agent's encoder writes, a
    // lone surrogate escape) and as sent, for the record.
    let pending: Arc<Mutex<HashMap<String, Sent>>> = Arc::default();
    let mut child_in = child.stdin.take();
    let child_out = child.stdout.take();
    let writer_pending = Arc::clone(&pending);
    // shim → daemon
    let forward = std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if let Ok((frame, _)) = agenthooks::core::kit::tolerant::parse(&line) {
                if let Some(seq) = frame.get("seq") {
                    if let Ok(mut p) = writer_pending.lock() {
                        p.insert(seq.to_string(), (frame.clone(), line.clone(), Instant::now()));
                    }
                }
            }
            let Some(w) = child_in.as_mut() else { break };
            if w.write_all(line.as_bytes())
                .and_then(|()| w.write_all(b"\n"))
                .and_then(|()| w.flush())
                .is_err()
            {
                break;
            }
        }
        drop(child_in);
    });
    let record = |frame: &Value, raw: &str, reply: Option<&Value>, started: Instant| {
        let hook = frame.get("hook").and_then(Value::as_str).unwrap_or_default();
        if hook.starts_with("agenthooks.") {
            return;
        }
        let native = agenthooks::opencode::frame_name(frame.to_string().as_bytes()).unwrap_or_else(|| hook.to_owned());
        let seq = frame.get("seq").cloned().unwrap_or(Value::Null);
        let decoded = std::fs::read_to_string(&decoded_path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|d| d.get("seq") == Some(&seq))
            .unwrap_or(Value::Null);
        let (stdout, stderr, exit) = match reply {
            Some(r) => {
                let mut r = r.clone();
                if let Some(o) = r.as_object_mut() {
                    o.remove("seq");
                }
                let err = r.get("error").and_then(Value::as_str).unwrap_or_default().to_owned();
                (r.to_string(), err.clone(), Value::from(i32::from(!err.is_empty())))
            }
            None => (
                String::new(),
                "the daemon died before answering".to_owned(),
                Value::Null,
            ),
        };
        let rec = json!({
            "provider": provider, "event_arg": native, "mode": mode.as_str(), "argv": argv,
            "env_names": env_names, "payload": raw, "decoded": decoded,
            "stdout": stdout, "stderr": stderr, "exit": exit, "transport": "frame",
            "elapsed_ms": u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        });
        let mut line = rec.to_string();
        line.push('\n');
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(log) {
            let _ = f.write_all(line.as_bytes());
        }
    };
    // daemon → shim
    if let Some(out) = child_out {
        let mut stdout = std::io::stdout();
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if let Ok(reply) = serde_json::from_str::<Value>(&line) {
                let key = reply.get("seq").map(Value::to_string).unwrap_or_default();
                let entry = pending.lock().ok().and_then(|mut p| p.remove(&key));
                if let Some((frame, raw, started)) = entry {
                    record(&frame, &raw, Some(&reply), started);
                }
            }
            if stdout
                .write_all(line.as_bytes())
                .and_then(|()| stdout.write_all(b"\n"))
                .and_then(|()| stdout.flush())
                .is_err()
            {
                break;
            }
        }
    }
    let status = child.wait().ok();
    // Frames the daemon never answered (it crashed, or the shim hung up first).
    let unanswered: Vec<Sent> = pending
        .lock()
        .map(|mut p| p.drain().map(|(_, v)| v).collect())
        .unwrap_or_default();
    for (frame, raw, started) in unanswered {
        record(&frame, &raw, None, started);
    }
    let _ = std::fs::remove_file(&decoded_path);
    drop(forward);
    status.and_then(|s| s.code()).unwrap_or(1)
}

/// A deliberately wrong codec: decodes with the agent's real codec, but answers a `tool.pre` in
/// Claude Code's dialect (by re-expressing the event as a Claude `PreToolUse` and letting the
/// Claude codec encode the decision). Everything else is delegated.
#[derive(Debug)]
struct Misdirected {
    inner: &'static dyn Codec,
}

impl Misdirected {
    fn as_claude(ev: &Event) -> Option<Event> {
        let Event::ToolPre(e) = ev else { return None };
        let s = &e.envelope.session;
        let payload = json!({
            "session_id": s.id, "transcript_path": s.transcript_path, "cwd": s.cwd,
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": e.tool.input(), "tool_use_id": e.tool.id,
        });
        let env = ProcessEnv;
        let inv = agenthooks::core::Invocation::new(payload.to_string().into_bytes(), &env)
            .with_native_event(Some("PreToolUse"));
        agenthooks::claude::CODEC.decode(&inv).ok()
    }
}

/// The `Codec` methods both wrappers below pass to `self.inner` unchanged.
macro_rules! delegate_to_inner {
    () => {
        fn no_op(&self, target: &EventTarget) -> WireResponse {
            self.inner.no_op(target)
        }
        fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
            self.inner.failure_response(target, mode, reason)
        }
        fn capabilities(&self, variant: &Variant, native: &str) -> CapSet {
            self.inner.capabilities(variant, native)
        }
        fn default_timeout(&self) -> Duration {
            self.inner.default_timeout()
        }
        fn quirks(&self) -> &'static [Quirk] {
            self.inner.quirks()
        }
        fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
            self.inner.sniff_env(env)
        }
        fn sniff_payload(&self, payload: &[u8], env: &dyn Env) -> Option<Confidence> {
            self.inner.sniff_payload(payload, env)
        }
        fn stderr_use(&self) -> StderrUse {
            self.inner.stderr_use()
        }
        fn kind_of(&self, native: &str) -> EventKind {
            self.inner.kind_of(native)
        }
    };
}

impl Codec for Misdirected {
    fn provider(&self) -> Provider {
        self.inner.provider()
    }
    fn native_events(&self) -> &'static [EventRow] {
        self.inner.native_events()
    }
    fn decode(&self, inv: &agenthooks::core::Invocation<'_>) -> Result<Event, DecodeError> {
        self.inner.decode(inv)
    }
    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        match Self::as_claude(event) {
            Some(claude_event) => agenthooks::claude::CODEC.encode(&claude_event, outcome),
            None if event.kind() == EventKind::ToolPre => Err(EncodeError::new(
                self.provider(),
                EncodeCategory::WrongFamily,
                "could not re-express the event in Claude's dialect",
            )),
            None => self.inner.encode(event, outcome),
        }
    }
    delegate_to_inner!();
}

/// What the warm server's connection thread decoded, until it answers (decode and the http
/// answer run on the connection's thread; only the handlers run on a worker).
struct Received {
    payload: Vec<u8>,
    decoded: Value,
    started: Instant,
}

thread_local! {
    static RECEIVED: std::cell::RefCell<Option<Received>> = const { std::cell::RefCell::new(None) };
}

/// The warm server's tap: delegates everything to the agent's codec, and appends one record per
/// answered request to the log from [`Codec::http_response`] (the answer the server sends: exit
/// 0 as `200` with stdout, anything else as `500` with stderr), marked `"transport": "http"`
/// with the server's pid. In [`Mode::Crash`] a `tool.pre` is recorded unanswered as it is
/// decoded: its handler aborts the server.
#[derive(Debug)]
struct HttpTap {
    inner: &'static dyn Codec,
    log: String,
    mode: Mode,
    argv: Vec<String>,
}

impl HttpTap {
    fn write(&self, native: &str, r: &Received, answer: Option<&WireResponse>) {
        let (stdout, stderr, exit, status) = match answer {
            Some(w) => (
                String::from_utf8_lossy(&w.stdout).into_owned(),
                String::from_utf8_lossy(&w.stderr).into_owned(),
                Value::from(w.exit_code),
                Value::from(if w.exit_code == 0 { 200 } else { 500 }),
            ),
            None => (
                String::new(),
                "the warm server died before answering".to_owned(),
                Value::Null,
                Value::Null,
            ),
        };
        let rec = json!({
            "provider": self.inner.provider().as_str(), "event_arg": native, "mode": self.mode.as_str(),
            "argv": self.argv, "env_names": Vec::<String>::new(),
            "payload": String::from_utf8_lossy(&r.payload), "decoded": r.decoded,
            "stdout": stdout, "stderr": stderr, "exit": exit,
            "transport": "http", "http_status": status, "server_pid": std::process::id(),
            "elapsed_ms": u64::try_from(r.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        });
        let mut line = rec.to_string();
        line.push('\n');
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(&self.log) {
            let _ = f.write_all(line.as_bytes());
        }
    }
}

impl Codec for HttpTap {
    fn provider(&self) -> Provider {
        self.inner.provider()
    }
    fn native_events(&self) -> &'static [EventRow] {
        self.inner.native_events()
    }
    fn name_key(&self) -> Option<&'static str> {
        self.inner.name_key()
    }
    fn row(&self, native: &str) -> Option<&'static EventRow> {
        self.inner.row(native)
    }
    fn tools(&self) -> Option<&'static agenthooks::core::ToolTable> {
        self.inner.tools()
    }
    fn mcp_loader(&self) -> Option<agenthooks::core::mcp::McpLoader> {
        self.inner.mcp_loader()
    }
    fn native_extra<'a>(&self, envelope: &'a agenthooks::core::Envelope) -> Option<&'a agenthooks::core::kit::Extra> {
        self.inner.native_extra(envelope)
    }
    fn decode(&self, inv: &agenthooks::core::Invocation<'_>) -> Result<Event, DecodeError> {
        let started = Instant::now();
        let out = self.inner.decode(inv);
        let decoded = match &out {
            Ok(ev) => decoded_record(ev.envelope().native.as_str(), ev.kind().as_str(), &ev.to_json(false)),
            Err(_) => Value::Null,
        };
        let received = Received {
            payload: inv.payload.as_bytes().to_vec(),
            decoded,
            started,
        };
        let dies = self.mode == Mode::Crash && out.as_ref().is_ok_and(|ev| ev.kind() == EventKind::ToolPre);
        if dies {
            let native = out
                .as_ref()
                .map(|ev| ev.envelope().native.as_str().to_owned())
                .unwrap_or_default();
            self.write(&native, &received, None);
        } else {
            RECEIVED.with(|r| *r.borrow_mut() = Some(received));
        }
        out
    }
    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        self.inner.encode(event, outcome)
    }
    fn event_capabilities(&self, event: &Event) -> CapSet {
        self.inner.event_capabilities(event)
    }
    delegate_to_inner!();
    fn http_response(&self, native: Option<&str>, response: WireResponse) -> WireResponse {
        let answer = self.inner.http_response(native, response);
        let received = RECEIVED.with(|r| r.borrow_mut().take()).unwrap_or(Received {
            payload: Vec::new(),
            decoded: Value::Null,
            started: Instant::now(),
        });
        self.write(native.unwrap_or_default(), &received, Some(&answer));
        answer
    }
}
