//! The acceptance test of issue 8: with the argv hint stripped, the event reconstructed from
//! the payload's shape is exactly the fixture's native event.

use agenthooks_copilot::identify::{identify, identify_bytes, reconstruct, Basis, Confidence};
use agenthooks_copilot::native::{Dialect, EventName};
use serde_json::{Map, Value};

use crate::fixtures;

#[test]
fn reconstruction_without_argv_is_exact_on_every_fixture() {
    let mut checked = 0;
    for case in fixtures::all() {
        let payload: Map<String, Value> = serde_json::from_slice(&case.input).unwrap();
        let id = reconstruct(&payload);
        assert_eq!(id.native_name, case.native_event, "{}: {id:?}", case.id);
        let (event, dialect) = EventName::parse(&case.native_event).unwrap();
        assert_eq!(id.event, Some(event), "{}", case.id);
        if event != EventName::Notification {
            assert_eq!(id.dialect, dialect, "{}", case.id);
        }
        assert!(id.foreign_keys.is_empty(), "{}: {:?}", case.id, id.foreign_keys);
        assert_ne!(id.basis, Basis::Argv);
        // Only the deliberately base-only payload falls back to a guess.
        if case.id.ends_with("agent_stop-minimal") {
            assert_eq!(id.confidence, Confidence::Low, "{}", case.id);
        } else {
            assert!(id.confidence >= Confidence::Medium, "{}: {id:?}", case.id);
        }
        checked += 1;
    }
    assert!(checked >= 60);
}

#[test]
fn argv_hint_agrees_with_the_shape_on_every_fixture() {
    for case in fixtures::all() {
        let argv = case.argv_event.as_deref();
        assert!(argv.is_some(), "{}: fixtures bake --event=", case.id);
        let id = identify_bytes(argv, &case.input);
        assert_eq!(id.basis, Basis::Argv, "{}", case.id);
        assert_eq!(id.confidence, Confidence::Certain);
        assert_eq!(id.native_name, case.native_event, "{}", case.id);
        assert_eq!(id.name_conflict, None, "{}", case.id);
    }
}

#[test]
fn captured_payloads_reconstruct_with_the_expected_evidence() {
    let by_id = |suffix: &str| {
        let case = fixtures::all().into_iter().find(|c| c.id.ends_with(suffix)).unwrap();
        let payload: Map<String, Value> = serde_json::from_slice(&case.input).unwrap();
        identify(None, &payload)
    };
    let id = by_id("1.0.102/permission_request-allow");
    assert_eq!(id.basis, Basis::HookNameField, "1.0.102 names permissionRequest");
    let id = by_id("1.0.102/pre_tool_use-deny-json");
    assert_eq!(id.basis, Basis::Shape("toolName"));
    assert_eq!(
        id.confidence,
        Confidence::Medium,
        "differs from a failure only by `error`"
    );
    let id = by_id("1.0.102/post_tool_use-allow");
    assert_eq!(
        (id.basis, id.confidence),
        (Basis::Shape("toolResult"), Confidence::High)
    );
    let id = by_id("1.0.102/agent_stop-allow");
    assert_eq!(id.event, Some(EventName::AgentStop));
    assert_eq!(id.dialect, Dialect::Camel);
    let id = by_id("docs/notification-example");
    assert_eq!((id.basis, id.dialect), (Basis::EventNameField, Dialect::Camel));
}
