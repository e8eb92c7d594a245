//! Property: unknown keys added anywhere Gemini might add them land in `extra`, the raw bytes
//! stay identical, the kind does not change, and `encode(no decision)` is still `{}`.

use agenthooks_core::{Codec, Invocation, Outcome};
use agenthooks_gemini::native::NativeEvent;
use agenthooks_gemini::{view, CODEC};
use proptest::prelude::*;
use serde_json::{Map, Value};

use agenthooks_testkit::fixture::Fixture;
use agenthooks_testkit::strategy;

use crate::CORPUS;

/// Unknown keys with values whose text needs escaping (`<>&"\` and non-ASCII).
fn extras() -> BoxedStrategy<Map<String, Value>> {
    strategy::unknown_keys("x_[a-z_]{1,10}", strategy::json_value("[a-z<>&\"\\\\ é]{0,12}", 2))
}

fn with_extras(c: &Fixture, top: &Map<String, Value>, nested: &Map<String, Value>) -> (Vec<u8>, Map<String, Value>) {
    let mut obj: Map<String, Value> = serde_json::from_slice(&c.input).expect("object");
    for (k, v) in top {
        obj.insert(k.clone(), v.clone());
    }
    // Nested vendor objects collect unknown keys too.
    for key in ["tool_response", "llm_request", "mcp_context"] {
        if let Some(Value::Object(inner)) = obj.get_mut(key) {
            for (k, v) in nested {
                inner.insert(k.clone(), v.clone());
            }
        }
    }
    (serde_json::to_vec(&obj).expect("serializes"), obj)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn unknown_keys_land_in_extra_and_raw_is_identical(
        idx in any::<prop::sample::Index>(),
        top in extras(),
        nested in extras(),
        pretty in any::<bool>(),
    ) {
        let all = CORPUS.cases();
        let c = &all[idx.index(all.len())];
        let (mut bytes, obj) = with_extras(c, &top, &nested);
        if pretty {
            bytes = serde_json::to_vec_pretty(&Value::Object(obj.clone())).expect("serializes");
            bytes.extend_from_slice(b"\n");
        }
        let env = c.env_map();
        let ev = CODEC.decode(&Invocation::new(bytes.clone(), &env)).expect("decodes");
        prop_assert_eq!(ev.envelope().raw().as_bytes(), &bytes[..]);
        let v = view(ev.envelope()).expect("view");
        let extra = v.extra();
        prop_assert_eq!(extra.len(), top.len());
        for (k, val) in &top {
            prop_assert_eq!(extra.get(k), Some(val));
        }
        match v {
            NativeEvent::AfterTool(t) => {
                let inner = &t.tool_response.as_ref().expect("tool_response").extra;
                for (k, val) in &nested {
                    prop_assert_eq!(inner.get(k), Some(val));
                }
            }
            NativeEvent::BeforeModel(m) => {
                let inner = &m.llm_request.as_ref().expect("llm_request").extra;
                for (k, val) in &nested {
                    prop_assert_eq!(inner.get(k), Some(val));
                }
            }
            _ => {}
        }
        // The typed struct re-serializes to the same value: nothing dropped.
        prop_assert_eq!(serde_json::to_value(v).expect("serializes"), Value::Object(obj));
        prop_assert!(ev.envelope().projection_issues.is_empty());
        let plain = CODEC.decode(&Invocation::new(c.input.clone(), &env)).expect("decodes");
        prop_assert_eq!(ev.kind(), plain.kind());
        // A synthesized id hashes the input's raw bytes (#20): the same bytes give the same id
        // (pre/post correlation), a re-indented input another one.
        if !pretty {
            prop_assert_eq!(ev.tool().map(|t| t.id.clone()), plain.tool().map(|t| t.id.clone()));
        }
        let again = CODEC.decode(&Invocation::new(bytes.clone(), &env)).expect("decodes");
        prop_assert_eq!(ev.tool().map(|t| t.id.clone()), again.tool().map(|t| t.id.clone()));
        let r = CODEC.encode(&ev, &Outcome::neutral_for(ev.kind())).expect("encodes");
        prop_assert_eq!(r.stdout, b"{}".to_vec());
    }
}
