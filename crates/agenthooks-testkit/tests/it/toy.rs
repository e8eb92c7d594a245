//! A small codec speaking a subset of the Claude Code dialect, with a configurable capability
//! table, so the testkit can be tested against a codec whose promises we control.

use std::time::Duration;

use agenthooks_core::decision::DecisionKind;
use agenthooks_core::{
    CanonicalTool, CapSet, Capability, Codec, DecodeCategory, DecodeError, EncodeCategory, EncodeError, Envelope,
    Event, EventKind, EventRow, EventTarget, FailMode, Invocation, NativeName, Outcome, PromptEvent, Provider,
    SessionStartEvent, StopEvent, ToolCall, ToolPreEvent, Variant, WireResponse,
};
use serde_json::{json, Map, Value};

/// The native view: the event name plus everything else, kept.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub(crate) struct ToyNative {
    pub(crate) hook_event_name: String,
    #[serde(flatten)]
    pub(crate) extra: Map<String, Value>,
}

pub(crate) fn extra(env: &Envelope) -> Option<&Map<String, Value>> {
    env.native_view::<ToyNative>().map(|n| &n.extra)
}

const EVENTS: &[EventRow] = &[
    EventRow::new("PreToolUse", EventKind::ToolPre, true, true),
    EventRow::new("UserPromptSubmit", EventKind::PromptSubmitted, true, false),
    EventRow::new("Stop", EventKind::Stop, true, false),
    EventRow::new("SessionStart", EventKind::SessionStart, true, false),
];

/// What the toy encoder really supports (Claude's rules, minus `ask`).
pub(crate) const PRE_TOOL: CapSet = CapSet::of(&[
    Capability::Deny,
    Capability::Allow,
    Capability::UpdateInput,
    Capability::AddContext,
    Capability::SystemMessage,
    Capability::StopAgent,
]);
pub(crate) const PROMPT: CapSet = CapSet::of(&[
    Capability::Deny,
    Capability::AddContext,
    Capability::SystemMessage,
    Capability::StopAgent,
]);
pub(crate) const STOP: CapSet = CapSet::of(&[
    Capability::ContinueAgent,
    Capability::AddContext,
    Capability::SystemMessage,
    Capability::StopAgent,
]);
pub(crate) const SESSION: CapSet =
    CapSet::of(&[Capability::AddContext, Capability::SystemMessage, Capability::StopAgent]);

#[derive(Debug)]
pub(crate) struct Toy {
    pub(crate) pre_tool: CapSet,
    pub(crate) session: CapSet,
}

/// Capabilities that match the encoder.
pub(crate) static GOOD: Toy = Toy {
    pre_tool: PRE_TOOL,
    session: SESSION,
};
/// One entry changed without the encoder: promises `ask` on `PreToolUse`.
pub(crate) static OVER: Toy = Toy {
    pre_tool: PRE_TOOL.with(Capability::Ask),
    session: SESSION,
};
/// One entry changed without the encoder: stops promising context on `SessionStart`.
pub(crate) static UNDER: Toy = Toy {
    pre_tool: PRE_TOOL,
    session: SESSION.without(Capability::AddContext),
};

fn err(m: impl Into<String>) -> DecodeError {
    DecodeError::new(Provider::CLAUDE_CODE, DecodeCategory::Data, m)
}

fn s(m: &Map<String, Value>, k: &str) -> String {
    m.get(k).and_then(Value::as_str).unwrap_or_default().to_owned()
}

impl Codec for Toy {
    fn provider(&self) -> Provider {
        Provider::CLAUDE_CODE
    }

    fn native_events(&self) -> &'static [EventRow] {
        EVENTS
    }

    fn native_extra<'a>(&self, env: &'a Envelope) -> Option<&'a Map<String, Value>> {
        extra(env)
    }

    fn decode(&self, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
        let native: ToyNative = serde_json::from_slice(inv.payload.json_bytes())
            .map_err(|e| DecodeError::from_json(Provider::CLAUDE_CODE, &e))?;
        let m = &native.extra;
        let name = native.hook_event_name.clone();
        let kind = self.kind_of(&name);
        let mut env = Envelope::new(
            Provider::CLAUDE_CODE,
            NativeName::new(name.clone()),
            kind,
            inv.payload.clone(),
        );
        env.session.id = s(m, "session_id");
        env.session.cwd = s(m, "cwd");
        if let Some(v) = inv.variant {
            env.variant = v.clone();
        }
        let view = native.clone();
        env.set_native_view(view);
        Ok(match kind {
            EventKind::ToolPre => {
                let tool = ToolCall::builder(s(m, "tool_name"), m.get("tool_input").cloned().unwrap_or(Value::Null))
                    .class(CanonicalTool::Shell)
                    .with_id(s(m, "tool_use_id"))
                    .build(&env.session);
                Event::ToolPre(ToolPreEvent::new(env, tool))
            }
            EventKind::PromptSubmitted => Event::PromptSubmitted(PromptEvent::new(env, s(m, "prompt"))),
            EventKind::Stop => Event::Stop(
                StopEvent::new(env).with_previously_continued(m.get("stop_hook_active") == Some(&Value::Bool(true))),
            ),
            EventKind::SessionStart => Event::SessionStart(
                SessionStartEvent::new(env).with_source(m.get("source").and_then(Value::as_str).map(str::to_owned)),
            ),
            _ => return Err(err(format!("unknown event {name}"))),
        })
    }

    fn encode(&self, event: &Event, o: &Outcome) -> Result<WireResponse, EncodeError> {
        let native = event.envelope().native.as_str().to_owned();
        let mut top = Map::new();
        let mut hso = Map::new();
        match (o.kind(), event.kind()) {
            (DecisionKind::NoDecision, _) => {}
            (DecisionKind::Allow, EventKind::ToolPre) => {
                hso.insert("permissionDecision".into(), "allow".into());
            }
            (DecisionKind::Deny, EventKind::ToolPre) => {
                hso.insert("permissionDecision".into(), "deny".into());
                hso.insert("permissionDecisionReason".into(), o.reason().unwrap_or_default().into());
            }
            (DecisionKind::BlockPrompt, EventKind::PromptSubmitted) | (DecisionKind::Continue, EventKind::Stop) => {
                top.insert("decision".into(), "block".into());
                top.insert("reason".into(), o.reason().unwrap_or_default().into());
            }
            (k, _) => {
                return Err(EncodeError::new(
                    Provider::CLAUDE_CODE,
                    EncodeCategory::Unsupported,
                    format!("toy cannot encode {k} on {native}"),
                ));
            }
        }
        if let Some(i) = o.updated_input() {
            if o.kind() != DecisionKind::Allow {
                return Err(EncodeError::new(
                    Provider::CLAUDE_CODE,
                    EncodeCategory::Unsupported,
                    "a rewrite needs an allow",
                ));
            }
            hso.insert("updatedInput".into(), Value::Object(i.clone()));
        }
        if !o.context().is_empty() {
            hso.insert("additionalContext".into(), o.context().join("\n").into());
        }
        if let Some(m) = o.system_message() {
            top.insert("systemMessage".into(), m.into());
        }
        if let Some(r) = o.stop_reason() {
            top.insert("continue".into(), false.into());
            top.insert("stopReason".into(), r.into());
        }
        if !hso.is_empty() {
            hso.insert("hookEventName".into(), native.into());
            top.insert("hookSpecificOutput".into(), Value::Object(hso));
        }
        Ok(WireResponse::json(&Value::Object(top)))
    }

    fn no_op(&self, _target: &EventTarget) -> WireResponse {
        WireResponse::json(&json!({}))
    }

    fn failure_response(&self, target: &EventTarget, mode: FailMode, reason: &str) -> WireResponse {
        match (mode, target.kind) {
            (FailMode::Closed, Some(EventKind::ToolPre | EventKind::PromptSubmitted)) => {
                WireResponse::exit(2, reason.as_bytes().to_vec())
            }
            _ => self.no_op(target),
        }
    }

    fn capabilities(&self, _variant: &Variant, native: &str) -> CapSet {
        match native {
            "PreToolUse" => self.pre_tool,
            "UserPromptSubmit" => PROMPT,
            "Stop" => STOP,
            "SessionStart" => self.session,
            _ => CapSet::EMPTY,
        }
    }

    fn default_timeout(&self) -> Duration {
        Duration::from_secs(600)
    }
}

pub(crate) const PRE_TOOL_USE: &str = r#"{"session_id":"s1","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /","description":"clean"},"tool_use_id":"toolu_1"}"#;
pub(crate) const PROMPT_SUBMIT: &str =
    r#"{"session_id":"s1","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"hello"}"#;
pub(crate) const STOP_EVENT: &str =
    "{\"session_id\":\"s1\",\"cwd\":\"/tmp\",\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}\n";
pub(crate) const SESSION_START: &str =
    r#"{"session_id":"s1","cwd":"/tmp","hook_event_name":"SessionStart","source":"startup"}"#;

/// Writes a fixture corpus for the toy codec under `root/claude-code/docs/`.
pub(crate) fn write_fixtures(root: &std::path::Path) {
    for (case, native, input) in [
        ("pre_tool_use", "PreToolUse", PRE_TOOL_USE),
        ("user_prompt_submit", "UserPromptSubmit", PROMPT_SUBMIT),
        ("stop", "Stop", STOP_EVENT),
        ("session_start", "SessionStart", SESSION_START),
    ] {
        let dir = root.join("claude-code/docs").join(case);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("input.json"), input).unwrap();
        std::fs::write(
            dir.join("meta.toml"),
            format!("native_event = \"{native}\"\ntransport = \"stdin\"\nvariant = \"\"\nsource = \"testkit\"\n\n[env]\nCLAUDECODE = \"1\"\n"),
        )
        .unwrap();
    }
}

pub(crate) use agenthooks_testkit::TempDir;
