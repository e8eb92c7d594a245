//! An OTLP/HTTP receiver for tests (the `otlp` feature): a loopback server that decodes real
//! OTLP protobuf (`opentelemetry-proto`'s messages) posted to `/v1/traces` and `/v1/logs`, and
//! keeps what it received, flattened for assertions.
//!
//! ```
//! let rx = agenthooks_testkit::otlp::Receiver::start()?;
//! assert!(rx.base_url().starts_with("http://127.0.0.1:"));
//! assert!(rx.spans().is_empty());
//! # Ok::<(), std::io::Error>(())
//! ```

use std::collections::BTreeMap;
use std::io::Write as _;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agenthooks_runtime::http1::{self, Limits, Overflow, Reader};
use opentelemetry_proto::tonic::collector::logs::v1::ExportLogsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{any_value, AnyValue, KeyValue};
use prost::Message;
use serde_json::Value;

/// A received span, flattened.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ReceivedSpan {
    /// Trace id, hex.
    pub trace_id: String,
    /// Span id, hex.
    pub span_id: String,
    /// Parent span id, hex (empty for a root).
    pub parent_span_id: String,
    /// Name.
    pub name: String,
    /// Start and end, Unix nanoseconds.
    pub start_ns: u64,
    /// End, Unix nanoseconds.
    pub end_ns: u64,
    /// Status code (0 unset, 1 ok, 2 error).
    pub status: i32,
    /// Attributes as JSON values.
    pub attrs: BTreeMap<String, Value>,
    /// The resource's attributes.
    pub resource: BTreeMap<String, Value>,
    /// The instrumentation scope's name.
    pub scope: String,
}

/// A received log record, flattened.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ReceivedLog {
    /// Trace id, hex (empty when none).
    pub trace_id: String,
    /// Span id, hex (empty when none).
    pub span_id: String,
    /// Severity number.
    pub severity: i32,
    /// The body, when a string.
    pub body: String,
    /// The event name.
    pub event_name: String,
    /// Attributes as JSON values.
    pub attrs: BTreeMap<String, Value>,
}

#[derive(Debug, Default)]
struct Seen {
    spans: Vec<ReceivedSpan>,
    logs: Vec<ReceivedLog>,
    requests: u64,
    rejected: u64,
}

/// The receiver: a thread accepting connections on `127.0.0.1`, stopped when dropped.
#[derive(Debug)]
pub struct Receiver {
    port: u16,
    seen: Arc<Mutex<Seen>>,
    fail_next: Arc<AtomicU32>,
    delay_ms: Arc<AtomicU32>,
    stop: Arc<AtomicBool>,
}

fn hex(b: &[u8]) -> String {
    agenthooks_core::digest::hex(b)
}

fn json(v: Option<&AnyValue>) -> Value {
    match v.and_then(|v| v.value.as_ref()) {
        Some(any_value::Value::StringValue(s)) => Value::String(s.clone()),
        Some(any_value::Value::BoolValue(b)) => Value::Bool(*b),
        Some(any_value::Value::IntValue(i)) => Value::from(*i),
        Some(any_value::Value::DoubleValue(d)) => Value::from(*d),
        Some(any_value::Value::ArrayValue(a)) => Value::Array(a.values.iter().map(|v| json(Some(v))).collect()),
        Some(any_value::Value::KvlistValue(l)) => Value::Object(
            l.values
                .iter()
                .map(|kv| (kv.key.clone(), json(kv.value.as_ref())))
                .collect(),
        ),
        Some(any_value::Value::BytesValue(b)) => Value::String(hex(b)),
        _ => Value::Null,
    }
}

fn attrs(kvs: &[KeyValue]) -> BTreeMap<String, Value> {
    kvs.iter().map(|kv| (kv.key.clone(), json(kv.value.as_ref()))).collect()
}

impl Receiver {
    /// Starts a receiver on an ephemeral loopback port.
    pub fn start() -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        listener.set_nonblocking(true)?;
        let rx = Self {
            port,
            seen: Arc::default(),
            fail_next: Arc::default(),
            delay_ms: Arc::default(),
            stop: Arc::default(),
        };
        let (seen, fail, stop) = (Arc::clone(&rx.seen), Arc::clone(&rx.fail_next), Arc::clone(&rx.stop));
        let delay = Arc::clone(&rx.delay_ms);
        std::thread::Builder::new()
            .name("otlp-receiver".into())
            .spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((s, _)) => {
                            let _ = s.set_nonblocking(false);
                            let _ = handle(
                                s,
                                &seen,
                                &fail,
                                Duration::from_millis(delay.load(Ordering::Relaxed).into()),
                            );
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
            })?;
        Ok(rx)
    }

    /// `http://127.0.0.1:<port>`: the value of `OTEL_EXPORTER_OTLP_ENDPOINT`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Answers the next `n` requests with 503 (to exercise retries).
    pub fn fail_next(&self, n: u32) {
        self.fail_next.store(n, Ordering::Relaxed);
    }

    /// Holds each answer back for `d` after decoding its request (a slow collector).
    pub fn delay(&self, d: Duration) {
        self.delay_ms
            .store(u32::try_from(d.as_millis()).unwrap_or(u32::MAX), Ordering::Relaxed);
    }

    /// The spans received so far.
    pub fn spans(&self) -> Vec<ReceivedSpan> {
        self.seen.lock().map(|s| s.spans.clone()).unwrap_or_default()
    }

    /// The log records received so far.
    pub fn logs(&self) -> Vec<ReceivedLog> {
        self.seen.lock().map(|s| s.logs.clone()).unwrap_or_default()
    }

    /// Requests decoded, and requests answered with an error.
    pub fn requests(&self) -> (u64, u64) {
        self.seen.lock().map(|s| (s.requests, s.rejected)).unwrap_or_default()
    }

    /// Waits up to `timeout` until `done` holds for the spans received.
    pub fn wait_for(&self, timeout: Duration, done: impl Fn(&[ReceivedSpan]) -> bool) -> Vec<ReceivedSpan> {
        let end = Instant::now() + timeout;
        loop {
            let s = self.spans();
            if done(&s) || Instant::now() >= end {
                return s;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn handle(stream: TcpStream, seen: &Mutex<Seen>, fail: &AtomicU32, delay: Duration) -> Result<(), http1::Error> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut r = Reader::new(stream);
    let Some(head) = r.request_head(&Limits::default())? else {
        return Ok(());
    };
    let body = r.body(head.framing()?, 64 << 20, Overflow::Refuse)?.bytes;
    let failing = fail
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
        .is_ok();
    let status = if failing {
        503
    } else {
        match decode(head.path(), &body, seen) {
            Ok(()) => 200,
            Err(()) => 400,
        }
    };
    std::thread::sleep(delay);
    if let Ok(mut s) = seen.lock() {
        if status == 200 {
            s.requests += 1;
        } else {
            s.rejected += 1;
        }
    }
    let mut out = r.get_mut().try_clone()?;
    http1::write_response(
        &mut out,
        status,
        &[("Content-Type", "application/x-protobuf")],
        b"",
        false,
        false,
    )?;
    out.flush()?;
    Ok(())
}

fn decode(path: &str, body: &[u8], seen: &Mutex<Seen>) -> Result<(), ()> {
    match path {
        "/v1/traces" => {
            let req = ExportTraceServiceRequest::decode(body).map_err(|_| ())?;
            let mut spans = Vec::new();
            for rs in req.resource_spans {
                let resource = rs.resource.map(|r| attrs(&r.attributes)).unwrap_or_default();
                for ss in rs.scope_spans {
                    let scope = ss.scope.map(|s| s.name).unwrap_or_default();
                    for s in ss.spans {
                        spans.push(ReceivedSpan {
                            trace_id: hex(&s.trace_id),
                            span_id: hex(&s.span_id),
                            parent_span_id: hex(&s.parent_span_id),
                            name: s.name,
                            start_ns: s.start_time_unix_nano,
                            end_ns: s.end_time_unix_nano,
                            status: s.status.map_or(0, |st| st.code),
                            attrs: attrs(&s.attributes),
                            resource: resource.clone(),
                            scope: scope.clone(),
                        });
                    }
                }
            }
            seen.lock().map_err(|_| ())?.spans.extend(spans);
            Ok(())
        }
        "/v1/logs" => {
            let req = ExportLogsServiceRequest::decode(body).map_err(|_| ())?;
            let mut logs = Vec::new();
            for rl in req.resource_logs {
                for sl in rl.scope_logs {
                    for l in sl.log_records {
                        logs.push(ReceivedLog {
                            trace_id: hex(&l.trace_id),
                            span_id: hex(&l.span_id),
                            severity: l.severity_number,
                            body: json(l.body.as_ref()).as_str().unwrap_or_default().to_owned(),
                            event_name: l.event_name,
                            attrs: attrs(&l.attributes),
                        });
                    }
                }
            }
            seen.lock().map_err(|_| ())?.logs.extend(logs);
            Ok(())
        }
        _ => Err(()),
    }
}
