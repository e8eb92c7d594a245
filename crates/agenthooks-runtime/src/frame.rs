//! The `serve` frame envelope, read by a tolerant scan of the raw line.
//!
//! `serve` needs only a few top-level keys of a frame (`seq`, `hook`, `timeout_ms`, `tools`, and
//! a hello frame's `input`); the rest of the frame is the codec's. Parsing the whole frame with
//! `serde_json` to read them would make the frame unreadable for reasons that are the payload's
//! (a lone surrogate escape such as `"\ud800"`, which `JSON.stringify` emits, or nesting deeper
//! than `serde_json`'s recursion limit), and would answer such a frame with `"seq": null`, which
//! no plugin can match to its call. So the envelope is scanned:
//!
//! - one pass over the bytes, no recursion: strings are skipped by their escapes, arrays and
//!   objects by a depth counter, so depth and the content of strings never matter;
//! - only the top level is read: a `"seq"` nested anywhere below it is never taken;
//! - invalid JSON is read as far as it goes: a truncated frame (an oversize frame's prefix) or one
//!   with garbage between members still yields the members before and around the damage;
//! - each wanted value is parsed on its own with `serde_json` (small scalars in practice); a value
//!   that does not parse is absent; a repeated key keeps its last value, as `serde_json` does.

use agenthooks_core::kit::frame::HELLO;
use serde_json::{Map, Value};

/// The top-level keys `serve` reads from a frame (the hello frame's `input` is read on demand).
pub(super) const HEAD_KEYS: [&str; 4] = ["seq", "hook", "timeout_ms", "tools"];

/// The top-level members of a frame, as raw value text (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Scan<'a> {
    /// Whether the line starts with `{` (after whitespace and a byte order mark).
    pub(super) object: bool,
    members: Vec<(String, &'a [u8])>,
}

impl<'a> Scan<'a> {
    /// Scans `line`'s top-level members.
    pub(super) fn of(line: &'a [u8]) -> Self {
        let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        let mut i = skip_ws(line, 0);
        if line.get(i) != Some(&b'{') {
            return Self::default();
        }
        i += 1;
        let mut members = Vec::new();
        while i < line.len() {
            i = skip_ws(line, i);
            match line.get(i) {
                None | Some(b'}') => break,
                Some(b'"') => {
                    let key_end = skip_string(line, i);
                    let key = &line[i..key_end];
                    let j = skip_ws(line, key_end);
                    if line.get(j) != Some(&b':') {
                        // A string that is not a key (damaged input): go on after it.
                        i = key_end;
                        continue;
                    }
                    let start = skip_ws(line, j + 1);
                    let end = skip_value(line, start);
                    members.push((key_text(key), line[start..end].trim_ascii_end()));
                    i = end;
                }
                Some(b'{' | b'[') => i = skip_value(line, i),
                // `,` between members, or garbage: one byte on.
                Some(_) => i += 1,
            }
        }
        Self { object: true, members }
    }

    /// The raw text of a top-level member (the last one of that name).
    pub(super) fn raw(&self, key: &str) -> Option<&'a [u8]> {
        self.members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// A top-level member's value, when its text parses on its own.
    pub(super) fn value(&self, key: &str) -> Option<Value> {
        serde_json::from_slice(self.raw(key)?).ok()
    }

    /// The frame's `seq`: its value, else a leading integer of its text (a damaged value), else
    /// `null`.
    pub(super) fn seq(&self) -> Value {
        if let Some(v) = self.value("seq") {
            return v;
        }
        self.raw("seq")
            .and_then(leading_integer)
            .map_or(Value::Null, Value::from)
    }

    /// The keys `serve` reads ([`HEAD_KEYS`]), plus `input` for a hello frame, as a map.
    pub(super) fn head(&self) -> Map<String, Value> {
        let mut m = Map::new();
        for k in HEAD_KEYS {
            if let Some(v) = self.value(k) {
                m.insert(k.to_owned(), v);
            }
        }
        m.insert("seq".into(), self.seq());
        if m.get("hook").and_then(Value::as_str) == Some(HELLO) {
            if let Some(v) = self.value("input") {
                m.insert("input".into(), v);
            }
        }
        m
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// The index after the string starting at `i` (a `"`), or the end of input.
fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while let Some(c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The index after the value starting at `i`: a string, a bracketed value (by a depth counter
/// over `{[` and `}]` outside strings, so it never recurses), or a scalar up to the next `,`,
/// `}`, `]` or whitespace. The end of input ends any of them.
fn skip_value(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        None => i,
        Some(b'"') => skip_string(b, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while let Some(c) = b.get(j) {
                match c {
                    b'"' => {
                        j = skip_string(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            b.len()
        }
        Some(_) => {
            let mut j = i;
            while b
                .get(j)
                .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
            {
                j += 1;
            }
            j
        }
    }
}

/// A key's text: its JSON decoding, else the bytes between its quotes (lossy).
fn key_text(quoted: &[u8]) -> String {
    serde_json::from_slice::<String>(quoted).unwrap_or_else(|_| {
        let inner = quoted.strip_prefix(b"\"").unwrap_or(quoted);
        let inner = inner.strip_suffix(b"\"").unwrap_or(inner);
        String::from_utf8_lossy(inner).into_owned()
    })
}

/// The integer at the start of `text` (`-`? digits), when it fits an `i64`.
fn leading_integer(text: &[u8]) -> Option<i64> {
    let digits = text.strip_prefix(b"-").unwrap_or(text);
    let n = digits.iter().take_while(|c| c.is_ascii_digit()).count();
    if n == 0 {
        return None;
    }
    let len = n + (text.len() - digits.len());
    std::str::from_utf8(&text[..len]).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nested(depth: usize) -> String {
        format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn a_valid_frame_reads_as_serde_json_reads_it() {
        let line = br#" {"seq": 7, "hook":"tool.execute.before", "timeout_ms": 500, "tools":"class:shell", "input": {"seq": 99, "a": [1, {"b": "}]\""}]}, "seq": 8}"#;
        let s = Scan::of(line);
        assert!(s.object);
        assert_eq!(s.seq(), json!(8), "the last of a repeated key, never a nested one");
        let head = s.head();
        assert_eq!(
            Value::Object(head),
            json!({"seq": 8, "hook": "tool.execute.before", "timeout_ms": 500, "tools": "class:shell"})
        );
        assert_eq!(s.raw("input"), Some(&br#"{"seq": 99, "a": [1, {"b": "}]\""}]}"#[..]));
    }

    #[test]
    fn lone_surrogates_and_deep_nesting_do_not_hide_the_envelope() {
        let deep = nested(100_000);
        let line = format!(
            r#"{{"seq":41,"hook":"before_tool_call","event":{{"params":{{"description":"x \ud800 \udc00","deep":{deep}}}}},"ctx":{{}},"timeout_ms":900}}"#
        );
        assert!(serde_json::from_str::<Value>(&line).is_err(), "serde_json refuses it");
        let s = Scan::of(line.as_bytes());
        assert_eq!(
            Value::Object(s.head()),
            json!({"seq": 41, "hook": "before_tool_call", "timeout_ms": 900})
        );
    }

    #[test]
    fn damaged_frames_give_what_they_have() {
        // truncated (an oversize frame's prefix)
        assert_eq!(
            Scan::of(br#"{"seq": 12, "hook": "x", "input": {"a": [1, 2"#).seq(),
            json!(12)
        );
        assert_eq!(Scan::of(br#"{"seq": 12"#).seq(), json!(12));
        assert_eq!(Scan::of(br#"{"hook": "x", "seq": 3"#).value("hook"), Some(json!("x")));
        // garbage between members, a damaged value, an escaped key
        assert_eq!(Scan::of(br#"{"hook": "x" oops, "seq": 5}"#).seq(), json!(5));
        assert_eq!(Scan::of(br#"{"seq": 5x, "hook": "x"}"#).seq(), json!(5));
        assert_eq!(Scan::of(br#"{"s\u0065q": "hello-1"}"#).seq(), json!("hello-1"));
        assert_eq!(Scan::of(br#"{"seq": -3}"#).seq(), json!(-3));
        // a string seq (the shims' control frames) and a seq that cannot be read
        assert_eq!(
            Scan::of(br#"{"seq": "config-2", "hook": "config"}"#).seq(),
            json!("config-2")
        );
        assert_eq!(Scan::of(br#"{"seq": , "hook": "x"}"#).seq(), Value::Null);
        assert_eq!(Scan::of(br#"{"seq": "\ud800"}"#).seq(), Value::Null);
        // not an object at all
        for line in [&b"[{\"seq\": 1}]"[..], b"seq: 1", b"", b"\"seq\": 1"] {
            let s = Scan::of(line);
            assert!(!s.object);
            assert_eq!(s.seq(), Value::Null);
        }
        // a byte order mark
        assert_eq!(Scan::of(b"\xEF\xBB\xBF{\"seq\":2}").seq(), json!(2));
    }

    #[test]
    fn only_a_hello_frame_s_input_is_read() {
        let hello = Scan::of(br#"{"seq":"h","hook":"agenthooks.hello","input":{"serverUrl":"u"}}"#).head();
        assert_eq!(hello["input"]["serverUrl"], "u");
        let other = Scan::of(br#"{"seq":1,"hook":"tool.execute.before","input":{"tool":"bash"}}"#).head();
        assert!(other.get("input").is_none());
    }

    proptest::proptest! {
        /// Any object `serde_json` reads is read the same way for the envelope keys.
        #[test]
        fn agrees_with_serde_json_on_valid_frames(
            seq in proptest::prelude::any::<i64>(),
            hook in "[a-z._]{0,12}",
            noise in proptest::collection::vec(("[a-z\"\\\\{}\\[\\]:, ]{0,8}", "[a-z]{1,4}"), 0..6),
        ) {
            let mut m = Map::new();
            for (text, key) in &noise {
                m.insert(key.clone(), json!({"seq": text, "k": [text, {"seq": 1}]}));
            }
            m.insert("seq".into(), json!(seq));
            m.insert("hook".into(), json!(hook));
            let line = serde_json::to_vec(&Value::Object(m.clone())).unwrap();
            let s = Scan::of(&line);
            proptest::prop_assert_eq!(s.seq(), json!(seq));
            proptest::prop_assert_eq!(s.value("hook"), Some(json!(hook)));
            for k in m.keys() {
                proptest::prop_assert_eq!(s.value(k), m.get(k).cloned());
            }
        }
    }
}
