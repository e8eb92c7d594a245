//! Codex's hook tool names, their canonical classes, MCP names and the failure rule.
//!
//! Only three families of tools reach Codex's tool hooks (quirk #16): shell commands, which
//! arrive as `tool_name: "Bash"` with `tool_input: {"command": "..."}` even though the model's
//! tool is `exec_command` (or the older `shell` / `local_shell`); `apply_patch`, whose
//! `tool_input.command` carries the patch text; and MCP tools named `mcp__<server>__<tool>`.

use agenthooks_core::kit::McpNaming;
use agenthooks_core::mcp::McpLookup;
use agenthooks_core::{CanonicalTool, McpCall, ToolTable};
use serde_json::Value;

/// Codex's hook tool names per canonical class and its MCP naming (`mcp__<server>__<tool>`),
/// read by [`classify`] and by install's matcher compiler.
pub static TOOLS: ToolTable = ToolTable::new(
    &[
        (
            CanonicalTool::Shell,
            &[
                "Bash",
                "exec_command",
                "shell",
                "local_shell",
                "unified_exec",
                "container.exec",
            ],
        ),
        (CanonicalTool::FileEdit, &["apply_patch"]),
    ],
    Some(McpNaming::new("mcp__", "__")),
    &[],
);

/// The canonical class of a Codex hook tool name: [`TOOLS`], except that a name [`parse_mcp`]
/// rejects (a bare server `mcp__s`, an empty tool `mcp__s__`) is no MCP call.
///
/// ```
/// use agenthooks_codex::tools::classify;
/// use agenthooks_core::CanonicalTool;
/// assert_eq!(classify("Bash"), CanonicalTool::Shell);
/// assert_eq!(classify("apply_patch"), CanonicalTool::FileEdit);
/// assert_eq!(classify("mcp__github__create_issue"), CanonicalTool::Mcp);
/// assert_eq!(classify("mcp__github"), CanonicalTool::Other);
/// assert_eq!(classify("web_search"), CanonicalTool::Other);
/// ```
pub fn classify(tool_name: &str) -> CanonicalTool {
    match TOOLS.classify(tool_name) {
        CanonicalTool::Mcp if parse_mcp(tool_name).is_none() => CanonicalTool::Other,
        class => class,
    }
}

/// Splits `mcp__<server>__<tool>` into server and tool (the server is everything up to the
/// first `__` after the prefix; the tool keeps any further `__`). `None` for other names or an
/// empty server or tool.
///
/// ```
/// use agenthooks_codex::tools::parse_mcp;
/// let call = parse_mcp("mcp__docs__search__v2").unwrap();
/// assert_eq!((call.server.as_str(), call.tool.as_str()), ("docs", "search__v2"));
/// assert!(parse_mcp("mcp__docs").is_none());
/// assert!(parse_mcp("Bash").is_none());
/// ```
///
/// The call carries an [`McpLookup`] for [`McpCall::resolve`]: the name resolves against the
/// configured servers ([`mcp_config`](crate::mcp_config)), so a server `my__srv` is found
/// where the split at the first `__` is wrong.
pub fn parse_mcp(tool_name: &str) -> Option<McpCall> {
    let lookup = || McpLookup::mangled("codex", crate::mcp_config::load, tool_name, crate::mcp_config::MANGLING);
    match TOOLS.parse_mcp(tool_name)? {
        (server, Some(tool)) if !tool.is_empty() => Some(McpCall::new(server, tool).with_lookup(lookup())),
        _ => None,
    }
}

/// The failure a `PostToolUse` payload shows, if any (Codex has no failure event).
///
/// Codex folds failed tool calls into `PostToolUse`. The rule, applied to `tool_response`:
///
/// 1. an object with `isError: true` (an MCP `CallToolResult`): the error is the text of its
///    `content` items, joined with newlines (or the whole result as JSON when it has no text);
/// 2. an object with a non-zero integer `exit_code` / `exitCode`: the error is its `stderr`,
///    `output` or `formatted_output` text, else `exit code N`;
/// 3. an object with `success: false`: the error is its `error` / `message` text, else the whole
///    response as JSON;
/// 4. an object with a non-null, non-empty `error`: that error (a string, or JSON).
///
/// Anything else is a success. ⚠ Codex 0.171.0 reports a shell call's result as the bare output
/// **string**, without its exit status, so a failed shell command is indistinguishable from a
/// successful one and decodes as `tool.post`.
///
/// ```
/// use agenthooks_codex::tools::failure;
/// use serde_json::json;
/// let mcp = json!({"content": [{"type": "text", "text": "403 Forbidden"}], "isError": true});
/// assert_eq!(failure(&mcp).as_deref(), Some("403 Forbidden"));
/// assert_eq!(failure(&json!({"exit_code": 2, "stderr": "no such file"})).as_deref(), Some("no such file"));
/// assert_eq!(failure(&json!("plain output")), None);
/// assert_eq!(failure(&json!({"content": [], "isError": false})), None);
/// ```
pub fn failure(tool_response: &Value) -> Option<String> {
    let Value::Object(obj) = tool_response else {
        return None;
    };
    if obj.get("isError").and_then(Value::as_bool) == Some(true) {
        let texts: Vec<&str> = obj
            .get("content")
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|item| item.get("text").and_then(Value::as_str))
                    .filter(|t| !t.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        return Some(if texts.is_empty() {
            tool_response.to_string()
        } else {
            texts.join("\n")
        });
    }
    let exit = obj
        .get("exit_code")
        .or_else(|| obj.get("exitCode"))
        .and_then(Value::as_i64);
    if let Some(code) = exit.filter(|code| *code != 0) {
        let text = ["stderr", "output", "formatted_output", "aggregated_output"]
            .iter()
            .find_map(|k| obj.get(*k).and_then(Value::as_str).filter(|t| !t.trim().is_empty()));
        return Some(text.map_or_else(|| format!("exit code {code}"), str::to_owned));
    }
    if obj.get("success").and_then(Value::as_bool) == Some(false) {
        let text = ["error", "message"]
            .iter()
            .find_map(|k| obj.get(*k).and_then(Value::as_str).filter(|t| !t.trim().is_empty()));
        return Some(text.map_or_else(|| tool_response.to_string(), str::to_owned));
    }
    match obj.get("error") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) if text.trim().is_empty() => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(other) => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn shell_aliases_are_shell() {
        for name in ["Bash", "exec_command", "shell", "local_shell"] {
            assert_eq!(classify(name), CanonicalTool::Shell, "{name}");
        }
        assert_eq!(classify("bash"), CanonicalTool::Other);
    }

    #[test]
    fn mcp_names() {
        let call = parse_mcp("mcp__github__create_issue").unwrap();
        assert_eq!(call.server, "github");
        assert_eq!(call.tool, "create_issue");
        assert!(parse_mcp("mcp____x").is_none());
        assert!(parse_mcp("mcp__s__").is_none());
        assert!(parse_mcp("mcp_s_t").is_none());
        assert_eq!(classify("mcp__s"), CanonicalTool::Other);
        assert_eq!(classify("mcp__s__"), CanonicalTool::Other);
        assert_eq!(classify("mcp____x"), CanonicalTool::Other);
    }

    #[test]
    fn failure_rule() {
        assert_eq!(
            failure(&json!({"isError": true, "content": [{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}]})).as_deref(),
            Some("a\nb")
        );
        assert_eq!(
            failure(&json!({"isError": true, "content": []})).as_deref(),
            Some(r#"{"isError":true,"content":[]}"#)
        );
        assert_eq!(failure(&json!({"exitCode": 1})).as_deref(), Some("exit code 1"));
        assert_eq!(failure(&json!({"exit_code": 0, "stderr": "warn"})), None);
        assert_eq!(
            failure(&json!({"exit_code": 127, "output": "sh: nope: not found"})).as_deref(),
            Some("sh: nope: not found")
        );
        assert_eq!(
            failure(&json!({"success": false, "error": "patch rejected"})).as_deref(),
            Some("patch rejected")
        );
        assert_eq!(
            failure(&json!({"success": false})).as_deref(),
            Some(r#"{"success":false}"#)
        );
        assert_eq!(
            failure(&json!({"error": {"code": 5}})).as_deref(),
            Some(r#"{"code":5}"#)
        );
        assert_eq!(failure(&json!({"error": null, "result": 1})), None);
        assert_eq!(failure(&json!({"error": ""})), None);
        assert_eq!(failure(&json!("")), None);
        assert_eq!(failure(&json!(null)), None);
        assert_eq!(failure(&json!([{"isError": true}])), None);
    }
}
