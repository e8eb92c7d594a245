//! The event router (design §3.5): typed handlers per kind, combinators, matchers, interceptors
//! and observers.
//!
//! # Model
//!
//! - A [`Handler<E>`] turns a typed event into that kind's decision. Plain functions and closures
//!   `Fn(&Context, &E) -> R` are handlers when `R` is [`IntoDecision`] of the event's decision
//!   family: the decision itself (`deny("…")`), or a `Result` of it whose error converts into
//!   [`HandlerError`]. Closures write their parameter types (`|_cx: &Context, e: &ToolPreEvent|`);
//!   nothing else needs a type annotation.
//! - A [`ToolGate`] serves `tool.pre` and `permission.request` with one registration
//!   ([`Router::on_tool_gate`]): it sees the tool call and which of the two fired
//!   ([`ToolGateEvent`]).
//! - Registration stacks: `Router::on_tool_pre(a).on_tool_pre(b)` runs `a` then `b`; a neutral
//!   decision falls through, the first conclusive one wins (short-circuit); when every stage stays
//!   neutral the neutrals merge (contexts append in order, stop-agent sticky). Contexts of neutral
//!   stages before the winner are kept too, so nothing a handler added is dropped silently.
//! - Combinators are handlers too: [`any`] (the stacking rule), [`all`] (every handler runs, the
//!   most restrictive decision wins, errors are joined) and [`when`] (a [`Matcher`] guard).
//! - Observers ([`Router::on_any`], [`Router::on_other`]) see every event first and never gate;
//!   their errors are logged, not returned.
//! - Interceptors ([`Router::layer`]) wrap the typed pipeline, outermost first, and receive
//!   [`Next`] by value, so calling it twice does not compile.
//!
//! ```
//! use agenthooks_core::prelude::*;
//!
//! fn guard(_cx: &Context, e: &ToolPreEvent) -> ToolPreDecision {
//!     if e.tool.command().is_some_and(|c| c.contains("rm -rf /")) {
//!         return deny("destructive command");
//!     }
//!     no_decision()
//! }
//! fn audit(_cx: &Context, e: &ToolPreEvent) -> ToolPreDecision {
//!     no_decision().with_context(format!("audited {}", e.tool.name))
//! }
//!
//! let router = Router::new()
//!     .on_tool_pre(when(match_canonical([CanonicalTool::Shell]), guard))
//!     .on_tool_pre(audit)
//!     .on_stop(|_cx: &Context, _e: &StopEvent| finish());
//! let mut names = Vec::new();
//! router.walk(|s| names.push((s.kind, s.position)));
//! assert_eq!(names.len(), 3);
//! ```
//!
//! A value with the wrong signature is not a handler, and the error says what is expected
//! (``expected `fn(&Context, &ToolPreEvent) -> impl IntoDecision<ToolPreDecision>` ``):
//! ```compile_fail,E0277
//! use agenthooks_core::prelude::*;
//! struct Guard;
//! let router = Router::new().on_tool_pre(Guard);
//! ```
//!
//! Calling `next` twice in an interceptor does not compile:
//! ```compile_fail
//! use agenthooks_core::prelude::*;
//! fn twice(cx: &Context, ev: &mut Event, next: Next<'_>) -> Result<Outcome, HandlerError> {
//!     let _ = next.run(cx, ev);
//!     next.run(cx, ev)
//! }
//! ```

use std::any::type_name;
use std::ops::ControlFlow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Instant;

use crate::capability::{CapSet, Capability, Policy, PolicySource};
use crate::decision::{
    merge_all, merge_neutral, ContextDecision, Decision, IntoDecision, Outcome, PromptDecision, StopDecision,
    ToolPostDecision, ToolPreDecision,
};
use crate::error::HandlerError;
use crate::event::{
    CanonicalTool, CompactPostEvent, CompactPreEvent, Envelope, Event, FileEditedEvent, ModelRequestEvent,
    ModelResponseEvent, NotificationEvent, OtherEvent, PermissionEvent, PromptEvent, SessionEndEvent,
    SessionStartEvent, StopEvent, SubagentStartEvent, ToolCall, ToolErrorEvent, ToolPostEvent, ToolPreEvent,
};
use crate::kind::EventKind;
use crate::tool_filter::{is_glob, GlobSet, ToolSelector};

/// What a handler can see besides the event: the capabilities of this event on this agent,
/// the resolved policy and the deadline.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Context {
    /// Capabilities the agent honours for this event.
    pub capabilities: CapSet,
    /// The resolved policy.
    pub policy: Policy,
    /// When the runner will answer on its own.
    pub deadline: Option<Instant>,
}

impl Default for Context {
    fn default() -> Self {
        Self {
            capabilities: CapSet::ALL,
            policy: Policy::default(),
            deadline: None,
        }
    }
}

impl Context {
    /// A context from its parts.
    pub fn new(capabilities: CapSet, policy: Policy, deadline: Option<Instant>) -> Self {
        Self {
            capabilities,
            policy,
            deadline,
        }
    }

    /// Whether the agent honours a capability for this event.
    pub fn can(&self, c: Capability) -> bool {
        self.capabilities.contains(c)
    }

    /// Time left before the deadline (`None` without one).
    pub fn remaining(&self) -> Option<std::time::Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A typed event with a decision family. Sealed.
pub trait Gated: sealed::Sealed + Send + Sync + 'static {
    /// The decision family for this event.
    type Decision: Decision;
    /// The envelope.
    fn envelope(&self) -> &Envelope;
    /// The tool call, when the event carries one.
    fn tool(&self) -> Option<&ToolCall> {
        None
    }
}

macro_rules! gated {
    ($($ev:ty => $d:ty $(, tool = $t:ident)?;)*) => {$(
        impl sealed::Sealed for $ev {}
        impl Gated for $ev {
            type Decision = $d;
            fn envelope(&self) -> &Envelope { &self.envelope }
            $(fn tool(&self) -> Option<&ToolCall> { Some(&self.$t) })?
        }
    )*};
}

gated! {
    ToolPreEvent => ToolPreDecision, tool = tool;
    PermissionEvent => ToolPreDecision, tool = tool;
    PromptEvent => PromptDecision;
    StopEvent => StopDecision;
    ToolPostEvent => ToolPostDecision, tool = tool;
    ToolErrorEvent => ContextDecision, tool = tool;
    SubagentStartEvent => ContextDecision;
    SessionStartEvent => ContextDecision;
    SessionEndEvent => ContextDecision;
    CompactPreEvent => ContextDecision;
    CompactPostEvent => ContextDecision;
    NotificationEvent => ContextDecision;
    FileEditedEvent => ContextDecision;
    ModelRequestEvent => ContextDecision;
    ModelResponseEvent => ContextDecision;
    OtherEvent => ContextDecision;
}

/// A typed handler for events `E`: a `fn(&Context, &E) -> impl IntoDecision<E::Decision>`, a
/// closure of that shape, a combinator, or your own type.
///
/// `D` is always `E::Decision` (its default): it is a parameter only so that the compiler's
/// error for a wrong signature can name the decision type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a handler of `{E}`",
    label = "expected `fn(&Context, &{E}) -> impl IntoDecision<{D}>`",
    note = "a handler is a function or closure `Fn(&Context, &{E}) -> R` where `R` is `{D}` or a `Result<{D}, E>` whose error converts into `HandlerError` (closures write their parameter types), or a type implementing `Handler<{E}>`"
)]
pub trait Handler<E: Gated, D = <E as Gated>::Decision>: Send + Sync + 'static {
    /// Decides.
    ///
    /// # Errors
    ///
    /// The handler failed; the runner answers per the policy's [`FailMode`](crate::FailMode).
    fn handle(&self, cx: &Context, ev: &E) -> Result<E::Decision, HandlerError>;

    /// A name for introspection ([`Router::walk`]); defaults to the type name.
    fn name(&self) -> &'static str {
        type_name::<Self>()
    }

    /// The tools this handler runs for, when it declares them (a [`when`] guard whose matcher
    /// is declarative); install compiles it into each agent's matcher. `None`: every tool.
    fn tool_filter(&self) -> Option<ToolSelector> {
        None
    }
}

impl<E, F, R> Handler<E> for F
where
    E: Gated,
    F: Fn(&Context, &E) -> R + Send + Sync + 'static,
    R: IntoDecision<E::Decision>,
{
    fn handle(&self, cx: &Context, ev: &E) -> Result<E::Decision, HandlerError> {
        self(cx, ev).into_decision()
    }
}

/// The event a [`ToolGate`] sees: a `tool.pre` or a `permission.request`, both about one tool
/// call.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum ToolGateEvent<'a> {
    /// The agent is about to run a tool (`tool.pre`).
    ToolPre(&'a ToolPreEvent),
    /// The agent is about to show its permission dialog for a tool (`permission.request`).
    Permission(&'a PermissionEvent),
}

impl<'a> ToolGateEvent<'a> {
    /// The tool call.
    pub fn tool(&self) -> &'a ToolCall {
        match self {
            Self::ToolPre(e) => &e.tool,
            Self::Permission(e) => &e.tool,
        }
    }

    /// Which kind fired: [`EventKind::ToolPre`] or [`EventKind::Permission`].
    pub fn kind(&self) -> EventKind {
        match self {
            Self::ToolPre(_) => EventKind::ToolPre,
            Self::Permission(_) => EventKind::Permission,
        }
    }

    /// Whether this is a `permission.request` (an ask there is the agent's own dialog).
    pub fn is_permission(&self) -> bool {
        matches!(self, Self::Permission(_))
    }

    /// The envelope.
    pub fn envelope(&self) -> &'a Envelope {
        match self {
            Self::ToolPre(e) => &e.envelope,
            Self::Permission(e) => &e.envelope,
        }
    }
}

/// One handler for both tool gates, `tool.pre` and `permission.request` (they share
/// [`ToolPreDecision`]); register it with [`Router::on_tool_gate`]. Functions and closures
/// `Fn(&Context, ToolGateEvent<'_>) -> impl IntoDecision<ToolPreDecision>` are tool gates.
///
/// ```
/// use agenthooks_core::prelude::*;
///
/// fn guard(_cx: &Context, gate: ToolGateEvent<'_>) -> ToolPreDecision {
///     if gate.tool().command().is_some_and(|c| c.contains("curl")) {
///         return ask_user("network access");
///     }
///     no_decision()
/// }
/// let router = Router::new().on_tool_gate(guard);
/// assert!(router.handles(EventKind::ToolPre) && router.handles(EventKind::Permission));
/// let router = Router::new().on_tool_gate(|_cx: &Context, _gate: ToolGateEvent<'_>| deny("no tools"));
/// # let _ = router;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool gate",
    label = "expected `fn(&Context, ToolGateEvent<'_>) -> impl IntoDecision<ToolPreDecision>`"
)]
pub trait ToolGate: Send + Sync + 'static {
    /// Decides.
    ///
    /// # Errors
    ///
    /// The gate failed; the runner answers per the policy's [`FailMode`](crate::FailMode).
    fn gate(&self, cx: &Context, ev: ToolGateEvent<'_>) -> Result<ToolPreDecision, HandlerError>;

    /// A name for introspection ([`Router::walk`]); defaults to the type name.
    fn name(&self) -> &'static str {
        type_name::<Self>()
    }

    /// The tools this gate runs for, when it declares them (see [`Handler::tool_filter`]).
    fn tool_filter(&self) -> Option<ToolSelector> {
        None
    }
}

impl<F, R> ToolGate for F
where
    F: for<'a> Fn(&Context, ToolGateEvent<'a>) -> R + Send + Sync + 'static,
    R: IntoDecision<ToolPreDecision>,
{
    fn gate(&self, cx: &Context, ev: ToolGateEvent<'_>) -> Result<ToolPreDecision, HandlerError> {
        self(cx, ev).into_decision()
    }
}

impl<M: Matcher, G: ToolGate> ToolGate for When<M, G> {
    fn gate(&self, cx: &Context, ev: ToolGateEvent<'_>) -> Result<ToolPreDecision, HandlerError> {
        if self.0.matches(ev.tool()) {
            self.1.gate(cx, ev)
        } else {
            Ok(ToolPreDecision::default())
        }
    }
    fn name(&self) -> &'static str {
        self.1.name()
    }
    fn tool_filter(&self) -> Option<ToolSelector> {
        self.0.selector()
    }
}

/// A [`ToolGate`] as the handler of one of its two kinds (shared by both registrations).
struct GateAs<G>(Arc<G>);

impl<G: ToolGate> Handler<ToolPreEvent> for GateAs<G> {
    fn handle(&self, cx: &Context, ev: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
        self.0.gate(cx, ToolGateEvent::ToolPre(ev))
    }
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn tool_filter(&self) -> Option<ToolSelector> {
        self.0.tool_filter()
    }
}

impl<G: ToolGate> Handler<PermissionEvent> for GateAs<G> {
    fn handle(&self, cx: &Context, ev: &PermissionEvent) -> Result<ToolPreDecision, HandlerError> {
        self.0.gate(cx, ToolGateEvent::Permission(ev))
    }
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn tool_filter(&self) -> Option<ToolSelector> {
        self.0.tool_filter()
    }
}

/// A type-erased handler (for `Vec`s of different handler types).
pub struct BoxedHandler<E: Gated>(Arc<dyn Handler<E>>);

impl<E: Gated> Clone for BoxedHandler<E> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

/// Erases a handler's type.
pub fn boxed<E: Gated, H: Handler<E>>(h: H) -> BoxedHandler<E> {
    BoxedHandler(Arc::new(h))
}

impl<E: Gated> Handler<E> for BoxedHandler<E> {
    fn handle(&self, cx: &Context, ev: &E) -> Result<E::Decision, HandlerError> {
        self.0.handle(cx, ev)
    }
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn tool_filter(&self) -> Option<ToolSelector> {
        self.0.tool_filter()
    }
}

/// An ordered collection of handlers: tuples of up to 8 handlers and `Vec<H>`.
pub trait HandlerList<E: Gated>: Send + Sync + 'static {
    /// Visits the handlers in order until `f` breaks.
    fn each(&self, f: &mut dyn FnMut(&dyn Handler<E>) -> ControlFlow<()>);
}

impl<E: Gated, H: Handler<E>> HandlerList<E> for Vec<H> {
    fn each(&self, f: &mut dyn FnMut(&dyn Handler<E>) -> ControlFlow<()>) {
        for h in self {
            if f(h).is_break() {
                return;
            }
        }
    }
}

macro_rules! tuple_list {
    ($($t:ident . $i:tt),+) => {
        impl<E: Gated, $($t: Handler<E>),+> HandlerList<E> for ($($t,)+) {
            fn each(&self, f: &mut dyn FnMut(&dyn Handler<E>) -> ControlFlow<()>) {
                $(if f(&self.$i).is_break() { return; })+
            }
        }
    };
}
tuple_list!(A.0);
tuple_list!(A.0, B.1);
tuple_list!(A.0, B.1, C.2);
tuple_list!(A.0, B.1, C.2, D.3);
tuple_list!(A.0, B.1, C.2, D.3, F.4);
tuple_list!(A.0, B.1, C.2, D.3, F.4, G.5);
tuple_list!(A.0, B.1, C.2, D.3, F.4, G.5, H.6);
tuple_list!(A.0, B.1, C.2, D.3, F.4, G.5, H.6, I.7);

/// The stacking rule over a sequence of decisions: the first conclusive one wins (with the
/// contexts of the neutral ones before it prepended); all neutral → merged.
fn first_conclusive<D: Decision>(
    mut next: impl FnMut(&mut dyn FnMut(Result<D, HandlerError>) -> ControlFlow<()>),
) -> Result<D, HandlerError> {
    let mut acc = D::default();
    let mut result: Option<Result<D, HandlerError>> = None;
    next(&mut |r| match r {
        Err(e) => {
            result = Some(Err(e));
            ControlFlow::Break(())
        }
        Ok(d) if d.kind().is_conclusive() => {
            let mut won = d;
            let prior = std::mem::take(&mut acc.__common_mut().context);
            if !prior.is_empty() {
                let c = won.__common_mut();
                let mut all = prior;
                all.append(&mut c.context);
                c.context = all;
            }
            if won.stop_reason().is_none() {
                won.__common_mut().stop_agent.clone_from(&acc.__common().stop_agent);
            }
            result = Some(Ok(won));
            ControlFlow::Break(())
        }
        Ok(d) => {
            merge_neutral(&mut acc, &d);
            ControlFlow::Continue(())
        }
    });
    result.unwrap_or(Ok(acc))
}

/// First conclusive decision wins (the stacking rule); see [`any`].
#[derive(Debug, Clone)]
pub struct Any<T>(T);

/// Handlers run in order; the first conclusive decision wins and short-circuits the rest; a
/// handler error aborts. Identical to stacked registration.
pub fn any<T>(handlers: T) -> Any<T> {
    Any(handlers)
}

impl<E: Gated, T: HandlerList<E>> Handler<E> for Any<T> {
    fn handle(&self, cx: &Context, ev: &E) -> Result<E::Decision, HandlerError> {
        first_conclusive(|sink| self.0.each(&mut |h| sink(h.handle(cx, ev))))
    }
    fn tool_filter(&self) -> Option<ToolSelector> {
        list_filter(&self.0)
    }
}

/// The union of the declared filters of a list (`None` when any handler declares none).
fn list_filter<E: Gated>(list: &impl HandlerList<E>) -> Option<ToolSelector> {
    let mut filters = Vec::new();
    list.each(&mut |h| {
        filters.push(h.tool_filter());
        ControlFlow::Continue(())
    });
    union_filters(filters)
}

/// The union of declared filters: `None` (every tool) when there are none or any is `None`.
fn union_filters(filters: impl IntoIterator<Item = Option<ToolSelector>>) -> Option<ToolSelector> {
    let mut out: Option<ToolSelector> = None;
    for f in filters {
        let f = f?;
        out = Some(match out {
            Some(acc) => acc.union(&f),
            None => f,
        });
    }
    out
}

/// Every handler runs; see [`all`].
#[derive(Debug, Clone)]
pub struct All<T>(T);

/// Every handler runs (no short-circuit); the most restrictive decision wins (deny > ask >
/// allow > neutral; continue > finish; replace > flag > observed; ties to the earliest); contexts
/// append from all in order; stop-agent is sticky. Any error fails the combinator, with every
/// error joined.
pub fn all<T>(handlers: T) -> All<T> {
    All(handlers)
}

impl<E: Gated, T: HandlerList<E>> Handler<E> for All<T> {
    fn handle(&self, cx: &Context, ev: &E) -> Result<E::Decision, HandlerError> {
        let mut ok = Vec::new();
        let mut errs = Vec::new();
        self.0.each(&mut |h| {
            match h.handle(cx, ev) {
                Ok(d) => ok.push(d),
                Err(e) => errs.push(e),
            }
            ControlFlow::Continue(())
        });
        if errs.is_empty() {
            Ok(merge_all(&ok))
        } else {
            Err(HandlerError::join(errs))
        }
    }
    fn tool_filter(&self) -> Option<ToolSelector> {
        list_filter(&self.0)
    }
}

/// A guarded handler; see [`when`].
#[derive(Debug, Clone)]
pub struct When<M, H>(M, H);

/// Runs `h` only when the event carries a tool call that `m` matches; otherwise neutral.
/// Events without a tool call never match.
pub fn when<M, H>(m: M, h: H) -> When<M, H> {
    When(m, h)
}

impl<E: Gated, M: Matcher, H: Handler<E>> Handler<E> for When<M, H> {
    fn handle(&self, cx: &Context, ev: &E) -> Result<E::Decision, HandlerError> {
        match ev.tool() {
            Some(t) if self.0.matches(t) => self.1.handle(cx, ev),
            _ => Ok(E::Decision::default()),
        }
    }
    fn name(&self) -> &'static str {
        self.1.name()
    }
    fn tool_filter(&self) -> Option<ToolSelector> {
        self.0.selector()
    }
}

/// Decides whether a tool call matches. Closures `Fn(&ToolCall) -> bool` are matchers.
pub trait Matcher: Send + Sync + 'static {
    /// Whether the call matches.
    fn matches(&self, tool: &ToolCall) -> bool;

    /// The matcher as a declared [`ToolSelector`], when it is one (the built-in matchers are;
    /// closures are not). Install compiles a declared matcher into the agent's config.
    fn selector(&self) -> Option<ToolSelector> {
        None
    }
}

impl<F: Fn(&ToolCall) -> bool + Send + Sync + 'static> Matcher for F {
    fn matches(&self, tool: &ToolCall) -> bool {
        self(tool)
    }
}

/// Matches native tool names by glob (compiled once).
#[derive(Debug, Clone)]
pub struct ToolNames(GlobSet, Option<ToolSelector>);

/// Matches native tool names (`Bash`, `run_shell_command`, `mcp__github__*`, …) by glob.
///
/// ```
/// use agenthooks_core::{match_tools, Matcher, ToolCall, CanonicalTool};
/// let m = match_tools(["Bash", "mcp__github__*"]);
/// let t = ToolCall::builder("mcp__github__create_issue", serde_json::json!({})).class(CanonicalTool::Mcp).build(&Default::default());
/// assert!(m.matches(&t));
/// ```
pub fn match_tools<I, S>(names: I) -> ToolNames
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let names: Vec<String> = names.into_iter().map(|n| n.as_ref().to_owned()).collect();
    // Exact names are declarable; a glob is not one native name (the handler still filters).
    let declared = (!names.iter().any(|n| is_glob(n))).then(|| {
        names
            .iter()
            .fold(ToolSelector::default(), |s, n| s.with_name(n.clone()))
    });
    ToolNames(GlobSet::new(&names), declared)
}

impl Matcher for ToolNames {
    fn matches(&self, tool: &ToolCall) -> bool {
        self.0.is_match(&tool.name)
    }
    fn selector(&self) -> Option<ToolSelector> {
        self.1.clone()
    }
}

/// Matches MCP calls by server and tool globs (compiled once).
#[derive(Debug, Clone)]
pub struct McpTools {
    server: GlobSet,
    tool: GlobSet,
    declared: ToolSelector,
}

/// Matches MCP calls whose server and tool match the globs, whatever the agent's naming scheme.
///
/// ```
/// use agenthooks_core::{match_mcp, Matcher, ToolCall, CanonicalTool, McpCall};
/// let t = ToolCall::builder("mcp_github_create_issue", serde_json::json!({}))
///     .with_mcp(Some(McpCall::new("github", "create_issue")))
///     .build(&Default::default());
/// assert!(match_mcp("github", "*").matches(&t));
/// assert!(!match_mcp("slack", "*").matches(&t));
/// ```
pub fn match_mcp(server: &str, tool: &str) -> McpTools {
    McpTools {
        server: GlobSet::new([server]),
        tool: GlobSet::new([tool]),
        declared: ToolSelector::default().with_mcp(server, tool),
    }
}

impl Matcher for McpTools {
    fn matches(&self, tool: &ToolCall) -> bool {
        tool.mcp
            .as_ref()
            .is_some_and(|m| self.server.is_match(&m.server) && self.tool.is_match(&m.tool))
    }
    fn selector(&self) -> Option<ToolSelector> {
        Some(self.declared.clone())
    }
}

/// Matches canonical tool classes.
#[derive(Debug, Clone)]
pub struct Canonical(Vec<CanonicalTool>);

/// Matches calls whose canonical class is one of `classes`.
pub fn match_canonical(classes: impl IntoIterator<Item = CanonicalTool>) -> Canonical {
    Canonical(classes.into_iter().collect())
}

impl Matcher for Canonical {
    fn matches(&self, tool: &ToolCall) -> bool {
        self.0.contains(&tool.canonical)
    }
    fn selector(&self) -> Option<ToolSelector> {
        Some(self.0.iter().fold(ToolSelector::default(), |s, c| s.with_class(*c)))
    }
}

/// An observer: sees every event (or every event of one native name), never gates.
pub trait Observer: Send + Sync + 'static {
    /// Observes.
    fn observe(&self, cx: &Context, ev: &Event) -> Result<(), HandlerError>;
    /// A name for introspection.
    fn name(&self) -> &'static str {
        type_name::<Self>()
    }
}

impl<F: Fn(&Context, &Event) -> Result<(), HandlerError> + Send + Sync + 'static> Observer for F {
    fn observe(&self, cx: &Context, ev: &Event) -> Result<(), HandlerError> {
        self(cx, ev)
    }
}

/// Middleware around the typed pipeline.
pub trait Interceptor: Send + Sync + 'static {
    /// Intercepts: may change the normalized projection of `ev` (the raw payload is read-only),
    /// return without calling `next` (short-circuit) or post-process `next`'s outcome.
    fn intercept(&self, cx: &Context, ev: &mut Event, next: Next<'_>) -> Result<Outcome, HandlerError>;
    /// A name for introspection.
    fn name(&self) -> &'static str {
        type_name::<Self>()
    }
}

impl<F> Interceptor for F
where
    F: for<'a> Fn(&Context, &mut Event, Next<'a>) -> Result<Outcome, HandlerError> + Send + Sync + 'static,
{
    fn intercept(&self, cx: &Context, ev: &mut Event, next: Next<'_>) -> Result<Outcome, HandlerError> {
        self(cx, ev, next)
    }
}

/// The rest of the pipeline, consumed by value: it runs at most once.
pub struct Next<'a> {
    router: &'a Router,
    index: usize,
}

impl Next<'_> {
    /// Runs the rest of the pipeline.
    pub fn run(self, cx: &Context, ev: &mut Event) -> Result<Outcome, HandlerError> {
        self.router.run_from(self.index, cx, ev)
    }
}

/// What a stage is, for [`Router::walk`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StageType {
    /// An `on_any` observer.
    Observer,
    /// An `on_other(native)` observer.
    OtherObserver,
    /// An interceptor.
    Interceptor,
    /// A typed handler.
    Handler,
}

/// One stage, as [`Router::walk`] reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StageInfo {
    /// The kind the stage serves (`None` for observers and interceptors).
    pub kind: Option<EventKind>,
    /// What it is.
    pub stage_type: StageType,
    /// Its name (the type name; closures report their compiler-assigned names).
    pub name: &'static str,
    /// Position within its group, from 0.
    pub position: usize,
    /// For `on_other` observers: the native event name.
    pub native: Option<String>,
}

macro_rules! router_kinds {
    ($($kind_:ident, $dotted:literal, $ev:ident, $family:ident, $field:ident, $method:ident, $doc:literal;)*) => {
        /// The router: typed handlers per kind, observers and interceptors.
        #[derive(Default, Clone)]
        pub struct Router {
            observers: Vec<Arc<dyn Observer>>,
            others: Vec<(String, Arc<dyn Observer>)>,
            interceptors: Vec<Arc<dyn Interceptor>>,
            policy: PolicySource,
            tools: Option<ToolSelector>,
            backfill: bool,
            $($field: Vec<Arc<dyn Handler<$ev>>>,)*
        }

        impl Router {
            $(
                #[doc = concat!("Registers a handler for `", $dotted, "` events (stacks; see the module docs).")]
                #[must_use]
                pub fn $method<H: Handler<$ev>>(mut self, h: H) -> Self {
                    self.$field.push(Arc::new(h));
                    self
                }
            )*

            /// Visits every registered stage in dispatch order: observers, other-observers,
            /// interceptors (outermost first), then typed handlers grouped by kind.
            pub fn walk(&self, mut f: impl FnMut(StageInfo)) {
                for (i, o) in self.observers.iter().enumerate() {
                    f(StageInfo { kind: None, stage_type: StageType::Observer, name: o.name(), position: i, native: None });
                }
                for (i, (n, o)) in self.others.iter().enumerate() {
                    f(StageInfo { kind: Some(EventKind::Other), stage_type: StageType::OtherObserver, name: o.name(), position: i, native: Some(n.clone()) });
                }
                for (i, m) in self.interceptors.iter().enumerate() {
                    f(StageInfo { kind: None, stage_type: StageType::Interceptor, name: m.name(), position: i, native: None });
                }
                $(
                    for (i, h) in self.$field.iter().enumerate() {
                        f(StageInfo { kind: Some(EventKind::$kind_), stage_type: StageType::Handler, name: h.name(), position: i, native: None });
                    }
                )*
            }

            /// Whether any typed handler is registered for a kind.
            pub fn handles(&self, kind: EventKind) -> bool {
                $( if kind == EventKind::$kind_ && !self.$field.is_empty() { return true; } )*
                false
            }

            /// The union of the tool filters the kind's handlers declare (`None`: no handler,
            /// or one that runs for every tool).
            fn handler_filters(&self, kind: EventKind) -> Option<ToolSelector> {
                $( if kind == EventKind::$kind_ { return union_filters(self.$field.iter().map(|h| h.tool_filter())); } )*
                None
            }

            fn typed(&self, cx: &Context, ev: &Event) -> Result<Outcome, HandlerError> {
                Ok(match ev {
                    $( Event::$kind_(e) => stack(&self.$field, cx, e)?.into(), )*
                    _ => Outcome::Context(ContextDecision::none()),
                })
            }
        }
    };
}

crate::kind::for_each_kind!(router_kinds);

fn stack<E: Gated>(stages: &[Arc<dyn Handler<E>>], cx: &Context, ev: &E) -> Result<E::Decision, HandlerError> {
    first_conclusive(|sink| {
        for h in stages {
            if sink(h.handle(cx, ev)).is_break() {
                return;
            }
        }
    })
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut n = 0;
        self.walk(|_| n += 1);
        write!(f, "Router({n} stages)")
    }
}

impl Router {
    /// An empty router (every event answers neutral).
    pub fn new() -> Self {
        Self::default()
    }

    /// Opts in to backfilled prompts: where the agent skipped the prompt hook (Cursor CLI
    /// `-p`, `droid exec`), the runner synthesizes a reporting-only `prompt.submitted` from the session's
    /// transcript at its next event (`agenthooks_runtime::transcript::backfill`) and dispatches it here
    /// with no capabilities (its answer is dropped: it can never gate).
    #[must_use]
    pub fn backfill_prompts(mut self) -> Self {
        self.backfill = true;
        self
    }

    /// Whether [`Router::backfill_prompts`] is on.
    pub fn backfills_prompts(&self) -> bool {
        self.backfill
    }

    /// Sets the policy (fixed or per event).
    #[must_use]
    pub fn with_policy(mut self, p: impl Into<PolicySource>) -> Self {
        self.policy = p.into();
        self
    }

    /// The policy source.
    pub fn policy(&self) -> &PolicySource {
        &self.policy
    }

    /// Registers one handler for both tool gates: `tool.pre` and `permission.request` (it stacks
    /// with the handlers of each kind, in registration order). See [`ToolGate`].
    #[must_use]
    pub fn on_tool_gate<G: ToolGate>(mut self, g: G) -> Self {
        let g = Arc::new(g);
        self.tool_pre.push(Arc::new(GateAs(Arc::clone(&g))));
        self.permission.push(Arc::new(GateAs(g)));
        self
    }

    /// Declares the tools this router's tool handlers are for (`tool.pre`, `permission.request`,
    /// `tool.post`, `tool.error`): other tools get the neutral decision without running
    /// interceptors or handlers (observers still see them), and install compiles the filter into
    /// each agent's matcher (or passes it to the runner as `--tools=…` where the agent cannot
    /// express it).
    ///
    /// ```
    /// use agenthooks_core::prelude::*;
    /// use agenthooks_core::ToolSelector;
    /// let router = Router::new()
    ///     .for_tools(ToolSelector::default().with_class(CanonicalTool::Shell))
    ///     .on_tool_pre(|_cx: &Context, _e: &ToolPreEvent| deny("no"));
    /// assert_eq!(router.declared_tools(EventKind::ToolPre).unwrap().classes, [CanonicalTool::Shell]);
    /// ```
    #[must_use]
    pub fn for_tools(mut self, tools: ToolSelector) -> Self {
        self.tools = Some(tools);
        self
    }

    /// The tool filter declared for a kind: the router's [`Router::for_tools`], else the union
    /// of what its handlers declare ([`Handler::tool_filter`]). `None`: every tool (or a kind
    /// without tool calls).
    pub fn declared_tools(&self, kind: EventKind) -> Option<ToolSelector> {
        if !matches!(
            kind,
            EventKind::ToolPre | EventKind::ToolPost | EventKind::ToolError | EventKind::Permission
        ) {
            return None;
        }
        self.tools.clone().or_else(|| self.handler_filters(kind))
    }

    /// Whether the interceptors and handlers run for an event: always for events without a
    /// tool call; for tool calls, when the router's filter and `extra` both select it.
    pub fn selects(&self, ev: &Event, extra: Option<&ToolSelector>) -> bool {
        let Some(tool) = ev.tool() else {
            return true;
        };
        self.tools.as_ref().is_none_or(|s| s.matches(tool)) && extra.is_none_or(|s| s.matches(tool))
    }

    /// Whether dispatching `ev` runs any stage (an observer, an interceptor or a handler); when
    /// not, the runner skips the set-up handlers need (the stdout redirect, the deadline).
    pub fn runs_any(&self, ev: &Event, filter: Option<&ToolSelector>) -> bool {
        let native = ev.envelope().native.as_str();
        !self.observers.is_empty()
            || self.others.iter().any(|(n, _)| n == native)
            || (self.selects(ev, filter) && (!self.interceptors.is_empty() || self.handles(ev.kind())))
    }

    /// Registers an observer of every event (mapped or not). Never gates; errors are logged.
    #[must_use]
    pub fn on_any<O: Observer>(mut self, o: O) -> Self {
        self.observers.push(Arc::new(o));
        self
    }

    /// Registers an observer of one native event name (typically an unmapped one).
    #[must_use]
    pub fn on_other<O: Observer>(mut self, native: impl Into<String>, o: O) -> Self {
        self.others.push((native.into(), Arc::new(o)));
        self
    }

    /// Adds an interceptor; the first added is the outermost.
    #[must_use]
    pub fn layer<I: Interceptor>(mut self, i: I) -> Self {
        self.interceptors.push(Arc::new(i));
        self
    }

    /// Runs observers, interceptors and typed handlers; returns the winning decision with no
    /// wire encoding and no capability degradation. Panics in any stage become
    /// [`HandlerError::Panicked`].
    pub fn dispatch(&self, cx: &Context, ev: &mut Event) -> Result<Outcome, HandlerError> {
        self.dispatch_filtered(cx, ev, None)
    }

    /// [`Router::dispatch`] under an extra tool filter (the runner's `--tools`): observers see
    /// every event; for a tool event whose call neither the router's [`Router::for_tools`] nor
    /// `filter` selects, interceptors and handlers do not run and the kind's neutral decision
    /// is returned.
    pub fn dispatch_filtered(
        &self,
        cx: &Context,
        ev: &mut Event,
        filter: Option<&ToolSelector>,
    ) -> Result<Outcome, HandlerError> {
        match catch_unwind(AssertUnwindSafe(|| {
            self.observe(cx, ev);
            if !self.selects(ev, filter) {
                tracing::debug!(
                    tool = ev.tool().map_or("", |t| t.name.as_str()),
                    "tool outside the filter; handlers skipped"
                );
                return Ok(Outcome::neutral_for(ev.kind()));
            }
            self.run_from(0, cx, ev)
        })) {
            Ok(r) => r,
            Err(p) => Err(HandlerError::Panicked {
                message: panic_message(&*p),
            }),
        }
    }

    /// [`Router::dispatch`] with a default context (all capabilities, the router's policy).
    pub fn decide(&self, mut ev: Event) -> Result<Outcome, HandlerError> {
        let cx = Context {
            policy: self.policy.resolve(ev.envelope()),
            ..Context::default()
        };
        self.dispatch(&cx, &mut ev)
    }

    fn observe(&self, cx: &Context, ev: &Event) {
        for o in &self.observers {
            if let Err(e) = o.observe(cx, ev) {
                tracing::warn!(observer = o.name(), error = %e, "observer failed");
            }
        }
        let native = ev.envelope().native.as_str();
        for (n, o) in &self.others {
            if n == native {
                if let Err(e) = o.observe(cx, ev) {
                    tracing::warn!(observer = o.name(), error = %e, "observer failed");
                }
            }
        }
    }

    fn run_from(&self, index: usize, cx: &Context, ev: &mut Event) -> Result<Outcome, HandlerError> {
        if let Some(i) = self.interceptors.get(index) {
            return i.intercept(
                cx,
                ev,
                Next {
                    router: self,
                    index: index + 1,
                },
            );
        }
        self.typed(cx, ev)
    }
}

/// The text of a panic payload (what a handler's `panic!` said; the runtime's panic guard reports
/// it).
///
/// ```
/// let p = std::panic::catch_unwind(|| panic!("boom {}", 1)).unwrap_err();
/// assert_eq!(agenthooks_core::router::panic_message(p.as_ref()), "boom 1");
/// ```
pub fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_owned()
    }
}
