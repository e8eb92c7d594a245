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
//! table by [`agenthooks_core::kit::native_events!`].
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

use agenthooks_core::kit::{lenient, FailShape};
use agenthooks_core::{CapSet, Capability as C};
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

agenthooks_core::kit::native_record! {
    /// `mcp_context` on `BeforeTool`/`AfterTool` when the tool is served by an MCP server.
    ///
    /// `server_name` and `tool_name` (the name on the server) are authoritative: prefer them over
    /// parsing the `mcp_<server>_<tool>` tool name (see [`crate::mcp`]). Transport info is one of
    /// `command`/`args`/`cwd` (stdio), `url` (SSE / streamable HTTP) or `tcp` (WebSocket).
    pub struct McpContext {
        /// The MCP server's name as configured in `mcpServers` (always sent since v0.25.0; a
        /// context without it falls back to parsing the tool name).
        server_name: Option<String>,
        /// The tool's name as the MCP server knows it (always sent since v0.25.0).
        tool_name: Option<String>,
        /// stdio transport: the server command.
        command: Option<String>,
        /// stdio transport: the server command's arguments.
        args: Option<Vec<String>>,
        /// stdio transport: the server's working directory.
        cwd: Option<String>,
        /// SSE / HTTP transport: the server URL.
        url: Option<String>,
        /// WebSocket transport: the server address.
        tcp: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// `tool_response` on `AfterTool`: Gemini's `ToolResult` projection.
    pub struct ToolResponse {
        /// What the model receives: a string, a `Part` or an array of parts.
        #[serde(rename = "llmContent", deserialize_with = "lenient::present")]
        llm_content: Option<Value>,
        /// What the user sees: a string or a structured display (e.g. a file diff object).
        #[serde(rename = "returnDisplay", deserialize_with = "lenient::present")]
        return_display: Option<Value>,
        /// Present when the tool failed: `{type, message}` (e.g. `shell_execute_error`).
        #[serde(deserialize_with = "lenient::present")]
        error: Option<Value>,
    }
}

agenthooks_core::kit::native_record! {
    /// `llm_request` on the model-level events: Gemini's decoupled request shape.
    pub struct LlmRequest {
        /// The model id the request goes to.
        model: Option<String>,
        /// The conversation so far.
        messages: Option<Vec<LlmMessage>>,
        /// Generation config (`temperature`, `topP`, `topK`, …), free shape.
        #[serde(deserialize_with = "lenient::present")]
        config: Option<Value>,
        /// Tool config (`mode` `AUTO|ANY|NONE`, `allowedFunctionNames`), free shape.
        #[serde(rename = "toolConfig", deserialize_with = "lenient::present")]
        tool_config: Option<Value>,
    }
}

agenthooks_core::kit::native_record! {
    /// One message of [`LlmRequest::messages`].
    pub struct LlmMessage {
        /// `user`, `model` or `system`.
        role: Option<String>,
        /// The message content: a string in 0.61.0, possibly parts in other versions.
        #[serde(deserialize_with = "lenient::present")]
        content: Option<Value>,
    }
}

agenthooks_core::kit::native_record! {
    /// `llm_response` on `AfterModel`: one streamed chunk (or a whole response).
    pub struct LlmResponse {
        /// The chunk's text, concatenated by Gemini (sent by 0.61.0, not in the reference).
        text: Option<String>,
        /// The candidates.
        candidates: Option<Vec<LlmCandidate>>,
        /// Token usage (`promptTokenCount`, `candidatesTokenCount`, `totalTokenCount`), free shape.
        #[serde(rename = "usageMetadata", deserialize_with = "lenient::present")]
        usage_metadata: Option<Value>,
    }
}

agenthooks_core::kit::native_record! {
    /// One candidate of [`LlmResponse::candidates`].
    pub struct LlmCandidate {
        /// The candidate's content.
        content: Option<LlmContent>,
        /// `STOP`, `MAX_TOKENS`, `SAFETY`, … (absent on intermediate chunks).
        #[serde(rename = "finishReason")]
        finish_reason: Option<String>,
        /// The candidate's index.
        index: Option<i64>,
    }
}

agenthooks_core::kit::native_record! {
    /// [`LlmCandidate::content`].
    pub struct LlmContent {
        /// Usually `model`.
        role: Option<String>,
        /// The parts: plain strings for text in 0.61.0, objects (`functionCall`, …) otherwise.
        parts: Option<Vec<Value>>,
    }
}

// ---------------------------------------------------------------------------------------------
// The 11 events
// ---------------------------------------------------------------------------------------------

agenthooks_core::kit::native_events! {
    /// Any Gemini CLI hook payload, decoded into its typed struct.
    ///
    /// `kind()` is the row's kind; a failed `AfterTool` (see [`AfterTool::is_error`]) is
    /// reported as `tool.error` by the codec.
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
            source: Option<String>,
        }
        /// `SessionEnd`: exit, `/clear` or logout. Best effort: Gemini does not wait for the
        /// hook.
        SessionEnd("SessionEnd", SessionEnd).caps(MESSAGE_ONLY) {
            /// `exit`, `clear`, `logout`, `prompt_input_exit` or `other`.
            reason: Option<String>,
        }
        /// `BeforeAgent`: a prompt was submitted, before planning (≈ Claude's
        /// `UserPromptSubmit`).
        BeforeAgent("BeforeAgent", PromptSubmitted, blocking)
            .caps(BEFORE_AGENT).fail(FailShape::Block).provider_only() {
            /// The submitted prompt.
            prompt: Option<String>,
        }
        /// `AfterAgent`: once per turn after the final answer (≈ Claude's `Stop`). A deny
        /// starts a new turn, so fail-closed answers the no-op here (#305).
        AfterAgent("AfterAgent", Stop, blocking).caps(AFTER_AGENT).provider_only() {
            /// The prompt of the turn that just finished.
            prompt: Option<String>,
            /// The agent's final answer.
            prompt_response: Option<String>,
            /// `true` when this turn is itself a retry caused by an earlier `AfterAgent` deny.
            #[serde(deserialize_with = "lenient::opt_bool")]
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
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// Set for MCP tools (since v0.25.0).
            mcp_context: Option<McpContext>,
            /// The name the model asked for when Gemini resolved it to another tool (an alias;
            /// since v0.31.0).
            original_request_name: Option<String>,
        }
        /// `AfterTool`: after a tool call, successful or not (errors in `tool_response.error`,
        /// which decides `tool.post` vs `tool.error`). No tool-call id is sent.
        AfterTool("AfterTool", ToolPost, blocking, tool_matcher)
            .caps(AFTER_TOOL).also(agenthooks_core::EventKind::ToolError).identify(&["tool_name", "tool_response"]).provider_only() {
            /// The tool's registry name (identifying: required).
            tool_name: String,
            /// The tool's arguments as they were run (after any `BeforeTool` rewrite).
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// The tool's result (decides the kind: see [`AfterTool::is_error`]).
            tool_response: Option<ToolResponse>,
            /// Set for MCP tools (since v0.25.0).
            mcp_context: Option<McpContext>,
            /// The name the model asked for when Gemini resolved it to another tool (since
            /// v0.31.0).
            original_request_name: Option<String>,
        }
        /// `BeforeModel`: before each LLM request. Gate: deny, partial request override,
        /// synthetic response. Experimental in the unified layer (hot path: fires for every
        /// model call).
        BeforeModel("BeforeModel", ModelRequest, blocking).caps(MODEL).provider_only() {
            /// The request about to be sent.
            llm_request: Option<LlmRequest>,
        }
        /// `AfterModel`: once per streamed response **chunk**. Gate: deny, replace the chunk.
        /// Experimental in the unified layer.
        AfterModel("AfterModel", ModelResponse, blocking).caps(MODEL).provider_only() {
            /// The request this chunk answers.
            llm_request: Option<LlmRequest>,
            /// The chunk.
            llm_response: Option<LlmResponse>,
        }
        /// `BeforeToolSelection`: before the model picks tools. Can only restrict the tools
        /// (`hookSpecificOutput.toolConfig`). Experimental in the unified layer; install wires
        /// `BeforeModel` for `model.request`, this one only when asked for by name.
        BeforeToolSelection("BeforeToolSelection", ModelRequest, blocking)
            .caps(MESSAGE_ONLY).provider_only().secondary() {
            /// The request the tool selection applies to.
            llm_request: Option<LlmRequest>,
        }
        /// `PreCompress`: before history compression. Advisory; Gemini does not wait for the
        /// hook.
        PreCompress("PreCompress", CompactPre).caps(MESSAGE_ONLY).provider_only() {
            /// `manual` or `auto`.
            trigger: Option<String>,
        }
        /// `Notification`: a system alert (only `ToolPermission` today). Observe only.
        Notification("Notification", Notification).caps(MESSAGE_ONLY) {
            /// `ToolPermission` (the matcher input, compared exactly).
            notification_type: Option<String>,
            /// The alert text.
            message: Option<String>,
            /// Details of the alert (for `ToolPermission`: the confirmation details), free
            /// shape.
            #[serde(deserialize_with = "lenient::present")]
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
