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

/// A type read by [`opt`] with the rules above: text ([`opt_text`]), counts ([`opt_u64`]),
/// flags ([`opt_bool`]), string lists ([`opt_string_list`]), free-shape values ([`present`]),
/// and nested objects ([`Nested`] types, whose implementation calls [`nested`]).
pub trait Lenient: Sized {
    /// Reads an optional field of this type.
    ///
    /// # Errors
    /// A shape the rules do not accept (the caller's repair moves the field to `extra`).
    fn read<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Self>, D::Error>;
}

impl Lenient for String {
    fn read<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Self>, D::Error> {
        opt_text(de)
    }
}

impl Lenient for u64 {
    fn read<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Self>, D::Error> {
        opt_u64(de)
    }
}

impl Lenient for bool {
    fn read<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Self>, D::Error> {
        opt_bool(de)
    }
}

impl Lenient for Vec<String> {
    fn read<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Self>, D::Error> {
        opt_string_list(de)
    }
}

impl Lenient for Value {
    fn read<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Self>, D::Error> {
        present(de)
    }
}

/// `deserialize_with` for an optional field of any [`Lenient`] type: one attribute for every
/// optional field of a nested payload struct.
///
/// # Errors
/// As the type's [`Lenient::read`].
pub fn opt<'de, D: Deserializer<'de>, T: Lenient>(de: D) -> Result<Option<T>, D::Error> {
    T::read(de)
}

/// A payload object nested inside a top-level field (OpenClaw's `event` and `ctx`), read with
/// the kit's repair one level down: a field of an unexpected shape moves to the object's own
/// `extra` and is reported as a [`ProjectionIssue`](super::ProjectionIssue)
/// ([`Repair::MovedToExtra`](super::Repair::MovedToExtra)) instead of failing the whole
/// object, which the top-level repair would move to `extra` as a whole.
///
/// Implement it with a strict derive under `#[serde(remote = "Self")]` and a `Deserialize`
/// that calls [`nested`]:
///
/// ```
/// use agenthooks_core::kit::{lenient, Extra};
/// use serde::{Deserialize, Deserializer};
///
/// #[derive(Debug, Deserialize)]
/// #[serde(remote = "Self", rename_all = "camelCase")]
/// struct Ctx {
///     #[serde(default, deserialize_with = "lenient::opt")]
///     session_id: Option<String>,
///     #[serde(default, deserialize_with = "lenient::opt")]
///     turns: Option<u64>,
///     #[serde(flatten)]
///     extra: Extra,
/// }
/// impl lenient::Nested for Ctx {
///     fn strict<'de, D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
///         Self::deserialize(de) // the strict derive (remote = "Self")
///     }
///     fn extra_mut(&mut self) -> &mut Extra {
///         &mut self.extra
///     }
/// }
/// impl<'de> Deserialize<'de> for Ctx {
///     fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
///         lenient::nested(de)
///     }
/// }
///
/// let c: Ctx = serde_json::from_str(r#"{"sessionId":7,"turns":{"n":3},"x":1}"#)?;
/// assert_eq!((c.session_id.as_deref(), c.turns), (Some("7"), None));
/// assert_eq!(c.extra["turns"], serde_json::json!({"n": 3})); // kept, not dropped
/// assert_eq!(c.extra["x"], 1);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub trait Nested: Sized {
    /// The strict typing (the derive), which fails on a field of an unexpected shape.
    ///
    /// # Errors
    /// The derive's.
    fn strict<'de, D: Deserializer<'de>>(de: D) -> Result<Self, D::Error>;

    /// The object's map of unknown keys, which takes the fields of an unexpected shape.
    fn extra_mut(&mut self) -> &mut super::Extra;
}

impl<T: Nested> Lenient for T {
    fn read<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Self>, D::Error> {
        match Value::deserialize(de)? {
            Value::Null => Ok(None),
            v => nested_value(v).map(Some).map_err(D::Error::custom),
        }
    }
}

/// Reads a [`Nested`] object (see there): the strict typing, retried with each field of an
/// unexpected shape moved to the object's `extra` (each move recorded for the decoder's
/// [`ProjectionIssue`](super::ProjectionIssue)s). A value that is not an object is an error, as
/// in the strict typing.
///
/// # Errors
/// A value that is not an object, or a missing required field.
pub fn nested<'de, D: Deserializer<'de>, T: Nested>(de: D) -> Result<T, D::Error> {
    nested_value(Value::deserialize(de)?).map_err(D::Error::custom)
}

fn nested_value<T: Nested>(mut value: Value) -> Result<T, serde_json::Error> {
    let mut moved: Vec<(String, Value, String)> = Vec::new();
    loop {
        let mut track = serde_path_to_error::Track::new();
        let err = match T::strict(serde_path_to_error::Deserializer::new(&value, &mut track)) {
            Ok(mut typed) => {
                for (key, v, message) in moved {
                    repairs::record(&key, &v, message);
                    typed.extra_mut().insert(key, v);
                }
                return Ok(typed);
            }
            Err(e) => e,
        };
        let key = match track.path().iter().next() {
            Some(serde_path_to_error::Segment::Map { key }) => key.clone(),
            _ => return Err(err),
        };
        match value.as_object_mut().and_then(|m| m.remove(&key)) {
            Some(v) => moved.push((key, v, err.to_string())),
            None => return Err(err),
        }
    }
}

/// The repairs [`nested`] made while the decoder typed a payload, kept per thread until the
/// decoder takes them (a `Deserialize` impl has no other way to report one).
pub(crate) mod repairs {
    use std::cell::RefCell;

    use serde_json::Value;

    use crate::kit::{ProjectionIssue, Repair};

    thread_local! {
        static MOVED: RefCell<Vec<(String, Value, String)>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn record(key: &str, value: &Value, message: String) {
        MOVED.with(|m| m.borrow_mut().push((key.to_owned(), value.clone(), message)));
    }

    /// Forgets what an attempt that failed recorded.
    pub(crate) fn clear() {
        MOVED.with(|m| m.borrow_mut().clear());
    }

    /// The recorded moves as issues, with their paths found in `root` (the payload).
    pub(crate) fn take(root: &Value) -> Vec<ProjectionIssue> {
        let moved = MOVED.with(|m| std::mem::take(&mut *m.borrow_mut()));
        moved
            .into_iter()
            .map(|(key, value, message)| ProjectionIssue {
                path: locate(root, &key, &value).unwrap_or(key),
                message,
                repair: Repair::MovedToExtra,
            })
            .collect()
    }

    /// Whether anything was recorded.
    pub(crate) fn any() -> bool {
        MOVED.with(|m| !m.borrow().is_empty())
    }

    /// The path of the first object under `root` whose `key` holds `value` (`event.sessionId`).
    fn locate(root: &Value, key: &str, value: &Value) -> Option<String> {
        let mut stack = vec![(String::new(), root)];
        while let Some((path, v)) = stack.pop() {
            match v {
                Value::Object(m) => {
                    if m.get(key) == Some(value) && !path.is_empty() {
                        return Some(format!("{path}.{key}"));
                    }
                    for (k, child) in m.iter().rev() {
                        let p = if path.is_empty() {
                            k.clone()
                        } else {
                            format!("{path}.{k}")
                        };
                        stack.push((p, child));
                    }
                }
                Value::Array(items) => {
                    for (i, child) in items.iter().enumerate().rev() {
                        stack.push((format!("{path}[{i}]"), child));
                    }
                }
                _ => {}
            }
        }
        None
    }
}
