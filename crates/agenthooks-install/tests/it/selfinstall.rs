//! The hook binary installs itself: manifests derived from routers, the runner's in-process
//! tool filter per agent, and re-install after a router change.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use agenthooks_core::decision::ContextDecision;
use agenthooks_core::prelude::*;
use agenthooks_core::{CapSet, Codec, Envelope, PolicySource};
use agenthooks_install::{
    manifest_from_router, native_events_for, plan_install, plan_uninstall, preflight, render, supported_providers,
    FindingCode, HookOn, HookSpec, Manifest, MemFs, Target, ToolMatcher,
};
use agenthooks_testkit::fake::Effect;
use agenthooks_testkit::harness::HookRun;
use agenthooks_testkit::{fixture::load_all, fixtures_dir};
use proptest::prelude::*;

use crate::common::apply;

const ROOT: &str = "/p";
const HOME: &str = "/h";
const GUARD: &str = "/opt/guard";

/// The bridges: one `serve` process for every hook, so no per-hook argv (no `--event`; the
/// in-process `--tools` filter rides on each frame instead).
fn is_bridge(p: &Provider) -> bool {
    *p == Provider::OPENCODE || *p == Provider::OPENCLAW
}

fn codec(p: &Provider) -> &'static dyn Codec {
    let all: [&'static dyn Codec; 10] = [
        &agenthooks_claude::CODEC,
        &agenthooks_cursor::CODEC,
        &agenthooks_codex::CODEC,
        &agenthooks_gemini::CODEC,
        &agenthooks_copilot::CODEC,
        &agenthooks_kimi::CODEC,
        &agenthooks_opencode::CODEC,
        &agenthooks_openclaw::CODEC,
        &agenthooks_qwen::CODEC,
        &agenthooks_droid::CODEC,
    ];
    all.into_iter()
        .find(|c| c.provider() == *p)
        .expect("a codec per install target")
}

/// The target a test installs to: project scope where the agent has it, else user.
fn target(p: &Provider) -> Target {
    let t = Target::project(p.clone(), ROOT, HOME);
    if render(&Manifest::new([GUARD], "guard"), &t).is_ok() {
        t
    } else {
        Target::user(p.clone(), HOME)
    }
}

/// The native events a manifest is installed on for a target.
fn installed_natives(m: &Manifest, t: &Target) -> BTreeSet<String> {
    let caps = |_: &Provider, _: &str| CapSet::EMPTY;
    let r = preflight(m, std::slice::from_ref(t), &caps);
    assert!(r.targets[0].error.is_none(), "{t}: {:?}", r.targets[0].error);
    r.targets[0]
        .hooks
        .iter()
        .flat_map(|h| h.native_events.iter().cloned())
        .collect()
}

fn expected_natives(p: &Provider, kinds: &[EventKind]) -> BTreeSet<String> {
    kinds
        .iter()
        .flat_map(|k| native_events_for(p, *k))
        .map(str::to_owned)
        .collect()
}

/// The `--event=NATIVE` words of the rendered files (command-line agents).
fn rendered_events(m: &Manifest, t: &Target) -> BTreeSet<String> {
    let r = render(m, t).unwrap();
    let mut out = BTreeSet::new();
    for f in &r.files {
        for (i, _) in f.contents.match_indices("--event=") {
            let rest = &f.contents[i + "--event=".len()..];
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '"' || c == '\'')
                .unwrap_or(rest.len());
            out.insert(rest[..end].to_owned());
        }
    }
    out
}

fn only_three() -> Router {
    Router::new()
        .on_tool_pre(|_cx: &Context, _e: &ToolPreEvent| deny("no"))
        .on_prompt_submitted(|_cx: &Context, _e: &PromptEvent| accept_prompt().with_context("c"))
        .on_session_start(|_cx: &Context, _e: &SessionStartEvent| ContextDecision::none())
}

#[test]
fn a_router_renders_exactly_its_kinds_per_agent() {
    let kinds = [EventKind::ToolPre, EventKind::PromptSubmitted, EventKind::SessionStart];
    let m = manifest_from_router(&only_three(), [GUARD]);
    assert_eq!(m.hooks.len(), 3);
    // each can change something (session.start adds context): all blocking
    assert!(m.hooks.iter().all(|h| h.blocking));
    // the tool gate serves permission.request too
    let gated = manifest_from_router(
        &Router::new()
            .on_tool_gate(|_cx: &Context, _g: ToolGateEvent<'_>| deny("no"))
            .on_prompt_submitted(|_cx: &Context, _e: &PromptEvent| accept_prompt())
            .on_session_start(|_cx: &Context, _e: &SessionStartEvent| ContextDecision::none()),
        [GUARD],
    );
    let gated_kinds = [kinds.as_slice(), &[EventKind::Permission]].concat();
    for p in supported_providers() {
        let t = target(&p);
        let want = expected_natives(&p, &kinds);
        assert!(!want.is_empty(), "{p}");
        assert_eq!(installed_natives(&m, &t), want, "{p}");
        assert_eq!(installed_natives(&gated, &t), expected_natives(&p, &gated_kinds), "{p}");
        if !is_bridge(&p) {
            // the files themselves: one command per native event, nothing else
            assert_eq!(rendered_events(&m, &t), want, "{p}");
        }
    }
    let perm = native_events_for(&Provider::CLAUDE_CODE, EventKind::Permission);
    assert!(!installed_natives(&m, &target(&Provider::CLAUDE_CODE)).contains(perm[0]));
}

#[test]
fn observers_add_telemetry_hooks() {
    let r = Router::new()
        .on_tool_pre(|_cx: &Context, _e: &ToolPreEvent| deny("no"))
        .on_any(|_cx: &Context, _e: &Event| Ok(()));
    let m = manifest_from_router(&r, [GUARD]);
    assert_eq!(m.hooks.len(), EventKind::ALL.len() - 1);
    assert!(m
        .hooks
        .iter()
        .all(|h| h.blocking == (h.on == agenthooks_install::HookOn::Kind(EventKind::ToolPre))));
    // on_other(native): that event, on the agents that have it, as telemetry
    let r = Router::new().on_other("PostToolBatch", |_cx: &Context, _e: &Event| Ok(()));
    let m = manifest_from_router(&r, [GUARD]);
    let t = target(&Provider::CLAUDE_CODE);
    if agenthooks_claude::CODEC
        .native_events()
        .iter()
        .any(|e| e.name == "PostToolBatch")
    {
        assert_eq!(installed_natives(&m, &t), BTreeSet::from(["PostToolBatch".to_owned()]));
        assert!(m.hooks.iter().all(|h| !h.blocking));
    }
    assert!(installed_natives(&m, &target(&Provider::GEMINI)).is_empty());
}

#[test]
fn declared_filters_compile_to_each_dialect() {
    let r = Router::new().on_tool_pre(when(
        match_canonical([CanonicalTool::Shell]),
        |_cx: &Context, _e: &ToolPreEvent| deny("no"),
    ));
    let m = manifest_from_router(&r, [GUARD]);
    assert_eq!(m.hooks[0].tools, ToolMatcher::class(CanonicalTool::Shell));
    let claude = render(&m, &target(&Provider::CLAUDE_CODE)).unwrap();
    assert!(
        claude.files[0].contents.contains("\"matcher\": \"Bash|"),
        "{}",
        claude.files[0].contents
    );
    // the manifest prints as TOML and reads back
    assert_eq!(Manifest::from_toml(&m.to_toml()).unwrap(), m);
}

/// How an agent's config spells its fail-closed knob, for the agents that have one (Copilot's
/// preToolUse fails closed by itself, with nothing in the config).
fn knob(p: &Provider) -> Option<&'static str> {
    match p.as_str() {
        "claude-code" => Some("\"onFailure\": \"block\""),
        "cursor" => Some("\"failClosed\": true"),
        // the generated plugins' config slot (one line of JSON)
        "openclaw" => Some("\"failClosed\":true"),
        "opencode" => Some("\"fail\":\"closed\""),
        _ => None,
    }
}

#[test]
fn fail_closed_renders_the_agents_knob_or_preflight_says_none() {
    let r = only_three().with_policy(Policy::default().fail_closed());
    let m = manifest_from_router(&r, [GUARD]);
    assert_eq!(m.failure, agenthooks_install::FailurePolicy::Closed);
    let open = manifest_from_router(&only_three(), [GUARD]);
    let caps = |_: &Provider, _: &str| CapSet::EMPTY;
    for p in supported_providers() {
        let t = target(&p);
        let closed = render(&m, &t).unwrap();
        let rep = preflight(&m, std::slice::from_ref(&t), &caps);
        let codes: Vec<FindingCode> = rep.targets[0].findings.iter().map(|f| f.code).collect();
        let native = codes.contains(&FindingCode::FailClosedNative);
        let unsupported = codes.contains(&FindingCode::FailClosedUnsupported);
        assert!(
            native || unsupported,
            "{p}: preflight says nothing about fail-closed: {codes:?}"
        );
        let differs = closed.files != render(&open, &t).unwrap().files;
        match knob(&p) {
            Some(k) => {
                assert!(native && differs, "{p}: the knob is not rendered");
                assert!(closed.files.iter().any(|f| f.contents.contains(k)), "{p}: no {k}");
            }
            // no knob: preflight says so (Copilot's preToolUse fails closed by itself)
            None => {
                assert!(unsupported, "{p}: preflight does not say fail-closed is unavailable");
                assert!(!differs, "{p}: no knob, yet the files changed");
            }
        }
    }
    // Claude's knob, spelled out
    let claude = render(&m, &target(&Provider::CLAUDE_CODE)).unwrap();
    assert!(claude.files[0].contents.contains("\"onFailure\": \"block\""));
}

/// The fail-closed findings of a preflight: `(native event, whether the agent has a knob)`.
fn fail_closed_findings(m: &Manifest, t: &Target) -> BTreeSet<(String, bool)> {
    let caps = |_: &Provider, _: &str| CapSet::EMPTY;
    let rep = preflight(m, std::slice::from_ref(t), &caps);
    rep.targets[0]
        .findings
        .iter()
        .filter(|f| {
            matches!(
                f.code,
                FindingCode::FailClosedNative | FindingCode::FailClosedUnsupported
            )
        })
        .map(|f| {
            (
                f.native_event.clone().unwrap_or_default(),
                f.code == FindingCode::FailClosedNative,
            )
        })
        .collect()
}

#[test]
fn a_per_event_fail_policy_is_rendered_per_event() {
    // closed for tool calls, open for prompts: the tool gate's entries get each agent's knob (or
    // preflight says the agent has none), the prompt's entries stay as a fail-open router's
    let closed_tools = PolicySource::per_event(|e: &Envelope| {
        if e.kind == EventKind::ToolPre {
            Policy::default().fail_closed()
        } else {
            Policy::default()
        }
    });
    let router = || {
        Router::new()
            .on_tool_pre(|_cx: &Context, _e: &ToolPreEvent| deny("no"))
            .on_prompt_submitted(|_cx: &Context, _e: &PromptEvent| accept_prompt())
    };
    let m = manifest_from_router(&router().with_policy(closed_tools), [GUARD]);
    assert_eq!(m.failure, agenthooks_install::FailurePolicy::Open);
    let failure = |k: EventKind| m.hooks.iter().find(|h| h.on == HookOn::Kind(k)).unwrap().failure;
    assert_eq!(
        failure(EventKind::ToolPre),
        Some(agenthooks_install::FailurePolicy::Closed)
    );
    assert_eq!(failure(EventKind::PromptSubmitted), None);
    // the manifest says it in TOML too
    assert_eq!(Manifest::from_toml(&m.to_toml()).unwrap(), m);
    let all_closed = manifest_from_router(&router().with_policy(Policy::default().fail_closed()), [GUARD]);
    let open = manifest_from_router(&router(), [GUARD]);
    for p in supported_providers() {
        let t = target(&p);
        let tool_natives = expected_natives(&p, &[EventKind::ToolPre]);
        let got = fail_closed_findings(&m, &t);
        // exactly the tool.pre natives, each with the verdict a fixed fail-closed router gets
        let want: BTreeSet<(String, bool)> = fail_closed_findings(&all_closed, &t)
            .into_iter()
            .filter(|(n, _)| tool_natives.contains(n))
            .collect();
        assert!(
            !got.is_empty(),
            "{p}: preflight says nothing about the fail-closed tool gate"
        );
        assert_eq!(got, want, "{p}");
        // the files: the knob where the agent has one, nothing changed where it has none
        let files = render(&m, &t).unwrap().files;
        assert_eq!(files != render(&open, &t).unwrap().files, knob(&p).is_some(), "{p}");
        if let Some(k) = knob(&p) {
            assert!(files.iter().any(|f| f.contents.contains(k)), "{p}: no {k}");
            // not on the prompt: the files are not a fixed fail-closed router's
            assert_ne!(
                files,
                render(&all_closed, &t).unwrap().files,
                "{p}: the prompt got the knob"
            );
        }
    }
    // a policy closed on one agent only: native hooks carry it there, other agents stay open
    let claude_only = PolicySource::per_event(|e: &Envelope| {
        if e.provider == Provider::CLAUDE_CODE {
            Policy::default().fail_closed()
        } else {
            Policy::default()
        }
    });
    let m = manifest_from_router(&router().with_policy(claude_only), [GUARD]);
    assert!(m
        .hooks
        .iter()
        .any(|h| matches!(&h.on, HookOn::Native { provider, .. } if *provider == Provider::CLAUDE_CODE)));
    let claude = render(&m, &target(&Provider::CLAUDE_CODE)).unwrap();
    assert!(
        claude.files[0].contents.contains("\"onFailure\": \"block\""),
        "{}",
        claude.files[0].contents
    );
    for p in [Provider::CURSOR, Provider::OPENCODE] {
        let t = target(&p);
        assert_eq!(render(&m, &t).unwrap().files, render(&open, &t).unwrap().files, "{p}");
    }
}

/// A tool.pre payload of `p` whose tool is not of the `other` class, with its fixture.
fn tool_pre_case(p: &Provider, native: &str) -> Option<(agenthooks_testkit::Fixture, ToolCall)> {
    let c = codec(p);
    load_all(&fixtures_dir(p.as_str())).ok()?.into_iter().find_map(|fx| {
        if fx.meta.native_event != native {
            return None;
        }
        let ev = fx.decode(c).ok()?;
        match ev {
            Event::ToolPre(e) if e.tool.canonical != CanonicalTool::Other => Some((fx, e.tool)),
            _ => None,
        }
    })
}

/// Counts one call.
#[allow(clippy::unnecessary_wraps)] // an observer returns a Result
fn tick(c: &AtomicUsize) -> Result<(), HandlerError> {
    c.fetch_add(1, Ordering::SeqCst);
    Ok(())
}

/// An `on_any` observer and a denying `on_tool_pre` handler, with their call counts
/// `[observed, handled]`.
fn counting_router() -> (Router, Arc<[AtomicUsize; 2]>) {
    let counts = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
    let (c1, c2) = (Arc::clone(&counts), Arc::clone(&counts));
    let router = Router::new()
        .on_any(move |_cx: &Context, _e: &Event| tick(&c1[0]))
        .on_tool_pre(move |_cx: &Context, _e: &ToolPreEvent| tick(&c2[1]).map(|()| deny("blocked")));
    (router, counts)
}

/// The runner words of the rendered command for `native` (after `agenthooks run`).
fn rendered_args(m: &Manifest, t: &Target, native: &str) -> Vec<String> {
    let r = render(m, t).unwrap();
    let needle = format!("--event={native} ");
    for f in &r.files {
        for (i, _) in f.contents.match_indices("agenthooks run ") {
            let rest = &f.contents[i + "agenthooks run ".len()..];
            let end = rest.find(['"', '\n']).unwrap_or(rest.len());
            let words = &rest[..end];
            if words.contains(&needle) {
                return words.split_whitespace().map(str::to_owned).collect();
            }
        }
    }
    panic!("{t}: no command for {native}");
}

#[test]
fn broadened_matchers_are_filtered_by_the_runner_per_agent() {
    // `other` can be expressed in no agent's matcher: the hook runs for every tool and the
    // command carries the filter.
    let m = Manifest::new([GUARD], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::class(CanonicalTool::Other)));
    let mut checked = 0;
    for p in supported_providers() {
        if is_bridge(&p) {
            continue;
        }
        let t = target(&p);
        let native = native_events_for(&p, EventKind::ToolPre)[0];
        let args = rendered_args(&m, &t, native);
        assert!(args.contains(&"--tools=class:other".to_owned()), "{p}: {args:?}");
        let Some((fx, tool)) = tool_pre_case(&p, native) else {
            panic!("{p}: no {native} fixture with a classified tool");
        };
        let (router, counts) = counting_router();
        let count = |i: usize| counts[i].load(Ordering::SeqCst);
        let env = fx.env_map();
        let variant = fx.variant();
        let run = |argv: &[String]| {
            // The call `run` builds from this argv: its `--tools` filter and the hints.
            let call = agenthooks_runtime::Call::new(fx.input.clone())
                .with_filter(agenthooks_runtime::tools_filter(argv))
                .with_native(Some(native.to_owned()))
                .with_variant(variant.clone());
            let state = agenthooks_testkit::harness::TempState::new();
            let runner = agenthooks_runtime::Runner::new(router.clone(), vec![codec(&p)])
                .with_options(agenthooks_runtime::RunOptions::default().with_state_dir(state.path()));
            let invoked = runner.invoke_call(codec(&p), &call, &env, fx.meta.transport);
            HookRun::new(invoked, codec(&p), fx.input.clone(), Some(native.to_owned())).verdict()
        };
        // outside the filter: handlers skipped, the neutral shape, the agent proceeds
        let v = run(&args);
        assert_eq!(v.effect, Effect::Proceed, "{p}: {v:?}");
        assert!(!v.misbehaved(), "{p}: {v:?}");
        assert_eq!((count(1), count(0)), (0, 1), "{p}");
        // inside it: the handler runs and the agent blocks
        let inside: Vec<String> = args
            .iter()
            .map(|a| {
                if a.starts_with("--tools=") {
                    format!("--tools=class:{}", tool.canonical.as_str())
                } else {
                    a.clone()
                }
            })
            .collect();
        let v = run(&inside);
        assert_eq!(count(1), 1, "{p}");
        assert!(matches!(v.effect, Effect::Denied { .. }), "{p}: {v:?}");
        checked += 1;
    }
    assert!(checked >= 6);
}

/// The in-process filter the rendered bridge (OpenCode's shim, OpenClaw's plugin) sends on the
/// frames of `native`.
fn bridge_tools(m: &Manifest, t: &Target, native: &str) -> Option<String> {
    let r = render(m, t).unwrap();
    r.files.iter().find_map(|f| {
        if let Some(cfg) = agenthooks_opencode::shim::parse(&f.contents) {
            return cfg.hooks.into_iter().find(|s| s.name == native)?.tools;
        }
        let cfg = agenthooks_openclaw::plugin::parse(&f.contents)?;
        cfg.hooks.into_iter().find(|h| h.hook == native)?.tools
    })
}

/// One frame through `agenthooks serve` with `router`: the reply frame, as the bridge's fake
/// agent reads it (OpenCode's shim hands it the reply envelope; OpenClaw's plugin the `output`).
fn serve_frame(
    router: &Router,
    p: &Provider,
    native: &str,
    frame: &serde_json::Value,
) -> agenthooks_testkit::fake::Verdict {
    let state = agenthooks_testkit::harness::TempState::new();
    let runner = agenthooks_runtime::Runner::new(router.clone(), vec![codec(p)])
        .with_options(agenthooks_runtime::RunOptions::default().with_state_dir(state.path()));
    let env: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let replies = agenthooks_runtime::serve_frames(&runner, codec(p), format!("{frame}\n").as_bytes(), &env);
    let [mut reply] = <[serde_json::Value; 1]>::try_from(replies).expect("one reply frame");
    reply.as_object_mut().unwrap().remove("seq");
    let (code, stdout) = if *p == Provider::OPENCLAW {
        let code = i32::from(reply.get("error").is_some());
        (code, reply.get("output").map(ToString::to_string).unwrap_or_default())
    } else {
        (0, reply.to_string())
    };
    let out = agenthooks_testkit::fake::HookOutput::new(code, stdout, "");
    let payload = serde_json::to_vec(frame).unwrap();
    agenthooks_testkit::fake::interpret(p.as_str(), native, &payload, &out).expect("a fake agent")
}

#[test]
fn broadened_matchers_are_filtered_in_the_bridges_daemon() {
    // OpenCode's regex on the tool id and OpenClaw's exact ids cannot say `other`: the hook is
    // proxied for every tool and its frames carry the filter for the daemon.
    let m = Manifest::new([GUARD], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::class(CanonicalTool::Other)));
    for p in supported_providers().into_iter().filter(is_bridge) {
        let t = target(&p);
        let native = native_events_for(&p, EventKind::ToolPre)[0];
        assert_eq!(bridge_tools(&m, &t, native).as_deref(), Some("class:other"), "{p}");
        let Some((fx, tool)) = tool_pre_case(&p, native) else {
            panic!("{p}: no {native} fixture with a classified tool");
        };
        let (router, counts) = counting_router();
        let count = |i: usize| counts[i].load(Ordering::SeqCst);
        let mut frame: serde_json::Value = serde_json::from_slice(&fx.input).unwrap();
        frame["tools"] = "class:other".into();
        // outside the filter: handlers skipped, the neutral shape, the agent proceeds
        let v = serve_frame(&router, &p, native, &frame);
        assert_eq!(v.effect, Effect::Proceed, "{p}: {v:?}");
        assert!(!v.misbehaved(), "{p}: {v:?}");
        assert_eq!((count(1), count(0)), (0, 1), "{p}");
        // inside it: the handler runs and the agent blocks
        frame["tools"] = format!("class:{}", tool.canonical.as_str()).into();
        let v = serve_frame(&router, &p, native, &frame);
        assert_eq!((count(1), count(0)), (1, 2), "{p}");
        assert!(matches!(v.effect, Effect::Denied { .. }), "{p}: {v:?}");
        // a frame without a filter runs the handlers as before
        frame.as_object_mut().unwrap().remove("tools");
        let v = serve_frame(&router, &p, native, &frame);
        assert_eq!(count(1), 2, "{p}");
        assert!(matches!(v.effect, Effect::Denied { .. }), "{p}: {v:?}");
    }
}

/// A TOML document as sorted `dotted.key = value` lines.
fn toml_lines(text: &str) -> String {
    fn walk(prefix: &str, t: &dyn toml_edit::TableLike, out: &mut Vec<String>) {
        for (k, item) in t.iter() {
            let key = if prefix.is_empty() {
                k.to_owned()
            } else {
                format!("{prefix}.{k}")
            };
            match item.as_table_like() {
                Some(sub) => walk(&key, sub, out),
                None => out.push(format!("{key} = {}", item.to_string().trim())),
            }
        }
    }
    let doc: toml_edit::DocumentMut = text.parse().expect("valid TOML");
    let mut out = Vec::new();
    walk("", doc.as_table(), &mut out);
    out.sort();
    out.join("\n")
}

/// A router with handlers on exactly these kinds.
fn router_of(kinds: &[EventKind]) -> Router {
    kinds.iter().fold(Router::new(), |r, k| match k {
        EventKind::ToolPre => r.on_tool_pre(|_cx: &Context, _e: &ToolPreEvent| deny("no")),
        EventKind::ToolPost => r.on_tool_post(|_cx: &Context, _e: &ToolPostEvent| observed()),
        EventKind::Permission => r.on_permission(|_cx: &Context, _e: &PermissionEvent| deny("no")),
        EventKind::PromptSubmitted => r.on_prompt_submitted(|_cx: &Context, _e: &PromptEvent| accept_prompt()),
        EventKind::Stop => r.on_stop(|_cx: &Context, _e: &StopEvent| finish()),
        EventKind::SessionStart => r.on_session_start(|_cx: &Context, _e: &SessionStartEvent| ContextDecision::none()),
        EventKind::SessionEnd => r.on_session_end(|_cx: &Context, _e: &SessionEndEvent| ContextDecision::none()),
        EventKind::Notification => r.on_notification(|_cx: &Context, _e: &NotificationEvent| ContextDecision::none()),
        _ => r.on_tool_error(|_cx: &Context, _e: &ToolErrorEvent| ContextDecision::none()),
    })
}

const POOL: [EventKind; 9] = [
    EventKind::ToolPre,
    EventKind::ToolPost,
    EventKind::ToolError,
    EventKind::Permission,
    EventKind::PromptSubmitted,
    EventKind::Stop,
    EventKind::SessionStart,
    EventKind::SessionEnd,
    EventKind::Notification,
];

fn kinds_of(mask: u16) -> Vec<EventKind> {
    POOL.iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, k)| *k)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// install(A) → install(B) equals a fresh install(B), installing B again changes nothing,
    /// and uninstall leaves nothing of ours — for every agent, whichever version (A is 1.0.0, B
    /// 2.0.0) uninstalls what the other installed.
    #[test]
    fn reinstall_after_a_router_change_is_exact_and_idempotent(a in 0u16..512, b in 0u16..512, p in 0usize..7) {
        let p = supported_providers()[p % supported_providers().len()].clone();
        let t = target(&p);
        let versioned = |mask: u16, v: &str| {
            let m = manifest_from_router(&router_of(&kinds_of(mask)), [GUARD]);
            let id = m.identity.clone().with_version(v);
            m.with_identity(id)
        };
        let ma = versioned(a, "1.0.0");
        let mb = versioned(b, "2.0.0");
        let mut fs = MemFs::new();
        let plan = plan_install(&ma, &t, &fs).unwrap();
        apply(&mut fs, &plan);
        // the newer binary uninstalls what the older one installed
        let mut old = fs.clone();
        let plan = plan_uninstall(&mb, &t, &old).unwrap();
        apply(&mut old, &plan);
        prop_assert!(old.files.is_empty(), "{}: left {:?}", p, old.files.keys().collect::<Vec<_>>());
        let plan = plan_install(&mb, &t, &fs).unwrap();
        apply(&mut fs, &plan);
        let mut fresh = MemFs::new();
        let plan = plan_install(&mb, &t, &fresh).unwrap();
        apply(&mut fresh, &plan);
        // TOML tables of ours that stay keep their place (and removed ones may leave a blank
        // line): TOML is compared by value, JSON byte for byte
        let normal = |fs: &MemFs| -> Vec<(std::path::PathBuf, String)> {
            fs.files
                .iter()
                .map(|(k, v)| {
                    let v = if k.extension().is_some_and(|e| e == "toml") { toml_lines(v) } else { v.clone() };
                    (k.clone(), v)
                })
                .collect()
        };
        prop_assert_eq!(normal(&fs), normal(&fresh), "{}", p);
        prop_assert!(plan_install(&mb, &t, &fs).unwrap().is_noop());
        prop_assert_eq!(installed_natives(&mb, &t), expected_natives(&p, &kinds_of(b)));
        // uninstall with either version's manifest removes everything ours
        let plan = plan_uninstall(&ma, &t, &fs).unwrap();
        apply(&mut fs, &plan);
        prop_assert!(fs.files.is_empty(), "{}: left {:?}", p, fs.files.keys().collect::<Vec<_>>());
    }
}
