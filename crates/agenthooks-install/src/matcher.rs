//! [`ToolMatcher`]: one tool filter, compiled to each agent's matcher dialect.
//!
//! A matcher is a union of native tool names, canonical classes ([`CanonicalTool`]) and MCP
//! globs (`server/tool`, `*` and `?` wildcards). Each target compiles it to its dialect:
//!
//! | agent | dialect | example |
//! |---|---|---|
//! | Claude Code | exact list `A\|B` when every name is `[A-Za-z0-9_]`, else an anchored JS regex | `Bash\|Write` |
//! | Codex | anchored Rust regex | `^(?:Bash\|apply_patch)$` |
//! | Gemini CLI | anchored JS regex (literal fallback) | `^run_shell_command$` |
//! | Copilot CLI | JS regex, anchored by Copilot itself | `bash\|powershell` |
//! | Kimi Code | anchored JS regex (Kimi tests it unanchored) | `^(?:Bash\|Shell)$` |
//!
//! Where a part cannot be expressed (the `other` class; MCP tools on agents whose MCP naming is
//! not a fixed prefix), the hook matches every tool and the runner filters in-process with
//! [`ToolMatcher::matches`] — correctness over per-call process savings — unless the matcher
//! asks for [`MatcherFallback::Error`] (the knob for hot paths). Classes an agent never fires
//! tool hooks for (Codex has no file-read hook) compile to nothing and are reported.

use agenthooks_core::kit::ToolTable;
use agenthooks_core::{CanonicalTool, ToolCall, ToolSelector};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What to do when a matcher cannot be expressed in an agent's dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum MatcherFallback {
    /// Match every tool in the config and filter in-process (never misses a call; spawns the
    /// hook for every tool call).
    #[default]
    Broad,
    /// Refuse to render (for hot paths where a process per tool call is too expensive).
    Error,
}

/// An MCP tool glob: server and tool patterns with `*` and `?`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct McpGlob {
    /// Server name pattern.
    pub server: String,
    /// Tool name pattern (as the MCP server names it).
    pub tool: String,
}

impl McpGlob {
    /// A glob.
    pub fn new(server: impl Into<String>, tool: impl Into<String>) -> Self {
        Self {
            server: server.into(),
            tool: tool.into(),
        }
    }

    /// Parses `server/tool` (or `server`, meaning every tool of it).
    pub fn parse(s: &str) -> Self {
        match s.split_once('/') {
            Some((server, tool)) => Self::new(server, tool),
            None => Self::new(s, "*"),
        }
    }

    /// Whether it matches a server and tool.
    pub fn matches(&self, server: &str, tool: &str) -> bool {
        glob_match(&self.server, server) && glob_match(&self.tool, tool)
    }
}

impl std::fmt::Display for McpGlob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.server, self.tool)
    }
}

impl Serialize for McpGlob {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for McpGlob {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(|s| Self::parse(&s))
    }
}

/// `*` matches any run, `?` one character; everything else literally (the runner's rule).
pub(crate) use agenthooks_core::tool_filter::glob_match;

/// A tool filter: core's [`ToolSelector`] (native names ∪ canonical classes ∪ MCP globs, the
/// filter the runner applies for `--tools`) and what to do where an agent's dialect cannot
/// express it. An empty selector means every tool.
///
/// ```
/// use agenthooks_core::CanonicalTool;
/// use agenthooks_install::{McpGlob, ToolMatcher};
/// let m = ToolMatcher::names(["Bash"]).with_class(CanonicalTool::FileEdit).with_mcp(McpGlob::parse("github/create_*"));
/// assert!(!m.is_any());
/// assert_eq!(m.selector.to_string(), "name:Bash,class:file-edit,mcp:github/create_*");
/// assert!(ToolMatcher::default().is_any());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(from = "MatcherRepr", into = "MatcherRepr")]
#[non_exhaustive]
pub struct ToolMatcher {
    /// What it selects (empty: every tool).
    pub selector: ToolSelector,
    /// What to do when the agent's dialect cannot express it.
    pub fallback: MatcherFallback,
}

/// A [`ToolMatcher`] in a manifest: `names`, `classes`, `mcp` (`server/tool` globs) and
/// `fallback`, each left out when empty or the default.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MatcherRepr {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "classes_serde")]
    classes: Vec<CanonicalTool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    mcp: Vec<McpGlob>,
    #[serde(default, skip_serializing_if = "is_default_fallback")]
    fallback: MatcherFallback,
}

impl From<MatcherRepr> for ToolMatcher {
    fn from(r: MatcherRepr) -> Self {
        let mut selector = ToolSelector::default();
        selector.names = r.names;
        selector.classes = r.classes;
        selector.mcp = r.mcp.into_iter().map(|g| (g.server, g.tool)).collect();
        Self {
            selector,
            fallback: r.fallback,
        }
    }
}

impl From<ToolMatcher> for MatcherRepr {
    fn from(m: ToolMatcher) -> Self {
        Self {
            names: m.selector.names,
            classes: m.selector.classes,
            mcp: m.selector.mcp.into_iter().map(|(s, t)| McpGlob::new(s, t)).collect(),
            fallback: m.fallback,
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_default_fallback(f: &MatcherFallback) -> bool {
    *f == MatcherFallback::Broad
}

mod classes_serde {
    use agenthooks_core::CanonicalTool;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &[CanonicalTool], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|c| c.as_str()))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<CanonicalTool>, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        names
            .iter()
            .map(|n| {
                CanonicalTool::ALL
                    .into_iter()
                    .find(|c| c.as_str() == n)
                    .ok_or_else(|| serde::de::Error::custom(format!("unknown tool class `{n}`")))
            })
            .collect()
    }
}

impl ToolMatcher {
    /// Every tool.
    pub fn any() -> Self {
        Self::default()
    }

    /// These native tool names.
    pub fn names(names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        names.into_iter().fold(Self::default(), Self::with_name)
    }

    /// One canonical class.
    pub fn class(c: CanonicalTool) -> Self {
        Self::default().with_class(c)
    }

    /// Adds a class.
    #[must_use]
    pub fn with_class(mut self, c: CanonicalTool) -> Self {
        self.selector = self.selector.with_class(c);
        self
    }

    /// Adds a native name.
    #[must_use]
    pub fn with_name(mut self, n: impl Into<String>) -> Self {
        self.selector = self.selector.with_name(n);
        self
    }

    /// Adds an MCP glob.
    #[must_use]
    pub fn with_mcp(mut self, g: McpGlob) -> Self {
        self.selector = self.selector.with_mcp(g.server, g.tool);
        self
    }

    /// Whether it matches every tool.
    pub fn is_any(&self) -> bool {
        self.selector.is_empty()
    }

    /// The in-process filter: whether a decoded tool call is selected (the runner-side half of
    /// a broadened matcher).
    /// It is the runner's `--tools` rule ([`agenthooks_core::ToolSelector::matches`]).
    pub fn matches(&self, tool: &ToolCall) -> bool {
        self.is_any() || self.selector.matches(tool)
    }

    /// The union of two matchers (either matching every tool makes the union match every tool;
    /// the stricter fallback wins).
    #[must_use]
    pub fn union(&self, other: &Self) -> Self {
        if self.is_any() || other.is_any() {
            return Self::any().with_fallback(self.fallback.max_strict(other.fallback));
        }
        Self {
            selector: self.selector.clone().union(&other.selector),
            fallback: self.fallback.max_strict(other.fallback),
        }
    }
}

agenthooks_core::kit::setters! {
    impl ToolMatcher {
        /// Sets the fallback.
        with_fallback(fallback: MatcherFallback);
    }
}

impl MatcherFallback {
    fn max_strict(self, o: Self) -> Self {
        if self == Self::Error || o == Self::Error {
            Self::Error
        } else {
            Self::Broad
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Dialects

/// How an agent spells matchers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// Claude: `A|B` exact list when every name is `[A-Za-z0-9_]`, else `^(?:…)$`.
    ClaudeList,
    /// `^(?:…)$` (Codex, Gemini, Kimi).
    Anchored,
    /// `a|b`; the agent anchors it itself (Copilot).
    ImplicitlyAnchored,
    /// A list of exact tool ids, written here as `a|b` for the target to split (OpenClaw's
    /// `matcher` option): no patterns, so an MCP glob or a class without names is
    /// inexpressible.
    ExactList,
}

/// One agent's matcher *syntax*. The tool names come from the codec's [`ToolTable`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct MatcherDialect {
    /// The syntax.
    pub(crate) syntax: Syntax,
    /// Classes the agent fires no tool hooks for (Codex has no file-read hook): a matcher on
    /// them compiles to nothing and is reported.
    pub(crate) no_tool_hooks: &'static [CanonicalTool],
}

impl MatcherDialect {
    /// A syntax; every class fires tool hooks.
    pub(crate) const fn new(syntax: Syntax) -> Self {
        Self {
            syntax,
            no_tool_hooks: &[],
        }
    }
}

/// The result of compiling a matcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Compiled {
    /// Every tool (no matcher in the config).
    All,
    /// This matcher string.
    Pattern(String),
    /// Nothing this agent fires tool hooks for can match: the hook is not rendered.
    Never,
}

/// A compiled matcher and what was lost on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Compilation {
    pub(crate) result: Compiled,
    /// Parts that could not be expressed (the result is then [`Compiled::All`]).
    pub(crate) inexpressible: Vec<String>,
    /// Parts that can never match on this agent.
    pub(crate) unreachable: Vec<String>,
}

enum Alt {
    Lit(String),
    Re(String),
}

/// Escapes regex syntax characters (valid in both JS and Rust regex syntax).
pub(crate) fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '^' | '$' | '.' | '|' | '?' | '*' | '+' | '(' | ')' | '[' | ']' | '{' | '}'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn glob_regex(g: &str) -> String {
    let mut out = String::new();
    for c in g.chars() {
        match c {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            c => out.push_str(&regex_escape(&c.to_string())),
        }
    }
    out
}

impl MatcherDialect {
    /// Compiles a matcher against the agent's tool table.
    ///
    /// A class the agent fires no tool hooks for is unreachable; a class the table lists is its
    /// names; any other class — and always `other`, which means "every tool no class lists",
    /// including tools of future releases — cannot be expressed.
    pub(crate) fn compile(&self, tools: &ToolTable, m: &ToolMatcher) -> Compilation {
        let mut c = Compilation {
            result: Compiled::All,
            inexpressible: Vec::new(),
            unreachable: Vec::new(),
        };
        if m.is_any() {
            return c;
        }
        let mut alts: Vec<Alt> = m.selector.names.iter().map(|n| Alt::Lit(n.clone())).collect();
        for class in &m.selector.classes {
            if *class == CanonicalTool::Mcp {
                match tools.mcp {
                    Some(naming) => {
                        alts.push(Alt::Re(format!("{}.*", regex_escape(naming.prefix))));
                        alts.extend(tools.mcp_builtins.iter().map(|b| Alt::Lit((*b).to_owned())));
                    }
                    None => c
                        .inexpressible
                        .push("the `mcp` class (MCP tool names have no fixed pattern here)".into()),
                }
                continue;
            }
            if self.no_tool_hooks.contains(class) {
                c.unreachable.push(format!("the `{class}` class"));
                continue;
            }
            match tools.names(*class) {
                names if !names.is_empty() && *class != CanonicalTool::Other => {
                    alts.extend(names.iter().map(|n| Alt::Lit((*n).to_owned())));
                }
                _ => c.inexpressible.push(format!("the `{class}` class")),
            }
        }
        for (server, tool) in &m.selector.mcp {
            match tools.mcp {
                Some(naming) => alts.push(Alt::Re(format!(
                    "{}{}{}{}",
                    regex_escape(naming.prefix),
                    glob_regex(server),
                    regex_escape(naming.separator),
                    glob_regex(tool)
                ))),
                None => c.inexpressible.push(format!("the MCP glob `{server}/{tool}`")),
            }
        }
        if !c.inexpressible.is_empty() {
            return c;
        }
        // Dedupe, keeping order.
        let mut seen = std::collections::HashSet::new();
        alts.retain(|a| {
            seen.insert(match a {
                Alt::Lit(s) => format!("l:{s}"),
                Alt::Re(s) => format!("r:{s}"),
            })
        });
        if alts.is_empty() {
            c.result = Compiled::Never;
            return c;
        }
        let simple = alts
            .iter()
            .all(|a| matches!(a, Alt::Lit(s) if !s.is_empty() && s.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_')));
        let joined = alts
            .iter()
            .map(|a| match a {
                Alt::Lit(s) => regex_escape(s),
                Alt::Re(r) => r.clone(),
            })
            .collect::<Vec<_>>()
            .join("|");
        if self.syntax == Syntax::ExactList {
            let mut names = Vec::new();
            for a in &alts {
                match a {
                    Alt::Lit(s) if !s.is_empty() && !s.contains('|') => names.push(s.as_str()),
                    Alt::Lit(s) | Alt::Re(s) => c.inexpressible.push(format!("`{s}` (not an exact tool id)")),
                }
            }
            if c.inexpressible.is_empty() {
                c.result = Compiled::Pattern(names.join("|"));
            }
            return c;
        }
        let pattern = match self.syntax {
            Syntax::ExactList => unreachable!("handled above"),
            Syntax::ClaudeList if simple => joined,
            Syntax::ImplicitlyAnchored => joined,
            Syntax::ClaudeList | Syntax::Anchored if alts.len() == 1 => format!("^{joined}$"),
            Syntax::ClaudeList | Syntax::Anchored => format!("^(?:{joined})$"),
        };
        c.result = Compiled::Pattern(pattern);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::McpCall;
    use serde_json::json;

    use agenthooks_core::kit::McpNaming;

    static TOOLS: ToolTable = ToolTable::new(
        &[
            (CanonicalTool::Shell, &["Bash"]),
            (CanonicalTool::Other, &["TodoWrite"]),
        ],
        Some(McpNaming::new("mcp__", "__")),
        &["ListMcpResourcesTool"],
    );

    fn compile(m: &ToolMatcher) -> Compilation {
        const DIALECT: MatcherDialect = MatcherDialect {
            syntax: Syntax::ClaudeList,
            no_tool_hooks: &[CanonicalTool::FileRead],
        };
        DIALECT.compile(&TOOLS, m)
    }

    #[test]
    fn compiles_claude() {
        let c = compile(&ToolMatcher::names(["Bash", "Write"]));
        assert_eq!(c.result, Compiled::Pattern("Bash|Write".into()));
        let c = compile(&ToolMatcher::names(["my-tool"]));
        assert_eq!(c.result, Compiled::Pattern("^my-tool$".into()));
        let c = compile(&ToolMatcher::class(CanonicalTool::Shell).with_mcp(McpGlob::parse("git.hub/create_*")));
        assert_eq!(
            c.result,
            Compiled::Pattern("^(?:Bash|mcp__git\\.hub__create_.*)$".into())
        );
        let c = compile(&ToolMatcher::class(CanonicalTool::Mcp));
        assert_eq!(c.result, Compiled::Pattern("^(?:mcp__.*|ListMcpResourcesTool)$".into()));
        let c = compile(&ToolMatcher::class(CanonicalTool::FileRead));
        assert_eq!(c.result, Compiled::Never);
        assert_eq!(c.unreachable.len(), 1);
        let c = compile(&ToolMatcher::class(CanonicalTool::Other).with_name("Bash"));
        assert_eq!(c.result, Compiled::All);
        assert_eq!(c.inexpressible, vec!["the `other` class".to_owned()]);
        let c = compile(&ToolMatcher::class(CanonicalTool::Search));
        assert_eq!(c.inexpressible, vec!["the `search` class".to_owned()]);
        assert_eq!(compile(&ToolMatcher::any()).result, Compiled::All);
    }

    #[test]
    fn in_process_filter() {
        let call = ToolCall::builder("mcp__github__create_issue", json!({}))
            .with_mcp(Some(McpCall::new("github", "create_issue")))
            .build(&agenthooks_core::SessionInfo::default());
        assert!(ToolMatcher::default()
            .with_mcp(McpGlob::parse("git*/create_*"))
            .matches(&call));
        assert!(!ToolMatcher::names(["Bash"]).matches(&call));
        assert!(ToolMatcher::class(CanonicalTool::Mcp).matches(&call));
        let bash = ToolCall::builder("Bash", json!({}))
            .class(CanonicalTool::Shell)
            .build(&agenthooks_core::SessionInfo::default());
        assert!(ToolMatcher::names(["Bash"]).matches(&bash));
        assert!(ToolMatcher::class(CanonicalTool::Shell).matches(&bash));
        assert!(!ToolMatcher::class(CanonicalTool::FileRead).matches(&bash));
    }

    #[test]
    fn unions() {
        let a = ToolMatcher::names(["A"]);
        let b = ToolMatcher::names(["B", "A"]).with_fallback(MatcherFallback::Error);
        let u = a.union(&b);
        assert_eq!(u.selector.names, vec!["A".to_owned(), "B".to_owned()]);
        assert_eq!(u.fallback, MatcherFallback::Error);
        assert!(a.union(&ToolMatcher::any()).is_any());
    }

    #[test]
    fn serde() {
        let m: ToolMatcher =
            serde_json::from_value(json!({"names": ["Bash"], "classes": ["file-edit"], "mcp": ["gh/*", "x"]})).unwrap();
        assert_eq!(m.selector.classes, vec![CanonicalTool::FileEdit]);
        assert_eq!(
            m.selector.mcp,
            [("gh".to_owned(), "*".to_owned()), ("x".to_owned(), "*".to_owned())]
        );
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            json!({"names": ["Bash"], "classes": ["file-edit"], "mcp": ["gh/*", "x/*"]})
        );
        assert!(serde_json::from_value::<ToolMatcher>(json!({"classes": ["nope"]})).is_err());
    }
}
