//! [`CopilotCodec`]: the [`Codec`] for GitHub Copilot CLI (see the crate docs for the dialect).

use std::time::Duration;

use agenthooks_core::decision::reason_or_default;
use agenthooks_core::kit;
use agenthooks_core::{
    synth_tool_id, AgentInfo, CapSet, Capability as C, Codec, CompactPreEvent, Confidence, DecisionKind, DecodeError,
    EncodeError, Env, Envelope, Event, EventKind, EventRow, EventTarget, Invocation, NativeName, NotificationEvent,
    Outcome, PermissionEvent, PromptEvent, Provider, SessionEndEvent, SessionInfo, SessionStartEvent, StopEvent,
    SubagentStartEvent, ToolCall, ToolErrorEvent, ToolPostEvent, ToolPreEvent, Variant, WireResponse,
};
use serde_json::Value;

use crate::identify::{self, JsonType, PayloadKeys};
use crate::native::{self, Dialect, ErrorDetail, NativeEvent};
use crate::output::{HookSpecificOutput, Output, PermissionBehavior};
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

/// The tool call of a tool event. The synthesized id hashes the input without the shell
/// tool's `description`, which `permissionRequest` drops, so pre, permission, post and failure
/// of one call share an id (quirk 404).
fn tool_call(name: &str, raw: Option<&Value>, session: &SessionInfo) -> ToolCall {
    let mut call = ToolCall::builder(name, raw.cloned().unwrap_or(Value::Null))
        .class(tools::classify(name))
        .with_mcp(tools::parse_mcp(name))
        .build(session);
    let mut key = call.input().clone();
    key.remove("description");
    call.id = synth_tool_id(&session.id, &session.turn_id, name, &key);
    call
}

/// The agent of a subagent event: its id, and its type, else its name.
fn subagent(native: &NativeEvent, name: Option<&String>) -> AgentInfo {
    let id = native.agent_id().cloned().unwrap_or_default();
    AgentInfo::new(id, native.agent_type().or(name).cloned().unwrap_or_default())
}

/// One arm per mapped event; events without a unified kind are `other`.
fn build_event(mut env: Envelope, native: &NativeEvent) -> Event {
    let s = env.session.clone();
    match native {
        NativeEvent::SessionStart(e) => Event::SessionStart(SessionStartEvent::new(env).with_source(e.source.clone())),
        NativeEvent::SessionEnd(e) => Event::SessionEnd(SessionEndEvent::new(env).with_reason(e.reason.clone())),
        NativeEvent::UserPromptSubmitted(e) => {
            Event::PromptSubmitted(PromptEvent::new(env, e.prompt.clone().unwrap_or_default()))
        }
        NativeEvent::PreToolUse(e) => Event::ToolPre(ToolPreEvent::new(
            env,
            tool_call(&e.tool_name, e.tool_args.as_ref(), &s),
        )),
        NativeEvent::PostToolUse(e) => {
            let output = e
                .tool_result
                .as_ref()
                .and_then(|r| serde_json::to_value(r).ok())
                .or_else(|| e.tool_response.clone())
                .or_else(|| {
                    ["toolResult", "tool_result"]
                        .iter()
                        .find_map(|k| e.extra.get(*k).cloned())
                })
                .unwrap_or(Value::Null);
            let tool = tool_call(&e.tool_name, e.tool_args.as_ref(), &s);
            Event::ToolPost(ToolPostEvent::new(env, tool).with_output(output.into()))
        }
        NativeEvent::PostToolUseFailure(e) => {
            let error = e.error.as_ref().map(ErrorDetail::text).unwrap_or_default();
            let tool = tool_call(&e.tool_name, e.tool_args.as_ref(), &s);
            Event::ToolError(ToolErrorEvent::new(env, tool).with_error(error))
        }
        NativeEvent::PermissionRequest(e) => {
            let tool = tool_call(&e.tool_name, e.tool_input.as_ref(), &s);
            Event::Permission(PermissionEvent::new(env, tool).with_suggestions(e.permission_suggestions.clone()))
        }
        NativeEvent::AgentStop(e) => {
            Event::Stop(StopEvent::new(env).with_reported_continuation(e.reported_continuation()))
        }
        NativeEvent::SubagentStart(e) => {
            env.agent = Some(subagent(native, e.agent_name.as_ref()));
            Event::SubagentStart(SubagentStartEvent::new(env))
        }
        NativeEvent::SubagentStop(e) => {
            env.agent = Some(subagent(native, e.agent_name.as_ref()));
            let stop = StopEvent::new(env).with_reported_continuation(e.reported_continuation());
            Event::SubagentStop(stop.with_last_message(e.response.clone()))
        }
        NativeEvent::PreCompact(e) => Event::CompactPre(
            CompactPreEvent::new(env)
                .with_trigger(e.trigger.clone())
                .with_instructions(e.custom_instructions.clone()),
        ),
        NativeEvent::Notification(e) => Event::Notification(
            NotificationEvent::new(env, e.message.clone().unwrap_or_default())
                .with_title(e.title.clone())
                .with_notification_type(e.notification_type.clone()),
        ),
        _ => Event::bare(env),
    }
}

/// The event and dialect an encode or a failure answer targets: the row of the native name
/// (either spelling) and the dialect its spelling implies.
fn target(native: &str) -> Option<(&'static EventRow, Dialect)> {
    native::spelled(native)
}

fn joined_context(outcome: &Outcome) -> Option<String> {
    let c = outcome.context();
    (!c.is_empty()).then(|| c.join("\n"))
}

/// Copilot's deny reason: the model-facing reason, else the block message, else the default.
fn deny_reason(outcome: &Outcome) -> &str {
    reason_or_default(outcome.reason().or_else(|| outcome.block_message()).unwrap_or_default())
}

/// The stdout object for an expressible outcome (checked by [`kit::ensure_expressible`]).
fn encode_body<'a>(row: &EventRow, dialect: Dialect, outcome: &'a Outcome) -> Result<Output<'a>, EncodeError> {
    let mut out = Output::default();
    let mut hso = HookSpecificOutput {
        hook_event_name: native::name_in(row, Dialect::Pascal),
        ..HookSpecificOutput::default()
    };
    let inexpressible = || EncodeError::inexpressible(Provider::COPILOT, row.name, outcome.kind().as_str());
    match (row.kind, outcome.kind()) {
        (_, DecisionKind::NoDecision) => {}
        (EventKind::ToolPre, DecisionKind::Allow) => out.verdict.permission_decision = Some("allow"),
        (EventKind::ToolPre, DecisionKind::Deny) => {
            out.verdict.permission_decision = Some("deny");
            out.verdict.permission_decision_reason = Some(deny_reason(outcome));
        }
        (EventKind::ToolPre, DecisionKind::Ask) => {
            out.verdict.permission_decision = Some("ask");
            out.verdict.permission_decision_reason = outcome.reason().filter(|r| !r.trim().is_empty());
        }
        (EventKind::Permission, DecisionKind::Allow) => out.behavior = Some("allow"),
        (EventKind::Permission, DecisionKind::Deny) => {
            out.behavior = Some("deny");
            out.message = Some(deny_reason(outcome));
        }
        (EventKind::Stop | EventKind::SubagentStop, DecisionKind::Continue) => {
            out.decision = Some("block");
            out.reason = Some(outcome.instruction().unwrap_or_default());
        }
        _ => return Err(inexpressible()),
    }
    hso.verdict = out.verdict;
    hso.decision = out.behavior.map(|behavior| PermissionBehavior {
        behavior,
        message: out.message,
    });
    if let Some(input) = outcome.updated_input() {
        out.modified_args = Some(input);
        hso.updated_input = Some(input);
    }
    out.additional_context = joined_context(outcome);
    hso.additional_context.clone_from(&out.additional_context);
    // The stop answer has no Claude-compatible twin: Copilot reads the top-level fields.
    let has_inner = hso.verdict.permission_decision.is_some()
        || hso.decision.is_some()
        || hso.updated_input.is_some()
        || hso.additional_context.is_some();
    if dialect == Dialect::Pascal && has_inner {
        out.hook_specific_output = Some(hso);
    }
    Ok(out)
}

fn wire(out: &Output<'_>) -> WireResponse {
    match serde_json::to_value(out) {
        Ok(Value::Object(m)) if m.is_empty() => WireResponse::empty(),
        Ok(v) => WireResponse::json(&v),
        Err(_) => WireResponse::empty(),
    }
}

impl Codec for CopilotCodec {
    // The camelCase rows (the names install bakes into `--event`); `name_key` is `None`:
    // camelCase payloads name no event (the argv hint or the shape does).
    agenthooks_core::kit::kit_codec_tables!(provider: Provider::COPILOT, mcp, transcript);

    /// The row of a name in either spelling (`PreToolUse` is the `preToolUse` row).
    fn row(&self, native: &str) -> Option<&'static EventRow> {
        native::row(native)
    }

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let bytes = inv.payload.json_bytes();
        let keys = PayloadKeys::from_json(bytes).unwrap_or_default();
        let id = identify::identify(inv.native_event, &keys);
        if let Some(other) = &id.name_conflict {
            tracing::warn!(name = %id.native_name, lost = %other, "the argv event and the payload's own event name disagree; using the payload's");
        }
        tracing::debug!(basis = ?id.basis, confidence = ?id.confidence, foreign = ?id.foreign_keys, "identified {}", id.native_name);
        let decoded = NativeEvent::decode(&Provider::COPILOT, bytes, Some(id.decode_name()))?;
        let kind = decoded.native.kind();
        let mut env = Envelope::new(
            Provider::COPILOT,
            NativeName::new(id.native_name.clone()),
            kind,
            inv.payload.clone(),
        );
        env.confidence = id.confidence.envelope();
        env.variant = match inv.variant {
            Some(v) => v.clone(),
            None if id.dialect == Dialect::Pascal => Variant::VSCODE,
            None => Variant::DEFAULT,
        };
        let native = decoded.attach(&mut env);
        env.provider_time = native
            .timestamp()
            .and_then(|t| serde_json::to_value(t).ok())
            .or_else(|| native.extra().get("timestamp").cloned());
        env.agent_version = inv.env.var(VERSION_ENV).filter(|v| !v.trim().is_empty());
        let cwd = native.cwd().cloned().unwrap_or_default();
        env.session.id = native.session_id().cloned().unwrap_or_default();
        env.session.transcript_path = native.transcript_path().cloned().unwrap_or_default();
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
        env.agent = native
            .agent_id()
            .map(|id| AgentInfo::new(id.clone(), native.agent_type().cloned().unwrap_or_default()));
        Ok(build_event(env, &native))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let env = event.envelope();
        let name = env.native.as_str();
        if let Some(no_op) = kit::expressible_or_no_op(self, event, outcome, self.capabilities(&env.variant, name))? {
            return Ok(no_op);
        }
        let Some((row, spelled)) = target(name) else {
            return Err(EncodeError::inexpressible(Provider::COPILOT, name, "a decision"));
        };
        // The VS Code variant reads the Claude-compatible twin whatever spelling named the event.
        let dialect = if env.variant == Variant::VSCODE {
            Dialect::Pascal
        } else {
            spelled
        };
        encode_body(row, dialect, outcome).map(|out| wire(&out))
    }

    /// Empty stdout, exit 0: "no decision" on every Copilot event. The failure answer is the
    /// provided one, always exit 0 (quirk 405): the encoded deny on `preToolUse` /
    /// `permissionRequest` (their rows' `FailShape::Block`), this no-op elsewhere.
    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::empty()
    }

    /// What Copilot honours for a decoded event, taking the CLI version it reported into
    /// account: `userPromptSubmitted` context needs 1.0.65 (quirk 408). [`Codec::capabilities`]
    /// cannot see the version and answers for current releases.
    fn event_capabilities(&self, event: &Event) -> CapSet {
        let env = event.envelope();
        let caps = self.capabilities(&env.variant, env.native.as_str());
        if env.kind == EventKind::PromptSubmitted && !prompt_context_supported(env.agent_version.as_deref()) {
            caps.without(C::AddContext)
        } else {
            caps
        }
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
        let keys = PayloadKeys::from_json(payload)?;
        let named = keys.hook_event_name.as_deref();
        match keys.timestamp {
            Some(JsonType::Number) if named.is_none_or(|n| n == identify::CAMEL_SELF_NAME) => {
                if CAMEL_KEYS.iter().any(|k| keys.has(k)) {
                    Some(Confidence::Certain)
                } else {
                    Some(Confidence::Guess)
                }
            }
            Some(JsonType::String) if named.is_some_and(|n| matches!(target(n), Some((_, Dialect::Pascal)))) => {
                Some(Confidence::Inferred)
            }
            _ => None,
        }
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
}
