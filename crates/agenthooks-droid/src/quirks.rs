//! Factory Droid's quirks (ids 1000–1099), each checked against the real 0.215.0 binary (its hook
//! runner's source in the bundle and live runs offline).

use agenthooks_core::Quirk;

/// Droid's entries in the quirk registry.
pub static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
    provider "droid";
    ids 1000..1100;
    1000 {
        "Droid is fail-open: a crash, a spawn error, a timeout (SIGTERM to the hook's process tree, SIGKILL 2 s later, reported as exit 1) and any exit code other than 2 or 3 let the call proceed; exit 1 with stderr is a warning. Exit 3 aborts the whole agent turn (Droid's own code).",
        "A fail-closed policy is enforced in process: handler errors, panics and deadline misses on PreToolUse and UserPromptSubmit are answered with a JSON deny. Only a crash or kill of the hook binary itself still falls open.",
        versions "0.215.0",
        events ["PreToolUse", "UserPromptSubmit", "Stop", "PostToolUse"],
        capabilities [Deny],
        upstream "droid 0.215.0 bundle: N0H.executeCommand (timeout → exit 1), ZaM (PreToolUse exit 2/3)",
    }
    1001 {
        "`droid exec` (headless) never fires UserPromptSubmit: only the interactive and JSON-RPC paths run it. SessionStart, PreToolUse, PostToolUse, Stop and SessionEnd fire.",
        "Documented; prompt handlers that must see headless prompts opt into prompt backfill from the transcript (`Router::backfill_prompts`), which reports and never gates.",
        versions "0.215.0",
        events ["UserPromptSubmit"],
        upstream "verified on the real 0.215.0 CLI (exec with text, json and stream-json output)",
    }
    1002 {
        "Only the first hook (in configuration order) whose JSON carries a `permissionDecision` counts: a later hook's JSON deny is ignored after an earlier allow, while exit 2 from any hook still denies. `ask` is only logged (Droid's own permission check then runs).",
        "Install writes one hook per event, so our answer is the only JSON decision. Ask is not a capability: it degrades per Policy::ask_fallback.",
        versions "0.215.0",
        events ["PreToolUse"],
        capabilities [Ask],
        upstream "droid 0.215.0 bundle: ZaM, T.find(J => J.hookSpecificOutput?.permissionDecision)",
    }
    1003 {
        "`updatedInput` is merged over the model's input (`{...input, ...updatedInput}`), with or without a verdict: a rewrite can change and add keys but never remove one.",
        "The codec sends the whole rewritten input, so every key the handler keeps or changes arrives; a key the handler dropped keeps its original value.",
        versions "0.215.0",
        events ["PreToolUse"],
        capabilities [UpdateInput, NeutralRewrite],
        upstream "droid 0.215.0 bundle: ZaM (A = {...A, ...J.updatedInput})",
    }
    1004 {
        "Of Claude's output keys Droid reads `continue`, `stopReason`, `suppressOutput`, `systemMessage`, `decision`, `reason` and `hookSpecificOutput.{permissionDecision, permissionDecisionReason, additionalContext, updatedInput}`. `decision: \"block\"` counts on Stop only (and only with a non-empty `reason`); on UserPromptSubmit a block is `continue: false` (reason from `stopReason`) or exit 2; a PreToolUse `systemMessage` is only logged.",
        "The codec blocks prompts with `continue: false` + `stopReason`, continues a Stop with `decision: block` and a non-empty reason (Droid's own default text when the instruction is empty), and PreToolUse has no system-message capability.",
        versions "0.215.0",
        events ["UserPromptSubmit", "Stop", "PreToolUse"],
        capabilities [SystemMessage, ContinueAgent],
        upstream "droid 0.215.0 bundle: executeUserPromptSubmitHooks, the Stop branch of the agent loop",
    }
    1005 {
        "Hooks are read from `hooks.json` and from the `hooks` key of `settings.json` in `~/.factory/` and `<project>/.factory/`. Within one folder `hooks.json` replaces `settings.json`'s list per event (a shallow merge); across folders the lists are concatenated. A file with one entry that fails Droid's schema (a handler type other than `command`) is ignored whole.",
        "Install writes `hooks.json` (user or project) and only `type: command` handlers.",
        versions "0.215.0",
        events ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "Notification", "PreCompact", "SessionStart", "SessionEnd"],
        upstream "droid 0.215.0 bundle: loadHooks / mergeHookSettings, the hooks schema",
    }
    1006 {
        "Stop's `tool_execution_count` is 0 even after tools ran, SubagentStop's `stop_hook_active` is always false, and SessionStart at startup reports `permission_mode: \"off\"` whatever `--auto` says.",
        "The fields are kept as sent in the native view; nothing in the projection depends on them.",
        versions "0.215.0",
        events ["Stop", "SubagentStop", "SessionStart"],
        upstream "captured payloads of the real 0.215.0 CLI",
    }
    1007 {
        "MCP tools are named `<server>___<tool>` (three underscores, no prefix), characters outside `[A-Za-z0-9_-]` replaced by `_`, cut to 64 characters with a hash suffix.",
        "tools::classify and tools::parse_mcp split on `___` (mcp_config::MANGLING resolves the server); the ToolTable carries no McpNaming (it needs a prefix), so install has no MCP name scheme for Droid's matchers. Verified live: the e2e mcp scenario resolves `shop_db___lookup_order`. Droid offers MCP tools deferred: the model loads one with `ToolSearch` before calling it.",
        versions "0.215.0",
        events ["PreToolUse", "PostToolUse"],
        upstream "droid 0.215.0 bundle: Jwf / XN; the live e2e mcp scenario",
    }
    1008 {
        "A matcher is an unanchored regular expression over the tool name (or SessionStart's source); empty or `*` matches everything. `commandRegex` additionally filters Execute calls by their command.",
        "Install writes anchored alternations (`^(?:Execute|Create)$`) for tool classes.",
        versions "0.215.0",
        events ["PreToolUse", "PostToolUse", "SessionStart"],
        upstream "droid 0.215.0 bundle: wnI / PeL",
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quirk_events_are_native_droid_events() {
        for q in QUIRKS {
            for e in q.events {
                assert!(
                    crate::native::EVENTS.iter().any(|s| s.name == *e),
                    "quirk #{} names unknown event {e}",
                    q.id
                );
            }
        }
    }
}
