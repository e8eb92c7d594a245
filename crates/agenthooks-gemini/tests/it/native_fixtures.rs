//! Fidelity of the typed native structs on the corpus: every field is known (nothing lands in
//! `extra`) and the structs write the payload back exactly (byte for byte for real captures,
//! whose key order is Gemini's own).

use agenthooks_gemini::native::{NativeEvent, EVENTS};
use agenthooks_gemini::view;
use serde_json::Value;

use crate::CORPUS;

#[test]
fn every_fixture_is_typed_exactly() {
    for c in CORPUS.cases() {
        let id = c.id();
        let ev = CORPUS.decode(c);
        let env = ev.envelope();
        assert!(env.projection_issues.is_empty(), "{id}: {:?}", env.projection_issues);
        let v = view(env).expect("native view");
        assert!(!matches!(v, NativeEvent::Other(_)), "{id}: decoded as Other");
        assert!(v.extra().is_empty(), "{id}: extra {:?}", v.extra());
        let original: Value = serde_json::from_slice(&c.input).expect("valid JSON");
        assert_eq!(serde_json::to_value(v).expect("serializes"), original, "{id}");
        if c.version != "docs" {
            let bytes = serde_json::to_vec(v).expect("serializes");
            assert_eq!(
                String::from_utf8_lossy(&bytes),
                String::from_utf8_lossy(&c.input),
                "{id}"
            );
        }
        assert!(v.timestamp().is_some_and(|t| t.ends_with('Z')), "{id}");
    }
}

#[test]
fn every_event_has_a_docs_fixture() {
    CORPUS.assert_docs_case_per_event(EVENTS, |c| c.meta.source == "docs");
}

#[test]
fn captured_model_events_decode_typed() {
    let ev = CORPUS.decode(CORPUS.case("gemini-cli-0.61.0/after_model-allow-2"));
    let Some(NativeEvent::AfterModel(m)) = view(ev.envelope()) else {
        panic!("not AfterModel")
    };
    let request = m.llm_request.as_ref().expect("llm_request");
    assert_eq!(request.model.as_deref(), Some("gemini-3.8-flash"));
    let response = m.llm_response.as_ref().expect("llm_response");
    assert_eq!(response.text.as_deref(), Some("All done: marker written."));
    let cand = &response.candidates.as_deref().expect("candidates")[0];
    assert_eq!(cand.finish_reason.as_deref(), Some("STOP"));
    assert_eq!(
        cand.content.as_ref().and_then(|c| c.parts.clone()),
        Some(vec![Value::from("All done: marker written.")])
    );

    let ev = CORPUS.decode(CORPUS.case("gemini-cli-0.61.0/after_tool-allow"));
    let Some(NativeEvent::AfterTool(t)) = view(ev.envelope()) else {
        panic!("not AfterTool")
    };
    assert_eq!(t.tool_name, "run_shell_command");
    assert!(!t.is_error());
    assert_eq!(
        t.tool_input.as_ref().map(|i| i["command"].clone()),
        Some("echo hi > marker.txt".into())
    );
}
