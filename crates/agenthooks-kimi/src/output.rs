//! Kimi Code's hook stdout, typed after its `HookJsonOutputSchema` (`runHook.ts`), reduced to
//! what Kimi acts on.
//!
//! The only decision Kimi honours is a deny in `hookSpecificOutput` (it blocks a tool call or a
//! prompt, and keeps a stopping agent going with the reason as its next input); the top-level
//! `message` is a prompt's context, or what Kimi records for a blocked prompt. Every field is
//! optional and omitted when `None`; the codec answers "no decision" with empty stdout.
//!
//! ```
//! use agenthooks_kimi::output::{HookSpecificOutput, Output};
//! let deny = Output::deny("no", None);
//! assert_eq!(
//!     serde_json::to_string(&deny).unwrap(),
//!     r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}"#
//! );
//! # let _ = HookSpecificOutput::deny("no");
//! ```

use agenthooks_core::WireResponse;
use serde::Serialize;

/// A hook's stdout object.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Output<'a> {
    /// `hookSpecificOutput`: the deny.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<HookSpecificOutput<'a>>,
    /// `message`: a prompt's context, or what Kimi records for a blocked prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<&'a str>,
}

impl<'a> Output<'a> {
    /// A deny with this reason, and the optional top-level `message`.
    pub fn deny(reason: &'a str, message: Option<&'a str>) -> Self {
        Self {
            hook_specific_output: Some(HookSpecificOutput::deny(reason)),
            message,
        }
    }

    /// The answer: exit 0 with this object on stdout.
    pub fn wire(&self) -> WireResponse {
        WireResponse::stdout(serde_json::to_vec(self).unwrap_or_else(|_| b"{}".to_vec()))
    }
}

/// `hookSpecificOutput` of a block.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HookSpecificOutput<'a> {
    /// `permissionDecision`: always `deny`.
    pub permission_decision: &'static str,
    /// `permissionDecisionReason`: shown to the model (and, on a prompt, the user).
    pub permission_decision_reason: &'a str,
}

impl<'a> HookSpecificOutput<'a> {
    /// `{"permissionDecision": "deny", "permissionDecisionReason": reason}`.
    pub fn deny(reason: &'a str) -> Self {
        Self {
            permission_decision: "deny",
            permission_decision_reason: reason,
        }
    }
}
