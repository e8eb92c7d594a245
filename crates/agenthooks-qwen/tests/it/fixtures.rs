//! Every fixture decodes losslessly, keeps its session facts, and the unified projection of the
//! key ones is exact.

use agenthooks_core::{CanonicalTool, Codec, Event, EventKind, EventTarget, FailMode};
use agenthooks_qwen::native::{NativeEvent, EVENTS};
use agenthooks_qwen::CODEC;
use agenthooks_testkit::Fixture;

use crate::support::CORPUS;

#[test]
fn every_fixture_keeps_its_native_view_and_session() {
    let cases = CORPUS.cases();
    assert!(cases.len() >= 25, "only {} fixtures", cases.len());
    for case in cases {
        let name = Fixture::short_id(case);
        let ev = CORPUS.decode(case);
        let env = ev.envelope();
        let (native, original) = case.assert_family_lossless::<NativeEvent>(env, false);
        let known = EVENTS.iter().any(|e| e.name == case.meta.native_event);
        assert_eq!(matches!(native, NativeEvent::Other(_)), !known, "{name}");
        assert_eq!(env.provider_time.as_ref(), original.get("timestamp"), "{name}");
        let target = EventTarget::of(&ev);
        let no_op = CODEC.no_op(&target);
        assert_eq!(no_op.stdout, b"{}", "{name}");
        assert_eq!(CODEC.failure_response(&target, FailMode::Open, "boom"), no_op, "{name}");
    }
}

#[test]
fn every_event_has_a_docs_fixture() {
    CORPUS.assert_docs_case_per_event(EVENTS, |_| true);
}

#[test]
fn tool_events_project_qwen_names_and_ids() {
    let Event::ToolPre(pre) = CORPUS.event("docs/pre_tool_use") else {
        panic!("tool.pre")
    };
    assert_eq!(pre.tool.canonical, CanonicalTool::Shell);
    assert_eq!(pre.tool.command(), Some("rm -rf build"));
    assert_eq!(pre.tool.id, "toolu_1764670530123_k2j4h5g6f");
    let Event::ToolPre(mcp) = CORPUS.event("docs/pre_tool_use-mcp") else {
        panic!("tool.pre")
    };
    let call = mcp.tool.mcp.as_ref().expect("mcp");
    assert_eq!((call.server.as_str(), call.tool.as_str()), ("shop_db", "lookup_order"));
    let Event::ToolError(err) = CORPUS.event("docs/post_tool_use_failure") else {
        panic!("tool.error")
    };
    assert_eq!(err.error, "File not found: /home/dev/shop/missing.txt");
    assert_eq!(CORPUS.event("docs/post_tool_batch").kind(), EventKind::Other);
    assert_eq!(CORPUS.event("docs/message_display").kind(), EventKind::ModelResponse);
    // 0.12.0's shape (no permission_mode, no prompt_id) decodes the same.
    assert_eq!(CORPUS.event("docs/pre_tool_use-0.12-shape").kind(), EventKind::ToolPre);
}
