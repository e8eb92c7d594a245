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

/// Glob matching: `*` matches any run, `?` one character; everything else literally.
///
/// ```
/// use agenthooks_core::tool_filter::glob_match;
/// assert!(glob_match("create_*", "create_issue"));
/// assert!(glob_match("?it*", "github"));
/// assert!(!glob_match("git", "github"));
/// ```
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) && p[pi] != '*' {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
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
