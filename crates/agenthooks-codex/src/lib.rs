//! The `OpenAI` Codex CLI codec for agenthooks (checked against `codex-cli` 0.171.0).
//!
//! Codex speaks a deliberate Claude dialect — the same event names, `snake_case` stdin,
//! `camelCase` stdout, `hookSpecificOutput` — behind a much stricter parser: its output types are
//! closed, and anything it cannot parse makes the hook run *fail*, which has no effect. Codex
//! therefore always fails **open** unless a hook blocks explicitly.
//!
//! # Modules
//! * [`native`]: typed stdin payloads for every event (unknown keys kept in `extra`), the legacy
//!   `notify` payload, and [`native::EVENTS`], the one table of event facts (kind, gating,
//!   matcher, capabilities, fail-closed answer, timeout clamp) that the codec and install read.
//! * [`output`]: typed stdout after Codex's `*.command.output.schema.json`, with Codex's own
//!   rejection rules (`invalid_reason`).
//! * [`codec`]: [`CodexCodec`], the [`agenthooks_core::Codec`] implementation; [`CODEC`] is the
//!   instance the facade registers.
//! * [`tools`]: [`tools::TOOLS`] (canonical tool classes, MCP naming), [`tools::classify`],
//!   [`tools::parse_mcp`], the tool-failure rule.
//! * [`trust`]: the `[hooks.state]` key and `trusted_hash` an installer must pre-seed (quirk #9).
//! * [`quirks`]: the Codex quirk registry (ids 201–216).
//!
//! # The dialect
//!
//! **Input.** One JSON object on stdin per hook call; `hook_event_name` names the event.
//! `transcript_path` may be `null`; turn-scoped events carry `turn_id` (→ `session.turn_id`);
//! `agent_id` / `agent_type` appear inside subagents (→ [`Envelope::agent`](agenthooks_core::Envelope)).
//! The legacy `notify` program instead gets one kebab-case JSON object as its last argv argument
//! (`agenthooks notify --provider=codex '<json>'`), decoded as a `notification`.
//!
//! | native | unified kind | what an answer can do |
//! |---|---|---|
//! | `SessionStart` | `session.start` | context, system message, stop |
//! | `SessionEnd` | `session.end` | nothing (stdout is not read) |
//! | `UserPromptSubmit` | `prompt.submitted` | block (`decision:block` + reason), context, system message, stop |
//! | `PreToolUse` | `tool.pre` | deny, rewrite input, context, system message |
//! | `PermissionRequest` | `permission.request` | allow, deny, system message |
//! | `PostToolUse` | `tool.post` / `tool.error` | feedback (`decision:block`), context, system message, stop |
//! | `PreCompact`, `PostCompact` | `compact.pre`, `compact.post` | system message, stop |
//! | `SubagentStart` | `subagent.start` | context, system message, stop |
//! | `SubagentStop`, `Stop` | `subagent.stop`, `agent.stop` | continue with an instruction (`decision:block` + reason), system message, stop |
//! | `Interrupt` | `other` | system message |
//! | `StopFailure` (not in 0.171.0) | `other` | nothing |
//! | notify `agent-turn-complete` | `notification` | nothing (fire and forget) |
//!
//! **Output.** Exit 0 always. Empty stdout is *no opinion* (Codex's own flow runs; quirk #8, which
//! corrects the design's "empty = allow"). Otherwise one compact JSON object that validates
//! against the event's output schema and passes Codex's parser rules — every encoder output is
//! tested against both. Exit 2 would block only with text on stderr (quirk #201); this codec
//! never needs it. Fail-closed answers are deny JSON on `PreToolUse`, `PermissionRequest` and
//! `UserPromptSubmit`; elsewhere Codex has no blocking mechanism and the answer is no opinion.
//!
//! **Timeouts.** `timeout` is in seconds, default 600; `SessionEnd` and `Interrupt` default to
//! 1 s and are clamped to 1–3 s, also inside the trust hash (quirk #204; the rows'
//! `timeout_clamp`).
//!
//! **Older releases.** Decoding is tolerant: only `hook_event_name` (or `--event`) and the
//! tool name of tool events are required, and a field of a shape no release sent is kept in the
//! native view's `extra` (see [`native`]): a payload of an older Codex (no `turn_id`, a
//! `{command}`-only `tool_input`, an `approval_context`) still reaches handlers as its kind.
//!
//! # Lossy projections
//!
//! * ⚠ **Allow** cannot skip Codex's approval: a bare `allow` is rejected by Codex (quirk #8), so
//!   the core degrades it to no-decision. `permissionDecision: "allow"` is written only as the
//!   vehicle of an input rewrite (`updatedInput`, a full replacement), which does not skip the
//!   approval flow either; a rewrite with or without `allow` encodes the same way.
//! * ⚠ **Ask** does not exist in Codex's output: `permissionDecision: "ask"` fails the run on
//!   `PreToolUse`, and `PermissionRequest` knows only allow/deny. On `PreToolUse` an ask degrades
//!   per the policy's `AskFallback` (deny by default). `PermissionRequest` fires just before
//!   Codex's own approval prompt (`permission-dialog`), so an ask there answers no decision: Codex
//!   asks the user, and the ask's reason is sent as `systemMessage`.
//! * ⚠ **Deny reasons** must be non-empty (quirk #205): an empty reason becomes the core's
//!   default block reason. A separate user-facing block message (`with_block_reason`) is sent as
//!   `systemMessage` when no system message is set (`PreToolUse`, `PermissionRequest`,
//!   `UserPromptSubmit`).
//! * ⚠ **Tool failures** have no event of their own (quirk #202): `PostToolUse` becomes
//!   `tool.error` when `tool_response` shows a failure ([`tools::failure`]). A shell call's
//!   response is only its output text in 0.171.0, so a failed shell command stays `tool.post`.
//! * ⚠ **Shell tool name**: shell calls arrive as `Bash` with `tool_input.command` although the
//!   model's tool is `exec_command {cmd}` (quirk #203); the native name is kept, the canonical
//!   class is `shell`.
//! * ⚠ **Output replacement** works only for MCP tools in 0.171.0 (`updatedMCPToolOutput`, quirk
//!   #209). Capabilities are per event, so `PostToolUse` does not offer replace-output and the core
//!   degrades a replacement to `decision: "block"` feedback carrying the new text. Encoding a
//!   replacement directly for an MCP call still writes `updatedMCPToolOutput` (a string wrapped
//!   as a `CallToolResult` with one text item).
//! * ⚠ **`PermissionRequest` has no `tool_use_id`** (quirk #207): its tool call gets a synthesized
//!   id that does not match the `PreToolUse`/`PostToolUse` id of the same call.
//! * ⚠ **Stop-agent** (`continue: false`) is invalid on `PreToolUse` and `PermissionRequest`
//!   (quirk #206) and dropped there by degradation.
//! * ⚠ **Context** lines are joined with blank lines; Codex truncates context above
//!   `additionalContextLimit` (quirk #213).
//! * ⚠ **`Interrupt` and `StopFailure`** have no unified kind: they decode as `other` with typed
//!   native views ([`view`], [`view_as`]).
//!
//! # Non-goals
//! Writing `hooks.json` / `config.toml` is the install crate's job ([`trust`] gives it the hash);
//! async hooks are version-dependent in Codex (quirk #10) and handled by install.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod codec;
pub mod mcp_config;
pub mod native;
pub mod output;
pub mod quirks;
pub mod tools;
pub mod transcript;
pub mod trust;

pub use codec::CodexCodec;

agenthooks_core::kit::provider_surface! {
    /// The Codex codec instance the facade registers.
    codec CodexCodec;
    view {
        ///
        /// ```
        /// use agenthooks_codex::{native::NativeEvent, view, CODEC};
        /// use agenthooks_core::{Codec, Invocation};
        /// let env = std::collections::HashMap::new();
        /// let bytes = br#"{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","hook_event_name":"Interrupt","model":"m","permission_mode":"default"}"#;
        /// let event = CODEC.decode(&Invocation::new(bytes.to_vec(), &env))?;
        /// let native = view(event.envelope()).unwrap();
        /// assert!(matches!(native, NativeEvent::Interrupt(_)));
        /// assert_eq!(native.turn_id().map(String::as_str), Some("t"));
        /// # Ok::<(), agenthooks_core::DecodeError>(())
        /// ```
    }
    view_as {
        ///
        /// For `PostToolUse`, both `tool.post` and `tool.error`.
        ///
        /// ```
        /// use agenthooks_codex::{native, view_as, CODEC};
        /// use agenthooks_core::{Codec, Invocation};
        /// let env = std::collections::HashMap::new();
        /// let bytes = br#"{"session_id":"s","transcript_path":null,"cwd":"/p","hook_event_name":"SessionEnd","reason":"other"}"#;
        /// let event = CODEC.decode(&Invocation::new(bytes.to_vec(), &env))?;
        /// let end = view_as::<native::SessionEnd>(event.envelope()).unwrap();
        /// assert_eq!(end.transcript_path, Some(None)); // sent as `null`
        /// assert!(view_as::<native::Stop>(event.envelope()).is_none());
        /// # Ok::<(), agenthooks_core::DecodeError>(())
        /// ```
    }
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
