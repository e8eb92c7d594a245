//! Kimi Code codec for agenthooks.
//!
//! Serves Kimi Code 2.x (`@moonshot-ai/kimi-code`, checked against the real 2.1.0 CLI and the
//! `agent-core-v2` runtime source; not the older Python `kimi-cli`). The facade registers
//! [`CODEC`]; hooks are configured as `[[hooks]]` tables in `$KIMI_CODE_HOME/config.toml`
//! (`event`, `matcher`, `command`, `timeout` in seconds, default 30).
//!
//! # The dialect
//!
//! **Input.** One process per event; the payload is compact JSON on stdin with top-level
//! `snake_case` keys (nested objects keep Kimi's camelCase): `hook_event_name`, `session_id`, `cwd`,
//! `client_type`, `session_title` when the session has one, and the event's fields. No transcript
//! path, no model on tool events, no permission mode. 20 events, one row each in
//! [`native::EVENTS`] (the single source of their facts: kind, capabilities, fail-closed answer,
//! timeout clamp); the native structs in [`native`] type every field and keep unknown keys.
//! Decoding is tolerant: only the event name and, on tool events, `tool_name` are required, so
//! payloads of older releases (no `client_type`, no `session_id` on subagent events, a string
//! `error`, …) still reach handlers as their kind (see [`native`]).
//!
//! **Output.** Only `PreToolUse`, `UserPromptSubmit` and `Stop` can change anything (the rows
//! marked `blocking`). `SessionStart`, `SessionEnd`, `SubagentStart` and `PreCompact` are awaited
//! but their output is ignored; every other event is fire-and-forget (quirk #501).
//!
//! | decision | what the codec writes | exit |
//! |---|---|---|
//! | no decision (any event) | nothing | 0 |
//! | `deny` on `PreToolUse` | `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":R}}` | 0 |
//! | `block_prompt` on `UserPromptSubmit` | the same deny, plus `"message": M` when a distinct block message was set | 0 |
//! | context on `UserPromptSubmit` | `{"message":"line1\nline2"}` | 0 |
//! | `continue_with` on `Stop` | the same deny, with the instruction as the reason | 0 |
//!
//! With [`BlockStyle::ExitCode`] ([`KimiCodec::with_block_style`]) blocks are exit 2 with the
//! reason on stderr instead; both forms block on the real CLI. The default JSON form keeps stderr
//! free, so logs may go there ([`agenthooks_core::StderrUse::Logs`]): Kimi reads stderr only on
//! exit 2.
//!
//! **Capabilities** (the rows' `caps`): `PreToolUse` {deny}; `UserPromptSubmit`
//! {deny, add-context}; `Stop` {continue-agent}; everything else, `SessionStart` included, none.
//! Allow, ask, input rewrites, system messages and stop-agent are not understood anywhere and are
//! degraded by the runner's policy, never silently dropped (quirk #22).
//!
//! **Failure.** Kimi itself is hard fail-open: a crash, timeout or any exit other than 0/2 allows
//! (quirk #21). Under a fail-closed policy (the rows' `failure`) the codec answers a failed
//! handler on `PreToolUse` and `UserPromptSubmit` with a deny; on `Stop` it answers the no-op (a
//! "blocked" stop would keep the agent going), and fire-and-forget events cannot block.
//!
//! **Timeouts.** Kimi's default is 30 s (`timeout`, 1–600 s: every row clamps at
//! [`native::MAX_TIMEOUT_SECS`]); on timeout it sends SIGTERM to the hook's process group and
//! SIGKILL 100 ms later. Kimi has no async hooks.
//!
//! # Mapping
//!
//! `PreToolUse` → `tool.pre`, `PostToolUse` → `tool.post`, `PostToolUseFailure` → `tool.error`,
//! `PermissionRequest` → `permission.request` (observation only), `UserPromptSubmit` →
//! `prompt.submitted`, `Stop` → `agent.stop`, `SessionStart`/`SessionEnd` → `session.*`,
//! `SubagentStart`/`SubagentStop` → `subagent.*`, `PreCompact`/`PostCompact` → `compact.*`,
//! `Notification` → `notification`. `PermissionResult`, `UserPromptQueued`, `TurnStarted`,
//! `StopFailure`, `Interrupt`, `SessionHeartbeat` and `TaskStarted` are `other` (reasons on
//! [`native`]); [`view`] gives every event's native struct, [`view_as`] one event's.
//!
//! Lossy projections:
//! - ⚠ `tool.error`: [`ToolErrorEvent::error`](agenthooks_core::ToolErrorEvent) is the error
//!   object's `message`; `code`, `retryable`, `details` and `cause` are only in the native view
//!   (quirk #504).
//! - ⚠ `prompt.submitted`: a content-part prompt becomes its text parts joined with `\n`;
//!   images, audio and video parts are only in the native view ([`native::Prompt::parts`]).
//! - ⚠ A field of a shape no release sent is not in the projection: it is kept in the native
//!   view's `extra` and listed on
//!   [`Envelope::projection_issues`](agenthooks_core::Envelope::projection_issues); without
//!   `tool_name` the projection's tool name is empty and the native view is
//!   [`native::NativeEvent::Other`].
//! - ⚠ `tool.post`: the output is Kimi's text rendering, already cut to 2000 characters.
//! - ⚠ `subagent.start`/`subagent.stop`: Kimi sends the subagent's name, not an id
//!   ([`AgentInfo::agent_type`](agenthooks_core::AgentInfo) is the name, the id is empty).
//! - ⚠ MCP tools: `mcp__server__tool` names are Kimi's sanitized ones, and names longer than 64
//!   characters are cut and hashed ([`tools::parse_mcp`]).
//! - ⚠ A context attached to a blocked prompt is not delivered (the model is not called), and a
//!   distinct block message is lost on `PreToolUse` and under [`BlockStyle::ExitCode`].
//! - ⚠ `Stop` continues at most once per turn and `stop_hook_active` is always `false` (quirk
//!   #24); `SessionEnd` does not fire under `kimi -p` (quirk #502); `SessionStart` output never
//!   reaches the model (quirk #503).
//!
//! # Slow work on fire-and-forget events
//!
//! Kimi kills `PostToolUse`/`PostToolUseFailure` hooks ~15–100 ms after they start (quirk #501).
//! [`detach`] is an opt-in helper that hands slow work to a detached copy of the hook binary.
//!
//! # Non-goals
//!
//! The Python `kimi-cli` 1.x (`~/.kimi/config.toml`, different events) is not served; its tool
//! names are classified by [`tools`] only.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod codec;
pub mod detach;
pub mod mcp_config;
pub mod native;
pub mod output;
pub mod quirks;
pub mod tools;
pub mod transcript;

pub use codec::{BlockStyle, KimiCodec, DEFAULT_TIMEOUT};

agenthooks_core::kit::provider_surface! {
    /// The codec the facade registers (JSON blocks).
    codec KimiCodec;
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
