//! Spooled records as OTLP export requests (the `opentelemetry-proto` messages), and the
//! http/protobuf POST that sends them.
//!
//! The session and turn spans are synthesised per batch from their hook records (same ids in
//! every batch, their extent that batch's records): a backend that sees one of them twice keeps
//! one span per id.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::logs::v1::ExportLogsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{any_value, AnyValue, ArrayValue, InstrumentationScope, KeyValue};
use opentelemetry_proto::tonic::logs::v1::{LogRecord, ResourceLogs, ScopeLogs};
use opentelemetry_proto::tonic::resource::v1::Resource;
use opentelemetry_proto::tonic::trace::v1::{
    span::SpanKind, status::StatusCode, ResourceSpans, ScopeSpans, Span, Status,
};
use prost::Message;
use serde_json::Value;

use crate::config::AuditConfig;
use crate::ids::unhex;
use crate::record::Record;

/// The instrumentation scope's name.
pub const SCOPE: &str = "agenthooks";

fn any(v: &Value) -> Option<AnyValue> {
    let value = match v {
        Value::String(s) => any_value::Value::StringValue(s.clone()),
        Value::Bool(b) => any_value::Value::BoolValue(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => any_value::Value::IntValue(i),
            None => any_value::Value::DoubleValue(n.as_f64()?),
        },
        Value::Array(a) => any_value::Value::ArrayValue(ArrayValue {
            values: a.iter().filter_map(any).collect(),
        }),
        Value::Null | Value::Object(_) => return None,
    };
    Some(AnyValue { value: Some(value) })
}

fn kv(key: &str, v: &Value) -> Option<KeyValue> {
    Some(KeyValue {
        key: key.to_owned(),
        value: Some(any(v)?),
        ..Default::default()
    })
}

fn kv_str(key: &str, v: &str) -> KeyValue {
    KeyValue {
        key: key.to_owned(),
        value: Some(AnyValue {
            value: Some(any_value::Value::StringValue(v.to_owned())),
        }),
        ..Default::default()
    }
}

fn resource(config: &AuditConfig) -> Resource {
    let mut attributes = vec![
        kv_str("service.name", &config.service_name),
        kv_str("telemetry.sdk.name", "agenthooks-otel"),
        kv_str("telemetry.sdk.language", "rust"),
        kv_str("telemetry.sdk.version", env!("CARGO_PKG_VERSION")),
    ];
    attributes.extend(config.resource.iter().map(|(k, v)| kv_str(k, v)));
    Resource {
        attributes,
        ..Default::default()
    }
}

fn scope() -> InstrumentationScope {
    InstrumentationScope {
        name: SCOPE.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        ..Default::default()
    }
}

fn id<const N: usize>(hex: &str) -> Vec<u8> {
    unhex::<N>(hex).map(|b| b.to_vec()).unwrap_or_default()
}

/// A parent span (session or turn) synthesised from its records.
struct Parent<'r> {
    trace: &'r str,
    up: Option<&'r str>,
    name: &'static str,
    start: u64,
    end: u64,
    first: &'r Record,
}

/// The traces request for `records`: each record's hook span, and its session and turn spans.
pub fn traces(records: &[Record], config: &AuditConfig) -> ExportTraceServiceRequest {
    let mut parents: BTreeMap<&str, Parent<'_>> = BTreeMap::new();
    let mut spans = Vec::with_capacity(records.len() + 2);
    for r in records {
        for (key, parent, name) in [
            (Some(r.session_span.as_str()), None, "session"),
            (r.turn_span.as_deref(), Some(r.session_span.as_str()), "turn"),
        ] {
            let Some(key) = key else { continue };
            let p = parents.entry(key).or_insert(Parent {
                trace: &r.trace,
                up: parent,
                name,
                start: r.start_ns,
                end: r.end_ns,
                first: r,
            });
            p.start = p.start.min(r.start_ns);
            p.end = p.end.max(r.end_ns);
        }
        let attributes = r.attrs.iter().filter_map(|(k, v)| kv(k, v)).collect();
        spans.push(Span {
            trace_id: id::<16>(&r.trace),
            span_id: id::<8>(&r.span),
            parent_span_id: id::<8>(r.turn_span.as_deref().unwrap_or(&r.session_span)),
            name: r.name.clone(),
            kind: SpanKind::Internal as i32,
            start_time_unix_nano: r.start_ns,
            end_time_unix_nano: r.end_ns,
            attributes,
            status: Some(if r.error {
                Status {
                    code: StatusCode::Error as i32,
                    message: r.attr("agenthooks.fail_reason").unwrap_or_default().to_owned(),
                }
            } else {
                Status::default()
            }),
            ..Default::default()
        });
    }
    for (span_id, p) in parents {
        let mut attributes = Vec::new();
        for key in ["gen_ai.conversation.id", "gen_ai.provider.name", "agenthooks.provider"] {
            if let Some(v) = p.first.attrs.get(key) {
                attributes.extend(kv(key, v));
            }
        }
        if p.name == "turn" {
            if let Some(v) = p.first.attrs.get("agenthooks.turn.id") {
                attributes.extend(kv("agenthooks.turn.id", v));
            }
        }
        spans.push(Span {
            trace_id: id::<16>(p.trace),
            span_id: id::<8>(span_id),
            parent_span_id: p.up.map(id::<8>).unwrap_or_default(),
            name: p.name.to_owned(),
            kind: SpanKind::Internal as i32,
            start_time_unix_nano: p.start,
            end_time_unix_nano: p.end,
            attributes,
            ..Default::default()
        });
    }
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            resource: Some(resource(config)),
            scope_spans: vec![ScopeSpans {
                scope: Some(scope()),
                spans,
                ..Default::default()
            }],
            ..Default::default()
        }],
    }
}

/// The attributes a decision's log record carries (the span has them all).
const LOG_ATTRS: &[&str] = &[
    "agenthooks.provider",
    "agenthooks.native_event",
    "agenthooks.kind",
    "agenthooks.decision",
    "agenthooks.decision.reason",
    "agenthooks.degraded",
    "agenthooks.agent.release",
    "gen_ai.conversation.id",
    "gen_ai.tool.name",
    "gen_ai.tool.call.id",
];

/// The logs request for `records` (a log record per conclusive decision) and `dropped` records
/// not reported yet; `None` when there is nothing to send.
pub fn logs(records: &[Record], dropped: u64, config: &AuditConfig) -> Option<ExportLogsServiceRequest> {
    let mut log_records: Vec<LogRecord> = records
        .iter()
        .filter_map(|r| {
            let l = r.log.as_ref()?;
            let severity_number = if l.severity == "WARN" { 13 } else { 9 };
            Some(LogRecord {
                time_unix_nano: r.end_ns,
                observed_time_unix_nano: r.end_ns,
                severity_number,
                severity_text: l.severity.clone(),
                body: Some(AnyValue {
                    value: Some(any_value::Value::StringValue(l.body.clone())),
                }),
                attributes: LOG_ATTRS.iter().filter_map(|k| kv(k, r.attrs.get(*k)?)).collect(),
                trace_id: id::<16>(&r.trace),
                span_id: id::<8>(&r.span),
                flags: 1,
                event_name: "agenthooks.decision".into(),
                ..Default::default()
            })
        })
        .collect();
    if dropped > 0 {
        let now = u64::try_from(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos(),
        )
        .unwrap_or(u64::MAX);
        log_records.push(LogRecord {
            time_unix_nano: now,
            observed_time_unix_nano: now,
            severity_number: 13,
            severity_text: "WARN".into(),
            body: Some(AnyValue {
                value: Some(any_value::Value::StringValue(format!(
                    "the audit spool dropped {dropped} records over its cap"
                ))),
            }),
            attributes: vec![kv("agenthooks.audit.dropped", &Value::from(dropped)).unwrap_or_default()],
            event_name: "agenthooks.audit.dropped".into(),
            ..Default::default()
        });
    }
    (!log_records.is_empty()).then(|| ExportLogsServiceRequest {
        resource_logs: vec![ResourceLogs {
            resource: Some(resource(config)),
            scope_logs: vec![ScopeLogs {
                scope: Some(scope()),
                log_records,
                ..Default::default()
            }],
            ..Default::default()
        }],
    })
}

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The URL is not `http://host[:port]/path` (TLS is not built in: point the export at a
    /// local collector or sidecar).
    #[error("unsupported OTLP URL {0:?} (http:// only)")]
    Url(String),
    /// Connecting, writing or reading failed.
    #[error("OTLP export I/O: {0}")]
    Io(#[from] std::io::Error),
    /// The response was not HTTP.
    #[error("OTLP export: {0}")]
    Http(#[from] agenthooks_runtime::http1::Error),
    /// The collector answered with an error status.
    #[error("OTLP export: status {0}")]
    Status(u16),
}

impl ExportError {
    /// Whether a retry may succeed (OTLP/HTTP: 429, 502, 503, 504 and transport errors); a
    /// permanent rejection (another 4xx) drops the batch.
    pub fn retryable(&self) -> bool {
        match self {
            Self::Url(_) => false,
            Self::Status(s) => matches!(s, 429 | 502 | 503 | 504) || *s >= 500,
            Self::Io(_) | Self::Http(_) => true,
        }
    }
}

/// POSTs `body` (an encoded protobuf message) to `url` with `headers`, within `timeout`.
pub fn post(url: &str, headers: &[(String, String)], body: &[u8], timeout: Duration) -> Result<(), ExportError> {
    let bad = || ExportError::Url(url.to_owned());
    let rest = url.strip_prefix("http://").ok_or_else(bad)?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let host_port = if authority
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
        && !authority.ends_with(']')
    {
        authority.to_owned()
    } else {
        format!("{authority}:80")
    };
    let start = Instant::now();
    let addrs: Vec<_> = host_port.to_socket_addrs()?.collect();
    let mut last = None;
    let mut stream = None;
    for a in addrs {
        let left = timeout.saturating_sub(start.elapsed()).max(Duration::from_millis(1));
        match TcpStream::connect_timeout(&a, left) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = Some(e),
        }
    }
    let mut stream = stream.ok_or_else(|| last.unwrap_or_else(|| std::io::Error::other("no address")))?;
    let left = timeout.saturating_sub(start.elapsed()).max(Duration::from_millis(1));
    stream.set_read_timeout(Some(left))?;
    stream.set_write_timeout(Some(left))?;
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/x-protobuf\r\nContent-Length: {}\r\nConnection: close\r\nUser-Agent: agenthooks-otel/{}\r\n",
        body.len(),
        env!("CARGO_PKG_VERSION")
    );
    for (k, v) in headers {
        if !k.contains(['\r', '\n', ':']) && !v.contains(['\r', '\n']) {
            let _ = write!(req, "{k}: {v}\r\n");
        }
    }
    req.push_str("\r\n");
    let mut bytes = req.into_bytes();
    bytes.extend_from_slice(body);
    stream.write_all(&bytes)?;
    let mut reader = agenthooks_runtime::http1::Reader::new(stream);
    let head = reader.response_head(&agenthooks_runtime::http1::Limits::default())?;
    // Read a small body (the collector's partial-success message); its content is not used.
    if let Ok(f) = head.framing() {
        let _ = reader.body(f, 64 << 10, agenthooks_runtime::http1::Overflow::Cut);
    }
    if (200..300).contains(&head.status) {
        Ok(())
    } else {
        Err(ExportError::Status(head.status))
    }
}

/// Encodes and sends one batch: traces, then logs. `Ok` only when every request was
/// acknowledged.
pub fn export(records: &[Record], dropped: u64, config: &AuditConfig) -> Result<(), ExportError> {
    let Some(url) = &config.traces_url else {
        return Err(ExportError::Url(String::new()));
    };
    if !records.is_empty() {
        post(
            url,
            &config.headers,
            &traces(records, config).encode_to_vec(),
            config.timeout,
        )?;
    }
    if let (Some(url), Some(req)) = (&config.logs_url, logs(records, dropped, config)) {
        post(url, &config.headers, &req.encode_to_vec(), config.timeout)?;
    }
    Ok(())
}
