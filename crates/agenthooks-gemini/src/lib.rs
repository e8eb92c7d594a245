//! Gemini CLI codec for agenthooks.
//!
//! Gemini CLI's hook contract is Claude-shaped with renamed events, Gemini's own `timestamp` on
//! every payload, a **top-level `decision`** on output, and model-level hooks no other agent has.
//! This crate decodes every native event into the core's typed [`Event`](agenthooks_core::Event)
//! and encodes every decision in Gemini's dialect. Register [`CODEC`] with the runner.
//!
//! # The dialect
//!
//! **Input**: one `snake_case` JSON object on stdin per hook process. Base fields `session_id`,
//! `transcript_path` (`""` when not recorded), `cwd`, `hook_event_name`, `timestamp` (ISO-8601,
//! kept verbatim as [`Envelope::provider_time`](agenthooks_core::Envelope::provider_time) beside
//! the library's receive time). Typed field-for-field in [`native`]; unknown keys land in each
//! struct's `extra`; [`view`] returns the native enum of a decoded event, [`view_as`] one
//! event's struct.
//!
//! Decoding is tolerant: only `hook_event_name` (or the config's `--event`) and, on tool
//! events, `tool_name` are required. Fields older releases did not send (`mcp_context` before
//! v0.25.0, `original_request_name` before v0.31.0) are optional, `""` transcript paths
//! (v0.19–v0.21) are kept as sent, and a field of an unexpected shape is kept in the native
//! view's `extra` and reported on
//! [`Envelope::projection_issues`](agenthooks_core::Envelope::projection_issues): the event
//! still reaches its handlers as its kind. Each event's facts (kind, capabilities, fail-closed
//! answer, identifying fields, which event install wires for a kind) are one row of
//! [`native::EVENTS`]; tool classes and MCP naming are [`tools::TOOLS`]. Both are the single
//! source for the codec and for install.
//!
//! | native event | unified kind | what a hook can do (capabilities) |
//! |---|---|---|
//! | `SessionStart` | `session.start` | add context, system message |
//! | `SessionEnd` | `session.end` | system message (not awaited) |
//! | `BeforeAgent` | `prompt.submitted` | block (deny), add context, stop agent, system message |
//! | `AfterAgent` | `agent.stop` | continue (retry with an instruction), stop agent, system message |
//! | `BeforeTool` | `tool.pre` | deny, ask, rewrite input, stop agent, system message |
//! | `AfterTool` | `tool.post`, or `tool.error` when `tool_response.error` is set | replace output, add context, stop agent, system message |
//! | `BeforeModel` | `model.request` (experimental) | stop agent, system message |
//! | `BeforeToolSelection` | `model.request` (experimental) | system message |
//! | `AfterModel` | `model.response` (experimental, per chunk) | stop agent, system message |
//! | `PreCompress` | `compact.pre` | system message (not awaited) |
//! | `Notification` | `notification` | system message |
//!
//! **Output**: always exit 0, nothing on stderr, and **explicit JSON on stdout** — `{}` for no
//! decision. Gemini parses stderr as the decision when stdout is empty, JSON there wins over the
//! exit code, and non-JSON text with an exit code other than 0 or 1 blocks (quirk #11; #306), so
//! the codec never signals through the exit code or stderr. Keys, in Gemini's order:
//! `continue: false` + `stopReason` (stop agent), `systemMessage`, `decision`
//! (`deny` / `ask`) + `reason`, `hookSpecificOutput` {`hookEventName`, `tool_input`,
//! `additionalContext`}.
//!
//! | decision | wire |
//! |---|---|
//! | no decision (any event) | `{}` |
//! | `deny(r)` on `BeforeTool` | `{"decision":"deny","reason":r}` — the model reads "Tool execution blocked: r" |
//! | `ask_user(r)` on `BeforeTool` | `{"decision":"ask","reason":r}` (honoured though undocumented, #304) |
//! | `rewrite_input(m)` on `BeforeTool` | `hookSpecificOutput.tool_input = m` |
//! | `block_prompt(r)` on `BeforeAgent` | `{"decision":"deny","reason":r}` — the prompt is dropped (#310) |
//! | `continue_with(i)` on `AfterAgent` | `{"decision":"deny","reason":i}` — Gemini runs a new turn with `i` as the prompt (#305) |
//! | `replace_output(v)` on `AfterTool` | `{"decision":"deny","reason":v}` — the model reads "Tool result blocked: v" (#301) |
//! | `flag_output(r)` on `AfterTool` | degraded to context: `hookSpecificOutput.additionalContext = r` (the output stays) |
//! | `with_context(c)` | `hookSpecificOutput.additionalContext` (`SessionStart`, `BeforeAgent`, `AfterTool`) |
//! | `stop_agent(r)` | `{"continue":false,"stopReason":r}` |
//! | `with_system_message(m)` | `{"systemMessage":m}` |
//!
//! Failure posture: fail-open answers `{}`; fail-closed answers
//! `{"decision":"deny","reason":…}` on the events that can block (`BeforeTool`, `BeforeAgent`)
//! and `{}` elsewhere — never a deny on `AfterAgent` (that would start a new turn) or
//! `AfterTool` (that would hide the output). Default timeout: 60 000 ms ([`DEFAULT_TIMEOUT`];
//! `settings.json` takes **milliseconds**, see [`timeout_config_value`], #14). Logs never go to
//! stderr ([`StderrUse::Reserved`](agenthooks_core::StderrUse::Reserved)).
//!
//! # ⚠ Lossy projections
//!
//! - ⚠ **`additionalContext` is HTML-escaped** by Gemini: `<` and `>` reach the model as `&lt;`
//!   and `&gt;` (#13), wrapped in `<hook_context>` tags (#308). The codec sends context
//!   verbatim; markup in context does not survive.
//! - ⚠ **Input rewrites are shallow merges** (`Object.assign` into the original arguments):
//!   a rewrite that drops a top-level key cannot be expressed, so encoding it fails with
//!   [`EncodeCategory::LossyUpdate`](agenthooks_core::EncodeCategory::LossyUpdate) and the
//!   runner answers with the failure policy instead of silently keeping the key (#12). Nested
//!   objects are replaced wholesale. Gemini re-validates the merged arguments and tells the
//!   model which keys changed.
//! - ⚠ **Replacing a tool result is not verbatim**: Gemini's only mechanism is an `AfterTool`
//!   deny, and the model then reads `Tool result blocked: <replacement>` instead of the output
//!   (#301). A non-string replacement is sent as its compact JSON text.
//! - ⚠ **Flagging a tool result is context**: Gemini has no "note beside the output" decision
//!   (a deny would hide the output), so `flag-output` is not a capability of `AfterTool` and the
//!   core's `degrade` turns `flag_output(r)` into context `r` — appended to the result inside
//!   `<hook_context>`, HTML-escaped, and logged as a degradation.
//! - ⚠ **Allow does not exist on `BeforeTool`**: Gemini has no "skip the confirmation"
//!   decision (`allow`/`approve` change nothing), so `allow()` degrades to no decision; a rewrite
//!   made with `rewrite_input(m).allow()` is still delivered (as `tool_input` without a verdict,
//!   which Gemini applies: capability `neutral-rewrite`).
//! - ⚠ **One reason for two audiences**: `reason` goes to the model (and is shown in the tool
//!   display); a distinct user-facing `with_block_reason` is sent as `systemMessage`.
//! - ⚠ **Tool-call ids are synthesized** (Gemini sends none): `hook_synth_…` from session, tool
//!   and input, so a call's `BeforeTool` and `AfterTool` correlate — unless a rewrite changed the
//!   input in between; identical calls in one session share an id (#303).
//! - ⚠ **`tool.error`** carries `tool_response.error.message` as its text; the error `type` and
//!   the partial output are only in the native view.
//! - ⚠ **MCP names** `mcp_<server>_<tool>` are ambiguous when a server name contains `_`;
//!   `mcp_context` wins when present, else Gemini's own split at the first underscore (#15,
//!   #309; see [`mcp`]).
//! - ⚠ **Model events are experimental**: `BeforeModel` and `BeforeToolSelection` both become
//!   `model.request` (tell them apart by the native name); `AfterModel` fires per streamed
//!   chunk, and its text is the chunk's `text` (or its text parts) (#302). Request overrides,
//!   synthetic responses, `toolConfig` restrictions, `clearContext`, `tailToolCallRequest` and
//!   `suppressOutput` have no unified decision and are not emitted.
//! - ⚠ **A value of an unexpected shape inside a nested object** (say a non-numeric
//!   `llm_response.candidates[].index`) moves the whole top-level field to the native view's
//!   `extra`: the event keeps its kind but that field's projection is empty (`AfterModel` text
//!   `None`, `AfterTool` output `null`); the issue is on `projection_issues`.
//! - ⚠ `SessionEnd` and `PreCompress` are not awaited by Gemini: their system message may never
//!   show (#307).
//!
//! Gemini's own quirks are in [`quirks::QUIRKS`] (ids 301–311); the core registry's #11–#15 and
//! #20 apply too.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod codec;
pub mod mcp;
pub mod mcp_config;
pub mod native;
pub mod output;
pub mod quirks;
pub mod tools;
pub mod transcript;

pub use codec::{timeout_config_value, GeminiCodec, DEFAULT_TIMEOUT, NO_OP};

agenthooks_core::kit::provider_surface! {
    /// The codec instance the facade registers.
    codec GeminiCodec;
    view {
        ///
        /// ```
        /// use agenthooks_core::{Codec, Invocation};
        /// use agenthooks_gemini::{native::NativeEvent, view, CODEC};
        ///
        /// let env = std::collections::HashMap::<String, String>::new();
        /// let inv = Invocation::new(
        ///     br#"{"session_id":"s","transcript_path":"","cwd":"/p","hook_event_name":"PreCompress",
        ///          "timestamp":"2026-11-30T11:59:25.889Z","trigger":"auto"}"#.to_vec(),
        ///     &env,
        /// );
        /// let ev = CODEC.decode(&inv).unwrap();
        /// let Some(NativeEvent::PreCompress(p)) = view(ev.envelope()) else { panic!() };
        /// assert_eq!(p.trigger.as_deref(), Some("auto"));
        /// ```
    }
    view_as {
        ///
        /// ```
        /// use agenthooks_core::{Codec, Invocation};
        /// use agenthooks_gemini::{native::BeforeAgent, view_as, CODEC};
        ///
        /// let env = std::collections::HashMap::<String, String>::new();
        /// let inv = Invocation::new(br#"{"hook_event_name":"BeforeAgent","prompt":"hi"}"#.to_vec(), &env);
        /// let ev = CODEC.decode(&inv).unwrap();
        /// assert_eq!(view_as::<BeforeAgent>(ev.envelope()).and_then(|e| e.prompt.as_deref()), Some("hi"));
        /// ```
    }
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
