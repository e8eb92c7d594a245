//! The can't-drift agreement test: a codec's capabilities, its encoder and the agent's real
//! behaviour (the fake agent) must agree.
//!
//! For every native event the codec lists × every decision of that event's family (each
//! constructor × each modifier, see [`crate::shapes::constructors`] and
//! [`crate::shapes::Modifier`]):
//!
//! 1. the decision is run through `Runner::invoke` with the real codec (on a fixture payload of
//!    that event when one exists, else on a synthetic event through the same degrade → encode
//!    steps), so the capability degradation applies exactly as in production;
//! 2. the wire response is interpreted by the provider's fake agent;
//! 3. the agent's [`Verdict`] must equal exactly what the **sent** (degraded) decision asks
//!    for — so every capability the codec promises is really delivered — and the agent must not
//!    see a misbehaving hook;
//! 4. everything the handler decided but the runner did not send is reported as a
//!    degradation — never silently lost;
//! 5. a capability the codec does *not* promise should not be delivered by its encoder either
//!    (the undegraded decision is encoded directly and interpreted): otherwise the capability
//!    table under-promises — reported on each [`Case`], and failing [`Report::strict_ok`];
//! 6. the failure responses are honest: fail-open is a no-op for the agent, fail-closed denies
//!    where the event can deny.
//!
//! A new codec is covered by calling [`run`] with it; nothing else to write.

use std::fmt;
use std::path::Path;

use agenthooks_core::decision::DecisionKind;
use agenthooks_core::{
    degrade, CanonicalTool, CapSet, Capability, Codec, CompactPostEvent, CompactPreEvent, Envelope, Event, EventKind,
    EventTarget, FailMode, FileEditedEvent, ModelRequestEvent, ModelResponseEvent, NativeName, NotificationEvent,
    OtherEvent, Outcome, PermissionEvent, Policy, PromptEvent, RawPayload, SessionEndEvent, SessionStartEvent,
    StopEvent, SubagentStartEvent, ToolCall, ToolErrorEvent, ToolPostEvent, ToolPreEvent, WireResponse,
};
use serde_json::json;

use crate::fake::{self, Effect, FakeAgent, HookOutput, Verdict};
use crate::fixture::{self, Fixture};
use crate::harness::invoke_with;

pub use crate::fake::expected_verdict;
use crate::shapes::{constructors, modify, router_for, Modifier};

fn lines(v: &[String]) -> Vec<String> {
    v.iter()
        .flat_map(|c| c.split('\n'))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Differences between what a decision asks for and what the agent does. `block_message` is the
/// decision's user-facing block message, which an agent may show as a user message. When both
/// sides stop the agent, the rest is not compared: agents give the stop precedence.
pub fn compare(expected: &Verdict, actual: &Verdict, block_message: Option<&str>) -> Vec<String> {
    let mut d = Vec::new();
    for p in &actual.problems {
        d.push(format!("the agent sees a misbehaving hook: {p}"));
    }
    if expected.agent_stopped.is_some() && actual.agent_stopped.is_some() {
        // Stopping the whole agent subsumes the rest of the decision (agents give it precedence).
        return d;
    }
    if expected.effect != actual.effect {
        d.push(format!(
            "effect: expected {:?}, the agent does {:?}",
            expected.effect, actual.effect
        ));
    }
    if expected.input_rewritten != actual.input_rewritten {
        d.push(format!(
            "input rewrite: expected {:?}, the agent runs {:?}",
            expected.input_rewritten, actual.input_rewritten
        ));
    }
    if lines(&expected.context) != lines(&actual.context) {
        d.push(format!(
            "context: expected {:?}, the model gets {:?}",
            expected.context, actual.context
        ));
    }
    let sys_ok = expected.system_message == actual.system_message
        || (expected.system_message.is_none()
            && actual.system_message.is_some()
            && actual.system_message.as_deref() == block_message);
    if !sys_ok {
        d.push(format!(
            "system message: expected {:?}, the user sees {:?}",
            expected.system_message, actual.system_message
        ));
    }
    let stop_ok = match (&expected.agent_stopped, &actual.agent_stopped) {
        (None, None) => true,
        (Some(e), Some(a)) => a.is_empty() || a == e,
        _ => false,
    };
    if !stop_ok {
        d.push(format!(
            "agent stop: expected {:?}, the agent does {:?}",
            expected.agent_stopped, actual.agent_stopped
        ));
    }
    d
}

/// The capabilities a decision needs: [`Outcome::required_capabilities`], the one definition
/// the codecs' encoders check against too.
#[must_use]
pub fn needed(o: &Outcome) -> CapSet {
    o.required_capabilities()
}

/// One checked (event, decision) pair.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Case {
    /// The native event.
    pub native: String,
    /// Its kind.
    pub kind: EventKind,
    /// `constructor` or `constructor+modifier`.
    pub decision: String,
    /// The fixture the payload came from, or `synthetic`.
    pub source: String,
    /// The capabilities of the event.
    pub caps: CapSet,
    /// The wire response.
    pub response: WireResponse,
    /// The agent's reading of it.
    pub verdict: Verdict,
    /// Differences found (empty: agreement).
    pub differences: Vec<String>,
    /// Set when the encoder, handed the undegraded decision, delivers a capability the codec
    /// does not promise (the table under-promises). Reported; fails only [`Report::strict_ok`].
    pub under_promised: Option<String>,
    /// The known gap that excused this case's differences, if any.
    pub known_gap: Option<String>,
}

/// A documented, accepted disagreement (e.g. a dialect limit the capability model cannot state
/// yet). Excused cases are reported, not failed; a known gap that no longer fails is an error,
/// so the list cannot go stale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct KnownGap {
    /// The native event (`"*"` for all).
    pub native: &'static str,
    /// The decision label prefix (`"rewrite_input.no_decision"` also matches its modifiers).
    pub decision: &'static str,
    /// Why it is accepted, and what would close it.
    pub reason: &'static str,
}

impl KnownGap {
    /// A known gap.
    pub const fn new(native: &'static str, decision: &'static str, reason: &'static str) -> Self {
        Self {
            native,
            decision,
            reason,
        }
    }

    fn matches(&self, c: &Case) -> bool {
        (self.native == "*" || self.native == c.native) && c.decision.starts_with(self.decision)
    }
}

/// The result of an agreement run.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Report {
    /// The provider.
    pub provider: String,
    /// Every case.
    pub cases: Vec<Case>,
    /// Native events checked on a synthetic event (no fixture of theirs was found).
    pub synthetic: Vec<String>,
    /// Failures outside the cases (undecodable fixture, failure responses).
    pub errors: Vec<String>,
}

impl Report {
    /// Excuses the cases matching `gaps`; a gap that excuses nothing becomes an error.
    pub fn apply_known_gaps(&mut self, gaps: &[KnownGap]) {
        for g in gaps {
            let mut used = false;
            for c in self
                .cases
                .iter_mut()
                .filter(|c| g.matches(c) && !c.differences.is_empty())
            {
                used = true;
                c.known_gap = Some(format!("{} (was: {})", g.reason, c.differences.join("; ")));
                c.differences.clear();
            }
            if !used {
                self.errors.push(format!(
                    "known gap {} [{}] no longer fails: remove it ({})",
                    g.native, g.decision, g.reason
                ));
            }
        }
    }

    /// Cases excused by a known gap.
    pub fn excused(&self) -> impl Iterator<Item = &Case> {
        self.cases.iter().filter(|c| c.known_gap.is_some())
    }

    /// Whether everything agreed: every promise kept, nothing lost silently, honest failure
    /// responses.
    pub fn ok(&self) -> bool {
        self.errors.is_empty() && self.cases.iter().all(|c| c.differences.is_empty())
    }

    /// [`Report::ok`], and the capability table does not under-promise either.
    pub fn strict_ok(&self) -> bool {
        self.ok() && self.cases.iter().all(|c| c.under_promised.is_none())
    }

    /// Asserts the whole agreement a codec crate's test asks for: no errors, every native
    /// event checked on a fixture of its own (none synthetic), at least `min_cases` cases, and
    /// no case whose verdict differs from the promise. Panics with the report otherwise.
    #[track_caller]
    pub fn assert_agrees(&self, min_cases: usize) -> &Self {
        assert!(self.errors.is_empty(), "errors: {:#?}\n{self}", self.errors);
        assert!(
            self.synthetic.is_empty(),
            "events without a fixture: {:?}\n{self}",
            self.synthetic
        );
        assert!(
            self.cases.len() >= min_cases,
            "only {} cases (expected at least {min_cases})\n{self}",
            self.cases.len()
        );
        let failures = self.failures();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        self
    }

    /// Asserts the agreement of a codec crate that lists its known failures: no errors, every
    /// native event checked on a fixture of its own, every failure line matched by a needle of
    /// `known` (`(needle in the failure line, why)`), every needle still matching a failure (so
    /// the list cannot go stale silently), and at least `min_agreed` cases without a difference.
    /// Panics with the report otherwise.
    ///
    /// ```no_run
    /// # let report = agenthooks_testkit::agreement::Report::default();
    /// report.assert_agrees_except(&[("PreToolUse (tool.pre) [deny+with_context]", "quirk 914")], 60);
    /// ```
    #[track_caller]
    pub fn assert_agrees_except(&self, known: &[(&str, &str)], min_agreed: usize) -> &Self {
        assert!(
            self.synthetic.is_empty(),
            "events without a fixture: {:?}",
            self.synthetic
        );
        assert!(self.errors.is_empty(), "{self}");
        let failures = self.failures();
        let unexpected: Vec<&String> = failures
            .iter()
            .filter(|f| !known.iter().any(|(k, _)| f.contains(k)))
            .collect();
        assert!(
            unexpected.is_empty(),
            "unexpected agreement failures:\n{}",
            unexpected.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
        );
        for (k, why) in known {
            assert!(
                failures.iter().any(|f| f.contains(k)),
                "known failure no longer occurs (remove it from the list): {k} ({why})"
            );
        }
        let agreed = self.cases.iter().filter(|c| c.differences.is_empty()).count();
        assert!(agreed >= min_agreed, "{agreed} agreeing cases\n{self}");
        self
    }

    /// Every failure, one line each.
    pub fn failures(&self) -> Vec<String> {
        let mut v = self.errors.clone();
        for c in &self.cases {
            for d in &c.differences {
                v.push(format!(
                    "{} {} ({}) [{}] caps {:?}: {d}\n    response: exit {} stdout {:?} stderr {:?}",
                    self.provider,
                    c.native,
                    c.kind,
                    c.decision,
                    c.caps,
                    c.response.exit_code,
                    c.response.stdout_str(),
                    c.response.stderr_str()
                ));
            }
        }
        v
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failures = self.failures();
        write!(
            f,
            "{}: {} cases over {} events ({} synthetic), {} failures",
            self.provider,
            self.cases.len(),
            {
                let mut n: Vec<&str> = self.cases.iter().map(|c| c.native.as_str()).collect();
                n.dedup();
                n.len()
            },
            self.synthetic.len(),
            failures.len()
        )?;
        for c in self.cases.iter().filter(|c| c.under_promised.is_some()) {
            write!(
                f,
                "\n! {} [{}]: {}",
                c.native,
                c.decision,
                c.under_promised.as_deref().unwrap_or_default()
            )?;
        }
        for c in self.excused() {
            write!(
                f,
                "\n~ known gap {} [{}]: {}",
                c.native,
                c.decision,
                c.known_gap.as_deref().unwrap_or_default()
            )?;
        }
        for x in failures {
            write!(f, "\n✗ {x}")?;
        }
        Ok(())
    }
}

/// Runs the agreement check for `codec` with its provider's fake agent, using fixture payloads
/// from `fixtures` (a provider directory) when given. Panics with every failure.
pub fn run(codec: &'static dyn Codec, fixtures: Option<&Path>) -> Report {
    let report = check(codec, fixtures);
    assert!(report.ok(), "agreement failed: {report}");
    report
}

/// [`run`] with documented, accepted gaps (see [`KnownGap`]).
pub fn run_with_known_gaps(codec: &'static dyn Codec, fixtures: Option<&Path>, gaps: &[KnownGap]) -> Report {
    let mut report = check(codec, fixtures);
    report.apply_known_gaps(gaps);
    assert!(report.ok(), "agreement failed: {report}");
    report
}

/// [`run`] without the panic.
pub fn check(codec: &'static dyn Codec, fixtures: Option<&Path>) -> Report {
    let provider = codec.provider();
    match fake::agent(provider.as_str()) {
        Some(agent) => check_with(codec, agent, fixtures),
        None => Report {
            provider: provider.to_string(),
            errors: vec![format!("no fake agent for provider {provider}")],
            ..Report::default()
        },
    }
}

/// [`check`] with an explicit fake agent.
pub fn check_with(codec: &'static dyn Codec, agent: &dyn FakeAgent, fixtures: Option<&Path>) -> Report {
    let mut report = Report {
        provider: codec.provider().to_string(),
        ..Report::default()
    };
    let corpus: Vec<Fixture> = match fixtures {
        None => Vec::new(),
        Some(dir) => fixture::load_all(dir).unwrap_or_else(|e| {
            report.errors.push(format!("cannot load fixtures: {e}"));
            Vec::new()
        }),
    };
    for spec in codec.native_events() {
        let fx = corpus
            .iter()
            .filter(|f| f.meta.native_event == spec.name)
            .min_by_key(|f| (!f.meta.variant.is_empty(), f.dir.clone()));
        let (event, source) = match fx {
            Some(f) => match f.decode(codec) {
                Ok(e) => (e, f.id()),
                Err(e) => {
                    report.errors.push(format!("{}: does not decode: {e}", f.id()));
                    continue;
                }
            },
            None => {
                report.synthetic.push(spec.name.to_owned());
                (synthetic_event(codec, spec.name, spec.kind), "synthetic".to_owned())
            }
        };
        check_event(codec, agent, fx, &event, &source, &mut report);
    }
    report
}

fn check_event(
    codec: &'static dyn Codec,
    agent: &dyn FakeAgent,
    fx: Option<&Fixture>,
    event: &Event,
    source: &str,
    report: &mut Report,
) {
    let env = event.envelope();
    let native = env.native.as_str().to_owned();
    let caps = codec.event_capabilities(event);
    let payload: Vec<u8> = fx.map_or_else(|| env.raw().as_bytes().to_vec(), |f| f.input.clone());
    let policy = Policy::default();
    let target = EventTarget::of(event);

    for (cname, base) in constructors(event) {
        for m in Modifier::ALL {
            if !m.applies_to(&base) || (m == Modifier::BlockReason && !base.blocks()) {
                continue;
            }
            let decided = modify(base.clone(), m);
            let label = if m == Modifier::None {
                cname.to_owned()
            } else {
                format!("{cname}+{}", m.name())
            };
            let (response, sent, degradations, failure) = match fx {
                Some(f) => {
                    let router = router_for(&decided);
                    let inv = f.with_invocation(&f.input, |inv| invoke_with(&router, codec, inv));
                    (
                        inv.response,
                        inv.sent,
                        inv.degradations,
                        inv.failure.map(|e| e.to_string()),
                    )
                }
                None => match degrade(decided.clone(), caps, &policy) {
                    Err(e) => (
                        codec.failure_response(&target, policy.fail, &e.to_string()),
                        None,
                        Vec::new(),
                        Some(e.to_string()),
                    ),
                    Ok(d) => match codec.encode(event, &d.outcome) {
                        Ok(r) => (r, Some(d.outcome), d.degradations, None),
                        Err(e) => (
                            codec.failure_response(&target, policy.fail, &e.to_string()),
                            Some(d.outcome),
                            d.degradations,
                            Some(e.to_string()),
                        ),
                    },
                },
            };
            let verdict = agent.interpret(&native, &payload, &HookOutput::from(&response));
            let mut differences = Vec::new();
            let mut under = None;
            if let Some(f) = failure {
                differences.push(format!("the runner answered with the failure response: {f}"));
            }
            match &sent {
                None => differences.push("no decision was sent".to_owned()),
                Some(sent) => {
                    if sent.kind() != DecisionKind::NoDecision || !sent.is_bare_neutral() {
                        // Sent decisions only use promised capabilities.
                        let over: Vec<Capability> = needed(sent).iter().filter(|c| !caps.contains(*c)).collect();
                        if !over.is_empty() {
                            differences.push(format!("sent a decision needing unpromised capabilities {over:?}"));
                        }
                    }
                    differences.extend(compare(
                        &expected_verdict(sent),
                        &verdict,
                        decided.block_message().filter(|_| decided.blocks()),
                    ));
                    // Never silently lost: every capability the decision needed and the event
                    // lacks is reported.
                    for c in needed(&decided).iter().filter(|c| !caps.contains(*c)) {
                        let reported = degradations.iter().any(|d| d.capability == c)
                            || (c == Capability::UpdateInput
                                && degradations.iter().any(|d| {
                                    matches!(
                                        d.capability,
                                        Capability::Allow
                                            | Capability::Ask
                                            | Capability::Deny
                                            | Capability::NeutralRewrite
                                    )
                                }));
                        if !reported {
                            differences.push(format!("lost silently: the decision needed `{c}`, which the event lacks, and no degradation reports it"));
                        }
                    }
                    if *sent != decided && degradations.is_empty() {
                        differences.push(format!(
                            "the decision changed without a degradation: decided {decided:?}, sent {sent:?}"
                        ));
                    }
                    // Under-promise: the encoder delivers something the capabilities deny.
                    let missing: Vec<Capability> = needed(&decided).iter().filter(|c| !caps.contains(*c)).collect();
                    if !missing.is_empty() {
                        if let Some(d) = under_promised(codec, agent, event, &native, &payload, &decided) {
                            under = Some(format!(
                                "capabilities do not promise {missing:?}, but the encoder delivers it ({d})"
                            ));
                        }
                    }
                }
            }
            report.cases.push(Case {
                native: native.clone(),
                kind: event.kind(),
                decision: label,
                source: source.to_owned(),
                caps,
                response,
                verdict,
                differences,
                under_promised: under,
                known_gap: None,
            });
        }
    }
    check_failure_responses(codec, agent, &target, &native, &payload, caps, report);
}

fn under_promised(
    codec: &dyn Codec,
    agent: &dyn FakeAgent,
    event: &Event,
    native: &str,
    payload: &[u8],
    decided: &Outcome,
) -> Option<String> {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| codec.encode(event, decided)))
        .ok()?
        .ok()?;
    let v = agent.interpret(native, payload, &HookOutput::from(&r));
    let expected = expected_verdict(decided);
    compare(&expected, &v, decided.block_message().filter(|_| decided.blocks()))
        .is_empty()
        .then(|| format!("verdict: {v}"))
}

fn check_failure_responses(
    codec: &dyn Codec,
    agent: &dyn FakeAgent,
    target: &EventTarget,
    native: &str,
    payload: &[u8],
    caps: CapSet,
    report: &mut Report,
) {
    let open = codec.failure_response(target, FailMode::Open, "agenthooks-testkit: failure");
    let v = agent.interpret(native, payload, &HookOutput::from(&open));
    if !v.is_no_op() || v.misbehaved() {
        report.errors.push(format!(
            "{} {native}: the fail-open response is not a no-op for the agent: {v}",
            codec.provider()
        ));
    }
    let kind = target.kind.unwrap_or(EventKind::Other);
    if caps.contains(Capability::Deny)
        && matches!(
            kind,
            EventKind::ToolPre | EventKind::Permission | EventKind::PromptSubmitted
        )
    {
        let closed = codec.failure_response(target, FailMode::Closed, "agenthooks-testkit: failure");
        let v = agent.interpret(native, payload, &HookOutput::from(&closed));
        if !matches!(v.effect, Effect::Denied { .. }) {
            report.errors.push(format!(
                "{} {native}: the fail-closed response does not block although the event can deny: {v}",
                codec.provider()
            ));
        }
    }
}

/// A minimal event of a kind, for native events without a fixture (raw payload `{}`).
pub fn synthetic_event(codec: &dyn Codec, native: &str, kind: EventKind) -> Event {
    use EventKind as K;
    let mut env = Envelope::new(
        codec.provider(),
        NativeName::new(native),
        kind,
        RawPayload::from(b"{}".to_vec()),
    );
    "agenthooks-testkit-session".clone_into(&mut env.session.id);
    "/tmp".clone_into(&mut env.session.cwd);
    let session = env.session.clone();
    let tool = || {
        ToolCall::builder("Bash", json!({"command": "ls"}))
            .class(CanonicalTool::Shell)
            .with_id("agenthooks-testkit-tool")
            .build(&session)
    };
    match kind {
        K::SessionStart => Event::SessionStart(SessionStartEvent::new(env).with_source(Some("startup".to_owned()))),
        K::SessionEnd => Event::SessionEnd(SessionEndEvent::new(env)),
        K::PromptSubmitted => Event::PromptSubmitted(PromptEvent::new(env, "hello".to_owned())),
        K::ToolPre => Event::ToolPre(ToolPreEvent::new(env, tool())),
        K::ToolPost => Event::ToolPost(ToolPostEvent::new(env, tool()).with_output(json!("ok").into())),
        K::ToolError => Event::ToolError(ToolErrorEvent::new(env, tool()).with_error("failed".to_owned())),
        K::Permission => Event::Permission(PermissionEvent::new(env, tool())),
        K::Stop => Event::Stop(StopEvent::new(env)),
        K::SubagentStart => Event::SubagentStart(SubagentStartEvent::new(env)),
        K::SubagentStop => Event::SubagentStop(StopEvent::new(env)),
        K::CompactPre => Event::CompactPre(CompactPreEvent::new(env)),
        K::CompactPost => Event::CompactPost(CompactPostEvent::new(env)),
        K::Notification => Event::Notification(NotificationEvent::new(env, "note".to_owned())),
        K::FileEdited => Event::FileEdited(FileEditedEvent::new(env, "/tmp/x".to_owned())),
        K::ModelRequest => Event::ModelRequest(ModelRequestEvent::new(env, json!({}))),
        K::ModelResponse => Event::ModelResponse(ModelResponseEvent::new(env).with_response(json!({}))),
        _ => Event::Other(OtherEvent::new(env)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::decision::{ask_user, deny, no_decision, rewrite_input};

    #[test]
    fn expected_verdicts() {
        let v = expected_verdict(&deny("r").with_context("c").with_stop_agent("s").into());
        assert_eq!(v.effect, Effect::Denied { reason: "r".into() });
        assert_eq!(v.context, ["c"]);
        assert_eq!(v.agent_stopped.as_deref(), Some("s"));
        let mut m = serde_json::Map::new();
        m.insert("a".into(), 1.into());
        let v = expected_verdict(&rewrite_input(m.clone()).no_decision().into());
        assert_eq!((v.effect, v.input_rewritten), (Effect::Proceed, Some(m)));
        assert!(expected_verdict(&no_decision().into()).is_no_op());
    }

    #[test]
    fn an_ask_on_a_permission_dialog_expects_the_dialog() {
        let dialog = CapSet::of(&[Capability::Allow, Capability::Deny, Capability::PermissionDialog]);
        let sent = |caps| {
            degrade(ask_user("sure?").into(), caps, &Policy::default())
                .unwrap()
                .outcome
        };
        assert_eq!(expected_verdict(&sent(dialog)).effect, Effect::Proceed);
        let v = expected_verdict(&sent(dialog.with(Capability::SystemMessage)));
        assert_eq!(
            (v.effect, v.system_message.as_deref()),
            (Effect::Proceed, Some("sure?"))
        );
        // Headless (no dialog follows): the ask fallback denies.
        let v = expected_verdict(&sent(dialog.without(Capability::PermissionDialog)));
        assert_eq!(v.effect, Effect::Denied { reason: "sure?".into() });
    }

    #[test]
    fn compare_normalizes_context_lines() {
        let mut e = Verdict::proceed();
        e.context = vec!["a".into(), "b".into()];
        let mut a = Verdict::proceed();
        a.context = vec!["a\n\nb".into()];
        assert!(compare(&e, &a, None).is_empty());
        a.context = vec!["a".into()];
        assert_eq!(compare(&e, &a, None).len(), 1);
    }
}
