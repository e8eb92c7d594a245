//! OpenCode's entries in the quirk registry (ids 700–799, plus the design's #28, which this
//! crate owns). The seeded #18 (`permission.ask` is dead) lives in
//! [`agenthooks_core::quirks::SEEDED`].

use agenthooks_core::{Capability as C, Quirk};

const OPENCODE: &[&str] = &["opencode"];

/// OpenCode's quirks, sorted by id.
pub static QUIRKS: &[Quirk] = &[
    Quirk::new(
        28,
        OPENCODE,
        "MCP tools are named `<server>_<tool>` (the server name sanitized to [A-Za-z0-9_-]) with no \
         reserved prefix: a plugin tool can look exactly like an MCP tool.",
        "McpCall is set only when the name starts with a configured server (the `config` frame's \
         MCP names, kept per connection; the longest match wins); otherwise the tool is `other`.",
    )
    .versions("1.x")
    .events(&["tool.execute.before", "tool.execute.after", "permission.asked"])
    .upstream("reference opencode.md §2"),
    Quirk::new(
        701,
        OPENCODE,
        "OpenCode applies no timeout to plugin hooks: a hook that never returns stalls the tool or \
         the prompt forever.",
        "The shim owns a per-hook deadline (sent to the daemon as `timeout_ms`, which answers per \
         policy before it); past it the fail policy applies: closed throws, open does nothing.",
    )
    .versions("1.x")
    .upstream("reference opencode.md §6"),
    Quirk::new(
        702,
        OPENCODE,
        "Under plain `opencode run` the plugin's `serverUrl` is the placeholder \
         http://localhost:4096/ with nothing listening, and permission asks are auto-rejected by \
         the CLI; only a listening server (`opencode serve`, `run --attach`) takes HTTP replies \
         and follow-up prompts.",
        "Permission replies and continue-with are daemon HTTP effects; when the server does not \
         answer they are logged and dropped (the tool.execute.before throw still blocks).",
    )
    .versions("1.18.33 (checked)")
    .capabilities(&[C::Allow, C::ContinueAgent])
    .events(&["permission.asked", "session.idle"]),
    Quirk::new(
        703,
        OPENCODE,
        "A tool that throws never reaches `tool.execute.after`: the failure is only visible as a \
         `message.part.updated` tool part with `state.status: \"error\"` (a tool blocked by \
         tool.execute.before too).",
        "An errored tool part decodes as `tool.error` (message.part.updated is forwarded when \
         tool.error is subscribed).",
    )
    .versions("1.18.33")
    .events(&["tool.execute.after", "message.part.updated"]),
    Quirk::new(
        704,
        OPENCODE,
        "The plugin `event` hook is typed with v1 events (`permission.updated`) but 1.18 emits the \
         v2 shape (`permission.asked`); the reply route moved to `POST /permission/{id}/reply` \
         `{reply}` and the per-session route (`{response}`) is deprecated.",
        "Both shapes decode; a v2 reply falls back to the per-session route on 404/405, a v1 event \
         uses the per-session route.",
    )
    .versions("1.18.33; v1 before ~1.1")
    .events(&["permission.asked", "permission.updated"])
    .capabilities(&[C::Allow, C::Deny]),
    Quirk::new(
        705,
        OPENCODE,
        "`session.idle` carries no stop-loop flag: nothing tells a stop hook that the turn it \
         sees was started by its own continuation.",
        "The continuation prompt is a synthetic part marked `metadata.agenthooks: \"continue\"`; \
         the next chat.message of the session records it per connection and the following \
         session.idle reports previously_continued, so the continuation cap holds.",
    )
    .events(&["session.idle", "chat.message"])
    .capabilities(&[C::ContinueAgent]),
];

#[cfg(test)]
mod tests {
    use super::QUIRKS;

    #[test]
    fn ids_are_sorted_unique_and_ours() {
        assert!(agenthooks_core::quirks::ids_strictly_increasing(QUIRKS));
        assert!(QUIRKS.iter().all(|q| q.id == 28 || (700..800).contains(&q.id)));
        assert!(QUIRKS.iter().all(|q| q.providers == ["opencode"]));
    }
}
