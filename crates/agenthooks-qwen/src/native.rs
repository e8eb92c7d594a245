//! Native Qwen Code hook payloads, typed field for field, and the table of their facts.
//!
//! Qwen Code (a Gemini CLI fork) sends one `snake_case` JSON object on stdin per hook call, with
//! Claude Code's event names. The base fields come from Qwen's `createBaseInput`
//! (`packages/core/src/hooks/hookEventHandler.ts`, read from the 0.24.4 bundle): `session_id`,
//! `source_type`/`source_id` (when the session was started from another surface),
//! `transcript_path`, `cwd`, `hook_event_name`, `timestamp` (ISO-8601, Qwen's own clock),
//! `permission_mode`, `agent_id` (inside a subagent) and `prompt_id` (the turn). 0.12.0 sent only
//! `session_id`, `transcript_path`, `cwd`, `hook_event_name` and `timestamp`.
//!
//! [`EVENTS`] is the single source of each event's facts (kind, whether Qwen awaits the hook,
//! tool matcher, capabilities, fail-closed answer, identifying fields, which event install
//! wires for a kind); the structs, [`NativeEvent`] and its decoder are generated from it by
//! [`agenthooks_core::kit::native_events!`].
//!
//! Tolerance rules (`docs/codec-guide.md`): only `hook_event_name` (or the `--event` hint) and
//! `tool_name` on tool events are required; every other field is an `Option`; free shapes
//! (`tool_input`, `tool_response`, `error_details`, `all_todos`, …) are raw JSON or
//! [`serde_json::Value`]; a value of a shape no release sent is kept in `extra` and reported on
//! the envelope's `projection_issues`; every struct ends with `extra`.
//!
//! ```
//! use agenthooks_core::Provider;
//! use agenthooks_qwen::native::NativeEvent;
//!
//! let bytes = br#"{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w",
//!     "hook_event_name":"PreToolUse","timestamp":"2026-12-02T10:00:00.000Z",
//!     "permission_mode":"yolo","tool_name":"run_shell_command",
//!     "tool_input":{"command":"ls"},"tool_use_id":"toolu_1","brand_new":1}"#;
//! let decoded = NativeEvent::decode(&Provider::QWEN, bytes, None)?;
//! let NativeEvent::PreToolUse(ev) = &decoded.native else { unreachable!() };
//! assert_eq!(ev.tool_name, "run_shell_command");
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

/// A native event struct that can be borrowed out of a [`NativeEvent`]: the typed views of
/// [`crate::view_as`].
pub use agenthooks_core::kit::FromNative;

// ---------------------------------------------------------------------------------------------
// What Qwen honours, per event (read from the consumers of each `fire…Hook` in 0.24.4)
// ---------------------------------------------------------------------------------------------

/// `PreToolUse`: deny, ask (`permissionDecision`), context, system message. No allow (the hook
/// runs after the approval step, quirk 903), no rewrite (Qwen applies no `updatedInput` here,
/// quirk 902) and no stop (`continue: false` only blocks the call, quirk 913).
pub const TOOL_GATE: CapSet = CapSet::of(&[C::Deny, C::Ask, C::AddContext, C::SystemMessage]);
/// `PermissionRequest`: allow (with a rewrite) or deny; Qwen's own dialog follows an
/// abstention.
pub const PERMISSION: CapSet = CapSet::of(&[C::Allow, C::Deny, C::UpdateInput, C::SystemMessage, C::PermissionDialog]);
/// `PostToolUse`: context. No output replacement, feedback decision or stop (quirk 904:
/// `continue: false` turns the result into an error carrying `stopReason`).
pub const POST_TOOL: CapSet = CapSet::of(&[C::AddContext, C::SystemMessage]);
/// `UserPromptSubmit`: block the prompt, context, stop.
pub const PROMPT: CapSet = CapSet::of(&[C::Deny, C::AddContext, C::StopAgent, C::SystemMessage]);
/// `Stop`/`SubagentStop`: continue the agent (`decision: "block"` or, quirk 905,
/// `continue: false`).
pub const STOP: CapSet = CapSet::of(&[C::ContinueAgent, C::SystemMessage]);
/// Events that take context.
pub const CONTEXT: CapSet = CapSet::of(&[C::AddContext, C::SystemMessage]);
/// Events whose JSON output Qwen reads for `systemMessage` only.
pub const NOTICE: CapSet = CapSet::of(&[C::SystemMessage]);

/// The identifying field of tool events.
const TOOL: &[&str] = &["tool_name"];

agenthooks_core::kit::native_record! {
    /// One resolved call of a batch (`PostToolBatch.tool_calls[]`).
    pub struct BatchToolCall {
        /// Native tool name, verbatim.
        tool_name: Option<String>,
        /// Tool arguments.
        #[serde(deserialize_with = "some")]
        tool_input: Option<RawJson>,
        /// Qwen's tool-use id.
        tool_use_id: Option<String>,
        /// The result Qwen feeds back to the model (absent on calls that produced none).
        #[serde(deserialize_with = "some")]
        tool_response: Option<RawJson>,
    }
}

// ---------------------------------------------------------------------------------------------
// The 22 events of Qwen Code 0.24.4
// ---------------------------------------------------------------------------------------------

agenthooks_core::kit::native_events! {
    /// A decoded Qwen Code hook payload: one variant per native event of Qwen Code 0.24.4
    /// (`HookEventName` in `packages/core/src/hooks/types.ts`), plus [`NativeEvent::Other`].
    name_key Some("hook_event_name");
    common {
        /// `session_id`: the session UUID.
        session_id: Option<String>,
        /// `source_type`: the surface a session was started from, when not the CLI (since
        /// 0.23).
        source_type: Option<String>,
        /// `source_id`: the id of that surface's session.
        source_id: Option<String>,
        /// `transcript_path`: the session's JSONL chat recording.
        transcript_path: Option<String>,
        /// `cwd`: the working directory.
        cwd: Option<String>,
        /// `hook_event_name`: the native event name.
        hook_event_name: Option<String>,
        /// `timestamp`: Qwen's own ISO-8601 time of the hook call, verbatim.
        timestamp: Option<String>,
        /// `permission_mode`: `default`, `plan`, `auto_edit`, `yolo`, … (since 0.15; tool
        /// events set their own).
        permission_mode: Option<String>,
        /// `agent_id`: the subagent id, inside a subagent.
        agent_id: Option<String>,
        /// `prompt_id`: the id of the current user prompt (the turn).
        prompt_id: Option<String>,
    }
    events {
        /// `PreToolUse`: a tool call is about to run (after its approval). Gate: deny, ask;
        /// context. Matcher: tool name.
        PreToolUse("PreToolUse", ToolPre, blocking, tool_matcher).caps(TOOL_GATE).fail(FailShape::Block).identify(TOOL).may_async() {
            /// Native tool name, verbatim (`run_shell_command`, `mcp__<server>__<tool>`, …).
            tool_name: String,
            /// Tool arguments as the model produced them.
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// Qwen's tool-use id (`toolu_<ms>_<random>`); the same id arrives on the post
            /// event.
            tool_use_id: Option<String>,
            /// The model API's own call id (`call_…`).
            tool_call_id: Option<String>,
        }
        /// `PermissionRequest`: an approval dialog is about to show. Gate: allow (optionally with
        /// a rewritten input) or deny. Matcher: tool name.
        PermissionRequest("PermissionRequest", Permission, blocking, tool_matcher).caps(PERMISSION).fail(FailShape::Block).identify(TOOL).may_async() {
            /// Native tool name, verbatim.
            tool_name: String,
            /// Tool arguments.
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// Suggested permission updates, as Qwen would offer them.
            #[serde(deserialize_with = "present")]
            permission_suggestions: Option<Value>,
        }
        /// `PermissionDenied`: the auto-mode classifier denied a call. Observe only. Matcher:
        /// tool name.
        PermissionDenied("PermissionDenied", Other, blocking, tool_matcher).caps(NOTICE).identify(TOOL).provider_only().may_async() {
            /// Native tool name, verbatim.
            tool_name: String,
            /// Tool arguments.
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// Qwen's tool-use id.
            tool_use_id: Option<String>,
            /// The model API's own call id.
            tool_call_id: Option<String>,
            /// Why the call was denied (`classifier_blocked`, …).
            reason: Option<String>,
        }
        /// `PostToolUse`: the tool succeeded. Context. Matcher: tool name.
        PostToolUse("PostToolUse", ToolPost, blocking, tool_matcher).caps(POST_TOOL).identify(TOOL).may_async() {
            /// Native tool name, verbatim.
            tool_name: String,
            /// Tool arguments.
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// The tool's result: `{llmContent, returnDisplay, …}` (shell display flattened to
            /// its text).
            #[serde(deserialize_with = "some")]
            tool_response: Option<RawJson>,
            /// Qwen's tool-use id.
            tool_use_id: Option<String>,
            /// The model API's own call id.
            tool_call_id: Option<String>,
            /// Wall-clock run time of the tool, in milliseconds.
            #[serde(deserialize_with = "lenient::opt_u64")]
            duration_ms: Option<u64>,
        }
        /// `PostToolUseFailure`: the tool failed or was interrupted. Context only. Matcher: tool
        /// name.
        PostToolUseFailure("PostToolUseFailure", ToolError, blocking, tool_matcher).caps(CONTEXT).identify(TOOL).may_async() {
            /// Native tool name, verbatim.
            tool_name: String,
            /// Tool arguments.
            #[serde(deserialize_with = "some")]
            tool_input: Option<RawJson>,
            /// Qwen's tool-use id.
            tool_use_id: Option<String>,
            /// The model API's own call id.
            tool_call_id: Option<String>,
            /// The error text.
            error: Option<String>,
            /// `true` when the call was interrupted.
            #[serde(deserialize_with = "lenient::opt_bool")]
            is_interrupt: Option<bool>,
            /// Wall-clock run time of the tool, in milliseconds.
            #[serde(deserialize_with = "lenient::opt_u64")]
            duration_ms: Option<u64>,
        }
        /// `PostToolBatch`: every call of a batch resolved. Context (`decision: "block"` or
        /// `continue: false` marks the batch stopped).
        PostToolBatch("PostToolBatch", Other, blocking).caps(CONTEXT).provider_only().may_async() {
            /// The batch's calls.
            tool_calls: Option<Vec<BatchToolCall>>,
        }
        /// `UserPromptSubmit`: a prompt was submitted. Gate: `decision: "block"`; context.
        UserPromptSubmit("UserPromptSubmit", PromptSubmitted, blocking).caps(PROMPT).fail(FailShape::Block).may_async() {
            /// The prompt text the model will see.
            prompt: Option<String>,
            /// The prompt as the user typed it, when it differs (`@file` expansion, …).
            submitted_prompt: Option<String>,
        }
        /// `UserPromptExpansion`: a slash command expanded into a prompt. Gate:
        /// `decision: "block"`; context (HTML-escaped, 10 000 characters).
        UserPromptExpansion("UserPromptExpansion", Other, blocking).caps(CONTEXT).fail(FailShape::Block).provider_only().may_async() {
            /// The command (without `/`).
            command_name: Option<String>,
            /// The arguments after the command.
            #[serde(deserialize_with = "present")]
            command_args: Option<Value>,
            /// The expanded prompt.
            prompt: Option<String>,
        }
        /// `SessionStart`: startup, resume, clear or compact. Context. Matcher: `source`.
        SessionStart("SessionStart", SessionStart, blocking).caps(CONTEXT).may_async() {
            /// `startup`, `resume`, `clear` or `compact`.
            source: Option<String>,
            /// The session's model.
            model: Option<String>,
            /// The agent type (main thread of an agent session).
            agent_type: Option<String>,
        }
        /// `SessionEnd`: the session ends. Observe only. Matcher: `reason`.
        SessionEnd("SessionEnd", SessionEnd).caps(NOTICE).may_async() {
            /// `clear`, `logout`, `prompt_input_exit`, `other`, …
            reason: Option<String>,
        }
        /// `SessionDelete`: a saved session was deleted. Observe only; the hook outlives Qwen.
        SessionDelete("SessionDelete", Other).may_async().provider_only() {
            /// The deleted session.
            deleted_session_id: Option<String>,
        }
        /// `Stop`: the main agent is about to finish its turn. `decision: "block"` (or
        /// `continue: false`, quirk 905) + `reason` runs another turn with the reason as the
        /// prompt.
        Stop("Stop", Stop, blocking).caps(STOP) {
            /// `true` while the prompt is continuing because a Stop hook blocked.
            #[serde(deserialize_with = "lenient::opt_bool")]
            stop_hook_active: Option<bool>,
            /// The final assistant text of the turn (`[no response text]` when none).
            last_assistant_message: Option<String>,
            /// Background tasks still running.
            #[serde(deserialize_with = "present")]
            background_tasks: Option<Value>,
            /// Scheduled (cron) prompts of the session.
            #[serde(deserialize_with = "present")]
            crons: Option<Value>,
            /// Fraction of the context window in use.
            context_usage: Option<Number>,
            /// The context window, in tokens.
            context_limit: Option<Number>,
            /// Input tokens of the last request.
            input_tokens: Option<Number>,
        }
        /// `StopFailure`: an API error ended the turn. Fire-and-forget: output ignored.
        StopFailure("StopFailure", Other).may_async().provider_only() {
            /// The error kind.
            error: Option<String>,
            /// Details of the error.
            #[serde(deserialize_with = "present")]
            error_details: Option<Value>,
            /// The last assistant text before the failure.
            last_assistant_message: Option<String>,
        }
        /// `MessageDisplay`: assistant text streamed to the screen. Fire-and-forget.
        MessageDisplay("MessageDisplay", ModelResponse).may_async().provider_only() {
            /// The assistant message's id.
            message_id: Option<String>,
            /// The text displayed so far.
            displayed_text: Option<String>,
            /// `true` on the last update of the message.
            #[serde(deserialize_with = "lenient::opt_bool")]
            is_final: Option<bool>,
        }
        /// `SubagentStart`: a subagent was spawned. Context. Matcher: agent type.
        SubagentStart("SubagentStart", SubagentStart, blocking).caps(CONTEXT).may_async() {
            /// The subagent type.
            agent_type: Option<String>,
        }
        /// `SubagentStop`: a subagent is about to finish. `decision: "block"` continues it.
        /// Matcher: agent type.
        SubagentStop("SubagentStop", SubagentStop, blocking).caps(STOP).may_async() {
            /// The subagent type.
            agent_type: Option<String>,
            /// `true` when this stop follows a continuation a hook forced.
            #[serde(deserialize_with = "lenient::opt_bool")]
            stop_hook_active: Option<bool>,
            /// The subagent's transcript.
            agent_transcript_path: Option<String>,
            /// The subagent's final text.
            last_assistant_message: Option<String>,
            /// Background tasks still running.
            #[serde(deserialize_with = "present")]
            background_tasks: Option<Value>,
            /// Scheduled (cron) prompts of the session.
            #[serde(deserialize_with = "present")]
            crons: Option<Value>,
        }
        /// `PreCompact`: before compaction. Context becomes extra compaction instructions
        /// (quirk 906). Matcher: `manual`/`auto`.
        PreCompact("PreCompact", CompactPre, blocking).caps(CONTEXT).may_async() {
            /// `manual` or `auto`.
            trigger: Option<String>,
            /// The instructions given to `/compress` (`""` when none).
            custom_instructions: Option<String>,
        }
        /// `PostCompact`: after compaction. Observe only.
        PostCompact("PostCompact", CompactPost).caps(NOTICE).may_async() {
            /// `manual` or `auto`.
            trigger: Option<String>,
            /// The summary that replaced the conversation.
            compact_summary: Option<String>,
        }
        /// `Notification`: a notification is shown. Observe only. Matcher: `notification_type`.
        Notification("Notification", Notification, blocking).caps(NOTICE).may_async() {
            /// The notification text.
            message: Option<String>,
            /// `permission_prompt`, `idle_prompt`, …
            notification_type: Option<String>,
            /// The notification title.
            title: Option<String>,
        }
        /// `TodoCreated`: a todo item was added. `decision: "block"` rejects it; Qwen itself
        /// blocks when its hook system fails here (quirk 907).
        TodoCreated("TodoCreated", Other, blocking).caps(NOTICE).fail(FailShape::Block).provider_only().may_async() {
            /// The item's id.
            todo_id: Option<String>,
            /// The item's text.
            todo_content: Option<String>,
            /// The item's status.
            todo_status: Option<String>,
            /// Every item of the list.
            #[serde(deserialize_with = "present")]
            all_todos: Option<Value>,
            /// The list's phase.
            #[serde(deserialize_with = "present")]
            phase: Option<Value>,
        }
        /// `TodoCompleted`: a todo item was completed. `decision: "block"` rejects the change.
        TodoCompleted("TodoCompleted", Other, blocking).caps(NOTICE).fail(FailShape::Block).provider_only().may_async() {
            /// The item's id.
            todo_id: Option<String>,
            /// The item's text.
            todo_content: Option<String>,
            /// The status before completion.
            previous_status: Option<String>,
            /// Every item of the list.
            #[serde(deserialize_with = "present")]
            all_todos: Option<Value>,
            /// The list's phase.
            #[serde(deserialize_with = "present")]
            phase: Option<Value>,
        }
        /// `InstructionsLoaded`: a `QWEN.md` or memory file was loaded. Observe only.
        InstructionsLoaded("InstructionsLoaded", Other).caps(NOTICE).may_async().provider_only() {
            /// The loaded file.
            file_path: Option<String>,
            /// The memory type.
            memory_type: Option<String>,
            /// Why it was loaded.
            load_reason: Option<String>,
            /// The file whose access triggered the load.
            trigger_file_path: Option<String>,
            /// The file that imported this one.
            parent_file_path: Option<String>,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::kit::Repair;
    use agenthooks_core::{EventKind, Provider};

    const BASE: &str = r#""session_id":"s","transcript_path":"/t.jsonl","cwd":"/w""#;

    fn payload(name: &str, rest: &str) -> Vec<u8> {
        let sep = if rest.is_empty() { "" } else { "," };
        format!(r#"{{{BASE},"hook_event_name":"{name}","timestamp":"2026-12-02T00:00:00.000Z"{sep}{rest}}}"#)
            .into_bytes()
    }

    #[test]
    fn the_table_lists_the_22_events_of_0_24_4() {
        assert_eq!(EVENTS.len(), 22);
        let mut names: Vec<_> = EVENTS.iter().map(|e| e.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 22);
        let non_blocking: Vec<_> = EVENTS.iter().filter(|e| !e.blocking).map(|e| e.name).collect();
        assert_eq!(
            non_blocking,
            [
                "SessionEnd",
                "SessionDelete",
                "StopFailure",
                "MessageDisplay",
                "PostCompact",
                "InstructionsLoaded"
            ]
        );
    }

    #[test]
    fn decodes_a_tool_event_with_extra() {
        let bytes = payload(
            "PostToolUse",
            r#""permission_mode":"yolo","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_response":{"llmContent":"a"},"tool_use_id":"toolu_1","duration_ms":12,"new":[1]"#,
        );
        let d = NativeEvent::decode(&Provider::QWEN, &bytes, None).expect("decodes");
        assert!(d.issues.is_empty());
        let NativeEvent::PostToolUse(e) = &d.native else {
            panic!("variant")
        };
        assert_eq!(e.duration_ms, Some(12));
        assert_eq!(e.extra["new"], serde_json::json!([1]));
        assert_eq!(d.native.kind(), EventKind::ToolPost);
        assert_eq!(serde_json::to_vec(&d.native).expect("serializes"), bytes);
    }

    #[test]
    fn retyped_field_moves_to_extra_and_missing_tool_name_keeps_the_kind() {
        let d =
            NativeEvent::decode(&Provider::QWEN, &payload("Stop", r#""stop_hook_active":[1]"#), None).expect("decodes");
        assert_eq!(d.issues[0].repair, Repair::MovedToExtra);
        let d =
            NativeEvent::decode(&Provider::QWEN, &payload("PreToolUse", r#""tool_input":{}"#), None).expect("decodes");
        assert_eq!(d.native.kind(), EventKind::ToolPre);
        assert!(d.issues.iter().any(|i| i.repair == Repair::Placeholder));
    }
}
