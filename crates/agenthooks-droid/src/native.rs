//! Native Factory Droid hook payloads, typed field for field.
//!
//! One struct per hook event of Factory Droid (`droid`, checked against the real 0.215.0 binary:
//! its hook runner, its settings schema and captured payloads), all declared by one
//! [`agenthooks_core::kit::native_events!`] table: each row carries the event's facts
//! ([`EVENTS`]: kind, whether Droid acts on the answer, tool matcher, capabilities, fail-closed
//! answer) and the event's own fields. Every struct keeps the keys it does not know in `extra`.
//!
//! # Wire shape
//!
//! Droid writes one compact JSON object to the hook's stdin (`JSON.stringify`): `session_id`,
//! `transcript_path`, `cwd`, `permission_mode` (Droid's autonomy: `off`, `spec`, `auto-low`,
//! `auto-medium`, `auto-high`), `hook_event_name` and the event's fields. Keys whose value is
//! `undefined` are absent. Droid also exports every top-level string, number or boolean field
//! as an environment variable of the same name (`session_id`, `cwd`, …), beside
//! `FACTORY_PROJECT_DIR`, `DROID_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` (all the working
//! directory).
//!
//! # Required or optional (tolerant decoding)
//!
//! Only the event name and, on the tool events, `tool_name` are required. Every other field is
//! an `Option`: `message_id` appears only where Droid has one, `SessionStart` sends
//! `CLAUDE_ENV_FILE` (an upper-case payload key) and `previous_session_id` only on resume, and
//! `PostToolUse.tool_response` is Droid's text rendering of the result (a string) for built-in
//! tools but may be any JSON value.

use agenthooks_core::kit::FailShape;
use agenthooks_core::{CapSet, Capability as C};

/// `PreToolUse`: deny (JSON or exit 2), allow (skips Droid's own permission check), a rewritten
/// input with or without a verdict, and stopping the agent (`continue: false`).
pub const TOOL_GATE: CapSet = CapSet::of(&[C::Deny, C::Allow, C::UpdateInput, C::NeutralRewrite, C::StopAgent]);
/// `PostToolUse`: context for the model, a message for the user, stopping the agent.
pub const POST_TOOL: CapSet = CapSet::of(&[C::AddContext, C::SystemMessage, C::StopAgent]);
/// `UserPromptSubmit`: a block, and context for the model.
pub const PROMPT: CapSet = CapSet::of(&[C::Deny, C::AddContext]);
/// `Stop`: continuing the agent, stopping it, a message for the user.
pub const STOP: CapSet = CapSet::of(&[C::ContinueAgent, C::StopAgent, C::SystemMessage]);
/// `SessionStart`: context for the model (JSON `additionalContext` or plain stdout).
pub const SESSION_START: CapSet = CapSet::of(&[C::AddContext]);

/// The identifying field of tool events.
const TOOL: &[&str] = &["tool_name"];

agenthooks_core::kit::native_events! {
    /// A decoded Factory Droid hook payload.
    name_key Some("hook_event_name");
    common {
        /// The native event name (absent only when the name came from `--event`).
        hook_event_name: Option<String>,
        /// The session id (`"unknown"` before Droid has one).
        session_id: Option<String>,
        /// The session's JSONL transcript (`~/.factory/sessions/<cwd slug>/<id>.jsonl`); `""`
        /// when Droid has none yet.
        transcript_path: Option<String>,
        /// The working directory.
        cwd: Option<String>,
        /// Droid's autonomy mode: `off`, `spec`, `auto-low`, `auto-medium`, `auto-high`.
        permission_mode: Option<String>,
        /// The id of the message the event belongs to, where Droid has one.
        message_id: Option<String>,
    }
    events {
        /// `PreToolUse`: before a tool call, before Droid's own permission check. Can deny, allow,
        /// rewrite the input or stop the agent (matcher: tool name, an unanchored regex).
        PreToolUse("PreToolUse", ToolPre, blocking, tool_matcher)
            .caps(TOOL_GATE).fail(FailShape::Block).identify(TOOL) {
            /// The tool name (`Execute`, `Create`, `Edit`, `Read`, `<server>___<tool>`, …);
            /// identifying, required.
            tool_name: String,
            /// The tool arguments as the model sent them.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
        }
        /// `PostToolUse`: a tool call finished. Can add context, show a message, stop the agent;
        /// exit 2 feeds stderr to the model.
        PostToolUse("PostToolUse", ToolPost, blocking, tool_matcher)
            .caps(POST_TOOL).identify(TOOL) {
            /// The tool name; identifying, required.
            tool_name: String,
            /// The tool arguments.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_input: Option<agenthooks_core::RawJson>,
            /// The tool's result: Droid's text rendering for built-in tools.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::some")]
            tool_response: Option<agenthooks_core::RawJson>,
        }
        /// `UserPromptSubmit`: a prompt is submitted (not fired by `droid exec`, quirk 1001).
        /// Can block it or add context.
        UserPromptSubmit("UserPromptSubmit", PromptSubmitted, blocking)
            .caps(PROMPT).fail(FailShape::Block) {
            /// The prompt text.
            prompt: Option<String>,
            /// Whether images are attached.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::opt_bool")]
            has_images: Option<bool>,
        }
        /// `Stop`: the agent finished its turn. Can continue it (`decision: "block"` with a
        /// reason, or exit 2) or stop it.
        Stop("Stop", Stop, blocking).caps(STOP) {
            /// Whether the agent is already continuing because of a Stop hook.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::opt_bool")]
            stop_hook_active: Option<bool>,
            /// How many tools ran in the turn (0 in 0.215.0 even after a tool ran).
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::opt_u64")]
            tool_execution_count: Option<u64>,
            /// Milliseconds since the turn started.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::opt_u64")]
            elapsed_time: Option<u64>,
        }
        /// `SubagentStop`: a `Task` subagent finished. Observed only.
        SubagentStop("SubagentStop", SubagentStop) {
            /// The subagent's task name.
            task_name: Option<String>,
            /// The subagent's result (a string; a JSON value arrives stringified).
            task_result: Option<String>,
            /// The subagent's error, when it failed.
            task_error: Option<String>,
            /// Always `false` in 0.215.0.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::opt_bool")]
            stop_hook_active: Option<bool>,
        }
        /// `Notification`: Droid waits for the user (`idle_prompt`, permission prompts). Observed
        /// only.
        Notification("Notification", Notification) {
            /// The message shown.
            message: Option<String>,
            /// The notification type (`idle_prompt`, …).
            notification_type: Option<String>,
        }
        /// `PreCompact`: before the conversation is compacted. Exit 2 or 3 skips the compaction;
        /// no unified decision states that, so it is observed only.
        PreCompact("PreCompact", CompactPre) {
            /// `manual` or `auto`.
            trigger: Option<String>,
            /// The `/compact` instructions.
            custom_instructions: Option<String>,
            /// Messages before compaction.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::opt_u64")]
            message_count: Option<u64>,
            /// Droid's token estimate.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::opt_u64")]
            estimated_tokens: Option<u64>,
        }
        /// `SessionStart`: a session starts or resumes (matcher: the source). Its context reaches
        /// the model.
        SessionStart("SessionStart", SessionStart, blocking).caps(SESSION_START) {
            /// `startup`, `resume`, `clear` or `compact`.
            source: Option<String>,
            /// The previous session, on resume or fork.
            previous_session_id: Option<String>,
            /// The session that started this one (a subagent's parent).
            calling_session_id: Option<String>,
            /// A file the hook may append `export NAME=value` lines to (Claude's name, upper case).
            #[serde(rename = "CLAUDE_ENV_FILE")]
            claude_env_file: Option<String>,
        }
        /// `SessionEnd`: the session ends. Observed only.
        SessionEnd("SessionEnd", SessionEnd) {
            /// Why (`other`, `clear`, `logout`, …).
            reason: Option<String>,
            /// Milliseconds since the session file was created (a float).
            session_duration_ms: Option<serde_json::Number>,
            /// Messages in the session file.
            #[serde(deserialize_with = "agenthooks_core::kit::lenient::opt_u64")]
            message_count: Option<u64>,
        }
    }
}
