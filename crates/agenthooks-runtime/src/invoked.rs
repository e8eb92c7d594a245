//! What one answered event produced: the [`Invoked`] record the pipeline fills and the audit sink
//! reads, and the [`Failure`] that made the answer a failure response. A leaf both import.

use crate::capability::{Degradation, Policy};
use crate::codec::{Codec, EventTarget, WireResponse};
use crate::decision::Outcome;
use crate::error::{DecodeError, EncodeError, HandlerError};
use crate::event::Event;
use crate::provider::Provider;
use std::time::Duration;

/// What one in-process invocation produced (for tests and tools).
#[derive(Debug)]
#[non_exhaustive]
pub struct Invoked {
    /// The exact response.
    pub response: WireResponse,
    /// The decoded event as the handlers left it (interceptors may change its projection), when
    /// decoding succeeded and the handlers answered.
    pub event: Option<Event>,
    /// The router's winning decision, before degradation.
    pub decided: Option<Outcome>,
    /// The decision sent, after degradation and the continuation cap.
    pub sent: Option<Outcome>,
    /// Degradations made.
    pub degradations: Vec<Degradation>,
    /// What failed, if anything (the response is then the failure response).
    pub failure: Option<Failure>,
    /// The provider that answered.
    pub provider: Option<Provider>,
}

impl Invoked {
    pub(super) fn new(provider: Provider) -> Self {
        Self {
            response: WireResponse::empty(),
            event: None,
            decided: None,
            sent: None,
            degradations: Vec::new(),
            failure: None,
            provider: Some(provider),
        }
    }

    /// Records `failure` (logged) and sets the policy's failure response for `target`: the one
    /// place a failure becomes an answer.
    pub(super) fn fail(&mut self, codec: &dyn Codec, target: &EventTarget, policy: Policy, failure: Failure) {
        tracing::warn!(provider = %codec.provider(), error = %failure, "answering per failure policy");
        self.response = codec.failure_response(target, policy.fail, &failure.to_string());
        self.failure = Some(failure);
    }
}

/// Why the runner answered with a failure response.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Failure {
    /// The payload could not be decoded.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A handler failed, panicked, or a strict policy rejected the decision.
    #[error(transparent)]
    Handler(#[from] HandlerError),
    /// The deadline passed.
    #[error("no decision before the deadline ({0:?})")]
    Deadline(Duration),
    /// The decision could not be encoded.
    #[error(transparent)]
    Encode(#[from] EncodeError),
}
