//! Stable digests: lowercase hex, `sha256:<hex>` tags and canonical JSON — the one copy of
//! each that ids, dedup keys, install fingerprints and Codex trust hashes are built from.
//!
//! Their output is part of what we write to disk (install fingerprints, Codex
//! `trusted_hash`es, dedup and continuation file names): it must never change, and the
//! known vectors in the tests pin it.

use std::fmt::Write as _;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Lowercase hex of `bytes`, two digits per byte.
///
/// ```
/// use agenthooks_core::digest::hex;
/// assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
/// assert_eq!(hex(&[]), "");
/// ```
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        // Writing to a String cannot fail.
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// The SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// `sha256:` + the lowercase hex SHA-256 of `bytes` (the form of install fingerprints and
/// Codex trust hashes).
///
/// ```
/// use agenthooks_core::digest::sha256_tagged;
/// assert_eq!(
///     sha256_tagged(b"abc"),
///     "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// );
/// ```
pub fn sha256_tagged(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&sha256(bytes)))
}

/// `value` with every object's keys sorted recursively (byte order, as a
/// `BTreeMap<String, _>` orders them); arrays keep their order.
///
/// ```
/// use agenthooks_core::digest::sorted_keys;
/// let v = sorted_keys(serde_json::json!({"b": 1, "a": [{"d": 2, "c": 3}]}));
/// assert_eq!(v.to_string(), r#"{"a":[{"c":3,"d":2}],"b":1}"#);
/// ```
pub fn sorted_keys(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|(a, _), (b, _)| a.cmp(b));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted_keys(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted_keys).collect()),
        other => other,
    }
}

/// Canonical JSON: compact `serde_json` text (no spaces, `serde_json` escaping) with object
/// keys sorted recursively ([`sorted_keys`]).
///
/// ```
/// use agenthooks_core::digest::canonical_json;
/// let v = serde_json::json!({"z": "é\n", "a": {"y": null, "b": [2, 1]}});
/// assert_eq!(canonical_json(&v), r#"{"a":{"b":[2,1],"y":null},"z":"é\n"}"#);
/// ```
pub fn canonical_json(value: &Value) -> String {
    sorted_keys(value.clone()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hex_is_lowercase_two_digits_per_byte() {
        let all: Vec<u8> = (0..=255).collect();
        let h = hex(&all);
        assert_eq!(h.len(), 512);
        assert!(h.starts_with("000102") && h.ends_with("fdfeff"));
        assert!(h.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')));
    }

    #[test]
    fn sha256_known_vectors() {
        assert_eq!(
            sha256_tagged(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(hex(&sha256(b"abc")[..4]), "ba7816bf");
    }

    #[test]
    fn canonical_sorts_nested_keys_by_bytes_and_keeps_array_order() {
        // `B` (0x42) sorts before `a` (0x61); `é` after both.
        let v = json!({"é": 1, "a": [{"y": 1, "x": [3, 1]}], "B": {"d": 1.5, "c": "\"q\""}});
        assert_eq!(
            canonical_json(&v),
            r#"{"B":{"c":"\"q\"","d":1.5},"a":[{"x":[3,1],"y":1}],"é":1}"#
        );
        assert_eq!(canonical_json(&json!([])), "[]");
        assert_eq!(canonical_json(&json!("s")), r#""s""#);
    }
}
