//! Capped reads: the payload on stdin, and one NDJSON frame in `serve` mode.

use std::io::{self, BufRead, Read};

use crate::error::DecodeCategory;

/// Why a payload or a frame could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Reading the input failed.
    #[error("reading the payload failed")]
    Io(#[source] io::Error),
    /// More bytes than the cap.
    #[error("payload exceeds the {cap}-byte cap")]
    Oversize {
        /// The cap in bytes.
        cap: usize,
    },
    /// No bytes, or only whitespace.
    #[error("empty payload")]
    Empty,
    /// Not valid UTF-8.
    #[error("payload is not valid UTF-8")]
    NotUtf8,
    /// The argv transport was chosen but no payload argument was given.
    #[error("no payload argument")]
    NoArgument,
}

impl ReadError {
    /// The decode category a failure response reports.
    pub fn category(&self) -> DecodeCategory {
        match self {
            Self::Io(_) => DecodeCategory::Io,
            Self::Oversize { .. } => DecodeCategory::Oversize,
            Self::Empty => DecodeCategory::Empty,
            Self::NotUtf8 => DecodeCategory::NotUtf8,
            Self::NoArgument => DecodeCategory::Transport,
        }
    }
}

/// An error and its `source` chain on one line (`outer: inner: …`), each cause printed once.
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

/// Reads at most `cap` bytes; more is [`ReadError::Oversize`]; none (or only whitespace) is
/// [`ReadError::Empty`]; invalid UTF-8 is [`ReadError::NotUtf8`].
pub fn read_capped(r: &mut dyn Read, cap: usize) -> Result<Vec<u8>, ReadError> {
    let mut buf = Vec::with_capacity(8192);
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    r.take(limit).read_to_end(&mut buf).map_err(ReadError::Io)?;
    checked(buf, cap)
}

/// The checks of [`read_capped`] over bytes a transport already read (the warm server's body),
/// without copying them.
pub(crate) fn checked(buf: Vec<u8>, cap: usize) -> Result<Vec<u8>, ReadError> {
    if buf.len() > cap {
        return Err(ReadError::Oversize { cap });
    }
    if buf.iter().all(u8::is_ascii_whitespace) {
        return Err(ReadError::Empty);
    }
    if std::str::from_utf8(&buf).is_err() {
        return Err(ReadError::NotUtf8);
    }
    Ok(buf)
}

/// How much of an oversize line [`read_line_capped`] keeps: `serve` reads the frame's `seq` and
/// `hook` from it, to answer the frame under its own `seq`.
pub(crate) const OVERSIZE_PREFIX: usize = 64 << 10;

/// Reads one line of at most `cap` bytes; a longer line is consumed and reported as
/// [`ReadError::Oversize`], with its first [`OVERSIZE_PREFIX`] bytes (at most `cap`) left in
/// `buf`. Returns the bytes consumed (0 at EOF).
pub(crate) fn read_line_capped(r: &mut dyn BufRead, buf: &mut Vec<u8>, cap: usize) -> Result<usize, ReadError> {
    let mut total = 0usize;
    let mut over = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        };
        if chunk.is_empty() {
            break;
        }
        let (take, done) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !over {
            if buf.len() + take > cap.saturating_add(1) {
                over = true;
                let keep = OVERSIZE_PREFIX.min(cap);
                if buf.len() < keep {
                    let more = (keep - buf.len()).min(take);
                    buf.extend_from_slice(&chunk[..more]);
                }
                buf.truncate(keep);
            } else {
                buf.extend_from_slice(&chunk[..take]);
            }
        }
        total += take;
        r.consume(take);
        if done {
            break;
        }
    }
    if over {
        return Err(ReadError::Oversize { cap });
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_reads() {
        assert_eq!(read_capped(&mut &b"{}"[..], 2).unwrap(), b"{}");
        assert!(matches!(
            read_capped(&mut &b"{} "[..], 2),
            Err(ReadError::Oversize { cap: 2 })
        ));
        assert_eq!(
            read_capped(&mut &b"  \n"[..], 10).unwrap_err().category(),
            DecodeCategory::Empty
        );
        assert_eq!(
            read_capped(&mut &b"\xff\xfe"[..], 10).unwrap_err().category(),
            DecodeCategory::NotUtf8
        );
    }

    #[test]
    fn io_errors_print_their_cause_once() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let e = read_capped(&mut Broken, 10).unwrap_err();
        assert_eq!(e.category(), DecodeCategory::Io);
        assert_eq!(e.to_string(), "reading the payload failed");
        assert_eq!(chain(&e), "reading the payload failed: disk on fire");
    }

    #[test]
    fn handler_errors_print_their_cause_once() {
        let e = crate::HandlerError::new(io::Error::other("disk on fire"));
        assert_eq!(chain(&e), "disk on fire");
        let e = crate::HandlerError::msg("nope");
        assert_eq!(
            (e.to_string(), std::error::Error::source(&e).is_none()),
            ("nope".to_owned(), true)
        );
    }

    #[test]
    fn capped_lines() {
        let mut r = io::BufReader::new(&b"abc\ndefghij\nx\n"[..]);
        let mut b = Vec::new();
        assert_eq!(read_line_capped(&mut r, &mut b, 5).unwrap(), 4);
        assert_eq!(b, b"abc\n");
        b.clear();
        assert!(read_line_capped(&mut r, &mut b, 5).is_err());
        assert_eq!(b, b"defgh", "the prefix of an oversize line is kept");
        b.clear();
        assert_eq!(read_line_capped(&mut r, &mut b, 5).unwrap(), 2);
        assert_eq!(b, b"x\n");
        b.clear();
        assert_eq!(read_line_capped(&mut r, &mut b, 5).unwrap(), 0);
    }
}
