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

/// Any JSON document an encoder can write: `null`, a bool, an `i64`, a finite float or a string
/// of up to 8 characters of any kind, in arrays and objects (keys of up to 6 characters) up to
/// `depth` levels, about `size` values in all and fewer than `width` members each. For parsers'
/// properties: what `serde_json` writes of it, compact or pretty, must read back as it.
///
/// ```
/// use agenthooks_testkit::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let mut runner = TestRunner::deterministic();
/// let v = strategy::json_document(3, 24, 4).new_tree(&mut runner).unwrap().current();
/// let text = serde_json::to_string_pretty(&v).unwrap();
/// assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
/// ```
pub fn json_document(depth: u32, size: u32, width: usize) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(depth, size, u32::try_from(width).unwrap_or(u32::MAX), move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..width).prop_map(Value::Array),
            prop::collection::vec((".{0,6}", inner), 0..width).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
    .boxed()
}
