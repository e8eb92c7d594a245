//! GitHub Copilot CLI codec for agenthooks.
//!
//! Register [`CODEC`] with the runner (the `agenthooks` facade does this under its `copilot`
//! feature). Everything below is what the codec knows about Copilot's hook contract (reference
//! `copilot.md`, Copilot CLI 1.0.102 captures) and how it maps onto the unified model.
//!
//! # Input
//!
//! One process per hook, JSON on stdin. Two dialects, picked by the **spelling of the event key
//! in the hook config** (1.0.21, quirk 402):
//!
//! | config key | fields | `timestamp` | event name in payload | variant |
//! |---|---|---|---|---|
//! | `preToolUse` (what agenthooks installs) | camelCase | Unix ms (number) | none (quirk 401) | `""` |
//! | `PreToolUse` (VS Code compatible) | snake_case | ISO-8601 string | `hook_event_name` | `vscode` |
//!
//! The event comes from the payload's `hook_event_name` (PascalCase dialect, camelCase
//! `notification`), else from the argv hint (`--event=preToolUse`, baked by the install crate),
//! else from `hookName`, else it is **reconstructed from the payload's keys** ([`identify`]); a
//! reconstruction that relies on a missing key or a fallback lowers
//! [`Envelope::confidence`](agenthooks_core::Envelope) (`inferred` / `guess`). The dialect is
//! always read from the payload. Both dialects decode into the same structs
//! ([`native::NativeEvent`], one row per event in [`native::EVENTS`], camelCase names with
//! snake_case aliases).
//!
//! Decoding is tolerant (`docs/codec-guide.md`): only the event name and, on tool events,
//! `toolName` are required; a field missing from an older release (`sessionId`, `cwd`, …) or
//! sent with another type (`toolArgs` string ≤ 1.0.63 / object ≥ 1.0.82, `timestamp` number /
//! ISO string) still delivers the event as its kind, the unexpected value kept in the native
//! view's `extra` and reported on `Envelope::projection_issues`.
//!
//! | native (camel / Pascal) | kind | capabilities |
//! |---|---|---|
//! | `sessionStart` / `SessionStart` | session.start | add-context |
//! | `sessionEnd` / `SessionEnd` | session.end | — |
//! | `userPromptSubmitted` / `UserPromptSubmit` | prompt.submitted | add-context from 1.0.65 (quirk 408) |
//! | `preToolUse` / `PreToolUse` | tool.pre | deny, ask, allow, update-input, add-context |
//! | `postToolUse` / `PostToolUse` | tool.post | add-context |
//! | `postToolUseFailure` / `PostToolUseFailure` | tool.error | add-context |
//! | `permissionRequest` / `PermissionRequest` | permission.request | deny, allow, permission-dialog (an ask answers no decision: Copilot's dialog asks) |
//! | `agentStop` / `Stop` | agent.stop | continue-agent |
//! | `subagentStart` / `SubagentStart` | subagent.start | add-context |
//! | `subagentStop` / `SubagentStop` | subagent.stop | continue-agent |
//! | `preCompact` / `PreCompact` | compact.pre | — |
//! | `notification` / `Notification` | notification | add-context |
//! | `errorOccurred`, `userPromptTransformed`, `preMcpToolCall` | other | — |
//!
//! Tool calls: `toolArgs` is normalized to an object ([`args`]); `ToolCall::raw_input` keeps the
//! string when Copilot sent one (quirk 403). Copilot sends **no tool-call id**: ids are
//! synthesized from session, tool name and input without the shell tool's `description` (which
//! `permissionRequest` drops), so `preToolUse`, `permissionRequest`, `postToolUse` and
//! `postToolUseFailure` of one call share an id (quirk 404). Tool names map to canonical classes
//! in [`tools`] (Copilot's own names; Claude-compatible names map onto them).
//!
//! # Output
//!
//! Top-level JSON fields on stdout, compact; nested `hookSpecificOutput` and plain text are
//! ignored by Copilot in the camelCase dialect (quirk 409):
//!
//! - `preToolUse`: `{"permissionDecision":"allow|deny|ask","permissionDecisionReason":…,
//!   "modifiedArgs":{…},"additionalContext":…}` (a deny always carries a reason).
//! - `permissionRequest`: `{"behavior":"allow"}` / `{"behavior":"deny","message":…}`.
//! - `agentStop` / `subagentStop`: `{"decision":"block","reason":<instruction>}`.
//! - context events: `{"additionalContext":…}` (context lines joined with `\n`).
//! - no decision: empty stdout on every event.
//! - PascalCase (`vscode`) hooks get the same fields plus the Claude-compatible
//!   `hookSpecificOutput` (with `updatedInput` for a rewrite), which is harmless where unread.
//!
//! **Always exit 0** (quirk 405): Copilot denies a tool call on *any* hook error, so the codec
//! never signals through the exit code; a fail-closed failure is an explicit deny JSON on
//! `preToolUse` / `permissionRequest` and the no-op elsewhere. Timeouts make Copilot allow, so a
//! hung hook fails open whatever the policy. stderr is not used for verdicts (logs go to the
//! agenthooks log file).
//!
//! # Losses (⚠)
//!
//! - ⚠ `toolArgs` that is not a JSON object (or a string holding one) becomes `{"value": …}` in
//!   `ToolCall::input`; the raw value stays in `ToolCall::raw_input` (quirk 403).
//! - ⚠ Synthesized tool ids collide for two identical calls in one session (no turn id exists).
//! - ⚠ Deny: Copilot has one reason field, shown to the model; a separate user-facing
//!   `with_block_reason` message is used only when there is no reason.
//! - ⚠ Ask: under Autopilot Copilot turns it into a deny, and the user's denial text does not
//!   reach the model (quirk 411).
//! - ⚠ Rewrites are sent as an object (`modifiedArgs`) even to releases that sent `toolArgs` as a
//!   string.
//! - ⚠ `permissionRequest`'s `interrupt` (stop the agent) is not produced: Copilot honours it only
//!   next to a deny, while stop-agent is a modifier of every decision, so it is not claimed.
//! - ⚠ Multi-line context: all context lines are joined with `\n` into one `additionalContext`.
//! - ⚠ `errorOccurred`, `userPromptTransformed` and `preMcpToolCall` have no unified kind; they
//!   arrive as `other` with their native view ([`view`]). `subagentStop`'s `modifiedResponse`,
//!   `postToolUse`'s `modifiedResult`, `userPromptSubmitted`'s `modifiedPrompt`/`decision` and
//!   `sessionStart`'s `modifiedConfig` (SDK-only or unverified for command hooks) are not produced.
//! - ⚠ The PascalCase dialect's field names beyond `PreToolUse` are inferred, not captured; any
//!   key spelled differently lands in `extra` of the native struct (quirk 402). A native struct
//!   decoded from a PascalCase payload serializes back with camelCase keys (the raw bytes stay
//!   in `Envelope::raw`).
//! - ⚠ [`Codec::capabilities`](agenthooks_core::Codec::capabilities) cannot see the CLI version
//!   and answers for current releases; [`Codec::event_capabilities`](agenthooks_core::Codec::event_capabilities)
//!   gates `userPromptSubmitted` context on `COPILOT_CLI_BINARY_VERSION` (quirk 408).
//! - ⚠ A rewrite with no decision (`modifiedArgs` alone) is not claimed: the encoder answers
//!   it with an `Unsupported` error (the runner turns it into an explicit allow first).
//!
//! Copilot caps consecutive stop blocks at 8 (quirk 406); the runner's continuation cap (default
//! 5) ends loops first. An empty `matcher` invalidates a hook entry (quirk 407): install omits it.
//!
//! # Example
//!
//! ```
//! use agenthooks_copilot::CODEC;
//! use agenthooks_core::{decision::deny, Codec, EventKind, Invocation, Outcome};
//!
//! let env = std::collections::HashMap::<String, String>::new();
//! // No `--event` hint: the event is reconstructed from the keys (`toolName`, no `error`).
//! let payload = br#"{"sessionId":"s","timestamp":1796040711043,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"rm -rf /\"}"}"#;
//! let event = CODEC.decode(&Invocation::new(payload.to_vec(), &env)).unwrap();
//! assert_eq!((event.kind(), event.envelope().native.as_str()), (EventKind::ToolPre, "preToolUse"));
//! assert_eq!(event.tool().unwrap().command(), Some("rm -rf /"));
//!
//! let wire = CODEC.encode(&event, &Outcome::from(deny("not here"))).unwrap();
//! assert_eq!(wire.stdout_str(), r#"{"permissionDecision":"deny","permissionDecisionReason":"not here"}"#);
//! assert_eq!(wire.exit_code, 0);
//! ```
//!
//! # Modules
//!
//! - [`native`]: one typed struct per event for both dialects, with unknown keys kept, and the
//!   table of event facts ([`native::EVENTS`]).
//! - [`identify`]: the event from the payload's name, the argv hint, or the payload's keys.
//! - [`args`]: `toolArgs` forms.
//! - [`tools`]: Copilot tool names and their canonical classes.
//! - [`quirks`]: the Copilot entries (401–414) of the quirk registry.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod args;
mod codec;
pub mod identify;
pub mod mcp_config;
pub mod native;
pub mod output;
pub mod quirks;
pub mod tools;
pub mod transcript;

pub use codec::{
    parse_version, prompt_context_supported, CopilotCodec, COPILOT_BLOCK_CAP, DEFAULT_TIMEOUT, PROMPT_CONTEXT_SINCE,
    VERSION_ENV,
};

agenthooks_core::kit::provider_surface! {
    /// The codec the facade registers.
    codec CopilotCodec;
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
