//! The "write once, run everywhere" demonstration (README Quick start).
//!
//! This is a command-line report, not a hook: it prints its table on stdout.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use agenthooks::decision::DecisionKind;
use agenthooks::{Codec, Event, EventKind};
use agenthooks_testkit::fake::{self, HookCommand, SpawnOptions};
use agenthooks_testkit::Fixture;
use serde_json::Value;

/// A fake but well-formed AWS access key id (AWS's documented example key).
pub const PLANTED: &str = "AKIAIOSFODNN7EXAMPLE";

/// One table row.
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent facts of one row, read by name"
)]
struct Row {
    provider: String,
    event: String,
    case: String,
    decision: String,
    exit: i32,
    stdout: String,
    verdict: String,
    planted: bool,
    ok: bool,
    /// The agent offers no way to block or ask on this event (a documented limitation).
    cannot_gate: bool,
    /// The hook's ask was answered no decision so that the agent's own permission dialog asks.
    dialog: bool,
}

/// Plants [`PLANTED`] into the first `command`/`cmd`/`prompt`/`toolArgs` string; returns
/// whether something was planted.
///
/// ```
/// let mut v = serde_json::json!({"tool_input": {"command": "ls"}});
/// assert!(agenthooks_example::demo::plant(&mut v));
/// assert_eq!(v["tool_input"]["command"], "ls # key=AKIAIOSFODNN7EXAMPLE");
/// ```
pub fn plant(v: &mut Value) -> bool {
    match v {
        Value::Object(m) => {
            for key in ["command", "cmd", "prompt", "text"] {
                if let Some(Value::String(s)) = m.get_mut(key) {
                    s.push_str(" # key=");
                    s.push_str(PLANTED);
                    return true;
                }
            }
            // The tool input first: other objects (Kimi's `display`) may carry a copy.
            for key in ["tool_input", "toolInput"] {
                if m.get_mut(key).is_some_and(plant) {
                    return true;
                }
            }
            if let Some(Value::String(s)) = m.get_mut("toolArgs") {
                if let Ok(mut inner) = serde_json::from_str::<Value>(s) {
                    if plant(&mut inner) {
                        *s = inner.to_string();
                        return true;
                    }
                }
            }
            m.values_mut().any(plant)
        }
        Value::Array(a) => a.iter_mut().any(plant),
        _ => false,
    }
}

fn short(s: &str, n: usize) -> String {
    let one: String = s.replace('\n', "\\n");
    if one.chars().count() <= n {
        one
    } else {
        format!("{}…", one.chars().take(n).collect::<String>())
    }
}

/// The hook's decision, and what the runner sends once the event's capabilities apply: `ask`,
/// `ask → deny` (the ask fallback), `ask → no-decision` (the agent's own permission dialog), …
fn decision_of(codec: &dyn Codec, f: &Fixture, payload: &[u8]) -> (String, Option<(DecisionKind, DecisionKind)>) {
    let env: Vec<(String, String)> = f.meta.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let inv = agenthooks::core::Invocation::new(payload.to_vec(), &env)
        .with_native_event(Some(f.meta.native_event.as_str()))
        .with_transport(f.meta.transport);
    let router = crate::router();
    match codec.decode(&inv) {
        Ok(ev) => {
            let caps = codec.event_capabilities(&ev);
            let policy = router.policy().resolve(ev.envelope());
            match router.decide(ev) {
                Ok(o) => {
                    let decided = o.kind();
                    match agenthooks::degrade(o, caps, &policy) {
                        Ok(d) if d.outcome.kind() != decided => (
                            format!("{decided} → {}", d.outcome.kind()),
                            Some((decided, d.outcome.kind())),
                        ),
                        Ok(_) => (decided.to_string(), Some((decided, decided))),
                        Err(e) => (format!("{decided} → error: {e}"), None),
                    }
                }
                Err(e) => (format!("error: {e}"), None),
            }
        }
        Err(e) => (format!("undecodable: {}", e.category()), None),
    }
}

fn kind_of(codec: &dyn Codec, f: &Fixture) -> Option<EventKind> {
    let env: Vec<(String, String)> = f.meta.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let inv = agenthooks::core::Invocation::new(f.input.clone(), &env)
        .with_native_event(Some(f.meta.native_event.as_str()))
        .with_transport(f.meta.transport);
    codec.decode(&inv).ok().as_ref().map(Event::kind)
}

/// Runs the demo; returns the process exit code.
pub fn run(args: &[String]) -> i32 {
    let all = args.iter().any(|a| a == "--all");
    let exe: PathBuf = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("demo: cannot locate this executable: {e}");
            return 2;
        }
    };
    let mut rows = Vec::new();
    for codec in agenthooks::codecs() {
        let provider = codec.provider().to_string();
        let Some(agent) = fake::agent(&provider) else { continue };
        let dir = agenthooks_testkit::fixtures_dir(&provider);
        let fixtures = match agenthooks_testkit::fixture::load_all(&dir) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("demo: cannot load fixtures of {provider}: {e}");
                return 2;
            }
        };
        // Captured payloads first, then docs; one case per native event unless --all.
        let mut ordered: Vec<&Fixture> = fixtures.iter().filter(|f| f.version != "docs").collect();
        ordered.extend(fixtures.iter().filter(|f| f.version == "docs"));
        let mut seen = BTreeSet::new();
        for f in ordered {
            if !all && !seen.insert(f.meta.native_event.clone()) {
                continue;
            }
            let mut variants = vec![(f.input.clone(), false)];
            let kind = kind_of(codec, f);
            let gating = kind.is_some_and(|k| {
                matches!(
                    k,
                    EventKind::ToolPre | EventKind::Permission | EventKind::PromptSubmitted
                )
            });
            if gating {
                if let Ok(mut v) = serde_json::from_slice::<Value>(&f.input) {
                    if plant(&mut v) {
                        variants.push((serde_json::to_vec(&v).unwrap_or_default(), true));
                    }
                }
            }
            for (payload, planted) in variants {
                let mut argv = vec![
                    exe.to_string_lossy().into_owned(),
                    "agenthooks".into(),
                    "run".into(),
                    format!("--provider={provider}"),
                    format!("--event={}", f.meta.native_event),
                ];
                if f.meta.transport == agenthooks::core::Transport::Argv {
                    argv.push("--argv-payload".into());
                }
                // One state dir per invocation: every row is an independent call (Cursor's
                // double-fire dedup would otherwise pair rows that share a command).
                let state = std::env::temp_dir().join(format!("agenthooks-demo-{}-{}", std::process::id(), rows.len()));
                let mut opts = SpawnOptions::default()
                    .with_env("AGENTHOOKS_STATE_DIR", state.to_string_lossy())
                    .with_cwd(std::env::temp_dir());
                for (k, v) in &f.meta.env {
                    opts = opts.with_env(k.clone(), v.clone());
                }
                if f.meta.transport == agenthooks::core::Transport::Argv {
                    // The case's own transport (legacy Cursor CLI argv payload).
                    opts.transport = Some(agenthooks::core::Transport::Argv);
                }
                let (decision, sent) = decision_of(codec, f, &payload);
                match fake::run(agent, &HookCommand::Exec(argv), &f.meta.native_event, &payload, &opts) {
                    Ok(s) => {
                        let v = &s.verdict;
                        let mut verdict = v.effect.name().to_owned();
                        if let Some(t) = v.effect.text() {
                            let _ = write!(verdict, "({})", short(&t, 40));
                        }
                        if !v.context.is_empty() {
                            verdict.push_str(" +context");
                        }
                        if !v.problems.is_empty() {
                            let _ = write!(verdict, " PROBLEMS: {}", v.problems.join("; "));
                        }
                        let blocked_or_asked =
                            matches!(v.effect, fake::Effect::Denied { .. } | fake::Effect::Asked { .. });
                        let variant = agenthooks::Variant::new(f.meta.variant.clone());
                        let caps = codec.capabilities(&variant, &f.meta.native_event);
                        let cannot_gate = planted
                            && !caps.contains(agenthooks::Capability::Deny)
                            && !caps.contains(agenthooks::Capability::Ask);
                        // A permission request precedes the agent's own dialog: answering no
                        // decision there lets the user decide, which is the ask.
                        let dialog = planted
                            && kind == Some(EventKind::Permission)
                            && sent == Some((DecisionKind::Ask, DecisionKind::NoDecision))
                            && v.effect == fake::Effect::Proceed;
                        if v.system_message.is_some() {
                            verdict.push_str(" +message");
                        }
                        let ok = !v.misbehaved() && (!planted || blocked_or_asked || dialog || cannot_gate);
                        if dialog {
                            verdict.push_str(" → the agent's own dialog asks");
                        } else if cannot_gate && !blocked_or_asked {
                            verdict.push_str(" (agent cannot block this event)");
                        }
                        rows.push(Row {
                            provider: provider.clone(),
                            event: f.meta.native_event.clone(),
                            case: format!("{}/{}", f.version, f.case),
                            decision,
                            exit: s.output.exit_code.unwrap_or(-1),
                            stdout: short(&s.output.stdout_str(), 60),
                            verdict,
                            planted,
                            ok,
                            cannot_gate,
                            dialog,
                        });
                    }
                    Err(e) => {
                        eprintln!("demo: cannot run the hook: {e}");
                        return 2;
                    }
                }
            }
        }
    }
    print_table(&rows);
    let bad: Vec<&Row> = rows.iter().filter(|r| !r.ok).collect();
    let planted = rows.iter().filter(|r| r.planted).count();
    let limited = rows.iter().filter(|r| r.cannot_gate).count();
    let dialogs = rows.iter().filter(|r| r.dialog).count();
    println!(
        "\n{} invocations over {} providers; {} with a planted credential: asked or blocked wherever the agent can gate: {} ({} asked by the agent's own permission dialog; {} on events the agent cannot gate); malformed answers: {}",
        rows.len(),
        rows.iter().map(|r| r.provider.as_str()).collect::<BTreeSet<_>>().len(),
        planted,
        if bad.iter().any(|r| r.planted) { "NO" } else { "yes" },
        dialogs,
        limited,
        bad.iter().filter(|r| !r.planted).count()
    );
    #[cfg(feature = "full")]
    print_installed_events();
    i32::from(!bad.is_empty())
}

/// Which native events `secret-guard agenthooks install --provider P` wires on each agent: the
/// manifest derived from the guard's router.
#[cfg(feature = "full")]
fn print_installed_events() {
    use agenthooks::install;
    let m = install::manifest_from_router(&crate::router(), ["secret-guard"]);
    println!("\n`secret-guard agenthooks install --provider P` wires (derived from the router):");
    for p in install::supported_providers() {
        let mut blocking = Vec::new();
        let mut telemetry = Vec::new();
        let t = install::Target::user(p.clone(), "/home/user");
        let caps = |_: &agenthooks::Provider, _: &str| agenthooks::CapSet::EMPTY;
        for h in install::preflight(&m, &[t], &caps)
            .targets
            .iter()
            .flat_map(|t| &t.hooks)
        {
            let to = if h.blocking { &mut blocking } else { &mut telemetry };
            to.extend(h.native_events.iter().cloned());
        }
        println!(
            "  {p}: gates {}; observes {}",
            blocking.join(", "),
            telemetry.join(", ")
        );
    }
}

fn print_table(rows: &[Row]) {
    let head = [
        "provider",
        "native event",
        "case",
        "decision",
        "exit",
        "stdout",
        "agent's verdict",
    ];
    let cells: Vec<[String; 7]> = rows
        .iter()
        .map(|r| {
            [
                r.provider.clone(),
                r.event.clone(),
                format!("{}{}", short(&r.case, 34), if r.planted { " +AKIA…" } else { "" }),
                r.decision.clone(),
                r.exit.to_string(),
                if r.stdout.is_empty() {
                    "(empty)".into()
                } else {
                    r.stdout.clone()
                },
                format!("{}{}", if r.ok { "" } else { "✗ " }, r.verdict),
            ]
        })
        .collect();
    let mut w = head.map(|h| h.chars().count());
    for c in &cells {
        for (i, s) in c.iter().enumerate() {
            w[i] = w[i].max(s.chars().count());
        }
    }
    let line = |c: &[String]| {
        let mut out = String::new();
        for (i, s) in c.iter().enumerate() {
            let pad = w[i] - s.chars().count();
            let _ = write!(out, "{}{} ", s, " ".repeat(pad));
            if i + 1 < c.len() {
                out.push_str("| ");
            }
        }
        out.trim_end().to_owned()
    };
    println!("{}", line(&head.map(str::to_owned)));
    println!(
        "{}",
        w.iter().map(|n| "-".repeat(*n + 1)).collect::<Vec<_>>().join("+-")
    );
    for c in &cells {
        println!("{}", line(c));
    }
}
