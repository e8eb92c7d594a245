//! The `OpenAI` Codex CLI codec for agenthooks (checked against `codex-cli` 0.171.0).
//!
//! Codex speaks a deliberate Claude dialect — the same event names, `snake_case` stdin,
//! `camelCase` stdout, `hookSpecificOutput` — behind a much stricter parser: its output types are
//! closed, and anything it cannot parse makes the hook run *fail*, which has no effect. Codex
//! therefore always fails **open** unless a hook blocks explicitly.
//!
//! # Modules
//! * [`native`]: typed stdin payloads for every event (unknown keys kept in `extra`), the legacy
//!   `notify` payload, and [`native::decode`].
//! * [`output`]: typed stdout after Codex's `*.command.output.schema.json`, with Codex's own
//!   rejection rules (`invalid_reason`).
//! * [`codec`]: [`CodexCodec`], the [`agenthooks_core::Codec`] implementation; [`CODEC`] is the
//!   instance the facade registers.
//! * [`tools`]: canonical tool classes, MCP names, the tool-failure rule.
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
//! **Timeouts.** `timeout` is in seconds, default 600; `SessionEnd` defaults to 1 s and is clamped
//! to 1–3 s (quirk #204).
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
//!   native views ([`view`]).
//!
//! # Non-goals
//! Writing `hooks.json` / `config.toml` is the install crate's job ([`trust`] gives it the hash);
//! async hooks are version-dependent in Codex (quirk #10) and handled by install.

pub mod codec;
pub mod native;
pub mod output;
pub mod quirks;
pub mod tools;
pub mod trust;

pub use codec::CodexCodec;

use agenthooks_core::Envelope;

/// The provider wire string this crate serves.
pub const PROVIDER: &str = "codex";

/// The Codex codec instance the facade registers.
pub static CODEC: CodexCodec = CodexCodec::new();

/// The native typed payload behind a Codex event.
///
/// ```
/// use agenthooks_codex::{native::NativeEvent, view, CODEC};
/// use agenthooks_core::{Codec, Invocation};
/// let env = std::collections::HashMap::new();
/// let bytes = br#"{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","hook_event_name":"Interrupt","model":"m","permission_mode":"default"}"#;
/// let event = CODEC.decode(&Invocation::new(bytes.to_vec(), &env))?;
/// assert!(matches!(view(event.envelope()), Some(NativeEvent::Interrupt(i)) if i.turn_id == "t"));
/// # Ok::<(), agenthooks_core::DecodeError>(())
/// ```
pub fn view(envelope: &Envelope) -> Option<&native::NativeEvent> {
    envelope.native_view::<native::NativeEvent>()
}

macro_rules! typed_views {
    ($($(#[$meta:meta])* $fn_name:ident => $variant:ident),* $(,)?) => {$(
        $(#[$meta])*
        pub fn $fn_name(envelope: &Envelope) -> Option<&native::$variant> {
            match view(envelope)? {
                native::NativeEvent::$variant(e) => Some(e),
                _ => None,
            }
        }
    )*};
}

typed_views! {
    /// The native `SessionStart` payload, if this is one.
    session_start => SessionStart,
    /// The native `SessionEnd` payload, if this is one.
    session_end => SessionEnd,
    /// The native `UserPromptSubmit` payload, if this is one.
    user_prompt_submit => UserPromptSubmit,
    /// The native `PreToolUse` payload, if this is one.
    pre_tool_use => PreToolUse,
    /// The native `PermissionRequest` payload, if this is one.
    permission_request => PermissionRequest,
    /// The native `PostToolUse` payload, if this is one (for `tool.post` and `tool.error`).
    post_tool_use => PostToolUse,
    /// The native `PreCompact` payload, if this is one.
    pre_compact => PreCompact,
    /// The native `PostCompact` payload, if this is one.
    post_compact => PostCompact,
    /// The native `SubagentStart` payload, if this is one.
    subagent_start => SubagentStart,
    /// The native `SubagentStop` payload, if this is one.
    subagent_stop => SubagentStop,
    /// The native `Stop` payload, if this is one.
    stop => Stop,
    /// The native `Interrupt` payload, if this is one.
    interrupt => Interrupt,
    /// The native `StopFailure` payload, if this is one.
    stop_failure => StopFailure,
    /// The legacy `notify` payload, if this is one.
    legacy_notify => LegacyNotify,
}
