//! [`OpenClawCodec`]: the [`Codec`] of the OpenClaw shim's frames.
//!
//! Decode reads one frame `{seq, hook, event, ctx}` with the provider kit; in `serve` mode it
//! also keeps per-connection state ([`ConnState`]): the workspace and model that only
//! agent-scope contexts carry (backfilled onto tool-scope frames, quirk #802), the session id
//! per session key, each run's `llm_output` (spliced into `agent_end`, quirk #805) and the
//! calls the shim blocked itself (their `after_tool_call` decodes as `tool.error`, quirk #804).
//!
//! Encode writes the handler result the shim returns verbatim to OpenClaw; the no-op is no
//! output at all (the shim then returns nothing, which is OpenClaw's "pass").

use std::time::Duration;

use agenthooks_core::decision::reason_or_default;
use agenthooks_core::kit;
use agenthooks_core::{
    Codec, CompactPostEvent, CompactPreEvent, Confidence, ConnState, DecisionKind, DecodeError, EncodeError, Env,
    Envelope, Event, EventKind, EventTarget, Invocation, ModelRequestEvent, ModelResponseEvent, Outcome, PromptEvent,
    Provider, SessionEndEvent, SessionInfo, SessionStartEvent, StderrUse, StopEvent, SubagentStartEvent, ToolCall,
    ToolErrorEvent, ToolPostEvent, ToolPreEvent, WireResponse,
};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::native::{self, NativeEvent, RunOutput, ToolCallEvent};
use crate::output::{Approval, FinalizeResult, PromptResult, ToolCallResult};
use crate::tools;
use agenthooks_core::kit::lenient;

/// The provider this codec serves.
const PROVIDER: Provider = Provider::OPENCLAW;

/// The daemon's deadline for a frame that carries no `timeout_ms`: below the shim's default
/// gate deadline ([`crate::plugin::DEFAULT_GATE_DEADLINE`]), itself below OpenClaw's 15 s
/// fail-closed budget.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(9);

/// Separator between several context strings merged into one `prependContext`.
const CONTEXT_SEPARATOR: &str = "\n\n";

/// The OpenClaw codec. Use the [`CODEC`](crate::CODEC) static.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct OpenClawCodec;

impl OpenClawCodec {
    /// The codec (stateless; per-connection state lives in the runner's [`ConnState`]).
    pub const fn new() -> Self {
        Self
    }
}

impl Codec for OpenClawCodec {
    agenthooks_core::kit::kit_codec_tables!(provider: PROVIDER, mcp);

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let bytes = inv.payload.json_bytes();
        let mut decoded = NativeEvent::decode(&PROVIDER, bytes, inv.native_event)?;
        let probe: Probe = serde_json::from_slice(agenthooks_core::event::strip_bom(bytes)).unwrap_or_default();
        let facts = probe.facts();
        let conn = inv.conn;
        if let Some(c) = conn {
            facts.remember(c);
        }
        let mut kind = decoded.native.kind();
        match &mut decoded.native {
            NativeEvent::LlmOutput(e) => {
                if let (Some(c), Some(ev)) = (conn, e.event.as_ref()) {
                    let run = ev.run_id.clone().or_else(|| facts.run_id.clone()).unwrap_or_default();
                    c.set(format!("llm:{run}"), llm_summary(ev));
                }
            }
            NativeEvent::AgentEnd(e) => {
                let run = e
                    .event
                    .as_ref()
                    .and_then(|ev| ev.run_id.clone())
                    .or_else(|| facts.run_id.clone());
                e.run_output = conn
                    .zip(run)
                    .and_then(|(c, r)| c.take(&format!("llm:{r}")))
                    .as_ref()
                    .map(run_output);
            }
            NativeEvent::LocalDecision(e) => {
                if let (Some(c), Some(ev)) = (conn, e.event.as_ref()) {
                    if let (Some("block"), Some(id)) = (ev.decision.as_deref(), ev.tool_call_id.as_deref()) {
                        let reason = ev.reason.clone().unwrap_or_default();
                        c.set(format!("blocked:{id}"), Value::String(reason));
                    }
                }
            }
            NativeEvent::AfterToolCall(e) => {
                let local = conn
                    .zip(e.event.tool_call_id.as_deref())
                    .and_then(|(c, id)| c.take(&format!("blocked:{id}")));
                if e.event.error.is_none() {
                    if let Some(Value::String(reason)) = local {
                        e.event.error = Some(reason_or_default(&reason).to_owned());
                    }
                }
                if e.event.error.is_some() {
                    kind = EventKind::ToolError;
                }
            }
            _ => {}
        }
        let mut env = Envelope::new(PROVIDER, decoded.native.name().into(), kind, inv.payload.clone());
        env.session = facts.session(conn);
        let native = decoded.attach(&mut env);
        Ok(build_event(env, native))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        if let Some(no_op) = kit::expressible_or_no_op(self, event, outcome, self.event_capabilities(event))? {
            return Ok(no_op);
        }
        let out = match event {
            Event::ToolPre(e) => {
                let mut out = match outcome.kind() {
                    DecisionKind::Deny => ToolCallResult::block(reason_of(outcome)),
                    DecisionKind::Ask => ToolCallResult {
                        require_approval: Some(Approval::new(format!("Allow {}?", e.tool.name), reason_of(outcome))),
                        ..ToolCallResult::default()
                    },
                    _ => ToolCallResult::default(),
                };
                out.params = outcome.updated_input().cloned();
                (!out.is_empty()).then(|| serde_json::to_vec(&out))
            }
            // `before_agent_run` blocks; `before_prompt_build` adds context (the row's caps
            // say which one this event is).
            Event::PromptSubmitted(_) => {
                let mut out = PromptResult::default();
                if outcome.blocks() {
                    out.outcome = Some("block");
                    out.reason = Some(reason_of(outcome));
                    out.message = outcome
                        .block_message()
                        .filter(|m| !m.trim().is_empty())
                        .map(str::to_owned);
                }
                if !outcome.context().is_empty() {
                    out.prepend_context = Some(outcome.context().join(CONTEXT_SEPARATOR));
                }
                (!out.is_empty()).then(|| serde_json::to_vec(&out))
            }
            Event::Stop(_) => outcome
                .instruction()
                .map(|instruction| serde_json::to_vec(&FinalizeResult::revise(instruction))),
            _ => None,
        };
        match out {
            Some(Ok(bytes)) => Ok(WireResponse::stdout(bytes)),
            _ => Ok(self.no_op(&EventTarget::of(event))),
        }
    }

    /// The failure answer is the provided one: the encoded block on the two gates
    /// (`before_tool_call`, `before_agent_run`), this no-op elsewhere.
    fn no_op(&self, target: &EventTarget) -> WireResponse {
        // No output: the shim returns nothing, which is OpenClaw's pass on every hook.
        let _ = target;
        WireResponse::empty()
    }

    fn sniff_payload(&self, payload: &[u8], env: &dyn Env) -> Option<Confidence> {
        let _ = env;
        let p: SniffProbe = serde_json::from_slice(agenthooks_core::event::strip_bom(payload)).ok()?;
        let row = self.row(p.hook.as_deref()?)?;
        (p.event.is_some() || p.ctx.is_some()).then_some(if row.provider_only {
            Confidence::Certain
        } else {
            Confidence::Inferred
        })
    }

    fn stderr_use(&self) -> StderrUse {
        // The shim passes the daemon's stderr to the Gateway's log; it is never a decision.
        StderrUse::Logs
    }
}

/// A blank reason becomes the default one.
fn reason_of(outcome: &Outcome) -> String {
    reason_or_default(outcome.reason().unwrap_or_default()).to_owned()
}

// ---------------------------------------------------------------------------------------------
// Decode
// ---------------------------------------------------------------------------------------------

/// Builds the typed event (projection); the envelope already holds the native view.
fn build_event(env: Envelope, native: NativeEvent) -> Event {
    match native {
        NativeEvent::BeforeToolCall(f) => {
            let t = tool_call(&f.event, &env.session);
            Event::ToolPre(ToolPreEvent::new(env, t))
        }
        NativeEvent::AfterToolCall(f) => {
            let t = tool_call(&f.event, &env.session);
            let ToolCallEvent {
                error,
                result,
                duration_ms,
                ..
            } = f.event;
            match error {
                Some(error) => Event::ToolError(
                    ToolErrorEvent::new(env, t)
                        .with_error(error)
                        .with_duration_ms(duration_ms),
                ),
                None => Event::ToolPost(
                    ToolPostEvent::new(env, t)
                        .with_output(result.unwrap_or(Value::Null).into())
                        .with_duration_ms(duration_ms),
                ),
            }
        }
        NativeEvent::BeforeAgentRun(f) => {
            let prompt = f.event.and_then(|e| e.prompt).unwrap_or_default();
            Event::PromptSubmitted(PromptEvent::new(env, prompt))
        }
        NativeEvent::BeforePromptBuild(f) => {
            let prompt = f.event.and_then(|e| e.prompt).unwrap_or_default();
            Event::PromptSubmitted(PromptEvent::new(env, prompt))
        }
        // `stopHookActive` is a flag, not a count: the runner's per-session counter fills
        // `continuation_count`.
        NativeEvent::BeforeAgentFinalize(f) => {
            let e = f.event.unwrap_or_default();
            Event::Stop(
                StopEvent::new(env)
                    .with_previously_continued(e.stop_hook_active.unwrap_or(false))
                    .with_last_message(e.last_assistant_message),
            )
        }
        NativeEvent::SessionStart(f) => {
            let resumed = f.event.is_some_and(|e| e.resumed_from.is_some());
            Event::SessionStart(SessionStartEvent::new(env).with_source(resumed.then(|| "resume".to_owned())))
        }
        NativeEvent::SessionEnd(f) => {
            Event::SessionEnd(SessionEndEvent::new(env).with_reason(f.event.and_then(|e| e.reason)))
        }
        NativeEvent::SubagentSpawned(_) => Event::SubagentStart(SubagentStartEvent::new(env)),
        NativeEvent::SubagentEnded(_) => Event::SubagentStop(StopEvent::new(env)),
        NativeEvent::BeforeCompaction(_) => Event::CompactPre(CompactPreEvent::new(env)),
        NativeEvent::AfterCompaction(_) => Event::CompactPost(CompactPostEvent::new(env)),
        NativeEvent::LlmInput(f) => {
            let request = serde_json::to_value(&f.event).unwrap_or(Value::Null);
            Event::ModelRequest(ModelRequestEvent::new(env, request))
        }
        NativeEvent::LlmOutput(f) => {
            let text = f
                .event
                .as_ref()
                .and_then(|e| e.assistant_texts.as_ref())
                .map(|t| t.join("\n"));
            let response = serde_json::to_value(&f.event).unwrap_or(Value::Null);
            Event::ModelResponse(ModelResponseEvent::new(env).with_text(text).with_response(response))
        }
        // `other` (agent_end and the rest), and frames that could not be typed at all.
        _ => Event::bare(env),
    }
}

/// The unified call of a tool frame.
fn tool_call(e: &ToolCallEvent, session: &SessionInfo) -> ToolCall {
    let name = e.tool_name.as_str();
    ToolCall::builder(name, e.params.clone().unwrap_or(Value::Null))
        .class(tools::classify(name))
        .with_id(e.tool_call_id.clone().unwrap_or_default())
        // An after_tool_call result names the server itself (details.mcpServer): it wins.
        .with_mcp(tools::mcp_from_result(e.result.as_ref()).or_else(|| tools::parse_mcp(name)))
        .build(session)
}

/// The keys of `event` and `ctx` that locate a frame, read without typing the rest.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Probe {
    event: Value,
    ctx: Value,
}

/// Session-locating keys of one object.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ProbeFacts {
    session_id: Option<String>,
    session_key: Option<String>,
    run_id: Option<String>,
    workspace_dir: Option<String>,
    cwd: Option<String>,
    model_provider_id: Option<String>,
    model_id: Option<String>,
    transcript_path: Option<String>,
}

impl ProbeFacts {
    /// The facts of one object, each read with the kit's text rule (a string, or a number as
    /// text); a value of another shape locates nothing (the typed view reports it).
    fn of(v: &Value) -> Self {
        let text = |key: &str| v.get(key).and_then(|x| lenient::opt_text(x).ok().flatten());
        Self {
            session_id: text("sessionId"),
            session_key: text("sessionKey"),
            run_id: text("runId"),
            workspace_dir: text("workspaceDir"),
            cwd: text("cwd"),
            model_provider_id: text("modelProviderId"),
            model_id: text("modelId"),
            transcript_path: text("transcriptPath"),
        }
    }
}

impl Probe {
    /// The frame's facts: `ctx` first, then `event`.
    fn facts(self) -> ProbeFacts {
        let (c, e) = (ProbeFacts::of(&self.ctx), ProbeFacts::of(&self.event));
        ProbeFacts {
            session_id: c.session_id.or(e.session_id),
            session_key: c.session_key.or(e.session_key),
            run_id: c.run_id.or(e.run_id),
            workspace_dir: c.workspace_dir.or(e.workspace_dir),
            cwd: c.cwd.or(e.cwd),
            model_provider_id: c.model_provider_id,
            model_id: c.model_id,
            transcript_path: c.transcript_path.or(e.transcript_path),
        }
    }
}

impl ProbeFacts {
    /// `provider/model` when both are known, else the model id.
    fn model(&self) -> Option<String> {
        let id = self.model_id.as_ref()?;
        Some(match &self.model_provider_id {
            Some(p) if !p.is_empty() => format!("{p}/{id}"),
            _ => id.clone(),
        })
    }

    /// Stores what later frames of the connection may lack (quirk #802).
    fn remember(&self, c: &ConnState) {
        let keys: Vec<String> = [
            self.run_id.as_ref().map(|r| format!("run:{r}")),
            self.session_key.as_ref().map(|k| format!("key:{k}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        for k in &keys {
            if let Some(ws) = self.workspace_dir.as_ref().filter(|w| !w.is_empty()) {
                c.set(format!("ws:{k}"), Value::String(ws.clone()));
            }
            if let Some(m) = self.model() {
                c.set(format!("model:{k}"), Value::String(m));
            }
        }
        if let (Some(k), Some(id)) = (&self.session_key, &self.session_id) {
            c.set(format!("sid:{k}"), Value::String(id.clone()));
        }
    }

    /// A value remembered for this frame's run, else its session key.
    fn recall(&self, c: Option<&ConnState>, what: &str) -> Option<String> {
        let c = c?;
        let run = self.run_id.as_ref().map(|r| format!("{what}:run:{r}"));
        let key = self.session_key.as_ref().map(|k| format!("{what}:key:{k}"));
        [run, key]
            .into_iter()
            .flatten()
            .find_map(|k| c.get(&k))
            .and_then(|v| v.as_str().map(str::to_owned))
    }

    /// Session facts, backfilled from the connection: the run id is the turn id; the cwd is
    /// the workspace (`workspaceDir`, or `cwd` on `before_agent_finalize`).
    fn session(&self, c: Option<&ConnState>) -> SessionInfo {
        let mut s = SessionInfo::default();
        s.id = self
            .session_id
            .clone()
            .or_else(|| {
                let k = self.session_key.as_ref()?;
                c?.get(&format!("sid:{k}"))?.as_str().map(str::to_owned)
            })
            .or_else(|| self.session_key.clone())
            .unwrap_or_default();
        s.turn_id = self.run_id.clone().unwrap_or_default();
        s.cwd = self
            .workspace_dir
            .clone()
            .or_else(|| self.cwd.clone())
            .or_else(|| self.recall(c, "ws"))
            .unwrap_or_default();
        if !s.cwd.is_empty() {
            s.workspace_roots = vec![s.cwd.clone()];
        }
        s.model = self.model().or_else(|| self.recall(c, "model")).unwrap_or_default();
        s.transcript_path = self.transcript_path.clone().unwrap_or_default();
        s
    }
}

/// What the connection keeps of an `llm_output` (final text, usage).
fn llm_summary(e: &native::LlmOutputEvent) -> Value {
    let usage = e.usage.as_ref();
    json!({
        "finalText": e.assistant_texts.as_ref().and_then(|t| t.last()),
        "input": usage.and_then(|u| u.input),
        "output": usage.and_then(|u| u.output),
        "total": usage.and_then(|u| u.total),
    })
}

fn run_output(v: &Value) -> RunOutput {
    let mut r = RunOutput::default();
    let (text, n) = (
        |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned),
        |k: &str| v.get(k).and_then(Value::as_u64),
    );
    (r.final_text, r.input_tokens, r.output_tokens, r.total_tokens) =
        (text("finalText"), n("input"), n("output"), n("total"));
    r
}

/// Top-level keys that say a payload is an OpenClaw frame.
#[derive(Deserialize)]
struct SniffProbe {
    hook: Option<String>,
    event: Option<serde::de::IgnoredAny>,
    ctx: Option<serde::de::IgnoredAny>,
}
