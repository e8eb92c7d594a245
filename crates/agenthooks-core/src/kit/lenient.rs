//! Field deserializers that accept every shape an agent release sent (tolerant decoding,
//! rule 2). Use them with `#[serde(default, deserialize_with = "…")]` on `Option` fields.
//!
//! ```
//! use agenthooks_core::kit::lenient;
//! #[derive(serde::Deserialize)]
//! struct P {
//!     #[serde(default, deserialize_with = "lenient::opt_u64")]
//!     duration_ms: Option<u64>,
//!     #[serde(default, deserialize_with = "lenient::opt_bool")]
//!     active: Option<bool>,
//!     #[serde(default, deserialize_with = "lenient::opt_text")]
//!     id: Option<String>,
//!     #[serde(default, deserialize_with = "lenient::opt_string_list")]
//!     roots: Option<Vec<String>>,
//!     #[serde(default, deserialize_with = "lenient::present")]
//!     output: Option<serde_json::Value>,
//! }
//! let p: P = serde_json::from_str(r#"{"duration_ms":"12","active":"true","id":7,"roots":"/w","output":null}"#)?;
//! assert_eq!((p.duration_ms, p.active, p.id.as_deref()), (Some(12), Some(true), Some("7")));
//! assert_eq!(p.roots, Some(vec!["/w".to_owned()]));
//! assert_eq!(p.output, Some(serde_json::Value::Null)); // null kept, distinct from absent
//! # Ok::<(), serde_json::Error>(())
//! ```

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// An optional free-shape field whose explicit `null` is kept as `Some(Value::Null)` (plain
/// `Option<Value>` folds it into `None`), so "absent" and "null" stay distinguishable.
pub fn present<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(de).map(Some)
}

/// An optional field of any type `T` whose explicit `null` is kept as `Some` of `T`'s own
/// null form (for untagged enums with a `Value` fallback, which plain `Option<T>` would fold
/// into `None`).
pub fn some<'de, D: Deserializer<'de>, T: Deserialize<'de>>(de: D) -> Result<Option<T>, D::Error> {
    T::deserialize(de).map(Some)
}

/// A count or duration sent as a number (integer or integral float), a numeric string, or
/// `null` (→ `None`).
pub fn opt_u64<'de, D: Deserializer<'de>>(de: D) -> Result<Option<u64>, D::Error> {
    match Value::deserialize(de)? {
        Value::Null => Ok(None),
        Value::Number(n) => n
            .as_u64()
            .or_else(|| {
                // An integral float (`12.0`) some releases send for durations.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && (0.0..1.8e19).contains(f))
                    .map(|f| f as u64)
            })
            .map(Some)
            .ok_or_else(|| D::Error::custom(format!("expected a non-negative integer, got {n}"))),
        Value::String(s) => s
            .trim()
            .parse::<u64>()
            .map(Some)
            .map_err(|_| D::Error::custom(format!("expected a numeric string, got {s:?}"))),
        other => Err(D::Error::custom(format!("expected a number, got {other}"))),
    }
}

/// A flag sent as a boolean, `"true"`/`"false"`, `0`/`1`, or `null` (→ `None`).
pub fn opt_bool<'de, D: Deserializer<'de>>(de: D) -> Result<Option<bool>, D::Error> {
    match Value::deserialize(de)? {
        Value::Null => Ok(None),
        Value::Bool(b) => Ok(Some(b)),
        Value::Number(n) if n.as_u64() == Some(0) => Ok(Some(false)),
        Value::Number(n) if n.as_u64() == Some(1) => Ok(Some(true)),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Ok(Some(true)),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Ok(Some(false)),
        other => Err(D::Error::custom(format!("expected a boolean, got {other}"))),
    }
}

/// A text or id sent as a string or as a number (rendered in decimal), or `null` (→ `None`).
pub fn opt_text<'de, D: Deserializer<'de>>(de: D) -> Result<Option<String>, D::Error> {
    match Value::deserialize(de)? {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        Value::Number(n) => Ok(Some(n.to_string())),
        other => Err(D::Error::custom(format!("expected a string, got {other}"))),
    }
}

/// A list of strings sent as an array or as one string, or `null` (→ `None`).
pub fn opt_string_list<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Vec<String>>, D::Error> {
    match Value::deserialize(de)? {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(vec![s])),
        Value::Array(items) => items
            .into_iter()
            .map(|v| match v {
                Value::String(s) => Ok(s),
                other => Err(D::Error::custom(format!("expected a string item, got {other}"))),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        other => Err(D::Error::custom(format!("expected a list of strings, got {other}"))),
    }
}
