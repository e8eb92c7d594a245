//! Property tests: unknown keys are captured and raw bytes kept; no input panics the decoder;
//! the trust identity is canonical.

use std::collections::HashMap;

use agenthooks_codex::trust::{self, CommandHook};
use agenthooks_codex::{view, CODEC};
use agenthooks_core::{Codec, EventTarget, Invocation, Outcome, Transport, WireResponse};
use proptest::prelude::*;
use serde_json::{Map, Value};

use agenthooks_testkit::{strategy, Fixture};

use crate::support::CORPUS;

/// Values with any printable text; the extra keys no Codex schema uses.
fn json_value() -> BoxedStrategy<Value> {
    strategy::json_value("\\PC{0,12}", 3)
}

fn extras() -> BoxedStrategy<Map<String, Value>> {
    strategy::unknown_keys("zz_[a-z0-9_]{1,10}", json_value())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn unknown_keys_land_in_extra_and_raw_is_kept(index in 0usize..64, extra in extras(), pretty in any::<bool>()) {
        let all = CORPUS.cases();
        let fx = &all[index % all.len()];
        let Value::Object(mut payload) = Fixture::input_json(fx) else { panic!("{}", fx.id()) };
        for (k, v) in &extra {
            payload.insert(k.clone(), v.clone());
        }
        let payload = Value::Object(payload);
        let bytes = if pretty {
            serde_json::to_vec_pretty(&payload).unwrap()
        } else {
            serde_json::to_vec(&payload).unwrap()
        };
        let event = fx
            .with_invocation(&bytes, |inv| CODEC.decode(inv))
            .unwrap_or_else(|e| panic!("{}: {e}", fx.id()));
        prop_assert_eq!(event.envelope().raw().as_bytes(), bytes.as_slice());
        let native = view(event.envelope()).unwrap();
        prop_assert_eq!(native.extra(), &extra);
        prop_assert_eq!(serde_json::to_value(native).unwrap(), payload);
        let neutral = CODEC.encode(&event, &Outcome::neutral_for(event.kind())).unwrap();
        prop_assert_eq!(&neutral, &CODEC.no_op(&EventTarget::of(&event)));
        prop_assert_eq!(neutral, WireResponse::empty());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256), argv in any::<bool>()) {
        let env: HashMap<String, String> = HashMap::new();
        let transport = if argv { Transport::Argv } else { Transport::Stdin };
        let _ = CODEC.decode(&Invocation::new(bytes.clone(), &env).with_transport(transport));
        let _ = CODEC.sniff_payload(&bytes, &env);
    }

    #[test]
    fn mistyped_known_events_decode_as_their_kind(
        name in prop::sample::select(vec![
            "SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
            "PostToolUse", "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop",
            "Interrupt", "StopFailure",
        ]),
        fields in prop::collection::btree_map(
            prop::sample::select(vec![
                "session_id", "turn_id", "transcript_path", "cwd", "model", "permission_mode",
                "tool_name", "tool_input", "tool_use_id", "tool_response", "prompt", "source",
                "reason", "trigger", "agent_id", "agent_type", "stop_hook_active",
                "last_assistant_message", "agent_transcript_path", "error", "error_details",
            ]),
            json_value(),
            0..22,
        ),
    ) {
        let mut payload: Map<String, Value> = fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        payload.insert("hook_event_name".into(), Value::from(name));
        let env: HashMap<String, String> = HashMap::new();
        let bytes = serde_json::to_vec(&Value::Object(payload)).unwrap();
        // tolerant decoding: any field of any shape, the event keeps its name and kind
        let event = CODEC.decode(&Invocation::new(bytes.clone(), &env)).unwrap();
        prop_assert_eq!(event.envelope().native.as_str(), name);
        prop_assert_eq!(event.envelope().kind, event.kind());
        if !(name == "PostToolUse" && event.kind() == agenthooks_core::EventKind::ToolError) {
            prop_assert_eq!(event.kind(), CODEC.kind_of(name));
        }
        prop_assert_eq!(event.envelope().raw().as_bytes(), bytes.as_slice());
    }

    #[test]
    fn trust_identity_is_canonical_json(
        command in "\\PC{0,40}",
        matcher in prop::option::of("[ -~]{0,10}"),
        timeout in prop::option::of(0u64..5000),
        is_async in any::<bool>(),
        status in prop::option::of("[ -~]{0,10}"),
        event in prop::sample::select(vec!["PreToolUse", "Stop", "SessionEnd", "user_prompt_submit", "Interrupt"]),
    ) {
        let mut hook = CommandHook::new(command.clone()).with_async(is_async);
        hook.timeout = timeout;
        hook.status_message = status;
        let identity = trust::identity(event, matcher.as_deref(), &hook).unwrap();
        let value: Value = serde_json::from_str(&identity).unwrap();
        // compact, sorted, stable
        prop_assert_eq!(serde_json::to_string(&value).unwrap(), identity.clone());
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        let mut sorted = keys.clone();
        sorted.sort();
        prop_assert_eq!(keys, sorted);
        prop_assert_eq!(value["hooks"][0]["command"].as_str(), Some(command.as_str()));
        let t = value["hooks"][0]["timeout"].as_u64().unwrap();
        prop_assert!(t >= 1);
        let hash = trust::trusted_hash(event, matcher.as_deref(), &hook).unwrap();
        prop_assert_eq!(hash.len(), 71);
        prop_assert_eq!(hash, trust::trusted_hash(event, matcher.as_deref(), &hook).unwrap());
    }
}
