//! Qwen Code, as its docs describe hooks and as the 0.24.4 bundle runs them
//! (`packages/core/src/hooks/hookRunner.ts`, `hookAggregator.ts`, `types.ts` and the callers of
//! each `fire…Hook`):
//!
//! - the hook's text is stdout, or stderr when stdout is empty; on exit 2 always stderr;
//! - text that parses as a JSON object (or a JSON string holding one) is the output, **whatever
//!   the exit code**; text starting with `{` that does not parse is an error, ignored;
//! - other text: exit 0 → context on `SessionStart`/`UserPromptSubmit`/`UserPromptExpansion`
//!   (from stdout), a system message elsewhere; exit 2 → `{"decision":"deny","reason":text}`;
//!   any other exit → the system message `Warning: text`;
//! - a timeout or a kill is an error: the action proceeds;
//! - `StopFailure`, `SessionDelete` and `MessageDisplay` are fire-and-forget: nothing is read;
//! - the output's fields per event: `PreToolUse` reads `permissionDecision` (or the top-level
//!   `decision`), `additionalContext` and `continue`; `allow` changes nothing (the hook runs
//!   after approval), no input rewrite is applied and `continue: false` only blocks the call;
//!   `PostToolUse` reads `additionalContext` and `continue` (which turns the result into an
//!   error); `Stop`/`SubagentStop` continue the agent on `decision: "block"` **or**
//!   `continue: false`; `systemMessage` is shown on every awaited event.

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use super::{
    parse_stdout, path_str, read_permission_request_decision, str_field, Effect, FakeAgent, HookOutput, Parsed,
    Profile, TimeoutUnit, Verdict,
};

/// The Qwen Code fake agent.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Qwen;

const EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "Stop",
    "MessageDisplay",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
    "SessionDelete",
    "PermissionRequest",
    "PermissionDenied",
    "StopFailure",
    "TodoCreated",
    "TodoCompleted",
    "InstructionsLoaded",
];

/// Events whose output Qwen never reads.
const FIRE_AND_FORGET: &[&str] = &["StopFailure", "SessionDelete", "MessageDisplay"];

/// Events whose plain-text stdout on exit 0 becomes context.
const TEXT_IS_CONTEXT: &[&str] = &["SessionStart", "UserPromptSubmit", "UserPromptExpansion"];

/// Events whose `additionalContext` is read.
const TAKES_CONTEXT: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SubagentStart",
    "PreCompact",
];

const PROFILE: Profile = Profile::new("qwen-code", EVENTS, TimeoutUnit::Milliseconds, 60_000).failures(
    "timed out: a non-blocking error, the action proceeds",
    "a non-blocking error, the action proceeds",
);

/// `stopReason || reason` (`getEffectiveReason`), `"No reason provided"` when neither is set.
fn effective_reason(o: &Map<String, Value>) -> String {
    [str_field(o, "stopReason"), str_field(o, "reason")]
        .into_iter()
        .flatten()
        .find(|s| !s.is_empty())
        .unwrap_or("No reason provided")
        .to_owned()
}

fn blocks(o: &Map<String, Value>) -> bool {
    matches!(str_field(o, "decision"), Some("block" | "deny"))
}

fn stops(o: &Map<String, Value>) -> bool {
    o.get("continue") == Some(&Value::Bool(false))
}

impl Qwen {
    /// What Qwen does with an output object on `event`.
    fn interpret_object(v: &mut Verdict, event: &str, o: &Map<String, Value>) {
        let hso = o.get("hookSpecificOutput").and_then(Value::as_object);
        let context = hso.and_then(|h| str_field(h, "additionalContext"));
        if let Some(s) = str_field(o, "systemMessage") {
            if o.get("suppressOutput") == Some(&Value::Bool(true)) {
                v.ignore("`systemMessage` is suppressed by `suppressOutput`");
            } else {
                v.system_message = Some(s.to_owned());
            }
        }
        match event {
            "PreToolUse" => {
                let from_hso = hso.and_then(|h| str_field(h, "permissionDecision"));
                let decision = match from_hso.filter(|d| matches!(*d, "allow" | "deny" | "ask")) {
                    Some(d) => Some(d),
                    None => match str_field(o, "decision") {
                        Some("allow" | "approve") => Some("allow"),
                        Some("deny" | "block") => Some("deny"),
                        Some("ask") => Some("ask"),
                        _ => None,
                    },
                };
                let reason = hso
                    .and_then(|h| str_field(h, "permissionDecisionReason"))
                    .or_else(|| str_field(o, "reason"));
                if hso.is_some_and(|h| h.contains_key("updatedInput") || h.contains_key("tool_input")) {
                    v.ignore("PreToolUse applies no rewritten input");
                }
                match decision {
                    Some("deny") => {
                        let reason = reason
                            .filter(|r| !r.is_empty())
                            .map_or_else(|| effective_reason(o), str::to_owned);
                        v.effect = Effect::Denied { reason };
                        return;
                    }
                    Some("ask") => {
                        let reason = reason.filter(|r| !r.is_empty()).unwrap_or("User confirmation required");
                        v.effect = Effect::Asked {
                            reason: reason.to_owned(),
                        };
                        return;
                    }
                    Some(_) => v.ignore("`allow` changes nothing: PreToolUse runs after the approval step"),
                    None => {}
                }
                if stops(o) {
                    // blockType `stop`: only this call is blocked; the turn goes on.
                    v.effect = Effect::Denied {
                        reason: effective_reason(o),
                    };
                    return;
                }
                if let Some(c) = context {
                    v.add_context(c);
                }
            }
            "PostToolUse" | "PostToolUseFailure" => {
                if blocks(o) {
                    v.ignore(format!("`decision` is not read on {event}"));
                }
                if stops(o) && event == "PostToolUse" {
                    // The result becomes an error carrying the stop reason; the turn goes on.
                    let text = str_field(o, "stopReason").filter(|s| !s.is_empty());
                    v.effect = Effect::OutputReplaced {
                        output: Value::from(text.unwrap_or("Execution stopped by hook")),
                    };
                }
                if let Some(c) = context {
                    v.add_context(c);
                }
            }
            "PostToolBatch" => {
                if blocks(o) || stops(o) {
                    v.ignore("a PostToolBatch stop marks the batch's last result stopped");
                }
                if let Some(c) = context {
                    v.add_context(c);
                }
            }
            "UserPromptSubmit" | "UserPromptExpansion" => {
                if stops(o) {
                    v.agent_stopped = Some(str_field(o, "stopReason").unwrap_or_default().to_owned());
                } else if blocks(o) {
                    v.effect = Effect::Denied {
                        reason: effective_reason(o),
                    };
                } else if let Some(c) = context {
                    v.add_context(c);
                }
            }
            "Stop" | "SubagentStop" => {
                if blocks(o) || stops(o) {
                    v.effect = Effect::Continued {
                        instruction: effective_reason(o),
                    };
                }
                if context.is_some() {
                    v.ignore(format!("`additionalContext` is not read on {event}"));
                }
            }
            "PermissionRequest" => {
                let Some(d) = hso.and_then(|h| h.get("decision")).and_then(Value::as_object) else {
                    return;
                };
                if let Err(other) = read_permission_request_decision(v, d) {
                    v.ignore(format!("PermissionRequest decision.behavior {other:?} is no decision"));
                }
            }
            "TodoCreated" | "TodoCompleted" => {
                if blocks(o) {
                    v.effect = Effect::Denied {
                        reason: effective_reason(o),
                    };
                }
            }
            _ => {
                if let Some(c) = context {
                    if TAKES_CONTEXT.contains(&event) {
                        v.add_context(c);
                    } else {
                        v.ignore(format!("`additionalContext` is not read on {event}"));
                    }
                }
            }
        }
    }

    /// The hook's text as Qwen reads it: JSON object, broken JSON, or plain text.
    fn read_text(v: &mut Verdict, event: &str, text: &[u8], code: i32, from_stdout: bool) {
        match parse_stdout(text) {
            Parsed::Empty => {}
            Parsed::Object(o) => Self::interpret_object(v, event, &o),
            Parsed::OtherJson(Value::String(s)) => match serde_json::from_str::<Value>(&s) {
                Ok(Value::Object(o)) => Self::interpret_object(v, event, &o),
                _ => v.problem("the output is a JSON string that holds no object"),
            },
            Parsed::OtherJson(j) => Self::plain(v, event, &j.to_string(), code, from_stdout),
            Parsed::BrokenJson(e) if code != 2 => {
                v.problem(format!(
                    "output starts like a JSON object but does not parse ({e}): ignored"
                ));
            }
            Parsed::BrokenJson(_) | Parsed::Text(_) => {
                let t = String::from_utf8_lossy(text).trim().to_owned();
                Self::plain(v, event, &t, code, from_stdout);
            }
        }
    }

    /// Plain text (`convertPlainTextToHookOutput`).
    fn plain(v: &mut Verdict, event: &str, text: &str, code: i32, from_stdout: bool) {
        match code {
            0 if from_stdout && TEXT_IS_CONTEXT.contains(&event) => v.add_context(text),
            0 => v.system_message = Some(text.to_owned()),
            2 => {
                let mut o = Map::new();
                o.insert("decision".into(), "deny".into());
                o.insert("reason".into(), text.into());
                Self::interpret_object(v, event, &o);
            }
            _ => v.system_message = Some(format!("Warning: {text}")),
        }
    }
}

impl FakeAgent for Qwen {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn exited(&self, v: &mut Verdict, native_event: &str, _payload: &[u8], out: &HookOutput) {
        if FIRE_AND_FORGET.contains(&native_event) {
            if !out.stdout.is_empty() || !out.stderr.is_empty() {
                v.ignore(format!("{native_event} is fire-and-forget: its output is not read"));
            }
            return;
        }
        let Some(code) = out.exit_code else {
            v.problem("killed by a signal: a non-blocking error, the action proceeds");
            return;
        };
        if code != 0 && code != 2 {
            v.problem(format!("exit {code}: {}", PROFILE.on_error));
        }
        let stdout_text = String::from_utf8_lossy(&out.stdout).trim().is_empty();
        if code == 2 {
            if !out.stdout.is_empty() {
                v.ignore("stdout is ignored on exit 2");
            }
            Self::read_text(v, native_event, &out.stderr, 2, false);
        } else if stdout_text {
            Self::read_text(v, native_event, &out.stderr, code, false);
        } else {
            if !out.stderr.is_empty() {
                v.ignore("stderr is ignored when stdout has text");
            }
            Self::read_text(v, native_event, &out.stdout, code, true);
        }
    }

    /// Milliseconds, except that 0.2x reads a value under 1000 as seconds.
    fn timeout(&self, _native_event: &str, configured: Option<u64>) -> Duration {
        match configured {
            Some(v) if v > 0 && v < 1_000 => Duration::from_secs(v),
            Some(v) if v > 0 => Duration::from_millis(v),
            _ => Duration::from_millis(PROFILE.default_timeout),
        }
    }

    fn hook_env(&self, _native_event: &str, _payload: &Value, cwd: &Path) -> Vec<(String, String)> {
        let dir = path_str(cwd);
        ["QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"]
            .into_iter()
            .map(|k| (k.to_owned(), dir.clone()))
            .collect()
    }

    fn shell(&self) -> &'static [&'static str] {
        &["bash", "-c"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(event: &str, code: i32, stdout: &str, stderr: &str) -> Verdict {
        super::super::verdict_of(
            &Qwen,
            event,
            br#"{"tool_name":"run_shell_command"}"#,
            (code, stdout, stderr),
        )
    }

    #[test]
    fn exit_codes_and_text() {
        assert!(run("PreToolUse", 0, "", "").is_no_op());
        assert!(run("PreToolUse", 0, "{}", "").is_no_op());
        assert_eq!(
            run("PreToolUse", 2, "", "nope").effect,
            Effect::Denied { reason: "nope".into() }
        );
        // Exit 2 on Stop continues the agent.
        assert_eq!(
            run("Stop", 2, "", "go on").effect,
            Effect::Continued {
                instruction: "go on".into()
            }
        );
        // Exit 2 with nothing on stderr: no output at all.
        assert!(run("PreToolUse", 2, "", "").is_no_op());
        // Any exit code: a JSON object is read.
        let deny = r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}"#;
        let v = run("PreToolUse", 1, deny, "");
        assert_eq!(v.effect, Effect::Denied { reason: "r".into() });
        assert!(v.misbehaved());
        // Empty stdout: stderr is read.
        assert_eq!(
            run("PreToolUse", 0, "", deny).effect,
            Effect::Denied { reason: "r".into() }
        );
        assert_eq!(run("UserPromptSubmit", 0, "today", "").context, ["today"]);
        assert_eq!(run("PreToolUse", 0, "hi", "").system_message.as_deref(), Some("hi"));
        assert_eq!(
            run("PreToolUse", 1, "", "boom").system_message.as_deref(),
            Some("Warning: boom")
        );
        assert!(run("PreToolUse", 0, "{oops", "").misbehaved());
        assert!(run("StopFailure", 0, deny, "").is_no_op());
    }

    #[test]
    fn event_fields() {
        let v = run(
            "PreToolUse",
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"},"additionalContext":"c"}}"#,
            "",
        );
        assert_eq!(v.effect, Effect::Proceed);
        assert!(v.input_rewritten.is_none());
        assert_eq!(v.context, ["c"]);
        let v = run("Stop", 0, r#"{"continue":false,"stopReason":"more"}"#, "");
        assert_eq!(
            (v.effect, v.agent_stopped),
            (
                Effect::Continued {
                    instruction: "more".into()
                },
                None
            )
        );
        let v = run("PostToolUse", 0, r#"{"decision":"block","reason":"x"}"#, "");
        assert_eq!(v.effect, Effect::Proceed);
        let v = run("UserPromptSubmit", 0, r#"{"decision":"block","reason":"no"}"#, "");
        assert_eq!(v.effect, Effect::Denied { reason: "no".into() });
        assert_eq!(Qwen.timeout("PreToolUse", Some(5)), Duration::from_secs(5));
        assert_eq!(Qwen.timeout("PreToolUse", Some(5_000)), Duration::from_secs(5));
    }
}
