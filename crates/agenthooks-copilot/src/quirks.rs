//! Copilot CLI quirks (ids 401–415), in the shape of the core registry.
//!
//! Each entry names where it is exercised: a fixture under `fixtures/copilot/` or a test in this
//! crate (`tests/it/`).

use agenthooks_core::Quirk;

/// Every Copilot quirk.
pub static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
    provider "copilot";
    ids 400..500;
    401 {
        "camelCase payloads carry no event name (only `notification` has `hook_event_name`; \
         1.0.102's `permissionRequest` adds an undocumented `hookName`).",
        "Install bakes `--event=<camelCase name>` into argv; without it the codec reconstructs \
         the event from the payload's disjoint keys and lowers the confidence when the shape is \
         ambiguous (fixtures: every camelCase case, checked with the argv hint stripped).",
        upstream "reference copilot.md §3; e2e captures copilot-1.0.102",
    }
    402 {
        "The payload dialect follows the config key spelling (1.0.21): a PascalCase key \
         (`PreToolUse`) sends snake_case fields, `hook_event_name` and ISO timestamps, and \
         Claude tool names (`Bash`, 1.0.62).",
        "Install renders camelCase keys only. The codec reads the dialect from the payload \
         (variant `vscode`), decodes both, and answers a PascalCase hook with the Copilot fields \
         plus the Claude-compatible `hookSpecificOutput` (fixtures: `docs/*-pascal`).",
        versions ">= 1.0.21",
        upstream "reference copilot.md §1; third-party reports rtk-ai/rtk#1800, Hypabolic/Hypa#52",
        status Unverified,
    }
    403 {
        "`toolArgs` is a JSON-encoded string in the documented examples and older releases and \
         an object in 1.0.102; `permissionRequest` sends `toolInput` as an object.",
        "ToolCall::input is always an object; ToolCall::raw_input keeps the string form \
         (fixtures: `docs/pre_tool_use-example`, `1.0.102/pre_tool_use-allow`).",
        capabilities [UpdateInput],
    }
    404 {
        "No tool-call id on preToolUse, postToolUse, postToolUseFailure or permissionRequest; \
         permissionRequest drops the shell tool's `description` argument.",
        "Synthesized ids hash session | tool | input without `description`, so pre, permission, \
         post and failure of one call share an id (test: ids_correlate_across_a_tool_call).",
        upstream "e2e captures copilot-1.0.102 allow.jsonl",
    }
    405 {
        "preToolUse denies on any hook error (\"hook errored\", 1.0.57) and on exit 2 (1.0.70), \
         but a timeout allows (1.0.67); there is no failClosed knob.",
        "The codec never signals through the exit code: it always exits 0 with the verdict on \
         stdout, and a fail-closed failure is an explicit deny JSON (tests: failure_responses_*).",
        events ["preToolUse", "permissionRequest"],
        capabilities [Deny],
        correction "Timeouts fail open, so a hung hook allows (reference copilot.md §4).",
    }
    406 {
        "agentStop/subagentStop `decision: \"block\"` is capped at 8 consecutive blocks (1.0.72); \
         re-entry is flagged as `stop_hook_active` (changelog) or `stopHookActive` (SDK types).",
        "Both spellings map to StopEvent::previously_continued; the library continuation cap \
         (default 5) stays below Copilot's 8 (fixtures: `docs/agent_stop`, \
         `docs/agent_stop-stop-hook-active-sdk`). Older releases send neither \
         (ContinuationFlag::Absent): the runner then keeps its counter across stops, so the \
         cap still ends the loop (test: releases_without_stop_hook_active_end_the_loop_at_the_cap).",
        versions ">= 1.0.72",
        events ["agentStop", "subagentStop"],
        capabilities [ContinueAgent],
    }
    407 {
        "An empty `matcher` string is a validation error (\"matcher cannot be empty\"); an absent \
         one matches everything.",
        "Install never writes an empty matcher; match-all hooks omit the key.",
        events ["preToolUse", "postToolUse", "postToolUseFailure", "permissionRequest"],
    }
    408 {
        "userPromptSubmitted output: the docs say it is ignored; the changelog says \
         `additionalContext` reaches the model since 1.0.65 (seen on 1.0.102 against a fake \
         model); `modifiedPrompt` and `decision: \"block\"` are SDK-only as far as known.",
        "AddContext is claimed from `COPILOT_CLI_BINARY_VERSION` >= 1.0.65 (and when the version \
         is unknown, since emitting the field is harmless on older releases); block and prompt \
         rewrites are not claimed (fixtures: `1.0.102/user_prompt_submitted-*`).",
        versions ">= 1.0.65",
        events ["userPromptSubmitted"],
        capabilities [AddContext, Deny],
        upstream "settled on the real CLI 1.0.102 by the agenthooks-e2e context scenario: top-level additionalContext on userPromptSubmitted reaches the model",
        status Confirmed,
    }
    409 {
        "Only top-level output fields are read in the camelCase dialect: the Claude-shaped \
         `hookSpecificOutput` and plain-text stdout are silently ignored.",
        "The camelCase encoder writes top-level fields only (tests: encode_*).",
        upstream "reference copilot.md §9 (1.0.102 against a fake model)",
    }
    410 {
        "permissionRequest fires even with --allow-all-tools, is skipped for `read` and `hook` \
         permission kinds, and merges several hooks' outputs (later wins); exit 2 means deny.",
        "Allow and deny are `behavior` fields; `interrupt` (valid only with a deny) is not \
         claimed as stop-agent (fixture: `1.0.102/permission_request-allow`).",
        events ["permissionRequest"],
        capabilities [Allow, Deny, StopAgent],
    }
    411 {
        "preToolUse `ask`: Autopilot turns it into a deny (1.0.97), and the user's denial text is \
         not passed to the agent (github/copilot-cli#2647, #4237).",
        "Ask is claimed; its reason is shown in the prompt; the loss of the user's steering text \
         is documented.",
        versions ">= 1.0.97",
        events ["preToolUse"],
        capabilities [Ask],
    }
    412 {
        "Copilot MCP tools are named `<server>-<tool>` where the server name may contain hyphens.",
        "Hyphenated names are classed MCP with an empty server; `mcp__s__t` names decode fully \
         (fixture: `docs/pre_tool_use-mcp`).",
        status Unverified,
    }
    413 {
        "`type: \"http\"` hooks to loopback are all blocked unless \
         `COPILOT_HOOK_ALLOW_LOCALHOST=1` is in Copilot's environment: preToolUse, \
         preMcpToolCall and permissionRequest http hooks are skipped at load, every other one \
         fails at each call (\"resolves to blocked address 127.0.0.1\") and is ignored. The \
         reference names the variable for the three gating events only.",
        "Install --warm keeps command hooks on Copilot unless the manifest opts in \
         (`copilot_allow_localhost = true`, `--copilot-allow-localhost`: the user set the \
         variable); preflight says why. With the opt-in every hook but sessionStart is an http \
         hook; sessionStart stays a command hook with `--warm` and starts the server.",
        versions "1.0.102 (verified live against the CLI; e2e warm-* scenarios run with the variable)",
        events ["preToolUse", "preMcpToolCall", "permissionRequest", "sessionStart", "userPromptSubmitted", "postToolUse", "agentStop", "sessionEnd"],
        status Confirmed,
        upstream "reference copilot.md §5",
    }
    414 {
        "An http hook POSTs the same camelCase payload a command hook reads on stdin, with the \
         entry's `headers`, and reads a 2xx body as the command's stdout JSON \
         (`permissionDecision`, `additionalContext`). A non-2xx status or a refused connection \
         is a hook error: on preToolUse it denies the tool (\"hook errored\", fail-closed \
         whatever the policy), elsewhere it is logged and ignored.",
        "The warm server answers with the command path's bytes (the Copilot codec always \
         exits 0 with JSON, quirk 405: no exit code to translate); preflight notes that a down \
         warm server blocks Copilot's gated tools even under a fail-open policy.",
        versions "1.0.102 (verified live against the CLI: e2e warm-deny, warm-context, warm-server-killed)",
        events ["preToolUse", "sessionStart", "userPromptSubmitted"],
        capabilities [Deny, AddContext],
        status Confirmed,
    }
    415 {
        "A model's tool call whose arguments hold a lone surrogate escape (`\"\\ud800\"`) is \
         refused by the CLI's own argument parser (\"unexpected end of hex escape\"): the tool \
         does not run, no preToolUse fires, postToolUseFailure reports the error.",
        "Nothing to do: such a call never reaches a gate. The codec still decodes lone \
         surrogates elsewhere (prompts, tool results: kit::tolerant), and the e2e deny-hostile \
         scenario is not run on Copilot (checked live: the row fails with no preToolUse call).",
        versions "1.0.102 (verified live)",
        events ["preToolUse", "postToolUseFailure"],
        status Confirmed,
        upstream "e2e deny-hostile against copilot-1.0.102 (agent stdout: `unexpected end of hex escape at line 1 column 42`)",
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_run_from_401_to_415_without_a_gap() {
        // quirk_table! checks the ids are strictly increasing: fifteen of them from 401 to 415
        // leave no gap.
        assert_eq!(
            (QUIRKS.len(), QUIRKS[0].id, QUIRKS[QUIRKS.len() - 1].id),
            (15, 401, 415)
        );
    }
}
