//! Claude Code's entries in the quirk registry (ids 100–199, plus the design's #26, which this
//! crate owns). The seeded cross-provider entries that concern Claude (#1 cowork async Stop,
//! #16 blind spots, #17 empty stdout ≠ allow, #19 stop-loop guard) live in
//! [`agenthooks_core::quirks::SEEDED`]; each of them and each entry here has a fixture under
//! `fixtures/claude-code/` (see the crate's integration tests for the mapping).

use agenthooks_core::Quirk;

/// Claude Code's quirks, sorted by id.
pub static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
    provider "claude-code";
    ids 100..200 + [26];
    26 {
        "Plugin and claude.ai-connector MCP servers appear in no on-disk MCP config; their \
         tool names carry a normalized segment (`mcp__plugin_<plugin>_<server>__<tool>`).",
        "McpCall::server comes from the payload's `mcp_server.name` when present (2.1.3xx), \
         else from the name segment; `mcp_server.source` stays on the native view. The \
         transport (url/command) is still not in the payload.",
        versions "2.1.x; `mcp_server` since ~2.1.3xx",
        events ["PreToolUse", "PermissionRequest", "PermissionDenied", "PostToolUse", "PostToolUseFailure"],
        correction "Since ~2.1.3xx the payload carries `mcp_server {name, source}`, which identifies \
         plugin and claude.ai servers without `claude mcp list` (reference claude-code.md §5).",
        upstream "reference claude-code.md §2, §5",
    }
    101 {
        "A hook handler may set `onFailure: \"block\"`: a failure to start, a timeout, an exit \
         code other than 0/2 or invalid JSON then counts as exit 2 (not for async hooks, nor \
         Stop/SubagentStop/TaskCompleted/TeammateIdle).",
        "Fail-closed inside the binary answers with the event's own deny/block JSON; install \
         may also set `onFailure: \"block\"` so a crash of the hook binary itself blocks.",
        versions "2.1.3xx",
        capabilities [Deny],
        upstream "reference claude-code.md §3, §5",
    }
    102 {
        "`hookSpecificOutput.updatedToolOutput` replaces any tool's output on PostToolUse; \
         older builds knew only `updatedMCPToolOutput`, for MCP tools.",
        "replace_output encodes `updatedToolOutput`, plus `updatedMCPToolOutput` with the same \
         value for MCP tools so older builds still apply it.",
        events ["PostToolUse"],
        capabilities [ReplaceOutput],
        upstream "reference claude-code.md §3, §5",
    }
    103 {
        "PreSkillShellCommand takes deny/ask/defer only; an `updatedInput` is never applied \
         and blocks the command.",
        "PreSkillShellCommand decodes as tool.pre without allow, update-input or context \
         capabilities, so a rewrite is degraded before it can reach the wire.",
        versions "2.1.3xx",
        events ["PreSkillShellCommand"],
        capabilities [UpdateInput, Allow],
        upstream "reference claude-code.md §3",
    }
    104 {
        "A WorktreeCreate command hook replaces Claude's own worktree creation and must print \
         the worktree path on stdout: `{}` would be read as a path.",
        "The WorktreeCreate no-op is empty stdout (Claude reports that no path was supplied); \
         install registers WorktreeCreate only for a handler that supplies a path.",
        events ["WorktreeCreate"],
        upstream "reference claude-code.md §1, §3",
    }
    105 {
        "MessageDisplay fires per chunk of assistant text flushed to the screen, and its only \
         output (`displayContent`) changes the display, not what the model said.",
        "Mapped to model.response as an approximation (⚠): `text` is the chunk's `delta`; the \
         only capability is a system message.",
        events ["MessageDisplay"],
        upstream "reference claude-code.md §5; e2e capture 2.1.197",
    }
    106 {
        "PermissionRequest carries no `tool_use_id` and has no `ask` answer: the dialog it \
         precedes already asks.",
        "The tool-call id is synthesized (`hook_synth_…`); ask is not a capability and \
         degrades per `ask_fallback` (no-decision lets Claude's own dialog ask).",
        events ["PermissionRequest"],
        capabilities [Ask],
        upstream "reference claude-code.md §2, §3",
    }
    107 {
        "Exit code 2 means \"block\" on gates but \"continue the agent\" on Stop/SubagentStop.",
        "Fail-closed answers with the event's deny/block JSON where it has one, the no-op on \
         events that cannot block (never exit 2 on Stop), and exit 2 with the reason on \
         stderr only when the event is unknown.",
        events ["Stop", "SubagentStop"],
        capabilities [Deny, ContinueAgent],
        upstream "reference claude-code.md §3",
    }
    108 {
        "PreToolUse also accepts `permissionDecision: \"defer\"` (only in `-p` mode with a \
         single tool call), with precedence deny > defer > ask > allow across hooks.",
        "No unified intent maps to defer; the codec never emits it.",
        versions "2.1.3xx",
        events ["PreToolUse", "PreSkillShellCommand"],
        status Confirmed,
        upstream "reference claude-code.md §3; claudetto wiki",
    }
    109 {
        "`updatedInput` is applied together with `permissionDecision: \"allow\"` or `\"ask\"` \
         only (PermissionRequest: with `behavior: \"allow\"` only); without a verdict it is \
         ignored and the original input runs.",
        "A rewrite with no decision is an EncodeError (the failure policy answers), never a \
         silently dropped rewrite.",
        events ["PreToolUse", "PermissionRequest"],
        capabilities [UpdateInput],
        status Unverified,
        upstream "reference claude-code.md §3; code.claude.com/docs/en/hooks (\"combine with allow or ask\")",
    }
    110 {
        "`type: \"http\"` hooks have no exit code: only a 2xx body is read, as JSON (an empty \
         body is `{}`, a non-JSON body is a non-blocking error); a non-2xx status, a refused \
         connection or a timeout is a non-blocking error unless `onFailure: \"block\"`.",
        "Warm mode answers through the codec's `http_response`: exit 2 (the command path's \
         universal block) becomes the event's JSON block, `{\"decision\": \"block\"}` where the \
         event has none; install renders `onFailure: \"block\"` on fail-closed gating http hooks.",
        versions "2.1.332 (verified in the bundled CLI)",
        events ["PreToolUse", "PermissionRequest", "UserPromptSubmit", "PostToolUse"],
        capabilities [Deny],
        status Confirmed,
        upstream "reference claude-code.md §4 says only \"POSTs the input JSON to url\"",
    }
    111 {
        "`type: \"http\"` hooks are skipped on SessionStart and Setup (\"HTTP hooks are not \
         supported for SessionStart\"); the reference lists http as a handler type for every \
         event.",
        "Install --warm keeps SessionStart (and Setup) command hooks; the SessionStart hook \
         carries `--warm` and starts the warm server.",
        versions "2.1.332 (verified in the bundled CLI)",
        events ["SessionStart", "Setup"],
        status Confirmed,
        upstream "reference claude-code.md §4",
    }
    112 {
        "Hook processes get Claude's environment without its `OTEL_*` variables: \
         `OTEL_EXPORTER_OTLP_ENDPOINT` and `OTEL_SERVICE_NAME` set for `claude` never reach a \
         hook (other variables do), so a hook cannot be pointed at a collector the standard way.",
        "The audit export (`agenthooks-otel`) also reads each `OTEL_*` variable as \
         `AGENTHOOKS_OTEL_*` (the standard name wins when both are set); the e2e audit \
         scenario sets both.",
        versions "2.1.332 (observed by the e2e audit-deny scenario)",
        events ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"],
        status Confirmed,
        upstream "not documented",
    }
};
