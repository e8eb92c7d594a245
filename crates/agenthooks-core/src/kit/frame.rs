//! The words of `serve`'s frame protocol that a bridge codec reads (OpenCode's reads the
//! plugin's context): the control frames' hook names, the connection-state key of the plugin's
//! context, and the percent-encoding of an effect's path. The runtime's `serve` is the other
//! side and uses these same items.

/// The control frame that carries the plugin's context (stored under [`HELLO_KEY`]).
pub const HELLO: &str = "agenthooks.hello";
/// The control frame a health check sends.
pub const PING: &str = "agenthooks.ping";
/// The [`ConnState`](crate::ConnState) key of the hello frame's `input`.
pub const HELLO_KEY: &str = "hello";

/// Percent-encodes a query or path component (unreserved characters kept).
///
/// ```
/// assert_eq!(agenthooks_core::kit::frame::encode_component("a b/ç"), "a%20b%2F%C3%A7");
/// ```
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
