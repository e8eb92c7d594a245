//! Decisions (design §4): what a handler wants, as intent. Codecs translate intent into each
//! agent's mechanism; [`crate::degrade`] maps intents an agent cannot express onto the nearest
//! supported one under the [`Policy`](crate::Policy).
//!
//! | family | for kinds | constructors | neutral |
//! |---|---|---|---|
//! | [`ToolPreDecision`] | `tool.pre`, `permission.request` | [`no_decision`], [`allow`], [`ask_user`], [`deny`], [`rewrite_input`] | `no_decision()` |
//! | [`PromptDecision`] | `prompt.submitted` | [`accept_prompt`], [`block_prompt`] | `accept_prompt()` |
//! | [`StopDecision`] | `agent.stop`, `subagent.stop` | [`finish`], [`continue_with`] | `finish()` |
//! | [`ToolPostDecision`] | `tool.post` | [`observed`], [`flag_output`], [`replace_output`] | `observed()` |
//! | [`ContextDecision`] | every other kind | [`ContextDecision::none`] | `none()` |
//!
//! Universal modifiers (every family): `with_context`, `with_system_message`, `with_stop_agent`.
//! Blocking families also have `with_block_reason` (one message) and `with_block_reason_from`
//! (the first non-blank of several candidates).
//!
//! A handler returns its family's decision, or anything [`IntoDecision`] accepts: a `Result` of
//! one whose error converts into [`HandlerError`] (the analogue of axum's `IntoResponse`).
//!
//! # Illegal decisions do not compile
//!
//! A deny must carry a reason:
//! ```compile_fail
//! use agenthooks_core::decision::deny;
//! let d = deny();
//! ```
//! Rewritten input cannot ride on a block (a rewrite is a kind of permit):
//! ```compile_fail
//! use agenthooks_core::decision::deny;
//! let d = deny("no").with_updated_input(serde_json::Map::new());
//! ```
//! Output cannot be replaced before the tool ran:
//! ```compile_fail
//! use agenthooks_core::decision::{replace_output, ToolPreDecision};
//! let d: ToolPreDecision = replace_output(serde_json::json!("x"));
//! ```
//! A continuation needs an instruction:
//! ```compile_fail
//! use agenthooks_core::decision::continue_with;
//! let d = continue_with();
//! ```
//! A prompt cannot be "allowed" like a tool call, and a stop cannot be denied:
//! ```compile_fail
//! use agenthooks_core::decision::{allow, PromptDecision};
//! let d: PromptDecision = allow();
//! ```
//! ```compile_fail
//! use agenthooks_core::decision::{deny, StopDecision};
//! let d: StopDecision = deny("no");
//! ```
//! The same legal shapes compile:
//! ```
//! use agenthooks_core::decision::*;
//! let a = deny("rm -rf is blocked").with_context("see policy P-7").with_block_reason("Blocked by policy");
//! let b = rewrite_input(serde_json::Map::new()).allow();
//! let c = continue_with("run the tests first");
//! let d = replace_output(serde_json::json!("redacted"));
//! assert!(a.blocks() && !b.blocks());
//! assert_eq!(c.instruction(), Some("run the tests first"));
//! assert_eq!(d.replaced_output(), Some(&serde_json::json!("redacted")));
//! ```

use std::fmt;

use serde_json::{Map, Value};

use crate::error::HandlerError;

/// The reason used when a handler denies or blocks with an empty reason (several agents reject
/// or misrender an empty one).
pub const DEFAULT_BLOCK_REASON: &str = "Blocked by a hook policy.";

crate::named_enum! {
    /// What a decision intends. Append-only: new kinds are added at the end.
    ///
    /// `finish()`, `accept_prompt()`, `observed()` and `ContextDecision::none()` are the neutral
    /// decisions of their families and report [`DecisionKind::NoDecision`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    #[non_exhaustive]
    #[repr(u8)]
    pub enum DecisionKind {
        /// No opinion: the agent's own flow runs. Never a forced allow.
        #[default]
        NoDecision => "no-decision",
        /// Skip the permission prompt (never loosens the agent's own deny rules).
        Allow => "allow",
        /// Prevent the tool call.
        Deny => "deny",
        /// Force a confirmation prompt.
        Ask => "ask",
        /// Reject the prompt.
        BlockPrompt => "block-prompt",
        /// Keep the agent going with an instruction.
        Continue => "continue",
        /// Feed back a note about the tool output to the model.
        FlagOutput => "flag-output",
        /// Replace the tool output the model sees.
        ReplaceOutput => "replace-output",
    }
}

impl DecisionKind {
    /// True exactly for the kinds whose intent is "the action is prevented" (deny, block-prompt).
    /// An ask defers to a human and does not block.
    pub const fn blocks(self) -> bool {
        matches!(self, Self::Deny | Self::BlockPrompt)
    }

    /// Whether this is a conclusive (non-neutral) decision.
    pub const fn is_conclusive(self) -> bool {
        !matches!(self, Self::NoDecision)
    }

    /// Restrictiveness used by `all()` merging: deny/block > ask > allow > neutral;
    /// continue > finish; replace-output > flag-output > observed.
    pub const fn severity(self) -> u8 {
        match self {
            Self::NoDecision => 0,
            Self::Allow | Self::FlagOutput => 1,
            Self::Ask | Self::ReplaceOutput => 2,
            Self::Deny | Self::BlockPrompt | Self::Continue => 3,
        }
    }
}

mod sealed {
    use super::DecisionKind;

    pub trait Sealed {}

    /// Fields every family shares (hidden; reachable only through the sealed trait).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct Common {
        pub(crate) kind: DecisionKind,
        pub(crate) reason: Option<String>,
        pub(crate) context: Vec<String>,
        pub(crate) system_message: Option<String>,
        pub(crate) stop_agent: Option<String>,
        pub(crate) block_reason: Option<String>,
    }
}
pub(crate) use sealed::Common;

/// Read access shared by every decision family. Sealed: the families are fixed by this crate.
pub trait Decision: sealed::Sealed + fmt::Debug + Clone + Default + Send + Sync + 'static {
    /// The intent.
    fn kind(&self) -> DecisionKind;
    /// Reason (deny/ask/block/flag reason, continue instruction), if any.
    fn reason(&self) -> Option<&str>;
    /// User-facing system message, if any.
    fn system_message(&self) -> Option<&str>;
    /// Context lines for the model, in order.
    fn context(&self) -> &[String];
    /// Whether the decision prevents the action (see [`DecisionKind::blocks`]).
    fn blocks(&self) -> bool {
        self.kind().blocks()
    }
    /// The stop-the-agent reason, when the handler asked to stop the whole agent.
    fn stop_reason(&self) -> Option<&str>;
    /// User-facing block message (from `with_block_reason`), if any.
    fn block_reason(&self) -> Option<&str>;
    #[doc(hidden)]
    fn __common(&self) -> &Common;
    #[doc(hidden)]
    fn __common_mut(&mut self) -> &mut Common;
    #[doc(hidden)]
    /// Fills kind-specific fields this decision lacks from `other` (used when merging neutrals).
    fn __fill_specific(&mut self, other: &Self);
}

macro_rules! family {
    ($(#[$meta:meta])* $name:ident { $($(#[$fm:meta])* $field:ident : $ty:ty),* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq)]
        #[must_use]
        pub struct $name {
            pub(crate) common: Common,
            $($(#[$fm])* pub(crate) $field: $ty,)*
        }

        impl sealed::Sealed for $name {}

        impl Decision for $name {
            fn kind(&self) -> DecisionKind { self.common.kind }
            fn reason(&self) -> Option<&str> { self.common.reason.as_deref() }
            fn system_message(&self) -> Option<&str> { self.common.system_message.as_deref() }
            fn context(&self) -> &[String] { &self.common.context }
            fn stop_reason(&self) -> Option<&str> { self.common.stop_agent.as_deref() }
            fn block_reason(&self) -> Option<&str> { self.common.block_reason.as_deref() }
            fn __common(&self) -> &Common { &self.common }
            fn __common_mut(&mut self) -> &mut Common { &mut self.common }
            fn __fill_specific(&mut self, _other: &Self) {
                $(if self.$field.is_none() { self.$field = _other.$field.clone(); })*
            }
        }

        impl $name {
            /// The intent.
            pub fn kind(&self) -> DecisionKind { self.common.kind }
            /// Reason (deny/ask/block/flag reason, continue instruction), if any.
            pub fn reason(&self) -> Option<&str> { self.common.reason.as_deref() }
            /// User-facing system message, if any.
            pub fn system_message(&self) -> Option<&str> { self.common.system_message.as_deref() }
            /// Context lines for the model, in order.
            pub fn context(&self) -> &[String] { &self.common.context }
            /// Whether the decision prevents the action.
            pub fn blocks(&self) -> bool { self.common.kind.blocks() }
            /// The stop-the-agent reason, if set.
            pub fn stop_reason(&self) -> Option<&str> { self.common.stop_agent.as_deref() }
            /// User-facing block message, if set.
            pub fn block_reason(&self) -> Option<&str> { self.common.block_reason.as_deref() }

            /// Adds context for the model (appends; several calls keep their order).
            pub fn with_context(mut self, text: impl Into<String>) -> Self {
                let t = text.into();
                if !t.is_empty() { self.common.context.push(t); }
                self
            }

            /// Adds a user-facing message where the agent supports one.
            pub fn with_system_message(mut self, text: impl Into<String>) -> Self {
                self.common.system_message = Some(text.into());
                self
            }

            /// Asks the agent to stop entirely after this event (`continue: false`) where supported.
            pub fn with_stop_agent(mut self, reason: impl Into<String>) -> Self {
                self.common.stop_agent = Some(reason.into());
                self
            }

            /// The former name of [`Self::with_stop_agent`], kept while the provider crates'
            /// tests move to the new name.
            #[doc(hidden)]
            pub fn stop_agent(self, reason: impl Into<String>) -> Self {
                self.with_stop_agent(reason)
            }
        }

        impl IntoDecision<$name> for $name {
            fn into_decision(self) -> Result<$name, HandlerError> {
                Ok(self)
            }
        }
    };
}

family!(
    /// Decision for `tool.pre` and `permission.request`.
    ToolPreDecision { updated_input: Option<Map<String, Value>> }
);
family!(
    /// Decision for `prompt.submitted`.
    PromptDecision {}
);
family!(
    /// Decision for `agent.stop` and `subagent.stop`.
    StopDecision {}
);
family!(
    /// Decision for `tool.post`.
    ToolPostDecision { replaced_output: Option<Value> }
);
family!(
    /// Decision for kinds that cannot gate (session start/end, subagent start, tool.error,
    /// compaction, notifications, file edits, model events, other): context, a system message,
    /// or stopping the agent.
    ContextDecision {}
);

/// What a handler may return for decision family `D` (the analogue of axum's `IntoResponse`):
///
/// - the decision itself (`deny("…")`, `no_decision()`, …) — infallible handlers need no
///   `Result`;
/// - a pending rewrite ([`Rewrite`], as `.no_decision()`) for the tool.pre family;
/// - a `Result<T, E>` of either, whose error converts into [`HandlerError`] (`HandlerError`
///   itself, or your own error type with a `From` impl) — for handlers that use `?`.
///
/// ```
/// use agenthooks_core::prelude::*;
///
/// // No `Result`, no turbofish: the closure returns the decision.
/// let router = Router::new().on_tool_pre(|_cx: &Context, _e: &ToolPreEvent| deny("no tools today"));
/// # let _ = router;
///
/// // A named fn with its own error type.
/// #[derive(Debug)]
/// struct PolicyUnreadable;
/// impl From<PolicyUnreadable> for HandlerError {
///     fn from(_: PolicyUnreadable) -> Self { HandlerError::msg("the policy file is unreadable") }
/// }
/// fn guard(_cx: &Context, e: &ToolPreEvent) -> Result<ToolPreDecision, PolicyUnreadable> {
///     if e.tool.name.is_empty() { return Err(PolicyUnreadable); }
///     Ok(no_decision())
/// }
/// let router = Router::new().on_tool_pre(guard);
/// # let _ = router;
/// ```
///
/// Returning another family's decision does not compile, and the error names the family:
/// ```compile_fail,E0277
/// use agenthooks_core::prelude::*;
/// // error: `StopDecision` is not a `ToolPreDecision`, which this handler must decide
/// let router = Router::new().on_tool_pre(|_cx: &Context, _e: &ToolPreEvent| finish());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a `{D}`, which this handler must decide",
    label = "a handler of this event returns `{D}` or `Result<{D}, E>`",
    note = "a handler returns its event's decision family, or a `Result` of it whose error converts into `HandlerError`"
)]
pub trait IntoDecision<D> {
    /// Converts into the decision, or the handler's error.
    ///
    /// # Errors
    ///
    /// The handler's error, converted.
    fn into_decision(self) -> Result<D, HandlerError>;
}

impl<D, T, E> IntoDecision<D> for Result<T, E>
where
    T: IntoDecision<D>,
    E: Into<HandlerError>,
{
    fn into_decision(self) -> Result<D, HandlerError> {
        self.map_err(Into::into)?.into_decision()
    }
}

fn reason_or_default_owned(reason: impl Into<String>) -> String {
    let r = reason.into();
    if r.trim().is_empty() {
        DEFAULT_BLOCK_REASON.to_owned()
    } else {
        r
    }
}

/// The reason to show for a block: `reason` unless it is blank, else [`DEFAULT_BLOCK_REASON`].
/// Codecs use it wherever the agent needs a non-empty text (failure responses, deny reasons).
///
/// ```
/// use agenthooks_core::decision::{reason_or_default, DEFAULT_BLOCK_REASON};
/// assert_eq!(reason_or_default("no secrets"), "no secrets");
/// assert_eq!(reason_or_default("  "), DEFAULT_BLOCK_REASON);
/// ```
pub fn reason_or_default(reason: &str) -> &str {
    if reason.trim().is_empty() {
        DEFAULT_BLOCK_REASON
    } else {
        reason
    }
}

fn common_of(kind: DecisionKind, reason: Option<String>) -> Common {
    Common {
        kind,
        reason,
        ..Common::default()
    }
}

/// No opinion: the agent's normal permission flow runs. **Never** a forced allow (quirk #17).
pub fn no_decision() -> ToolPreDecision {
    ToolPreDecision::default()
}

/// Skip the permission prompt where the agent supports it. Never loosens the agent's own deny
/// rules.
pub fn allow() -> ToolPreDecision {
    ToolPreDecision {
        common: common_of(DecisionKind::Allow, None),
        updated_input: None,
    }
}

/// Prevent the tool call. The reason is shown to the model (an empty reason becomes
/// [`DEFAULT_BLOCK_REASON`]).
pub fn deny(reason: impl Into<String>) -> ToolPreDecision {
    ToolPreDecision {
        common: common_of(DecisionKind::Deny, Some(reason_or_default_owned(reason))),
        updated_input: None,
    }
}

/// Force a confirmation prompt; the reason is shown in it.
pub fn ask_user(reason: impl Into<String>) -> ToolPreDecision {
    ToolPreDecision {
        common: common_of(DecisionKind::Ask, Some(reason.into())),
        updated_input: None,
    }
}

/// Starts a tool-input rewrite (design's `WithUpdatedInput`). A rewrite is a kind of permit, so
/// it is finished with [`Rewrite::allow`], [`Rewrite::ask_user`] or [`Rewrite::no_decision`] and
/// can never ride on a deny.
///
/// ```
/// use agenthooks_core::decision::{rewrite_input, DecisionKind};
/// let mut m = serde_json::Map::new();
/// m.insert("command".into(), "ls -la".into());
/// let d = rewrite_input(m.clone()).allow();
/// assert_eq!(d.kind(), DecisionKind::Allow);
/// assert_eq!(d.updated_input(), Some(&m));
/// ```
pub fn rewrite_input(input: Map<String, Value>) -> Rewrite {
    Rewrite(input)
}

/// A pending tool-input rewrite; see [`rewrite_input`].
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub struct Rewrite(Map<String, Value>);

impl Rewrite {
    /// Rewrite and allow.
    pub fn allow(self) -> ToolPreDecision {
        ToolPreDecision {
            updated_input: Some(self.0),
            ..allow()
        }
    }

    /// Rewrite and ask the user.
    pub fn ask_user(self, reason: impl Into<String>) -> ToolPreDecision {
        ToolPreDecision {
            updated_input: Some(self.0),
            ..ask_user(reason)
        }
    }

    /// Rewrite without an opinion on permission.
    pub fn no_decision(self) -> ToolPreDecision {
        ToolPreDecision {
            updated_input: Some(self.0),
            ..no_decision()
        }
    }
}

impl From<Rewrite> for ToolPreDecision {
    fn from(r: Rewrite) -> Self {
        r.no_decision()
    }
}

impl IntoDecision<ToolPreDecision> for Rewrite {
    fn into_decision(self) -> Result<ToolPreDecision, HandlerError> {
        Ok(self.no_decision())
    }
}

impl ToolPreDecision {
    /// The rewritten input, if any.
    pub fn updated_input(&self) -> Option<&Map<String, Value>> {
        self.updated_input.as_ref()
    }
}

/// The block-message builders of the decisions that can block (tool calls and prompts).
macro_rules! block_reason_builders {
    ($($ty:ident),+) => {$(
        impl $ty {
            /// The user-facing block message (a blank one sets none). Only meaningful on a
            /// blocking decision; ignored by codecs otherwise.
            pub fn with_block_reason(mut self, message: impl Into<String>) -> Self {
                self.common.block_reason = first_non_empty([message]);
                self
            }

            /// The user-facing block message from candidates: the first non-blank one wins
            /// (none when all are blank), e.g. a configured message, then a default.
            pub fn with_block_reason_from<I, S>(mut self, candidates: I) -> Self
            where
                I: IntoIterator<Item = S>,
                S: Into<String>,
            {
                self.common.block_reason = first_non_empty(candidates);
                self
            }
        }
    )+};
}

block_reason_builders!(ToolPreDecision, PromptDecision);

fn first_non_empty<I, S>(candidates: I) -> Option<String>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    candidates.into_iter().map(Into::into).find(|s| !s.trim().is_empty())
}

/// Let the prompt through (neutral).
pub fn accept_prompt() -> PromptDecision {
    PromptDecision::default()
}

/// Reject the prompt; the reason is shown (an empty reason becomes [`DEFAULT_BLOCK_REASON`]).
pub fn block_prompt(reason: impl Into<String>) -> PromptDecision {
    PromptDecision {
        common: common_of(DecisionKind::BlockPrompt, Some(reason_or_default_owned(reason))),
    }
}

/// Let the agent finish (neutral).
pub fn finish() -> StopDecision {
    StopDecision::default()
}

/// Keep the agent going; the instruction becomes its next input. Subject to the continuation cap
/// of the [`Policy`](crate::Policy).
pub fn continue_with(instruction: impl Into<String>) -> StopDecision {
    StopDecision {
        common: common_of(DecisionKind::Continue, Some(instruction.into())),
    }
}

impl StopDecision {
    /// The continuation instruction, when continuing.
    pub fn instruction(&self) -> Option<&str> {
        if self.common.kind == DecisionKind::Continue {
            self.common.reason.as_deref()
        } else {
            None
        }
    }
}

/// The output was seen; no change (neutral).
pub fn observed() -> ToolPostDecision {
    ToolPostDecision::default()
}

/// Feed a note about the output back to the model.
pub fn flag_output(reason: impl Into<String>) -> ToolPostDecision {
    ToolPostDecision {
        common: common_of(DecisionKind::FlagOutput, Some(reason.into())),
        replaced_output: None,
    }
}

/// Replace the output the model sees.
pub fn replace_output(output: impl Into<Value>) -> ToolPostDecision {
    ToolPostDecision {
        common: common_of(DecisionKind::ReplaceOutput, None),
        replaced_output: Some(output.into()),
    }
}

impl ToolPostDecision {
    /// The replacement output, when replacing.
    pub fn replaced_output(&self) -> Option<&Value> {
        self.replaced_output.as_ref()
    }
}

impl ContextDecision {
    /// No opinion (neutral).
    pub fn none() -> Self {
        Self::default()
    }
}

/// A decision of any family, as handed to [`Codec::encode`](crate::Codec::encode).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Outcome {
    /// For `tool.pre` / `permission.request`.
    ToolPre(ToolPreDecision),
    /// For `prompt.submitted`.
    Prompt(PromptDecision),
    /// For `agent.stop` / `subagent.stop`.
    Stop(StopDecision),
    /// For `tool.post`.
    ToolPost(ToolPostDecision),
    /// For every other kind.
    Context(ContextDecision),
}

macro_rules! outcome_common {
    ($self:expr, $d:ident => $body:expr) => {
        match $self {
            Outcome::ToolPre($d) => $body,
            Outcome::Prompt($d) => $body,
            Outcome::Stop($d) => $body,
            Outcome::ToolPost($d) => $body,
            Outcome::Context($d) => $body,
        }
    };
}

impl Outcome {
    /// The neutral outcome of the family that serves `kind`.
    pub fn neutral_for(kind: crate::EventKind) -> Self {
        macro_rules! neutral {
            ($($kind:ident, $dotted:literal, $ev:ident, $family:ident, $slot:ident, $method:ident, $doc:literal;)*) => {
                match kind {
                    $( crate::EventKind::$kind => Self::$family(Default::default()), )*
                    _ => Self::Context(ContextDecision::none()),
                }
            };
        }
        crate::kind::for_each_kind!(neutral)
    }

    /// The intent.
    pub fn kind(&self) -> DecisionKind {
        outcome_common!(self, d => d.common.kind)
    }

    /// Reason, if any.
    pub fn reason(&self) -> Option<&str> {
        outcome_common!(self, d => d.common.reason.as_deref())
    }

    /// Context lines.
    pub fn context(&self) -> &[String] {
        outcome_common!(self, d => &d.common.context)
    }

    /// System message.
    pub fn system_message(&self) -> Option<&str> {
        outcome_common!(self, d => d.common.system_message.as_deref())
    }

    /// Stop-agent reason.
    pub fn stop_reason(&self) -> Option<&str> {
        outcome_common!(self, d => d.common.stop_agent.as_deref())
    }

    /// User-facing block message, falling back to the reason.
    pub fn block_message(&self) -> Option<&str> {
        outcome_common!(self, d => d.common.block_reason.as_deref().or(d.common.reason.as_deref()))
    }

    /// Whether it blocks.
    pub fn blocks(&self) -> bool {
        self.kind().blocks()
    }

    /// Rewritten tool input (tool.pre family only).
    pub fn updated_input(&self) -> Option<&Map<String, Value>> {
        match self {
            Self::ToolPre(d) => d.updated_input.as_ref(),
            _ => None,
        }
    }

    /// Replacement output (tool.post family only).
    pub fn replaced_output(&self) -> Option<&Value> {
        match self {
            Self::ToolPost(d) => d.replaced_output.as_ref(),
            _ => None,
        }
    }

    /// Continuation instruction (stop family only).
    pub fn instruction(&self) -> Option<&str> {
        match self {
            Self::Stop(d) => d.instruction(),
            _ => None,
        }
    }

    /// The capabilities an agent must honour for this outcome to be delivered as decided: the
    /// intent's capability (deny, ask, continue, …) plus one per modifier (rewritten input,
    /// context, system message, stopping the agent). A rewrite without a decision also needs
    /// [`Capability::NeutralRewrite`](crate::Capability::NeutralRewrite).
    ///
    /// ```
    /// use agenthooks_core::decision::{deny, rewrite_input};
    /// use agenthooks_core::{Capability, Outcome};
    /// let o = Outcome::ToolPre(deny("no").with_context("why"));
    /// let caps = o.required_capabilities();
    /// assert!(caps.contains(Capability::Deny) && caps.contains(Capability::AddContext));
    /// let neutral = Outcome::ToolPre(rewrite_input(serde_json::Map::new()).no_decision());
    /// assert!(neutral.required_capabilities().contains(Capability::NeutralRewrite));
    /// ```
    pub fn required_capabilities(&self) -> crate::CapSet {
        use crate::Capability as C;
        let mut s = match self.kind() {
            DecisionKind::Allow => crate::CapSet::of(&[C::Allow]),
            DecisionKind::Deny | DecisionKind::BlockPrompt => crate::CapSet::of(&[C::Deny]),
            DecisionKind::Ask => crate::CapSet::of(&[C::Ask]),
            DecisionKind::Continue => crate::CapSet::of(&[C::ContinueAgent]),
            DecisionKind::FlagOutput => crate::CapSet::of(&[C::FlagOutput]),
            DecisionKind::ReplaceOutput => crate::CapSet::of(&[C::ReplaceOutput]),
            _ => crate::CapSet::EMPTY,
        };
        if self.updated_input().is_some() {
            s = s.with(C::UpdateInput);
            if self.kind() == DecisionKind::NoDecision {
                s = s.with(C::NeutralRewrite);
            }
        }
        if !self.context().is_empty() {
            s = s.with(C::AddContext);
        }
        if self.system_message().is_some() {
            s = s.with(C::SystemMessage);
        }
        if self.stop_reason().is_some() {
            s = s.with(C::StopAgent);
        }
        s
    }

    /// Whether this outcome is of the decision family that serves `kind` (a stop decision does
    /// not fit a `tool.pre` event).
    ///
    /// ```
    /// use agenthooks_core::decision::{continue_with, deny};
    /// use agenthooks_core::{EventKind, Outcome};
    /// assert!(Outcome::ToolPre(deny("no")).fits(EventKind::Permission));
    /// assert!(!Outcome::Stop(continue_with("go on")).fits(EventKind::ToolPre));
    /// ```
    pub fn fits(&self, kind: crate::EventKind) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(&Self::neutral_for(kind))
    }

    /// Whether this is exactly the neutral decision with no modifiers.
    pub fn is_bare_neutral(&self) -> bool {
        let c = outcome_common!(self, d => &d.common);
        *c == Common::default() && self.updated_input().is_none() && self.replaced_output().is_none()
    }

    pub(crate) fn common_mut(&mut self) -> &mut Common {
        outcome_common!(self, d => &mut d.common)
    }

    pub(crate) fn clear_updated_input(&mut self) {
        if let Self::ToolPre(d) = self {
            d.updated_input = None;
        }
    }

    pub(crate) fn clear_replaced_output(&mut self) {
        if let Self::ToolPost(d) = self {
            d.replaced_output = None;
        }
    }
}

macro_rules! into_outcome {
    ($($t:ident => $v:ident),*) => {$(
        impl From<$t> for Outcome {
            fn from(d: $t) -> Self { Self::$v(d) }
        }
    )*};
}
into_outcome!(ToolPreDecision => ToolPre, PromptDecision => Prompt, StopDecision => Stop, ToolPostDecision => ToolPost, ContextDecision => Context);

/// Merges neutral decisions of one family: contexts append in order; the first system message,
/// block reason, stop reason (stop-agent is sticky) and kind-specific payload (a neutral rewrite)
/// win.
pub(crate) fn merge_neutral<D: Decision>(acc: &mut D, next: &D) {
    acc.__fill_specific(next);
    let n = next.__common().clone();
    let a = acc.__common_mut();
    a.context.extend(n.context);
    if a.system_message.is_none() {
        a.system_message = n.system_message;
    }
    if a.stop_agent.is_none() {
        a.stop_agent = n.stop_agent;
    }
    if a.block_reason.is_none() {
        a.block_reason = n.block_reason;
    }
}

/// `all()` merge (design §3.5): the most restrictive kind wins (ties to the earliest); the
/// winner's other fields are taken wholesale; contexts append from all decisions in order;
/// stop-agent is sticky.
pub(crate) fn merge_all<D: Decision>(decisions: &[D]) -> D {
    let Some(first) = decisions.first() else {
        return D::default();
    };
    let mut winner = first;
    for d in &decisions[1..] {
        if d.kind().severity() > winner.kind().severity() {
            winner = d;
        }
    }
    let mut out = winner.clone();
    let c = out.__common_mut();
    c.context = decisions.iter().flat_map(|d| d.context().iter().cloned()).collect();
    if c.stop_agent.is_none() {
        c.stop_agent = decisions.iter().find_map(|d| d.stop_reason().map(str::to_owned));
    }
    out
}

#[cfg(test)]
#[allow(clippy::many_single_char_names)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn constructors_and_accessors() {
        let d = no_decision();
        assert_eq!(d.kind(), DecisionKind::NoDecision);
        assert!(!d.blocks() && d.reason().is_none() && d.updated_input().is_none());
        assert_eq!(ToolPreDecision::default(), no_decision());

        let d = allow().with_system_message("ok").with_context("c1").with_context("c2");
        assert_eq!(d.kind(), DecisionKind::Allow);
        assert_eq!(d.system_message(), Some("ok"));
        assert_eq!(d.context(), ["c1", "c2"]);

        let d = deny("nope")
            .with_stop_agent("halt")
            .with_block_reason_from(["", "  ", "Blocked!"]);
        assert!(d.blocks());
        assert_eq!(d.reason(), Some("nope"));
        assert_eq!(d.stop_reason(), Some("halt"));
        assert_eq!(d.block_reason(), Some("Blocked!"));
        assert_eq!(deny("").reason(), Some(DEFAULT_BLOCK_REASON));

        let d = ask_user("sure?");
        assert_eq!(d.kind(), DecisionKind::Ask);
        assert!(!d.blocks());

        let mut m = Map::new();
        m.insert("command".into(), json!("ls"));
        let d = rewrite_input(m.clone()).ask_user("check");
        assert_eq!((d.kind(), d.updated_input()), (DecisionKind::Ask, Some(&m)));
        let d: ToolPreDecision = rewrite_input(m.clone()).into();
        assert_eq!((d.kind(), d.updated_input()), (DecisionKind::NoDecision, Some(&m)));

        let p = block_prompt("pii").with_block_reason("Prompt blocked");
        assert!(p.blocks());
        assert_eq!(p.block_reason(), Some("Prompt blocked"));
        assert_eq!(block_prompt(" ").reason(), Some(DEFAULT_BLOCK_REASON));
        let p = accept_prompt().with_context("today is Monday");
        assert_eq!(
            (p.kind(), p.context()),
            (DecisionKind::NoDecision, &["today is Monday".to_owned()][..])
        );

        let s = continue_with("fix tests");
        assert_eq!((s.kind(), s.instruction()), (DecisionKind::Continue, Some("fix tests")));
        assert_eq!(finish().instruction(), None);

        let o = flag_output("looks like a secret");
        assert_eq!(
            (o.kind(), o.reason()),
            (DecisionKind::FlagOutput, Some("looks like a secret"))
        );
        let o = replace_output("[redacted]");
        assert_eq!(o.replaced_output(), Some(&json!("[redacted]")));
        assert_eq!(observed().kind(), DecisionKind::NoDecision);
        assert_eq!(ContextDecision::none().with_context("x").context(), ["x"]);
        assert_eq!(common_of(DecisionKind::Deny, None).kind, DecisionKind::Deny);
    }

    #[test]
    fn kinds_display_and_classify() {
        let all = [
            DecisionKind::NoDecision,
            DecisionKind::Allow,
            DecisionKind::Deny,
            DecisionKind::Ask,
            DecisionKind::BlockPrompt,
            DecisionKind::Continue,
            DecisionKind::FlagOutput,
            DecisionKind::ReplaceOutput,
        ];
        let names: Vec<String> = all.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            [
                "no-decision",
                "allow",
                "deny",
                "ask",
                "block-prompt",
                "continue",
                "flag-output",
                "replace-output"
            ]
        );
        let blocking: Vec<_> = all.iter().filter(|k| k.blocks()).collect();
        assert_eq!(blocking, [&DecisionKind::Deny, &DecisionKind::BlockPrompt]);
        // append-only discriminants
        assert_eq!(DecisionKind::ReplaceOutput as u8, 7);
    }

    #[test]
    fn merge_all_follows_design() {
        let ds = vec![
            allow().with_context("a"),
            ask_user("q").with_context("b"),
            deny("d1").with_context("c"),
            deny("d2"),
        ];
        let m = merge_all(&ds);
        assert_eq!(m.kind(), DecisionKind::Deny);
        assert_eq!(m.reason(), Some("d1")); // tie goes to the earliest
        assert_eq!(m.context(), ["a", "b", "c"]);
        let m = merge_all(&[no_decision().with_stop_agent("s"), allow()]);
        assert_eq!((m.kind(), m.stop_reason()), (DecisionKind::Allow, Some("s")));
        let m = merge_all(&[observed(), flag_output("f"), replace_output(1)]);
        assert_eq!(m.kind(), DecisionKind::ReplaceOutput);
        assert_eq!(m.replaced_output(), Some(&json!(1)));
        let m = merge_all(&[finish(), continue_with("go")]);
        assert_eq!(m.instruction(), Some("go"));
        assert_eq!(merge_all::<StopDecision>(&[]), finish());
    }

    #[test]
    fn outcome_accessors() {
        let o: Outcome = deny("x").into();
        assert!(o.blocks());
        assert_eq!(o.block_message(), Some("x"));
        assert!(Outcome::neutral_for(crate::EventKind::ToolPost).is_bare_neutral());
        assert!(!Outcome::from(accept_prompt().with_context("c")).is_bare_neutral());
        assert_eq!(Outcome::from(continue_with("i")).instruction(), Some("i"));
    }
}
