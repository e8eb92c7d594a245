//! [`RawJson`]: a large payload field kept as its raw JSON text and parsed on first access.

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// A JSON value kept as its raw text, parsed once on first access.
///
/// Tool inputs, tool outputs, messages and inlined transcripts can be megabytes, and most
/// handlers read none of them (or one key). The native structs and the normalized events hold
/// such fields as a `RawJson`: the field's exact text, validated once by the decoder and copied
/// once out of the stdin buffer into a shared allocation (a clone is a reference count, so the
/// native view and the projection share it), plus a [`OnceLock`] that caches the parsed
/// [`Value`] the first time a handler asks for it. [`RawJson::field`] reads one top-level key
/// without building the whole tree.
///
/// ```
/// use agenthooks_core::RawJson;
/// let j: RawJson = serde_json::from_str(r#"{"command":"ls","big":[1,2,3]}"#)?;
/// assert_eq!(j.get(), r#"{"command":"ls","big":[1,2,3]}"#); // the exact text
/// assert_eq!(j.field("command"), Some("ls".into()));     // one key, no tree
/// assert!(!j.is_parsed());
/// assert_eq!(j.value()["big"][2], 3);                     // parsed now, once
/// assert!(j.is_parsed());
/// assert_eq!(serde_json::to_string(&j)?, j.get());        // written back verbatim
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone)]
pub struct RawJson(Arc<Inner>);

struct Inner {
    raw: Box<RawValue>,
    parsed: OnceLock<Value>,
}

impl RawJson {
    /// Wraps raw JSON text (already validated by `serde_json`).
    pub fn from_raw(raw: Box<RawValue>) -> Self {
        Self(Arc::new(Inner {
            raw,
            parsed: OnceLock::new(),
        }))
    }

    /// A value built in code (serialized once; the value is the cache, nothing is re-parsed).
    pub fn from_value(value: Value) -> Self {
        // Serializing a `Value` cannot fail.
        let raw = serde_json::value::to_raw_value(&value).unwrap_or_default();
        Self(Arc::new(Inner {
            raw,
            parsed: OnceLock::from(value),
        }))
    }

    /// JSON `null`.
    pub fn null() -> Self {
        Self::from_value(Value::Null)
    }

    /// The exact text, as the agent sent it (without surrounding whitespace).
    pub fn get(&self) -> &str {
        self.0.raw.get()
    }

    /// The parsed value (parsed on the first call, then cached).
    ///
    /// The text is read tolerantly ([`kit::tolerant`](crate::kit::tolerant)): a lone surrogate
    /// escape, nesting past `serde_json`'s limit or a number past `f64` (all of which the
    /// decoder's raw capture accepts, as the agents' encoders write them) are repaired in the
    /// value, each repair logged as a warning; [`RawJson::get`] keeps the exact text.
    pub fn value(&self) -> &Value {
        self.0.parsed.get_or_init(|| parse(self.0.raw.get()))
    }

    /// The parsed value, owned (moves it out of the cache when this is the only handle).
    pub fn into_value(self) -> Value {
        match Arc::try_unwrap(self.0) {
            Ok(inner) => match inner.parsed.into_inner() {
                Some(v) => v,
                None => parse(inner.raw.get()),
            },
            Err(shared) => RawJson(shared).value().clone(),
        }
    }

    /// Whether [`RawJson::value`] has been computed.
    pub fn is_parsed(&self) -> bool {
        self.0.parsed.get().is_some()
    }

    /// Whether the value is JSON `null`.
    pub fn is_null(&self) -> bool {
        self.get() == "null"
    }

    /// The first byte of the text: `{` object, `[` array, `"` string, …
    fn lead(&self) -> u8 {
        self.get().as_bytes().first().copied().unwrap_or(b'n')
    }

    /// Whether the value is a JSON object.
    pub fn is_object(&self) -> bool {
        self.lead() == b'{'
    }

    /// Whether the value is a JSON string.
    pub fn is_string(&self) -> bool {
        self.lead() == b'"'
    }

    /// The value of one top-level key of an object. Reads the cache when the value is already
    /// parsed; otherwise scans the raw text, skipping every other value without building it.
    /// `None` when the key is absent or the value is not an object.
    pub fn field(&self, key: &str) -> Option<Value> {
        self.fields(&[key]).pop().flatten()
    }

    /// The values of several top-level keys in one scan (see [`RawJson::field`]), in the order
    /// of `keys`.
    pub fn fields(&self, keys: &[&str]) -> Vec<Option<Value>> {
        if let Some(v) = self.0.parsed.get() {
            return keys
                .iter()
                .map(|k| v.as_object().and_then(|m| m.get(*k)).cloned())
                .collect();
        }
        match try_scan_fields(self.get(), keys) {
            Some(found) => found,
            // The scan met what only the tolerant parse reads (a lone surrogate or deep nesting
            // in a wanted value): parse (and cache) the whole value.
            None => keys
                .iter()
                .map(|k| self.value().as_object().and_then(|m| m.get(*k)).cloned())
                .collect(),
        }
    }

    /// The value as an object: an object as is, a JSON string that holds an object parsed,
    /// `null` empty, anything else wrapped as `{"value": …}` (the normalization of
    /// [`ToolCall::input`](crate::ToolCall::input)). Builds the map straight from the text.
    pub fn to_object(&self) -> Map<String, Value> {
        if let Some(v) = self.0.parsed.get() {
            return normalize_input(v);
        }
        match self.lead() {
            b'{' => match serde_json::from_str(self.get()) {
                Ok(m) => m,
                // A lone surrogate, deep nesting, a huge number: the tolerant parse, cached.
                Err(_) => normalize_input(self.value()),
            },
            b'n' => Map::new(),
            _ => normalize_input(self.value()),
        }
    }
}

/// The tolerant parse of a raw field's text (repairs logged).
fn parse(text: &str) -> Value {
    crate::kit::tolerant::parse_logged(text, "raw JSON field")
}

/// Scans a JSON object's text for `keys`, typing only their values; a text the strict scan
/// cannot read is parsed tolerantly ([`kit::tolerant`](crate::kit::tolerant)).
pub(crate) fn scan_fields(text: &str, keys: &[&str]) -> Vec<Option<Value>> {
    try_scan_fields(text, keys).unwrap_or_else(|| {
        let v = crate::kit::tolerant::parse_logged(text, "tool input");
        keys.iter()
            .map(|k| v.as_object().and_then(|m| m.get(*k)).cloned())
            .collect()
    })
}

/// The strict scan of [`scan_fields`]: `None` when the text is not an object `serde_json`
/// reads (other values skipped are not typed, so only a wanted value or the structure fails).
fn try_scan_fields(text: &str, keys: &[&str]) -> Option<Vec<Option<Value>>> {
    let mut out = vec![None; keys.len()];
    if text.as_bytes().first() != Some(&b'{') {
        return Some(out);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_map(FieldScan { keys, out: &mut out }).ok()?;
    Some(out)
}

struct FieldScan<'a, 'k> {
    keys: &'a [&'k str],
    out: &'a mut Vec<Option<Value>>,
}

impl<'de> Visitor<'de> for FieldScan<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(k) = map.next_key_seed(crate::kit::KeyCow)? {
            match self.keys.iter().position(|want| *want == k.as_ref()) {
                Some(i) => self.out[i] = Some(map.next_value()?),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

impl Default for RawJson {
    fn default() -> Self {
        Self::null()
    }
}

impl From<Value> for RawJson {
    fn from(v: Value) -> Self {
        Self::from_value(v)
    }
}

impl From<Box<RawValue>> for RawJson {
    fn from(raw: Box<RawValue>) -> Self {
        Self::from_raw(raw)
    }
}

impl std::ops::Deref for RawJson {
    type Target = Value;

    /// The parsed value (parsed on first access).
    fn deref(&self) -> &Value {
        self.value()
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.get() == other.get() || self.value() == other.value()
    }
}

impl PartialEq<Value> for RawJson {
    fn eq(&self, other: &Value) -> bool {
        self.value() == other
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.get();
        if s.len() <= 256 {
            write!(f, "RawJson({s})")
        } else {
            let mut end = 256;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            write!(f, "RawJson({}… {} bytes)", &s[..end], s.len())
        }
    }
}

impl Serialize for RawJson {
    /// Writes the text verbatim (a JSON writer copies it; `serde_json::to_value` parses it).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(de).map(Self::from_raw)
    }
}

/// Normalizes a tool input to a JSON object: objects as-is, JSON strings that hold an object
/// parsed, anything else wrapped as `{"value": …}`.
pub fn normalize_input(raw: &Value) -> Map<String, Value> {
    match raw {
        Value::Object(m) => m.clone(),
        // A stringified object is read tolerantly (a lone surrogate or deep nesting in it is
        // repaired, logged, never the reason the input looks empty).
        Value::String(s) if s.trim_start().starts_with('{') => match crate::kit::tolerant::parse(s) {
            Ok((Value::Object(m), repairs)) => {
                crate::kit::tolerant::log_repairs(&repairs, "stringified tool input");
                m
            }
            _ => single("value", raw.clone()),
        },
        Value::Null => Map::new(),
        other => single("value", other.clone()),
    }
}

fn single(k: &str, v: Value) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(k.to_owned(), v);
    m
}

#[cfg(test)]
#[allow(unreachable_pub)] // the record macro makes its struct `pub`
mod tests {
    use super::*;
    use serde_json::json;

    crate::native_record! {
        /// A record with a raw field.
        pub struct Rec {
            /// Identifying.
            name: String,
            /// Large.
            input: Option<RawJson>,
        }
    }

    #[test]
    fn raw_fields_decode_from_bytes_and_from_a_tree() {
        let text = r#"{"name":"n","input":{"a": [1, 2],"b":"x"},"new":{"k":1}}"#;
        let r: Rec = serde_json::from_str(text).unwrap();
        let input = r.input.as_ref().unwrap();
        assert_eq!(input.get(), r#"{"a": [1, 2],"b":"x"}"#);
        assert!(!input.is_parsed());
        assert_eq!(r.extra["new"], json!({"k": 1}));
        // Written back: known fields, then the unknown ones, the raw text verbatim.
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"name":"n","input":{"a": [1, 2],"b":"x"},"new":{"k":1}}"#
        );
        // The tolerant decoder's slow path types a tree through serde_path_to_error.
        let tree: Value = serde_json::from_str(text).unwrap();
        let mut track = serde_path_to_error::Track::new();
        // Through the trait: `Rec::deserialize` is the derive's inherent half (no capture).
        let r2 = <Rec as Deserialize>::deserialize(serde_path_to_error::Deserializer::new(&tree, &mut track)).unwrap();
        assert_eq!(r2.input.as_ref().unwrap().value(), &json!({"a": [1, 2], "b": "x"}));
        assert_eq!(r2.extra["new"]["k"], 1);
    }

    #[test]
    fn field_scans_without_parsing_and_agrees_with_the_tree() {
        let j: RawJson = serde_json::from_str(r#"{"x":{"deep":[1,{"command":"no"}]},"command":"ls","n":3}"#).unwrap();
        assert_eq!(
            j.fields(&["n", "command", "zz"]),
            vec![Some(json!(3)), Some(json!("ls")), None]
        );
        assert!(!j.is_parsed());
        assert_eq!(j.value()["command"], "ls");
        assert_eq!(j.field("command"), Some(json!("ls")));
        let s: RawJson = serde_json::from_str(r#""not an object""#).unwrap();
        assert_eq!(s.field("a"), None);
        assert_eq!(s.to_object()["value"], "not an object");
        assert_eq!(RawJson::null().to_object(), Map::new());
        assert!(RawJson::default().is_null());
    }
}
