//! Factory Droid codec for agenthooks.
//!
//! Serves Factory Droid (the `droid` CLI, npm package `droid` / `@factory/cli`, checked against
//! the real 0.215.0 binary: its hook runner in the bundled JavaScript and live runs offline in
//! Airgap Mode with a custom model). The facade registers [`CODEC`]; hooks are configured in
//! `~/.factory/hooks.json` (user) and `<project>/.factory/hooks.json` (project) with Claude's
//! structure: `{"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command":
//! "…", "timeout": 60}]}], …}` (the `hooks` key of `settings.json` is read too, quirk 1005).
//!
//! # The dialect
//!
//! **Input.** One process per hook (`sh -c`), the payload compact JSON on stdin: `session_id`,
//! `transcript_path`, `cwd`, `permission_mode` (Droid's autonomy: `off`, `auto-low`, …),
//! `hook_event_name` and the event's fields. Nine events, one row each in [`native::EVENTS`]:
//! `PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `Stop`, `SubagentStop`, `Notification`,
//! `PreCompact`, `SessionStart`, `SessionEnd`. Tool names are Droid's own (`Execute`, `Create`,
//! `Edit`, `Read`, …, [`tools`]). The hook's environment has `FACTORY_PROJECT_DIR`,
//! `DROID_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`.
//!
//! **Output.** A JSON object on stdout (read whatever the exit code when it starts with `{`), or
//! exit codes: 2 blocks (`PreToolUse`: deny with stderr; `UserPromptSubmit`: block; `Stop`:
//! continue; `PostToolUse`: stderr to the model), 3 aborts the agent, 1 is a warning, anything else is
//! ignored (quirk 1000).
//!
//! | decision | what the codec writes (exit 0) |
//! |---|---|
//! | no decision | nothing |
//! | `deny` on `PreToolUse` | `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":R}}` |
//! | `allow` (and a rewrite) on `PreToolUse` | `permissionDecision: "allow"` (+ `updatedInput`) |
//! | a rewrite without a verdict | `{"hookSpecificOutput":{"updatedInput":{…}}}` |
//! | `block_prompt` on `UserPromptSubmit` | `{"continue":false,"stopReason":R}` |
//! | context (`PostToolUse`, `UserPromptSubmit`, `SessionStart`) | `hookSpecificOutput.additionalContext` |
//! | `continue_with` on `Stop` | `{"decision":"block","reason":I}` |
//! | stop the agent | `{"continue":false,"stopReason":R}` |
//!
//! **Capabilities** (the rows' `caps`): `PreToolUse` {deny, allow, update-input,
//! neutral-rewrite, stop-agent}; `PostToolUse` {add-context, system-message, stop-agent};
//! `UserPromptSubmit` {deny, add-context}; `Stop` {continue-agent, stop-agent, system-message};
//! `SessionStart` {add-context}; the rest none. Ask is only logged by Droid (quirk 1002).
//!
//! **Failure.** Droid is fail-open (quirk 1000). Under a fail-closed policy the codec answers a
//! failed handler with the JSON deny on `PreToolUse` and the blocked prompt on
//! `UserPromptSubmit`.
//!
//! **Timeouts.** `timeout` in seconds, default 60; on timeout Droid sends SIGTERM to the hook's
//! process tree and SIGKILL 2 s later. `SessionStart` hooks get a 30 s wait budget, after which
//! the session starts without them.
//!
//! # Mapping
//!
//! `PreToolUse` → `tool.pre`, `PostToolUse` → `tool.post`, `UserPromptSubmit` →
//! `prompt.submitted`, `Stop` → `agent.stop`, `SubagentStop` → `subagent.stop`, `Notification`
//! → `notification`, `PreCompact` → `compact.pre`, `SessionStart`/`SessionEnd` → `session.*`.
//! [`view`] gives every event's native struct, [`view_as`] one event's.
//!
//! Lossy projections:
//! - ⚠ `tool.post`: the output is Droid's text rendering of the result.
//! - ⚠ Droid sends no tool-call id: ids are synthesized from the input.
//! - ⚠ `subagent.stop`: the task result (or error) is the last message; the subagent has no id.
//! - ⚠ `UserPromptSubmit` does not fire under `droid exec` (quirk 1001): a router that opts
//!   into prompt backfill (`Router::backfill_prompts`) gets the prompt from the session's
//!   transcript ([`transcript`], the file every payload names in `transcript_path`) at the next
//!   event, reporting only.
//!
//! ```
//! use agenthooks_core::{Codec, Invocation};
//! use std::collections::HashMap;
//! let payload = br#"{"session_id":"s1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"ls"}}"#;
//! let env: HashMap<String, String> = HashMap::new();
//! let event = agenthooks_droid::CODEC.decode(&Invocation::new(payload.to_vec(), &env))?;
//! assert_eq!(event.tool().map(|t| t.name.as_str()), Some("Execute"));
//! # Ok::<(), agenthooks_core::DecodeError>(())
//! ```

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod codec;
pub mod mcp_config;
pub mod native;
pub mod output;
pub mod quirks;
pub mod tools;
pub mod transcript;

pub use agenthooks_core::DecodeError;
pub use codec::{view, view_as, DroidCodec, CODEC, DEFAULT_TIMEOUT};

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
