//! Prompt backfill on Cursor, whose CLI print mode (`-p`) never fires `beforeSubmitPrompt`
//! (quirk 31): the prompt comes from the session's transcript at the next event, exactly once,
//! reporting only (no raw payload, no capabilities, its answer dropped), and never for a prompt
//! the agent did send to the prompt hook.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use agenthooks_core::decision::{allow, block_prompt};
use agenthooks_core::{Capability, Confidence, Context, HandlerError, Invocation, PromptEvent, Router, ToolPreEvent};
use agenthooks_cursor::CODEC;
use agenthooks_runtime::Runner;
use agenthooks_testkit::{fixtures_dir, TempDir};
use serde_json::Value;

/// (prompt, backfilled, raw is empty, any capability) per prompt handler call.
type Seen = Arc<Mutex<Vec<(String, bool, bool, bool)>>>;

fn runner(seen: &Seen, opt_in: bool) -> Runner {
    let s = Arc::clone(seen);
    let mut router = Router::new()
        .on_prompt_submitted(move |cx: &Context, e: &PromptEvent| {
            let env = e.envelope();
            let any_cap = [Capability::Deny, Capability::AddContext, Capability::ContinueAgent]
                .iter()
                .any(|c| cx.can(*c));
            s.lock()
                .unwrap()
                .push((e.prompt.clone(), env.backfilled, env.raw().is_empty(), any_cap));
            // A block is dropped: a backfilled prompt can never gate.
            Ok::<_, HandlerError>(block_prompt("no"))
        })
        .on_tool_pre(|_: &Context, _: &ToolPreEvent| Ok::<_, HandlerError>(allow()));
    if opt_in {
        router = router.backfill_prompts();
    }
    Runner::new(router, vec![&CODEC])
}

/// A captured Cursor payload of `case` with its transcript path set to `transcript`.
fn payload(case: &str, transcript: &Path) -> Vec<u8> {
    let bytes = std::fs::read(fixtures_dir("cursor").join(case).join("input.json")).unwrap();
    let mut v: Value = serde_json::from_slice(&bytes).unwrap();
    v["transcript_path"] = transcript.display().to_string().into();
    serde_json::to_vec(&v).unwrap()
}

fn user_line(text: &str) -> String {
    format!(
        "{}\n",
        serde_json::json!({"role": "user", "message": {"content": [{"type": "text", "text": text}]}})
    )
}

fn fire(r: &Runner, bytes: Vec<u8>, state: &Path) -> String {
    let env: Vec<(String, String)> = Vec::new();
    let inv = Invocation::new(bytes, &env).with_state_dir(Some(state));
    let out = r.invoke(&CODEC, &inv, None, Confidence::Certain);
    assert!(out.failure.is_none(), "{:?}", out.failure);
    String::from_utf8_lossy(&out.response.stdout).into_owned()
}

/// A temp dir with `state/` and a transcript holding `first` (none when `None`).
fn setup(name: &str, first: Option<&str>) -> (TempDir, PathBuf, PathBuf, Seen) {
    let tmp = TempDir::new(name);
    let (state, transcript) = (tmp.0.join("state"), tmp.0.join("t.jsonl"));
    if let Some(text) = first {
        std::fs::write(&transcript, user_line(text)).unwrap();
    }
    (tmp, state, transcript, Seen::default())
}

#[test]
fn a_skipped_prompt_is_backfilled_once_from_the_transcript() {
    let (_tmp, state, transcript, seen) = setup("cursor-backfill", Some("run the tests"));
    let r = runner(&seen, true);
    let pre = payload("2026.02.13/pre_tool_use", &transcript);

    let answer = fire(&r, pre.clone(), &state);
    assert_eq!(
        *seen.lock().unwrap(),
        vec![("run the tests".to_owned(), true, true, false)]
    );
    assert!(
        answer.contains("allow"),
        "the tool answer stands, the block is dropped: {answer}"
    );

    // The next events of the session: nothing new.
    fire(&r, pre.clone(), &state);
    assert_eq!(seen.lock().unwrap().len(), 1);

    // A second prompt (its line written in two pieces): backfilled once it is complete.
    let second = user_line("and the lints");
    let mut f = std::fs::OpenOptions::new().append(true).open(&transcript).unwrap();
    std::io::Write::write_all(&mut f, &second.as_bytes()[..10]).unwrap();
    fire(&r, pre.clone(), &state);
    assert_eq!(seen.lock().unwrap().len(), 1, "a partial line waits");
    std::io::Write::write_all(&mut f, &second.as_bytes()[10..]).unwrap();
    fire(&r, pre.clone(), &state);
    fire(&r, pre, &state);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[1], ("and the lints".to_owned(), true, true, false));
}

#[test]
fn a_prompt_the_agent_fired_is_not_backfilled() {
    let (_tmp, state, transcript, seen) = setup("cursor-backfill-fired", None);
    let r = runner(&seen, true);
    // The interactive agent fires beforeSubmitPrompt, then writes the prompt to its transcript.
    let mut submit: Value = serde_json::from_slice(&payload("2026.02.13/before_submit_prompt", &transcript)).unwrap();
    let prompt = submit["prompt"].as_str().unwrap().to_owned();
    submit["conversation_id"] = "7c2e1f40-5a9b-4d7e-9f31-0b6a2c8d4e11".into();
    fire(&r, serde_json::to_vec(&submit).unwrap(), &state);
    std::fs::write(&transcript, user_line(&prompt)).unwrap();
    fire(&r, payload("2026.02.13/pre_tool_use", &transcript), &state);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(!seen[0].1, "only the real prompt event: {seen:?}");
}

#[test]
fn without_the_opt_in_nothing_is_read_or_written() {
    let (_tmp, state, transcript, seen) = setup("cursor-backfill-off", Some("run the tests"));
    fire(
        &runner(&seen, false),
        payload("2026.02.13/pre_tool_use", &transcript),
        &state,
    );
    assert!(seen.lock().unwrap().is_empty());
    assert!(!state.join("backfill").exists());
}

/// A transcript path the payload names may be anything: a FIFO (no writer: opening it for
/// reading would block forever) or `/dev/zero` (endless) is refused at once, and the tool call
/// gets its handler's answer promptly, with nothing backfilled.
#[cfg(unix)]
#[test]
fn a_fifo_or_dev_zero_as_the_transcript_never_holds_the_hook() {
    let (tmp, state, _, seen) = setup("cursor-backfill-fifo", None);
    let fifo = tmp.0.join("t.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo");
    let r = runner(&seen, true);
    for path in [fifo.as_path(), Path::new("/dev/zero")] {
        let started = std::time::Instant::now();
        let answer = fire(&r, payload("2026.02.13/pre_tool_use", path), &state);
        assert!(answer.contains("allow"), "{}: {answer}", path.display());
        assert!(
            started.elapsed() < std::time::Duration::from_secs(2),
            "{}: {:?}",
            path.display(),
            started.elapsed()
        );
    }
    assert!(seen.lock().unwrap().is_empty());
}

/// More than the read cap (16 MiB) appended since the last read: only its last 16 MiB are read,
/// from a line start, so a prompt in the skipped part is not backfilled and the one at the end is.
#[test]
fn an_oversized_transcript_is_read_only_at_its_end() {
    let (_tmp, state, transcript, seen) = setup("cursor-backfill-big", Some("early prompt"));
    let filler = format!(
        "{}\n",
        serde_json::json!({"role": "assistant", "message": {"content": [{"type": "text", "text": "x".repeat(1000)}]}})
    );
    let mut text = std::fs::read_to_string(&transcript).unwrap();
    let cap = usize::try_from(agenthooks_runtime::transcript::TAIL_READ_CAP).unwrap();
    while text.len() < cap + (1 << 20) {
        text.push_str(&filler);
    }
    text.push_str(&user_line("late prompt"));
    std::fs::write(&transcript, &text).unwrap();
    let r = runner(&seen, true);
    fire(&r, payload("2026.02.13/pre_tool_use", &transcript), &state);
    let prompts: Vec<String> = seen.lock().unwrap().iter().map(|s| s.0.clone()).collect();
    assert_eq!(prompts, ["late prompt"]);
}
