//! Property tests: unknown keys land in `extra`, the raw payload stays byte-identical, shape
//! reconstruction ignores them, and a neutral decision encodes to the no-op.

use std::collections::HashMap;

use agenthooks_copilot::{view, CODEC};
use agenthooks_core::{Codec, EventTarget, Invocation, Outcome};
use proptest::prelude::*;
use serde_json::{Map, Value};

use agenthooks_testkit::{strategy, Fixture};

use crate::fixtures;

fn scalar() -> BoxedStrategy<Value> {
    strategy::json_leaf("[ -~]{0,12}")
}

fn extra_keys() -> BoxedStrategy<Map<String, Value>> {
    strategy::unknown_keys("zz[a-z]{1,8}", scalar())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn unknown_keys_land_in_extra(index in 0usize..64, extra in extra_keys(), pretty in any::<bool>()) {
        // A payload of base keys only is guessed to be `agentStop` (the one event whose own
        // fields are all optional); with an unknown key next to them it is more likely a new
        // event, so that fixture is the one shape unknown keys do change.
        let cases: Vec<_> = fixtures::CORPUS.cases()
            .iter()
            .filter(|f| f.case != "agent_stop-minimal")
            .collect();
        let case = &cases[index % cases.len()];
        let Value::Object(mut payload) = serde_json::from_slice::<Value>(&case.input).unwrap() else {
            panic!("object fixtures")
        };
        payload.extend(extra.clone());
        let bytes = if pretty {
            serde_json::to_vec_pretty(&payload).unwrap()
        } else {
            serde_json::to_vec(&payload).unwrap()
        };
        let env: HashMap<String, String> = case.env_map();
        for argv in [fixtures::argv_event(case), None] {
            let ev = CODEC
                .decode(&Invocation::new(bytes.clone(), &env).with_native_event(argv))
                .unwrap();
            prop_assert_eq!(ev.envelope().raw().as_bytes(), &bytes[..]);
            prop_assert_eq!(ev.envelope().native.as_str(), case.meta.native_event.as_str());
            let got = view(ev.envelope()).unwrap().extra();
            for (k, v) in &extra {
                prop_assert_eq!(got.get(k), Some(v), "{} {}", Fixture::short_id(case), k);
            }
            let wire = CODEC.encode(&ev, &Outcome::neutral_for(ev.kind())).unwrap();
            prop_assert_eq!(wire, CODEC.no_op(&EventTarget::of(&ev)));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256), argv in prop::option::of("[a-zA-Z]{0,20}")) {
        let env: HashMap<String, String> = HashMap::new();
        let _ = CODEC.decode(&Invocation::new(bytes.clone(), &env).with_native_event(argv.as_deref()));
        let _ = CODEC.sniff_payload(&bytes, &env);
    }

    #[test]
    fn arbitrary_objects_never_panic(obj in prop::collection::btree_map(
        prop_oneof![
            Just("toolName".to_owned()), Just("toolArgs".to_owned()), Just("toolInput".to_owned()),
            Just("toolResult".to_owned()), Just("timestamp".to_owned()), Just("cwd".to_owned()),
            Just("hook_event_name".to_owned()), Just("agentName".to_owned()), Just("error".to_owned()),
            Just("stopReason".to_owned()), Just("prompt".to_owned()), Just("hookName".to_owned()),
            "[a-z_]{1,10}",
        ],
        scalar(),
        0..8,
    )) {
        let payload: Map<String, Value> = obj.into_iter().collect();
        let bytes = serde_json::to_vec(&payload).unwrap();
        let env: HashMap<String, String> = HashMap::new();
        if let Ok(ev) = CODEC.decode(&Invocation::new(bytes, &env)) {
            let _ = CODEC.encode(&ev, &Outcome::neutral_for(ev.kind()));
        }
    }
}
