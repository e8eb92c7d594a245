//! [`ToolSelector`]: a declared tool filter — native names, canonical classes and MCP globs —
//! that both sides of an install understand.
//!
//! A router declares which tools its tool handlers care about ([`Router::for_tools`], or the
//! matcher of a [`when`] guard); install compiles the declaration to each agent's matcher
//! dialect. Where a dialect cannot express it (the `other` class, MCP tools on agents whose MCP
//! naming has no fixed prefix), the generated command carries the filter as
//! `--tools=SPEC` ([`ToolSelector::to_arg`]) and the runner answers the agent's neutral shape
//! without running interceptors or handlers for tools outside it; observers still see the event.
//!
//! The `SPEC` is a comma-separated list of `name:NATIVE`, `class:CLASS` and `mcp:SERVER/TOOL`
//! items (`%` and `,` inside a value are written `%25` and `%2C`).
//!
//! [`Router::for_tools`]: crate::Router::for_tools
//! [`when`]: crate::when

use crate::event::{CanonicalTool, ToolCall};

/// A declared tool filter: native names ∪ canonical classes ∪ MCP globs. An empty selector
/// selects nothing.
///
/// ```
/// use agenthooks_core::{CanonicalTool, ToolCall, ToolSelector};
/// let s = ToolSelector::default().with_name("Bash").with_class(CanonicalTool::Other).with_mcp("github", "create_*");
/// assert_eq!(s.to_arg(), "--tools=name:Bash,class:other,mcp:github/create_*");
/// assert_eq!(ToolSelector::parse(&s.to_string()).unwrap(), s);
/// let bash = ToolCall::builder("Bash", serde_json::json!({})).class(CanonicalTool::Shell).build(&Default::default());
/// assert!(s.matches(&bash));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ToolSelector {
    /// Native tool names, exactly as the agent sends them.
    pub names: Vec<String>,
    /// Canonical classes.
    pub classes: Vec<CanonicalTool>,
    /// MCP `(server, tool)` globs (`*` any run, `?` one character).
    pub mcp: Vec<(String, String)>,
}

/// A `--tools` spec that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid tool filter item `{0}` (expected name:NATIVE, class:CLASS or mcp:SERVER/TOOL)")]
pub struct ToolSelectorError(pub String);

impl ToolSelector {
    /// Adds a native name.
    #[must_use]
    pub fn with_name(mut self, n: impl Into<String>) -> Self {
        add(&mut self.names, n.into());
        self
    }

    /// Adds a canonical class.
    #[must_use]
    pub fn with_class(mut self, c: CanonicalTool) -> Self {
        add(&mut self.classes, c);
        self
    }

    /// Adds an MCP glob.
    #[must_use]
    pub fn with_mcp(mut self, server: impl Into<String>, tool: impl Into<String>) -> Self {
        add(&mut self.mcp, (server.into(), tool.into()));
        self
    }

    /// Whether it selects nothing.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty() && self.classes.is_empty() && self.mcp.is_empty()
    }

    /// Whether a decoded tool call is selected.
    pub fn matches(&self, tool: &ToolCall) -> bool {
        self.names.contains(&tool.name)
            || self.classes.contains(&tool.canonical)
            || tool.mcp.as_ref().is_some_and(|m| {
                self.mcp
                    .iter()
                    .any(|(s, t)| glob_match(s, &m.server) && glob_match(t, &m.tool))
            })
    }

    /// The union of two selectors.
    #[must_use]
    pub fn union(mut self, other: &Self) -> Self {
        for n in &other.names {
            self = self.with_name(n.clone());
        }
        for c in &other.classes {
            self = self.with_class(*c);
        }
        for (s, t) in &other.mcp {
            self = self.with_mcp(s.clone(), t.clone());
        }
        self
    }

    /// The runner flag that carries it: `--tools=SPEC`.
    pub fn to_arg(&self) -> String {
        format!("--tools={self}")
    }

    /// Parses a `SPEC` (the value of `--tools`).
    ///
    /// # Errors
    ///
    /// An item that is not `name:…`, `class:<a known class>` or `mcp:SERVER/TOOL`.
    pub fn parse(spec: &str) -> Result<Self, ToolSelectorError> {
        let mut s = Self::default();
        for item in spec.split(',').filter(|i| !i.is_empty()) {
            let bad = || ToolSelectorError(item.to_owned());
            let (key, value) = item.split_once(':').ok_or_else(bad)?;
            let value = unescape(value);
            s = match key {
                "name" if !value.is_empty() => s.with_name(value),
                "class" => s.with_class(
                    CanonicalTool::ALL
                        .into_iter()
                        .find(|c| c.as_str() == value)
                        .ok_or_else(bad)?,
                ),
                "mcp" => {
                    let (server, tool) = value.split_once('/').ok_or_else(bad)?;
                    s.with_mcp(server, tool)
                }
                _ => return Err(bad()),
            };
        }
        Ok(s)
    }
}

impl std::fmt::Display for ToolSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let items = self
            .names
            .iter()
            .map(|n| format!("name:{}", escape(n)))
            .chain(self.classes.iter().map(|c| format!("class:{}", c.as_str())))
            .chain(self.mcp.iter().map(|(s, t)| format!("mcp:{}/{}", escape(s), escape(t))));
        f.write_str(&items.collect::<Vec<_>>().join(","))
    }
}

/// Pushes `x` unless it is there already.
fn add<T: PartialEq>(v: &mut Vec<T>, x: T) {
    if !v.contains(&x) {
        v.push(x);
    }
}

fn escape(s: &str) -> String {
    s.replace('%', "%25").replace(',', "%2C")
}

fn unescape(s: &str) -> String {
    s.replace("%2C", ",").replace("%25", "%")
}

/// Compiled globs (one or several patterns, matched as one set): `*` matches any run
/// (including none, `/` and newlines), `?` one character; everything else — `.`, `[`, `{`,
/// `\`, `^`, `$` — is literal, and a pattern matches the whole text (it is anchored at both
/// ends). An empty set matches nothing.
///
/// Built on [`globset`] with the separator rule off, so a name is one flat string, not a
/// path. `?` is one character of ASCII text; beyond ASCII it is one UTF-8 byte (globset
/// matches bytes), so `caf?` does not match `café` — MCP names and agent tool names are ASCII
/// identifiers, and the agents' own regex dialects (install's side of the same glob) do not
/// agree on what one non-ASCII "character" is either.
///
/// ```
/// use agenthooks_core::tool_filter::GlobSet;
/// let g = GlobSet::new(["mcp__github__*", "Bash"]);
/// assert!(g.is_match("mcp__github__create_issue") && g.is_match("Bash"));
/// assert!(!g.is_match("Bash2") && !g.is_match("mcp__gitlab__x"));
/// assert!(!GlobSet::new(Vec::<String>::new()).is_match(""));
/// ```
#[derive(Debug, Clone)]
pub struct GlobSet(globset::GlobSet);

impl GlobSet {
    /// Compiles `patterns`.
    pub fn new(patterns: impl IntoIterator<Item = impl AsRef<str>>) -> Self {
        let mut set = globset::GlobSetBuilder::new();
        for p in patterns {
            let p = p.as_ref();
            match globset::GlobBuilder::new(&to_globset(p))
                .literal_separator(false)
                .backslash_escape(true)
                .build()
            {
                Ok(g) => {
                    set.add(g);
                }
                // Every metacharacter but `*` and `?` is escaped: not expected to happen.
                Err(e) => tracing::warn!(pattern = p, error = %e, "glob does not compile; it matches nothing"),
            }
        }
        Self(set.build().unwrap_or_else(|e| {
            tracing::warn!(error = %e, "glob set does not compile; it matches nothing");
            globset::GlobSet::empty()
        }))
    }

    /// Whether any pattern matches the whole of `text`.
    pub fn is_match(&self, text: &str) -> bool {
        self.0
            .is_match_candidate(&globset::Candidate::from_bytes(text.as_bytes()))
    }
}

/// Our glob dialect in globset syntax: `*` and `?` kept (a run of `*` is one `*`, since
/// globset reads `**` as "any path"), every other globset metacharacter escaped.
fn to_globset(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 4);
    let mut prev_star = false;
    for c in pattern.chars() {
        match c {
            '*' if prev_star => {}
            '*' | '?' => out.push(c),
            // globset reads a `\` in the text as `/` on Windows.
            '\\' if cfg!(windows) => out.push('/'),
            '[' | ']' | '{' | '}' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
        prev_star = c == '*';
    }
    out
}

/// Whether `text` matches the glob `pattern` ([`GlobSet`]'s rules). Compiles the pattern on
/// every call: hold a [`GlobSet`] to match many texts.
///
/// ```
/// use agenthooks_core::tool_filter::glob_match;
/// assert!(glob_match("create_*", "create_issue"));
/// assert!(glob_match("?it*", "github"));
/// assert!(!glob_match("git", "github"));
/// ```
pub fn glob_match(pattern: &str, text: &str) -> bool {
    GlobSet::new([pattern]).is_match(text)
}

/// Whether a pattern has glob wildcards (a name that is not one exact native name).
pub(crate) fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_round_trips_with_escapes() {
        let s = ToolSelector::default()
            .with_name("a,b%c")
            .with_class(CanonicalTool::Mcp)
            .with_mcp("srv,1", "*");
        let back = ToolSelector::parse(&s.to_string()).unwrap();
        assert_eq!(back, s);
        assert!(ToolSelector::parse("class:nope").is_err());
        assert!(ToolSelector::parse("mcp:noslash").is_err());
        assert!(ToolSelector::parse("Bash").is_err());
        assert!(ToolSelector::parse("").unwrap().is_empty());
    }

    #[test]
    fn glob_wildcards() {
        for (p, t) in [
            ("*", ""),
            ("*", "anything/at all\n"),
            ("create_*", "create_issue"),
            ("create_*", "create_"),
            ("*x*y", "axxby"),
            ("a**b", "ab"),
            ("a***b", "a/x/b"),
            ("a?c", "abc"),
            ("a?c", "a/c"),
            ("??", "ab"),
            ("", ""),
        ] {
            assert!(glob_match(p, t), "{p:?} should match {t:?}");
        }
        for (p, t) in [
            ("a?c", "ac"),
            ("a?c", "abbc"),
            ("gh", "github"),
            ("git", "github"),
            ("hub", "github"),
            ("", "x"),
            ("x", ""),
            ("?", ""),
        ] {
            assert!(!glob_match(p, t), "{p:?} should not match {t:?}");
        }
    }

    #[test]
    fn glob_metacharacters_are_literal() {
        // Classes, alternates, escapes and regex syntax mean themselves.
        for p in [
            "[ab]", "{a,b}", "a\\b", "a.b", "^a$", "a|b", "(a)", "a+", "[!x]", "a]", "{",
        ] {
            assert!(glob_match(p, p), "{p:?} should match itself");
        }
        assert!(!glob_match("[ab]", "a"));
        assert!(!glob_match("{a,b}", "a"));
        assert!(!glob_match("a.b", "axb"), "a dot is not any character");
        assert!(!glob_match("^a$", "a"));
        assert!(!glob_match("a|b", "a"));
        assert!(glob_match("[*]", "[anything]"));
        assert!(glob_match("mcp__*.read", "mcp__fs.read"));
        assert!(!glob_match("mcp__*.read", "mcp__fs_read"));
    }

    #[test]
    fn globs_are_anchored_and_case_sensitive() {
        assert!(!glob_match("bash", "Bash"));
        assert!(!glob_match("Bash", "xBash"));
        assert!(!glob_match("Bash", "Bashx"));
        assert!(!glob_match("Bash", "Bash\n"));
    }

    #[test]
    fn glob_question_mark_beyond_ascii_is_one_byte() {
        // Documented on `GlobSet`: `?` is one UTF-8 byte beyond ASCII.
        assert!(glob_match("caf\u{e9}", "caf\u{e9}"));
        assert!(glob_match("caf*", "caf\u{e9}"));
        assert!(!glob_match("caf?", "caf\u{e9}"));
        assert!(glob_match("caf??", "caf\u{e9}"));
    }

    #[test]
    fn glob_sets_match_any_pattern() {
        let g = GlobSet::new(["Bash", "mcp__*", "a?"]);
        assert!(g.is_match("Bash") && g.is_match("mcp__x__y") && g.is_match("ab"));
        assert!(!g.is_match("Write") && !g.is_match("abc"));
        assert!(!GlobSet::new([""; 0]).is_match(""));
    }

    #[test]
    fn matches_names_classes_and_mcp() {
        let mcp = ToolCall::builder("mcp__github__create_issue", serde_json::json!({}))
            .with_mcp(Some(crate::event::McpCall::new("github", "create_issue")))
            .build(&crate::event::SessionInfo::default());
        assert!(ToolSelector::default().with_mcp("git*", "create_*").matches(&mcp));
        assert!(!ToolSelector::default().with_mcp("slack", "*").matches(&mcp));
        assert!(ToolSelector::default()
            .with_name("mcp__github__create_issue")
            .matches(&mcp));
        assert!(!ToolSelector::default().matches(&mcp));
    }
}
