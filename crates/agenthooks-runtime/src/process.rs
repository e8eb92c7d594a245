//! The process edge: real argv, stdin, stdout, stderr, logging, the deadline and the exit code.

use std::cell::{Cell, OnceCell};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::capability::Policy;
use crate::codec::{Env, EventTarget, Invocation, ProcessEnv, StderrUse, Transport, WireResponse};
use crate::error::DecodeError;
use crate::log::Sink;
use crate::provider::{Provider, Variant};

use super::args::{parse_args, usage, Command, Mode, UsageError};
use super::call::Call;
use super::deadline::{self, Late};
use super::detect::{detect_with, event_hint, neutral_response, reconcile, unsupported, Detected};
use super::input::{chain, read_capped, ReadError};
use super::invoked::Failure;
use super::pipeline::Dispatch;
use super::serve::{serve_with, FrameSink};
use super::stdout::StdoutGuard;
use super::Runner;

/// Exit code for argv usage errors and unsupported providers.
const EXIT_USAGE: i32 = 2;
/// Exit code for a `--provider` this build lacks (a non-blocking error for the agents).
const EXIT_UNSUPPORTED: i32 = 1;

/// A `run`/`notify` invocation after the shared preamble ([`Runner::prepare`]).
struct Prepared<'c> {
    /// Who answers.
    detected: Detected<'c>,
    /// The call (an unreadable payload leaves it empty).
    call: Call,
    /// Why the payload could not be read, when it could not.
    unread: Option<ReadError>,
}

/// What detection decided for one `run`/`notify` invocation.
enum Resolved<'c> {
    /// A codec answers.
    Codec(Detected<'c>),
    /// Nobody could be identified: answer [`neutral_response`].
    Neutral,
}

impl Runner {
    /// The whole process edge over real stdin/stdout/stderr; returns the exit code. `argv` is the
    /// full process argv. Returns `None` when argv has no `agenthooks` word.
    pub fn run_process(&self, argv: &[String]) -> Option<i32> {
        let cmd = match parse_args(argv) {
            Ok(None) => return None,
            Ok(Some(c)) => c,
            Err(e) => {
                let _ = writeln!(io::stderr(), "agenthooks: {e}");
                return Some(EXIT_USAGE);
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
            Mode::Help => {
                let program = std::env::args_os()
                    .next()
                    .map(std::path::PathBuf::from)
                    .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .unwrap_or_else(|| "<hook>".to_owned());
                let _ = write!(io::stdout(), "{}", usage(&program));
                0
            }
            Mode::Serve if cmd.http => self.serve_http_command(cmd, &env),
            Mode::Serve => {
                let codec = match cmd.provider.as_deref() {
                    None => {
                        let _ = writeln!(io::stderr(), "agenthooks serve: --provider is required");
                        return EXIT_USAGE;
                    }
                    Some(p) => match self.codec(p) {
                        Some(c) => c,
                        None => {
                            let e = unsupported(&self.codecs, p, self.provider_hint);
                            let _ = writeln!(io::stderr(), "agenthooks: {e}");
                            return EXIT_UNSUPPORTED;
                        }
                    },
                };
                let _ = init_logging(
                    codec.stderr_use(),
                    self.options.private_state_dir(&env).as_deref(),
                    &env,
                );
                cmd.log_notes();
                quiet_panics();
                let stdin = io::stdin();
                let out: FrameSink = Arc::new(Mutex::new(Box::new(io::stdout())));
                serve_with(self, codec, &mut stdin.lock(), &out, &env, cmd.timeout);
                0
            }
            Mode::Run | Mode::Notify => self.run_once(cmd, &env),
        }
    }

    /// Answers a `run` or `notify` command in process, over `stdin` bytes instead of the real
    /// stdin: detection (an undetectable provider gets the neutral `{}`), the flag/payload
    /// reconciliation, the pipeline with handlers on a worker thread under the deadline. It does
    /// not set up logging or redirect stdout. `Err` is a usage error the process edge prints
    /// (a `--provider` this build lacks).
    ///
    /// ```
    /// use agenthooks_runtime::{Command, Mode, Runner};
    /// use agenthooks_core::Router;
    /// let runner = Runner::new(Router::new(), Vec::new());
    /// let r = runner.respond(&Command::new(Mode::Run), br#"{"who":"knows"}"#, &[("HOME", "/tmp")]).unwrap();
    /// assert_eq!((r.stdout.as_slice(), r.exit_code), (&b"{}"[..], 0));
    /// ```
    pub fn respond(&self, cmd: &Command, stdin: &[u8], env: &dyn Env) -> Result<WireResponse, UsageError> {
        let started = Instant::now();
        let payload = match transport_of(cmd) {
            Transport::Argv => argv_payload(cmd),
            _ => read_capped(&mut &stdin[..], self.options.stdin_cap),
        };
        self.respond_read(cmd, payload, env, started)
    }

    /// [`Runner::respond`] over a body its transport already read (the warm server's): the same
    /// checks as a stdin read (cap, empty, UTF-8), and the body moves into the call, uncopied.
    #[cfg(feature = "warm")]
    pub(super) fn respond_body(&self, cmd: &Command, body: Vec<u8>, env: &dyn Env) -> Result<WireResponse, UsageError> {
        let started = Instant::now();
        let payload = match transport_of(cmd) {
            Transport::Argv => argv_payload(cmd),
            _ => super::input::checked(body, self.options.stdin_cap),
        };
        self.respond_read(cmd, payload, env, started)
    }

    fn respond_read(
        &self,
        cmd: &Command,
        payload: Result<Vec<u8>, ReadError>,
        env: &dyn Env,
        started: Instant,
    ) -> Result<WireResponse, UsageError> {
        let Some(p) = self.prepare(cmd, payload, env, started)? else {
            return Ok(neutral_response());
        };
        cmd.log_filter_note();
        let state_dir = self.options.private_state_dir(env);
        let inv = invocation(cmd, &p.call, env, state_dir.as_deref());
        let codec = p.detected.codec;
        let r = match &p.unread {
            Some(e) => self.answer_unread(codec, &inv, read_failure(codec.provider(), e)),
            None => self.answer(codec, &inv, &p.call, p.detected.confidence, Dispatch::Worker),
        };
        Ok(finalize(&p.detected, r.response))
    }

    /// The preamble of every `run`/`notify` answer: detection over the payload read, then the
    /// command's [`Call`] with the hints in the detected codec's dialect. `Ok(None)`: no provider
    /// could be identified (answer [`neutral_response`]).
    fn prepare<'c>(
        &'c self,
        cmd: &Command,
        payload: Result<Vec<u8>, ReadError>,
        env: &dyn Env,
        started: Instant,
    ) -> Result<Option<Prepared<'c>>, UsageError> {
        let bytes = payload.as_deref().unwrap_or(&[]);
        let detected = match self.resolve(cmd, bytes, env)? {
            Resolved::Neutral => return Ok(None),
            Resolved::Codec(d) => d,
        };
        let native = event_hint(&detected, cmd.event.as_deref());
        let (bytes, unread) = match payload {
            Ok(b) => (b, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        let call = cmd
            .call(bytes, started)
            .with_native(native)
            .with_variant(cmd.variant.as_deref().map(Variant::from));
        Ok(Some(Prepared { detected, call, unread }))
    }

    /// Detection with the facade's hint; an undetectable provider is not a failed hook.
    fn resolve<'c>(&'c self, cmd: &Command, bytes: &[u8], env: &dyn Env) -> Result<Resolved<'c>, UsageError> {
        match detect_with(&self.codecs, cmd.provider.as_deref(), bytes, env, self.provider_hint) {
            Ok(d) => Ok(Resolved::Codec(d)),
            Err(UsageError::NoProvider) => Ok(Resolved::Neutral),
            Err(e) => Err(e),
        }
    }

    fn run_once(&self, cmd: &Command, env: &dyn Env) -> i32 {
        // the agent's clock: reading and decoding the payload count against the deadline
        let started = Instant::now();
        let payload = match transport_of(cmd) {
            Transport::Argv => argv_payload(cmd),
            _ => read_capped(&mut io::stdin().lock(), self.options.stdin_cap),
        };
        let state_dir = self.options.private_state_dir(env);
        let state_dir = state_dir.as_deref();
        let (detected, call, unread) = match self.prepare(cmd, payload, env, started) {
            Ok(Some(p)) => (p.detected, p.call, p.unread),
            Ok(None) => {
                let _ = init_logging(StderrUse::Reserved, state_dir, env);
                cmd.log_notes();
                tracing::warn!("could not detect the provider (pass --provider); answering no opinion");
                return StdoutGuard::none().finish(&neutral_response());
            }
            Err(e) => {
                let _ = writeln!(io::stderr(), "agenthooks: {e}");
                return EXIT_UNSUPPORTED;
            }
        };
        let codec = detected.codec;
        let log = init_logging(codec.stderr_use(), state_dir, env);
        cmd.log_notes();
        // Warm mode's start (and restart) check runs inside the hook's own deadline: at most
        // half of the handlers' budget, and never more than `WARM_CHECK_MAX`, whatever the
        // listener on the port does.
        let impostor = if cmd.warm || cmd.warm_only {
            let timeout = cmd.timeout.unwrap_or_else(|| codec.default_timeout());
            let deadline = started + (super::deadline_budget(timeout) / 2).min(WARM_CHECK_MAX);
            ensure_warm(env, deadline, call.payload.as_bytes())
        } else {
            None
        };
        let notice = |r: WireResponse| match &impostor {
            Some(text) => with_notice(&codec.provider(), r, text),
            None => r,
        };
        if let Some(text) = &impostor {
            // A listener that is not ours would answer this turn's http hooks: the prompt is
            // answered as a failure, per the policy (fail-closed blocks the turn; fail-open
            // lets it go on, as for a stopped server).
            let prompt = call
                .hints
                .native
                .as_deref()
                .is_some_and(|n| codec.kind_of(n) == crate::EventKind::PromptSubmitted);
            if prompt {
                let inv = invocation(cmd, &call, env, state_dir).with_variant(None);
                let failure = Failure::Handler(crate::HandlerError::msg(text));
                let r = self.answer_unread(codec, &inv, failure);
                return StdoutGuard::none().finish(&notice(finalize(&detected, r.response)));
            }
        }
        if cmd.warm_only {
            // The prompt hook that only keeps the warm server up: no handler runs here (the
            // event's own hooks are http hooks to the server).
            return StdoutGuard::none().finish(&notice(finalize(&detected, neutral_response())));
        }
        quiet_panics();
        let inv = invocation(cmd, &call, env, state_dir);
        if let Some(e) = &unread {
            let r = self.answer_unread(codec, &inv, read_failure(codec.provider(), e));
            return StdoutGuard::none().finish(&notice(finalize(&detected, r.response)));
        }
        // Set up only when handlers are about to run (not for a payload that failed to decode,
        // nor for an event no stage runs for): the fd-1 redirect, then the deadline.
        let guard = OnceCell::new();
        let armed = Cell::new(None);
        let arm = |target: &EventTarget, policy: &Policy, deadline: Instant| {
            let g = guard
                .get_or_init(|| StdoutGuard::redirect(self.options.redirect_stdout, codec.stderr_use(), state_dir));
            let late = finalize(
                &detected,
                codec.failure_response(target, policy.fail, "no decision before the deadline"),
            );
            armed.set(Some(deadline::arm(
                Late::new(late, g, log.as_ref(), deadline),
                deadline,
            )));
        };
        let r = self
            .answer(codec, &inv, &call, detected.confidence, Dispatch::Inline(&arm))
            .response;
        if !armed.take().is_none_or(deadline::Armed::claim) {
            // The deadline is answering; it exits the process.
            loop {
                std::thread::park();
            }
        }
        guard
            .into_inner()
            .unwrap_or_else(StdoutGuard::none)
            .finish(&notice(finalize(&detected, r)))
    }
}

fn transport_of(cmd: &Command) -> Transport {
    if cmd.mode == Mode::Notify || cmd.argv_payload {
        Transport::Argv
    } else {
        Transport::Stdin
    }
}

/// The payload of an argv transport: the last positional argument.
fn argv_payload(cmd: &Command) -> Result<Vec<u8>, ReadError> {
    cmd.positional
        .last()
        .map(|s| s.clone().into_bytes())
        .ok_or(ReadError::NoArgument)
}

fn read_failure(provider: Provider, e: &ReadError) -> Failure {
    Failure::Decode(DecodeError::new(provider, e.category(), chain(e)))
}

/// The codec's input for a command's call.
fn invocation<'a>(cmd: &Command, call: &'a Call, env: &'a dyn Env, state_dir: Option<&'a Path>) -> Invocation<'a> {
    call.invocation(env)
        .with_transport(transport_of(cmd))
        .with_state_dir(state_dir)
}

/// The last step before the wire: under a flag/payload mismatch, an answer both dialects read.
fn finalize(d: &Detected<'_>, r: WireResponse) -> WireResponse {
    match d.flagged {
        Some(flagged) => {
            tracing::debug!(flagged = %flagged.provider(), real = %d.codec.provider(), "reconciling the answer for both dialects");
            reconcile(r)
        }
        None => r,
    }
}

/// Installs the minimal subscriber; returns its sink when it logs warnings (the deadline's
/// log line goes there), `None` when it does not or another subscriber was installed first.
///
/// Logs go to stderr, or to a file where the agent reserves stderr or `AGENTHOOKS_LOG_FILE`
/// names one. The file is `<state dir>/agenthooks.log` unless `AGENTHOOKS_LOG_FILE` names a
/// `*.log` file inside the state directory ([`confined_log_file`]): the variable can come from a
/// project's `.env`, so any other path is refused (logged once, never written). Without a
/// private state directory there is no log file (where stderr is reserved, no logging).
pub(super) fn init_logging(stderr_use: StderrUse, state_dir: Option<&Path>, env: &dyn Env) -> Option<Sink> {
    use crate::log::MiniSubscriber;
    // A minimal subscriber: subscriber start-up is on every hook invocation's path.
    let spec = env.var("AGENTHOOKS_LOG").unwrap_or_default();
    let requested = env.var("AGENTHOOKS_LOG_FILE").filter(|s| !s.is_empty());
    let mut refused = None;
    let named = match (state_dir, requested.as_deref()) {
        (Some(dir), Some(p)) => match confined_log_file(dir, Path::new(p)) {
            Ok(path) => Some(path),
            Err(why) => {
                refused = Some((p.to_owned(), why));
                None
            }
        },
        _ => None,
    };
    let reserved = stderr_use == StderrUse::Reserved;
    let file = named.or_else(|| reserved.then(|| state_dir.map(|d| d.join("agenthooks.log"))).flatten());
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
    let level = level?;
    let sink = match file {
        Some(path) => Sink::File(path),
        None if reserved => return None,
        None => Sink::Stderr,
    };
    tracing::subscriber::set_global_default(MiniSubscriber::new(level, sink.clone())).ok()?;
    if let Some((path, why)) = refused {
        tracing::warn!(AGENTHOOKS_LOG_FILE = %path, reason = why, "log file refused; not written");
    }
    if state_dir.is_none() {
        tracing::warn!("no private state directory: no log file, no continuation counter, no prompt backfill");
    }
    (tracing::Level::WARN <= level).then_some(sink)
}

/// `AGENTHOOKS_LOG_FILE` (relative to the state directory when not absolute), when it is a
/// `*.log` file inside `state_dir`: no `..`, and its directory (created when missing) resolves
/// inside the state directory's real path, so no symlink leads out. The file itself is opened
/// without following a symlink, created `0600`.
pub(crate) fn confined_log_file(state_dir: &Path, requested: &Path) -> Result<PathBuf, &'static str> {
    use std::path::Component;
    let path = state_dir.join(requested);
    if path.components().any(|c| c == Component::ParentDir) {
        return Err("a path with `..` is refused");
    }
    if !path.starts_with(state_dir) {
        return Err("outside the state directory");
    }
    if path.extension().is_none_or(|e| e != "log") || path.file_name().is_none() {
        return Err("not a `*.log` file name");
    }
    let parent = path.parent().ok_or("no directory")?;
    if parent != state_dir {
        crate::safe_fs::private_dir(parent, false).map_err(|_| "its directory cannot be made private")?;
    }
    let real_state = std::fs::canonicalize(state_dir).map_err(|_| "the state directory cannot be resolved")?;
    let real_parent = std::fs::canonicalize(parent).map_err(|_| "its directory cannot be resolved")?;
    if !real_parent.starts_with(&real_state) {
        return Err("its directory resolves outside the state directory");
    }
    Ok(path)
}

/// Routes panic messages to the log instead of stderr (some agents surface or parse stderr);
/// the runner turns the panic itself into the failure response. The log line carries the
/// message and the location as fields, not the default hook's multi-line `panicked at …` text:
/// on an agent that shows stderr (Codex, Kimi, Gemini) a logged panic must read as a handled
/// failure, not as a crash of the hook.
pub(super) fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let message = crate::router::panic_message(info.payload());
        let location = info
            .location()
            .map_or_else(String::new, |l| format!("{}:{}", l.file(), l.line()));
        tracing::error!(panic = %message, location, "handler panicked");
    }));
}

/// The longest warm mode's check may take in a hook process (starting a server takes tens of
/// milliseconds; a listener that drips its answer must not hold the agent's prompt).
#[cfg(feature = "warm")]
const WARM_CHECK_MAX: std::time::Duration = super::warm_state::START_WAIT;
#[cfg(not(feature = "warm"))]
const WARM_CHECK_MAX: std::time::Duration = std::time::Duration::from_secs(3);

/// `run --warm`: makes sure the warm server runs (it is started detached when it does not),
/// by `deadline`, and registers the payload's session with it. Failures are logged, never the
/// hook's answer; a listener on the port that is not ours is a warning and the returned notice
/// for the user.
#[cfg(feature = "warm")]
fn ensure_warm(env: &dyn Env, deadline: Instant, payload: &[u8]) -> Option<String> {
    use super::warm_state as st;
    #[derive(serde::Deserialize)]
    struct Ids {
        session_id: Option<String>,
        #[serde(rename = "sessionId")]
        session_id_camel: Option<String>,
    }
    let ids: Option<Ids> = serde_json::from_slice(payload).ok();
    let session = ids.and_then(|i| i.session_id.or(i.session_id_camel));
    let dir = st::WarmDir::current(env);
    match std::env::current_exe().and_then(|exe| dir.ensure_running(&exe, deadline, session.as_deref())) {
        Ok(st::Ensured::Impostor(i)) => {
            tracing::warn!(%i, "warm mode: an impostor holds the warm port");
            Some(format!(
                "agenthooks warm mode: {i}. Until the port is free each prompt is answered per the failure policy: fail-closed blocks it; fail-open lets it go on, and that listener answers its tool hooks. `agenthooks doctor --warm` names the listener."
            ))
        }
        Ok(e) => {
            tracing::debug!(ensured = ?e, "warm server");
            None
        }
        Err(e) => {
            tracing::warn!(error = %e, "could not start the warm server");
            None
        }
    }
}

/// `run --warm` in a build without the `warm` feature: nothing to start.
#[cfg(not(feature = "warm"))]
fn ensure_warm(_env: &dyn Env, _deadline: Instant, _payload: &[u8]) -> Option<String> {
    tracing::warn!("--warm given, but this build has no warm mode (the `warm` feature is off)");
    None
}

/// The answer with a message for the user where the agent shows one from this hook (Claude
/// Code: `systemMessage`, unless the answer has one); other agents' answers are unchanged.
fn with_notice(provider: &crate::Provider, mut r: WireResponse, text: &str) -> WireResponse {
    if *provider != crate::Provider::CLAUDE_CODE || r.exit_code != 0 {
        return r;
    }
    let body = if r.stdout.trim_ascii().is_empty() {
        Some(serde_json::Map::new())
    } else {
        serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(&r.stdout).ok()
    };
    if let Some(mut m) = body {
        if !m.contains_key("systemMessage") {
            m.insert("systemMessage".into(), text.into());
            if let Ok(bytes) = serde_json::to_vec(&m) {
                r.stdout = bytes;
            }
        }
    }
    r
}

impl Runner {
    /// `serve --http`: the warm server over the process env, until it stops; the exit code.
    #[cfg(feature = "warm")]
    fn serve_http_command(&self, cmd: &Command, env: &dyn Env) -> i32 {
        let _ = init_logging(
            crate::codec::StderrUse::Reserved,
            self.options.private_state_dir(env).as_deref(),
            env,
        );
        cmd.log_notes();
        quiet_panics();
        match super::warm::serve_process(self, cmd.port, env) {
            Ok(stopped) => {
                tracing::info!(?stopped, "warm server stopped");
                0
            }
            Err(e) => {
                tracing::error!(error = %e, "warm server");
                let _ = writeln!(io::stderr(), "agenthooks serve --http: {e}");
                EXIT_UNSUPPORTED
            }
        }
    }

    /// `serve --http` in a build without the `warm` feature.
    #[cfg(not(feature = "warm"))]
    #[allow(clippy::unused_self)] // the same signature as the warm build's
    fn serve_http_command(&self, cmd: &Command, env: &dyn Env) -> i32 {
        let _ = (cmd, env);
        let _ = writeln!(
            io::stderr(),
            "agenthooks serve --http: warm mode is not compiled into this binary (enable the `warm` feature)"
        );
        EXIT_UNSUPPORTED
    }
}

/// Runs the edge for a consumer `main`: parses argv, and when it is an `agenthooks` command runs
/// it and exits the process with the codec's exit code. Returns (without exiting) when argv has
/// no `agenthooks` word, so the consumer's own CLI can run.
pub fn main_with(runner: &Runner) {
    let argv: Vec<String> = std::env::args().collect();
    if let Some(code) = runner.run_process(&argv) {
        #[allow(clippy::exit)] // the process edge: the exit code is the agent's answer
        std::process::exit(code);
    }
}

#[cfg(test)]
mod tests {
    use super::confined_log_file;

    /// `AGENTHOOKS_LOG_FILE` is honoured only for a `*.log` file inside the state directory.
    #[test]
    fn the_log_file_is_confined_to_the_state_dir() {
        let base = std::env::temp_dir().join(format!("agenthooks-log-confine-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let state = base.join("state");
        std::fs::create_dir_all(&state).unwrap();
        let ok = |p: &str| confined_log_file(&state, std::path::Path::new(p));
        assert_eq!(ok("hook.log"), Ok(state.join("hook.log")));
        assert_eq!(ok("sub/hook.log"), Ok(state.join("sub/hook.log")));
        assert!(state.join("sub").is_dir());
        assert_eq!(
            confined_log_file(&state, &state.join("abs.log")),
            Ok(state.join("abs.log"))
        );
        for bad in [
            "/home/u/.bashrc",
            "/tmp/x.log",
            "../x.log",
            "sub/../../x.log",
            "notes.txt",
            "x.LOG.sh",
            "..",
        ] {
            assert!(ok(bad).is_err(), "{bad}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&base, state.join("up")).unwrap();
            assert!(ok("up/x.log").is_err(), "a symlinked directory leads out");
        }
        std::fs::remove_dir_all(&base).unwrap();
    }
}
