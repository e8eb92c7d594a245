//! Qwen Code codec for agenthooks.
//!
//! Qwen Code (npm `@qwen-code/qwen-code`, a Gemini CLI fork) speaks a Claude-shaped hook
//! dialect: Claude Code's event names and output fields, Gemini's `timestamp` on every payload,
//! hooks in `settings.json` (user `~/.qwen/`, project `.qwen/`) with `command` and `http`
//! handlers. This crate decodes every native event of the pinned release (0.24.4, 22 events)
//! into the core's typed [`Event`](agenthooks_core::Event) and encodes every decision in Qwen's
//! dialect. Register [`CODEC`] with the runner. Every wire fact below was read from the installed
//! 0.24.4 bundle (`packages/core/src/hooks/…`); where it disagrees with Qwen's docs, the bundle
//! wins and [`quirks::QUIRKS`] (ids 901–915) records it.
//!
//! ```
//! use agenthooks_core::{decision::deny, Codec, Event, Invocation};
//! use agenthooks_qwen::{native, view_as, CODEC};
//! use std::collections::HashMap;
//!
//! let payload = br#"{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w",
//!   "hook_event_name":"PreToolUse","timestamp":"2026-12-02T10:00:00.000Z",
//!   "permission_mode":"yolo","prompt_id":"p1","tool_name":"run_shell_command",
//!   "tool_input":{"command":"rm -rf /"},"tool_use_id":"toolu_1"}"#;
//! let env: HashMap<String, String> = HashMap::new();
//! let event = CODEC.decode(&Invocation::new(payload.to_vec(), &env))?;
//! let Event::ToolPre(pre) = &event else { unreachable!() };
//! assert_eq!(pre.tool.command(), Some("rm -rf /"));
//! assert_eq!(pre.envelope.session.turn_id, "p1");
//! let native: &native::PreToolUse = view_as(event.envelope()).unwrap();
//! assert_eq!(native.tool_use_id.as_deref(), Some("toolu_1"));
//!
//! let wire = CODEC.encode(&event, &deny("destructive command").into())?;
//! assert_eq!(
//!     wire.stdout_str(),
//!     r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"destructive command"}}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The dialect
//!
//! **Input**: one `snake_case` JSON object on stdin per hook process (an `http` hook gets the
//! same object as its POST body). Base fields `session_id`, `transcript_path`, `cwd`,
//! `hook_event_name`, `timestamp`, and since 0.15 `permission_mode`, `prompt_id`, `agent_id`
//! (in a subagent). Tool events add `tool_name`, `tool_input`, `tool_use_id` and the API's
//! `tool_call_id`. Only `hook_event_name` and, on tool events, `tool_name` are required.
//!
//! | native event | unified kind | what a hook can do (capabilities) |
//! |---|---|---|
//! | `PreToolUse` | `tool.pre` | deny, ask, context (without a deny or ask), system message |
//! | `PermissionRequest` | `permission.request` | allow (with rewritten input), deny, system message |
//! | `PostToolUse` | `tool.post` | context, system message |
//! | `PostToolUseFailure` | `tool.error` | context, system message |
//! | `UserPromptSubmit` | `prompt.submitted` | block (deny), context, stop agent, system message |
//! | `Stop` / `SubagentStop` | `agent.stop` / `subagent.stop` | continue with an instruction, system message |
//! | `SessionStart` / `SubagentStart` | `session.start` / `subagent.start` | context, system message |
//! | `PreCompact` / `PostCompact` | `compact.pre` / `compact.post` | context (compaction instructions) / system message |
//! | `SessionEnd` | `session.end` | system message |
//! | `Notification` | `notification` | system message |
//! | `MessageDisplay` | `model.response` (display text so far, not awaited) | — |
//! | `PostToolBatch`, `UserPromptExpansion` | `other` | context, system message |
//! | `PermissionDenied`, `TodoCreated`, `TodoCompleted`, `InstructionsLoaded` | `other` | system message |
//! | `SessionDelete`, `StopFailure` | `other` (not awaited, output ignored) | — |
//!
//! **Output**: exit 0 with compact JSON on stdout, Claude's fields: `continue`, `stopReason`,
//! `systemMessage`, `decision: "block"` + `reason`, `hookSpecificOutput` {`hookEventName`,
//! `permissionDecision` + `permissionDecisionReason` (`PreToolUse`), `decision {behavior,
//! updatedInput | message}` (`PermissionRequest`), `additionalContext`}. `{}` for no decision.
//! Qwen parses stderr when stdout is empty and on exit 2 (read as
//! `{"decision":"deny","reason":stderr}`), so logs never go to stderr
//! ([`StderrUse::Reserved`](agenthooks_core::StderrUse::Reserved)).
//!
//! | decision | wire |
//! |---|---|
//! | `deny(r)` / `ask_user(r)` on `PreToolUse` | `hookSpecificOutput.permissionDecision` `deny` / `ask` + `permissionDecisionReason` |
//! | `allow()` / `deny(r)` on `PermissionRequest` | `hookSpecificOutput.decision {behavior, updatedInput \| message}` |
//! | `block_prompt(r)` on `UserPromptSubmit` | `{"decision":"block","reason":r}` |
//! | `continue_with(i)` on `Stop` / `SubagentStop` | `{"decision":"block","reason":i}`: another turn with `i` as the prompt |
//! | `with_context(c)` | `hookSpecificOutput.additionalContext` |
//! | `stop_agent(r)` | `{"continue":false,"stopReason":r}` |
//! | `with_system_message(m)` | `{"systemMessage":m}` |
//!
//! **Failure posture**: Qwen fails open (a crash, timeout or invalid output is a non-blocking
//! error) except on `TodoCreated`/`TodoCompleted` (#907). Fail-closed from the binary answers
//! the event's own deny or block JSON on the gates, the no-op on `Stop` (#905), and exit 2 for
//! an unknown event. Timeouts: 60 s default ([`DEFAULT_TIMEOUT`]); install writes milliseconds
//! ([`timeout_config_value`], #901).
//!
//! # ⚠ Lossy projections
//!
//! - ⚠ **No rewrite or allow on `PreToolUse`** (#902, #903): the hook runs after approval and
//!   Qwen applies no `updatedInput` there; a rewrite degrades per policy, an allow to no
//!   decision. `PermissionRequest` (not fired in headless `yolo` runs) takes both.
//! - ⚠ **No output replacement or flag on `PostToolUse`** (#904): a flag degrades to context.
//! - ⚠ **No context with a deny or ask on `PreToolUse`** (#914): Qwen stops reading the output
//!   at the decision, so `additionalContext` beside it never reaches the model.
//! - ⚠ **Stop-agent only on `UserPromptSubmit`**: `continue: false` blocks just the call on
//!   `PreToolUse` (#913), turns the result into an error on `PostToolUse` (#904) and continues
//!   on `Stop` (#905).
//! - ⚠ **`additionalContext` is escaped** (`<`/`>`, #910).
//! - ⚠ **`continue: false` on `Stop` continues the agent** (#905): stop-agent is not offered
//!   there.
//! - ⚠ **MCP names** `mcp__<server>__<tool>` lose characters outside `[A-Za-z0-9_-]` and long
//!   names are hashed (#908).
//! - ⚠ **`UserPromptSubmit` fires once per model request** (#915): tool results going back to
//!   the model fire it again with `prompt: ""`.
//! - ⚠ `MessageDisplay` is display text so far, not a model response; `SessionDelete`,
//!   `StopFailure` and `MessageDisplay` are not awaited.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod codec;
pub mod mcp_config;
pub mod native;
pub mod output;
pub mod quirks;
pub mod tools;
pub mod transcript;

pub use agenthooks_core::DecodeError;
pub use codec::{timeout_config_value, view, view_as, QwenCodec, DEFAULT_TIMEOUT};
pub use output::NO_OP;

/// The codec instance the facade registers.
pub static CODEC: QwenCodec = QwenCodec::new();

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
