//! `trust::{state_key, trusted_hash}` against the vectors the real codex 0.171.0 produced, and
//! the identity rules.

use agenthooks_codex::trust::{self, event_label, identity, state_key, trusted_hash, CommandHook, TrustError};
use serde_json::Value;

use crate::support::crate_dir;

#[test]
fn every_vector_matches() {
    let text = std::fs::read_to_string(crate_dir().join("tests/data/trust-hash-vectors-0.171.0.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["codex_version"], "0.171.0");
    let vectors = doc["vectors"].as_array().unwrap();
    assert_eq!(vectors.len(), 11);
    for v in vectors {
        let event = v["native_event"].as_str().unwrap();
        let group = &v["hooks_json_group"];
        let matcher = group.get("matcher").and_then(Value::as_str);
        let hooks = group["hooks"].as_array().unwrap();
        assert_eq!(hooks.len(), 1);
        let h = &hooks[0];
        assert_eq!(h["type"], "command");
        let mut hook = CommandHook::new(h["command"].as_str().unwrap());
        if let Some(t) = h.get("timeout").and_then(Value::as_u64) {
            hook = hook.with_timeout(t);
        }
        if let Some(a) = h.get("async").and_then(Value::as_bool) {
            hook = hook.with_async(a);
        }
        if let Some(m) = h.get("statusMessage").and_then(Value::as_str) {
            hook = hook.with_status_message(m);
        }

        let expected_key = v["state_key"].as_str().unwrap();
        let key_source = expected_key.split(':').next().unwrap();
        assert_eq!(
            trust::state_key(key_source, event, 0, 0).unwrap(),
            expected_key,
            "{event}"
        );
        assert_eq!(
            trust::identity(event, matcher, &hook).unwrap(),
            v["identity_bytes"].as_str().unwrap(),
            "{event}: identity"
        );
        assert_eq!(
            trust::trusted_hash(event, matcher, &hook).unwrap(),
            v["trusted_hash"].as_str().unwrap(),
            "{event}: hash"
        );
    }
}

#[test]
fn reference_example_identity_bytes() {
    // codex.md: PreToolUse, matcher `Bash`, command `guard`, no timeout.
    assert_eq!(
        identity("PreToolUse", Some("Bash"), &CommandHook::new("guard")).unwrap(),
        r#"{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"guard","timeout":600,"type":"command"}],"matcher":"Bash"}"#
    );
}

#[test]
fn matcher_rules() {
    let hook = CommandHook::new("x");
    let ups = identity("UserPromptSubmit", Some("^hi"), &hook).unwrap();
    assert!(!ups.contains("matcher"), "{ups}");
    let stop = identity("stop", Some("*"), &hook).unwrap();
    assert!(!stop.contains("matcher"), "{stop}");
    let empty = identity("PostToolUse", Some(""), &hook).unwrap();
    assert!(empty.ends_with(r#","matcher":""}"#), "{empty}");
    let none = identity("PostToolUse", None, &hook).unwrap();
    assert!(!none.contains("matcher"), "{none}");
}

#[test]
fn timeout_normalisation() {
    let with = |event: &str, timeout: Option<u64>| {
        let mut hook = CommandHook::new("x");
        hook.timeout = timeout;
        identity(event, None, &hook).unwrap()
    };
    assert!(with("SessionEnd", None).contains(r#""timeout":1,"#));
    assert!(with("SessionEnd", Some(30)).contains(r#""timeout":3,"#));
    assert!(with("SessionEnd", Some(0)).contains(r#""timeout":1,"#));
    assert!(with("Stop", None).contains(r#""timeout":600,"#));
    assert!(with("Stop", Some(0)).contains(r#""timeout":1,"#));
    assert!(with("Stop", Some(45)).contains(r#""timeout":45,"#));
}

#[test]
fn optional_fields_and_key_order() {
    let hook = CommandHook::new("say \"hi\" ü")
        .with_async(true)
        .with_status_message("checking")
        .with_timeout(5)
        .with_additional_context_limit(100);
    assert_eq!(
        identity("SessionStart", Some("startup"), &hook).unwrap(),
        r#"{"event_name":"session_start","hooks":[{"additionalContextLimit":100,"async":true,"command":"say \"hi\" ü","statusMessage":"checking","timeout":5,"type":"command"}],"matcher":"startup"}"#
    );
    // the default limit and events that do not accept it leave it out
    let default_limit = CommandHook::new("x").with_additional_context_limit(2500);
    assert!(!identity("SessionStart", None, &default_limit)
        .unwrap()
        .contains("additionalContextLimit"));
    let stop_limit = CommandHook::new("x").with_additional_context_limit(10);
    assert!(!identity("Stop", None, &stop_limit)
        .unwrap()
        .contains("additionalContextLimit"));
}

#[test]
fn unknown_events_are_errors() {
    assert_eq!(
        state_key("/f", "Notification", 0, 0),
        Err(TrustError::UnknownEvent("Notification".into()))
    );
    assert!(trusted_hash("nope", None, &CommandHook::new("x")).is_err());
    assert_eq!(event_label("Interrupt"), Some("interrupt"));
    assert_eq!(event_label("post_compact"), Some("post_compact"));
}

#[test]
fn labels_and_clamps_come_from_the_rows() {
    for row in agenthooks_codex::native::EVENTS {
        let hooked = row.name != agenthooks_codex::native::NOTIFY_EVENT;
        assert_eq!(event_label(row.name).is_some(), hooked, "{}", row.name);
        if let (true, Some(clamp)) = (hooked, row.timeout_clamp) {
            let mut hook = CommandHook::new("x");
            hook.timeout = Some(30);
            let want = format!(r#""timeout":{},"#, clamp.as_secs());
            assert!(identity(row.name, None, &hook).unwrap().contains(&want), "{}", row.name);
        }
    }
    assert_eq!(event_label("Interrupt"), Some("interrupt"));
    assert_eq!(event_label("StopFailure"), Some("stop_failure"));
    assert_eq!(event_label("agent-turn-complete"), None);
}
