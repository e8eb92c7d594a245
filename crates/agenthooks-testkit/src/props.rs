//! Property checks over a codec's fixture corpus (feature `proptest`), written once for every
//! codec that runs them: the codec, its native enum and the corpus are parameters.
//!
//! A codec crate's `props.rs` draws a case and the generated values with `proptest!` and calls
//! these checks; what it does not share (an event whose `extra` legitimately holds more keys,
//! a dialect-specific property) stays in the crate.
//!
//! ```
//! use agenthooks_testkit::props;
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//! let mut runner = TestRunner::deterministic();
//! let v = props::scalar().new_tree(&mut runner).unwrap().current();
//! assert!(serde_json::to_vec(&v).is_ok());
//! ```

use agenthooks_core::kit::NativeEvents;
use agenthooks_core::{Codec, EventTarget, Invocation, Outcome};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{Map, Value};

use crate::fixture::Fixture;
use crate::{strategy, Corpus};

/// The cases a property draws from: the corpus's `docs/` cases (the agent's documented
/// payloads), except the `unknown-fields` ones (which already carry unknown keys).
pub fn docs_cases(corpus: &Corpus) -> Vec<Fixture> {
    corpus
        .cases()
        .iter()
        .filter(|c| Fixture::short_id(c).starts_with("docs/") && !Fixture::short_id(c).ends_with("unknown-fields"))
        .cloned()
        .collect()
}

/// Scalars and shallow arrays and objects of them: the values the properties add or splice in.
pub fn scalar() -> BoxedStrategy<Value> {
    strategy::json_value("[ -~]{0,16}", 1)
}

/// Unknown keys land in `extra` and the raw stays byte-identical: `extras` added to `case`'s
/// payload decode with the raw kept byte for byte, each extra in the native view's `extra`
/// (exactly those, unless `extra_may_hold_more` says so for the event's name), the native
/// view serializes back to the payload, and the neutral answer is the codec's no-op.
///
/// `N` is the codec's native enum (`native::NativeEvent`).
pub fn check_unknown_keys<N: NativeEvents>(
    codec: &dyn Codec,
    case: &Fixture,
    extras: &Map<String, Value>,
    extra_may_hold_more: impl Fn(&str) -> bool,
) -> Result<(), TestCaseError> {
    let mut obj: Map<String, Value> = serde_json::from_slice(&case.input).expect("object");
    for (k, v) in extras {
        obj.insert(k.clone(), v.clone());
    }
    let bytes = serde_json::to_vec(&obj).expect("serializes");
    let env = case.env_map();
    let inv = Invocation::new(bytes.clone(), &env);
    let ev = codec.decode(&inv).expect("decodes");
    prop_assert_eq!(ev.envelope().raw().as_bytes(), bytes.as_slice());
    let native = ev.envelope().native_view::<N>().expect("native view");
    let mut copy = native.clone();
    let extra = copy.extra_mut();
    for (k, v) in extras {
        prop_assert_eq!(extra.get(k), Some(v));
    }
    if !extra_may_hold_more(native.name()) {
        prop_assert_eq!(extra.len(), extras.len());
    }
    let back = serde_json::to_value(native).expect("serializes");
    prop_assert_eq!(back, Value::Object(obj));
    let neutral = codec.encode(&ev, &Outcome::neutral_for(ev.kind())).expect("encodes");
    prop_assert_eq!(neutral, codec.no_op(&EventTarget::of(&ev)));
    Ok(())
}

/// A payload with one key's value replaced by `value` either fails to decode or keeps its raw
/// bytes (and never panics).
pub fn check_mutated_payload(
    codec: &dyn Codec,
    case: &Fixture,
    key: prop::sample::Index,
    value: Value,
) -> Result<(), TestCaseError> {
    let mut obj: Map<String, Value> = serde_json::from_slice(&case.input).expect("object");
    let k = obj.keys().nth(key.index(obj.len())).cloned().expect("a key");
    obj.insert(k, value);
    let bytes = serde_json::to_vec(&obj).expect("serializes");
    let env = case.env_map();
    if let Ok(ev) = codec.decode(&Invocation::new(bytes.clone(), &env)) {
        prop_assert_eq!(ev.envelope().raw().as_bytes(), bytes.as_slice());
    }
    Ok(())
}

/// Decoding arbitrary bytes never panics (an error is fine).
pub fn check_arbitrary_bytes(codec: &dyn Codec, bytes: Vec<u8>) {
    let env = std::collections::HashMap::<String, String>::new();
    let _ = codec.decode(&Invocation::new(bytes, &env));
}
