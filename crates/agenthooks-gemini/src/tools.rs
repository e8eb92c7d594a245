//! Gemini CLI's built-in tools and their canonical classes.
//!
//! Names are Gemini's registry names (`packages/core/src/tools/tool-names.ts`), which are what
//! hooks receive in `tool_name` and what `BeforeTool`/`AfterTool` matchers see. Their arguments
//! are Gemini's own (`run_shell_command {command, description, dir_path, is_background}`,
//! `read_file {file_path, start_line, end_line}`, `write_file {file_path, content}`,
//! `replace {file_path, old_string, new_string, instruction, allow_multiple}`, …); no
//! argument is renamed here.

use agenthooks_core::CanonicalTool;

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

/// Built-in tool names and their classes. Tools absent from this table classify as
/// [`CanonicalTool::Other`] (or [`CanonicalTool::Mcp`] for MCP names).
pub const BUILTIN_TOOLS: &[(&str, CanonicalTool)] = &[
    (RUN_SHELL_COMMAND, CanonicalTool::Shell),
    (READ_FILE, CanonicalTool::FileRead),
    (READ_MANY_FILES, CanonicalTool::FileRead),
    (WRITE_FILE, CanonicalTool::FileWrite),
    (REPLACE, CanonicalTool::FileEdit),
    // Older releases' edit tool name.
    ("edit", CanonicalTool::FileEdit),
    (GLOB, CanonicalTool::Search),
    (GREP_SEARCH, CanonicalTool::Search),
    (SEARCH_FILE_CONTENT, CanonicalTool::Search),
    ("grep", CanonicalTool::Search),
    (LIST_DIRECTORY, CanonicalTool::Search),
    (WEB_FETCH, CanonicalTool::Fetch),
    (GOOGLE_WEB_SEARCH, CanonicalTool::Fetch),
    // Subagents run as tools named after the agent.
    ("delegate_to_agent", CanonicalTool::Task),
    ("invoke_agent", CanonicalTool::Task),
    ("codebase_investigator", CanonicalTool::Task),
    ("cli_help", CanonicalTool::Task),
    ("write_todos", CanonicalTool::Other),
    ("save_memory", CanonicalTool::Other),
    ("activate_skill", CanonicalTool::Other),
    ("ask_user", CanonicalTool::Other),
    ("get_internal_docs", CanonicalTool::Other),
    ("enter_plan_mode", CanonicalTool::Other),
    ("exit_plan_mode", CanonicalTool::Other),
];

/// Classifies a Gemini tool call by its name; `has_mcp_context` is whether the payload carried
/// `mcp_context` (which marks an MCP tool whatever its name).
///
/// ```
/// use agenthooks_core::CanonicalTool;
/// use agenthooks_gemini::tools::classify;
///
/// assert_eq!(classify("run_shell_command", false), CanonicalTool::Shell);
/// assert_eq!(classify("replace", false), CanonicalTool::FileEdit);
/// assert_eq!(classify("mcp_github_create_issue", false), CanonicalTool::Mcp);
/// assert_eq!(classify("create_issue", true), CanonicalTool::Mcp);
/// assert_eq!(classify("write_todos", false), CanonicalTool::Other);
/// ```
pub fn classify(tool_name: &str, has_mcp_context: bool) -> CanonicalTool {
    if has_mcp_context || crate::mcp::is_mcp_tool_name(tool_name) {
        return CanonicalTool::Mcp;
    }
    BUILTIN_TOOLS
        .iter()
        .find(|(n, _)| *n == tool_name)
        .map_or(CanonicalTool::Other, |(_, c)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_classifies_as_listed() {
        for (name, class) in BUILTIN_TOOLS {
            assert_eq!(classify(name, false), *class, "{name}");
        }
    }

    #[test]
    fn brief_examples() {
        let expect = [
            ("run_shell_command", CanonicalTool::Shell),
            ("read_file", CanonicalTool::FileRead),
            ("read_many_files", CanonicalTool::FileRead),
            ("write_file", CanonicalTool::FileWrite),
            ("replace", CanonicalTool::FileEdit),
            ("glob", CanonicalTool::Search),
            ("search_file_content", CanonicalTool::Search),
            ("grep_search", CanonicalTool::Search),
            ("grep", CanonicalTool::Search),
            ("list_directory", CanonicalTool::Search),
            ("web_fetch", CanonicalTool::Fetch),
            ("google_web_search", CanonicalTool::Fetch),
            ("codebase_investigator", CanonicalTool::Task),
            ("mcp_fs_read_text_file", CanonicalTool::Mcp),
            ("discovered_tool_deploy", CanonicalTool::Other),
            ("Bash", CanonicalTool::Other),
            ("", CanonicalTool::Other),
        ];
        for (name, class) in expect {
            assert_eq!(classify(name, false), class, "{name}");
        }
        // mcp_context marks MCP whatever the name.
        assert_eq!(classify("read_file", true), CanonicalTool::Mcp);
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<_> = BUILTIN_TOOLS.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        let len = names.len();
        names.dedup();
        assert_eq!(names.len(), len);
    }
}
