//! Cursor codec for agenthooks: every hook event of Cursor's IDE, `cursor-agent` CLI and cloud
//! agents, typed and lossless, on the provider kit.
//!
//! - [`native`]: the kit's table of Cursor's 21 events (one row of facts each,
//!   [`native::EVENTS`]) and one typed struct per event, unknown keys kept in `extra`;
//!   [`NativeEvent`] decodes any payload tolerantly (UTF-8 BOM included).
//! - [`tools`]: Cursor's tool table ([`tools::TOOLS`]) and `MCP:<tool>` parsing.
//! - [`output`]: Cursor's stdout, typed per event.
//! - [`dedup`]: the cross-process double-fire dedup (quirk #2).
//! - [`compat`]: payload sniffing and Claude-compat mode.
//! - [`CursorCodec`] (registered through [`CODEC`]), [`quirks`], [`view`] / [`view_as`] /
//!   [`dedup_of`].
//!
//! ```
//! use agenthooks_cursor::{native, view_as, CODEC};
//! use agenthooks_core::{decision::deny, Codec, Event, Invocation};
//! use std::collections::HashMap;
//!
//! let payload = br#"{"hook_event_name":"beforeMCPExecution","conversation_id":"c1",
//!   "generation_id":"g1","cursor_version":"2026.09.18-9a7762b","workspace_roots":["/w"],
//!   "tool_name":"create_issue","tool_input":"{\"title\":\"x\"}","mcp_server_name":"linear",
//!   "url":"https://mcp.linear.app/sse"}"#;
//! let env: HashMap<String, String> = HashMap::new();
//! let event = CODEC.decode(&Invocation::new(payload.to_vec(), &env))?;
//! let Event::ToolPre(pre) = &event else { unreachable!() };
//! assert_eq!(pre.tool.input()["title"], "x"); // the JSON string, normalized
//! assert!(pre.tool.raw_input().is_string()); // as sent
//! let mcp = pre.tool.mcp.as_ref().unwrap();
//! assert_eq!((mcp.server.as_str(), mcp.url.as_str()), ("linear", "https://mcp.linear.app/sse"));
//! assert_eq!(pre.envelope.variant.as_str(), "cli");
//! let native: &native::BeforeMcpExecution = view_as(event.envelope()).unwrap();
//! assert_eq!(native.mcp_server_name.as_deref(), Some("linear"));
//!
//! let wire = CODEC.encode(&event, &deny("no tickets on Fridays").into())?;
//! assert_eq!(
//!     wire.stdout_str(),
//!     r#"{"permission":"deny","user_message":"no tickets on Fridays","agent_message":"no tickets on Fridays","continue":true}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The dialect
//!
//! **Input.** One JSON object on stdin (a UTF-8 BOM is tolerated; `--argv-payload` reads it
//! from the last argument for legacy CLI builds, #6 — unconfirmed by any source, kept
//! defensively). Event names are camelCase, keys snake_case. Base fields: `conversation_id`
//! (session), `generation_id` (turn), `model`, `model_id`, `model_params`, `hook_event_name`,
//! `cursor_version` (IDE `2.x`, CLI `YYYY.MM.DD-<hash>`), `workspace_roots`, `user_email` and
//! `transcript_path` (nullable), `session_id`.
//!
//! **Output.** Exit 0 with one compact JSON object, snake_case keys (#4):
//!
//! | intent | Cursor fields |
//! |---|---|
//! | no decision | `{}` on every event (empty stdout is a *failure*, #601) |
//! | allow / deny (`preToolUse`, `beforeReadFile`) | `permission` (+ `user_message`, `agent_message` when blocking) |
//! | allow / deny / ask (`beforeShellExecution`, `beforeMCPExecution`) | `permission` `allow`/`deny`/`ask` |
//! | rewrite input (`preToolUse`) | `updated_input` (with or without a verdict, #606) |
//! | block prompt (`beforeSubmitPrompt`) | `continue: false` + `user_message` |
//! | context | `additional_context` (`postToolUse`, `sessionStart`; `beforeSubmitPrompt` on CLI ≥ 2026.09.18, #602) |
//! | replace output (MCP tools) | `updated_mcp_tool_output` (`postToolUse` on `MCP:` tools, `afterMCPExecution`, #603) |
//! | continue (`stop`, `subagentStop`) | `followup_message` (`subagentStop`: only when `status` is `completed`) |
//! | system message (`preCompact`) | `user_message` |
//!
//! A verdict also carries the legacy `"continue": true` (harmless: Cursor AND-merges it; never
//! `false` outside the prompt). Cursor cannot stop the agent from a hook (no `continue: false`
//! on tool events): stop-agent is no capability anywhere.
//!
//! **Exit codes.** 0 always, except fail-closed on an event the codec cannot name: exit 2 with
//! the reason on stderr (a deny on permission hooks and the prompt; no effect elsewhere, #611).
//!
//! **Failure posture.** Cursor fails open: a crash, timeout or non-zero exit lets the action
//! proceed (#7) — **unless the hook entry sets `failClosed: true`**, which is what makes a crash
//! of the hook binary itself block; install writes it on decision hooks under a fail-closed
//! policy. Invalid JSON on a permission hook already blocks (#601). Fail-closed inside the
//! binary answers a deny body on the permission hooks (`preToolUse`, `beforeShellExecution`,
//! `beforeMCPExecution`, `beforeReadFile`, `beforeTabFileRead`, `subagentStart`) and
//! `continue: false` on `beforeSubmitPrompt`; the no-op elsewhere.
//!
//! **Timeouts.** Seconds in hooks.json; 60 s when unset (BUNDLE).
//!
//! **Stderr.** Reserved (logs go to a file): on exit 2 stderr is the block reason.
//!
//! **Variants.** `cli` (`cursor_version` is a build string), `ide` (a `2.x` version), `cloud`
//! (`--variant=cloud` or `is_background_agent`, #605); a `--variant` flag wins. Capabilities
//! per variant: cloud fires no session, MCP, Tab or `workspaceOpen` hooks and the CLI has no Tab
//! ([`codec::fires`]); CLI `-p` fires no `beforeSubmitPrompt`/`stop` (#31).
//!
//! **Double fire (#2).** `preToolUse` and `beforeShellExecution`/`beforeMCPExecution`/
//! `beforeReadFile` fire for one call in two processes: the [`dedup`] module delivers one
//! `tool.pre` (first arrival wins, through an on-disk marker in the runner's state dir); the
//! other answers `{}`. Its decision is on [`dedup_of`].
//!
//! **Claude-compat (#607).** Cursor runs `.claude/settings.json` hooks too: a Cursor payload
//! under `--provider=claude-code` is answered by this codec, in Cursor's dialect ([`compat`]).
//!
//! # Event mapping (design §3.4)
//!
//! | native | unified kind |
//! |---|---|
//! | `sessionStart` / `sessionEnd` | `session.start` / `session.end` |
//! | `beforeSubmitPrompt` | `prompt.submitted` |
//! | `preToolUse`, `beforeShellExecution`, `beforeMCPExecution`, `beforeReadFile` | `tool.pre` (deduped) |
//! | `postToolUse`; `afterShellExecution`, `afterMCPExecution` (secondary) | `tool.post` |
//! | `postToolUseFailure` | `tool.error` |
//! | `subagentStart` / `subagentStop` | `subagent.start` / `subagent.stop` |
//! | `afterFileEdit`; `afterTabFileEdit` (secondary) | `file.edited` |
//! | `afterAgentResponse`; `afterAgentThought` (secondary) | `model.response` |
//! | `preCompact` | `compact.pre` |
//! | `stop` | `agent.stop` |
//! | `beforeTabFileRead`, `workspaceOpen` | `other` |
//!
//! # Lossy projections
//!
//! The raw payload is byte-identical in the envelope and the native view keeps every key:
//!
//! - ⚠ `tool_input`, `tool_output` and `result_json` arrive as JSON strings on some events
//!   (#5): `ToolCall::input` and `ToolPostEvent::output` are parsed; `ToolCall::raw_input`
//!   and the native view keep them as sent.
//! - ⚠ `beforeShellExecution`/`beforeReadFile` carry no tool input: the call is built as
//!   `Shell {command}` / `Read {file_path}` (`sandbox`, `content`, `attachments` are native
//!   only); their ids are synthesized (#3) unless the deduped `preToolUse` arrived first,
//!   whose `tool_use_id` (two-part `call_…\nctc_…` ids verbatim) is then used.
//! - ⚠ `MCP:<tool>` on the generic events names no server: `McpCall::server` is empty there;
//!   `beforeMCPExecution` gives server and transport (`url`/`mcp_server_url` or `command`).
//! - ⚠ A deduped duplicate reaches handlers as `other` with no capabilities.
//! - ⚠ The deduped `tool.pre` has the capabilities of the event that won: `ask` only when the
//!   shell/MCP event won (it is not enforced on `preToolUse`).
//! - ⚠ `tool.post` may arrive twice when `afterShellExecution`/`afterMCPExecution` are wired
//!   beside `postToolUse` (they are secondary: install does not wire them by default).
//! - ⚠ `subagentStart` and `beforeTabFileRead` permissions, `sessionStart.env` and
//!   `workspaceOpen.pluginPaths` have no unified intent (#610): native-only.
//! - ⚠ One answer's `additional_context` is cut to 10 000 characters (#604).
//! - ⚠ `agent.stop`: `continuation_count` is Cursor's `loop_count`.
//!
//! # Judged by the fake agent
//!
//! No Cursor build is installable here: every wire answer is checked by the testkit's Cursor
//! fake agent (`agenthooks_testkit::fake::cursor`, written from the reference, independent of
//! this encoder) through the conformance and agreement suites. Behaviour the reference marks as
//! uncertain is in the registry as unverified or open (#602–#609).

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod codec;
pub mod compat;
pub mod dedup;
pub mod mcp_config;
pub mod native;
pub mod output;
pub mod quirks;
pub mod tools;
pub mod transcript;

use agenthooks_core::Envelope;

pub use codec::CursorCodec;
pub use native::NativeEvent;

agenthooks_core::kit::provider_surface! {
    /// The codec the facade registers for `--provider=cursor`.
    codec CursorCodec;
    view via View => event;
}

/// What the envelope holds: the native event and the dedup decision.
#[derive(Debug, Clone)]
pub(crate) struct View {
    pub(crate) event: NativeEvent,
    pub(crate) dedup: Option<dedup::Dedup>,
}

/// The double-fire dedup decision of a `tool.pre` candidate (`None` when it took no part: not
/// a deduped event, no state dir, or a filesystem error).
pub fn dedup_of(envelope: &Envelope) -> Option<&dedup::Dedup> {
    envelope.native_view::<View>().and_then(|v| v.dedup.as_ref())
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
