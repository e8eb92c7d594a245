//! [`FileFormat`] and the small text rules every editor shares (a leaf: the merge layer and
//! the planner both use it).

use agenthooks_core::digest::canonical_json;
use serde::Serialize;
use serde_json::Value;

/// A config file's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum FileFormat {
    /// Strict JSON.
    Json,
    /// JSON with `//` and `/* */` comments (Gemini settings).
    Jsonc,
    /// TOML.
    Toml,
    /// A whole generated file that is ours (the OpenCode shim).
    Text,
    /// agenthooks' own install record: what an install created in a config file, so that
    /// uninstall removes only that (never part of [`render`](crate::render)'s output).
    Record,
}

impl FileFormat {
    /// A human name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Json => "JSON",
            Self::Jsonc => "JSON with comments",
            Self::Toml => "TOML",
            Self::Text => "text",
            Self::Record => "install record",
        }
    }
}

/// Whether two lists of our entries are the same set (the order of different events does not
/// matter to any agent; each event has at most one entry of ours).
pub(crate) fn same_entries(a: &[Value], b: &[Value]) -> bool {
    let key = |v: &[Value]| {
        let mut k: Vec<String> = v.iter().map(canonical_json).collect();
        k.sort();
        k
    };
    a.len() == b.len() && key(a) == key(b)
}

/// Adds a final newline to a newly created file.
pub(crate) fn with_newline(mut s: String) -> String {
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}
