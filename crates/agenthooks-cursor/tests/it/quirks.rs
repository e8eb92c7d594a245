//! One case per Cursor quirk id (the registry doubles as the test plan).

use std::collections::HashMap;

use agenthooks_core::{Codec, Confidence, Invocation, QuirkStatus};
use agenthooks_cursor::{quirks::QUIRKS, CODEC};

use crate::support::CORPUS;

#[test]
fn every_quirk_id_has_a_case_here() {
    let covered = [
        2, 3, 4, 5, 6, 7, 29, 31, 601, 602, 603, 604, 605, 606, 607, 608, 609, 610, 611,
    ];
    for q in QUIRKS {
        assert!(covered.contains(&q.id), "quirk #{} has no case", q.id);
    }
    // Uncertain behaviour is marked so, never stated as confirmed.
    for id in [602, 603, 606] {
        assert_eq!(
            QUIRKS.iter().find(|q| q.id == id).unwrap().status,
            QuirkStatus::Unverified,
            "#{id}"
        );
    }
    for id in [605, 607, 608] {
        assert_eq!(
            QUIRKS.iter().find(|q| q.id == id).unwrap().status,
            QuirkStatus::Open,
            "#{id}"
        );
    }
}

#[test]
fn q6_argv_payload_decodes() {
    let ev = CORPUS.event("docs/pre_tool_use-argv");
    assert_eq!(ev.tool().unwrap().command(), Some("git status"));
}

#[test]
fn bom_is_tolerated_and_raw_kept() {
    let c = CORPUS.case("docs/pre_tool_use-bom");
    assert!(c.input.starts_with(b"\xEF\xBB\xBF"));
    let ev = CORPUS.event("docs/pre_tool_use-bom");
    assert_eq!(ev.envelope().raw().as_bytes(), c.input.as_slice());
    assert_eq!(
        CODEC.sniff_payload(&c.input, &HashMap::<String, String>::new()),
        Some(Confidence::Certain)
    );
}

#[test]
fn q607_claude_compat_payloads() {
    // A Cursor payload with Claude's event name is the Cursor event.
    let ev = CORPUS.event("docs/pre_tool_use-claude-compat");
    assert_eq!(ev.envelope().native.as_str(), "preToolUse");
    assert_eq!(ev.tool().unwrap().command(), Some("cat ~/.aws/credentials"));
    // Under --provider=claude-code the runner answers with this codec.
    let c = CORPUS.case("docs/pre_tool_use-claude-compat");
    let env = c.env_map();
    let codecs: Vec<&'static dyn Codec> = vec![&agenthooks_claude_stub::CLAUDE, &CODEC];
    let (codec, conf) = agenthooks_runtime::detect(&codecs, Some("claude-code"), &c.input, &env).unwrap();
    assert_eq!((codec.provider().as_str(), conf), ("cursor", Confidence::Mismatch));
    let _ = Invocation::new(c.input.clone(), &env);
}

/// A stand-in for the Claude codec (this crate does not depend on it): a codec named
/// `claude-code` that recognises no Cursor payload, as Claude's sniffer does.
mod agenthooks_claude_stub {
    use agenthooks_core::{
        Codec, DecodeError, EncodeError, Event, EventRow, EventTarget, FailMode, Invocation, Outcome, Provider,
        WireResponse,
    };

    pub(crate) struct Stub;
    pub(crate) static CLAUDE: Stub = Stub;

    impl Codec for Stub {
        fn provider(&self) -> Provider {
            Provider::CLAUDE_CODE
        }
        fn native_events(&self) -> &'static [EventRow] {
            &[]
        }
        fn decode(&self, _: &Invocation<'_>) -> Result<Event, DecodeError> {
            Err(DecodeError::new(
                Provider::CLAUDE_CODE,
                agenthooks_core::DecodeCategory::Data,
                "stub",
            ))
        }
        fn encode(&self, _: &Event, _: &Outcome) -> Result<WireResponse, EncodeError> {
            Ok(WireResponse::empty())
        }
        fn no_op(&self, _: &EventTarget) -> WireResponse {
            WireResponse::empty()
        }
        fn failure_response(&self, _: &EventTarget, _: FailMode, _: &str) -> WireResponse {
            WireResponse::empty()
        }
        fn default_timeout(&self) -> std::time::Duration {
            std::time::Duration::from_secs(1)
        }
    }
}
