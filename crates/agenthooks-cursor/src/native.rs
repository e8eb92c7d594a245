//! Native Cursor hook payloads, one typed struct per event.
//!
//! Every field of the wire contract (`reference/providers/cursor.md` §3: current docs, the
//! 2026.09.18 CLI bundle, a 2026.02 live CLI probe and the 2.0-era docs) is a public field with
//! its wire name; every struct ends with an `extra` map that keeps any key this crate does not
//! know. The table at the end is the provider kit's `native_events!`: one row of facts per
//! event (kind, blocking, tool matcher, capabilities, fail-closed shape, identifying fields,
//! Cursor-only, secondary).
//!
//! Typing rules (tolerant decoding, `docs/codec-guide.md`):
//!
//! - Only `hook_event_name` and, on tool events, `tool_name` are required. Everything else is
//!   optional: the base fields `model_id`/`model_params` are newer builds only, `session_id`
//!   was on session events only before the 2026 CLI, `workspaceOpen` carries no conversation
//!   fields at all, the CLI omits `composer_mode`.
//! - `user_email`, `transcript_path` and `agent_transcript_path` are *always sent but
//!   nullable*: an `Option<Option<String>>` keeps an explicit `null` (`Some(None)`) apart from
//!   an absent key (`None`) and writes it back.
//! - `tool_input`, `tool_output` and `result_json` are free-shape [`Value`]s: an object on
//!   `preToolUse`, a JSON-encoded string on the MCP events and in `tool_output` (quirk #5).
//!   The codec normalizes them; the native view keeps them as sent.
//! - Durations and percentages are [`Number`]s (Cursor sends milliseconds, sometimes
//!   fractional); counts accept numeric strings.
//! - `attachments[].filePath` (the 1.7/2.0-era spelling) and `file_path` (current) are both
//!   typed.
//!
//! ```
//! use agenthooks_cursor::native::NativeEvent;
//! use agenthooks_core::Provider;
//!
//! let bytes = br#"{"hook_event_name":"beforeShellExecution","conversation_id":"c1",
//!     "generation_id":"g1","command":"ls","cwd":"/w","sandbox":false,"brand_new":1}"#;
//! let decoded = NativeEvent::decode(&Provider::CURSOR, bytes, None)?;
//! let NativeEvent::BeforeShellExecution(ev) = &decoded.native else { unreachable!() };
//! assert_eq!(ev.command.as_deref(), Some("ls"));
//! assert_eq!(ev.extra["brand_new"], 1);
//! # Ok::<(), agenthooks_core::DecodeError>(())
//! ```

// `Option<Option<String>>` is the point: absent (`None`) vs sent as `null` (`Some(None)`).
#![allow(clippy::option_option)]

use agenthooks_core::kit::lenient::{self, present};
use agenthooks_core::kit::FailShape;
use agenthooks_core::{CapSet, Capability as C};
use serde::{Deserialize, Deserializer};
use serde_json::{Number, Value};

/// Unknown keys of a payload object, in wire order.
pub use agenthooks_core::kit::{Extra, FromNative};

/// A nullable, always-sent field: `null` decodes as `Some(None)` and is written back.
fn nullable<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(de).map(Some)
}

agenthooks_core::kit::native_record! {
    /// One `{id, value}` model parameter (`model_params[]`, newer builds).
    pub struct ModelParam {
        /// The parameter (`thinking`, `context`, `effort`, …).
        id: Option<String>,
        /// Its value, as a string.
        #[serde(deserialize_with = "lenient::opt_text")]
        value: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// One attachment of a prompt or a file read (`attachments[]`).
    pub struct Attachment {
        /// `type`: `file` or `rule`.
        #[serde(rename = "type")]
        kind: Option<String>,
        /// `file_path` (current builds).
        file_path: Option<String>,
        /// `filePath`: the 1.7/2.0-era spelling.
        #[serde(rename = "filePath")]
        file_path_legacy: Option<String>,
    }
}

impl Attachment {
    /// The path, whichever spelling the build used.
    pub fn path(&self) -> Option<&str> {
        self.file_path.as_deref().or(self.file_path_legacy.as_deref())
    }
}

agenthooks_core::kit::native_record! {
    /// One agent edit (`afterFileEdit.edits[]`).
    pub struct FileEdit {
        /// The replaced text.
        old_string: Option<String>,
        /// The new text.
        new_string: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// A line/column range of a Tab edit.
    pub struct TabRange {
        /// First line (1-based).
        #[serde(deserialize_with = "lenient::opt_u64")]
        start_line_number: Option<u64>,
        /// First column.
        #[serde(deserialize_with = "lenient::opt_u64")]
        start_column: Option<u64>,
        /// Last line.
        #[serde(deserialize_with = "lenient::opt_u64")]
        end_line_number: Option<u64>,
        /// Last column.
        #[serde(deserialize_with = "lenient::opt_u64")]
        end_column: Option<u64>,
    }
}

agenthooks_core::kit::native_record! {
    /// One Tab (inline completion) edit (`afterTabFileEdit.edits[]`).
    pub struct TabEdit {
        /// The edited range.
        range: Option<TabRange>,
        /// The line before.
        old_line: Option<String>,
        /// The line after.
        new_line: Option<String>,
    }
}

// ---------------------------------------------------------------------------------------------
// What Cursor honours, per event (the rows' `caps`: the union over variants and builds; the
// codec narrows per decoded event, see `CursorCodec::event_capabilities`)
// ---------------------------------------------------------------------------------------------

/// `preToolUse`: allow/deny, `updated_input` (also without a verdict, BUNDLE: #606); `ask` is
/// parsed but not enforced, so it is not a capability.
pub const PRE_TOOL: CapSet = CapSet::of(&[C::Allow, C::Deny, C::UpdateInput, C::NeutralRewrite]);
/// `beforeShellExecution`, `beforeMCPExecution`: allow/deny/ask.
pub const SHELL_MCP_GATE: CapSet = CapSet::of(&[C::Allow, C::Deny, C::Ask]);
/// `beforeReadFile`: allow/deny only.
pub const READ_GATE: CapSet = CapSet::of(&[C::Allow, C::Deny]);
/// `postToolUse`: context; `updated_mcp_tool_output` on MCP tools only.
pub const POST_TOOL: CapSet = CapSet::of(&[C::AddContext, C::ReplaceOutput]);
/// `afterMCPExecution`: `updated_mcp_tool_output` (Go prototype; docs list no output: #603).
pub const AFTER_MCP: CapSet = CapSet::of(&[C::ReplaceOutput]);
/// `beforeSubmitPrompt`: `continue: false` blocks; `additional_context` on 2026.09+ CLI builds
/// (BUNDLE, undocumented: #602).
pub const PROMPT: CapSet = CapSet::of(&[C::Deny, C::AddContext]);
/// `sessionStart`: `additional_context` (and `env`, which has no unified intent).
pub const SESSION_START: CapSet = CapSet::of(&[C::AddContext]);
/// `stop`, `subagentStop`: `followup_message`.
pub const STOP: CapSet = CapSet::of(&[C::ContinueAgent]);
/// `preCompact`: `user_message`.
pub const PRE_COMPACT: CapSet = CapSet::of(&[C::SystemMessage]);

/// The identifying field of tool events.
const TOOL: &[&str] = &["tool_name"];
/// The identifying field of the shell events (they name no tool: the command is the call).
const COMMAND: &[&str] = &["command"];
/// The identifying field of `beforeReadFile` (the path is the call).
const FILE: &[&str] = &["file_path"];

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

agenthooks_core::kit::native_events! {
    /// A decoded Cursor hook payload: one variant per native event of the reference (21), plus
    /// [`NativeEvent::Other`] for events this crate does not know.
    name_key Some("hook_event_name");
    common {
        /// `conversation_id`: stable across turns (the session id).
        conversation_id: Option<String>,
        /// `generation_id`: changes per user message (the turn id).
        generation_id: Option<String>,
        /// `model`: the legacy model slug.
        model: Option<String>,
        /// `model_id`: the structured model id (newer builds).
        model_id: Option<String>,
        /// `model_params`: `[{id, value}]` (newer builds).
        model_params: Option<Vec<ModelParam>>,
        /// `hook_event_name`: the camelCase event name.
        hook_event_name: Option<String>,
        /// `cursor_version`: IDE `2.x.y`; CLI build `YYYY.MM.DD-<hash>`.
        cursor_version: Option<String>,
        /// `workspace_roots`: one or more roots (the CLI sends one).
        #[serde(deserialize_with = "lenient::opt_string_list")]
        workspace_roots: Option<Vec<String>>,
        /// `user_email`: `null` when not logged in (`Some(None)`).
        #[serde(deserialize_with = "nullable")]
        user_email: Option<Option<String>>,
        /// `transcript_path`: `null` when transcripts are off (`Some(None)`).
        #[serde(deserialize_with = "nullable")]
        transcript_path: Option<Option<String>>,
        /// `session_id`: = `conversation_id` (CLI: every event; docs: session events).
        session_id: Option<String>,
    }
    events {
        /// `sessionStart`: a composer conversation was created. `env` and `additional_context`
        /// are read (the CLI awaits the hook); `continue` is accepted but not enforced.
        SessionStart("sessionStart", SessionStart, blocking).caps(SESSION_START) {
            /// Whether the conversation is a background (cloud) agent.
            #[serde(deserialize_with = "lenient::opt_bool")]
            is_background_agent: Option<bool>,
            /// `agent`, `ask` or `edit` (the CLI omits it).
            composer_mode: Option<String>,
        }
        /// `sessionEnd`: the conversation ended (the response is ignored).
        SessionEnd("sessionEnd", SessionEnd) {
            /// `completed`, `aborted`, `error`, `window_close`, `user_close`.
            reason: Option<String>,
            /// Duration of the conversation, in milliseconds.
            duration_ms: Option<Number>,
            /// Whether it was a background agent.
            #[serde(deserialize_with = "lenient::opt_bool")]
            is_background_agent: Option<bool>,
            /// The final status text.
            final_status: Option<String>,
            /// The error, when it ended in one.
            error_message: Option<String>,
        }
        /// `beforeSubmitPrompt`: the user hit send. Gate: `continue: false`. Matcher: the literal
        /// `UserPromptSubmit`.
        BeforeSubmitPrompt("beforeSubmitPrompt", PromptSubmitted, blocking).caps(PROMPT).fail(FailShape::Block).provider_only() {
            /// The prompt text.
            prompt: Option<String>,
            /// Attached files and rules.
            attachments: Option<Vec<Attachment>>,
        }
        /// `preToolUse`: before any tool (`Shell`, `Read`, `Write`, `MCP:<tool>`, …). Gate:
        /// allow/deny (`ask` not enforced); `updated_input`. Matcher: tool name.
        PreToolUse("preToolUse", ToolPre, blocking, tool_matcher).caps(PRE_TOOL).fail(FailShape::Block).identify(TOOL) {
            /// Tool name, verbatim (`Shell`, `Read`, `MCP:create_issue`, …).
            tool_name: String,
            /// Tool arguments (an object).
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// Tool-call id; may hold two parts, `call_…\nctc_…` (kept verbatim).
            #[serde(deserialize_with = "lenient::opt_text")]
            tool_use_id: Option<String>,
            /// Working directory.
            cwd: Option<String>,
            /// The model's message for the call, when any.
            agent_message: Option<String>,
        }
        /// `postToolUse`: a tool succeeded (Shell: exit code 0 only). Context; MCP output
        /// rewrite. Matcher: tool name.
        PostToolUse("postToolUse", ToolPost, blocking, tool_matcher).caps(POST_TOOL).identify(TOOL) {
            /// Tool name, verbatim.
            tool_name: String,
            /// Tool arguments.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// The output, a JSON-encoded string (Shell: `{"output":…,"exitCode":…}`).
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_output: Option<agenthooks_core::RawJson>,
            /// Tool-call id.
            #[serde(deserialize_with = "lenient::opt_text")]
            tool_use_id: Option<String>,
            /// Working directory.
            cwd: Option<String>,
            /// Run time in milliseconds.
            duration: Option<Number>,
        }
        /// `postToolUseFailure`: a tool failed, timed out or was denied. Matcher: tool name.
        PostToolUseFailure("postToolUseFailure", ToolError, tool_matcher).identify(TOOL).provider_only() {
            /// Tool name, verbatim.
            tool_name: String,
            /// Tool arguments.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// Tool-call id.
            #[serde(deserialize_with = "lenient::opt_text")]
            tool_use_id: Option<String>,
            /// Working directory.
            cwd: Option<String>,
            /// The error text.
            error_message: Option<String>,
            /// `error`, `timeout` or `permission_denied`.
            failure_type: Option<String>,
            /// Run time in milliseconds.
            duration: Option<Number>,
            /// Whether the user interrupted the tool.
            #[serde(deserialize_with = "lenient::opt_bool")]
            is_interrupt: Option<bool>,
        }
        /// `subagentStart`: before a Task subagent spawns. Cursor gates it (allow/deny, `ask` =
        /// deny), but `subagent.start` has no gate in the unified model: the permission is
        /// native-only. Matcher: subagent type.
        SubagentStart("subagentStart", SubagentStart, blocking).fail(FailShape::Block) {
            /// Subagent id.
            subagent_id: Option<String>,
            /// `generalPurpose`, `explore`, `shell`, …
            subagent_type: Option<String>,
            /// The task given to the subagent.
            task: Option<String>,
            /// The parent conversation.
            parent_conversation_id: Option<String>,
            /// The Task tool call that spawns it.
            #[serde(deserialize_with = "lenient::opt_text")]
            tool_call_id: Option<String>,
            /// The subagent's model.
            subagent_model: Option<String>,
            /// Whether it runs as a parallel worker.
            #[serde(deserialize_with = "lenient::opt_bool")]
            is_parallel_worker: Option<bool>,
            /// The git branch, when any.
            git_branch: Option<String>,
        }
        /// `subagentStop`: a subagent completed, errored or was aborted. `followup_message`
        /// (only when `status` is `completed`). Matcher: subagent type.
        SubagentStop("subagentStop", SubagentStop, blocking).caps(STOP) {
            /// Subagent type.
            subagent_type: Option<String>,
            /// `completed`, `error` or `aborted`.
            status: Option<String>,
            /// The task.
            task: Option<String>,
            /// The task's description.
            description: Option<String>,
            /// The subagent's summary.
            summary: Option<String>,
            /// Run time in milliseconds.
            duration_ms: Option<Number>,
            /// Messages exchanged.
            #[serde(deserialize_with = "lenient::opt_u64")]
            message_count: Option<u64>,
            /// Tool calls made.
            #[serde(deserialize_with = "lenient::opt_u64")]
            tool_call_count: Option<u64>,
            /// Prior follow-ups in this loop (#19).
            #[serde(deserialize_with = "lenient::opt_u64")]
            loop_count: Option<u64>,
            /// Files the subagent modified.
            #[serde(deserialize_with = "lenient::opt_string_list")]
            modified_files: Option<Vec<String>>,
            /// The subagent's transcript (`null` when none).
            #[serde(deserialize_with = "nullable")]
            agent_transcript_path: Option<Option<String>>,
            /// Subagent id (seen by the live probe).
            subagent_id: Option<String>,
            /// Parent conversation (seen by the live probe).
            parent_conversation_id: Option<String>,
        }
        /// `beforeShellExecution`: before a shell command. Gate: allow/deny/ask. Matcher: the
        /// full command string (so install writes none; the runner filters).
        BeforeShellExecution("beforeShellExecution", ToolPre, blocking).caps(SHELL_MCP_GATE).fail(FailShape::Block).identify(COMMAND).provider_only() {
            /// The command line.
            command: Option<String>,
            /// Working directory.
            cwd: Option<String>,
            /// Whether the command runs sandboxed.
            #[serde(deserialize_with = "lenient::opt_bool")]
            sandbox: Option<bool>,
        }
        /// `afterShellExecution`: after a shell command (response awaited, then discarded).
        AfterShellExecution("afterShellExecution", ToolPost).identify(COMMAND).secondary().provider_only() {
            /// The command line.
            command: Option<String>,
            /// Its output.
            output: Option<String>,
            /// Run time in milliseconds (approval wait excluded).
            duration: Option<Number>,
            /// Whether it ran sandboxed.
            #[serde(deserialize_with = "lenient::opt_bool")]
            sandbox: Option<bool>,
        }
        /// `beforeMCPExecution`: before an MCP tool call. Gate: allow/deny/ask. No tool-call id
        /// (#3).
        BeforeMcpExecution("beforeMCPExecution", ToolPre, blocking).caps(SHELL_MCP_GATE).fail(FailShape::Block).identify(TOOL).provider_only() {
            /// The tool, as the server knows it.
            tool_name: String,
            /// Its arguments, a JSON-encoded string (#5).
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// The server's key in `mcp.json`.
            mcp_server_name: Option<String>,
            /// HTTP/SSE transport URL.
            url: Option<String>,
            /// HTTP/SSE server URL.
            mcp_server_url: Option<String>,
            /// stdio launch line.
            command: Option<String>,
        }
        /// `afterMCPExecution`: after an MCP tool call; `updated_mcp_tool_output` (#603).
        AfterMcpExecution("afterMCPExecution", ToolPost, blocking).caps(AFTER_MCP).identify(TOOL).secondary().provider_only() {
            /// The tool, as the server knows it.
            tool_name: String,
            /// Its arguments, a JSON-encoded string.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// The server's key in `mcp.json`.
            mcp_server_name: Option<String>,
            /// HTTP/SSE server URL.
            mcp_server_url: Option<String>,
            /// The result, a JSON-encoded string.
            #[serde(deserialize_with = "present")]
            result_json: Option<Value>,
            /// Run time in milliseconds.
            duration: Option<Number>,
        }
        /// `beforeReadFile`: the agent reads a file. Gate: allow/deny only. Matcher: tool type
        /// (`Read`, `TabRead`).
        BeforeReadFile("beforeReadFile", ToolPre, blocking).caps(READ_GATE).fail(FailShape::Block).identify(FILE).provider_only() {
            /// Absolute path.
            file_path: Option<String>,
            /// The full file content.
            content: Option<String>,
            /// Attached files and rules.
            attachments: Option<Vec<Attachment>>,
        }
        /// `afterFileEdit`: the agent edited a file.
        AfterFileEdit("afterFileEdit", FileEdited).provider_only() {
            /// Absolute path.
            file_path: Option<String>,
            /// The edits.
            edits: Option<Vec<FileEdit>>,
        }
        /// `beforeTabFileRead`: Tab reads a file. Cursor gates it (allow/deny), but it is unmapped
        /// (`other`): the permission is native-only; fail-closed still denies.
        BeforeTabFileRead("beforeTabFileRead", Other).fail(FailShape::Block).provider_only() {
            /// Absolute path.
            file_path: Option<String>,
            /// The file content.
            content: Option<String>,
        }
        /// `afterTabFileEdit`: Tab edited a file.
        AfterTabFileEdit("afterTabFileEdit", FileEdited).secondary().provider_only() {
            /// Absolute path.
            file_path: Option<String>,
            /// The edits.
            edits: Option<Vec<TabEdit>>,
        }
        /// `afterAgentResponse`: an assistant message completed.
        AfterAgentResponse("afterAgentResponse", ModelResponse).provider_only() {
            /// The message text.
            text: Option<String>,
        }
        /// `afterAgentThought`: a thinking block completed.
        AfterAgentThought("afterAgentThought", ModelResponse).secondary().provider_only() {
            /// The thought text.
            text: Option<String>,
            /// Thinking time in milliseconds.
            duration_ms: Option<Number>,
        }
        /// `preCompact`: before context compaction (observational; `user_message`).
        PreCompact("preCompact", CompactPre, blocking).caps(PRE_COMPACT) {
            /// `auto` or `manual`.
            trigger: Option<String>,
            /// Context usage, in percent.
            context_usage_percent: Option<Number>,
            /// Tokens in context.
            #[serde(deserialize_with = "lenient::opt_u64")]
            context_tokens: Option<u64>,
            /// The context window.
            #[serde(deserialize_with = "lenient::opt_u64")]
            context_window_size: Option<u64>,
            /// Messages in context.
            #[serde(deserialize_with = "lenient::opt_u64")]
            message_count: Option<u64>,
            /// Messages about to be compacted.
            #[serde(deserialize_with = "lenient::opt_u64")]
            messages_to_compact: Option<u64>,
            /// Whether this is the first compaction.
            #[serde(deserialize_with = "lenient::opt_bool")]
            is_first_compaction: Option<bool>,
        }
        /// `stop`: the agent loop ended. `followup_message`. Matcher: the literal `Stop`.
        Stop("stop", Stop, blocking).caps(STOP) {
            /// `completed`, `aborted` or `error`.
            status: Option<String>,
            /// Prior follow-ups in this loop (#19).
            #[serde(deserialize_with = "lenient::opt_u64")]
            loop_count: Option<u64>,
        }
        /// `workspaceOpen`: a workspace opened or its folders changed (IDE and CLI). Reads
        /// `pluginPaths`, which has no unified intent. Carries the base subset only.
        WorkspaceOpen("workspaceOpen", Other).provider_only() {}
    }
}
