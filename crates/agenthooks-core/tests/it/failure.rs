//! The provided failure answer (`kit::failure_response`) and row lookup (`Codec::row_for`),
//! against a toy codec whose encoder writes what it was asked to encode.

use std::time::Duration;

use agenthooks_core::decision::{deny, DEFAULT_BLOCK_REASON};
use agenthooks_core::kit::{EventRow, FailShape};
use agenthooks_core::{
    Codec, DecodeError, EncodeError, Envelope, Event, EventKind, EventTarget, FailMode, Invocation, NativeName,
    Outcome, Provider, RawPayload, Variant, WireResponse,
};
use serde_json::json;

const ROWS: &[EventRow] = &[
    EventRow::new("Gate", EventKind::ToolPre, true, true).fail(FailShape::Block),
    EventRow::new("Shell", EventKind::ToolPre, true, false)
        .fail(FailShape::Block)
        .secondary(),
    EventRow::new("Prompt", EventKind::PromptSubmitted, true, false).fail(FailShape::Block),
    EventRow::new("Halt", EventKind::Stop, true, false).fail(FailShape::Exit(2)),
    EventRow::new("Start", EventKind::SessionStart, false, false),
    EventRow::new("Odd", EventKind::Other, true, false).fail(FailShape::Block),
];

/// Encodes every outcome as `{native, kind, decision, reason, variant, payload}`.
struct Toy;

impl Codec for Toy {
    fn provider(&self) -> Provider {
        Provider::from_static("toy")
    }

    fn native_events(&self) -> &'static [EventRow] {
        ROWS
    }

    fn decode(&self, _: &Invocation<'_>) -> Result<Event, DecodeError> {
        Err(DecodeError::new(
            self.provider(),
            agenthooks_core::DecodeCategory::Data,
            "toy",
        ))
    }

    fn encode(&self, event: &Event, outcome: &Outcome) -> Result<WireResponse, EncodeError> {
        let env = event.envelope();
        if env.kind == EventKind::Other {
            return Err(EncodeError::inexpressible(
                self.provider(),
                env.native.as_str(),
                "a decision",
            ));
        }
        Ok(WireResponse::json(&json!({
            "native": env.native.as_str(),
            "kind": event.kind().as_str(),
            "decision": outcome.kind().as_str(),
            "reason": outcome.reason(),
            "variant": env.variant.as_str(),
            "payload": env.raw().as_str(),
        })))
    }

    fn no_op(&self, _: &EventTarget) -> WireResponse {
        WireResponse::stdout(b"noop".to_vec())
    }

    fn default_timeout(&self) -> Duration {
        Duration::from_secs(1)
    }
}

fn named(native: &str) -> EventTarget {
    EventTarget::new(Some(NativeName::from(native)), Some(Toy.kind_of(native)))
}

#[test]
fn fail_open_is_the_no_op_everywhere() {
    for t in ["Gate", "Prompt", "Halt", "Start", "Odd", "Future"].map(named) {
        assert_eq!(Toy.failure_response(&t, FailMode::Open, "boom"), Toy.no_op(&t), "{t:?}");
    }
}

#[test]
fn a_block_is_the_encoding_of_a_deny_or_a_blocked_prompt() {
    let mut gate = named("Gate");
    gate.variant = Variant::CLI;
    gate.payload = Some(RawPayload::from(b"{\"x\":1}".to_vec()));
    let closed = Toy.failure_response(&gate, FailMode::Closed, "boom");
    let mut env = Envelope::new(
        Toy.provider(),
        NativeName::from("Gate"),
        EventKind::ToolPre,
        RawPayload::from(b"{\"x\":1}".to_vec()),
    );
    env.variant = Variant::CLI;
    let encoded = Toy.encode(&Event::bare(env), &deny("boom").into()).unwrap();
    assert_eq!(closed, encoded, "the bare event keeps the target's variant and payload");

    let prompt = Toy.failure_response(&named("Prompt"), FailMode::Closed, "");
    let v: serde_json::Value = serde_json::from_slice(&prompt.stdout).unwrap();
    assert_eq!(v["decision"], "block-prompt");
    assert_eq!(v["reason"], DEFAULT_BLOCK_REASON, "a blank reason is the default");
}

#[test]
fn exit_shapes_exit_and_the_rest_is_the_no_op() {
    let halt = Toy.failure_response(&named("Halt"), FailMode::Closed, "boom");
    assert_eq!(halt, WireResponse::exit(2, "boom"));
    assert_eq!(
        Toy.failure_response(&named("Halt"), FailMode::Closed, " "),
        WireResponse::exit(2, DEFAULT_BLOCK_REASON)
    );
    for t in [named("Start"), named("Future"), EventTarget::new(None, None)] {
        assert_eq!(
            Toy.failure_response(&t, FailMode::Closed, "boom"),
            Toy.no_op(&t),
            "{t:?}"
        );
    }
    // A block the codec refuses (no unified outcome blocks an `other` event): the no-op.
    assert_eq!(
        Toy.failure_response(&named("Odd"), FailMode::Closed, "boom"),
        Toy.no_op(&named("Odd"))
    );
}

#[test]
fn row_for_finds_the_named_row_or_the_kinds_primary_row() {
    assert_eq!(Toy.row_for(&named("Shell")).map(|r| r.name), Some("Shell"));
    let by_kind = EventTarget::new(None, Some(EventKind::ToolPre));
    assert_eq!(Toy.row_for(&by_kind).map(|r| r.name), Some("Gate"), "primary rows only");
    let future = EventTarget::new(Some(NativeName::from("Future")), Some(EventKind::ToolPre));
    assert!(Toy.row_for(&future).is_none(), "a name is never replaced by its kind");
    assert!(Toy.row_for(&EventTarget::new(None, None)).is_none());
    // A target that names only its kind blocks with the primary row's answer.
    let closed = Toy.failure_response(&by_kind, FailMode::Closed, "boom");
    let v: serde_json::Value = serde_json::from_slice(&closed.stdout).unwrap();
    assert_eq!(
        (v["native"].as_str(), v["decision"].as_str()),
        (Some("Gate"), Some("deny"))
    );
}
