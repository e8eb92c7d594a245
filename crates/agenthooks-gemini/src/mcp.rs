//! Gemini CLI's MCP tool names: `mcp_<server>_<tool>` (quirk #15).
//!
//! Gemini CLI exposes an MCP tool to the model, to matchers and to hooks under the fully
//! qualified name `mcp_<server>_<tool>` with **single** underscores (Claude Code and Codex use
//! `mcp__<server>__<tool>`). Hooks for MCP calls also receive `mcp_context`
//! ([`McpContext`]) with the exact `server_name` and `tool_name`.
//!
//! # ⚠ The name alone is ambiguous
//!
//! Server and tool names may themselves contain underscores, so `mcp_my_server_create_issue`
//! can be server `my_server` + tool `create_issue` or server `my` + tool `server_create_issue`.
//! Nothing in the name tells them apart. This module resolves it in this order:
//!
//! 1. [`resolve`]: `mcp_context` when the payload carries it — exact, always preferred;
//! 2. [`parse_with_servers`]: the longest configured server name that fits, when the caller
//!    knows the `mcpServers` keys;
//! 3. [`parse`]: Gemini CLI's own rule (`parseMcpToolName`): split at the first underscore
//!    after `mcp_`, so the server never contains an underscore. Wrong exactly when the real
//!    server name has one.
//!
//! Older Gemini CLI releases named MCP tools differently (the bare tool name, or
//! `<server>__<tool>` when two servers clashed); those names are not recognised here, only
//! through `mcp_context`. Gemini also replaces characters outside `[A-Za-z0-9_.-]` with `_`
//! and shortens names over 63 characters, so a parsed part may differ from the server's own
//! spelling — another reason `mcp_context` wins.

use agenthooks_core::kit::McpNaming;

use crate::native::McpContext;

/// The prefix of every MCP tool name.
pub const MCP_PREFIX: &str = "mcp_";

/// Gemini's MCP tool-name scheme for the tool table: `mcp_<server>_<tool>`, split at the first
/// `_` after the prefix (see [`parse`]).
pub const NAMING: McpNaming = McpNaming::new(MCP_PREFIX, "_");

/// An MCP tool name split into its server and tool parts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct McpName {
    /// The MCP server's configured name.
    pub server: String,
    /// The tool's name on that server.
    pub tool: String,
    /// How the split was obtained (how far to trust it).
    pub source: McpNameSource,
}

/// Where an [`McpName`] came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum McpNameSource {
    /// From the payload's `mcp_context`: exact.
    Context,
    /// Matched against a configured server name: exact unless two configured names are
    /// prefixes of each other at an underscore (the longest one wins).
    KnownServer,
    /// Split at the first underscore after `mcp_` (Gemini's own rule): ambiguous when the
    /// server name contains an underscore.
    FirstUnderscore,
}

impl McpName {
    /// Formats the Gemini tool name, `mcp_<server>_<tool>`.
    pub fn tool_name(&self) -> String {
        format_tool_name(&self.server, &self.tool)
    }
}

/// Formats a Gemini MCP tool name, `mcp_<server>_<tool>` (no sanitising or shortening).
pub fn format_tool_name(server: &str, tool: &str) -> String {
    format!("{MCP_PREFIX}{server}_{tool}")
}

/// Whether `name` has the shape of an MCP tool name (`mcp_`, a non-empty server, `_`, a
/// non-empty tool).
pub fn is_mcp_tool_name(name: &str) -> bool {
    parse(name).is_some()
}

/// Splits `mcp_<server>_<tool>` at the first underscore after the prefix, as Gemini CLI does
/// (the naming scheme of [`TOOLS`](crate::tools::TOOLS)).
///
/// ```
/// use agenthooks_gemini::mcp::parse;
///
/// let n = parse("mcp_github_create_issue").unwrap();
/// assert_eq!((n.server.as_str(), n.tool.as_str()), ("github", "create_issue"));
/// // ⚠ ambiguous: a server really named `my_server` is mis-split.
/// let n = parse("mcp_my_server_create_issue").unwrap();
/// assert_eq!((n.server.as_str(), n.tool.as_str()), ("my", "server_create_issue"));
/// assert!(parse("run_shell_command").is_none());
/// ```
pub fn parse(name: &str) -> Option<McpName> {
    match NAMING.split(name)? {
        (server, Some(tool)) if !tool.is_empty() => Some(McpName {
            server: server.to_owned(),
            tool: tool.to_owned(),
            source: McpNameSource::FirstUnderscore,
        }),
        _ => None,
    }
}

/// Splits an MCP tool name using the configured server names: the longest server `s` such
/// that the name is `mcp_<s>_<non-empty tool>` wins; without a match, falls back to [`parse`].
///
/// ```
/// use agenthooks_gemini::mcp::{parse_with_servers, McpNameSource};
///
/// let n = parse_with_servers("mcp_my_server_create_issue", ["my", "my_server"]).unwrap();
/// assert_eq!((n.server.as_str(), n.tool.as_str()), ("my_server", "create_issue"));
/// assert_eq!(n.source, McpNameSource::KnownServer);
/// ```
pub fn parse_with_servers<'s, I>(name: &str, servers: I) -> Option<McpName>
where
    I: IntoIterator<Item = &'s str>,
{
    let rest = name.strip_prefix(MCP_PREFIX)?;
    let best = servers
        .into_iter()
        .filter(|s| !s.is_empty())
        .filter_map(|s| {
            let tool = rest.strip_prefix(s)?.strip_prefix('_')?;
            (!tool.is_empty()).then_some((s, tool))
        })
        .max_by_key(|(s, _)| s.len());
    match best {
        Some((server, tool)) => Some(McpName {
            server: server.to_owned(),
            tool: tool.to_owned(),
            source: McpNameSource::KnownServer,
        }),
        None => parse(name),
    }
}

/// Resolves the MCP identity of a tool call: `mcp_context` when present with both names
/// (exact), else the name parsed by Gemini's rule. `None` for a tool that is not an MCP tool.
pub fn resolve(tool_name: &str, context: Option<&McpContext>) -> Option<McpName> {
    match context.and_then(|c| c.server_name.as_ref().zip(c.tool_name.as_ref())) {
        Some((server, tool)) => Some(McpName {
            server: server.clone(),
            tool: tool.clone(),
            source: McpNameSource::Context,
        }),
        None => parse(tool_name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_rejects_non_mcp_and_empty_parts() {
        for bad in [
            "",
            "mcp",
            "mcp_",
            "mcp__tool",
            "mcp_server",
            "mcp_server_",
            "MCP_server_tool",
            "mcp__server__tool",
            "run_shell_command",
            "discovered_tool_x",
        ] {
            assert!(parse(bad).is_none(), "{bad}");
            assert!(!is_mcp_tool_name(bad), "{bad}");
        }
    }

    #[test]
    fn parse_keeps_underscores_in_the_tool() {
        let n = parse("mcp_fs_read_text_file").unwrap();
        assert_eq!(n.server, "fs");
        assert_eq!(n.tool, "read_text_file");
        assert_eq!(n.source, McpNameSource::FirstUnderscore);
        assert_eq!(n.tool_name(), "mcp_fs_read_text_file");
    }

    #[test]
    fn known_servers_pick_the_longest_fit() {
        let n = parse_with_servers("mcp_a_b_c_d", ["a", "a_b", "a_b_c", "zz"]).unwrap();
        assert_eq!((n.server.as_str(), n.tool.as_str()), ("a_b_c", "d"));
        // The whole remainder is not a valid split (empty tool): falls to a shorter server.
        let n = parse_with_servers("mcp_a_b", ["a_b", "a"]).unwrap();
        assert_eq!((n.server.as_str(), n.tool.as_str()), ("a", "b"));
        // No configured server fits: Gemini's rule.
        let n = parse_with_servers("mcp_x_y_z", ["a"]).unwrap();
        assert_eq!(
            (n.server.as_str(), n.tool.as_str(), n.source),
            ("x", "y_z", McpNameSource::FirstUnderscore)
        );
        assert!(parse_with_servers("read_file", ["read"]).is_none());
        // An empty configured name never matches.
        let n = parse_with_servers("mcp__x", [""]);
        assert!(n.is_none());
    }

    #[test]
    fn context_wins() {
        let ctx: McpContext =
            serde_json::from_str(r#"{"server_name":"my_server","tool_name":"create_issue","command":"node"}"#).unwrap();
        let n = resolve("mcp_my_server_create_issue", Some(&ctx)).unwrap();
        assert_eq!(
            (n.server.as_str(), n.tool.as_str(), n.source),
            ("my_server", "create_issue", McpNameSource::Context)
        );
        let n = resolve("mcp_my_server_create_issue", None).unwrap();
        assert_eq!(n.server, "my");
        assert!(resolve("glob", None).is_none());
        // A context without its names (not sent by any release): the name decides.
        let partial: McpContext = serde_json::from_str(r#"{"url":"https://x"}"#).unwrap();
        assert_eq!(
            resolve("mcp_my_server_create_issue", Some(&partial)).unwrap().server,
            "my"
        );
        assert_eq!(format_tool_name("gh", "list"), "mcp_gh_list");
    }
}
