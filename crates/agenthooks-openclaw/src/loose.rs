//! Lenient reading of the fields nested in a frame's `event` and `ctx`.
//!
//! The kit repairs top-level fields only (a value of an unexpected shape moves to `extra`);
//! OpenClaw's payloads are nested one level down, so every optional nested field is read with
//! [`loose`]: each shape a release could send that still means the field is accepted (text sent
//! as a number, a count as a numeric string, a flag as `"true"`, a list as one string), and any
//! other shape leaves the field out of the typed view instead of failing the frame. The raw
//! frame keeps it byte for byte.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A type read leniently from any JSON value.
pub(crate) trait Loose: Sized {
    /// The value as `Self`, when it means one.
    fn from_value(v: Value) -> Option<Self>;
}

impl Loose for String {
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::String(s) => Some(s),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }
}

impl Loose for u64 {
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Number(n) => n.as_u64().or_else(|| {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && (0.0..1.8e19).contains(f))
                    .map(|f| f as u64)
            }),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        }
    }
}

impl Loose for bool {
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Bool(b) => Some(b),
            Value::String(s) => match s.trim() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }
}

impl Loose for Value {
    fn from_value(v: Value) -> Option<Self> {
        Some(v)
    }
}

impl Loose for Vec<String> {
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Array(a) => Some(a.into_iter().filter_map(String::from_value).collect()),
            Value::String(s) => Some(vec![s]),
            _ => None,
        }
    }
}

/// Any nested struct of this crate: read when it parses, else left out.
macro_rules! loose_struct {
    ($($t:ty),* $(,)?) => {$(
        impl Loose for $t {
            fn from_value(v: Value) -> Option<Self> {
                serde_json::from_value(v).ok()
            }
        }
    )*};
}

loose_struct!(crate::native::Requester, crate::native::Usage);

/// `deserialize_with` for every optional nested field (see the module docs). An explicit
/// `null` is `None` except for free-shape [`Value`] fields, where it is kept.
pub(crate) fn loose<'de, D: Deserializer<'de>, T: Loose>(de: D) -> Result<Option<T>, D::Error> {
    Ok(T::from_value(Value::deserialize(de)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_shape_that_means_the_field() {
        assert_eq!(String::from_value(json!(7)), Some("7".into()));
        assert_eq!(u64::from_value(json!("12")), Some(12));
        assert_eq!(u64::from_value(json!(12.0)), Some(12));
        assert_eq!(bool::from_value(json!("true")), Some(true));
        assert_eq!(Vec::<String>::from_value(json!("a")), Some(vec!["a".into()]));
        assert_eq!(String::from_value(json!({"a": 1})), None);
        assert_eq!(Value::from_value(Value::Null), Some(Value::Null));
    }
}
