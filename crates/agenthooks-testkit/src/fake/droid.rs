//! Factory Droid, as its 0.215.0 hook runner reads a hook's result (the `droid` binary's bundled
//! runner, and live runs offline):
//!
//! - stdout is parsed as JSON when its trimmed text starts with `{`, whatever the exit code; Droid
//!   copies `continue`, `stopReason`, `suppressOutput`, `systemMessage`, `decision`, `reason` and
//!   `hookSpecificOutput.{permissionDecision, permissionDecisionReason, additionalContext,
//!   updatedInput}` and nothing else;
//! - exit 2 blocks (the stderr is the reason), exit 3 aborts the agent, exit 1 is a warning, any
//!   other exit and a timeout (reported as exit 1) let the action proceed;
//! - `PreToolUse`: `continue: false` stops the agent; `permissionDecision: deny` denies,
//!   `allow` skips Droid's permission check, `ask` is only logged; `updatedInput` is merged over
//!   the input; a `systemMessage` is only logged;
//! - `PostToolUse`: `additionalContext` reaches the model, `systemMessage` the user, exit 2's
//!   stderr reaches the model as feedback;
//! - `UserPromptSubmit`: exit 2 or `continue: false` blocks (reason: stderr, else `stopReason`,
//!   else `systemMessage`); on exit 0 `additionalContext`, else plain stdout that is not hook
//!   JSON, is context;
//! - `Stop`: `decision: "block"` with a non-empty `reason` continues the agent, else exit 2 (with
//!   stderr); `continue: false` stops it; `systemMessage` is shown;
//! - `SessionStart`: exit 0 `additionalContext`, else plain stdout, is context;
//! - `PreCompact`: exit 2 or 3 skips the compaction; `SubagentStop`, `Notification` and
//!   `SessionEnd`: the output is ignored.

use std::path::Path;

use serde_json::{Map, Value};

use super::{parse_stdout, path_str, str_field, Effect, FakeAgent, HookOutput, Parsed, Profile, TimeoutUnit, Verdict};

/// The Factory Droid fake agent.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Droid;

const EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "Notification",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
];

/// The output keys Droid's runner copies from the JSON object.
const READ_KEYS: &[&str] = &[
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "hookSpecificOutput",
];

const PROFILE: Profile = Profile::new("droid", EVENTS, TimeoutUnit::Seconds, 60).failures(
    "timed out: reported as exit 1, the action proceeds (fail-open)",
    "the action proceeds (fail-open)",
);

/// What Droid took from one result.
#[derive(Default)]
struct Read {
    exit: i32,
    stderr: String,
    /// The trimmed stdout when it is not JSON Droid reads.
    plain: Option<String>,
    /// The JSON object, when stdout was one.
    json: Option<Map<String, Value>>,
}

impl Read {
    fn of(v: &mut Verdict, out: &HookOutput) -> Self {
        let mut r = Read {
            exit: if out.timed_out { 1 } else { out.exit_code.unwrap_or(1) },
            stderr: out.stderr_str(),
            ..Read::default()
        };
        match parse_stdout(&out.stdout) {
            Parsed::Empty => {}
            Parsed::Object(o) => {
                for k in o.keys().filter(|k| !READ_KEYS.contains(&k.as_str())) {
                    v.ignore(format!("`{k}` is not read by Droid"));
                }
                // A JSON object of none of Droid's keys is plain text to the context readers.
                if o.keys().any(|k| READ_KEYS.contains(&k.as_str())) {
                    r.json = Some(o);
                } else {
                    r.plain = Some(out.stdout_str().trim().to_owned());
                }
            }
            Parsed::BrokenJson(e) => {
                v.problem(format!("stdout starts like JSON but does not parse ({e})"));
                r.plain = Some(out.stdout_str().trim().to_owned());
            }
            Parsed::OtherJson(_) | Parsed::Text(_) => r.plain = Some(out.stdout_str().trim().to_owned()),
        }
        r
    }

    fn field(&self, k: &str) -> Option<&Value> {
        self.json.as_ref().and_then(|o| o.get(k))
    }

    fn text(&self, k: &str) -> Option<&str> {
        self.json.as_ref().and_then(|o| str_field(o, k))
    }

    fn specific(&self, k: &str) -> Option<&Value> {
        self.field("hookSpecificOutput").and_then(|h| h.get(k))
    }

    fn specific_text(&self, k: &str) -> Option<&str> {
        self.specific(k).and_then(Value::as_str)
    }

    fn stops(&self) -> bool {
        self.field("continue") == Some(&Value::Bool(false))
    }

    fn stderr_or(&self, default: &str) -> String {
        if self.stderr.is_empty() {
            default.to_owned()
        } else {
            self.stderr.clone()
        }
    }

    /// `taL`: on exit 0, `additionalContext`, else plain stdout.
    fn context(&self) -> Option<String> {
        if self.exit != 0 {
            return None;
        }
        if let Some(c) = self.specific_text("additionalContext").filter(|c| !c.is_empty()) {
            return Some(c.to_owned());
        }
        self.plain.clone().filter(|p| !p.is_empty())
    }

    fn warn(&self, v: &mut Verdict) {
        if self.exit != 0 && !matches!(self.exit, 2 | 3) {
            v.problem(format!("exit {}: {}", self.exit, PROFILE.on_error));
        }
    }
}

fn pre_tool(v: &mut Verdict, payload: &[u8], r: &Read) {
    if r.stops() {
        v.agent_stopped = Some(
            r.text("stopReason")
                .unwrap_or("Hook requested to stop execution")
                .to_owned(),
        );
        return;
    }
    if r.exit == 3 {
        v.agent_stopped = Some(r.stderr_or("Agent aborted by PreToolUse hook"));
        return;
    }
    let rewrite = r.specific("updatedInput").and_then(Value::as_object);
    let merged = |upd: &Map<String, Value>| {
        let mut input = super::payload_value(payload)
            .get("tool_input")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        input.extend(upd.iter().map(|(k, x)| (k.clone(), x.clone())));
        input
    };
    match r.specific_text("permissionDecision") {
        Some("deny") => {
            let reason = r
                .specific_text("permissionDecisionReason")
                .filter(|s| !s.is_empty())
                .unwrap_or("Tool execution denied by hook");
            v.effect = Effect::Denied {
                reason: reason.to_owned(),
            };
            return;
        }
        Some("allow") => v.effect = Effect::Allowed,
        Some(other) => v.ignore(format!("permissionDecision {other:?} is only logged")),
        None => {}
    }
    if r.exit == 2 {
        v.effect = Effect::Denied {
            reason: r.stderr_or("Tool execution blocked by hook"),
        };
        return;
    }
    if let Some(upd) = rewrite {
        v.input_rewritten = Some(merged(upd));
    }
    if r.text("systemMessage").is_some() {
        v.ignore("a PreToolUse systemMessage is only logged");
    }
    if r.specific("additionalContext").is_some() {
        v.ignore("additionalContext is not read on PreToolUse");
    }
    r.warn(v);
}

fn post_tool(v: &mut Verdict, r: &Read) {
    if r.stops() {
        v.agent_stopped = Some(r.text("stopReason").unwrap_or("Hook requested stop").to_owned());
        return;
    }
    if let Some(c) = r.specific_text("additionalContext").filter(|c| !c.is_empty()) {
        v.add_context(c);
    }
    if let Some(m) = r.text("systemMessage") {
        v.system_message = Some(m.to_owned());
    }
    if r.exit == 3 {
        v.agent_stopped = Some(r.stderr_or("Agent aborted by hook"));
        return;
    }
    if r.exit == 2 {
        v.effect = Effect::OutputFlagged {
            reason: r.stderr_or("Hook reported an issue"),
        };
    }
    if r.text("decision").is_some() {
        v.ignore("`decision` is not read on PostToolUse");
    }
    r.warn(v);
}

fn prompt(v: &mut Verdict, r: &Read) {
    if r.exit == 2 || r.stops() {
        let reason = [
            r.stderr.as_str(),
            r.text("stopReason").unwrap_or(""),
            r.text("systemMessage").unwrap_or(""),
        ]
        .into_iter()
        .find(|s| !s.is_empty())
        .unwrap_or("User prompt submission blocked by hook");
        v.effect = Effect::Denied {
            reason: reason.to_owned(),
        };
        return;
    }
    if let Some(c) = r.context() {
        v.add_context(&c);
    }
    if r.exit == 3 {
        v.effect = Effect::Denied {
            reason: r.stderr_or("User prompt submission aborted by hook"),
        };
        return;
    }
    if r.text("decision").is_some() {
        v.ignore("`decision` is not read on UserPromptSubmit");
    }
    r.warn(v);
}

fn stop(v: &mut Verdict, r: &Read) {
    if r.stops() {
        v.agent_stopped = Some(
            r.text("stopReason")
                .unwrap_or("Hook requested immediate stop")
                .to_owned(),
        );
    }
    if let Some(m) = r.text("systemMessage") {
        v.system_message = Some(m.to_owned());
    }
    if r.exit == 3 {
        v.agent_stopped = Some(r.stderr_or("Agent aborted by Stop hook"));
    }
    let block = r.text("decision") == Some("block");
    match r.text("reason").filter(|s| !s.is_empty()) {
        Some(reason) if block => {
            v.effect = Effect::Continued {
                instruction: reason.to_owned(),
            };
        }
        _ if r.exit == 2 => {
            v.effect = Effect::Continued {
                instruction: r.stderr_or("Stop hook requested continuation"),
            };
        }
        _ if block => v.ignore("`decision: block` without a reason is ignored"),
        _ => {}
    }
    if v.agent_stopped.is_some() {
        // The agent ends: a continuation is not run.
        v.effect = Effect::Proceed;
    }
    r.warn(v);
}

impl FakeAgent for Droid {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn exited(&self, v: &mut Verdict, native_event: &str, payload: &[u8], out: &HookOutput) {
        let r = Read::of(v, out);
        match native_event {
            "PreToolUse" => pre_tool(v, payload, &r),
            "PostToolUse" => post_tool(v, &r),
            "UserPromptSubmit" => prompt(v, &r),
            "Stop" => stop(v, &r),
            "SessionStart" => {
                if let Some(c) = r.context() {
                    v.add_context(&c);
                }
                r.warn(v);
            }
            "PreCompact" if matches!(r.exit, 2 | 3) => {
                v.effect = Effect::Denied {
                    reason: r.stderr_or("compaction skipped by hook"),
                };
            }
            _ => {
                if r.json.is_some() || r.plain.is_some() {
                    v.ignore(format!("the output of {native_event} is ignored"));
                }
            }
        }
    }

    fn hook_env(&self, native_event: &str, payload: &Value, cwd: &Path) -> Vec<(String, String)> {
        let _ = native_event;
        let dir = path_str(cwd);
        let mut env: Vec<(String, String)> = ["FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR"]
            .into_iter()
            .map(|k| (k.to_owned(), dir.clone()))
            .collect();
        // Every top-level scalar of the payload is exported under its own name.
        if let Some(o) = payload.as_object() {
            let ident = |k: &str| {
                k.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            };
            for (k, x) in o.iter().filter(|(k, _)| ident(k)) {
                let value = match x {
                    Value::String(s) => s.clone(),
                    Value::Bool(_) | Value::Number(_) => x.to_string(),
                    _ => continue,
                };
                env.push((k.clone(), value));
            }
        }
        env
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(event: &str, code: i32, stdout: &str, stderr: &str) -> Verdict {
        super::super::verdict_of(
            &Droid,
            event,
            br#"{"tool_input":{"command":"ls","riskLevel":"low"}}"#,
            (code, stdout, stderr),
        )
    }

    #[test]
    fn pre_tool_use() {
        let deny = r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}"#;
        assert_eq!(
            run("PreToolUse", 0, deny, "").effect,
            Effect::Denied { reason: "r".into() }
        );
        assert_eq!(
            run("PreToolUse", 2, "", "").effect,
            Effect::Denied {
                reason: "Tool execution blocked by hook".into()
            }
        );
        let v = run(
            "PreToolUse",
            0,
            r#"{"hookSpecificOutput":{"updatedInput":{"command":"pwd"}}}"#,
            "",
        );
        assert_eq!(v.effect, Effect::Proceed);
        let rewritten = v.input_rewritten.unwrap_or_default();
        assert_eq!(rewritten.get("command"), Some(&Value::from("pwd")));
        assert_eq!(
            rewritten.get("riskLevel"),
            Some(&Value::from("low")),
            "merged over the input"
        );
        assert!(run(
            "PreToolUse",
            0,
            r#"{"hookSpecificOutput":{"permissionDecision":"ask"}}"#,
            ""
        )
        .is_no_op());
        assert_eq!(
            run("PreToolUse", 0, r#"{"continue":false,"stopReason":"s"}"#, "")
                .agent_stopped
                .as_deref(),
            Some("s")
        );
        let v = run("PreToolUse", 1, "", "boom");
        assert!(v.misbehaved() && v.effect == Effect::Proceed);
    }

    #[test]
    fn prompt_stop_and_session_start() {
        assert_eq!(
            run("UserPromptSubmit", 0, r#"{"continue":false,"stopReason":"no"}"#, "").effect,
            Effect::Denied { reason: "no".into() }
        );
        assert_eq!(
            run("UserPromptSubmit", 0, "today is Monday", "").context,
            ["today is Monday"]
        );
        assert_eq!(
            run("Stop", 0, r#"{"decision":"block","reason":"again"}"#, "").effect,
            Effect::Continued {
                instruction: "again".into()
            }
        );
        assert!(run("Stop", 0, r#"{"decision":"block"}"#, "").is_no_op());
        let v = run(
            "SessionStart",
            0,
            r#"{"hookSpecificOutput":{"additionalContext":"c"}}"#,
            "",
        );
        assert_eq!(v.context, ["c"]);
        assert!(run("SessionEnd", 0, r#"{"systemMessage":"m"}"#, "").is_no_op());
    }
}
