//! The HTTP/1.1 subset the fake model servers speak: one request per connection, bodies framed by
//! `Content-Length` or `Transfer-Encoding: chunked`, `Expect: 100-continue`, and responses with a
//! `Content-Length` followed by `Connection: close`. Every read is bounded (size caps, a per-read
//! poll so a shutdown is noticed, and a per-connection deadline), and nothing here panics on what
//! a client sends: malformed input is an [`HttpError`].

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use agenthooks_runtime::http1;

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

/// A socket whose blocked reads wake every [`POLL`] to check for shutdown and the deadline.
struct Polled<'a> {
    stream: &'a mut TcpStream,
    stop: &'a dyn Fn() -> bool,
    deadline: Instant,
}

/// The error of a read given up for shutdown or the deadline.
#[derive(Debug, thiserror::Error)]
#[error("the fake model server is stopping or the connection outlived its deadline")]
struct Stop;

impl Read for Polled<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if (self.stop)() || Instant::now() >= self.deadline {
                return Err(io::Error::other(Stop));
            }
            match self.stream.read(buf) {
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {}
                other => return other,
            }
        }
    }
}

/// A connection with a read buffer, a shutdown check and a deadline; the wire is
/// [`http1`]'s.
pub(super) struct Conn<'a> {
    reader: http1::Reader<Polled<'a>>,
}

impl<'a> Conn<'a> {
    /// Wraps a stream; reads poll every [`POLL`] and give up at `deadline` or when `stop()`.
    pub(super) fn new(stream: &'a mut TcpStream, stop: &'a dyn Fn() -> bool, deadline: Instant) -> io::Result<Self> {
        stream.set_nonblocking(false)?;
        stream.set_read_timeout(Some(POLL))?;
        stream.set_write_timeout(Some(Duration::from_secs(30)))?;
        Ok(Self {
            reader: http1::Reader::new(Polled { stream, stop, deadline }),
        })
    }

    /// Reads one request (head and body).
    pub(super) fn read_request(&mut self) -> Result<Request, HttpError> {
        let limits = http1::Limits {
            head: MAX_HEAD,
            headers: 256,
        };
        let head = self
            .reader
            .request_head(&limits)
            .map_err(bad)?
            .ok_or(HttpError::Closed)?;
        if head.expects_continue() {
            self.reader
                .get_mut()
                .stream
                .write_all(http1::CONTINUE)
                .map_err(|_| HttpError::Io)?;
        }
        let body = self
            .reader
            .body(head.framing().map_err(bad)?, MAX_BODY, http1::Overflow::Refuse)
            .map_err(bad)?;
        Ok(Request {
            method: head.method.clone(),
            path: head.path().to_owned(),
            query: head.query().map(str::to_owned),
            headers: head
                .headers
                .0
                .into_iter()
                .map(|(n, v)| (n, String::from_utf8_lossy(&v).trim().to_owned()))
                .collect(),
            body: body.bytes,
        })
    }

    /// Writes a response (headers only for `HEAD`) and closes the write side.
    pub(super) fn write_response(&mut self, r: &Response, head_only: bool) -> io::Result<()> {
        let stream = &mut *self.reader.get_mut().stream;
        let headers = [("Content-Type", r.content_type), ("Cache-Control", "no-cache")];
        http1::write_response(stream, r.status, &headers, &r.body, false, head_only)?;
        stream.shutdown(std::net::Shutdown::Write)
    }
}

/// The error of a request [`http1`] could not read.
fn bad(e: http1::Error) -> HttpError {
    match e {
        http1::Error::Io(e) if e.get_ref().and_then(|i| i.downcast_ref::<Stop>()).is_some() => HttpError::Stopped,
        http1::Error::Io(_) => HttpError::Io,
        http1::Error::Truncated => HttpError::Bad("connection closed mid-request".into()),
        other => HttpError::Bad(other.to_string()),
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
