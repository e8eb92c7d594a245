//! The in-process harness: run a router through a codec exactly as the runner does (decode →
//! dispatch under the deadline → continuation cap → degrade → encode), then ask the fake agent
//! what the wire response means.
//!
//! ```no_run
//! use agenthooks_core::prelude::*;
//!
//! fn guard(_cx: &Context, e: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
//!     Ok(if e.tool.command() == Some("rm -rf /") { deny("destructive") } else { no_decision() })
//! }
//!
//! // With a Claude-dialect codec, e.g. `check(&agenthooks_claude::CODEC)` from a `#[test]`.
//! fn check(codec: &'static dyn agenthooks_core::Codec) {
//!     let router = Router::new().on_tool_pre(guard);
//!     let payload = br#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/","transcript_path":"","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t"}"#;
//!     agenthooks_testkit::invoke(&router, codec, payload, None).assert_denied("destructive");
//! }
//! ```

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use agenthooks_core::{
    Codec, Confidence, Env, Event, EventTarget, Invocation, Outcome, Router, Transport, Variant, WireResponse,
};
use agenthooks_runtime::{Invoked, RunOptions, Runner};

use crate::fake::{self, Effect, HookOutput, Verdict};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh, empty state directory (removed when dropped), so continuation counters never leak
/// between invocations.
#[derive(Debug)]
pub struct TempState(PathBuf);

impl TempState {
    /// Creates a new directory under the system temp dir.
    pub fn new() -> Self {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("agenthooks-testkit-{}-{n}", std::process::id()));
        let _ = std::fs::create_dir_all(&p);
        Self(p)
    }

    /// The path.
    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Default for TempState {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for TempState {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `inv` through `Runner::invoke` with `router`, in a fresh state directory.
pub fn invoke_with(router: &Router, codec: &'static dyn Codec, inv: &Invocation<'_>) -> Invoked {
    let state = TempState::new();
    let runner =
        Runner::new(router.clone(), vec![codec]).with_options(RunOptions::default().with_state_dir(state.path()));
    runner.invoke(codec, inv, None, Confidence::Certain)
}

/// Runs one payload through `router` and `codec` in process, exactly as the runner would for a
/// stdin hook (`native_event` is the `--event` hint, needed by agents whose payload does not
/// name its event, such as Copilot). The process environment is not consulted.
pub fn invoke(
    router: &Router,
    codec: &'static dyn Codec,
    payload: impl AsRef<[u8]>,
    native_event: Option<&str>,
) -> HookRun {
    let payload = payload.as_ref().to_vec();
    let env: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let inv = Invocation::new(payload.clone(), &env as &dyn Env)
        .with_native_event(native_event)
        .with_transport(Transport::Stdin);
    let invoked = invoke_with(router, codec, &inv);
    HookRun::new(invoked, codec, payload, native_event.map(str::to_owned))
}

/// The result of [`invoke`]: the runner's record plus assertions read through the fake agent.
#[derive(Debug)]
#[non_exhaustive]
pub struct HookRun {
    /// What the runner did.
    pub invoked: Invoked,
    /// The codec.
    pub codec: &'static dyn Codec,
    /// The payload.
    pub payload: Vec<u8>,
    hint: Option<String>,
}

impl HookRun {
    /// Wraps a runner record.
    pub fn new(invoked: Invoked, codec: &'static dyn Codec, payload: Vec<u8>, native_event: Option<String>) -> Self {
        Self {
            invoked,
            codec,
            payload,
            hint: native_event,
        }
    }

    /// The exact wire response.
    pub fn response(&self) -> &WireResponse {
        &self.invoked.response
    }

    /// The decoded event, when decoding succeeded.
    pub fn event(&self) -> Option<&Event> {
        self.invoked.event.as_ref()
    }

    /// The decision sent (after degradation).
    pub fn sent(&self) -> Option<&Outcome> {
        self.invoked.sent.as_ref()
    }

    /// The native event: the decoded one, else the hint, else `""`.
    pub fn native_event(&self) -> String {
        self.event()
            .map(|e| e.envelope().native.as_str().to_owned())
            .or_else(|| self.hint.clone())
            .unwrap_or_default()
    }

    /// The target the runner answered for.
    pub fn target(&self) -> EventTarget {
        match self.event() {
            Some(e) => EventTarget::of(e),
            None => {
                let native = self.hint.as_deref().map(agenthooks_core::NativeName::from);
                let kind = native.as_ref().map(|n| self.codec.kind_of(n.as_str()));
                let mut t = EventTarget::new(native, kind);
                t.variant = Variant::DEFAULT;
                t
            }
        }
    }

    /// What the agent does with the response, per the provider's fake agent. For a provider
    /// without one, the verdict is derived from the decision sent (and says so in `ignored`).
    pub fn verdict(&self) -> Verdict {
        let provider = self.codec.provider();
        let out = HookOutput::from(self.response());
        match fake::interpret(provider.as_str(), &self.native_event(), &self.payload, &out) {
            Some(v) => v,
            None => {
                let mut v = self.sent().map_or_else(Verdict::proceed, fake::expected_verdict);
                v.ignored.push(format!(
                    "no fake agent for {provider}: verdict derived from the decision sent"
                ));
                v
            }
        }
    }

    fn fail(&self, what: &str) -> ! {
        panic!(
            "{what}\n  provider: {}\n  native event: {}\n  verdict: {}\n  response: exit {} stdout {:?} stderr {:?}\n  failure: {:?}\n  degradations: {:?}",
            self.codec.provider(),
            self.native_event(),
            self.verdict(),
            self.response().exit_code,
            self.response().stdout_str(),
            self.response().stderr_str(),
            self.invoked.failure.as_ref().map(ToString::to_string),
            self.invoked.degradations.iter().map(ToString::to_string).collect::<Vec<_>>(),
        )
    }

    /// Asserts the response is the codec's no-op for the event and that the agent does nothing
    /// with it.
    pub fn assert_no_op(&self) -> &Self {
        if *self.response() != self.codec.no_op(&self.target()) {
            self.fail("expected the codec's no-op response");
        }
        let v = self.verdict();
        if !v.is_no_op() || v.misbehaved() {
            self.fail("expected the agent to proceed unaffected");
        }
        self
    }

    /// Asserts the agent denies (a tool call, a prompt, …) with exactly this reason.
    pub fn assert_denied(&self, reason: &str) -> &Self {
        let v = self.verdict();
        if v.effect
            != (Effect::Denied {
                reason: reason.to_owned(),
            })
        {
            self.fail(&format!("expected the agent to deny with reason {reason:?}"));
        }
        self
    }

    /// Asserts the model receives context containing `text`.
    pub fn assert_context(&self, text: &str) -> &Self {
        if !self.verdict().context.iter().any(|c| c.contains(text)) {
            self.fail(&format!("expected context containing {text:?}"));
        }
        self
    }

    /// Asserts the agent skips its permission prompt.
    pub fn assert_allowed(&self) -> &Self {
        if self.verdict().effect != Effect::Allowed {
            self.fail("expected the agent to allow");
        }
        self
    }

    /// Asserts the agent keeps going with exactly this instruction.
    pub fn assert_continued(&self, instruction: &str) -> &Self {
        if self.verdict().effect
            != (Effect::Continued {
                instruction: instruction.to_owned(),
            })
        {
            self.fail(&format!("expected the agent to continue with {instruction:?}"));
        }
        self
    }

    /// Asserts the agent does not consider the hook to have misbehaved.
    pub fn assert_well_behaved(&self) -> &Self {
        if self.verdict().misbehaved() {
            self.fail("the agent would treat this response as a misbehaving hook");
        }
        self
    }
}

/// Checks what the agent makes of a `tool.pre` handler that fails, for a pre-tool payload:
/// under the default policy (fail-open) the agent's own flow runs; under a fail-closed policy
/// the agent denies the call, through a well-formed response (exit 0). Returns the
/// fail-closed run for further checks.
#[track_caller]
pub fn assert_tool_pre_failure_policy(codec: &'static dyn Codec, payload: &[u8]) -> HookRun {
    use agenthooks_core::decision::ToolPreDecision;
    use agenthooks_core::{Context, HandlerError, Policy, PolicySource, ToolPreEvent};
    let failing = |policy: Policy| {
        Router::new()
            .with_policy(PolicySource::from(policy))
            .on_tool_pre(|_: &Context, _: &ToolPreEvent| {
                Err::<ToolPreDecision, _>(HandlerError::from("policy service unreachable"))
            })
    };
    invoke(&failing(Policy::default()), codec, payload, None).assert_no_op();
    let r = invoke(&failing(Policy::default().fail_closed()), codec, payload, None);
    assert!(matches!(r.verdict().effect, Effect::Denied { .. }), "{}", r.verdict());
    assert_eq!(r.response().exit_code, 0, "{:?}", r.response());
    r
}

/// A router whose stop handler continues with `instruction` unless the agent already
/// continued the turn (the loop guard): it finishes then.
pub fn continue_once(instruction: &'static str) -> Router {
    use agenthooks_core::decision::{continue_with, finish};
    use agenthooks_core::{Context, HandlerError, StopEvent};
    Router::new().on_stop(move |_: &Context, e: &StopEvent| {
        Ok::<_, HandlerError>(if e.previously_continued {
            finish()
        } else {
            continue_with(instruction)
        })
    })
}

/// Free-function form of [`HookRun::assert_no_op`].
pub fn assert_no_op(run: &HookRun) {
    run.assert_no_op();
}

/// Free-function form of [`HookRun::assert_denied`].
pub fn assert_denied(run: &HookRun, reason: &str) {
    run.assert_denied(reason);
}

/// Free-function form of [`HookRun::assert_context`].
pub fn assert_context(run: &HookRun, text: &str) {
    run.assert_context(text);
}
