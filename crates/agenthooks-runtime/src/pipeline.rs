//! The pipeline: answers one event. `run`, `notify` and `serve` all come through here.
//!
//! decode → (observers → interceptors → handlers, in [`Router::dispatch`](agenthooks_core::Router)) under
//! the deadline → continuation cap → degrade → encode. Panics are caught at every stage that
//! runs foreign code (decode, handlers, encode); any failure is recorded by [`Invoked::fail`],
//! which also sets the policy's failure response.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use crate::capability::{degrade, Degradation, Policy};
use crate::codec::{Codec, EventTarget, Invocation};
use crate::decision::{DecisionKind, Outcome};
use crate::error::{DecodeCategory, DecodeError, EncodeError, HandlerError};
use crate::event::{Envelope, Event, RawPayload};
use crate::provider::{Confidence, NativeName, Provider};
use crate::router::{panic_message, Context};
use crate::tool_filter::ToolSelector;

use super::call::Call;
use super::continuations::Continuations;
use super::invoked::{Failure, Invoked};
use super::Runner;

/// Called before inline dispatch with the target, policy and deadline, when a stage runs.
pub(super) type ArmWatchdog<'a> = dyn Fn(&EventTarget, &Policy, Instant) + 'a;

/// Where the handlers run.
#[derive(Clone, Copy)]
pub(super) enum Dispatch<'a> {
    /// On a worker thread; the deadline is enforced by waiting for it (in-process calls, `serve`).
    Worker,
    /// On the calling thread, after arming a watchdog that answers at the deadline (the process
    /// edge: the fast path never waits on another thread).
    Inline(&'a ArmWatchdog<'a>),
}

/// The share of the agent's timeout the handlers get: the timeout minus a margin of 10% (at
/// least 100 ms, at most 2 s), never less than half of it.
pub fn deadline_budget(timeout: Duration) -> Duration {
    let margin = (timeout / 10).clamp(Duration::from_millis(100), Duration::from_secs(2));
    timeout.saturating_sub(margin).max(timeout / 2)
}

/// Decodes with a panic guard (codecs must not panic; guard anyway).
pub(super) fn decode_guarded(codec: &dyn Codec, inv: &Invocation<'_>) -> Result<Event, DecodeError> {
    catch_unwind(AssertUnwindSafe(|| codec.decode(inv))).unwrap_or_else(|p| {
        Err(DecodeError::new(
            codec.provider(),
            DecodeCategory::Data,
            format!("codec panicked: {}", panic_message(&*p)),
        ))
    })
}

/// What the runner knows before decoding: the `--event` hint and the variant.
pub(super) fn hint_target(codec: &dyn Codec, inv: &Invocation<'_>) -> EventTarget {
    let native = inv.native_event.map(NativeName::from);
    let kind = native.as_ref().map(|n| codec.kind_of(n.as_str()));
    let mut t = EventTarget::new(native, kind).with_payload(Some(inv.payload.clone()));
    if let Some(v) = inv.variant {
        t.variant = v.clone();
    }
    t
}

impl Runner {
    /// The policy for an event that could not be decoded (resolved on a stand-in envelope).
    pub(super) fn policy_for_target(&self, provider: &Provider, t: &EventTarget, raw: &RawPayload) -> Policy {
        let env = Envelope::new(
            provider.clone(),
            t.native.clone().unwrap_or_else(|| NativeName::from_static("")),
            t.kind.unwrap_or(crate::EventKind::Other),
            raw.clone(),
        );
        self.router.policy().resolve(&env)
    }

    /// Answers a failure that happened before decoding (an unreadable payload): the policy's
    /// failure response for what the invocation's hints say.
    pub(super) fn answer_unread(&self, codec: &dyn Codec, inv: &Invocation<'_>, failure: Failure) -> Invoked {
        let mut out = Invoked::new(codec.provider());
        let target = hint_target(codec, inv);
        let policy = self.policy_for_target(&codec.provider(), &target, &inv.payload);
        out.fail(codec, &target, policy, failure);
        self.audited(&out, &target, policy, None);
        out
    }

    /// The one place an answer reaches the audit sink, when one is set.
    fn audited(&self, out: &Invoked, target: &EventTarget, policy: Policy, started: Option<Instant>) {
        if let Some(sink) = &self.audit {
            let a = super::audit::Audited {
                invoked: out,
                target,
                policy,
                latency: started.map(|s| s.elapsed()),
            };
            super::audit::record(&**sink, &a);
        }
    }

    /// The whole pipeline for one invocation: decode `inv` (the codec's view of `call`), then
    /// [`Runner::answer_event`]. The call's `started` is when the agent's clock started (the
    /// process start for `run`): the time spent reading and decoding the payload counts against
    /// the deadline.
    pub(super) fn answer(
        &self,
        codec: &dyn Codec,
        inv: &Invocation<'_>,
        call: &Call,
        confidence: Confidence,
        dispatch: Dispatch<'_>,
    ) -> Invoked {
        let mut event = match decode_guarded(codec, inv) {
            Ok(e) => e,
            Err(e) => return self.answer_unread(codec, inv, Failure::Decode(e)),
        };
        if confidence < event.envelope().confidence {
            event.envelope_mut().confidence = confidence;
        }
        let state_dir = match inv.state_dir {
            Some(d) => Some(d.to_path_buf()),
            None => self.options.private_state_dir(inv.env),
        };
        self.answer_event(codec, event, call, state_dir.as_deref(), dispatch)
    }

    /// Answers a decoded event: handlers under the deadline (the call's timeout — else the
    /// codec's — counted from its `started`; the handlers get what is left of its
    /// [`deadline_budget`]), the continuation cap, degrade, encode. The event is moved through
    /// the pipeline, never copied. The call's `filter` is its tool filter; without a `state_dir`
    /// (not private) the continuation counter and the prompt backfill are off.
    pub(super) fn answer_event(
        &self,
        codec: &dyn Codec,
        event: Event,
        call: &Call,
        state_dir: Option<&Path>,
        dispatch: Dispatch<'_>,
    ) -> Invoked {
        if self.audit.is_none() {
            return self.answer_event_unaudited(codec, event, call, state_dir, dispatch).0;
        }
        let (out, target, policy) = self.answer_event_unaudited(codec, event, call, state_dir, dispatch);
        self.audited(&out, &target, policy, Some(call.started));
        out
    }

    /// [`Runner::answer_event`] without the audit record; also returns the event's target and
    /// policy (what the record needs).
    fn answer_event_unaudited(
        &self,
        codec: &dyn Codec,
        mut event: Event,
        call: &Call,
        state_dir: Option<&Path>,
        dispatch: Dispatch<'_>,
    ) -> (Invoked, EventTarget, Policy) {
        let timeout = call.timeout.unwrap_or_else(|| codec.default_timeout());
        let filter = call.filter.as_ref();
        let started = call.started;
        let deadline = started + deadline_budget(timeout);
        let provider = codec.provider();
        let mut out = Invoked::new(provider.clone());
        let target = EventTarget::of(&event);
        let policy = self.router.policy().resolve(event.envelope());
        let caps = codec.event_capabilities(&event);
        let cx = Context::new(caps, policy, Some(deadline));

        let continuation = state_dir.and_then(|d| Continuations::new(d, &event));
        // Whether the agent says if this stop re-enters: when it does not, the counter is kept
        // (the loop ends at the cap) and `previously_continued` comes from it.
        let mut unreported = false;
        if let (Some(c), Event::Stop(s) | Event::SubagentStop(s)) = (&continuation, &mut event) {
            unreported = c.observe(s);
        }

        // The transcript read runs under the deadline, with the handlers.
        let backfill = match state_dir {
            Some(d) if self.router.backfills_prompts() => backfill_job(codec, d, &event, policy, deadline),
            _ => None,
        };

        // Handlers see (and interceptors may change) the event's projection.
        let (result, event) = match dispatch {
            Dispatch::Inline(arm) => {
                if backfill.is_some() || self.router.runs_any(&event, filter) {
                    arm(&target, &policy, deadline);
                }
                if let Some(b) = backfill {
                    b.run(&self.router, &event);
                }
                let r = self
                    .router
                    .dispatch_filtered(&cx, &mut event, filter)
                    .map_err(Failure::Handler);
                (r, Some(event))
            }
            Dispatch::Worker => self.dispatch_on_worker(cx, event, deadline, timeout, filter.cloned(), backfill),
        };
        out.event = event;
        let decided = match result {
            Ok(o) => o,
            Err(f) => {
                out.fail(codec, &target, policy, f);
                return (out, target, policy);
            }
        };
        out.decided = Some(decided.clone());

        // Continuation cap.
        let mut to_send = decided;
        if let Some(c) = &continuation {
            if to_send.kind() == DecisionKind::Continue {
                if c.count() >= policy.continuation_cap {
                    tracing::warn!(
                        cap = policy.continuation_cap,
                        "continuation cap reached; finishing instead"
                    );
                    out.degradations.push(Degradation::new(
                        crate::Capability::ContinueAgent,
                        DecisionKind::Continue,
                        DecisionKind::NoDecision,
                        "continuation cap reached; finished",
                    ));
                    to_send = Outcome::neutral_for(target.kind.unwrap_or(crate::EventKind::Stop));
                    // The neutral answer ends the turn; an agent that reports re-entry resets
                    // on its next turn's first stop, one that does not needs it here.
                    if unreported {
                        c.reset();
                    }
                } else {
                    c.increment();
                }
            } else {
                c.reset();
            }
        }

        let degraded = match degrade(to_send, caps, &policy) {
            Ok(d) => d,
            Err(e) => {
                out.fail(codec, &target, policy, Failure::Handler(HandlerError::Unsupported(e)));
                return (out, target, policy);
            }
        };
        for d in &degraded.degradations {
            tracing::warn!(provider = %provider, event = %target.native.as_ref().map_or("", NativeName::as_str), degradation = %d, "capability degradation");
        }
        out.degradations.extend(degraded.degradations);
        let Some(event_ref) = out.event.as_ref() else {
            return (out, target, policy);
        };
        let encoded =
            catch_unwind(AssertUnwindSafe(|| codec.encode(event_ref, &degraded.outcome))).unwrap_or_else(|p| {
                Err(EncodeError::new(
                    provider.clone(),
                    crate::error::EncodeCategory::Serialize,
                    format!("codec panicked: {}", panic_message(&*p)),
                ))
            });
        match encoded {
            Ok(r) => out.response = r,
            Err(e) => out.fail(codec, &target, policy, Failure::Encode(e)),
        }
        out.sent = Some(degraded.outcome);
        (out, target, policy)
    }

    /// Dispatches on a worker thread under the deadline (the prompt backfill first, when there is
    /// one); the event travels there and back. A handler still running at the deadline is
    /// abandoned (its thread finishes on its own).
    fn dispatch_on_worker(
        &self,
        cx: Context,
        mut event: Event,
        deadline: Instant,
        timeout: Duration,
        filter: Option<ToolSelector>,
        backfill: Option<BackfillJob>,
    ) -> (Result<Outcome, Failure>, Option<Event>) {
        let (tx, rx) = mpsc::channel();
        let router = Arc::clone(&self.router);
        let spawned = std::thread::Builder::new()
            .name("agenthooks-handler".into())
            .spawn(move || {
                if let Some(b) = backfill {
                    b.run(&router, &event);
                }
                let r = router.dispatch_filtered(&cx, &mut event, filter.as_ref());
                let _ = tx.send((r, event));
            });
        if let Err(e) = spawned {
            return (Err(Failure::Handler(HandlerError::new(e))), None);
        }
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok((r, ev)) => (r.map_err(Failure::Handler), Some(ev)),
            Err(mpsc::RecvTimeoutError::Timeout) => (Err(Failure::Deadline(timeout)), None),
            // The router catches handler panics; this is a panic outside it.
            Err(mpsc::RecvTimeoutError::Disconnected) => (
                Err(Failure::Handler(HandlerError::Panicked {
                    message: "the handler thread ended without an answer".into(),
                })),
                None,
            ),
        }
    }
}

/// Prompt backfill (opted in by [`Router::backfill_prompts`](agenthooks_core::Router::backfill_prompts)) for one event: a real
/// prompt event is noted here; any other event gets a job that reads its session's transcript and
/// dispatches the backfilled prompts (no capabilities, answers dropped: reporting only). The job
/// runs under the event's deadline, before its handlers.
fn backfill_job(
    codec: &dyn Codec,
    state_dir: &Path,
    event: &Event,
    policy: Policy,
    deadline: Instant,
) -> Option<BackfillJob> {
    let store = crate::transcript::backfill::Backfill::for_event(state_dir, event)?;
    let format = crate::transcript::format_of(codec);
    if let Event::PromptSubmitted(p) = event {
        store.note_fired(&p.prompt);
        return None;
    }
    // Whether there can be a transcript, without touching the file system here.
    let env = event.envelope();
    if env.session.transcript_path.is_empty() && !format.locates_unnamed() {
        return None;
    }
    let native = codec
        .native_events()
        .iter()
        .find(|r| r.kind == crate::EventKind::PromptSubmitted)
        .map_or_else(|| NativeName::from("prompt.submitted"), |r| NativeName::from(r.name));
    Some(BackfillJob {
        store,
        native,
        cx: Context::new(crate::CapSet::EMPTY, policy, Some(deadline)),
        provider: codec.provider(),
        format,
    })
}

/// The transcript read and dispatch of one event's prompt backfill (see [`backfill_job`]).
pub(super) struct BackfillJob {
    store: crate::transcript::backfill::Backfill,
    native: NativeName,
    cx: Context,
    provider: Provider,
    format: &'static dyn crate::transcript::TranscriptFormat,
}

impl BackfillJob {
    fn run(self, router: &crate::Router, event: &Event) {
        let vars = crate::codec::ProcessEnv;
        for mut b in self.store.pending(event, &self.native, self.format, &vars) {
            tracing::info!(provider = %self.provider, "backfilled prompt.submitted from the transcript");
            if let Err(e) = router.dispatch(&self.cx, &mut b) {
                tracing::warn!(error = %e, "a handler failed on a backfilled prompt (ignored: reporting only)");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_is_under_timeout() {
        assert_eq!(deadline_budget(Duration::from_secs(10)), Duration::from_secs(9));
        assert_eq!(deadline_budget(Duration::from_secs(60)), Duration::from_secs(58));
        assert_eq!(deadline_budget(Duration::from_millis(100)), Duration::from_millis(50));
        assert!(deadline_budget(Duration::from_secs(1)) < Duration::from_secs(1));
    }
}
