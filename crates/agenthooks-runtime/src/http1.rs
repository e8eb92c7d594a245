//! The one HTTP/1.1 wire module: request and response heads (parsed by `httparse`), body framing
//! (`Content-Length`, `Transfer-Encoding: chunked`, or until the peer closes), size caps, status
//! reason phrases and response writing.
//!
//! Three speakers share it: warm mode's server ([`warm`](super::warm)), the effects and warm
//! client ([`http`](super::http)), and the testkit's fake model servers. Each keeps its own
//! transport: its sockets, timeouts, deadlines and shutdown checks live in the [`Read`] it hands
//! to a [`Reader`] (or, for warm's server, in its own read loop around [`parse_request`]), and
//! its own caps are passed in as [`Limits`] and body caps. What is here is only the bytes: a fix
//! to a header limit or a chunked edge case is made once.
//!
//! Nothing here panics on what a peer sends: a malformed or oversized message is an [`Error`].
//!
//! ```
//! use agenthooks_runtime::http1::{Framing, Limits, Overflow, Reader};
//! let wire: &[u8] = b"POST /x?a=1 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
//! let mut r = Reader::new(wire);
//! let head = r.request_head(&Limits::default()).unwrap().expect("a request");
//! assert_eq!((head.method.as_str(), head.path(), head.query()), ("POST", "/x", Some("a=1")));
//! let framing = head.framing().unwrap();
//! assert_eq!(framing, Framing::Chunked);
//! let body = r.body(framing, 1024, Overflow::Refuse).unwrap();
//! assert_eq!((body.bytes.as_slice(), body.complete), (&b"abc"[..], true));
//! ```

use std::io::{self, Read, Write};

/// The longest chunk-size line read (`1a2b;ext=…\r\n`), in bytes.
pub const CHUNK_LINE_CAP: usize = 1024;

/// Why a message could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The head did not end within the cap (bytes).
    #[error("a head over {0} bytes")]
    HeadTooLarge(usize),
    /// The head has more header lines than the cap.
    #[error("more than {0} header lines")]
    TooManyHeaders(usize),
    /// The head is not HTTP/1.x (the text says where).
    #[error("malformed head: {0}")]
    Malformed(String),
    /// `Content-Length` is not a number.
    #[error("bad Content-Length `{0}`")]
    BadLength(String),
    /// A `Transfer-Encoding` other than `chunked`.
    #[error("unsupported Transfer-Encoding `{0}`")]
    UnsupportedEncoding(String),
    /// A chunk size line or chunk terminator is malformed.
    #[error("bad chunk: {0}")]
    BadChunk(String),
    /// The body is over the cap (bytes) and the caller refuses such bodies.
    #[error("a body over the {0}-byte cap")]
    BodyTooLarge(usize),
    /// The peer closed the connection in the middle of a message.
    #[error("the connection closed mid-message")]
    Truncated,
    /// Reading from the transport failed (its timeouts and deadlines arrive here).
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// The caps on a head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest head (start line and headers), in bytes.
    pub head: usize,
    /// The most header lines.
    pub headers: usize,
}

impl Default for Limits {
    /// 16 KiB and 64 header lines.
    fn default() -> Self {
        Self {
            head: 16 << 10,
            headers: 64,
        }
    }
}

/// Header lines in arrival order, names as sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers(pub Vec<(String, Vec<u8>)>);

impl Headers {
    /// The first header of that name (case-insensitive), raw.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.0
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// The first header of that name as trimmed UTF-8 (`None` when absent or not UTF-8).
    pub fn get_str(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(|v| std::str::from_utf8(v).ok()).map(str::trim)
    }

    /// Whether a comma-separated header holds `token` (case-insensitive).
    fn has_token(&self, name: &str, token: &str) -> bool {
        self.get_str(name)
            .is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    }

    /// How the body after a head with these headers is framed. `Transfer-Encoding: chunked`
    /// wins over `Content-Length`; without either a request has no body and a response runs
    /// until the peer closes.
    ///
    /// # Errors
    /// [`Error::BadLength`] and [`Error::UnsupportedEncoding`].
    pub fn framing(&self, request: bool) -> Result<Framing, Error> {
        if let Some(te) = self.get(TRANSFER_ENCODING) {
            return if self.has_token(TRANSFER_ENCODING, "chunked") {
                Ok(Framing::Chunked)
            } else {
                Err(Error::UnsupportedEncoding(String::from_utf8_lossy(te).into_owned()))
            };
        }
        match self.get_str("content-length") {
            Some(n) => n
                .parse()
                .map(Framing::Length)
                .map_err(|_| Error::BadLength(n.chars().take(64).collect())),
            None if request => Ok(Framing::Length(0)),
            None => Ok(Framing::UntilClose),
        }
    }
}

const TRANSFER_ENCODING: &str = "transfer-encoding";

/// A request head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestHead {
    /// `GET`, `POST`, …
    pub method: String,
    /// The request target as sent (path and query).
    pub target: String,
    /// The minor version (`1` for HTTP/1.1).
    pub minor: u8,
    /// The headers.
    pub headers: Headers,
}

impl RequestHead {
    /// The first header of that name (case-insensitive), raw.
    pub fn header(&self, name: &str) -> Option<&[u8]> {
        self.headers.get(name)
    }

    /// The first header of that name as trimmed UTF-8.
    pub fn header_str(&self, name: &str) -> Option<&str> {
        self.headers.get_str(name)
    }

    /// The target's path (without the query).
    pub fn path(&self) -> &str {
        self.target.split_once('?').map_or(self.target.as_str(), |(p, _)| p)
    }

    /// The target's query without the `?`, if any.
    pub fn query(&self) -> Option<&str> {
        self.target.split_once('?').map(|(_, q)| q)
    }

    /// Whether the client keeps the connection open after this request (HTTP/1.0: only with
    /// `Connection: keep-alive`; HTTP/1.1: unless `Connection: close`).
    pub fn keep_alive(&self) -> bool {
        keep_alive(&self.headers, self.minor)
    }

    /// Whether the client waits for `100 Continue` before it sends the body.
    pub fn expects_continue(&self) -> bool {
        self.header_str("expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    }

    /// The body's framing ([`Headers::framing`] for a request).
    ///
    /// # Errors
    /// As [`Headers::framing`].
    pub fn framing(&self) -> Result<Framing, Error> {
        self.headers.framing(true)
    }
}

/// A response head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseHead {
    /// The status code.
    pub status: u16,
    /// The minor version (`0` for HTTP/1.0).
    pub minor: u8,
    /// The headers.
    pub headers: Headers,
}

impl ResponseHead {
    /// Whether the server keeps the connection open after this response.
    pub fn keep_alive(&self) -> bool {
        keep_alive(&self.headers, self.minor)
    }

    /// The body's framing ([`Headers::framing`] for a response).
    ///
    /// # Errors
    /// As [`Headers::framing`].
    pub fn framing(&self) -> Result<Framing, Error> {
        self.headers.framing(false)
    }
}

fn keep_alive(headers: &Headers, minor: u8) -> bool {
    if minor == 0 {
        headers.has_token("connection", "keep-alive")
    } else {
        !headers.has_token("connection", "close")
    }
}

fn owned(headers: &[httparse::Header<'_>]) -> Headers {
    Headers(headers.iter().map(|h| (h.name.to_owned(), h.value.to_vec())).collect())
}

/// What one parse of a head found: the head and its length once complete, `None` while it
/// is incomplete and under the cap.
fn head_status<H>(
    parsed: Result<httparse::Status<usize>, httparse::Error>,
    buffered: usize,
    limits: &Limits,
    head: impl FnOnce() -> H,
) -> Result<Option<(H, usize)>, Error> {
    match parsed {
        Ok(httparse::Status::Complete(n)) if n <= limits.head => Ok(Some((head(), n))),
        Ok(httparse::Status::Partial) if buffered < limits.head => Ok(None),
        Ok(_) => Err(Error::HeadTooLarge(limits.head)),
        Err(httparse::Error::TooManyHeaders) => Err(Error::TooManyHeaders(limits.headers)),
        Err(other) => Err(Error::Malformed(other.to_string())),
    }
}

/// Parses a request head at the start of `buf`: `Ok(None)` while it is incomplete (and under
/// the cap), else the head and its length in bytes (the body starts there).
///
/// # Errors
/// [`Error::HeadTooLarge`], [`Error::TooManyHeaders`], [`Error::Malformed`].
pub fn parse_request(buf: &[u8], limits: &Limits) -> Result<Option<(RequestHead, usize)>, Error> {
    let mut headers = vec![httparse::EMPTY_HEADER; limits.headers];
    let mut req = httparse::Request::new(&mut headers);
    let parsed = req.parse(buf);
    head_status(parsed, buf.len(), limits, || RequestHead {
        method: req.method.unwrap_or_default().to_owned(),
        target: req.path.unwrap_or_default().to_owned(),
        minor: req.version.unwrap_or(1),
        headers: owned(req.headers),
    })
}

/// Parses a response head at the start of `buf`, as [`parse_request`] does a request's.
///
/// # Errors
/// As [`parse_request`].
pub fn parse_response(buf: &[u8], limits: &Limits) -> Result<Option<(ResponseHead, usize)>, Error> {
    let mut headers = vec![httparse::EMPTY_HEADER; limits.headers];
    let mut res = httparse::Response::new(&mut headers);
    let parsed = res.parse(buf);
    head_status(parsed, buf.len(), limits, || ResponseHead {
        status: res.code.unwrap_or_default(),
        minor: res.version.unwrap_or(1),
        headers: owned(res.headers),
    })
}

/// How a body is framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// Exactly this many bytes.
    Length(usize),
    /// `Transfer-Encoding: chunked`.
    Chunked,
    /// Until the peer closes (a response without a length).
    UntilClose,
}

/// What [`Reader::body`] does with a body over its cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    /// Keep the first `cap` bytes and stop reading ([`Body::complete`] is `false`; the
    /// connection cannot carry another message).
    Cut,
    /// Fail with [`Error::BodyTooLarge`] (a `Content-Length` over the cap fails before a byte
    /// of the body is read).
    Refuse,
}

/// A body as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    /// The bytes (de-chunked).
    pub bytes: Vec<u8>,
    /// Whether the body's end was read (`false`: cut at the cap, or framed by the close).
    pub complete: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChunkState {
    Size,
    Data(u64),
    DataEnd,
    Trailer,
    Done,
}

/// An incremental `Transfer-Encoding: chunked` decoder: feed it what has arrived, it appends
/// the data to the body and says how much input it used.
#[derive(Debug, Clone)]
pub struct Chunked {
    state: ChunkState,
    trailer: usize,
    trailer_cap: usize,
    refuse_early: bool,
}

impl Chunked {
    /// A decoder whose trailer section may be at most `trailer_cap` bytes.
    pub fn new(trailer_cap: usize) -> Self {
        Self {
            state: ChunkState::Size,
            trailer: 0,
            trailer_cap,
            refuse_early: false,
        }
    }

    /// Fails with [`Error::BodyTooLarge`] as soon as a chunk's size line announces more than
    /// the cap leaves room for (instead of appending up to the cap first).
    #[must_use]
    pub fn refusing_early(mut self) -> Self {
        self.refuse_early = true;
        self
    }

    /// Whether the last chunk and the trailers were read.
    pub fn is_done(&self) -> bool {
        self.state == ChunkState::Done
    }

    /// Decodes from `input`, appending data to `out` as long as `out` stays within `cap`;
    /// returns the bytes of `input` used (what is left waits for more input). Data past the cap
    /// is appended up to the cap, then [`Error::BodyTooLarge`].
    ///
    /// # Errors
    /// [`Error::BadChunk`], [`Error::HeadTooLarge`] (trailers over their cap),
    /// [`Error::BodyTooLarge`].
    pub fn decode(&mut self, input: &[u8], out: &mut Vec<u8>, cap: usize) -> Result<usize, Error> {
        let mut used = 0;
        loop {
            let rest = &input[used..];
            match self.state {
                ChunkState::Done => return Ok(used),
                ChunkState::Size => match httparse::parse_chunk_size(rest) {
                    Ok(httparse::Status::Complete((n, 0))) => {
                        used += n;
                        self.state = ChunkState::Trailer;
                    }
                    Ok(httparse::Status::Complete((n, size))) => {
                        if self.refuse_early && size > cap.saturating_sub(out.len()) as u64 {
                            return Err(Error::BodyTooLarge(cap));
                        }
                        used += n;
                        self.state = ChunkState::Data(size);
                    }
                    Ok(httparse::Status::Partial) if rest.len() < CHUNK_LINE_CAP => return Ok(used),
                    _ => {
                        let line = rest.split(|&b| b == b'\n').next().unwrap_or_default();
                        let line: String = String::from_utf8_lossy(line).chars().take(64).collect();
                        return Err(Error::BadChunk(format!("size line `{}`", line.trim())));
                    }
                },
                ChunkState::Data(left) => {
                    if rest.is_empty() {
                        return Ok(used);
                    }
                    let take = usize::try_from(left).unwrap_or(usize::MAX).min(rest.len());
                    let room = cap.saturating_sub(out.len());
                    if take > room {
                        out.extend_from_slice(&rest[..room]);
                        return Err(Error::BodyTooLarge(cap));
                    }
                    out.extend_from_slice(&rest[..take]);
                    used += take;
                    let left = left - take as u64;
                    self.state = if left == 0 {
                        ChunkState::DataEnd
                    } else {
                        ChunkState::Data(left)
                    };
                }
                ChunkState::DataEnd => {
                    if rest.len() < 2 {
                        return Ok(used);
                    }
                    if &rest[..2] != b"\r\n" {
                        return Err(Error::BadChunk("a chunk not followed by CRLF".into()));
                    }
                    used += 2;
                    self.state = ChunkState::Size;
                }
                ChunkState::Trailer => {
                    let Some(i) = rest.iter().position(|&b| b == b'\n') else {
                        if self.trailer + rest.len() > self.trailer_cap {
                            return Err(Error::HeadTooLarge(self.trailer_cap));
                        }
                        return Ok(used);
                    };
                    self.trailer += i + 1;
                    if self.trailer > self.trailer_cap {
                        return Err(Error::HeadTooLarge(self.trailer_cap));
                    }
                    used += i + 1;
                    if rest[..i].strip_suffix(b"\r").unwrap_or(&rest[..i]).is_empty() {
                        self.state = ChunkState::Done;
                    }
                }
            }
        }
    }
}

/// [`parse_request`] or [`parse_response`].
type Parse<H> = fn(&[u8], &Limits) -> Result<Option<(H, usize)>, Error>;

/// A buffered reader of HTTP/1.1 messages over any transport. Bytes read past one message stay
/// buffered for the next (keep-alive and pipelining).
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
    buf: Vec<u8>,
}

impl<R: Read> Reader<R> {
    /// Wraps a transport (its timeouts are its own: a read error ends the message with
    /// [`Error::Io`]).
    pub fn new(inner: R) -> Self {
        Self {
            inner,
            buf: Vec::with_capacity(8 << 10),
        }
    }

    /// The transport.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The transport, to write an answer or change its timeouts.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Reads once more from the transport into the buffer; `Ok(0)` is the end of the stream.
    fn fill(&mut self) -> Result<usize, Error> {
        let mut chunk = [0u8; 16 << 10];
        loop {
            match self.inner.read(&mut chunk) {
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::Io(e)),
            }
        }
    }

    fn head<H>(&mut self, limits: &Limits, parse: Parse<H>) -> Result<Option<H>, Error> {
        loop {
            if !self.buf.is_empty() {
                if let Some((head, n)) = parse(&self.buf, limits)? {
                    self.buf.drain(..n);
                    return Ok(Some(head));
                }
            }
            if self.fill()? == 0 {
                return if self.buf.is_empty() {
                    Ok(None)
                } else {
                    Err(Error::Truncated)
                };
            }
        }
    }

    /// Reads a request head; `Ok(None)` when the peer closed before sending a byte.
    ///
    /// # Errors
    /// As [`parse_request`], plus [`Error::Truncated`] and [`Error::Io`].
    pub fn request_head(&mut self, limits: &Limits) -> Result<Option<RequestHead>, Error> {
        self.head(limits, parse_request)
    }

    /// Reads a response head.
    ///
    /// # Errors
    /// As [`parse_response`], plus [`Error::Truncated`] (also when the peer closed before the
    /// first byte) and [`Error::Io`].
    pub fn response_head(&mut self, limits: &Limits) -> Result<ResponseHead, Error> {
        self.head(limits, parse_response)?.ok_or(Error::Truncated)
    }

    /// Reads a body framed by `framing`, at most `cap` bytes of it (see [`Overflow`]). Chunk
    /// trailers are capped at [`Limits::default`]'s head size.
    ///
    /// # Errors
    /// [`Error::BodyTooLarge`] (with [`Overflow::Refuse`]), [`Error::BadChunk`],
    /// [`Error::Truncated`] and [`Error::Io`].
    pub fn body(&mut self, framing: Framing, cap: usize, overflow: Overflow) -> Result<Body, Error> {
        match framing {
            Framing::Length(n) => {
                if n > cap && overflow == Overflow::Refuse {
                    return Err(Error::BodyTooLarge(cap));
                }
                let take = n.min(cap);
                while self.buf.len() < take {
                    if self.fill()? == 0 {
                        return Err(Error::Truncated);
                    }
                }
                let rest = self.buf.split_off(take);
                let bytes = std::mem::replace(&mut self.buf, rest);
                Ok(Body {
                    bytes,
                    complete: take == n,
                })
            }
            Framing::Chunked => {
                let mut decoder = Chunked::new(Limits::default().head);
                if overflow == Overflow::Refuse {
                    decoder = decoder.refusing_early();
                }
                let mut bytes = Vec::new();
                loop {
                    match decoder.decode(&self.buf, &mut bytes, cap) {
                        Ok(used) => {
                            self.buf.drain(..used);
                        }
                        Err(Error::BodyTooLarge(_)) if overflow == Overflow::Cut => {
                            self.buf.clear();
                            return Ok(Body { bytes, complete: false });
                        }
                        Err(e) => return Err(e),
                    }
                    if decoder.is_done() {
                        return Ok(Body { bytes, complete: true });
                    }
                    if self.fill()? == 0 {
                        return Err(Error::Truncated);
                    }
                }
            }
            Framing::UntilClose => {
                let mut bytes = std::mem::take(&mut self.buf);
                // Cutting stops at the cap; refusing reads one byte past it to know.
                let stop = if overflow == Overflow::Cut {
                    cap
                } else {
                    cap.saturating_add(1)
                };
                while bytes.len() < stop {
                    if self.fill()? == 0 {
                        break;
                    }
                    bytes.append(&mut self.buf);
                }
                if bytes.len() > cap {
                    if overflow == Overflow::Refuse {
                        return Err(Error::BodyTooLarge(cap));
                    }
                    bytes.truncate(cap);
                }
                Ok(Body { bytes, complete: false })
            }
        }
    }
}

/// The reason phrase of a status code (a generic one for codes not listed).
pub fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Internal Server Error",
    }
}

/// The interim answer to `Expect: 100-continue`.
pub const CONTINUE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";

/// Writes a whole response in one write: the status line, `headers` (values must not contain
/// line breaks), `Content-Length`, `Connection` and, unless `head_only`, the body.
///
/// # Errors
/// The transport's write error.
pub fn write_response(
    out: &mut impl Write,
    status: u16,
    headers: &[(&str, &str)],
    body: &[u8],
    keep_alive: bool,
    head_only: bool,
) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(body.len() + 192);
    write!(bytes, "HTTP/1.1 {status} {}\r\n", reason(status))?;
    for (name, value) in headers {
        write!(bytes, "{name}: {value}\r\n")?;
    }
    write!(
        bytes,
        "Content-Length: {}\r\nConnection: {}\r\n\r\n",
        body.len(),
        if keep_alive { "keep-alive" } else { "close" }
    )?;
    if !head_only {
        bytes.extend_from_slice(body);
    }
    out.write_all(&bytes)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transport that hands out its bytes `piece` at a time.
    struct Drip<'a> {
        bytes: &'a [u8],
        piece: usize,
    }

    impl Read for Drip<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.piece.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn request(wire: &[u8], piece: usize, cap: usize) -> Result<(RequestHead, Body), Error> {
        let mut r = Reader::new(Drip { bytes: wire, piece });
        let head = r.request_head(&Limits::default())?.ok_or(Error::Truncated)?;
        let body = r.body(head.framing()?, cap, Overflow::Refuse)?;
        Ok((head, body))
    }

    #[test]
    fn chunked_bodies_decode_whatever_the_read_sizes() {
        let wire = b"POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\n{\"a\r\n4\r\n\":1}\r\n0\r\nX-T: 1\r\n\r\n";
        for piece in [1, 2, 3, 7, 64, 4096] {
            let (head, body) = request(wire, piece, 1024).unwrap();
            assert_eq!(head.path(), "/x");
            assert_eq!(
                (body.bytes.as_slice(), body.complete),
                (&b"{\"a\":1}"[..], true),
                "{piece}"
            );
        }
    }

    #[test]
    fn caps_and_malformed_input_are_errors() {
        let big = b"POST / HTTP/1.1\r\nContent-Length: 999999999999\r\n\r\n";
        assert!(matches!(request(big, 64, 1024), Err(Error::BodyTooLarge(1024))));
        let chunked_big = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n";
        assert!(matches!(request(chunked_big, 64, 16), Err(Error::BodyTooLarge(16))));
        let bad_size = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n";
        assert!(matches!(request(bad_size, 64, 16), Err(Error::BadChunk(_))));
        let no_crlf = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab0\r\n\r\n";
        assert!(matches!(request(no_crlf, 64, 16), Err(Error::BadChunk(_))));
        let bad_len = b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n";
        assert!(matches!(request(bad_len, 64, 16), Err(Error::BadLength(_))));
        let gzip = b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n";
        assert!(matches!(request(gzip, 64, 16), Err(Error::UnsupportedEncoding(_))));
        assert!(matches!(request(b"garbage\r\n\r\n", 64, 16), Err(Error::Malformed(_))));
        assert!(matches!(
            request(b"POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nab", 64, 16),
            Err(Error::Truncated)
        ));
        let mut endless = b"GET / HTTP/1.1\r\nX-A: ".to_vec();
        endless.extend(std::iter::repeat_n(b'a', 64 << 10));
        assert!(matches!(request(&endless, 4096, 16), Err(Error::HeadTooLarge(_))));
        let many = (0..65).fold(String::new(), |mut m, i| {
            use std::fmt::Write as _;
            let _ = write!(m, "X-{i}: 1\r\n");
            m
        });
        let many = format!("GET / HTTP/1.1\r\n{many}\r\n");
        assert!(matches!(
            request(many.as_bytes(), 4096, 16),
            Err(Error::TooManyHeaders(64))
        ));
        let mut r = Reader::new(&b""[..]);
        assert!(r.request_head(&Limits::default()).unwrap().is_none());
    }

    #[test]
    fn responses_cut_at_the_cap_or_run_until_close() {
        let wire = b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789";
        let mut r = Reader::new(&wire[..]);
        let head = r.response_head(&Limits::default()).unwrap();
        assert_eq!((head.status, head.keep_alive()), (200, true));
        let body = r.body(head.framing().unwrap(), 4, Overflow::Cut).unwrap();
        assert_eq!((body.bytes.as_slice(), body.complete), (&b"0123"[..], false));

        let wire = b"HTTP/1.0 404 Not Found\r\n\r\nnot found";
        let mut r = Reader::new(Drip { bytes: wire, piece: 3 });
        let head = r.response_head(&Limits::default()).unwrap();
        assert_eq!((head.status, head.keep_alive()), (404, false));
        assert_eq!(head.framing().unwrap(), Framing::UntilClose);
        let body = r.body(Framing::UntilClose, 1024, Overflow::Cut).unwrap();
        assert_eq!(body.bytes, b"not found");

        let wire = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n0\r\n\r\n";
        let mut r = Reader::new(&wire[..]);
        let head = r.response_head(&Limits::default()).unwrap();
        let body = r.body(head.framing().unwrap(), 3, Overflow::Cut).unwrap();
        assert_eq!((body.bytes.as_slice(), body.complete), (&b"abc"[..], false));
    }

    #[test]
    fn pipelined_requests_stay_buffered_and_responses_are_whole() {
        let wire = b"POST /a HTTP/1.1\r\nContent-Length: 2\r\n\r\nhiGET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
        let mut r = Reader::new(&wire[..]);
        let a = r.request_head(&Limits::default()).unwrap().unwrap();
        assert_eq!(r.body(a.framing().unwrap(), 16, Overflow::Refuse).unwrap().bytes, b"hi");
        let b = r.request_head(&Limits::default()).unwrap().unwrap();
        assert_eq!((b.method.as_str(), b.minor, b.keep_alive()), ("GET", 0, true));
        assert_eq!(b.framing().unwrap(), Framing::Length(0));

        let mut out = Vec::new();
        write_response(&mut out, 413, &[("Content-Type", "text/plain")], b"no", false, false).unwrap();
        assert_eq!(
            out,
            b"HTTP/1.1 413 Content Too Large\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno"
        );
    }
}
