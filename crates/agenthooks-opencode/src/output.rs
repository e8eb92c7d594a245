//! The reply the OpenCode shim receives for a hook, typed after `serve`'s reply envelope.
//!
//! A reply is one object of at most three keys: `error` (the shim throws it, which blocks where
//! OpenCode lets a hook block), `output` (assigned in place onto the hook's `output` argument) and
//! `effects` (requests the daemon itself sends to OpenCode's server after answering: a permission
//! reply, a follow-up prompt). Every field is optional and omitted when `None`, so the default
//! [`Reply`] is `{}`: the shim assigns nothing, throws nothing.
//!
//! ```
//! use agenthooks_opencode::output::{OutputPatch, Reply};
//! assert_eq!(serde_json::to_string(&Reply::default()).unwrap(), "{}");
//! assert_eq!(serde_json::to_string(&Reply::error("no")).unwrap(), r#"{"error":"no"}"#);
//! let mut patch = OutputPatch::default();
//! patch.output = Some("redacted".into());
//! assert_eq!(serde_json::to_string(&Reply::output(patch)).unwrap(), r#"{"output":{"output":"redacted"}}"#);
//!
//! use agenthooks_opencode::output::{Body, Effect, Query, Request};
//! let v1 = Request::post("/session/s/permissions/p".into(), Query::directory(Some("/w")), Body::Response { response: "reject" });
//! assert_eq!(
//!     serde_json::to_string(&Reply::effect(Effect::Http(v1))).unwrap(),
//!     r#"{"effects":[{"http":{"method":"POST","path":"/session/s/permissions/p","query":{"directory":"/w"},"body":{"response":"reject"}}}]}"#
//! );
//! assert_eq!(serde_json::to_string(&Query::directory(Some(""))).unwrap(), "{}");
//! ```

use serde::Serialize;
use serde_json::{Map, Value};

/// The `metadata.agenthooks` marker of a text part the library added.
pub const MARKER_KEY: &str = "agenthooks";

/// A hook's reply envelope.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Reply {
    /// `error`: thrown by the shim (blocks `tool.execute.before` and `chat.message`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// `output`: assigned onto the hook's `output` argument.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<OutputPatch>,
    /// `effects`: requests the daemon sends after answering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<Vec<Effect>>,
}

impl Reply {
    /// `{"error": reason}`.
    pub fn error(reason: impl Into<String>) -> Self {
        Self {
            error: Some(reason.into()),
            ..Self::default()
        }
    }

    /// `{"output": patch}`.
    pub fn output(patch: OutputPatch) -> Self {
        Self {
            output: Some(patch),
            ..Self::default()
        }
    }

    /// `{"effects": [effect]}`.
    pub fn effect(effect: Effect) -> Self {
        Self {
            effects: Some(vec![effect]),
            ..Self::default()
        }
    }
}

/// What is assigned onto a hook's `output`: one field per hook that takes one.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct OutputPatch {
    /// `args` (`tool.execute.before`): the tool's arguments, replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<Map<String, Value>>,
    /// `parts` (`chat.message`): the message's parts, with the context part appended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<Value>>,
    /// `output` (`tool.execute.after`): the tool output the model sees, replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// `context` (`experimental.session.compacting`): the compaction context, extended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<Vec<String>>,
}

/// One effect the daemon runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Effect {
    /// `{"http": request}`: a request to OpenCode's server.
    Http(Request),
}

/// An HTTP request to OpenCode's server, with the route to try when the first is unknown.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Request {
    /// `method`.
    pub method: &'static str,
    /// `path`, its segments percent-encoded.
    pub path: String,
    /// `query`: `{}` or `{"directory"}`, the instance the session belongs to.
    pub query: Query,
    /// `body`.
    pub body: Body,
    /// `fallback`: the older route, tried when the server does not know `path`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Box<Request>>,
}

impl Request {
    /// A `POST` to `path`.
    pub fn post(path: String, query: Query, body: Body) -> Self {
        Self {
            method: "POST",
            path,
            query,
            body,
            fallback: None,
        }
    }
}

/// The query string of a [`Request`].
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Query {
    /// `directory`: the instance's directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub directory: Option<String>,
}

impl Query {
    /// `{"directory": d}` for a non-empty `d`, else `{}`.
    pub fn directory(d: Option<&str>) -> Self {
        Self {
            directory: d.filter(|d| !d.is_empty()).map(str::to_owned),
        }
    }
}

/// The body of a [`Request`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Body {
    /// A prompt: `{"parts": […]}`.
    Prompt {
        /// `parts`.
        parts: Vec<TextPart>,
    },
    /// A permission reply (v2): `{"reply", "message"?}`.
    Reply {
        /// `reply`: `once` or `reject`.
        reply: &'static str,
        /// `message`: why it was rejected.
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// A permission response (v1): `{"response"}`.
    Response {
        /// `response`: `once` or `reject`.
        response: &'static str,
    },
}

/// A synthetic text part (OpenCode's `TextPart`), marked as ours in `metadata`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TextPart {
    /// `id` (a part appended to a message).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// `sessionID`.
    #[serde(rename = "sessionID", skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// `messageID`.
    #[serde(rename = "messageID", skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// `type`: `text`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `text`.
    pub text: String,
    /// `synthetic: true`: not typed by the user.
    pub synthetic: bool,
    /// `metadata`: `{"agenthooks": mark}`.
    pub metadata: Map<String, Value>,
}

impl TextPart {
    /// A synthetic text part carrying `mark` under [`MARKER_KEY`].
    pub fn marked(text: impl Into<String>, mark: &str) -> Self {
        let mut metadata = Map::new();
        metadata.insert(MARKER_KEY.to_owned(), Value::String(mark.to_owned()));
        Self {
            id: None,
            session_id: None,
            message_id: None,
            kind: "text",
            text: text.into(),
            synthetic: true,
            metadata,
        }
    }
}
