//! Native OpenClaw shim frames, one typed struct per plugin hook.
//!
//! OpenClaw runs plugins in-process; the generated plugin ([`crate::plugin`]) forwards each hook
//! call to `agenthooks serve --provider=openclaw` as one NDJSON frame
//! `{"seq": n, "hook": "<name>", "event": {…}, "ctx": {…}}` (plus `timeout_ms` on awaited
//! hooks). The top-level structs below are those frames; `event` and `ctx` are typed after the
//! 2026.9.6 declarations (`reference/schemas/openclaw/hook-runner-global.d.ts`): every field of
//! the declared `PluginHook*Event` / `*Context` type, camelCase on the wire, unknown keys kept in
//! each struct's `extra`.
//!
//! The shim removes what cannot or must not leave the Gateway process before a frame is
//! written: functions and handles (`abortSignal`, `getCron`, `getSessionExtension`,
//! `hookInvocation`, `toolAuthority`, `dispatcher`, …) and the Gateway config (`ctx.config`,
//! `ctx.cfg`), which holds API keys (quirk #803).
//!
//! Typing rules (tolerant decoding, `docs/codec-guide.md`):
//!
//! - Only the hook name (`hook`) and, on the tool hooks, `event` (which carries the tool name)
//!   identify a frame. Everything else is optional.
//! - Top-level values of an unexpected shape (`event`, `ctx` not objects) move to `extra`
//!   (the kit's repair). Inside `event` and `ctx` every optional field is read with the kit's
//!   lenient rules ([`agenthooks_core::kit::lenient`]: text sent as a number, a count as a
//!   numeric string, a flag as `"true"` or `0`/`1`, a list as one string), and the kit's repair
//!   applies one level down ([`lenient::nested`]): a value of another shape moves to that
//!   object's `extra` and is reported as a projection issue, as at the top level.
//! - Enumerations OpenClaw extends (`reason`, `outcome`, `trigger`, `mode`, …) are plain
//!   strings.
//!
//! ```
//! use agenthooks_openclaw::native::NativeEvent;
//! use agenthooks_core::Provider;
//!
//! let bytes = br#"{"seq":1,"hook":"before_tool_call",
//!     "event":{"toolName":"exec","params":{"command":"ls"},"toolCallId":"c1"},
//!     "ctx":{"sessionId":"s1","toolName":"exec"}}"#;
//! let decoded = NativeEvent::decode(&Provider::OPENCLAW, bytes, None)?;
//! let NativeEvent::BeforeToolCall(f) = &decoded.native else { unreachable!() };
//! assert_eq!(f.event.tool_name, "exec");
//! assert_eq!(f.ctx.as_ref().and_then(|c| c.session_id.as_deref()), Some("s1"));
//! # Ok::<(), agenthooks_core::DecodeError>(())
//! ```

use agenthooks_core::kit::FailShape;
use agenthooks_core::{CapSet, Capability as C};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Unknown keys of a payload object, in wire order.
pub use agenthooks_core::kit::Extra;
/// Typed views of one hook frame (`view_as`).
pub use agenthooks_core::kit::FromNative;

use agenthooks_core::kit::lenient;

// ---------------------------------------------------------------------------------------------
// Nested payload structs
// ---------------------------------------------------------------------------------------------

/// Declares one nested payload object: camelCase wire names, the `required { … }` fields required, the
/// others optional and read with the kit's rules ([`lenient::opt`]), unknown keys in `extra`,
/// and a field of an unexpected shape moved to `extra` with a repair ([`lenient::Nested`]).
macro_rules! payload {
    (
        $(#[$m:meta])*
        $name:ident
        $( required { $( $(#[$rm:meta])* $rfield:ident : $rty:ty ),* $(,)? } )?
        {
            $( $(#[$fm:meta])* $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
        #[serde(remote = "Self", rename_all = "camelCase")]
        #[non_exhaustive]
        pub struct $name {
            $( $( $(#[$rm])* pub $rfield: $rty, )* )?
            $(
                $(#[$fm])*
                #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt")]
                pub $field: Option<$ty>,
            )*
            /// Keys not known to this crate.
            #[serde(flatten)]
            pub extra: Extra,
        }

        impl lenient::Nested for $name {
            fn strict<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
                Self::deserialize(de)
            }

            fn extra_mut(&mut self) -> &mut Extra {
                &mut self.extra
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
                lenient::nested(de)
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                Self::serialize(self, s)
            }
        }
    };
}

payload! {
    /// `PluginHookAgentContext`: the context of agent- and conversation-scope hooks. The only
    /// context that carries `workspaceDir` and the model (the daemon remembers them per
    /// connection for the tool hooks, quirk #802).
    AgentContext {
        /// `runId`: one end-to-end agent turn.
        run_id: String,
        /// `jobId` (cron runs).
        job_id: String,
        /// `trace` `{traceId, spanId, parentSpanId?, traceFlags}`.
        trace: Value,
        /// `agentId` (`main`).
        agent_id: String,
        /// `sessionKey` (`agent:main:main`, `agent:main:discord:channel:1188`).
        session_key: String,
        /// `sessionId`.
        session_id: String,
        /// `workspaceDir`.
        workspace_dir: String,
        /// `activeProjectKeys`.
        active_project_keys: Vec<String>,
        /// `modelProviderId` (`anthropic`, a configured provider id).
        model_provider_id: String,
        /// `modelId`.
        model_id: String,
        /// `messageProvider`.
        message_provider: String,
        /// `channel` (`discord`, …).
        channel: String,
        /// `accountId`.
        account_id: String,
        /// `chatId`.
        chat_id: String,
        /// `senderId`.
        sender_id: String,
        /// `trigger` (`user`, `heartbeat`, `cron`, …).
        trigger: String,
        /// `channelId`.
        channel_id: String,
        /// `inputProvenance`.
        input_provenance: Value,
        /// `contextTokenBudget`.
        context_token_budget: u64,
        /// `contextWindowSource` (`model`, `modelsConfig`, `agentContextTokens`, `default`).
        context_window_source: String,
        /// `contextWindowReferenceTokens`.
        context_window_reference_tokens: u64,
        /// `senderExternalId` (deprecated).
        sender_external_id: String,
        /// `channelContext`.
        channel_context: Value,
    }
}

payload! {
    /// `PluginHookToolRequesterContext`: who initiated the tool call.
    Requester {
        /// `channel`.
        channel: String,
        /// `accountId`.
        account_id: String,
        /// `senderId`.
        sender_id: String,
        /// `senderIsOwner`.
        sender_is_owner: bool,
        /// `roleIds`.
        role_ids: Vec<String>,
    }
}

payload! {
    /// `PluginHookToolContext`: the context of `before_tool_call` / `after_tool_call`. No
    /// `workspaceDir`, no model (quirk #802).
    ToolContext {
        /// `agentId`.
        agent_id: String,
        /// `sessionKey`.
        session_key: String,
        /// `sessionId`.
        session_id: String,
        /// `runId`.
        run_id: String,
        /// `trace`.
        trace: Value,
        /// `toolName`.
        tool_name: String,
        /// `toolKind` (`code_mode_exec`).
        tool_kind: String,
        /// `toolInputKind` (`javascript`, `typescript`).
        tool_input_kind: String,
        /// `toolCallId`.
        tool_call_id: String,
        /// `channelId`.
        channel_id: String,
        /// `requester`.
        requester: Requester,
    }
}

payload! {
    /// `PluginHookSessionContext` (and the `{agentId, sessionKey}` of the sync message hooks).
    SessionContext {
        /// `agentId`.
        agent_id: String,
        /// `sessionId`.
        session_id: String,
        /// `sessionKey`.
        session_key: String,
    }
}

payload! {
    /// `PluginHookGatewayContext` after the shim removed `config` (secrets), `getCron` and
    /// `abortSignal`.
    GatewayContext {
        /// `port`.
        port: u64,
        /// `workspaceDir`.
        workspace_dir: String,
    }
}

payload! {
    /// `PluginHookSubagentContext`.
    SubagentContext {
        /// `runId`.
        run_id: String,
        /// `childSessionKey`.
        child_session_key: String,
        /// `requesterSessionKey`.
        requester_session_key: String,
    }
}

payload! {
    /// The contexts of the channel, dispatch, skill and install hooks (`PluginHookMessageContext`,
    /// `…BeforeDispatchContext`, `…ReplyDispatchContext` without `cfg`/`dispatcher`,
    /// `…SkillContext`, `…BeforeInstallContext`, `…ChannelPairingContext`): their common keys.
    ChannelContext {
        /// `channelId`.
        channel_id: String,
        /// `accountId`.
        account_id: String,
        /// `conversationId`.
        conversation_id: String,
        /// `sessionKey`.
        session_key: String,
        /// `runId`.
        run_id: String,
        /// `agentId`.
        agent_id: String,
        /// `senderId`.
        sender_id: String,
        /// `messageId`.
        message_id: String,
        /// `workspaceDir` (skill hooks).
        workspace_dir: String,
        /// `dispatchKind` (`agent`, `acp`).
        dispatch_kind: String,
    }
}

payload! {
    /// `before_tool_call` / `after_tool_call` `event` (`PluginHookBeforeToolCallEvent` /
    /// `PluginHookAfterToolCallEvent`).
    ToolCallEvent
    required {
        /// `toolName`: OpenClaw's canonical tool id (`exec`, `read`, `apply_patch`, …).
        /// Identifying: required.
        tool_name: String,
    }
    {
        /// `params`: the tool arguments (an object).
        params: Value,
        /// `toolKind`.
        tool_kind: String,
        /// `toolInputKind`.
        tool_input_kind: String,
        /// `runId`.
        run_id: String,
        /// `toolCallId` (the model's call id).
        tool_call_id: String,
        /// `derivedPaths` (`before_tool_call`): best-effort destination paths.
        derived_paths: Vec<String>,
        /// `result` (`after_tool_call`): `{content, details}`; `details.status` is `blocked` for
        /// a call a plugin blocked.
        result: Value,
        /// `error` (`after_tool_call`): present when the call failed or was blocked.
        error: String,
        /// `durationMs` (`after_tool_call`).
        duration_ms: u64,
    }
}

payload! {
    /// `before_agent_run` `event` (`PluginHookBeforeAgentRunEvent`).
    BeforeAgentRunEvent {
        /// `prompt`: the user's message.
        prompt: String,
        /// `messages`: session history before the prompt.
        messages: Value,
        /// `systemPrompt`.
        system_prompt: String,
        /// `accountId`.
        account_id: String,
        /// `channelId`.
        channel_id: String,
        /// `senderId`.
        sender_id: String,
        /// `senderIsOwner`.
        sender_is_owner: bool,
    }
}

payload! {
    /// `before_prompt_build` `event` (`PluginHookBeforePromptBuildEvent`).
    BeforePromptBuildEvent {
        /// `prompt`.
        prompt: String,
        /// `currentUserMessage`.
        current_user_message: String,
        /// `currentUserMessageId`.
        current_user_message_id: String,
        /// `messages`.
        messages: Value,
    }
}

payload! {
    /// `before_model_resolve` `event`.
    BeforeModelResolveEvent {
        /// `prompt`.
        prompt: String,
        /// `attachments` `[{kind, mimeType?}]`.
        attachments: Value,
    }
}

payload! {
    /// `agent_turn_prepare` `event`.
    AgentTurnPrepareEvent {
        /// `prompt`.
        prompt: String,
        /// `messages`.
        messages: Value,
        /// `queuedInjections`.
        queued_injections: Value,
    }
}

payload! {
    /// `before_agent_reply` `event`.
    BeforeAgentReplyEvent {
        /// `cleanedBody`.
        cleaned_body: String,
    }
}

payload! {
    /// `model_call_started` / `model_call_ended` `event` (`PluginHookModelCall*Event`).
    ModelCallEvent {
        /// `runId`.
        run_id: String,
        /// `callId` (`<runId>:model:<n>`).
        call_id: String,
        /// `sessionKey`.
        session_key: String,
        /// `sessionId`.
        session_id: String,
        /// `provider`.
        provider: String,
        /// `model`.
        model: String,
        /// `api` (`openai-completions`, …).
        api: String,
        /// `transport`.
        transport: String,
        /// `contextTokenBudget`.
        context_token_budget: u64,
        /// `contextWindowSource`.
        context_window_source: String,
        /// `contextWindowReferenceTokens`.
        context_window_reference_tokens: u64,
        /// `durationMs` (ended).
        duration_ms: u64,
        /// `outcome` (ended): `completed`, `error`.
        outcome: String,
        /// `errorCategory` (ended).
        error_category: String,
        /// `failureKind` (ended).
        failure_kind: String,
        /// `requestPayloadBytes` (ended).
        request_payload_bytes: u64,
        /// `responseStreamBytes` (ended).
        response_stream_bytes: u64,
        /// `timeToFirstByteMs` (ended).
        time_to_first_byte_ms: u64,
        /// `upstreamRequestIdHash` (ended).
        upstream_request_id_hash: String,
    }
}

payload! {
    /// `llm_input` `event`.
    LlmInputEvent {
        /// `runId`.
        run_id: String,
        /// `sessionId`.
        session_id: String,
        /// `provider`.
        provider: String,
        /// `model`.
        model: String,
        /// `systemPrompt`.
        system_prompt: String,
        /// `prompt`.
        prompt: String,
        /// `historyMessages`.
        history_messages: Value,
        /// `imagesCount`.
        images_count: u64,
        /// `tools`: the tool definitions sent to the model.
        tools: Value,
    }
}

payload! {
    /// `llm_output` `usage`.
    Usage {
        /// `input` tokens.
        input: u64,
        /// `output` tokens.
        output: u64,
        /// `cacheRead` tokens.
        cache_read: u64,
        /// `cacheWrite` tokens.
        cache_write: u64,
        /// `total` tokens.
        total: u64,
        /// `cost` (2026.9.6 sends `{total}`).
        cost: Value,
    }
}

payload! {
    /// `llm_output` `event`.
    LlmOutputEvent {
        /// `runId`.
        run_id: String,
        /// `sessionId`.
        session_id: String,
        /// `provider`.
        provider: String,
        /// `model`.
        model: String,
        /// `contextTokenBudget`.
        context_token_budget: u64,
        /// `contextWindowSource`.
        context_window_source: String,
        /// `contextWindowReferenceTokens`.
        context_window_reference_tokens: u64,
        /// `resolvedRef` (`provider/model`).
        resolved_ref: String,
        /// `harnessId` (`openclaw`, a CLI backend).
        harness_id: String,
        /// `prompt`.
        prompt: String,
        /// `assistantTexts`.
        assistant_texts: Vec<String>,
        /// `lastAssistant`: the last assistant message object.
        last_assistant: Value,
        /// `usage`.
        usage: Usage,
        /// `reasoningEffort`.
        reasoning_effort: String,
        /// `fastMode`.
        fast_mode: bool,
    }
}

payload! {
    /// `before_agent_finalize` `event`: the stop/continue lever.
    BeforeAgentFinalizeEvent {
        /// `runId`.
        run_id: String,
        /// `sessionId`.
        session_id: String,
        /// `sessionKey`.
        session_key: String,
        /// `turnId`.
        turn_id: String,
        /// `provider`.
        provider: String,
        /// `model`.
        model: String,
        /// `cwd`.
        cwd: String,
        /// `transcriptPath` (2026.9.6 sends the session key here).
        transcript_path: String,
        /// `stopHookActive`: a finalize hook already asked for a revision of this turn.
        stop_hook_active: bool,
        /// `lastAssistantMessage`.
        last_assistant_message: String,
        /// `messages`.
        messages: Value,
    }
}

payload! {
    /// `agent_end` `event`.
    AgentEndEvent {
        /// `runId`.
        run_id: String,
        /// `messages`: the run's transcript.
        messages: Value,
        /// `success`.
        success: bool,
        /// `error`.
        error: String,
        /// `durationMs`.
        duration_ms: u64,
    }
}

payload! {
    /// `before_compaction` / `after_compaction` / `before_reset` `event`.
    CompactionEvent {
        /// `messageCount`.
        message_count: u64,
        /// `compactingCount` (before).
        compacting_count: u64,
        /// `compactedCount` (after).
        compacted_count: u64,
        /// `tokenCount`.
        token_count: u64,
        /// `messages`.
        messages: Value,
        /// `sessionFile`.
        session_file: String,
        /// `previousSessionId` (after, when the session rotated).
        previous_session_id: String,
        /// `reason` (`before_reset`).
        reason: String,
    }
}

payload! {
    /// `session_start` / `session_end` `event`.
    SessionEvent {
        /// `sessionId`.
        session_id: String,
        /// `sessionKey`.
        session_key: String,
        /// `resumedFrom` (start).
        resumed_from: String,
        /// `messageCount` (end).
        message_count: u64,
        /// `durationMs` (end).
        duration_ms: u64,
        /// `reason` (end): `new`, `reset`, `idle`, `daily`, `compaction`, `deleted`,
        /// `shutdown`, `restart`, `unknown`.
        reason: String,
        /// `sessionFile` (end).
        session_file: String,
        /// `transcriptArchived` (end).
        transcript_archived: bool,
        /// `nextSessionId` (end).
        next_session_id: String,
        /// `nextSessionKey` (end).
        next_session_key: String,
    }
}

payload! {
    /// `subagent_spawned` / `subagent_progress` / `subagent_ended` / `subagent_delivery_target`
    /// `event`.
    SubagentEvent {
        /// `childSessionKey`.
        child_session_key: String,
        /// `agentId`.
        agent_id: String,
        /// `label`.
        label: String,
        /// `mode` (`run`, `session`).
        mode: String,
        /// `requester`.
        requester: Value,
        /// `threadRequested`.
        thread_requested: bool,
        /// `runId`.
        run_id: String,
        /// `resolvedModel`.
        resolved_model: String,
        /// `resolvedProvider`.
        resolved_provider: String,
        /// `phase` (progress: `started`, `ended`).
        phase: String,
        /// `outcome` (progress, ended).
        outcome: String,
        /// `targetSessionKey` (ended).
        target_session_key: String,
        /// `targetKind` (ended: `subagent`, `acp`).
        target_kind: String,
        /// `reason` (ended).
        reason: String,
        /// `sendFarewell` (ended).
        send_farewell: bool,
        /// `accountId` (ended).
        account_id: String,
        /// `endedAt` (ended, epoch ms).
        ended_at: u64,
        /// `error` (ended).
        error: String,
        /// `requesterSessionKey` (delivery target).
        requester_session_key: String,
        /// `requesterOrigin` (delivery target).
        requester_origin: Value,
        /// `childRunId` (delivery target).
        child_run_id: String,
        /// `spawnMode` (delivery target).
        spawn_mode: String,
        /// `expectsCompletionMessage` (delivery target).
        expects_completion_message: bool,
    }
}

payload! {
    /// `gateway_start` / `gateway_stop` `event`.
    GatewayEvent {
        /// `port` (start).
        port: u64,
        /// `reason` (stop).
        reason: String,
    }
}

payload! {
    /// `tool_result_persist` / `before_message_write` `event` (synchronous hooks: the shim
    /// reports them and returns at once).
    MessageWriteEvent {
        /// `message`: the transcript message.
        message: Value,
        /// `toolName` (persist).
        tool_name: String,
        /// `toolCallId` (persist).
        tool_call_id: String,
        /// `isSynthetic` (persist).
        is_synthetic: bool,
        /// `sessionKey` (write).
        session_key: String,
        /// `agentId` (write).
        agent_id: String,
    }
}

payload! {
    /// `resolve_exec_env` `event`.
    ResolveExecEnvEvent {
        /// `sessionKey`.
        session_key: String,
        /// `toolName` (`exec`).
        tool_name: String,
        /// `host` (`gateway`, `sandbox`, `node`).
        host: String,
    }
}

payload! {
    /// The channel delivery hooks' `event` (`inbound_claim`, `message_received`,
    /// `message_sending`, `message_sent`, `reply_payload_sending`, `before_dispatch`,
    /// `reply_dispatch`, `channel_pairing_requested`): their common keys; the rest is in
    /// `extra`.
    ChannelEvent {
        /// `content`.
        content: String,
        /// `body`.
        body: String,
        /// `channel`.
        channel: String,
        /// `from` (received).
        from: String,
        /// `to` (sending, sent).
        to: String,
        /// `accountId`.
        account_id: String,
        /// `conversationId`.
        conversation_id: String,
        /// `senderId`.
        sender_id: String,
        /// `messageId`.
        message_id: String,
        /// `sessionKey`.
        session_key: String,
        /// `runId`.
        run_id: String,
        /// `timestamp`.
        timestamp: u64,
        /// `isGroup`.
        is_group: bool,
        /// `success` (sent).
        success: bool,
        /// `error` (sent).
        error: String,
        /// `payload` (reply payload sending).
        payload: Value,
        /// `kind` (reply payload sending: `tool`, `block`, `final`).
        kind: String,
        /// `code` (pairing).
        code: String,
        /// `metadata`.
        metadata: Value,
    }
}

payload! {
    /// The cron, heartbeat, skill and install hooks' `event` (`cron_reconciled`,
    /// `cron_changed`, `heartbeat_prompt_contribution`, `skill_proposal_evaluate`,
    /// `skill_proposal_changed`, `skill_changed`, `before_install`): their common keys; the rest
    /// is in `extra`.
    OperatorEvent {
        /// `reason`.
        reason: String,
        /// `action`.
        action: String,
        /// `enabled` (cron reconciled).
        enabled: bool,
        /// `jobId` (cron changed).
        job_id: String,
        /// `status`.
        status: String,
        /// `sessionKey`.
        session_key: String,
        /// `sessionId`.
        session_id: String,
        /// `agentId`.
        agent_id: String,
        /// `heartbeatName` (heartbeat).
        heartbeat_name: String,
        /// `skill` (skill proposal evaluate).
        skill: Value,
        /// `proposal` (skill hooks).
        proposal: Value,
        /// `occurredAt` (skill changes).
        occurred_at: String,
        /// `targetType` (install: `skill`, `plugin`).
        target_type: String,
        /// `targetName` (install).
        target_name: String,
        /// `sourcePath` (install).
        source_path: String,
    }
}

payload! {
    /// `agenthooks_local_decision` `event`: the shim decided a gate itself (the daemon was
    /// unreachable, answered with an error or missed the shim's deadline) and reports it, so
    /// the call's `after_tool_call` decodes as `tool.error` (quirk #804).
    LocalDecisionEvent {
        /// `gate`: the hook decided (`before_tool_call`, `before_agent_run`, …).
        gate: String,
        /// `decision`: `block` (fail-closed) or `pass` (fail-open).
        decision: String,
        /// `cause`: `timeout`, `daemon-unavailable`, `daemon-error`.
        cause: String,
        /// `reason`: the text OpenClaw was given.
        reason: String,
        /// `toolName`.
        tool_name: String,
        /// `toolCallId`.
        tool_call_id: String,
        /// `runId`.
        run_id: String,
    }
}

// ---------------------------------------------------------------------------------------------
// What OpenClaw honours, per hook (the rows' `caps`)
// ---------------------------------------------------------------------------------------------

/// `before_tool_call`: block (`{block, blockReason}`), ask (`requireApproval`), rewrite
/// (`params`, with or without a verdict). There is no "allow": `block: false` is no decision.
pub const TOOL_GATE: CapSet = CapSet::of(&[C::Deny, C::Ask, C::UpdateInput, C::NeutralRewrite]);
/// `before_agent_run`: `{outcome: "block", reason, message?}`.
pub const PROMPT_GATE: CapSet = CapSet::of(&[C::Deny]);
/// `before_prompt_build`: `prependContext`.
pub const PROMPT_CONTEXT: CapSet = CapSet::of(&[C::AddContext]);
/// `before_agent_finalize`: `{action: "revise", retry: {instruction}}`.
pub const FINALIZE: CapSet = CapSet::of(&[C::ContinueAgent]);

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

agenthooks_core::kit::native_events! {
    /// A decoded OpenClaw shim frame.
    name_key Some("hook");
    // Every hook name is OpenClaw's own.
    defaults .provider_only();
    common {
        /// `seq`: the shim's frame number (the reply carries it back).
        seq: Option<Value>,
        /// `hook`: the OpenClaw hook name.
        hook: Option<String>,
        /// `timeout_ms`: the daemon's deadline for this frame (awaited hooks).
        timeout_ms: Option<Value>,
    }
    events {
        /// `before_tool_call`: gate or rewrite a tool call (15 s fail-closed host budget).
        BeforeToolCall("before_tool_call", ToolPre, blocking, tool_matcher)
            .caps(TOOL_GATE).fail(FailShape::Block).identify(&["event"]) {
            /// `event` (identifying: carries `toolName`).
            event: ToolCallEvent,
            /// `ctx`.
            ctx: Option<ToolContext>,
        }
        /// `after_tool_call`: `tool.post`, or `tool.error` when `event.error` is set or the
        /// shim blocked the call itself.
        AfterToolCall("after_tool_call", ToolPost, tool_matcher)
            .also(agenthooks_core::EventKind::ToolError).identify(&["event"]).may_async() {
            /// `event` (identifying: carries `toolName` and `error`).
            event: ToolCallEvent,
            /// `ctx`.
            ctx: Option<ToolContext>,
        }
        /// `before_agent_run`: the prompt gate (embedded and CLI runners only).
        BeforeAgentRun("before_agent_run", PromptSubmitted, blocking)
            .caps(PROMPT_GATE).fail(FailShape::Block) {
            /// `event`.
            event: Option<BeforeAgentRunEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `before_prompt_build`: where context reaches the model; wired when a prompt hook
        /// adds context.
        BeforePromptBuild("before_prompt_build", PromptSubmitted, blocking)
            .caps(PROMPT_CONTEXT).secondary() {
            /// `event`.
            event: Option<BeforePromptBuildEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `before_agent_finalize`: the stop/continue lever.
        BeforeAgentFinalize("before_agent_finalize", Stop, blocking)
            .caps(FINALIZE) {
            /// `event`.
            event: Option<BeforeAgentFinalizeEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `session_start`.
        SessionStart("session_start", SessionStart).may_async() {
            /// `event`.
            event: Option<SessionEvent>,
            /// `ctx`.
            ctx: Option<SessionContext>,
        }
        /// `session_end` (2 s shared drain on shutdown).
        SessionEnd("session_end", SessionEnd).may_async() {
            /// `event`.
            event: Option<SessionEvent>,
            /// `ctx`.
            ctx: Option<SessionContext>,
        }
        /// `subagent_spawned`.
        SubagentSpawned("subagent_spawned", SubagentStart).may_async() {
            /// `event`.
            event: Option<SubagentEvent>,
            /// `ctx`.
            ctx: Option<SubagentContext>,
        }
        /// `subagent_ended` (an observer: a subagent cannot be continued from here).
        SubagentEnded("subagent_ended", SubagentStop).may_async() {
            /// `event`.
            event: Option<SubagentEvent>,
            /// `ctx`.
            ctx: Option<SubagentContext>,
        }
        /// `before_compaction`.
        BeforeCompaction("before_compaction", CompactPre).may_async() {
            /// `event`.
            event: Option<CompactionEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `after_compaction`.
        AfterCompaction("after_compaction", CompactPost).may_async() {
            /// `event`.
            event: Option<CompactionEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `llm_input`: the request a model call is built from.
        LlmInput("llm_input", ModelRequest).may_async() {
            /// `event`.
            event: Option<LlmInputEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `llm_output`: the run's assistant texts and usage (cached per run for `agent_end`).
        LlmOutput("llm_output", ModelResponse).may_async() {
            /// `event`.
            event: Option<LlmOutputEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `agent_end`: the run finished (`other`; the cached `llm_output` is spliced in).
        AgentEnd("agent_end", Other).may_async() {
            /// `event`.
            event: Option<AgentEndEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
            /// The run's `llm_output` (final text, usage) when it arrived before `agent_end` on
            /// this connection: not on the wire, spliced in by the daemon (quirk #805).
            #[serde(skip)]
            run_output: Option<RunOutput>,
        }
        /// `before_model_resolve`.
        BeforeModelResolve("before_model_resolve", Other).may_async() {
            /// `event`.
            event: Option<BeforeModelResolveEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `agent_turn_prepare`.
        AgentTurnPrepare("agent_turn_prepare", Other).may_async() {
            /// `event`.
            event: Option<AgentTurnPrepareEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `before_agent_reply` (a claim hook).
        BeforeAgentReply("before_agent_reply", Other).may_async() {
            /// `event`.
            event: Option<BeforeAgentReplyEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `model_call_started`.
        ModelCallStarted("model_call_started", Other).may_async() {
            /// `event`.
            event: Option<ModelCallEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `model_call_ended`.
        ModelCallEnded("model_call_ended", Other).may_async() {
            /// `event`.
            event: Option<ModelCallEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `before_reset`.
        BeforeReset("before_reset", Other).may_async() {
            /// `event`.
            event: Option<CompactionEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `inbound_claim`.
        InboundClaim("inbound_claim", Other).may_async() {
            /// `event`.
            event: Option<ChannelEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `channel_pairing_requested`.
        ChannelPairingRequested("channel_pairing_requested", Other).may_async() {
            /// `event`.
            event: Option<ChannelEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `message_received`.
        MessageReceived("message_received", Other).may_async() {
            /// `event`.
            event: Option<ChannelEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `message_sending`.
        MessageSending("message_sending", Other).may_async() {
            /// `event`.
            event: Option<ChannelEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `reply_payload_sending`.
        ReplyPayloadSending("reply_payload_sending", Other).may_async() {
            /// `event`.
            event: Option<ChannelEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `message_sent`.
        MessageSent("message_sent", Other).may_async() {
            /// `event`.
            event: Option<ChannelEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `tool_result_persist` (synchronous).
        ToolResultPersist("tool_result_persist", Other).may_async() {
            /// `event`.
            event: Option<MessageWriteEvent>,
            /// `ctx`.
            ctx: Option<ToolContext>,
        }
        /// `before_message_write` (synchronous).
        BeforeMessageWrite("before_message_write", Other).may_async() {
            /// `event`.
            event: Option<MessageWriteEvent>,
            /// `ctx`.
            ctx: Option<SessionContext>,
        }
        /// `subagent_delivery_target` (deprecated modify hook).
        SubagentDeliveryTarget("subagent_delivery_target", Other).may_async() {
            /// `event`.
            event: Option<SubagentEvent>,
            /// `ctx`.
            ctx: Option<SubagentContext>,
        }
        /// `subagent_progress`.
        SubagentProgress("subagent_progress", Other).may_async() {
            /// `event`.
            event: Option<SubagentEvent>,
            /// `ctx`.
            ctx: Option<SubagentContext>,
        }
        /// `gateway_start` (the shim removed `ctx.config`: it holds API keys).
        GatewayStart("gateway_start", Other).may_async() {
            /// `event`.
            event: Option<GatewayEvent>,
            /// `ctx`.
            ctx: Option<GatewayContext>,
        }
        /// `gateway_stop` (5 s budget; `ctx.config` removed as on start).
        GatewayStop("gateway_stop", Other).may_async() {
            /// `event`.
            event: Option<GatewayEvent>,
            /// `ctx`.
            ctx: Option<GatewayContext>,
        }
        /// `heartbeat_prompt_contribution`.
        HeartbeatPromptContribution("heartbeat_prompt_contribution", Other).may_async() {
            /// `event`.
            event: Option<OperatorEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `cron_reconciled`.
        CronReconciled("cron_reconciled", Other).may_async() {
            /// `event`.
            event: Option<OperatorEvent>,
            /// `ctx`.
            ctx: Option<GatewayContext>,
        }
        /// `cron_changed`.
        CronChanged("cron_changed", Other).may_async() {
            /// `event`.
            event: Option<OperatorEvent>,
            /// `ctx`.
            ctx: Option<GatewayContext>,
        }
        /// `skill_proposal_evaluate`.
        SkillProposalEvaluate("skill_proposal_evaluate", Other).may_async() {
            /// `event`.
            event: Option<OperatorEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `skill_proposal_changed`.
        SkillProposalChanged("skill_proposal_changed", Other).may_async() {
            /// `event`.
            event: Option<OperatorEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `skill_changed`.
        SkillChanged("skill_changed", Other).may_async() {
            /// `event`.
            event: Option<OperatorEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `before_dispatch`.
        BeforeDispatch("before_dispatch", Other).may_async() {
            /// `event`.
            event: Option<ChannelEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `reply_dispatch` (the shim removes `ctx.cfg` and the dispatcher).
        ReplyDispatch("reply_dispatch", Other).may_async() {
            /// `event`.
            event: Option<ChannelEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `before_install` (15 s fail-closed host budget; not gated by agenthooks).
        BeforeInstall("before_install", Other).may_async() {
            /// `event`.
            event: Option<OperatorEvent>,
            /// `ctx`.
            ctx: Option<ChannelContext>,
        }
        /// `resolve_exec_env`.
        ResolveExecEnv("resolve_exec_env", Other).may_async() {
            /// `event`.
            event: Option<ResolveExecEnvEvent>,
            /// `ctx`.
            ctx: Option<AgentContext>,
        }
        /// `agenthooks_local_decision`: not an OpenClaw hook; the shim's report of a gate it
        /// decided itself (quirk #804). Install never wires it.
        LocalDecision("agenthooks_local_decision", Other).secondary() {
            /// `event`.
            event: Option<LocalDecisionEvent>,
            /// `ctx`.
            ctx: Option<ToolContext>,
        }
    }
}

/// The part of a run's `llm_output` the daemon splices into `agent_end` (quirk #805).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct RunOutput {
    /// The final assistant text (`assistantTexts`, the last one).
    pub final_text: Option<String>,
    /// `usage.input`.
    pub input_tokens: Option<u64>,
    /// `usage.output`.
    pub output_tokens: Option<u64>,
    /// `usage.total`.
    pub total_tokens: Option<u64>,
}
