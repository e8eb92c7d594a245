//! The process edge: one call a consumer's `main` makes.
//!
//! ```text
//! <bin> … agenthooks run    --provider=P [--event=NATIVE] [--argv-payload] [--timeout=SECS] [--variant=V]
//! <bin> … agenthooks notify --provider=codex '<json>'
//! <bin> … agenthooks serve  --provider=P
//! <bin> … agenthooks ping
//! ```
//!
//! The `agenthooks` word may stand anywhere in argv, so a consumer binary keeps its own CLI:
//! [`parse_args`] returns `Ok(None)` when it is absent.
//!
//! Per invocation the runner: reads stdin under a size cap; detects the provider (flag first,
//! then env, then payload shape, and answers in the dialect of the agent that is really listening
//! when the flag and the payload disagree); decodes; points file descriptor 1 away from the real
//! stdout while handlers run (to stderr, or to a log file where the agent reserves stderr), so a
//! stray `println!` cannot corrupt the response; runs the router on a worker thread under a
//! deadline slightly shorter than the agent's timeout; catches panics; enforces the continuation
//! cap; degrades the decision to the event's capabilities; encodes; and writes exactly the
//! codec's bytes and exit code. Any failure is answered by the policy's failure response — never
//! a panic, never garbage on stdout.

use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::capability::{degrade, Degradation, Policy};
use crate::codec::{Codec, ConnState, Env, EventTarget, Invocation, ProcessEnv, StderrUse, Transport, WireResponse};
use crate::decision::{DecisionKind, Outcome};
use crate::error::{DecodeCategory, DecodeError, HandlerError};
use crate::event::{Envelope, Event, RawPayload};
use crate::provider::{Confidence, NativeName, Provider, Variant};
use crate::router::{Context, Router};

/// Default stdin cap: 32 MiB.
pub const DEFAULT_STDIN_CAP: usize = 32 << 20;

/// The subcommand after the `agenthooks` word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// One event per process.
    Run,
    /// Codex's legacy `notify` (JSON in argv).
    Notify,
    /// Long-lived NDJSON bridge.
    Serve,
    /// Health check: prints a JSON pong.
    Ping,
}

/// Parsed `agenthooks …` arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Command {
    /// The mode.
    pub mode: Mode,
    /// `--provider`.
    pub provider: Option<String>,
    /// `--event`.
    pub event: Option<String>,
    /// `--variant`.
    pub variant: Option<String>,
    /// `--argv-payload`: the payload is the last positional argument.
    pub argv_payload: bool,
    /// `--timeout` in seconds (fractions allowed).
    pub timeout: Option<Duration>,
    /// Everything after the mode word.
    pub args: Vec<String>,
    /// Positional arguments after the mode word.
    pub positional: Vec<String>,
}

/// A command-line usage error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UsageError {
    /// No mode after `agenthooks`.
    #[error("expected `run`, `notify`, `serve` or `ping` after `agenthooks`")]
    MissingMode,
    /// An unknown mode.
    #[error("unknown agenthooks mode `{0}`")]
    UnknownMode(String),
    /// A flag without its value.
    #[error("flag `{0}` needs a value")]
    MissingValue(String),
    /// A bad timeout.
    #[error("invalid --timeout `{0}` (seconds expected)")]
    BadTimeout(String),
    /// An unknown flag.
    #[error("unknown flag `{0}`")]
    UnknownFlag(String),
    /// A provider that this binary does not include.
    #[error("provider `{0}` is not supported in this build (compiled-in: {1})")]
    UnsupportedProvider(String, String),
    /// No provider could be detected.
    #[error("could not detect the provider: pass --provider")]
    NoProvider,
}

/// Parses argv. Returns `Ok(None)` when the `agenthooks` word is absent (the consumer's own CLI).
///
/// ```
/// use agenthooks_core::runner::{parse_args, Mode};
/// let argv: Vec<String> = ["guard", "--verbose", "agenthooks", "run", "--provider=copilot", "--event", "preToolUse", "--timeout=5"]
///     .iter().map(|s| s.to_string()).collect();
/// let c = parse_args(&argv).unwrap().unwrap();
/// assert_eq!(c.mode, Mode::Run);
/// assert_eq!(c.provider.as_deref(), Some("copilot"));
/// assert_eq!(c.event.as_deref(), Some("preToolUse"));
/// assert_eq!(c.timeout, Some(std::time::Duration::from_secs(5)));
/// assert!(parse_args(&["guard".to_string()]).unwrap().is_none());
/// ```
pub fn parse_args(argv: &[String]) -> Result<Option<Command>, UsageError> {
    let Some(pos) = argv.iter().skip(1).position(|a| a == "agenthooks").map(|p| p + 1) else {
        return Ok(None);
    };
    let mode = match argv.get(pos + 1).map(String::as_str) {
        None => return Err(UsageError::MissingMode),
        Some("run") => Mode::Run,
        Some("notify") => Mode::Notify,
        Some("serve") => Mode::Serve,
        Some("ping") => Mode::Ping,
        Some(other) => return Err(UsageError::UnknownMode(other.to_owned())),
    };
    let args: Vec<String> = argv[pos + 2..].to_vec();
    let mut cmd = Command {
        mode,
        provider: None,
        event: None,
        variant: None,
        argv_payload: false,
        timeout: None,
        args: args.clone(),
        positional: Vec::new(),
    };
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if a == "--" {
            cmd.positional.extend(it.by_ref());
            break;
        }
        if !a.starts_with("--") {
            cmd.positional.push(a);
            continue;
        }
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
            None => (a.clone(), None),
        };
        let mut value = |n: &str| -> Result<String, UsageError> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it.next().ok_or_else(|| UsageError::MissingValue(n.to_owned())),
            }
        };
        match name.as_str() {
            "--provider" => cmd.provider = Some(value("--provider")?),
            "--event" => cmd.event = Some(value("--event")?),
            "--variant" => cmd.variant = Some(value("--variant")?),
            "--timeout" => {
                let v = value("--timeout")?;
                let secs: f64 = v.parse().map_err(|_| UsageError::BadTimeout(v.clone()))?;
                if !secs.is_finite() || secs <= 0.0 || secs > 86_400.0 {
                    return Err(UsageError::BadTimeout(v));
                }
                cmd.timeout = Some(Duration::from_secs_f64(secs));
            }
            "--argv-payload" => cmd.argv_payload = true,
            _ => return Err(UsageError::UnknownFlag(name)),
        }
    }
    Ok(Some(cmd))
}

/// Runner options.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RunOptions {
    /// Maximum payload size in bytes.
    pub stdin_cap: usize,
    /// Where logs go when the agent reserves stderr, and where per-session state lives.
    pub state_dir: Option<PathBuf>,
    /// Redirect file descriptor 1 while handlers run (Unix; on by default).
    pub redirect_stdout: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            stdin_cap: DEFAULT_STDIN_CAP,
            state_dir: None,
            redirect_stdout: true,
        }
    }
}

impl RunOptions {
    /// Sets the stdin cap.
    #[must_use]
    pub fn with_stdin_cap(mut self, cap: usize) -> Self {
        self.stdin_cap = cap;
        self
    }

    /// Sets the state directory.
    #[must_use]
    pub fn with_state_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.state_dir = Some(dir.into());
        self
    }

    /// The state directory: the option, else `$AGENTHOOKS_STATE_DIR`, else
    /// `$XDG_STATE_HOME/agenthooks`, else `$HOME/.local/state/agenthooks`, else the temp dir.
    pub fn resolved_state_dir(&self, env: &dyn Env) -> PathBuf {
        if let Some(d) = &self.state_dir {
            return d.clone();
        }
        if let Some(d) = env.var("AGENTHOOKS_STATE_DIR").filter(|s| !s.is_empty()) {
            return d.into();
        }
        if let Some(d) = env.var("XDG_STATE_HOME").filter(|s| !s.is_empty()) {
            return Path::new(&d).join("agenthooks");
        }
        if let Some(h) = env.var("HOME").filter(|s| !s.is_empty()) {
            return Path::new(&h).join(".local/state/agenthooks");
        }
        std::env::temp_dir().join("agenthooks")
    }
}

/// What one in-process invocation produced (for tests and tools).
#[derive(Debug)]
#[non_exhaustive]
pub struct Invoked {
    /// The exact response.
    pub response: WireResponse,
    /// The decoded event as the handlers left it (interceptors may change its projection), when
    /// decoding succeeded and the handlers answered.
    pub event: Option<Event>,
    /// The router's winning decision, before degradation.
    pub decided: Option<Outcome>,
    /// The decision sent, after degradation and the continuation cap.
    pub sent: Option<Outcome>,
    /// Degradations made.
    pub degradations: Vec<Degradation>,
    /// What failed, if anything (the response is then the failure response).
    pub failure: Option<Failure>,
    /// The provider that answered.
    pub provider: Option<Provider>,
}

/// Why the runner answered with a failure response.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Failure {
    /// The payload could not be decoded.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A handler failed, panicked, or a strict policy rejected the decision.
    #[error(transparent)]
    Handler(#[from] HandlerError),
    /// The deadline passed.
    #[error("no decision before the deadline ({0:?})")]
    Deadline(Duration),
    /// The decision could not be encoded.
    #[error(transparent)]
    Encode(#[from] crate::error::EncodeError),
}

/// Detects the codec for an invocation: the flag first; else env; else payload shape. When the
/// flag names one agent but the payload plainly comes from another, the real one is returned with
/// [`Confidence::Mismatch`].
pub fn detect<'c>(
    codecs: &[&'c dyn Codec],
    flag: Option<&str>,
    payload: &[u8],
    env: &dyn Env,
) -> Result<(&'c dyn Codec, Confidence), UsageError> {
    if let Some(flag) = flag {
        let Some(named) = codecs.iter().copied().find(|c| c.provider() == flag) else {
            let list: Vec<String> = codecs.iter().map(|c| c.provider().to_string()).collect();
            return Err(UsageError::UnsupportedProvider(flag.to_owned(), list.join(", ")));
        };
        if named.sniff_payload(payload, env).is_none() {
            if let Some(real) = codecs
                .iter()
                .copied()
                .find(|c| c.provider() != flag && c.sniff_payload(payload, env) == Some(Confidence::Certain))
            {
                tracing::warn!(flag, real = %real.provider(), "payload shape belongs to another agent; answering in its dialect");
                return Ok((real, Confidence::Mismatch));
            }
        }
        return Ok((named, Confidence::Certain));
    }
    let best = |f: &dyn Fn(&dyn Codec) -> Option<Confidence>| {
        codecs
            .iter()
            .copied()
            .filter_map(|c| f(c).map(|k| (c, k)))
            .max_by_key(|(_, k)| *k)
    };
    if let Some((c, k)) = best(&|c| c.sniff_payload(payload, env)).filter(|(_, k)| *k == Confidence::Certain) {
        return Ok((c, k));
    }
    if let Some((c, _)) = best(&|c| c.sniff_env(env)) {
        return Ok((c, Confidence::Inferred));
    }
    if let Some((c, _)) = best(&|c| c.sniff_payload(payload, env)) {
        return Ok((c, Confidence::Guess));
    }
    Err(UsageError::NoProvider)
}

/// Called before inline dispatch with the target, policy and deadline.
type ArmWatchdog<'a> = dyn Fn(&EventTarget, &Policy, Instant) + 'a;

/// The runner: a router plus the compiled-in codecs.
#[derive(Debug, Clone)]
pub struct Runner {
    router: Arc<Router>,
    codecs: Vec<&'static dyn Codec>,
    options: RunOptions,
}

impl Runner {
    /// A runner over the given codecs.
    pub fn new(router: Router, codecs: Vec<&'static dyn Codec>) -> Self {
        Self {
            router: Arc::new(router),
            codecs,
            options: RunOptions::default(),
        }
    }

    /// Sets options.
    #[must_use]
    pub fn with_options(mut self, o: RunOptions) -> Self {
        self.options = o;
        self
    }

    /// The router.
    pub fn router(&self) -> &Router {
        &self.router
    }

    /// The codecs.
    pub fn codecs(&self) -> &[&'static dyn Codec] {
        &self.codecs
    }

    /// The codec for a provider.
    pub fn codec(&self, p: &str) -> Option<&'static dyn Codec> {
        self.codecs.iter().copied().find(|c| c.provider() == p)
    }

    /// Runs one invocation in process: decode, dispatch under the deadline, degrade, encode.
    /// Never panics; every failure becomes the policy's failure response.
    pub fn invoke(
        &self,
        codec: &dyn Codec,
        inv: &Invocation<'_>,
        timeout: Option<Duration>,
        confidence: Confidence,
    ) -> Invoked {
        self.invoke_impl(codec, inv, timeout, confidence, None)
    }

    /// With `inline`, handlers run on the calling thread and `inline` is called first with the
    /// target, policy and deadline (the process edge arms a watchdog there, so the fast path
    /// never waits on another thread); without it, handlers run on a worker thread and the
    /// deadline is enforced here.
    fn invoke_impl(
        &self,
        codec: &dyn Codec,
        inv: &Invocation<'_>,
        timeout: Option<Duration>,
        confidence: Confidence,
        inline: Option<&ArmWatchdog<'_>>,
    ) -> Invoked {
        let timeout = timeout.unwrap_or_else(|| codec.default_timeout());
        let started = Instant::now();
        let deadline = started + deadline_budget(timeout);
        let provider = codec.provider();
        let hint_target = || {
            let native = inv.native_event.map(NativeName::from);
            let kind = native.as_ref().map(|n| codec.kind_of(n.as_str()));
            let mut t = EventTarget::new(native, kind);
            if let Some(v) = inv.variant {
                t.variant = v.clone();
            }
            t
        };
        let mut out = Invoked {
            response: WireResponse::empty(),
            event: None,
            decided: None,
            sent: None,
            degradations: Vec::new(),
            failure: None,
            provider: Some(provider.clone()),
        };

        // Decode (codecs must not panic; guard anyway).
        let decoded =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| codec.decode(inv))).unwrap_or_else(|p| {
                Err(DecodeError::new(
                    provider.clone(),
                    DecodeCategory::Data,
                    format!("codec panicked: {}", crate::router::panic_message(&*p)),
                ))
            });
        let mut event = match decoded {
            Ok(e) => e,
            Err(e) => {
                let target = hint_target();
                let policy = self.policy_for_target(&provider, &target, &inv.payload);
                tracing::warn!(provider = %provider, error = %e, "payload could not be decoded");
                out.response = codec.failure_response(&target, policy.fail, &e.to_string());
                out.failure = Some(Failure::Decode(e));
                return out;
            }
        };
        if confidence < event.envelope().confidence {
            event.envelope_mut().confidence = confidence;
        }
        let target = EventTarget::of(&event);
        let policy = self.router.policy().resolve(event.envelope());
        let caps = codec.event_capabilities(&event);
        let cx = Context::new(caps, policy, Some(deadline));

        let state_dir = inv
            .state_dir
            .map_or_else(|| self.options.resolved_state_dir(inv.env), Path::to_path_buf);
        let continuation = Continuations::new(&state_dir, &event);
        if let (Some(c), Event::Stop(s) | Event::SubagentStop(s)) = (&continuation, &mut event) {
            if !s.previously_continued {
                c.reset();
            }
            if s.continuation_count.is_none() {
                s.continuation_count = Some(c.count());
            }
        }

        // Handlers see (and interceptors may change) the event's projection; no copy is made.
        let (result, event) = if let Some(arm) = inline {
            arm(&target, &policy, deadline);
            let r = self.router.dispatch(&cx, &mut event).map_err(Failure::Handler);
            (r, Some(event))
        } else {
            // Dispatch on a worker thread under the deadline; the event travels there and back.
            let (tx, rx) = mpsc::channel();
            let router = Arc::clone(&self.router);
            let cx_w = cx.clone();
            let spawned = std::thread::Builder::new()
                .name("agenthooks-handler".into())
                .spawn(move || {
                    let r = router.dispatch(&cx_w, &mut event);
                    let _ = tx.send((r, event));
                });
            match spawned {
                Ok(_) => match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                    Ok((r, ev)) => (r.map_err(Failure::Handler), Some(ev)),
                    Err(_) => (Err(Failure::Deadline(timeout)), None),
                },
                Err(e) => (Err(Failure::Handler(HandlerError::new(e))), None),
            }
        };
        out.event = event;
        let decided = match result {
            Ok(o) => o,
            Err(f) => {
                tracing::warn!(provider = %provider, error = %f, "handler failed; answering per failure policy");
                out.response = codec.failure_response(&target, policy.fail, &f.to_string());
                out.failure = Some(f);
                return out;
            }
        };
        out.decided = Some(decided.clone());

        // Continuation cap.
        let mut to_send = decided;
        if let Some(c) = &continuation {
            if to_send.kind() == DecisionKind::Continue {
                if c.count() >= policy.continuation_cap {
                    tracing::warn!(
                        cap = policy.continuation_cap,
                        "continuation cap reached; finishing instead"
                    );
                    out.degradations.push(Degradation {
                        capability: crate::Capability::ContinueAgent,
                        from: DecisionKind::Continue,
                        to: DecisionKind::NoDecision,
                        note: "continuation cap reached; finished",
                    });
                    to_send = Outcome::neutral_for(target.kind.unwrap_or(crate::EventKind::Stop));
                } else {
                    c.increment();
                }
            } else {
                c.reset();
            }
        }

        let degraded = match degrade(to_send, caps, &policy) {
            Ok(d) => d,
            Err(e) => {
                let f = Failure::Handler(HandlerError::Unsupported(e));
                out.response = codec.failure_response(&target, policy.fail, &f.to_string());
                out.failure = Some(f);
                return out;
            }
        };
        for d in &degraded.degradations {
            tracing::warn!(provider = %provider, event = %target.native.as_ref().map_or("", NativeName::as_str), degradation = %d, "capability degradation");
        }
        out.degradations.extend(degraded.degradations);
        let Some(event_ref) = out.event.as_ref() else {
            return out;
        };
        match codec.encode(event_ref, &degraded.outcome) {
            Ok(r) => out.response = r,
            Err(e) => {
                tracing::warn!(provider = %provider, error = %e, "encode failed; answering per failure policy");
                out.response = codec.failure_response(&target, policy.fail, &e.to_string());
                out.failure = Some(Failure::Encode(e));
            }
        }
        out.sent = Some(degraded.outcome);
        out
    }

    fn policy_for_target(&self, provider: &Provider, t: &EventTarget, raw: &RawPayload) -> Policy {
        let env = Envelope::new(
            provider.clone(),
            t.native.clone().unwrap_or_else(|| NativeName::from_static("")),
            t.kind.unwrap_or(crate::EventKind::Other),
            raw.clone(),
        );
        self.router.policy().resolve(&env)
    }

    /// The whole process edge over real stdin/stdout/stderr; returns the exit code. `argv` is the
    /// full process argv. Returns `None` when argv has no `agenthooks` word.
    pub fn run_process(&self, argv: &[String]) -> Option<i32> {
        let cmd = match parse_args(argv) {
            Ok(None) => return None,
            Ok(Some(c)) => c,
            Err(e) => {
                let _ = writeln!(io::stderr(), "agenthooks: {e}");
                return Some(2);
            }
        };
        Some(self.run_command(&cmd))
    }

    /// Runs a parsed command over the real process streams; returns the exit code.
    pub fn run_command(&self, cmd: &Command) -> i32 {
        let env = ProcessEnv;
        match cmd.mode {
            Mode::Ping => {
                let v = serde_json::json!({
                    "agenthooks": "pong",
                    "version": env!("CARGO_PKG_VERSION"),
                    "providers": self.codecs.iter().map(|c| c.provider().to_string()).collect::<Vec<_>>(),
                });
                let _ = writeln!(io::stdout(), "{v}");
                0
            }
            Mode::Serve => {
                let Some(codec) = cmd.provider.as_deref().and_then(|p| self.codec(p)) else {
                    let _ = writeln!(io::stderr(), "agenthooks serve: --provider names no compiled-in codec");
                    return 2;
                };
                init_logging(codec.stderr_use(), &self.options.resolved_state_dir(&env), &env);
                quiet_panics();
                let stdin = io::stdin();
                let out: FrameSink = Arc::new(Mutex::new(Box::new(io::stdout())));
                serve(self, codec, &mut stdin.lock(), &out, &env);
                0
            }
            Mode::Run | Mode::Notify => self.run_once(cmd, &env),
        }
    }

    fn run_once(&self, cmd: &Command, env: &dyn Env) -> i32 {
        let transport = if cmd.mode == Mode::Notify || cmd.argv_payload {
            Transport::Argv
        } else {
            Transport::Stdin
        };
        let payload: Result<Vec<u8>, DecodeError> = match transport {
            Transport::Argv => cmd.positional.last().map(|s| s.clone().into_bytes()).ok_or_else(|| {
                DecodeError::new(
                    Provider::new(cmd.provider.clone().unwrap_or_default()),
                    DecodeCategory::Transport,
                    "no payload argument",
                )
            }),
            _ => read_capped(&mut io::stdin().lock(), self.options.stdin_cap)
                .map_err(|(cat, m)| DecodeError::new(Provider::new(cmd.provider.clone().unwrap_or_default()), cat, m)),
        };
        let bytes = payload.as_deref().unwrap_or(&[]);
        let (codec, confidence) = match detect(&self.codecs, cmd.provider.as_deref(), bytes, env) {
            Ok(x) => x,
            Err(e) => {
                let _ = writeln!(io::stderr(), "agenthooks: {e}");
                return 1;
            }
        };
        let state_dir = self.options.resolved_state_dir(env);
        init_logging(codec.stderr_use(), &state_dir, env);
        quiet_panics();
        let variant = cmd.variant.as_deref().map(Variant::from);
        let response = match payload {
            Err(e) => {
                let native = cmd.event.as_deref().map(NativeName::from);
                let kind = native.as_ref().map(|n| codec.kind_of(n.as_str()));
                let target = EventTarget::new(native, kind);
                let policy = self.policy_for_target(&codec.provider(), &target, &RawPayload::default());
                tracing::warn!(error = %e, "payload could not be read");
                codec.failure_response(&target, policy.fail, &e.to_string())
            }
            Ok(bytes) => {
                let guard = StdoutGuard::redirect(self.options.redirect_stdout, codec.stderr_use(), &state_dir);
                let inv = Invocation::new(bytes, env)
                    .with_argv(&cmd.args)
                    .with_native_event(cmd.event.as_deref())
                    .with_variant(variant.as_ref())
                    .with_transport(transport)
                    .with_state_dir(Some(&state_dir));
                let answered = Arc::new(AtomicBool::new(false));
                let watchdog_out = guard.clone_saved();
                let arm = |target: &EventTarget, policy: &Policy, deadline: Instant| {
                    let late = codec.failure_response(target, policy.fail, "no decision before the deadline");
                    let answered = Arc::clone(&answered);
                    let out = watchdog_out.as_ref().and_then(|f| f.try_clone().ok());
                    let _ = std::thread::Builder::new()
                        .name("agenthooks-watchdog".into())
                        // It only sleeps, then writes a prepared answer: a small stack is cheaper
                        // to map and unmap on every hook invocation.
                        .stack_size(256 << 10)
                        .spawn(move || {
                            let now = Instant::now();
                            if deadline > now {
                                std::thread::sleep(deadline - now);
                            }
                            if answered
                                .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                                .is_ok()
                            {
                                tracing::warn!(
                                    "handlers did not answer before the deadline; answering per failure policy"
                                );
                                let code = StdoutGuard { saved: out }.finish(&late);
                                #[allow(clippy::exit)]
                                std::process::exit(code);
                            }
                        });
                };
                let r = self
                    .invoke_impl(codec, &inv, cmd.timeout, confidence, Some(&arm))
                    .response;
                if answered
                    .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                    .is_err()
                {
                    // The watchdog is answering; it exits the process.
                    loop {
                        std::thread::park();
                    }
                }
                return guard.finish(&r);
            }
        };
        StdoutGuard::none().finish(&response)
    }
}

/// The share of the agent's timeout the handlers get: the timeout minus a margin of 10% (at
/// least 100 ms, at most 2 s), never less than half of it.
pub fn deadline_budget(timeout: Duration) -> Duration {
    let margin = (timeout / 10).clamp(Duration::from_millis(100), Duration::from_secs(2));
    timeout.saturating_sub(margin).max(timeout / 2)
}

/// Reads at most `cap` bytes; more is [`DecodeCategory::Oversize`]; none is `Empty`; invalid
/// UTF-8 is `NotUtf8`.
pub fn read_capped(r: &mut dyn Read, cap: usize) -> Result<Vec<u8>, (DecodeCategory, String)> {
    let mut buf = Vec::with_capacity(8192);
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    r.take(limit)
        .read_to_end(&mut buf)
        .map_err(|e| (DecodeCategory::Io, format!("reading the payload failed: {e}")))?;
    if buf.len() > cap {
        return Err((DecodeCategory::Oversize, format!("payload exceeds the {cap}-byte cap")));
    }
    if buf.iter().all(u8::is_ascii_whitespace) {
        return Err((DecodeCategory::Empty, "empty payload".to_owned()));
    }
    if std::str::from_utf8(&buf).is_err() {
        return Err((DecodeCategory::NotUtf8, "payload is not valid UTF-8".to_owned()));
    }
    Ok(buf)
}

/// Per-session continuation counter (a small state file), so no hook can loop an agent forever.
struct Continuations {
    path: PathBuf,
}

impl Continuations {
    fn new(dir: &Path, ev: &Event) -> Option<Self> {
        if !matches!(ev, Event::Stop(_) | Event::SubagentStop(_)) {
            return None;
        }
        let env = ev.envelope();
        let mut h = Sha256::new();
        h.update(env.provider.as_str().as_bytes());
        h.update(b"|");
        h.update(env.session.id.as_bytes());
        h.update(b"|");
        h.update(env.agent.as_ref().map_or("", |a| a.id.as_str()).as_bytes());
        let d = h.finalize();
        let name = d[..8].iter().fold(String::with_capacity(16), |mut acc, b| {
            use std::fmt::Write as _;
            let _ = write!(acc, "{b:02x}");
            acc
        });
        Some(Self {
            path: dir.join("continuations").join(name),
        })
    }

    fn count(&self) -> u32 {
        std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    }

    fn increment(&self) {
        let n = self.count().saturating_add(1);
        if let Some(p) = self.path.parent() {
            let _ = std::fs::create_dir_all(p);
        }
        if let Err(e) = std::fs::write(&self.path, n.to_string()) {
            tracing::warn!(error = %e, "could not record the continuation count");
        }
    }

    fn reset(&self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn init_logging(stderr_use: StderrUse, state_dir: &Path, env: &dyn Env) {
    use crate::log::{MiniSubscriber, Sink};
    // A minimal subscriber: subscriber start-up is on every hook invocation's path.
    let spec = env.var("AGENTHOOKS_LOG").unwrap_or_default();
    let to_file = stderr_use == StderrUse::Reserved || env.var("AGENTHOOKS_LOG_FILE").is_some();
    let path = env
        .var("AGENTHOOKS_LOG_FILE")
        .map_or_else(|| state_dir.join("agenthooks.log"), PathBuf::from);
    // A level, or env-filter style directives (`agenthooks=debug,warn`): the most verbose level
    // named wins (per-target filtering is not worth its start-up cost in a hook process).
    let level = match spec.trim() {
        "" => Some(tracing::Level::WARN),
        "off" => None,
        s => s
            .split(',')
            .filter_map(|d| d.rsplit('=').next()?.trim().parse::<tracing::Level>().ok())
            .max()
            .or(Some(tracing::Level::WARN)),
    };
    if let Some(level) = level {
        let sink = if to_file { Sink::File(path) } else { Sink::Stderr };
        let _ = tracing::subscriber::set_global_default(MiniSubscriber::new(level, sink));
    }
}

/// Routes panic messages to the log instead of stderr (some agents surface or parse stderr);
/// the runner turns the panic itself into the failure response.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        tracing::error!(panic = %info, "handler panicked");
    }));
}

/// Points fd 1 away from the real stdout while handlers run and writes the response to the
/// saved original.
struct StdoutGuard {
    saved: Option<std::fs::File>,
}

impl StdoutGuard {
    fn none() -> Self {
        Self { saved: None }
    }

    fn redirect(enabled: bool, stderr_use: StderrUse, state_dir: &Path) -> Self {
        if !enabled {
            return Self::none();
        }
        Self {
            saved: sys::redirect_stdout(stderr_use == StderrUse::Logs, &state_dir.join("handler-stdout.log")),
        }
    }

    /// A duplicate of the saved stdout, for the watchdog.
    fn clone_saved(&self) -> Option<std::fs::File> {
        self.saved.as_ref().and_then(|f| f.try_clone().ok())
    }

    /// Writes the response and returns the exit code. A closed stdout (EPIPE) is ignored.
    fn finish(self, r: &WireResponse) -> i32 {
        let _ = io::stdout().flush();
        if !r.stdout.is_empty() {
            let res = match self.saved {
                Some(mut f) => f.write_all(&r.stdout).and_then(|()| f.flush()),
                None => {
                    let mut o = io::stdout().lock();
                    o.write_all(&r.stdout).and_then(|()| o.flush())
                }
            };
            if let Err(e) = res {
                tracing::warn!(error = %e, "could not write the response to stdout");
            }
        }
        if !r.stderr.is_empty() {
            let _ = io::stderr().write_all(&r.stderr);
        }
        r.exit_code
    }
}

#[cfg(unix)]
#[allow(unsafe_code)]
mod sys {
    //! The one unsafe call of the workspace: `dup2`, to point fd 1 elsewhere while handlers run.
    use std::os::fd::{AsFd, AsRawFd};
    use std::os::raw::c_int;
    use std::path::Path;

    extern "C" {
        fn dup2(oldfd: c_int, newfd: c_int) -> c_int;
    }

    /// Saves the real stdout and points fd 1 at stderr (`to_stderr`) or at `log`.
    pub(super) fn redirect_stdout(to_stderr: bool, log: &Path) -> Option<std::fs::File> {
        let saved = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
        let target: std::fs::File = if to_stderr {
            std::fs::File::from(std::io::stderr().as_fd().try_clone_to_owned().ok()?)
        } else {
            if let Some(p) = log.parent() {
                let _ = std::fs::create_dir_all(p);
            }
            match std::fs::OpenOptions::new().create(true).append(true).open(log) {
                Ok(f) => f,
                Err(_) => std::fs::OpenOptions::new().write(true).open("/dev/null").ok()?,
            }
        };
        // SAFETY: both descriptors are valid and owned for the duration of the call; dup2 only
        // replaces fd 1, which Rust's std treats as an opaque, always-open descriptor.
        let rc = unsafe { dup2(target.as_raw_fd(), 1) };
        if rc < 0 {
            return None;
        }
        Some(std::fs::File::from(saved))
    }
}

#[cfg(not(unix))]
mod sys {
    //! Fallback: no descriptor redirection on this platform; handlers must not print to stdout.
    use std::path::Path;

    pub(super) fn redirect_stdout(_to_stderr: bool, _log: &Path) -> Option<std::fs::File> {
        None
    }
}

/// Where `serve` writes response frames (shared by the per-session workers).
pub type FrameSink = Arc<Mutex<Box<dyn Write + Send>>>;

type SessionWorker = (mpsc::Sender<(Value, Event)>, std::thread::JoinHandle<()>);

/// `serve` mode: NDJSON frames `{seq, hook, …}` in, `{seq, output?, error?}` out. Concurrent
/// across sessions, serialized within one; a malformed or oversize frame gets an error frame and
/// the loop goes on; EOF ends cleanly after in-flight frames are answered.
pub fn serve(runner: &Runner, codec: &'static dyn Codec, input: &mut dyn BufRead, out: &FrameSink, env: &dyn Env) {
    let conn = Arc::new(ConnState::default());
    let mut workers: std::collections::HashMap<String, SessionWorker> = std::collections::HashMap::new();
    let cap = runner.options.stdin_cap;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = match read_line_capped(input, &mut line, cap) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                write_frame(out, &serde_json::json!({"seq": null, "error": e}));
                continue;
            }
        };
        let _ = n;
        let trimmed: &[u8] = line.trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        let head: Result<Value, _> = serde_json::from_slice(trimmed);
        let seq = match &head {
            Ok(Value::Object(m)) => m.get("seq").cloned().unwrap_or(Value::Null),
            _ => Value::Null,
        };
        if !matches!(head, Ok(Value::Object(_))) {
            write_frame(
                out,
                &serde_json::json!({"seq": seq, "error": "malformed frame: expected a JSON object"}),
            );
            continue;
        }
        let inv = Invocation::new(trimmed.to_vec(), env)
            .with_transport(Transport::Frame)
            .with_conn(Some(&conn));
        let event = match codec.decode(&inv) {
            Ok(e) => e,
            Err(e) => {
                write_frame(out, &serde_json::json!({"seq": seq, "error": e.to_string()}));
                continue;
            }
        };
        let key = event.envelope().session.id.clone();
        let entry = workers.entry(key).or_insert_with(|| {
            let (tx, rx) = mpsc::channel::<(Value, Event)>();
            let runner = runner.clone();
            let out = Arc::clone(out);
            let h = std::thread::spawn(move || {
                for (seq, ev) in rx {
                    let frame = serve_one(&runner, codec, &ev, seq);
                    write_frame(&out, &frame);
                }
            });
            (tx, h)
        });
        let _ = entry.0.send((seq, event));
    }
    for (_, (tx, h)) in workers.drain() {
        drop(tx);
        let _ = h.join();
    }
}

/// Dispatches one decoded frame event and builds the response frame.
fn serve_one(runner: &Runner, codec: &dyn Codec, event: &Event, seq: Value) -> Value {
    let target = EventTarget::of(event);
    let policy = runner.router.policy().resolve(event.envelope());
    let caps = codec.event_capabilities(event);
    let cx = Context::new(caps, policy, None);
    let mut ev = event.clone();
    let wire = match runner.router.dispatch(&cx, &mut ev) {
        Ok(o) => match degrade(o, caps, &policy) {
            Ok(d) => codec
                .encode(event, &d.outcome)
                .unwrap_or_else(|e| codec.failure_response(&target, policy.fail, &e.to_string())),
            Err(e) => codec.failure_response(&target, policy.fail, &e.to_string()),
        },
        Err(e) => codec.failure_response(&target, policy.fail, &e.to_string()),
    };
    let mut frame = serde_json::Map::new();
    frame.insert("seq".into(), seq);
    if !wire.stdout.is_empty() {
        match serde_json::from_slice::<Value>(&wire.stdout) {
            Ok(v) => {
                frame.insert("output".into(), v);
            }
            Err(_) => {
                frame.insert("output".into(), Value::String(wire.stdout_str().into_owned()));
            }
        }
    }
    if wire.exit_code != 0 {
        let msg = if wire.stderr.is_empty() {
            "blocked by hook".to_owned()
        } else {
            wire.stderr_str().trim().to_owned()
        };
        frame.insert("error".into(), Value::String(msg));
    }
    Value::Object(frame)
}

fn write_frame(out: &FrameSink, v: &Value) {
    if let Ok(mut w) = out.lock() {
        let mut bytes = serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec());
        bytes.push(b'\n');
        let _ = w.write_all(&bytes);
        let _ = w.flush();
    }
}

/// Reads one line of at most `cap` bytes; a longer line is consumed and reported as an error.
fn read_line_capped(r: &mut dyn BufRead, buf: &mut Vec<u8>, cap: usize) -> Result<usize, String> {
    let mut total = 0usize;
    let mut over = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("read error: {e}")),
        };
        if chunk.is_empty() {
            break;
        }
        let (take, done) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !over {
            if buf.len() + take > cap.saturating_add(1) {
                over = true;
                buf.clear();
            } else {
                buf.extend_from_slice(&chunk[..take]);
            }
        }
        total += take;
        r.consume(take);
        if done {
            break;
        }
    }
    if over {
        return Err(format!("frame exceeds the {cap}-byte cap"));
    }
    Ok(total)
}

/// Runs the edge for a consumer `main`: parses argv, and when it is an `agenthooks` command runs
/// it and exits the process with the codec's exit code. Returns (without exiting) when argv has
/// no `agenthooks` word, so the consumer's own CLI can run.
pub fn main_with(runner: &Runner) {
    let argv: Vec<String> = std::env::args().collect();
    if let Some(code) = runner.run_process(&argv) {
        #[allow(clippy::exit)]
        std::process::exit(code);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| (*x).to_owned()).collect()
    }

    #[test]
    fn parse_variants() {
        let c = parse_args(&s(&["b", "agenthooks", "notify", "--provider", "codex", "{\"a\":1}"]))
            .unwrap()
            .unwrap();
        assert_eq!(
            (c.mode, c.positional.as_slice()),
            (Mode::Notify, &s(&["{\"a\":1}"])[..])
        );
        assert_eq!(parse_args(&s(&["b", "agenthooks"])), Err(UsageError::MissingMode));
        assert_eq!(
            parse_args(&s(&["b", "agenthooks", "fly"])),
            Err(UsageError::UnknownMode("fly".into()))
        );
        assert_eq!(
            parse_args(&s(&["b", "agenthooks", "run", "--timeout=x"])),
            Err(UsageError::BadTimeout("x".into()))
        );
        assert_eq!(
            parse_args(&s(&["b", "agenthooks", "run", "--event"])),
            Err(UsageError::MissingValue("--event".into()))
        );
        assert_eq!(
            parse_args(&s(&["b", "agenthooks", "run", "--what"])),
            Err(UsageError::UnknownFlag("--what".into()))
        );
        let c = parse_args(&s(&[
            "b",
            "agenthooks",
            "run",
            "--argv-payload",
            "--timeout",
            "1.5",
            "--",
            "--x",
        ]))
        .unwrap()
        .unwrap();
        assert!(c.argv_payload);
        assert_eq!(c.timeout, Some(Duration::from_millis(1500)));
        assert_eq!(c.positional, s(&["--x"]));
        // argv[0] named agenthooks is not the marker word
        assert!(parse_args(&s(&["agenthooks"])).unwrap().is_none());
    }

    #[test]
    fn budget_is_under_timeout() {
        assert_eq!(deadline_budget(Duration::from_secs(10)), Duration::from_secs(9));
        assert_eq!(deadline_budget(Duration::from_secs(60)), Duration::from_secs(58));
        assert_eq!(deadline_budget(Duration::from_millis(100)), Duration::from_millis(50));
        assert!(deadline_budget(Duration::from_secs(1)) < Duration::from_secs(1));
    }

    #[test]
    fn capped_reads() {
        assert_eq!(read_capped(&mut &b"{}"[..], 2).unwrap(), b"{}");
        assert_eq!(
            read_capped(&mut &b"{} "[..], 2).unwrap_err().0,
            DecodeCategory::Oversize
        );
        assert_eq!(read_capped(&mut &b"  \n"[..], 10).unwrap_err().0, DecodeCategory::Empty);
        assert_eq!(
            read_capped(&mut &b"\xff\xfe"[..], 10).unwrap_err().0,
            DecodeCategory::NotUtf8
        );
    }

    #[test]
    fn capped_lines() {
        let mut r = io::BufReader::new(&b"abc\ndefghij\nx\n"[..]);
        let mut b = Vec::new();
        assert_eq!(read_line_capped(&mut r, &mut b, 5).unwrap(), 4);
        assert_eq!(b, b"abc\n");
        b.clear();
        assert!(read_line_capped(&mut r, &mut b, 5).is_err());
        b.clear();
        assert_eq!(read_line_capped(&mut r, &mut b, 5).unwrap(), 2);
        assert_eq!(b, b"x\n");
        b.clear();
        assert_eq!(read_line_capped(&mut r, &mut b, 5).unwrap(), 0);
    }
}
