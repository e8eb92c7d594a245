//! Integration tests for the Claude codec: every fixture under `fixtures/claude-code/` decodes.

use std::path::{Path, PathBuf};

use agenthooks_claude::native::{NativeEvent, EVENTS};
use serde_json::Value;

fn fixtures_root() -> PathBuf {
    std::env::var_os("AGENTHOOKS_FIXTURES").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures"),
        PathBuf::from,
    )
}

struct Case {
    dir: PathBuf,
    input: Vec<u8>,
    native_event: String,
}

fn cases() -> Vec<Case> {
    let root = fixtures_root().join("claude-code");
    let mut out = Vec::new();
    for version in std::fs::read_dir(&root).expect("fixtures/claude-code exists") {
        let version = version.expect("dir entry").path();
        for case in std::fs::read_dir(&version).expect("version dir") {
            let dir = case.expect("dir entry").path();
            let input = std::fs::read(dir.join("input.json")).expect("input.json");
            let meta = std::fs::read_to_string(dir.join("meta.toml")).expect("meta.toml");
            let native_event = meta
                .lines()
                .find_map(|l| l.strip_prefix("native_event = "))
                .map(|v| v.trim_matches('"').to_owned())
                .expect("native_event in meta.toml");
            out.push(Case {
                dir,
                input,
                native_event,
            });
        }
    }
    out.sort_by(|a, b| a.dir.cmp(&b.dir));
    out
}

#[test]
fn every_fixture_decodes_and_round_trips() {
    let cases = cases();
    assert!(cases.len() >= 34 + 5, "only {} fixtures", cases.len());
    for case in &cases {
        let name = case.dir.display();
        let ev =
            NativeEvent::from_slice(&case.input, Some(&case.native_event)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(ev.name(), case.native_event, "{name}");
        let known = EVENTS.iter().any(|e| e.name == case.native_event);
        assert_eq!(matches!(ev, NativeEvent::Other(_)), !known, "{name}: Other iff unknown");
        // Nothing is dropped: the typed struct serializes back to the same JSON value.
        let original: Value = serde_json::from_slice(&case.input).expect("valid JSON");
        let back = serde_json::to_value(&ev).expect("serializes");
        assert_eq!(back, original, "{name}: round trip");
        // Known events of our own corpus carry no unknown keys, except the case made for it.
        if known && !name.to_string().ends_with("unknown-fields") {
            assert!(ev.extra().is_empty(), "{name}: unexpected extra {:?}", ev.extra());
        }
    }
}

#[test]
fn every_reference_event_has_a_docs_fixture() {
    let docs = fixtures_root().join("claude-code/docs");
    for info in EVENTS {
        let found = cases()
            .iter()
            .any(|c| c.dir.starts_with(&docs) && c.native_event == info.name);
        assert!(found, "no docs fixture for {}", info.name);
    }
}

#[test]
fn unknown_fields_land_in_extra() {
    let dir = fixtures_root().join("claude-code/docs/pre_tool_use-unknown-fields");
    let input = std::fs::read(dir.join("input.json")).expect("input");
    let ev = NativeEvent::from_slice(&input, None).expect("decodes");
    let keys: Vec<_> = ev.extra().keys().map(String::as_str).collect();
    assert_eq!(keys, ["sandbox", "attempt"]);
    assert_eq!(ev.extra()["sandbox"]["network"], "deny");
}

#[test]
fn future_event_decodes_as_other() {
    let dir = fixtures_root().join("claude-code/docs/future_event");
    let input = std::fs::read(dir.join("input.json")).expect("input");
    let ev = NativeEvent::from_slice(&input, None).expect("decodes");
    assert!(matches!(ev, NativeEvent::Other(_)));
    assert_eq!(ev.name(), "PreWebRequest");
    assert_eq!(ev.kind(), "other");
    assert_eq!(ev.extra()["url"], "https://registry.npmjs.org/left-pad");
    assert_eq!(serde_json::to_vec(&ev).expect("serializes"), input);
}
