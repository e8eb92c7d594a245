//! Gemini CLI, as documented in `reference/providers/gemini.md` (`hookRunner.ts`,
//! `coreToolHookTriggers.ts`, `types.ts`).
//!
//! - the text read is `stdout.trim() || stderr.trim()`: stderr is parsed when stdout is empty;
//! - JSON (or a JSON string holding JSON) is the output **whatever the exit code**;
//! - other text: exit 0 → allow with the text as a system message; exit 1 → allow with a
//!   warning; any other exit (2 included) → `deny` with the text as the reason;
//! - no text at all: no output, nothing blocks (also timeouts and spawn errors: fail-open);
//! - `decision: deny|block` blocks, `ask` forces a confirmation, `allow`/`approve` change nothing
//!   (allow is the default); `continue: false` stops the agent;
//! - `additionalContext` has `<` and `>` HTML-escaped (quirk #13).

use std::path::Path;

use serde_json::{Map, Value};

use super::{path_str, str_field, Effect, FakeAgent, HookOutput, Profile, TimeoutUnit, Verdict};

/// The Gemini CLI fake agent.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Gemini;

const EVENTS: &[&str] = &[
    "SessionStart",
    "SessionEnd",
    "BeforeAgent",
    "AfterAgent",
    "BeforeTool",
    "AfterTool",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
    "PreCompress",
    "Notification",
];

fn escape(s: &str) -> String {
    s.replace('<', "&lt;").replace('>', "&gt;")
}

/// Parses the hook text the way `hookRunner.ts` does: JSON, or a JSON string holding JSON.
fn parse(text: &str) -> Option<Value> {
    let v: Value = serde_json::from_str(text).ok()?;
    match v {
        Value::String(s) => serde_json::from_str::<Value>(&s).ok().filter(Value::is_object),
        Value::Object(_) => Some(v),
        _ => None,
    }
}

impl Gemini {
    fn interpret_output(v: &mut Verdict, event: &str, payload: &Value, o: &Map<String, Value>) {
        let decision = str_field(o, "decision");
        let reason = str_field(o, "reason").unwrap_or_default().to_owned();
        let hso = o.get("hookSpecificOutput").and_then(Value::as_object);
        if let Some(s) = str_field(o, "systemMessage") {
            v.system_message = Some(s.to_owned());
        }
        let stops = o.get("continue") == Some(&Value::Bool(false));
        let stop_reason = || str_field(o, "stopReason").map_or_else(|| reason.clone(), str::to_owned);
        let blocking = matches!(decision, Some("deny" | "block"));
        match event {
            "BeforeTool" => {
                if stops {
                    v.agent_stopped = Some(stop_reason());
                    return;
                }
                if blocking {
                    v.effect = Effect::Denied { reason };
                    return;
                }
                if decision == Some("ask") {
                    v.effect = Effect::Asked { reason: reason.clone() };
                }
                if let Some(ti) = hso.and_then(|h| h.get("tool_input")).and_then(Value::as_object) {
                    // Object.assign into the original arguments: a shallow merge.
                    let mut merged = payload
                        .get("tool_input")
                        .and_then(Value::as_object)
                        .cloned()
                        .unwrap_or_default();
                    for (k, x) in ti {
                        merged.insert(k.clone(), x.clone());
                    }
                    v.input_rewritten = Some(merged);
                }
                if hso.is_some_and(|h| h.contains_key("additionalContext")) {
                    v.ignore("additionalContext is not read on BeforeTool");
                }
            }
            "AfterTool" => {
                if stops {
                    v.agent_stopped = Some(stop_reason());
                    return;
                }
                if blocking {
                    // The result is replaced by this text (not the reason verbatim).
                    v.effect = Effect::OutputReplaced {
                        output: Value::String(format!("Tool result blocked: {reason}")),
                    };
                    return;
                }
                if let Some(c) = hso.and_then(|h| str_field(h, "additionalContext")) {
                    v.add_context(&escape(c));
                }
                if let Some(t) = hso.and_then(|h| h.get("tailToolCallRequest")).filter(|t| !t.is_null()) {
                    v.effect = Effect::OutputReplaced {
                        output: serde_json::json!({ "tailToolCallRequest": t }),
                    };
                }
            }
            "BeforeAgent" => {
                // Either blocks the turn: deny drops the prompt, `continue: false` keeps it in
                // history and stops.
                if stops {
                    v.agent_stopped = Some(stop_reason());
                }
                if blocking {
                    v.effect = Effect::Denied { reason };
                }
                if !blocking && !stops {
                    if let Some(c) = hso.and_then(|h| str_field(h, "additionalContext")) {
                        v.add_context(&escape(c));
                    }
                }
            }
            "AfterAgent" => {
                if stops {
                    v.agent_stopped = Some(stop_reason());
                } else if blocking {
                    v.effect = Effect::Continued { instruction: reason };
                }
                if hso.and_then(|h| h.get("clearContext")) == Some(&Value::Bool(true)) {
                    v.ignore("clearContext clears the model's memory");
                }
            }
            "SessionStart" => {
                if let Some(c) = hso.and_then(|h| str_field(h, "additionalContext")) {
                    v.add_context(&escape(c));
                }
                if blocking || stops {
                    v.ignore("SessionStart cannot be blocked");
                }
            }
            "BeforeModel" | "AfterModel" | "BeforeToolSelection" => {
                if stops {
                    v.agent_stopped = Some(stop_reason());
                } else if blocking {
                    v.effect = Effect::Denied { reason };
                }
            }
            _ => {
                if blocking || stops || hso.is_some() {
                    v.ignore(format!("only systemMessage is read on {event}"));
                }
            }
        }
    }
}

const PROFILE: Profile = Profile::new("gemini", EVENTS, TimeoutUnit::Milliseconds, 60_000)
    .failures("timed out: no output, the action proceeds", "the hook failed");

impl FakeAgent for Gemini {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn exited(&self, v: &mut Verdict, native_event: &str, payload: &[u8], out: &HookOutput) {
        let stdout = out.stdout_str();
        let stderr = out.stderr_str();
        let (text, from_stderr) = if stdout.trim().is_empty() {
            (stderr.trim().to_owned(), true)
        } else {
            (stdout.trim().to_owned(), false)
        };
        if text.is_empty() {
            if out.exit_code != Some(0) {
                v.problem(format!("exit {:?} without any output: nothing blocks", out.exit_code));
            }
            return;
        }
        if from_stderr {
            v.ignore("stdout is empty: Gemini parses stderr as the hook's output");
        }
        let pv = super::payload_value(payload);
        match parse(&text) {
            Some(Value::Object(o)) => Self::interpret_output(v, native_event, &pv, &o),
            _ => {
                if text.starts_with('{') || text.starts_with('[') {
                    v.problem("the output looks like JSON but does not parse");
                }
                match out.exit_code {
                    Some(0) => {
                        let mut o = Map::new();
                        o.insert("decision".into(), "allow".into());
                        o.insert("systemMessage".into(), text.into());
                        Self::interpret_output(v, native_event, &pv, &o);
                    }
                    Some(1) => {
                        v.problem("exit 1: a non-blocking warning");
                        v.system_message = Some(format!("Warning: {text}"));
                    }
                    code => {
                        if code != Some(2) {
                            v.problem(format!("exit {code:?} with plain text: Gemini reads it as a deny"));
                        }
                        let mut o = Map::new();
                        o.insert("decision".into(), "deny".into());
                        o.insert("reason".into(), text.into());
                        Self::interpret_output(v, native_event, &pv, &o);
                    }
                }
            }
        }
    }

    fn hook_env(&self, _native_event: &str, payload: &Value, cwd: &Path) -> Vec<(String, String)> {
        let dir = path_str(cwd);
        let mut env = vec![
            ("GEMINI_PROJECT_DIR".to_owned(), dir.clone()),
            ("GEMINI_CWD".to_owned(), dir.clone()),
            ("CLAUDE_PROJECT_DIR".to_owned(), dir),
        ];
        if let Some(s) = payload.get("session_id").and_then(Value::as_str) {
            env.push(("GEMINI_SESSION_ID".to_owned(), s.to_owned()));
        }
        env
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(event: &str, code: i32, stdout: &str, stderr: &str) -> Verdict {
        super::super::verdict_of(
            &Gemini,
            event,
            br#"{"tool_input":{"command":"ls","dir":"."}}"#,
            (code, stdout, stderr),
        )
    }

    #[test]
    fn exit_codes_and_streams() {
        assert!(run("BeforeTool", 0, "{}", "").is_no_op());
        assert!(run("BeforeTool", 0, "", "").is_no_op());
        let v = run("BeforeTool", 3, "", "x");
        assert_eq!(v.effect, Effect::Denied { reason: "x".into() });
        assert!(v.misbehaved());
        let v = run("BeforeTool", 1, "", "careful");
        assert_eq!(
            (v.effect, v.system_message.as_deref()),
            (Effect::Proceed, Some("Warning: careful"))
        );
        let v = run("BeforeTool", 0, "hello", "");
        assert_eq!(v.system_message.as_deref(), Some("hello"));
    }

    #[test]
    fn fields() {
        let v = run(
            "BeforeTool",
            0,
            r#"{"hookSpecificOutput":{"tool_input":{"command":"pwd"}}}"#,
            "",
        );
        let m = v.input_rewritten.unwrap();
        assert_eq!((m["command"].as_str(), m["dir"].as_str()), (Some("pwd"), Some(".")));
        let v = run(
            "AfterTool",
            0,
            r#"{"hookSpecificOutput":{"additionalContext":"<b>"}}"#,
            "",
        );
        assert_eq!(v.context, ["&lt;b&gt;"]);
        let v = run("BeforeTool", 0, r#"{"continue":false,"stopReason":"halt"}"#, "");
        assert_eq!(v.agent_stopped.as_deref(), Some("halt"));
    }
}
