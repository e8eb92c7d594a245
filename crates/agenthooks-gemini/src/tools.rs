//! Gemini CLI's built-in tools and their canonical classes.
//!
//! Names are Gemini's registry names (`packages/core/src/tools/tool-names.ts`), which are what
//! hooks receive in `tool_name` and what `BeforeTool`/`AfterTool` matchers see. Their arguments
//! are Gemini's own (`run_shell_command {command, description, dir_path, is_background}`,
//! `read_file {file_path, start_line, end_line}`, `write_file {file_path, content}`,
//! `replace {file_path, old_string, new_string, instruction, allow_multiple}`, …); no
//! argument is renamed here.

/// The canonical class of a tool (design §3.3): what kind of effect a call has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolClass {
    /// Runs a shell command.
    Shell,
    /// Reads file contents.
    FileRead,
    /// Creates or overwrites a whole file.
    FileWrite,
    /// Edits part of a file.
    FileEdit,
    /// Finds files or searches their contents (glob, grep, directory listings).
    Search,
    /// Reaches the network (fetch a URL, web search).
    Fetch,
    /// Delegates to a subagent.
    Task,
    /// A tool served by an MCP server.
    Mcp,
    /// Anything else (todos, memory, skills, plan mode, questions, …).
    Other,
}

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
/// [`ToolClass::Other`] (or [`ToolClass::Mcp`] for MCP names).
pub const BUILTIN_TOOLS: &[(&str, ToolClass)] = &[
    (RUN_SHELL_COMMAND, ToolClass::Shell),
    (READ_FILE, ToolClass::FileRead),
    (READ_MANY_FILES, ToolClass::FileRead),
    (WRITE_FILE, ToolClass::FileWrite),
    (REPLACE, ToolClass::FileEdit),
    // Older releases' edit tool name.
    ("edit", ToolClass::FileEdit),
    (GLOB, ToolClass::Search),
    (GREP_SEARCH, ToolClass::Search),
    (SEARCH_FILE_CONTENT, ToolClass::Search),
    ("grep", ToolClass::Search),
    (LIST_DIRECTORY, ToolClass::Search),
    (WEB_FETCH, ToolClass::Fetch),
    (GOOGLE_WEB_SEARCH, ToolClass::Fetch),
    // Subagents run as tools named after the agent.
    ("delegate_to_agent", ToolClass::Task),
    ("invoke_agent", ToolClass::Task),
    ("codebase_investigator", ToolClass::Task),
    ("cli_help", ToolClass::Task),
    ("write_todos", ToolClass::Other),
    ("save_memory", ToolClass::Other),
    ("activate_skill", ToolClass::Other),
    ("ask_user", ToolClass::Other),
    ("get_internal_docs", ToolClass::Other),
    ("enter_plan_mode", ToolClass::Other),
    ("exit_plan_mode", ToolClass::Other),
];

/// Classifies a Gemini tool call by its name; `has_mcp_context` is whether the payload carried
/// `mcp_context` (which marks an MCP tool whatever its name).
///
/// ```
/// use agenthooks_gemini::tools::{classify, ToolClass};
///
/// assert_eq!(classify("run_shell_command", false), ToolClass::Shell);
/// assert_eq!(classify("replace", false), ToolClass::FileEdit);
/// assert_eq!(classify("mcp_github_create_issue", false), ToolClass::Mcp);
/// assert_eq!(classify("create_issue", true), ToolClass::Mcp);
/// assert_eq!(classify("write_todos", false), ToolClass::Other);
/// ```
pub fn classify(tool_name: &str, has_mcp_context: bool) -> ToolClass {
    if has_mcp_context || crate::mcp::is_mcp_tool_name(tool_name) {
        return ToolClass::Mcp;
    }
    BUILTIN_TOOLS
        .iter()
        .find(|(n, _)| *n == tool_name)
        .map_or(ToolClass::Other, |(_, c)| *c)
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
            ("run_shell_command", ToolClass::Shell),
            ("read_file", ToolClass::FileRead),
            ("read_many_files", ToolClass::FileRead),
            ("write_file", ToolClass::FileWrite),
            ("replace", ToolClass::FileEdit),
            ("glob", ToolClass::Search),
            ("search_file_content", ToolClass::Search),
            ("grep_search", ToolClass::Search),
            ("grep", ToolClass::Search),
            ("list_directory", ToolClass::Search),
            ("web_fetch", ToolClass::Fetch),
            ("google_web_search", ToolClass::Fetch),
            ("codebase_investigator", ToolClass::Task),
            ("mcp_fs_read_text_file", ToolClass::Mcp),
            ("discovered_tool_deploy", ToolClass::Other),
            ("Bash", ToolClass::Other),
            ("", ToolClass::Other),
        ];
        for (name, class) in expect {
            assert_eq!(classify(name, false), class, "{name}");
        }
        // mcp_context marks MCP whatever the name.
        assert_eq!(classify("read_file", true), ToolClass::Mcp);
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
