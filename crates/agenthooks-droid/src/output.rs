//! Droid's hook output, as its runner reads it (0.215.0): a JSON object on stdout (parsed when
//! the trimmed stdout starts with `{`, whatever the exit code) with these keys only. Droid reads
//! no `hookEventName`, no `updatedPermissions` and no `decision` other than `block` on `Stop`.

use agenthooks_core::WireResponse;
use serde::Serialize;
use serde_json::{Map, Value};

/// The top-level output object.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Output {
    /// `continue`: `false` stops the agent (on `UserPromptSubmit`: blocks the prompt).
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// `stopReason`: why the agent stops (the blocked prompt's reason on `UserPromptSubmit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// `systemMessage`: shown to the user (`PostToolUse`, `Stop`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// `decision`: `block` on `Stop` continues the agent with `reason`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<&'static str>,
    /// `reason`: the instruction of a `Stop` block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `hookSpecificOutput`.
    #[serde(skip_serializing_if = "HookSpecificOutput::is_empty")]
    pub hook_specific_output: HookSpecificOutput,
}

impl Output {
    /// The JSON on stdout, exit 0.
    pub fn wire(&self) -> WireResponse {
        WireResponse::stdout(serde_json::to_vec(self).unwrap_or_else(|_| b"{}".to_vec()))
    }
}

/// `hookSpecificOutput`: Droid copies exactly these four keys.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HookSpecificOutput {
    /// `permissionDecision` (`PreToolUse`): `allow`, `deny` (`ask` is only logged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<&'static str>,
    /// `permissionDecisionReason`: the deny's reason, sent to the model as the tool result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// `additionalContext`: context for the model (`PostToolUse`, `UserPromptSubmit`,
    /// `SessionStart`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// `updatedInput` (`PreToolUse`): merged over the tool input (`{...input, ...updatedInput}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
}

impl HookSpecificOutput {
    /// Whether no field is set (the object is then omitted).
    pub fn is_empty(&self) -> bool {
        self.permission_decision.is_none()
            && self.permission_decision_reason.is_none()
            && self.additional_context.is_none()
            && self.updated_input.is_none()
    }
}
