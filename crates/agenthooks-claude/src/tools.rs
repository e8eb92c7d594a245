//! Claude Code's tools and their canonical classes.
//!
//! Claude names its built-in tools in `PascalCase` (`Bash`, `Read`, `MultiEdit`) and MCP tools
//! `mcp__<server>__<tool>`, where `<server>` is the server's configured name with every
//! character outside `[A-Za-z0-9_-]` replaced by `_` (plugin servers appear as
//! `plugin_<plugin>_<server>`). Since ~2.1.3xx the tool events also carry
//! `mcp_server {name, source}`, the server's real name.
//!
//! Names are matched exactly: Claude's tool names are case-sensitive (`LS` is a tool, `ls` is
//! not), unlike the cross-provider lowercase table of the design.
//!
//! ```
//! use agenthooks_claude::tools::{canonical_class, parse_mcp_name, class};
//!
//! assert_eq!(canonical_class("MultiEdit"), class::FILE_EDIT);
//! assert_eq!(canonical_class("mcp__github__create_issue"), class::MCP);
//! let mcp = parse_mcp_name("mcp__github__create_issue").unwrap();
//! assert_eq!((mcp.server, mcp.tool), ("github", Some("create_issue")));
//! ```

/// The canonical tool classes (design §3.2 `CanonicalTool`), as their wire names.
pub mod class {
    /// Runs a shell command (`Bash`, `PowerShell`).
    pub const SHELL: &str = "shell";
    /// Reads a file (`Read`).
    pub const FILE_READ: &str = "file-read";
    /// Creates or overwrites a whole file (`Write`).
    pub const FILE_WRITE: &str = "file-write";
    /// Edits part of a file (`Edit`, `MultiEdit`, `NotebookEdit`).
    pub const FILE_EDIT: &str = "file-edit";
    /// Searches or lists the workspace (`Glob`, `Grep`, `LS`).
    pub const SEARCH: &str = "search";
    /// Reaches the network for content (`WebFetch`, `WebSearch`).
    pub const FETCH: &str = "fetch";
    /// Delegates to a subagent (`Task`, renamed `Agent`).
    pub const TASK: &str = "task";
    /// Calls an MCP server (`mcp__<server>__<tool>` and the MCP resource tools).
    pub const MCP: &str = "mcp";
    /// Anything else (plan mode, todos, questions to the user, unknown tools).
    pub const OTHER: &str = "other";
}

/// Claude Code's built-in tools (2.1.x) and their classes.
///
/// Choices worth knowing:
/// - `WebSearch` is `fetch`, not `search`: it leaves the machine, like `WebFetch`; `search`
///   is reserved for local workspace discovery, so a read-only local policy can allow it.
/// - `LS` (removed in later 2.x builds, kept for older ones) is `search`, like `Glob`.
/// - `ListMcpResourcesTool` and `ReadMcpResourceTool` are `mcp`: they talk to an MCP server
///   (named by their `server` argument) even though their names are not `mcp__…`.
/// - `BashOutput`/`TaskOutput` and `KillShell`/`KillBash`/`TaskStop` only observe or stop a
///   background shell and run no new command: `other`, so a shell policy never sees a call
///   without a `command`.
/// - `TaskCreate`/`TaskGet`/`TaskList`/`TaskUpdate` are the agent-team task list, not
///   subagents: `other`.
pub const BUILTIN_TOOLS: &[(&str, &str)] = &[
    ("Bash", class::SHELL),
    ("PowerShell", class::SHELL),
    ("Read", class::FILE_READ),
    ("NotebookRead", class::FILE_READ),
    ("Write", class::FILE_WRITE),
    ("Edit", class::FILE_EDIT),
    ("MultiEdit", class::FILE_EDIT),
    ("NotebookEdit", class::FILE_EDIT),
    ("Glob", class::SEARCH),
    ("Grep", class::SEARCH),
    ("LS", class::SEARCH),
    ("WebFetch", class::FETCH),
    ("WebSearch", class::FETCH),
    ("Task", class::TASK),
    ("Agent", class::TASK),
    ("ListMcpResourcesTool", class::MCP),
    ("ReadMcpResourceTool", class::MCP),
    ("TodoWrite", class::OTHER),
    ("TodoRead", class::OTHER),
    ("BashOutput", class::OTHER),
    ("TaskOutput", class::OTHER),
    ("KillShell", class::OTHER),
    ("KillBash", class::OTHER),
    ("TaskStop", class::OTHER),
    ("ExitPlanMode", class::OTHER),
    ("EnterPlanMode", class::OTHER),
    ("AskUserQuestion", class::OTHER),
    ("Skill", class::OTHER),
    ("SlashCommand", class::OTHER),
    ("ToolSearch", class::OTHER),
    ("TaskCreate", class::OTHER),
    ("TaskGet", class::OTHER),
    ("TaskList", class::OTHER),
    ("TaskUpdate", class::OTHER),
    ("SendMessage", class::OTHER),
    ("TeamCreate", class::OTHER),
    ("TeamDelete", class::OTHER),
    ("EnterWorktree", class::OTHER),
    ("ExitWorktree", class::OTHER),
    ("CronCreate", class::OTHER),
    ("CronDelete", class::OTHER),
    ("CronList", class::OTHER),
    ("LSP", class::OTHER),
];

/// The canonical class of a Claude tool name: `mcp` for `mcp__…` names, the
/// [`BUILTIN_TOOLS`] entry for built-ins, `other` for anything else.
pub fn canonical_class(tool_name: &str) -> &'static str {
    if parse_mcp_name(tool_name).is_some() {
        return class::MCP;
    }
    BUILTIN_TOOLS
        .iter()
        .find(|(name, _)| *name == tool_name)
        .map_or(class::OTHER, |(_, class)| class)
}

/// The parts of an MCP tool name `mcp__<server>__<tool>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpToolName<'a> {
    /// The server segment (the normalized server name).
    pub server: &'a str,
    /// The tool as the server knows it; `None` for a bare `mcp__<server>` (the server-level
    /// form matchers use).
    pub tool: Option<&'a str>,
}

/// Splits `mcp__<server>__<tool>` the way Claude does: the server is the first segment after
/// `mcp__`, the tool is everything after the next `__` (so tool names may contain `__`).
/// Returns `None` when the name is not MCP-shaped or the server segment is empty.
pub fn parse_mcp_name(name: &str) -> Option<McpToolName<'_>> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = match rest.split_once("__") {
        Some((server, tool)) => (server, (!tool.is_empty()).then_some(tool)),
        None => (rest, None),
    };
    (!server.is_empty()).then_some(McpToolName { server, tool })
}

/// Claude's normalization of an MCP server name into the `<server>` segment of a tool name:
/// every character outside `[A-Za-z0-9_-]` becomes `_`.
pub fn normalize_server_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_classify() {
        let cases = [
            ("Bash", "shell"),
            ("PowerShell", "shell"),
            ("Read", "file-read"),
            ("Write", "file-write"),
            ("Edit", "file-edit"),
            ("MultiEdit", "file-edit"),
            ("NotebookEdit", "file-edit"),
            ("Glob", "search"),
            ("Grep", "search"),
            ("LS", "search"),
            ("WebFetch", "fetch"),
            ("WebSearch", "fetch"),
            ("Task", "task"),
            ("Agent", "task"),
            ("TodoWrite", "other"),
            ("ReadMcpResourceTool", "mcp"),
            ("BashOutput", "other"),
            ("bash", "other"),
            ("ls", "other"),
            ("", "other"),
            ("SomeFutureTool", "other"),
        ];
        for (name, want) in cases {
            assert_eq!(canonical_class(name), want, "{name}");
        }
    }

    #[test]
    fn builtin_table_has_no_duplicates() {
        let mut names: Vec<_> = BUILTIN_TOOLS.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        let len = names.len();
        names.dedup();
        assert_eq!(names.len(), len);
    }

    #[test]
    fn mcp_names_parse_like_claude() {
        let p = |n| parse_mcp_name(n).map(|m| (m.server, m.tool));
        assert_eq!(p("mcp__github__create_issue"), Some(("github", Some("create_issue"))));
        assert_eq!(p("mcp__srv__a__b"), Some(("srv", Some("a__b"))));
        assert_eq!(p("mcp__plugin_acme_db__query"), Some(("plugin_acme_db", Some("query"))));
        assert_eq!(p("mcp__srv"), Some(("srv", None)));
        assert_eq!(p("mcp__srv__"), Some(("srv", None)));
        assert_eq!(p("mcp____tool"), None);
        assert_eq!(p("mcp_srv_tool"), None);
        assert_eq!(p("Bash"), None);
        assert_eq!(canonical_class("mcp__srv__t"), "mcp");
        assert_eq!(canonical_class("mcp____t"), "other");
    }

    #[test]
    fn server_names_normalize() {
        assert_eq!(normalize_server_name("claude.ai Gmail"), "claude_ai_Gmail");
        assert_eq!(normalize_server_name("my-server_2"), "my-server_2");
    }
}
