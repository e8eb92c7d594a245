//! # agenthooks-core
//!
//! The provider-neutral contract of agenthooks: write a coding-agent hook once, run it on every
//! agent. This crate knows no agent dialect and does no process I/O; provider crates
//! (`agenthooks-claude`, `agenthooks-codex`, …) implement [`Codec`] for each, and
//! `agenthooks-runtime` runs the hook process (argv, stdin, deadline, stdout discipline, `serve`,
//! warm mode, logs, transcript readers).
//!
//! - **Events**: [`Event`] (one variant per [`EventKind`]) over an [`Envelope`] that keeps the
//!   raw payload byte for byte ([`Envelope::raw`]) and the provider's native typed struct
//!   ([`Envelope::native_view`]). Tool calls are normalized into [`ToolCall`].
//! - **Decisions**: [`decision`] — intent, not wire format; illegal shapes do not compile.
//! - **Capabilities and policy**: [`CapSet`], [`Policy`], and the pure [`degrade`].
//! - **Codec**: [`Codec`], the object-safe trait each dialect implements.
//! - **Router**: [`Router`], typed handlers, combinators [`any`], [`all`], [`when`], matchers,
//!   interceptors and observers.
//! - **Quirks**: [`quirks`], the registry of agent behaviour we work around.
//! - **Transcripts**: [`kit::transcript`], the
//!   [`TranscriptFormat`](kit::transcript::TranscriptFormat) a codec hands out
//!   ([`Codec::transcript`]) to type its agent's session records; the readers live in
//!   `agenthooks-runtime`.
//! - **MCP**: [`mcp`], which configured server an MCP tool call went to (read on demand).
//!
//! Non-goals: auth flows, HTTP decision servers, transcript capture pipelines (consumer concerns).
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
