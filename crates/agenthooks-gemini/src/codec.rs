//! [`GeminiCodec`]: `impl agenthooks_core::Codec` for Gemini CLI's hook dialect.
//!
//! See the crate docs for the dialect and every lossy projection.

use std::time::Duration;

use agenthooks_core::decision::DEFAULT_BLOCK_REASON;
use agenthooks_core::event::strip_bom;
use agenthooks_core::{
    CapSet, Capability, Codec, CompactPreEvent, Confidence, DecisionKind, DecodeCategory, DecodeError, EncodeCategory,
    EncodeError, Env, Envelope, Event, EventKind, EventRow, EventTarget, FailMode, Invocation, McpCall,
    ModelRequestEvent, ModelResponseEvent, NotificationEvent, OtherEvent, Outcome, PromptEvent, Provider, Quirk,
    SessionEndEvent, SessionStartEvent, StderrUse, StopEvent, ToolCall, ToolErrorEvent, ToolPostEvent, ToolPreEvent,
    Variant, WireResponse,
};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::native::{self, LlmResponse, McpContext, NativeDecodeError, NativeEvent};
use crate::{mcp, tools};

/// Gemini CLI's default hook timeout when `settings.json` states none: 60 000 ms.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Converts a duration to the value of a `settings.json` hook `timeout`, which Gemini reads in
/// **milliseconds** (quirk #14; every other agent uses seconds). Saturates at `u64::MAX`.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(agenthooks_gemini::timeout_config_value(Duration::from_secs(30)), 30_000);
/// ```
pub fn timeout_config_value(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The answer for "no decision": an explicit empty JSON object (quirk #11).
pub const NO_OP: &[u8] = b"{}";

use Capability as C;

const SESSION_START: CapSet = CapSet::of(&[C::AddContext, C::SystemMessage]);
const MESSAGE_ONLY: CapSet = CapSet::of(&[C::SystemMessage]);
const BEFORE_AGENT: CapSet = CapSet::of(&[C::Deny, C::AddContext, C::StopAgent, C::SystemMessage]);
const AFTER_AGENT: CapSet = CapSet::of(&[C::ContinueAgent, C::StopAgent, C::SystemMessage]);
const BEFORE_TOOL: CapSet = CapSet::of(&[
    C::Deny,
    C::Ask,
    C::UpdateInput,
    C::NeutralRewrite,
    C::StopAgent,
    C::SystemMessage,
]);
// No FlagOutput: Gemini's only output mechanism (deny) hides the output, so a flag degrades to
// context (the output stays and the note is appended), and a replacement is the deny (#301).
const AFTER_TOOL: CapSet = CapSet::of(&[C::ReplaceOutput, C::AddContext, C::StopAgent, C::SystemMessage]);
const MODEL: CapSet = CapSet::of(&[C::StopAgent, C::SystemMessage]);

/// What Gemini CLI honours for a native event (the variant does not matter: Gemini has one
/// surface). Unknown events get nothing.
pub fn capabilities_for(native: &str) -> CapSet {
    match native {
        native::SessionStart::NAME => SESSION_START,
        native::SessionEnd::NAME
        | native::PreCompress::NAME
        | native::Notification::NAME
        | native::BeforeToolSelection::NAME => MESSAGE_ONLY,
        native::BeforeAgent::NAME => BEFORE_AGENT,
        native::AfterAgent::NAME => AFTER_AGENT,
        native::BeforeTool::NAME => BEFORE_TOOL,
        native::AfterTool::NAME => AFTER_TOOL,
        native::BeforeModel::NAME | native::AfterModel::NAME => MODEL,
        _ => CapSet::EMPTY,
    }
}

/// The Gemini CLI codec. Stateless; use the crate's [`CODEC`](crate::CODEC) static.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct GeminiCodec;

impl GeminiCodec {
    /// The codec.
    pub const fn new() -> Self {
        Self
    }
}

/// The provider's native typed payload attached to a decoded event.
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
/// assert_eq!(p.trigger, "auto");
/// ```
pub fn view(envelope: &Envelope) -> Option<&NativeEvent> {
    envelope.native_view::<NativeEvent>()
}

fn decode_error(e: NativeDecodeError) -> DecodeError {
    let path = e.path().to_owned();
    match e {
        NativeDecodeError::Invalid { source, .. } => DecodeError::from_json(Provider::GEMINI, &source).with_path(path),
    }
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The text of a model response chunk: `text` when Gemini sends it, else the first
/// candidate's text parts (plain strings or `{text}` objects) concatenated.
fn response_text(r: &LlmResponse) -> Option<String> {
    if let Some(t) = &r.text {
        return Some(t.clone());
    }
    let parts = r.candidates.as_deref()?.first()?.content.as_ref()?.parts.as_deref()?;
    let texts: Vec<&str> = parts
        .iter()
        .filter_map(|p| match p {
            Value::String(s) => Some(s.as_str()),
            Value::Object(m) => m.get("text").and_then(Value::as_str),
            _ => None,
        })
        .collect();
    (!texts.is_empty()).then(|| texts.concat())
}

fn tool_call(session: &str, name: &str, input: &Value, ctx: Option<&McpContext>) -> ToolCall {
    let call = ToolCall::from_parts(
        name,
        tools::classify(name, ctx.is_some()),
        input.clone(),
        None,
        session,
        "",
    );
    let Some(n) = mcp::resolve(name, ctx) else {
        return call;
    };
    let mut m = McpCall::new(n.server, n.tool);
    if let Some(ctx) = ctx {
        m.url = ctx.url.clone().or_else(|| ctx.tcp.clone()).unwrap_or_default();
        m.command = match (&ctx.command, &ctx.args) {
            (Some(c), Some(args)) if !args.is_empty() => format!("{c} {}", args.join(" ")),
            (Some(c), _) => c.clone(),
            (None, _) => String::new(),
        };
    }
    call.with_mcp(m)
}

fn build_event(native: NativeEvent, inv: &Invocation<'_>) -> Event {
    use NativeEvent as N;
    let mut env = Envelope::new(
        Provider::GEMINI,
        agenthooks_core::NativeName::new(native.name()),
        native.kind(),
        inv.payload.clone(),
    );
    env.variant = inv.variant.cloned().unwrap_or_default();
    env.provider_time = match &native {
        N::Other(m) => m.get("timestamp").cloned(),
        _ => native.timestamp().map(Value::from),
    };
    native.session_id().unwrap_or_default().clone_into(&mut env.session.id);
    native.cwd().unwrap_or_default().clone_into(&mut env.session.cwd);
    native
        .transcript_path()
        .unwrap_or_default()
        .clone_into(&mut env.session.transcript_path);
    if !env.session.cwd.is_empty() {
        env.session.workspace_roots = vec![env.session.cwd.clone()];
    }
    let session = env.session.id.clone();
    let event = match &native {
        N::SessionStart(e) => Event::SessionStart(SessionStartEvent::from_parts(env, Some(e.source.clone()))),
        N::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::from_parts(env, Some(e.reason.clone()))),
        N::BeforeAgent(e) => Event::PromptSubmitted(PromptEvent::new(env, e.prompt.clone())),
        N::AfterAgent(e) => Event::Stop(StopEvent::from_parts(
            env,
            e.stop_hook_active,
            None,
            Some(e.prompt_response.clone()),
        )),
        N::BeforeTool(e) => Event::ToolPre(ToolPreEvent::new(
            env,
            tool_call(&session, &e.tool_name, &e.tool_input, e.mcp_context.as_ref()),
        )),
        N::AfterTool(e) => {
            let tool = tool_call(&session, &e.tool_name, &e.tool_input, e.mcp_context.as_ref());
            match e.error_message() {
                Some(msg) => Event::ToolError(ToolErrorEvent::from_parts(env, tool, msg, false, None)),
                None => Event::ToolPost(ToolPostEvent::from_parts(env, tool, to_value(&e.tool_response), None)),
            }
        }
        N::BeforeModel(e) => {
            env.session.model = e.llm_request.model.clone().unwrap_or_default();
            Event::ModelRequest(ModelRequestEvent::new(env, to_value(&e.llm_request)))
        }
        N::BeforeToolSelection(e) => {
            env.session.model = e.llm_request.model.clone().unwrap_or_default();
            Event::ModelRequest(ModelRequestEvent::new(env, to_value(&e.llm_request)))
        }
        N::AfterModel(e) => {
            env.session.model = e.llm_request.model.clone().unwrap_or_default();
            Event::ModelResponse(
                ModelResponseEvent::new(env, to_value(&e.llm_response)).with_text(response_text(&e.llm_response)),
            )
        }
        N::PreCompress(e) => Event::CompactPre(CompactPreEvent::from_parts(env, Some(e.trigger.clone()), None)),
        N::Notification(e) => Event::Notification(NotificationEvent::from_parts(
            env,
            e.message.clone(),
            None,
            Some(e.notification_type.clone()),
        )),
        N::Other(_) => Event::Other(OtherEvent::new(env)),
    };
    let mut event = event;
    event.envelope_mut().set_native_view(native);
    event
}

fn encode_error(category: EncodeCategory, message: impl Into<String>) -> EncodeError {
    EncodeError::new(Provider::GEMINI, category, message)
}

/// The capabilities an outcome needs to be expressed without loss.
fn needed(outcome: &Outcome) -> Vec<Capability> {
    let mut v = Vec::new();
    match outcome.kind() {
        DecisionKind::Deny | DecisionKind::BlockPrompt => v.push(C::Deny),
        DecisionKind::Ask => v.push(C::Ask),
        DecisionKind::Allow => v.push(C::Allow),
        DecisionKind::Continue => v.push(C::ContinueAgent),
        DecisionKind::FlagOutput => v.push(C::FlagOutput),
        DecisionKind::ReplaceOutput => v.push(C::ReplaceOutput),
        _ => {}
    }
    if outcome.updated_input().is_some() {
        v.push(C::UpdateInput);
    }
    if !outcome.context().is_empty() {
        v.push(C::AddContext);
    }
    if outcome.system_message().is_some() {
        v.push(C::SystemMessage);
    }
    if outcome.stop_reason().is_some() {
        v.push(C::StopAgent);
    }
    v
}

/// Top-level keys a `BeforeTool` rewrite would remove from Gemini's original `tool_input`
/// (which Gemini merges shallowly: removals are impossible, quirk #12).
fn removed_keys(event: &Event, updated: &Map<String, Value>) -> Vec<String> {
    let original = match view(event.envelope()) {
        Some(NativeEvent::BeforeTool(t)) => t.tool_input.as_object(),
        _ => event.tool().map(|t| &t.input),
    };
    original
        .map(|o| o.keys().filter(|k| !updated.contains_key(*k)).cloned().collect())
        .unwrap_or_default()
}

fn replacement_text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

impl Codec for GeminiCodec {
    fn provider(&self) -> Provider {
        Provider::GEMINI
    }

    fn native_events(&self) -> &'static [EventRow] {
        native::NATIVE_EVENTS
    }

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let bytes = inv.payload.json_bytes();
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(DecodeError::new(
                Provider::GEMINI,
                DecodeCategory::Empty,
                "empty payload",
            ));
        }
        if let Err(e) = std::str::from_utf8(bytes) {
            return Err(DecodeError::new(
                Provider::GEMINI,
                DecodeCategory::NotUtf8,
                e.to_string(),
            ));
        }
        let native = native::decode_with_hint(bytes, inv.native_event).map_err(decode_error)?;
        Ok(build_event(native, inv))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let envelope = event.envelope();
        let native = envelope.native.as_str();
        let expected = Outcome::neutral_for(event.kind());
        if std::mem::discriminant(&expected) != std::mem::discriminant(outcome) {
            return Err(encode_error(
                EncodeCategory::WrongFamily,
                format!("a {:?} decision does not fit {native}", outcome.kind()),
            ));
        }
        let caps = self.capabilities(&envelope.variant, native);
        if let Some(missing) = needed(outcome).into_iter().find(|c| !caps.contains(*c)) {
            return Err(encode_error(
                EncodeCategory::WrongFamily,
                format!("{native} cannot express `{missing}` (degrade the decision first)"),
            ));
        }

        let mut out = Map::new();
        if let Some(stop) = outcome.stop_reason() {
            out.insert("continue".into(), Value::Bool(false));
            out.insert("stopReason".into(), stop.into());
        }
        let system_message = outcome.system_message().map(str::to_owned).or_else(|| {
            // The user-facing block message has no field of its own: Gemini shows `reason`
            // (which goes to the model) to both. A distinct one becomes the system message.
            match outcome {
                Outcome::ToolPre(d) if d.blocks() => d.block_reason(),
                Outcome::Prompt(d) if d.blocks() => d.block_reason(),
                _ => None,
            }
            .filter(|b| Some(*b) != outcome.reason())
            .map(str::to_owned)
        });
        if let Some(m) = system_message {
            out.insert("systemMessage".into(), m.into());
        }
        let (decision, reason): (Option<&str>, Option<String>) = match outcome.kind() {
            DecisionKind::Deny | DecisionKind::BlockPrompt => (
                Some("deny"),
                Some(
                    outcome
                        .reason()
                        .filter(|r| !r.trim().is_empty())
                        .unwrap_or(DEFAULT_BLOCK_REASON)
                        .to_owned(),
                ),
            ),
            DecisionKind::Ask => (
                Some("ask"),
                outcome.reason().filter(|r| !r.is_empty()).map(str::to_owned),
            ),
            // AfterAgent: deny = "retry with the reason as the next prompt".
            DecisionKind::Continue => (Some("deny"), outcome.instruction().map(str::to_owned)),
            // AfterTool: deny = "Tool result blocked: <reason>" replaces the result (#301).
            DecisionKind::ReplaceOutput => (
                Some("deny"),
                Some(outcome.replaced_output().map(replacement_text).unwrap_or_default()),
            ),
            _ => (None, None),
        };
        if let Some(d) = decision {
            out.insert("decision".into(), d.into());
        }
        if let Some(r) = reason {
            out.insert("reason".into(), r.into());
        }

        let mut hso = Map::new();
        if let Some(updated) = outcome.updated_input() {
            let removed = removed_keys(event, updated);
            if !removed.is_empty() {
                return Err(encode_error(
                    EncodeCategory::LossyUpdate,
                    format!(
                        "the tool_input rewrite removes {removed:?}, but Gemini merges rewrites \
                         into the original arguments shallowly, so keys cannot be removed \
                         (quirk #12)"
                    ),
                ));
            }
            hso.insert("tool_input".into(), Value::Object(updated.clone()));
        }
        if !outcome.context().is_empty() {
            hso.insert("additionalContext".into(), outcome.context().join("\n").into());
        }
        if !hso.is_empty() {
            let mut full = Map::new();
            full.insert("hookEventName".into(), native.into());
            full.extend(hso);
            out.insert("hookSpecificOutput".into(), Value::Object(full));
        }
        Ok(WireResponse::json(&Value::Object(out)))
    }

    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::stdout(NO_OP)
    }

    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        let can_block = match &target.native {
            Some(n) => capabilities_for(n.as_str()).contains(C::Deny),
            None => matches!(target.kind, Some(EventKind::ToolPre | EventKind::PromptSubmitted)),
        };
        if mode != FailMode::Closed || !can_block {
            return self.no_op(target);
        }
        let reason = if reason.trim().is_empty() {
            DEFAULT_BLOCK_REASON
        } else {
            reason
        };
        let mut out = Map::new();
        out.insert("decision".into(), "deny".into());
        out.insert("reason".into(), reason.into());
        WireResponse::json(&Value::Object(out))
    }

    fn capabilities(&self, _variant: &Variant, native: &str) -> CapSet {
        capabilities_for(native)
    }

    fn default_timeout(&self) -> Duration {
        DEFAULT_TIMEOUT
    }

    fn quirks(&self) -> &'static [Quirk] {
        crate::quirks::QUIRKS
    }

    fn sniff_env(&self, env: &dyn Env) -> Option<Confidence> {
        ["GEMINI_CWD", "GEMINI_SESSION_ID", "GEMINI_PROJECT_DIR"]
            .iter()
            .any(|k| env.var(k).is_some_and(|v| !v.is_empty()))
            .then_some(Confidence::Inferred)
    }

    fn sniff_payload(&self, payload: &[u8], _env: &dyn Env) -> Option<Confidence> {
        #[derive(Deserialize)]
        struct Shape {
            #[serde(default)]
            hook_event_name: Option<String>,
            #[serde(default)]
            timestamp: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            session_id: Option<serde::de::IgnoredAny>,
        }
        let shape: Shape = serde_json::from_slice(strip_bom(payload)).ok()?;
        let name = shape.hook_event_name?;
        match name.as_str() {
            // Names only Gemini CLI uses.
            native::BeforeAgent::NAME
            | native::AfterAgent::NAME
            | native::BeforeTool::NAME
            | native::AfterTool::NAME
            | native::BeforeModel::NAME
            | native::AfterModel::NAME
            | native::BeforeToolSelection::NAME
            | native::PreCompress::NAME => Some(Confidence::Certain),
            // Shared with Claude Code; Gemini's carry its own `timestamp`.
            native::SessionStart::NAME | native::SessionEnd::NAME | native::Notification::NAME
                if shape.timestamp.is_some() && shape.session_id.is_some() =>
            {
                Some(Confidence::Inferred)
            }
            _ => None,
        }
    }

    fn stderr_use(&self) -> StderrUse {
        // Gemini reads stderr as the decision when stdout is empty (quirk #11).
        StderrUse::Reserved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::decision::{
        allow, ask_user, block_prompt, continue_with, deny, flag_output, no_decision, replace_output, rewrite_input,
        ContextDecision,
    };
    use serde_json::json;
    use std::collections::HashMap;

    const BASE: &str = r#""session_id":"s1","transcript_path":"/t","cwd":"/p","timestamp":"2026-11-30T11:59:25.376Z""#;

    fn event(name: &str, rest: &str) -> Event {
        let env: HashMap<String, String> = HashMap::new();
        let bytes = format!(r#"{{{BASE},"hook_event_name":"{name}",{rest}}}"#);
        GeminiCodec
            .decode(&Invocation::new(bytes.into_bytes(), &env))
            .expect("decodes")
    }

    fn before_tool() -> Event {
        event(
            "BeforeTool",
            r#""tool_name":"run_shell_command","tool_input":{"command":"rm -rf /","description":"d"}"#,
        )
    }

    fn enc(ev: &Event, o: impl Into<Outcome>) -> String {
        let r = GeminiCodec.encode(ev, &o.into()).expect("encodes");
        assert_eq!(r.exit_code, 0);
        assert!(r.stderr.is_empty());
        r.stdout_str().into_owned()
    }

    #[test]
    fn before_tool_shapes() {
        let ev = before_tool();
        assert_eq!(enc(&ev, no_decision()), "{}");
        assert_eq!(enc(&ev, deny("no rm")), r#"{"decision":"deny","reason":"no rm"}"#);
        assert_eq!(enc(&ev, ask_user("sure?")), r#"{"decision":"ask","reason":"sure?"}"#);
        assert_eq!(
            enc(&ev, deny("no rm").stop_agent("halt").with_system_message("m")),
            r#"{"continue":false,"stopReason":"halt","systemMessage":"m","decision":"deny","reason":"no rm"}"#
        );
        assert_eq!(
            enc(&ev, deny("model text").with_block_reason("user text")),
            r#"{"systemMessage":"user text","decision":"deny","reason":"model text"}"#
        );
        let mut m = Map::new();
        m.insert("command".into(), json!("ls"));
        m.insert("description".into(), json!("d"));
        m.insert("dir_path".into(), json!("/tmp"));
        assert_eq!(
            enc(&ev, rewrite_input(m.clone()).no_decision()),
            r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls","description":"d","dir_path":"/tmp"}}}"#
        );
        assert_eq!(
            enc(&ev, rewrite_input(m).ask_user("check")),
            r#"{"decision":"ask","reason":"check","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls","description":"d","dir_path":"/tmp"}}}"#
        );
    }

    #[test]
    fn lossy_rewrite_is_an_error() {
        let ev = before_tool();
        let mut m = Map::new();
        m.insert("command".into(), json!("ls"));
        let e = GeminiCodec
            .encode(&ev, &rewrite_input(m).no_decision().into())
            .unwrap_err();
        assert_eq!(e.category(), EncodeCategory::LossyUpdate);
        assert!(e.message().contains("description"), "{e}");
    }

    #[test]
    fn unsupported_or_wrong_family_is_an_error() {
        let ev = before_tool();
        let e = GeminiCodec.encode(&ev, &allow().into()).unwrap_err();
        assert_eq!(e.category(), EncodeCategory::WrongFamily);
        let e = GeminiCodec
            .encode(&ev, &no_decision().with_context("c").into())
            .unwrap_err();
        assert!(e.message().contains("add-context"), "{e}");
        let e = GeminiCodec.encode(&ev, &continue_with("x").into()).unwrap_err();
        assert_eq!(e.category(), EncodeCategory::WrongFamily);
    }

    #[test]
    fn other_events() {
        let prompt = event("BeforeAgent", r#""prompt":"p""#);
        assert_eq!(
            enc(&prompt, block_prompt("pii").with_context("c")),
            r#"{"decision":"deny","reason":"pii","hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"c"}}"#
        );
        let stop = event(
            "AfterAgent",
            r#""prompt":"p","prompt_response":"r","stop_hook_active":false"#,
        );
        assert_eq!(
            enc(&stop, continue_with("run the tests")),
            r#"{"decision":"deny","reason":"run the tests"}"#
        );
        let post = event(
            "AfterTool",
            r#""tool_name":"read_file","tool_input":{},"tool_response":{"llmContent":"x"}"#,
        );
        // Flagging is not expressible (it would hide the output): degrade first.
        let e = GeminiCodec
            .encode(&post, &flag_output("secret inside").into())
            .unwrap_err();
        assert!(e.message().contains("flag-output"), "{e}");
        assert_eq!(
            enc(&post, replace_output(json!({"a": 1}))),
            r#"{"decision":"deny","reason":"{\"a\":1}"}"#
        );
        let start = event("SessionStart", r#""source":"startup""#);
        assert_eq!(
            enc(&start, ContextDecision::none().with_context("a").with_context("<b>")),
            r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"a\n<b>"}}"#
        );
    }

    #[test]
    fn failure_responses() {
        let t = |n: &str| EventTarget::new(Some(n.into()), None);
        let closed = |t: &EventTarget| {
            GeminiCodec
                .failure_response(t, FailMode::Closed, "boom")
                .stdout_str()
                .into_owned()
        };
        assert_eq!(closed(&t("BeforeTool")), r#"{"decision":"deny","reason":"boom"}"#);
        assert_eq!(closed(&t("BeforeAgent")), r#"{"decision":"deny","reason":"boom"}"#);
        assert_eq!(closed(&t("AfterAgent")), "{}");
        assert_eq!(closed(&t("AfterTool")), "{}");
        assert_eq!(closed(&EventTarget::new(None, None)), "{}");
        assert_eq!(
            closed(&EventTarget::new(None, Some(EventKind::ToolPre))),
            r#"{"decision":"deny","reason":"boom"}"#
        );
        let open = GeminiCodec.failure_response(&t("BeforeTool"), FailMode::Open, "boom");
        assert_eq!(open, WireResponse::stdout(&b"{}"[..]));
        let r = GeminiCodec.failure_response(&t("BeforeTool"), FailMode::Closed, " ");
        assert!(r.stdout_str().contains(DEFAULT_BLOCK_REASON));
    }

    #[test]
    fn response_text_falls_back_to_parts() {
        let r: LlmResponse = serde_json::from_value(json!({
            "candidates": [{"content": {"parts": ["a", {"text": "b"}, {"functionCall": {}}]}}]
        }))
        .unwrap();
        assert_eq!(response_text(&r).as_deref(), Some("ab"));
        let r: LlmResponse = serde_json::from_value(json!({"candidates": []})).unwrap();
        assert_eq!(response_text(&r), None);
    }

    #[test]
    fn sniffing() {
        let env: HashMap<String, String> = [("GEMINI_CWD".to_owned(), "/p".to_owned())].into();
        assert_eq!(GeminiCodec.sniff_env(&env), Some(Confidence::Inferred));
        let none: HashMap<String, String> = [("CLAUDE_PROJECT_DIR".to_owned(), "/p".to_owned())].into();
        assert_eq!(GeminiCodec.sniff_env(&none), None);
        let p = |s: &str| GeminiCodec.sniff_payload(s.as_bytes(), &none);
        assert_eq!(p(r#"{"hook_event_name":"BeforeTool"}"#), Some(Confidence::Certain));
        assert_eq!(
            p("\u{feff}{\"hook_event_name\":\"AfterModel\"}"),
            Some(Confidence::Certain)
        );
        assert_eq!(
            p(r#"{"hook_event_name":"SessionStart","session_id":"s","timestamp":"t"}"#),
            Some(Confidence::Inferred)
        );
        assert_eq!(p(r#"{"hook_event_name":"SessionStart","session_id":"s"}"#), None);
        assert_eq!(p(r#"{"hook_event_name":"PreToolUse"}"#), None);
        assert_eq!(p("not json"), None);
    }

    #[test]
    fn timeouts() {
        assert_eq!(GeminiCodec.default_timeout(), Duration::from_secs(60));
        assert_eq!(timeout_config_value(Duration::from_millis(1500)), 1500);
        assert_eq!(timeout_config_value(Duration::MAX), u64::MAX);
    }
}
