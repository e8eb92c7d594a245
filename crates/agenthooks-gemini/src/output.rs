//! Gemini CLI's hook stdout, typed after its hook output schema (`hooks/types.ts`).
//!
//! One object for every event: the universal fields (`continue`, `stopReason`,
//! `systemMessage`), the `decision` and its `reason` (a deny blocks a tool call or a prompt,
//! retries an `AfterAgent` with the reason as the next prompt, and replaces an `AfterTool`
//! result, #301, #305), and `hookSpecificOutput`. Every field is optional and omitted when
//! `None`, so the default [`Output`] is `{}`, Gemini's no-op ([`NO_OP`]); keys are
//! written in Gemini's order.
//!
//! ```
//! use agenthooks_gemini::output::Output;
//! assert_eq!(serde_json::to_string(&Output::default()).unwrap(), "{}");
//! let mut deny = Output::default();
//! deny.decision = Some("deny");
//! deny.reason = Some("no".into());
//! assert_eq!(serde_json::to_string(&deny).unwrap(), r#"{"decision":"deny","reason":"no"}"#);
//! ```

use agenthooks_core::WireResponse;
use serde::Serialize;
use serde_json::{Map, Value};

/// The answer for "no decision": an explicit empty JSON object (quirk #11).
pub const NO_OP: &[u8] = b"{}";

/// A hook's stdout object.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Output<'a> {
    /// `continue: false` stops the agent loop.
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub keep_going: Option<bool>,
    /// `stopReason`: shown when `continue` is `false`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<&'a str>,
    /// `systemMessage`: shown to the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<&'a str>,
    /// `decision`: `deny` or `ask`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<&'static str>,
    /// `reason`: the text of the decision (shown to the model and the user).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `hookSpecificOutput`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<HookSpecificOutput<'a>>,
}

impl Output<'_> {
    /// The answer: exit 0 with this object on stdout.
    pub fn wire(&self) -> WireResponse {
        WireResponse::stdout(serde_json::to_vec(self).unwrap_or_else(|_| NO_OP.to_vec()))
    }
}

/// `hookSpecificOutput`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HookSpecificOutput<'a> {
    /// `hookEventName`: the event answered.
    pub hook_event_name: &'a str,
    /// `tool_input` (`BeforeTool`): merged shallowly into the tool's arguments (quirk #12).
    #[serde(rename = "tool_input", skip_serializing_if = "Option::is_none")]
    pub tool_input: Option<&'a Map<String, Value>>,
    /// `additionalContext`: context for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
}
