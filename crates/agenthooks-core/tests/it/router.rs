use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use agenthooks_core::decision::Rewrite;
use agenthooks_core::prelude::*;
use agenthooks_core::{boxed, Envelope, Event, Handler, NativeName, RawPayload, StageType};
use proptest::prelude::*;
use serde_json::json;

fn tool_event(name: &str, cmd: &str) -> ToolPreEvent {
    let env = Envelope::new(
        Provider::CLAUDE_CODE,
        NativeName::from_static("PreToolUse"),
        EventKind::ToolPre,
        RawPayload::from(b"{}".to_vec()),
    );
    let canonical = if name == "Bash" {
        CanonicalTool::Shell
    } else {
        CanonicalTool::Other
    };
    let tool = ToolCall::builder(name, json!({"command": cmd}))
        .class(canonical)
        .with_id("t1")
        .build(&env.session);
    ToolPreEvent::new(env, tool)
}

fn cx() -> Context {
    Context::default()
}

fn neutral(_: &Context, _: &ToolPreEvent) -> ToolPreDecision {
    no_decision()
}
fn ctx_a(_: &Context, _: &ToolPreEvent) -> ToolPreDecision {
    no_decision().with_context("a")
}
fn ctx_b(_: &Context, _: &ToolPreEvent) -> ToolPreDecision {
    no_decision().with_context("b").with_stop_agent("halt")
}
fn deny_x(_: &Context, _: &ToolPreEvent) -> ToolPreDecision {
    deny("x")
}
fn allow_y(_: &Context, _: &ToolPreEvent) -> ToolPreDecision {
    allow().with_context("y")
}
fn fails(_: &Context, _: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
    Err(HandlerError::msg("nope"))
}

fn decide(r: &Router, e: &ToolPreEvent) -> Result<Outcome, HandlerError> {
    r.decide(Event::ToolPre(e.clone()))
}

#[test]
fn stacking_table() {
    let e = tool_event("Bash", "ls");
    // (stages, expected kind, expected reason, expected context, expected stop)
    type Stage = fn(&Context, &ToolPreEvent) -> ToolPreDecision;
    let table: Vec<(Vec<Stage>, DecisionKind, Option<&str>, Vec<&str>, Option<&str>)> = vec![
        (vec![], DecisionKind::NoDecision, None, vec![], None),
        (vec![neutral], DecisionKind::NoDecision, None, vec![], None),
        (
            vec![ctx_a, ctx_b],
            DecisionKind::NoDecision,
            None,
            vec!["a", "b"],
            Some("halt"),
        ),
        (
            vec![ctx_a, deny_x, allow_y],
            DecisionKind::Deny,
            Some("x"),
            vec!["a"],
            None,
        ),
        (vec![allow_y, deny_x], DecisionKind::Allow, None, vec!["y"], None),
        (
            vec![ctx_b, allow_y],
            DecisionKind::Allow,
            None,
            vec!["b", "y"],
            Some("halt"),
        ),
    ];
    for (stages, kind, reason, ctx, stop) in table {
        let mut r = Router::new();
        for s in &stages {
            r = r.on_tool_pre(*s);
        }
        let o = decide(&r, &e).unwrap();
        assert_eq!(o.kind(), kind, "stages {}", stages.len());
        assert_eq!(o.reason(), reason);
        assert_eq!(o.context(), ctx.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(o.stop_reason(), stop);
    }
    // An error aborts the stack; later stages do not run.
    let hits = Arc::new(AtomicUsize::new(0));
    let h2 = Arc::clone(&hits);
    let r = Router::new()
        .on_tool_pre(fails)
        .on_tool_pre(move |_: &Context, _: &ToolPreEvent| {
            h2.fetch_add(1, Ordering::SeqCst);
            no_decision()
        });
    assert!(decide(&r, &e).is_err());
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

#[test]
fn neutral_rewrite_survives_stacking() {
    let mut m = serde_json::Map::new();
    m.insert("command".into(), json!("ls -la"));
    let m2 = m.clone();
    let r = Router::new()
        .on_tool_pre(ctx_a)
        .on_tool_pre(move |_: &Context, _: &ToolPreEvent| rewrite_input(m2.clone()).no_decision())
        .on_tool_pre(neutral);
    let o = decide(&r, &tool_event("Bash", "ls")).unwrap();
    assert_eq!(o.kind(), DecisionKind::NoDecision);
    assert_eq!(o.updated_input(), Some(&m));
    assert_eq!(o.context(), ["a"]);
}

#[test]
fn all_runs_everything_and_joins_errors() {
    let e = tool_event("Bash", "ls");
    let o = all((allow_y, ctx_a, deny_x)).handle(&cx(), &e).unwrap();
    assert_eq!(o.kind(), DecisionKind::Deny);
    assert_eq!(o.context(), ["y", "a"]);
    let err = all((fails, deny_x, fails)).handle(&cx(), &e).unwrap_err();
    match err {
        HandlerError::Joined(v) => assert_eq!(v.len(), 2),
        other => panic!("expected joined errors, got {other}"),
    }
    // any short-circuits on the first conclusive decision
    let o = agenthooks_core::any(vec![boxed(neutral), boxed(deny_x), boxed(fails)])
        .handle(&cx(), &e)
        .unwrap();
    assert_eq!(o.kind(), DecisionKind::Deny);
}

#[test]
fn when_guards_by_matcher() {
    let kind = |r: &Router, tool: &str, cmd: &str| decide(r, &tool_event(tool, cmd)).unwrap().kind();
    let r = Router::new().on_tool_pre(when(match_tools(["Bash"]), deny_x));
    assert_eq!(kind(&r, "Bash", "ls"), DecisionKind::Deny);
    assert_eq!(kind(&r, "Read", "ls"), DecisionKind::NoDecision);
    let r = Router::new().on_tool_pre(when(match_canonical([CanonicalTool::Shell]), deny_x));
    assert_eq!(kind(&r, "Bash", "ls"), DecisionKind::Deny);
    let r = Router::new().on_tool_pre(when(|t: &ToolCall| t.command() == Some("rm"), deny_x));
    assert_eq!(kind(&r, "Bash", "rm"), DecisionKind::Deny);
    assert_eq!(kind(&r, "Bash", "ls"), DecisionKind::NoDecision);
}

#[test]
fn interceptors_order_short_circuit_and_observers() {
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let (l1, l2, l3) = (Arc::clone(&log), Arc::clone(&log), Arc::clone(&log));
    let r = Router::new()
        .on_any(move |_: &Context, e: &Event| {
            l3.lock().unwrap().push(format!("observe {}", e.kind()));
            Ok(())
        })
        .on_any(|_: &Context, _: &Event| Err(HandlerError::msg("observer errors never gate")))
        .layer(move |cx: &Context, ev: &mut Event, next: Next<'_>| {
            l1.lock().unwrap().push("outer in".into());
            // rewrite the projection; raw stays
            if let Some(t) = ev.tool_mut() {
                t.input_mut().insert("command".into(), json!("rewritten"));
            }
            let o = next.run(cx, ev);
            l1.lock().unwrap().push("outer out".into());
            o
        })
        .layer(move |cx: &Context, ev: &mut Event, next: Next<'_>| {
            l2.lock().unwrap().push("inner".into());
            next.run(cx, ev)
        })
        .on_tool_pre(|_: &Context, e: &ToolPreEvent| {
            if e.tool.command() == Some("rewritten") {
                deny("saw rewrite")
            } else {
                no_decision()
            }
        });
    let o = decide(&r, &tool_event("Bash", "ls")).unwrap();
    assert_eq!(o.reason(), Some("saw rewrite"));
    assert_eq!(
        *log.lock().unwrap(),
        ["observe tool.pre", "outer in", "inner", "outer out"]
    );

    // Short-circuit: the handler never runs.
    let ran = Arc::new(AtomicUsize::new(0));
    let ran2 = Arc::clone(&ran);
    let r = Router::new()
        .layer(|_: &Context, _: &mut Event, _next: Next<'_>| Ok(Outcome::from(deny("short"))))
        .on_tool_pre(move |_: &Context, _: &ToolPreEvent| {
            ran2.fetch_add(1, Ordering::SeqCst);
            allow()
        });
    assert_eq!(decide(&r, &tool_event("Bash", "ls")).unwrap().reason(), Some("short"));
    assert_eq!(ran.load(Ordering::SeqCst), 0);
}

#[test]
fn panics_become_errors() {
    let r = Router::new()
        .on_tool_pre(|_: &Context, _: &ToolPreEvent| -> Result<ToolPreDecision, HandlerError> { panic!("kaboom") });
    match decide(&r, &tool_event("Bash", "ls")) {
        Err(HandlerError::Panicked { message }) => assert_eq!(message, "kaboom"),
        other => panic!("expected a panic error, got {other:?}"),
    }
}

#[test]
fn walk_order_and_names() {
    let r = Router::new()
        .on_stop(|_: &Context, _: &StopEvent| finish())
        .on_tool_pre(deny_x)
        .on_tool_pre(allow_y)
        .on_other("TaskCreated", |_: &Context, _: &Event| Ok(()))
        .layer(|cx: &Context, ev: &mut Event, next: Next<'_>| next.run(cx, ev))
        .on_any(|_: &Context, _: &Event| Ok(()));
    let mut seen = Vec::new();
    r.walk(|s| seen.push((s.stage_type, s.kind, s.position, s.name.to_owned())));
    let types: Vec<_> = seen.iter().map(|s| s.0).collect();
    assert_eq!(
        types,
        [
            StageType::Observer,
            StageType::OtherObserver,
            StageType::Interceptor,
            StageType::Handler,
            StageType::Handler,
            StageType::Handler
        ]
    );
    // typed handlers grouped by kind in EventKind order: tool.pre before agent.stop
    assert_eq!(seen[3].1, Some(EventKind::ToolPre));
    assert_eq!(seen[4].1, Some(EventKind::ToolPre));
    assert_eq!(seen[4].2, 1);
    assert_eq!(seen[5].1, Some(EventKind::Stop));
    assert!(seen[3].3.ends_with("deny_x"), "{}", seen[3].3);
    assert!(r.handles(EventKind::Stop) && !r.handles(EventKind::ToolPost));
}

#[test]
fn other_events_reach_observers_only() {
    let hits = Arc::new(AtomicUsize::new(0));
    let h = Arc::clone(&hits);
    let r = Router::new().on_other("TaskCreated", move |_: &Context, e: &Event| {
        assert_eq!(e.envelope().raw().as_bytes(), b"{\"x\":1}");
        h.fetch_add(1, Ordering::SeqCst);
        Ok(())
    });
    let env = Envelope::new(
        Provider::CLAUDE_CODE,
        NativeName::from_static("TaskCreated"),
        EventKind::Other,
        RawPayload::from(b"{\"x\":1}".to_vec()),
    );
    let o = r.decide(Event::Other(agenthooks_core::OtherEvent::new(env))).unwrap();
    assert!(o.is_bare_neutral());
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

// ---- model test: any/all against a plain fold ----

#[derive(Debug, Clone, Copy)]
enum Spec {
    Neutral(Option<u8>),
    Allow(Option<u8>),
    Ask(Option<u8>),
    Deny(u8, Option<u8>),
    Fail,
}

fn spec() -> impl Strategy<Value = Spec> {
    let c = proptest::option::of(0u8..4);
    prop_oneof![
        c.clone().prop_map(Spec::Neutral),
        c.clone().prop_map(Spec::Allow),
        c.clone().prop_map(Spec::Ask),
        (0u8..4, c).prop_map(|(r, c)| Spec::Deny(r, c)),
        Just(Spec::Fail),
    ]
}

fn realize(s: Spec) -> Result<ToolPreDecision, HandlerError> {
    let ctx = |d: ToolPreDecision, c: Option<u8>| match c {
        Some(c) => d.with_context(format!("c{c}")),
        None => d,
    };
    match s {
        Spec::Neutral(c) => Ok(ctx(no_decision(), c)),
        Spec::Allow(c) => Ok(ctx(allow(), c)),
        Spec::Ask(c) => Ok(ctx(ask_user("q"), c)),
        Spec::Deny(r, c) => Ok(ctx(deny(format!("r{r}")), c)),
        Spec::Fail => Err(HandlerError::msg("f")),
    }
}

struct SpecHandler(Spec);
impl Handler<ToolPreEvent> for SpecHandler {
    fn handle(&self, _: &Context, _: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
        realize(self.0)
    }
}

fn rank(k: DecisionKind) -> u8 {
    match k {
        DecisionKind::Deny => 3,
        DecisionKind::Ask => 2,
        DecisionKind::Allow => 1,
        _ => 0,
    }
}

proptest! {
    #[test]
    fn any_matches_fold(specs in proptest::collection::vec(spec(), 0..6)) {
        let e = tool_event("Bash", "ls");
        let got = agenthooks_core::any(specs.iter().map(|s| SpecHandler(*s)).collect::<Vec<_>>()).handle(&cx(), &e);
        // model: walk in order; error aborts; first conclusive wins with prior neutral contexts
        let mut ctx: Vec<String> = Vec::new();
        let mut expected: Option<Result<(DecisionKind, Option<String>, Vec<String>), ()>> = None;
        for s in &specs {
            match realize(*s) {
                Err(_) => { expected = Some(Err(())); break; }
                Ok(d) if d.kind() != DecisionKind::NoDecision => {
                    let mut c = ctx.clone();
                    c.extend(d.context().iter().cloned());
                    expected = Some(Ok((d.kind(), d.reason().map(str::to_owned), c)));
                    break;
                }
                Ok(d) => ctx.extend(d.context().iter().cloned()),
            }
        }
        let expected = expected.unwrap_or(Ok((DecisionKind::NoDecision, None, ctx)));
        match (got, expected) {
            (Err(_), Err(())) => {}
            (Ok(d), Ok((k, r, c))) => {
                prop_assert_eq!(d.kind(), k);
                prop_assert_eq!(d.reason().map(str::to_owned), r);
                prop_assert_eq!(d.context().to_vec(), c);
            }
            (g, x) => prop_assert!(false, "got {:?}, expected {:?}", g, x),
        }
    }

    #[test]
    fn all_matches_fold(specs in proptest::collection::vec(spec(), 0..6)) {
        let e = tool_event("Bash", "ls");
        let got = all(specs.iter().map(|s| SpecHandler(*s)).collect::<Vec<_>>()).handle(&cx(), &e);
        let results: Vec<_> = specs.iter().map(|s| realize(*s)).collect();
        let errors = results.iter().filter(|r| r.is_err()).count();
        if errors > 0 {
            match got {
                Err(HandlerError::Joined(v)) => prop_assert_eq!(v.len(), errors),
                Err(_) => prop_assert_eq!(errors, 1),
                Ok(d) => prop_assert!(false, "expected error, got {:?}", d),
            }
        } else {
            let ds: Vec<ToolPreDecision> = results.into_iter().map(Result::unwrap).collect();
            let mut best: Option<&ToolPreDecision> = None;
            for d in &ds {
                if best.is_none_or(|b| rank(d.kind()) > rank(b.kind())) { best = Some(d); }
            }
            let d = got.unwrap();
            let all_ctx: Vec<String> = ds.iter().flat_map(|d| d.context().to_vec()).collect();
            prop_assert_eq!(d.context().to_vec(), all_ctx);
            match best {
                None => prop_assert_eq!(d.kind(), DecisionKind::NoDecision),
                Some(b) => {
                    prop_assert_eq!(d.kind(), b.kind());
                    prop_assert_eq!(d.reason(), b.reason());
                }
            }
        }
    }
}

fn permission_event(cmd: &str) -> PermissionEvent {
    let t = tool_event("Bash", cmd);
    let mut env = t.envelope.clone();
    env.kind = EventKind::Permission;
    PermissionEvent::new(env, t.tool)
}

fn decide_event(r: &Router, e: Event) -> Outcome {
    r.dispatch(&cx(), &mut { e }).unwrap()
}

#[test]
fn handlers_return_the_decision_or_a_result() {
    #[derive(Debug)]
    struct Unreadable;
    impl From<Unreadable> for HandlerError {
        fn from(_: Unreadable) -> Self {
            HandlerError::msg("unreadable")
        }
    }
    fn own_error(_: &Context, e: &ToolPreEvent) -> Result<ToolPreDecision, Unreadable> {
        if e.tool.command() == Some("fail") {
            return Err(Unreadable);
        }
        Ok(no_decision())
    }
    fn infallible(_: &Context, _: &ToolPreEvent) -> ToolPreDecision {
        deny("plain")
    }
    fn rewrites(_: &Context, _: &ToolPreEvent) -> Rewrite {
        rewrite_input(serde_json::Map::new())
    }
    let r = Router::new().on_tool_pre(own_error).on_tool_pre(infallible);
    assert_eq!(decide(&r, &tool_event("Bash", "ls")).unwrap().reason(), Some("plain"));
    let e = decide(&r, &tool_event("Bash", "fail")).unwrap_err();
    assert!(e.to_string().contains("unreadable"), "{e}");
    // The old form keeps compiling.
    let r = Router::new().on_tool_pre(|_: &Context, _: &ToolPreEvent| Ok::<_, HandlerError>(allow()));
    assert_eq!(
        decide(&r, &tool_event("Bash", "ls")).unwrap().kind(),
        DecisionKind::Allow
    );
    // A closure that can fail infers its error from the `Err` arm.
    let r = Router::new().on_tool_pre(|_: &Context, e: &ToolPreEvent| {
        if e.tool.command() == Some("ls") {
            Ok(allow())
        } else {
            Err(HandlerError::msg("no"))
        }
    });
    assert!(decide(&r, &tool_event("Bash", "rm")).is_err());
    let r = Router::new().on_tool_pre(rewrites);
    assert!(decide(&r, &tool_event("Bash", "ls")).unwrap().updated_input().is_some());
}

#[test]
fn a_tool_gate_serves_both_kinds() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = Arc::clone(&seen);
    let r = Router::new().on_tool_gate(move |_: &Context, g: ToolGateEvent<'_>| {
        s2.lock()
            .unwrap()
            .push((g.kind(), g.is_permission(), g.envelope().kind));
        if g.tool().command() == Some("curl") {
            ask_user(format!("{} wants the network", g.tool().name))
        } else {
            no_decision()
        }
    });
    assert!(r.handles(EventKind::ToolPre) && r.handles(EventKind::Permission));
    let o = decide_event(&r, Event::ToolPre(tool_event("Bash", "curl")));
    assert_eq!(
        (o.kind(), o.reason()),
        (DecisionKind::Ask, Some("Bash wants the network"))
    );
    let o = decide_event(&r, Event::Permission(permission_event("curl")));
    assert_eq!(o.kind(), DecisionKind::Ask);
    assert!(decide_event(&r, Event::Permission(permission_event("ls"))).is_bare_neutral());
    assert_eq!(
        *seen.lock().unwrap(),
        [
            (EventKind::ToolPre, false, EventKind::ToolPre),
            (EventKind::Permission, true, EventKind::Permission),
            (EventKind::Permission, true, EventKind::Permission),
        ]
    );
    // It stacks with each kind's handlers, in registration order, and reports its own name.
    fn gate(_: &Context, _: ToolGateEvent<'_>) -> ToolPreDecision {
        deny("gate")
    }
    let r = Router::new()
        .on_permission(|_: &Context, _: &PermissionEvent| no_decision().with_context("first"))
        .on_tool_gate(when(match_tools(["Bash"]), gate));
    let o = decide_event(&r, Event::Permission(permission_event("ls")));
    assert_eq!((o.reason(), o.context()), (Some("gate"), &["first".to_owned()][..]));
    let o = decide_event(&r, Event::ToolPre(tool_event("Read", "ls")));
    assert!(o.is_bare_neutral());
    let mut names = Vec::new();
    r.walk(|s| names.push((s.kind, s.name)));
    assert!(
        names.iter().filter(|(_, n)| n.ends_with("::gate")).count() == 2,
        "{names:?}"
    );
}

#[test]
fn declared_tool_filters_come_from_when_guards_and_for_tools() {
    use agenthooks_core::ToolSelector;
    let shell = ToolSelector::default().with_class(CanonicalTool::Shell);
    let r = Router::new()
        .on_tool_pre(when(match_canonical([CanonicalTool::Shell]), deny_x))
        .on_tool_pre(when(match_tools(["Write"]), deny_x))
        .on_tool_post(|_cx: &Context, _e: &ToolPostEvent| observed());
    let pre = r.declared_tools(EventKind::ToolPre).unwrap();
    assert_eq!(
        (pre.classes.as_slice(), pre.names.as_slice()),
        (&[CanonicalTool::Shell][..], &["Write".to_owned()][..])
    );
    // an unguarded handler runs for every tool; a kind without tool calls declares nothing
    assert!(r.declared_tools(EventKind::ToolPost).is_none());
    assert!(r.declared_tools(EventKind::Stop).is_none());
    // a glob name and a closure matcher are not declarable
    let r2 = Router::new().on_tool_pre(when(match_tools(["mcp__*"]), deny_x));
    assert!(r2.declared_tools(EventKind::ToolPre).is_none());
    let r3 = Router::new().on_tool_pre(when(|t: &ToolCall| t.name.len() > 3, deny_x));
    assert!(r3.declared_tools(EventKind::ToolPre).is_none());
    // a gate's guard declares both kinds; combinators unite
    let g = Router::new().on_tool_gate(when(
        match_mcp("github", "*"),
        |_cx: &Context, _g: ToolGateEvent<'_>| deny("m"),
    ));
    assert_eq!(
        g.declared_tools(EventKind::Permission).unwrap().mcp,
        [("github".to_owned(), "*".to_owned())]
    );
    let c = Router::new().on_tool_pre(agenthooks_core::any((
        when(match_tools(["A"]), deny_x),
        when(match_canonical([CanonicalTool::Shell]), deny_x),
    )));
    assert_eq!(
        c.declared_tools(EventKind::ToolPre).unwrap().to_string(),
        "name:A,class:shell"
    );
    let for_tools = r.clone().for_tools(shell.clone());
    assert_eq!(for_tools.declared_tools(EventKind::ToolPost), Some(shell));
}

#[test]
fn filters_skip_handlers_but_not_observers() {
    use agenthooks_core::ToolSelector;
    let seen = Arc::new(AtomicUsize::new(0));
    let ran = Arc::new(AtomicUsize::new(0));
    let (s, h) = (Arc::clone(&seen), Arc::clone(&ran));
    let r = Router::new()
        .on_any(move |_cx: &Context, _e: &Event| {
            s.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
        .on_tool_pre(move |_cx: &Context, _e: &ToolPreEvent| {
            h.fetch_add(1, Ordering::SeqCst);
            deny("x")
        });
    let only_write = ToolSelector::default().with_name("Write");
    let mut ev = Event::ToolPre(tool_event("Bash", "ls"));
    let out = r.dispatch_filtered(&cx(), &mut ev, Some(&only_write)).unwrap();
    assert_eq!(out.kind(), DecisionKind::NoDecision);
    assert_eq!((seen.load(Ordering::SeqCst), ran.load(Ordering::SeqCst)), (1, 0));
    let shell = ToolSelector::default().with_class(CanonicalTool::Shell);
    let out = r.dispatch_filtered(&cx(), &mut ev, Some(&shell)).unwrap();
    assert_eq!(out.kind(), DecisionKind::Deny);
    // the router's own filter works the same way
    let out = r.clone().for_tools(only_write).dispatch(&cx(), &mut ev).unwrap();
    assert_eq!(out.kind(), DecisionKind::NoDecision);
    assert_eq!((seen.load(Ordering::SeqCst), ran.load(Ordering::SeqCst)), (3, 1));
}
