//! Claude Code, as documented in `reference/providers/claude-code.md` (2.1.332 schemas, the
//! public hooks reference) and observed in the 2.1.197 e2e runs.
//!
//! - exit 0: stdout is parsed when it is JSON; empty stdout is no decision (not an allow);
//!   plain text is context on `UserPromptSubmit`, `UserPromptExpansion`, `SessionStart` and
//!   `Setup`, and goes to the debug log elsewhere;
//! - exit 2: stdout ignored; stderr is the block reason (deny the tool/prompt/permission,
//!   continue a stop, feed back a tool result), or only shown to the user on other events;
//! - any other exit or a timeout: a non-blocking error, the action proceeds.

use std::path::Path;

use serde_json::{Map, Value};

use super::{
    parse_stdout, path_str, payload_value, read_permission_request_decision, str_field, tool_name_starts_with, Effect,
    FakeAgent, HookOutput, Parsed, Profile, TimeoutUnit, Verdict,
};

/// The Claude Code fake agent.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Claude;

const EVENTS: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "PreSkillShellCommand",
    "Stop",
    "SubagentStop",
    "StopFailure",
    "SessionStart",
    "SessionEnd",
    "Setup",
    "SubagentStart",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "Notification",
    "Elicitation",
    "ElicitationResult",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "ConfigChange",
    "InstructionsLoaded",
    "WorktreeCreate",
    "WorktreeRemove",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
];

/// What exit 2 (or top-level `decision: "block"`) means on an event.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    /// The action is prevented.
    Deny,
    /// The agent keeps going with the reason.
    Continue,
    /// The reason is fed to the model about the tool result.
    Feedback,
    /// The reason reaches the model as context.
    Context,
    /// Shown to the user only.
    UserOnly,
}

fn block_meaning(event: &str) -> Block {
    match event {
        "PreToolUse"
        | "PermissionRequest"
        | "UserPromptSubmit"
        | "UserPromptExpansion"
        | "PreSkillShellCommand"
        | "PreCompact"
        | "ConfigChange"
        | "PreModelSwitch"
        | "Elicitation" => Block::Deny,
        "Stop" | "SubagentStop" | "TeammateIdle" | "TaskCreated" | "TaskCompleted" => Block::Continue,
        "PostToolUse" | "PostToolBatch" => Block::Feedback,
        "PostToolUseFailure" => Block::Context,
        _ => Block::UserOnly,
    }
}

/// Events whose `hookSpecificOutput.additionalContext` reaches the model.
fn takes_context(event: &str) -> bool {
    matches!(
        event,
        "PreToolUse"
            | "PostToolUse"
            | "PostToolUseFailure"
            | "PostToolBatch"
            | "Notification"
            | "SubagentStart"
            | "Setup"
            | "UserPromptSubmit"
            | "UserPromptExpansion"
            | "SessionStart"
            | "Stop"
            | "SubagentStop"
            | "PostModelSwitch"
    )
}

/// Events whose plain-text stdout becomes context.
fn text_is_context(event: &str) -> bool {
    matches!(
        event,
        "UserPromptSubmit" | "UserPromptExpansion" | "SessionStart" | "Setup"
    )
}

fn apply_block(v: &mut Verdict, event: &str, reason: String) {
    match block_meaning(event) {
        Block::Deny => v.effect = Effect::Denied { reason },
        Block::Continue => v.effect = Effect::Continued { instruction: reason },
        Block::Feedback => v.effect = Effect::OutputFlagged { reason },
        Block::Context => v.add_context(&reason),
        Block::UserOnly => v.ignore(format!("a block on {event} is only shown to the user: {reason:?}")),
    }
}

impl Claude {
    fn interpret_json(v: &mut Verdict, event: &str, payload: &Value, o: &Map<String, Value>) {
        if o.get("continue") == Some(&Value::Bool(false)) {
            v.agent_stopped = Some(str_field(o, "stopReason").unwrap_or_default().to_owned());
        }
        if let Some(s) = str_field(o, "systemMessage") {
            v.system_message = Some(s.to_owned());
        }
        // Top-level decision (legacy on PreToolUse).
        match str_field(o, "decision") {
            Some("block") => {
                let reason = str_field(o, "reason").unwrap_or_default().to_owned();
                if event == "PreToolUse" {
                    v.effect = Effect::Denied { reason };
                } else if block_meaning(event) == Block::UserOnly {
                    v.ignore(format!("`decision: block` is not honoured on {event}"));
                } else {
                    apply_block(v, event, reason);
                }
            }
            Some("approve") if event == "PreToolUse" => v.effect = Effect::Allowed,
            Some(other) => v.ignore(format!("`decision: {other:?}` is not honoured on {event}")),
            None => {}
        }
        let Some(hso) = o.get("hookSpecificOutput") else {
            for k in o.keys() {
                if !matches!(
                    k.as_str(),
                    "continue"
                        | "stopReason"
                        | "suppressOutput"
                        | "systemMessage"
                        | "decision"
                        | "reason"
                        | "terminalSequence"
                ) {
                    v.ignore(format!("unknown key `{k}`"));
                }
            }
            return;
        };
        let Some(h) = hso.as_object() else {
            v.problem("`hookSpecificOutput` is not an object");
            return;
        };
        match str_field(h, "hookEventName") {
            Some(n) if n == event => {}
            other => {
                v.problem(format!(
                    "`hookSpecificOutput.hookEventName` is {other:?}, expected {event:?}; the output is rejected"
                ));
                return;
            }
        }
        if let Some(c) = str_field(h, "additionalContext") {
            v.context_where(takes_context(event), c, || {
                format!("`additionalContext` is not read on {event}")
            });
        }
        match event {
            "PreToolUse" | "PreSkillShellCommand" | "PreModelSwitch" => {
                let reason = str_field(h, "permissionDecisionReason").unwrap_or_default().to_owned();
                let decision = str_field(h, "permissionDecision");
                match decision {
                    Some("allow") => v.effect = Effect::Allowed,
                    Some("deny") => v.effect = Effect::Denied { reason },
                    Some("ask") => v.effect = Effect::Asked { reason },
                    Some("defer") => v.ignore("`defer` only applies in -p mode with one call; the normal flow runs"),
                    Some(other) => v.problem(format!("unknown permissionDecision {other:?}")),
                    None => {}
                }
                if let Some(u) = h.get("updatedInput") {
                    match (u.as_object(), decision) {
                        (_, _) if event == "PreSkillShellCommand" => {
                            v.problem("`updatedInput` is never applied on PreSkillShellCommand and blocks the command");
                        }
                        (Some(m), Some("allow" | "ask")) => v.input_rewritten = Some(m.clone()),
                        (Some(_), _) => v.ignore("`updatedInput` without an allow or ask decision is not applied"),
                        (None, _) => v.problem("`updatedInput` is not an object"),
                    }
                }
            }
            "PermissionRequest" => {
                if let Some(d) = h.get("decision").and_then(Value::as_object) {
                    if let Err(other) = read_permission_request_decision(v, d) {
                        v.problem(format!("PermissionRequest decision.behavior is {other:?}"));
                    }
                }
            }
            "PostToolUse" => {
                if let Some(out) = h.get("updatedToolOutput") {
                    v.effect = Effect::OutputReplaced { output: out.clone() };
                } else if let Some(out) = h.get("updatedMCPToolOutput") {
                    let mcp = tool_name_starts_with(payload, "mcp__");
                    v.replace_mcp_output(mcp, "updatedMCPToolOutput", out);
                }
            }
            _ => {}
        }
        if matches!(event, "UserPromptSubmit" | "UserPromptExpansion")
            && matches!(v.effect, Effect::Denied { .. })
            && !v.context.is_empty()
        {
            v.context.clear();
            v.ignore("the prompt is blocked and erased: its additionalContext never reaches the model");
        }
    }
}

const PROFILE: Profile = Profile::new("claude-code", EVENTS, TimeoutUnit::Seconds, 600).failures(
    "timed out: a non-blocking error, the action proceeds",
    "a non-blocking error (stderr shown to the user), the action proceeds",
);

impl FakeAgent for Claude {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn exit_2(&self, v: &mut Verdict, native_event: &str, out: &HookOutput) {
        if !out.stdout.is_empty() {
            v.ignore("stdout is ignored on exit 2");
        }
        apply_block(v, native_event, out.stderr_reason());
    }

    fn exit_0(&self, v: &mut Verdict, native_event: &str, payload: &[u8], out: &HookOutput) {
        if !out.stderr.is_empty() {
            v.ignore("stderr on exit 0 goes to the debug log");
        }
        match parse_stdout(&out.stdout) {
            Parsed::Empty => {}
            Parsed::Object(o) => Self::interpret_json(v, native_event, &payload_value(payload), &o),
            Parsed::OtherJson(j) => v.problem(format!("stdout is JSON but not an object: {j}")),
            Parsed::BrokenJson(e) => v.problem(format!("stdout looks like JSON but does not parse: {e}")),
            Parsed::Text(t) => {
                if text_is_context(native_event) {
                    v.add_context(&t);
                } else {
                    v.ignore(format!(
                        "plain-text stdout on {native_event} goes to the transcript only"
                    ));
                }
            }
        }
    }

    fn hook_env(&self, native_event: &str, payload: &Value, cwd: &Path) -> Vec<(String, String)> {
        let mut env = vec![
            ("CLAUDECODE".to_owned(), "1".to_owned()),
            ("CLAUDE_CODE_ENTRYPOINT".to_owned(), "cli".to_owned()),
            ("CLAUDE_PROJECT_DIR".to_owned(), path_str(cwd)),
        ];
        if let Some(s) = payload.get("session_id").and_then(Value::as_str) {
            env.push(("CLAUDE_CODE_SESSION_ID".to_owned(), s.to_owned()));
        }
        if matches!(native_event, "SessionStart" | "Setup" | "CwdChanged" | "FileChanged") {
            let f = std::env::temp_dir().join(format!("agenthooks-testkit-claude-env-{}", std::process::id()));
            env.push(("CLAUDE_ENV_FILE".to_owned(), path_str(&f)));
        }
        env
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(event: &str, code: i32, stdout: &str, stderr: &str) -> Verdict {
        super::super::verdict_of(&Claude, event, br#"{"tool_name":"Bash"}"#, (code, stdout, stderr))
    }

    #[test]
    fn exit_codes() {
        assert!(run("PreToolUse", 0, "", "").is_no_op());
        let v = run("SessionEnd", 2, "", "x");
        assert!(v.is_no_op() && !v.ignored.is_empty());
        let v = run("PreToolUse", 1, "", "boom");
        assert!(v.is_no_op() && v.misbehaved());
    }

    #[test]
    fn json_fields() {
        let v = run(
            "PreToolUse",
            0,
            r#"{"continue":false,"stopReason":"s","systemMessage":"m","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"},"additionalContext":"c"}}"#,
            "",
        );
        assert_eq!(v.effect, Effect::Allowed);
        assert_eq!(v.input_rewritten.unwrap()["command"], "ls");
        assert_eq!(
            (v.context, v.system_message, v.agent_stopped),
            (vec!["c".to_owned()], Some("m".to_owned()), Some("s".to_owned()))
        );
        let v = run(
            "PreToolUse",
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"deny"}}"#,
            "",
        );
        assert!(v.misbehaved() && v.effect == Effect::Proceed);
        let v = run("UserPromptSubmit", 0, "today is Monday", "");
        assert_eq!(v.context, ["today is Monday"]);
        let v = run(
            "PermissionRequest",
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"m","interrupt":true}}}"#,
            "",
        );
        assert_eq!(
            (v.effect, v.agent_stopped),
            (Effect::Denied { reason: "m".into() }, Some(String::new()))
        );
        assert!(run("PreToolUse", 0, "{nope", "").misbehaved());
    }
}
