//! Qwen Code quirks in the 900 range.
//!
//! Each entry names where it was established: the 0.24.4 bundle (`packages/core/src/hooks/…`,
//! read from the installed npm package), the e2e runs, or a fixture.

use agenthooks_core::Quirk;

/// Qwen Code's own quirks.
pub static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
    provider "qwen-code";
    ids 900..1000;
    901 {
        "Command-hook timeouts changed unit: up to 0.15 `timeout` is milliseconds; 0.2x reads seconds, but any value of 1000 or more keeps its old millisecond meaning (`hook-timeout.ts` isLegacyMillisecondHookTimeout). The docs say milliseconds.",
        "Install writes milliseconds, at least 1000, which every release reads the same (timeout_config_value); http hooks always read seconds.",
        upstream "packages/core/src/hooks/hook-timeout.ts (0.24.4 bundle); hookRunner.ts DEFAULT_HOOK_TIMEOUT 6e4 (0.12.0 bundle)",
    }
    902 {
        "PreToolUse applies no rewritten input: `updatedInput` is read from PermissionRequest only, and `hookSpecificOutput.tool_input` only feeds the next sequential hook's stdin.",
        "UpdateInput is not a PreToolUse capability (the runner degrades a rewrite per policy); PermissionRequest allow carries `updatedInput`.",
        events ["PreToolUse"],
        capabilities [UpdateInput],
        upstream "core/toolHookTriggers.ts firePreToolUseHook, hooks/hookRunner.ts applyHookOutputToInput (0.24.4 bundle)",
    }
    903 {
        "PreToolUse fires after the approval step, so `permissionDecision: \"allow\"` skips nothing; `ask` bounces the call back to approval where the session can prompt, else blocks it.",
        "Allow is not a PreToolUse capability (it degrades to no decision); Ask encodes as `permissionDecision: \"ask\"`.",
        events ["PreToolUse"],
        capabilities [Allow, Ask],
        upstream "core/coreToolScheduler.ts (PreToolUse after isPostAskReexecution; bounceToAwaitingApprovalForAsk) (0.24.4 bundle)",
    }
    904 {
        "PostToolUse reads only `additionalContext` and `continue`: a `decision: \"block\"` is ignored, and `continue: false` does not stop the agent but turns the tool's result into an error carrying `stopReason`.",
        "PostToolUse has neither FlagOutput, ReplaceOutput nor StopAgent: a flag degrades to context (appended to the tool result), a replacement and a stop per policy.",
        events ["PostToolUse"],
        capabilities [FlagOutput, ReplaceOutput, StopAgent],
        upstream "core/toolHookTriggers.ts firePostToolUseHook (0.24.4 bundle)",
    }
    905 {
        "On Stop and SubagentStop, `continue: false` does not stop anything: like `decision: \"block\"` it runs another turn with `stopReason || reason` as the prompt. Exit 2 (read as `decision: \"deny\"`) does the same.",
        "StopAgent is not a Stop capability; ContinueWith encodes as `decision: \"block\"` + reason; fail-closed never blocks a Stop.",
        events ["Stop", "SubagentStop"],
        capabilities [ContinueAgent, StopAgent],
        upstream "core/client.ts sendMessageStream Stop branch; agents/…/agent.ts SubagentStop loop (0.24.4 bundle)",
    }
    906 {
        "PreCompact's `additionalContext` is not model context: it is appended to the compaction instructions (trimmed, bounded).",
        "Documented: AddContext on PreCompact reaches the summarizer, not the conversation.",
        events ["PreCompact"],
        capabilities [AddContext],
        upstream "services/chatCompressionService.ts firePreCompactEvent (0.24.4 bundle)",
    }
    907 {
        "TodoCreated and TodoCompleted fail closed inside Qwen: when its hook system throws, the merged answer is `decision: \"block\"`; every other event fails open (a crash, a timeout, non-JSON output or a non-2xx http answer is a non-blocking error).",
        "Their fail shape is Block (top-level `decision: \"block\"`); fail-closed on the other gates is the codec's deny, written by the runner.",
        events ["TodoCreated", "TodoCompleted"],
        upstream "hooks/hookEventHandler.ts executeHooks failClosedResult (0.24.4 bundle)",
    }
    908 {
        "MCP tool names are `mcp__<server>__<tool>` with `[^A-Za-z0-9_-]` as `_`; a name over the provider limit is cut and gets a hash suffix, so its tool part is not the server's tool name.",
        "parse_mcp splits at the first `__` after the server; McpCall::resolve matches the mangled name against the configured servers.",
        events ["PreToolUse", "PostToolUse", "PostToolUseFailure"],
        upstream "tools/mcp-tool.ts generateValidName, utils/toolNameNormalization normalizeToolNameForProvider (0.24.4 bundle)",
    }
    909 {
        "Hook processes get QWEN_PROJECT_DIR, and also GEMINI_PROJECT_DIR and CLAUDE_PROJECT_DIR, all set to the payload's cwd.",
        "sniff_env reads QWEN_PROJECT_DIR (no other agent sets it); Gemini's and Claude's own env sniffing must not claim a Qwen hook.",
        upstream "hooks/hookRunner.ts executeCommandHook env (0.24.4 bundle)",
    }
    910 {
        "additionalContext reaches the model with `<` and `>` escaped as `&lt;`/`&gt;` (UserPromptExpansion also escapes `&` and cuts at 10 000 characters); on UserPromptSubmit it is wrapped and appended to the prompt, on tool events appended to the tool result.",
        "Context is sent verbatim; markup in context does not survive.",
        capabilities [AddContext],
        upstream "hooks/types.ts DefaultHookOutput.getAdditionalContext, sanitizeUserPromptExpansionAdditionalContext (0.24.4 bundle)",
    }
    911 {
        "http hooks: no URL allowlist means every URL is allowed; loopback (127.0.0.1, ::1, localhost) passes the SSRF guard, private ranges and metadata endpoints do not; the body is the hook input, the answer is read only from a 2xx `application/json` response, redirects are not followed.",
        "Warm mode writes http hooks to http://127.0.0.1:<port>; the warm server answers JSON; exit 2 becomes the JSON block (http_response).",
        upstream "hooks/urlValidator.ts, hooks/ssrfGuard.ts, hooks/httpHookRunner.ts (0.24.4 bundle)",
    }
    912 {
        "0.12.0 runs hooks only with `--experimental-hooks` or `hooksConfig.enabled: true`, and then fires only UserPromptSubmit and Stop (the tool events are declared but never fired).",
        "The codec decodes every event of every release; install does not turn the switch on (a 0.12 user sets it); the e2e suite sets `hooksConfig.enabled` where the bundle has the flag.",
        versions "0.12.0",
        upstream "0.12.0 bundle (enableHooks: argv.experimentalHooks || settings.hooksConfig?.enabled; fire points fireUserPromptSubmitEvent, fireStopEvent); corpus fixtures/qwen-code/0.12.0",
        status Open,
    }
    913 {
        "PreToolUse `continue: false` does not stop the agent: the call is blocked with `stopReason || reason` as its error (blockType `stop`) and the turn goes on.",
        "StopAgent is not a PreToolUse capability; a stop degrades per policy.",
        events ["PreToolUse"],
        capabilities [StopAgent],
        upstream "core/toolHookTriggers.ts firePreToolUseHook, core/coreToolScheduler.ts (0.24.4 bundle)",
    }
    914 {
        "PreToolUse reads `additionalContext` only when the call proceeds: with `permissionDecision` deny or ask the context is never read.",
        "The codec writes it anyway (harmless); the agreement test lists deny/ask + context as a known gap of event-level capabilities.",
        events ["PreToolUse"],
        capabilities [AddContext],
        upstream "core/toolHookTriggers.ts firePreToolUseHook returns before getAdditionalContext (0.24.4 bundle)",
    }
    915 {
        "UserPromptSubmit fires again when tool results go back to the model, with `prompt: \"\"` (the function-response parts have no text): a prompt hook runs once per model request of a turn, not once per prompt.",
        "None in the codec (the event is the agent's); a prompt handler should let an empty prompt through. Seen in every 0.24.4 e2e run (two UserPromptSubmit per tool turn).",
        events ["UserPromptSubmit"],
        upstream "core/client.ts sendMessageStream (messageType not excluded for tool results); e2e hooks.jsonl of 0.24.4 runs",
        status Open,
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_quirk_names_where_it_was_established() {
        assert!(QUIRKS.iter().all(|q| !q.upstream.is_empty()));
    }
}
