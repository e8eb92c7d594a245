//! Droid's session transcript: the corpus's real one (`fixtures/droid/<version>/transcript.jsonl`,
//! written by `droid exec` in an e2e run) read through the codec's format, and prompt backfill
//! from it, which is how a prompt handler sees `droid exec`'s prompt (no `UserPromptSubmit`
//! there, quirk 1001).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use agenthooks_core::decision::{allow, block_prompt};
use agenthooks_core::{
    Capability, Codec, Confidence, Context, HandlerError, Invocation, PromptEvent, Router, ToolPreEvent,
};
use agenthooks_droid::CODEC;
use agenthooks_runtime::transcript::{Item, Reader, Record};
use agenthooks_runtime::Runner;
use agenthooks_testkit::{fixtures_dir, TempDir};
use serde_json::Value;

/// The e2e suite's prompt (`agenthooks_e2e::agents::PROMPT`).
const PROMPT: &str = "Create marker.txt by running: echo hi > marker.txt";

/// The pinned release's captured transcript.
fn corpus() -> PathBuf {
    fixtures_dir("droid").join("0.215.0/transcript.jsonl")
}

fn read(path: &Path) -> Vec<Record> {
    let format = CODEC.transcript().expect("Droid writes a transcript");
    Reader::open(format, path).unwrap().collect::<Result<_, _>>().unwrap()
}

#[test]
fn the_corpus_transcript_reads_as_droid_wrote_it() {
    let path = corpus();
    let records = read(&path);
    let lines = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count();
    assert_eq!(records.len(), lines, "one record per line");
    let unknown: Vec<&str> = records
        .iter()
        .filter(|r| r.is_unknown())
        .map(|r| r.native_type.as_str())
        .collect();
    assert!(unknown.is_empty(), "untyped records: {unknown:?}");
    assert_eq!(
        records[0].items,
        vec![Item::Meta {
            what: "session_start".into()
        }]
    );

    let items: Vec<&Item> = records.iter().flat_map(|r| &r.items).collect();
    // The one prompt the run sent; the injected reminders are system text, not prompts.
    let prompts: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::UserPrompt { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(prompts, [PROMPT]);
    let reminders: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::System { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        !reminders.is_empty(),
        "Droid injects its context as <system-reminder> text"
    );
    assert!(
        reminders.iter().all(|t| t.starts_with("<system-reminder>")),
        "{reminders:?}"
    );

    // The model's Execute call and its result, matched by id.
    let call = items
        .iter()
        .find_map(|i| match i {
            Item::ToolCall { id, name, input } if name == "Execute" => Some((id, input)),
            _ => None,
        })
        .expect("an Execute call");
    assert_eq!(call.1["command"], "echo hi > marker.txt");
    assert!(
        items
            .iter()
            .any(|i| matches!(i, Item::ToolResult { id, is_error: Some(false), .. } if id == call.0)),
        "no result for {}",
        call.0
    );
    assert!(items.iter().any(|i| matches!(i, Item::AssistantText { .. })));

    // Every hook run is bookkeeping, named by its event.
    let metas: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::Meta { what } => Some(what.as_str()),
            _ => None,
        })
        .collect();
    for hook in ["SessionStart", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"] {
        assert!(metas.contains(&format!("hook:{hook}").as_str()), "{hook}: {metas:?}");
    }
    assert!(metas.contains(&"agent_turn_outcome"), "{metas:?}");
}

/// (prompt, backfilled, raw is empty, any capability) per prompt handler call.
type Seen = Arc<Mutex<Vec<(String, bool, bool, bool)>>>;

fn runner(seen: &Seen) -> Runner {
    let s = Arc::clone(seen);
    let router = Router::new()
        .on_prompt_submitted(move |cx: &Context, e: &PromptEvent| {
            let env = e.envelope();
            let any_cap = [Capability::Deny, Capability::AddContext].iter().any(|c| cx.can(*c));
            s.lock()
                .unwrap()
                .push((e.prompt.clone(), env.backfilled, env.raw().is_empty(), any_cap));
            // Dropped: a backfilled prompt never gates.
            Ok::<_, HandlerError>(block_prompt("no"))
        })
        .on_tool_pre(|_: &Context, _: &ToolPreEvent| Ok::<_, HandlerError>(allow()))
        .backfill_prompts();
    Runner::new(router, vec![&CODEC])
}

/// A captured Droid payload of `case` in session `session`, naming `transcript`.
fn payload(case: &str, session: &str, transcript: &Path) -> Vec<u8> {
    let bytes = std::fs::read(fixtures_dir("droid").join(case).join("input.json")).unwrap();
    let mut v: Value = serde_json::from_slice(&bytes).unwrap();
    v["session_id"] = session.into();
    v["transcript_path"] = transcript.display().to_string().into();
    serde_json::to_vec(&v).unwrap()
}

fn fire(r: &Runner, bytes: Vec<u8>, state: &Path) -> String {
    let env: Vec<(String, String)> = Vec::new();
    let inv = Invocation::new(bytes, &env).with_state_dir(Some(state));
    let out = r.invoke(&CODEC, &inv, None, Confidence::Certain);
    assert!(out.failure.is_none(), "{:?}", out.failure);
    String::from_utf8_lossy(&out.response.stdout).into_owned()
}

#[test]
fn the_exec_prompt_is_backfilled_once_from_the_transcript() {
    let tmp = TempDir::new("droid-backfill");
    let (state, transcript) = (tmp.0.join("state"), tmp.0.join("session.jsonl"));
    std::fs::copy(corpus(), &transcript).unwrap();
    let seen = Seen::default();
    let r = runner(&seen);
    let pre = payload("0.215.0/pre_tool_use-e2e-execute", "s-exec", &transcript);

    let answer = fire(&r, pre.clone(), &state);
    assert_eq!(*seen.lock().unwrap(), vec![(PROMPT.to_owned(), true, true, false)]);
    assert!(answer.contains("allow"), "the tool's answer stands: {answer}");
    // The session's next events: nothing new; reminders and hook runs are never prompts.
    fire(&r, payload("0.215.0/stop-e2e", "s-exec", &transcript), &state);
    assert_eq!(seen.lock().unwrap().len(), 1);

    // A follow-up prompt in the same session, as Droid records it: backfilled at the next event.
    let next = serde_json::json!({"type": "message", "id": "m2", "timestamp": "2026-12-02T15:05:00.000Z",
        "message": {"role": "user", "content": [{"type": "text", "text": "and the lints"}], "interactionMode": "auto"}});
    let mut f = std::fs::OpenOptions::new().append(true).open(&transcript).unwrap();
    std::io::Write::write_all(&mut f, format!("{next}\n").as_bytes()).unwrap();
    fire(&r, pre, &state);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[1], ("and the lints".to_owned(), true, true, false));
}

#[test]
fn a_prompt_the_interactive_agent_fired_is_not_backfilled() {
    let tmp = TempDir::new("droid-backfill-fired");
    let (state, transcript) = (tmp.0.join("state"), tmp.0.join("session.jsonl"));
    let seen = Seen::default();
    let r = runner(&seen);
    // Interactive Droid fires UserPromptSubmit, then writes the prompt to its transcript.
    let mut submit: Value = serde_json::from_slice(&payload("docs/user_prompt_submit", "s-tui", &transcript)).unwrap();
    submit["prompt"] = PROMPT.into();
    fire(&r, serde_json::to_vec(&submit).unwrap(), &state);
    std::fs::copy(corpus(), &transcript).unwrap();
    fire(
        &r,
        payload("0.215.0/pre_tool_use-e2e-execute", "s-tui", &transcript),
        &state,
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(!seen[0].1, "only the real prompt event: {seen:?}");
}
