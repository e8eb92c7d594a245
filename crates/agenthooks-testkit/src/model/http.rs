//! The HTTP/1.1 subset the fake model servers speak: one request per connection, bodies framed by
//! `Content-Length` or `Transfer-Encoding: chunked`, `Expect: 100-continue`, and responses with a
//! `Content-Length` followed by `Connection: close`. Every read is bounded (size caps, a per-read
//! poll so a shutdown is noticed, and a per-connection deadline), and nothing here panics on what
//! a client sends: malformed input is an [`HttpError`].

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Largest request head (request line plus headers) accepted.
const MAX_HEAD: usize = 64 << 10;
/// Largest request body accepted (agents send their whole conversation every turn).
const MAX_BODY: usize = 64 << 20;
/// How often a blocked read wakes up to check for shutdown.
pub(super) const POLL: Duration = Duration::from_millis(200);

/// Why a request could not be read.
#[derive(Debug)]
pub(super) enum HttpError {
    /// The client closed the connection before sending a request.
    Closed,
    /// The server is shutting down or the connection outlived its deadline.
    Stopped,
    /// The request is malformed or too large; the text says why (sent back as a 400).
    Bad(String),
    /// An I/O error.
    Io,
}

/// One parsed request.
#[derive(Debug)]
pub(super) struct Request {
    /// `GET`, `POST`, `HEAD`, …
    pub(super) method: String,
    /// The path, without the query.
    pub(super) path: String,
    /// The query string without the `?`, if any.
    pub(super) query: Option<String>,
    /// Headers in arrival order, names as sent.
    pub(super) headers: Vec<(String, String)>,
    /// The de-chunked body.
    pub(super) body: Vec<u8>,
}

impl Request {
    /// The first header of that name (case-insensitive).
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// A `POST` of `body` as JSON (for the API modules' tests).
    #[cfg(test)]
    pub(super) fn post(path: &str, query: Option<&str>, body: &serde_json::Value) -> Self {
        Self {
            method: "POST".into(),
            path: path.into(),
            query: query.map(str::to_owned),
            headers: vec![],
            body: serde_json::to_vec(body).unwrap_or_default(),
        }
    }
}

/// One response: status, content type and the complete body.
#[derive(Debug, Clone)]
pub(super) struct Response {
    pub(super) status: u16,
    pub(super) content_type: &'static str,
    pub(super) body: Vec<u8>,
}

impl Response {
    /// The JSON of every SSE `data:` line (for the API modules' tests).
    #[cfg(test)]
    pub(super) fn data_json(&self) -> Vec<serde_json::Value> {
        String::from_utf8_lossy(&self.body)
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str(d).ok())
            .collect()
    }

    /// A JSON response.
    pub(super) fn json(status: u16, v: &serde_json::Value) -> Self {
        Self {
            status,
            content_type: "application/json",
            body: serde_json::to_vec(v).unwrap_or_default(),
        }
    }

    /// A server-sent-events response from `(event name, data)` pairs; `None` names write a bare
    /// `data:` line.
    pub(super) fn sse(events: &[(Option<&str>, String)]) -> Self {
        let mut body = String::new();
        for (name, data) in events {
            if let Some(n) = name {
                body.push_str("event: ");
                body.push_str(n);
                body.push('\n');
            }
            for line in data.lines() {
                body.push_str("data: ");
                body.push_str(line);
                body.push('\n');
            }
            body.push('\n');
        }
        Self {
            status: 200,
            content_type: "text/event-stream",
            body: body.into_bytes(),
        }
    }

    /// An error in the JSON shape most model APIs use.
    pub(super) fn error(status: u16, message: &str) -> Self {
        Self::json(
            status,
            &serde_json::json!({"error": {"message": message, "type": "fake_model_error", "code": status}}),
        )
    }
}

/// A connection with a read buffer, a shutdown check and a deadline.
pub(super) struct Conn<'a> {
    stream: &'a mut TcpStream,
    buf: Vec<u8>,
    stop: &'a dyn Fn() -> bool,
    deadline: Instant,
}

impl<'a> Conn<'a> {
    /// Wraps a stream; reads poll every [`POLL`] and give up at `deadline` or when `stop()`.
    pub(super) fn new(stream: &'a mut TcpStream, stop: &'a dyn Fn() -> bool, deadline: Instant) -> io::Result<Self> {
        stream.set_nonblocking(false)?;
        stream.set_read_timeout(Some(POLL))?;
        stream.set_write_timeout(Some(Duration::from_secs(30)))?;
        Ok(Self {
            stream,
            buf: Vec::with_capacity(16 << 10),
            stop,
            deadline,
        })
    }

    /// Reads more bytes into the buffer; `Ok(0)` is end of stream.
    fn fill(&mut self) -> Result<usize, HttpError> {
        let mut chunk = [0u8; 16 << 10];
        loop {
            if (self.stop)() || Instant::now() >= self.deadline {
                return Err(HttpError::Stopped);
            }
            match self.stream.read(&mut chunk) {
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(n);
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
                    ) => {}
                Err(_) => return Err(HttpError::Io),
            }
        }
    }

    /// Takes bytes up to and including `delim` (at most `cap` bytes before it).
    fn take_until(&mut self, delim: &[u8], cap: usize) -> Result<Vec<u8>, HttpError> {
        let mut from = 0usize;
        loop {
            if let Some(i) = find(&self.buf[from..], delim) {
                let end = from + i + delim.len();
                let rest = self.buf.split_off(end);
                return Ok(std::mem::replace(&mut self.buf, rest));
            }
            if self.buf.len() > cap {
                return Err(HttpError::Bad(format!("line or head longer than {cap} bytes")));
            }
            from = self.buf.len().saturating_sub(delim.len() - 1);
            if self.fill()? == 0 {
                return Err(if self.buf.is_empty() {
                    HttpError::Closed
                } else {
                    HttpError::Bad("connection closed mid-request".into())
                });
            }
        }
    }

    /// Takes exactly `n` bytes.
    fn take_exact(&mut self, n: usize) -> Result<Vec<u8>, HttpError> {
        while self.buf.len() < n {
            if self.fill()? == 0 {
                return Err(HttpError::Bad("connection closed mid-body".into()));
            }
        }
        let rest = self.buf.split_off(n);
        Ok(std::mem::replace(&mut self.buf, rest))
    }

    /// Reads one request (head and body).
    pub(super) fn read_request(&mut self) -> Result<Request, HttpError> {
        let head = self.take_until(b"\r\n\r\n", MAX_HEAD)?;
        let head = String::from_utf8(head).map_err(|_| HttpError::Bad("request head is not UTF-8".into()))?;
        let mut lines = head.split("\r\n");
        let request_line = lines.next().unwrap_or_default();
        let mut parts = request_line.split(' ');
        let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(HttpError::Bad(format!("bad request line `{request_line}`")));
        };
        if !version.starts_with("HTTP/1.") {
            return Err(HttpError::Bad(format!("unsupported protocol `{version}`")));
        }
        let mut headers = Vec::new();
        for line in lines.filter(|l| !l.is_empty()) {
            let Some((n, v)) = line.split_once(':') else {
                return Err(HttpError::Bad(format!("bad header line `{line}`")));
            };
            headers.push((n.trim().to_owned(), v.trim().to_owned()));
        }
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p.to_owned(), Some(q.to_owned())),
            None => (target.to_owned(), None),
        };
        let mut req = Request {
            method: method.to_owned(),
            path,
            query,
            headers,
            body: Vec::new(),
        };
        if req
            .header("expect")
            .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"))
        {
            self.stream
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .map_err(|_| HttpError::Io)?;
        }
        let chunked = req
            .header("transfer-encoding")
            .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
        if chunked {
            req.body = self.read_chunked()?;
        } else if let Some(len) = req.header("content-length") {
            let n: usize = len
                .parse()
                .map_err(|_| HttpError::Bad(format!("bad content-length `{len}`")))?;
            if n > MAX_BODY {
                return Err(HttpError::Bad(format!(
                    "body of {n} bytes exceeds the {MAX_BODY}-byte cap"
                )));
            }
            req.body = self.take_exact(n)?;
        }
        Ok(req)
    }

    fn read_chunked(&mut self) -> Result<Vec<u8>, HttpError> {
        let mut body = Vec::new();
        loop {
            let line = self.take_until(b"\r\n", 1024)?;
            let text = String::from_utf8_lossy(&line[..line.len() - 2]).into_owned();
            let size_hex = text.split(';').next().unwrap_or_default().trim();
            let size =
                usize::from_str_radix(size_hex, 16).map_err(|_| HttpError::Bad(format!("bad chunk size `{text}`")))?;
            if body.len().saturating_add(size) > MAX_BODY {
                return Err(HttpError::Bad(format!("body exceeds the {MAX_BODY}-byte cap")));
            }
            if size == 0 {
                // Trailers, up to the empty line.
                loop {
                    let t = self.take_until(b"\r\n", MAX_HEAD)?;
                    if t.len() == 2 {
                        return Ok(body);
                    }
                }
            }
            body.extend_from_slice(&self.take_exact(size)?);
            let crlf = self.take_exact(2)?;
            if crlf != b"\r\n" {
                return Err(HttpError::Bad("chunk not followed by CRLF".into()));
            }
        }
    }

    /// Writes a response (headers only for `HEAD`) and closes the write side.
    pub(super) fn write_response(&mut self, r: &Response, head_only: bool) -> io::Result<()> {
        let mut out = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
            r.status,
            reason(r.status),
            r.content_type,
            r.body.len()
        )
        .into_bytes();
        if !head_only {
            out.extend_from_slice(&r.body);
        }
        self.stream.write_all(&out)?;
        self.stream.flush()?;
        self.stream.shutdown(std::net::Shutdown::Write)
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    fn roundtrip(raw: &'static [u8]) -> Result<Request, HttpError> {
        let l = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = l.local_addr().expect("addr");
        let client = std::thread::spawn(move || {
            let mut s = TcpStream::connect(addr).expect("connect");
            s.write_all(raw).expect("write");
            let _ = s.shutdown(std::net::Shutdown::Write);
            let mut resp = Vec::new();
            let _ = s.read_to_end(&mut resp);
            resp
        });
        let (mut s, _) = l.accept().expect("accept");
        let stop = || false;
        let mut c = Conn::new(&mut s, &stop, Instant::now() + Duration::from_secs(5)).expect("conn");
        let r = c.read_request();
        let _ = c.write_response(&Response::error(400, "x"), false);
        drop(s);
        let _ = client.join();
        r
    }

    #[test]
    fn content_length_body() {
        let r = roundtrip(b"POST /v1/messages?beta=true HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\n{\"a\":1}")
            .expect("request");
        assert_eq!(
            (r.method.as_str(), r.path.as_str(), r.query.as_deref()),
            ("POST", "/v1/messages", Some("beta=true"))
        );
        assert_eq!(r.body, b"{\"a\":1}");
        assert_eq!(r.header("HOST"), Some("x"));
    }

    #[test]
    fn chunked_body_with_extension_and_trailer() {
        let r = roundtrip(b"POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\n{\"a\r\n4\r\n\":1}\r\n0\r\nX-T: 1\r\n\r\n").expect("request");
        assert_eq!(r.body, b"{\"a\":1}");
    }

    #[test]
    fn malformed_requests_are_errors_not_panics() {
        assert!(matches!(roundtrip(b"garbage\r\n\r\n"), Err(HttpError::Bad(_))));
        assert!(matches!(
            roundtrip(b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n"),
            Err(HttpError::Bad(_))
        ));
        assert!(matches!(
            roundtrip(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
            Err(HttpError::Bad(_))
        ));
        assert!(matches!(
            roundtrip(b"POST / HTTP/1.1\r\nContent-Length: 999999999999\r\n\r\n"),
            Err(HttpError::Bad(_))
        ));
        assert!(matches!(roundtrip(b""), Err(HttpError::Closed)));
    }

    #[test]
    fn sse_framing() {
        let r = Response::sse(&[(Some("ping"), "{\"type\":\"ping\"}".into()), (None, "[DONE]".into())]);
        assert_eq!(r.body, b"event: ping\ndata: {\"type\":\"ping\"}\n\ndata: [DONE]\n\n");
        assert_eq!(r.content_type, "text/event-stream");
    }
}
