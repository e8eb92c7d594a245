//! OpenCode through the agenthooks shim, as documented in `reference/providers/opencode.md`
//! (1.18.33 plugin hooks, permissions, bus events) and the shim's contract (issue 18): what the
//! hook's answer does once the serve loop has turned it into a reply frame and the shim has
//! applied it.
//!
//! - stdout is a reply envelope `{output?, error?, effects?}` (other stdout is taken as `output`
//!   by the serve loop); a non-zero exit adds `error` (stderr, or "blocked by hook");
//! - `error` is thrown by the shim from `tool.execute.before` (the tool does not run, the error
//!   is its result) and `chat.message` (the prompt fails); it is swallowed elsewhere;
//! - `output` is assigned onto OpenCode's own output object: `args` on `tool.execute.before` is
//!   the input the tool runs with; new text parts on `chat.message` and new strings in `context`
//!   on `experimental.session.compacting` reach the model; `output` on `tool.execute.after` is
//!   the result the model sees; on other hooks it changes OpenCode internals no unified intent
//!   covers (ignored here);
//! - `effects` are HTTP calls the daemon makes to OpenCode's server: a permission reply
//!   (`POST /permission/{id}/reply {reply}`, or the per-session route with `{response}`) allows
//!   (`once`/`always`) or denies (`reject`, with its `message`); a prompt
//!   (`POST /session/{id}/prompt_async` or `/message`) continues the session;
//! - a timeout: the shim's deadline, fail-open (nothing happens).

use serde_json::Value;

use super::{parse_stdout, payload_value, Effect, FakeAgent, HookOutput, Parsed, Profile, TimeoutUnit, Verdict};

/// The OpenCode fake agent (the shim and OpenCode together).
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct OpenCode;

const EVENTS: &[&str] = &[
    "tool.execute.before",
    "tool.execute.after",
    "chat.message",
    "chat.params",
    "chat.headers",
    "experimental.text.complete",
    "experimental.session.compacting",
    "command.execute.before",
    "shell.env",
    "tool.definition",
    "session.created",
    "session.idle",
    "session.compacted",
    "file.edited",
    "permission.asked",
    "permission.updated",
    "message.part.updated",
    "server.instance.disposed",
    "tui.toast.show",
];

/// Text parts of a `parts` array.
fn texts(parts: Option<&Value>) -> Vec<String> {
    parts
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|p| p.get("text").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

fn apply_effect(v: &mut Verdict, effect: &Value) {
    let Some(http) = effect.get("http") else {
        v.problem(format!("unknown effect {effect}"));
        return;
    };
    let path = http.get("path").and_then(Value::as_str).unwrap_or_default();
    let body = http.get("body").cloned().unwrap_or(Value::Null);
    let permission = path.starts_with("/permission/") && path.ends_with("/reply");
    let legacy = path.starts_with("/session/") && path.contains("/permissions/");
    if permission || legacy {
        let reply = body
            .get(if permission { "reply" } else { "response" })
            .and_then(Value::as_str)
            .unwrap_or_default();
        v.effect = match reply {
            "once" | "always" => Effect::Allowed,
            "reject" => Effect::Denied {
                reason: body
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            },
            other => {
                v.problem(format!("OpenCode rejects the permission reply {other:?}"));
                return;
            }
        };
        return;
    }
    if path.starts_with("/session/") && (path.ends_with("/prompt_async") || path.ends_with("/message")) {
        let text = texts(body.get("parts")).join("\n");
        v.effect = Effect::Continued { instruction: text };
        return;
    }
    v.ignore(format!("the daemon calls {path}: no unified intent"));
}

/// The shim's deadline (milliseconds); OpenCode has none of its own.
const PROFILE: Profile = Profile::new("opencode", EVENTS, TimeoutUnit::Milliseconds, 60_000).failures(
    "no answer within the shim's deadline: fail-open, nothing applied",
    "the hook failed",
);

impl FakeAgent for OpenCode {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn exited(&self, v: &mut Verdict, native_event: &str, payload: &[u8], out: &HookOutput) {
        let mut reply = match parse_stdout(&out.stdout) {
            Parsed::Empty => serde_json::Map::new(),
            Parsed::Object(o)
                if !o.is_empty() && o.keys().all(|k| matches!(k.as_str(), "output" | "error" | "effects")) =>
            {
                o
            }
            Parsed::Object(o) => {
                let mut m = serde_json::Map::new();
                m.insert("output".into(), Value::Object(o));
                m
            }
            Parsed::OtherJson(j) => {
                v.problem(format!(
                    "the reply's output is not an object ({j}): nothing is assigned"
                ));
                serde_json::Map::new()
            }
            Parsed::BrokenJson(e) | Parsed::Text(e) => {
                v.problem(format!("the shim gets a string output ({e}): nothing is assigned"));
                serde_json::Map::new()
            }
        };
        if out.exit_code != Some(0) && !reply.contains_key("error") {
            let text = out.stderr_str().trim().to_owned();
            reply.insert(
                "error".into(),
                Value::String(if text.is_empty() {
                    "blocked by hook".into()
                } else {
                    text
                }),
            );
        }
        let throws = matches!(native_event, "tool.execute.before" | "chat.message");
        if let Some(e) = reply.get("error").filter(|e| !e.is_null()) {
            let reason = e.as_str().map_or_else(|| e.to_string(), str::to_owned);
            if throws {
                v.effect = Effect::Denied { reason };
                return;
            }
            v.ignore(format!("an error on {native_event} is swallowed by the shim"));
        }
        let sent = payload_value(payload);
        if let Some(Value::Object(o)) = reply.get("output") {
            for (k, val) in o {
                match (native_event, k.as_str()) {
                    ("tool.execute.before", "args") => match val {
                        Value::Object(args) => v.input_rewritten = Some(args.clone()),
                        other => v.problem(format!("args must be an object, got {other}")),
                    },
                    ("chat.message", "parts") => {
                        let before = texts(sent.pointer("/output/parts"));
                        for t in texts(Some(val)) {
                            if !before.contains(&t) {
                                v.add_context(&t);
                            }
                        }
                    }
                    ("experimental.session.compacting", "context") => {
                        let before: Vec<&Value> = sent
                            .pointer("/output/context")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                            .collect();
                        for c in val.as_array().into_iter().flatten() {
                            if !before.contains(&c) {
                                if let Some(s) = c.as_str() {
                                    v.add_context(s);
                                }
                            }
                        }
                    }
                    ("tool.execute.after", "output") => v.effect = Effect::OutputReplaced { output: val.clone() },
                    _ => v.ignore(format!("`{k}` assigned on {native_event}: no unified intent")),
                }
            }
        }
        for effect in reply.get("effects").and_then(Value::as_array).into_iter().flatten() {
            apply_effect(v, effect);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(event: &str, stdout: &str) -> Verdict {
        OpenCode.interpret(
            event,
            br#"{"output":{"parts":[{"type":"text","text":"hi"}]}}"#,
            &HookOutput::new(0, stdout, ""),
        )
    }

    #[test]
    fn replies_as_the_shim_applies_them() {
        assert_eq!(
            run("tool.execute.before", r#"{"error":"no"}"#).effect,
            Effect::Denied { reason: "no".into() }
        );
        assert!(run("tool.execute.after", r#"{"error":"no"}"#).is_no_op());
        assert!(run("session.idle", "{}").is_no_op());
        let v = run(
            "chat.message",
            r#"{"output":{"parts":[{"type":"text","text":"hi"},{"type":"text","text":"ctx","synthetic":true}]}}"#,
        );
        assert_eq!(v.context, ["ctx"]);
        let v = run(
            "permission.asked",
            r#"{"effects":[{"http":{"path":"/permission/p/reply","body":{"reply":"reject","message":"m"}}}]}"#,
        );
        assert_eq!(v.effect, Effect::Denied { reason: "m".into() });
        let v = run(
            "session.idle",
            r#"{"effects":[{"http":{"path":"/session/s/prompt_async","body":{"parts":[{"type":"text","text":"go"}]}}}]}"#,
        );
        assert_eq!(
            v.effect,
            Effect::Continued {
                instruction: "go".into()
            }
        );
        let v = OpenCode.interpret("tool.execute.before", b"{}", &HookOutput::new(2, "", "why"));
        assert_eq!(v.effect, Effect::Denied { reason: "why".into() });
    }
}
