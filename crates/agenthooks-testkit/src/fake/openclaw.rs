//! OpenClaw through the agenthooks plugin: its rules for reading a handler result.
//!
//! Written from the 2026.9.6 declarations (`PluginHookBeforeToolCallResult`,
//! `PluginHookBeforeAgentRunResult`, `PluginHookBeforePromptBuildResult`,
//! `PluginHookBeforeAgentFinalizeResult`) and the hook docs, not from this crate's encoder. The
//! "hook output" is the reply frame's `output` as the shim returns it: empty stdout is no
//! result; anything but exit 0 is an error frame (the shim then decides locally).

use super::{Effect, FakeAgent, HookOutput, Profile, TimeoutUnit, Verdict};
use serde_json::{Map, Value};

/// The OpenClaw fake agent (2026.9.6, with the agenthooks plugin in front of the daemon).
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct OpenClaw;

/// Every hook name of 2026.9.6 (`PluginHookName`), plus the shim's own report.
const HOOKS: &[&str] = &[
    "before_model_resolve",
    "agent_turn_prepare",
    "before_prompt_build",
    "before_agent_reply",
    "model_call_started",
    "model_call_ended",
    "llm_input",
    "llm_output",
    "before_agent_finalize",
    "agent_end",
    "before_compaction",
    "after_compaction",
    "before_reset",
    "inbound_claim",
    "channel_pairing_requested",
    "message_received",
    "message_sending",
    "reply_payload_sending",
    "message_sent",
    "before_tool_call",
    "after_tool_call",
    "tool_result_persist",
    "before_message_write",
    "session_start",
    "session_end",
    "subagent_delivery_target",
    "subagent_spawned",
    "subagent_progress",
    "subagent_ended",
    "gateway_start",
    "gateway_stop",
    "heartbeat_prompt_contribution",
    "cron_reconciled",
    "cron_changed",
    "skill_proposal_evaluate",
    "skill_proposal_changed",
    "skill_changed",
    "before_dispatch",
    "reply_dispatch",
    "before_install",
    "before_agent_run",
    "resolve_exec_env",
    "agenthooks_local_decision",
];

fn text(o: &Map<String, Value>, k: &str) -> Option<String> {
    o.get(k).and_then(Value::as_str).map(str::to_owned)
}

fn tool_call(o: &Map<String, Value>, v: &mut Verdict) {
    // `block: true` is terminal; `block: false` is no decision.
    if o.get("block") == Some(&Value::Bool(true)) {
        let reason = text(o, "blockReason").unwrap_or_else(|| "Tool call blocked by a plugin".into());
        v.effect = Effect::Denied { reason };
        return;
    }
    if let Some(p) = o.get("params") {
        match p {
            Value::Object(m) => v.input_rewritten = Some(m.clone()),
            _ => v.problems.push("params is not an object".into()),
        }
    }
    if let Some(a) = o.get("requireApproval") {
        match (
            a.get("title").and_then(Value::as_str),
            a.get("description").and_then(Value::as_str),
        ) {
            (Some(_), Some(d)) => v.effect = Effect::Asked { reason: d.to_owned() },
            _ => v.problems.push("requireApproval needs title and description".into()),
        }
    }
}

fn agent_run(o: &Map<String, Value>, v: &mut Verdict) {
    match o.get("outcome").and_then(Value::as_str) {
        Some("block") => {
            let Some(reason) = text(o, "reason") else {
                v.problems.push("a block needs a reason".into());
                return;
            };
            if let Some(m) = text(o, "message").filter(|m| *m != reason) {
                v.system_message = Some(m);
            }
            v.effect = Effect::Denied { reason };
        }
        Some("pass") | None => {}
        Some(other) => v.problems.push(format!("unknown outcome `{other}`")),
    }
}

fn prompt_build(o: &Map<String, Value>, v: &mut Verdict) {
    for k in [
        "prependSystemContext",
        "prependContext",
        "appendContext",
        "appendSystemContext",
    ] {
        if let Some(t) = text(o, k).filter(|t| !t.is_empty()) {
            v.context.push(t);
        }
    }
    if o.contains_key("systemPrompt") || o.contains_key("toolsAllow") {
        v.ignored
            .push("system prompt / tool narrowing have no unified intent".into());
    }
}

fn finalize(o: &Map<String, Value>, v: &mut Verdict) {
    if o.get("action").and_then(Value::as_str) == Some("revise") {
        let instruction = o
            .get("retry")
            .and_then(|r| r.get("instruction"))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| text(o, "reason"))
            .unwrap_or_default();
        v.effect = Effect::Continued { instruction };
    }
}

/// The shim's deadline (milliseconds) and what a failed handler means.
const PROFILE: Profile =
    Profile::new("openclaw", HOOKS, TimeoutUnit::Milliseconds, 15_000).failures(ERROR_FRAME, "the hook failed");

/// A handler that fails or times out answers with an error frame.
const ERROR_FRAME: &str = "error frame: the shim decides per its fail policy";

impl FakeAgent for OpenClaw {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn exited(&self, v: &mut Verdict, native_event: &str, _payload: &[u8], out: &HookOutput) {
        if out.exit_code != Some(0) {
            v.problems.push(ERROR_FRAME.into());
            return;
        }
        let stdout = out.stdout_str();
        if stdout.trim().is_empty() {
            return;
        }
        let Ok(Value::Object(o)) = serde_json::from_str::<Value>(&stdout) else {
            v.problems.push("the result is not a JSON object".into());
            return;
        };
        match native_event {
            "before_tool_call" => tool_call(&o, v),
            "before_agent_run" => agent_run(&o, v),
            "before_prompt_build" => prompt_build(&o, v),
            "before_agent_finalize" => finalize(&o, v),
            _ => v.ignored.push(format!("{native_event}: the shim does not await it")),
        }
    }

    fn transport(&self, _native_event: &str) -> agenthooks_core::Transport {
        agenthooks_core::Transport::Frame
    }
}
