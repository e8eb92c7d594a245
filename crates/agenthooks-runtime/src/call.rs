//! One value per call: what a transport received, built once by argv ([`Command::call`]), by the
//! warm server's route, or by a `serve` frame, and passed by value down the runner's answer path.
//!
//! [`Command::call`]: crate::Command::call

use std::time::{Duration, Instant};

use crate::codec::{Env, Invocation};
use crate::event::RawPayload;
use crate::provider::Variant;
use crate::tool_filter::ToolSelector;

/// What the generated config says about the call's event, before the payload is decoded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Hints {
    /// The native event (`--event=…`, the warm route's event, a frame's `hook`).
    pub native: Option<String>,
    /// The variant (`--variant=…`, the warm route's `variant`).
    pub variant: Option<Variant>,
}

/// One hook call: its payload, the config's hints, the agent's timeout, the in-process tool
/// filter and when the agent's clock started.
///
/// ```
/// use agenthooks_runtime::Call;
/// use agenthooks_core::tool_filter::ToolSelector;
/// let call = Call::new(br#"{"a":1}"#.to_vec())
///     .with_native(Some("PreToolUse".to_owned()))
///     .with_filter(Some(ToolSelector::parse("class:shell").unwrap()));
/// let env: Vec<(String, String)> = Vec::new();
/// let inv = call.invocation(&env);
/// assert_eq!((inv.payload.as_bytes(), inv.native_event), (&br#"{"a":1}"#[..], Some("PreToolUse")));
/// assert_eq!(call.filter.unwrap().to_string(), "class:shell");
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Call {
    /// The payload bytes exactly as received.
    pub payload: RawPayload,
    /// The native event and variant the config names.
    pub hints: Hints,
    /// The agent's timeout for this call (`None`: the codec's default).
    pub timeout: Option<Duration>,
    /// The in-process tool filter (`--tools`, the route's `tools`, the frame's `tools`): handlers
    /// run only for these tools.
    pub filter: Option<ToolSelector>,
    /// When the agent's clock started: reading and decoding the payload count against the
    /// deadline.
    pub started: Instant,
}

impl Call {
    /// A call of `payload` with no hints, timeout or filter, started now.
    pub fn new(payload: impl Into<RawPayload>) -> Self {
        Self {
            payload: payload.into(),
            hints: Hints::default(),
            timeout: None,
            filter: None,
            started: Instant::now(),
        }
    }

    /// The codec's input for this call: the payload (shared, not copied) and the hints; the
    /// transport, state directory and connection are the caller's to set.
    pub fn invocation<'a>(&'a self, env: &'a dyn Env) -> Invocation<'a> {
        Invocation::new(self.payload.clone(), env)
            .with_native_event(self.hints.native.as_deref())
            .with_variant(self.hints.variant.as_ref())
    }

    /// Sets the native event hint.
    #[must_use]
    pub fn with_native(mut self, native: Option<String>) -> Self {
        self.hints.native = native;
        self
    }

    /// Sets the variant hint.
    #[must_use]
    pub fn with_variant(mut self, variant: Option<Variant>) -> Self {
        self.hints.variant = variant;
        self
    }
}

crate::setters! {
    impl Call {
        /// Sets the timeout.
        with_timeout(timeout: Option<Duration>);
        /// Sets the tool filter.
        with_filter(filter: Option<ToolSelector>);
        /// Sets when the agent's clock started.
        with_started(started: Instant);
    }
}
