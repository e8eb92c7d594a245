//! The per-user spool: the hook process appends a record and returns; the shipper exports and
//! acknowledges. Nothing is lost to a killed process:
//!
//! - a record is created exclusively (`0600`, never through a symlink) and written in one
//!   `write`; a reader leaves a record it cannot parse alone for a minute (its writer may still
//!   be writing it) and only then drops it as damaged (counted), so a hook killed mid-write
//!   costs that one record and a reader never takes a record being written for a damaged one;
//! - the shipper moves a record to `done/` only after the collector acknowledged it (a 2xx), so
//!   a shipper killed at any point leaves every unacknowledged record pending; the next one
//!   sends it again, under the same span id (the backend keeps one copy).
//!
//! Bounds: the directory is `0700`, every file `0600`. When pending and done records together
//! exceed the size cap, the oldest done records go first, then the oldest pending ones, and
//! each pending record dropped is counted in `dropped.json` (exported once as a log record, and
//! shown by the report).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::record::Record;

/// A spooled file: its path and size.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Entry {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub len: u64,
}

/// The dropped-record count (`dropped.json`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Dropped {
    /// Records dropped by the size cap, ever.
    pub total: u64,
    /// Of those, how many no export has reported yet.
    pub unreported: u64,
}

/// A spool directory.
#[derive(Debug, Clone)]
pub struct Spool {
    dir: PathBuf,
    cap: u64,
}

static SEQ: AtomicU32 = AtomicU32::new(0);

const DONE: &str = "done";
const DROPPED: &str = "dropped.json";
const LOCK: &str = "ship.lock";
/// How old a `.tmp-` file must be before the shipper removes it (its writer died).
const STALE_TMP: Duration = Duration::from_secs(60);

fn is_record(name: &str) -> bool {
    name.starts_with("r-") && std::path::Path::new(name).extension().is_some_and(|e| e == "json")
}

impl Spool {
    /// Opens (making or verifying it private) the spool at `dir`, capped at `cap` bytes.
    pub fn open(dir: impl Into<PathBuf>, cap: u64) -> io::Result<Self> {
        let dir = dir.into();
        agenthooks_runtime::private_dir(&dir)?;
        Ok(Self { dir, cap })
    }

    /// The default spool directory: `audit/` in the private state directory.
    pub fn default_dir(env: &dyn agenthooks_core::Env) -> Option<PathBuf> {
        agenthooks_runtime::RunOptions::default()
            .private_state_dir(env)
            .map(|d| d.join("audit"))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Appends `record` (one exclusive create and one write; see the module docs).
    pub fn append(&self, record: &Record) -> io::Result<PathBuf> {
        use std::io::Write as _;
        let bytes = serde_json::to_vec(record).map_err(io::Error::other)?;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        let name = format!(
            "r-{now:020}-{:010}-{:08x}.json",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        );
        let path = self.dir.join(name);
        let mut opts = fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        opts.open(&path)?.write_all(&bytes)?;
        Ok(path)
    }

    /// Whether `entry` may still be being written (younger than a minute).
    pub fn is_fresh(entry: &Entry) -> bool {
        fs::metadata(&entry.path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_none_or(|age| age < STALE_TMP)
    }

    fn list(dir: &Path) -> io::Result<Vec<Entry>> {
        let mut v = Vec::new();
        for e in fs::read_dir(dir)? {
            let e = e?;
            let name = e.file_name();
            if !name.to_str().is_some_and(is_record) {
                continue;
            }
            if let Ok(m) = e.metadata() {
                if m.is_file() {
                    v.push(Entry {
                        path: e.path(),
                        len: m.len(),
                    });
                }
            }
        }
        v.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(v)
    }

    /// The records not yet acknowledged, oldest first.
    pub fn pending(&self) -> io::Result<Vec<Entry>> {
        Self::list(&self.dir)
    }

    /// The acknowledged records kept for the report, oldest first.
    pub fn done(&self) -> io::Result<Vec<Entry>> {
        match Self::list(&self.dir.join(DONE)) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
            r => r,
        }
    }

    /// Reads one record; `None` when it is not one (a foreign or damaged file).
    pub fn read(entry: &Entry) -> Option<Record> {
        let bytes = agenthooks_core::safe_fs::read_regular(&entry.path, 1 << 22).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Marks `entries` acknowledged: moved to `done/`.
    pub fn ack(&self, entries: &[Entry]) -> io::Result<()> {
        let done = self.dir.join(DONE);
        agenthooks_runtime::private_dir(&done)?;
        for e in entries {
            if let Some(name) = e.path.file_name() {
                match fs::rename(&e.path, done.join(name)) {
                    Ok(()) => {}
                    Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                    Err(err) => return Err(err),
                }
            }
        }
        Ok(())
    }

    /// Removes a damaged record (counted as dropped).
    pub fn discard(&self, entry: &Entry) -> io::Result<()> {
        fs::remove_file(&entry.path)?;
        self.add_dropped(1)
    }

    /// The dropped-record count.
    pub fn dropped(&self) -> Dropped {
        agenthooks_core::safe_fs::read_regular(&self.dir.join(DROPPED), 4096)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    fn set_dropped(&self, d: Dropped) -> io::Result<()> {
        let bytes = serde_json::to_vec(&d).map_err(io::Error::other)?;
        let tmp = self.dir.join(".tmp-dropped");
        agenthooks_runtime::write_private(&tmp, &bytes)?;
        fs::rename(tmp, self.dir.join(DROPPED))
    }

    fn add_dropped(&self, n: u64) -> io::Result<()> {
        let mut d = self.dropped();
        d.total += n;
        d.unreported += n;
        self.set_dropped(d)
    }

    /// Records that `n` dropped records were reported by an export.
    pub fn reported_dropped(&self, n: u64) -> io::Result<()> {
        let mut d = self.dropped();
        d.unreported = d.unreported.saturating_sub(n);
        self.set_dropped(d)
    }

    /// Applies the size cap (see the module docs); returns how many pending records it dropped.
    /// Call with the [`ShipLock`] held (one enforcer at a time).
    pub fn enforce_cap(&self) -> io::Result<u64> {
        let done = self.done()?;
        let pending = self.pending()?;
        let mut total: u64 = done.iter().chain(&pending).map(|e| e.len).sum();
        for e in &done {
            if total <= self.cap {
                return Ok(0);
            }
            if fs::remove_file(&e.path).is_ok() {
                total -= e.len;
            }
        }
        let mut dropped = 0;
        for e in &pending {
            if total <= self.cap {
                break;
            }
            if fs::remove_file(&e.path).is_ok() {
                total -= e.len;
                dropped += 1;
            }
        }
        if dropped > 0 {
            self.add_dropped(dropped)?;
            tracing::warn!(
                dropped,
                cap = self.cap,
                "audit spool over its cap: dropped the oldest records"
            );
        }
        Ok(dropped)
    }

    /// Removes `.tmp-` files older than a minute (their writers died mid-write).
    pub fn sweep_tmp(&self) {
        let Ok(rd) = fs::read_dir(&self.dir) else { return };
        for e in rd.flatten() {
            let stale = e
                .metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > STALE_TMP);
            if stale && e.file_name().to_string_lossy().starts_with(".tmp-") {
                let _ = fs::remove_file(e.path());
            }
        }
    }

    /// Takes the shipper's lock without waiting: `Ok(None)` when another process holds it.
    pub fn try_lock(&self) -> io::Result<Option<ShipLock>> {
        ShipLock::try_take(&self.dir.join(LOCK))
    }

    /// The process id the last shipper wrote into the lock file ([`ShipLock::note_pid`]).
    pub fn shipper_pid(&self) -> Option<u32> {
        fs::read_to_string(self.dir.join(LOCK)).ok()?.trim().parse().ok()
    }
}

/// The shipper's lock (an exclusive `flock` on `ship.lock`, released when the process ends,
/// however it ends).
#[derive(Debug)]
pub struct ShipLock {
    file: fs::File,
}

impl ShipLock {
    /// Writes this process's id into the lock file (what `ps`, and the benchmark, look for).
    pub fn note_pid(&mut self) {
        use std::io::{Seek, Write};
        let _ = self.file.set_len(0);
        let _ = self.file.rewind();
        let _ = write!(self.file, "{}", std::process::id());
    }

    #[cfg(unix)]
    #[allow(unsafe_code)]
    fn try_take(path: &Path) -> io::Result<Option<Self>> {
        use std::os::unix::fs::OpenOptionsExt;
        use std::os::unix::io::AsRawFd;
        let file = fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)?;
        // SAFETY: flock on a descriptor this function owns; no memory is passed.
        let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if r == 0 {
            return Ok(Some(Self { file }));
        }
        let e = io::Error::last_os_error();
        if e.kind() == io::ErrorKind::WouldBlock {
            Ok(None)
        } else {
            Err(e)
        }
    }

    #[cfg(not(unix))]
    fn try_take(path: &Path) -> io::Result<Option<Self>> {
        // Without flock: an exclusive create; a lock left by a crash expires after a minute.
        let stale = fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_TMP);
        if stale {
            let _ = fs::remove_file(path);
        }
        match fs::OpenOptions::new().write(true).create_new(true).open(path) {
            Ok(file) => Ok(Some(Self { file })),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Map;

    pub(crate) fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "agenthooks-otel-{name}-{}-{}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&d);
        d
    }

    pub(crate) fn record(i: u64, pad: usize) -> Record {
        let mut attrs = Map::new();
        attrs.insert("agenthooks.pad".into(), "x".repeat(pad).into());
        attrs.insert("i".into(), i.into());
        Record {
            v: 1,
            trace: "0".repeat(31) + "1",
            span: format!("{i:016x}"),
            session_span: "0".repeat(15) + "2",
            turn_span: None,
            name: "hook X".into(),
            start_ns: i,
            end_ns: i + 1,
            error: false,
            attrs,
            log: None,
        }
    }

    #[cfg(unix)]
    #[test]
    fn files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let d = temp("perm");
        let s = Spool::open(&d, 1 << 20).unwrap();
        let p = s.append(&record(1, 1)).unwrap();
        assert_eq!(fs::metadata(&d).unwrap().permissions().mode() & 0o777, 0o700);
        assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(Spool::read(&s.pending().unwrap()[0]), Some(record(1, 1)));
        fs::remove_dir_all(d).unwrap();
    }

    /// Only one lock holder at a time; a dropped lock is free again.
    #[test]
    fn the_lock_is_exclusive() {
        let d = temp("lock");
        let s = Spool::open(&d, 1 << 20).unwrap();
        let held = s.try_lock().unwrap().expect("free");
        #[cfg(unix)]
        {
            // flock locks are per open file description: a second open in this process conflicts.
            assert!(s.try_lock().unwrap().is_none());
        }
        drop(held);
        assert!(s.try_lock().unwrap().is_some());
        fs::remove_dir_all(d).unwrap();
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// The cap holds after enforcement; done records go before pending ones; the pending
        /// records kept are the newest; every pending record dropped is counted.
        #[test]
        fn the_cap_holds_and_drops_oldest_first(
            sizes in proptest::collection::vec(1usize..400, 1..40),
            acked in 0usize..40,
            cap in 200u64..6000,
        ) {
            let d = temp("cap");
            let s = Spool::open(&d, cap).unwrap();
            for (i, n) in sizes.iter().enumerate() {
                s.append(&record(i as u64, *n)).unwrap();
            }
            let all = s.pending().unwrap();
            let acked = acked.min(all.len());
            s.ack(&all[..acked]).unwrap();
            let before_pending = s.pending().unwrap();
            let dropped = s.enforce_cap().unwrap();
            let pending = s.pending().unwrap();
            let done = s.done().unwrap();
            let total: u64 = pending.iter().chain(&done).map(|e| e.len).sum();
            prop_assert!(total <= cap);
            if dropped > 0 {
                prop_assert!(done.is_empty());
            }
            prop_assert_eq!(pending.len() as u64 + dropped, before_pending.len() as u64);
            // the kept pending records are the newest ones
            let kept: Vec<_> = before_pending[before_pending.len() - pending.len()..].to_vec();
            prop_assert_eq!(kept, pending);
            prop_assert_eq!(s.dropped().total, dropped);
            fs::remove_dir_all(d).unwrap();
        }
    }
}
