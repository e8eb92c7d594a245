//! One run's directories and the constants every run shares: the leaf the agent recipes
//! ([`crate::agents`]), the OpenCode driver ([`crate::opencode`]) and the scenarios build on.

use std::path::{Path, PathBuf};

/// The prompt of every run (the fake model answers with the scripted tool call regardless).
pub const PROMPT: &str = "Create marker.txt by running: echo hi > marker.txt";
/// The model name the agents are told to use.
pub const MODEL: &str = "fake-model";

/// Directories of one run.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Sandbox {
    /// The run's root (canonical).
    pub root: PathBuf,
    /// The project (the agent's cwd).
    pub project: PathBuf,
    /// The isolated `$HOME`.
    pub home: PathBuf,
    /// The hook's JSONL log.
    pub hook_log: PathBuf,
}

impl Sandbox {
    /// Creates `<parent>/<name>` with `proj/`, `home/` and `tmp/`.
    pub fn create(parent: &Path, name: &str) -> Result<Self, String> {
        let root = parent.join(name);
        let _ = std::fs::remove_dir_all(&root);
        for d in ["proj", "home", "tmp", "state"] {
            std::fs::create_dir_all(root.join(d)).map_err(|e| format!("creating {}: {e}", root.join(d).display()))?;
        }
        let root = std::fs::canonicalize(&root).map_err(|e| format!("resolving {}: {e}", root.display()))?;
        Ok(Self {
            project: root.join("proj"),
            home: root.join("home"),
            hook_log: root.join("hooks.jsonl"),
            root,
        })
    }
}
