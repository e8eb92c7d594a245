//! Transcript readers over every transcript the e2e suite captured from the real agents
//! (`fixtures/<agent>/<version>/transcript.jsonl`): none dropped (one record per non-empty line,
//! or header + messages for Gemini's JSON document), the typed records equal the blessed
//! `transcript.records.jsonl` beside each (`AGENTHOOKS_BLESS=1` writes a missing or changed one),
//! and every captured run's conversation (the e2e prompt, the `echo hi > marker.txt` call, its
//! result) is found. Plus proptests: any split of the bytes (tail) and any line-start offset give
//! the same records.

use std::path::{Path, PathBuf};

use agenthooks::runtime::transcript::{
    self, format_of, Item, LineBuffer, Reader, Record, Tail, TranscriptFormat, Untyped,
};
use agenthooks_core::Provider;

/// A provider's transcript format (its codec's).
type Dialect = &'static dyn TranscriptFormat;

/// The format of the agent a fixture directory is named after.
fn dialect_of(agent: &str) -> Dialect {
    agenthooks::codecs()
        .into_iter()
        .find(|c| c.provider() == agent)
        .map_or(&Untyped as Dialect, format_of)
}
use proptest::prelude::*;
use serde_json::Value;

/// The e2e suite's prompt (`agenthooks_e2e::agents::PROMPT`).
const PROMPT: &str = "Create marker.txt by running: echo hi > marker.txt";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn bless() -> bool {
    std::env::var_os("AGENTHOOKS_BLESS").is_some_and(|v| v == "1")
}

/// `fixtures/<provider dir>/<version>/transcript.jsonl`, sorted.
fn captured() -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    for agent in std::fs::read_dir(fixtures()).unwrap().flatten() {
        for version in std::fs::read_dir(agent.path()).into_iter().flatten().flatten() {
            let t = version.path().join("transcript.jsonl");
            if t.is_file() {
                out.push((
                    agent.file_name().to_string_lossy().into_owned(),
                    version.file_name().to_string_lossy().into_owned(),
                    t,
                ));
            }
        }
    }
    out.sort();
    out
}

fn read(dialect: Dialect, path: &Path) -> Vec<Record> {
    Reader::open(dialect, path).unwrap().collect::<Result<_, _>>().unwrap()
}

/// Strings past 160 characters are cut in the goldens (system prompts run to kilobytes).
fn clip(v: &mut Value) {
    match v {
        Value::String(s) if s.chars().count() > 160 => *s = s.chars().take(160).collect::<String>() + "…",
        Value::Array(a) => a.iter_mut().for_each(clip),
        Value::Object(m) => m.values_mut().for_each(clip),
        _ => {}
    }
}

fn golden_text(records: &[Record]) -> String {
    records
        .iter()
        .map(|r| {
            let mut v = r.to_json(false);
            clip(&mut v);
            v.to_string() + "\n"
        })
        .collect()
}

/// Checks one captured transcript; returns its problems.
fn check(agent: &str, version: &str, path: &Path) -> Vec<String> {
    let tag = format!("{agent} {version}");
    let dialect = dialect_of(agent);
    let mut problems = Vec::new();
    let text = std::fs::read_to_string(path).unwrap();
    let records = read(dialect, path);
    // None dropped.
    let expected = match serde_json::from_str::<Value>(&text) {
        Ok(doc) if text.trim_start().starts_with('{') && text.lines().count() > 1 => {
            1 + doc["messages"].as_array().map_or(0, Vec::len)
        }
        _ => text.lines().filter(|l| !l.trim().is_empty()).count(),
    };
    if records.len() != expected {
        problems.push(format!(
            "{tag}: {} records from {expected} lines/messages",
            records.len()
        ));
    }
    // Raw lines kept: a JSONL file is its records' raw lines.
    if records.iter().all(|r| r.index().is_none()) && records.len() > 1 {
        let joined: Vec<&str> = records.iter().map(Record::raw).collect();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if joined != lines {
            problems.push(format!("{tag}: raw lines differ from the file"));
        }
    }
    let unknown: Vec<&str> = records
        .iter()
        .filter(|r| r.is_unknown())
        .map(|r| r.native_type.as_str())
        .collect();
    if !unknown.is_empty() {
        problems.push(format!(
            "{tag}: records of unrecognised types {unknown:?} (type them or name them meta)"
        ));
    }
    // The run's conversation.
    let items: Vec<&Item> = records.iter().flat_map(|r| &r.items).collect();
    // Exactly the one prompt the run sent (what a backfill would report): injected context and
    // tool results the agent stores as user messages are not prompts.
    let prompts: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::UserPrompt { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    if prompts.len() != 1 || !prompts[0].contains(PROMPT) {
        problems.push(format!("{tag}: user prompts {prompts:?}, expected the e2e prompt once"));
    }
    let calls: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::ToolCall { id, input, .. } if input.to_string().contains("marker.txt") => Some(id.as_str()),
            _ => None,
        })
        .collect();
    if calls.is_empty() {
        problems.push(format!("{tag}: no tool call writing marker.txt"));
    }
    if !items
        .iter()
        .any(|i| matches!(i, Item::ToolResult { id, .. } if calls.contains(&id.as_str())))
    {
        problems.push(format!("{tag}: no tool result for the call {calls:?}"));
    }
    // Golden.
    let golden = path.with_file_name("transcript.records.jsonl");
    let now = golden_text(&records);
    match std::fs::read_to_string(&golden) {
        Ok(g) if g == now => {}
        _ if bless() => std::fs::write(&golden, now).unwrap(),
        Ok(_) => problems.push(format!(
            "{}: differs (AGENTHOOKS_BLESS=1 rewrites it)",
            golden.display()
        )),
        Err(_) => problems.push(format!("{}: missing (AGENTHOOKS_BLESS=1 writes it)", golden.display())),
    }
    problems
}

/// Every captured transcript, including those added after this list was written.
#[test]
fn every_captured_transcript_decodes() {
    let all = captured();
    assert!(all.len() >= 8, "captured transcripts: {all:?}");
    let problems: Vec<String> = all.iter().flat_map(|(a, v, p)| check(a, v, p)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

macro_rules! golden {
    ($($name:ident: $agent:literal $version:literal;)*) => {$(
        #[test]
        fn $name() {
            let path = fixtures().join($agent).join($version).join("transcript.jsonl");
            assert!(path.is_file(), "{} missing", path.display());
            let problems = check($agent, $version, &path);
            assert!(problems.is_empty(), "{}", problems.join("\n"));
        }
    )*};
}

golden! {
    claude_code_2_1_126: "claude-code" "2.1.126";
    claude_code_2_1_332: "claude-code" "2.1.332";
    codex_0_116_0: "codex" "0.116.0";
    codex_0_146_1: "codex" "0.146.1";
    gemini_0_24_0_json_document: "gemini" "0.24.0";
    gemini_0_43_0_jsonl: "gemini" "0.43.0";
    copilot_1_0_12: "copilot" "1.0.12";
    copilot_1_0_67: "copilot" "1.0.67";
    // The pinned versions, kept by the live suite's capture mode.
    codex_0_171_0: "codex" "0.171.0";
    copilot_1_0_102: "copilot" "1.0.102";
    gemini_0_61_0: "gemini" "gemini-cli-0.61.0";
    kimi_2_1_0_wire: "kimi" "2.1.0";
    droid_0_215_0: "droid" "0.215.0";
}

#[test]
fn event_opens_its_transcript() {
    let path = fixtures().join("codex/0.146.1/transcript.jsonl");
    let mut env = agenthooks_core::Envelope::new(
        Provider::CODEX,
        "Stop".into(),
        agenthooks_core::EventKind::Stop,
        agenthooks_core::RawPayload::default(),
    );
    let vars = agenthooks_core::ProcessEnv;
    let codec = &agenthooks::codex::CODEC;
    assert!(
        transcript::open(codec, &agenthooks_core::Event::bare(env.clone()), &vars)
            .unwrap()
            .is_none()
    );
    env.session.transcript_path = path.display().to_string();
    let ev = agenthooks_core::Event::bare(env);
    let records: Vec<Record> = transcript::open(codec, &ev, &vars)
        .unwrap()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(records, read(&agenthooks::codex::transcript::TRANSCRIPT, &path));
}

/// All corpus JSONL files (not Gemini's JSON document) with their dialects.
fn jsonl_corpus() -> Vec<(Dialect, Vec<u8>)> {
    captured()
        .into_iter()
        .map(|(a, _, p)| (dialect_of(&a), std::fs::read(p).unwrap()))
        .filter(|(_, b)| {
            b.first() != Some(&b'{')
                || b.split(|&c| c == b'\n')
                    .next()
                    .is_some_and(|l| serde_json::from_slice::<Value>(l).is_ok())
        })
        .collect()
}

fn whole(dialect: Dialect, bytes: &[u8]) -> Vec<Record> {
    Reader::new(dialect, bytes).collect::<Result<_, _>>().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Bytes fed in arbitrary chunks give the records of the whole file.
    #[test]
    fn any_split_gives_the_same_records(file in 0usize..64, cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12)) {
        let corpus = jsonl_corpus();
        let (dialect, bytes) = &corpus[file % corpus.len()];
        let mut at: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
        at.sort_unstable();
        let mut buf = LineBuffer::default();
        let mut got = Vec::new();
        let mut prev = 0;
        for c in at.into_iter().chain([bytes.len()]) {
            got.extend(buf.push(&bytes[prev..c]).into_iter().map(|(o, l)| Record::from_line(*dialect, o, l)));
            prev = c;
        }
        got.extend(buf.finish().map(|(o, l)| Record::from_line(*dialect, o, l)));
        prop_assert_eq!(got, whole(*dialect, bytes));
    }

    /// A file growing in arbitrary pieces, polled after each: the tail returns every record
    /// once, in order, never a partial line.
    #[test]
    fn tail_of_a_growing_file_gives_the_same_records(file in 0usize..64, cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8)) {
        let corpus = jsonl_corpus();
        let (dialect, bytes) = &corpus[file % corpus.len()];
        let path = std::env::temp_dir().join(format!("agenthooks-tail-prop-{}-{file}-{}.jsonl", std::process::id(), cuts.len()));
        let _ = std::fs::remove_file(&path);
        let mut tail = Tail::open(*dialect, &path);
        let mut at: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
        at.sort_unstable();
        let mut got = tail.poll().unwrap();
        for c in at.into_iter().chain([bytes.len()]) {
            std::fs::write(&path, &bytes[..c]).unwrap();
            got.extend(tail.poll().unwrap());
        }
        std::fs::remove_file(&path).unwrap();
        // Every capture ends with a newline, so nothing is held back at the end.
        prop_assert_eq!(tail.offset(), bytes.len() as u64);
        prop_assert_eq!(got, whole(*dialect, bytes));
    }

    /// Starting at any line start gives the records from that line on, with file offsets.
    #[test]
    fn any_line_offset_gives_the_rest(file in 0usize..64, line in any::<prop::sample::Index>()) {
        let corpus = jsonl_corpus();
        let (dialect, bytes) = &corpus[file % corpus.len()];
        let all = whole(*dialect, bytes);
        let from = line.index(all.len());
        let offset = all[from].offset;
        let rest: Vec<Record> = Reader::starting_at(*dialect, &bytes[usize::try_from(offset).unwrap()..], offset)
            .collect::<Result<_, _>>()
            .unwrap();
        prop_assert_eq!(rest, all[from..].to_vec());
    }
}

/// Which agents' print mode skips the prompt hook, from the corpus: every release the e2e
/// capture ran in print mode (`claude -p`, `codex exec`, `gemini -p`, `copilot -p`, `kimi -p`)
/// fired its prompt event in the no-decision run (`release.toml`), so none needs a backfill;
/// Cursor CLI `-p` (no installable build, quirk 31) and `droid exec` (quirk 1001, no prompt
/// event in its corpus) skip it: there the backfill reports the prompt.
#[test]
fn print_modes_that_fire_the_prompt_hook() {
    let prompt_event = |agent: &str| match agent {
        "claude-code" | "codex" | "kimi" => Some("\"UserPromptSubmit\""),
        "gemini" => Some("\"BeforeAgent\""),
        "copilot" => Some("\"userPromptSubmitted\""),
        _ => None,
    };
    let mut checked = Vec::new();
    for agent in std::fs::read_dir(fixtures()).unwrap().flatten() {
        let name = agent.file_name().to_string_lossy().into_owned();
        let Some(event) = prompt_event(&name) else { continue };
        for version in std::fs::read_dir(agent.path()).unwrap().flatten() {
            let Ok(release) = std::fs::read_to_string(version.path().join("release.toml")) else {
                continue;
            };
            let run = release
                .lines()
                .find(|l| l.starts_with("no-decision = "))
                .unwrap_or_else(|| panic!("{name}: no no-decision run"));
            if !run.contains("hook_calls = 0") {
                assert!(
                    run.contains(event),
                    "{name} {:?}: the print-mode run fired no {event}: {run}",
                    version.file_name()
                );
                checked.push(format!("{name} {}", version.file_name().to_string_lossy()));
            }
        }
    }
    assert!(checked.len() >= 10, "{checked:?}");
}

/// Kimi's payloads name no transcript: the event finds its session's `wire.jsonl` in Kimi's
/// session store (`$KIMI_CODE_HOME/sessions/<workspace>/<session id>/agents/main/`).
#[test]
fn a_kimi_event_finds_its_wire_log() {
    let home = std::env::temp_dir().join(format!("agenthooks-kimi-home-{}", std::process::id()));
    let wire = home.join("sessions/ws-1/session_abc/agents/main/wire.jsonl");
    std::fs::create_dir_all(wire.parent().unwrap()).unwrap();
    let fixture = fixtures().join("kimi/2.1.0/transcript.jsonl");
    std::fs::copy(&fixture, &wire).unwrap();
    // Read through the invocation's variables, not the process's.
    let vars = vec![("KIMI_CODE_HOME".to_owned(), home.display().to_string())];
    let open = |e: &agenthooks_core::Event| transcript::open(&agenthooks::kimi::CODEC, e, &vars);
    let event = |session: &str| {
        let mut env = agenthooks_core::Envelope::new(
            Provider::KIMI,
            "PreToolUse".into(),
            agenthooks_core::EventKind::ToolPre,
            agenthooks_core::RawPayload::default(),
        );
        env.session.id = session.into();
        agenthooks_core::Event::bare(env)
    };
    let records: Vec<Record> = open(&event("session_abc"))
        .unwrap()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(records, read(&agenthooks::kimi::transcript::TRANSCRIPT, &fixture));
    assert!(open(&event("session_other")).unwrap().is_none());
    assert!(open(&event("../ws-1/session_abc")).unwrap().is_none());
    std::fs::remove_dir_all(&home).unwrap();
}
