//! A minimal `tracing` subscriber for the hook process.
//!
//! Every hook invocation is a fresh process, so subscriber start-up is on the hot path:
//! `tracing-subscriber`'s registry allocates sharded slabs and its `EnvFilter` compiles regexes,
//! which together cost more than a whole hand-written hook. This subscriber filters by level,
//! keeps no span state, and formats events as one line (`LEVEL target: message key=value …`) to
//! stderr or to a log file opened only when something is logged.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use tracing::field::{Field, Visit};
use tracing::{span, Event, Level, Metadata, Subscriber};

/// Where log lines go.
#[derive(Debug, Clone)]
pub(crate) enum Sink {
    Stderr,
    File(PathBuf),
}

/// A level-filtering, span-less subscriber.
#[derive(Debug)]
pub(crate) struct MiniSubscriber {
    max: Level,
    sink: Sink,
    next_id: AtomicU64,
}

impl MiniSubscriber {
    pub(crate) fn new(max: Level, sink: Sink) -> Self {
        Self {
            max,
            sink,
            next_id: AtomicU64::new(1),
        }
    }
}

/// The start of a log line: `secs.millis LEVEL pid=N target:` (what follows is the message and
/// the fields, each after a space).
pub(crate) fn line_head(at: std::time::SystemTime, level: Level, target: &str) -> String {
    // Integer formatting only: the deadline renders this line on every invocation, and float
    // formatting is code (pages) the hook would not touch otherwise.
    let d = at.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    format!(
        "{}.{:03} {level} pid={} {target}:",
        d.as_secs(),
        d.subsec_millis(),
        std::process::id()
    )
}

struct Line(String);

impl Visit for Line {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            let _ = write!(self.0, " {value}");
        } else {
            let _ = write!(self.0, " {}={value:?}", field.name());
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.0, " {value:?}");
        } else {
            let _ = write!(self.0, " {}={value:?}", field.name());
        }
    }
}

impl Subscriber for MiniSubscriber {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= self.max
    }

    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::from_level(self.max))
    }

    fn new_span(&self, _span: &span::Attributes<'_>) -> span::Id {
        span::Id::from_u64(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    fn record(&self, _span: &span::Id, _values: &span::Record<'_>) {}

    fn record_follows_from(&self, _span: &span::Id, _follows: &span::Id) {}

    fn event(&self, event: &Event<'_>) {
        let meta = event.metadata();
        let mut line = Line(line_head(std::time::SystemTime::now(), *meta.level(), meta.target()));
        event.record(&mut line);
        line.0.push('\n');
        match &self.sink {
            Sink::Stderr => {
                let _ = std::io::stderr().write_all(line.0.as_bytes());
            }
            // The file is in the private state directory (its path checked by the runner):
            // created `0600`, never written through a symlink.
            Sink::File(p) => {
                if let Ok(mut f) = crate::safe_fs::open_append_private(p) {
                    let _ = f.write_all(line.0.as_bytes());
                }
            }
        }
    }

    fn enter(&self, _span: &span::Id) {}

    fn exit(&self, _span: &span::Id) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_filtered_lines_to_a_file() {
        let dir = std::env::temp_dir().join(format!("agenthooks-log-{}", std::process::id()));
        let path = dir.join("x.log");
        std::fs::create_dir_all(&dir).unwrap();
        let _ = std::fs::remove_file(&path);
        let sub = MiniSubscriber::new(Level::WARN, Sink::File(path.clone()));
        tracing::subscriber::with_default(sub, || {
            tracing::info!("hidden");
            tracing::warn!(code = 7, "shown");
        });
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("WARN") && text.contains("shown") && text.contains("code=7"));
        assert!(!text.contains("hidden"));
    }
}
