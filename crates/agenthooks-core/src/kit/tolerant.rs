//! Reading every JSON text an agent's encoder can emit (tolerant decoding, rule 4).
//!
//! `serde_json` is strict where the agents' encoders are not. JavaScript's `JSON.stringify` and
//! Python's `json.dumps` write a lone UTF-16 surrogate as the escape `"\ud800"` (a model can put
//! one in a tool call, a tool result can carry one, a pasted prompt can), nest values as deep as
//! the data goes, and Python writes integers of any size. `serde_json` rejects the first, stops at
//! 128 levels of nesting, and rejects numbers beyond `f64`'s range, so a strict decoder would
//! turn such a payload into "undecodable", and the failure policy would answer for the handler.
//!
//! [`repair`] rewrites such a text, in one iterative pass (no recursion, any depth), into one
//! `serde_json` reads, changing only what it must and recording each change as a [`TextRepair`]:
//!
//! | input | repaired view | [`TextRepairKind`] |
//! |---|---|---|
//! | a lone surrogate escape (`\ud800`, `\udc00`, a reversed pair) | `\ufffd` (U+FFFD) | [`LoneSurrogate`](TextRepairKind::LoneSurrogate) |
//! | bytes that are not UTF-8, inside a string | U+FFFD | [`InvalidUtf8`](TextRepairKind::InvalidUtf8) |
//! | a raw control character inside a string | its `\u00XX` escape | [`ControlCharacter`](TextRepairKind::ControlCharacter) |
//! | an array or object opened deeper than [`MAX_DEPTH`] | a string holding its exact JSON text | [`TooDeep`](TextRepairKind::TooDeep) |
//! | a number beyond `f64`'s range (`1e400`) | a string holding its text | [`NumberOutOfRange`](TextRepairKind::NumberOutOfRange) |
//!
//! Everything else (whitespace, key order, escapes, every other value) is copied byte for byte.
//! The data stays readable: a secret or a command nested 3000 levels deep is still in the
//! repaired view, as text. A text that is not JSON at all (a syntax error, trailing data) is still
//! an error ([`RepairError`]). The agent's bytes are never changed: the repaired text is only what
//! the typed view is built from ([`Envelope::raw`](crate::Envelope::raw) keeps the original).
//!
//! [`parse`] is the strict parse with this as its fallback; the decoder ([`kit::decode`](super::decode)),
//! [`RawJson`](crate::RawJson) and the tool-input projection all use it.
//!
//! ```
//! use agenthooks_core::kit::tolerant::{self, TextRepairKind};
//! let text = br#"{"tool_input":{"command":"rm -rf / \ud800","n":1e400}}"#;
//! let r = tolerant::repair(text)?;
//! assert_eq!(r.text, r#"{"tool_input":{"command":"rm -rf / \ufffd","n":"1e400"}}"#);
//! let kinds: Vec<_> = r.repairs.iter().map(|x| (x.path.as_str(), x.kind)).collect();
//! assert_eq!(kinds, [
//!     ("tool_input.command", TextRepairKind::LoneSurrogate),
//!     ("tool_input.n", TextRepairKind::NumberOutOfRange),
//! ]);
//!
//! // Any depth: the part past the limit is kept as its text.
//! let deep = format!(r#"{{"command":"ls","x":{}{}}}"#, "[".repeat(3000), "]".repeat(3000));
//! let (value, repairs) = tolerant::parse(&deep)?;
//! assert_eq!(value["command"], "ls");
//! assert_eq!(repairs[0].kind, TextRepairKind::TooDeep);
//! # Ok::<(), tolerant::RepairError>(())
//! ```

use std::fmt;

use serde_json::Value;

/// The deepest nesting the repaired text has: `serde_json`'s own limit (127 levels parse, 128
/// do not), so a repaired text always parses, and so does every part of it.
pub const MAX_DEPTH: usize = 127;

/// One change [`repair`] made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TextRepair {
    /// Where, as a path (`tool_input.command`, `a[3]`, `.` for the root).
    pub path: String,
    /// What was repaired.
    pub kind: TextRepairKind,
}

/// What [`repair`] changed (see the module table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TextRepairKind {
    /// A lone UTF-16 surrogate escape, replaced by U+FFFD.
    LoneSurrogate,
    /// Bytes that are not UTF-8 inside a string, replaced by U+FFFD.
    InvalidUtf8,
    /// A raw control character inside a string, escaped.
    ControlCharacter,
    /// An array or object nested deeper than [`MAX_DEPTH`], kept as a string holding its text.
    TooDeep,
    /// A number beyond `f64`'s range, kept as a string holding its text.
    NumberOutOfRange,
}

impl TextRepairKind {
    /// A stable name: `lone-surrogate`, `invalid-utf8`, `control-character`, `too-deep`,
    /// `number-out-of-range`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::LoneSurrogate => "lone-surrogate",
            Self::InvalidUtf8 => "invalid-utf8",
            Self::ControlCharacter => "control-character",
            Self::TooDeep => "too-deep",
            Self::NumberOutOfRange => "number-out-of-range",
        }
    }

    /// What the repaired view holds instead, in words.
    pub const fn describe(self) -> &'static str {
        match self {
            Self::LoneSurrogate => "a lone UTF-16 surrogate escape, replaced by U+FFFD",
            Self::InvalidUtf8 => "bytes that are not UTF-8, replaced by U+FFFD",
            Self::ControlCharacter => "a raw control character, escaped",
            Self::TooDeep => "nesting deeper than 127 levels, kept as a string holding its JSON text",
            Self::NumberOutOfRange => "a number beyond f64's range, kept as a string holding its text",
        }
    }
}

impl fmt::Display for TextRepair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.kind.describe())
    }
}

/// A text [`repair`] could not read: not JSON even with the repairs (a syntax error, an
/// unterminated value, trailing data).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not JSON at byte {offset}: {message}")]
#[non_exhaustive]
pub struct RepairError {
    /// The byte offset of the error.
    pub offset: usize,
    /// What was expected.
    pub message: &'static str,
}

/// A repaired text and what was changed to get it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Repaired {
    /// The text, valid for `serde_json` (empty `repairs`: the input, unchanged).
    pub text: String,
    /// The changes, in text order.
    pub repairs: Vec<TextRepair>,
}

/// Parses `text` strictly, or when that fails, its [`repair`]ed form: the value and the
/// repairs made (none when the strict parse succeeded).
///
/// # Errors
///
/// The text is not JSON even with the repairs.
pub fn parse(text: &str) -> Result<(Value, Vec<TextRepair>), RepairError> {
    parse_slice(text.as_bytes())
}

/// [`parse`] over bytes (which may also hold non-UTF-8 bytes inside strings).
///
/// # Errors
///
/// The text is not JSON even with the repairs.
pub fn parse_slice(bytes: &[u8]) -> Result<(Value, Vec<TextRepair>), RepairError> {
    if let Ok(v) = serde_json::from_slice(bytes) {
        return Ok((v, Vec::new()));
    }
    let r = repair(bytes)?;
    match serde_json::from_str(&r.text) {
        Ok(v) => Ok((v, r.repairs)),
        // Unreachable for a repaired text; reported, never a panic.
        Err(_) => Err(RepairError {
            offset: 0,
            message: "the repaired text does not parse",
        }),
    }
}

/// [`parse`] for projections that have nowhere to put the repairs: each repair is logged as a
/// warning (`what` names the value), and a text that is not JSON at all is logged and read as
/// `null`.
pub(crate) fn parse_logged(text: &str, what: &str) -> Value {
    match parse(text) {
        Ok((v, repairs)) => {
            log_repairs(&repairs, what);
            v
        }
        Err(e) => {
            tracing::warn!(value = what, error = %e, "a value that is not JSON is read as null");
            Value::Null
        }
    }
}

/// Logs each repair as a warning (`what` names the value).
pub(crate) fn log_repairs(repairs: &[TextRepair], what: &str) {
    for r in repairs {
        tracing::warn!(value = what, path = %r.path, repair = r.kind.as_str(), "repaired JSON in the decoded view");
    }
}

/// Rewrites `input` (one JSON value, surrounding whitespace allowed) into text `serde_json`
/// reads, repairing what the module table lists. One pass, iterative: any depth, any size.
///
/// # Errors
///
/// The text is not JSON even with the repairs.
pub fn repair(input: &[u8]) -> Result<Repaired, RepairError> {
    let mut w = Writer {
        src: input,
        i: 0,
        out: Vec::with_capacity(input.len() + 16),
        repairs: Vec::new(),
        stack: Vec::new(),
        last: None,
        value_start: 0,
    };
    w.run()?;
    // The writer emits UTF-8 only: strings are validated (or repaired), everything else ASCII.
    let text = String::from_utf8(w.out).map_err(|_| RepairError {
        offset: 0,
        message: "internal: the repaired text is not UTF-8",
    })?;
    Ok(Repaired {
        text,
        repairs: w.repairs,
    })
}

/// An open container: an object (with its current key) or an array (with its current index).
enum Frame {
    Object(Option<String>),
    Array(usize),
}

/// What the next token must be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A value.
    Value,
    /// A value or `]` (just after `[`).
    ValueOrClose,
    /// A key or `}` (just after `{`).
    KeyOrClose,
    /// A key (after `,` in an object).
    Key,
    /// `:` after a key.
    Colon,
    /// `,` or the container's close.
    CommaOrClose,
}

/// The end of the JSON number (RFC 8259's grammar: `-`, an integer part without leading zeros,
/// then an optional fraction and exponent) that starts at `at` in `src`; the error is where the
/// grammar breaks off and why. The one scanner of the number grammar (the repair pass here, and
/// install's comment-preserving editor).
///
/// ```
/// use agenthooks_core::kit::tolerant::number_end;
/// assert_eq!(number_end(b"[-12.5e+3,", 1).unwrap(), 9);
/// assert_eq!(number_end(b"01", 0).unwrap(), 1); // a leading zero ends the number
/// let e = number_end(b"1.x", 0).unwrap_err();
/// assert_eq!((e.offset, e.message), (2, "expected a digit after `.`"));
/// ```
pub fn number_end(src: &[u8], at: usize) -> Result<usize, RepairError> {
    let peek = |i: usize| src.get(i).copied();
    let digits = |mut i: usize| {
        while peek(i).is_some_and(|b| b.is_ascii_digit()) {
            i += 1;
        }
        i
    };
    let err = |offset: usize, message: &'static str| RepairError { offset, message };
    let mut i = at;
    if peek(i) == Some(b'-') {
        i += 1;
    }
    match peek(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(i),
        _ => return Err(err(i, "expected a digit")),
    }
    if peek(i) == Some(b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return Err(err(end, "expected a digit after `.`"));
        }
        i = end;
    }
    if let Some(b'e' | b'E') = peek(i) {
        i += 1;
        if let Some(b'+' | b'-') = peek(i) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return Err(err(end, "expected an exponent"));
        }
        i = end;
    }
    Ok(i)
}

struct Writer<'a> {
    src: &'a [u8],
    i: usize,
    out: Vec<u8>,
    repairs: Vec<TextRepair>,
    stack: Vec<Frame>,
    /// The offset of the value (or key) being written, and the kind last recorded in it: one
    /// repair per value and kind, found without building its path again.
    last: Option<(usize, TextRepairKind)>,
    value_start: usize,
}

impl Writer<'_> {
    fn err(&self, message: &'static str) -> RepairError {
        RepairError {
            offset: self.i,
            message,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.i).copied()
    }

    fn copy_ws(&mut self) {
        while let Some(b @ (b' ' | b'\t' | b'\n' | b'\r')) = self.peek() {
            self.out.push(b);
            self.i += 1;
        }
    }

    fn path(&self) -> String {
        let mut p = String::new();
        for f in &self.stack {
            match f {
                Frame::Object(Some(k)) => {
                    if !p.is_empty() {
                        p.push('.');
                    }
                    p.push_str(k);
                }
                Frame::Object(None) => {}
                Frame::Array(i) => {
                    p.push('[');
                    p.push_str(&i.to_string());
                    p.push(']');
                }
            }
        }
        if p.is_empty() {
            p.push('.');
        }
        p
    }

    fn record(&mut self, kind: TextRepairKind) {
        // One entry per value and kind (a string with a million lone surrogates is one repair,
        // and costs one path).
        if self.last == Some((self.value_start, kind)) {
            return;
        }
        self.last = Some((self.value_start, kind));
        let path = self.path();
        self.repairs.push(TextRepair { path, kind });
    }

    fn run(&mut self) -> Result<(), RepairError> {
        let mut expect = Expect::Value;
        loop {
            self.copy_ws();
            let Some(b) = self.peek() else {
                return Err(self.err("unexpected end of input"));
            };
            match expect {
                Expect::Colon => {
                    if b != b':' {
                        return Err(self.err("expected `:`"));
                    }
                    self.out.push(b);
                    self.i += 1;
                    expect = Expect::Value;
                    continue;
                }
                Expect::CommaOrClose => {
                    match (b, self.stack.last_mut()) {
                        (b',', Some(Frame::Object(_))) => expect = Expect::Key,
                        (b',', Some(Frame::Array(n))) => {
                            *n += 1;
                            expect = Expect::Value;
                        }
                        (b'}', Some(Frame::Object(_))) | (b']', Some(Frame::Array(_))) => {
                            if self.close(b)? {
                                return Ok(());
                            }
                            continue;
                        }
                        _ => return Err(self.err("expected `,` or the container's close")),
                    }
                    self.out.push(b);
                    self.i += 1;
                    continue;
                }
                Expect::KeyOrClose | Expect::Key => {
                    if b == b'}' && expect == Expect::KeyOrClose {
                        if self.close(b)? {
                            return Ok(());
                        }
                        expect = Expect::CommaOrClose;
                        continue;
                    }
                    if b != b'"' {
                        return Err(self.err("expected a string key"));
                    }
                    let start = self.out.len();
                    self.string()?;
                    let key = String::from_utf8_lossy(&self.out[start + 1..self.out.len() - 1]).into_owned();
                    if let Some(Frame::Object(k)) = self.stack.last_mut() {
                        *k = Some(key);
                    }
                    expect = Expect::Colon;
                    continue;
                }
                Expect::ValueOrClose if b == b']' => {
                    if self.close(b)? {
                        return Ok(());
                    }
                    expect = Expect::CommaOrClose;
                    continue;
                }
                Expect::Value | Expect::ValueOrClose => {}
            }
            // A value.
            match b {
                b'{' | b'[' if self.stack.len() >= MAX_DEPTH => self.too_deep()?,
                b'{' => {
                    self.stack.push(Frame::Object(None));
                    self.out.push(b);
                    self.i += 1;
                    expect = Expect::KeyOrClose;
                    continue;
                }
                b'[' => {
                    self.stack.push(Frame::Array(0));
                    self.out.push(b);
                    self.i += 1;
                    expect = Expect::ValueOrClose;
                    continue;
                }
                b'"' => self.string()?,
                b'-' | b'0'..=b'9' => self.number()?,
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                _ => return Err(self.err("expected a value")),
            }
            if self.stack.is_empty() {
                return self.end();
            }
            expect = Expect::CommaOrClose;
        }
    }

    /// Closes the innermost container with `b`; `true` when that was the top-level value (and
    /// only whitespace follows it).
    fn close(&mut self, b: u8) -> Result<bool, RepairError> {
        self.stack.pop();
        self.out.push(b);
        self.i += 1;
        if self.stack.is_empty() {
            self.end()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// After the top-level value: only whitespace.
    fn end(&mut self) -> Result<(), RepairError> {
        self.copy_ws();
        if self.i == self.src.len() {
            Ok(())
        } else {
            Err(self.err("trailing data after the value"))
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<(), RepairError> {
        if self.src[self.i..].starts_with(word) {
            self.out.extend_from_slice(word);
            self.i += word.len();
            Ok(())
        } else {
            Err(self.err("expected `true`, `false` or `null`"))
        }
    }

    fn number(&mut self) -> Result<(), RepairError> {
        let start = self.i;
        self.value_start = start;
        self.i = number_end(self.src, start)?;
        let text = &self.src[start..self.i];
        // ASCII by construction.
        let s = std::str::from_utf8(text).unwrap_or("0");
        if s.parse::<f64>().is_ok_and(f64::is_finite) {
            self.out.extend_from_slice(text);
        } else {
            self.record(TextRepairKind::NumberOutOfRange);
            self.out.push(b'"');
            self.out.extend_from_slice(text);
            self.out.push(b'"');
        }
        Ok(())
    }

    fn hex4(&self, at: usize) -> Option<u16> {
        let h = self.src.get(at..at + 4)?;
        let s = std::str::from_utf8(h).ok()?;
        if !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u16::from_str_radix(s, 16).ok()
    }

    /// A string at `"`, copied with its repairs.
    fn string(&mut self) -> Result<(), RepairError> {
        self.value_start = self.i;
        self.out.push(b'"');
        self.i += 1;
        loop {
            // The run of plain bytes.
            let start = self.i;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            self.plain(start, self.i);
            let Some(b) = self.peek() else {
                return Err(self.err("unterminated string"));
            };
            match b {
                b'"' => {
                    self.out.push(b);
                    self.i += 1;
                    return Ok(());
                }
                b'\\' => self.escape()?,
                _ => {
                    self.record(TextRepairKind::ControlCharacter);
                    self.out.extend_from_slice(format!("\\u{b:04x}").as_bytes());
                    self.i += 1;
                }
            }
        }
    }

    /// Copies `src[start..end]` (string content without quotes, escapes or control bytes),
    /// replacing what is not UTF-8 by U+FFFD.
    fn plain(&mut self, start: usize, end: usize) {
        let mut chunk = &self.src[start..end];
        loop {
            match std::str::from_utf8(chunk) {
                Ok(s) => {
                    self.out.extend_from_slice(s.as_bytes());
                    return;
                }
                Err(e) => {
                    let good = e.valid_up_to();
                    self.out.extend_from_slice(&chunk[..good]);
                    self.out.extend_from_slice("\u{fffd}".as_bytes());
                    self.record(TextRepairKind::InvalidUtf8);
                    let skip = e.error_len().unwrap_or(chunk.len() - good);
                    chunk = &chunk[good + skip..];
                }
            }
        }
    }

    /// An escape at `\`.
    fn escape(&mut self) -> Result<(), RepairError> {
        let Some(&c) = self.src.get(self.i + 1) else {
            return Err(self.err("unterminated escape"));
        };
        match c {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                self.out.extend_from_slice(&[b'\\', c]);
                self.i += 2;
                Ok(())
            }
            b'u' => {
                let Some(cp) = self.hex4(self.i + 2) else {
                    self.i += 2;
                    return Err(self.err("expected four hex digits"));
                };
                match cp {
                    0xD800..=0xDBFF => {
                        let low = (self.src.get(self.i + 6..self.i + 8) == Some(b"\\u"))
                            .then(|| self.hex4(self.i + 8))
                            .flatten();
                        if low.is_some_and(|l| (0xDC00..=0xDFFF).contains(&l)) {
                            self.out.extend_from_slice(&self.src[self.i..self.i + 12]);
                            self.i += 12;
                        } else {
                            self.lone_surrogate();
                        }
                    }
                    0xDC00..=0xDFFF => self.lone_surrogate(),
                    _ => {
                        self.out.extend_from_slice(&self.src[self.i..self.i + 6]);
                        self.i += 6;
                    }
                }
                Ok(())
            }
            _ => {
                self.i += 1;
                Err(self.err("invalid escape"))
            }
        }
    }

    fn lone_surrogate(&mut self) {
        self.record(TextRepairKind::LoneSurrogate);
        self.out.extend_from_slice(b"\\ufffd");
        self.i += 6;
    }

    /// A container opened past [`MAX_DEPTH`]: scanned to its matching close (iteratively; strings
    /// skipped, brackets matched) and written
    /// as a string holding its exact text.
    fn too_deep(&mut self) -> Result<(), RepairError> {
        self.value_start = self.i;
        self.record(TextRepairKind::TooDeep);
        let start = self.i;
        let mut open: Vec<u8> = Vec::new();
        while let Some(b) = self.peek() {
            match b {
                b'{' | b'[' => open.push(b),
                b'}' | b']' => {
                    let want = if b == b'}' { b'{' } else { b'[' };
                    if open.pop() != Some(want) {
                        return Err(self.err("mismatched close"));
                    }
                    if open.is_empty() {
                        self.i += 1;
                        break;
                    }
                }
                b'"' => {
                    // Skip the string (escapes included).
                    self.i += 1;
                    loop {
                        match self.peek() {
                            None => return Err(self.err("unterminated string")),
                            Some(b'"') => break,
                            Some(b'\\') => self.i += 2,
                            Some(_) => self.i += 1,
                        }
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        if !open.is_empty() {
            return Err(self.err("unterminated array or object"));
        }
        let text = &self.src[start..self.i];
        self.out.push(b'"');
        let mut rest = text;
        loop {
            let (valid, bad) = match std::str::from_utf8(rest) {
                Ok(s) => (s, None),
                Err(e) => (
                    // The prefix is valid UTF-8 by `valid_up_to`.
                    std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or(""),
                    Some(e.valid_up_to() + e.error_len().unwrap_or(rest.len() - e.valid_up_to())),
                ),
            };
            for ch in valid.chars() {
                match ch {
                    '"' => self.out.extend_from_slice(b"\\\""),
                    '\\' => self.out.extend_from_slice(b"\\\\"),
                    c if u32::from(c) < 0x20 => self
                        .out
                        .extend_from_slice(format!("\\u{:04x}", u32::from(c)).as_bytes()),
                    c => {
                        let mut buf = [0; 4];
                        self.out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    }
                }
            }
            match bad {
                None => break,
                Some(next) => {
                    self.out.extend_from_slice("\u{fffd}".as_bytes());
                    rest = &rest[next..];
                }
            }
        }
        self.out.push(b'"');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(s: &str) -> (String, Vec<TextRepairKind>) {
        let r = repair(s.as_bytes()).unwrap();
        (r.text, r.repairs.into_iter().map(|x| x.kind).collect())
    }

    #[test]
    fn valid_text_is_copied() {
        for s in [
            r#"{"a":[1,-2.5e3,true,false,null,"x\"\\\/\b\f\n\r\tÿ\u00e9😀\ud83d\ude00"],"b":{}}"#,
            " [ ] ",
            "\"s\"",
            "0",
            "{\"k\" : { \"j\" : [ 1 , 2 ] } }\r\n",
        ] {
            let r = repair(s.as_bytes()).unwrap();
            assert_eq!(r.text, s);
            assert!(r.repairs.is_empty(), "{s}");
        }
    }

    #[test]
    fn surrogates() {
        assert_eq!(fixed(r#"["\ud800"]"#).0, r#"["\ufffd"]"#);
        assert_eq!(fixed(r#"["\udc00\ud800x"]"#).0, r#"["\ufffd\ufffdx"]"#);
        assert_eq!(fixed(r#"["\ud800\u0041"]"#).0, r#"["\ufffd\u0041"]"#);
        assert_eq!(fixed(r#"{"a\ud800":1}"#).0, r#"{"a\ufffd":1}"#);
        let (t, k) = fixed(r#"{"x":"\ud800\ud800"}"#);
        assert_eq!(t, r#"{"x":"\ufffd\ufffd"}"#);
        assert_eq!(k, [TextRepairKind::LoneSurrogate]);
        let v: Value = serde_json::from_str(&t).unwrap();
        assert_eq!(v["x"], "\u{fffd}\u{fffd}");
    }

    #[test]
    fn bytes_and_controls() {
        let r = repair(b"{\"a\":\"x\xff\xfey\",\"b\":\"\x01\"}").unwrap();
        assert_eq!(r.text, "{\"a\":\"x\u{fffd}\u{fffd}y\",\"b\":\"\\u0001\"}");
        assert_eq!(r.repairs[0].path, "a");
        assert_eq!(r.repairs[1].kind, TextRepairKind::ControlCharacter);
    }

    #[test]
    fn numbers() {
        assert_eq!(
            fixed("[1e400,-1E+999,1e-999,123456789012345678901234567890]").0,
            r#"["1e400","-1E+999",1e-999,123456789012345678901234567890]"#
        );
        for bad in ["[01]", "[-]", "[1.]", "[1e]", "[+1]", "[.5]"] {
            assert!(repair(bad.as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn depth() {
        let at = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(fixed(&at(MAX_DEPTH)).1.is_empty());
        let (t, k) = fixed(&at(MAX_DEPTH + 1));
        assert_eq!(k, [TextRepairKind::TooDeep]);
        assert_eq!(t, format!("{}\"[]\"{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH)));
        let deep = format!(
            r#"{{"cmd":"ls","x":{}"\ud800}}",{{"k":"v"}}{}}}"#,
            "[".repeat(5000),
            "]".repeat(5000)
        );
        let (v, reps) = parse(&deep).unwrap();
        assert_eq!(v["cmd"], "ls");
        assert_eq!(reps.len(), 1);
        assert!(reps[0].path.starts_with("x[0][0]"));
        // The deep part is readable as text (the escape is kept as text, not decoded).
        let s = serde_json::to_string(&v).unwrap();
        assert!(s.contains(r#"\\ud800}\",{\"k\":\"v\"}"#), "{}", &s[s.len() - 200..]);
        let obj = format!("{{\"cmd\":\"ls\",\"o\":{}1{}}}", "{\"a\":".repeat(300), "}".repeat(300));
        assert_eq!(parse(&obj).unwrap().0["cmd"], "ls");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// What `serde_json` writes comes through byte for byte, with no repair.
        #[test]
        fn valid_json_is_unchanged(v in agenthooks_testkit::strategy::json_document(6, 48, 5), pretty in proptest::bool::ANY) {
            let t = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { v.to_string() };
            let r = repair(t.as_bytes()).unwrap();
            proptest::prop_assert_eq!(&r.text, &t);
            proptest::prop_assert!(r.repairs.is_empty());
        }

        /// Any sequence of UTF-16 code units written as `\uXXXX` escapes (what `JSON.stringify` and
        /// `json.dumps` write for a JS or Python string holding lone surrogates) reads as the
        /// lossy UTF-16 decoding of those units, beside an intact sibling.
        #[test]
        fn escaped_code_units_read_as_lossy_utf16(units in proptest::collection::vec(
            proptest::prop_oneof![0xD7F0u16..0xE010, proptest::num::u16::ANY], 0..24)) {
            let escaped = units.iter().fold(String::new(), |mut acc, u| {
                use std::fmt::Write as _;
                let _ = write!(acc, "\\u{u:04x}");
                acc
            });
            let text = format!(r#"{{"command":"rm -rf /","x":"{escaped}"}}"#);
            let (v, _) = parse(&text).unwrap();
            proptest::prop_assert_eq!(&v["command"], "rm -rf /");
            proptest::prop_assert_eq!(v["x"].as_str().unwrap(), String::from_utf16_lossy(&units));
        }

        /// Any depth of mixed arrays and objects reads, and the member beside it survives.
        #[test]
        fn any_depth_reads(opens in proptest::collection::vec(proptest::bool::ANY, 1..3000)) {
            let mut deep = String::new();
            for &o in &opens {
                deep.push_str(if o { "{\"k\":" } else { "[" });
            }
            deep.push('1');
            for &o in opens.iter().rev() {
                deep.push(if o { '}' } else { ']' });
            }
            let text = format!(r#"{{"x":{deep},"command":"ls"}}"#);
            let (v, repairs) = parse(&text).unwrap();
            proptest::prop_assert_eq!(&v["command"], "ls");
            proptest::prop_assert_eq!(repairs.is_empty(), opens.len() < MAX_DEPTH);
        }
    }

    /// A string of a million lone surrogates is one repair, read in one linear pass.
    #[test]
    fn many_repairs_in_one_value_are_one_entry() {
        let text = format!(r#"{{"a":{{"b":["{}"]}}}}"#, "\\ud800".repeat(1_000_000));
        let t = std::time::Instant::now();
        let r = repair(text.as_bytes()).unwrap();
        assert_eq!(r.repairs.len(), 1);
        assert_eq!(r.repairs[0].path, "a.b[0]");
        assert!(t.elapsed() < std::time::Duration::from_secs(5), "{:?}", t.elapsed());
    }

    #[test]
    fn not_json_is_an_error() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\"}",
            "{\"a\":1,}",
            "[1] x",
            "\"\\x\"",
            "\"\\u12\"",
            "tru",
            "[}",
            "{]",
            "{1:2}",
            "\"abc",
        ] {
            assert!(repair(bad.as_bytes()).is_err(), "{bad:?}");
        }
        let deep_bad = format!("[{}}}", "[".repeat(200));
        assert!(repair(deep_bad.as_bytes()).is_err());
    }
}
