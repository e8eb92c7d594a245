//! Native Claude Code hook payloads, one typed struct per event.
//!
//! These structs are the fidelity layer of the Claude codec: every field of the wire contract of
//! Claude Code 2.1.332 (`reference/providers/claude-code.md` §2) is a public field with its wire
//! name, and every struct ends with an `extra` map that captures any key this crate does not know
//! yet, so a field added by a newer Claude release is kept, never dropped.
//!
//! The table at the end of this module is the provider kit's `native_events!` (see
//! `agenthooks_core::kit`): one row per native event with its facts (kind, blocking, tool
//! matcher, capabilities, fail-closed shape, identifying fields, async, Claude-only), the
//! common fields every payload carries, and each event's own fields.
//!
//! Typing rules (tolerant decoding, `docs/codec-guide.md`), applied uniformly:
//!
//! - Only the fields that identify an event are required: `hook_event_name` (or the `--event`
//!   hint: releases before 1.0.41 sent no name) and `tool_name` on tool events. Every other
//!   field is an `Option<T>`, omitted again on serialization when absent: older releases lack
//!   `cwd` (< 1.0.54), `tool_use_id` (< 2.0.43), `notification_type` (< 2.0.37, and missing on
//!   permission-prompt notifications in 2.0.4x), `agent_id`/`agent_type` (< 2.1.69),
//!   `last_assistant_message` (< 2.1.47), `duration_ms` (< 2.1.119).
//! - A value of a shape no release sent does not fail the event: it is kept in `extra` and
//!   reported in `Envelope::projection_issues`.
//! - A field whose value is *nullable but always sent* (`PreCompact.custom_instructions`,
//!   `Pre/PostModelSwitch.requested_model`) is an `Option<T>` that serializes `null` back.
//! - A field of free or version-dependent shape (schemas, pricing) is a [`serde_json::Value`];
//!   the large ones (`tool_input`, `tool_response`) are a [`RawJson`]: the raw text, parsed on
//!   first access and shared with the projection. Where such a field is optional, an explicit
//!   JSON `null` decodes as `Some(null)`, so "absent" and "null" stay distinguishable.
//! - Enumerations Claude extends over time (`source`, `reason`, `trigger`, `permission_mode`,
//!   `notification_type`, `error`, …) are plain `String`s: an unknown value is data, not an
//!   error. The known values are listed in each field's docs.
//!
//! Decode a payload with [`NativeEvent::decode`]; an event name this crate does not know
//! (a future Claude release) decodes as [`NativeEvent::Other`] with every key intact.
//!
//! ```
//! use agenthooks_claude::native::NativeEvent;
//! use agenthooks_core::Provider;
//!
//! let bytes = br#"{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w",
//!     "hook_event_name":"PreToolUse","tool_name":"Bash",
//!     "tool_input":{"command":"ls"},"tool_use_id":"toolu_1","brand_new":1}"#;
//! let decoded = NativeEvent::decode(&Provider::CLAUDE_CODE, bytes, None)?;
//! let NativeEvent::PreToolUse(ev) = &decoded.native else {
//!     unreachable!()
//! };
//! assert_eq!(ev.tool_name, "Bash");
//! assert_eq!(ev.extra["brand_new"], 1);
//! # Ok::<(), agenthooks_core::DecodeError>(())
//! ```

use agenthooks_core::kit::lenient::{self, present, some};
use agenthooks_core::kit::FailShape;
use agenthooks_core::RawJson;
use agenthooks_core::{CapSet, Capability as C};
use serde_json::{Number, Value};

/// Unknown keys of a payload object, in wire order.
pub use agenthooks_core::kit::Extra;

agenthooks_core::kit::native_record! {
    /// Reasoning effort of the current model call (`effort` on tool-context events).
    pub struct Effort {
        /// Effort level: `low`, `medium`, `high`, `xhigh`, `max` as of 2.1.332.
        level: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// The MCP server a tool belongs to (`mcp_server`, since ~2.1.3xx).
    pub struct McpServer {
        /// The server's configured name (not the normalized segment of `mcp__<server>__<tool>`).
        name: String,
        /// Where the server is configured: `user`, `project`, `local`, `plugin`, `claudeai`,
        /// `managed`, … Identifies plugin and claude.ai servers (quirk #26).
        source: Option<String>,
    }
}

agenthooks_core::kit::native_record! {
    /// One resolved call of a parallel batch (`PostToolBatch.tool_calls[]`).
    pub struct BatchToolCall {
        /// Native tool name, verbatim (`Bash`, `mcp__github__create_issue`, …).
        tool_name: String,
        /// Tool arguments as the model produced them.
        #[serde(deserialize_with = "some")]
        tool_input: Option<RawJson>,
        /// Claude's tool-use id (`toolu_…`).
        tool_use_id: Option<String>,
        /// The result text or object fed back to the model; for a denied call, the denial text.
        #[serde(deserialize_with = "some")]
        tool_response: Option<RawJson>,
    }
}

// ---------------------------------------------------------------------------------------------
// What Claude honours, per event (the rows' `caps`)
// ---------------------------------------------------------------------------------------------

/// `PreToolUse`: allow, deny, ask, rewrite, context, stop, system message.
pub const TOOL_GATE: CapSet = CapSet::of(&[
    C::Allow,
    C::Deny,
    C::Ask,
    C::UpdateInput,
    C::AddContext,
    C::StopAgent,
    C::SystemMessage,
]);
/// `PreSkillShellCommand`: deny or ask only (no allow, no rewrite).
pub const SKILL_GATE: CapSet = CapSet::of(&[C::Deny, C::Ask, C::StopAgent, C::SystemMessage]);
/// `PermissionRequest`: allow (with a rewrite) or deny; the agent's own dialog follows an abstention.
// Fired just before Claude's own permission dialog: abstaining lets the user decide (an ask is
// answered no decision). Does not fire in `-p` mode, so no headless case to recognise.
pub const PERMISSION: CapSet = CapSet::of(&[
    C::Allow,
    C::Deny,
    C::UpdateInput,
    C::StopAgent,
    C::SystemMessage,
    C::PermissionDialog,
]);
/// `PostToolUse`: context, output replacement, feedback.
pub const POST_TOOL: CapSet = CapSet::of(&[
    C::AddContext,
    C::ReplaceOutput,
    C::FlagOutput,
    C::StopAgent,
    C::SystemMessage,
]);
/// `UserPromptSubmit`: block the prompt, context.
pub const PROMPT: CapSet = CapSet::of(&[C::Deny, C::AddContext, C::StopAgent, C::SystemMessage]);
/// `Stop`/`SubagentStop`: continue the agent, context.
pub const STOP: CapSet = CapSet::of(&[C::ContinueAgent, C::AddContext, C::StopAgent, C::SystemMessage]);
/// In-loop events that take context and can stop the agent.
pub const LOOP_CONTEXT: CapSet = CapSet::of(&[C::AddContext, C::StopAgent, C::SystemMessage]);
/// Events that take context but are not in the middle of the agent loop.
pub const CONTEXT: CapSet = CapSet::of(&[C::AddContext, C::SystemMessage]);
/// Events whose JSON output Claude reads but whose specific fields have no unified intent
/// (and every future event: Claude parses every hook's JSON output for `systemMessage`).
pub const NOTICE: CapSet = CapSet::of(&[C::SystemMessage]);

/// The identifying field of tool events.
const TOOL: &[&str] = &["tool_name"];

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

agenthooks_core::kit::native_events! {
    /// A decoded Claude Code hook payload: one variant per native event of Claude Code
    /// 2.1.332, plus [`NativeEvent::Other`] for events this crate does not know.
    name_key Some("hook_event_name");
    common {
        /// `session_id`: the Claude session UUID.
        session_id: Option<String>,
        /// `transcript_path`: path of the session's JSONL transcript (of the *main* session
        /// on subagent events).
        transcript_path: Option<String>,
        /// `cwd`: the working directory when the hook fired (since 1.0.54).
        cwd: Option<String>,
        /// `hook_event_name`: the native event name (since 1.0.41).
        hook_event_name: Option<String>,
        /// `permission_mode`: `default`, `plan`, `acceptEdits`, `auto`, `dontAsk`,
        /// `bypassPermissions`, … (not sent on every event).
        permission_mode: Option<String>,
        /// `prompt_id`: UUID of the current user prompt; absent before the first prompt.
        prompt_id: Option<String>,
        /// `agent_id`: the subagent id, inside a subagent (and on subagent events).
        agent_id: Option<String>,
        /// `agent_type`: the subagent type (inside a subagent, on subagent events, or the main
        /// thread of an `--agent` session).
        agent_type: Option<String>,
        /// `effort`: reasoning effort, on tool-context events (an object since 2.1.133).
        effort: Option<Effort>,
        /// `scratchpad_dir`: internal; the session's scratch directory.
        scratchpad_dir: Option<String>,
        /// `served_call`: internal; shape not part of the public contract.
        #[serde(deserialize_with = "present")]
        served_call: Option<Value>,
        /// `caller_session_id`: internal; the calling session when one session serves
        /// another.
        caller_session_id: Option<String>,
    }
    events {
        /// `PreToolUse`: the model built a tool call; fires before it runs. Gate: allow, deny, ask,
        /// defer; may rewrite the input. Matcher: tool name.
        PreToolUse("PreToolUse", ToolPre, blocking, tool_matcher).caps(TOOL_GATE).fail(FailShape::Block).identify(TOOL).may_async() {
            /// Native tool name, verbatim (`Bash`, `Edit`, `mcp__github__create_issue`, …).
            tool_name: String,
            /// Tool arguments as the model produced them (a JSON object on every known version).
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// Claude's tool-use id (`toolu_…`); the same id arrives on the matching post event.
            tool_use_id: Option<String>,
            /// The MCP server of an MCP tool (since ~2.1.3xx).
            mcp_server: Option<McpServer>,
        }
        /// `PermissionRequest`: a permission dialog is about to show. Gate: allow (optionally with
        /// rewritten input and permission updates) or deny. Matcher: tool name.
        PermissionRequest("PermissionRequest", Permission, blocking, tool_matcher).caps(PERMISSION).fail(FailShape::Block).identify(TOOL).may_async() {
            /// Native tool name, verbatim.
            tool_name: String,
            /// Tool arguments.
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// Suggested permission updates ("always allow" choices), as Claude would offer them:
            /// objects like `{"type":"addRules","rules":[…],"behavior":"allow","destination":…}`.
            permission_suggestions: Option<Vec<Value>>,
            /// The MCP server of an MCP tool.
            mcp_server: Option<McpServer>,
            /// Not sent by 2.1.332 (the reference says so explicitly); typed here so that a
            /// release which adds it is correlated with the tool events at once.
            tool_use_id: Option<String>,
        }
        /// `PermissionDenied`: a call was denied (for example by the auto-mode classifier). The
        /// hook may ask for a `retry`. Matcher: tool name.
        PermissionDenied("PermissionDenied", Other, blocking, tool_matcher).caps(NOTICE).identify(TOOL).provider_only().may_async() {
            /// Native tool name, verbatim.
            tool_name: String,
            /// Tool arguments.
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// Claude's tool-use id.
            tool_use_id: Option<String>,
            /// Why the call was denied.
            reason: Option<String>,
            /// The MCP server of an MCP tool.
            mcp_server: Option<McpServer>,
        }
        /// `PostToolUse`: the tool succeeded. Feedback (`decision:"block"`), context, output
        /// replacement. Matcher: tool name.
        PostToolUse("PostToolUse", ToolPost, blocking, tool_matcher).caps(POST_TOOL).identify(TOOL).may_async() {
            /// Native tool name, verbatim.
            tool_name: String,
            /// Tool arguments.
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// The tool's result, of any shape (Bash: `{stdout, stderr, interrupted, isImage, …}`).
            #[serde(deserialize_with = "some")]
            tool_response: Option<RawJson>,
            /// Claude's tool-use id.
            tool_use_id: Option<String>,
            /// Wall-clock run time of the tool, in milliseconds.
            #[serde(deserialize_with = "lenient::opt_u64")]
            duration_ms: Option<u64>,
            /// The MCP server of an MCP tool.
            mcp_server: Option<McpServer>,
        }
        /// `PostToolUseFailure`: the tool failed or was interrupted. Context only. Matcher: tool
        /// name.
        PostToolUseFailure("PostToolUseFailure", ToolError, blocking, tool_matcher).caps(LOOP_CONTEXT).identify(TOOL).may_async() {
            /// Native tool name, verbatim.
            tool_name: String,
            /// Tool arguments.
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// Claude's tool-use id.
            tool_use_id: Option<String>,
            /// The error text fed back to the model.
            error: Option<String>,
            /// `true` when the user interrupted the tool.
            is_interrupt: Option<bool>,
            /// Wall-clock run time of the tool, in milliseconds.
            #[serde(deserialize_with = "lenient::opt_u64")]
            duration_ms: Option<u64>,
            /// The MCP server of an MCP tool.
            mcp_server: Option<McpServer>,
        }
        /// `PostToolBatch`: fires once after a whole parallel batch of tool calls resolved.
        /// `decision:"block"` and context.
        PostToolBatch("PostToolBatch", Other, blocking).caps(LOOP_CONTEXT).provider_only().may_async() {
            /// Every call of the batch, in the order the model issued them.
            tool_calls: Option<Vec<BatchToolCall>>,
        }
        /// `UserPromptSubmit`: a prompt was submitted, before the model sees it. Gate:
        /// `decision:"block"`; context.
        UserPromptSubmit("UserPromptSubmit", PromptSubmitted, blocking).caps(PROMPT).fail(FailShape::Block).may_async() {
            /// The prompt text.
            prompt: Option<String>,
            /// Who submitted it: `user`, `sdk`, `system`, `loop_wakeup`, `schedule_wakeup`,
            /// `poll_event`.
            source: Option<String>,
            /// The session's current title.
            session_title: Option<String>,
        }
        /// `UserPromptExpansion`: a slash command or MCP prompt expands. Gate: `decision:"block"`.
        /// Matcher: command name.
        UserPromptExpansion("UserPromptExpansion", Other, blocking).caps(LOOP_CONTEXT).fail(FailShape::Block).provider_only().may_async() {
            /// `slash_command` or `mcp_prompt`.
            expansion_type: Option<String>,
            /// The command being expanded (without the leading `/`).
            command_name: Option<String>,
            /// The arguments typed after the command (a string on known versions; kept as any JSON
            /// value because MCP prompts take structured arguments).
            #[serde(deserialize_with = "present")]
            command_args: Option<Value>,
            /// Where the command is defined (`user`, `project`, `plugin`, `mcp`, …).
            command_source: Option<String>,
            /// The expanded prompt text.
            prompt: Option<String>,
        }
        /// `PreSkillShellCommand`: a skill's embedded shell command is about to run (closes part of
        /// blind spot #16). Gate: deny, ask, defer; `updatedInput` is never applied (and blocks).
        PreSkillShellCommand("PreSkillShellCommand", ToolPre, blocking, tool_matcher).caps(SKILL_GATE).fail(FailShape::Block).identify(TOOL).provider_only().secondary().may_async() {
            /// The shell tool that will run the command: `Bash` or `PowerShell`.
            tool_name: String,
            /// `{command, …}`: the command line to run.
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// A synthetic tool-use id minted by Claude for this command (no model tool call
            /// exists).
            tool_use_id: Option<String>,
            /// The skill or slash command that embeds the shell command.
            command_name: Option<String>,
            /// Where the command is defined (`user`, `project`, `plugin`, …).
            command_source: Option<String>,
            /// Who invoked the skill: `user`, `claude` or `other`.
            invoked_by: Option<String>,
        }
        /// `Stop`: the main agent is about to finish its turn. Gate: `decision:"block"` + `reason`
        /// continues the agent with the reason as the instruction.
        Stop("Stop", Stop, blocking).caps(STOP) {
            /// `true` when this stop follows a continuation a Stop hook forced (loop guard,
            /// quirk #19).
            #[serde(deserialize_with = "lenient::opt_bool")]
            stop_hook_active: Option<bool>,
            /// The final assistant text of the turn.
            last_assistant_message: Option<String>,
            /// Background tasks still running.
            background_tasks: Option<Vec<Value>>,
            /// Scheduled (cron) prompts of the session.
            session_crons: Option<Vec<Value>>,
        }
        /// `SubagentStop`: a subagent is about to finish. Gate: `decision:"block"` continues it.
        /// Matcher: agent type.
        SubagentStop("SubagentStop", SubagentStop, blocking).caps(STOP).may_async() {
            /// `true` when this stop follows a continuation a hook forced (quirk #19).
            #[serde(deserialize_with = "lenient::opt_bool")]
            stop_hook_active: Option<bool>,
            /// Path of the subagent's own transcript.
            agent_transcript_path: Option<String>,
            /// The subagent's final assistant text.
            last_assistant_message: Option<String>,
            /// Background tasks still running.
            background_tasks: Option<Vec<Value>>,
            /// Scheduled (cron) prompts of the session.
            session_crons: Option<Vec<Value>>,
        }
        /// `StopFailure`: the turn ended because of an API error. Not a gate. Matcher: error type.
        StopFailure("StopFailure", Other).may_async() {
            /// `rate_limit`, `overloaded`, `authentication_failed`, `billing_error`,
            /// `invalid_request`, `server_error`, `max_output_tokens`, `unknown`, …
            error: Option<String>,
            /// Details of the error (text or object, as the API reported it).
            #[serde(deserialize_with = "present")]
            error_details: Option<Value>,
            /// The last assistant text before the failure.
            last_assistant_message: Option<String>,
        }
        /// `SessionStart`: a session starts, resumes, is cleared, compacted or forked. Context
        /// only. Matcher: `source`. (`agent_type`, which the reference lists here, is the base
        /// field.)
        SessionStart("SessionStart", SessionStart, blocking).caps(CONTEXT).may_async() {
            /// `startup`, `resume`, `clear`, `compact` or `fork`.
            source: Option<String>,
            /// The session's model.
            model: Option<String>,
            /// The session's title.
            session_title: Option<String>,
            /// Seconds since the last model response (resume).
            seconds_since_last_response: Option<Number>,
            /// Tokens currently in context.
            context_tokens: Option<Number>,
            /// `true` when the prompt cache has most likely expired.
            prompt_cache_likely_expired: Option<bool>,
            /// Estimated cost of re-writing the cache, in USD.
            estimated_cache_write_usd: Option<Number>,
        }
        /// `SessionEnd`: the session ends. Not a gate. Matcher: `reason`.
        SessionEnd("SessionEnd", SessionEnd).may_async() {
            /// `clear`, `resume`, `logout`, `prompt_input_exit` or `other`.
            reason: Option<String>,
        }
        /// `Setup`: `--init` or a maintenance run. Context only. Matcher: `trigger`.
        Setup("Setup", Other, blocking).caps(CONTEXT).provider_only().may_async() {
            /// `init` or `maintenance`.
            trigger: Option<String>,
        }
        /// `SubagentStart`: a subagent was spawned. Context only. Matcher: agent type.
        SubagentStart("SubagentStart", SubagentStart, blocking).caps(CONTEXT).may_async() {
        }
        /// `PreCompact`: before compaction. Gate: `decision:"block"`. Matcher: `manual`/`auto`.
        PreCompact("PreCompact", CompactPre, blocking).caps(NOTICE).fail(FailShape::Block).may_async() {
            /// `manual` or `auto`.
            trigger: Option<String>,
            /// The instructions given to `/compact` (`null` when none; always sent).
            write_null custom_instructions: Option<String>,
        }
        /// `PostCompact`: after compaction. Not a gate. Matcher: `manual`/`auto`.
        PostCompact("PostCompact", CompactPost).caps(NOTICE).may_async() {
            /// `manual` or `auto`.
            trigger: Option<String>,
            /// The summary that replaced the conversation.
            compact_summary: Option<String>,
        }
        /// `PreModelSwitch`: the model is about to change. Gate: allow, deny, ask. Matcher: source
        /// (a `[1m]`/`[2m]` suffix is stripped).
        PreModelSwitch("PreModelSwitch", Other, blocking).caps(NOTICE).fail(FailShape::Block).provider_only().may_async()
        // …and, with the same fields:
        |
        /// `PostModelSwitch`: the model changed. Context only.
        PostModelSwitch("PostModelSwitch", Other, blocking).caps(CONTEXT).provider_only().may_async() {
            /// The current (on `PostModelSwitch`: the previous) model.
            from_model: Option<String>,
            /// The model being switched to (on `PostModelSwitch`: the new one).
            to_model: Option<String>,
            /// The model the user asked for, when it differs from the resolved one (`null`
            /// otherwise; always sent).
            write_null requested_model: Option<String>,
            /// What triggered the switch (`user`, `fallback`, …).
            source: Option<String>,
            /// Tokens currently in context.
            context_tokens: Option<Number>,
            /// `true` when the prompt cache is warm for the current model.
            prompt_cache_warm: Option<bool>,
            /// Cache time-to-live information.
            #[serde(deserialize_with = "present")]
            cache_ttl: Option<Value>,
            /// Estimated cost of re-writing the cache on the new model, in USD.
            estimated_cache_write_usd: Option<Number>,
            /// Pricing of the models involved.
            #[serde(deserialize_with = "present")]
            pricing: Option<Value>,
        }
        /// `Notification`: a notification is shown. Context only. Matcher: `notification_type`.
        Notification("Notification", Notification, blocking).caps(CONTEXT).may_async() {
            /// The notification text.
            message: Option<String>,
            /// `permission_prompt`, `idle_prompt`, `auth_success`, `elicitation_dialog`, …
            notification_type: Option<String>,
            /// The notification title.
            title: Option<String>,
        }
        /// `Elicitation`: an MCP server asks the user for input. The hook can accept, decline or
        /// answer. Matcher: server name.
        Elicitation("Elicitation", Other, blocking).caps(NOTICE).provider_only().may_async() {
            /// The asking MCP server.
            mcp_server_name: Option<String>,
            /// The question shown to the user.
            message: Option<String>,
            /// `form` or `url`.
            mode: Option<String>,
            /// The URL to open (url mode).
            url: Option<String>,
            /// The elicitation's id.
            elicitation_id: Option<String>,
            /// JSON Schema of the requested answer (form mode).
            #[serde(deserialize_with = "present")]
            requested_schema: Option<Value>,
        }
        /// `ElicitationResult`: the user answered an elicitation. The hook can override the
        /// answer. Matcher: server name.
        ElicitationResult("ElicitationResult", Other, blocking).caps(NOTICE).provider_only().may_async() {
            /// The MCP server that asked.
            mcp_server_name: Option<String>,
            /// `accept`, `decline` or `cancel`.
            action: Option<String>,
            /// The elicitation's id.
            elicitation_id: Option<String>,
            /// `form` or `url`.
            mode: Option<String>,
            /// The submitted answer (form mode, `accept`).
            #[serde(deserialize_with = "present")]
            content: Option<Value>,
        }
        /// `TeammateIdle`: an agent-team teammate went idle. Exit 2 feeds stderr back.
        TeammateIdle("TeammateIdle", Other, blocking).caps(NOTICE).provider_only().may_async() {
            /// The idle teammate.
            teammate_name: Option<String>,
            /// Its team.
            team_name: Option<String>,
        }
        /// `TaskCreated`: an agent-team task was created. Exit 2 feeds stderr back.
        TaskCreated("TaskCreated", Other, blocking).caps(NOTICE).provider_only().may_async() {
            /// The task's id.
            task_id: Option<String>,
            /// The task's subject line.
            task_subject: Option<String>,
            /// The task's description.
            task_description: Option<String>,
            /// The teammate the task is assigned to.
            teammate_name: Option<String>,
            /// The team.
            team_name: Option<String>,
        }
        /// `TaskCompleted`: an agent-team task was completed. Exit 2 feeds stderr back (and keeps
        /// the task open).
        TaskCompleted("TaskCompleted", Other, blocking).caps(NOTICE).provider_only().may_async() {
            /// The task's id.
            task_id: Option<String>,
            /// The task's subject line.
            task_subject: Option<String>,
            /// The task's description.
            task_description: Option<String>,
            /// The teammate that completed it.
            teammate_name: Option<String>,
            /// The team.
            team_name: Option<String>,
        }
        /// `ConfigChange`: a settings or skills file changed. Gate: `decision:"block"` keeps the
        /// old configuration. Matcher: source.
        ConfigChange("ConfigChange", Other, blocking).caps(NOTICE).fail(FailShape::Block).provider_only().may_async() {
            /// `user_settings`, `project_settings`, `local_settings`, `policy_settings` or
            /// `skills`.
            source: Option<String>,
            /// The file that changed.
            file_path: Option<String>,
        }
        /// `InstructionsLoaded`: a `CLAUDE.md` or memory file was loaded. Not a gate. Matcher:
        /// load reason.
        InstructionsLoaded("InstructionsLoaded", Other).caps(NOTICE).may_async().provider_only() {
            /// The loaded file.
            file_path: Option<String>,
            /// `User`, `Project`, `Local`, `Managed`, …
            memory_type: Option<String>,
            /// `session_start`, `nested_traversal`, `path_glob_match`, `include`, `compact`, …
            load_reason: Option<String>,
            /// The `paths:` globs of a conditional rule file.
            globs: Option<Vec<String>>,
            /// The file whose access triggered a lazy load.
            trigger_file_path: Option<String>,
            /// The file that `@include`d this one.
            parent_file_path: Option<String>,
        }
        /// `WorktreeCreate`: a worktree is needed; the hook supplies its path (command hooks print
        /// it on stdout).
        WorktreeCreate("WorktreeCreate", Other, blocking).provider_only().may_async() {
            /// The worktree's name (slug).
            name: Option<String>,
        }
        /// `WorktreeRemove`: a worktree is removed. Not a gate.
        WorktreeRemove("WorktreeRemove", Other).caps(NOTICE).may_async().provider_only() {
            /// The worktree being removed.
            worktree_path: Option<String>,
        }
        /// `CwdChanged`: the working directory changed. May set `watchPaths`.
        CwdChanged("CwdChanged", Other, blocking).caps(NOTICE).provider_only().may_async() {
            /// The previous working directory.
            old_cwd: Option<String>,
            /// The new working directory.
            new_cwd: Option<String>,
        }
        /// `FileChanged`: a watched file changed on disk. May set `watchPaths`. Matcher: file
        /// name.
        FileChanged("FileChanged", FileEdited, blocking).caps(NOTICE).provider_only().may_async() {
            /// The file that changed.
            file_path: Option<String>,
            /// `change`, `add` or `unlink`.
            event: Option<String>,
        }
        /// `DirectoryAdded`: a working directory was added to the session. Not a gate.
        DirectoryAdded("DirectoryAdded", Other).caps(NOTICE).may_async().provider_only() {
            /// The added directory.
            directory: Option<String>,
            /// How it was added (`add_dir_command`, `cli_flag`, `settings`, …).
            source: Option<String>,
        }
        /// `MessageDisplay`: assistant text is flushed to the screen. Display-only rewrite.
        MessageDisplay("MessageDisplay", ModelResponse, blocking).caps(NOTICE).provider_only().may_async() {
            /// The turn's id.
            turn_id: Option<String>,
            /// The assistant message's id.
            message_id: Option<String>,
            /// Index of this chunk within the message.
            #[serde(deserialize_with = "lenient::opt_u64")]
            index: Option<u64>,
            /// `true` on the last chunk of the message.
            #[serde(rename = "final", deserialize_with = "lenient::opt_bool")]
            is_final: Option<bool>,
            /// The text of this chunk.
            delta: Option<String>,
        }
    }
}

/// A native event struct that can be borrowed out of a [`NativeEvent`]: the typed views of
/// [`crate::view_as`].
pub use agenthooks_core::kit::FromNative;

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::kit::{Decoded, Repair};
    use agenthooks_core::{EventKind, Provider};

    const BASE: &str = r#""session_id":"s","transcript_path":"/t.jsonl","cwd":"/w""#;

    fn payload(name: &str, rest: &str) -> Vec<u8> {
        let sep = if rest.is_empty() { "" } else { "," };
        format!(r#"{{{BASE},"hook_event_name":"{name}"{sep}{rest}}}"#).into_bytes()
    }

    fn decode(bytes: &[u8], hint: Option<&str>) -> Result<Decoded<NativeEvent>, agenthooks_core::DecodeError> {
        NativeEvent::decode(&Provider::CLAUDE_CODE, bytes, hint)
    }

    fn kind_of(name: &str) -> EventKind {
        agenthooks_core::kit::row(EVENTS, name).map_or(EventKind::Other, |r| r.kind)
    }

    #[test]
    fn events_table_lists_34_distinct_events() {
        assert_eq!(EVENTS.len(), 34);
        let mut names: Vec<_> = EVENTS.iter().map(|e| e.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 34);
        assert_eq!(kind_of("PreToolUse"), EventKind::ToolPre);
        assert_eq!(kind_of("PreSkillShellCommand"), EventKind::ToolPre);
        assert_eq!(kind_of("MessageDisplay"), EventKind::ModelResponse);
        assert_eq!(kind_of("FileChanged"), EventKind::FileEdited);
        assert_eq!(kind_of("SomethingNew"), EventKind::Other);
        let non_blocking: Vec<_> = EVENTS.iter().filter(|e| !e.blocking).map(|e| e.name).collect();
        assert_eq!(
            non_blocking,
            [
                "StopFailure",
                "SessionEnd",
                "PostCompact",
                "InstructionsLoaded",
                "WorktreeRemove",
                "DirectoryAdded"
            ]
        );
        let secondary: Vec<_> = EVENTS.iter().filter(|e| !e.primary).map(|e| e.name).collect();
        assert_eq!(secondary, ["PreSkillShellCommand"]);
    }

    #[test]
    fn decodes_pre_tool_use_with_extra_and_base() {
        let bytes = payload(
            "PreToolUse",
            r#""prompt_id":"p1","effort":{"level":"high","budget":3},"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1","new_key":[1,2]"#,
        );
        let d = decode(&bytes, None).expect("decodes");
        assert!(d.is_exact() && d.issues.is_empty());
        let ev = d.native;
        assert_eq!(ev.name(), "PreToolUse");
        assert_eq!(ev.kind(), EventKind::ToolPre);
        assert_eq!(ev.prompt_id().map(String::as_str), Some("p1"));
        assert_eq!(ev.session_id().map(String::as_str), Some("s"));
        assert_eq!(ev.extra().len(), 1);
        assert_eq!(ev.extra()["new_key"], serde_json::json!([1, 2]));
        let NativeEvent::PreToolUse(pre) = ev else {
            panic!("wrong variant")
        };
        assert_eq!(pre.tool_name, "Bash");
        assert_eq!(
            pre.tool_input.as_ref().map(|i| &i.value()["command"]),
            Some(&serde_json::json!("ls"))
        );
        let effort = pre.effort.expect("effort");
        assert_eq!(effort.level.as_deref(), Some("high"));
        assert_eq!(effort.extra["budget"], 3);
    }

    #[test]
    fn unknown_event_is_other_with_every_key() {
        let bytes = payload("BrandNewEvent", r#""x":{"y":null}"#);
        let ev = decode(&bytes, None).expect("decodes").native;
        let NativeEvent::Other(u) = &ev else {
            panic!("expected Other")
        };
        assert_eq!(u.extra.len(), 1);
        assert_eq!(ev.name(), "BrandNewEvent");
        assert_eq!(ev.kind(), EventKind::Other);
        assert_eq!(ev.cwd().map(String::as_str), Some("/w"));
        let back = serde_json::to_vec(&ev).expect("serializes");
        assert_eq!(back, bytes);
    }

    #[test]
    fn older_releases_without_optional_fields_decode() {
        // 2.0.3x Notification: no `notification_type`; pre-1.0.54: no `cwd`; pre-2.0.43: no
        // `tool_use_id`.
        let bytes = br#"{"session_id":"s","transcript_path":"/t","hook_event_name":"Notification","message":"Claude needs your permission"}"#;
        let d = decode(bytes, None).expect("decodes");
        assert!(d.is_exact());
        assert!(matches!(&d.native, NativeEvent::Notification(n) if n.notification_type.is_none()));
        let bytes = br#"{"session_id":"s","transcript_path":"/t","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
        let d = decode(bytes, None).expect("decodes");
        assert!(matches!(&d.native, NativeEvent::PreToolUse(p) if p.tool_use_id.is_none() && p.cwd.is_none()));
        // Before 1.0.41 the payload named no event: the `--event` hint decides.
        let bytes = br#"{"session_id":"s","transcript_path":"/t","tool_name":"Bash","tool_input":{}}"#;
        let d = decode(bytes, Some("PreToolUse")).expect("decodes");
        assert_eq!(d.native.kind(), EventKind::ToolPre);
    }

    #[test]
    fn retyped_field_is_kept_in_extra() {
        let bytes = payload("Stop", r#""stop_hook_active":"yes","last_assistant_message":"done""#);
        let d = decode(&bytes, None).expect("decodes");
        assert_eq!(d.issues.len(), 1);
        assert_eq!(d.issues[0].path, "stop_hook_active");
        assert_eq!(d.issues[0].repair, Repair::MovedToExtra);
        let NativeEvent::Stop(stop) = &d.native else {
            panic!("wrong variant")
        };
        assert_eq!(stop.stop_hook_active, None);
        assert_eq!(stop.extra["stop_hook_active"], "yes");
        assert_eq!(stop.last_assistant_message.as_deref(), Some("done"));
        // Flags sent as strings by some releases are read.
        let bytes = payload("Stop", r#""stop_hook_active":"true""#);
        let d = decode(&bytes, None).expect("decodes");
        assert!(matches!(&d.native, NativeEvent::Stop(s) if s.stop_hook_active == Some(true)));
    }

    #[test]
    fn missing_tool_name_keeps_the_kind() {
        let bytes = payload("PreToolUse", r#""tool_input":{"command":"ls"}"#);
        let d = decode(&bytes, None).expect("decodes");
        assert!(!d.is_exact());
        assert_eq!(d.native.kind(), EventKind::ToolPre);
        assert!(d
            .issues
            .iter()
            .any(|i| i.repair == Repair::Placeholder && i.path == "tool_name"));
        let NativeEvent::Other(view) = d.view() else {
            panic!("the view is the Other form")
        };
        assert_eq!(view.name, "PreToolUse");
        assert_eq!(view.extra["tool_input"]["command"], "ls");
    }

    #[test]
    fn payload_without_name_or_hint_is_an_error() {
        let bytes = format!(r#"{{{BASE},"prompt":"hi"}}"#).into_bytes();
        let err = decode(&bytes, None).expect_err("fails");
        assert_eq!(err.path(), Some("hook_event_name"));
        let d = decode(&bytes, Some("UserPromptSubmit")).expect("the hint names it");
        assert!(matches!(&d.native, NativeEvent::UserPromptSubmit(p) if p.prompt.as_deref() == Some("hi")));
    }

    #[test]
    fn payload_name_wins_over_hint() {
        let bytes = payload("SessionEnd", r#""reason":"other""#);
        let ev = decode(&bytes, Some("PreToolUse")).expect("decodes").native;
        assert!(matches!(ev, NativeEvent::SessionEnd(ref e) if e.reason.as_deref() == Some("other")));
    }

    #[test]
    fn rejects_non_objects_and_trailing_data() {
        assert!(decode(b"[]", None).is_err());
        assert!(decode(b"", None).is_err());
        assert!(decode(b"\xff", None).is_err());
        let mut bytes = payload("SessionEnd", r#""reason":"other""#);
        bytes.extend_from_slice(b" {}");
        assert!(decode(&bytes, None).is_err());
        // A name of another type counts as absent.
        assert!(decode(br#"{"hook_event_name":5}"#, None).is_err());
        assert!(decode(br#"{"hook_event_name":5}"#, Some("Stop")).is_ok());
    }

    #[test]
    fn explicit_null_is_kept_for_free_shape_optionals() {
        let bytes = payload(
            "PostToolBatch",
            r#""tool_calls":[{"tool_name":"Bash","tool_input":{},"tool_use_id":"t","tool_response":null},{"tool_name":"Read","tool_input":{},"tool_use_id":"u"}]"#,
        );
        let ev = decode(&bytes, None).expect("decodes").native;
        let NativeEvent::PostToolBatch(batch) = &ev else {
            panic!("wrong variant")
        };
        let calls = batch.tool_calls.as_ref().expect("calls");
        assert!(calls[0].tool_response.as_ref().is_some_and(RawJson::is_null));
        assert_eq!(calls[1].tool_response, None);
        assert_eq!(serde_json::to_vec(&ev).expect("serializes"), bytes);
    }

    #[test]
    fn nullable_always_sent_fields_serialize_null() {
        let bytes = payload("PreCompact", r#""trigger":"auto","custom_instructions":null"#);
        let ev = decode(&bytes, None).expect("decodes").native;
        assert!(matches!(&ev, NativeEvent::PreCompact(c) if c.custom_instructions.is_none()));
        assert_eq!(serde_json::to_vec(&ev).expect("serializes"), bytes);
    }

    #[test]
    fn subagent_events_carry_agent_fields() {
        let ok = payload("SubagentStart", r#""agent_id":"a1","agent_type":"Explore""#);
        let ev = decode(&ok, None).expect("decodes").native;
        assert_eq!(ev.agent_id().map(String::as_str), Some("a1"));
        assert_eq!(ev.agent_type().map(String::as_str), Some("Explore"));
        let missing = payload("SubagentStart", r#""agent_type":"Explore""#);
        let ev = decode(&missing, None)
            .expect("an older release without agent_id decodes")
            .native;
        assert_eq!(ev.agent_id(), None);
    }

    #[test]
    fn message_display_final_keyword_field() {
        let bytes = payload(
            "MessageDisplay",
            r#""turn_id":"t","message_id":"m","index":0,"final":true,"delta":"hi""#,
        );
        let ev = decode(&bytes, None).expect("decodes").native;
        assert!(
            matches!(&ev, NativeEvent::MessageDisplay(m) if m.is_final == Some(true) && m.delta.as_deref() == Some("hi"))
        );
        assert_eq!(ev.kind(), EventKind::ModelResponse);
        assert_eq!(serde_json::to_vec(&ev).expect("serializes"), bytes);
    }
}
