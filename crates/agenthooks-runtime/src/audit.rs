//! The audit hook: one call per answered event, after the pipeline decided and before the answer
//! is written. The runtime does no auditing itself; a sink ([`Runner::with_audit`](crate::Runner::with_audit), e.g.
//! `agenthooks-otel`'s spool writer) receives what the pipeline knows about the answer and must
//! return quickly and never fail it (a sink's panic is caught and logged).

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use crate::capability::Policy;
use crate::codec::EventTarget;

use super::invoked::Invoked;

/// What the pipeline hands an [`AuditSink`] for one answered event.
#[derive(Debug)]
#[non_exhaustive]
pub struct Audited<'a> {
    /// The answer: the event (when it decoded), the decisions, degradations and failure.
    pub invoked: &'a Invoked,
    /// What the runner knows about the event without decoding it (native name, kind, payload).
    pub target: &'a EventTarget,
    /// The policy resolved for the event.
    pub policy: Policy,
    /// From the call's start (the process start for `run`) to the decision, when known.
    pub latency: Option<Duration>,
}

impl<'a> Audited<'a> {
    /// What a sink receives, from its parts (for sinks' tests; the pipeline builds its own).
    pub fn new(invoked: &'a Invoked, target: &'a EventTarget, policy: Policy, latency: Option<Duration>) -> Self {
        Self {
            invoked,
            target,
            policy,
            latency,
        }
    }
}

/// A receiver of one record per answered event (see the module docs). Implementations must be
/// quick and must not block: the agent is waiting for the answer.
///
/// ```
/// use agenthooks_runtime::{AuditSink, Audited};
/// #[derive(Debug)]
/// struct Count(std::sync::atomic::AtomicUsize);
/// impl AuditSink for Count {
///     fn record(&self, _a: &Audited<'_>) {
///         self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
///     }
/// }
/// ```
pub trait AuditSink: Send + Sync + fmt::Debug {
    /// Records one answered event.
    fn record(&self, audited: &Audited<'_>);
}

/// Hands `audited` to `sink` under a panic guard: an audit failure never changes an answer.
pub(super) fn record(sink: &dyn AuditSink, audited: &Audited<'_>) {
    if catch_unwind(AssertUnwindSafe(|| sink.record(audited))).is_err() {
        tracing::warn!("the audit sink panicked; the record is lost, the answer stands");
    }
}
