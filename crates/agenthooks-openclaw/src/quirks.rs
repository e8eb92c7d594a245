//! OpenClaw's entries in the quirk registry (ids 800–899; the design's #34–#37 are the first
//! four, re-verified against 2026.9.6). Each has a test case in the crate's integration tests.

use agenthooks_core::Quirk;

/// OpenClaw's quirks, sorted by id.
pub static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
    provider "openclaw";
    ids 800..900;
    801 {
        "Conversation-scope hooks (before_model_resolve, agent_turn_prepare, before_prompt_build, \
         before_agent_reply, llm_input, llm_output, before_agent_finalize, agent_end, \
         before_agent_run) are not run for a non-bundled plugin unless \
         `plugins.entries.<id>.hooks.allowConversationAccess` is true.",
        "Install writes `allowConversationAccess: true` whenever one of those hooks is wired.",
        versions "2026.6.x – 2026.9.6",
        events ["before_agent_run", "before_prompt_build", "before_agent_finalize", "llm_input", "llm_output", "agent_end"],
        upstream "design #34; docs/plugins/hooks.md (2026.9.6)",
    }
    802 {
        "Tool-scope contexts (`PluginHookToolContext`) carry no `workspaceDir` and no model; only \
         agent-scope contexts do.",
        "The daemon keeps them per connection (by run id, then session key) and backfills \
         `session.cwd` and `session.model` of tool frames.",
        events ["before_tool_call", "after_tool_call"],
        upstream "design §8.1; hook-runner-global.d.ts PluginHookToolContext",
    }
    803 {
        "`gateway_start`/`gateway_stop` contexts carry the whole Gateway config (`ctx.config`, \
         API keys and tokens included); `reply_dispatch` carries it as `ctx.cfg`.",
        "The shim removes `config`/`cfg` (and every function or handle) from each context \
         before the frame leaves the Gateway process; a test proves no key reaches the daemon.",
        events ["gateway_start", "gateway_stop", "reply_dispatch"],
        upstream "design #36; captured gateway-allow.jsonl (2026.9.6)",
    }
    804 {
        "`before_tool_call` and `before_agent_run` have a 15 s fail-closed host budget (a throw \
         or a timeout blocks); timeouts do not cancel the handler.",
        "The shim awaits gates under its own deadline (10 s by default, below the budget; install \
         raises `hooks.timeouts.*` above it), applies the consumer's fail policy itself when the \
         daemon does not answer, and reports the local decision (`agenthooks_local_decision`) so \
         the call's `after_tool_call` decodes as tool.error.",
        events ["before_tool_call", "before_agent_run", "after_tool_call"],
        capabilities [Deny],
        correction "The design (2026.6.34) said OpenClaw applies no deadline of its own to gates.",
        upstream "design #37; docs/plugins/hooks.md execution model (2026.9.6)",
    }
    805 {
        "In embedded `agent --local` runs `llm_output` fires after `agent_end`, so the run's final \
         text and usage are not known yet when `agent_end` arrives.",
        "The daemon splices a cached `llm_output` into `agent_end` (`AgentEnd::run_output`) when \
         it arrived first (Gateway runs); otherwise `agent_end.messages` holds the final text.",
        versions "2026.9.6",
        events ["agent_end", "llm_output"],
        upstream "captured allow.jsonl (2026.9.6)",
    }
    806 {
        "`openclaw agent exec` loads plugins in discovery mode and fires no typed hook, while the \
         turn itself succeeds.",
        "Doctor warns; the e2e suite runs `agent --local`.",
        versions "2026.9.6",
        upstream "shared/e2e/README.md",
    }
    807 {
        "When the Gateway delegates the loop to an external CLI harness (Claude Code CLI), OpenClaw's \
         own tool and llm hooks may not fire.",
        "Documented coverage caveat; capabilities are those of OpenClaw's own loop.",
        versions "design 2026.6.34; not re-verified in 2026.9.6",
        events ["before_tool_call", "after_tool_call", "llm_input", "llm_output"],
        status Unverified,
        upstream "design #35; docs/plugins/cli-backend-plugins.md",
    }
    808 {
        "`before_tool_call` has no allow: `block: false` means no decision; the first \
         `requireApproval` wins, and an approval nobody answers denies.",
        "Allow is not a capability (it degrades to no decision, a rewrite is kept); ask renders \
         `requireApproval {title, description}`.",
        events ["before_tool_call"],
        capabilities [Allow, Ask],
        upstream "docs/plugins/hooks/tool-policy.md (2026.9.6)",
    }
    809 {
        "`before_agent_finalize` asking for a revision is refused once the turn ran a tool with \
         potential side effects (\"requested revision after potential side effects; finalizing\"); \
         in a turn without tool calls the revision runs another model pass with the instruction.",
        "Documented on agent.stop: continue-with reaches the model only for turns without \
         side-effecting tools; the e2e continue-with turn has none.",
        versions "2026.9.6",
        events ["before_agent_finalize"],
        capabilities [ContinueAgent],
        upstream "e2e run (agent --local), 2026.9.6",
    }
};
