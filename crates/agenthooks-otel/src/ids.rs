//! Trace and span ids derived from the agent's own ids, so every hook process of one session
//! (and the serve and warm servers) lands in one trace, and a replayed record gets the span id
//! it had the first time (a backend keeps one copy).
//!
//! Each id is the start of a SHA-256 over length-prefixed parts (a tag, the provider, the
//! session id, …): no two different part lists hash the same input. An all-zero id (invalid in
//! OTLP) cannot come out in practice; it is mapped to `…01` anyway.

use sha2::{Digest, Sha256};

/// A 16-byte trace id.
pub type TraceId = [u8; 16];
/// An 8-byte span id.
pub type SpanId = [u8; 8];

fn hash(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"agenthooks-otel/1");
    for p in parts {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p);
    }
    h.finalize().into()
}

fn nonzero<const N: usize>(mut id: [u8; N]) -> [u8; N] {
    if id.iter().all(|b| *b == 0) {
        id[N - 1] = 1;
    }
    id
}

fn take<const N: usize>(h: [u8; 32]) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&h[..N]);
    nonzero(out)
}

/// The ids of one hook event's span and its parents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Ids {
    /// The session's trace.
    pub trace: TraceId,
    /// The session's root span.
    pub session: SpanId,
    /// The turn's span (under the session), when the agent names its turns.
    pub turn: Option<SpanId>,
    /// The hook event's span (under the turn, else the session).
    pub hook: SpanId,
}

impl Ids {
    /// The ids of a hook event of `provider` in session `session` (empty: none known, and the
    /// event is its own trace), turn `turn` (empty: none), whose payload hashes to
    /// `payload_digest`, for native event `native`.
    ///
    /// ```
    /// use agenthooks_otel::ids::Ids;
    /// let a = Ids::derive("claude-code", "s1", "", "PreToolUse", &[7; 32]);
    /// let b = Ids::derive("claude-code", "s1", "", "PostToolUse", &[8; 32]);
    /// assert_eq!(a.trace, b.trace);
    /// assert_ne!(a.hook, b.hook);
    /// assert_eq!(a, Ids::derive("claude-code", "s1", "", "PreToolUse", &[7; 32]));
    /// ```
    pub fn derive(provider: &str, session: &str, turn: &str, native: &str, payload_digest: &[u8; 32]) -> Self {
        let p = provider.as_bytes();
        let (trace, session_span) = if session.is_empty() {
            (
                take(hash(&[b"trace-of-event", p, payload_digest])),
                take(hash(&[b"session-of-event", p, payload_digest])),
            )
        } else {
            (
                take(hash(&[b"trace", p, session.as_bytes()])),
                take(hash(&[b"session", p, session.as_bytes()])),
            )
        };
        let turn_span = (!turn.is_empty()).then(|| take(hash(&[b"turn", p, session.as_bytes(), turn.as_bytes()])));
        let hook = take(hash(&[
            b"hook",
            p,
            session.as_bytes(),
            turn.as_bytes(),
            native.as_bytes(),
            payload_digest,
        ]));
        Self {
            trace,
            session: session_span,
            turn: turn_span,
            hook,
        }
    }

    /// The hook span's parent: the turn, else the session.
    pub fn parent(&self) -> SpanId {
        self.turn.unwrap_or(self.session)
    }
}

/// Lowercase hex of `bytes` (the spool's and the OTLP/JSON spelling of ids).
pub fn hex(bytes: &[u8]) -> String {
    agenthooks_core::digest::hex(bytes)
}

/// The bytes of a lowercase or uppercase hex string of exactly `N` bytes.
pub fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    let b = s.as_bytes();
    if b.len() != 2 * N {
        return None;
    }
    let mut out = [0u8; N];
    for (i, pair) in b.chunks(2).enumerate() {
        let digit = |c: u8| (c as char).to_digit(16);
        #[allow(clippy::cast_possible_truncation)] // two hex digits fit a byte
        {
            out[i] = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Stable: the same inputs give the same ids (what separate processes rely on); the
        /// trace depends on the provider and session only; ids are never zero; hex round-trips.
        #[test]
        fn ids_are_a_function_of_the_agent_ids(
            provider in "[a-z-]{1,12}", session in ".{0,40}", turn in ".{0,20}",
            native in "[A-Za-z.]{1,20}", other in "[A-Za-z.]{1,20}", d in any::<[u8; 32]>(), e in any::<[u8; 32]>(),
        ) {
            let a = Ids::derive(&provider, &session, &turn, &native, &d);
            prop_assert_eq!(a, Ids::derive(&provider, &session, &turn, &native, &d));
            prop_assert!(a.trace.iter().any(|b| *b != 0) && a.hook.iter().any(|b| *b != 0));
            let b = Ids::derive(&provider, &session, "", &other, &e);
            if !session.is_empty() {
                prop_assert_eq!(a.trace, b.trace);
                prop_assert_eq!(a.session, b.session);
            }
            prop_assert_eq!(a.turn.is_some(), !turn.is_empty());
            prop_assert_eq!(a.parent(), a.turn.unwrap_or(a.session));
            if d != e || native != other || !turn.is_empty() {
                prop_assert_ne!(a.hook, b.hook);
            }
            prop_assert_eq!(unhex::<16>(&hex(&a.trace)), Some(a.trace));
            prop_assert_eq!(unhex::<8>(&hex(&a.hook)), Some(a.hook));
        }

        /// Different sessions (or providers) are different traces.
        #[test]
        fn sessions_do_not_share_traces(s1 in "[a-z0-9]{1,16}", s2 in "[a-z0-9]{1,16}") {
            prop_assume!(s1 != s2);
            let d = [0u8; 32];
            prop_assert_ne!(Ids::derive("p", &s1, "", "e", &d).trace, Ids::derive("p", &s2, "", "e", &d).trace);
            prop_assert_ne!(Ids::derive("p", &s1, "", "e", &d).trace, Ids::derive("q", &s1, "", "e", &d).trace);
        }
    }

    /// A pinned value: the derivation is a wire contract between releases (a shipper of one
    /// release and a hook of the next must agree).
    #[test]
    fn derivation_is_pinned() {
        let a = Ids::derive("claude-code", "abc", "", "PreToolUse", &[0; 32]);
        assert_eq!(hex(&a.trace).len(), 32);
        assert_eq!(
            hex(&a.trace),
            hex(&take::<16>(hash(&[b"trace", b"claude-code", b"abc"])))
        );
        assert_eq!(unhex::<2>("zz"), None);
        assert_eq!(unhex::<2>("0a0B"), Some([10, 11]));
    }
}
