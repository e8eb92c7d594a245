//! Detection: which agent is listening, and answers every dialect can read.
//!
//! The flag comes first; else env; else payload shape. When the flag names one agent, its codec
//! does not recognise the payload, and another codec recognises it with [`Confidence::Certain`]
//! (a shape no other agent produces), the payload comes from a foreign agent reading another
//! agent's config (e.g. Copilot running hooks from `.gemini/settings.json`). That
//! agent is the one listening, so its codec answers ([`Confidence::Mismatch`]), with the
//! `--event` hint translated to its own event of the same kind ([`event_hint`]), and the answer
//! is made valid in both dialects where one exists ([`reconcile`]).

use crate::codec::{Codec, Env, WireResponse};
use crate::provider::Confidence;

use super::args::{ProviderHint, UsageError};

/// Detects the codec for an invocation: the flag first; else env; else payload shape. When the
/// flag names one agent but the payload plainly comes from another (see the module docs), the
/// real one is returned with [`Confidence::Mismatch`]. [`UsageError::NoProvider`] when nothing identifies the agent (the
/// runner then answers [`neutral_response`]).
pub fn detect<'c>(
    codecs: &[&'c dyn Codec],
    flag: Option<&str>,
    payload: &[u8],
    env: &dyn Env,
) -> Result<(&'c dyn Codec, Confidence), UsageError> {
    detect_with(codecs, flag, payload, env, None).map(|d| (d.codec, d.confidence))
}

/// A detection result.
#[derive(Clone, Copy)]
pub(super) struct Detected<'c> {
    /// The codec that answers.
    pub(super) codec: &'c dyn Codec,
    /// How sure the runner is.
    pub(super) confidence: Confidence,
    /// Under [`Confidence::Mismatch`], the codec the flag named (its agent may be the one
    /// listening after all).
    pub(super) flagged: Option<&'c dyn Codec>,
}

/// [`detect`], with the facade's hint for a provider this build lacks.
pub(super) fn detect_with<'c>(
    codecs: &[&'c dyn Codec],
    flag: Option<&str>,
    payload: &[u8],
    env: &dyn Env,
    hint: Option<fn(&str) -> ProviderHint>,
) -> Result<Detected<'c>, UsageError> {
    if let Some(flag) = flag {
        let Some(named) = codecs.iter().copied().find(|c| c.provider() == flag) else {
            return Err(unsupported(codecs, flag, hint));
        };
        if named.sniff_payload(payload, env).is_none() {
            let real = codecs
                .iter()
                .copied()
                .find(|c| c.provider() != flag && c.sniff_payload(payload, env) == Some(Confidence::Certain));
            if let Some(real) = real {
                tracing::warn!(flag, real = %real.provider(), "payload shape belongs to another agent; answering in its dialect");
                return Ok(Detected {
                    codec: real,
                    confidence: Confidence::Mismatch,
                    flagged: Some(named),
                });
            }
        }
        return Ok(Detected {
            codec: named,
            confidence: Confidence::Certain,
            flagged: None,
        });
    }
    let best = |f: &dyn Fn(&dyn Codec) -> Option<Confidence>| {
        codecs
            .iter()
            .copied()
            .filter_map(|c| f(c).map(|k| (c, k)))
            .max_by_key(|(_, k)| *k)
    };
    let found = |codec, confidence| {
        Ok(Detected {
            codec,
            confidence,
            flagged: None,
        })
    };
    if let Some((c, k)) = best(&|c| c.sniff_payload(payload, env)).filter(|(_, k)| *k == Confidence::Certain) {
        return found(c, k);
    }
    if let Some((c, _)) = best(&|c| c.sniff_env(env)) {
        return found(c, Confidence::Inferred);
    }
    if let Some((c, _)) = best(&|c| c.sniff_payload(payload, env)) {
        return found(c, Confidence::Guess);
    }
    Err(UsageError::NoProvider)
}

/// The usage error for a provider this build lacks.
pub(super) fn unsupported(codecs: &[&dyn Codec], flag: &str, hint: Option<fn(&str) -> ProviderHint>) -> UsageError {
    let list: Vec<String> = codecs.iter().map(|c| c.provider().to_string()).collect();
    UsageError::UnsupportedProvider {
        provider: flag.to_owned(),
        compiled_in: list.join(", "),
        hint: hint.map_or(ProviderHint::Unknown, |h| h(flag)),
    }
}

/// The answer when no provider can be detected: `{}` on stdout, exit 0, which every stdin
/// dialect reads as "no opinion" (an empty stdout is not: Gemini then parses stderr, Cursor
/// counts it as a failed hook).
pub fn neutral_response() -> WireResponse {
    WireResponse::empty_object()
}

/// The `--event` hint in the answering codec's dialect. Under a mismatch the hint names the
/// flagged agent's event (`BeforeTool`); the payload's codec gets its own event of the same
/// unified kind (`preToolUse`), or no hint when it has none.
pub(super) fn event_hint(d: &Detected<'_>, event: Option<&str>) -> Option<String> {
    let event = event?;
    let Some(flagged) = d.flagged else {
        return Some(event.to_owned());
    };
    let natives = d.codec.native_events();
    if natives.iter().any(|n| n.name == event) {
        return Some(event.to_owned());
    }
    let kind = flagged.kind_of(event);
    natives.iter().find(|n| n.kind == kind).map(|n| n.name.to_owned())
}

/// Makes an answer of the payload's dialect valid in the flagged dialect too (see the module
/// docs). An answer with empty stdout and exit 0 — some dialects' "no opinion" — becomes
/// [`neutral_response`], which both read as no opinion. Any other answer (JSON on stdout, or an
/// exit code with stderr) already parses in every stdin dialect and is kept as the payload's
/// agent wrote it: when the two dialects have no common answer for a decision, **the payload's
/// dialect wins**, because the payload says who sent it.
pub(super) fn reconcile(r: WireResponse) -> WireResponse {
    if r.exit_code == 0 && r.stdout.trim_ascii().is_empty() {
        let mut n = neutral_response();
        n.stderr = r.stderr;
        return n;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reconcile_fills_an_empty_no_op_only() {
        assert_eq!(reconcile(WireResponse::empty()).stdout, b"{}");
        let deny = WireResponse::stdout(br#"{"decision":"deny"}"#.to_vec());
        assert_eq!(reconcile(deny.clone()), deny);
        let block = WireResponse::exit(2, "no");
        assert_eq!(reconcile(block.clone()), block);
    }
}
