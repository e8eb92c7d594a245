//! Property: unknown keys land in `extra`, the raw stays byte-identical, and the neutral answer
//! is the no-op, for every event of the corpus.

use agenthooks_core::{Codec, EventTarget, Invocation, Outcome};
use agenthooks_qwen::{view, CODEC};
use proptest::prelude::*;
use serde_json::{Map, Value};

use agenthooks_testkit::fixture::Fixture;
use agenthooks_testkit::strategy;

use crate::support::CORPUS;

fn docs_cases() -> Vec<Fixture> {
    CORPUS
        .cases()
        .iter()
        .filter(|c| Fixture::short_id(c).starts_with("docs/") && !Fixture::short_id(c).ends_with("unknown-fields"))
        .cloned()
        .collect()
}

/// Scalars and shallow arrays and objects of them.
fn scalar() -> BoxedStrategy<Value> {
    strategy::json_value("[ -~]{0,16}", 1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn unknown_keys_land_in_extra_and_raw_is_kept(
        index in any::<prop::sample::Index>(),
        extras in strategy::unknown_keys("zz_[a-z0-9_]{1,12}", scalar()),
    ) {
        let cases = docs_cases();
        let case = &cases[index.index(cases.len())];
        let mut obj: Map<String, Value> = serde_json::from_slice(&case.input).expect("object");
        for (k, v) in &extras {
            obj.insert(k.clone(), v.clone());
        }
        let bytes = serde_json::to_vec(&obj).expect("serializes");
        let env = case.env_map();
        let inv = Invocation::new(bytes.clone(), &env);
        let ev = CODEC.decode(&inv).expect("decodes");
        prop_assert_eq!(ev.envelope().raw().as_bytes(), bytes.as_slice());
        let native = view(ev.envelope()).expect("native view");
        for (k, v) in &extras {
            prop_assert_eq!(native.extra().get(k), Some(v));
        }
        prop_assert_eq!(native.extra().len(), extras.len());
        let back = serde_json::to_value(native).expect("serializes");
        prop_assert_eq!(back, Value::Object(obj));
        let neutral = CODEC.encode(&ev, &Outcome::neutral_for(ev.kind())).expect("encodes");
        prop_assert_eq!(neutral, CODEC.no_op(&EventTarget::of(&ev)));
    }

    #[test]
    fn decode_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let env = std::collections::HashMap::<String, String>::new();
        let _ = CODEC.decode(&Invocation::new(bytes, &env));
    }

    #[test]
    fn decode_never_panics_on_mutated_payloads(
        index in any::<prop::sample::Index>(),
        key in any::<prop::sample::Index>(),
        value in scalar(),
    ) {
        let cases = docs_cases();
        let case = &cases[index.index(cases.len())];
        let mut obj: Map<String, Value> = serde_json::from_slice(&case.input).expect("object");
        let k = obj.keys().nth(key.index(obj.len())).cloned().expect("a key");
        obj.insert(k, value);
        let bytes = serde_json::to_vec(&obj).expect("serializes");
        let env = case.env_map();
        if let Ok(ev) = CODEC.decode(&Invocation::new(bytes.clone(), &env)) {
            prop_assert_eq!(ev.envelope().raw().as_bytes(), bytes.as_slice());
        }
    }
}
