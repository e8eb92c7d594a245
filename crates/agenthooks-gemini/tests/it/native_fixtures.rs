//! Every fixture under `fixtures/gemini/` decodes into its typed native struct.

use std::fs;

use agenthooks_gemini::native::{decode, event_info, NativeEvent, NATIVE_EVENTS};
use serde_json::Value;

use crate::fixtures::{cases, fixtures_root};

#[test]
fn every_fixture_decodes_to_its_meta_event() {
    let cases = cases();
    assert!(cases.len() >= 11, "only {} fixtures", cases.len());
    for c in &cases {
        let (case, input, event) = (&c.dir, &c.input, &c.native_event);
        let ev = decode(input).unwrap_or_else(|e| panic!("{}: {e}", case.display()));
        assert_eq!(ev.name(), event, "{}", case.display());
        assert!(
            !matches!(ev, NativeEvent::Other(_)),
            "{}: decoded as Other",
            case.display()
        );
        assert!(event_info(event).is_some(), "{}", case.display());
        // Every field in the corpus is a known field: nothing lands in `extra`.
        assert!(ev.extra().is_empty(), "{}: extra {:?}", case.display(), ev.extra());
        // The typed structs re-serialize to the same JSON value (key order included).
        let original: Value = serde_json::from_slice(input).expect("valid JSON");
        assert_eq!(ev.to_value(), original, "{}", case.display());
        // For real captures the field order is Gemini's own, so re-serializing the typed struct
        // reproduces the payload byte for byte.
        if c.version != "docs" {
            let bytes = serde_json::to_vec(&ev).expect("serializes");
            assert_eq!(
                String::from_utf8_lossy(&bytes),
                String::from_utf8_lossy(input),
                "{}",
                case.display()
            );
        }
        assert!(ev.timestamp().is_some_and(|t| t.ends_with('Z')), "{}", case.display());
    }
}

#[test]
fn every_event_has_a_docs_and_a_hand_made_fixture() {
    let cases = cases();
    for info in NATIVE_EVENTS {
        let n = cases.iter().filter(|c| c.native_event == info.name).count();
        assert!(n >= 1, "{} has no fixture", info.name);
        let docs = cases
            .iter()
            .any(|c| c.native_event == info.name && c.version == "docs" && c.source == "docs");
        assert!(docs, "{} has no docs fixture", info.name);
    }
}

#[test]
fn captured_model_events_decode_typed() {
    let root = fixtures_root().join("gemini-cli-0.61.0");
    let input = fs::read(root.join("after_model-allow-2/input.json")).expect("fixture");
    let NativeEvent::AfterModel(m) = decode(&input).expect("decodes") else {
        panic!("not AfterModel")
    };
    assert_eq!(m.llm_request.model.as_deref(), Some("gemini-3.8-flash"));
    assert_eq!(m.llm_response.text.as_deref(), Some("All done: marker written."));
    let cand = &m.llm_response.candidates.as_deref().expect("candidates")[0];
    assert_eq!(cand.finish_reason.as_deref(), Some("STOP"));
    assert_eq!(
        cand.content.as_ref().and_then(|c| c.parts.clone()),
        Some(vec![Value::from("All done: marker written.")])
    );

    let input = fs::read(root.join("after_tool-allow/input.json")).expect("fixture");
    let NativeEvent::AfterTool(t) = decode(&input).expect("decodes") else {
        panic!("not AfterTool")
    };
    assert_eq!(t.tool_name, "run_shell_command");
    assert!(!t.is_error());
    assert_eq!(t.tool_input["command"], "echo hi > marker.txt");

    let input = fs::read(fixtures_root().join("docs/after_tool-error/input.json")).expect("fixture");
    let ev = decode(&input).expect("decodes");
    assert_eq!(ev.kind().as_str(), "tool.error");
}
