//! Error types of the core: handler errors, decode and encode errors.

use std::error::Error as StdError;
use std::fmt;

use crate::capability::Capability;
use crate::provider::Provider;

/// An error from a handler, an interceptor, or the pipeline around them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HandlerError {
    /// The handler failed. Transparent: its message and `source` are the wrapped error's own,
    /// so an error reporter prints each cause once.
    #[error(transparent)]
    Failed(Box<dyn StdError + Send + Sync>),
    /// The handler panicked; the panic was caught.
    #[error("handler panicked: {message}")]
    Panicked {
        /// The panic payload, when it was a string.
        message: String,
    },
    /// Several handlers of an `all()` failed.
    #[error("{} handlers failed: {}", .0.len(), join(.0))]
    Joined(Vec<HandlerError>),
    /// The decision needed a capability the event lacks, under a strict policy.
    #[error(transparent)]
    Unsupported(#[from] UnsupportedError),
    /// The deadline passed before the handlers answered.
    #[error("handlers did not answer before the deadline")]
    Timeout,
}

fn join(errs: &[HandlerError]) -> String {
    errs.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// A plain message error, for [`HandlerError::msg`].
#[derive(Debug)]
struct Message(String);

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl StdError for Message {}

impl HandlerError {
    /// Wraps any error.
    pub fn new(e: impl StdError + Send + Sync + 'static) -> Self {
        Self::Failed(Box::new(e))
    }

    /// An error from a message.
    pub fn msg(m: impl fmt::Display) -> Self {
        Self::Failed(Box::new(Message(m.to_string())))
    }

    /// Joins errors (one error stays itself).
    pub fn join(mut errs: Vec<HandlerError>) -> Self {
        if errs.len() == 1 {
            errs.remove(0)
        } else {
            Self::Joined(errs)
        }
    }
}

macro_rules! handler_from {
    ($($t:ty),*) => {$(
        impl From<$t> for HandlerError {
            fn from(e: $t) -> Self { Self::new(e) }
        }
    )*};
}
handler_from!(std::io::Error, serde_json::Error, std::fmt::Error);

impl From<Box<dyn StdError + Send + Sync>> for HandlerError {
    fn from(e: Box<dyn StdError + Send + Sync>) -> Self {
        Self::Failed(e)
    }
}

impl From<&str> for HandlerError {
    fn from(m: &str) -> Self {
        Self::msg(m)
    }
}

impl From<String> for HandlerError {
    fn from(m: String) -> Self {
        Self::msg(m)
    }
}

crate::named_enum! {
    /// Why a payload could not be decoded.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum DecodeCategory {
        /// No bytes at all.
        Empty => "empty",
        /// Larger than the configured cap.
        Oversize => "oversize",
        /// Not valid UTF-8.
        NotUtf8 => "not-utf8",
        /// Not well-formed JSON.
        Syntax => "syntax",
        /// Well-formed JSON of the wrong shape (a required field missing, a wrong type).
        Data => "data",
        /// The event could not be identified.
        UnknownEvent => "unknown-event",
        /// The transport framing was wrong (argv payload missing, bad frame).
        Transport => "transport",
        /// Reading the input failed.
        Io => "io",
    }
}

impl DecodeCategory {
    /// Classifies a `serde_json` error.
    pub fn of_json(e: &serde_json::Error) -> Self {
        use serde_json::error::Category;
        match e.classify() {
            Category::Io => Self::Io,
            Category::Syntax => Self::Syntax,
            Category::Eof => {
                if e.line() == 1 && e.column() == 0 {
                    Self::Empty
                } else {
                    Self::Syntax
                }
            }
            Category::Data => Self::Data,
        }
    }
}

/// A payload could not be decoded. Carries the provider, the JSON path (when known), the
/// category and the message (the underlying parser's text, printed once: there is no separate
/// `source`).
///
/// ```
/// use agenthooks_core::{DecodeError, DecodeCategory, Provider};
/// #[derive(serde::Deserialize, Debug)]
/// struct P { #[allow(dead_code)] tool_name: String }
/// let bytes = br#"{"tool_name": 3}"#;
/// let err = serde_path_to_error::deserialize::<_, P>(&mut serde_json::Deserializer::from_slice(bytes)).unwrap_err();
/// let e = DecodeError::from_path_error(Provider::CLAUDE_CODE, err);
/// assert_eq!(e.category(), DecodeCategory::Data);
/// assert_eq!(e.path(), Some("tool_name"));
/// assert!(e.to_string().contains("claude-code"));
/// ```
#[derive(Debug, thiserror::Error)]
#[error("cannot decode {provider} payload ({category}){}: {message}", path_suffix(.path.as_deref()))]
#[non_exhaustive]
pub struct DecodeError {
    provider: Provider,
    category: DecodeCategory,
    path: Option<String>,
    message: String,
}

fn path_suffix(p: Option<&str>) -> String {
    match p {
        Some(p) if !p.is_empty() && p != "." => format!(" at `{p}`"),
        _ => String::new(),
    }
}

impl DecodeError {
    /// A decode error with a message.
    pub fn new(provider: Provider, category: DecodeCategory, message: impl Into<String>) -> Self {
        Self {
            provider,
            category,
            path: None,
            message: message.into(),
        }
    }

    /// From a `serde_path_to_error` error.
    pub fn from_path_error(provider: Provider, e: serde_path_to_error::Error<serde_json::Error>) -> Self {
        let path = e.path().to_string();
        let inner = e.into_inner();
        Self {
            provider,
            category: DecodeCategory::of_json(&inner),
            path: Some(path),
            message: inner.to_string(),
        }
    }

    /// From a plain `serde_json` error.
    pub fn from_json(provider: Provider, e: &serde_json::Error) -> Self {
        Self {
            provider,
            category: DecodeCategory::of_json(e),
            path: None,
            message: e.to_string(),
        }
    }

    /// Sets the JSON path.
    #[must_use]
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// The provider whose dialect was being decoded.
    pub fn provider(&self) -> &Provider {
        &self.provider
    }

    /// The category.
    pub fn category(&self) -> DecodeCategory {
        self.category
    }

    /// The JSON path of the offending value, when known.
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// Why an outcome could not be encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeCategory {
    /// The dialect can only merge updates and the decision removes keys (Gemini `tool_input`).
    LossyUpdate,
    /// The outcome's family does not fit the event.
    WrongFamily,
    /// Serialization failed.
    Serialize,
    /// The outcome carries an intent the dialect cannot express for this event (it should have
    /// been degraded; codecs refuse rather than drop it).
    Unsupported,
}

/// An outcome could not be encoded; the runner answers with the failure policy instead.
///
/// Opaque like [`DecodeError`]: build it with [`EncodeError::unsupported`] ("the agent cannot
/// express this here"), [`EncodeError::wrong_family`] (a decision of another family) or
/// [`EncodeError::new`], read it with the accessors.
///
/// ```
/// use agenthooks_core::{Capability, EncodeCategory, EncodeError, Provider};
/// let e = EncodeError::unsupported(Provider::CODEX, "PreToolUse", Capability::Ask);
/// assert_eq!(e.category(), EncodeCategory::Unsupported);
/// assert_eq!(e.to_string(), "cannot encode for codex: codex cannot express `ask` on PreToolUse");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot encode for {provider}: {message}")]
pub struct EncodeError {
    provider: Provider,
    category: EncodeCategory,
    message: String,
}

impl EncodeError {
    /// Builds an encode error.
    pub fn new(provider: Provider, category: EncodeCategory, message: impl Into<String>) -> Self {
        Self {
            provider,
            category,
            message: message.into(),
        }
    }

    /// The agent cannot express capability `cap` on the native event `native` (the outcome
    /// should have been degraded first; codecs refuse rather than drop it).
    pub fn unsupported(provider: Provider, native: &str, cap: crate::Capability) -> Self {
        let message = format!("{provider} cannot express `{cap}` on {native}");
        Self::new(provider, EncodeCategory::Unsupported, message)
    }

    /// The agent cannot express `what` (a combination no single capability names) on `native`.
    pub fn inexpressible(provider: Provider, native: &str, what: &str) -> Self {
        let message = format!("{provider} cannot express {what} on {native}");
        Self::new(provider, EncodeCategory::Unsupported, message)
    }

    /// A decision of the wrong family for the event (`decision` is its intent, e.g. `continue`).
    pub fn wrong_family(provider: Provider, native: &str, kind: crate::EventKind, decision: &str) -> Self {
        let message = format!("a {decision} decision does not fit {native} ({kind})");
        Self::new(provider, EncodeCategory::WrongFamily, message)
    }

    /// The provider.
    pub fn provider(&self) -> &Provider {
        &self.provider
    }

    /// The category.
    pub fn category(&self) -> EncodeCategory {
        self.category
    }

    /// The message (without the provider prefix).
    pub fn message(&self) -> &str {
        &self.message
    }
}
/// Under [`UnsupportedMode::Strict`](crate::UnsupportedMode::Strict), the capability a decision needed and the event lacks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the decision needs `{capability}`, which this event does not support")]
#[non_exhaustive]
pub struct UnsupportedError {
    /// The missing capability.
    pub capability: Capability,
}
