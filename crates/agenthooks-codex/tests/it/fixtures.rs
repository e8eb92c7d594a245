//! The corpus: every native event has captured or documented cases, inputs are compact, and
//! every stdin input validates against Codex's input schema and decodes exactly (nothing
//! repaired, nothing left in `extra`, the typed view serialises back to the input).

use std::collections::BTreeSet;

use agenthooks_codex::native::{self, NativeEvent, EVENTS, NOTIFY_EVENT};
use agenthooks_core::{Provider, Transport};
use serde_json::Value;

use agenthooks_testkit::Fixture;

use crate::support::{input_schema, CORPUS};

fn decode_exact(bytes: &[u8], hint: Option<&str>, id: &str) -> NativeEvent {
    let decoded = NativeEvent::decode(&Provider::CODEX, bytes, hint).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert!(
        decoded.is_exact() && decoded.issues.is_empty(),
        "{id}: repaired {:?}",
        decoded.issues
    );
    decoded.native
}

#[test]
fn corpus_is_complete() {
    let all = CORPUS.cases();
    let events: BTreeSet<&str> = all.iter().map(|f| f.meta.native_event.as_str()).collect();
    for row in EVENTS {
        assert!(events.contains(row.name), "no fixture for {}", row.name);
        // one hand-made case per event, sourced from the docs
        assert!(
            all.iter()
                .any(|f| f.version == "docs" && f.meta.native_event == row.name && f.meta.source.starts_with("docs")),
            "no docs fixture for {}",
            row.name
        );
    }
    assert!(
        all.iter().any(|f| f.meta.transport == Transport::Argv),
        "no notify fixture"
    );
    assert!(all.iter().filter(|f| f.version == "0.171.0").count() >= 6);
}

#[test]
fn inputs_are_compact_single_line_json() {
    for fx in CORPUS.cases() {
        let text = std::str::from_utf8(&fx.input).unwrap();
        assert!(!text.contains('\n'), "{}: not one line", fx.id());
        assert_eq!(
            serde_json::to_string(&Fixture::input_json(fx)).unwrap(),
            text,
            "{}: not compact",
            fx.id()
        );
    }
}

#[test]
fn stdin_fixtures_validate_and_decode_exactly() {
    let mut checked = 0;
    for fx in CORPUS.cases().iter().filter(|f| f.meta.transport == Transport::Stdin) {
        let id = fx.id();
        let event = decode_exact(&fx.input, None, &id);
        assert!(!matches!(event, NativeEvent::Other(_)), "{id}: decoded as Other");
        assert!(event.extra().is_empty(), "{id}: unexpected extra {:?}", event.extra());
        // lossless: the typed struct serialises back to the same JSON value
        assert_eq!(serde_json::to_value(&event).unwrap(), Fixture::input_json(fx), "{id}");
        // The schemas are 0.171.0's; 0.116.0's Stop predates its required `turn_id`.
        if fx.version == "0.116.0" {
            continue;
        }
        let schema = input_schema(&fx.meta.native_event).unwrap_or_else(|| panic!("{id}: no input schema"));
        if let Err(errors) = schema.validate(&Fixture::input_json(fx)) {
            panic!("{id}: schema violations: {errors:#?}");
        }
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} stdin fixtures");
}

#[test]
fn notify_fixtures_decode_from_argv() {
    let mut checked = 0;
    for fx in CORPUS.cases().iter().filter(|f| f.meta.transport == Transport::Argv) {
        let id = fx.id();
        let arg = fx.meta.argv.last().unwrap_or_else(|| panic!("{id}: no argv"));
        assert_eq!(arg.as_bytes(), fx.input.as_slice(), "{id}: argv != input.json");
        let NativeEvent::LegacyNotify(notify) = decode_exact(arg.as_bytes(), Some(NOTIFY_EVENT), &id) else {
            panic!("{id}: not the notify payload")
        };
        assert_eq!(notify.kind, fx.meta.native_event, "{id}");
        assert!(notify.extra.is_empty(), "{id}");
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn captured_values_decode_as_seen_on_the_wire() {
    let decode = |id: &str| decode_exact(&CORPUS.case(id).input, None, id);

    let NativeEvent::PreToolUse(pre) = decode("0.171.0/pre_tool_use-allow") else {
        panic!("not PreToolUse")
    };
    assert_eq!(pre.tool_name, "Bash");
    assert_eq!(pre.tool_input.as_ref().unwrap()["command"], "echo hi > marker.txt");
    assert_eq!(pre.tool_use_id.as_deref(), Some("call_0003"));
    assert_eq!(pre.permission_mode, Some(native::PermissionMode::BypassPermissions));

    let NativeEvent::PostToolUse(post) = decode("0.171.0/post_tool_use-allow") else {
        panic!("not PostToolUse")
    };
    assert_eq!(
        post.tool_response.as_ref().map(agenthooks_core::RawJson::value),
        Some(&Value::String(String::new()))
    );

    let NativeEvent::SessionEnd(end) = decode("docs/session_end-example") else {
        panic!("not SessionEnd")
    };
    assert_eq!(end.transcript_path, Some(None), "sent as null");
    assert_eq!(end.reason, Some(native::SessionEndReason::Unspecified));

    let NativeEvent::PostToolUse(mcp) = decode("docs/post_tool_use-example") else {
        panic!("not PostToolUse")
    };
    assert_eq!(mcp.agent_type.as_deref(), Some("explorer"));
    assert_eq!(mcp.tool_response.as_ref().unwrap()["isError"], Value::Bool(false));
}

/// MCP attribution over `fixtures/codex/mcp/` (layer merge, `CODEX_HOME`, `__` in a server
/// name, a malformed `config.toml`).
#[test]
fn mcp_calls_resolve_from_config_toml() {
    agenthooks_testkit::mcp::assert_corpus(&agenthooks_codex::CODEC, "codex");
}
