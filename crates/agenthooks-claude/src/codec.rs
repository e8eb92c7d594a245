//! [`ClaudeCodec`]: the [`Codec`] of Claude Code's hook dialect.
//!
//! One table (`Dialect`, looked up per native event) drives both the capabilities the codec
//! reports and what the encoder may write, so the two cannot drift: every capability an event
//! reports has a wire form, and an outcome that needs a capability the event lacks is an
//! [`EncodeError`], never silently dropped.

use std::time::Duration;

use agenthooks_core::decision::DEFAULT_BLOCK_REASON;
use agenthooks_core::{
    AgentInfo, CapSet, Capability, Codec, CompactPostEvent, CompactPreEvent, Confidence, DecisionKind, DecodeError,
    EncodeCategory, EncodeError, Env, Envelope, Event, EventKind, EventRow, EventTarget, FailMode, FileEditedEvent,
    Invocation, McpCall, ModelResponseEvent, NativeName, NotificationEvent, OtherEvent, Outcome, PermissionEvent,
    PromptEvent, Provider, Quirk, SessionEndEvent, SessionInfo, SessionStartEvent, StderrUse, StopEvent,
    SubagentStartEvent, ToolCall, ToolErrorEvent, ToolPostEvent, ToolPreEvent, Variant, WireResponse,
};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::native::{self, McpServer, NativeEvent};
use crate::tools;

/// The provider this codec serves.
const PROVIDER: Provider = Provider::CLAUDE_CODE;

/// Claude Code's default timeout for command hooks (seconds in its settings).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// Separator between several context strings merged into one `additionalContext`.
const CONTEXT_SEPARATOR: &str = "\n\n";

/// The Claude Code codec. Use the [`CODEC`](crate::CODEC) static.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct ClaudeCodec;

impl ClaudeCodec {
    /// The codec (stateless).
    pub const fn new() -> Self {
        Self
    }
}

// ---------------------------------------------------------------------------------------------
// The dialect table
// ---------------------------------------------------------------------------------------------

/// How an event's gate is spelled on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gate {
    /// No decision field at all.
    None,
    /// `hookSpecificOutput.permissionDecision` (+ `permissionDecisionReason`, `updatedInput`).
    PermissionDecision,
    /// `hookSpecificOutput.decision {behavior, updatedInput | message, interrupt}`.
    PermissionRequest,
    /// Top-level `decision: "block"` + `reason` rejects the prompt.
    PromptBlock,
    /// Top-level `decision: "block"` + `reason` continues the agent.
    StopBlock,
    /// Top-level `decision: "block"` + `reason` feeds back; `updatedToolOutput` replaces.
    PostTool,
}

/// What Claude honours for one native event: the gate spelling and the capability set.
#[derive(Debug, Clone, Copy)]
struct Dialect {
    gate: Gate,
    caps: CapSet,
}

use Capability as C;

const TOOL_GATE: CapSet = CapSet::of(&[
    C::Allow,
    C::Deny,
    C::Ask,
    C::UpdateInput,
    C::AddContext,
    C::StopAgent,
    C::SystemMessage,
]);
const SKILL_GATE: CapSet = CapSet::of(&[C::Deny, C::Ask, C::StopAgent, C::SystemMessage]);
// Fired just before Claude's own permission dialog: abstaining lets the user decide (an ask is
// answered no decision). Does not fire in `-p` mode, so no headless case to recognise.
const PERMISSION: CapSet = CapSet::of(&[
    C::Allow,
    C::Deny,
    C::UpdateInput,
    C::StopAgent,
    C::SystemMessage,
    C::PermissionDialog,
]);
const POST_TOOL: CapSet = CapSet::of(&[
    C::AddContext,
    C::ReplaceOutput,
    C::FlagOutput,
    C::StopAgent,
    C::SystemMessage,
]);
const PROMPT: CapSet = CapSet::of(&[C::Deny, C::AddContext, C::StopAgent, C::SystemMessage]);
const STOP: CapSet = CapSet::of(&[C::ContinueAgent, C::AddContext, C::StopAgent, C::SystemMessage]);
/// In-loop events that take context and can stop the agent.
const LOOP_CONTEXT: CapSet = CapSet::of(&[C::AddContext, C::StopAgent, C::SystemMessage]);
/// Events that take context but are not in the middle of the agent loop.
const CONTEXT: CapSet = CapSet::of(&[C::AddContext, C::SystemMessage]);
/// Events whose JSON output Claude reads but whose specific fields have no unified intent.
const NOTICE: CapSet = CapSet::of(&[C::SystemMessage]);

/// The dialect row of a native event. Unknown (future) events get [`NOTICE`]: Claude parses
/// every hook's JSON output for `systemMessage`.
fn dialect(native: &str) -> Dialect {
    let (gate, caps) = match native {
        "PreToolUse" => (Gate::PermissionDecision, TOOL_GATE),
        "PreSkillShellCommand" => (Gate::PermissionDecision, SKILL_GATE),
        "PermissionRequest" => (Gate::PermissionRequest, PERMISSION),
        "PostToolUse" => (Gate::PostTool, POST_TOOL),
        "UserPromptSubmit" => (Gate::PromptBlock, PROMPT),
        "Stop" | "SubagentStop" => (Gate::StopBlock, STOP),
        "PostToolUseFailure" | "PostToolBatch" | "UserPromptExpansion" => (Gate::None, LOOP_CONTEXT),
        "SessionStart" | "Setup" | "SubagentStart" | "Notification" | "PostModelSwitch" => (Gate::None, CONTEXT),
        // The turn or session is over, or stdout is not JSON at all (WorktreeCreate, #104).
        "StopFailure" | "SessionEnd" | "WorktreeCreate" => (Gate::None, CapSet::EMPTY),
        _ => (Gate::None, NOTICE),
    };
    Dialect { gate, caps }
}

// ---------------------------------------------------------------------------------------------
// Codec
// ---------------------------------------------------------------------------------------------

impl Codec for ClaudeCodec {
    fn provider(&self) -> Provider {
        PROVIDER
    }

    fn native_events(&self) -> &'static [EventRow] {
        native::EVENTS
    }

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let native = NativeEvent::from_slice(inv.payload.json_bytes(), inv.native_event)
            .map_err(|e| DecodeError::from_path_error(PROVIDER, e))?;
        if let Some(hint) = inv.native_event {
            if hint != native.name() {
                tracing::debug!(
                    hint,
                    payload = native.name(),
                    "--event differs from hook_event_name; the payload wins"
                );
            }
        }
        Ok(build_event(inv, native))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let env = event.envelope();
        let native = env.native.as_str();
        if std::mem::discriminant(&Outcome::neutral_for(event.kind())) != std::mem::discriminant(outcome) {
            return Err(EncodeError::new(
                PROVIDER,
                EncodeCategory::WrongFamily,
                format!("a {} decision does not fit {native}", outcome.kind()),
            ));
        }
        if outcome.is_bare_neutral() {
            return Ok(self.no_op(&EventTarget::of(event)));
        }
        let mcp = event.tool().is_some_and(|t| t.mcp.is_some());
        encode_reply(native, dialect(native), outcome, mcp).map(Reply::into_wire)
    }

    fn no_op(&self, target: &EventTarget) -> WireResponse {
        match target.native.as_ref().map(NativeName::as_str) {
            // Command hooks print the worktree path on stdout; `{}` would be a path (#104).
            Some("WorktreeCreate") => WireResponse::empty(),
            // The explicit "no opinion" (quirk #17): empty stdout is no decision as well, but
            // `{}` states it and survives wrappers that treat empty output as a failure.
            _ => WireResponse::stdout(b"{}".to_vec()),
        }
    }

    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        if mode != FailMode::Closed {
            return self.no_op(target);
        }
        let reason = if reason.trim().is_empty() {
            DEFAULT_BLOCK_REASON
        } else {
            reason
        };
        let Some(native) = target.native.as_ref().map(NativeName::as_str) else {
            // The event is unknown: JSON cannot name it. Exit 2 is Claude's universal block,
            // except that it continues a stopping agent (#107), so a known non-gating kind
            // gets the no-op.
            return match target.kind {
                Some(EventKind::ToolPre | EventKind::Permission | EventKind::PromptSubmitted | EventKind::Other)
                | None => WireResponse::exit(2, reason.as_bytes().to_vec()),
                Some(_) => self.no_op(target),
            };
        };
        let mut reply = Reply::default();
        match native {
            "PreToolUse" | "PreSkillShellCommand" | "PreModelSwitch" => {
                reply.permission_decision = Some("deny");
                reply.permission_reason = Some(reason.to_owned());
            }
            "PermissionRequest" => {
                let mut d = Map::new();
                d.insert("behavior".into(), "deny".into());
                d.insert("message".into(), reason.into());
                reply.permission_request = Some(d);
            }
            "UserPromptSubmit" | "UserPromptExpansion" | "PreCompact" | "ConfigChange" => {
                reply.block = Some(reason.to_owned());
            }
            known if native::spec(known).is_some() => return self.no_op(target),
            // A future event: we do not know its JSON; exit 2 blocks where it can block.
            _ => return WireResponse::exit(2, reason.as_bytes().to_vec()),
        }
        native.clone_into(&mut reply.native);
        reply.into_wire()
    }

    fn capabilities(&self, variant: &Variant, native: &str) -> CapSet {
        // Cowork and remote sessions honour the same output fields; their differences are
        // install concerns (quirk #1: Stop hooks must be synchronous in cowork).
        let _ = variant;
        dialect(native).caps
    }

    fn default_timeout(&self) -> Duration {
        DEFAULT_TIMEOUT
    }

    fn quirks(&self) -> &'static [Quirk] {
        crate::quirks::QUIRKS
    }

    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        // Codex, Cursor, Gemini and Copilot cross-set CLAUDE_PROJECT_DIR / CLAUDE_PLUGIN_ROOT
        // (quirk #20); these two are Claude's own.
        let claude = env.var("CLAUDECODE").as_deref() == Some("1")
            || env.var("CLAUDE_CODE_ENTRYPOINT").is_some_and(|v| !v.is_empty());
        claude.then_some(Confidence::Inferred)
    }

    fn sniff_payload(&self, payload: &[u8], env: &dyn Env) -> Option<Confidence> {
        let _ = env;
        sniff(agenthooks_core::event::strip_bom(payload))
    }

    fn stderr_use(&self) -> StderrUse {
        // Exit 2 feeds stderr to the model: logs must never share it.
        StderrUse::Reserved
    }
}

// ---------------------------------------------------------------------------------------------
// Decode
// ---------------------------------------------------------------------------------------------

/// Builds the typed event (envelope, projection, native view) from a decoded payload.
fn build_event(inv: &Invocation<'_>, native: NativeEvent) -> Event {
    let name = native.name().to_owned();
    let kind = native::kind_of(&name);
    let mut env = Envelope::new(PROVIDER, name.as_str().into(), kind, inv.payload.clone());
    env.variant = match inv.variant {
        Some(v) if !v.is_default() => v.clone(),
        _ => detect_variant(inv.env),
    };
    env.session = session_info(&native, inv.env);
    env.agent = agent_info(&native);
    let session = env.session.clone();
    env.set_native_view(native.clone());

    let tool = |name: &str, input: &Value, id: Option<&str>, mcp: Option<&McpServer>| {
        tool_call(name, input, id, mcp, &session)
    };
    match native {
        NativeEvent::PreToolUse(e) => Event::ToolPre(ToolPreEvent::new(
            env,
            tool(&e.tool_name, &e.tool_input, Some(&e.tool_use_id), e.mcp_server.as_ref()),
        )),
        NativeEvent::PreSkillShellCommand(e) => Event::ToolPre(ToolPreEvent::new(
            env,
            tool(&e.tool_name, &e.tool_input, Some(&e.tool_use_id), None),
        )),
        NativeEvent::PermissionRequest(e) => Event::Permission(PermissionEvent::from_parts(
            env,
            tool(
                &e.tool_name,
                &e.tool_input,
                e.tool_use_id.as_deref(),
                e.mcp_server.as_ref(),
            ),
            e.permission_suggestions.map(Value::Array),
        )),
        NativeEvent::PostToolUse(e) => Event::ToolPost(ToolPostEvent::from_parts(
            env,
            tool(&e.tool_name, &e.tool_input, Some(&e.tool_use_id), e.mcp_server.as_ref()),
            e.tool_response,
            e.duration_ms,
        )),
        NativeEvent::PostToolUseFailure(e) => Event::ToolError(ToolErrorEvent::from_parts(
            env,
            tool(&e.tool_name, &e.tool_input, Some(&e.tool_use_id), e.mcp_server.as_ref()),
            e.error,
            e.is_interrupt.unwrap_or(false),
            e.duration_ms,
        )),
        NativeEvent::UserPromptSubmit(e) => Event::PromptSubmitted(PromptEvent::new(env, e.prompt)),
        // `stop_hook_active` is a flag, not a count: the runner's per-session counter fills
        // `continuation_count` (quirk #19).
        NativeEvent::Stop(e) => Event::Stop(StopEvent::from_parts(
            env,
            e.stop_hook_active,
            None,
            e.last_assistant_message,
        )),
        NativeEvent::SubagentStop(e) => Event::SubagentStop(StopEvent::from_parts(
            env,
            e.stop_hook_active,
            None,
            e.last_assistant_message,
        )),
        NativeEvent::SubagentStart(_) => Event::SubagentStart(SubagentStartEvent::new(env)),
        NativeEvent::SessionStart(e) => Event::SessionStart(SessionStartEvent::from_parts(env, Some(e.source))),
        NativeEvent::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::from_parts(env, Some(e.reason))),
        NativeEvent::PreCompact(e) => {
            Event::CompactPre(CompactPreEvent::from_parts(env, Some(e.trigger), e.custom_instructions))
        }
        NativeEvent::PostCompact(e) => Event::CompactPost(CompactPostEvent::from_parts(
            env,
            Some(e.trigger),
            Some(e.compact_summary),
        )),
        NativeEvent::Notification(e) => Event::Notification(NotificationEvent::from_parts(
            env,
            e.message,
            e.title,
            Some(e.notification_type),
        )),
        // ⚠ `event` (change/add/unlink) is only on the native view.
        NativeEvent::FileChanged(e) => Event::FileEdited(FileEditedEvent::from_parts(env, e.file_path, None)),
        // ⚠ Approximate (#105): one flushed chunk of display text, not a model response.
        NativeEvent::MessageDisplay(e) => {
            let response = serde_json::to_value(&e).unwrap_or(Value::Null);
            Event::ModelResponse(ModelResponseEvent::new(env, response).with_text(Some(e.delta)))
        }
        _ => Event::Other(OtherEvent::new(env)),
    }
}

/// Session facts: `prompt_id` is the turn id; the model comes from the events that carry one.
fn session_info(native: &NativeEvent, env: &dyn Env) -> SessionInfo {
    let mut s = SessionInfo::default();
    native.session_id().unwrap_or_default().clone_into(&mut s.id);
    native.prompt_id().unwrap_or_default().clone_into(&mut s.turn_id);
    native.cwd().unwrap_or_default().clone_into(&mut s.cwd);
    native
        .transcript_path()
        .unwrap_or_default()
        .clone_into(&mut s.transcript_path);
    native
        .permission_mode()
        .unwrap_or_default()
        .clone_into(&mut s.permission_mode);
    s.model = match native {
        NativeEvent::SessionStart(e) => e.model.clone().unwrap_or_default(),
        NativeEvent::PreModelSwitch(e) => e.from_model.clone(),
        NativeEvent::PostModelSwitch(e) => e.to_model.clone(),
        _ => String::new(),
    };
    let root = env
        .var("CLAUDE_PROJECT_DIR")
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| s.cwd.clone());
    if !root.is_empty() {
        s.workspace_roots = vec![root];
    }
    s
}

/// Subagent context: only when the payload names a subagent (`agent_id`). A bare `agent_type`
/// marks the main thread of an `--agent` session, which is not a subagent.
fn agent_info(native: &NativeEvent) -> Option<AgentInfo> {
    let id = native.agent_id()?;
    Some(AgentInfo::new(id, native.agent_type().unwrap_or_default()))
}

/// The variant from the environment (design §6): `CLAUDE_CODE_REMOTE` marks remote/web
/// sessions; a cowork (cmux-managed) project directory marks cowork.
pub(crate) fn detect_variant(env: &dyn Env) -> Variant {
    let remote = env
        .var("CLAUDE_CODE_REMOTE")
        .is_some_and(|v| !matches!(v.trim(), "" | "0" | "false"));
    if remote {
        return Variant::REMOTE;
    }
    let cowork = env
        .var("CLAUDE_PROJECT_DIR")
        .is_some_and(|d| d.contains("/cmux/") || d.contains("/cowork/"));
    if cowork {
        return Variant::COWORK;
    }
    Variant::DEFAULT
}

/// Normalizes one tool call: canonical class, MCP identity, id.
fn tool_call(
    name: &str,
    input: &Value,
    id: Option<&str>,
    mcp_server: Option<&McpServer>,
    session: &SessionInfo,
) -> ToolCall {
    let call = ToolCall::from_parts(
        name,
        tools::canonical_class(name),
        input.clone(),
        id.map(str::to_owned),
        &session.id,
        &session.turn_id,
    );
    match mcp_call(name, input, mcp_server) {
        Some(mcp) => call.with_mcp(mcp),
        None => call,
    }
}

/// The MCP identity of a call: `mcp__<server>__<tool>` names (server preferably from the
/// payload's `mcp_server.name`, #26) and the MCP resource tools (server from their `server`
/// argument).
fn mcp_call(name: &str, input: &Value, mcp_server: Option<&McpServer>) -> Option<McpCall> {
    if let Some(parsed) = tools::parse_mcp_name(name) {
        let server = mcp_server.map_or(parsed.server, |s| s.name.as_str());
        return Some(McpCall::new(server, parsed.tool.unwrap_or_default()));
    }
    if tools::is_mcp_resource_tool(name) {
        let server = mcp_server
            .map(|s| s.name.as_str())
            .or_else(|| input.get("server").and_then(Value::as_str))
            .unwrap_or_default();
        return Some(McpCall::new(server, name));
    }
    None
}

/// Keys whose presence says the payload comes from another Claude-shaped agent.
#[derive(Deserialize)]
struct SniffProbe {
    hook_event_name: Option<String>,
    session_id: Option<Value>,
    transcript_path: Option<Value>,
    prompt_id: Option<serde::de::IgnoredAny>,
    effort: Option<serde::de::IgnoredAny>,
    turn_id: Option<serde::de::IgnoredAny>,
    conversation_id: Option<serde::de::IgnoredAny>,
    timestamp: Option<serde::de::IgnoredAny>,
    tool_call_id: Option<serde::de::IgnoredAny>,
    client_type: Option<serde::de::IgnoredAny>,
    #[serde(rename = "sessionId")]
    session_id_camel: Option<serde::de::IgnoredAny>,
}

/// Events only Claude Code fires (no sibling dialect uses these names).
const CLAUDE_ONLY_EVENTS: &[&str] = &[
    "PermissionDenied",
    "PostToolBatch",
    "UserPromptExpansion",
    "PreSkillShellCommand",
    "Setup",
    "PreModelSwitch",
    "PostModelSwitch",
    "Elicitation",
    "ElicitationResult",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "ConfigChange",
    "InstructionsLoaded",
    "WorktreeCreate",
    "WorktreeRemove",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
];

/// Payload-shape detection: `Certain` only with a Claude-only marker (`prompt_id`, `effort`,
/// or a Claude-only event name) and no marker of a sibling dialect (Codex `turn_id`, Cursor
/// `conversation_id`, Gemini `timestamp`, Kimi `tool_call_id`/`client_type`, Copilot
/// `sessionId`); `Inferred` for a plain Claude-shaped payload.
fn sniff(payload: &[u8]) -> Option<Confidence> {
    let p: SniffProbe = serde_json::from_slice(payload).ok()?;
    let name = p.hook_event_name?;
    if !(p.session_id.as_ref().is_some_and(Value::is_string)
        && p.transcript_path.as_ref().is_some_and(Value::is_string))
    {
        return None;
    }
    let foreign = (p.turn_id.is_some() && name != "MessageDisplay")
        || p.conversation_id.is_some()
        || p.timestamp.is_some()
        || p.tool_call_id.is_some()
        || p.client_type.is_some()
        || p.session_id_camel.is_some();
    if foreign || native::spec(&name).is_none() {
        return None;
    }
    let marked = p.prompt_id.is_some() || p.effort.is_some() || CLAUDE_ONLY_EVENTS.contains(&name.as_str());
    Some(if marked {
        Confidence::Certain
    } else {
        Confidence::Inferred
    })
}

// ---------------------------------------------------------------------------------------------
// Encode
// ---------------------------------------------------------------------------------------------

/// The parts of a Claude answer, assembled in the order of Claude's docs.
#[derive(Debug, Default)]
struct Reply {
    native: String,
    stop: Option<String>,
    system_message: Option<String>,
    block: Option<String>,
    permission_decision: Option<&'static str>,
    permission_reason: Option<String>,
    updated_input: Option<Map<String, Value>>,
    permission_request: Option<Map<String, Value>>,
    context: Option<String>,
    updated_tool_output: Option<Value>,
    mcp_legacy_output: bool,
}

impl Reply {
    /// `{continue, stopReason, systemMessage, decision, reason, hookSpecificOutput{…}}`.
    fn into_wire(self) -> WireResponse {
        let mut top = Map::new();
        if let Some(reason) = self.stop {
            top.insert("continue".into(), Value::Bool(false));
            if !reason.is_empty() {
                top.insert("stopReason".into(), reason.into());
            }
        }
        if let Some(m) = self.system_message {
            top.insert("systemMessage".into(), m.into());
        }
        if let Some(reason) = self.block {
            top.insert("decision".into(), "block".into());
            top.insert("reason".into(), reason.into());
        }
        let mut hso = Map::new();
        if let Some(d) = self.permission_decision {
            hso.insert("permissionDecision".into(), d.into());
        }
        if let Some(r) = self.permission_reason {
            hso.insert("permissionDecisionReason".into(), r.into());
        }
        if let Some(i) = self.updated_input {
            hso.insert("updatedInput".into(), Value::Object(i));
        }
        if let Some(d) = self.permission_request {
            hso.insert("decision".into(), Value::Object(d));
        }
        if let Some(c) = self.context {
            hso.insert("additionalContext".into(), c.into());
        }
        if let Some(o) = self.updated_tool_output {
            if self.mcp_legacy_output {
                hso.insert("updatedToolOutput".into(), o.clone());
                hso.insert("updatedMCPToolOutput".into(), o);
            } else {
                hso.insert("updatedToolOutput".into(), o);
            }
        }
        if !hso.is_empty() {
            let mut with_name = Map::new();
            with_name.insert("hookEventName".into(), self.native.into());
            with_name.extend(hso);
            top.insert("hookSpecificOutput".into(), Value::Object(with_name));
        }
        WireResponse::json(&Value::Object(top))
    }
}

fn inexpressible(native: &str, what: &str) -> EncodeError {
    EncodeError::new(
        PROVIDER,
        EncodeCategory::WrongFamily,
        format!("Claude Code cannot express {what} on {native}"),
    )
}

/// Writes the decision's intent (allow, deny, ask, block, continue, flag, replace) into `r`.
fn encode_intent(
    native: &str,
    dialect: Dialect,
    outcome: &Outcome,
    mcp: bool,
    r: &mut Reply,
) -> Result<(), EncodeError> {
    let need = |cap: Capability, what: &str| {
        if dialect.caps.contains(cap) {
            Ok(())
        } else {
            Err(inexpressible(native, what))
        }
    };
    let reason = outcome.reason().unwrap_or_default();
    match (outcome.kind(), dialect.gate) {
        (DecisionKind::NoDecision, _) => {}
        (DecisionKind::Allow, Gate::PermissionDecision) => {
            need(C::Allow, "allow")?;
            r.permission_decision = Some("allow");
        }
        (DecisionKind::Deny, Gate::PermissionDecision) => {
            need(C::Deny, "deny")?;
            r.permission_decision = Some("deny");
            r.permission_reason = Some(reason.to_owned());
        }
        (DecisionKind::Ask, Gate::PermissionDecision) => {
            need(C::Ask, "ask")?;
            r.permission_decision = Some("ask");
            r.permission_reason = Some(reason.to_owned()).filter(|s| !s.is_empty());
        }
        (DecisionKind::Allow, Gate::PermissionRequest) => {
            need(C::Allow, "allow")?;
            let mut d = Map::new();
            d.insert("behavior".into(), "allow".into());
            r.permission_request = Some(d);
        }
        (DecisionKind::Deny, Gate::PermissionRequest) => {
            need(C::Deny, "deny")?;
            let mut d = Map::new();
            d.insert("behavior".into(), "deny".into());
            d.insert("message".into(), reason.into());
            if outcome.stop_reason().is_some() {
                d.insert("interrupt".into(), Value::Bool(true));
            }
            r.permission_request = Some(d);
        }
        (DecisionKind::BlockPrompt, Gate::PromptBlock) => {
            need(C::Deny, "a prompt block")?;
            r.block = Some(reason.to_owned());
        }
        (DecisionKind::Continue, Gate::StopBlock) => {
            need(C::ContinueAgent, "a continuation")?;
            r.block = Some(outcome.instruction().unwrap_or(reason).to_owned());
        }
        (DecisionKind::FlagOutput, Gate::PostTool) => {
            need(C::FlagOutput, "output feedback")?;
            r.block = Some(reason.to_owned());
        }
        (DecisionKind::ReplaceOutput, Gate::PostTool) => {
            need(C::ReplaceOutput, "an output replacement")?;
            r.updated_tool_output = outcome.replaced_output().cloned();
            r.mcp_legacy_output = mcp;
        }
        (kind, _) => return Err(inexpressible(native, &format!("a {kind} decision"))),
    }

    Ok(())
}

/// Translates an outcome into Claude's fields for one event, or says what cannot be expressed.
fn encode_reply(native: &str, dialect: Dialect, outcome: &Outcome, mcp: bool) -> Result<Reply, EncodeError> {
    let need = |cap: Capability, what: &str| {
        if dialect.caps.contains(cap) {
            Ok(())
        } else {
            Err(inexpressible(native, what))
        }
    };
    let mut r = Reply {
        native: native.to_owned(),
        ..Reply::default()
    };
    let reason = outcome.reason().unwrap_or_default();

    // 1. The intent.
    encode_intent(native, dialect, outcome, mcp, &mut r)?;

    // 2. A rewritten input.
    if let Some(input) = outcome.updated_input() {
        need(C::UpdateInput, "a rewritten input")?;
        match (dialect.gate, r.permission_request.as_mut()) {
            // Claude applies `updatedInput` together with an allow or an ask only.
            (Gate::PermissionDecision, _) if matches!(outcome.kind(), DecisionKind::Allow | DecisionKind::Ask) => {
                r.updated_input = Some(input.clone());
            }
            // PermissionRequest takes a rewrite only together with an allow.
            (Gate::PermissionRequest, Some(d)) if outcome.kind() == DecisionKind::Allow => {
                d.insert("updatedInput".into(), Value::Object(input.clone()));
            }
            _ => {
                return Err(inexpressible(
                    native,
                    &format!("a rewritten input with a {} decision", outcome.kind()),
                ))
            }
        }
    }

    // 3. Context for the model.
    if !outcome.context().is_empty() {
        need(C::AddContext, "additional context")?;
        r.context = Some(outcome.context().join(CONTEXT_SEPARATOR));
    }

    // 4. Messages for the user: the system message, then an explicit block message when it
    //    differs from the reason.
    let explicit_block = outcome
        .blocks()
        .then(|| outcome.block_message())
        .flatten()
        .filter(|m| *m != reason);
    let user_lines: Vec<&str> = outcome
        .system_message()
        .into_iter()
        .chain(explicit_block)
        .filter(|s| !s.is_empty())
        .collect();
    if !user_lines.is_empty() {
        need(C::SystemMessage, "a system message")?;
        r.system_message = Some(user_lines.join("\n"));
    }

    // 5. Stop the whole agent.
    if let Some(stop) = outcome.stop_reason() {
        need(C::StopAgent, "stopping the agent")?;
        r.stop = Some(stop.to_owned());
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn every_known_event_has_a_dialect_row_consistent_with_its_kind() {
        for spec in native::EVENTS {
            let d = dialect(spec.name);
            match spec.kind {
                EventKind::ToolPre => assert_eq!(d.gate, Gate::PermissionDecision),
                EventKind::Permission => assert_eq!(d.gate, Gate::PermissionRequest),
                EventKind::PromptSubmitted => assert_eq!(d.gate, Gate::PromptBlock),
                EventKind::Stop | EventKind::SubagentStop => assert_eq!(d.gate, Gate::StopBlock),
                EventKind::ToolPost => assert_eq!(d.gate, Gate::PostTool),
                _ => assert_eq!(d.gate, Gate::None, "{}", spec.name),
            }
            // Non-blocking events promise nothing.
            if !spec.blocking {
                assert!(
                    d.caps.is_empty() || d.caps == NOTICE,
                    "{} promises {:?}",
                    spec.name,
                    d.caps
                );
            }
        }
    }

    #[test]
    fn variants_detect_from_env() {
        let remote = env(&[("CLAUDE_CODE_REMOTE", "true")]);
        assert_eq!(detect_variant(&remote), Variant::REMOTE);
        let off = env(&[("CLAUDE_CODE_REMOTE", "false")]);
        assert_eq!(detect_variant(&off), Variant::DEFAULT);
        let cowork = env(&[("CLAUDE_PROJECT_DIR", "/sessions/x/mnt/cmux/shop")]);
        assert_eq!(detect_variant(&cowork), Variant::COWORK);
        let plain = env(&[("CLAUDE_PROJECT_DIR", "/home/dev/shop")]);
        assert_eq!(detect_variant(&plain), Variant::DEFAULT);
    }

    #[test]
    fn sniffing_tells_claude_from_its_siblings() {
        let base = r#""session_id":"s","transcript_path":"/t","cwd":"/w""#;
        let claude = format!(r#"{{{base},"prompt_id":"p","hook_event_name":"PreToolUse"}}"#);
        assert_eq!(sniff(claude.as_bytes()), Some(Confidence::Certain));
        let plain = format!(r#"{{{base},"hook_event_name":"SessionStart","source":"startup"}}"#);
        assert_eq!(sniff(plain.as_bytes()), Some(Confidence::Inferred));
        let only = format!(r#"{{{base},"hook_event_name":"PostToolBatch","tool_calls":[]}}"#);
        assert_eq!(sniff(only.as_bytes()), Some(Confidence::Certain));
        let codex = format!(r#"{{{base},"turn_id":"t","hook_event_name":"PreToolUse"}}"#);
        assert_eq!(sniff(codex.as_bytes()), None);
        let gemini = format!(r#"{{{base},"timestamp":"x","hook_event_name":"SessionStart"}}"#);
        assert_eq!(sniff(gemini.as_bytes()), None);
        let display = format!(r#"{{{base},"hook_event_name":"MessageDisplay","turn_id":"t"}}"#);
        assert_eq!(sniff(display.as_bytes()), Some(Confidence::Certain));
        assert_eq!(sniff(br#"{"hook_event_name":"PreToolUse"}"#), None);
        assert_eq!(sniff(b"not json"), None);
        let bom = [b"\xEF\xBB\xBF".as_slice(), claude.as_bytes()].concat();
        assert_eq!(ClaudeCodec.sniff_payload(&bom, &env(&[])), Some(Confidence::Certain));
    }

    #[test]
    fn env_sniffing_uses_claude_only_variables() {
        let claude = env(&[("CLAUDECODE", "1")]);
        assert_eq!(ClaudeCodec.sniff_env(&claude), Some(Confidence::Inferred));
        let cross_set = env(&[("CLAUDE_PROJECT_DIR", "/w")]);
        assert_eq!(ClaudeCodec.sniff_env(&cross_set), None);
    }
}
