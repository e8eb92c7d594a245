//! GitHub Copilot CLI, as documented in `reference/providers/copilot.md` (docs, changelog to
//! 1.0.102, SDK types) and verified on 1.0.102.
//!
//! - stdout fields are **top-level** (`permissionDecision`, `additionalContext`, …); the
//!   Claude-shaped nested `hookSpecificOutput` and plain-text stdout are silently ignored;
//! - empty stdout is no decision on every event;
//! - `preToolUse`: exit 2 denies; any other hook error denies ("hook errored"); a timeout allows;
//! - `permissionRequest`: exit 2 denies (stderr ignored); other errors are skipped;
//! - `postToolUseFailure`: exit 2 returns stderr to the model as recovery guidance;
//! - every other event: a non-zero exit or timeout is logged and skipped (fail-open).
//!
//! Event names are the camelCase config keys (`preToolUse`); the PascalCase (VS Code) names are
//! accepted as aliases.

use std::path::Path;

use serde_json::{Map, Value};

use super::{parse_stdout, path_str, str_field, Effect, FakeAgent, HookOutput, Parsed, Profile, TimeoutUnit, Verdict};

/// The Copilot CLI fake agent.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Copilot;

const EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "userPromptTransformed",
    "preToolUse",
    "preMcpToolCall",
    "postToolUse",
    "postToolUseFailure",
    "permissionRequest",
    "agentStop",
    "subagentStart",
    "subagentStop",
    "preCompact",
    "errorOccurred",
    "notification",
];

/// The camelCase name of a (possibly PascalCase) event name.
fn camel(event: &str) -> &str {
    match event {
        "SessionStart" => "sessionStart",
        "SessionEnd" => "sessionEnd",
        "UserPromptSubmit" => "userPromptSubmitted",
        "UserPromptTransformed" => "userPromptTransformed",
        "PreToolUse" => "preToolUse",
        "PostToolUse" => "postToolUse",
        "PostToolUseFailure" => "postToolUseFailure",
        "PermissionRequest" => "permissionRequest",
        "Stop" => "agentStop",
        "SubagentStart" => "subagentStart",
        "SubagentStop" => "subagentStop",
        "PreCompact" => "preCompact",
        "ErrorOccurred" => "errorOccurred",
        "Notification" => "notification",
        "PreMcpToolCall" => "preMcpToolCall",
        other => other,
    }
}

fn takes_context(event: &str) -> bool {
    matches!(
        event,
        "preToolUse"
            | "postToolUse"
            | "postToolUseFailure"
            | "userPromptSubmitted"
            | "sessionStart"
            | "subagentStart"
            | "notification"
    )
}

impl Copilot {
    fn interpret_json(v: &mut Verdict, event: &str, o: &Map<String, Value>) {
        if o.contains_key("hookSpecificOutput") {
            v.ignore("the nested `hookSpecificOutput` form is ignored");
        }
        if let Some(c) = str_field(o, "additionalContext") {
            v.context_where(takes_context(event), c, || {
                format!("additionalContext is ignored on {event}")
            });
        }
        match event {
            "preToolUse" => {
                let reason = str_field(o, "permissionDecisionReason").unwrap_or_default().to_owned();
                match str_field(o, "permissionDecision") {
                    Some("allow") => v.effect = Effect::Allowed,
                    Some("deny") => v.effect = Effect::Denied { reason },
                    Some("ask") => v.effect = Effect::Asked { reason },
                    Some(other) => v.ignore(format!("unknown permissionDecision {other:?}")),
                    None => {}
                }
                let rewrite = o.get("modifiedArgs").or_else(|| o.get("updatedInput"));
                if let Some(m) = rewrite.and_then(Value::as_object) {
                    if !matches!(v.effect, Effect::Denied { .. }) {
                        v.input_rewritten = Some(m.clone());
                    }
                }
            }
            "permissionRequest" => match str_field(o, "behavior") {
                Some("allow") => v.effect = Effect::Allowed,
                Some("deny") => {
                    v.effect = Effect::Denied {
                        reason: str_field(o, "message").unwrap_or_default().to_owned(),
                    };
                    if o.get("interrupt") == Some(&Value::Bool(true)) {
                        v.agent_stopped = Some(String::new());
                    }
                }
                Some(other) => v.ignore(format!("unknown behavior {other:?}")),
                None => {}
            },
            "agentStop" | "subagentStop" => match str_field(o, "decision") {
                Some("block") => {
                    v.effect = Effect::Continued {
                        instruction: str_field(o, "reason").unwrap_or_default().to_owned(),
                    };
                }
                Some("allow") | None => {}
                Some(other) => v.ignore(format!("unknown decision {other:?}")),
            },
            "userPromptSubmitted" => {
                if str_field(o, "decision") == Some("block") {
                    v.effect = Effect::Denied {
                        reason: str_field(o, "reason").unwrap_or_default().to_owned(),
                    };
                    if !v.context.is_empty() {
                        v.context.clear();
                        v.ignore("the prompt is blocked: its additionalContext never reaches the model");
                    }
                }
                if o.contains_key("modifiedPrompt") {
                    v.ignore("whether a command hook's modifiedPrompt is honoured is unverified");
                }
            }
            "postToolUse" if o.contains_key("modifiedResult") => v.ignore("modifiedResult is SDK-only"),
            _ => {}
        }
        for k in ["systemMessage", "continue", "stopReason", "decision"] {
            if o.contains_key(k)
                && !(k == "decision" && matches!(event, "agentStop" | "subagentStop" | "userPromptSubmitted"))
            {
                v.ignore(format!("`{k}` is not a Copilot field on {event}"));
            }
        }
    }
}

const PROFILE: Profile = Profile::new("copilot", EVENTS, TimeoutUnit::Seconds, 30).failures(
    "timed out: logged and skipped (timeouts allow, also on preToolUse)",
    "logged and skipped",
);

/// The reason Copilot gives when a `preToolUse` hook errors (it fails closed there).
const ERRORED: &str = "Denied by preToolUse hook (hook errored)";

impl FakeAgent for Copilot {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn exit_0(&self, v: &mut Verdict, native_event: &str, _payload: &[u8], out: &HookOutput) {
        let event = camel(native_event);
        match parse_stdout(&out.stdout) {
            Parsed::Empty => {}
            Parsed::Object(o) => Self::interpret_json(v, event, &o),
            Parsed::Text(_) => v.ignore("plain-text stdout is ignored"),
            Parsed::OtherJson(_) | Parsed::BrokenJson(_) => {
                v.problem("stdout is not a JSON object");
                if event == "preToolUse" {
                    v.effect = Effect::Denied {
                        reason: ERRORED.to_owned(),
                    };
                }
            }
        }
    }

    fn exit_2(&self, v: &mut Verdict, native_event: &str, out: &HookOutput) {
        match camel(native_event) {
            "preToolUse" => {
                v.effect = Effect::Denied {
                    reason: out.stderr_reason(),
                };
            }
            "permissionRequest" => {
                // stdout merged with {"behavior":"deny"}; stderr ignored.
                let message = match parse_stdout(&out.stdout) {
                    Parsed::Object(o) => str_field(&o, "message").unwrap_or_default().to_owned(),
                    _ => String::new(),
                };
                v.effect = Effect::Denied { reason: message };
            }
            "postToolUseFailure" => v.add_context(&out.stderr_reason()),
            _ => self.exit_error(v, native_event, out.exit_code),
        }
    }

    fn exit_error(&self, v: &mut Verdict, native_event: &str, code: Option<i32>) {
        if camel(native_event) == "preToolUse" {
            v.problem(format!("exit {code:?}: the hook errored"));
            v.effect = Effect::Denied {
                reason: ERRORED.to_owned(),
            };
        } else {
            v.problem(format!("exit {code:?}: {}", PROFILE.on_error));
        }
    }

    fn hook_env(&self, _native_event: &str, _payload: &Value, cwd: &Path) -> Vec<(String, String)> {
        let dir = path_str(cwd);
        vec![
            ("COPILOT_CLI".to_owned(), "1".to_owned()),
            ("COPILOT_CLI_BINARY_VERSION".to_owned(), "1.0.102".to_owned()),
            ("COPILOT_PROJECT_DIR".to_owned(), dir.clone()),
            ("COPILOT_HOOK_DIR".to_owned(), path_str(&cwd.join(".github/hooks"))),
            ("CLAUDE_PROJECT_DIR".to_owned(), dir),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(event: &str, code: i32, stdout: &str, stderr: &str) -> Verdict {
        super::super::verdict_of(&Copilot, event, b"{}", (code, stdout, stderr))
    }

    #[test]
    fn pre_tool_use_fails_closed_on_errors() {
        assert!(run("preToolUse", 0, "", "").is_no_op());
        let v = run("preToolUse", 1, "", "crash");
        assert!(v.misbehaved() && matches!(v.effect, Effect::Denied { .. }));
        let v = Copilot.interpret("preToolUse", b"{}", &HookOutput::timed_out("", ""));
        assert_eq!(v.effect, Effect::Proceed);
        let v = run("sessionStart", 1, "", "");
        assert!(v.misbehaved() && v.is_no_op());
    }

    #[test]
    fn top_level_fields_only() {
        let v = run(
            "userPromptSubmitted",
            0,
            r#"{"hookSpecificOutput":{"additionalContext":"c"}}"#,
            "",
        );
        assert!(v.context.is_empty());
        let v = run("UserPromptSubmit", 0, r#"{"additionalContext":"c"}"#, "");
        assert_eq!(v.context, ["c"]);
        let v = run(
            "preToolUse",
            0,
            r#"{"permissionDecision":"allow","modifiedArgs":{"command":"ls"}}"#,
            "",
        );
        assert_eq!((v.effect, v.input_rewritten.is_some()), (Effect::Allowed, true));
    }
}
