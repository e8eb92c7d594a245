//! Cursor's entries in the quirk registry (ids 600–699, plus the design's #29 and #31, which
//! this crate owns). The seeded entries that concern Cursor — #2 double fire, #3 `MCP:` names
//! and missing ids, #4 snake_case output, #5 stringified inputs, #6 argv/variants, #7
//! fail-open, #15 MCP naming, #16 blind spots (`AskQuestion` fires no hooks), #19 loop guards,
//! #20 cross-set env — live in [`agenthooks_core::quirks::SEEDED`].
//!
//! No Cursor build can run here: behaviour is judged by the testkit's Cursor fake agent,
//! written from `reference/providers/cursor.md`. Where the reference marks a statement as
//! uncertain (a third-party read of the CLI bundle, an unconfirmed design item, an undocumented
//! detail), the entry says so with [`QuirkStatus::Unverified`](agenthooks_core::QuirkStatus::Unverified) or
//! [`QuirkStatus::Open`](agenthooks_core::QuirkStatus::Open).

use agenthooks_core::Quirk;

/// Cursor's quirks, sorted by id.
pub static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
    provider "cursor";
    ids 600..700 + [29, 31];
    29 {
        "Cursor parses hooks.json as JSONC with a naive `//` comment stripper: a `//` inside any \
         string (a `scheme://` URL in a command) breaks the whole file, and one unknown event key \
         or one un-compilable matcher regex discards it too.",
        "Install rejects commands containing `://`, writes only event keys this crate knows, and \
         compiles every matcher as an unanchored JS regex before writing.",
        upstream "reference cursor.md §5 (BUNDLE 2026.09.18)",
    }
    31 {
        "The CLI's print mode (`-p`) fires neither beforeSubmitPrompt nor stop; the interactive \
         CLI dispatches them only when a native Cursor hooks.json registers them.",
        "Prompt handlers that opt in (`Router::backfill_prompts`) get a backfilled, reporting-only \
         prompt.submitted from the session's transcript at its next event (when the payload names \
         one: `transcript_path` is null while transcripts are off); stop handlers do not run under \
         `cursor-agent -p`. Install always writes native hooks.json entries.",
        versions "cursor-agent 2026.02+",
        events ["beforeSubmitPrompt", "stop"],
        upstream "reference cursor.md §2 (live probe 2026.02.13; BUNDLE)",
    }
    601 {
        "Exit 0 with empty stdout is an `empty_stdout` failure, not a no-op; invalid or \
         schema-invalid JSON on a permission hook blocks the action even without `failClosed`.",
        "The no-op is `{}` on every event; the runner redirects stray stdout so handler output \
         never corrupts the answer.",
        capabilities [Deny],
        upstream "reference cursor.md §4 (docs + BUNDLE)",
    }
    602 {
        "beforeSubmitPrompt reads `additional_context` (also `additionalContext` and Claude's \
         `hookSpecificOutput.additionalContext`) in the 2026.09.18 CLI bundle; the docs list only \
         `continue` and `user_message`.",
        "Context on the prompt is a capability only for CLI builds from 2026.09.18; elsewhere it \
         degrades (dropped, logged) rather than being sent to a build that may ignore it.",
        versions "cursor-agent >= 2026.09.18",
        events ["beforeSubmitPrompt"],
        capabilities [AddContext],
        status Unverified,
        upstream "reference cursor.md §4 (BUNDLE only)",
    }
    603 {
        "afterMCPExecution honours `updated_mcp_tool_output` according to the Go prototype; \
         Cursor's docs list no output for it.",
        "replace_output is a capability of afterMCPExecution (and of postToolUse for `MCP:` \
         tools); the fake agent applies it.",
        events ["afterMCPExecution", "postToolUse"],
        capabilities [ReplaceOutput],
        status Unverified,
        upstream "reference cursor.md §2, §4; speakeasy-api/agenthooks codec_cursor.go",
    }
    604 {
        "Cursor joins the `additional_context` of all matching hooks with `\\n\\n---\\n\\n` and \
         drops the result entirely when it exceeds 10 000 characters.",
        "The encoder cuts one hook's context to 10 000 characters with a visible marker (⚠), so \
         the context is shortened instead of silently lost.",
        capabilities [AddContext],
        status Unverified,
        upstream "reference cursor.md §4 (BUNDLE)",
    }
    605 {
        "No documented payload field or env var identifies a cloud agent; cloud agents fire no \
         session hooks, so `is_background_agent` is rarely seen.",
        "Variant `cloud` comes from `--variant=cloud` or `is_background_agent: true`; otherwise a \
         cloud run is detected as cli/ide by `cursor_version`. The variants differ only on events \
         cloud never fires, and the MCP dedup does not depend on the variant.",
        status Open,
        upstream "reference cursor.md §2, §3",
    }
    606 {
        "preToolUse applies `updated_input` even without a `permission` (BUNDLE); `ask` is \
         parsed but not enforced there.",
        "A rewrite without a verdict is a capability of preToolUse (neutral-rewrite); ask \
         degrades per `ask_fallback`.",
        events ["preToolUse"],
        capabilities [UpdateInput, NeutralRewrite, Ask],
        status Unverified,
        upstream "reference cursor.md §4 (docs: ask not enforced; BUNDLE: rewrite without verdict)",
    }
    607 {
        "Claude-compat: Cursor runs the hooks of `.claude/settings*.json` with Cursor payloads and \
         honours Claude reply shapes; which event names it sends to them is undocumented. A hook \
         installed for both Claude Code and Cursor fires twice under Cursor (deduped only when the \
         command strings are byte-identical), with `loop_limit: null` for the Claude copy.",
        "A Cursor payload under `--provider=claude-code` is detected with certainty and answered \
         in Cursor's dialect; Claude event names on a Cursor payload are read as their Cursor \
         events; the library's continuation cap bounds loops; doctor warns about double installs.",
        status Open,
        upstream "reference cursor.md §5, §6 (BUNDLE `enableClaudeNestedHookSpecificOutputCompatibility`)",
    }
    608 {
        "Which of preToolUse and the specific before* event fires first is not documented, nor \
         the input key of the Read tool on preToolUse.",
        "Dedup is order-independent (first arrival wins; keys use the command, `file_path`/`path`/\
         `target_file`, or tool + canonical input); a key mismatch degrades to double delivery. \
         The generic MCP echo never claims, so the first MCP call of a conversation may be \
         delivered twice.",
        events ["preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"],
        status Open,
        upstream "reference cursor.md §2, §6",
    }
    609 {
        "Cursor matches `matcher` against the command string on beforeShellExecution, the tool \
         type on the file events and (probably) the bare tool name on beforeMCPExecution.",
        "Install writes tool matchers only on preToolUse/postToolUse/postToolUseFailure; the other \
         events match all and the runner filters in process.",
        events ["beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "afterFileEdit"],
        status Unverified,
        upstream "reference cursor.md §2",
    }
    610 {
        "subagentStart (allow/deny, ask = deny) and beforeTabFileRead (allow/deny) are gates in \
         Cursor, but their unified kinds (`subagent.start`, `other`) have no gate decision.",
        "Their permission is native-only (`output::PermissionOutput`); fail-closed still answers a \
         deny body.",
        events ["subagentStart", "beforeTabFileRead"],
        capabilities [Deny],
        upstream "reference cursor.md §4",
    }
    611 {
        "Exit 2 is a deny on permission hooks and blocks beforeSubmitPrompt, but on sessionStart it \
         means `continue: false` (not enforced) and on stop it reads as `{}`.",
        "Fail-closed answers a deny/`continue:false` body on the events that can block and the \
         no-op elsewhere; exit 2 only for an event the codec cannot name.",
        events ["sessionStart", "stop"],
        capabilities [Deny],
        upstream "reference cursor.md §4",
    }
};
