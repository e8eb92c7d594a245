//! Qwen Code's hook stdout, typed after its `HookOutput` classes (`hooks/types.ts`).
//!
//! One object for every event: the universal fields (`continue`, `stopReason`,
//! `systemMessage`), the top-level `decision: "block"` + `reason` (blocks a prompt, continues a
//! stopping agent, rejects a todo change), and `hookSpecificOutput`, which names its event and
//! carries `permissionDecision` (`PreToolUse`), `decision` (`PermissionRequest`) and
//! `additionalContext`. Every field is optional and omitted when `None`;
//! `hookSpecificOutput` is omitted when it holds only the name, so the default [`Output`] is
//! `{}`, Qwen's "no decision".
//!
//! ```
//! use agenthooks_qwen::output::{HookSpecificOutput, Output};
//! assert_eq!(serde_json::to_string(&Output::default()).unwrap(), "{}");
//! let mut deny = Output::default();
//! deny.hook_specific_output = HookSpecificOutput::named("PreToolUse");
//! deny.hook_specific_output.permission_decision = Some("deny");
//! deny.hook_specific_output.permission_decision_reason = Some("no".into());
//! assert_eq!(
//!     serde_json::to_string(&deny).unwrap(),
//!     r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#
//! );
//! assert_eq!(serde_json::to_string(&Output::block("no")).unwrap(), r#"{"decision":"block","reason":"no"}"#);
//! ```

use agenthooks_core::WireResponse;
use serde::Serialize;
use serde_json::{Map, Value};

/// The answer for "no decision": an explicit empty JSON object.
pub const NO_OP: &[u8] = b"{}";

/// A hook's stdout object.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Output {
    /// `continue: false` stops the agent (on `Stop`/`SubagentStop` it continues it, quirk 905).
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// `stopReason`: shown when `continue` is `false`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// `systemMessage`: shown to the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// `decision: "block"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<&'static str>,
    /// `reason`: the text of the block (the next prompt on `Stop`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `hookSpecificOutput` (omitted when it holds only the event name).
    #[serde(skip_serializing_if = "HookSpecificOutput::is_empty")]
    pub hook_specific_output: HookSpecificOutput,
}

impl Output {
    /// The top-level block: `{"decision": "block", "reason": reason}`.
    pub fn block(reason: impl Into<String>) -> Self {
        Self {
            decision: Some("block"),
            reason: Some(reason.into()),
            ..Self::default()
        }
    }

    /// The answer: exit 0 with this object on stdout.
    pub fn wire(&self) -> WireResponse {
        WireResponse::stdout(serde_json::to_vec(self).unwrap_or_else(|_| NO_OP.to_vec()))
    }
}

/// `hookSpecificOutput`: the per-event fields, after the event's name.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HookSpecificOutput {
    /// `hookEventName`: the event answered.
    pub hook_event_name: String,
    /// `permissionDecision` (`PreToolUse`): `deny` or `ask`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<&'static str>,
    /// `permissionDecisionReason`: what the model reads as the tool's error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// `decision` (`PermissionRequest`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<PermissionRequestDecision>,
    /// `additionalContext`: context for the model (`<` and `>` escaped by Qwen).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
}

impl HookSpecificOutput {
    /// The fields of `event`, none set yet.
    pub fn named(event: impl Into<String>) -> Self {
        Self {
            hook_event_name: event.into(),
            ..Self::default()
        }
    }

    /// Whether no field but the name is set (the object is then not written).
    pub fn is_empty(&self) -> bool {
        self.permission_decision.is_none()
            && self.permission_decision_reason.is_none()
            && self.decision.is_none()
            && self.additional_context.is_none()
    }
}

/// `hookSpecificOutput.decision` of `PermissionRequest`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PermissionRequestDecision {
    /// `behavior`: `allow` or `deny`.
    pub behavior: &'static str,
    /// `updatedInput` (with `allow`): replaces the tool input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// `message` (with `deny`): why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl PermissionRequestDecision {
    /// A decision with this behavior and nothing else.
    pub fn new(behavior: &'static str) -> Self {
        Self {
            behavior,
            updated_input: None,
            message: None,
        }
    }
}
