//! Gemini CLI quirks in the 300 range (core seeds the design's #11–#15 and #20, which this codec
//! also handles: see [`CORE_QUIRKS`]).
//!
//! Each entry names the fixture or test that pins it (`upstream` cites where it was
//! established).

use agenthooks_core::Quirk;

/// The core registry's ids this codec implements a mitigation for (#11 explicit JSON on stdout,
/// #12 lossy `tool_input` merge, #13 `additionalContext` HTML escaping, #14 millisecond timeouts,
/// #15 `mcp_<server>_<tool>` names, #20 `CLAUDE_PROJECT_DIR` cross-set).
pub const CORE_QUIRKS: &[u16] = &[11, 12, 13, 14, 15, 20];

/// Gemini CLI's own quirks.
pub static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
    provider "gemini";
    ids 300..400;
    301 {
        "An AfterTool `decision: \"deny\"` replaces the tool result with \"Tool result blocked: <reason>\" — the reason is prefixed, not a verbatim replacement, and the original output no longer reaches the model.",
        "ReplaceOutput on AfterTool encodes as deny + the replacement as reason (⚠ the model sees it prefixed); FlagOutput is not a capability (a deny would hide the output) and degrades to additionalContext.",
        events ["AfterTool"],
        capabilities [ReplaceOutput, FlagOutput],
        upstream "packages/core/src/core/coreToolHookTriggers.ts; reference gemini.md §3, §5; fixture gemini-cli-0.61.0/after_tool-allow",
    }
    302 {
        "AfterModel fires once per streamed response chunk, and BeforeModel/BeforeToolSelection once per model call (several per turn, including router calls).",
        "model.request/model.response are typed but experimental; install leaves them out of default configs; handlers must be cheap.",
        events ["AfterModel", "BeforeModel", "BeforeToolSelection"],
        upstream "reference gemini.md §1; e2e captures gemini-cli-0.61.0 (two AfterModel per run); fixtures after_model-allow, after_model-allow-2",
    }
    303 {
        "Tool payloads carry no tool-call id.",
        "Ids are synthesized from session | tool | input, so BeforeTool and AfterTool of the same call correlate. ⚠ After a BeforeTool rewrite the AfterTool input differs and so does the id; identical calls in one session share an id.",
        events ["BeforeTool", "AfterTool"],
        upstream "reference gemini.md §2; fixtures gemini-cli-0.61.0/before_tool-allow + after_tool-allow",
    }
    304 {
        "`decision: \"ask\"` on BeforeTool forces a confirmation although the hook docs do not list it.",
        "Ask is in BeforeTool's capabilities and encodes as `decision: \"ask\"`.",
        events ["BeforeTool"],
        capabilities [Ask],
        upstream "packages/core/src/hooks/types.ts isAskDecision, scheduler hook-utils.ts",
        status Open,
    }
    305 {
        "An AfterAgent deny does not block: Gemini starts a new turn with the reason as the prompt, and sends `stop_hook_active: true` on that turn's AfterAgent.",
        "ContinueWith encodes as `decision: \"deny\"` + the instruction as `reason`; StopEvent::previously_continued reads stop_hook_active; fail-closed never denies AfterAgent.",
        events ["AfterAgent"],
        capabilities [ContinueAgent],
        upstream "reference gemini.md §3; fixture docs/after_agent-stop_hook_active",
    }
    306 {
        "A non-zero exit with empty stdout and empty stderr produces no hook output at all, so even exit 2 does not block; exit 1 with text is only a warning.",
        "The codec never signals through the exit code: every response is exit 0 with explicit JSON (fail-closed is a deny body).",
        capabilities [Deny],
        upstream "packages/core/src/hooks/hookRunner.ts; reference gemini.md §3 (nuance of #11)",
    }
    307 {
        "SessionEnd and PreCompress are not awaited: the CLI does not wait for the hook, so their systemMessage may never be shown.",
        "Capabilities list only system-message for them; fail-closed cannot block them.",
        events ["SessionEnd", "PreCompress"],
        capabilities [SystemMessage],
        upstream "reference gemini.md §1; fixtures pre_compress-allow, session_end-allow",
    }
    308 {
        "additionalContext reaches the model wrapped in `<hook_context>` tags (after the `<`/`>` escaping of #13), appended to the prompt (BeforeAgent), the first turn (SessionStart) or the tool result (AfterTool).",
        "Documented in the codec docs; context is sent verbatim and the wrapping is left to Gemini.",
        events ["SessionStart", "BeforeAgent", "AfterTool"],
        capabilities [AddContext],
        upstream "reference gemini.md §3; e2e README \"Context delivery\"; fixture docs/before_agent-markup",
    }
    309 {
        "MCP tool names `mcp_<server>_<tool>` are ambiguous when the server name contains an underscore; Gemini itself splits at the first underscore.",
        "mcp_context (server_name, tool_name) wins when present; otherwise Gemini's own split, documented ⚠ in agenthooks_gemini::mcp.",
        events ["BeforeTool", "AfterTool"],
        upstream "packages/core/src/tools/tool-names.ts parseMcpToolName; fixture docs/after_tool-mcp-stdio",
    }
    310 {
        "BeforeAgent: `decision: \"deny\"` blocks the turn and drops the prompt, while `continue: false` blocks but keeps the prompt in history.",
        "BlockPrompt encodes as deny; StopAgent as continue:false + stopReason.",
        events ["BeforeAgent"],
        capabilities [Deny, StopAgent],
        upstream "reference gemini.md §3",
    }
    311 {
        "Gemini's SessionStart had an open \"not firing\" regression (design §1); not reproduced with 0.61.0, where it fires on startup.",
        "None needed on 0.61.0; kept open until a real-agent run on older versions settles it.",
        events ["SessionStart"],
        versions "< 0.61.0 (unverified)",
        status Open,
        upstream "design §1; e2e captures gemini-cli-0.61.0 (SessionStart fired); fixture session_start-allow",
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_quirk_names_where_it_was_established() {
        assert!(QUIRKS.iter().all(|q| !q.upstream.is_empty()));
    }

    #[test]
    fn core_quirks_exist_and_affect_gemini() {
        for id in CORE_QUIRKS {
            let q = agenthooks_core::quirks::SEEDED
                .iter()
                .find(|q| q.id == *id)
                .unwrap_or_else(|| panic!("core has no quirk #{id}"));
            assert!(q.affects("gemini"), "#{id}");
        }
    }
}
