//! The fixed decision shapes every fixture is encoded with (`responses/<shape>.json`), and a
//! router that answers a given decision.
//!
//! | shape | decision | for kinds |
//! |---|---|---|
//! | `no_decision` | the family's neutral decision | all |
//! | `allow` | `allow()` | tool.pre, permission.request |
//! | `deny` | `deny(DENY_REASON)` | tool.pre, permission.request |
//! | `ask` | `ask_user(ASK_REASON)` | tool.pre, permission.request |
//! | `rewrite_allow` | `rewrite_input(<input with a change>).allow()` | tool.pre, permission.request |
//! | `context` | neutral `.with_context(CONTEXT)` | all but `other` |
//! | `block_prompt` | `block_prompt(BLOCK_REASON)` | prompt.submitted |
//! | `continue` | `continue_with(INSTRUCTION)` | agent.stop, subagent.stop |
//! | `flag_output` | `flag_output(FLAG_REASON)` | tool.post |
//! | `replace_output` | `replace_output(REPLACEMENT)` | tool.post |
//! | `stop_agent` | neutral `.with_stop_agent(STOP_REASON)` | all but `other` |
//! | `system_message` | neutral `.with_system_message(SYSTEM_MESSAGE)` | all but `other` |
//!
//! `other` events never reach typed handlers, so only `no_decision` applies to them.
//!
//! ```
//! use agenthooks_core::EventKind;
//! use agenthooks_testkit::Shape;
//! let names: Vec<&str> = Shape::for_kind(EventKind::Stop).iter().map(|s| s.name()).collect();
//! assert_eq!(names, ["no_decision", "context", "continue", "stop_agent", "system_message"]);
//! ```

use std::fmt;

use agenthooks_core::decision::{
    accept_prompt, allow, ask_user, block_prompt, continue_with, deny, finish, flag_output, no_decision, observed,
    replace_output, rewrite_input, ContextDecision,
};
use agenthooks_core::{
    CompactPostEvent, CompactPreEvent, Context, Event, EventKind, FileEditedEvent, ModelRequestEvent,
    ModelResponseEvent, NotificationEvent, Outcome, PromptEvent, Router, SessionEndEvent, SessionStartEvent, StopEvent,
    SubagentStartEvent, ToolCall, ToolErrorEvent, ToolGateEvent, ToolPostEvent,
};
use serde_json::{Map, Value};

/// Reason of the `deny` shape.
pub const DENY_REASON: &str = "agenthooks-testkit: denied";
/// Reason of the `ask` shape.
pub const ASK_REASON: &str = "agenthooks-testkit: please confirm";
/// Context of the `context` shape.
pub const CONTEXT: &str = "agenthooks-testkit: context";
/// Reason of the `block_prompt` shape.
pub const BLOCK_REASON: &str = "agenthooks-testkit: prompt blocked";
/// Instruction of the `continue` shape.
pub const INSTRUCTION: &str = "agenthooks-testkit: keep going";
/// Reason of the `flag_output` shape.
pub const FLAG_REASON: &str = "agenthooks-testkit: output flagged";
/// Replacement of the `replace_output` shape.
pub const REPLACEMENT: &str = "agenthooks-testkit: replaced output";
/// Reason of the `stop_agent` shape.
pub const STOP_REASON: &str = "agenthooks-testkit: stop";
/// Message of the `system_message` shape.
pub const SYSTEM_MESSAGE: &str = "agenthooks-testkit: system message";
/// The command the `rewrite_allow` shape puts in a shell input.
pub const REWRITTEN_COMMAND: &str = "echo agenthooks-testkit";

/// One decision shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Shape {
    /// The family's neutral decision.
    NoDecision,
    /// `allow()`.
    Allow,
    /// `deny(DENY_REASON)`.
    Deny,
    /// `ask_user(ASK_REASON)`.
    Ask,
    /// `rewrite_input(..).allow()`.
    RewriteAllow,
    /// Neutral with context.
    Context,
    /// `block_prompt(BLOCK_REASON)`.
    BlockPrompt,
    /// `continue_with(INSTRUCTION)`.
    Continue,
    /// `flag_output(FLAG_REASON)`.
    FlagOutput,
    /// `replace_output(REPLACEMENT)`.
    ReplaceOutput,
    /// Neutral with `stop_agent(STOP_REASON)`.
    StopAgent,
    /// Neutral with a system message.
    SystemMessage,
}

impl Shape {
    /// Every shape, in file order.
    pub const ALL: [Self; 12] = [
        Self::NoDecision,
        Self::Allow,
        Self::Deny,
        Self::Ask,
        Self::RewriteAllow,
        Self::Context,
        Self::BlockPrompt,
        Self::Continue,
        Self::FlagOutput,
        Self::ReplaceOutput,
        Self::StopAgent,
        Self::SystemMessage,
    ];

    /// The file stem (`responses/<name>.json`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::NoDecision => "no_decision",
            Self::Allow => "allow",
            Self::Deny => "deny",
            Self::Ask => "ask",
            Self::RewriteAllow => "rewrite_allow",
            Self::Context => "context",
            Self::BlockPrompt => "block_prompt",
            Self::Continue => "continue",
            Self::FlagOutput => "flag_output",
            Self::ReplaceOutput => "replace_output",
            Self::StopAgent => "stop_agent",
            Self::SystemMessage => "system_message",
        }
    }

    /// The shape of a file stem.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether the shape's decision family serves `kind`.
    pub fn applies_to(self, kind: EventKind) -> bool {
        use EventKind as K;
        match self {
            Self::NoDecision => true,
            Self::Context | Self::StopAgent | Self::SystemMessage => kind != K::Other,
            Self::Allow | Self::Deny | Self::Ask | Self::RewriteAllow => matches!(kind, K::ToolPre | K::Permission),
            Self::BlockPrompt => kind == K::PromptSubmitted,
            Self::Continue => matches!(kind, K::Stop | K::SubagentStop),
            Self::FlagOutput | Self::ReplaceOutput => kind == K::ToolPost,
        }
    }

    /// The shapes that apply to a kind, in file order.
    pub fn for_kind(kind: EventKind) -> Vec<Self> {
        Self::ALL.into_iter().filter(|s| s.applies_to(kind)).collect()
    }

    /// The decision of this shape for a decoded event (`None` when the shape does not apply).
    pub fn decision(self, event: &Event) -> Option<Outcome> {
        let kind = event.kind();
        if !self.applies_to(kind) {
            return None;
        }
        let neutral = Outcome::neutral_for(kind);
        Some(match self {
            Self::NoDecision => neutral,
            Self::Allow => allow().into(),
            Self::Deny => deny(DENY_REASON).into(),
            Self::Ask => ask_user(ASK_REASON).into(),
            Self::RewriteAllow => rewrite_input(rewritten_input(event.tool())).allow().into(),
            Self::BlockPrompt => block_prompt(BLOCK_REASON).into(),
            Self::Continue => continue_with(INSTRUCTION).into(),
            Self::FlagOutput => flag_output(FLAG_REASON).into(),
            Self::ReplaceOutput => replace_output(REPLACEMENT).into(),
            Self::Context => modify(neutral, Modifier::Context),
            Self::StopAgent => modify(neutral, Modifier::StopAgent),
            Self::SystemMessage => modify(neutral, Modifier::SystemMessage),
        })
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The input the `rewrite_allow` shape sends: the call's input with `command` (or `cmd`)
/// replaced by [`REWRITTEN_COMMAND`], or with `"agenthooks_testkit": true` added when the
/// input has no command. Keys are never removed, so merge-only dialects can express it.
pub fn rewritten_input(tool: Option<&ToolCall>) -> Map<String, Value> {
    let mut m = tool.map(|t| t.input().clone()).unwrap_or_default();
    if let Some(key) = ["command", "cmd"]
        .into_iter()
        .find(|k| m.get(*k).is_some_and(Value::is_string))
    {
        m.insert(key.to_owned(), REWRITTEN_COMMAND.into());
    } else {
        m.insert("agenthooks_testkit".to_owned(), Value::Bool(true));
    }
    m
}

/// A universal (or blocking-family) modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Modifier {
    /// No modifier.
    None,
    /// `.with_context(CONTEXT)`.
    Context,
    /// `.with_system_message(SYSTEM_MESSAGE)`.
    SystemMessage,
    /// `.with_stop_agent(STOP_REASON)`.
    StopAgent,
    /// `.with_block_reason(BLOCK_MESSAGE)` (tool.pre and prompt families only).
    BlockReason,
}

/// The user-facing block message of [`Modifier::BlockReason`].
pub const BLOCK_MESSAGE: &str = "agenthooks-testkit: blocked (user-facing)";

impl Modifier {
    /// Every modifier.
    pub const ALL: [Self; 5] = [
        Self::None,
        Self::Context,
        Self::SystemMessage,
        Self::StopAgent,
        Self::BlockReason,
    ];

    /// A short name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::None => "",
            Self::Context => "with_context",
            Self::SystemMessage => "with_system_message",
            Self::StopAgent => "stop_agent",
            Self::BlockReason => "with_block_reason",
        }
    }

    /// Whether the modifier exists on the family of `outcome`.
    pub fn applies_to(self, outcome: &Outcome) -> bool {
        self != Self::BlockReason || matches!(outcome, Outcome::ToolPre(_) | Outcome::Prompt(_))
    }
}

/// Applies a modifier to an outcome (a modifier that does not exist on the family is a no-op).
pub fn modify(outcome: Outcome, m: Modifier) -> Outcome {
    macro_rules! apply {
        ($d:expr) => {{
            let d = $d;
            match m {
                Modifier::None | Modifier::BlockReason => d,
                Modifier::Context => d.with_context(CONTEXT),
                Modifier::SystemMessage => d.with_system_message(SYSTEM_MESSAGE),
                Modifier::StopAgent => d.with_stop_agent(STOP_REASON),
            }
        }};
    }
    match outcome {
        Outcome::ToolPre(d) => {
            let d = if m == Modifier::BlockReason {
                d.with_block_reason(BLOCK_MESSAGE)
            } else {
                d
            };
            Outcome::ToolPre(apply!(d))
        }
        Outcome::Prompt(d) => {
            let d = if m == Modifier::BlockReason {
                d.with_block_reason(BLOCK_MESSAGE)
            } else {
                d
            };
            Outcome::Prompt(apply!(d))
        }
        Outcome::Stop(d) => Outcome::Stop(apply!(d)),
        Outcome::ToolPost(d) => Outcome::ToolPost(apply!(d)),
        Outcome::Context(d) => Outcome::Context(apply!(d)),
        other => other,
    }
}

/// The constructors of the family serving `kind` (each with a short name), for `event`.
pub fn constructors(event: &Event) -> Vec<(&'static str, Outcome)> {
    use EventKind as K;
    match event.kind() {
        K::ToolPre | K::Permission => {
            let input = rewritten_input(event.tool());
            vec![
                ("no_decision", no_decision().into()),
                ("allow", allow().into()),
                ("deny", deny(DENY_REASON).into()),
                ("ask_user", ask_user(ASK_REASON).into()),
                ("rewrite_input.allow", rewrite_input(input.clone()).allow().into()),
                (
                    "rewrite_input.ask_user",
                    rewrite_input(input.clone()).ask_user(ASK_REASON).into(),
                ),
                ("rewrite_input.no_decision", rewrite_input(input).no_decision().into()),
            ]
        }
        K::PromptSubmitted => vec![
            ("accept_prompt", accept_prompt().into()),
            ("block_prompt", block_prompt(BLOCK_REASON).into()),
        ],
        K::Stop | K::SubagentStop => vec![
            ("finish", finish().into()),
            ("continue_with", continue_with(INSTRUCTION).into()),
        ],
        K::ToolPost => vec![
            ("observed", observed().into()),
            ("flag_output", flag_output(FLAG_REASON).into()),
            ("replace_output", replace_output(REPLACEMENT).into()),
        ],
        K::Other => vec![],
        _ => vec![("none", ContextDecision::none().into())],
    }
}

/// A router whose handlers answer `outcome` for every event of its family (no observers, no
/// interceptors). `other` events are never dispatched to handlers.
pub fn router_for(outcome: &Outcome) -> Router {
    build(outcome)
}

fn build(outcome: &Outcome) -> Router {
    let r = Router::new();
    match outcome.clone() {
        Outcome::ToolPre(d) => r.on_tool_gate(move |_: &Context, _: ToolGateEvent<'_>| d.clone()),
        Outcome::Prompt(d) => r.on_prompt_submitted(move |_: &Context, _: &PromptEvent| d.clone()),
        Outcome::Stop(d) => {
            let d2 = d.clone();
            r.on_stop(move |_: &Context, _: &StopEvent| d.clone())
                .on_subagent_stop(move |_: &Context, _: &StopEvent| d2.clone())
        }
        Outcome::ToolPost(d) => r.on_tool_post(move |_: &Context, _: &ToolPostEvent| d.clone()),
        Outcome::Context(d) => {
            macro_rules! each {
                ($r:expr, $($method:ident : $ev:ty),+) => {{
                    let mut r = $r;
                    $(
                        let dd = d.clone();
                        r = r.$method(move |_: &Context, _: &$ev| dd.clone());
                    )+
                    r
                }};
            }
            each!(
                r,
                on_session_start: SessionStartEvent,
                on_session_end: SessionEndEvent,
                on_tool_error: ToolErrorEvent,
                on_subagent_start: SubagentStartEvent,
                on_compact_pre: CompactPreEvent,
                on_compact_post: CompactPostEvent,
                on_notification: NotificationEvent,
                on_file_edited: FileEditedEvent,
                on_model_request: ModelRequestEvent,
                on_model_response: ModelResponseEvent
            )
        }
        _ => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::decision::DecisionKind;

    #[test]
    fn names_round_trip_and_fit_families() {
        for s in Shape::ALL {
            assert_eq!(Shape::from_name(s.name()), Some(s));
        }
        assert_eq!(Shape::for_kind(EventKind::Other), vec![Shape::NoDecision]);
        assert_eq!(Shape::for_kind(EventKind::ToolPre).len(), 8);
        assert_eq!(Shape::for_kind(EventKind::ToolPost).len(), 6);
        assert_eq!(Shape::for_kind(EventKind::PromptSubmitted).len(), 5);
        assert_eq!(Shape::for_kind(EventKind::SessionStart).len(), 4);
    }

    #[test]
    fn modifiers_apply() {
        let o = modify(deny("x").into(), Modifier::BlockReason);
        assert_eq!(o.block_message(), Some(BLOCK_MESSAGE));
        let o = modify(finish().into(), Modifier::BlockReason);
        assert!(o.is_bare_neutral());
        assert!(!Modifier::BlockReason.applies_to(&o));
        let o = modify(observed().into(), Modifier::StopAgent);
        assert_eq!(o.stop_reason(), Some(STOP_REASON));
        assert_eq!(o.kind(), DecisionKind::NoDecision);
    }

    #[test]
    fn rewrite_keeps_keys() {
        let t = ToolCall::builder("Bash", serde_json::json!({"command": "ls", "timeout": 5}))
            .class(agenthooks_core::CanonicalTool::Shell)
            .build(&agenthooks_core::SessionInfo::default());
        let m = rewritten_input(Some(&t));
        assert_eq!(m["command"], REWRITTEN_COMMAND);
        assert_eq!(m["timeout"], 5);
        let m = rewritten_input(None);
        assert_eq!(m["agenthooks_testkit"], true);
    }
}
