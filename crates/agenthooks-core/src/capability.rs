//! Capabilities, policy and degradation (design §4.1, §4.2).
//!
//! A codec reports, per variant and native event, the [`CapSet`] the agent really honours.
//! [`degrade`] is the pure function the runner applies between the router's winning decision
//! and the codec's encoder: an intent the agent cannot express is mapped onto the nearest
//! supported one (or rejected, under [`UnsupportedMode::Strict`]) and every change is reported
//! as a [`Degradation`], so nothing is ever lost silently.

use std::fmt;
use std::sync::Arc;

use crate::decision::{DecisionKind, Outcome};
pub use crate::error::UnsupportedError;
use crate::event::Envelope;

mod set;
pub use set::{CapSet, Capability};

/// What a handler error, panic, timeout or undecodable payload means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum FailMode {
    /// Answer "no decision": the agent's own flow runs.
    #[default]
    Open,
    /// Block with the agent's real mechanism where the event can block; on events that cannot
    /// block this downgrades to logging (pretending to block is worse than being honest).
    Closed,
}

/// What an [`ask_user`](crate::decision::ask_user) becomes where the agent cannot ask and no
/// permission dialog of its own follows ([`Capability::PermissionDialog`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum AskFallback {
    /// Deny with the ask's reason (safe default for guardrails).
    #[default]
    Deny,
    /// Defer to the agent's own flow.
    NoDecision,
}

/// What happens when a decision needs a capability the event lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UnsupportedMode {
    /// Map to the nearest supported intent and log it.
    #[default]
    Degrade,
    /// Treat it as a handler error (then [`FailMode`] applies).
    Strict,
}

/// The failure and degradation policy for one event.
///
/// ```
/// use agenthooks_core::{Policy, FailMode};
/// let p = Policy::default().fail_closed().with_continuation_cap(3);
/// assert_eq!(p.fail, FailMode::Closed);
/// assert_eq!(p.continuation_cap, 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Policy {
    /// Meaning of errors and timeouts.
    pub fail: FailMode,
    /// Meaning of an unsupported ask.
    pub ask_fallback: AskFallback,
    /// Degrade or be strict about unsupported intents.
    pub unsupported: UnsupportedMode,
    /// How many times a session's turn may be continued by `continue_with` in a row before the
    /// runner answers `finish` instead.
    pub continuation_cap: u32,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            fail: FailMode::Open,
            ask_fallback: AskFallback::Deny,
            unsupported: UnsupportedMode::Degrade,
            continuation_cap: 5,
        }
    }
}

impl Policy {
    /// Fail closed.
    #[must_use]
    pub fn fail_closed(mut self) -> Self {
        self.fail = FailMode::Closed;
        self
    }

    /// Fail open.
    #[must_use]
    pub fn fail_open(mut self) -> Self {
        self.fail = FailMode::Open;
        self
    }
}

crate::setters! {
    impl Policy {
        /// Sets the ask fallback.
        with_ask_fallback(ask_fallback: AskFallback);
        /// Sets the unsupported-intent mode.
        with_unsupported(unsupported: UnsupportedMode);
        /// Sets the continuation cap.
        with_continuation_cap(continuation_cap: u32);
    }
}

/// A policy resolvable per event: a fixed [`Policy`] or a function of the envelope.
///
/// ```
/// use agenthooks_core::{EventKind, PolicySource, Policy, FailMode};
/// let src = PolicySource::per_event(|env| {
///     if env.kind == EventKind::ToolPre { Policy::default().fail_closed() } else { Policy::default() }
/// });
/// # let env = agenthooks_core::Envelope::new(
/// #     agenthooks_core::Provider::CODEX, "PreToolUse".into(), EventKind::ToolPre, Default::default());
/// assert_eq!(src.resolve(&env).fail, FailMode::Closed);
/// ```
#[derive(Clone)]
pub enum PolicySource {
    /// The same policy for every event.
    Fixed(Policy),
    /// A policy chosen per event.
    PerEvent(Arc<dyn Fn(&Envelope) -> Policy + Send + Sync>),
}

impl PolicySource {
    /// A per-event policy function.
    pub fn per_event(f: impl Fn(&Envelope) -> Policy + Send + Sync + 'static) -> Self {
        Self::PerEvent(Arc::new(f))
    }

    /// The policy for an event.
    pub fn resolve(&self, env: &Envelope) -> Policy {
        match self {
            Self::Fixed(p) => *p,
            Self::PerEvent(f) => f(env),
        }
    }
}

impl Default for PolicySource {
    fn default() -> Self {
        Self::Fixed(Policy::default())
    }
}

impl From<Policy> for PolicySource {
    fn from(p: Policy) -> Self {
        Self::Fixed(p)
    }
}

impl fmt::Debug for PolicySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fixed(p) => f.debug_tuple("Fixed").field(p).finish(),
            Self::PerEvent(_) => f.write_str("PerEvent(<fn>)"),
        }
    }
}

/// One change [`degrade`] made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Degradation {
    /// The missing capability.
    pub capability: Capability,
    /// The decision kind before.
    pub from: DecisionKind,
    /// The decision kind after.
    pub to: DecisionKind,
    /// What was done, for logs.
    pub note: &'static str,
}

impl Degradation {
    /// A change of `from` to `to` for want of `capability`, with a note for logs.
    pub const fn new(capability: Capability, from: DecisionKind, to: DecisionKind, note: &'static str) -> Self {
        Self {
            capability,
            from,
            to,
            note,
        }
    }
}

impl fmt::Display for Degradation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "missing {}: {} → {} ({})",
            self.capability, self.from, self.to, self.note
        )
    }
}

/// The result of [`degrade`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Degraded {
    /// The decision to send.
    pub outcome: Outcome,
    /// Every change made, in order.
    pub degradations: Vec<Degradation>,
}

/// Maps a decision onto what `caps` can express (pure; design §4.1).
///
/// Rules under [`UnsupportedMode::Degrade`]:
///
/// | intent | missing | becomes |
/// |---|---|---|
/// | deny / block-prompt | `deny` | no-decision |
/// | ask | `ask`, with `permission-dialog` | no-decision: the agent's own dialog asks the user; the ask's reason becomes the system message if `system-message` and none is set (a rewrite is kept). Recorded, and never an error under `Strict`: the intent is delivered |
/// | ask | `ask`, no `permission-dialog` | deny with the ask's reason if `ask_fallback = Deny` and `deny` is supported, else no-decision (a rewrite is kept) |
/// | allow | `allow` | no-decision (a rewrite is kept) |
/// | rewritten input without a verdict | `neutral-rewrite` | rewrite dropped |
/// | rewritten input | `update-input` | rewrite dropped; an allow becomes no-decision (never allow an un-rewritten call) |
/// | continue | `continue-agent` | finish |
/// | replace-output | `replace-output` | flag-output with the replacement as the reason if `flag-output`, else observed |
/// | flag-output | `flag-output` | its reason moves to context if `add-context`, else observed |
/// | context / system message / stop-agent | the matching cap | dropped |
///
/// Under [`UnsupportedMode::Strict`] the first missing capability is an [`UnsupportedError`]
/// (an ask answered by the agent's permission dialog is not missing anything).
///
/// ```
/// use agenthooks_core::{degrade, CapSet, Capability, Policy, decision::{ask_user, DecisionKind}, Outcome};
/// let caps = CapSet::of(&[Capability::Deny]);
/// let d = degrade(Outcome::from(ask_user("sure?")), caps, &Policy::default()).unwrap();
/// assert_eq!(d.outcome.kind(), DecisionKind::Deny);
/// assert_eq!(d.degradations.len(), 1);
///
/// // A permission request: the agent's own dialog asks; the reason is shown to the user.
/// let caps = caps.with(Capability::PermissionDialog).with(Capability::SystemMessage);
/// let d = degrade(Outcome::from(ask_user("sure?")), caps, &Policy::default()).unwrap();
/// assert_eq!(d.outcome.kind(), DecisionKind::NoDecision);
/// assert_eq!(d.outcome.system_message(), Some("sure?"));
/// ```
pub fn degrade(outcome: Outcome, caps: CapSet, policy: &Policy) -> Result<Degraded, UnsupportedError> {
    let mut out = outcome;
    let mut log = Log {
        strict: policy.unsupported == UnsupportedMode::Strict,
        made: Vec::new(),
    };

    // 1. The intent itself.
    match out.kind() {
        DecisionKind::Deny | DecisionKind::BlockPrompt if !caps.contains(Capability::Deny) => {
            log.neutral(&out, Capability::Deny, "cannot block here; answered no-decision")?;
            set_neutral(&mut out);
        }
        DecisionKind::Ask if !caps.contains(Capability::Ask) && caps.contains(Capability::PermissionDialog) => {
            // Delivered, not lost: recorded even under Strict.
            log.made.push(Degradation {
                capability: Capability::Ask,
                from: DecisionKind::Ask,
                to: DecisionKind::NoDecision,
                note: "the agent's own permission dialog asks the user; answered no-decision",
            });
            let reason = out.reason().filter(|r| !r.trim().is_empty()).map(str::to_owned);
            set_kind_neutral(&mut out);
            let c = out.common_mut();
            if c.system_message.is_none() && caps.contains(Capability::SystemMessage) {
                c.system_message = reason;
            }
        }
        DecisionKind::Ask if !caps.contains(Capability::Ask) => {
            if policy.ask_fallback == AskFallback::Deny && caps.contains(Capability::Deny) {
                log.turn(
                    &mut out,
                    Capability::Ask,
                    DecisionKind::Deny,
                    "ask unsupported; denied per ask_fallback",
                )?;
                let c = out.common_mut();
                if c.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
                    c.reason = Some(crate::decision::DEFAULT_BLOCK_REASON.to_owned());
                }
                out.clear_updated_input();
            } else {
                log.neutral(&out, Capability::Ask, "ask unsupported; deferred to the agent")?;
                set_kind_neutral(&mut out);
            }
        }
        DecisionKind::Allow if !caps.contains(Capability::Allow) => {
            log.neutral(&out, Capability::Allow, "allow unsupported; deferred to the agent")?;
            set_kind_neutral(&mut out);
        }
        DecisionKind::Continue if !caps.contains(Capability::ContinueAgent) => {
            log.neutral(&out, Capability::ContinueAgent, "cannot continue here; finished")?;
            set_neutral(&mut out);
        }
        DecisionKind::ReplaceOutput if !caps.contains(Capability::ReplaceOutput) => {
            let replacement = out
                .replaced_output()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .unwrap_or_default();
            out.clear_replaced_output();
            if caps.contains(Capability::FlagOutput) {
                log.turn(
                    &mut out,
                    Capability::ReplaceOutput,
                    DecisionKind::FlagOutput,
                    "replacement sent as feedback",
                )?;
                out.common_mut().reason = Some(replacement);
            } else {
                log.neutral(&out, Capability::ReplaceOutput, "cannot replace output; observed")?;
                set_neutral(&mut out);
            }
        }
        _ => {}
    }
    if out.kind() == DecisionKind::FlagOutput && !caps.contains(Capability::FlagOutput) {
        let reason = out.reason().unwrap_or_default().to_owned();
        if caps.contains(Capability::AddContext) && !reason.is_empty() {
            log.neutral(&out, Capability::FlagOutput, "flag sent as context")?;
            let c = out.common_mut();
            c.kind = DecisionKind::NoDecision;
            c.reason = None;
            c.context.push(reason);
        } else {
            log.neutral(&out, Capability::FlagOutput, "cannot flag output; observed")?;
            set_neutral(&mut out);
        }
    }

    // 2. Modifiers.
    if out.updated_input().is_some()
        && out.kind() == DecisionKind::NoDecision
        && !caps.contains(Capability::NeutralRewrite)
    {
        log.neutral(
            &out,
            Capability::NeutralRewrite,
            "a rewrite needs an allow or ask verdict here; rewrite dropped",
        )?;
        out.clear_updated_input();
    }
    if out.updated_input().is_some() && !caps.contains(Capability::UpdateInput) {
        let to = if out.kind() == DecisionKind::Allow {
            DecisionKind::NoDecision
        } else {
            out.kind()
        };
        log.turn(
            &mut out,
            Capability::UpdateInput,
            to,
            "rewrite dropped; an allow of the original input is not sent",
        )?;
        out.clear_updated_input();
    }
    if !out.context().is_empty() && !caps.contains(Capability::AddContext) {
        log.dropped(&out, Capability::AddContext, "context dropped")?;
        out.common_mut().context.clear();
    }
    if out.system_message().is_some() && !caps.contains(Capability::SystemMessage) {
        log.dropped(&out, Capability::SystemMessage, "system message dropped")?;
        out.common_mut().system_message = None;
    }
    if out.stop_reason().is_some() && !caps.contains(Capability::StopAgent) {
        log.dropped(&out, Capability::StopAgent, "stop-agent dropped")?;
        out.common_mut().stop_agent = None;
    }
    Ok(Degraded {
        outcome: out,
        degradations: log.made,
    })
}

/// The degradations [`degrade`] makes, in order.
struct Log {
    /// [`UnsupportedMode::Strict`]: a missing capability is an error instead.
    strict: bool,
    made: Vec<Degradation>,
}

impl Log {
    /// Records that `out` loses `capability` and becomes `to`.
    fn note(
        &mut self,
        out: &Outcome,
        capability: Capability,
        to: DecisionKind,
        note: &'static str,
    ) -> Result<(), UnsupportedError> {
        if self.strict {
            return Err(UnsupportedError { capability });
        }
        self.made.push(Degradation {
            capability,
            from: out.kind(),
            to,
            note,
        });
        Ok(())
    }

    /// Records that `out` loses `capability` and turns it into a `to`.
    fn turn(
        &mut self,
        out: &mut Outcome,
        capability: Capability,
        to: DecisionKind,
        note: &'static str,
    ) -> Result<(), UnsupportedError> {
        self.note(out, capability, to, note)?;
        out.common_mut().kind = to;
        Ok(())
    }

    /// Records that `out` loses `capability` and becomes no decision.
    fn neutral(&mut self, out: &Outcome, capability: Capability, note: &'static str) -> Result<(), UnsupportedError> {
        self.note(out, capability, DecisionKind::NoDecision, note)
    }

    /// Records that `out` loses `capability` and keeps its kind (a modifier is dropped).
    fn dropped(&mut self, out: &Outcome, capability: Capability, note: &'static str) -> Result<(), UnsupportedError> {
        self.note(out, capability, out.kind(), note)
    }
}

/// Neutral kind, keeping a rewrite (checked separately against `update-input`).
fn set_kind_neutral(out: &mut Outcome) {
    let c = out.common_mut();
    c.kind = DecisionKind::NoDecision;
    c.reason = None;
    c.block_reason = None;
}

fn set_neutral(out: &mut Outcome) {
    let c = out.common_mut();
    c.kind = DecisionKind::NoDecision;
    c.reason = None;
    c.block_reason = None;
    out.clear_updated_input();
    out.clear_replaced_output();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::*;

    #[test]
    fn capset_basics() {
        let s = CapSet::of(&[Capability::Deny, Capability::Ask]);
        assert!(s.contains(Capability::Ask) && !s.contains(Capability::Allow));
        assert_eq!(s.without(Capability::Ask), CapSet::EMPTY.with(Capability::Deny));
        assert_eq!(CapSet::ALL.iter().count(), Capability::ALL.len());
        assert_eq!(CapSet::from_bits(u16::MAX), CapSet::ALL);
        assert_eq!(format!("{s:?}"), "{\"deny\", \"ask\"}");
        let c: CapSet = [Capability::StopAgent].into_iter().collect();
        assert!(c.contains(Capability::StopAgent));
    }

    #[test]
    fn strict_rejects() {
        let p = Policy::default().with_unsupported(UnsupportedMode::Strict);
        let e = degrade(deny("x").into(), CapSet::EMPTY, &p).unwrap_err();
        assert_eq!(e.capability, Capability::Deny);
        let ok = degrade(deny("x").into(), CapSet::of(&[Capability::Deny]), &p).unwrap();
        assert!(ok.degradations.is_empty());
    }

    #[test]
    fn ask_fallback_no_decision() {
        let p = Policy::default().with_ask_fallback(AskFallback::NoDecision);
        let d = degrade(ask_user("q").into(), CapSet::of(&[Capability::Deny]), &p).unwrap();
        assert_eq!(d.outcome.kind(), DecisionKind::NoDecision);
        assert_eq!(d.outcome.reason(), None);
    }

    #[test]
    fn ask_on_a_permission_dialog_abstains() {
        let caps = CapSet::of(&[Capability::Deny, Capability::Allow, Capability::PermissionDialog]);
        for p in [
            Policy::default(),
            Policy::default().with_unsupported(UnsupportedMode::Strict),
        ] {
            let d = degrade(ask_user("sure?").into(), caps, &p).unwrap();
            assert_eq!(d.outcome.kind(), DecisionKind::NoDecision);
            assert_eq!((d.outcome.reason(), d.outcome.system_message()), (None, None));
            assert_eq!(d.degradations.len(), 1);
        }
        let caps = caps.with(Capability::SystemMessage);
        let d = degrade(ask_user("sure?").into(), caps, &Policy::default()).unwrap();
        assert_eq!(d.outcome.system_message(), Some("sure?"));
        let own = ask_user("sure?").with_system_message("mine");
        let d = degrade(own.into(), caps, &Policy::default()).unwrap();
        assert_eq!(d.outcome.system_message(), Some("mine"));
        // Where the agent can ask, the ask is sent as is.
        let d = degrade(ask_user("q").into(), caps.with(Capability::Ask), &Policy::default()).unwrap();
        assert_eq!((d.outcome.kind(), d.degradations.len()), (DecisionKind::Ask, 0));
    }

    #[test]
    fn policy_source_per_event() {
        use crate::{EventKind, Provider};
        let src = PolicySource::per_event(|e| {
            if e.provider == Provider::CODEX {
                Policy::default().fail_closed()
            } else {
                Policy::default()
            }
        });
        let codex = Envelope::new(
            Provider::CODEX,
            "Stop".into(),
            EventKind::Stop,
            crate::RawPayload::default(),
        );
        let claude = Envelope::new(
            Provider::CLAUDE_CODE,
            "Stop".into(),
            EventKind::Stop,
            crate::RawPayload::default(),
        );
        assert_eq!(src.resolve(&codex).fail, FailMode::Closed);
        assert_eq!(src.resolve(&claude).fail, FailMode::Open);
        assert_eq!(PolicySource::default().resolve(&claude), Policy::default());
    }
}
