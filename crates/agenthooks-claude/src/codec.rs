//! [`ClaudeCodec`]: the [`Codec`] of Claude Code's hook dialect.
//!
//! The event rows ([`native::EVENTS`]) drive both the capabilities the codec reports and what
//! the encoder may write, so the two cannot drift: every capability an event reports has a
//! wire form in the typed outputs of [`crate::output`], and an outcome that needs a capability
//! the event lacks is an [`EncodeError`], never silently dropped.

use std::time::Duration;

use agenthooks_core::kit;
use agenthooks_core::{
    AgentInfo, CapSet, Codec, CompactPostEvent, CompactPreEvent, Confidence, DecisionKind, DecodeError, EncodeError,
    Env, Envelope, Event, EventKind, EventTarget, FailMode, FileEditedEvent, Invocation, ModelResponseEvent,
    NotificationEvent, Outcome, PermissionEvent, PromptEvent, Provider, RawJson, SessionEndEvent, SessionInfo,
    SessionStartEvent, StderrUse, StopEvent, SubagentStartEvent, ToolCall, ToolErrorEvent, ToolPostEvent, ToolPreEvent,
    Variant, WireResponse,
};
use serde::Deserialize;
use serde_json::Value;

use crate::native::{self, McpServer, NativeEvent};
use crate::output::{HookSpecificOutput, Output, PermissionRequestDecision};
use crate::tools;

/// The provider this codec serves.
const PROVIDER: Provider = Provider::CLAUDE_CODE;

/// Claude Code's default timeout for command hooks (seconds in its settings).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

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
// How a gate is spelled
// ---------------------------------------------------------------------------------------------

/// How an event's gate is spelled on the wire; it follows from the event's kind.
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

impl Gate {
    fn of(kind: EventKind) -> Self {
        match kind {
            EventKind::ToolPre => Self::PermissionDecision,
            EventKind::Permission => Self::PermissionRequest,
            EventKind::PromptSubmitted => Self::PromptBlock,
            EventKind::Stop | EventKind::SubagentStop => Self::StopBlock,
            EventKind::ToolPost => Self::PostTool,
            _ => Self::None,
        }
    }
}

/// What Claude honours for a native event: its row's set; unknown (future) events get
/// [`native::NOTICE`], since Claude parses every hook's JSON output for `systemMessage`.
fn caps_of(native: &str) -> CapSet {
    ClaudeCodec.row(native).map_or(native::NOTICE, |r| r.caps)
}

// ---------------------------------------------------------------------------------------------
// Codec
// ---------------------------------------------------------------------------------------------

impl Codec for ClaudeCodec {
    agenthooks_core::kit::kit_codec_tables!(provider: PROVIDER, mcp, transcript);

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let decoded = NativeEvent::decode(&PROVIDER, inv.payload.json_bytes(), inv.native_event)?;
        let native = &decoded.native;
        if let Some(hint) = inv.native_event.filter(|h| *h != native.name()) {
            tracing::debug!(
                hint,
                payload = native.name(),
                "--event differs from hook_event_name; the payload wins"
            );
        }
        let mut env = Envelope::new(PROVIDER, native.name().into(), native.kind(), inv.payload.clone());
        env.variant = match inv.variant {
            Some(v) if !v.is_default() => v.clone(),
            _ => detect_variant(inv.env),
        };
        env.session = session_info(native, inv.env);
        env.agent = agent_info(native);
        let native = decoded.attach(&mut env);
        Ok(build_event(env, native))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let native = event.envelope().native.as_str();
        if let Some(no_op) = kit::expressible_or_no_op(self, event, outcome, caps_of(native))? {
            return Ok(no_op);
        }
        let mcp = event.tool().is_some_and(|t| t.mcp.is_some());
        encode_reply(native, Gate::of(event.kind()), outcome, mcp).map(|out| out.wire())
    }

    fn no_op(&self, target: &EventTarget) -> WireResponse {
        match target.native.as_ref().map(agenthooks_core::NativeName::as_str) {
            // Command hooks print the worktree path on stdout; `{}` would be a path (#104).
            Some("WorktreeCreate") => WireResponse::empty(),
            // The explicit "no opinion" (quirk #17): empty stdout is no decision as well, but
            // `{}` states it and survives wrappers that treat empty output as a failure.
            _ => WireResponse::empty_object(),
        }
    }

    /// Fail-closed where the provided answer cannot be written. An event we cannot name, or
    /// one we have no row for (a future event), has no JSON we know: exit 2, Claude's universal
    /// block, except that it continues a stopping agent (#107), so a known non-gating kind
    /// gets the no-op. The blocks no unified outcome states get their JSON here:
    /// `PreModelSwitch` is gated like a tool call (`permissionDecision: deny`), and the other
    /// blocking rows of no gate kind (`UserPromptExpansion`, `PreCompact`, `ConfigChange`) take
    /// the top-level `decision: block`. Every other target gets [`kit::failure_response`]: the
    /// encoded deny or blocked prompt.
    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        kit::claude_family::failure_response(self, target, mode, reason, |row, text| {
            let out = if row.name == "PreModelSwitch" {
                Output {
                    hook_specific_output: HookSpecificOutput {
                        permission_decision: Some("deny"),
                        permission_decision_reason: Some(text.to_owned()),
                        ..HookSpecificOutput::named(row.name)
                    },
                    ..Output::default()
                }
            } else {
                Output::block(text)
            };
            out.wire()
        })
    }

    fn capabilities(&self, variant: &Variant, native: &str) -> CapSet {
        // Cowork and remote sessions honour the same output fields; their differences are
        // install concerns (quirk #1: Stop hooks must be synchronous in cowork).
        let _ = variant;
        caps_of(native)
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

    /// Claude's http hooks read a 2xx JSON body only (an empty body is `{}`, a non-2xx status
    /// is a non-blocking error that `onFailure: "block"` turns into a block; quirk
    /// `http-hooks-have-no-exit-code`). Exit 2, the command path's universal block, becomes
    /// the event's JSON block (the fail-closed answer with stderr as the reason, which is the
    /// same block), and `{"decision": "block", "reason"}` where the event has no JSON of its own.
    fn http_response(&self, native: Option<&str>, response: WireResponse) -> WireResponse {
        kit::claude_family::http_response(self, native, response)
    }
}

// ---------------------------------------------------------------------------------------------
// Decode
// ---------------------------------------------------------------------------------------------

/// Builds the typed event (projection) from the decoded payload; the envelope already holds
/// the native view.
fn build_event(env: Envelope, native: NativeEvent) -> Event {
    let s = &env.session;
    let tool = |name: &str, input: Option<&RawJson>, id: Option<&String>, mcp: Option<&McpServer>| {
        // A reference count: the call shares the native view's raw input.
        let input = input.cloned().unwrap_or_default();
        let mcp = tools::parse_mcp(name, &input, mcp);
        ToolCall::builder(name, input)
            .class(tools::classify(name))
            .with_id(id.cloned().unwrap_or_default())
            .with_mcp(mcp)
            .build(s)
    };
    // The call of an event with the tool fields (`tool_name`, `tool_input`, `tool_use_id`, `mcp_server`).
    macro_rules! tool_of {
        ($e:expr) => {
            tool(
                &$e.tool_name,
                $e.tool_input.as_ref(),
                $e.tool_use_id.as_ref(),
                $e.mcp_server.as_ref(),
            )
        };
    }
    match native {
        NativeEvent::PreToolUse(e) => {
            let t = tool_of!(e);
            Event::ToolPre(ToolPreEvent::new(env, t))
        }
        NativeEvent::PreSkillShellCommand(e) => {
            let t = tool(&e.tool_name, e.tool_input.as_ref(), e.tool_use_id.as_ref(), None);
            Event::ToolPre(ToolPreEvent::new(env, t))
        }
        NativeEvent::PermissionRequest(e) => {
            let t = tool_of!(e);
            let suggestions = e.permission_suggestions.map(Value::Array);
            Event::Permission(PermissionEvent::new(env, t).with_suggestions(suggestions))
        }
        NativeEvent::PostToolUse(e) => {
            let t = tool_of!(e);
            let output = e.tool_response.unwrap_or_default();
            Event::ToolPost(
                ToolPostEvent::new(env, t)
                    .with_output(output)
                    .with_duration_ms(e.duration_ms),
            )
        }
        NativeEvent::PostToolUseFailure(e) => {
            let t = tool_of!(e);
            Event::ToolError(
                ToolErrorEvent::new(env, t)
                    .with_error(e.error.unwrap_or_default())
                    .with_interrupted(e.is_interrupt.unwrap_or(false))
                    .with_duration_ms(e.duration_ms),
            )
        }
        NativeEvent::UserPromptSubmit(e) => Event::PromptSubmitted(PromptEvent::new(env, e.prompt.unwrap_or_default())),
        // `stop_hook_active` is a flag, not a count: the runner's per-session counter fills
        // `continuation_count` (quirk #19).
        NativeEvent::Stop(e) => Event::Stop(
            StopEvent::new(env)
                .with_previously_continued(e.stop_hook_active.unwrap_or(false))
                .with_last_message(e.last_assistant_message),
        ),
        NativeEvent::SubagentStop(e) => Event::SubagentStop(
            StopEvent::new(env)
                .with_previously_continued(e.stop_hook_active.unwrap_or(false))
                .with_last_message(e.last_assistant_message),
        ),
        NativeEvent::SubagentStart(_) => Event::SubagentStart(SubagentStartEvent::new(env)),
        NativeEvent::SessionStart(e) => Event::SessionStart(SessionStartEvent::new(env).with_source(e.source)),
        NativeEvent::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::new(env).with_reason(e.reason)),
        NativeEvent::PreCompact(e) => Event::CompactPre(
            CompactPreEvent::new(env)
                .with_trigger(e.trigger)
                .with_instructions(e.custom_instructions),
        ),
        NativeEvent::PostCompact(e) => Event::CompactPost(
            CompactPostEvent::new(env)
                .with_trigger(e.trigger)
                .with_summary(e.compact_summary),
        ),
        NativeEvent::Notification(e) => Event::Notification(
            NotificationEvent::new(env, e.message.unwrap_or_default())
                .with_title(e.title)
                .with_notification_type(e.notification_type),
        ),
        // ⚠ `event` (change/add/unlink) is only on the native view.
        NativeEvent::FileChanged(e) => Event::FileEdited(FileEditedEvent::new(env, e.file_path.unwrap_or_default())),
        // ⚠ Approximate (#105): one flushed chunk of display text, not a model response.
        NativeEvent::MessageDisplay(e) => {
            let response = serde_json::to_value(&e).unwrap_or(Value::Null);
            Event::ModelResponse(ModelResponseEvent::new(env).with_text(e.delta).with_response(response))
        }
        // Unmapped events (kind `other`), and payloads that could not be typed at all: the
        // event of the row's kind with only what the envelope knows.
        _ => Event::bare(env),
    }
}

/// Session facts: `prompt_id` is the turn id; the model comes from the events that carry one.
fn session_info(native: &NativeEvent, env: &dyn Env) -> SessionInfo {
    let model = match native {
        NativeEvent::SessionStart(e) => e.model.as_ref(),
        NativeEvent::PreModelSwitch(e) => e.from_model.as_ref(),
        NativeEvent::PostModelSwitch(e) => e.to_model.as_ref(),
        _ => None,
    };
    let fields = kit::claude_family::session_fields!(native, model);
    kit::claude_family::session_info(fields, "CLAUDE_PROJECT_DIR", env)
}

/// Subagent context: only when the payload names a subagent (`agent_id`). A bare `agent_type`
/// marks the main thread of an `--agent` session, which is not a subagent.
fn agent_info(native: &NativeEvent) -> Option<AgentInfo> {
    let id = native.agent_id()?;
    Some(AgentInfo::new(id, native.agent_type().cloned().unwrap_or_default()))
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
    let row = ClaudeCodec.row(&name).filter(|_| !foreign)?;
    let marked = p.prompt_id.is_some() || p.effort.is_some() || row.provider_only;
    Some(if marked {
        Confidence::Certain
    } else {
        Confidence::Inferred
    })
}

// ---------------------------------------------------------------------------------------------
// Encode
// ---------------------------------------------------------------------------------------------

/// The wire form of a typed answer.
fn inexpressible(native: &str, what: &str) -> EncodeError {
    EncodeError::inexpressible(PROVIDER, native, what)
}

/// Writes the decision's intent (allow, deny, ask, block, continue, flag, replace) into `r`.
///
/// The capabilities were checked by [`kit::ensure_expressible`]; what is left is which
/// intents each gate spells.
fn encode_intent(native: &str, gate: Gate, outcome: &Outcome, mcp: bool, r: &mut Output) -> Result<(), EncodeError> {
    let reason = outcome.reason().unwrap_or_default();
    let hso = &mut r.hook_specific_output;
    match (outcome.kind(), gate) {
        (DecisionKind::NoDecision, _) => {}
        (DecisionKind::Allow, Gate::PermissionDecision) => {
            hso.permission_decision = Some("allow");
        }
        (DecisionKind::Deny, Gate::PermissionDecision) => {
            hso.permission_decision = Some("deny");
            hso.permission_decision_reason = Some(reason.to_owned());
        }
        (DecisionKind::Ask, Gate::PermissionDecision) => {
            hso.permission_decision = Some("ask");
            hso.permission_decision_reason = Some(reason.to_owned()).filter(|s| !s.is_empty());
        }
        (DecisionKind::Allow, Gate::PermissionRequest) => {
            hso.decision = Some(PermissionRequestDecision::new("allow"));
        }
        (DecisionKind::Deny, Gate::PermissionRequest) => {
            let mut d = PermissionRequestDecision::new("deny");
            d.message = Some(reason.to_owned());
            d.interrupt = outcome.stop_reason().map(|_| true);
            hso.decision = Some(d);
        }
        (DecisionKind::BlockPrompt, Gate::PromptBlock) | (DecisionKind::FlagOutput, Gate::PostTool) => {
            (r.decision, r.reason) = (Some("block"), Some(reason.to_owned()));
        }
        (DecisionKind::Continue, Gate::StopBlock) => {
            (r.decision, r.reason) = (Some("block"), Some(outcome.instruction().unwrap_or(reason).to_owned()));
        }
        (DecisionKind::ReplaceOutput, Gate::PostTool) => {
            hso.updated_tool_output = outcome.replaced_output().cloned();
            // MCP tools: the field releases before `updatedToolOutput` read, as well.
            hso.updated_mcp_tool_output = hso.updated_tool_output.clone().filter(|_| mcp);
        }
        (kind, _) => return Err(inexpressible(native, &format!("a {kind} decision"))),
    }

    Ok(())
}

/// Translates an outcome into Claude's fields for one event, or says what cannot be expressed.
fn encode_reply(native: &str, gate: Gate, outcome: &Outcome, mcp: bool) -> Result<Output, EncodeError> {
    let mut r = Output {
        hook_specific_output: HookSpecificOutput::named(native),
        ..Output::default()
    };

    // 1. The intent.
    encode_intent(native, gate, outcome, mcp, &mut r)?;

    // 2. A rewritten input.
    if let Some(input) = outcome.updated_input() {
        let hso = &mut r.hook_specific_output;
        match (gate, hso.decision.as_mut()) {
            // Claude applies `updatedInput` together with an allow or an ask only.
            (Gate::PermissionDecision, _) if matches!(outcome.kind(), DecisionKind::Allow | DecisionKind::Ask) => {
                hso.updated_input = Some(input.clone());
            }
            // PermissionRequest takes a rewrite only together with an allow.
            (Gate::PermissionRequest, Some(d)) if outcome.kind() == DecisionKind::Allow => {
                d.updated_input = Some(input.clone());
            }
            _ => {
                return Err(inexpressible(
                    native,
                    &format!("a rewritten input with a {} decision", outcome.kind()),
                ))
            }
        }
    }

    // 3. Context for the model, messages for the user (the system message, then an explicit
    //    block message when it differs from the reason), and a stop of the whole agent.
    r.write_notes(PROVIDER, native, caps_of(native), outcome)?;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::Capability as C;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    /// Claude's http path reads no exit code: exit 2 becomes the event's JSON block, other
    /// answers pass through unchanged.
    #[test]
    fn http_answers_carry_exit_2_as_json() {
        let c = ClaudeCodec::new();
        let json = |r: &WireResponse| -> Value {
            assert_eq!(r.exit_code, 0, "{r:?}");
            serde_json::from_slice(&r.stdout).unwrap()
        };
        let pre = c.http_response(Some("PreToolUse"), WireResponse::exit(2, b"no rm".to_vec()));
        let v = json(&pre);
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(v["hookSpecificOutput"]["permissionDecisionReason"], "no rm");
        let future = c.http_response(Some("SomeFutureEvent"), WireResponse::exit(2, b"stop".to_vec()));
        assert_eq!(
            json(&future),
            serde_json::json!({"decision": "block", "reason": "stop"})
        );
        let unknown = c.http_response(None, WireResponse::exit(2, Vec::new()));
        assert_eq!(json(&unknown)["decision"], "block");
        let ok = WireResponse::stdout(b"{\"a\":1}".to_vec());
        assert_eq!(c.http_response(Some("PreToolUse"), ok.clone()), ok);
        let failed = WireResponse::exit(1, b"x".to_vec());
        assert_eq!(c.http_response(Some("PreToolUse"), failed.clone()), failed);
    }

    #[test]
    fn rows_are_consistent_with_their_kind() {
        for row in native::EVENTS {
            // Non-blocking events promise nothing but a system message.
            if !row.blocking {
                assert!(
                    row.caps.is_empty() || row.caps == native::NOTICE,
                    "{} promises {:?}",
                    row.name,
                    row.caps
                );
                assert!(
                    row.may_async,
                    "{} is not blocking, so install may run it async",
                    row.name
                );
            }
            // Every gate-kind row can express its gate's intent.
            let gate = Gate::of(row.kind);
            let needs = match gate {
                Gate::PermissionDecision | Gate::PermissionRequest | Gate::PromptBlock => Some(C::Deny),
                Gate::StopBlock => Some(C::ContinueAgent),
                Gate::PostTool => Some(C::FlagOutput),
                Gate::None => None,
            };
            if let Some(c) = needs {
                assert!(row.caps.contains(c), "{} cannot express its gate", row.name);
            }
            if row.kind.has_tool() {
                assert_eq!(row.identifying, ["tool_name"], "{}", row.name);
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
