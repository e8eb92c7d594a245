//! `serve` mode: a long-lived NDJSON bridge (the OpenCode and OpenClaw plugins run on it).
//!
//! Frames `{seq, hook, …}` come in, one JSON object per line; `{seq, output?, error?}` go out.
//! Each frame is answered by the same pipeline as `run`: the same per-event deadline (the
//! frame's `timeout_ms` when it carries one, else `serve --timeout`, else the codec's default
//! timeout; the handlers get [`deadline_budget`](super::deadline_budget) of it), the same
//! continuation cap (its store is per session, so it holds across the frames of one session),
//! the same panic guard, and failures answered per the policy's failure mode. The decoded event
//! is moved to its session's worker, never copied.
//!
//! Concurrent across sessions, serialized within one. A malformed or oversize frame gets an
//! error frame (`{"seq": …, "error": …}`) and the loop goes on; EOF ends cleanly after in-flight
//! frames are answered. A handler still running at its deadline is abandoned: the frame is
//! answered per policy and the session's next frame goes on.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::codec::{Codec, ConnState, Env, Invocation, Transport, WireResponse};
use crate::event::Event;

use super::input::read_line_capped;
use super::pipeline::{decode_guarded, Dispatch, Failure};
use super::Runner;

/// Where `serve` writes response frames (shared by the per-session workers).
pub type FrameSink = Arc<Mutex<Box<dyn Write + Send>>>;

/// One decoded frame on its way to its session's worker.
struct Job {
    seq: Value,
    event: Event,
    timeout: Duration,
}

type SessionWorker = (mpsc::Sender<Job>, std::thread::JoinHandle<()>);

/// `serve` mode over `input` and `out` (see the module docs); the per-event timeout defaults to
/// the codec's.
pub fn serve(runner: &Runner, codec: &'static dyn Codec, input: &mut dyn BufRead, out: &FrameSink, env: &dyn Env) {
    serve_with(runner, codec, input, out, env, None);
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
    let conn = ConnState::default();
    let state_dir: Arc<PathBuf> = Arc::new(runner.options.resolved_state_dir(env));
    let default_timeout = timeout.unwrap_or_else(|| codec.default_timeout());
    let mut workers: HashMap<String, SessionWorker> = HashMap::new();
    let cap = runner.options.stdin_cap;
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_line_capped(input, &mut line, cap) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                write_frame(out, &serde_json::json!({"seq": null, "error": e.to_string()}));
                continue;
            }
        }
        let trimmed: &[u8] = line.trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        let Ok(Value::Object(head)) = serde_json::from_slice::<Value>(trimmed) else {
            write_frame(
                out,
                &serde_json::json!({"seq": null, "error": "malformed frame: expected a JSON object"}),
            );
            continue;
        };
        let seq = head.get("seq").cloned().unwrap_or(Value::Null);
        let timeout = frame_timeout(&head).unwrap_or(default_timeout);
        let inv = Invocation::new(trimmed.to_vec(), env)
            .with_transport(Transport::Frame)
            .with_conn(Some(&conn))
            .with_state_dir(Some(&state_dir));
        let event = match decode_guarded(codec, &inv) {
            Ok(e) => e,
            Err(e) => {
                let answered = runner.answer_unread(codec, &inv, Failure::Decode(e));
                write_frame(out, &frame_of(seq, &answered.response));
                continue;
            }
        };
        let key = event.envelope().session.id.clone();
        let entry = workers.entry(key).or_insert_with(|| {
            let (tx, rx) = mpsc::channel::<Job>();
            let runner = runner.clone();
            let out = Arc::clone(out);
            let state_dir = Arc::clone(&state_dir);
            let h = std::thread::spawn(move || {
                for job in rx {
                    let Job { seq, event, timeout } = job;
                    let answered = catch_unwind(AssertUnwindSafe(|| {
                        runner.answer_event(codec, event, timeout, &state_dir, Dispatch::Worker)
                    }));
                    let frame = match answered {
                        Ok(a) => frame_of(seq, &a.response),
                        Err(_) => serde_json::json!({"seq": seq, "error": "agenthooks: the pipeline panicked"}),
                    };
                    write_frame(&out, &frame);
                }
            });
            (tx, h)
        });
        let _ = entry.0.send(Job { seq, event, timeout });
    }
    for (_, (tx, h)) in workers.drain() {
        drop(tx);
        let _ = h.join();
    }
}

/// The frame's own timeout: a positive `timeout_ms` number.
fn frame_timeout(head: &serde_json::Map<String, Value>) -> Option<Duration> {
    let ms = head.get("timeout_ms")?.as_f64()?;
    (ms.is_finite() && ms > 0.0 && ms <= 86_400_000.0).then(|| Duration::from_secs_f64(ms / 1000.0))
}

/// The response frame for a wire response: stdout as `output` (JSON when it parses), and an
/// `error` when the exit code is not 0 (stderr, or "blocked by hook").
fn frame_of(seq: Value, wire: &WireResponse) -> Value {
    let mut frame = serde_json::Map::new();
    frame.insert("seq".into(), seq);
    if !wire.stdout.is_empty() {
        let output = serde_json::from_slice::<Value>(&wire.stdout)
            .unwrap_or_else(|_| Value::String(wire.stdout_str().into_owned()));
        frame.insert("output".into(), output);
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
