//! Kimi Code's entries in the quirk registry.
//!
//! The design's #21–#24 and #30 keep their numbers (corrected against the Kimi Code 2.x source
//! and the real 2.1.0 CLI); what the real CLI showed beyond them is numbered in Kimi's 500 range.

use agenthooks_core::Quirk;

/// Every quirk this codec encodes, ordered by id.
pub static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
    provider "kimi";
    ids 500..600 + [21, 22, 23, 24, 30];
    21 {
        "Kimi Code is hard fail-open: a crash, a timeout (SIGTERM to the hook's process group, SIGKILL 100 ms later), a spawn error, an abort and any exit code other than 0 or 2 all allow; there is no failClosed switch in 2.1.0.",
        "A fail-closed policy is enforced in process: handler errors, panics and deadline misses on PreToolUse and UserPromptSubmit are answered with a JSON deny. Only a crash or kill of the hook binary itself still falls open. Stop is never \"failed closed\" (blocking a Stop would force the agent to keep going).",
        events ["PreToolUse", "UserPromptSubmit", "Stop"],
        capabilities [Deny],
        upstream "kimi-code agent-core-v2 externalHooks/internal/runHook.ts; reference kimi.md §3",
        correction "Confirmed. A newer upstream docs revision mentions a per-hook `fail_mode = \"closed\"`; it is not part of the 2.1.0 contract and install does not render it.",
    }
    22 {
        "Hook output understands only `hookSpecificOutput.permissionDecision: \"deny\"` (+ `permissionDecisionReason`) and a `message`; `allow` and `ask` are ignored, and there is no updatedInput, additionalContext, continue, systemMessage or suppressOutput.",
        "Capabilities say so: allow degrades to no-decision (Kimi's own flow runs, which is what its `allow` does), ask per Policy::ask_fallback, rewrites, system messages and stop-agent are dropped with a logged degradation or rejected under a strict policy.",
        events ["PreToolUse", "UserPromptSubmit", "Stop"],
        capabilities [Ask, Allow, UpdateInput, SystemMessage, StopAgent],
        upstream "kimi-code runHook.ts HookJsonOutputSchema",
        correction "`allow` is a no-op, not a skip-the-prompt (the design listed deny|allow).",
    }
    23 {
        "Blocking is exit 2 with the trimmed stderr as the reason (an empty stderr still blocks, as \"Blocked by <event> hook\") or a JSON deny on exit 0, on all three gating events. On UserPromptSubmit, exit-0 plain stdout — or a JSON `message` — is appended to the context as a user message; plain stdout that parses as a JSON object counts as structured output instead.",
        "The codec answers with a JSON deny on exit 0 (stderr stays free for logs; `KimiCodec::with_block_style(BlockStyle::ExitCode)` selects exit 2), sends prompt context as a JSON `message` (never ambiguous plain text), and its no-op is empty stdout.",
        events ["PreToolUse", "UserPromptSubmit", "Stop"],
        capabilities [Deny, AddContext, ContinueAgent],
        upstream "kimi-code runHook.ts, userPrompt.ts; verified on the real 2.1.0 CLI (deny by exit 2 and by JSON)",
        correction "JSON deny is honoured on UserPromptSubmit and Stop too, and JSON `message` is a second context route (the design had exit 2 and plain stdout only).",
    }
    24 {
        "Matching hooks run in parallel and the first block wins; hooks with an identical command (per cwd) run once. A Stop block continues the turn at most once: a second Stop in the same turn is not run, so `stop_hook_active` is always false in 2.x.",
        "Install keeps each hook's command distinct. StopEvent::previously_continued mirrors `stop_hook_active` (false); the one-per-turn cap is Kimi's own, so a continue_with on the turn's second stop cannot happen.",
        events ["Stop"],
        capabilities [ContinueAgent],
        upstream "kimi-code matchHooks.ts runMatchedHooks; agentExternalHooksService.ts runStop",
        correction "The flag never becomes true in 2.x (it did in the older runtime the design observed).",
    }
    30 {
        "Non-interactive print mode (`-p`) did not fire UserPromptSubmit.",
        "None needed on 2.x: the real 2.1.0 CLI fires UserPromptSubmit in `-p` mode (with the prompt as content parts). No prompt.submitted is backfilled for Kimi.",
        versions "0.22.2 (fixed by 2.1.0)",
        events ["UserPromptSubmit"],
        status FixedUpstream,
        upstream "verified on kimi-code 2.1.0 (shared/e2e captured allow.jsonl)",
    }
    501 {
        "Fire-and-forget hooks run under the abort signal of what triggered them: PostToolUse and PostToolUseFailure hooks get SIGTERM ~15–100 ms after they start (when the tool call finishes), their whole process group with them.",
        "Treat these events as observe-only and keep handlers fast. Slow work (uploads, network calls) goes through the opt-in `agenthooks_kimi::detach` helper, which re-spawns the hook binary in its own process group with null stdio and answers at once.",
        versions "2.1.0",
        events ["PostToolUse", "PostToolUseFailure"],
        upstream "verified on the real 2.1.0 CLI (shared/e2e README); agentExternalHooksService.ts notifyPostToolUse passes ctx.signal",
    }
    502 {
        "SessionEnd does not fire in non-interactive print mode (`-p`).",
        "Documented: do not rely on session.end for cleanup under `kimi -p`.",
        versions "2.1.0",
        events ["SessionEnd"],
        upstream "verified on the real 2.1.0 CLI (shared/e2e README)",
    }
    503 {
        "SessionStart hooks are awaited but their output never reaches the model, in any form (plain stdout or JSON message).",
        "SessionStart has an empty capability set: context on session.start is dropped with a logged degradation (or rejected under a strict policy).",
        versions "2.1.0",
        events ["SessionStart"],
        capabilities [AddContext],
        upstream "verified on the real 2.1.0 CLI (reference kimi.md §8)",
    }
    504 {
        "PostToolUseFailure.error is an object {code, message, name?, details?, retryable, cause?}, PostToolUse.tool_output a string cut to 2000 characters, UserPromptSubmit.prompt an array of content parts (even for plain text), turn_id a number.",
        "Native structs type them so (an old string `error` still decodes); ToolErrorEvent::error is the message and ToolPostEvent::output the string; the full error object and the parts stay in the native view.",
        events ["PostToolUseFailure", "PostToolUse", "UserPromptSubmit"],
        upstream "kimi-code agentExternalHooksService.ts; captured payloads of 2.1.0",
        correction "The Go port typed `error` as a string and `tool_output` as an object.",
    }
    505 {
        "PermissionRequest and PermissionResult are observation only, and PreToolUse runs before Kimi's permission checks: a hook cannot answer an approval prompt.",
        "permission.request has an empty capability set (deny/allow/ask on it degrade); gate on tool.pre instead, where a deny also skips the approval prompt.",
        events ["PermissionRequest", "PermissionResult", "PreToolUse"],
        capabilities [Deny, Allow, Ask],
        upstream "kimi-code agentExternalHooksService.ts registerPermissionHooks (fireAndForget)",
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_design_numbered_quirks_are_here() {
        let ids: Vec<u16> = QUIRKS.iter().map(|q| q.id).collect();
        for id in [21, 22, 23, 24, 501, 502] {
            assert!(ids.contains(&id), "missing quirk #{id}");
        }
    }

    #[test]
    fn quirk_events_are_native_kimi_events() {
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
