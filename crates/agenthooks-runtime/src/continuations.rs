//! The continuation store: how many times in a row a session's turn was continued, in a small
//! state file per session, so no hook can loop an agent forever (across processes in `run`
//! mode, across frames in `serve` mode).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::event::{ContinuationFlag, Event, StopEvent};

/// Per-session continuation counter (a small state file), so no hook can loop an agent forever.
pub(super) struct Continuations {
    path: PathBuf,
}

impl Continuations {
    pub(super) fn new(dir: &Path, ev: &Event) -> Option<Self> {
        if !matches!(ev, Event::Stop(_) | Event::SubagentStop(_)) {
            return None;
        }
        let env = ev.envelope();
        let mut h = Sha256::new();
        h.update(env.provider.as_str().as_bytes());
        h.update(b"|");
        h.update(env.session.id.as_bytes());
        h.update(b"|");
        h.update(env.agent.as_ref().map_or("", |a| a.id.as_str()).as_bytes());
        let d = h.finalize();
        let name = crate::digest::hex(&d[..8]);
        Some(Self {
            path: dir.join("continuations").join(name),
        })
    }

    /// Reads the agent's flag on a stop: the first stop of a turn (the agent says it is not a
    /// re-entry) resets the counter; an agent that does not say ([`ContinuationFlag::Absent`])
    /// keeps it, and `previously_continued` is then whether the counter is above zero. Fills
    /// `continuation_count` when the codec did not. Returns whether the agent did not say.
    pub(super) fn observe(&self, s: &mut StopEvent) -> bool {
        let unreported = s.continuation_flag == ContinuationFlag::Absent;
        if unreported {
            s.previously_continued = self.count() > 0;
        } else if !s.previously_continued {
            self.reset();
        }
        if s.continuation_count.is_none() {
            s.continuation_count = Some(self.count());
        }
        unreported
    }

    /// The counter (a regular file of a few bytes; anything else reads as 0).
    pub(super) fn count(&self) -> u32 {
        crate::safe_fs::read_regular(&self.path, 32)
            .ok()
            .and_then(|b| String::from_utf8(b).ok()?.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Writes the counter: its directory private (not a symlink), the file `0600`, never
    /// written through a symlink.
    pub(super) fn increment(&self) {
        let n = self.count().saturating_add(1);
        let written = self
            .path
            .parent()
            .map_or(Ok(()), |p| crate::safe_fs::private_dir(p, true))
            .and_then(|()| crate::safe_fs::write_private(&self.path, n.to_string().as_bytes()));
        if let Err(e) = written {
            tracing::warn!(error = %e, "could not record the continuation count");
        }
    }

    pub(super) fn reset(&self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
