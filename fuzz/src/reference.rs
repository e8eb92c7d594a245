//! A permissive reference reader for the `codec_decode` oracle, written apart from the library's
//! decoder: RFC 8259 plus what the agents' encoders also write (lone surrogate escapes, any depth,
//! numbers of any size), strict about everything else. It reads only what the oracle needs: the
//! top-level object's members, each key with its string value when it is a string.

/// The top-level members of `bytes` (a UTF-8 byte-order mark allowed) when it is one JSON object
/// under the permissive grammar: `(key, Some(text))` for a string value (lone surrogates read as
/// U+FFFD), `(key, None)` for any other. `None` when it is not such an object.
pub fn top_level_members(bytes: &[u8]) -> Option<Vec<(String, Option<String>)>> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).ok()?;
    let mut r = Reader { b: text.as_bytes(), i: 0 };
    r.ws();
    if r.next()? != b'{' {
        return None;
    }
    let mut members = Vec::new();
    r.ws();
    if r.peek() == Some(b'}') {
        r.i += 1;
    } else {
        loop {
            r.ws();
            if r.next()? != b'"' {
                return None;
            }
            let key = r.string()?;
            r.ws();
            if r.next()? != b':' {
                return None;
            }
            r.ws();
            let value = if r.peek() == Some(b'"') {
                r.i += 1;
                Some(r.string()?)
            } else {
                r.skip_value()?;
                None
            };
            members.push((key, value));
            r.ws();
            match r.next()? {
                b',' => continue,
                b'}' => break,
                _ => return None,
            }
        }
    }
    r.ws();
    (r.i == r.b.len()).then_some(members)
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn hex(&mut self) -> Option<u32> {
        let h = self.b.get(self.i..self.i + 4)?;
        if !h.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        self.i += 4;
        u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    }

    /// A string's content after its opening quote, decoded (lone surrogates as U+FFFD).
    fn string(&mut self) -> Option<String> {
        let mut out = String::new();
        loop {
            let c = self.next()?;
            match c {
                b'"' => return Some(out),
                b'\\' => match self.next()? {
                    b'"' => out.push('"'),
                    b'\\' => out.push('\\'),
                    b'/' => out.push('/'),
                    b'b' => out.push('\u{8}'),
                    b'f' => out.push('\u{c}'),
                    b'n' => out.push('\n'),
                    b'r' => out.push('\r'),
                    b't' => out.push('\t'),
                    b'u' => {
                        let cp = self.hex()?;
                        if (0xD800..0xDC00).contains(&cp) && self.b.get(self.i..self.i + 2) == Some(b"\\u") {
                            let save = self.i;
                            self.i += 2;
                            match self.hex() {
                                Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                                    let joined = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                                    out.push(char::from_u32(joined)?);
                                    continue;
                                }
                                _ => self.i = save,
                            }
                        }
                        out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                    }
                    _ => return None,
                },
                0..=0x1F => return None,
                _ => {
                    // A UTF-8 sequence (the text is valid UTF-8): copy the whole character.
                    let start = self.i - 1;
                    while self.peek().is_some_and(|b| (0x80..0xC0).contains(&b)) {
                        self.i += 1;
                    }
                    out.push_str(std::str::from_utf8(&self.b[start..self.i]).ok()?);
                }
            }
        }
    }

    fn digits(&mut self) -> usize {
        let s = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
        self.i - s
    }

    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        Some(())
    }

    /// One value of any depth, iteratively: a stack of the open containers, each with whether
    /// a member (or element) was read.
    fn skip_value(&mut self) -> Option<()> {
        // (is_object, has_items)
        let mut stack: Vec<(bool, bool)> = Vec::new();
        loop {
            self.ws();
            // A value.
            match self.next()? {
                open @ (b'{' | b'[') => {
                    let object = open == b'{';
                    self.ws();
                    if self.peek() == Some(if object { b'}' } else { b']' }) {
                        self.i += 1;
                    } else {
                        stack.push((object, false));
                        if object {
                            self.member_key()?;
                        }
                        continue;
                    }
                }
                b'"' => {
                    self.string()?;
                }
                b't' => self.literal(b"rue")?,
                b'f' => self.literal(b"alse")?,
                b'n' => self.literal(b"ull")?,
                b'-' | b'0'..=b'9' => {
                    self.i -= 1;
                    self.number()?;
                }
                _ => return None,
            }
            // After a value: close containers or read the next member.
            loop {
                let Some(&(object, _)) = stack.last() else {
                    return Some(());
                };
                self.ws();
                match self.next()? {
                    b',' if object => {
                        self.member_key()?;
                        break;
                    }
                    b',' => break,
                    b'}' if object => {
                        stack.pop();
                    }
                    b']' if !object => {
                        stack.pop();
                    }
                    _ => return None,
                }
            }
        }
    }

    /// A member's key and its colon (whitespace around them skipped).
    fn member_key(&mut self) -> Option<()> {
        self.ws();
        if self.next()? != b'"' {
            return None;
        }
        self.string()?;
        self.ws();
        (self.next()? == b':').then_some(())
    }

    fn literal(&mut self, rest: &[u8]) -> Option<()> {
        if self.b.get(self.i..self.i + rest.len()) == Some(rest) {
            self.i += rest.len();
            Some(())
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::top_level_members;

    #[test]
    fn reads_what_encoders_write() {
        let deep = format!(r#"{{"a":"\ud800x","b":{}1{},"c":1e400}}"#, "[".repeat(5000), "]".repeat(5000));
        let m = top_level_members(deep.as_bytes()).unwrap();
        assert_eq!(m[0], ("a".into(), Some("\u{FFFD}x".into())));
        assert_eq!(m[1], ("b".into(), None));
        assert_eq!(m.len(), 3);
        assert_eq!(top_level_members(br#"{"e":"\ud83d\ude00"}"#).unwrap()[0].1.as_deref(), Some("😀"));
        let empty = top_level_members(br#"{"a":{},"b":[ ],"c":[{"d":{ }},[]]}"#).unwrap();
        assert_eq!(empty.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);
        for bad in ["", "[]", "{", r#"{"a":1,}"#, r#"{"a":[1,]}"#, r#"{"a":01}"#, "{\"a\":\"\u{1}\"}", r#"{} x"#, r#"{"a":[}"#] {
            assert!(top_level_members(bad.as_bytes()).is_none(), "{bad}");
        }
    }
}
