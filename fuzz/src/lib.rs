//! The checks behind the fuzz targets (`fuzz_targets/*.rs` call one function each), so a crash
//! input replays with `cargo fuzz run <target> <file>` and the same check runs everywhere.
//!
//! Every function panics (a libFuzzer crash) when an answer is one the agent could not read:
//! stdout neither empty nor JSON, an exit code the agents do not use, a serve frame that is not
//! a JSON object, or an install merge that loses foreign data.

use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Duration;

use agenthooks::core::prelude::*;
use agenthooks::runtime::{parse_args, serve_bytes, Mode, RunOptions, Runner};
use agenthooks::core::{Invocation, Outcome, Router};
use agenthooks_install::{plan_install, plan_uninstall, HookSpec, Manifest, MemFs, Scope, Target};
use agenthooks_testkit::shapes::{constructors, Shape};
use serde_json::Value;

pub mod reference;

/// stdout must be empty (some dialects' no-op) or one JSON document.
fn assert_readable(what: &str, stdout: &[u8]) {
    let t = stdout.trim_ascii();
    if t.is_empty() {
        return;
    }
    match serde_json::from_slice::<Value>(t) {
        Ok(_) => {}
        // Deeper than serde_json's limit is still JSON (a rewrite that echoes an input nested to
        // the decoder's 127 levels, inside the answer's own objects), which the JavaScript agents
        // read at any depth: the iterative reader checks the grammar, and nothing but the depth
        // may need a repair.
        Err(e) if e.to_string().contains("recursion limit") && only_too_deep(t) => {}
        Err(e) => panic!(
            "{what}: stdout is neither empty nor JSON ({e}): {:?}",
            String::from_utf8_lossy(stdout)
        ),
    }
}

/// Whether `t` is JSON whose only departure from what serde_json reads is its depth.
fn only_too_deep(t: &[u8]) -> bool {
    use agenthooks::core::kit::tolerant::{repair, TextRepairKind};
    repair(t).is_ok_and(|r| r.repairs.iter().all(|x| x.kind == TextRepairKind::TooDeep))
}

/// The exit codes agents read: 0 (answer on stdout), 1 (a usage error on stderr), 2 (a block
/// with the reason on stderr).
fn assert_exit(what: &str, code: i32) {
    assert!(matches!(code, 0..=2), "{what}: exit code {code}");
}

/// One codec's decode of `payload` (with `hint` as `--event`), then every decision shape that
/// applies to the event encoded, plus the no-op and both failure responses.
pub fn codec_decode(data: &[u8]) {
    let Some((&sel, payload)) = data.split_first() else {
        return;
    };
    let codecs = agenthooks::codecs();
    let codec = codecs[usize::from(sel) % codecs.len()];
    let events = codec.native_events();
    // high bits: no hint, or one of the codec's own events
    let hint = match usize::from(sel) / codecs.len() % (events.len() + 1) {
        0 => None,
        i => Some(events[i - 1].name),
    };
    let env: [(&str, &str); 1] = [("HOME", "/nonexistent")];
    let inv = Invocation::new(payload.to_vec(), &env).with_native_event(hint);
    let _ = codec.sniff_payload(payload, &env);
    // The oracle: a payload the permissive reference reader (lone surrogates, any depth, any
    // number) reads as an object naming one of the codec's events must decode as that event,
    // and a deny handler must deny it where the event can carry a deny.
    let named = oracle_name(codec, payload, hint);
    let event = match codec.decode(&inv) {
        Ok(e) => e,
        Err(e) => {
            assert!(
                named.is_none(),
                "{}: a payload naming {:?} does not decode: {e}",
                codec.provider(),
                named
            );
            return;
        }
    };
    if let Some(name) = named {
        let native = event.envelope().native.as_str();
        // without case: a Copilot PascalCase payload keeps its own spelling of the row's name
        assert!(
            native.eq_ignore_ascii_case(name),
            "{}: decoded as {native:?}, not as {name:?}",
            codec.provider()
        );
        let gate = matches!(event.kind(), EventKind::ToolPre | EventKind::Permission)
            && codec.row(name).is_some_and(|r| r.caps.contains(Capability::Deny));
        if gate {
            let invoked = deny_runner().invoke(codec, &inv, None, agenthooks::core::Confidence::Certain);
            assert_eq!(
                invoked.sent.as_ref().map(Outcome::kind),
                Some(DecisionKind::Deny),
                "{}: {name}: the deny handler did not deny (failure: {:?})",
                codec.provider(),
                invoked.failure.as_ref().map(ToString::to_string)
            );
        }
    }
    let target = agenthooks::core::EventTarget::of(&event);
    let mut outcomes: Vec<Outcome> = Shape::for_kind(event.kind())
        .into_iter()
        .filter_map(|s| s.decision(&event))
        .collect();
    outcomes.extend(constructors(&event).into_iter().map(|(_, o)| o));
    for o in &outcomes {
        if let Ok(r) = codec.encode(&event, o) {
            assert_readable(&format!("{} encode {:?}", codec.provider(), o.kind()), &r.stdout);
            assert_exit("encode", r.exit_code);
        }
    }
    let r = codec.no_op(&target);
    assert_readable("no_op", &r.stdout);
    for mode in [FailMode::Open, FailMode::Closed] {
        let r = codec.failure_response(&target, mode, "fuzz \"reason\"\n\u{0}");
        assert_readable("failure_response", &r.stdout);
        assert_exit("failure_response", r.exit_code);
    }
}

/// The event the oracle expects: the payload's own name (the codec's name key, a string naming
/// one of its events, the key not repeated) or, for a dialect without one, the hint; `None` when
/// the reference reader does not read the payload as an object.
fn oracle_name(codec: &dyn agenthooks::core::Codec, payload: &[u8], hint: Option<&'static str>) -> Option<&'static str> {
    let members = reference::top_level_members(payload)?;
    let Some(key) = codec.name_key() else {
        return self_named(codec, &members, hint);
    };
    let mut values = members.iter().filter(|(k, _)| k == key);
    let (_, value) = values.next()?;
    if values.next().is_some() {
        return None; // a repeated name key: which one counts is the reader's choice
    }
    let value = value.as_deref()?;
    codec.native_events().iter().map(|r| r.name).find(|n| *n == value)
}

/// For a dialect without a name key: the hint, except where a payload of that dialect still
/// names itself, which wins over the hint (the agent's statement about its payload wins, as
/// everywhere in agenthooks):
/// - an OpenCode `serve` frame names its event in a top-level `hook` string; a `hook` of
///   `"event"` names the bus event by `input.event.type`, deeper than this reader looks: no
///   expectation then;
/// - a Copilot payload of the PascalCase dialect carries `hook_event_name` (its spelling, not the
///   row's: compared without case).
///
/// A repeated naming key, one that is not a string or a string naming no event: no expectation
/// (the reader's choice, or an unknown event).
fn self_named(
    codec: &dyn agenthooks::core::Codec,
    members: &[(String, Option<String>)],
    hint: Option<&'static str>,
) -> Option<&'static str> {
    let key = match codec.provider().as_str() {
        "opencode" => "hook",
        "copilot" => "hook_event_name",
        _ => return hint,
    };
    let mut values = members.iter().filter(|(k, _)| k == key);
    let Some((_, value)) = values.next() else {
        return hint;
    };
    if values.next().is_some() {
        return None;
    }
    match (key, value.as_deref()) {
        ("hook", None) => hint, // a frame's hook that is not a string names nothing
        ("hook", Some("event")) | (_, None) => None,
        (_, Some(name)) => codec
            .native_events()
            .iter()
            .map(|r| r.name)
            .find(|n| n.eq_ignore_ascii_case(name)),
    }
}

/// A runner whose tool gate denies every call.
fn deny_runner() -> &'static Runner {
    static RUNNER: std::sync::OnceLock<Runner> = std::sync::OnceLock::new();
    RUNNER.get_or_init(|| {
        let state: PathBuf = std::env::temp_dir().join("agenthooks-fuzz-state");
        let router = Router::new().on_tool_gate(|_: &Context, _: ToolGateEvent<'_>| deny("fuzz oracle"));
        agenthooks::runner(router).with_options(RunOptions::default().with_state_dir(state))
    })
}

fn deny_tool(_: &Context, e: &ToolPreEvent) -> ToolPreDecision {
    match e.tool.command().map(str::len).unwrap_or(0) % 3 {
        0 => deny(format!("no {:?}", e.tool.command())),
        1 => ask_user("sure?"),
        _ => no_decision().with_context("looked"),
    }
}

fn block_prompt_h(_: &Context, e: &PromptEvent) -> PromptDecision {
    if e.prompt.len() % 2 == 0 {
        block_prompt("no")
    } else {
        accept_prompt()
    }
}

fn flag(_: &Context, _: &ToolPostEvent) -> ToolPostDecision {
    flag_output("flagged")
}

/// A runner over every codec with handlers that decide on every gating family (no
/// continuations: they would write a state file per fuzzed session).
pub fn runner() -> Runner {
    let state: PathBuf = std::env::temp_dir().join("agenthooks-fuzz-state");
    let router = Router::new()
        .on_tool_pre(deny_tool)
        .on_prompt_submitted(block_prompt_h)
        .on_tool_post(flag);
    agenthooks::runner(router).with_options(RunOptions::default().with_state_dir(state).with_stdin_cap(1 << 16))
}

/// The runner end to end in process: argv words (the bytes before the first NUL, one per line,
/// after `hook agenthooks`) and stdin (the rest). The answer must be one the agent can read.
pub fn run(runner: &Runner, data: &[u8]) {
    let (args, stdin) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&data[..0], data),
    };
    let mut argv: Vec<String> = vec!["hook".into(), "agenthooks".into()];
    argv.extend(String::from_utf8_lossy(args).split('\n').map(str::to_owned));
    let Ok(Some(mut cmd)) = parse_args(&argv) else { return };
    if !matches!(cmd.mode, Mode::Run | Mode::Notify) {
        return;
    }
    // handlers are instant; a fuzzed huge timeout must not make an exec slow
    cmd.timeout = Some(
        cmd.timeout
            .unwrap_or(Duration::from_secs(2))
            .min(Duration::from_secs(2)),
    );
    let env: [(&str, &str); 1] = [("HOME", "/nonexistent")];
    if let Ok(r) = runner.respond(&cmd, stdin, &env) {
        assert_readable("run", &r.stdout);
        assert_exit("run", r.exit_code);
    }
}

/// Serve mode over an arbitrary NDJSON stream (first byte: which codec answers). Every line
/// written must be a JSON object with a `seq` key.
pub fn serve_frames(runner: &Runner, data: &[u8]) {
    let Some((&sel, stream)) = data.split_first() else {
        return;
    };
    let codecs = agenthooks::codecs();
    let codec = codecs[usize::from(sel) % codecs.len()];
    let env: [(&str, &str); 1] = [("HOME", "/nonexistent")];
    let bytes = serve_bytes(runner, codec, &mut BufReader::new(stream), &env);
    let text = String::from_utf8(bytes).expect("serve wrote invalid UTF-8");
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("frame is not JSON ({e}): {line:?}"));
        assert!(v.get("seq").is_some(), "frame without seq: {line}");
    }
}

/// The install targets the merge fuzzer edits: (provider, scope), each with its config file.
const TARGETS: &[(agenthooks::Provider, Scope)] = &[
    (agenthooks::Provider::CLAUDE_CODE, Scope::Project),
    (agenthooks::Provider::CODEX, Scope::Project),
    (agenthooks::Provider::CODEX, Scope::User),
    (agenthooks::Provider::GEMINI, Scope::Project),
    (agenthooks::Provider::CURSOR, Scope::Project),
    (agenthooks::Provider::COPILOT, Scope::Project),
    (agenthooks::Provider::KIMI, Scope::User),
    (agenthooks::Provider::OPENCLAW, Scope::Project),
];

fn manifest() -> Manifest {
    Manifest::new(["/opt/fuzz guard/bin"], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre))
        .with_hook(HookSpec::kind(EventKind::Stop))
}

fn target(i: usize) -> Target {
    let (p, scope) = TARGETS[i % TARGETS.len()].clone();
    match scope {
        Scope::User => Target::user(p, "/h"),
        _ => Target::project(p, "/p", "/h"),
    }
}

/// The files of `target` a fresh install writes that users edit too (not a generated plugin or
/// shim), in plan order.
fn config_paths(m: &Manifest, t: &Target) -> Vec<PathBuf> {
    const SHARED: &[&str] = &["settings.json", "hooks.json", "config.toml", "openclaw.json"];
    plan_install(m, t, &MemFs::new())
        .map(|p| {
            p.files
                .iter()
                .map(|f| f.path.clone())
                // generated files (plugins, shims) are wholly ours; Copilot's is named after the hook
                .filter(|p| p.file_name().is_some_and(|n| SHARED.iter().any(|s| n == *s)))
                .filter(|p| !p.components().any(|c| c.as_os_str() == "agenthooks"))
                .collect()
        })
        .unwrap_or_default()
}

/// Top-level keys and values of a config text, when it parses as plain JSON or TOML.
fn top_level(path: &Path, text: &str) -> Option<Vec<(String, String)>> {
    if path.extension().is_some_and(|e| e == "toml") {
        let doc: toml_edit::DocumentMut = text.parse().ok()?;
        Some(doc.iter().map(|(k, v)| (k.to_owned(), v.to_string())).collect())
    } else {
        match serde_json::from_str::<Value>(text).ok()? {
            Value::Object(m) => Some(m.into_iter().map(|(k, v)| (k, v.to_string())).collect()),
            _ => None,
        }
    }
}

/// Keys install may edit at the top level of a config (everything else is foreign).
const OURS: &[&str] = &["hooks", "version", "plugins"];

/// Install into an arbitrary existing config text, then uninstall. Install either refuses (an
/// error; the planner wrote nothing by construction), or plans a file that parses when the
/// original did, keeps every foreign top-level key and value, and whose uninstall restores the
/// original bytes.
pub fn install_merge(data: &[u8]) {
    let Some((&sel, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let m = manifest();
    let t = target(usize::from(sel));
    let paths = config_paths(&m, &t);
    let Some(path) = paths
        .get(usize::from(sel) / TARGETS.len() % paths.len().max(1))
        .cloned()
    else {
        return;
    };
    let fs = MemFs::new().with(path.clone(), text);
    let Ok(plan) = plan_install(&m, &t, &fs) else { return };
    let Some(change) = plan.files.iter().find(|f| f.path == path) else {
        return;
    };
    let Some(after) = change.after.clone() else {
        panic!("install deleted {}", path.display())
    };
    if let Some(before_keys) = top_level(&path, text) {
        let after_keys = top_level(&path, &after).unwrap_or_else(|| {
            panic!(
                "install of a parsing {} produced one that does not parse:\n{after}",
                path.display()
            )
        });
        for (k, v) in &before_keys {
            if OURS.contains(&k.as_str()) {
                assert!(
                    after_keys.iter().any(|(a, _)| a == k),
                    "key {k} lost in {}",
                    path.display()
                );
            } else {
                assert!(
                    after_keys.iter().any(|(a, b)| a == k && b == v),
                    "foreign key {k} changed or lost in {}:\nbefore {text}\nafter {after}",
                    path.display()
                );
            }
        }
    }
    let mut installed = fs.clone();
    for f in &plan.files {
        match &f.after {
            Some(a) => installed.files.insert(f.path.clone(), a.clone()),
            None => installed.files.remove(&f.path),
        };
    }
    if text.contains("agenthooks") {
        return; // our entries were there before: uninstall removes them too, by design
    }
    let un = plan_uninstall(&m, &t, &installed).expect("uninstall of what install wrote failed");
    let restored = un
        .files
        .iter()
        .find(|f| f.path == path)
        .map_or_else(|| installed.files.get(&path).cloned(), |f| f.after.clone());
    // Install records what it created (containers and files), so uninstall restores the bytes of
    // every original, empty files and empty `hooks` containers too. Known limit: `toml_edit`
    // writes `\n` line endings; a CRLF file gets CRLF back, one mixing both gets `\n`.
    let mixed = text.contains('\r') && text.matches("\r\n").count() != text.matches('\n').count();
    if mixed && path.extension().is_some_and(|e| e == "toml") {
        return;
    }
    assert_eq!(
        restored.as_deref(),
        Some(text),
        "uninstall did not restore {}",
        path.display()
    );
}
