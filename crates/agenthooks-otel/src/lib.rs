//! # agenthooks-otel
//!
//! Audit export of agenthooks over OpenTelemetry: every hook decision of a fleet in the org's
//! own collector, off the hot path.
//!
//! - **What is exported.** One span per hook event, nested session → turn → hook, with trace
//!   and span ids derived from the agent's session and turn ids ([`ids`]): the hook processes of
//!   one session form one trace, and a replayed record keeps its span id. Attributes follow the
//!   `GenAI` semantic conventions where one fits and use `agenthooks.*` for the rest
//!   ([`record`]); a conclusive decision also gets a log record. Content is captured at the
//!   configured [`Capture`] level (none by default), every attribute capped.
//! - **Off the hot path.** The hook process appends its record to a bounded per-user
//!   [`spool`] and returns; a detached [`ship`]per exports over OTLP http/protobuf with retry and
//!   backoff. A killed shipper loses nothing it had not acknowledged.
//! - **Enabled** by the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`),
//!   `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` variables ([`Audit::from_env`], what
//!   the `agenthooks` facade's `otel` feature does), or in code with
//!   [`Runner::with_audit`](agenthooks_runtime::Runner::with_audit). `AGENTHOOKS_AUDIT=1`
//!   spools for the local report without exporting. The kill switch is [`KILL_SWITCH`].
//! - **A report without a backend**: `<bin> agenthooks audit report [--since 24h] [--json]`
//!   ([`report`]).
//!
//! Built on `opentelemetry-proto`'s OTLP messages with a small blocking HTTP/1.1 client rather
//! than `opentelemetry-otlp`: that crate's http client is reqwest's blocking one, which runs a
//! tokio runtime (banned from hook binaries in `deny.toml`), and its SDK pipeline assigns span
//! ids itself, where ours derive from the agent's ids. TLS is not built in: point the export at
//! a local collector (or sidecar) over `http://`.
//!
//! ```
//! use std::sync::Arc;
//! use agenthooks_otel::{Audit, AuditConfig, Capture};
//! let dir = std::env::temp_dir().join(format!("agenthooks-otel-doc-{}", std::process::id()));
//! let audit = Audit::new(AuditConfig::default().with_capture(Capture::Digest).with_spool_dir(&dir));
//! let runner = agenthooks_runtime::Runner::new(agenthooks_core::Router::new(), Vec::new())
//!     .with_audit(Arc::new(audit));
//! assert!(runner.audit().is_some());
//! ```

#![cfg_attr(docsrs, feature(doc_cfg))]

use std::io::Write;
use std::sync::OnceLock;
use std::time::SystemTime;

use agenthooks_core::codec::ProcessEnv;
use agenthooks_runtime::{AuditSink, Audited};

mod config;
pub mod ids;
pub mod otlp;
pub mod record;
pub mod report;
pub mod ship;
pub mod spool;

pub use config::{AuditConfig, Capture, Redactor, DEFAULT_ATTR_CAP, DEFAULT_SPOOL_CAP, KILL_SWITCH, MAX_ARRAY};
pub use record::Record;
pub use spool::Spool;

static DEFAULT_REDACTOR: OnceLock<Redactor> = OnceLock::new();

/// Sets the redactor of [`Capture::Redacted`] for sinks made from the environment
/// ([`Audit::from_env`], what the facade's `otel` feature uses): call it in `main` before
/// `agenthooks::main`. The first call wins.
///
/// ```
/// agenthooks_otel::set_default_redactor(|s| s.replace("hunter2", "[redacted]"));
/// ```
pub fn set_default_redactor(redactor: Redactor) {
    let _ = DEFAULT_REDACTOR.set(redactor);
}

/// The audit sink: spools one record per answered event and makes sure a shipper runs.
#[derive(Debug)]
pub struct Audit {
    config: AuditConfig,
    spool: OnceLock<Option<Spool>>,
}

impl Audit {
    /// A sink with `config`; the standard variables still apply on top
    /// ([`AuditConfig::overlaid`] is the caller's choice).
    pub fn new(config: AuditConfig) -> Self {
        Self {
            config,
            spool: OnceLock::new(),
        }
    }

    /// The sink the process environment asks for ([`AuditConfig::from_env`]), with the
    /// process's default redactor ([`set_default_redactor`]).
    pub fn from_env() -> Option<Self> {
        AuditConfig::from_env(&ProcessEnv).map(|mut c| {
            c.redactor = c.redactor.or_else(|| DEFAULT_REDACTOR.get().copied());
            Self::new(c)
        })
    }

    /// The configuration.
    pub fn config(&self) -> &AuditConfig {
        &self.config
    }

    /// The spool, opened on first use (`None`, logged, when it cannot be made private).
    pub fn spool(&self) -> Option<&Spool> {
        self.spool
            .get_or_init(|| {
                let dir = self
                    .config
                    .spool_dir
                    .clone()
                    .or_else(|| Spool::default_dir(&ProcessEnv))?;
                match Spool::open(&dir, self.config.spool_cap) {
                    Ok(s) => Some(s),
                    Err(e) => {
                        tracing::warn!(dir = %dir.display(), error = %e, "audit spool unavailable; no audit records");
                        None
                    }
                }
            })
            .as_ref()
    }
}

impl AuditSink for Audit {
    fn record(&self, audited: &Audited<'_>) {
        if AuditConfig::killed(&ProcessEnv) {
            return;
        }
        let Some(spool) = self.spool() else { return };
        let rec = Record::from_audited(audited, &self.config, SystemTime::now());
        if let Err(e) = spool.append(&rec) {
            tracing::warn!(error = %e, "could not spool the audit record");
            return;
        }
        if self.config.traces_url.is_some() {
            ship::ensure_shipper(spool, &self.config);
        } else if rec.span.ends_with('0') {
            // Spool-only: no shipper enforces the cap, so one record in sixteen (by its span id,
            // uniformly distributed) does, when no other process is.
            if let Ok(Some(_lock)) = spool.try_lock() {
                let _ = spool.enforce_cap();
            }
        }
    }
}

/// The `agenthooks audit …` commands: `ship` (the detached shipper) and
/// `report [--since D] [--json]`. Returns `None` when argv is not an audit command.
///
/// ```
/// let argv: Vec<String> = ["guard", "agenthooks", "run"].map(String::from).to_vec();
/// assert_eq!(agenthooks_otel::cli(&argv, &mut Vec::new(), &mut Vec::new()), None);
/// ```
pub fn cli(argv: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Option<i32> {
    let at = argv.iter().position(|a| a == "agenthooks")?;
    if argv.get(at + 1).map(String::as_str) != Some("audit") {
        return None;
    }
    let rest = &argv[at + 2..];
    let config = AuditConfig::from_env(&ProcessEnv).unwrap_or_else(|| AuditConfig::default().overlaid(&ProcessEnv));
    let dir = config.spool_dir.clone().or_else(|| Spool::default_dir(&ProcessEnv));
    let report = rest.first().map(String::as_str) == Some("report");
    // The report reads; it makes no spool where none is.
    let spool = dir
        .filter(|d| !report || d.is_dir())
        .map(|d| Spool::open(d, config.spool_cap));
    match rest.first().map(String::as_str) {
        Some("ship") => {
            if AuditConfig::killed(&ProcessEnv) || config.traces_url.is_none() {
                return Some(0);
            }
            let Some(Ok(spool)) = spool else { return Some(1) };
            let mut opts = ship::ShipOptions::default();
            if let Some(s) = flag(rest, "--linger").and_then(|v| v.parse().ok()) {
                opts = opts.with_linger(std::time::Duration::from_secs(s));
            }
            let s = ship::ship(&spool, &config, opts);
            tracing::debug!(
                acked = s.acked,
                failures = s.failures,
                dropped = s.dropped,
                "audit shipper done"
            );
            Some(0)
        }
        Some("report") => {
            let spool = match spool {
                Some(Ok(s)) => s,
                Some(Err(e)) => {
                    let _ = writeln!(err, "agenthooks audit report: the spool is unavailable: {e}");
                    return Some(1);
                }
                None => {
                    let _ = out.write_all(report::Report::default().render().as_bytes());
                    return Some(0);
                }
            };
            let since = match flag(rest, "--since") {
                Some(s) => match report::parse_since(&s, SystemTime::now()) {
                    Some(t) => Some(t),
                    None => {
                        let _ = writeln!(
                            err,
                            "agenthooks audit report: --since takes 90s, 15m, 2h, 7d or Unix seconds"
                        );
                        return Some(2);
                    }
                },
                None => None,
            };
            let r = report::Report::of_spool(&spool, since);
            let text = if rest.iter().any(|a| a == "--json") {
                serde_json::to_string_pretty(&r).unwrap_or_default() + "\n"
            } else {
                r.render()
            };
            let _ = out.write_all(text.as_bytes());
            Some(0)
        }
        _ => {
            let _ = writeln!(
                err,
                "usage: <bin> agenthooks audit ship | report [--since 24h] [--json]"
            );
            Some(2)
        }
    }
}

/// `--name=value` or `--name value`.
fn flag(args: &[String], name: &str) -> Option<String> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == name {
            return it.next().cloned();
        }
        if let Some(v) = a.strip_prefix(name).and_then(|v| v.strip_prefix('=')) {
            return Some(v.to_owned());
        }
    }
    None
}
