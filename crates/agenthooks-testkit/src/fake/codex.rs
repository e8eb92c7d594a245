//! Codex, as documented in `reference/providers/codex.md` and the 0.171.0 output schemas
//! (`reference/schemas/codex/*.command.output.schema.json`, all `additionalProperties: false`).
//!
//! - exit 0: empty stdout is no opinion; stdout that starts like JSON must deserialize into the
//!   event's wire type, otherwise the run **fails** and has no effect (unknown keys, a bare
//!   `allow`, `ask`, a reason without a decision, …); plain text is context on `SessionStart`
//!   and `UserPromptSubmit` and ignored elsewhere;
//! - exit 2: blocks **only with non-empty stderr** (the reason); with empty stderr the run fails;
//! - any other exit, a timeout: the run fails, no effect (fail-open, no switch).

use std::time::Duration;

use serde_json::{Map, Value};

use super::{parse_stdout, str_field, Effect, FakeAgent, HookOutput, Parsed, Profile, TimeoutUnit, Verdict};

/// The Codex fake agent.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Codex;

const EVENTS: &[&str] = &[
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "Interrupt",
    "agent-turn-complete",
];

const UNIVERSAL: &[&str] = &["continue", "stopReason", "suppressOutput", "systemMessage"];

/// The top-level keys and `hookSpecificOutput` keys each event's schema admits.
fn schema(event: &str) -> Option<(&'static [&'static str], Option<&'static [&'static str]>)> {
    Some(match event {
        "PreToolUse" => (
            &["decision", "reason", "hookSpecificOutput"],
            Some(&[
                "hookEventName",
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
                "additionalContext",
            ]),
        ),
        "PermissionRequest" => (&["hookSpecificOutput"], Some(&["hookEventName", "decision"])),
        "PostToolUse" => (
            &["decision", "reason", "hookSpecificOutput"],
            Some(&["hookEventName", "additionalContext", "updatedMCPToolOutput"]),
        ),
        "UserPromptSubmit" => (
            &["decision", "reason", "hookSpecificOutput"],
            Some(&["hookEventName", "additionalContext"]),
        ),
        "Stop" | "SubagentStop" => (&["decision", "reason"], None),
        "SessionStart" | "SubagentStart" => (&["hookSpecificOutput"], Some(&["hookEventName", "additionalContext"])),
        "PreCompact" | "PostCompact" => (&[], None),
        _ => return None,
    })
}

fn invalid(v: &mut Verdict, why: impl std::fmt::Display) {
    v.problem(format!("invalid hook output, the run fails and has no effect: {why}"));
}

impl Codex {
    #[allow(clippy::too_many_lines)]
    fn interpret_json(v: &mut Verdict, event: &str, payload: &[u8], o: &Map<String, Value>) {
        if event == "Interrupt" {
            if let Some(k) = o.keys().find(|k| *k != "systemMessage") {
                return invalid(v, format!("unknown key `{k}` on Interrupt"));
            }
            if let Some(s) = str_field(o, "systemMessage") {
                v.system_message = Some(s.to_owned());
            }
            return;
        }
        let Some((top, hso_keys)) = schema(event) else {
            v.ignore(format!("Codex reads no output on {event}"));
            return;
        };
        for k in o.keys() {
            if !UNIVERSAL.contains(&k.as_str()) && !top.contains(&k.as_str()) {
                return invalid(v, format!("unknown key `{k}` for {event}"));
            }
        }
        let no_stop = matches!(event, "PreToolUse" | "PermissionRequest");
        if no_stop {
            if o.get("continue") == Some(&Value::Bool(false)) {
                return invalid(v, format!("`continue: false` is not allowed on {event}"));
            }
            if o.contains_key("stopReason") {
                return invalid(v, format!("`stopReason` is not allowed on {event}"));
            }
        }
        if o.get("suppressOutput") == Some(&Value::Bool(true))
            && matches!(event, "PreToolUse" | "PermissionRequest" | "PostToolUse")
        {
            return invalid(v, format!("`suppressOutput` is not allowed on {event}"));
        }
        let hso = match o.get("hookSpecificOutput") {
            None | Some(Value::Null) => None,
            Some(Value::Object(h)) => {
                let allowed = hso_keys.unwrap_or(&[]);
                if let Some(k) = h.keys().find(|k| !allowed.contains(&k.as_str())) {
                    return invalid(v, format!("unknown key `hookSpecificOutput.{k}` for {event}"));
                }
                if str_field(h, "hookEventName") != Some(event) {
                    return invalid(v, format!("`hookSpecificOutput.hookEventName` must be {event:?}"));
                }
                Some(h)
            }
            Some(_) => return invalid(v, "`hookSpecificOutput` is not an object"),
        };
        let decision = str_field(o, "decision");
        let reason = str_field(o, "reason").unwrap_or_default();
        if o.contains_key("reason") && decision.is_none() {
            return invalid(v, "`reason` without `decision`");
        }
        let mut effect = Effect::Proceed;
        match (event, decision) {
            (_, None) => {}
            ("PreToolUse", Some("approve")) => return invalid(v, "legacy `decision: approve`"),
            (_, Some("block")) if reason.trim().is_empty() => {
                return invalid(v, "`decision: block` needs a non-empty reason")
            }
            ("PreToolUse" | "UserPromptSubmit", Some("block")) => {
                effect = Effect::Denied {
                    reason: reason.to_owned(),
                };
            }
            ("PostToolUse", Some("block")) => {
                effect = Effect::OutputFlagged {
                    reason: reason.to_owned(),
                }
            }
            ("Stop" | "SubagentStop", Some("block")) => {
                effect = Effect::Continued {
                    instruction: reason.to_owned(),
                };
            }
            (_, Some(d)) => return invalid(v, format!("`decision: {d:?}` on {event}")),
        }
        let mut rewritten = None;
        let mut context = None;
        if let Some(h) = hso {
            context = str_field(h, "additionalContext").map(str::to_owned);
            match event {
                "PreToolUse" => {
                    let pd = str_field(h, "permissionDecision");
                    let pr = str_field(h, "permissionDecisionReason");
                    let ui = h.get("updatedInput").filter(|u| !u.is_null());
                    match pd {
                        None if pr.is_some() => return invalid(v, "`permissionDecisionReason` without a decision"),
                        None if ui.is_some() => {
                            return invalid(v, "`updatedInput` without `permissionDecision: allow`")
                        }
                        None => {}
                        Some("ask") => return invalid(v, "`permissionDecision: ask` is not supported"),
                        Some("deny") => {
                            let r = pr.unwrap_or_default();
                            if r.trim().is_empty() {
                                return invalid(v, "`deny` needs a non-empty permissionDecisionReason");
                            }
                            if ui.is_some() {
                                return invalid(v, "`updatedInput` with `deny`");
                            }
                            effect = Effect::Denied { reason: r.to_owned() };
                        }
                        Some("allow") => match ui {
                            None => return invalid(v, "a bare `allow` (without updatedInput) is not supported"),
                            // allow is only the vehicle of a rewrite: Codex's approval flow still runs.
                            Some(Value::Object(m)) => rewritten = Some(m.clone()),
                            Some(other) => rewritten = Some(agenthooks_core::normalize_input(other)),
                        },
                        Some(other) => return invalid(v, format!("unknown permissionDecision {other:?}")),
                    }
                }
                "PermissionRequest" => {
                    if let Some(d) = h.get("decision").filter(|d| !d.is_null()) {
                        let Some(d) = d.as_object() else {
                            return invalid(v, "`decision` is not an object");
                        };
                        if let Some(k) = d.keys().find(|k| {
                            !matches!(
                                k.as_str(),
                                "behavior" | "message" | "interrupt" | "updatedInput" | "updatedPermissions"
                            )
                        }) {
                            return invalid(v, format!("unknown key `decision.{k}`"));
                        }
                        if d.get("updatedInput").is_some_and(|x| !x.is_null())
                            || d.get("updatedPermissions").is_some_and(|x| !x.is_null())
                            || d.get("interrupt") == Some(&Value::Bool(true))
                        {
                            v.problem("reserved PermissionRequest field set: the hook fails closed");
                            v.effect = Effect::Denied { reason: String::new() };
                            return;
                        }
                        match str_field(d, "behavior") {
                            Some("allow") => effect = Effect::Allowed,
                            Some("deny") => {
                                effect = Effect::Denied {
                                    reason: str_field(d, "message").unwrap_or_default().to_owned(),
                                };
                            }
                            other => return invalid(v, format!("decision.behavior is {other:?}")),
                        }
                    }
                }
                "PostToolUse" => {
                    if let Some(out) = h.get("updatedMCPToolOutput").filter(|x| !x.is_null()) {
                        let mcp = super::payload_value(payload)
                            .get("tool_name")
                            .and_then(Value::as_str)
                            .is_some_and(|n| n.starts_with("mcp__"));
                        if mcp {
                            effect = Effect::OutputReplaced { output: out.clone() };
                        } else {
                            v.ignore("`updatedMCPToolOutput` only replaces MCP tool output in 0.171");
                        }
                    }
                }
                _ => {}
            }
        }
        let prompt_blocked = event == "UserPromptSubmit" && matches!(effect, Effect::Denied { .. });
        v.effect = effect;
        v.input_rewritten = rewritten;
        if let Some(c) = context {
            if prompt_blocked {
                v.ignore("the prompt is blocked: its additionalContext never reaches the model");
            } else {
                v.add_context(&c);
            }
        }
        if let Some(s) = str_field(o, "systemMessage") {
            v.system_message = Some(s.to_owned());
        }
        if o.get("continue") == Some(&Value::Bool(false)) {
            v.agent_stopped = Some(str_field(o, "stopReason").unwrap_or_default().to_owned());
        }
    }
}

const PROFILE: Profile = Profile::new("codex", EVENTS, TimeoutUnit::Seconds, 600)
    .clamp(1, u64::MAX)
    .failures("timed out: the run fails, no effect", "the run fails, no effect");

/// The legacy `notify` program: fire and forget, whatever it does.
const NOTIFY: &str = "agent-turn-complete";

fn notify_output(v: &mut Verdict, out: &HookOutput) {
    if !out.stdout.is_empty() {
        v.ignore("Codex ignores the output of the notify program");
    }
}

impl FakeAgent for Codex {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn timed_out(&self, v: &mut Verdict, native_event: &str, out: &HookOutput) {
        if native_event == NOTIFY {
            notify_output(v, out);
        } else {
            v.problem(PROFILE.timed_out);
        }
    }

    fn exited(&self, v: &mut Verdict, native_event: &str, payload: &[u8], out: &HookOutput) {
        if native_event == NOTIFY {
            notify_output(v, out);
        } else {
            super::by_exit_code(self, v, native_event, payload, out);
        }
    }

    fn exit_2(&self, v: &mut Verdict, native_event: &str, out: &HookOutput) {
        let reason = out.stderr_reason();
        if reason.is_empty() {
            v.problem("exit 2 with empty stderr: the run fails and does not block");
            return;
        }
        match native_event {
            "PreToolUse" | "PermissionRequest" | "UserPromptSubmit" => v.effect = Effect::Denied { reason },
            "PostToolUse" => v.effect = Effect::OutputFlagged { reason },
            "Stop" | "SubagentStop" => v.effect = Effect::Continued { instruction: reason },
            _ => v.ignore(format!("exit 2 does not block {native_event}")),
        }
    }

    fn exit_0(&self, v: &mut Verdict, native_event: &str, payload: &[u8], out: &HookOutput) {
        if native_event == "SessionEnd" {
            if !out.stdout.is_empty() {
                v.ignore("Codex reads no output on SessionEnd");
            }
            return;
        }
        match parse_stdout(&out.stdout) {
            Parsed::Empty => {}
            Parsed::Object(o) => Self::interpret_json(v, native_event, payload, &o),
            Parsed::OtherJson(j) => invalid(v, format!("stdout is JSON but not an object: {j}")),
            Parsed::BrokenJson(e) => invalid(v, format!("stdout starts like JSON but does not parse: {e}")),
            Parsed::Text(t) => {
                if matches!(native_event, "SessionStart" | "UserPromptSubmit") {
                    v.add_context(&t);
                } else {
                    v.ignore(format!("plain-text stdout is ignored on {native_event}"));
                }
            }
        }
    }

    fn timeout(&self, native_event: &str, configured: Option<u64>) -> Duration {
        if native_event == "SessionEnd" {
            Duration::from_secs(configured.unwrap_or(1).clamp(1, 3))
        } else {
            PROFILE.timeout_for(configured)
        }
    }

    // hook_env: Codex passes its own environment; plugin hooks also get PLUGIN_ROOT/PLUGIN_DATA
    // and their CLAUDE_* aliases (not modelled: not a plugin).

    fn transport(&self, native_event: &str) -> agenthooks_core::Transport {
        if native_event == "agent-turn-complete" {
            agenthooks_core::Transport::Argv
        } else {
            agenthooks_core::Transport::Stdin
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(event: &str, code: i32, stdout: &str, stderr: &str) -> Verdict {
        super::super::verdict_of(&Codex, event, br#"{"tool_name":"Bash"}"#, (code, stdout, stderr))
    }

    #[test]
    fn strict_parser() {
        assert!(run("PreToolUse", 0, "", "").is_no_op());
        assert!(run("PreToolUse", 0, "{}", "").is_no_op());
        let v = run(
            "PreToolUse",
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"q"}}"#,
            "",
        );
        assert!(v.misbehaved() && v.effect == Effect::Proceed);
        let v = run("PreToolUse", 0, r#"{"extra":1}"#, "");
        assert!(v.misbehaved());
        let v = run(
            "PreToolUse",
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}"#,
            "",
        );
        assert_eq!(v.effect, Effect::Proceed);
        assert_eq!(v.input_rewritten.unwrap()["command"], "ls");
        assert!(run("PreToolUse", 0, r#"{"continue":false}"#, "").misbehaved());
        let v = run("UserPromptSubmit", 0, r#"{"continue":false,"stopReason":"s"}"#, "");
        assert_eq!(v.agent_stopped.as_deref(), Some("s"));
    }

    #[test]
    fn exit_codes() {
        let v = run("PreToolUse", 2, "", "");
        assert!(v.misbehaved() && v.effect == Effect::Proceed);
        assert!(run("PreToolUse", 1, "", "x").misbehaved());
        assert_eq!(Codex.timeout("SessionEnd", Some(30)), Duration::from_secs(3));
        assert_eq!(Codex.timeout("PreToolUse", None), Duration::from_secs(600));
    }
}
