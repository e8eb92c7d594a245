//! A tiny HTTP/1.1 client for loopback calls from the `serve` daemon to the agent's own local
//! server (OpenCode's permission replies and follow-up prompts).
//!
//! Why not a crate: the daemon only ever talks plain HTTP to a server on the same machine that
//! the agent told it about (`serverUrl` in the hello frame): no TLS, no proxies, no redirects,
//! no keep-alive, one small JSON request per decision. A full client (`ureq`, `reqwest`) would
//! add a TLS stack and dozens of crates to every consumer's hook binary for that, and the hook
//! binary's start-up time matters. So: one request per connection (`Connection: close`), a
//! bounded response, `Content-Length` or chunked bodies, connect/read/write timeouts. Requests
//! to a host other than a loopback name or address are refused, so a hostile `serverUrl` cannot
//! make the daemon call out.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

use serde_json::Value;

/// The largest response body read (bigger ones are cut; the daemon only reads small answers).
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
    /// use agenthooks_core::runner::http::BaseUrl;
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

/// Percent-encodes a query or path component (unreserved characters kept).
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            use std::fmt::Write as _;
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Sends one request (`body` as JSON when given) and reads the response, under `timeout` for
/// connecting and for each read and write.
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
    let mut last = None;
    let mut stream = None;
    for addr in base.addrs()? {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = Some(e),
        }
    }
    let Some(mut stream) = stream else {
        return Err(last.map_or_else(|| HttpError::NotLoopback(base.host.clone()), HttpError::Io));
    };
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let payload = body.map(|b| serde_json::to_vec(b).unwrap_or_default());
    let mut head = format!(
        "{method} {}{path} HTTP/1.1\r\nHost: {}:{}\r\nConnection: close\r\nAccept: application/json\r\nUser-Agent: agenthooks/{}\r\n",
        base.prefix,
        base.host,
        base.port,
        env!("CARGO_PKG_VERSION")
    );
    {
        use std::fmt::Write as _;
        for (name, value) in headers {
            if !value.contains(['\r', '\n']) {
                let _ = write!(head, "{name}: {value}\r\n");
            }
        }
        let _ = match &payload {
            Some(p) => write!(
                head,
                "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                p.len()
            ),
            None => write!(head, "Content-Length: 0\r\n\r\n"),
        };
    }
    stream.write_all(head.as_bytes())?;
    if let Some(p) = &payload {
        stream.write_all(p)?;
    }
    stream.flush()?;
    read_response(BufReader::new(stream))
}

fn read_response(mut r: impl BufRead) -> Result<Response, HttpError> {
    let mut line = String::new();
    r.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let version = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/1.") {
        return Err(HttpError::Malformed(line.trim().to_owned()));
    }
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| HttpError::Malformed(line.trim().to_owned()))?;
    let mut length: Option<usize> = None;
    let mut chunked = false;
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            break;
        }
        let h = line.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            let v = v.trim();
            if k.eq_ignore_ascii_case("content-length") {
                length = v.parse().ok();
            } else if k.eq_ignore_ascii_case("transfer-encoding") && v.to_ascii_lowercase().contains("chunked") {
                chunked = true;
            }
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            if r.read_line(&mut line)? == 0 {
                break;
            }
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16)
                .map_err(|_| HttpError::Malformed(format!("chunk size {:?}", line.trim())))?;
            if size == 0 {
                break;
            }
            let mut chunk = vec![0; size.min(MAX_BODY)];
            r.read_exact(&mut chunk)?;
            if body.len() < MAX_BODY {
                body.extend_from_slice(&chunk);
            }
            line.clear();
            r.read_line(&mut line)?;
        }
    } else if let Some(n) = length {
        let mut buf = vec![0; n.min(MAX_BODY)];
        r.read_exact(&mut buf)?;
        body = buf;
    } else {
        r.take(MAX_BODY as u64).read_to_end(&mut body)?;
    }
    body.truncate(MAX_BODY);
    Ok(Response {
        status,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
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
