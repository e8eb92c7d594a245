//! A tiny HTTP/1.1 client for loopback calls from the `serve` daemon to the agent's own local
//! server (OpenCode's permission replies and follow-up prompts), and for warm mode's client.
//!
//! Why not a crate: the daemon only ever talks plain HTTP to a server on the same machine that
//! the agent told it about (`serverUrl` in the hello frame): no TLS, no proxies, no redirects,
//! one small JSON request per decision. A full client (`ureq`, `reqwest`) would
//! add a TLS stack and dozens of crates to every consumer's hook binary for that, and the hook
//! binary's start-up time matters. So: plain HTTP/1.1 (`Connection: close` unless the caller
//! keeps a [`Conn`] for a second request, as warm mode's client does), a bounded response (a
//! [`MAX_HEAD`] head and a capped body), `Content-Length` or chunked bodies, and one deadline
//! for the whole exchange. Requests to a host other than a loopback name or address are
//! refused, so a hostile `serverUrl` cannot make the daemon call out.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::http1;

/// The largest response body read by default (bigger ones are cut; the daemon only reads small
/// answers).
pub const MAX_BODY: usize = 1 << 20;

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The base URL is not `http://host[:port][/path]`.
    #[error("not an http URL: {0}")]
    BadUrl(String),
    /// The host is not a loopback name or address.
    #[error("refusing a non-loopback host: {0}")]
    NotLoopback(String),
    /// Connecting, writing or reading failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The response is not HTTP/1.x.
    #[error("malformed HTTP response: {0}")]
    Malformed(String),
}

/// A response: the status and the body (lossy UTF-8).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The body.
    pub body: String,
}

impl Response {
    /// A 2xx status.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// A parsed `http://host:port/prefix` base URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl {
    host: String,
    port: u16,
    prefix: String,
}

impl BaseUrl {
    /// Parses a base URL (`http` only; the port defaults to 80).
    ///
    /// ```
    /// use agenthooks_runtime::http::BaseUrl;
    /// let u = BaseUrl::parse("http://127.0.0.1:4096/").unwrap();
    /// assert_eq!(u.url("/permission/p1/reply"), "http://127.0.0.1:4096/permission/p1/reply");
    /// assert!(BaseUrl::parse("https://x").is_err());
    /// ```
    pub fn parse(url: &str) -> Result<Self, HttpError> {
        let bad = || HttpError::BadUrl(url.to_owned());
        let rest = url.trim().strip_prefix("http://").ok_or_else(bad)?;
        let (authority, prefix) = match rest.find('/') {
            Some(i) => (&rest[..i], rest[i..].trim_end_matches('/')),
            None => (rest, ""),
        };
        let authority = authority.rsplit('@').next().unwrap_or(authority);
        let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
            let (h, p) = v6.split_once(']').ok_or_else(bad)?;
            (h.to_owned(), p.strip_prefix(':'))
        } else {
            match authority.rsplit_once(':') {
                Some((h, p)) => (h.to_owned(), Some(p)),
                None => (authority.to_owned(), None),
            }
        };
        let port = match port {
            Some(p) => p.parse().map_err(|_| bad())?,
            None => 80,
        };
        if host.is_empty() {
            return Err(bad());
        }
        Ok(Self {
            host,
            port,
            prefix: prefix.to_owned(),
        })
    }

    /// The full URL of `path` (which starts with `/`).
    pub fn url(&self, path: &str) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        format!("http://{host}:{}{}{path}", self.port, self.prefix)
    }

    fn addrs(&self) -> Result<Vec<SocketAddr>, HttpError> {
        let loopback_name = self.host.eq_ignore_ascii_case("localhost");
        let addrs: Vec<SocketAddr> = (self.host.as_str(), self.port).to_socket_addrs()?.collect();
        if addrs.is_empty() || (!loopback_name && !addrs.iter().all(|a| a.ip().is_loopback())) {
            return Err(HttpError::NotLoopback(self.host.clone()));
        }
        // `localhost` may resolve to ::1 and 127.0.0.1: keep only loopback addresses.
        Ok(addrs.into_iter().filter(|a| a.ip().is_loopback()).collect())
    }
}

pub use agenthooks_core::kit::frame::encode_component;

/// Sends one request (`body` as JSON when given) and reads the response, all of it within
/// `timeout` (connecting, writing and reading together: a listener that drips its answer cannot
/// hold the caller longer).
pub fn request(
    base: &BaseUrl,
    method: &str,
    path: &str,
    body: Option<&Value>,
    timeout: Duration,
) -> Result<Response, HttpError> {
    request_with(base, method, path, body, &[], timeout)
}

/// [`request`] with extra request headers (`name`, `value`; values must not contain line
/// breaks).
pub fn request_with(
    base: &BaseUrl,
    method: &str,
    path: &str,
    body: Option<&Value>,
    headers: &[(&str, &str)],
    timeout: Duration,
) -> Result<Response, HttpError> {
    let deadline = Instant::now() + timeout;
    let payload = body.map(|b| serde_json::to_vec(b).unwrap_or_default());
    Conn::open(base, deadline)?.send(method, path, payload.as_deref(), headers, false)
}

/// The largest response head (status line and headers) a client reads, in bytes; a longer
/// head is an error, not an allocation.
pub const MAX_HEAD: usize = 16 << 10;

/// A socket whose every read and write must finish by one deadline.
#[derive(Debug)]
struct Deadlined {
    stream: TcpStream,
    deadline: Instant,
}

impl Deadlined {
    fn remaining(&self) -> io::Result<Duration> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "the request's deadline passed"));
        }
        Ok(left.max(Duration::from_millis(1)))
    }
}

impl Read for Deadlined {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.remaining()?;
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

impl Write for Deadlined {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let left = self.remaining()?;
        self.stream.set_write_timeout(Some(left))?;
        self.stream.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

/// One client connection to a loopback server, bounded by a deadline for everything it does
/// (connecting, writing, reading), with a capped response head ([`MAX_HEAD`]) and body
/// ([`MAX_BODY`], or [`Conn::with_body_cap`]). Several requests may go over it when the server
/// keeps it open (warm mode sends its token only over a connection whose server proved itself
/// on it).
#[derive(Debug)]
pub struct Conn {
    reader: http1::Reader<Deadlined>,
    host: String,
    port: u16,
    prefix: String,
    body_cap: usize,
    usable: bool,
}

impl Conn {
    /// Connects to `base` (a loopback host, see [`BaseUrl`]) by `deadline`.
    pub fn open(base: &BaseUrl, deadline: Instant) -> Result<Self, HttpError> {
        let mut last = None;
        let mut stream = None;
        for addr in base.addrs()? {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                last = Some(io::Error::new(io::ErrorKind::TimedOut, "the request's deadline passed"));
                break;
            }
            match TcpStream::connect_timeout(&addr, left) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = Some(e),
            }
        }
        let Some(stream) = stream else {
            return Err(last.map_or_else(|| HttpError::NotLoopback(base.host.clone()), HttpError::Io));
        };
        let _ = stream.set_nodelay(true);
        Ok(Self {
            reader: http1::Reader::new(Deadlined { stream, deadline }),
            host: base.host.clone(),
            port: base.port,
            prefix: base.prefix.clone(),
            body_cap: MAX_BODY,
            usable: true,
        })
    }

    /// Caps response bodies at `cap` bytes (a longer body is cut, and the connection is not
    /// used again).
    #[must_use]
    pub fn with_body_cap(mut self, cap: usize) -> Self {
        self.body_cap = cap;
        self
    }

    /// Moves the deadline (for the requests still to come).
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.reader.get_mut().deadline = deadline;
    }

    /// The socket (its addresses; the warm client checks who owns its peer).
    pub fn stream(&self) -> &TcpStream {
        &self.reader.get_ref().stream
    }

    /// Sends one request (`body` as JSON when given) and reads its response. `keep_alive`
    /// asks the server to keep the connection open for another request; a response that
    /// closes it, or that was cut, leaves this connection unusable (the next `send` fails).
    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
        headers: &[(&str, &str)],
        keep_alive: bool,
    ) -> Result<Response, HttpError> {
        if !self.usable {
            return Err(HttpError::Io(io::Error::new(
                io::ErrorKind::NotConnected,
                "the connection was closed",
            )));
        }
        self.usable = false;
        let mut head = format!(
            "{method} {}{path} HTTP/1.1\r\nHost: {}:{}\r\nConnection: {}\r\nAccept: application/json\r\nUser-Agent: agenthooks/{}\r\n",
            self.prefix,
            self.host,
            self.port,
            if keep_alive { "keep-alive" } else { "close" },
            env!("CARGO_PKG_VERSION")
        );
        {
            use std::fmt::Write as _;
            for (name, value) in headers {
                if !value.contains(['\r', '\n']) {
                    let _ = write!(head, "{name}: {value}\r\n");
                }
            }
            let _ = match body {
                Some(p) => write!(
                    head,
                    "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                    p.len()
                ),
                None => write!(head, "Content-Length: 0\r\n\r\n"),
            };
        }
        let w = self.reader.get_mut();
        w.write_all(head.as_bytes())?;
        if let Some(p) = body {
            w.write_all(p)?;
        }
        w.flush()?;
        let (response, reusable) = read_response(&mut self.reader, self.body_cap)?;
        self.usable = keep_alive && reusable;
        Ok(response)
    }
}

/// Reads one response: the status, the body (cut at `cap`), and whether the connection may
/// carry another request (the body's end is known and the server did not close it). The head
/// and the body's framing are [`http1`](super::http1)'s.
fn read_response(r: &mut http1::Reader<Deadlined>, cap: usize) -> Result<(Response, bool), HttpError> {
    let limits = http1::Limits {
        head: MAX_HEAD,
        headers: 128,
    };
    let head = r.response_head(&limits).map_err(malformed)?;
    let body = r
        .body(head.framing().map_err(malformed)?, cap, http1::Overflow::Cut)
        .map_err(malformed)?;
    Ok((
        Response {
            status: head.status,
            body: String::from_utf8_lossy(&body.bytes).into_owned(),
        },
        body.complete && head.keep_alive(),
    ))
}

fn malformed(e: http1::Error) -> HttpError {
    match e {
        http1::Error::Io(e) => HttpError::Io(e),
        http1::Error::Truncated => HttpError::Malformed("the response ended early".into()),
        other => HttpError::Malformed(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader};
    use std::net::TcpListener;

    #[test]
    fn urls() {
        let u = BaseUrl::parse("http://localhost:4096").unwrap();
        assert_eq!((u.host.as_str(), u.port, u.prefix.as_str()), ("localhost", 4096, ""));
        let u = BaseUrl::parse("http://[::1]:9/api/").unwrap();
        assert_eq!(u.url("/x"), "http://[::1]:9/api/x");
        assert!(BaseUrl::parse("http://:9").is_err());
        assert!(BaseUrl::parse("http://h:notaport").is_err());
        assert_eq!(encode_component("/a b"), "%2Fa%20b");
    }

    #[test]
    fn refuses_non_loopback_hosts() {
        let u = BaseUrl::parse("http://192.0.2.1:80").unwrap();
        let e = request(&u, "GET", "/", None, Duration::from_millis(100)).unwrap_err();
        assert!(matches!(e, HttpError::NotLoopback(_)), "{e}");
    }

    fn serve_once(reply: &'static [u8]) -> (u16, std::thread::JoinHandle<String>) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let h = std::thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            let mut r = BufReader::new(s.try_clone().unwrap());
            let mut req = String::new();
            let mut len = 0usize;
            loop {
                let mut line = String::new();
                r.read_line(&mut line).unwrap();
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap();
                }
                req.push_str(&line);
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; len];
            r.read_exact(&mut body).unwrap();
            req.push_str(&String::from_utf8(body).unwrap());
            s.write_all(reply).unwrap();
            req
        });
        (port, h)
    }

    #[test]
    fn posts_json_and_reads_both_body_framings() {
        let (port, h) = serve_once(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ntrue");
        let u = BaseUrl::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
        let r = request(
            &u,
            "POST",
            "/permission/p1/reply",
            Some(&serde_json::json!({"reply": "once"})),
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!((r.status, r.body.as_str(), r.is_success()), (200, "true", true));
        let req = h.join().unwrap();
        assert!(req.starts_with("POST /permission/p1/reply HTTP/1.1\r\n"), "{req}");
        assert!(req.ends_with("\r\n\r\n{\"reply\":\"once\"}"), "{req}");

        let (port, h) = serve_once(
            b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nnot\r\n6\r\n found\r\n0\r\n\r\n",
        );
        let u = BaseUrl::parse(&format!("http://localhost:{port}")).unwrap();
        let r = request(&u, "GET", "/x", None, Duration::from_secs(5)).unwrap();
        assert_eq!((r.status, r.body.as_str()), (404, "not found"));
        h.join().unwrap();
    }
}
