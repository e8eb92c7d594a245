//! The tolerance property: a payload from another agent release still decodes.
//!
//! For a fixture, every top-level field except the event-name key ([`Codec::name_key`]) and
//! the event's identifying fields ([`EventRow::identifying`](agenthooks_core::EventRow)) is
//! dropped in turn, and replaced in turn by a value of another JSON type ([`retype`]). Each
//! altered payload must decode, as the same kind as the original, with
//! [`Envelope::raw`](agenthooks_core::Envelope::raw) byte-identical to the altered bytes.
//! The conformance suite runs it as check 8 on every fixture.

use agenthooks_core::Codec;
use serde_json::{Map, Value};

use crate::fixture::Fixture;

/// A value of another JSON type than `v`: strings become numbers, numbers and booleans
/// strings, objects strings, arrays objects, `null` an object.
///
/// ```
/// use serde_json::json;
/// use agenthooks_testkit::tolerance::retype;
/// assert_eq!(retype(&json!("a")), json!(7));
/// assert_eq!(retype(&json!({"a": 1})), json!("{\"a\":1}"));
/// assert_eq!(retype(&json!([1])), json!({"value": [1]}));
/// ```
pub fn retype(v: &Value) -> Value {
    match v {
        Value::String(_) => Value::from(7),
        Value::Number(n) => Value::String(n.to_string()),
        Value::Bool(b) => Value::String(b.to_string()),
        Value::Object(_) => Value::String(v.to_string()),
        Value::Array(_) => {
            let mut m = Map::new();
            m.insert("value".into(), v.clone());
            Value::Object(m)
        }
        Value::Null => Value::Object(Map::new()),
    }
}

/// The payloads derived from `input` (a JSON object) by dropping, then retyping, each field
/// not in `keep`: `(description, bytes)`.
pub fn variants(input: &[u8], keep: &[&str]) -> Vec<(String, Vec<u8>)> {
    let bytes = agenthooks_core::event::strip_bom(input);
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(bytes) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for key in map.keys().filter(|k| !keep.contains(&k.as_str())) {
        let mut dropped = map.clone();
        dropped.shift_remove(key);
        out.push((format!("without `{key}`"), to_bytes(dropped)));
        let mut retyped = map.clone();
        if let Some(v) = retyped.get_mut(key) {
            *v = retype(v);
        }
        out.push((format!("with `{key}` retyped"), to_bytes(retyped)));
    }
    out
}

fn to_bytes(map: Map<String, Value>) -> Vec<u8> {
    serde_json::to_vec(&Value::Object(map)).unwrap_or_default()
}

/// Checks one fixture: one entry per variant, `Some(message)` for a failure.
pub fn check_fixture(codec: &dyn Codec, fx: &Fixture) -> Vec<Option<String>> {
    let Ok(original) = fx.decode(codec) else {
        return Vec::new(); // check 1 reports it
    };
    let kind = original.kind();
    let native = fx.meta.native_event.as_str();
    let mut keep: Vec<&str> = codec.row(native).map(|r| r.identifying.to_vec()).unwrap_or_default();
    keep.extend(codec.name_key());
    variants(&fx.input, &keep)
        .into_iter()
        .map(
            |(what, bytes)| match fx.with_invocation(&bytes, |inv| codec.decode(inv)) {
                Err(e) => Some(format!("tolerance: {what}, does not decode: {e}")),
                Ok(ev) if ev.kind() != kind => {
                    Some(format!("tolerance: {what}, decodes as {} instead of {kind}", ev.kind()))
                }
                Ok(ev) if ev.envelope().raw().as_bytes() != bytes.as_slice() => {
                    Some(format!("tolerance: {what}, raw differs from the altered bytes"))
                }
                Ok(_) => None,
            },
        )
        .collect()
}
