//! Native Gemini CLI hook payloads, typed field for field, and the table of their facts.
//!
//! Gemini CLI sends one `snake_case` JSON object on stdin per hook call. Every payload carries the
//! base fields `session_id`, `transcript_path` (`""` when the session is not recorded), `cwd`,
//! `hook_event_name` and `timestamp` (ISO-8601, Gemini's own clock — kept verbatim beside the
//! library's receive time), plus the event's own fields (reference: `gemini.md` §2, Gemini CLI
//! `packages/core/src/hooks/types.ts`).
//!
//! [`EVENTS`] is the single source of each event's facts (kind, whether Gemini awaits the hook,
//! tool matcher, capabilities, fail-closed answer, identifying fields, which event install
//! wires for a kind); the structs, [`NativeEvent`] and its decoder are generated from the same
//! table by [`agenthooks_core::native_events!`].
//!
//! Fidelity and tolerance rules for every struct here:
//!
//! - each field of the reference is a pub field with its wire spelling;
//! - only the event name and, on tool events, `tool_name` are required; every other field is
//!   an `Option` (older releases omit some: `mcp_context` before v0.25.0,
//!   `original_request_name` before v0.31.0) and is not written back when absent;
//! - fields whose shape varies are free-shape values: `tool_input`, `tool_response.llmContent`
//!   (a string or parts), `tool_response.returnDisplay` (a string or a display object),
//!   `tool_response.error`, `llm_request.messages[].content` (a string or parts), `details`;
//! - a value of a shape no release sent does not fail the event: the decoder
//!   ([`NativeEvent::decode`], see [`agenthooks_core::kit`]) keeps it in `extra` and reports it on
//!   the envelope's `projection_issues`;
//! - every struct ends with `extra`, which captures unknown keys instead of dropping them.
//!
//! An event name this crate does not know decodes as [`NativeEvent::Other`] with every key kept.

use agenthooks_core::kit::{lenient, Extra, FailShape};
use agenthooks_core::{CapSet, Capability as C};
use serde::{Deserialize, Serialize};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// What Gemini honours per event
// ---------------------------------------------------------------------------------------------

const SESSION_START: CapSet = CapSet::of(&[C::AddContext, C::SystemMessage]);
const MESSAGE_ONLY: CapSet = CapSet::of(&[C::SystemMessage]);
const BEFORE_AGENT: CapSet = CapSet::of(&[C::Deny, C::AddContext, C::StopAgent, C::SystemMessage]);
const AFTER_AGENT: CapSet = CapSet::of(&[C::ContinueAgent, C::StopAgent, C::SystemMessage]);
// No Allow: Gemini has no "skip the confirmation" decision; a rewrite without a verdict is
// applied (NeutralRewrite).
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

// ---------------------------------------------------------------------------------------------
// Shared nested shapes
// ---------------------------------------------------------------------------------------------

/// `mcp_context` on `BeforeTool`/`AfterTool` when the tool is served by an MCP server.
///
/// `server_name` and `tool_name` (the name on the server) are authoritative: prefer them over
/// parsing the `mcp_<server>_<tool>` tool name (see [`crate::mcp`]). Transport info is one of
/// `command`/`args`/`cwd` (stdio), `url` (SSE / streamable HTTP) or `tcp` (WebSocket).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct McpContext {
    /// The MCP server's name as configured in `mcpServers` (always sent since v0.25.0; a
    /// context without it falls back to parsing the tool name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_name: Option<String>,
    /// The tool's name as the MCP server knows it (always sent since v0.25.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// stdio transport: the server command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// stdio transport: the server command's arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
    /// stdio transport: the server's working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// SSE / HTTP transport: the server URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// WebSocket transport: the server address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<String>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `tool_response` on `AfterTool`: Gemini's `ToolResult` projection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolResponse {
    /// What the model receives: a string, a `Part` or an array of parts.
    #[serde(
        rename = "llmContent",
        default,
        deserialize_with = "lenient::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub llm_content: Option<Value>,
    /// What the user sees: a string or a structured display (e.g. a file diff object).
    #[serde(
        rename = "returnDisplay",
        default,
        deserialize_with = "lenient::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub return_display: Option<Value>,
    /// Present when the tool failed: `{type, message}` (e.g. `shell_execute_error`).
    #[serde(
        default,
        deserialize_with = "lenient::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<Value>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `llm_request` on the model-level events: Gemini's decoupled request shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmRequest {
    /// The model id the request goes to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The conversation so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<LlmMessage>>,
    /// Generation config (`temperature`, `topP`, `topK`, …), free shape.
    #[serde(
        default,
        deserialize_with = "lenient::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub config: Option<Value>,
    /// Tool config (`mode` `AUTO|ANY|NONE`, `allowedFunctionNames`), free shape.
    #[serde(
        rename = "toolConfig",
        default,
        deserialize_with = "lenient::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_config: Option<Value>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One message of [`LlmRequest::messages`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmMessage {
    /// `user`, `model` or `system`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The message content: a string in 0.61.0, possibly parts in other versions.
    #[serde(
        default,
        deserialize_with = "lenient::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub content: Option<Value>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `llm_response` on `AfterModel`: one streamed chunk (or a whole response).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmResponse {
    /// The chunk's text, concatenated by Gemini (sent by 0.61.0, not in the reference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<LlmCandidate>>,
    /// Token usage (`promptTokenCount`, `candidatesTokenCount`, `totalTokenCount`), free shape.
    #[serde(
        rename = "usageMetadata",
        default,
        deserialize_with = "lenient::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub usage_metadata: Option<Value>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One candidate of [`LlmResponse::candidates`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmCandidate {
    /// The candidate's content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<LlmContent>,
    /// `STOP`, `MAX_TOKENS`, `SAFETY`, … (absent on intermediate chunks).
    #[serde(rename = "finishReason", default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// The candidate's index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<i64>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Extra,
}

/// [`LlmCandidate::content`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmContent {
    /// Usually `model`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The parts: plain strings for text in 0.61.0, objects (`functionCall`, …) otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<Value>>,
    /// Unknown keys, kept verbatim.
    #[serde(flatten)]
    pub extra: Extra,
}

// ---------------------------------------------------------------------------------------------
// The 11 events
// ---------------------------------------------------------------------------------------------

agenthooks_core::native_events! {
    /// Any Gemini CLI hook payload, decoded into its typed struct.
    ///
    /// `kind()` is the row's kind; a failed `AfterTool` (see [`AfterTool::is_error`]) is
    /// reported as `tool.error` by the codec.
    pub enum NativeEvent;
    unknown Unknown;
    rows EVENTS;
    name_key Some("hook_event_name");
    common {
        /// The session id (also exported as `GEMINI_SESSION_ID`).
        session_id: Option<String>,
        /// The transcript file: `""` when the session is not recorded (and always `""` in
        /// v0.19–v0.21, which did not record it yet).
        transcript_path: Option<String>,
        /// The session's working directory.
        cwd: Option<String>,
        /// The native event name.
        hook_event_name: Option<String>,
        /// Gemini's own ISO-8601 timestamp for this hook call, verbatim.
        timestamp: Option<String>,
    }
    events {
        /// `SessionStart`: startup, resume or `/clear`. Not a gate: context and a system
        /// message only.
        SessionStart("SessionStart", SessionStart, blocking).caps(SESSION_START) {
            /// `startup`, `resume` or `clear` (the matcher input, compared exactly; v0.19 also
            /// sent `compress`).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            source: Option<String>,
        }
        /// `SessionEnd`: exit, `/clear` or logout. Best effort: Gemini does not wait for the
        /// hook.
        SessionEnd("SessionEnd", SessionEnd).caps(MESSAGE_ONLY) {
            /// `exit`, `clear`, `logout`, `prompt_input_exit` or `other`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            reason: Option<String>,
        }
        /// `BeforeAgent`: a prompt was submitted, before planning (≈ Claude's
        /// `UserPromptSubmit`).
        BeforeAgent("BeforeAgent", PromptSubmitted, blocking)
            .caps(BEFORE_AGENT).fail(FailShape::Block).provider_only() {
            /// The submitted prompt.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            prompt: Option<String>,
        }
        /// `AfterAgent`: once per turn after the final answer (≈ Claude's `Stop`). A deny
        /// starts a new turn, so fail-closed answers the no-op here (#305).
        AfterAgent("AfterAgent", Stop, blocking).caps(AFTER_AGENT).provider_only() {
            /// The prompt of the turn that just finished.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            prompt: Option<String>,
            /// The agent's final answer.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            prompt_response: Option<String>,
            /// `true` when this turn is itself a retry caused by an earlier `AfterAgent` deny.
            #[serde(default, deserialize_with = "lenient::opt_bool", skip_serializing_if = "Option::is_none")]
            stop_hook_active: Option<bool>,
        }
        /// `BeforeTool`: before a tool call. Gate: deny, stop, rewrite input (shallow merge),
        /// ask. No tool-call id is sent.
        BeforeTool("BeforeTool", ToolPre, blocking, tool_matcher)
            .caps(BEFORE_TOOL).fail(FailShape::Block).identify(&["tool_name"]).provider_only() {
            /// The tool's registry name (`run_shell_command`, `mcp_<server>_<tool>`, …;
            /// identifying: required).
            tool_name: String,
            /// The tool's arguments (a JSON object).
            #[serde(default, deserialize_with = "lenient::present", skip_serializing_if = "Option::is_none")]
            tool_input: Option<Value>,
            /// Set for MCP tools (since v0.25.0).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            mcp_context: Option<McpContext>,
            /// The name the model asked for when Gemini resolved it to another tool (an alias;
            /// since v0.31.0).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            original_request_name: Option<String>,
        }
        /// `AfterTool`: after a tool call, successful or not (errors in `tool_response.error`,
        /// which decides `tool.post` vs `tool.error`). No tool-call id is sent.
        AfterTool("AfterTool", ToolPost, blocking, tool_matcher)
            .caps(AFTER_TOOL).identify(&["tool_name", "tool_response"]).provider_only() {
            /// The tool's registry name (identifying: required).
            tool_name: String,
            /// The tool's arguments as they were run (after any `BeforeTool` rewrite).
            #[serde(default, deserialize_with = "lenient::present", skip_serializing_if = "Option::is_none")]
            tool_input: Option<Value>,
            /// The tool's result (decides the kind: see [`AfterTool::is_error`]).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            tool_response: Option<ToolResponse>,
            /// Set for MCP tools (since v0.25.0).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            mcp_context: Option<McpContext>,
            /// The name the model asked for when Gemini resolved it to another tool (since
            /// v0.31.0).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            original_request_name: Option<String>,
        }
        /// `BeforeModel`: before each LLM request. Gate: deny, partial request override,
        /// synthetic response. Experimental in the unified layer (hot path: fires for every
        /// model call).
        BeforeModel("BeforeModel", ModelRequest, blocking).caps(MODEL).provider_only() {
            /// The request about to be sent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            llm_request: Option<LlmRequest>,
        }
        /// `AfterModel`: once per streamed response **chunk**. Gate: deny, replace the chunk.
        /// Experimental in the unified layer.
        AfterModel("AfterModel", ModelResponse, blocking).caps(MODEL).provider_only() {
            /// The request this chunk answers.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            llm_request: Option<LlmRequest>,
            /// The chunk.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            llm_response: Option<LlmResponse>,
        }
        /// `BeforeToolSelection`: before the model picks tools. Can only restrict the tools
        /// (`hookSpecificOutput.toolConfig`). Experimental in the unified layer; install wires
        /// `BeforeModel` for `model.request`, this one only when asked for by name.
        BeforeToolSelection("BeforeToolSelection", ModelRequest, blocking)
            .caps(MESSAGE_ONLY).provider_only().secondary() {
            /// The request the tool selection applies to.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            llm_request: Option<LlmRequest>,
        }
        /// `PreCompress`: before history compression. Advisory; Gemini does not wait for the
        /// hook.
        PreCompress("PreCompress", CompactPre).caps(MESSAGE_ONLY).provider_only() {
            /// `manual` or `auto`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            trigger: Option<String>,
        }
        /// `Notification`: a system alert (only `ToolPermission` today). Observe only.
        Notification("Notification", Notification).caps(MESSAGE_ONLY) {
            /// `ToolPermission` (the matcher input, compared exactly).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            notification_type: Option<String>,
            /// The alert text.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            message: Option<String>,
            /// Details of the alert (for `ToolPermission`: the confirmation details), free
            /// shape.
            #[serde(default, deserialize_with = "lenient::present", skip_serializing_if = "Option::is_none")]
            details: Option<Value>,
        }
    }
}

impl AfterTool {
    /// The tool failure carried in `tool_response.error`, if any (`null` counts as none).
    pub fn error(&self) -> Option<&Value> {
        self.tool_response.as_ref()?.error.as_ref().filter(|e| !e.is_null())
    }

    /// A human-readable failure message: `error.message` when it is a string, the error itself
    /// when it is a string, else its compact JSON. `None` when the tool succeeded.
    pub fn error_message(&self) -> Option<String> {
        let err = self.error()?;
        Some(match err {
            Value::String(s) => s.clone(),
            Value::Object(m) => match m.get("message") {
                Some(Value::String(s)) => s.clone(),
                _ => err.to_string(),
            },
            other => other.to_string(),
        })
    }

    /// Whether this call failed (reported as `tool.error` by the unified layer).
    pub fn is_error(&self) -> bool {
        self.error().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::kit::{Decoded, Repair};
    use agenthooks_core::{EventKind, Provider};

    const BASE: &str =
        r#""session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","timestamp":"2026-11-30T11:59:25.376Z""#;

    fn payload(event: &str, rest: &str) -> Vec<u8> {
        let sep = if rest.is_empty() { "" } else { "," };
        format!(r#"{{{BASE},"hook_event_name":"{event}"{sep}{rest}}}"#).into_bytes()
    }

    fn to_value(ev: &NativeEvent) -> Value {
        serde_json::to_value(ev).unwrap()
    }

    fn decoded(bytes: &[u8]) -> Decoded<NativeEvent> {
        NativeEvent::decode(&Provider::GEMINI, bytes, None).unwrap_or_else(|e| panic!("{e}"))
    }

    fn decode(bytes: &[u8]) -> NativeEvent {
        let d = decoded(bytes);
        assert!(d.issues.is_empty(), "{:?}", d.issues);
        d.native
    }

    #[test]
    fn decodes_each_event_and_keeps_the_base_fields() {
        let cases: &[(&str, &str)] = &[
            ("SessionStart", r#""source":"resume""#),
            ("SessionEnd", r#""reason":"logout""#),
            ("BeforeAgent", r#""prompt":"p""#),
            (
                "AfterAgent",
                r#""prompt":"p","prompt_response":"r","stop_hook_active":true"#,
            ),
            (
                "BeforeTool",
                r#""tool_name":"read_file","tool_input":{"file_path":"a"}"#,
            ),
            (
                "AfterTool",
                r#""tool_name":"read_file","tool_input":{},"tool_response":{"llmContent":"x","returnDisplay":""}"#,
            ),
            ("BeforeModel", r#""llm_request":{"model":"m","messages":[]}"#),
            (
                "AfterModel",
                r#""llm_request":{},"llm_response":{"candidates":[{"content":{"role":"model","parts":["a",{"text":"b"}]},"finishReason":"STOP","index":0}]}"#,
            ),
            ("BeforeToolSelection", r#""llm_request":{"toolConfig":{"mode":"AUTO"}}"#),
            ("PreCompress", r#""trigger":"manual""#),
            (
                "Notification",
                r#""notification_type":"ToolPermission","message":"m","details":{"type":"exec"}"#,
            ),
        ];
        assert_eq!(cases.len(), EVENTS.len());
        for (name, rest) in cases {
            let bytes = payload(name, rest);
            let ev = decode(&bytes);
            assert_eq!(ev.name(), *name);
            assert!(!matches!(ev, NativeEvent::Other(_)), "{name}");
            assert_eq!(ev.timestamp().map(String::as_str), Some("2026-11-30T11:59:25.376Z"));
            assert_eq!(ev.session_id().map(String::as_str), Some("s1"));
            assert_eq!(ev.cwd().map(String::as_str), Some("/p"));
            assert_eq!(ev.transcript_path().map(String::as_str), Some("/t.jsonl"));
            assert!(ev.extra().is_empty(), "{name}: {:?}", ev.extra());
            // Written back as received (byte for byte in Gemini's key order: the fixtures).
            assert_eq!(
                to_value(&ev),
                serde_json::from_slice::<Value>(&bytes).unwrap(),
                "{name}"
            );
        }
    }

    #[test]
    fn typed_fields_decode() {
        let ev = decode(&payload(
            "AfterAgent",
            r#""prompt":"p","prompt_response":"r","stop_hook_active":true"#,
        ));
        let NativeEvent::AfterAgent(a) = ev else {
            panic!("wrong variant")
        };
        assert_eq!(a.stop_hook_active, Some(true));
        assert_eq!(a.prompt_response.as_deref(), Some("r"));

        let ev = decode(&payload(
            "AfterModel",
            r#""llm_request":{"model":"m","messages":[{"role":"user","content":"hi"}],"config":{"topK":64}},"llm_response":{"text":"ok","candidates":[{"content":{"role":"model","parts":["ok"]},"finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":15}}"#,
        ));
        let NativeEvent::AfterModel(m) = ev else {
            panic!("wrong variant")
        };
        let req = m.llm_request.as_ref().unwrap();
        assert_eq!(req.model.as_deref(), Some("m"));
        let msgs = req.messages.as_deref().unwrap_or_default();
        assert_eq!(msgs[0].role.as_deref(), Some("user"));
        assert_eq!(msgs[0].content, Some(Value::from("hi")));
        let resp = m.llm_response.as_ref().unwrap();
        assert_eq!(resp.text.as_deref(), Some("ok"));
        let cands = resp.candidates.as_deref().unwrap_or_default();
        assert_eq!(cands[0].finish_reason.as_deref(), Some("STOP"));
        assert_eq!(cands[0].index, Some(0));
        assert_eq!(
            cands[0].content.as_ref().and_then(|c| c.parts.clone()),
            Some(vec![Value::from("ok")])
        );
        assert_eq!(resp.usage_metadata, Some(serde_json::json!({"totalTokenCount": 15})));
    }

    #[test]
    fn message_content_is_a_string_or_parts() {
        // `llm_request.messages[].content`: a string in 0.61.0, parts in other releases.
        let ev = decode(&payload(
            "BeforeModel",
            r#""llm_request":{"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"model","content":"ok"}]}"#,
        ));
        let NativeEvent::BeforeModel(m) = ev else {
            panic!("wrong variant")
        };
        let msgs = m.llm_request.and_then(|r| r.messages).unwrap_or_default();
        assert_eq!(
            msgs[0].content.as_ref().map(|c| c[0]["text"].clone()),
            Some("hi".into())
        );
        assert_eq!(msgs[1].content, Some(Value::from("ok")));
    }

    #[test]
    fn mcp_context_and_original_name() {
        let ev = decode(&payload(
            "BeforeTool",
            r#""tool_name":"mcp_github_create_issue","tool_input":{"title":"t"},"mcp_context":{"server_name":"github","tool_name":"create_issue","url":"https://x/mcp","headers_seen":true},"original_request_name":"create_issue""#,
        ));
        let NativeEvent::BeforeTool(t) = ev else {
            panic!("wrong variant")
        };
        let mcp = t.mcp_context.as_ref().unwrap();
        assert_eq!(mcp.server_name.as_deref(), Some("github"));
        assert_eq!(mcp.tool_name.as_deref(), Some("create_issue"));
        assert_eq!(mcp.url.as_deref(), Some("https://x/mcp"));
        assert_eq!(mcp.command, None);
        assert_eq!(mcp.extra["headers_seen"], true);
        assert_eq!(t.original_request_name.as_deref(), Some("create_issue"));
    }

    #[test]
    fn after_tool_error() {
        let ev = decode(&payload(
            "AfterTool",
            r#""tool_name":"run_shell_command","tool_input":{"command":"false"},"tool_response":{"llmContent":"x","returnDisplay":"y","error":{"type":"shell_execute_error","message":"exit 1"}}"#,
        ));
        let NativeEvent::AfterTool(t) = ev else {
            panic!("wrong variant")
        };
        assert!(t.is_error());
        assert_eq!(t.error_message().as_deref(), Some("exit 1"));

        for (rest, want) in [
            (r#""tool_response":{"error":null}"#, None),
            (r#""tool_response":{"error":"boom"}"#, Some("boom")),
            (r#""tool_response":{"error":{"code":2}}"#, Some(r#"{"code":2}"#)),
            ("", None),
        ] {
            let sep = if rest.is_empty() { "" } else { "," };
            let NativeEvent::AfterTool(t) = decode(&payload("AfterTool", &format!(r#""tool_name":"x"{sep}{rest}"#)))
            else {
                panic!("wrong variant")
            };
            assert_eq!(t.error_message().as_deref(), want, "{rest}");
        }
    }

    #[test]
    fn unknown_keys_land_in_extra_and_round_trip() {
        let bytes = payload("BeforeAgent", r#""prompt":"p","future":{"a":[1,2]},"z":null"#);
        let ev = decode(&bytes);
        assert_eq!(ev.extra().len(), 2);
        assert_eq!(ev.extra()["future"], serde_json::json!({"a": [1, 2]}));
        assert_eq!(ev.extra()["z"], Value::Null);
        assert_eq!(to_value(&ev), serde_json::from_slice::<Value>(&bytes).unwrap());
    }

    #[test]
    fn unknown_event_is_other() {
        let ev = decode(&payload("AfterCompress", r#""trigger":"auto""#));
        assert_eq!((ev.name(), ev.kind()), ("AfterCompress", EventKind::Other));
        assert_eq!(ev.timestamp().map(String::as_str), Some("2026-11-30T11:59:25.376Z"));
        let NativeEvent::Other(u) = &ev else {
            panic!("wrong variant")
        };
        assert_eq!(u.extra["trigger"], "auto");
    }

    #[test]
    fn mistyped_fields_are_kept_not_fatal() {
        // A shape no release sent: kept in `extra`, reported, the event still typed.
        let d = decoded(&payload(
            "AfterModel",
            r#""llm_request":{},"llm_response":{"candidates":[{"index":"zero"}]}"#,
        ));
        assert_eq!(d.issues.len(), 1);
        assert_eq!(d.issues[0].repair, Repair::MovedToExtra);
        assert!(d.issues[0].path.starts_with("llm_response"), "{}", d.issues[0]);
        let NativeEvent::AfterModel(m) = &d.native else {
            panic!("wrong variant")
        };
        assert!(m.llm_response.is_none());
        assert_eq!(m.extra["llm_response"]["candidates"][0]["index"], "zero");

        // The identifying tool name is missing: the kind stays, the view is `Other`.
        let d = decoded(&payload("BeforeTool", r#""tool_input":{}"#));
        assert!(!d.is_exact());
        assert_eq!(d.native.kind(), EventKind::ToolPre);
        assert!(matches!(d.view(), NativeEvent::Other(u) if u.name == "BeforeTool"));
    }

    #[test]
    fn malformed_payloads_are_errors() {
        let p = Provider::GEMINI;
        let e = NativeEvent::decode(&p, br#"{"session_id":"s"}"#, None).unwrap_err();
        assert!(e.to_string().contains("hook_event_name"), "{e}");
        for bad in [&b""[..], b"[]", b"{", b"null", br#"{"hook_event_name":1}"#] {
            assert!(NativeEvent::decode(&p, bad, None).is_err(), "{bad:?}");
        }
        let trailing = [payload("BeforeAgent", r#""prompt":"p""#), b" x".to_vec()].concat();
        assert!(NativeEvent::decode(&p, &trailing, None).is_err());
        let mut ws = payload("PreCompress", r#""trigger":"auto""#);
        ws.extend_from_slice(b"\n");
        assert_eq!(decode(&ws).kind(), EventKind::CompactPre);
    }
}
