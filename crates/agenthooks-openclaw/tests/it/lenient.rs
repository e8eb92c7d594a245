//! `event` and `ctx` are read with the kit's lenient rules and its repair one level down: a
//! nested field of an unexpected shape is kept in that object's `extra` and reported.

use agenthooks_core::kit::Repair;
use agenthooks_core::Provider;
use agenthooks_openclaw::native::NativeEvent;
use serde_json::json;

#[test]
fn nested_fields_of_an_unexpected_shape_move_to_extra_and_are_reported() {
    let frame = r#""hook":"before_tool_call",
        "event":{"toolName":"exec","params":{"command":"ls"},"toolCallId":7},
        "ctx":{"sessionId":{"id":"s1"},"sessionKey":"agent:main:main","toolName":"exec"}}"#;
    let bytes = format!(r#"{{"seq":1,{frame}"#);
    let decoded = NativeEvent::decode(&Provider::OPENCLAW, bytes.as_bytes(), None).expect("decodes");
    {
        let NativeEvent::BeforeToolCall(f) = &decoded.native else {
            panic!("{:?}", decoded.native)
        };
        // The kit's rules: an id sent as a number is text.
        assert_eq!(f.event.tool_call_id.as_deref(), Some("7"));
        let ctx = f.ctx.as_ref().expect("ctx typed, not moved as a whole");
        assert_eq!(ctx.session_key.as_deref(), Some("agent:main:main"));
        // The object is kept, not dropped, and the repair is reported with its path.
        assert_eq!(ctx.session_id, None);
        assert_eq!(ctx.extra["sessionId"], json!({"id": "s1"}));
        let issues: Vec<_> = decoded.issues.iter().map(|i| (i.path.as_str(), i.repair)).collect();
        assert_eq!(issues, [("ctx.sessionId", Repair::MovedToExtra)]);
    }
    // The repairing slow path (taken for a top-level `event` that is not an object) reports
    // the nested repair beside its own.
    let bytes = br#"{"seq":1,"hook":"before_agent_run","event":5,"ctx":{"sessionId":["s1"],"runId":"r"}}"#;
    let decoded = NativeEvent::decode(&Provider::OPENCLAW, bytes, None).expect("decodes");
    let NativeEvent::BeforeAgentRun(f) = &decoded.native else {
        panic!("{:?}", decoded.native)
    };
    let ctx = f.ctx.as_ref().expect("ctx");
    assert_eq!(
        (ctx.run_id.as_deref(), &ctx.extra["sessionId"]),
        (Some("r"), &json!(["s1"]))
    );
    assert_eq!(f.extra["event"], 5);
    let issues: Vec<_> = decoded.issues.iter().map(|i| (i.path.as_str(), i.repair)).collect();
    assert_eq!(
        issues,
        [("event", Repair::MovedToExtra), ("ctx.sessionId", Repair::MovedToExtra)]
    );
}

#[test]
fn flags_and_lists_follow_the_kits_rules() {
    let bytes = br#"{"seq":1,"hook":"before_agent_run",
        "event":{"prompt":"hi"},
        "ctx":{"sessionId":"s1","activeProjectKeys":"p1"}}"#;
    let decoded = NativeEvent::decode(&Provider::OPENCLAW, bytes, None).expect("decodes");
    let NativeEvent::BeforeAgentRun(f) = &decoded.native else {
        panic!("{:?}", decoded.native)
    };
    let ctx = f.ctx.as_ref().expect("ctx");
    assert_eq!(ctx.active_project_keys.as_deref(), Some(&["p1".to_owned()][..]));
    assert!(decoded.issues.is_empty(), "{:?}", decoded.issues);
    // A list with a non-string item is not filtered: it moves to `extra` whole, reported.
    let bytes = br#"{"seq":1,"hook":"before_agent_run","ctx":{"activeProjectKeys":["p1",2]}}"#;
    let decoded = NativeEvent::decode(&Provider::OPENCLAW, bytes, None).expect("decodes");
    let NativeEvent::BeforeAgentRun(f) = &decoded.native else {
        panic!("{:?}", decoded.native)
    };
    let ctx = f.ctx.as_ref().expect("ctx");
    assert_eq!(ctx.active_project_keys, None);
    assert_eq!(ctx.extra["activeProjectKeys"], json!(["p1", 2]));
    assert_eq!(decoded.issues[0].path, "ctx.activeProjectKeys");
}
