//! Lossless unknown-key capture without `#[serde(flatten)]`.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// Unknown keys of a payload object, in wire order.
pub type Extra = serde_json::Map<String, Value>;

/// A deserializer that captures the keys a struct does not declare into an [`Extra`] map. Only
/// `deserialize_struct` captures; every other request is forwarded to the wrapped deserializer's
/// `deserialize_any`.
///
/// `#[serde(flatten)] extra: Map` makes serde buffer the *whole* object into its private
/// `Content` tree before typing any field: every large value is copied once more, and raw JSON
/// fields ([`RawJson`](crate::RawJson), `Box<RawValue>`) cannot be typed from that buffer at all.
/// [`Capture`] does the same job in one pass: it wraps the deserializer of a struct derived
/// without `flatten`, hands the derived visitor only the keys it declares (the `FIELDS` list,
/// aliases included, that serde passes to `deserialize_struct`), and puts every other key's
/// value into the `extra` map, in wire order. The structs of
/// [`native_events!`](crate::kit::native_events) and [`native_record!`](crate::kit::native_record) are
/// built this way.
///
/// ```
/// use agenthooks_core::kit::{Capture, Extra};
/// use serde::Deserialize;
///
/// #[derive(Deserialize)]
/// struct Known {
///     a: u32,
/// }
/// let mut extra = Extra::new();
/// let mut de = serde_json::Deserializer::from_str(r#"{"z":[1],"a":7,"b":"x"}"#);
/// let k = Known::deserialize(Capture::new(&mut de, &mut extra))?;
/// assert_eq!(k.a, 7);
/// assert_eq!(serde_json::to_string(&extra)?, r#"{"z":[1],"b":"x"}"#); // wire order
/// # Ok::<(), serde_json::Error>(())
/// ```
pub struct Capture<'a, D> {
    de: D,
    extra: &'a mut Extra,
}

impl<'a, D> Capture<'a, D> {
    /// Wraps `de`; unknown keys go to `extra`.
    pub fn new(de: D, extra: &'a mut Extra) -> Self {
        Self { de, extra }
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Capture<'_, D> {
    type Error = D::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.de.deserialize_struct(
            name,
            fields,
            Captured {
                inner: visitor,
                fields,
                extra: self.extra,
            },
        )
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.de.deserialize_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// The struct's visitor (as a [`Visitor`]) or the object's map access (as a [`MapAccess`]),
/// with the declared keys and the map that takes the others.
struct Captured<'a, T> {
    inner: T,
    fields: &'static [&'static str],
    extra: &'a mut Extra,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Captured<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_map(Captured {
            inner: map,
            fields: self.fields,
            extra: self.extra,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_seq(seq)
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Captured<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        loop {
            let Some(key) = self.inner.next_key_seed(KeyCow)? else {
                return Ok(None);
            };
            if self.fields.contains(&key.as_ref()) {
                let de: de::value::CowStrDeserializer<'de, A::Error> = key.into_deserializer();
                return seed.deserialize(de).map(Some);
            }
            let value: Value = self.inner.next_value()?;
            self.extra.insert(key.into_owned(), value);
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        self.inner.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// A key, borrowed from the input when it has no escapes.
pub(crate) struct KeyCow;

impl<'de> DeserializeSeed<'de> for KeyCow {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyCow {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}
