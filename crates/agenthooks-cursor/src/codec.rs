//! [`CursorCodec`]: the [`Codec`] of Cursor's hook dialect (IDE, CLI, cloud agents).
//!
//! The event rows ([`native::EVENTS`](crate::native::EVENTS)) carry what each event honours; the codec narrows that
//! per decoded event (variant, tool, status, build), and the encoder writes the typed outputs
//! of [`crate::output`]. An outcome that needs a capability the event lacks is an
//! [`EncodeError`] (the runner degrades first, so only a direct caller sees it).

use std::time::Duration;

use agenthooks_core::decision::reason_or_default;
use agenthooks_core::kit::{self, FailShape};
use agenthooks_core::{
    AgentInfo, CapSet, Capability as C, Codec, CompactPreEvent, Confidence, DecisionKind, DecodeError, EncodeError,
    Env, Envelope, Event, EventKind, EventTarget, FailMode, FileEditedEvent, Invocation, ModelResponseEvent,
    OtherEvent, Outcome, PromptEvent, Provider, RawJson, SessionEndEvent, SessionInfo, SessionStartEvent, StderrUse,
    StopEvent, SubagentStartEvent, ToolCall, ToolErrorEvent, ToolPostEvent, ToolPreEvent, Variant, WireResponse,
};
use serde::Serialize;
use serde_json::{json, Number, Value};

use crate::dedup::{self, Dedup, Part};
use crate::native::NativeEvent;
use crate::output::{
    AfterMcpOutput, Permission, PermissionOutput, PostToolOutput, PreCompactOutput, PreToolUseOutput, PromptOutput,
    SessionStartOutput, Shape, StopOutput, CONTEXT_LIMIT,
};
use crate::tools;
use crate::View;

/// The provider this codec serves.
const PROVIDER: Provider = Provider::CURSOR;

/// Cursor's default hook timeout (BUNDLE: 60 s; config timeouts are seconds).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Separator between several context strings of one answer.
const CONTEXT_SEPARATOR: &str = "\n\n";

/// The first CLI build known to read `additional_context` on `beforeSubmitPrompt` (#602).
const PROMPT_CONTEXT_SINCE: &str = "2026.09.18";

/// The Cursor codec. Use the [`CODEC`](crate::CODEC) static.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct CursorCodec;

impl CursorCodec {
    /// The codec (stateless; the dedup state lives in the runner's state dir).
    pub const fn new() -> Self {
        Self
    }
}

// ---------------------------------------------------------------------------------------------
// Variants
// ---------------------------------------------------------------------------------------------

/// Whether Cursor fires `native` on `variant` (reference §2): cloud agents fire no session,
/// MCP, Tab or `workspaceOpen` hooks; the CLI has no Tab. Events that do not fire honour
/// nothing there.
pub fn fires(variant: &Variant, native: &str) -> bool {
    let cloud_only_missing = matches!(
        native,
        "sessionStart"
            | "sessionEnd"
            | "beforeMCPExecution"
            | "afterMCPExecution"
            | "beforeTabFileRead"
            | "afterTabFileEdit"
            | "workspaceOpen"
    );
    if *variant == Variant::CLOUD {
        return !cloud_only_missing;
    }
    if *variant == Variant::CLI {
        return !matches!(native, "beforeTabFileRead" | "afterTabFileEdit");
    }
    true
}

/// Whether `v` is a CLI build string (`YYYY.MM.DD-<hash>`).
fn is_cli_build(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() >= 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'.' && b[7] == b'.'
}

/// The variant of a payload: the `--variant` flag; else `cloud` for a background agent
/// (`is_background_agent: true`, #605); else `cli` for a CLI build string and `ide` for an
/// IDE version in `cursor_version` (or `CURSOR_VERSION`); else the default.
pub fn detect_variant(native: &NativeEvent, env: &dyn Env) -> Variant {
    let background = match native {
        NativeEvent::SessionStart(e) => e.is_background_agent,
        NativeEvent::SessionEnd(e) => e.is_background_agent,
        _ => None,
    };
    if background == Some(true) {
        return Variant::CLOUD;
    }
    let version = native.cursor_version().cloned().or_else(|| env.var("CURSOR_VERSION"));
    match version.as_deref().map(str::trim) {
        Some(v) if is_cli_build(v) => Variant::CLI,
        Some(v) if v.starts_with(|c: char| c.is_ascii_digit()) => Variant::IDE,
        _ => Variant::DEFAULT,
    }
}

// ---------------------------------------------------------------------------------------------
// Codec
// ---------------------------------------------------------------------------------------------

impl Codec for CursorCodec {
    agenthooks_core::kit::kit_codec_tables!(provider: PROVIDER, mcp, transcript);

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let decoded = crate::compat::decode(inv.payload.json_bytes(), inv.native_event)?;
        let native = &decoded.native;
        let mut env = Envelope::new(PROVIDER, native.name().into(), native.kind(), inv.payload.clone());
        env.variant = match inv.variant {
            Some(v) if !v.is_default() => v.clone(),
            _ => detect_variant(native, inv.env),
        };
        env.agent_version = native.cursor_version().cloned();
        env.session = session_info(native);
        env.agent = agent_info(native);
        let view = decoded.view();
        let native = decoded.attach(&mut env);
        let dedup = inv.state_dir.and_then(|dir| claim(dir, &env, &native, &inv.payload));
        let delivered = dedup.as_ref().is_none_or(|d| d.delivered);
        let event = if delivered {
            build_event(env.clone(), native, dedup.as_ref())
        } else {
            // A duplicate of a call another hook process delivers: `other`, no capabilities,
            // answered with the neutral `{}` of its own event.
            env.kind = EventKind::Other;
            Event::Other(OtherEvent::new(env.clone()))
        };
        let mut event = event;
        event.envelope_mut().set_native_view(View { event: view, dedup });
        Ok(event)
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        if let Some(no_op) = kit::expressible_or_no_op(self, event, outcome, self.event_capabilities(event))? {
            return Ok(no_op);
        }
        encode_reply(event.envelope().native.as_str(), outcome).map(|v| WireResponse::json(&v))
    }

    fn no_op(&self, target: &EventTarget) -> WireResponse {
        // `{}` on every event: empty stdout is an `empty_stdout` failure to Cursor (#601).
        let _ = target;
        WireResponse::empty_object()
    }

    /// Fail-closed where the provided answer cannot be written: an event we cannot name
    /// (exit 2, Cursor's block on permission hooks and the prompt, no effect elsewhere), and
    /// the blocks of `subagentStart` and `beforeTabFileRead`, which no unified outcome states
    /// (their rows offer no capability): `permission: deny`. Every other target gets
    /// [`kit::failure_response`], the encoded deny or blocked prompt.
    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        if mode == FailMode::Closed {
            let reason = reason_or_default(reason);
            match self.row_for(target) {
                None => return WireResponse::exit(2, reason),
                Some(row) if row.failure == FailShape::Block && kit::blocking_outcome(row.kind, reason).is_none() => {
                    return json_wire(&PermissionOutput {
                        permission: Some(Permission::Deny),
                        user_message: Some(reason.to_owned()),
                        agent_message: Some(reason.to_owned()),
                        continue_: Some(true),
                    });
                }
                Some(_) => {}
            }
        }
        kit::failure_response(self, target, mode, reason)
    }

    fn capabilities(&self, variant: &Variant, native: &str) -> CapSet {
        match self.row(native) {
            Some(r) if fires(variant, native) => r.caps,
            _ => CapSet::EMPTY,
        }
    }

    fn event_capabilities(&self, event: &Event) -> CapSet {
        let env = event.envelope();
        let native = env.native.as_str();
        let mut caps = self.capabilities(&env.variant, native);
        if self.row(native).is_some_and(|r| r.kind != event.kind()) {
            // A dedup duplicate (delivered as `other`): only the no-op.
            return CapSet::EMPTY;
        }
        match crate::view(env) {
            // `updated_mcp_tool_output` applies to MCP tools only.
            Some(NativeEvent::PostToolUse(e)) if tools::mcp_tool(&e.tool_name).is_none() => {
                caps = caps.without(C::ReplaceOutput);
            }
            // Follow-ups apply only after a completed subagent.
            Some(NativeEvent::SubagentStop(e)) if e.status.as_deref().is_some_and(|s| s != "completed") => {
                caps = caps.without(C::ContinueAgent);
            }
            // `additional_context` on the prompt: CLI builds since 2026.09.18 only (#602).
            Some(NativeEvent::BeforeSubmitPrompt(_)) => {
                let known = env
                    .agent_version
                    .as_deref()
                    .is_some_and(|v| is_cli_build(v) && v >= PROMPT_CONTEXT_SINCE);
                if !known {
                    caps = caps.without(C::AddContext);
                }
            }
            _ => {}
        }
        caps
    }

    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        // CLAUDE_PROJECT_DIR is cross-set by Cursor (quirk #20); these are Cursor's own.
        let cursor = env.var("CURSOR_VERSION").is_some_and(|v| !v.is_empty())
            || env.var("CURSOR_PROJECT_DIR").is_some_and(|v| !v.is_empty());
        cursor.then_some(Confidence::Inferred)
    }

    fn sniff_payload(&self, payload: &[u8], env: &dyn Env) -> Option<Confidence> {
        let _ = env;
        crate::compat::sniff(agenthooks_core::event::strip_bom(payload))
    }

    fn stderr_use(&self) -> StderrUse {
        // Exit 2 turns stderr into the block reason: logs must not share it.
        StderrUse::Reserved
    }
}

fn json_wire<T: Serialize>(v: &T) -> WireResponse {
    WireResponse::json(&serde_json::to_value(v).unwrap_or_else(|_| json!({})))
}

// ---------------------------------------------------------------------------------------------
// Decode
// ---------------------------------------------------------------------------------------------

/// Session facts: `conversation_id` is the session, `generation_id` the turn.
fn session_info(native: &NativeEvent) -> SessionInfo {
    let text = |v: Option<&String>| v.cloned().unwrap_or_default();
    let mut s = SessionInfo::default();
    s.id = text(native.conversation_id().or(native.session_id()));
    s.turn_id = text(native.generation_id());
    s.workspace_roots = native.workspace_roots().cloned().unwrap_or_default();
    s.transcript_path = native.transcript_path().cloned().flatten().unwrap_or_default();
    s.model = text(native.model_id().or(native.model()));
    s.user_email = native.user_email().cloned().flatten().unwrap_or_default();
    let cwd = match native {
        NativeEvent::PreToolUse(e) => e.cwd.clone(),
        NativeEvent::PostToolUse(e) => e.cwd.clone(),
        NativeEvent::PostToolUseFailure(e) => e.cwd.clone(),
        NativeEvent::BeforeShellExecution(e) => e.cwd.clone(),
        _ => None,
    };
    s.cwd = cwd.or_else(|| s.workspace_roots.first().cloned()).unwrap_or_default();
    s
}

/// Subagent context, on the subagent events.
fn agent_info(native: &NativeEvent) -> Option<AgentInfo> {
    let (id, ty) = match native {
        NativeEvent::SubagentStart(e) => (e.subagent_id.as_ref(), e.subagent_type.as_ref()),
        NativeEvent::SubagentStop(e) => (e.subagent_id.as_ref(), e.subagent_type.as_ref()),
        _ => return None,
    };
    (id.is_some() || ty.is_some())
        .then(|| AgentInfo::new(id.cloned().unwrap_or_default(), ty.cloned().unwrap_or_default()))
}

/// A JSON-encoded string parsed (Cursor's `tool_output`, `result_json`); anything else as sent.
fn unstring(v: Option<&Value>) -> Value {
    match v {
        Some(Value::String(s)) => serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone())),
        Some(v) => v.clone(),
        None => Value::Null,
    }
}

/// [`unstring`] of a raw field: a JSON-encoded string is parsed (quirk #5), anything else is
/// shared as sent (not parsed).
fn unstring_raw(v: Option<&RawJson>) -> RawJson {
    match v {
        Some(raw) if raw.is_string() => unstring(Some(raw.value())).into(),
        Some(raw) => raw.clone(),
        None => RawJson::null(),
    }
}

fn millis(n: Option<&Number>) -> Option<u64> {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    n.and_then(|n| {
        n.as_u64()
            .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f.round() as u64))
    })
}

/// The dedup facet and part of a tool.pre event, when it takes part.
fn facet(native: &NativeEvent) -> Option<(String, Part)> {
    match native {
        NativeEvent::PreToolUse(e) => {
            let input = e.tool_input.as_ref().map(RawJson::to_object).unwrap_or_default();
            if let Some(tool) = tools::mcp_tool(&e.tool_name) {
                return Some((dedup::mcp_facet(tool, &input), Part::McpEcho));
            }
            let call = ToolCall::builder(e.tool_name.as_str(), Value::Object(input)).build(&SessionInfo::default());
            match tools::classify(&e.tool_name) {
                agenthooks_core::CanonicalTool::Shell => call
                    .command()
                    .filter(|c| !c.is_empty())
                    .map(|c| (dedup::shell_facet(c), Part::Claimant)),
                agenthooks_core::CanonicalTool::FileRead => {
                    let path = call
                        .file_path()
                        .or_else(|| call.input().get("target_file").and_then(Value::as_str));
                    path.filter(|p| !p.is_empty())
                        .map(|p| (dedup::read_facet(p), Part::Claimant))
                }
                _ => None,
            }
        }
        NativeEvent::BeforeShellExecution(e) => e
            .command
            .as_deref()
            .filter(|c| !c.is_empty())
            .map(|c| (dedup::shell_facet(c), Part::Claimant)),
        NativeEvent::BeforeReadFile(e) => e
            .file_path
            .as_deref()
            .filter(|p| !p.is_empty())
            .map(|p| (dedup::read_facet(p), Part::Claimant)),
        NativeEvent::BeforeMcpExecution(e) => {
            let input = e.tool_input.as_ref().map(RawJson::to_object).unwrap_or_default();
            let tool = tools::mcp_tool(&e.tool_name).unwrap_or(&e.tool_name);
            Some((dedup::mcp_facet(tool, &input), Part::McpSpecific))
        }
        _ => None,
    }
}

/// Runs the dedup for a tool.pre event (quirk #2); `None` when it does not take part or the
/// state dir is unusable.
fn claim(
    dir: &std::path::Path,
    env: &Envelope,
    native: &NativeEvent,
    raw: &agenthooks_core::RawPayload,
) -> Option<Dedup> {
    if env.kind != EventKind::ToolPre || env.session.id.is_empty() {
        return None;
    }
    let (facet, part) = facet(native)?;
    let key = dedup::key(&env.session.id, &env.session.turn_id, &facet);
    let d = dedup::check(dir, &key, &env.session.id, native.name(), part, raw);
    if let Some(d) = &d {
        tracing::debug!(key = %d.key, delivered = d.delivered, winner = %d.winner, "cursor double-fire dedup");
    }
    d
}

/// The input of a shell or read gate: `{key: value}`, or `{}` when Cursor sent no value.
fn one_key(key: &str, value: Option<String>) -> Value {
    Value::Object(value.map(|v| (key.to_owned(), Value::String(v))).into_iter().collect())
}

/// Builds the typed event (projection). The envelope's native view is set by the caller.
fn build_event(env: Envelope, native: NativeEvent, dedup: Option<&Dedup>) -> Event {
    let s = &env.session;
    let tool = |name: &str, input: RawJson, id: Option<&String>, mcp: Option<agenthooks_core::McpCall>| {
        ToolCall::builder(name, input)
            .class(tools::classify(name))
            .with_id(id.cloned().unwrap_or_default())
            .with_mcp(mcp)
            .build(s)
    };
    // A tool of the generic events (`preToolUse`, `postToolUse`, `postToolUseFailure`): the
    // MCP server, if any, is read from the tool name.
    let generic = |name: &str, input: &Option<RawJson>, id: Option<&String>| {
        tool(
            name,
            input.clone().unwrap_or_default(),
            id,
            tools::parse_mcp(name, None, None, None),
        )
    };
    // A specific gate's tool (`beforeShellExecution`, `beforeReadFile`): one input key, and the
    // generic sibling's id when it arrived first.
    let gate = |name: &str, key: &str, value: Option<String>| {
        tool(name, one_key(key, value).into(), sibling_id(dedup).as_ref(), None)
    };
    match native {
        NativeEvent::PreToolUse(e) => tool_pre(generic(&e.tool_name, &e.tool_input, e.tool_use_id.as_ref()), env),
        NativeEvent::BeforeShellExecution(e) => tool_pre(gate("Shell", "command", e.command), env),
        NativeEvent::BeforeReadFile(e) => tool_pre(gate("Read", "file_path", e.file_path), env),
        NativeEvent::BeforeMcpExecution(e) => {
            let url = e.url.as_deref().or(e.mcp_server_url.as_deref());
            let mcp = tools::parse_mcp(
                &e.tool_name,
                Some(e.mcp_server_name.as_deref().unwrap_or_default()),
                url,
                e.command.as_deref(),
            );
            let input = e.tool_input.unwrap_or_default();
            tool_pre(tool(&e.tool_name, input, sibling_id(dedup).as_ref(), mcp), env)
        }
        NativeEvent::PostToolUse(e) => {
            let t = generic(&e.tool_name, &e.tool_input, e.tool_use_id.as_ref());
            tool_post(env, t, unstring_raw(e.tool_output.as_ref()), e.duration.as_ref())
        }
        NativeEvent::AfterShellExecution(e) => {
            let t = tool("Shell", one_key("command", e.command).into(), None, None);
            let output = e.output.map_or(Value::Null, Value::String).into();
            tool_post(env, t, output, e.duration.as_ref())
        }
        NativeEvent::AfterMcpExecution(e) => {
            let mcp = tools::parse_mcp(
                &e.tool_name,
                Some(e.mcp_server_name.as_deref().unwrap_or_default()),
                e.mcp_server_url.as_deref(),
                None,
            );
            let t = tool(&e.tool_name, e.tool_input.unwrap_or_default(), None, mcp);
            tool_post(env, t, unstring(e.result_json.as_ref()).into(), e.duration.as_ref())
        }
        NativeEvent::PostToolUseFailure(e) => {
            let t = generic(&e.tool_name, &e.tool_input, e.tool_use_id.as_ref());
            Event::ToolError(
                ToolErrorEvent::new(env, t)
                    .with_error(e.error_message.unwrap_or_default())
                    .with_interrupted(e.is_interrupt.unwrap_or(false))
                    .with_duration_ms(millis(e.duration.as_ref())),
            )
        }
        NativeEvent::BeforeSubmitPrompt(e) => {
            Event::PromptSubmitted(PromptEvent::new(env, e.prompt.unwrap_or_default()))
        }
        // `loop_count` counts prior follow-ups: the agent's own loop guard (#19).
        NativeEvent::Stop(e) => Event::Stop(stop_event(env, e.loop_count, None)),
        NativeEvent::SubagentStop(e) => Event::SubagentStop(stop_event(env, e.loop_count, e.summary)),
        NativeEvent::SubagentStart(_) => Event::SubagentStart(SubagentStartEvent::new(env)),
        NativeEvent::SessionStart(e) => Event::SessionStart(SessionStartEvent::new(env).with_source(e.composer_mode)),
        NativeEvent::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::new(env).with_reason(e.reason)),
        NativeEvent::PreCompact(e) => Event::CompactPre(CompactPreEvent::new(env).with_trigger(e.trigger)),
        NativeEvent::AfterFileEdit(e) => file_edited(env, e.file_path, e.edits),
        NativeEvent::AfterTabFileEdit(e) => file_edited(env, e.file_path, e.edits),
        NativeEvent::AfterAgentResponse(e) => model_response(env, e.text),
        NativeEvent::AfterAgentThought(e) => model_response(env, e.text),
        // Unmapped events (`beforeTabFileRead`, `workspaceOpen`) and untyped payloads.
        _ => Event::bare(env),
    }
}

fn tool_pre(t: ToolCall, env: Envelope) -> Event {
    Event::ToolPre(ToolPreEvent::new(env, t))
}

fn tool_post(env: Envelope, t: ToolCall, output: RawJson, duration: Option<&Number>) -> Event {
    Event::ToolPost(
        ToolPostEvent::new(env, t)
            .with_output(output)
            .with_duration_ms(millis(duration)),
    )
}

fn file_edited<T: serde::Serialize>(env: Envelope, path: Option<String>, edits: Option<Vec<T>>) -> Event {
    let edits = edits.and_then(|x| serde_json::to_value(x).ok());
    Event::FileEdited(FileEditedEvent::new(env, path.unwrap_or_default()).with_edits(edits))
}

fn stop_event(env: Envelope, loop_count: Option<u64>, last: Option<String>) -> StopEvent {
    let count = loop_count.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    StopEvent::new(env)
        .with_previously_continued(count.is_some_and(|n| n > 0))
        .with_continuation_count(count)
        .with_last_message(last)
}

fn model_response(env: Envelope, text: Option<String>) -> Event {
    let response = text.clone().map_or(Value::Null, Value::String);
    Event::ModelResponse(ModelResponseEvent::new(env).with_text(text).with_response(response))
}

/// The id of the generic `preToolUse` sibling, when it arrived first (a two-part
/// `call_…\nctc_…` id, kept verbatim), so the specific event correlates with `postToolUse`.
fn sibling_id(dedup: Option<&Dedup>) -> Option<String> {
    dedup?
        .siblings
        .iter()
        .find(|s| s.native == "preToolUse")
        .and_then(|s| s.field("tool_use_id"))
        .and_then(|v| v.as_str().map(str::to_owned))
}

// ---------------------------------------------------------------------------------------------
// Encode
// ---------------------------------------------------------------------------------------------

fn inexpressible(native: &str, what: &str) -> EncodeError {
    EncodeError::inexpressible(PROVIDER, native, what)
}

/// The context of an outcome, joined; over Cursor's limit it is cut (Cursor would drop it
/// whole, #604).
fn context(outcome: &Outcome) -> Option<String> {
    if outcome.context().is_empty() {
        return None;
    }
    let mut text = outcome.context().join(CONTEXT_SEPARATOR);
    if text.chars().count() > CONTEXT_LIMIT {
        const MARK: &str = "\n[context truncated by agenthooks: Cursor drops more than 10000 characters]";
        let keep = CONTEXT_LIMIT - MARK.chars().count();
        tracing::warn!(
            len = text.chars().count(),
            "additional_context over Cursor's limit; truncated"
        );
        text = text.chars().take(keep).collect::<String>() + MARK;
    }
    Some(text)
}

/// The verdict of a gate decision.
fn permission(outcome: &Outcome) -> Option<Permission> {
    match outcome.kind() {
        DecisionKind::Allow => Some(Permission::Allow),
        DecisionKind::Deny => Some(Permission::Deny),
        DecisionKind::Ask => Some(Permission::Ask),
        _ => None,
    }
}

/// Translates an outcome (already checked against the event's capabilities) into the typed
/// output of the event's [`Shape`].
fn encode_reply(native: &str, outcome: &Outcome) -> Result<Value, EncodeError> {
    let reason = outcome.reason().map(reason_or_default);
    let user = outcome.block_message().or(reason).map(str::to_owned);
    let p = permission(outcome);
    let denied = p == Some(Permission::Deny);
    let value = match Shape::of(native) {
        Some(Shape::PreToolUse) => serde_json::to_value(PreToolUseOutput {
            permission: p,
            user_message: user.filter(|_| denied),
            agent_message: reason.map(str::to_owned).filter(|_| denied),
            updated_input: outcome.updated_input().cloned(),
            continue_: p.map(|_| true),
        }),
        // Deny: both messages (user-facing block message, the reason for the model). Ask: the
        // reason as `agent_message` only (a `user_message` outside a deny is shown as a plain
        // notice). The capabilities leave `subagentStart` and `beforeTabFileRead` nothing to
        // write.
        Some(Shape::Gate | Shape::FileGate) => {
            let asked = p == Some(Permission::Ask);
            serde_json::to_value(PermissionOutput {
                permission: p,
                user_message: user.filter(|_| denied),
                agent_message: reason.map(str::to_owned).filter(|_| denied || asked),
                continue_: p.map(|_| true),
            })
        }
        Some(Shape::PostTool) => serde_json::to_value(PostToolOutput {
            additional_context: context(outcome),
            updated_mcp_tool_output: outcome.replaced_output().cloned(),
        }),
        Some(Shape::AfterMcp) => serde_json::to_value(AfterMcpOutput {
            updated_mcp_tool_output: outcome.replaced_output().cloned(),
        }),
        Some(Shape::Prompt) => {
            let blocked = outcome.kind() == DecisionKind::BlockPrompt;
            serde_json::to_value(PromptOutput {
                continue_: blocked.then_some(false),
                // Cursor shows `user_message` as the block reason: the reason, not the block
                // message (⚠ an explicit block message is not expressible here).
                user_message: reason.map(str::to_owned).filter(|_| blocked),
                additional_context: context(outcome).filter(|_| !blocked),
            })
        }
        Some(Shape::SessionStart) => serde_json::to_value(SessionStartOutput {
            additional_context: context(outcome),
            ..SessionStartOutput::default()
        }),
        Some(Shape::Stop) => serde_json::to_value(StopOutput {
            followup_message: (outcome.kind() == DecisionKind::Continue)
                .then(|| outcome.instruction().or(reason).unwrap_or_default().to_owned()),
        }),
        Some(Shape::PreCompact) => serde_json::to_value(PreCompactOutput {
            user_message: outcome.system_message().map(str::to_owned),
        }),
        _ => return Err(inexpressible(native, &format!("a {} decision", outcome.kind()))),
    };
    value.map_err(|e| inexpressible(native, &e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::native;

    #[test]
    fn rows_are_consistent() {
        for row in native::EVENTS {
            if !row.blocking {
                assert!(
                    row.caps.is_empty(),
                    "{} is not blocking but promises {:?}",
                    row.name,
                    row.caps
                );
            }
            assert!(!row.may_async, "Cursor has no async hooks: {}", row.name);
            if row.tool_matcher {
                assert_eq!(row.identifying, ["tool_name"], "{}", row.name);
            }
        }
        assert_eq!(native::EVENTS.len(), 21);
    }

    #[test]
    fn cli_builds_are_told_from_ide_versions() {
        assert!(is_cli_build("2026.09.18-9a7762b"));
        assert!(!is_cli_build("2.4.21"));
        assert!(!is_cli_build("1.7"));
        assert!("2026.09.18-9a7762b" >= PROMPT_CONTEXT_SINCE && "2026.02.13-aa" < PROMPT_CONTEXT_SINCE);
    }

    #[test]
    fn cloud_fires_no_session_or_mcp_hooks() {
        assert!(!fires(&Variant::CLOUD, "sessionStart"));
        assert!(!fires(&Variant::CLOUD, "beforeMCPExecution"));
        assert!(fires(&Variant::CLOUD, "preToolUse"));
        assert!(!fires(&Variant::CLI, "afterTabFileEdit"));
        assert!(fires(&Variant::IDE, "afterTabFileEdit"));
        assert_eq!(CursorCodec.capabilities(&Variant::CLOUD, "sessionStart"), CapSet::EMPTY);
    }
}
