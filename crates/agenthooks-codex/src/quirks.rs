//! Codex quirks (ids 200–299) on top of the core's seeded #8, #9, #10 and #16.
//!
//! Each entry names what Codex does, what this crate does about it and where that was
//! established. The fixture that exercises an entry is named in its `upstream` text where one
//! applies.

use agenthooks_core::Quirk;

/// The Codex quirk registry.
pub static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
    provider "codex";
    ids 200..300;
    201 {
        "Exit code 2 blocks only when stderr is non-empty; exit 2 with empty stderr is a failed run that does not block.",
        "The codec never relies on exit 2: blocks are JSON on stdout with a non-empty reason; fail-closed answers are deny JSON too.",
        capabilities [Deny],
        upstream "reference codex.md §3 (exit codes); codex-rs/hooks/src/events/*.rs; e2e deny-exit2 run (fixture 0.171.0/pre_tool_use-deny-exit2)",
    }
    202 {
        "Failed tool calls arrive as PostToolUse (there is no failure event); a shell call's tool_response is only its output text, without an exit status.",
        "PostToolUse decodes as tool.error when tool_response shows a failure (MCP isError, non-zero exit_code, success:false, error); failed shell calls stay tool.post (documented loss).",
        events ["PostToolUse"],
        upstream "reference codex.md §5; codex-rs core ExecCommandToolOutput::post_tool_use_response; fixtures docs/post_tool_use-mcp-error, 0.171.0/post_tool_use-allow",
    }
    203 {
        "Shell calls reach hooks as tool_name \"Bash\" with tool_input.command although the model's tool is exec_command {cmd}; apply_patch carries the patch in tool_input.command.",
        "Bash and the shell aliases map to CanonicalTool::Shell, apply_patch to FileEdit, mcp__s__t to Mcp.",
        events ["PreToolUse", "PermissionRequest", "PostToolUse"],
        upstream "shared/e2e/README.md (Codex); fixtures 0.171.0/pre_tool_use-allow, docs/pre_tool_use",
    }
    204 {
        "SessionEnd and Interrupt hook timeouts default to 1 s and are clamped to 1–3 s (also inside the trust identity), and SessionEnd always runs synchronously.",
        "The rows carry the clamp (timeout_clamp 3 s): install writes at most 3 s and hashes the clamped value; these handlers must be fast (the runner's deadline follows the timeout).",
        events ["SessionEnd", "Interrupt"],
        upstream "reference codex.md §4; trust-hash-vectors-0.171.0.json (30 → 3); e2e run (Codex logs \"clamping Interrupt hook timeout to 3s\"); fixture 0.171.0/session_end-allow",
    }
    205 {
        "A deny needs a non-empty permissionDecisionReason and every decision:block a non-empty reason; otherwise the run fails and has no effect.",
        "The codec always writes a non-empty reason (the core's default block reason when a handler gave none).",
        capabilities [Deny, ContinueAgent, FlagOutput],
        upstream "codex-rs/hooks/src/engine/output_parser.rs (0.171)",
    }
    206 {
        "continue:false, stopReason and suppressOutput make a PreToolUse or PermissionRequest result invalid; suppressOutput is also invalid on PostToolUse.",
        "StopAgent is not offered on PreToolUse/PermissionRequest; the codec never writes suppressOutput.",
        events ["PreToolUse", "PermissionRequest", "PostToolUse"],
        capabilities [StopAgent],
        upstream "codex-rs/hooks/src/engine/output_parser.rs (0.171)",
    }
    207 {
        "PermissionRequest carries no tool_use_id.",
        "The tool call gets a synthesized hook_synth_ id (it does not correlate with the PreToolUse/PostToolUse ids of the same call).",
        events ["PermissionRequest"],
        upstream "permission-request.command.input.schema.json; fixture docs/permission_request",
    }
    208 {
        "PermissionRequest accepts only allow or deny: updatedInput, updatedPermissions and interrupt:true are reserved and invalidate the result; there is no separate ask (the prompt about to be shown is the ask).",
        "Capabilities: allow, deny, system-message; no ask (it degrades per AskFallback; NoDecision lets Codex show its own prompt) and no update-input.",
        events ["PermissionRequest"],
        capabilities [Ask, UpdateInput],
        upstream "permission-request.command.output.schema.json; output_parser.rs",
    }
    209 {
        "PostToolUse can replace only an MCP tool's output (updatedMCPToolOutput) in 0.171.0; for other tools the field is ignored.",
        "ReplaceOutput is not a PostToolUse capability (capabilities are per event): the core degrades it to decision:block feedback carrying the replacement; a direct encode for an MCP call writes updatedMCPToolOutput.",
        events ["PostToolUse"],
        capabilities [ReplaceOutput],
        versions "0.171.0 (newer source adds updatedToolOutput)",
        upstream "reference codex.md §3; post-tool-use.command.output.schema.json",
    }
    210 {
        "transcript_path is null for ephemeral sessions.",
        "SessionInfo::transcript_path is empty then; the native struct keeps the null.",
        upstream "NullableString in every input schema; fixtures docs/session_start, docs/session_end-example",
    }
    211 {
        "PreToolUse stdout that starts like JSON but does not parse fails the run; plain text is ignored on gating events but becomes context on SessionStart/UserPromptSubmit.",
        "The runner never lets handler output reach stdout; the codec writes only schema-valid JSON or nothing.",
        upstream "reference codex.md §3 (exit 0)",
    }
    212 {
        "With several matching hooks, any block wins, the rewrite of the hook that finished last wins (completion order, not config order), and contexts are concatenated.",
        "Compose handlers inside one agenthooks binary (any/all) instead of registering several rewriting hooks with Codex.",
        events ["PreToolUse"],
        capabilities [UpdateInput],
        upstream "reference codex.md §3 (PreToolUse)",
    }
    213 {
        "additionalContext above additionalContextLimit (≈ UTF-8 bytes / 4 tokens, default 2500) is truncated or spilled to a file.",
        "Documented; keep injected context short or raise the per-handler limit at install.",
        capabilities [AddContext],
        versions ">= 0.145",
        status Unverified,
        upstream "reference codex.md §3 (third-party notes)",
    }
    214 {
        "Interrupt (new in 0.171) reads only systemMessage; StopFailure exists in upstream source but is not fired by 0.171.0.",
        "Both decode as `other` with typed native views; Interrupt offers only system-message.",
        events ["Interrupt", "StopFailure"],
        upstream "interrupt.command.output.schema.json; stop-failure.command.input.schema.json @72cdcc98; fixtures docs/interrupt, docs/stop_failure",
    }
    215 {
        "The legacy notify program gets one kebab-case JSON object as its last argv argument after each turn, fire and forget (stdio is /dev/null).",
        "`agenthooks notify --provider=codex '<json>'` decodes it as a notification; nothing is answered.",
        events ["agent-turn-complete"],
        upstream "codex-rs/hooks/src/legacy_notify.rs; fixtures docs/agent_turn_complete, docs/agent_turn_complete-legacy",
    }
    216 {
        "Plugin hooks (hooks/hooks.json in a plugin) were reported dead in 0.147.0 (plugin_hooks feature removed).",
        "Install writes user or project hooks, never plugin hooks.",
        versions ">= 0.147.0",
        status Open,
        upstream "reference codex.md §4",
    }
    217 {
        "A model's tool call whose arguments hold a lone surrogate escape (`\"\\ud800\"`) is \
         refused by Codex's own (strict, serde) argument parsing: the tool does not run and no \
         PreToolUse fires.",
        "Nothing to do: such a call never reaches a gate. The codec still decodes lone \
         surrogates elsewhere (kit::tolerant), and the e2e deny-hostile scenario is not run on \
         Codex (checked live: the row fails with no PreToolUse call).",
        versions "0.171.0 (verified live)",
        events ["PreToolUse"],
        status Confirmed,
        upstream "e2e deny-hostile against codex-0.171.0 (no tool call, no hook, the model's next turn)",
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
