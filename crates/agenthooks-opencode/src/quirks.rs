//! OpenCode's entries in the quirk registry (ids 700–799, plus the design's #28, which this
//! crate owns). The seeded #18 (`permission.ask` is dead) lives in
//! [`agenthooks_core::quirks::SEEDED`].

use agenthooks_core::Quirk;

/// OpenCode's quirks, sorted by id.
pub static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
    provider "opencode";
    ids 700..800 + [28];
    28 {
        "MCP tools are named `<server>_<tool>` (the server name sanitized to [A-Za-z0-9_-]) with no \
         reserved prefix: a plugin tool can look exactly like an MCP tool.",
        "McpCall is set only when the name starts with a configured server (the `config` frame's \
         MCP names, kept per connection; the longest match wins); otherwise the tool is `other`.",
        versions "1.x",
        events ["tool.execute.before", "tool.execute.after", "permission.asked"],
        upstream "reference opencode.md §2",
    }
    701 {
        "OpenCode applies no timeout to plugin hooks: a hook that never returns stalls the tool or \
         the prompt forever.",
        "The shim owns a per-hook deadline (sent to the daemon as `timeout_ms`, which answers per \
         policy before it); past it the fail policy applies: closed throws, open does nothing.",
        versions "1.x",
        upstream "reference opencode.md §6",
    }
    702 {
        "Under plain `opencode run` the plugin's `serverUrl` is the placeholder \
         http://localhost:4096/ with nothing listening, and permission asks are auto-rejected by \
         the CLI; only a listening server (`opencode serve`, `run --attach`) takes HTTP replies \
         and follow-up prompts.",
        "Permission replies and continue-with are daemon HTTP effects; when the server does not \
         answer they are logged and dropped (the tool.execute.before throw still blocks).",
        versions "1.18.33 (checked)",
        capabilities [Allow, ContinueAgent],
        events ["permission.asked", "session.idle"],
    }
    703 {
        "A tool that throws never reaches `tool.execute.after`: the failure is only visible as a \
         `message.part.updated` tool part with `state.status: \"error\"` (a tool blocked by \
         tool.execute.before too).",
        "An errored tool part decodes as `tool.error` (message.part.updated is forwarded when \
         tool.error is subscribed).",
        versions "1.18.33",
        events ["tool.execute.after", "message.part.updated"],
    }
    704 {
        "The plugin `event` hook is typed with v1 events (`permission.updated`) but 1.18 emits the \
         v2 shape (`permission.asked`); the reply route moved to `POST /permission/{id}/reply` \
         `{reply}` and the per-session route (`{response}`) is deprecated.",
        "Both shapes decode; a v2 reply falls back to the per-session route on 404/405, a v1 event \
         uses the per-session route.",
        versions "1.18.33; v1 before ~1.1",
        events ["permission.asked", "permission.updated"],
        capabilities [Allow, Deny],
    }
    705 {
        "`session.idle` carries no stop-loop flag: nothing tells a stop hook that the turn it \
         sees was started by its own continuation.",
        "The continuation prompt is a synthetic part marked `metadata.agenthooks: \"continue\"`; \
         the next chat.message of the session records it per connection and the following \
         session.idle reports previously_continued, so the continuation cap holds.",
        events ["session.idle", "chat.message"],
        capabilities [ContinueAgent],
    }
};
