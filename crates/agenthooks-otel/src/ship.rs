//! The shipper: exports the spool over OTLP with retry and backoff, off the hook's path.
//!
//! A hook process that spooled a record checks the spool's lock: held, a shipper is running and
//! will see the record; free, it starts one (`<bin> agenthooks audit ship`, detached in its own
//! process group, its output discarded) and returns at once. The shipper holds the lock while it
//! runs, exports batches oldest first, moves each acknowledged batch to `done/`, backs off
//! (doubling from 250 ms to 30 s) while the collector is unreachable, and exits after a quiet
//! spell. It releases the lock and looks once more before exiting: a record spooled while it
//! was deciding to exit is either seen by that look or finds the lock free and starts a new
//! shipper.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::config::AuditConfig;
use crate::otlp::{self, ExportError};
use crate::record::Record;
use crate::spool::{Entry, Spool};

/// The most records one export request carries.
pub const BATCH: usize = 256;
const BACKOFF_MIN: Duration = Duration::from_millis(250);
const BACKOFF_MAX: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(100);

/// How a shipper runs.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ShipOptions {
    /// Exit after this long with nothing to send.
    pub linger: Duration,
    /// Give up on the collector after this long of failures (the records stay spooled for the
    /// next shipper); `None`: keep trying.
    pub give_up: Option<Duration>,
}

impl Default for ShipOptions {
    fn default() -> Self {
        Self {
            linger: Duration::from_secs(5),
            give_up: Some(Duration::from_secs(300)),
        }
    }
}

agenthooks_core::setters! {
    impl ShipOptions {
        /// Sets the quiet spell before exiting.
        with_linger(linger: Duration);
        /// Sets how long to keep retrying an unreachable collector.
        with_give_up(give_up: Option<Duration>);
    }
}

/// What a shipper did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Shipped {
    /// Records acknowledged by the collector.
    pub acked: u64,
    /// Export attempts that failed.
    pub failures: u64,
    /// Records dropped (damaged files, permanent rejections, the size cap).
    pub dropped: u64,
    /// Whether another shipper held the lock (this one did nothing).
    pub busy: bool,
}

/// Runs a shipper over `spool` until it has been quiet for the linger time (or gave up).
pub fn ship(spool: &Spool, config: &AuditConfig, opts: ShipOptions) -> Shipped {
    let mut out = Shipped::default();
    let Ok(Some(mut lock)) = spool.try_lock() else {
        out.busy = true;
        return out;
    };
    lock.note_pid();
    let mut idle_since = Instant::now();
    let mut failing_since: Option<Instant> = None;
    let mut backoff = BACKOFF_MIN;
    spool.sweep_tmp();
    loop {
        out.dropped += spool.enforce_cap().unwrap_or(0);
        let pending = spool.pending().unwrap_or_default();
        if pending.is_empty() && spool.dropped().unreported == 0 {
            if idle_since.elapsed() < opts.linger {
                std::thread::sleep(POLL);
                continue;
            }
            // Release, then look once more (see the module docs).
            drop(lock);
            if spool.pending().map_or(true, |p| p.is_empty()) {
                return out;
            }
            match spool.try_lock() {
                Ok(Some(l)) => {
                    lock = l;
                    lock.note_pid();
                }
                _ => return out,
            }
            continue;
        }
        idle_since = Instant::now();
        let batch: Vec<Entry> = pending.into_iter().take(BATCH).collect();
        let mut records: Vec<Record> = Vec::with_capacity(batch.len());
        let mut good: Vec<Entry> = Vec::with_capacity(batch.len());
        for e in batch {
            match Spool::read(&e) {
                Some(r) => {
                    records.push(r);
                    good.push(e);
                }
                // Perhaps still being written: left for a later round.
                None if Spool::is_fresh(&e) => {}
                None => {
                    if spool.discard(&e).is_ok() {
                        out.dropped += 1;
                    }
                }
            }
        }
        if good.is_empty() && spool.dropped().unreported == 0 {
            std::thread::sleep(POLL);
            continue;
        }
        let dropped = spool.dropped().unreported;
        match otlp::export(&records, dropped, config) {
            Ok(()) => {
                let _ = spool.ack(&good);
                if dropped > 0 {
                    let _ = spool.reported_dropped(dropped);
                }
                out.acked += good.len() as u64;
                backoff = BACKOFF_MIN;
                failing_since = None;
            }
            Err(e) if !e.retryable() => {
                tracing::warn!(error = %e, records = good.len(), "audit export rejected; the batch is dropped");
                if matches!(e, ExportError::Url(_)) {
                    // Misconfigured: keep the records for the report and a fixed configuration.
                    return out;
                }
                for g in &good {
                    if spool.discard(g).is_ok() {
                        out.dropped += 1;
                    }
                }
                out.failures += 1;
            }
            Err(e) => {
                out.failures += 1;
                let since = *failing_since.get_or_insert_with(Instant::now);
                if opts.give_up.is_some_and(|g| since.elapsed() >= g) {
                    tracing::warn!(error = %e, "audit export unreachable; records stay spooled");
                    return out;
                }
                tracing::debug!(error = %e, backoff_ms = u64::try_from(backoff.as_millis()).unwrap_or(u64::MAX), "audit export failed; retrying");
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(BACKOFF_MAX);
            }
        }
    }
}

/// Starts a detached shipper when none runs: `exe agenthooks audit ship` in its own process
/// group, with `config` in its environment. Returns at once; errors are logged, never raised.
pub fn ensure_shipper(spool: &Spool, config: &AuditConfig) {
    let lock = match spool.try_lock() {
        Ok(Some(l)) => l,
        Ok(None) => return,
        Err(e) => {
            tracing::debug!(error = %e, "audit spool lock unavailable");
            return;
        }
    };
    let Ok(exe) = std::env::current_exe() else { return };
    let mut cmd = Command::new(exe);
    cmd.args(["agenthooks", "audit", "ship"])
        .env("AGENTHOOKS_AUDIT_SPOOL", spool.dir())
        .envs(config.to_env())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    // The lock is released only now: the child takes it when it starts.
    drop(lock);
    match cmd.spawn() {
        // A hook process exits before its shipper (which init then reaps); a long-lived one
        // (the serve daemon, the warm server) reaps it here.
        Ok(mut child) => {
            let _ = std::thread::Builder::new()
                .name("agenthooks-audit-reaper".into())
                .spawn(move || child.wait());
        }
        Err(e) => tracing::debug!(error = %e, "could not start the audit shipper"),
    }
}
