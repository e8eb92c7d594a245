//! Native Claude Code hook payloads, one typed struct per event.
//!
//! These structs are the fidelity layer of the Claude codec: every field of the wire contract of
//! Claude Code 2.1.332 (`reference/providers/claude-code.md` §2) is a public field with its wire
//! name, and every struct ends with an `extra` map that captures any key this crate does not know
//! yet, so a field added by a newer Claude release is kept, never dropped.
//!
//! Typing rules, applied uniformly:
//!
//! - A field the contract always sends is a plain field; when it is missing the payload does not
//!   decode (a typed error carrying the JSON path, never a panic).
//! - A field the contract marks optional is an `Option<T>`; it is omitted again on serialization
//!   when absent.
//! - A field whose value is *nullable but always sent* (`PreCompact.custom_instructions`,
//!   `Pre/PostModelSwitch.requested_model`) is an `Option<T>` that serializes `null` back.
//! - A field of free or version-dependent shape (`tool_input`, `tool_response`, schemas, pricing)
//!   is a [`serde_json::Value`]; where such a field is optional, an explicit JSON `null` decodes
//!   as `Some(Value::Null)`, so "absent" and "null" stay distinguishable.
//! - Enumerations Claude extends over time (`source`, `reason`, `trigger`, `permission_mode`,
//!   `notification_type`, `error`, …) are plain `String`s: an unknown value is data, not an
//!   error. The known values are listed in each field's docs.
//!
//! Decode a payload with [`NativeEvent::from_slice`]; an event name this crate does not know
//! (a future Claude release) decodes as [`NativeEvent::Other`] with every key intact.
//!
//! ```
//! use agenthooks_claude::native::NativeEvent;
//!
//! let bytes = br#"{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w",
//!     "hook_event_name":"PreToolUse","tool_name":"Bash",
//!     "tool_input":{"command":"ls"},"tool_use_id":"toolu_1","brand_new":1}"#;
//! let NativeEvent::PreToolUse(ev) = NativeEvent::from_slice(bytes, None)? else {
//!     unreachable!()
//! };
//! assert_eq!(ev.tool_name, "Bash");
//! assert_eq!(ev.extra["brand_new"], 1);
//! # Ok::<(), serde_path_to_error::Error<serde_json::Error>>(())
//! ```

use agenthooks_core::{EventKind, EventRow};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Number, Value};

/// Unknown keys of a payload object, in wire order.
pub type Extra = Map<String, Value>;

/// Deserializes an optional free-shape field so that an explicit `null` is kept as
/// `Some(Value::Null)` (plain `Option<Value>` would fold it into `None`).
fn present<'de, D>(de: D) -> Result<Option<Value>, D::Error>
where
    D: Deserializer<'de>,
{
    Value::deserialize(de).map(Some)
}

/// Reasoning effort of the current model call (`effort` on tool-context events).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Effort {
    /// Effort level: `low`, `medium`, `high`, `xhigh`, `max` as of 2.1.332.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// The MCP server a tool belongs to (`mcp_server`, since ~2.1.3xx).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct McpServer {
    /// The server's configured name (not the normalized segment of `mcp__<server>__<tool>`).
    pub name: String,
    /// Where the server is configured: `user`, `project`, `local`, `plugin`, `claudeai`,
    /// `managed`, … Identifies plugin and claude.ai servers (quirk #26).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One resolved call of a parallel batch (`PostToolBatch.tool_calls[]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BatchToolCall {
    /// Native tool name, verbatim (`Bash`, `mcp__github__create_issue`, …).
    pub tool_name: String,
    /// Tool arguments as the model produced them.
    pub tool_input: Value,
    /// Claude's tool-use id (`toolu_…`).
    pub tool_use_id: String,
    /// The result text or object fed back to the model; for a denied call, the denial text.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub tool_response: Option<Value>,
    /// Keys not known to this crate.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Read access to the base fields every Claude Code payload carries, whatever the event.
///
/// Implemented by every native event struct; [`NativeEvent`] offers the same accessors for a
/// decoded payload of any event, including [`NativeEvent::Other`].
pub trait NativePayload {
    /// `session_id`: the Claude session UUID.
    fn session_id(&self) -> &str;
    /// `transcript_path`: path of the session's JSONL transcript.
    fn transcript_path(&self) -> &str;
    /// `cwd`: the working directory when the hook fired.
    fn cwd(&self) -> &str;
    /// `hook_event_name`: the native event name.
    fn hook_event_name(&self) -> &str;
    /// `permission_mode`: `default`, `plan`, `acceptEdits`, `auto`, `dontAsk`,
    /// `bypassPermissions`, … when sent.
    fn permission_mode(&self) -> Option<&str>;
    /// `prompt_id`: the UUID of the current user prompt (absent before the first prompt).
    fn prompt_id(&self) -> Option<&str>;
    /// `agent_id`: the subagent id, inside a subagent.
    fn agent_id(&self) -> Option<&str>;
    /// `agent_type`: the subagent type, inside a subagent or on the main thread of an
    /// `--agent` session.
    fn agent_type(&self) -> Option<&str>;
    /// Keys of the payload object this crate does not know.
    fn extra(&self) -> &Extra;
}

// Declares a native event struct with the base fields, the given event fields and `extra`.
macro_rules! native_event {
    (
        $(#[$meta:meta])*
        $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[non_exhaustive]
        pub struct $name {
            /// `session_id`: the Claude session UUID.
            pub session_id: String,
            /// `transcript_path`: path of the session's JSONL transcript.
            pub transcript_path: String,
            /// `cwd`: the working directory when the hook fired.
            pub cwd: String,
            /// `hook_event_name`: the native event name.
            pub hook_event_name: String,
            /// `permission_mode`: `default`, `plan`, `acceptEdits`, `auto`, `dontAsk`,
            /// `bypassPermissions`, …
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub permission_mode: Option<String>,
            /// `prompt_id`: UUID of the current user prompt; absent before the first prompt.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub prompt_id: Option<String>,
            /// `agent_id`: the subagent id, only inside a subagent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub agent_id: Option<String>,
            /// `agent_type`: the subagent type (inside a subagent, or the main thread of an
            /// `--agent` session).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub agent_type: Option<String>,
            /// `effort`: reasoning effort, on tool-context events.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub effort: Option<Effort>,
            /// `scratchpad_dir`: internal; the session's scratch directory.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub scratchpad_dir: Option<String>,
            /// `served_call`: internal; shape not part of the public contract.
            #[serde(
                default,
                deserialize_with = "present",
                skip_serializing_if = "Option::is_none"
            )]
            pub served_call: Option<Value>,
            /// `caller_session_id`: internal; the calling session when one session serves
            /// another.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub caller_session_id: Option<String>,
            $(
                $(#[$fmeta])*
                pub $field: $ty,
            )*
            /// Keys not known to this crate, in wire order.
            #[serde(flatten)]
            pub extra: Extra,
        }

        impl NativePayload for $name {
            fn session_id(&self) -> &str {
                &self.session_id
            }
            fn transcript_path(&self) -> &str {
                &self.transcript_path
            }
            fn cwd(&self) -> &str {
                &self.cwd
            }
            fn hook_event_name(&self) -> &str {
                &self.hook_event_name
            }
            fn permission_mode(&self) -> Option<&str> {
                self.permission_mode.as_deref()
            }
            fn prompt_id(&self) -> Option<&str> {
                self.prompt_id.as_deref()
            }
            fn agent_id(&self) -> Option<&str> {
                self.agent_id.as_deref()
            }
            fn agent_type(&self) -> Option<&str> {
                self.agent_type.as_deref()
            }
            fn extra(&self) -> &Extra {
                &self.extra
            }
        }
    };
}

// Declares a subagent event struct: like `native_event!` but `agent_id` and `agent_type` are
// required fields, because Claude always sends them on these events.
macro_rules! subagent_event {
    (
        $(#[$meta:meta])*
        $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[non_exhaustive]
        pub struct $name {
            /// `session_id`: the Claude session UUID.
            pub session_id: String,
            /// `transcript_path`: path of the *main* session's JSONL transcript.
            pub transcript_path: String,
            /// `cwd`: the working directory when the hook fired.
            pub cwd: String,
            /// `hook_event_name`: the native event name.
            pub hook_event_name: String,
            /// `permission_mode`, when sent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub permission_mode: Option<String>,
            /// `prompt_id`: UUID of the current user prompt, when sent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub prompt_id: Option<String>,
            /// `agent_id`: the subagent's id.
            pub agent_id: String,
            /// `agent_type`: the subagent's type (`general-purpose`, `Explore`, a custom
            /// agent name, …).
            pub agent_type: String,
            /// `effort`: reasoning effort, when sent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub effort: Option<Effort>,
            /// `scratchpad_dir`: internal; the session's scratch directory.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub scratchpad_dir: Option<String>,
            /// `served_call`: internal; shape not part of the public contract.
            #[serde(
                default,
                deserialize_with = "present",
                skip_serializing_if = "Option::is_none"
            )]
            pub served_call: Option<Value>,
            /// `caller_session_id`: internal; the calling session, when sent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub caller_session_id: Option<String>,
            $(
                $(#[$fmeta])*
                pub $field: $ty,
            )*
            /// Keys not known to this crate, in wire order.
            #[serde(flatten)]
            pub extra: Extra,
        }

        impl NativePayload for $name {
            fn session_id(&self) -> &str {
                &self.session_id
            }
            fn transcript_path(&self) -> &str {
                &self.transcript_path
            }
            fn cwd(&self) -> &str {
                &self.cwd
            }
            fn hook_event_name(&self) -> &str {
                &self.hook_event_name
            }
            fn permission_mode(&self) -> Option<&str> {
                self.permission_mode.as_deref()
            }
            fn prompt_id(&self) -> Option<&str> {
                self.prompt_id.as_deref()
            }
            fn agent_id(&self) -> Option<&str> {
                Some(&self.agent_id)
            }
            fn agent_type(&self) -> Option<&str> {
                Some(&self.agent_type)
            }
            fn extra(&self) -> &Extra {
                &self.extra
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Tool events
// ---------------------------------------------------------------------------------------------

native_event! {
    /// `PreToolUse`: the model built a tool call; fires before it runs. Gate: allow, deny, ask,
    /// defer; may rewrite the input. Matcher: tool name.
    PreToolUse {
        /// Native tool name, verbatim (`Bash`, `Edit`, `mcp__github__create_issue`, …).
        tool_name: String,
        /// Tool arguments as the model produced them (a JSON object on every known version).
        tool_input: Value,
        /// Claude's tool-use id (`toolu_…`); the same id arrives on the matching post event.
        tool_use_id: String,
        /// The MCP server of an MCP tool (since ~2.1.3xx).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<McpServer>,
    }
}

native_event! {
    /// `PermissionRequest`: a permission dialog is about to show. Gate: allow (optionally with
    /// rewritten input and permission updates) or deny. Matcher: tool name.
    PermissionRequest {
        /// Native tool name, verbatim.
        tool_name: String,
        /// Tool arguments.
        tool_input: Value,
        /// Suggested permission updates ("always allow" choices), as Claude would offer them:
        /// objects like `{"type":"addRules","rules":[…],"behavior":"allow","destination":…}`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        permission_suggestions: Option<Vec<Value>>,
        /// The MCP server of an MCP tool.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<McpServer>,
        /// Not sent by 2.1.332 (the reference says so explicitly); typed here so that a
        /// release which adds it is correlated with the tool events at once.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_use_id: Option<String>,
    }
}

native_event! {
    /// `PermissionDenied`: a call was denied (for example by the auto-mode classifier). The
    /// hook may ask for a `retry`. Matcher: tool name.
    PermissionDenied {
        /// Native tool name, verbatim.
        tool_name: String,
        /// Tool arguments.
        tool_input: Value,
        /// Claude's tool-use id.
        tool_use_id: String,
        /// Why the call was denied.
        reason: String,
        /// The MCP server of an MCP tool.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<McpServer>,
    }
}

native_event! {
    /// `PostToolUse`: the tool succeeded. Feedback (`decision:"block"`), context, output
    /// replacement. Matcher: tool name.
    PostToolUse {
        /// Native tool name, verbatim.
        tool_name: String,
        /// Tool arguments.
        tool_input: Value,
        /// The tool's result, of any shape (Bash: `{stdout, stderr, interrupted, isImage, …}`).
        tool_response: Value,
        /// Claude's tool-use id.
        tool_use_id: String,
        /// Wall-clock run time of the tool, in milliseconds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration_ms: Option<u64>,
        /// The MCP server of an MCP tool.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<McpServer>,
    }
}

native_event! {
    /// `PostToolUseFailure`: the tool failed or was interrupted. Context only. Matcher: tool
    /// name.
    PostToolUseFailure {
        /// Native tool name, verbatim.
        tool_name: String,
        /// Tool arguments.
        tool_input: Value,
        /// Claude's tool-use id.
        tool_use_id: String,
        /// The error text fed back to the model.
        error: String,
        /// `true` when the user interrupted the tool.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        is_interrupt: Option<bool>,
        /// Wall-clock run time of the tool, in milliseconds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration_ms: Option<u64>,
        /// The MCP server of an MCP tool.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<McpServer>,
    }
}

native_event! {
    /// `PostToolBatch`: fires once after a whole parallel batch of tool calls resolved.
    /// `decision:"block"` and context.
    PostToolBatch {
        /// Every call of the batch, in the order the model issued them.
        tool_calls: Vec<BatchToolCall>,
    }
}

native_event! {
    /// `PreSkillShellCommand`: a skill's embedded shell command is about to run (closes part of
    /// blind spot #16). Gate: deny, ask, defer; `updatedInput` is never applied (and blocks).
    PreSkillShellCommand {
        /// The shell tool that will run the command: `Bash` or `PowerShell`.
        tool_name: String,
        /// `{command, …}`: the command line to run.
        tool_input: Value,
        /// A synthetic tool-use id minted by Claude for this command (no model tool call
        /// exists).
        tool_use_id: String,
        /// The skill or slash command that embeds the shell command.
        command_name: String,
        /// Where the command is defined (`user`, `project`, `plugin`, …).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command_source: Option<String>,
        /// Who invoked the skill: `user`, `claude` or `other`.
        invoked_by: String,
    }
}

// ---------------------------------------------------------------------------------------------
// Prompt events
// ---------------------------------------------------------------------------------------------

native_event! {
    /// `UserPromptSubmit`: a prompt was submitted, before the model sees it. Gate:
    /// `decision:"block"`; context.
    UserPromptSubmit {
        /// The prompt text.
        prompt: String,
        /// Who submitted it: `user`, `sdk`, `system`, `loop_wakeup`, `schedule_wakeup`,
        /// `poll_event`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
        /// The session's current title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_title: Option<String>,
    }
}

native_event! {
    /// `UserPromptExpansion`: a slash command or MCP prompt expands. Gate: `decision:"block"`.
    /// Matcher: command name.
    UserPromptExpansion {
        /// `slash_command` or `mcp_prompt`.
        expansion_type: String,
        /// The command being expanded (without the leading `/`).
        command_name: String,
        /// The arguments typed after the command (a string on known versions; kept as any JSON
        /// value because MCP prompts take structured arguments).
        command_args: Value,
        /// Where the command is defined (`user`, `project`, `plugin`, `mcp`, …).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command_source: Option<String>,
        /// The expanded prompt text.
        prompt: String,
    }
}

// ---------------------------------------------------------------------------------------------
// Stop events
// ---------------------------------------------------------------------------------------------

native_event! {
    /// `Stop`: the main agent is about to finish its turn. Gate: `decision:"block"` + `reason`
    /// continues the agent with the reason as the instruction.
    Stop {
        /// `true` when this stop follows a continuation a Stop hook forced (loop guard,
        /// quirk #19).
        stop_hook_active: bool,
        /// The final assistant text of the turn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_assistant_message: Option<String>,
        /// Background tasks still running.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        background_tasks: Option<Vec<Value>>,
        /// Scheduled (cron) prompts of the session.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_crons: Option<Vec<Value>>,
    }
}

subagent_event! {
    /// `SubagentStop`: a subagent is about to finish. Gate: `decision:"block"` continues it.
    /// Matcher: agent type.
    SubagentStop {
        /// `true` when this stop follows a continuation a hook forced (quirk #19).
        stop_hook_active: bool,
        /// Path of the subagent's own transcript.
        agent_transcript_path: String,
        /// The subagent's final assistant text.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_assistant_message: Option<String>,
        /// Background tasks still running.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        background_tasks: Option<Vec<Value>>,
        /// Scheduled (cron) prompts of the session.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_crons: Option<Vec<Value>>,
    }
}

native_event! {
    /// `StopFailure`: the turn ended because of an API error. Not a gate. Matcher: error type.
    StopFailure {
        /// `rate_limit`, `overloaded`, `authentication_failed`, `billing_error`,
        /// `invalid_request`, `server_error`, `max_output_tokens`, `unknown`, …
        error: String,
        /// Details of the error (text or object, as the API reported it).
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        error_details: Option<Value>,
        /// The last assistant text before the failure.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_assistant_message: Option<String>,
    }
}

// ---------------------------------------------------------------------------------------------
// Session lifecycle
// ---------------------------------------------------------------------------------------------

native_event! {
    /// `SessionStart`: a session starts, resumes, is cleared, compacted or forked. Context
    /// only. Matcher: `source`. (`agent_type`, which the reference lists here, is the base
    /// field.)
    SessionStart {
        /// `startup`, `resume`, `clear`, `compact` or `fork`.
        source: String,
        /// The session's model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
        /// The session's title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_title: Option<String>,
        /// Seconds since the last model response (resume).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds_since_last_response: Option<Number>,
        /// Tokens currently in context.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        context_tokens: Option<Number>,
        /// `true` when the prompt cache has most likely expired.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompt_cache_likely_expired: Option<bool>,
        /// Estimated cost of re-writing the cache, in USD.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        estimated_cache_write_usd: Option<Number>,
    }
}

native_event! {
    /// `SessionEnd`: the session ends. Not a gate. Matcher: `reason`.
    SessionEnd {
        /// `clear`, `resume`, `logout`, `prompt_input_exit` or `other`.
        reason: String,
    }
}

native_event! {
    /// `Setup`: `--init` or a maintenance run. Context only. Matcher: `trigger`.
    Setup {
        /// `init` or `maintenance`.
        trigger: String,
    }
}

subagent_event! {
    /// `SubagentStart`: a subagent was spawned. Context only. Matcher: agent type.
    SubagentStart {}
}

// ---------------------------------------------------------------------------------------------
// Compaction and model switches
// ---------------------------------------------------------------------------------------------

native_event! {
    /// `PreCompact`: before compaction. Gate: `decision:"block"`. Matcher: `manual`/`auto`.
    PreCompact {
        /// `manual` or `auto`.
        trigger: String,
        /// The instructions given to `/compact` (`null` when none; always sent).
        #[serde(default)]
        custom_instructions: Option<String>,
    }
}

native_event! {
    /// `PostCompact`: after compaction. Not a gate. Matcher: `manual`/`auto`.
    PostCompact {
        /// `manual` or `auto`.
        trigger: String,
        /// The summary that replaced the conversation.
        compact_summary: String,
    }
}

native_event! {
    /// `PreModelSwitch`: the model is about to change. Gate: allow, deny, ask. Matcher: source
    /// (a `[1m]`/`[2m]` suffix is stripped).
    PreModelSwitch {
        /// The current model.
        from_model: String,
        /// The model being switched to.
        to_model: String,
        /// The model the user asked for, when it differs from the resolved one (`null`
        /// otherwise; always sent).
        #[serde(default)]
        requested_model: Option<String>,
        /// What triggered the switch (`user`, `fallback`, …).
        source: String,
        /// Tokens currently in context.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        context_tokens: Option<Number>,
        /// `true` when the prompt cache is warm for the current model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompt_cache_warm: Option<bool>,
        /// Cache time-to-live information.
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        cache_ttl: Option<Value>,
        /// Estimated cost of re-writing the cache on the new model, in USD.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        estimated_cache_write_usd: Option<Number>,
        /// Pricing of the models involved.
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        pricing: Option<Value>,
    }
}

native_event! {
    /// `PostModelSwitch`: the model changed. Context only.
    PostModelSwitch {
        /// The previous model.
        from_model: String,
        /// The new model.
        to_model: String,
        /// The model the user asked for (`null` when it equals the resolved one; always sent).
        #[serde(default)]
        requested_model: Option<String>,
        /// What triggered the switch.
        source: String,
        /// Tokens currently in context.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        context_tokens: Option<Number>,
        /// `true` when the prompt cache is warm.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompt_cache_warm: Option<bool>,
        /// Cache time-to-live information.
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        cache_ttl: Option<Value>,
        /// Estimated cost of re-writing the cache, in USD.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        estimated_cache_write_usd: Option<Number>,
        /// Pricing of the models involved.
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        pricing: Option<Value>,
    }
}

// ---------------------------------------------------------------------------------------------
// Notifications, MCP elicitation, agent teams
// ---------------------------------------------------------------------------------------------

native_event! {
    /// `Notification`: a notification is shown. Context only. Matcher: `notification_type`.
    Notification {
        /// The notification text.
        message: String,
        /// `permission_prompt`, `idle_prompt`, `auth_success`, `elicitation_dialog`, …
        notification_type: String,
        /// The notification title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    }
}

native_event! {
    /// `Elicitation`: an MCP server asks the user for input. The hook can accept, decline or
    /// answer. Matcher: server name.
    Elicitation {
        /// The asking MCP server.
        mcp_server_name: String,
        /// The question shown to the user.
        message: String,
        /// `form` or `url`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<String>,
        /// The URL to open (url mode).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        /// The elicitation's id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        elicitation_id: Option<String>,
        /// JSON Schema of the requested answer (form mode).
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        requested_schema: Option<Value>,
    }
}

native_event! {
    /// `ElicitationResult`: the user answered an elicitation. The hook can override the
    /// answer. Matcher: server name.
    ElicitationResult {
        /// The MCP server that asked.
        mcp_server_name: String,
        /// `accept`, `decline` or `cancel`.
        action: String,
        /// The elicitation's id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        elicitation_id: Option<String>,
        /// `form` or `url`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<String>,
        /// The submitted answer (form mode, `accept`).
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        content: Option<Value>,
    }
}

native_event! {
    /// `TeammateIdle`: an agent-team teammate went idle. Exit 2 feeds stderr back.
    TeammateIdle {
        /// The idle teammate.
        teammate_name: String,
        /// Its team.
        team_name: String,
    }
}

native_event! {
    /// `TaskCreated`: an agent-team task was created. Exit 2 feeds stderr back.
    TaskCreated {
        /// The task's id.
        task_id: String,
        /// The task's subject line.
        task_subject: String,
        /// The task's description.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task_description: Option<String>,
        /// The teammate the task is assigned to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        teammate_name: Option<String>,
        /// The team.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        team_name: Option<String>,
    }
}

native_event! {
    /// `TaskCompleted`: an agent-team task was completed. Exit 2 feeds stderr back (and keeps
    /// the task open).
    TaskCompleted {
        /// The task's id.
        task_id: String,
        /// The task's subject line.
        task_subject: String,
        /// The task's description.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task_description: Option<String>,
        /// The teammate that completed it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        teammate_name: Option<String>,
        /// The team.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        team_name: Option<String>,
    }
}

// ---------------------------------------------------------------------------------------------
// Configuration and environment
// ---------------------------------------------------------------------------------------------

native_event! {
    /// `ConfigChange`: a settings or skills file changed. Gate: `decision:"block"` keeps the
    /// old configuration. Matcher: source.
    ConfigChange {
        /// `user_settings`, `project_settings`, `local_settings`, `policy_settings` or
        /// `skills`.
        source: String,
        /// The file that changed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        file_path: Option<String>,
    }
}

native_event! {
    /// `InstructionsLoaded`: a `CLAUDE.md` or memory file was loaded. Not a gate. Matcher:
    /// load reason.
    InstructionsLoaded {
        /// The loaded file.
        file_path: String,
        /// `User`, `Project`, `Local`, `Managed`, …
        memory_type: String,
        /// `session_start`, `nested_traversal`, `path_glob_match`, `include`, `compact`, …
        load_reason: String,
        /// The `paths:` globs of a conditional rule file.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        globs: Option<Vec<String>>,
        /// The file whose access triggered a lazy load.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trigger_file_path: Option<String>,
        /// The file that `@include`d this one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        parent_file_path: Option<String>,
    }
}

native_event! {
    /// `WorktreeCreate`: a worktree is needed; the hook supplies its path (command hooks print
    /// it on stdout).
    WorktreeCreate {
        /// The worktree's name (slug).
        name: String,
    }
}

native_event! {
    /// `WorktreeRemove`: a worktree is removed. Not a gate.
    WorktreeRemove {
        /// The worktree being removed.
        worktree_path: String,
    }
}

native_event! {
    /// `CwdChanged`: the working directory changed. May set `watchPaths`.
    CwdChanged {
        /// The previous working directory.
        old_cwd: String,
        /// The new working directory.
        new_cwd: String,
    }
}

native_event! {
    /// `FileChanged`: a watched file changed on disk. May set `watchPaths`. Matcher: file
    /// name.
    FileChanged {
        /// The file that changed.
        file_path: String,
        /// `change`, `add` or `unlink`.
        event: String,
    }
}

native_event! {
    /// `DirectoryAdded`: a working directory was added to the session. Not a gate.
    DirectoryAdded {
        /// The added directory.
        directory: String,
        /// How it was added (`add_dir_command`, `cli_flag`, `settings`, …).
        source: String,
    }
}

native_event! {
    /// `MessageDisplay`: assistant text is flushed to the screen. Display-only rewrite.
    MessageDisplay {
        /// The turn's id.
        turn_id: String,
        /// The assistant message's id.
        message_id: String,
        /// Index of this chunk within the message.
        index: u64,
        /// `true` on the last chunk of the message.
        #[serde(rename = "final")]
        is_final: bool,
        /// The text of this chunk.
        delta: String,
    }
}

// ---------------------------------------------------------------------------------------------
// The event enum
// ---------------------------------------------------------------------------------------------

// Declares `NativeEvent`, `EVENTS`, the name dispatch and the `FromNative` impls from one
// table: variant => (unified kind, blocking, tool matcher).
macro_rules! native_events {
    ($( $variant:ident => ($kind:ident, $blocking:literal, $matcher:literal) ),* $(,)?) => {
        /// A decoded Claude Code hook payload: one variant per native event of Claude Code
        /// 2.1.332, plus [`NativeEvent::Other`] for events this crate does not know.
        ///
        /// Serializing a `NativeEvent` writes the payload object back (untagged): the event
        /// name is the payload's own `hook_event_name`.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        #[non_exhaustive]
        #[allow(clippy::large_enum_variant)] // one value per hook process; boxing only adds noise
        pub enum NativeEvent {
            $(
                #[doc = concat!("`", stringify!($variant), "`: see [`", stringify!($variant), "`].")]
                $variant($variant),
            )*
            /// An event this crate does not know (added by a newer Claude release), with every
            /// key of the payload object in wire order.
            Other(Extra),
        }

        /// Every native event of Claude Code 2.1.332, in reference order, with its unified
        /// kind, whether Claude acts on the hook's answer (`blocking`: it can gate, inject
        /// context or otherwise change what happens), and whether its matcher is a tool name.
        pub const EVENTS: &[EventRow] = &[
            $( EventRow::new(stringify!($variant), EventKind::$kind, $blocking, $matcher), )*
        ];

        impl NativeEvent {
            /// Decodes the payload `bytes` as the event `name`.
            fn decode_as(
                name: &str,
                de: &mut serde_json::Deserializer<serde_json::de::SliceRead<'_>>,
            ) -> Result<Self, serde_path_to_error::Error<serde_json::Error>> {
                match name {
                    $(
                        stringify!($variant) => {
                            serde_path_to_error::deserialize(de).map(NativeEvent::$variant)
                        }
                    )*
                    _ => serde_path_to_error::deserialize(de).map(NativeEvent::Other),
                }
            }

            /// The base-field accessors of a known event; `None` for [`NativeEvent::Other`].
            pub fn payload(&self) -> Option<&dyn NativePayload> {
                match self {
                    $( NativeEvent::$variant(ev) => Some(ev), )*
                    NativeEvent::Other(_) => None,
                }
            }

            /// Keys this crate does not know: the struct's `extra`, or the whole payload
            /// object for [`NativeEvent::Other`].
            pub fn extra(&self) -> &Extra {
                match self {
                    $( NativeEvent::$variant(ev) => &ev.extra, )*
                    NativeEvent::Other(map) => map,
                }
            }
        }

        $(
            impl FromNative for $variant {
                const NAME: &'static str = stringify!($variant);

                fn from_native(event: &NativeEvent) -> Option<&Self> {
                    match event {
                        NativeEvent::$variant(ev) => Some(ev),
                        _ => None,
                    }
                }
            }
        )*
    };
}

/// A native event struct that can be borrowed out of a [`NativeEvent`]: the typed views of
/// [`crate::view_as`].
pub trait FromNative: Sized + 'static {
    /// The native event name.
    const NAME: &'static str;

    /// The struct, when `event` is this event.
    fn from_native(event: &NativeEvent) -> Option<&Self>;
}

native_events! {
    PreToolUse => (ToolPre, true, true),
    PermissionRequest => (Permission, true, true),
    PermissionDenied => (Other, true, true),
    PostToolUse => (ToolPost, true, true),
    PostToolUseFailure => (ToolError, true, true),
    PostToolBatch => (Other, true, false),
    UserPromptSubmit => (PromptSubmitted, true, false),
    UserPromptExpansion => (Other, true, false),
    PreSkillShellCommand => (ToolPre, true, true),
    Stop => (Stop, true, false),
    SubagentStop => (SubagentStop, true, false),
    StopFailure => (Other, false, false),
    SessionStart => (SessionStart, true, false),
    SessionEnd => (SessionEnd, false, false),
    Setup => (Other, true, false),
    SubagentStart => (SubagentStart, true, false),
    PreCompact => (CompactPre, true, false),
    PostCompact => (CompactPost, false, false),
    PreModelSwitch => (Other, true, false),
    PostModelSwitch => (Other, true, false),
    Notification => (Notification, true, false),
    Elicitation => (Other, true, false),
    ElicitationResult => (Other, true, false),
    TeammateIdle => (Other, true, false),
    TaskCreated => (Other, true, false),
    TaskCompleted => (Other, true, false),
    ConfigChange => (Other, true, false),
    InstructionsLoaded => (Other, false, false),
    WorktreeCreate => (Other, true, false),
    WorktreeRemove => (Other, false, false),
    CwdChanged => (Other, true, false),
    FileChanged => (FileEdited, true, false),
    DirectoryAdded => (Other, false, false),
    MessageDisplay => (ModelResponse, true, false),
}

/// Only the event name, read ahead of the full decode.
#[derive(Deserialize)]
struct NameProbe<'a> {
    #[serde(borrow, default)]
    hook_event_name: Option<std::borrow::Cow<'a, str>>,
}

/// The base fields alone, decoded when a payload names no event so the error says which field
/// is missing.
#[derive(Deserialize)]
#[allow(dead_code)] // decoded only for its error
struct BaseOnly {
    session_id: String,
    transcript_path: String,
    cwd: String,
    hook_event_name: String,
}

impl NativeEvent {
    /// Decodes one Claude Code hook payload.
    ///
    /// The event is the payload's own `hook_event_name`; `event_name_hint` (for example the
    /// `--event` of a generated config) is used only when the payload carries no name, and
    /// the payload wins when both are present. A name this crate does not know decodes as
    /// [`NativeEvent::Other`]. The input must be exactly one JSON object (trailing data is an
    /// error).
    ///
    /// # Errors
    ///
    /// Malformed JSON, a payload that is not an object, a required field missing or of the
    /// wrong type: the error carries the JSON path (`tool_calls[0].tool_name`, …).
    pub fn from_slice(
        bytes: &[u8],
        event_name_hint: Option<&str>,
    ) -> Result<Self, serde_path_to_error::Error<serde_json::Error>> {
        let mut probe_de = serde_json::Deserializer::from_slice(bytes);
        let probe: NameProbe<'_> = serde_path_to_error::deserialize(&mut probe_de)?;
        finish(&mut probe_de)?;

        let mut de = serde_json::Deserializer::from_slice(bytes);
        let name = probe.hook_event_name.as_deref().or(event_name_hint);
        if name.is_none() {
            // Not a Claude payload: report the missing base field with its path. A payload
            // that has every base field names its event, so it never takes this branch.
            let mut base_de = serde_json::Deserializer::from_slice(bytes);
            serde_path_to_error::deserialize::<_, BaseOnly>(&mut base_de)?;
        }
        let event = Self::decode_as(name.unwrap_or_default(), &mut de)?;
        finish(&mut de)?;
        Ok(event)
    }

    /// The native event name: the payload's `hook_event_name` (for [`NativeEvent::Other`],
    /// the name it carries, or `""` when it carries none).
    pub fn name(&self) -> &str {
        match self.payload() {
            Some(p) => p.hook_event_name(),
            None => self.other_str("hook_event_name").unwrap_or(""),
        }
    }

    /// The unified kind of this event ([`EventKind::Other`] for unknown events).
    pub fn kind(&self) -> EventKind {
        kind_of(self.name())
    }

    /// `session_id` (for [`NativeEvent::Other`], when it carries one as a string).
    pub fn session_id(&self) -> Option<&str> {
        match self.payload() {
            Some(p) => Some(p.session_id()),
            None => self.other_str("session_id"),
        }
    }

    /// `transcript_path`.
    pub fn transcript_path(&self) -> Option<&str> {
        match self.payload() {
            Some(p) => Some(p.transcript_path()),
            None => self.other_str("transcript_path"),
        }
    }

    /// `cwd`.
    pub fn cwd(&self) -> Option<&str> {
        match self.payload() {
            Some(p) => Some(p.cwd()),
            None => self.other_str("cwd"),
        }
    }

    /// `permission_mode`.
    pub fn permission_mode(&self) -> Option<&str> {
        match self.payload() {
            Some(p) => p.permission_mode(),
            None => self.other_str("permission_mode"),
        }
    }

    /// `prompt_id`.
    pub fn prompt_id(&self) -> Option<&str> {
        match self.payload() {
            Some(p) => p.prompt_id(),
            None => self.other_str("prompt_id"),
        }
    }

    /// `agent_id`.
    pub fn agent_id(&self) -> Option<&str> {
        match self.payload() {
            Some(p) => p.agent_id(),
            None => self.other_str("agent_id"),
        }
    }

    /// `agent_type`.
    pub fn agent_type(&self) -> Option<&str> {
        match self.payload() {
            Some(p) => p.agent_type(),
            None => self.other_str("agent_type"),
        }
    }

    fn other_str(&self, key: &str) -> Option<&str> {
        match self {
            NativeEvent::Other(map) => map.get(key).and_then(Value::as_str),
            _ => None,
        }
    }
}

/// Rejects anything but whitespace after the payload object.
fn finish(
    de: &mut serde_json::Deserializer<serde_json::de::SliceRead<'_>>,
) -> Result<(), serde_path_to_error::Error<serde_json::Error>> {
    de.end()
        .map_err(|e| serde_path_to_error::Error::new(serde_path_to_error::Track::new().path(), e))
}

/// The unified kind of a native event name ([`EventKind::Other`] when unknown).
pub fn kind_of(name: &str) -> EventKind {
    spec(name).map_or(EventKind::Other, |s| s.kind)
}

/// The spec of a native event this crate knows.
pub fn spec(name: &str) -> Option<&'static EventRow> {
    EVENTS.iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#""session_id":"s","transcript_path":"/t.jsonl","cwd":"/w""#;

    fn payload(name: &str, rest: &str) -> Vec<u8> {
        let sep = if rest.is_empty() { "" } else { "," };
        format!(r#"{{{BASE},"hook_event_name":"{name}"{sep}{rest}}}"#).into_bytes()
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
        let blocking: Vec<_> = EVENTS.iter().filter(|e| !e.blocking).map(|e| e.name).collect();
        assert_eq!(
            blocking,
            [
                "StopFailure",
                "SessionEnd",
                "PostCompact",
                "InstructionsLoaded",
                "WorktreeRemove",
                "DirectoryAdded"
            ]
        );
    }

    #[test]
    fn decodes_pre_tool_use_with_extra_and_base() {
        let bytes = payload(
            "PreToolUse",
            r#""prompt_id":"p1","effort":{"level":"high","budget":3},"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1","new_key":[1,2]"#,
        );
        let ev = NativeEvent::from_slice(&bytes, None).expect("decodes");
        assert_eq!(ev.name(), "PreToolUse");
        assert_eq!(ev.kind(), EventKind::ToolPre);
        assert_eq!(ev.prompt_id(), Some("p1"));
        assert_eq!(ev.session_id(), Some("s"));
        assert_eq!(ev.extra().len(), 1);
        assert_eq!(ev.extra()["new_key"], serde_json::json!([1, 2]));
        let NativeEvent::PreToolUse(pre) = ev else {
            panic!("wrong variant")
        };
        assert_eq!(pre.tool_name, "Bash");
        assert_eq!(pre.tool_input["command"], "ls");
        let effort = pre.effort.expect("effort");
        assert_eq!(effort.level.as_deref(), Some("high"));
        assert_eq!(effort.extra["budget"], 3);
    }

    #[test]
    fn unknown_event_is_other_with_every_key() {
        let bytes = payload("BrandNewEvent", r#""x":{"y":null}"#);
        let ev = NativeEvent::from_slice(&bytes, None).expect("decodes");
        let NativeEvent::Other(map) = &ev else {
            panic!("expected Other")
        };
        assert_eq!(map.len(), 5);
        assert_eq!(ev.name(), "BrandNewEvent");
        assert_eq!(ev.kind(), EventKind::Other);
        assert_eq!(ev.cwd(), Some("/w"));
        let back = serde_json::to_vec(&ev).expect("serializes");
        assert_eq!(back, bytes);
    }

    #[test]
    fn missing_required_field_reports_path() {
        let bytes = payload("PostToolBatch", r#""tool_calls":[{"tool_input":{},"tool_use_id":"t"}]"#);
        let err = NativeEvent::from_slice(&bytes, None).expect_err("must fail");
        assert_eq!(err.path().to_string(), "tool_calls[0]");
        assert!(err.to_string().contains("missing field `tool_name`"), "{err}");
    }

    #[test]
    fn wrong_type_reports_path() {
        let bytes = payload("Stop", r#""stop_hook_active":"yes""#);
        let err = NativeEvent::from_slice(&bytes, None).expect_err("must fail");
        assert_eq!(err.path().to_string(), "stop_hook_active");
    }

    #[test]
    fn payload_without_name_uses_hint_then_reports_missing_base_field() {
        let bytes = format!(r#"{{{BASE},"prompt":"hi"}}"#).into_bytes();
        let err = NativeEvent::from_slice(&bytes, Some("UserPromptSubmit")).expect_err("fails");
        assert!(err.to_string().contains("missing field `hook_event_name`"), "{err}");
        let err = NativeEvent::from_slice(&bytes, None).expect_err("fails");
        assert!(err.to_string().contains("missing field `hook_event_name`"), "{err}");
    }

    #[test]
    fn payload_name_wins_over_hint() {
        let bytes = payload("SessionEnd", r#""reason":"other""#);
        let ev = NativeEvent::from_slice(&bytes, Some("PreToolUse")).expect("decodes");
        assert!(matches!(ev, NativeEvent::SessionEnd(ref e) if e.reason == "other"));
    }

    #[test]
    fn rejects_non_objects_trailing_data_and_bad_name_type() {
        assert!(NativeEvent::from_slice(b"[]", None).is_err());
        assert!(NativeEvent::from_slice(b"", None).is_err());
        assert!(NativeEvent::from_slice(b"\xff", None).is_err());
        let mut bytes = payload("SessionEnd", r#""reason":"other""#);
        bytes.extend_from_slice(b" {}");
        assert!(NativeEvent::from_slice(&bytes, None).is_err());
        let err = NativeEvent::from_slice(br#"{"hook_event_name":5}"#, None).expect_err("fails");
        assert_eq!(err.path().to_string(), "hook_event_name");
    }

    #[test]
    fn explicit_null_is_kept_for_free_shape_optionals() {
        let bytes = payload(
            "PostToolBatch",
            r#""tool_calls":[{"tool_name":"Bash","tool_input":{},"tool_use_id":"t","tool_response":null},{"tool_name":"Read","tool_input":{},"tool_use_id":"u"}]"#,
        );
        let ev = NativeEvent::from_slice(&bytes, None).expect("decodes");
        let NativeEvent::PostToolBatch(batch) = &ev else {
            panic!("wrong variant")
        };
        assert_eq!(batch.tool_calls[0].tool_response, Some(Value::Null));
        assert_eq!(batch.tool_calls[1].tool_response, None);
        assert_eq!(serde_json::to_vec(&ev).expect("serializes"), bytes);
    }

    #[test]
    fn nullable_always_sent_fields_serialize_null() {
        let bytes = payload("PreCompact", r#""trigger":"auto","custom_instructions":null"#);
        let ev = NativeEvent::from_slice(&bytes, None).expect("decodes");
        assert!(matches!(&ev, NativeEvent::PreCompact(c) if c.custom_instructions.is_none()));
        assert_eq!(serde_json::to_vec(&ev).expect("serializes"), bytes);
    }

    #[test]
    fn subagent_events_require_agent_fields() {
        let ok = payload("SubagentStart", r#""agent_id":"a1","agent_type":"Explore""#);
        let ev = NativeEvent::from_slice(&ok, None).expect("decodes");
        assert_eq!(ev.agent_id(), Some("a1"));
        assert_eq!(ev.agent_type(), Some("Explore"));
        let missing = payload("SubagentStart", r#""agent_type":"Explore""#);
        let err = NativeEvent::from_slice(&missing, None).expect_err("fails");
        assert!(err.to_string().contains("agent_id"), "{err}");
    }

    #[test]
    fn message_display_final_keyword_field() {
        let bytes = payload(
            "MessageDisplay",
            r#""turn_id":"t","message_id":"m","index":0,"final":true,"delta":"hi""#,
        );
        let ev = NativeEvent::from_slice(&bytes, None).expect("decodes");
        assert!(matches!(&ev, NativeEvent::MessageDisplay(m) if m.is_final && m.delta == "hi"));
        assert_eq!(ev.kind(), EventKind::ModelResponse);
        assert_eq!(serde_json::to_vec(&ev).expect("serializes"), bytes);
    }
}
