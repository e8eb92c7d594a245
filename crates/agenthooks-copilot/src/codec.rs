//! [`CopilotCodec`]: the [`Codec`] for GitHub Copilot CLI (see the crate docs for the dialect).

use std::time::Duration;

use agenthooks_core::decision::DEFAULT_BLOCK_REASON;
use agenthooks_core::{
    synth_tool_id, AgentInfo, CapSet, Capability as C, Codec, CompactPreEvent, Confidence, DecisionKind,
    DecodeCategory, DecodeError, EncodeCategory, EncodeError, Env, Envelope, Event, EventKind, EventRow, EventTarget,
    FailMode, Invocation, McpCall, NativeName, NotificationEvent, OtherEvent, Outcome, PermissionEvent, PromptEvent,
    Provider, Quirk, SessionEndEvent, SessionStartEvent, StopEvent, SubagentStartEvent, ToolCall, ToolErrorEvent,
    ToolPostEvent, ToolPreEvent, Variant, WireResponse,
};
use serde_json::{Map, Value};

use crate::identify::{self, Identification};
use crate::native::{self, pascal, Dialect, ErrorDetail, EventName, NativeEvent};
use crate::tools;

/// The GitHub Copilot CLI codec. Use the [`CODEC`](crate::CODEC) static.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct CopilotCodec;

impl CopilotCodec {
    /// The codec.
    pub const fn new() -> Self {
        Self
    }
}

/// Copilot's default hook timeout (`timeoutSec` defaults to 30).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Copilot's own cap on consecutive `agentStop` / `subagentStop` blocks (1.0.72). The library's
/// continuation cap must stay below it so agenthooks, not Copilot, decides when a loop ends.
pub const COPILOT_BLOCK_CAP: u32 = 8;

/// The first release whose `userPromptSubmitted` hooks feed `additionalContext` to the model.
pub const PROMPT_CONTEXT_SINCE: (u64, u64, u64) = (1, 0, 65);

/// The environment variable Copilot sets to its version in every hook process.
pub const VERSION_ENV: &str = "COPILOT_CLI_BINARY_VERSION";

const fn spec(name: &'static str, kind: EventKind, blocking: bool, matcher: bool) -> EventRow {
    EventRow::new(name, kind, blocking, matcher)
}

/// The native events, under the camelCase names agenthooks installs. PascalCase spellings are
/// understood too (see [`Codec::kind_of`]) but never rendered.
pub static NATIVE_EVENTS: [EventRow; 15] = [
    spec("sessionStart", EventKind::SessionStart, true, false),
    spec("sessionEnd", EventKind::SessionEnd, false, false),
    spec("userPromptSubmitted", EventKind::PromptSubmitted, true, false),
    spec("userPromptTransformed", EventKind::Other, false, false),
    spec("preToolUse", EventKind::ToolPre, true, true),
    spec("preMcpToolCall", EventKind::Other, false, false),
    spec("postToolUse", EventKind::ToolPost, true, true),
    spec("postToolUseFailure", EventKind::ToolError, true, true),
    spec("permissionRequest", EventKind::Permission, true, true),
    spec("agentStop", EventKind::Stop, true, false),
    spec("subagentStart", EventKind::SubagentStart, true, false),
    spec("subagentStop", EventKind::SubagentStop, true, false),
    spec("preCompact", EventKind::CompactPre, false, false),
    spec("errorOccurred", EventKind::Other, false, false),
    spec("notification", EventKind::Notification, true, false),
];

/// The unified kind of a Copilot event.
pub fn kind_of_event(event: EventName) -> EventKind {
    event.unified_kind().parse().unwrap_or(EventKind::Other)
}

const PRE_TOOL: CapSet = CapSet::of(&[C::Deny, C::Ask, C::Allow, C::UpdateInput, C::AddContext]);
// Fired just before Copilot's permission dialog: abstaining lets the user decide (an ask is
// answered no decision). ⚠ `-p` runs fire it too, with no dialog after it, but neither the
// payload nor the environment says so: the codec cannot tell headless runs apart yet.
const PERMISSION: CapSet = CapSet::of(&[C::Deny, C::Allow, C::PermissionDialog]);
const STOP: CapSet = CapSet::of(&[C::ContinueAgent]);
const CONTEXT: CapSet = CapSet::of(&[C::AddContext]);

/// What Copilot honours for an event. `prompt_context`: whether this CLI feeds
/// `userPromptSubmitted`'s `additionalContext` to the model (see [`prompt_context_supported`]).
pub fn capabilities_of(event: Option<EventName>, prompt_context: bool) -> CapSet {
    match event {
        Some(EventName::PreToolUse) => PRE_TOOL,
        Some(EventName::PermissionRequest) => PERMISSION,
        Some(EventName::AgentStop | EventName::SubagentStop) => STOP,
        Some(
            EventName::SessionStart
            | EventName::SubagentStart
            | EventName::PostToolUse
            | EventName::PostToolUseFailure
            | EventName::Notification,
        ) => CONTEXT,
        Some(EventName::UserPromptSubmitted) if prompt_context => CONTEXT,
        _ => CapSet::EMPTY,
    }
}

/// Parses `1.0.102` (or `1.0.74-4`) into numbers; `None` when it is not a version.
pub fn parse_version(v: &str) -> Option<(u64, u64, u64)> {
    let mut parts = v.trim().trim_start_matches('v').splitn(3, '.');
    let mut num = |last: bool| -> Option<u64> {
        let p = parts.next()?;
        let digits: String = if last {
            p.chars().take_while(char::is_ascii_digit).collect()
        } else {
            p.to_owned()
        };
        digits.parse().ok()
    };
    Some((num(false)?, num(false)?, num(true)?))
}

/// Whether a Copilot version feeds `userPromptSubmitted`'s `additionalContext` to the model:
/// `>= 1.0.65`. ⚠ An unknown or unparseable version counts as yes: the field is harmless where it
/// is ignored, and current releases (which always report their version) honour it.
pub fn prompt_context_supported(version: Option<&str>) -> bool {
    version
        .and_then(parse_version)
        .is_none_or(|v| v >= PROMPT_CONTEXT_SINCE)
}

/// What the codec attaches as the envelope's native view.
#[derive(Debug, Clone)]
struct View {
    native: NativeEvent,
    identification: Identification,
}

/// The Copilot native typed payload of an event decoded by this codec.
pub fn view(env: &Envelope) -> Option<&NativeEvent> {
    env.native_view::<View>().map(|v| &v.native)
}

/// How the codec identified the event (argv, a name field, or the payload shape, with the
/// confidence of that reconstruction).
pub fn identification(env: &Envelope) -> Option<&Identification> {
    env.native_view::<View>().map(|v| &v.identification)
}

fn core_confidence(c: identify::Confidence) -> Confidence {
    match c {
        identify::Confidence::Certain => Confidence::Certain,
        identify::Confidence::High | identify::Confidence::Medium => Confidence::Inferred,
        _ => Confidence::Guess,
    }
}

fn str_field<'a>(map: &'a Map<String, Value>, dialect: Dialect, camel: &str, snake: &str) -> Option<&'a str> {
    let key = match dialect {
        Dialect::Camel => camel,
        Dialect::Pascal => snake,
    };
    map.get(key).and_then(Value::as_str)
}

/// The tool-call id correlation key: the normalized input without the shell tool's
/// `description`, which `permissionRequest` drops (quirk 404).
fn tool_call(name: &str, raw: Option<&Value>, session: &str) -> ToolCall {
    let mut call = ToolCall::from_parts(
        name,
        tools::classify(name),
        raw.cloned().unwrap_or(Value::Null),
        None,
        session,
        "",
    );
    let mut key = call.input.clone();
    key.remove("description");
    call.id = synth_tool_id(session, "", name, &key);
    if let Some(m) = tools::mcp_parts(name) {
        call = call.with_mcp(McpCall::new(m.server.unwrap_or_default(), m.tool));
    }
    call
}

fn error_text(e: &ErrorDetail) -> String {
    match e {
        ErrorDetail::Message(m) => m.clone(),
        ErrorDetail::Object(o) => o
            .message
            .clone()
            .unwrap_or_else(|| serde_json::to_string(o).unwrap_or_default()),
        ErrorDetail::Other(v) => v.to_string(),
    }
}

/// The kind-specific part of an event, dialect-independent.
enum Detail<'a> {
    SessionStart(&'a str),
    SessionEnd(&'a str),
    Prompt(&'a str),
    ToolPre(&'a str, Option<&'a Value>),
    ToolPost(&'a str, Option<&'a Value>, Value),
    ToolError(&'a str, Option<&'a Value>, String),
    Permission(&'a str, &'a Value, Option<&'a Value>),
    Stop(bool, Option<&'a str>),
    SubagentStart,
    SubagentStop(bool, Option<&'a str>),
    CompactPre(&'a str, Option<&'a str>),
    Notification(&'a str, Option<&'a str>, &'a str),
    Other,
}

fn detail<'a>(native: &'a NativeEvent, map: &'a Map<String, Value>) -> Detail<'a> {
    use pascal::PascalEvent as P;
    match native {
        NativeEvent::SessionStart(e) => Detail::SessionStart(&e.source),
        NativeEvent::SessionEnd(e) => Detail::SessionEnd(&e.reason),
        NativeEvent::UserPromptSubmitted(e) => Detail::Prompt(&e.prompt),
        NativeEvent::PreToolUse(e) => Detail::ToolPre(&e.tool_name, e.tool_args.as_ref()),
        NativeEvent::PostToolUse(e) => Detail::ToolPost(
            &e.tool_name,
            e.tool_args.as_ref(),
            map.get("toolResult").cloned().unwrap_or(Value::Null),
        ),
        NativeEvent::PostToolUseFailure(e) => {
            Detail::ToolError(&e.tool_name, e.tool_args.as_ref(), error_text(&e.error))
        }
        NativeEvent::PermissionRequest(e) => {
            Detail::Permission(&e.tool_name, &e.tool_input, e.permission_suggestions.as_ref())
        }
        NativeEvent::AgentStop(e) => Detail::Stop(e.previously_continued(), None),
        NativeEvent::SubagentStart(_) => Detail::SubagentStart,
        NativeEvent::SubagentStop(e) => Detail::SubagentStop(e.previously_continued(), e.response.as_deref()),
        NativeEvent::PreCompact(e) => Detail::CompactPre(&e.trigger, e.custom_instructions.as_deref()),
        NativeEvent::Notification(e) => Detail::Notification(&e.message, e.title.as_deref(), &e.notification_type),
        NativeEvent::Pascal(p) => match p {
            P::SessionStart(e) => Detail::SessionStart(&e.source),
            P::SessionEnd(e) => Detail::SessionEnd(&e.reason),
            P::UserPromptSubmit(e) => Detail::Prompt(&e.prompt),
            P::PreToolUse(e) => Detail::ToolPre(&e.tool_name, e.tool_input.as_ref()),
            P::PostToolUse(e) => Detail::ToolPost(
                &e.tool_name,
                e.tool_input.as_ref(),
                e.tool_result
                    .clone()
                    .or_else(|| e.tool_response.clone())
                    .unwrap_or(Value::Null),
            ),
            P::PostToolUseFailure(e) => Detail::ToolError(&e.tool_name, e.tool_input.as_ref(), error_text(&e.error)),
            P::PermissionRequest(e) => {
                Detail::Permission(&e.tool_name, &e.tool_input, e.permission_suggestions.as_ref())
            }
            P::Stop(e) => Detail::Stop(e.previously_continued(), None),
            P::SubagentStart(_) => Detail::SubagentStart,
            P::SubagentStop(e) => Detail::SubagentStop(e.previously_continued(), e.response.as_deref()),
            P::PreCompact(e) => Detail::CompactPre(&e.trigger, e.custom_instructions.as_deref()),
            P::Notification(e) => Detail::Notification(&e.message, e.title.as_deref(), &e.notification_type),
            _ => Detail::Other,
        },
        _ => Detail::Other,
    }
}

fn agent_info(event: Option<EventName>, map: &Map<String, Value>, dialect: Dialect) -> Option<AgentInfo> {
    let id = str_field(map, dialect, "agentId", "agent_id");
    let ty = str_field(map, dialect, "agentType", "agent_type");
    let subagent_event = matches!(event, Some(EventName::SubagentStart | EventName::SubagentStop));
    if subagent_event {
        let name = str_field(map, dialect, "agentName", "agent_name");
        Some(AgentInfo::new(id.unwrap_or_default(), ty.or(name).unwrap_or_default()))
    } else {
        id.map(|id| AgentInfo::new(id, ty.unwrap_or_default()))
    }
}

fn build_event(env: Envelope, detail: Detail<'_>) -> Event {
    let session = env.session.id.clone();
    match detail {
        Detail::SessionStart(s) => Event::SessionStart(SessionStartEvent::from_parts(env, Some(s.to_owned()))),
        Detail::SessionEnd(r) => Event::SessionEnd(SessionEndEvent::from_parts(env, Some(r.to_owned()))),
        Detail::Prompt(p) => Event::PromptSubmitted(PromptEvent::new(env, p.to_owned())),
        Detail::ToolPre(name, args) => Event::ToolPre(ToolPreEvent::new(env, tool_call(name, args, &session))),
        Detail::ToolPost(name, args, output) => Event::ToolPost(ToolPostEvent::from_parts(
            env,
            tool_call(name, args, &session),
            output,
            None,
        )),
        Detail::ToolError(name, args, error) => Event::ToolError(ToolErrorEvent::from_parts(
            env,
            tool_call(name, args, &session),
            error,
            false,
            None,
        )),
        Detail::Permission(name, input, suggestions) => Event::Permission(PermissionEvent::from_parts(
            env,
            tool_call(name, Some(input), &session),
            suggestions.cloned(),
        )),
        Detail::Stop(prev, last) => Event::Stop(StopEvent::from_parts(env, prev, None, last.map(str::to_owned))),
        Detail::SubagentStart => Event::SubagentStart(SubagentStartEvent::new(env)),
        Detail::SubagentStop(prev, last) => {
            Event::SubagentStop(StopEvent::from_parts(env, prev, None, last.map(str::to_owned)))
        }
        Detail::CompactPre(trigger, instructions) => Event::CompactPre(CompactPreEvent::from_parts(
            env,
            Some(trigger.to_owned()),
            instructions.map(str::to_owned),
        )),
        Detail::Notification(message, title, ty) => Event::Notification(NotificationEvent::from_parts(
            env,
            message.to_owned(),
            title.map(str::to_owned),
            Some(ty.to_owned()),
        )),
        Detail::Other => Event::Other(OtherEvent::new(env)),
    }
}

impl CopilotCodec {
    /// What Copilot honours for a decoded event, taking the CLI version it reported into account
    /// (`userPromptSubmitted` context needs 1.0.65; quirk 408). [`Codec::capabilities`] cannot see
    /// the version and answers for current releases.
    pub fn event_capabilities(&self, event: &Event) -> CapSet {
        let env = event.envelope();
        let name = EventName::parse(env.native.as_str()).map(|(e, _)| e);
        capabilities_of(name, prompt_context_supported(env.agent_version.as_deref()))
    }

    fn provider_() -> Provider {
        Provider::COPILOT
    }

    #[allow(clippy::needless_pass_by_value)] // replaced by the provider kit's decoder
    fn decode_error(e: native::NativeError) -> DecodeError {
        let path = e.path.clone();
        DecodeError::from_json(Self::provider_(), &e.source).with_path(path)
    }
}

/// The event and dialect an encode targets: from the native view, else the native name and
/// variant.
fn target_of(event: &Event) -> Option<(EventName, Dialect)> {
    let env = event.envelope();
    if let Some(n) = view(env) {
        return Some((n.event()?, n.dialect()?));
    }
    let (e, spelled) = EventName::parse(env.native.as_str())?;
    let dialect = if env.variant == Variant::VSCODE {
        Dialect::Pascal
    } else {
        spelled
    };
    Some((e, dialect))
}

fn unsupported(what: &str, event: EventName) -> EncodeError {
    EncodeError::new(
        Provider::COPILOT,
        EncodeCategory::WrongFamily,
        format!("Copilot cannot express {what} on {event}"),
    )
}

fn joined_context(outcome: &Outcome) -> Option<String> {
    let c = outcome.context();
    (!c.is_empty()).then(|| c.join("\n"))
}

/// Copilot's deny reason: the model-facing reason, else the block message, else the default.
fn deny_reason(outcome: &Outcome) -> String {
    outcome
        .reason()
        .or_else(|| outcome.block_message())
        .filter(|r| !r.trim().is_empty())
        .unwrap_or(DEFAULT_BLOCK_REASON)
        .to_owned()
}

/// Adds the Claude-compatible `hookSpecificOutput` a PascalCase hook may read (quirk 402).
fn with_hook_specific(
    mut top: Map<String, Value>,
    dialect: Dialect,
    event: EventName,
    inner: Map<String, Value>,
) -> Map<String, Value> {
    if dialect == Dialect::Pascal && !inner.is_empty() {
        let mut hso = Map::new();
        hso.insert("hookEventName".into(), event.pascal().into());
        hso.extend(inner);
        top.insert("hookSpecificOutput".into(), Value::Object(hso));
    }
    top
}

fn encode_pre_tool(event: EventName, dialect: Dialect, outcome: &Outcome) -> Result<Map<String, Value>, EncodeError> {
    let mut top = Map::new();
    let mut inner = Map::new();
    match outcome.kind() {
        DecisionKind::NoDecision => {}
        DecisionKind::Allow => {
            top.insert("permissionDecision".into(), "allow".into());
        }
        DecisionKind::Deny => {
            top.insert("permissionDecision".into(), "deny".into());
            top.insert("permissionDecisionReason".into(), deny_reason(outcome).into());
        }
        DecisionKind::Ask => {
            top.insert("permissionDecision".into(), "ask".into());
            if let Some(r) = outcome.reason().filter(|r| !r.trim().is_empty()) {
                top.insert("permissionDecisionReason".into(), r.into());
            }
        }
        k => return Err(unsupported(k.as_str(), event)),
    }
    inner.extend(top.clone());
    if let Some(input) = outcome.updated_input() {
        top.insert("modifiedArgs".into(), Value::Object(input.clone()));
        inner.insert("updatedInput".into(), Value::Object(input.clone()));
    }
    if let Some(ctx) = joined_context(outcome) {
        top.insert("additionalContext".into(), ctx.clone().into());
        inner.insert("additionalContext".into(), ctx.into());
    }
    Ok(with_hook_specific(top, dialect, event, inner))
}

fn encode_permission(event: EventName, dialect: Dialect, outcome: &Outcome) -> Result<Map<String, Value>, EncodeError> {
    let mut top = Map::new();
    match outcome.kind() {
        DecisionKind::NoDecision => {}
        DecisionKind::Allow => {
            top.insert("behavior".into(), "allow".into());
        }
        DecisionKind::Deny => {
            top.insert("behavior".into(), "deny".into());
            top.insert("message".into(), deny_reason(outcome).into());
        }
        k => return Err(unsupported(k.as_str(), event)),
    }
    if outcome.updated_input().is_some() {
        return Err(unsupported("an input rewrite", event));
    }
    let mut inner = Map::new();
    if !top.is_empty() {
        inner.insert("decision".into(), Value::Object(top.clone()));
    }
    Ok(with_hook_specific(top, dialect, event, inner))
}

fn encode_stop(event: EventName, outcome: &Outcome) -> Result<Map<String, Value>, EncodeError> {
    let mut top = Map::new();
    match outcome.kind() {
        DecisionKind::NoDecision => {}
        DecisionKind::Continue => {
            top.insert("decision".into(), "block".into());
            top.insert("reason".into(), outcome.instruction().unwrap_or_default().into());
        }
        k => return Err(unsupported(k.as_str(), event)),
    }
    Ok(top)
}

fn encode_context(event: EventName, dialect: Dialect, outcome: &Outcome) -> Result<Map<String, Value>, EncodeError> {
    if outcome.kind() != DecisionKind::NoDecision {
        return Err(unsupported(outcome.kind().as_str(), event));
    }
    let mut top = Map::new();
    if let Some(ctx) = joined_context(outcome) {
        top.insert("additionalContext".into(), ctx.into());
    }
    let inner = top.clone();
    Ok(with_hook_specific(top, dialect, event, inner))
}

impl Codec for CopilotCodec {
    fn provider(&self) -> Provider {
        Provider::COPILOT
    }

    fn native_events(&self) -> &'static [EventRow] {
        &NATIVE_EVENTS
    }

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let bytes = inv.payload.json_bytes();
        let value: Value = serde_json::from_slice(bytes).map_err(|e| DecodeError::from_json(Self::provider_(), &e))?;
        let Value::Object(map) = value else {
            return Err(DecodeError::new(
                Self::provider_(),
                DecodeCategory::Data,
                "the payload is not a JSON object",
            ));
        };
        let id = identify::identify(inv.native_event, &map);
        if let Some(other) = &id.name_conflict {
            tracing::warn!(argv = ?inv.native_event, payload = %other, "the argv event and the payload's own event name disagree; using argv");
        }
        let native = match id.event {
            Some(e) => NativeEvent::decode(e, id.dialect, bytes),
            None => NativeEvent::decode_other(&id.native_name, bytes),
        }
        .map_err(Self::decode_error)?;
        let dialect = id.dialect;
        let kind = id.event.map_or(EventKind::Other, kind_of_event);
        let mut env = Envelope::new(
            Self::provider_(),
            NativeName::new(id.native_name.clone()),
            kind,
            inv.payload.clone(),
        );
        env.confidence = core_confidence(id.confidence);
        env.variant = match inv.variant {
            Some(v) => v.clone(),
            None if dialect == Dialect::Pascal => Variant::VSCODE,
            None => Variant::DEFAULT,
        };
        env.provider_time = map.get("timestamp").cloned();
        env.agent_version = inv.env.var(VERSION_ENV).filter(|v| !v.trim().is_empty());
        let text = |camel: &str, snake: &str| str_field(&map, dialect, camel, snake).unwrap_or_default().to_owned();
        let cwd = text("cwd", "cwd");
        env.session.id = text("sessionId", "session_id");
        env.session.transcript_path = text("transcriptPath", "transcript_path");
        let root = inv
            .env
            .var("COPILOT_PROJECT_DIR")
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| cwd.clone());
        if !root.is_empty() {
            env.session.workspace_roots = vec![root];
        }
        env.session.cwd = cwd;
        env.session.model = inv.env.var("COPILOT_MODEL").unwrap_or_default();
        env.agent = agent_info(id.event, &map, dialect);
        let mut event = build_event(env, detail(&native, &map));
        event.envelope_mut().set_native_view(View {
            native,
            identification: id,
        });
        Ok(event)
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        if outcome.is_bare_neutral() {
            return Ok(WireResponse::empty());
        }
        let Some((ev, dialect)) = target_of(event) else {
            return Err(EncodeError::new(
                Provider::COPILOT,
                EncodeCategory::WrongFamily,
                format!("unknown Copilot event `{}` takes no decision", event.envelope().native),
            ));
        };
        let family_fits = match ev {
            EventName::PreToolUse | EventName::PermissionRequest => matches!(outcome, Outcome::ToolPre(_)),
            EventName::UserPromptSubmitted => matches!(outcome, Outcome::Prompt(_)),
            EventName::AgentStop | EventName::SubagentStop => matches!(outcome, Outcome::Stop(_)),
            EventName::PostToolUse => matches!(outcome, Outcome::ToolPost(_)),
            _ => matches!(outcome, Outcome::Context(_)),
        };
        if !family_fits {
            return Err(unsupported("a decision of another event's family", ev));
        }
        let caps = capabilities_of(Some(ev), true);
        if outcome.system_message().is_some() {
            return Err(unsupported("a system message", ev));
        }
        if outcome.stop_reason().is_some() && !caps.contains(C::StopAgent) {
            return Err(unsupported("stop-agent", ev));
        }
        if !outcome.context().is_empty() && !caps.contains(C::AddContext) {
            return Err(unsupported("context", ev));
        }
        let body = match ev {
            EventName::PreToolUse => encode_pre_tool(ev, dialect, outcome)?,
            EventName::PermissionRequest => encode_permission(ev, dialect, outcome)?,
            EventName::AgentStop | EventName::SubagentStop => encode_stop(ev, outcome)?,
            _ => encode_context(ev, dialect, outcome)?,
        };
        if body.is_empty() {
            return Ok(WireResponse::empty());
        }
        Ok(WireResponse::json(&Value::Object(body)))
    }

    /// Empty stdout, exit 0: "no decision" on every Copilot event.
    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::empty()
    }

    /// Always exit 0 (quirk 405): fail-open is the no-op; fail-closed is an explicit deny JSON on
    /// `preToolUse` / `permissionRequest` and the no-op elsewhere (nothing else can block).
    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        if mode != FailMode::Closed {
            return WireResponse::empty();
        }
        let Some((ev, spelled)) = target.native.as_ref().and_then(|n| EventName::parse(n.as_str())) else {
            return WireResponse::empty();
        };
        let dialect = if target.variant == Variant::VSCODE {
            Dialect::Pascal
        } else {
            spelled
        };
        let text = format!("Blocked: the hook failed and its policy fails closed ({reason}).");
        let outcome = Outcome::from(agenthooks_core::decision::deny(text));
        let body = match ev {
            EventName::PreToolUse => encode_pre_tool(ev, dialect, &outcome),
            EventName::PermissionRequest => encode_permission(ev, dialect, &outcome),
            _ => return WireResponse::empty(),
        };
        body.map_or_else(|_| WireResponse::empty(), |b| WireResponse::json(&Value::Object(b)))
    }

    /// Current releases; see [`CopilotCodec::event_capabilities`] for the version-aware answer.
    fn capabilities(&self, _variant: &Variant, native: &str) -> CapSet {
        capabilities_of(EventName::parse(native).map(|(e, _)| e), true)
    }

    fn default_timeout(&self) -> Duration {
        DEFAULT_TIMEOUT
    }

    fn quirks(&self) -> &'static [Quirk] {
        crate::quirks::QUIRKS
    }

    /// `COPILOT_CLI_BINARY_VERSION` is set by Copilot for its hook processes: certain.
    /// `COPILOT_CLI=1` alone (set for everything Copilot spawns): inferred.
    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        if env.var(VERSION_ENV).is_some_and(|v| !v.is_empty()) {
            Some(Confidence::Certain)
        } else if env.var("COPILOT_CLI").as_deref() == Some("1") {
            Some(Confidence::Inferred)
        } else {
            None
        }
    }

    /// Certain for the camelCase dialect (a numeric millisecond `timestamp` next to `sessionId`
    /// or a Copilot-only camelCase key: no other agent sends that); inferred for a PascalCase
    /// payload naming a Copilot event with an ISO timestamp.
    fn sniff_payload(&self, payload: &[u8], _env: &dyn Env) -> Option<Confidence> {
        const CAMEL_KEYS: &[&str] = &[
            "sessionId",
            "toolName",
            "toolArgs",
            "toolInput",
            "toolResult",
            "transcriptPath",
            "stopReason",
            "errorContext",
            "initialPrompt",
            "hookName",
            "agentName",
            "customInstructions",
        ];
        let map: Map<String, Value> = serde_json::from_slice(agenthooks_core::event::strip_bom(payload)).ok()?;
        let named = map.get("hook_event_name").and_then(Value::as_str);
        match map.get("timestamp") {
            Some(Value::Number(_)) if named.is_none_or(|n| n == "Notification") => {
                if CAMEL_KEYS.iter().any(|k| map.contains_key(*k)) {
                    Some(Confidence::Certain)
                } else {
                    Some(Confidence::Guess)
                }
            }
            Some(Value::String(_)) if named.is_some_and(|n| EventName::from_pascal(n).is_some()) => {
                Some(Confidence::Inferred)
            }
            _ => None,
        }
    }

    fn kind_of(&self, native: &str) -> EventKind {
        EventName::parse(native).map_or(EventKind::Other, |(e, _)| kind_of_event(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_and_gate_prompt_context() {
        assert_eq!(parse_version("1.0.102"), Some((1, 0, 102)));
        assert_eq!(parse_version("v1.0.74-4"), Some((1, 0, 74)));
        assert_eq!(parse_version(" 0.0.422 "), Some((0, 0, 422)));
        assert_eq!(parse_version("1.0"), None);
        assert_eq!(parse_version("one.two.three"), None);
        assert!(!prompt_context_supported(Some("1.0.64")));
        assert!(prompt_context_supported(Some("1.0.65")));
        assert!(prompt_context_supported(Some("2.0.0")));
        assert!(
            prompt_context_supported(None),
            "unknown: claimed (harmless where ignored)"
        );
        assert!(prompt_context_supported(Some("garbage")));
    }

    #[test]
    fn the_static_event_list_matches_the_native_module() {
        for (spec, e) in NATIVE_EVENTS.iter().zip(EventName::ALL) {
            assert_eq!(spec.name, e.camel());
            assert_eq!(spec.kind, kind_of_event(e));
            assert_eq!(
                spec.tool_matcher,
                e.spec().kind.starts_with("tool.") || e == EventName::PermissionRequest
            );
        }
    }
}
