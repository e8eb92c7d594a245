//! `trust::{state_key, trusted_hash}` against the vectors the real codex 0.171.0 produced.

use agenthooks_codex::trust::{self, CommandHook};
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
