//! What the audit export does: from the standard `OTEL_*` variables, the `AGENTHOOKS_AUDIT_*`
//! variables, or set in code.

use std::path::PathBuf;
use std::time::Duration;

use agenthooks_core::Env;

/// The kill switch: set to anything but `0`/`false`/empty, no record is written and no shipper
/// runs, whatever else is configured (`OTEL_SDK_DISABLED=true` does the same).
pub const KILL_SWITCH: &str = "AGENTHOOKS_AUDIT_DISABLED";

/// How much of the agent's content (tool inputs, prompts, outputs: the payload) a record holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Capture {
    /// No content at all (the default): ids, names, decisions, timings.
    #[default]
    None,
    /// The payload's SHA-256 (`agenthooks.content.digest`): equal content is recognisable,
    /// nothing is readable.
    Digest,
    /// The payload after the configured redactor ([`AuditConfig::with_redactor`]), capped;
    /// without a redactor, the digest only.
    Redacted,
    /// The payload as received, capped.
    Full,
}

impl Capture {
    /// Parses `none`, `digest`, `redacted` or `full` (any case).
    ///
    /// ```
    /// use agenthooks_otel::Capture;
    /// assert_eq!(Capture::parse("Digest"), Some(Capture::Digest));
    /// assert_eq!(Capture::parse("all"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "" => Some(Self::None),
            "digest" => Some(Self::Digest),
            "redacted" => Some(Self::Redacted),
            "full" => Some(Self::Full),
            _ => None,
        }
    }

    /// The level's name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Digest => "digest",
            Self::Redacted => "redacted",
            Self::Full => "full",
        }
    }
}

/// A redactor: returns the text with whatever must not leave the machine replaced.
pub type Redactor = fn(&str) -> String;

/// The default cap on every string attribute, in bytes (`OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`
/// overrides it).
pub const DEFAULT_ATTR_CAP: usize = 1024;
/// The default cap on the spool's size in bytes (`AGENTHOOKS_AUDIT_SPOOL_BYTES`).
pub const DEFAULT_SPOOL_CAP: u64 = 16 << 20;
/// The most elements an array attribute keeps.
pub const MAX_ARRAY: usize = 32;

/// The audit export's configuration.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AuditConfig {
    /// The OTLP/HTTP traces URL (`…/v1/traces`); `None`: records are spooled for the local
    /// report only, nothing is shipped.
    pub traces_url: Option<String>,
    /// The OTLP/HTTP logs URL (`…/v1/logs`).
    pub logs_url: Option<String>,
    /// Extra request headers (`OTEL_EXPORTER_OTLP_HEADERS`).
    pub headers: Vec<(String, String)>,
    /// Each export request's timeout (`OTEL_EXPORTER_OTLP_TIMEOUT`, milliseconds).
    pub timeout: Duration,
    /// `service.name` (`OTEL_SERVICE_NAME`, else `OTEL_RESOURCE_ATTRIBUTES`, else `agenthooks`).
    pub service_name: String,
    /// Resource attributes (`OTEL_RESOURCE_ATTRIBUTES`).
    pub resource: Vec<(String, String)>,
    /// The content capture level (`AGENTHOOKS_AUDIT_CAPTURE`).
    pub capture: Capture,
    /// The redactor of [`Capture::Redacted`].
    pub redactor: Option<Redactor>,
    /// The cap on every string attribute, in bytes.
    pub attr_cap: usize,
    /// The spool directory (`AGENTHOOKS_AUDIT_SPOOL`, else `audit/` in the state directory).
    pub spool_dir: Option<PathBuf>,
    /// The spool's size cap in bytes.
    pub spool_cap: u64,
}

impl Default for AuditConfig {
    fn default() -> Self {
        Self {
            traces_url: None,
            logs_url: None,
            headers: Vec::new(),
            timeout: Duration::from_secs(10),
            service_name: "agenthooks".into(),
            resource: Vec::new(),
            capture: Capture::None,
            redactor: None,
            attr_cap: DEFAULT_ATTR_CAP,
            spool_dir: None,
            spool_cap: DEFAULT_SPOOL_CAP,
        }
    }
}

/// An `OTEL_*` variable, else its `AGENTHOOKS_OTEL_*` alias: Claude Code removes `OTEL_*` from
/// its hooks' environment (quirk 112), the alias reaches them.
fn otel_var(env: &dyn Env, name: &str) -> Option<String> {
    env.var(name).or_else(|| env.var(&format!("AGENTHOOKS_{name}")))
}

fn truthy(v: Option<String>) -> bool {
    v.is_some_and(|v| {
        let v = v.trim().to_ascii_lowercase();
        !(v.is_empty() || v == "0" || v == "false" || v == "no" || v == "off")
    })
}

/// `k=v,k2=v2` (the `OpenTelemetry` list syntax; values percent-decoded).
fn pairs(s: &str) -> Vec<(String, String)> {
    s.split(',')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (percent_decode(k.trim()), percent_decode(v.trim())))
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() + 1 {
            if let Some([v]) = b
                .get(i + 1..i + 3)
                .and_then(|h| crate::ids::unhex::<1>(std::str::from_utf8(h).ok()?))
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn signal_url(env: &dyn Env, signal: &str) -> Option<String> {
    let specific = format!("OTEL_EXPORTER_OTLP_{}_ENDPOINT", signal.to_ascii_uppercase());
    if let Some(u) = otel_var(env, &specific).filter(|s| !s.trim().is_empty()) {
        return Some(u.trim().to_owned());
    }
    let base = otel_var(env, "OTEL_EXPORTER_OTLP_ENDPOINT").filter(|s| !s.trim().is_empty())?;
    Some(format!("{}/v1/{signal}", base.trim().trim_end_matches('/')))
}

impl AuditConfig {
    /// Whether the kill switch is on in `env` ([`KILL_SWITCH`] or `OTEL_SDK_DISABLED`).
    pub fn killed(env: &dyn Env) -> bool {
        truthy(env.var(KILL_SWITCH))
            || otel_var(env, "OTEL_SDK_DISABLED").is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    }

    /// The configuration the environment asks for, or `None` when it asks for no audit: the
    /// kill switch is on, or neither an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`,
    /// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) nor `AGENTHOOKS_AUDIT=1` (spool for the local
    /// report only) is set.
    ///
    /// ```
    /// use agenthooks_otel::{AuditConfig, Capture};
    /// let env = vec![
    ///     ("OTEL_EXPORTER_OTLP_ENDPOINT".to_owned(), "http://127.0.0.1:4318/".to_owned()),
    ///     ("OTEL_RESOURCE_ATTRIBUTES".to_owned(), "service.name=guard,team=sec%20ops".to_owned()),
    ///     ("AGENTHOOKS_AUDIT_CAPTURE".to_owned(), "digest".to_owned()),
    /// ];
    /// let c = AuditConfig::from_env(&env).unwrap();
    /// assert_eq!(c.traces_url.as_deref(), Some("http://127.0.0.1:4318/v1/traces"));
    /// assert_eq!(c.service_name, "guard");
    /// assert_eq!(c.capture, Capture::Digest);
    /// assert!(c.resource.contains(&("team".to_owned(), "sec ops".to_owned())));
    /// assert!(AuditConfig::from_env(&Vec::<(String, String)>::new()).is_none());
    /// ```
    pub fn from_env(env: &dyn Env) -> Option<Self> {
        if Self::killed(env) {
            return None;
        }
        let traces_url = signal_url(env, "traces");
        if traces_url.is_none() && !truthy(env.var("AGENTHOOKS_AUDIT")) {
            return None;
        }
        let mut c = Self::default().overlaid(env);
        c.traces_url = traces_url;
        Some(c)
    }

    /// This configuration with whatever `env` sets on top (endpoints, headers, resource,
    /// capture, caps, spool): what a configuration set in code gets from the standard variables.
    #[must_use]
    pub fn overlaid(mut self, env: &dyn Env) -> Self {
        if let Some(u) = signal_url(env, "traces") {
            self.traces_url = Some(u);
        }
        if let Some(u) = signal_url(env, "logs") {
            self.logs_url = Some(u);
        }
        if self.logs_url.is_none() {
            self.logs_url = self
                .traces_url
                .as_deref()
                .and_then(|t| t.strip_suffix("/v1/traces"))
                .map(|b| format!("{b}/v1/logs"));
        }
        for var in ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"] {
            if let Some(h) = otel_var(env, var) {
                self.headers.extend(pairs(&h));
            }
        }
        if let Some(ms) = otel_var(env, "OTEL_EXPORTER_OTLP_TIMEOUT").and_then(|v| v.trim().parse().ok()) {
            self.timeout = Duration::from_millis(ms);
        }
        if let Some(p) = otel_var(env, "OTEL_EXPORTER_OTLP_PROTOCOL").filter(|p| p.trim() != "http/protobuf") {
            tracing::warn!(protocol = %p, "audit export speaks OTLP http/protobuf only; using it");
        }
        if let Some(r) = otel_var(env, "OTEL_RESOURCE_ATTRIBUTES") {
            for (k, v) in pairs(&r) {
                if k == "service.name" {
                    self.service_name = v;
                } else {
                    self.resource.push((k, v));
                }
            }
        }
        if let Some(n) = otel_var(env, "OTEL_SERVICE_NAME").filter(|s| !s.trim().is_empty()) {
            n.trim().clone_into(&mut self.service_name);
        }
        if let Some(c) = env.var("AGENTHOOKS_AUDIT_CAPTURE") {
            match Capture::parse(&c) {
                Some(c) => self.capture = c,
                None => {
                    tracing::warn!(AGENTHOOKS_AUDIT_CAPTURE = %c, "unknown capture level; keeping {}", self.capture.as_str());
                }
            }
        }
        if let Some(n) = otel_var(env, "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT").and_then(|v| v.trim().parse().ok()) {
            self.attr_cap = n;
        }
        if let Some(d) = env
            .var("AGENTHOOKS_AUDIT_SPOOL")
            .filter(|d| std::path::Path::new(d).is_absolute())
        {
            self.spool_dir = Some(d.into());
        }
        if let Some(n) = env
            .var("AGENTHOOKS_AUDIT_SPOOL_BYTES")
            .and_then(|v| v.trim().parse().ok())
        {
            self.spool_cap = n;
        }
        self
    }

    /// The variables that carry this configuration to a shipper process (which reads it with
    /// [`AuditConfig::from_env`]). The redactor does not travel: the shipper sends what the
    /// spool holds, already captured.
    pub fn to_env(&self) -> Vec<(String, String)> {
        let mut v = vec![
            ("AGENTHOOKS_AUDIT".to_owned(), "1".to_owned()),
            ("OTEL_SERVICE_NAME".to_owned(), self.service_name.clone()),
            (
                "OTEL_EXPORTER_OTLP_TIMEOUT".to_owned(),
                self.timeout.as_millis().to_string(),
            ),
            ("AGENTHOOKS_AUDIT_CAPTURE".to_owned(), self.capture.as_str().to_owned()),
            (
                "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT".to_owned(),
                self.attr_cap.to_string(),
            ),
            ("AGENTHOOKS_AUDIT_SPOOL_BYTES".to_owned(), self.spool_cap.to_string()),
        ];
        let enc = |s: &str| s.replace('%', "%25").replace(',', "%2C").replace('=', "%3D");
        let list = |kv: &[(String, String)]| {
            kv.iter()
                .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
                .collect::<Vec<_>>()
                .join(",")
        };
        v.push(("OTEL_RESOURCE_ATTRIBUTES".to_owned(), list(&self.resource)));
        v.push(("OTEL_EXPORTER_OTLP_HEADERS".to_owned(), list(&self.headers)));
        if let Some(u) = &self.traces_url {
            v.push(("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT".to_owned(), u.clone()));
        }
        if let Some(u) = &self.logs_url {
            v.push(("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT".to_owned(), u.clone()));
        }
        if let Some(d) = &self.spool_dir {
            v.push(("AGENTHOOKS_AUDIT_SPOOL".to_owned(), d.display().to_string()));
        }
        v
    }
}

agenthooks_core::setters! {
    impl AuditConfig {
        /// Sets the content capture level.
        with_capture(capture: Capture);
        /// Sets the redactor of [`Capture::Redacted`].
        with_redactor(redactor: Redactor) => Some;
        /// Sets the cap on every string attribute.
        with_attr_cap(attr_cap: usize);
        /// Sets the spool directory.
        with_spool_dir(spool_dir: impl Into<PathBuf>) => Some;
        /// Sets the spool's size cap.
        with_spool_cap(spool_cap: u64);
        /// Sets the OTLP/HTTP traces URL.
        with_traces_url(traces_url: impl Into<String>) => Some;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn kill_switch_wins_and_config_round_trips_through_env() {
        let on = [("OTEL_EXPORTER_OTLP_ENDPOINT", "http://h:4318")];
        assert!(AuditConfig::from_env(&env(&on)).is_some());
        assert!(AuditConfig::from_env(&env(&[on[0], (KILL_SWITCH, "1")])).is_none());
        assert!(AuditConfig::from_env(&env(&[on[0], ("OTEL_SDK_DISABLED", "true")])).is_none());
        assert!(AuditConfig::from_env(&env(&[on[0], (KILL_SWITCH, "0")])).is_some());
        // The alias an agent that strips OTEL_* passes on; the standard name wins.
        let alias = AuditConfig::from_env(&env(&[("AGENTHOOKS_OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:1")])).unwrap();
        assert_eq!(alias.traces_url.as_deref(), Some("http://a:1/v1/traces"));
        let both =
            AuditConfig::from_env(&env(&[on[0], ("AGENTHOOKS_OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:1")])).unwrap();
        assert_eq!(both.traces_url.as_deref(), Some("http://h:4318/v1/traces"));
        let c = AuditConfig::from_env(&env(&[
            on[0],
            ("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20x,k=a%2Cb"),
            ("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=prod"),
            ("AGENTHOOKS_AUDIT_SPOOL", "/s"),
        ]))
        .unwrap();
        assert_eq!(c.logs_url.as_deref(), Some("http://h:4318/v1/logs"));
        assert_eq!(c.headers[0], ("authorization".into(), "Bearer x".into()));
        let back = AuditConfig::from_env(&c.to_env()).unwrap();
        assert_eq!(back.traces_url, c.traces_url);
        assert_eq!(back.logs_url, c.logs_url);
        assert_eq!(back.headers, c.headers);
        assert_eq!(back.resource, c.resource);
        assert_eq!(back.spool_dir, c.spool_dir);
        assert_eq!(back.service_name, c.service_name);
    }
}
