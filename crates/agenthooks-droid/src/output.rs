//! Droid's hook output, as its runner reads it (0.215.0): a JSON object on stdout (parsed when
//! the trimmed stdout starts with `{`, whatever the exit code) with these keys only. Droid reads
//! no `hookEventName`, no `updatedPermissions` and no `decision` other than `block` on `Stop`.

use agenthooks_core::kit::claude_family::{self, HookSpecific};
use serde::Serialize;
use serde_json::{Map, Value};

/// The top-level output object: the family's [`claude_family::Output`]. Droid reads
/// `continue: false` as "stop the agent" (on `UserPromptSubmit`: block the prompt, with
/// `stopReason` as its reason), `systemMessage` on `PostToolUse` and `Stop`, and
/// `decision: "block"` + `reason` on `Stop` only (it continues the agent with `reason`).
pub type Output = claude_family::Output<HookSpecificOutput>;

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

/// Droid's `hookSpecificOutput` deviates from the family's
/// [`claude_family::HookSpecificOutput`]: no `hookEventName`, and `updatedInput` after
/// `additionalContext`.
impl HookSpecific for HookSpecificOutput {
    /// Whether no field is set (the object is then omitted).
    fn is_empty(&self) -> bool {
        self.permission_decision.is_none()
            && self.permission_decision_reason.is_none()
            && self.additional_context.is_none()
            && self.updated_input.is_none()
    }
}
