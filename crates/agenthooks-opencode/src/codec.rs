//! [`OpenCodeCodec`]: the [`Codec`] of the OpenCode shim's frames.
//!
//! Decoding reads the frame's native name (the hook, or the bus event's `type`), decodes the
//! frame on the provider kit, and keeps per-connection facts in the `serve` loop's
//! [`ConnState`]: the plugin's context (the hello frame), the configured MCP servers (the
//! `config` frame), each child session's parent (`session.created`), and whether a session's
//! last prompt was our own continuation (so `session.idle` reports `previously_continued` and
//! the runner's continuation cap holds).
//!
//! Encoding writes a *reply envelope* (`{output?, error?, effects?}`, see
//! `agenthooks_runtime::serve`): `error` is thrown by the shim, `output` is
//! `Object.assign`ed onto OpenCode's `output` object, and `effects` are HTTP calls the daemon
//! makes to OpenCode's server (permission replies, follow-up prompts).

use std::time::Duration;

use agenthooks_core::decision::{reason_or_default, DecisionKind};
use agenthooks_core::kit;
use agenthooks_core::kit::frame::HELLO_KEY;
use agenthooks_core::{
    AgentInfo, Codec, CompactPostEvent, CompactPreEvent, ConnState, DecodeError, EncodeError, Env, Envelope, Event,
    EventKind, EventTarget, FailMode, FileEditedEvent, Invocation, ModelRequestEvent, ModelResponseEvent,
    NotificationEvent, Outcome, PermissionEvent, PromptEvent, Provider, SessionEndEvent, SessionInfo,
    SessionStartEvent, StderrUse, StopEvent, SubagentStartEvent, ToolCall, ToolErrorEvent, ToolPostEvent, ToolPreEvent,
    WireResponse,
};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::native::{self, Bus, NativeEvent};
use crate::output::{Body, Effect, OutputPatch, Query, Reply, Request, TextPart};
use crate::tools;

/// The provider this codec serves.
const PROVIDER: Provider = Provider::OPENCODE;

/// The daemon's deadline when a frame carries no `timeout_ms` (OpenCode applies none; the shim
/// sends its per-hook deadline with every frame).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

pub use crate::output::MARKER_KEY;
/// The marker value of a continuation prompt (`session.idle` → continue).
pub const CONTINUE_MARK: &str = "continue";
/// The marker value of injected context (`chat.message` → context).
pub const CONTEXT_MARK: &str = "context";

/// [`ConnState`] key of the configured MCP server names.
const MCP_KEY: &str = "opencode.mcp";

fn parent_key(session: &str) -> String {
    format!("opencode.parent:{session}")
}

fn continued_key(session: &str) -> String {
    format!("opencode.continued:{session}")
}

/// The OpenCode codec. Use the [`CODEC`](crate::CODEC) static.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct OpenCodeCodec;

impl OpenCodeCodec {
    /// The codec (stateless; per-connection state lives in the serve loop).
    pub const fn new() -> Self {
        Self
    }
}

// ---------------------------------------------------------------------------------------------
// The frame's name
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
struct HookProbe {
    hook: Option<Value>,
}

#[derive(Deserialize)]
struct EventProbe {
    input: Option<ProbeInput>,
}

#[derive(Deserialize)]
struct ProbeInput {
    event: Option<ProbeEvent>,
}

#[derive(Deserialize)]
struct ProbeEvent {
    #[serde(rename = "type")]
    kind: Option<Value>,
}

/// The native name of a frame: its `hook`, or for `event` frames the bus event's `type`
/// (`None` when the frame does not say).
///
/// The frame names itself whatever else it carries: a field of another shape does not hide the
/// name, and a frame `serde_json` refuses but the agent's encoder can write (a lone surrogate
/// escape, nesting past `serde_json`'s limit) is read through the kit's repair pass.
///
/// ```
/// use agenthooks_opencode::frame_name;
/// assert_eq!(frame_name(br#"{"hook":"tool.execute.before","input":5}"#).as_deref(), Some("tool.execute.before"));
/// assert_eq!(frame_name(br#"{"hook":"event","input":{"event":{"type":"session.idle"}}}"#).as_deref(), Some("session.idle"));
/// assert_eq!(frame_name(br#"{"hook":"chat.params","input":{"x":"\ud800"}}"#).as_deref(), Some("chat.params"));
/// assert_eq!(frame_name(br#"{"input":{}}"#), None);
/// ```
pub fn frame_name(frame: &[u8]) -> Option<String> {
    match serde_json::from_slice::<HookProbe>(frame) {
        Ok(HookProbe { hook }) => {
            let hook = hook?.as_str()?.to_owned();
            if hook != "event" {
                return Some(hook);
            }
            // An event frame without its type: the hint (if any) names it.
            let probe: EventProbe = serde_json::from_slice(frame).ok()?;
            let ty = probe.input.and_then(|i| i.event).and_then(|e| e.kind)?;
            ty.as_str().map(str::to_owned)
        }
        Err(_) => {
            let (value, _) = kit::tolerant::parse_slice(frame).ok()?;
            let hook = value.get("hook")?.as_str()?;
            if hook != "event" {
                return Some(hook.to_owned());
            }
            value.pointer("/input/event/type")?.as_str().map(str::to_owned)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Codec
// ---------------------------------------------------------------------------------------------

/// The wire form of a reply.
fn wire(reply: &Reply) -> WireResponse {
    WireResponse::stdout(serde_json::to_vec(reply).unwrap_or_else(|_| b"{}".to_vec()))
}

impl Codec for OpenCodeCodec {
    agenthooks_core::kit::kit_codec_tables!(provider: PROVIDER, mcp);

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let bytes = inv.payload.json_bytes();
        let name = frame_name(bytes).or_else(|| inv.native_event.map(str::to_owned));
        let decoded = NativeEvent::decode(&PROVIDER, bytes, name.as_deref())?;
        let native = &decoded.native;
        remember(inv.conn, native);
        let hello = inv.conn.and_then(|c| c.get(HELLO_KEY));
        let session = session_info(native, hello.as_ref());
        let parent = inv
            .conn
            .and_then(|c| c.get(&parent_key(&session.id)))
            .and_then(|v| v.as_str().map(str::to_owned))
            .or_else(|| created_parent(native));
        let kind = kind_of(native, parent.is_some());
        let mut env = Envelope::new(PROVIDER, native.name().into(), kind, inv.payload.clone());
        if parent.is_some() {
            env.agent = Some(AgentInfo::new(session.id.clone(), "subagent"));
        }
        env.agent_version = created_version(native);
        env.session = session;
        let previously_continued = matches!(native, NativeEvent::SessionIdle(_))
            && inv
                .conn
                .and_then(|c| c.take(&continued_key(&env.session.id)))
                .is_some_and(|v| v == Value::Bool(true));
        let servers = mcp_servers(inv.conn);
        let native = decoded.attach(&mut env);
        Ok(build_event(env, native, &servers, previously_continued))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        if let Some(no_op) = kit::expressible_or_no_op(self, event, outcome, self.event_capabilities(event))? {
            return Ok(no_op);
        }
        let env = event.envelope();
        let native = env.native.as_str();
        let reply = match (event, outcome.kind()) {
            (Event::ToolPre(_) | Event::PromptSubmitted(_), DecisionKind::Deny | DecisionKind::BlockPrompt) => {
                Reply::error(reason_or_default(outcome.reason().unwrap_or_default()))
            }
            (Event::ToolPre(_), _) => match outcome.updated_input() {
                Some(args) => Reply::output(OutputPatch {
                    args: Some(args.clone()),
                    ..OutputPatch::default()
                }),
                None => Reply::default(),
            },
            (Event::PromptSubmitted(_), _) => match outcome.context() {
                [] => Reply::default(),
                ctx => Reply::output(OutputPatch {
                    parts: Some(parts_with_context(env, &ctx.join("\n\n"))),
                    ..OutputPatch::default()
                }),
            },
            (Event::ToolPost(_), DecisionKind::ReplaceOutput) => {
                let text = match outcome.replaced_output() {
                    Some(Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => String::new(),
                };
                Reply::output(OutputPatch {
                    output: Some(text),
                    ..OutputPatch::default()
                })
            }
            (Event::CompactPre(_), _) if !outcome.context().is_empty() => {
                let mut context = compacting_context(env);
                context.extend(outcome.context().iter().cloned());
                Reply::output(OutputPatch {
                    context: Some(context),
                    ..OutputPatch::default()
                })
            }
            (Event::Stop(_) | Event::SubagentStop(_), DecisionKind::Continue) => {
                let text = outcome
                    .instruction()
                    .or(outcome.reason())
                    .map_or_else(|| "continue".to_owned(), str::to_owned);
                Reply::effect(continue_effect(env, &text))
            }
            (Event::Permission(_), DecisionKind::Allow | DecisionKind::Deny) => {
                let allow = outcome.kind() == DecisionKind::Allow;
                let reply =
                    crate::view(env).and_then(|n| permission_reply(n, Some(&env.session.cwd), allow, outcome.reason()));
                match reply {
                    Some(effect) => Reply::effect(effect),
                    None => {
                        return Err(EncodeError::inexpressible(
                            PROVIDER,
                            native,
                            "a permission reply without the request id",
                        ))
                    }
                }
            }
            _ => Reply::default(),
        };
        Ok(wire(&reply))
    }

    fn no_op(&self, target: &EventTarget) -> WireResponse {
        let _ = target;
        // `{}`: the shim assigns nothing, throws nothing.
        WireResponse::empty_object()
    }

    /// Fail-closed where the provided answer cannot be written: a permission reject names the
    /// request, whose id only the payload the runner kept carries (a bare event has none), and
    /// a hook we do not know, which the shim forwards and awaits, gets the thrown error (it
    /// blocks where OpenCode can block and the shim swallows it elsewhere). Every other target
    /// gets [`kit::failure_response`]: `{"error"}` on the tool and prompt gates, `{}` elsewhere.
    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        if mode == FailMode::Closed {
            match self.row_for(target) {
                Some(row) if row.kind == EventKind::Permission => {
                    let effect = target.payload.as_ref().and_then(|p| {
                        let bytes = p.json_bytes();
                        let native = NativeEvent::decode(&PROVIDER, bytes, frame_name(bytes).as_deref())
                            .ok()?
                            .native;
                        permission_reply(&native, None, false, Some(reason_or_default(reason)))
                    });
                    return effect.map_or_else(|| self.no_op(target), |e| wire(&Reply::effect(e)));
                }
                None if target.kind.is_none() => {
                    return wire(&Reply::error(reason_or_default(reason)));
                }
                _ => {}
            }
        }
        kit::failure_response(self, target, mode, reason)
    }

    fn sniff_payload(&self, payload: &[u8], env: &dyn Env) -> Option<Confidence> {
        let _ = env;
        let bytes = agenthooks_core::event::strip_bom(payload);
        let hook = match serde_json::from_slice::<HookProbe>(bytes) {
            Ok(p) => p.hook?.as_str()?.to_owned(),
            Err(_) => kit::tolerant::parse_slice(bytes)
                .ok()?
                .0
                .get("hook")?
                .as_str()?
                .to_owned(),
        };
        (hook == "event" || self.row(&hook).is_some()).then_some(Confidence::Inferred)
    }

    fn stderr_use(&self) -> StderrUse {
        // The shim owns the TUI's terminal: the daemon's logs go to a file.
        StderrUse::Reserved
    }
}

use agenthooks_core::Confidence;

// ---------------------------------------------------------------------------------------------
// Decode
// ---------------------------------------------------------------------------------------------

/// Updates the connection's facts from a frame (before it is projected).
fn remember(conn: Option<&ConnState>, native: &NativeEvent) {
    let Some(conn) = conn else { return };
    match native {
        NativeEvent::Config(e) => {
            let names: Vec<Value> = e
                .input
                .as_ref()
                .and_then(|i| i.get("mcp"))
                .and_then(Value::as_object)
                .map(|m| m.keys().cloned().map(Value::String).collect())
                .unwrap_or_default();
            conn.set(MCP_KEY, Value::Array(names));
        }
        NativeEvent::SessionCreated(e) => {
            let info = e.input.event.properties.as_ref().and_then(|p| p.info.as_ref());
            if let (Some(id), Some(parent)) = (
                info.and_then(|i| i.id.as_deref()),
                info.and_then(|i| i.parent_id.as_deref()),
            ) {
                conn.set(parent_key(id), Value::String(parent.to_owned()));
            }
        }
        NativeEvent::ChatMessage(e) => {
            let sid = e.input.as_ref().and_then(|i| i.session_id.clone());
            if let Some(sid) = sid {
                let ours = e
                    .output
                    .as_ref()
                    .and_then(|o| o.parts.as_ref())
                    .is_some_and(|parts| parts.iter().any(|p| marker(p) == Some(CONTINUE_MARK)));
                conn.set(continued_key(&sid), Value::Bool(ours));
            }
        }
        _ => {}
    }
}

/// The `metadata.agenthooks` marker of a part.
fn marker(part: &Value) -> Option<&str> {
    part.get("metadata")?.get(MARKER_KEY)?.as_str()
}

fn mcp_servers(conn: Option<&ConnState>) -> Vec<String> {
    conn.and_then(|c| c.get(MCP_KEY))
        .and_then(|v| v.as_array().cloned())
        .map(|a| a.into_iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// The parent of a session created as a child.
fn created_parent(native: &NativeEvent) -> Option<String> {
    match native {
        NativeEvent::SessionCreated(e) => e.input.event.properties.as_ref()?.info.as_ref()?.parent_id.clone(),
        _ => None,
    }
}

fn created_version(native: &NativeEvent) -> Option<String> {
    match native {
        NativeEvent::SessionCreated(e) => e.input.event.properties.as_ref()?.info.as_ref()?.version.clone(),
        _ => None,
    }
}

/// An errored tool part (`message.part.updated` with `state.status: "error"`).
fn errored_part(native: &NativeEvent) -> Option<&native::Part> {
    match native {
        NativeEvent::MessagePartUpdated(e) => {
            let part = e.input.event.properties.as_ref()?.part.as_ref()?;
            (part.part_type.as_deref() == Some("tool")
                && part.state.as_ref().and_then(|s| s.status.as_deref()) == Some("error"))
            .then_some(part)
        }
        _ => None,
    }
}

/// The unified kind: the row's, refined by what the frame says (a child session is a
/// subagent; an errored tool part is a tool error).
fn kind_of(native: &NativeEvent, child: bool) -> EventKind {
    match native.kind() {
        EventKind::SessionStart if child => EventKind::SubagentStart,
        EventKind::Stop if child => EventKind::SubagentStop,
        EventKind::Other if errored_part(native).is_some() => EventKind::ToolError,
        k => k,
    }
}

/// The session a bus event's properties name (`sid` picks it from the properties).
fn bus_session<P>(bus: Option<&Bus<P>>, sid: impl Fn(&P) -> Option<&String>) -> Option<String> {
    bus.and_then(|b| sid(b.event.properties.as_ref()?)).cloned()
}

/// Session facts: the session from the frame; directory and worktree from the hello frame.
fn session_info(native: &NativeEvent, hello: Option<&Value>) -> SessionInfo {
    let mut s = SessionInfo::default();
    let id = match native {
        NativeEvent::ToolExecuteBefore(e) => e.input.session_id.clone(),
        NativeEvent::ToolExecuteAfter(e) => e.input.session_id.clone(),
        NativeEvent::ChatMessage(e) => e.input.as_ref().and_then(|i| i.session_id.clone()),
        NativeEvent::ChatParams(e) => e.input.as_ref().and_then(|i| i.session_id.clone()),
        NativeEvent::ChatHeaders(e) => e.input.as_ref().and_then(|i| i.session_id.clone()),
        NativeEvent::TextComplete(e) => e.input.as_ref().and_then(|i| i.session_id.clone()),
        NativeEvent::SessionCompacting(e) => e.input.as_ref().and_then(|i| i.session_id.clone()),
        NativeEvent::SessionCreated(e) => e.input.event.properties.as_ref().and_then(|p| {
            p.session_id
                .clone()
                .or_else(|| p.info.as_ref().and_then(|i| i.id.clone()))
        }),
        NativeEvent::SessionIdle(e) => bus_session(e.input.as_ref(), |p| p.session_id.as_ref()),
        NativeEvent::SessionCompacted(e) => bus_session(e.input.as_ref(), |p| p.session_id.as_ref()),
        NativeEvent::PermissionAsked(e) => bus_session(e.input.as_ref(), |p| p.session_id.as_ref()),
        NativeEvent::PermissionUpdated(e) => bus_session(e.input.as_ref(), |p| p.session_id.as_ref()),
        NativeEvent::MessagePartUpdated(e) => e.input.event.properties.as_ref().and_then(|p| {
            p.session_id
                .clone()
                .or_else(|| p.part.as_ref().and_then(|x| x.session_id.clone()))
        }),
        _ => None,
    };
    s.id = id.unwrap_or_default();
    s.turn_id = match native {
        NativeEvent::ChatMessage(e) => e.input.as_ref().and_then(|i| i.message_id.clone()).or_else(|| {
            e.output
                .as_ref()
                .and_then(|o| o.message.as_ref()?.get("id")?.as_str().map(str::to_owned))
        }),
        NativeEvent::TextComplete(e) => e.input.as_ref().and_then(|i| i.message_id.clone()),
        _ => None,
    }
    .unwrap_or_default();
    s.model = match native {
        NativeEvent::ChatMessage(e) => e
            .input
            .as_ref()
            .and_then(|i| i.model.as_ref()?.model_id.clone())
            .or_else(|| {
                let m = e.output.as_ref()?.message.as_ref()?.get("model")?;
                m.get("modelID")?.as_str().map(str::to_owned)
            }),
        NativeEvent::ChatParams(e) => request_model(e.input.as_ref()),
        NativeEvent::ChatHeaders(e) => request_model(e.input.as_ref()),
        _ => None,
    }
    .unwrap_or_default();
    let text = |k: &str| hello.and_then(|h| h.get(k)).and_then(Value::as_str).map(str::to_owned);
    s.cwd = text("directory")
        .or_else(|| match native {
            NativeEvent::SessionCreated(e) => e.input.event.properties.as_ref()?.info.as_ref()?.directory.clone(),
            _ => None,
        })
        .unwrap_or_default();
    let root = text("worktree")
        .filter(|w| !w.is_empty() && w != "/")
        .unwrap_or_else(|| s.cwd.clone());
    if !root.is_empty() {
        s.workspace_roots = vec![root];
    }
    s
}

fn request_model(input: Option<&native::ChatRequestInput>) -> Option<String> {
    input?.model.as_ref()?.get("id")?.as_str().map(str::to_owned)
}

/// Builds the typed event (projection); the envelope already holds the native view.
fn build_event(env: Envelope, native: NativeEvent, servers: &[String], previously_continued: bool) -> Event {
    let tool = |env: &Envelope, name: &str, args: Option<&Value>, id: Option<&String>| {
        ToolCall::builder(name, args.cloned().unwrap_or(Value::Null))
            .class(tools::classify_with(name, servers))
            .with_id(id.cloned().unwrap_or_default())
            .with_mcp(tools::parse_mcp(name, servers))
            .build(&env.session)
    };
    if env.kind == EventKind::ToolError {
        if let Some(part) = errored_part(&native) {
            let state = part.state.as_ref();
            let t = tool(
                &env,
                part.tool.as_deref().unwrap_or_default(),
                state.and_then(|s| s.input.as_ref()),
                part.call_id.as_ref(),
            );
            let error = state.and_then(|s| s.error.clone()).unwrap_or_default();
            return Event::ToolError(ToolErrorEvent::new(env, t).with_error(error));
        }
    }
    match native {
        NativeEvent::ToolExecuteBefore(e) => {
            let args = e.output.as_ref().and_then(|o| o.args.as_ref());
            let t = tool(&env, &e.input.tool, args, e.input.call_id.as_ref());
            Event::ToolPre(ToolPreEvent::new(env, t))
        }
        NativeEvent::ToolExecuteAfter(e) => {
            let t = tool(&env, &e.input.tool, e.input.args.as_ref(), e.input.call_id.as_ref());
            let output = e.output.and_then(|o| o.output).unwrap_or(Value::Null);
            Event::ToolPost(ToolPostEvent::new(env, t).with_output(output.into()))
        }
        NativeEvent::ChatMessage(e) => {
            let text = e
                .output
                .as_ref()
                .and_then(|o| o.parts.as_ref())
                .map(|parts| {
                    parts
                        .iter()
                        .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                        .filter_map(|p| p.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .unwrap_or_default();
            Event::PromptSubmitted(PromptEvent::new(env, text))
        }
        NativeEvent::ChatParams(e) => {
            let request = json!({"input": e.input, "output": e.output});
            Event::ModelRequest(ModelRequestEvent::new(env, request))
        }
        NativeEvent::ChatHeaders(e) => {
            let request = json!({"input": e.input, "output": e.output});
            Event::ModelRequest(ModelRequestEvent::new(env, request))
        }
        NativeEvent::TextComplete(e) => {
            let text = e.output.as_ref().and_then(|o| o.text.clone());
            let response = serde_json::to_value(&e.output).unwrap_or(Value::Null);
            Event::ModelResponse(ModelResponseEvent::new(env).with_response(response).with_text(text))
        }
        NativeEvent::SessionCompacting(_) => Event::CompactPre(CompactPreEvent::new(env)),
        NativeEvent::SessionCreated(_) if env.kind == EventKind::SubagentStart => {
            Event::SubagentStart(SubagentStartEvent::new(env))
        }
        NativeEvent::SessionCreated(_) => {
            Event::SessionStart(SessionStartEvent::new(env).with_source(Some("startup".into())))
        }
        NativeEvent::SessionIdle(_) => {
            let stop = StopEvent::new(env).with_previously_continued(previously_continued);
            if stop.envelope.kind == EventKind::SubagentStop {
                Event::SubagentStop(stop)
            } else {
                Event::Stop(stop)
            }
        }
        NativeEvent::SessionCompacted(_) => Event::CompactPost(CompactPostEvent::new(env)),
        NativeEvent::FileEdited(e) => {
            let file = e.input.and_then(|i| i.event.properties?.file).unwrap_or_default();
            Event::FileEdited(FileEditedEvent::new(env, file))
        }
        NativeEvent::PermissionAsked(e) => {
            let p = e.input.and_then(|i| i.event.properties);
            let name = p.as_ref().and_then(|p| p.permission.clone()).unwrap_or_default();
            let call = p.as_ref().and_then(|p| p.tool.as_ref()?.call_id.clone());
            let args = p.as_ref().and_then(|p| p.metadata.clone());
            let t = tool(&env, &name, args.as_ref(), call.as_ref());
            let suggestions = p.and_then(|p| p.always).map(|a| json!({"always": a}));
            Event::Permission(PermissionEvent::new(env, t).with_suggestions(suggestions))
        }
        NativeEvent::PermissionUpdated(e) => {
            let p = e.input.and_then(|i| i.event.properties);
            let name = p.as_ref().and_then(|p| p.permission_type.clone()).unwrap_or_default();
            let call = p.as_ref().and_then(|p| p.call_id.clone());
            let args = p.as_ref().and_then(|p| p.metadata.clone());
            let t = tool(&env, &name, args.as_ref(), call.as_ref());
            Event::Permission(PermissionEvent::new(env, t))
        }
        NativeEvent::InstanceDisposed(_) => {
            Event::SessionEnd(SessionEndEvent::new(env).with_reason(Some("disposed".into())))
        }
        NativeEvent::ToastShow(e) => {
            let p = e.input.and_then(|i| i.event.properties);
            let message = p.as_ref().and_then(|p| p.message.clone()).unwrap_or_default();
            Event::Notification(
                NotificationEvent::new(env, message)
                    .with_title(p.as_ref().and_then(|p| p.title.clone()))
                    .with_notification_type(p.and_then(|p| p.variant)),
            )
        }
        // Unmapped hooks and bus events (kind `other`), and frames that could not be typed.
        _ => Event::bare(env),
    }
}

// ---------------------------------------------------------------------------------------------
// Encode
// ---------------------------------------------------------------------------------------------

/// `chat.message`'s parts with a synthetic text part holding `context` appended (arrays are
/// replaced wholesale by the shim, so the reply carries every part). The new part's id sorts
/// right after the last part's.
fn parts_with_context(env: &Envelope, context: &str) -> Vec<Value> {
    let (mut parts, message) = match crate::view(env) {
        Some(NativeEvent::ChatMessage(e)) => (
            e.output.as_ref().and_then(|o| o.parts.clone()).unwrap_or_default(),
            e.output.as_ref().and_then(|o| o.message.clone()),
        ),
        _ => (Vec::new(), None),
    };
    let message_id = message
        .as_ref()
        .and_then(|m| m.get("id")?.as_str().map(str::to_owned))
        .unwrap_or_default();
    let last = parts
        .iter()
        .rev()
        .find_map(|p| p.get("id")?.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("prt_{}", message_id.trim_start_matches("msg_")));
    let part = TextPart {
        id: Some(format!("{last}ah")),
        session_id: Some(env.session.id.clone()),
        message_id: Some(message_id),
        ..TextPart::marked(context, CONTEXT_MARK)
    };
    parts.extend(serde_json::to_value(part).ok());
    parts
}

/// The compaction context already in `output.context`.
fn compacting_context(env: &Envelope) -> Vec<String> {
    match crate::view(env) {
        Some(NativeEvent::SessionCompacting(e)) => {
            e.output.as_ref().and_then(|o| o.context.clone()).unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// `query.directory` for OpenCode's routes (the instance the session belongs to).
fn directory_query(env: &Envelope) -> Query {
    Query::directory(Some(&env.session.cwd))
}

/// A follow-up prompt for a stopping session: `POST /session/{id}/prompt_async` (returns at
/// once), falling back to the blocking `POST /session/{id}/message` on older servers. The part
/// is marked so the next `chat.message` is known as our continuation.
fn continue_effect(env: &Envelope, text: &str) -> Effect {
    let sid = agenthooks_core::kit::frame::encode_component(&env.session.id);
    let body = Body::Prompt {
        parts: vec![TextPart::marked(text, CONTINUE_MARK)],
    };
    let fallback = Request::post(format!("/session/{sid}/message"), directory_query(env), body.clone());
    Effect::Http(Request {
        fallback: Some(Box::new(fallback)),
        ..Request::post(format!("/session/{sid}/prompt_async"), directory_query(env), body)
    })
}

/// A permission reply: v2 `POST /permission/{requestID}/reply {reply, message?}` (with the
/// deprecated per-session route as the fallback), or for a v1 event the per-session route
/// `POST /session/{id}/permissions/{permissionID} {response}`. `directory` is the instance's.
fn permission_reply(
    native: &NativeEvent,
    directory: Option<&str>,
    allow: bool,
    reason: Option<&str>,
) -> Option<Effect> {
    let reply = if allow { "once" } else { "reject" };
    let (id, session, v1) = match native {
        NativeEvent::PermissionAsked(e) => {
            let p = e.input.as_ref()?.event.properties.as_ref()?;
            (p.id.clone()?, p.session_id.clone().unwrap_or_default(), false)
        }
        NativeEvent::PermissionUpdated(e) => {
            let p = e.input.as_ref()?.event.properties.as_ref()?;
            (p.id.clone()?, p.session_id.clone().unwrap_or_default(), true)
        }
        _ => return None,
    };
    let enc = agenthooks_core::kit::frame::encode_component;
    let (id, sid) = (enc(&id), enc(&session));
    let legacy = Request::post(
        format!("/session/{sid}/permissions/{id}"),
        Query::directory(directory),
        Body::Response { response: reply },
    );
    if v1 {
        return Some(Effect::Http(legacy));
    }
    let message = reason.filter(|r| !allow && !r.trim().is_empty()).map(str::to_owned);
    Some(Effect::Http(Request {
        fallback: Some(Box::new(legacy)),
        ..Request::post(
            format!("/permission/{id}/reply"),
            Query::directory(directory),
            Body::Reply { reply, message },
        )
    }))
}
