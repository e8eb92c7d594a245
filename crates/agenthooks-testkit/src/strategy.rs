//! Proptest strategies for JSON payloads (feature `proptest`): the values and unknown keys the
//! codec crates' property tests add to fixture payloads ("unknown keys land in `extra`, the raw
//! bytes are kept").
//!
//! ```
//! use agenthooks_testkit::strategy;
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//! let mut runner = TestRunner::deterministic();
//! let keys = strategy::unknown_keys("zz_[a-z]{1,8}", strategy::json_value("[ -~]{0,12}", 2));
//! let extra = keys.new_tree(&mut runner).unwrap().current();
//! assert!(!extra.is_empty() && extra.keys().all(|k| k.starts_with("zz_")));
//! ```

use proptest::prelude::*;
use serde_json::{Map, Value};

/// A regex strategy for strings (panics on an invalid regex: the patterns are the tests' own).
fn text(regex: &str) -> BoxedStrategy<String> {
    proptest::string::string_regex(regex)
        .unwrap_or_else(|e| panic!("strategy regex {regex:?}: {e}"))
        .boxed()
}

/// A JSON scalar: `null`, a bool, an `i64`, or a string matching `text_regex`.
pub fn json_leaf(text_regex: &str) -> BoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        text(text_regex).prop_map(Value::String),
    ]
    .boxed()
}

/// Any JSON value up to `depth` levels of arrays and objects (up to 4 members each) over
/// [`json_leaf`]`(text_regex)`.
pub fn json_value(text_regex: &str, depth: u32) -> BoxedStrategy<Value> {
    json_leaf(text_regex)
        .prop_recursive(depth, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
        .boxed()
}

/// One to four unknown keys matching `key_regex` (a prefix no provider uses), each with a
/// value from `values`.
pub fn unknown_keys(key_regex: &str, values: BoxedStrategy<Value>) -> BoxedStrategy<Map<String, Value>> {
    prop::collection::btree_map(text(key_regex), values, 1..5)
        .prop_map(|m| m.into_iter().collect())
        .boxed()
}
