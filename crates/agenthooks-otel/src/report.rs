//! `agenthooks audit report`: a summary of the spool (pending and shipped records) without a
//! backend.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::record::Record;
use crate::spool::Spool;

/// Events and decisions of one agent and event kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Row {
    /// Events seen.
    pub events: u64,
    /// Decisions sent, by kind (`deny`, `ask`, `no-decision`, …).
    pub decisions: BTreeMap<String, u64>,
    /// Failure answers.
    pub failures: u64,
}

/// The summary.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Report {
    /// Records summarised.
    pub records: u64,
    /// Of those, not yet shipped.
    pub pending: u64,
    /// Records the size cap dropped, ever.
    pub dropped: u64,
    /// Per `agent / kind`.
    pub rows: BTreeMap<String, Row>,
    /// Degradations, by `capability: from->to`.
    pub degraded: BTreeMap<String, u64>,
    /// Hook latency percentiles in microseconds (p50, p99), when any record has one.
    pub latency_us: Option<(u64, u64)>,
}

/// The `q`-quantile (nearest rank) of sorted `v`.
fn quantile(v: &[u64], q: f64) -> u64 {
    if v.is_empty() {
        return 0;
    }
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

impl Report {
    /// Summarises `records` (`pending` of them unshipped).
    pub fn of<'r>(records: impl IntoIterator<Item = &'r Record>, pending: u64, dropped: u64) -> Self {
        let mut r = Self {
            pending,
            dropped,
            ..Self::default()
        };
        let mut lat = Vec::new();
        for rec in records {
            r.records += 1;
            let key = format!(
                "{} / {}",
                rec.attr("agenthooks.provider").unwrap_or("?"),
                rec.attr("agenthooks.kind").unwrap_or("?")
            );
            let row = r.rows.entry(key).or_default();
            row.events += 1;
            *row.decisions
                .entry(rec.attr("agenthooks.decision").unwrap_or("no-decision").to_owned())
                .or_default() += 1;
            if rec.error {
                row.failures += 1;
            }
            if let Some(d) = rec.attrs.get("agenthooks.degraded").and_then(|v| v.as_array()) {
                for x in d.iter().filter_map(|x| x.as_str()) {
                    *r.degraded.entry(x.to_owned()).or_default() += 1;
                }
            }
            if let Some(l) = rec.latency() {
                lat.push(u64::try_from(l.as_micros()).unwrap_or(u64::MAX));
            }
        }
        lat.sort_unstable();
        if !lat.is_empty() {
            r.latency_us = Some((quantile(&lat, 0.5), quantile(&lat, 0.99)));
        }
        r
    }

    /// Reads the spool (records that started at or after `since`, when given) and summarises it.
    pub fn of_spool(spool: &Spool, since: Option<SystemTime>) -> Self {
        let since_ns = since.map_or(0, |s| {
            u64::try_from(s.duration_since(UNIX_EPOCH).unwrap_or_default().as_nanos()).unwrap_or(u64::MAX)
        });
        let read = |entries: Vec<crate::spool::Entry>| -> Vec<Record> {
            entries
                .iter()
                .filter_map(Spool::read)
                .filter(|r| r.start_ns >= since_ns)
                .collect()
        };
        let pending = read(spool.pending().unwrap_or_default());
        let done = read(spool.done().unwrap_or_default());
        Self::of(pending.iter().chain(&done), pending.len() as u64, spool.dropped().total)
    }

    /// The summary as text.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "audit spool: {} records ({} not shipped yet), {} dropped over the cap",
            self.records, self.pending, self.dropped
        );
        let _ = writeln!(
            s,
            "\n{:<34} {:>7} {:>8}  decisions",
            "agent / kind", "events", "failures"
        );
        for (k, row) in &self.rows {
            let d: Vec<String> = row.decisions.iter().map(|(k, n)| format!("{k}={n}")).collect();
            let _ = writeln!(s, "{k:<34} {:>7} {:>8}  {}", row.events, row.failures, d.join(" "));
        }
        if !self.degraded.is_empty() {
            let _ = writeln!(s, "\ndegraded capabilities:");
            for (k, n) in &self.degraded {
                let _ = writeln!(s, "  {k}: {n}");
            }
        }
        match self.latency_us {
            Some((p50, p99)) => {
                let _ = writeln!(
                    s,
                    "\nhook latency: p50 {:.2} ms, p99 {:.2} ms",
                    Duration::from_micros(p50).as_secs_f64() * 1e3,
                    Duration::from_micros(p99).as_secs_f64() * 1e3
                );
            }
            None => {
                let _ = writeln!(s, "\nhook latency: no records");
            }
        }
        s
    }
}

/// Parses `--since`: a duration back from `now` (`90s`, `15m`, `2h`, `7d`) or Unix seconds.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let now = UNIX_EPOCH + Duration::from_secs(10_000);
/// assert_eq!(agenthooks_otel::report::parse_since("2h", now), Some(UNIX_EPOCH + Duration::from_secs(2_800)));
/// assert_eq!(agenthooks_otel::report::parse_since("1700000000", now), Some(UNIX_EPOCH + Duration::from_secs(1_700_000_000)));
/// assert_eq!(agenthooks_otel::report::parse_since("soon", now), None);
/// ```
pub fn parse_since(s: &str, now: SystemTime) -> Option<SystemTime> {
    let s = s.trim();
    let unit = match s.chars().last()? {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86_400,
        c if c.is_ascii_digit() => return Some(UNIX_EPOCH + Duration::from_secs(s.parse().ok()?)),
        _ => return None,
    };
    let n: u64 = s[..s.len() - 1].parse().ok()?;
    now.checked_sub(Duration::from_secs(n.checked_mul(unit)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_nearest_rank() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!((quantile(&v, 0.5), quantile(&v, 0.99)), (50, 99));
        assert_eq!(quantile(&[7], 0.99), 7);
    }
}
