//! Kimi Code's rules for reading a hook result, as a testkit [`FakeAgent`].
//!
//! Written from the runtime (`agent-core-v2` `externalHooks/internal/{runHook,matchHooks,userPrompt}.ts`,
//! `agent/agentExternalHooksService.ts`) and what the real 2.1.0 CLI showed — not from this
//! crate's encoder — so the agreement test can catch encoder bugs. The testkit's own Kimi fake
//! agent is a second, independent reading; both must agree with the codec.

use agenthooks_testkit::fake::{self, Effect, FakeAgent, HookOutput, Profile, Verdict};
use serde_json::Value;

/// Kimi Code 2.x.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct KimiRules;

/// `runHook.ts` `HookResult`, reduced to what the rules read.
#[derive(Debug, Default)]
struct Result {
    block: bool,
    reason: Option<String>,
    message: Option<String>,
    structured: bool,
    exit_ok: bool,
    stdout: String,
}

/// `OptionalStringSchema`: strings as they are, numbers and booleans stringified, else nothing.
fn optional_string(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `structuredOutput()`: `None` when stdout is empty, not JSON, or not an object.
fn structured(stdout: &str) -> Option<(bool, Option<String>, Option<String>)> {
    let text = stdout.trim();
    if text.is_empty() {
        return None;
    }
    let Ok(Value::Object(top)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    let hso = top.get("hookSpecificOutput").and_then(Value::as_object);
    let message = optional_string(top.get("message")).or_else(|| optional_string(hso.and_then(|h| h.get("message"))));
    let deny = hso.and_then(|h| h.get("permissionDecision")).and_then(Value::as_str) == Some("deny");
    let reason = if deny {
        hso.and_then(|h| h.get("permissionDecisionReason"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    } else {
        None
    };
    Some((deny, reason, message))
}

fn read(out: &HookOutput, v: &mut Verdict) -> Result {
    let stdout = out.stdout_str();
    match out.exit_code {
        _ if out.timed_out => {
            v.problems.push("timed out (Kimi allows)".into());
            Result::default()
        }
        None => {
            v.problems.push("killed (Kimi allows)".into());
            Result::default()
        }
        Some(2) => {
            let msg = out.stderr_str().trim().to_owned();
            Result {
                block: true,
                reason: Some(msg.clone()),
                message: Some(msg),
                structured: false,
                exit_ok: false,
                stdout,
            }
        }
        Some(0) => match structured(&stdout) {
            Some((deny, reason, message)) => Result {
                block: deny,
                message: if deny {
                    message.or_else(|| reason.clone())
                } else {
                    message
                },
                reason,
                structured: true,
                exit_ok: true,
                stdout,
            },
            None => Result {
                exit_ok: true,
                stdout,
                ..Result::default()
            },
        },
        Some(code) => {
            v.problems.push(format!("exited with exit code {code} (Kimi allows)"));
            Result {
                stdout,
                ..Result::default()
            }
        }
    }
}

/// `blockDecision()`: the trimmed reason, or `Blocked by <event> hook`.
fn block_reason(event: &str, r: &Result) -> String {
    match r.reason.as_deref().map(str::trim) {
        Some(t) if !t.is_empty() => t.to_owned(),
        _ => format!("Blocked by {event} hook"),
    }
}

/// `hookResultMessage()`: what an allowed `UserPromptSubmit` hook adds to the context.
fn prompt_message(r: &Result) -> Option<String> {
    if !r.exit_ok {
        return None;
    }
    if let Some(m) = r.message.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        return Some(m.to_owned());
    }
    if r.structured {
        return None;
    }
    Some(r.stdout.trim().to_owned()).filter(|s| !s.is_empty())
}

impl FakeAgent for KimiRules {
    fn profile(&self) -> &'static Profile {
        // The events and timeouts are facts about Kimi, not rules: share the testkit agent's.
        fake::agent("kimi").expect("the testkit has a Kimi agent").profile()
    }

    fn interpret(&self, native_event: &str, _payload: &[u8], out: &HookOutput) -> Verdict {
        let mut v = Verdict::proceed();
        let r = read(out, &mut v);
        match native_event {
            "PreToolUse" => {
                if r.block {
                    v.effect = Effect::Denied {
                        reason: block_reason(native_event, &r),
                    };
                } else if r.message.is_some() || !r.stdout.trim().is_empty() {
                    v.ignored.push("PreToolUse output other than a deny".into());
                }
            }
            "UserPromptSubmit" => {
                if r.block {
                    // renderUserPromptHookBlockResult: the recorded text is message ?? reason.
                    let reason = block_reason(native_event, &r);
                    let shown = r
                        .message
                        .as_deref()
                        .map(str::trim)
                        .filter(|m| !m.is_empty())
                        .map(str::to_owned);
                    if let Some(m) = shown.filter(|m| *m != reason) {
                        v.system_message = Some(m);
                    }
                    v.effect = Effect::Denied { reason };
                } else if let Some(m) = prompt_message(&r) {
                    v.context.push(m);
                }
            }
            "Stop" => {
                if r.block {
                    v.effect = Effect::Continued {
                        instruction: block_reason(native_event, &r),
                    };
                } else if !r.stdout.trim().is_empty() {
                    v.ignored.push("Stop output other than a block".into());
                }
            }
            _ => {
                if r.block || !r.stdout.trim().is_empty() {
                    v.ignored.push(format!("{native_event} is fire-and-forget"));
                }
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interpret(event: &str, code: i32, stdout: &str, stderr: &str) -> Verdict {
        KimiRules.interpret(event, b"{}", &HookOutput::new(code, stdout, stderr))
    }

    #[test]
    fn rules_follow_kimis_runtime() {
        let v = interpret("PreToolUse", 2, "", "  no  \n");
        assert_eq!(v.effect, Effect::Denied { reason: "no".into() });
        let v = interpret("PreToolUse", 2, "", "");
        assert_eq!(
            v.effect,
            Effect::Denied {
                reason: "Blocked by PreToolUse hook".into()
            }
        );
        let v = interpret(
            "PreToolUse",
            0,
            r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#,
            "",
        );
        assert_eq!(v.effect, Effect::Proceed);
        let v = interpret("UserPromptSubmit", 0, "plain text\n", "");
        assert_eq!(v.context, ["plain text"]);
        let v = interpret("UserPromptSubmit", 0, "{}", "");
        assert!(v.context.is_empty(), "structured output without a message adds nothing");
        let v = interpret("UserPromptSubmit", 1, "ctx", "");
        assert!(v.context.is_empty() && v.misbehaved());
        let v = interpret("Stop", 0, r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#, "");
        assert_eq!(
            v.effect,
            Effect::Continued {
                instruction: "Blocked by Stop hook".into()
            }
        );
        let v = interpret("PostToolUse", 2, "", "no");
        assert_eq!(v.effect, Effect::Proceed);
        assert!(!v.ignored.is_empty());
    }
}
