//! Claude Code's hook stdout, typed after the hooks reference's "JSON output".
//!
//! One object for every event: the universal fields at the top (`continue`, `stopReason`,
//! `systemMessage`), the top-level `decision: "block"` + `reason` of the prompt, stop and
//! post-tool events, and `hookSpecificOutput`, which names its event (`hookEventName`) and
//! carries the per-event fields. Every field is optional and omitted when `None`, and
//! `hookSpecificOutput` is omitted when it holds nothing but the name, so the default
//! [`Output`] is `{}`, Claude's explicit "no opinion" (quirk #17). Keys are written in the
//! order of Claude's docs.
//!
//! ```
//! use agenthooks_claude::output::{HookSpecificOutput, Output};
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

use serde::Serialize;
use serde_json::{Map, Value};

/// A hook's stdout object.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Output {
    /// `continue: false` stops the whole agent.
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// `stopReason`: shown to the user when `continue` is `false`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// `systemMessage`: shown to the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// `decision: "block"`: rejects the prompt, continues a stopping agent, or feeds `reason`
    /// back after a tool, depending on the event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<&'static str>,
    /// `reason`: the text of the block.
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
}

/// `hookSpecificOutput`: the per-event fields, after the event's name.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HookSpecificOutput {
    /// `hookEventName`: the event answered.
    pub hook_event_name: String,
    /// `permissionDecision` (`PreToolUse`): `allow`, `deny` or `ask`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<&'static str>,
    /// `permissionDecisionReason`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// `updatedInput` (`PreToolUse`, with an allow or an ask): replaces the tool input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// `decision` (`PermissionRequest`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<PermissionRequestDecision>,
    /// `additionalContext`: context for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// `updatedToolOutput` (`PostToolUse`): replaces the tool output the model sees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_tool_output: Option<Value>,
    /// `updatedMCPToolOutput`: the same for MCP tools, as releases before `updatedToolOutput`
    /// read it.
    #[serde(rename = "updatedMCPToolOutput", skip_serializing_if = "Option::is_none")]
    pub updated_mcp_tool_output: Option<Value>,
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
            && self.updated_input.is_none()
            && self.decision.is_none()
            && self.additional_context.is_none()
            && self.updated_tool_output.is_none()
            && self.updated_mcp_tool_output.is_none()
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
    /// `message` (with `deny`): why, for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `interrupt: true` (with `deny`): stops the agent too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<bool>,
}

impl PermissionRequestDecision {
    /// A decision with this behavior and nothing else.
    pub fn new(behavior: &'static str) -> Self {
        Self {
            behavior,
            updated_input: None,
            message: None,
            interrupt: None,
        }
    }
}
