//! # agenthooks-core
//!
//! The provider-neutral contract of agenthooks: write a coding-agent hook once, run it on every
//! agent. Core holds the values that hooks and codecs share: events, decisions, capabilities and
//! policy, the router, the [`Codec`] trait and the provider kit. It runs no process: reading
//! argv and stdin, writing the answer, deadlines, `serve` and warm mode belong to the runtime
//! crate, and each agent's dialect (its JSON, its transcript records, its MCP configuration
//! files) belongs to that agent's provider crate (`agenthooks-claude`, `agenthooks-codex`, …).
//! Most users depend on the `agenthooks` facade, which re-exports all of them.
//!
//! ## For hook authors
//!
//! A hook is a [`Router`] of handlers, one per event kind, that return decisions:
//!
//! ```
//! use agenthooks_core::prelude::*;
//!
//! let router = Router::new()
//!     .on_tool_pre(|_cx: &Context, e: &ToolPreEvent| {
//!         if e.tool.command().is_some_and(|c| c.contains("rm -rf /")) {
//!             return deny("destructive command");
//!         }
//!         no_decision()
//!     })
//!     .on_stop(|_cx: &Context, _e: &StopEvent| finish());
//! # let _ = router;
//! ```
//!
//! - [`prelude`]: everything a hook usually needs, in one import.
//! - [`Router`]: typed handlers per [`EventKind`], the combinators [`any`], [`all`] and
//!   [`when`], matchers ([`match_tools`], [`match_canonical`], [`match_mcp`]), interceptors and
//!   observers ([`router`] explains the stacking rule).
//! - [`decision`]: intent, not wire format (`deny`, `allow`, `ask_user`, `rewrite_input`,
//!   `continue_with`, …); a decision of the wrong family for an event does not compile.
//! - [`Event`]: one variant per [`EventKind`] over an [`Envelope`] that keeps the raw payload
//!   byte for byte ([`Envelope::raw`]) and the agent's native typed view
//!   ([`Envelope::native_view`]). Tool calls are normalized into a [`ToolCall`] with a
//!   [`CanonicalTool`] class and, for MCP tools, an [`McpCall`].
//! - [`Policy`] and [`FailMode`]: what a handler error, panic or timeout means (fail open or
//!   closed); [`CapSet`] and [`degrade`]: what a decision becomes where an agent cannot express
//!   it (reported, never silent).
//! - [`ToolSelector`]: the tool filters install writes where an agent's matcher cannot.
//!
//! ## For codec authors
//!
//! A codec teaches agenthooks one agent's dialect. `docs/codec-guide.md` is the walkthrough; the
//! pieces are:
//!
//! - [`Codec`]: the object-safe trait (decode bytes into an [`Event`], encode an [`Outcome`]
//!   into a [`WireResponse`]); most of its methods are provided from the codec's tables.
//! - [`kit`]: the provider kit. [`kit::native_events!`] turns one row per native event into the
//!   structs, the enum, dispatch and the [`EventRow`] table; [`kit::native_record!`] types a
//!   nested record; [`kit::kit_codec_tables!`] writes the table-backed [`Codec`] methods;
//!   [`kit::quirk_table!`] checks a quirk table at compile time. [`kit::decode`] is tolerant
//!   decoding (only identifying fields are required; a retyped field moves to `extra` as a
//!   [`ProjectionIssue`](kit::ProjectionIssue)), and [`kit::expressible_or_no_op`] and
//!   [`kit::failure_response`] are the encoder's helpers.
//! - [`mcp`]: MCP identity (a server and tool from the agent's naming scheme) and the lookup
//!   of the agent's configured servers ([`McpCall::resolve`]).
//! - [`kit::transcript`]: the [`TranscriptFormat`](kit::transcript::TranscriptFormat) a codec
//!   hands out ([`Codec::transcript`]) to type its agent's session records; the readers live in
//!   `agenthooks-runtime`.
//! - [`provider`] ids and native names, [`quirks`] (the registry of agent behaviour we work
//!   around), [`error`] ([`DecodeError`], [`EncodeError`]) and [`digest`] (the one copy of the
//!   hashes written to disk).
//!
//! ## Normalized JSON
//!
//! [`Event::to_json`] (and the `agenthooks decode` command) print events with these stable
//! fields: `provider`, `variant`, `native_event`, `kind`, `confidence`, `backfilled`, `session`
//! {`id`, `turn_id`, `cwd`, `workspace_roots`, `transcript_path`, `model`, `permission_mode`,
//! `user_email`}, `agent` {`id`, `agent_type`} or null, optional `provider_time` and
//! `agent_version`, `detail` (kind-specific: `tool` {`id`, `synthesized`, `name`, `canonical`,
//! `mcp`, `input`, `raw_input`}, `output`, `error`, `prompt`, `previously_continued`, …), and
//! `raw` when asked for.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod capability;
pub mod codec;
pub mod decision;
pub mod digest;
mod env;
pub mod error;
pub mod event;
pub mod kind;
pub mod kit;
mod macros;
pub mod mcp;
pub mod provider;
pub mod quirks;
mod raw_json;
pub mod router;
pub mod safe_fs;
pub mod tool_filter;

pub use capability::{
    degrade, AskFallback, CapSet, Capability, Degradation, Degraded, FailMode, Policy, PolicySource, UnsupportedError,
    UnsupportedMode,
};
pub use codec::{Codec, ConnState, Env, EventTarget, Invocation, ProcessEnv, StderrUse, Transport, WireResponse};
pub use decision::{Decision, DecisionKind, IntoDecision, Outcome};
pub use error::{DecodeCategory, DecodeError, EncodeCategory, EncodeError, HandlerError};
pub use event::{
    normalize_input, synth_tool_id, synth_tool_id_raw, AgentInfo, CanonicalTool, CompactPostEvent, CompactPreEvent,
    ContinuationFlag, Envelope, Event, Extensions, FileEditedEvent, McpCall, ModelRequestEvent, ModelResponseEvent,
    NotificationEvent, OtherEvent, PermissionEvent, PromptEvent, RawJson, RawPayload, SessionEndEvent, SessionInfo,
    SessionStartEvent, StopEvent, SubagentStartEvent, ToolCall, ToolCallBuilder, ToolErrorEvent, ToolPostEvent,
    ToolPreEvent,
};
pub use kind::EventKind;
pub use kit::{EventRow, FailShape, ToolTable};
pub use provider::{Confidence, NativeName, Provider, Variant};
pub use quirks::{Quirk, QuirkStatus};
pub use router::{
    all, any, boxed, match_canonical, match_mcp, match_tools, when, Context, Gated, Handler, HandlerList, Interceptor,
    Matcher, Next, Observer, Router, StageInfo, StageType, ToolGate, ToolGateEvent,
};
pub use tool_filter::{ToolSelector, ToolSelectorError};

/// Everything a hook author usually needs.
pub mod prelude {
    pub use crate::decision::{
        accept_prompt, allow, ask_user, block_prompt, continue_with, deny, finish, flag_output, no_decision, observed,
        replace_output, rewrite_input, ContextDecision, Decision, DecisionKind, IntoDecision, PromptDecision,
        StopDecision, ToolPostDecision, ToolPreDecision,
    };
    pub use crate::{
        all, any, match_canonical, match_mcp, match_tools, when, CanonicalTool, Capability, Context, Event, EventKind,
        FailMode, HandlerError, Next, Outcome, PermissionEvent, Policy, PromptEvent, Provider, Router, StopEvent,
        ToolCall, ToolErrorEvent, ToolGate, ToolGateEvent, ToolPostEvent, ToolPreEvent,
    };
    pub use crate::{
        AskFallback, CompactPostEvent, CompactPreEvent, FileEditedEvent, ModelRequestEvent, ModelResponseEvent,
        NotificationEvent, SessionEndEvent, SessionStartEvent, SubagentStartEvent, ToolSelector, UnsupportedMode,
    };
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
