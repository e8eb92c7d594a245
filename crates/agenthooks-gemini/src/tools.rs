//! Gemini CLI's built-in tools, their canonical classes and its MCP naming: one
//! [`ToolTable`] ([`TOOLS`]) read by the codec and by install's matcher compiler.
//!
//! Names are Gemini's registry names (`packages/core/src/tools/tool-names.ts`), which are what
//! hooks receive in `tool_name` and what `BeforeTool`/`AfterTool` matchers see. Their arguments
//! are Gemini's own (`run_shell_command {command, description, dir_path, is_background}`,
//! `read_file {file_path, start_line, end_line}`, `write_file {file_path, content}`,
//! `replace {file_path, old_string, new_string, instruction, allow_multiple}`, …); no
//! argument is renamed here.

use agenthooks_core::kit::ToolTable;
use agenthooks_core::mcp::{McpLookup, McpName};
use agenthooks_core::{CanonicalTool, McpCall};

use crate::mcp;
use crate::native::McpContext;

/// `run_shell_command`.
pub const RUN_SHELL_COMMAND: &str = "run_shell_command";
/// `read_file`.
pub const READ_FILE: &str = "read_file";
/// `read_many_files`.
pub const READ_MANY_FILES: &str = "read_many_files";
/// `write_file`.
pub const WRITE_FILE: &str = "write_file";
/// `replace` (Gemini's edit tool, display name "Edit").
pub const REPLACE: &str = "replace";
/// `glob` (display name `FindFiles`).
pub const GLOB: &str = "glob";
/// `grep_search` (display name `SearchText`), the current name of the grep tool.
pub const GREP_SEARCH: &str = "grep_search";
/// `search_file_content`, the grep tool's legacy name (still accepted by Gemini as an alias).
pub const SEARCH_FILE_CONTENT: &str = "search_file_content";
/// `list_directory` (display name `ReadFolder`).
pub const LIST_DIRECTORY: &str = "list_directory";
/// `web_fetch`.
pub const WEB_FETCH: &str = "web_fetch";
/// `google_web_search`.
pub const GOOGLE_WEB_SEARCH: &str = "google_web_search";

/// Gemini's built-in tools per canonical class, and its MCP naming `mcp_<server>_<tool>`
/// (single underscores, quirk #15). Tools absent from it classify as [`CanonicalTool::Other`]
/// (built-ins without a class are listed in [`UNCLASSIFIED`]).
pub static TOOLS: ToolTable = ToolTable::new(
    &[
        (CanonicalTool::Shell, &[RUN_SHELL_COMMAND]),
        (CanonicalTool::FileRead, &[READ_FILE, READ_MANY_FILES]),
        (CanonicalTool::FileWrite, &[WRITE_FILE]),
        // `edit`: older releases' name of `replace`.
        (CanonicalTool::FileEdit, &[REPLACE, "edit"]),
        (
            CanonicalTool::Search,
            &[GLOB, GREP_SEARCH, SEARCH_FILE_CONTENT, "grep", LIST_DIRECTORY],
        ),
        (CanonicalTool::Fetch, &[WEB_FETCH, GOOGLE_WEB_SEARCH]),
        // Subagents run as tools named after the agent.
        (
            CanonicalTool::Task,
            &["delegate_to_agent", "invoke_agent", "codebase_investigator", "cli_help"],
        ),
    ],
    Some(mcp::NAMING),
    &[],
);

/// Gemini built-ins that have no canonical class (they classify as [`CanonicalTool::Other`]).
pub const UNCLASSIFIED: &[&str] = &[
    "write_todos",
    "save_memory",
    "activate_skill",
    "ask_user",
    "get_internal_docs",
    "enter_plan_mode",
    "exit_plan_mode",
];

/// Classifies a Gemini tool name: [`TOOLS`], where an MCP name needs a non-empty tool part
/// (`mcp_github` alone names a server, not a tool a hook sees). A call that carries
/// `mcp_context` is MCP whatever its name: see [`parse_mcp`].
///
/// ```
/// use agenthooks_core::CanonicalTool;
/// use agenthooks_gemini::tools::classify;
///
/// assert_eq!(classify("run_shell_command"), CanonicalTool::Shell);
/// assert_eq!(classify("replace"), CanonicalTool::FileEdit);
/// assert_eq!(classify("mcp_github_create_issue"), CanonicalTool::Mcp);
/// assert_eq!(classify("mcp_github"), CanonicalTool::Other);
/// assert_eq!(classify("write_todos"), CanonicalTool::Other);
/// ```
pub fn classify(tool_name: &str) -> CanonicalTool {
    match TOOLS.classify(tool_name) {
        CanonicalTool::Mcp if mcp::parse(tool_name).is_none() => CanonicalTool::Other,
        class => class,
    }
}

/// The MCP identity of a call: `mcp_context` when the payload carries it (exact, with the
/// server's transport: `url`/`tcp`, or `command` + `args` joined by spaces), else the name split
/// by Gemini's rule ([`mcp::parse`], ⚠ ambiguous when the server name has an underscore, #309).
/// `None` for a tool that is not an MCP tool.
///
/// ```
/// use agenthooks_gemini::tools::parse_mcp;
/// let m = parse_mcp("mcp_github_create_issue", None).unwrap();
/// assert_eq!((m.server.as_str(), m.tool.as_str()), ("github", "create_issue"));
/// assert!(parse_mcp("read_file", None).is_none());
/// ```
///
/// The call carries an [`McpLookup`] for [`McpCall::resolve`]: by `mcp_context`'s server name
/// when sent, else by the name against the configured servers
/// ([`mcp_config`](crate::mcp_config): the longest configured server that fits wins, so
/// `mcp_my_server_run` resolves to a server `my_server`).
pub fn parse_mcp(tool_name: &str, context: Option<&McpContext>) -> Option<McpCall> {
    let name = mcp::resolve(tool_name, context)?;
    let by = match name.source {
        mcp::McpNameSource::Context => McpName::Server(name.server.clone()),
        _ => McpName::Mangled(tool_name.to_owned(), crate::mcp_config::MANGLING),
    };
    let mut call =
        McpCall::new(name.server, name.tool).with_lookup(McpLookup::new("gemini", crate::mcp_config::load, by));
    if let Some(ctx) = context {
        call.url = ctx.url.clone().or_else(|| ctx.tcp.clone()).unwrap_or_default();
        call.command = match (&ctx.command, &ctx.args) {
            (Some(c), Some(args)) if !args.is_empty() => format!("{c} {}", args.join(" ")),
            (Some(c), _) => c.clone(),
            (None, _) => String::new(),
        };
    }
    Some(call)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        let expect = [
            ("run_shell_command", CanonicalTool::Shell),
            ("read_file", CanonicalTool::FileRead),
            ("read_many_files", CanonicalTool::FileRead),
            ("write_file", CanonicalTool::FileWrite),
            ("replace", CanonicalTool::FileEdit),
            ("edit", CanonicalTool::FileEdit),
            ("glob", CanonicalTool::Search),
            ("search_file_content", CanonicalTool::Search),
            ("grep_search", CanonicalTool::Search),
            ("grep", CanonicalTool::Search),
            ("list_directory", CanonicalTool::Search),
            ("web_fetch", CanonicalTool::Fetch),
            ("google_web_search", CanonicalTool::Fetch),
            ("codebase_investigator", CanonicalTool::Task),
            ("mcp_fs_read_text_file", CanonicalTool::Mcp),
            ("mcp_server_", CanonicalTool::Other),
            ("mcp__tool", CanonicalTool::Other),
            ("discovered_tool_deploy", CanonicalTool::Other),
            ("Bash", CanonicalTool::Other),
            ("", CanonicalTool::Other),
        ];
        for (name, class) in expect {
            assert_eq!(classify(name), class, "{name}");
        }
        for name in UNCLASSIFIED {
            assert_eq!(classify(name), CanonicalTool::Other, "{name}");
        }
    }

    #[test]
    fn names_are_unique() {
        assert_eq!(TOOLS.repeated_names(UNCLASSIFIED), Vec::<&str>::new());
    }

    #[test]
    fn context_carries_the_transport() {
        let ctx: McpContext = serde_json::from_str(
            r#"{"server_name":"db_tools","tool_name":"run_query","command":"npx","args":["-y","db"]}"#,
        )
        .unwrap();
        let m = parse_mcp("mcp_db_tools_run_query", Some(&ctx)).unwrap();
        assert_eq!((m.server.as_str(), m.tool.as_str()), ("db_tools", "run_query"));
        assert_eq!((m.command.as_str(), m.url.as_str()), ("npx -y db", ""));
        let ctx: McpContext = serde_json::from_str(r#"{"server_name":"gh","tool_name":"x","tcp":"ws://h:1"}"#).unwrap();
        assert_eq!(parse_mcp("x", Some(&ctx)).unwrap().url, "ws://h:1");
    }
}
