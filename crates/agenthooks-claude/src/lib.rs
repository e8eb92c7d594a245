//! Claude Code codec for agenthooks: every hook event of Claude Code 2.1.x, typed and lossless.
//!
//! Claude Code's hook contract is the reference dialect the other agents copy, and this crate is
//! the pattern the other provider crates follow. It holds:
//!
//! - [`native`]: the provider kit's table of Claude's events (34 in 2.1.332): one row of facts
//!   per event ([`native::EVENTS`]) and one typed struct per event, every wire field, unknown
//!   keys captured in `extra`; [`NativeEvent`] decodes any payload tolerantly (a payload from
//!   an older or newer release still reaches handlers as its kind), and an event a future
//!   Claude release adds decodes as [`NativeEvent::Other`] with every key intact.
//! - [`tools`]: Claude's tool table ([`tools::TOOLS`]: canonical classes, read by install's
//!   matcher compiler too) and `mcp__<server>__<tool>` parsing.
//! - [`ClaudeCodec`] (registered through [`CODEC`]): decode into the unified
//!   [`Event`](agenthooks_core::Event), encode decisions in Claude's dialect, capabilities,
//!   the no-op and failure answers, and Claude's [`quirks`].
//! - [`view`] / [`view_as`]: the native struct behind a decoded event.
//!
//! ```
//! use agenthooks_claude::{native, view_as, CODEC};
//! use agenthooks_core::{decision::deny, Codec, Event, Invocation};
//! use std::collections::HashMap;
//!
//! let payload = br#"{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w",
//!   "prompt_id":"p1","hook_event_name":"PreToolUse","tool_name":"Bash",
//!   "tool_input":{"command":"rm -rf /"},"tool_use_id":"toolu_1"}"#;
//! let env: HashMap<String, String> = HashMap::new();
//! let event = CODEC.decode(&Invocation::new(payload.to_vec(), &env))?;
//! let Event::ToolPre(pre) = &event else { unreachable!() };
//! assert_eq!(pre.tool.command(), Some("rm -rf /"));
//! assert_eq!(pre.envelope.session.turn_id, "p1"); // prompt_id is the turn id
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
//! **Input.** One JSON object on stdin per hook call, `snake_case` keys. Base fields on every
//! event: `session_id`, `transcript_path`, `cwd`, `hook_event_name`; optional `permission_mode`,
//! `prompt_id` (one UUID per user prompt), `agent_id`/`agent_type` (inside a subagent),
//! `effort {level}`. Tool events add `tool_name`, `tool_input` (an object), `tool_use_id` and,
//! since ~2.1.3xx, `mcp_server {name, source}`. The event comes from `hook_event_name`; an
//! `--event` hint is used only when the payload names none.
//!
//! **Output.** Exit 0 with compact JSON on stdout, keys in the order of Claude's docs:
//! `continue`, `stopReason`, `systemMessage`, `decision`, `reason`, `hookSpecificOutput`
//! (which always starts with `hookEventName`). The codec never relies on exit codes for a
//! decision it can spell in JSON.
//!
//! | intent | Claude fields |
//! |---|---|
//! | no decision | `{}` (explicit "no opinion", never an allow — quirk #17) |
//! | allow / deny / ask (`PreToolUse`) | `hookSpecificOutput.permissionDecision` + `permissionDecisionReason` |
//! | rewrite input (`PreToolUse`) | `hookSpecificOutput.updatedInput` (full replacement; with allow or ask, #109) |
//! | allow / deny (`PermissionRequest`) | `hookSpecificOutput.decision {behavior, updatedInput \| message, interrupt}` |
//! | block prompt (`UserPromptSubmit`) | `decision: "block"` + `reason` (shown to the user) |
//! | continue (`Stop`, `SubagentStop`) | `decision: "block"` + `reason` (the instruction) |
//! | flag output (`PostToolUse`) | `decision: "block"` + `reason` (fed to the model) |
//! | replace output (`PostToolUse`) | `hookSpecificOutput.updatedToolOutput` (+ `updatedMCPToolOutput` for MCP tools, #102) |
//! | context | `hookSpecificOutput.additionalContext` (several joined by a blank line) |
//! | system message, block message | `systemMessage` |
//! | stop agent | `continue: false` + `stopReason` (and `interrupt: true` on a `PermissionRequest` deny) |
//!
//! **Exit codes.** 0 always, except fail-closed on an event the codec cannot name: exit 2 with
//! the reason on stderr (Claude's universal block). Other non-zero codes are non-blocking errors
//! for Claude (fail-open).
//!
//! **Stderr.** Reserved: exit 2 feeds stderr to the model, so logs go to a file
//! ([`StderrUse::Reserved`](agenthooks_core::StderrUse::Reserved)).
//!
//! **Timeouts.** Seconds in Claude's settings; default 600 s for command hooks.
//!
//! **Failure posture.** Claude fails open (a crashed hook is a non-blocking error) unless the
//! handler sets `onFailure: "block"` (#101, an install concern). Fail-closed from the binary
//! answers with the event's own deny/block JSON (`PreToolUse`, `PreSkillShellCommand`,
//! `PreModelSwitch`, `PermissionRequest`, `UserPromptSubmit`, `UserPromptExpansion`, `PreCompact`,
//! `ConfigChange`), the no-op on events that cannot block (never exit 2 on `Stop`, where it would
//! *continue* the agent — #107), and exit 2 only for an unknown event.
//!
//! **Variants.** `remote` when `CLAUDE_CODE_REMOTE` is set (web sessions), `cowork` when
//! `CLAUDE_PROJECT_DIR` is a cmux-managed directory; a `--variant` flag wins. Capabilities are
//! the same in every variant; cowork's difference (async `Stop` hooks are skipped, #1) is an
//! install concern.
//!
//! # Event mapping
//!
//! Design §3.4, plus these choices for the newer events:
//!
//! | native | unified kind | why |
//! |---|---|---|
//! | `PreSkillShellCommand` | `tool.pre` | a shell command about to run: shell policies must see it (closes part of #16); no allow, rewrite or context (#103) |
//! | `PermissionDenied`, `PostToolBatch`, `UserPromptExpansion` | `other` | `retry`, batch feedback and expansion blocks have no unified intent |
//! | `StopFailure` | `other` | the turn already ended; nothing to decide |
//! | `Setup`, `Pre/PostModelSwitch`, `Elicitation*`, `Teammate/Task*`, `ConfigChange`, `InstructionsLoaded`, `Worktree*`, `CwdChanged`, `DirectoryAdded` | `other` | no unified kind; native views carry every field |
//! | `FileChanged` | `file.edited` | §3.4 |
//! | `MessageDisplay` | `model.response` | §3.4 "approx." (#105) |
//!
//! # Lossy projections
//!
//! The raw payload is always byte-identical in the envelope and the native struct keeps every
//! key; these are losses of the *unified* projection only:
//!
//! - ⚠ `tool.pre` from `PreSkillShellCommand`: the id is Claude's synthetic one; `command_name`,
//!   `command_source` and `invoked_by` are only on the native view.
//! - ⚠ `permission.request`: Claude sends no `tool_use_id`, so the id is synthesized and does
//!   not correlate with `PreToolUse` (#106); ask is not expressible, and need not be:
//!   Claude's own dialog is the ask (`permission-dialog`: an ask answers no decision, its reason
//!   as `systemMessage`), and `updatedPermissions` has no unified intent.
//! - ⚠ `agent.stop`: `stop_hook_active` is a flag, not a count; `continuation_count` comes from
//!   the runner (#19). `background_tasks`/`session_crons` are native-only.
//! - ⚠ `file.edited` from `FileChanged`: the change type (`change`/`add`/`unlink`) is native-only,
//!   and the file changed on disk, not necessarily through an edit.
//! - ⚠ `model.response` from `MessageDisplay`: one chunk of display text (`delta`), not a model
//!   response (#105).
//! - ⚠ MCP calls: `McpCall::server` is `mcp_server.name` when sent, else the normalized name
//!   segment; the transport is never in the payload (#26): `McpCall::resolve` reads it from the
//!   MCP config files ([`mcp_config`]).
//! - ⚠ A rewrite needs a verdict: Claude applies `updatedInput` only with an allow or an ask
//!   (#109), so a rewrite with no decision cannot be expressed and is an
//!   [`EncodeError`](agenthooks_core::EncodeError), answered by the failure policy.
//! - ⚠ The `defer` permission decision, `PermissionDenied.retry`, `sessionTitle`,
//!   `watchPaths`, `displayContent`, elicitation answers and `worktreePath` have no unified
//!   intent: they are not produced (#108).
//! - ⚠ A system message and an explicit block message share Claude's one user-facing field:
//!   both go to `systemMessage`, one per line.
//! - ⚠ The `WorktreeCreate` no-op is empty stdout: Claude then reports that no path was supplied
//!   (#104).

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod codec;
pub mod mcp_config;
pub mod native;
pub mod output;
pub mod quirks;
pub mod tools;
pub mod transcript;

pub use codec::ClaudeCodec;
pub use native::NativeEvent;

agenthooks_core::kit::provider_surface! {
    /// The codec the facade registers for `--provider=claude-code`.
    codec ClaudeCodec;
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
