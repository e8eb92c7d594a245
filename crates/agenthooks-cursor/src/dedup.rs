//! Double-fire dedup across hook processes (quirk #2).
//!
//! Cursor fires the generic `preToolUse` *and* the specific `beforeShellExecution` /
//! `beforeMCPExecution` / `beforeReadFile` for one call, each in its own hook process.
//! Consumers must see one `tool.pre` per call, so the two processes agree through an on-disk
//! marker under the runner's state dir ([`Invocation::state_dir`](agenthooks_core::Invocation)):
//!
//! - the **key** is stable across the two shapes: `sha256(conversation | generation | facet)`,
//!   the facet being `shell|<command>`, `read|<path>` or `mcp|<tool>|<canonical input>`;
//! - the **claim** is `cursor-dedup/<key>/claim`, created with `create_new` (atomic: exactly
//!   one process wins), holding the winner's native event name; it expires after [`TTL`];
//! - the **first arrival wins**: it is delivered as `tool.pre`; a later arrival of the *other*
//!   event of the pair is a duplicate, delivered as `other` with no capabilities, so it answers
//!   Cursor's neutral `{}` for its own event. A second arrival of the *same* event (two hook
//!   entries, a replay) is not a duplicate;
//! - a **generic MCP echo** (`preToolUse` with `MCP:<tool>`) never claims: only
//!   `beforeMCPExecution` carries the server and transport, so a server policy must see it.
//!   The echo is a duplicate when the specific event already claimed the call, or when this
//!   conversation has already fired `beforeMCPExecution` (so it will fire again); otherwise
//!   (cloud agents fire no MCP hooks, or the first MCP call of a conversation) it is delivered
//!   — double delivery, never a lost gate;
//! - every arrival leaves its raw payload beside the claim, so the winner carries the
//!   siblings that arrived before it decoded ([`Dedup::siblings`]); a specific MCP event takes
//!   the echo's `tool_use_id` when the echo came first;
//! - any filesystem error means "not a duplicate": correctness degrades to double delivery,
//!   never to a dropped decision.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use agenthooks_core::digest::{canonical_json, hex};
use agenthooks_core::RawPayload;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// How long a claim holds (Cursor fires the pair within the approval of one call).
pub const TTL: Duration = Duration::from_secs(60);

/// How long a conversation counts as firing MCP hooks after its last `beforeMCPExecution`.
pub const MCP_SEEN_TTL: Duration = Duration::from_secs(24 * 3600);

/// The directory under the state dir.
const DIR: &str = "cursor-dedup";

/// What a dedup check decided for one invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Dedup {
    /// The call's stable key (hex).
    pub key: String,
    /// Whether this invocation delivers the call (`false`: a duplicate, answered `{}`).
    pub delivered: bool,
    /// The native event holding the claim (`""` when nobody claimed: a delivered echo).
    pub winner: String,
    /// Raw payloads of the other events of the pair that arrived before this one decoded.
    pub siblings: Vec<Sibling>,
}

/// A sibling event's payload.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Sibling {
    /// Its native event.
    pub native: String,
    /// Its bytes, as Cursor sent them.
    pub raw: RawPayload,
}

impl Sibling {
    /// A field of the sibling's payload.
    pub fn field(&self, name: &str) -> Option<Value> {
        self.raw.field(name)
    }
}

/// How an event takes part in the dedup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// Shell, read, or the specific MCP event: first arrival claims.
    Claimant,
    /// `preToolUse` for `MCP:<tool>`: never claims.
    McpEcho,
    /// `beforeMCPExecution`: claims, and marks the conversation as firing MCP hooks.
    McpSpecific,
}

/// The facet of a shell call.
pub(crate) fn shell_facet(command: &str) -> String {
    format!("shell|{command}")
}

/// The facet of a file read.
pub(crate) fn read_facet(path: &str) -> String {
    format!("read|{path}")
}

/// The facet of an MCP call: the bare tool and its input with keys sorted.
pub(crate) fn mcp_facet(tool: &str, input: &Map<String, Value>) -> String {
    format!("mcp|{tool}|{}", canonical_json(&Value::Object(input.clone())))
}

/// The key of a call.
pub(crate) fn key(session: &str, turn: &str, facet: &str) -> String {
    let mut h = Sha256::new();
    for part in [session, turn, facet] {
        h.update(part.as_bytes());
        h.update(b"\x1f");
    }
    hex(&h.finalize()[..16])
}

fn fresh(path: &Path, ttl: Duration) -> bool {
    fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age < ttl)
}

fn is_symlink(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp{}-{:?}", std::process::id(), std::thread::current().id()));
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, path)
}

/// Removes claims older than ten TTLs when the directory grows (best effort).
fn sweep(root: &Path) {
    let Ok(entries) = fs::read_dir(root) else { return };
    let entries: Vec<_> = entries.flatten().collect();
    if entries.len() < 64 {
        return;
    }
    for e in entries {
        let p = e.path();
        if p.file_name().is_some_and(|n| n == "mcp-seen") {
            continue;
        }
        if !fresh(&p, TTL * 10) {
            let _ = fs::remove_dir_all(&p);
        }
    }
}

/// Checks and records one arrival. `None` on any filesystem error (then: not a duplicate).
pub(crate) fn check(
    state_dir: &Path,
    key: &str,
    session: &str,
    native: &str,
    part: Part,
    raw: &RawPayload,
) -> Option<Dedup> {
    let root = state_dir.join(DIR);
    let dir = root.join(key);
    // The state directory is private, but never follow a link planted in it out of it.
    let seen_dir = root.join("mcp-seen");
    let linked = || [&root, &dir, &seen_dir].iter().any(|p| is_symlink(p));
    if linked() || fs::create_dir_all(&dir).is_err() || linked() {
        tracing::warn!(dir = %root.display(), "cursor de-duplication: a symlink in the state directory (or no directory); skipped");
        return None;
    }
    sweep(&root);
    write_atomic(&dir.join(format!("{native}.json")), raw.as_bytes()).ok()?;
    let claim = dir.join("claim");
    let seen = root.join("mcp-seen").join(self::key(session, "", "mcp-seen"));

    let (delivered, winner) = match part {
        Part::McpEcho => match read_claim(&claim) {
            Some(w) if w != native => (false, w),
            _ if fresh(&seen, MCP_SEEN_TTL) => (false, "beforeMCPExecution".to_owned()),
            _ => (true, String::new()),
        },
        Part::Claimant | Part::McpSpecific => {
            if part == Part::McpSpecific {
                if let Some(p) = seen.parent() {
                    let _ = fs::create_dir_all(p);
                }
                let _ = fs::write(&seen, b"");
            }
            claim_or_read(&claim, native)?
        }
    };
    Some(Dedup {
        key: key.to_owned(),
        delivered,
        winner,
        siblings: siblings(&dir, native),
    })
}

/// The claim's holder, when the claim is fresh.
fn read_claim(claim: &Path) -> Option<String> {
    if !fresh(claim, TTL) {
        return None;
    }
    fs::read_to_string(claim).ok().map(|s| s.trim().to_owned())
}

/// Claims the call, or reads who holds it: `(delivered, winner)`.
///
/// The claim appears with its content in one step (a hard link of a written temp file), so a
/// reader never sees an empty claim; where hard links fail, `create_new` plus a short re-read.
fn claim_or_read(claim: &Path, native: &str) -> Option<(bool, String)> {
    let tmp = claim.with_extension(format!("new{}-{:?}", std::process::id(), std::thread::current().id()));
    fs::write(&tmp, native.as_bytes()).ok()?;
    let linked = fs::hard_link(&tmp, claim);
    let _ = fs::remove_file(&tmp);
    let exists = match linked {
        Ok(()) => return Some((true, native.to_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => true,
        Err(_) => match fs::OpenOptions::new().write(true).create_new(true).open(claim) {
            Ok(mut f) => {
                f.write_all(native.as_bytes()).ok()?;
                return Some((true, native.to_owned()));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => true,
            Err(_) => return None,
        },
    };
    debug_assert!(exists);
    for _ in 0..50 {
        match read_claim(claim) {
            Some(w) if w.is_empty() => std::thread::sleep(Duration::from_millis(1)),
            Some(w) => return Some((w == native, w)),
            None => {
                // A stale claim: this arrival starts a new window.
                write_atomic(claim, native.as_bytes()).ok()?;
                return Some((true, native.to_owned()));
            }
        }
    }
    None
}

/// The fresh raw payloads of the other events in `dir`.
fn siblings(dir: &Path, native: &str) -> Vec<Sibling> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<Sibling> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && fresh(p, TTL))
        .filter_map(|p: PathBuf| {
            let name = p.file_stem()?.to_str()?.to_owned();
            (name != native).then_some(())?;
            let bytes = fs::read(&p).ok()?;
            Some(Sibling {
                native: name,
                raw: RawPayload::from(bytes),
            })
        })
        .collect();
    out.sort_by(|a, b| a.native.cmp(&b.native));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_testkit::TempDir;

    #[test]
    fn first_arrival_wins_and_the_same_event_is_not_a_duplicate() {
        let tmp = TempDir::new("cursor-dedup-first");
        let d = tmp.0.join("state");
        let raw = RawPayload::from(b"{}".to_vec());
        let a = check(&d, "k", "s", "preToolUse", Part::Claimant, &raw).unwrap();
        assert!(a.delivered && a.siblings.is_empty());
        let b = check(&d, "k", "s", "beforeShellExecution", Part::Claimant, &raw).unwrap();
        assert!(!b.delivered && b.winner == "preToolUse" && b.siblings.len() == 1);
        let c = check(&d, "k", "s", "preToolUse", Part::Claimant, &raw).unwrap();
        assert!(c.delivered);
    }

    /// A link planted in the state directory is never followed out of it: de-duplication is
    /// skipped (every event delivered) and nothing is written where the link points.
    #[cfg(unix)]
    #[test]
    fn a_symlink_in_the_state_dir_is_not_followed() {
        let tmp = TempDir::new("cursor-dedup-link");
        let (d, elsewhere) = (tmp.0.join("state"), tmp.0.join("target"));
        fs::create_dir_all(&d).unwrap();
        fs::create_dir_all(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, d.join(DIR)).unwrap();
        let raw = RawPayload::from(b"{}".to_vec());
        assert!(check(&d, "k", "s", "preToolUse", Part::Claimant, &raw).is_none());
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
    }

    #[test]
    fn the_mcp_echo_never_claims() {
        let tmp = TempDir::new("cursor-dedup-echo");
        let d = tmp.0.join("state");
        let raw = RawPayload::from(br#"{"tool_use_id":"call_1"}"#.to_vec());
        // First MCP call of a conversation: the echo is delivered but claims nothing.
        let echo = check(&d, "k1", "s", "preToolUse", Part::McpEcho, &raw).unwrap();
        assert!(echo.delivered && echo.winner.is_empty());
        let spec = check(&d, "k1", "s", "beforeMCPExecution", Part::McpSpecific, &raw).unwrap();
        assert!(spec.delivered);
        assert_eq!(spec.siblings[0].field("tool_use_id"), Some(Value::from("call_1")));
        // Later calls: the conversation fires MCP hooks, the echo defers.
        let echo = check(&d, "k2", "s", "preToolUse", Part::McpEcho, &raw).unwrap();
        assert!(!echo.delivered);
        // Another conversation (a cloud agent: no MCP hooks) still gets its echo.
        let other = check(&d, "k3", "s2", "preToolUse", Part::McpEcho, &raw).unwrap();
        assert!(other.delivered);
    }

    #[test]
    fn keys_ignore_key_order() {
        let a: Map<String, Value> = serde_json::from_str(r#"{"a":1,"b":{"y":2,"x":1}}"#).unwrap();
        let b: Map<String, Value> = serde_json::from_str(r#"{"b":{"x":1,"y":2},"a":1}"#).unwrap();
        assert_eq!(mcp_facet("t", &a), mcp_facet("t", &b));
        // Known vectors: claims written by an earlier version keep matching.
        assert_eq!(mcp_facet("t", &a), r#"mcp|t|{"a":1,"b":{"x":1,"y":2}}"#);
        assert_eq!(key("s", "g", "x"), "d96467acc1ec2ed494632d3bf3a49c3c");
        assert_ne!(key("s", "g", "x"), key("s", "g2", "x"));
    }

    #[test]
    fn an_unwritable_state_dir_is_not_a_duplicate() {
        let raw = RawPayload::from(b"{}".to_vec());
        assert!(check(Path::new("/proc/no/such"), "k", "s", "preToolUse", Part::Claimant, &raw).is_none());
    }
}
