//! [`CodexCodec`]: `impl agenthooks_core::Codec` for Codex's hook dialect.
//!
//! See the crate docs for the dialect; this module holds the mechanics. The facts per event
//! (kind, capabilities, fail-closed shape, …) are the rows of [`native::EVENTS`]; the encoder
//! checks an outcome against its event's row first ([`kit::ensure_expressible`]) and then
//! writes one of the typed outputs of [`crate::output`], selected by the event's kind.

use std::time::Duration;

use agenthooks_core::decision::reason_or_default;
use agenthooks_core::kit;
use agenthooks_core::provider::NativeName;
use agenthooks_core::{
    AgentInfo, CanonicalTool, CapSet, Capability, Codec, CompactPostEvent, CompactPreEvent, Confidence, DecisionKind,
    DecodeError, EncodeCategory, EncodeError, Env, Envelope, Event, EventKind, EventTarget, Invocation,
    NotificationEvent, Outcome, PermissionEvent, PromptEvent, Provider, RawJson, SessionEndEvent, SessionStartEvent,
    StderrUse, StopEvent, SubagentStartEvent, ToolCall, ToolErrorEvent, ToolPostEvent, ToolPreEvent, Transport,
    WireResponse,
};
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::native::{self, NativeEvent, NOTIFY_EVENT};
use crate::output::{
    BlockDecision, ContextHookSpecificOutput, InterruptOutput, PermissionBehavior, PermissionDecision,
    PermissionRequestDecision, PermissionRequestHookSpecificOutput, PermissionRequestOutput, PostCompactOutput,
    PostToolUseHookSpecificOutput, PostToolUseOutput, PreCompactOutput, PreToolUseHookSpecificOutput, PreToolUseOutput,
    SessionStartOutput, StopOutput, SubagentStartOutput, SubagentStopOutput, Universal, UserPromptSubmitOutput,
};
use crate::tools;

/// Codex's default hook timeout (`timeout` in seconds, default 600).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// The `OpenAI` Codex CLI codec. Use the shared [`crate::CODEC`].
///
/// ```
/// use agenthooks_codex::CODEC;
/// use agenthooks_core::decision::deny;
/// use agenthooks_core::{Codec, Invocation};
/// let env = std::collections::HashMap::new();
/// let payload = br#"{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"c1"}"#;
/// let event = CODEC.decode(&Invocation::new(payload.to_vec(), &env))?;
/// let r = CODEC.encode(&event, &deny("rm -rf is blocked").into()).unwrap();
/// assert_eq!(
///     r.stdout_str(),
///     r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked"}}"#
/// );
/// assert_eq!(r.exit_code, 0);
/// # Ok::<(), agenthooks_core::DecodeError>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct CodexCodec;

impl CodexCodec {
    /// The codec.
    pub const fn new() -> Self {
        Self
    }
}

/// Session facts of any Codex payload, from the common fields (the notify payload's session
/// is its `thread-id`).
fn session_of(native: &NativeEvent, env: &mut Envelope) {
    let text = |v: Option<&String>| v.cloned().unwrap_or_default();
    let s = &mut env.session;
    native.session().unwrap_or_default().clone_into(&mut s.id);
    native.turn().unwrap_or_default().clone_into(&mut s.turn_id);
    s.cwd = text(native.cwd());
    if !s.cwd.is_empty() {
        s.workspace_roots = vec![s.cwd.clone()];
    }
    native
        .transcript()
        .unwrap_or_default()
        .clone_into(&mut s.transcript_path);
    s.model = text(native.model());
    s.permission_mode = native
        .permission_mode()
        .map(|m| m.as_str().to_owned())
        .unwrap_or_default();
    env.agent = match (native.agent_id(), native.agent_type()) {
        (None, None) => None,
        (id, ty) => Some(AgentInfo::new(text(id), text(ty))),
    };
}

fn tool_call(name: String, input: Option<RawJson>, id: Option<String>, env: &Envelope) -> ToolCall {
    let class = tools::classify(&name);
    let mcp = tools::parse_mcp(&name);
    ToolCall::builder(name, input.unwrap_or_else(|| Value::Object(Map::new()).into()))
        .class(class)
        .with_id(id.unwrap_or_default())
        .with_mcp(mcp)
        .build(&env.session)
}

/// `Some(null)` → `None`: the text of a nullable key.
#[allow(clippy::option_option)] // absent / `null` / text, see `native`
fn text(v: Option<Option<String>>) -> Option<String> {
    v.flatten()
}

/// The unified event of a decoded payload: one arm per event with a projection; `Interrupt`,
/// `StopFailure` and unknown events are `other`.
fn build_event(mut env: Envelope, native: NativeEvent) -> Event {
    match native {
        NativeEvent::SessionStart(e) => {
            Event::SessionStart(SessionStartEvent::new(env).with_source(e.source.map(|s| s.as_str().to_owned())))
        }
        NativeEvent::SessionEnd(e) => {
            Event::SessionEnd(SessionEndEvent::new(env).with_reason(e.reason.map(|r| r.as_str().to_owned())))
        }
        NativeEvent::UserPromptSubmit(e) => Event::PromptSubmitted(PromptEvent::new(env, e.prompt.unwrap_or_default())),
        NativeEvent::PreToolUse(e) => {
            let tool = tool_call(e.tool_name, e.tool_input, e.tool_use_id, &env);
            Event::ToolPre(ToolPreEvent::new(env, tool))
        }
        NativeEvent::PermissionRequest(e) => {
            let tool = tool_call(e.tool_name, e.tool_input, None, &env);
            Event::Permission(PermissionEvent::new(env, tool))
        }
        NativeEvent::PostToolUse(e) => {
            let tool = tool_call(e.tool_name, e.tool_input, e.tool_use_id, &env);
            let response = e.tool_response.unwrap_or_default();
            // Only an object can report a failure: a (large) output text is never parsed here.
            match response.is_object().then(|| tools::failure(response.value())).flatten() {
                Some(error) => {
                    env.kind = EventKind::ToolError;
                    Event::ToolError(ToolErrorEvent::new(env, tool).with_error(error))
                }
                None => Event::ToolPost(ToolPostEvent::new(env, tool).with_output(response)),
            }
        }
        NativeEvent::PreCompact(e) => {
            Event::CompactPre(CompactPreEvent::new(env).with_trigger(e.trigger.map(|t| t.as_str().to_owned())))
        }
        NativeEvent::PostCompact(e) => {
            Event::CompactPost(CompactPostEvent::new(env).with_trigger(e.trigger.map(|t| t.as_str().to_owned())))
        }
        NativeEvent::SubagentStart(_) => Event::SubagentStart(SubagentStartEvent::new(env)),
        NativeEvent::SubagentStop(e) => Event::SubagentStop(
            StopEvent::new(env)
                .with_previously_continued(e.stop_hook_active.unwrap_or(false))
                .with_last_message(text(e.last_assistant_message)),
        ),
        NativeEvent::Stop(e) => Event::Stop(
            StopEvent::new(env)
                .with_previously_continued(e.stop_hook_active.unwrap_or(false))
                .with_last_message(text(e.last_assistant_message)),
        ),
        NativeEvent::LegacyNotify(n) => Event::Notification(
            NotificationEvent::new(env, n.last_assistant_message.unwrap_or_default())
                .with_notification_type(Some(n.kind)),
        ),
        // Unmapped events (kind `other`), and known events the decoder could not type at all:
        // the event of the row's kind with only what the envelope knows.
        _ => Event::bare(env),
    }
}

/// The native name an envelope carries: the event's, except that a notify payload is named by
/// its `type` (older releases sent other types than `agent-turn-complete`).
fn native_name(native: &NativeEvent) -> &str {
    match native {
        NativeEvent::LegacyNotify(n) if !n.kind.is_empty() => &n.kind,
        other => other.name(),
    }
}

/// "Codex cannot express this" (category `Unsupported`).
fn inexpressible(native: &str, what: &str) -> EncodeError {
    EncodeError::inexpressible(Provider::CODEX, native, what)
}

/// Context lines joined the way Codex joins several hooks' contexts.
fn joined_context(outcome: &Outcome) -> Option<String> {
    let lines = outcome.context();
    (!lines.is_empty()).then(|| lines.join("\n\n"))
}

/// The user-facing block message, when it differs from the model-facing reason and no
/// explicit system message is set: Codex shows `systemMessage` to the user.
fn block_notice(outcome: &Outcome) -> Option<String> {
    let shown = outcome.block_message()?;
    (outcome.system_message().is_none() && Some(shown) != outcome.reason()).then(|| shown.to_owned())
}

/// A block reason Codex accepts (non-empty, quirk #205).
fn reason_text(reason: Option<&str>) -> String {
    reason_or_default(reason.unwrap_or_default()).to_owned()
}

fn respond<T: Serialize>(native: &str, out: &T) -> Result<WireResponse, EncodeError> {
    let value = serde_json::to_value(out)
        .map_err(|e| EncodeError::new(Provider::CODEX, EncodeCategory::Serialize, e.to_string()))?;
    if value.as_object().is_some_and(serde_json::Map::is_empty) {
        // Empty stdout is Codex's "no opinion".
        return Ok(WireResponse::empty());
    }
    let bytes = serde_json::to_vec(&value)
        .map_err(|e| EncodeError::new(Provider::CODEX, EncodeCategory::Serialize, e.to_string()))?;
    tracing::trace!(event = native, stdout = %String::from_utf8_lossy(&bytes), "codex response");
    Ok(WireResponse::stdout(bytes))
}

/// Refuses a result Codex's parser would reject (the run would fail and have no effect).
fn check(native: &str, invalid: Option<String>) -> Result<(), EncodeError> {
    match invalid {
        None => Ok(()),
        Some(why) => Err(inexpressible(native, &format!("a result Codex rejects ({why})"))),
    }
}

/// `Some(value)` unless it is the default (an empty `hookSpecificOutput` is not written).
fn unless_default<T: Default + PartialEq>(value: T) -> Option<T> {
    (value != T::default()).then_some(value)
}

/// An outcome taken apart for encoding.
struct Parts<'a> {
    native: &'a str,
    outcome: &'a Outcome,
    kind: DecisionKind,
    ctx: Option<String>,
    system_message: Option<String>,
    /// `continue` / `stopReason` for a stop-agent request.
    continue_processing: Option<bool>,
    stop_reason: Option<String>,
}

impl<'a> Parts<'a> {
    fn new(native: &'a str, outcome: &'a Outcome) -> Self {
        let stop_reason = outcome.stop_reason().map(str::to_owned);
        Self {
            native,
            outcome,
            kind: outcome.kind(),
            ctx: joined_context(outcome),
            system_message: outcome.system_message().map(str::to_owned),
            continue_processing: stop_reason.as_ref().map(|_| false),
            stop_reason,
        }
    }

    /// An output struct with the universal fields of this outcome set.
    fn base<T: Universal>(&self) -> T {
        T::universal(
            self.continue_processing,
            self.stop_reason.clone(),
            self.system_message.clone(),
        )
    }

    fn unexpected(&self) -> EncodeError {
        inexpressible(self.native, &format!("a {} decision", self.kind))
    }
}

fn encode_pre_tool_use(p: &Parts<'_>) -> Result<WireResponse, EncodeError> {
    let mut hso = PreToolUseHookSpecificOutput {
        additional_context: p.ctx.clone(),
        ..Default::default()
    };
    let mut out = PreToolUseOutput {
        system_message: p.system_message.clone(),
        ..PreToolUseOutput::default()
    };
    match (p.kind, p.outcome.updated_input()) {
        (DecisionKind::Deny, None) => {
            hso.permission_decision = Some(PermissionDecision::Deny);
            hso.permission_decision_reason = Some(reason_text(p.outcome.reason()));
            if out.system_message.is_none() {
                out.system_message = block_notice(p.outcome);
            }
        }
        (DecisionKind::NoDecision | DecisionKind::Allow, Some(input)) => {
            // `allow` is only the vehicle of a rewrite: it does not skip Codex's approval.
            hso.permission_decision = Some(PermissionDecision::Allow);
            hso.updated_input = Some(Value::Object(input.clone()));
        }
        (DecisionKind::NoDecision, None) => {}
        _ => return Err(p.unexpected()),
    }
    out.hook_specific_output = unless_default(hso);
    check(p.native, out.invalid_reason())?;
    respond(p.native, &out)
}

fn encode_permission_request(p: &Parts<'_>) -> Result<WireResponse, EncodeError> {
    let mut out = PermissionRequestOutput {
        system_message: p.system_message.clone(),
        ..PermissionRequestOutput::default()
    };
    let decision = match p.kind {
        DecisionKind::Allow => Some(PermissionRequestDecision::new(PermissionBehavior::Allow)),
        DecisionKind::Deny => {
            if out.system_message.is_none() {
                out.system_message = block_notice(p.outcome);
            }
            let mut deny = PermissionRequestDecision::new(PermissionBehavior::Deny);
            deny.message = Some(reason_text(p.outcome.reason()));
            Some(deny)
        }
        DecisionKind::NoDecision => None,
        _ => return Err(p.unexpected()),
    };
    if let Some(decision) = decision {
        out.hook_specific_output = Some(PermissionRequestHookSpecificOutput {
            decision: Some(decision),
            ..Default::default()
        });
    }
    check(p.native, out.invalid_reason())?;
    respond(p.native, &out)
}

fn encode_post_tool_use(p: &Parts<'_>) -> Result<WireResponse, EncodeError> {
    let mut out: PostToolUseOutput = p.base();
    let mut hso = PostToolUseHookSpecificOutput {
        additional_context: p.ctx.clone(),
        ..Default::default()
    };
    match p.kind {
        DecisionKind::NoDecision => {}
        DecisionKind::FlagOutput => {
            out.decision = Some(BlockDecision::Block);
            out.reason = Some(reason_text(p.outcome.reason()));
        }
        DecisionKind::ReplaceOutput => {
            // MCP calls only (checked by the caller, quirk #209). Codex replaces the MCP
            // `CallToolResult`: a plain text replacement becomes one.
            hso.updated_mcp_tool_output = Some(match p.outcome.replaced_output().cloned().unwrap_or(Value::Null) {
                Value::String(text) => json!({"content": [{"type": "text", "text": text}]}),
                other => other,
            });
        }
        _ => return Err(p.unexpected()),
    }
    out.hook_specific_output = unless_default(hso);
    check(p.native, out.invalid_reason())?;
    respond(p.native, &out)
}

fn encode_user_prompt_submit(p: &Parts<'_>) -> Result<WireResponse, EncodeError> {
    let mut out = UserPromptSubmitOutput {
        hook_specific_output: p.ctx.clone().map(|c| ContextHookSpecificOutput::new(p.native, Some(c))),
        ..p.base()
    };
    match p.kind {
        DecisionKind::BlockPrompt => {
            out.decision = Some(BlockDecision::Block);
            out.reason = Some(reason_text(p.outcome.reason()));
            if out.system_message.is_none() {
                out.system_message = block_notice(p.outcome);
            }
        }
        DecisionKind::NoDecision => {}
        _ => return Err(p.unexpected()),
    }
    check(p.native, out.invalid_reason())?;
    respond(p.native, &out)
}

/// `Stop` and `SubagentStop` (`subagent`): continue with an instruction, stop the agent.
fn encode_stop(p: &Parts<'_>, subagent: bool) -> Result<WireResponse, EncodeError> {
    let (decision, reason) = match p.kind {
        DecisionKind::Continue => match p.outcome.instruction().filter(|i| !i.trim().is_empty()) {
            Some(instruction) => (Some(BlockDecision::Block), Some(instruction.to_owned())),
            None => return Err(inexpressible(p.native, "a continuation without an instruction")),
        },
        DecisionKind::NoDecision => (None, None),
        _ => return Err(p.unexpected()),
    };
    if subagent {
        let out = SubagentStopOutput {
            decision,
            reason,
            ..p.base()
        };
        check(p.native, out.invalid_reason())?;
        respond(p.native, &out)
    } else {
        let out = StopOutput {
            decision,
            reason,
            ..p.base()
        };
        check(p.native, out.invalid_reason())?;
        respond(p.native, &out)
    }
}

/// The events without gating (session and subagent start, compaction, `Interrupt`): only the
/// universal fields and, on the start events, context. What each accepts is in its row.
fn encode_context_only(p: Parts<'_>, kind: EventKind) -> Result<WireResponse, EncodeError> {
    if p.kind != DecisionKind::NoDecision {
        return Err(p.unexpected());
    }
    let hso = p.ctx.clone().map(|c| ContextHookSpecificOutput::new(p.native, Some(c)));
    match kind {
        EventKind::SessionStart => respond(
            p.native,
            &SessionStartOutput {
                hook_specific_output: hso,
                ..p.base()
            },
        ),
        EventKind::SubagentStart => respond(
            p.native,
            &SubagentStartOutput {
                hook_specific_output: hso,
                ..p.base()
            },
        ),
        EventKind::CompactPre => respond(p.native, &p.base::<PreCompactOutput>()),
        EventKind::CompactPost => respond(p.native, &p.base::<PostCompactOutput>()),
        // `Interrupt`, the one `other` event that reads an answer: `systemMessage` only.
        _ => respond(
            p.native,
            &InterruptOutput {
                system_message: p.system_message,
            },
        ),
    }
}

/// Encodes `outcome` for the native event `native`, decoded as `kind` (`tool.error` for a
/// failed `PostToolUse`). `mcp_tool` says whether the event's tool call targets an MCP tool.
fn encode_native(name: &str, kind: EventKind, outcome: &Outcome, mcp_tool: bool) -> Result<WireResponse, EncodeError> {
    let row = CodexCodec.row(name);
    let family = row.map_or(kind, |r| r.kind);
    let mut caps = row.map_or(CapSet::EMPTY, |r| r.caps);
    if family == EventKind::ToolPre && outcome.updated_input().is_some() {
        // Codex writes `allow` only as the vehicle of `updatedInput`.
        caps = caps.with(Capability::Allow);
    }
    if family == EventKind::ToolPost && mcp_tool {
        // Codex replaces MCP output (quirk #209); capabilities are per event, so the row does
        // not offer it and the runner degrades it; a direct encode for an MCP call writes it.
        caps = caps.with(Capability::ReplaceOutput);
    }
    kit::ensure_expressible(&Provider::CODEX, name, kind, outcome, caps)?;
    if caps.is_empty() {
        // Codex reads no answer (`SessionEnd`, `StopFailure`, notify, unknown events).
        return if outcome.is_bare_neutral() {
            Ok(WireResponse::empty())
        } else {
            Err(inexpressible(name, "an answer (Codex reads none)"))
        };
    }
    let p = Parts::new(name, outcome);
    match family {
        EventKind::ToolPre => encode_pre_tool_use(&p),
        EventKind::Permission => encode_permission_request(&p),
        EventKind::ToolPost => encode_post_tool_use(&p),
        EventKind::PromptSubmitted => encode_user_prompt_submit(&p),
        EventKind::Stop | EventKind::SubagentStop => encode_stop(&p, family == EventKind::SubagentStop),
        other => encode_context_only(p, other),
    }
}

impl Codec for CodexCodec {
    agenthooks_core::kit::kit_codec_tables!(provider: Provider::CODEX, mcp, transcript);

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let bytes = inv.payload.json_bytes();
        // The notify payload names no event: argv transport (or its shape) says it is one.
        let notify =
            inv.transport == Transport::Argv || (inv.native_event.is_none() && native::is_legacy_notify(bytes));
        let hint = if notify { Some(NOTIFY_EVENT) } else { inv.native_event };
        let decoded = NativeEvent::decode(&Provider::CODEX, bytes, hint)?;
        let name = NativeName::new(native_name(&decoded.native).to_owned());
        let mut env = Envelope::new(Provider::CODEX, name, decoded.native.kind(), inv.payload.clone());
        if let Some(variant) = inv.variant {
            env.variant = variant.clone();
        }
        session_of(&decoded.native, &mut env);
        let native = decoded.attach(&mut env);
        Ok(build_event(env, native))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let mcp_tool = event.tool().is_some_and(|t| t.canonical == CanonicalTool::Mcp);
        encode_native(event.envelope().native.as_str(), event.kind(), outcome, mcp_tool)
    }

    /// Empty stdout on every event. The failure answer is the provided one: the encoded deny
    /// or blocked prompt on the three gates, this no-op elsewhere (blocking a `Stop` would mean
    /// continuing).
    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::empty()
    }

    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        if env.var("CODEX_MANAGED_BY_NPM").is_some() || env.var("CODEX_MANAGED_PACKAGE_ROOT").is_some() {
            Some(Confidence::Inferred)
        } else if env.var("CODEX_HOME").is_some() {
            Some(Confidence::Guess)
        } else {
            None
        }
    }

    fn sniff_payload(&self, payload: &[u8], _env: &dyn Env) -> Option<Confidence> {
        let (value, _) =
            agenthooks_core::kit::tolerant::parse_slice(agenthooks_core::event::strip_bom(payload)).ok()?;
        let obj = value.as_object()?;
        if obj
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.starts_with("agent-turn-"))
            && (obj.contains_key("turn-id") || obj.contains_key("input-messages"))
        {
            return Some(Confidence::Certain);
        }
        // The event names are Claude's: only Codex's shape (`turn_id` and `model`) tells.
        let row = self.row(obj.get("hook_event_name")?.as_str()?)?;
        // `turn_id` and `model` as strings together, with none of Claude's markers (`prompt_id`,
        // `effort`): no sibling dialect sends that shape (Claude's MessageDisplay has a
        // `turn_id` but no `model`; Kimi's `turn_id` is a number), so it is certain.
        let codex_shape =
            obj.get("turn_id").is_some_and(Value::is_string) && obj.get("model").is_some_and(Value::is_string);
        let claude_marked = obj.contains_key("prompt_id") || obj.contains_key("effort");
        if codex_shape && !claude_marked {
            return Some(Confidence::Certain);
        }
        row.provider_only.then_some(Confidence::Inferred)
    }

    fn stderr_use(&self) -> StderrUse {
        // Codex reads stderr only on exit 2 (as the block reason); the codec always exits 0.
        StderrUse::Logs
    }
}
