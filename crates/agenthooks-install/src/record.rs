//! Install records: what an install **created** in a config file, so that uninstall removes
//! exactly that and never something that was there before.
//!
//! A config may already hold containers of the shape we write into: an empty `"hooks": {}`, an
//! event holding `[]`, an empty `[hooks]` or `[hooks.state]` table, OpenClaw's `"plugins": {}`,
//! or be a file that holds nothing else. Install fills them; without a record, uninstall cannot
//! tell them from the containers install created, and would remove them (and delete the file).
//!
//! So every install that changes a config writes a small JSON record, one per (config file,
//! manifest command), at `<home>/.agenthooks/created/<sha256 of both, 16 hex>.json`:
//!
//! ```json
//! {"version": 1, "file": "/p/.claude/settings.json", "command": ["/opt/guard"],
//!  "created_file": false, "created": [["hooks", "PreToolUse"]]}
//! ```
//!
//! - `created` lists the key paths of the objects, tables and arrays the install added (arrays
//!   are not descended: the groups and handlers in them are ours by their command). Uninstall
//!   removes a container emptied by the removal of our entries only when it is listed.
//! - `created_file`: the install created the file; uninstall deletes it only then (and only
//!   when what is left is what a file we created holds once our entries are gone).
//! - `dirs` (left out when empty) lists the directories the install created, for this file or
//!   another file it wrote (`~/.codex/`, `.cursor/`): when uninstall deletes the record it
//!   removes each of them that is empty, innermost first (and only inside the project or the
//!   home directory), so an agent's directory that install made does not stay behind.
//! - The record lives while entries of ours are in the file: uninstall deletes it (with the
//!   `created/` and `.agenthooks/` directories it leaves empty).
//! - A reinstall keeps what the first install created (a container still there stays listed)
//!   and adds what it creates itself.
//!
//! **Without a record** (a config installed by a release before records, a record deleted, a
//! project config installed from another machine) uninstall does what it always did: every
//! container our removal leaves empty goes, and a file left exactly as a fresh install of ours
//! would leave it is deleted. A reinstall over such a config infers the record from that same
//! rule. Records live in the home directory, not next to the config: Copilot loads every
//! `*.json` in its hooks directory, and a project record would be committed with the project.
//!
//! Known limit: records are per command. When two manifests with different commands install
//! into one file and the first to install is not the last to uninstall, a container the first
//! created and the second found is left behind (empty); nothing of the user's is ever removed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A key path inside a document (`["hooks", "PreToolUse"]`).
pub(crate) type KeyPath = Vec<String>;

/// What an install created in one config file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Record {
    /// The record format.
    pub(crate) version: u32,
    /// The config file (canonical).
    pub(crate) file: PathBuf,
    /// The manifest command whose entries the install wrote.
    pub(crate) command: Vec<String>,
    /// Whether the install created the file.
    pub(crate) created_file: bool,
    /// The containers the install created.
    pub(crate) created: BTreeSet<KeyPath>,
    /// The directories the install created (for this file or another file of the same
    /// install), removed by uninstall once empty.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub(crate) dirs: BTreeSet<PathBuf>,
}

impl Record {
    /// An empty record for a file and command.
    pub(crate) fn new(file: PathBuf, command: Vec<String>) -> Self {
        Self {
            version: 1,
            file,
            command,
            created_file: false,
            created: BTreeSet::new(),
            dirs: BTreeSet::new(),
        }
    }

    /// Reads a record; `None` (with a warning) when it does not parse, so uninstall falls back
    /// to the rule for configs without one.
    pub(crate) fn parse(path: &Path, text: &str) -> Option<Self> {
        match serde_json::from_str::<Self>(text) {
            Ok(r) if r.version == 1 => Some(r),
            Ok(r) => {
                tracing::warn!(path = %path.display(), version = r.version, "unknown install record version: ignored");
                None
            }
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "unreadable install record: ignored");
                None
            }
        }
    }

    /// The record's text (pretty JSON, final newline).
    pub(crate) fn to_text(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// Where the record of `file` (canonical) for `command` lives.
pub(crate) fn path(home: &Path, file: &Path, command: &[String]) -> PathBuf {
    let mut key = file.to_string_lossy().into_owned().into_bytes();
    for w in command {
        key.push(0);
        key.extend_from_slice(w.as_bytes());
    }
    let digest = agenthooks_core::digest::hex(&agenthooks_core::digest::sha256(&key));
    home.join(RECORD_DIR[0])
        .join(RECORD_DIR[1])
        .join(format!("{}.json", &digest[..16]))
}

/// The directories records live in, under the home directory.
pub(crate) const RECORD_DIR: [&str; 2] = [".agenthooks", "created"];

/// Every container (object, table or array) in a document, by key path; arrays are not
/// descended.
pub(crate) fn containers(v: &Value) -> BTreeSet<KeyPath> {
    fn walk(v: &Value, prefix: &mut Vec<String>, out: &mut BTreeSet<KeyPath>) {
        let Value::Object(m) = v else { return };
        for (k, x) in m {
            if x.is_object() || x.is_array() {
                prefix.push(k.clone());
                out.insert(prefix.clone());
                walk(x, prefix, out);
                prefix.pop();
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

/// Which containers emptied by removing our entries may be removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Prune {
    /// No record: every container our removal empties (the rule before records).
    Emptied,
    /// Only these (the record's).
    Only(BTreeSet<KeyPath>),
}

impl Prune {
    /// Whether the container at `path` may be removed once empty.
    pub(crate) fn may(&self, path: &[&str]) -> bool {
        match self {
            Self::Emptied => true,
            Self::Only(set) => set
                .iter()
                .any(|p| p.iter().map(String::as_str).eq(path.iter().copied())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn containers_by_key_path() {
        let v = json!({"a": 1, "hooks": {"Stop": [{"hooks": []}], "x": {"y": {}}}, "l": []});
        let got: Vec<String> = containers(&v).into_iter().map(|p| p.join(".")).collect();
        assert_eq!(got, ["hooks", "hooks.Stop", "hooks.x", "hooks.x.y", "l"]);
    }

    #[test]
    fn prune_rules() {
        assert!(Prune::Emptied.may(&["hooks"]));
        let only = Prune::Only(BTreeSet::from([vec!["hooks".to_owned(), "Stop".to_owned()]]));
        assert!(only.may(&["hooks", "Stop"]));
        assert!(!only.may(&["hooks"]));
        assert!(!only.may(&["hooks", "Stop", "x"]));
    }

    #[test]
    fn records_round_trip_and_paths_differ_per_command() {
        let mut r = Record::new("/p/a.json".into(), vec!["/opt/g".into()]);
        r.created_file = true;
        r.created.insert(vec!["hooks".into()]);
        assert_eq!(Record::parse(Path::new("r"), &r.to_text()), Some(r));
        assert_eq!(Record::parse(Path::new("r"), "{"), None);
        let a = path(Path::new("/h"), Path::new("/p/a.json"), &["/opt/g".into()]);
        let b = path(Path::new("/h"), Path::new("/p/a.json"), &["/opt/h".into()]);
        assert_ne!(a, b);
        assert!(a.starts_with("/h/.agenthooks/created"));
    }
}
