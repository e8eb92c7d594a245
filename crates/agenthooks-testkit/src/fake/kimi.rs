//! Kimi Code, as documented in `reference/providers/kimi.md` (`runHook.ts`) and verified on 2.1.0.
//!
//! - only `PreToolUse`, `UserPromptSubmit` and `Stop` gate; every other event's output is
//!   ignored (`SessionStart` is awaited, its output discarded);
//! - exit 0: a JSON object is structured (`hookSpecificOutput.permissionDecision: "deny"` blocks
//!   with `permissionDecisionReason`; top-level or nested `message` is a message); other stdout is
//!   the message as is. On `UserPromptSubmit` a message reaches the model as context;
//! - exit 2: blocks with the trimmed stderr (default `Blocked by <event> hook`);
//! - any other exit, a timeout: allow (hard fail-open).
//!
//! A block means: `PreToolUse` → the tool does not run; `UserPromptSubmit` → the model is not
//! called; `Stop` → the reason is appended and the turn continues (at most once per turn).

use serde_json::Value;

use super::{parse_stdout, str_field, Effect, FakeAgent, HookOutput, Parsed, Profile, TimeoutUnit, Verdict};

/// The Kimi Code fake agent.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Kimi;

const EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionResult",
    "UserPromptSubmit",
    "UserPromptQueued",
    "TurnStarted",
    "Stop",
    "StopFailure",
    "Interrupt",
    "SessionStart",
    "SessionEnd",
    "SessionHeartbeat",
    "SubagentStart",
    "SubagentStop",
    "TaskStarted",
    "PreCompact",
    "PostCompact",
    "Notification",
];

fn gates(event: &str) -> bool {
    matches!(event, "PreToolUse" | "UserPromptSubmit" | "Stop")
}

fn block(v: &mut Verdict, event: &str, reason: String) {
    match event {
        "Stop" => v.effect = Effect::Continued { instruction: reason },
        _ => v.effect = Effect::Denied { reason },
    }
}

const PROFILE: Profile = Profile::new("kimi", EVENTS, TimeoutUnit::Seconds, 30)
    .clamp(1, 600)
    .failures("timed out: allowed (fail-open)", "allowed (fail-open)");

/// The reason of a block, `Blocked by <event> hook` when the hook gave none.
fn reason_or_default(native_event: &str, reason: String) -> String {
    if reason.trim().is_empty() {
        format!("Blocked by {native_event} hook")
    } else {
        reason
    }
}

impl FakeAgent for Kimi {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn exit_2(&self, v: &mut Verdict, native_event: &str, out: &HookOutput) {
        if gates(native_event) {
            block(v, native_event, reason_or_default(native_event, out.stderr_reason()));
        } else {
            v.ignore(format!("{native_event} cannot be blocked; output ignored"));
        }
    }

    fn exit_0(&self, v: &mut Verdict, native_event: &str, _payload: &[u8], out: &HookOutput) {
        let (deny, message) = match parse_stdout(&out.stdout) {
            Parsed::Empty => (None, None),
            Parsed::Object(o) => {
                let h = o.get("hookSpecificOutput").and_then(Value::as_object);
                let deny = h
                    .filter(|h| str_field(h, "permissionDecision") == Some("deny"))
                    .map(|h| str_field(h, "permissionDecisionReason").unwrap_or_default().to_owned());
                if let Some(d) = h
                    .and_then(|h| str_field(h, "permissionDecision"))
                    .filter(|d| *d != "deny")
                {
                    v.ignore(format!("permissionDecision {d:?} is ignored (only deny is read)"));
                }
                let message = str_field(&o, "message")
                    .or_else(|| h.and_then(|h| str_field(h, "message")))
                    .map(str::to_owned);
                for k in o
                    .keys()
                    .filter(|k| !matches!(k.as_str(), "message" | "hookSpecificOutput"))
                {
                    v.ignore(format!("`{k}` is not read by Kimi"));
                }
                (deny, message)
            }
            Parsed::BrokenJson(e) => {
                v.problem(format!(
                    "stdout looks like JSON but does not parse ({e}); Kimi takes it as plain text"
                ));
                (None, Some(out.stdout_str().trim().to_owned()))
            }
            Parsed::OtherJson(_) | Parsed::Text(_) => (None, Some(out.stdout_str().trim().to_owned())),
        };
        if !gates(native_event) {
            if deny.is_some() || message.is_some() {
                v.ignore(format!("the output of {native_event} is ignored"));
            }
            return;
        }
        if let Some(reason) = deny {
            block(v, native_event, reason_or_default(native_event, reason));
            return;
        }
        if let Some(m) = message {
            if native_event == "UserPromptSubmit" {
                v.add_context(&m);
            } else {
                v.ignore(format!("a message on {native_event} does not reach the model"));
            }
        }
    }

    // hook_env: no Kimi-specific variables for non-plugin hooks: the agent's environment is
    // inherited.
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(event: &str, code: i32, stdout: &str, stderr: &str) -> Verdict {
        super::super::verdict_of(&Kimi, event, b"{}", (code, stdout, stderr))
    }

    #[test]
    fn gating_events_only() {
        assert!(run("PostToolUse", 2, "", "x").is_no_op());
        let v = run("UserPromptSubmit", 0, "today is Monday", "");
        assert_eq!(v.context, ["today is Monday"]);
        let v = run("UserPromptSubmit", 0, r#"{"message":"m"}"#, "");
        assert_eq!(v.context, ["m"]);
        assert!(run("SessionStart", 0, r#"{"message":"m"}"#, "").is_no_op());
        let v = run("PreToolUse", 1, "", "");
        assert!(v.misbehaved() && v.is_no_op());
        assert!(run(
            "PreToolUse",
            0,
            r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#,
            ""
        )
        .is_no_op());
    }
}
