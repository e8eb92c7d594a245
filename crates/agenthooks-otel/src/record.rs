//! The spooled record of one answered event, and the mapping of what the pipeline knows onto
//! OpenTelemetry attributes: the `GenAI` semantic conventions where one fits
//! (`gen_ai.provider.name`, `gen_ai.conversation.id`, `gen_ai.tool.name`, `gen_ai.tool.call.id`,
//! `gen_ai.request.model`, `gen_ai.agent.id`), `agenthooks.*` for the rest. Every string is
//! capped ([`AuditConfig::attr_cap`]), every array too ([`MAX_ARRAY`]); content appears only at
//! the capture level the configuration asks for.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use agenthooks_core::{digest, Event};
use agenthooks_runtime::Audited;

use crate::config::{AuditConfig, Capture, MAX_ARRAY};
use crate::ids::{hex, Ids};

/// The record format's version (the `v` field).
pub const VERSION: u32 = 1;

/// A log record for a conclusive decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LogLine {
    /// `WARN` for a blocking decision, `INFO` otherwise.
    pub severity: String,
    /// `<decision> <native event>[ <tool>]: <reason>`, capped.
    pub body: String,
}

/// One spooled record: a hook span (with the ids of its session and turn) and, for a conclusive
/// decision, a log record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Record {
    /// [`VERSION`].
    pub v: u32,
    /// Trace id, hex.
    pub trace: String,
    /// The hook span's id, hex.
    pub span: String,
    /// The session span's id, hex.
    pub session_span: String,
    /// The turn span's id, hex, when the agent names turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_span: Option<String>,
    /// The span name (`hook <native event>`).
    pub name: String,
    /// Start, Unix nanoseconds.
    pub start_ns: u64,
    /// End, Unix nanoseconds.
    pub end_ns: u64,
    /// Whether the answer is a failure response; the message is `agenthooks.fail_reason`.
    #[serde(default)]
    pub error: bool,
    /// The span's attributes (strings, integers, booleans, arrays of strings).
    pub attrs: Map<String, Value>,
    /// The log record of a conclusive decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<LogLine>,
}

/// `s` cut to at most `cap` bytes on a character boundary.
///
/// ```
/// assert_eq!(agenthooks_otel::record::cap("héllo", 2), "h");
/// assert_eq!(agenthooks_otel::record::cap("abc", 10), "abc");
/// ```
pub fn cap(s: &str, cap: usize) -> &str {
    if s.len() <= cap {
        return s;
    }
    let mut end = cap;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The model vendor (`gen_ai.provider.name`) of the agents whose vendor is fixed.
fn genai_provider(provider: &str) -> Option<&'static str> {
    match provider {
        "claude-code" => Some("anthropic"),
        "codex" => Some("openai"),
        "gemini-cli" | "gemini" => Some("gcp.gemini"),
        _ => None,
    }
}

fn nanos(t: SystemTime) -> u64 {
    u64::try_from(t.duration_since(UNIX_EPOCH).unwrap_or_default().as_nanos()).unwrap_or(u64::MAX)
}

/// Builds attribute maps with the caps applied.
struct Attrs {
    map: Map<String, Value>,
    cap: usize,
}

impl Attrs {
    fn str(&mut self, key: &str, v: &str) {
        if !v.is_empty() {
            self.map
                .insert(key.to_owned(), Value::String(cap(v, self.cap).to_owned()));
        }
    }
    fn int(&mut self, key: &str, v: u64) {
        self.map.insert(key.to_owned(), Value::from(v));
    }
    fn bool(&mut self, key: &str, v: bool) {
        self.map.insert(key.to_owned(), Value::Bool(v));
    }
    fn list(&mut self, key: &str, items: impl Iterator<Item = String>) {
        let v: Vec<Value> = items
            .take(MAX_ARRAY)
            .map(|s| Value::String(cap(&s, self.cap).to_owned()))
            .collect();
        if !v.is_empty() {
            self.map.insert(key.to_owned(), Value::Array(v));
        }
    }
}

impl Record {
    /// The record of one answered event, captured per `config`.
    pub fn from_audited(a: &Audited<'_>, config: &AuditConfig, now: SystemTime) -> Self {
        let inv = a.invoked;
        let provider = inv.provider.as_ref().map_or("", |p| p.as_str());
        let event = inv.event.as_ref();
        let env = event.map(Event::envelope);
        let payload = match env {
            Some(e) => Some(e.raw().as_bytes()),
            None => a.target.payload.as_ref().map(agenthooks_core::RawPayload::as_bytes),
        }
        .unwrap_or(&[]);
        let payload_digest = digest::sha256(payload);
        let native = env
            .map(|e| e.native.as_str())
            .or(a.target.native.as_ref().map(agenthooks_core::NativeName::as_str))
            .unwrap_or("");
        let kind = env.map(|e| e.kind).or(a.target.kind);
        let session = env.map_or("", |e| e.session.id.as_str());
        let turn = env.map_or("", |e| e.session.turn_id.as_str());
        let ids = Ids::derive(provider, session, turn, native, &payload_digest);

        let mut at = Attrs {
            map: Map::new(),
            cap: config.attr_cap,
        };
        if let Some(g) = genai_provider(provider) {
            at.str("gen_ai.provider.name", g);
        }
        at.str("gen_ai.conversation.id", session);
        at.str("agenthooks.provider", provider);
        at.str("agenthooks.native_event", native);
        if let Some(k) = kind {
            at.str("agenthooks.kind", k.as_str());
        }
        at.str("agenthooks.turn.id", turn);
        at.str(
            "agenthooks.policy.fail",
            if a.policy.fail == agenthooks_core::FailMode::Closed {
                "closed"
            } else {
                "open"
            },
        );
        if let Some(e) = env {
            at.str("agenthooks.variant", e.variant.as_str());
            at.str("agenthooks.confidence", e.confidence.as_str());
            if e.backfilled {
                at.bool("agenthooks.backfilled", true);
            }
            if let Some(v) = &e.agent_version {
                at.str("agenthooks.agent.release", v);
            }
            at.str("gen_ai.request.model", &e.session.model);
            if let Some(agent) = &e.agent {
                at.str("gen_ai.agent.id", &agent.id);
            }
            at.list(
                "agenthooks.projection_issues",
                e.projection_issues
                    .iter()
                    .map(|p| format!("{}: {}", p.path, p.repair.as_str())),
            );
        }
        if let Some(t) = event.and_then(Event::tool) {
            at.str("gen_ai.tool.name", &t.name);
            at.str("gen_ai.tool.call.id", &t.id);
            if let Some(m) = &t.mcp {
                at.str("agenthooks.mcp.server", &m.server);
            }
        }
        if let Some(d) = &inv.decided {
            at.str("agenthooks.decision.decided", d.kind().as_str());
        }
        let sent = inv.sent.as_ref();
        let decision = sent.map_or(
            agenthooks_core::DecisionKind::NoDecision,
            agenthooks_core::Outcome::kind,
        );
        at.str("agenthooks.decision", decision.as_str());
        if let Some(r) = sent.and_then(agenthooks_core::Outcome::reason) {
            at.str("agenthooks.decision.reason", r);
        }
        at.list(
            "agenthooks.degraded",
            inv.degradations
                .iter()
                .map(|d| format!("{}: {}->{}", d.capability.as_str(), d.from.as_str(), d.to.as_str())),
        );
        if let Some(f) = &inv.failure {
            at.str("agenthooks.fail_reason", &f.to_string());
        }
        let latency = a.latency.unwrap_or_default();
        at.int(
            "agenthooks.hook.latency_us",
            u64::try_from(latency.as_micros()).unwrap_or(u64::MAX),
        );
        match config.capture {
            Capture::None => {}
            Capture::Digest => at.str("agenthooks.content.digest", &hex(&payload_digest)),
            Capture::Redacted => {
                at.str("agenthooks.content.digest", &hex(&payload_digest));
                if let Some(redact) = config.redactor {
                    at.str("agenthooks.content", &redact(&String::from_utf8_lossy(payload)));
                }
                if let Some(e) = env {
                    at.str("agenthooks.cwd", &e.session.cwd);
                }
            }
            Capture::Full => {
                at.str("agenthooks.content", &String::from_utf8_lossy(payload));
                if let Some(e) = env {
                    at.str("agenthooks.cwd", &e.session.cwd);
                    at.str("user.email", &e.session.user_email);
                }
            }
        }
        at.str("agenthooks.capture", config.capture.as_str());

        let end = now;
        let start = env.map_or_else(|| end.checked_sub(latency).unwrap_or(end), |e| e.received_at.min(end));
        let start = if a.latency.is_some() {
            end.checked_sub(latency).unwrap_or(start).min(start)
        } else {
            start
        };
        let log = decision.is_conclusive().then(|| {
            let tool = event
                .and_then(Event::tool)
                .map(|t| format!(" {}", t.name))
                .unwrap_or_default();
            let reason = sent.and_then(agenthooks_core::Outcome::reason).unwrap_or("");
            LogLine {
                severity: if decision.blocks() { "WARN" } else { "INFO" }.to_owned(),
                body: cap(
                    &format!("{} {native}{tool}: {reason}", decision.as_str()),
                    config.attr_cap,
                )
                .to_owned(),
            }
        });
        Self {
            v: VERSION,
            trace: hex(&ids.trace),
            span: hex(&ids.hook),
            session_span: hex(&ids.session),
            turn_span: ids.turn.map(|t| hex(&t)),
            name: cap(&format!("hook {native}"), config.attr_cap).to_owned(),
            start_ns: nanos(start),
            end_ns: nanos(end).max(nanos(start)),
            error: inv.failure.is_some(),
            attrs: at.map,
            log,
        }
    }

    /// The hook latency, from `agenthooks.hook.latency_us`.
    pub fn latency(&self) -> Option<Duration> {
        self.attrs
            .get("agenthooks.hook.latency_us")?
            .as_u64()
            .map(Duration::from_micros)
    }

    /// A string attribute.
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.get(key)?.as_str()
    }
}
