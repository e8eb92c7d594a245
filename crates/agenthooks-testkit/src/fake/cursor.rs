//! Cursor (IDE, `cursor-agent` CLI), as documented in `reference/providers/cursor.md` (current
//! docs plus a static read of the 2026.09 CLI bundle). Cursor's CLI cannot run here, so this
//! fake agent is how a future Cursor codec is checked.
//!
//! - output keys are snake_case; stdout is parsed trimmed, and when it fails but ends in `}`,
//!   the last parseable `{…}` suffix is used;
//! - exit 0 with **empty** stdout is a failure (`empty_stdout`): ignored (fail-open) unless the
//!   entry sets `failClosed`; `{}` is the safe no-op;
//! - invalid JSON on a permission hook blocks; on other hooks it is dropped;
//! - exit 2: permission hooks deny with stderr; `beforeSubmitPrompt` blocks the prompt;
//!   `sessionStart` stops; `stop` reads `{}`;
//! - other exits, crashes, timeouts: fail-open unless `failClosed`.

use std::path::Path;

use serde_json::{Map, Value};

use super::{
    path_str, payload_value, str_field, tool_name_starts_with, Effect, FakeAgent, HookOutput, Profile, TimeoutUnit,
    Verdict,
};

/// The Cursor fake agent.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Cursor {
    /// Whether the hook entry sets `failClosed: true`.
    pub fail_closed: bool,
}

impl Cursor {
    /// Cursor with fail-open hook entries (its default).
    pub const fn new() -> Self {
        Self { fail_closed: false }
    }

    /// Cursor with `failClosed: true` on the hook entry.
    pub const fn fail_closed() -> Self {
        Self { fail_closed: true }
    }
}

const EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "beforeSubmitPrompt",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "subagentStop",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeTabFileRead",
    "afterTabFileEdit",
    "afterAgentResponse",
    "afterAgentThought",
    "preCompact",
    "stop",
    "workspaceOpen",
];

/// The hooks whose answer is a permission (invalid output blocks them).
fn permission_hook(event: &str) -> bool {
    matches!(
        event,
        "preToolUse"
            | "beforeShellExecution"
            | "beforeMCPExecution"
            | "beforeReadFile"
            | "beforeTabFileRead"
            | "subagentStart"
    )
}

/// Cursor's lenient parse: trimmed; on failure, the last parseable `{…}` suffix.
fn parse(text: &str) -> Option<Map<String, Value>> {
    let t = text.trim();
    if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(t) {
        return Some(m);
    }
    if !t.ends_with('}') {
        return None;
    }
    t.char_indices()
        .filter(|(_, c)| *c == '{')
        .find_map(|(i, _)| match serde_json::from_str::<Value>(&t[i..]) {
            Ok(Value::Object(m)) => Some(m),
            _ => None,
        })
}

impl Cursor {
    fn failure(self, v: &mut Verdict, event: &str, why: &str) {
        v.problem(why.to_owned());
        if self.fail_closed && (permission_hook(event) || event == "beforeSubmitPrompt") {
            v.effect = Effect::Denied { reason: why.to_owned() };
        }
    }

    fn interpret_json(v: &mut Verdict, event: &str, payload: &Value, o: &Map<String, Value>) {
        let user = str_field(o, "user_message").map(str::to_owned);
        let agent = str_field(o, "agent_message").map(str::to_owned);
        let reason = || agent.clone().or_else(|| user.clone()).unwrap_or_default();
        match event {
            "preToolUse"
            | "beforeShellExecution"
            | "beforeMCPExecution"
            | "beforeReadFile"
            | "beforeTabFileRead"
            | "subagentStart" => {
                match str_field(o, "permission") {
                    Some("allow") => v.effect = Effect::Allowed,
                    Some("deny") => v.effect = Effect::Denied { reason: reason() },
                    Some("ask") if matches!(event, "beforeShellExecution" | "beforeMCPExecution") => {
                        v.effect = Effect::Asked { reason: reason() };
                    }
                    Some("ask") if event == "subagentStart" => v.effect = Effect::Denied { reason: reason() },
                    Some("ask") => v.ignore(format!("`permission: ask` is parsed but not enforced on {event}")),
                    Some(other) => v.ignore(format!("unknown permission {other:?}")),
                    None => {}
                }
                if event == "preToolUse" {
                    if let Some(m) = o.get("updated_input").and_then(Value::as_object) {
                        if !matches!(v.effect, Effect::Denied { .. }) {
                            v.input_rewritten = Some(m.clone());
                        }
                    }
                }
                if user.is_some() && !matches!(v.effect, Effect::Denied { .. }) {
                    v.system_message.clone_from(&user);
                }
            }
            "postToolUse" | "afterMCPExecution" => {
                if let Some(c) = str_field(o, "additional_context").filter(|_| event == "postToolUse") {
                    v.add_context(c);
                }
                if let Some(out) = o.get("updated_mcp_tool_output").filter(|x| !x.is_null()) {
                    let mcp = event == "afterMCPExecution" || tool_name_starts_with(payload, "MCP:");
                    v.replace_mcp_output(mcp, "updated_mcp_tool_output", out);
                }
            }
            "beforeSubmitPrompt" => {
                if o.get("continue") == Some(&Value::Bool(false)) {
                    v.effect = Effect::Denied {
                        reason: user.clone().unwrap_or_default(),
                    };
                }
                let ctx = str_field(o, "additional_context")
                    .or_else(|| str_field(o, "additionalContext"))
                    .or_else(|| {
                        o.get("hookSpecificOutput")
                            .and_then(Value::as_object)
                            .and_then(|h| str_field(h, "additionalContext"))
                    });
                if let Some(c) = ctx {
                    if matches!(v.effect, Effect::Denied { .. }) {
                        v.ignore("the prompt is blocked: its additional_context never reaches the model");
                    } else {
                        v.add_context(c);
                    }
                }
            }
            "sessionStart" => {
                if let Some(c) = str_field(o, "additional_context") {
                    v.add_context(c);
                }
                if o.contains_key("env") {
                    v.ignore("`env` is exported to the session's later hooks");
                }
                if o.get("continue") == Some(&Value::Bool(false)) {
                    v.ignore("`continue: false` is accepted but not enforced on sessionStart");
                }
            }
            "stop" | "subagentStop" => {
                if let Some(f) = str_field(o, "followup_message") {
                    let completed = event == "stop"
                        || payload
                            .get("status")
                            .and_then(Value::as_str)
                            .is_none_or(|s| s == "completed");
                    if completed {
                        v.effect = Effect::Continued {
                            instruction: f.to_owned(),
                        };
                    } else {
                        v.ignore("subagentStop follow-ups only apply when status is completed");
                    }
                }
            }
            "preCompact" => {
                if user.is_some() {
                    v.system_message.clone_from(&user);
                }
            }
            _ => {
                if !o.is_empty() {
                    v.ignore(format!("{event} reads no output"));
                }
            }
        }
    }
}

const PROFILE: Profile = Profile::new("cursor", EVENTS, TimeoutUnit::Seconds, 60);

impl FakeAgent for Cursor {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn timed_out(&self, v: &mut Verdict, native_event: &str, _out: &HookOutput) {
        self.failure(v, native_event, PROFILE.timed_out);
    }

    fn exit_error(&self, v: &mut Verdict, native_event: &str, code: Option<i32>) {
        self.failure(v, native_event, &format!("exit {code:?}: {}", PROFILE.on_error));
    }

    fn exit_2(&self, v: &mut Verdict, native_event: &str, out: &HookOutput) {
        let reason = out.stderr_reason();
        if permission_hook(native_event) || native_event == "beforeSubmitPrompt" {
            v.effect = Effect::Denied { reason };
        } else if native_event == "sessionStart" {
            v.ignore("exit 2 on sessionStart maps to `continue: false`, which is not enforced");
        } else {
            v.ignore(format!("exit 2 has no effect on {native_event}"));
        }
    }

    fn exit_0(&self, v: &mut Verdict, native_event: &str, payload: &[u8], out: &HookOutput) {
        let text = out.stdout_str();
        if text.trim().is_empty() {
            self.failure(
                v,
                native_event,
                "empty stdout is a failure on Cursor (`{}` is the no-op)",
            );
            return;
        }
        let Some(o) = parse(&text) else {
            v.problem("stdout is not a JSON object");
            if permission_hook(native_event) {
                v.effect = Effect::Denied {
                    reason: "invalid hook output".to_owned(),
                };
            }
            return;
        };
        Self::interpret_json(v, native_event, &payload_value(payload), &o);
    }

    fn hook_env(&self, _native_event: &str, payload: &Value, cwd: &Path) -> Vec<(String, String)> {
        let dir = path_str(cwd);
        let mut env = vec![
            ("CURSOR_PROJECT_DIR".to_owned(), dir.clone()),
            ("CLAUDE_PROJECT_DIR".to_owned(), dir),
        ];
        if let Some(v) = payload.get("cursor_version").and_then(Value::as_str) {
            env.push(("CURSOR_VERSION".to_owned(), v.to_owned()));
        }
        if let Some(e) = payload.get("user_email").and_then(Value::as_str) {
            env.push(("CURSOR_USER_EMAIL".to_owned(), e.to_owned()));
        }
        if let Some(t) = payload.get("transcript_path").and_then(Value::as_str) {
            env.push(("CURSOR_TRANSCRIPT_PATH".to_owned(), t.to_owned()));
        }
        env
    }

    fn cwd(&self, payload: &Value) -> Option<std::path::PathBuf> {
        // Project hooks run from the project root.
        payload
            .get("workspace_roots")
            .and_then(Value::as_array)
            .and_then(|r| r.first())
            .and_then(Value::as_str)
            .or_else(|| payload.get("cwd").and_then(Value::as_str))
            .map(std::path::PathBuf::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(c: Cursor, event: &str, code: i32, stdout: &str, stderr: &str) -> Verdict {
        c.interpret(
            event,
            br#"{"tool_name":"Shell","status":"completed"}"#,
            &HookOutput::new(code, stdout, stderr),
        )
    }

    #[test]
    fn empty_stdout_is_a_failure() {
        let v = run(Cursor::new(), "preToolUse", 0, "", "");
        assert!(v.misbehaved() && v.effect == Effect::Proceed);
        let v = run(Cursor::fail_closed(), "preToolUse", 0, "", "");
        assert!(matches!(v.effect, Effect::Denied { .. }));
        assert!(run(Cursor::new(), "preToolUse", 0, "{}", "").is_no_op());
    }

    #[test]
    fn permissions_and_followups() {
        let v = run(
            Cursor::new(),
            "preToolUse",
            0,
            r#"{"permission":"deny","user_message":"u","agent_message":"a"}"#,
            "",
        );
        assert_eq!(v.effect, Effect::Denied { reason: "a".into() });
        let v = run(Cursor::new(), "preToolUse", 0, r#"{"permission":"ask"}"#, "");
        assert_eq!(v.effect, Effect::Proceed);
        let v = run(
            Cursor::new(),
            "beforeShellExecution",
            0,
            r#"{"permission":"ask","agent_message":"q"}"#,
            "",
        );
        assert_eq!(v.effect, Effect::Asked { reason: "q".into() });
        let v = run(
            Cursor::new(),
            "preToolUse",
            0,
            "log line\n{\"permission\":\"allow\"}",
            "",
        );
        assert_eq!(v.effect, Effect::Allowed);
        let v = run(Cursor::new(), "preToolUse", 0, "garbage", "");
        assert!(v.misbehaved() && matches!(v.effect, Effect::Denied { .. }));
        let v = run(Cursor::new(), "stop", 0, r#"{"followup_message":"go"}"#, "");
        assert_eq!(
            v.effect,
            Effect::Continued {
                instruction: "go".into()
            }
        );
        assert_eq!(
            run(Cursor::new(), "beforeShellExecution", 2, "", "no").effect,
            Effect::Denied { reason: "no".into() }
        );
        let v = run(
            Cursor::new(),
            "beforeSubmitPrompt",
            0,
            r#"{"continue":false,"user_message":"no"}"#,
            "",
        );
        assert_eq!(v.effect, Effect::Denied { reason: "no".into() });
    }
}
