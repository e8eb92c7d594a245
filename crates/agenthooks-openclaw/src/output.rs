//! What the OpenClaw shim returns to OpenClaw for a hook, typed after the plugin SDK's hook
//! result types.
//!
//! The shim hands the handler result to OpenClaw verbatim, so each struct is one hook's result
//! type: [`ToolCallResult`] (`before_tool_call`), [`PromptResult`] (`before_agent_run` blocks,
//! `before_prompt_build` prepends context) and [`FinalizeResult`] (`before_agent_finalize`).
//! Every field is optional and omitted when `None`; an empty result is the no-op, which the
//! codec writes as no output at all (the shim then returns nothing, OpenClaw's "pass").
//!
//! ```
//! use agenthooks_openclaw::output::ToolCallResult;
//! let deny = ToolCallResult::block("no");
//! assert_eq!(serde_json::to_string(&deny).unwrap(), r#"{"block":true,"blockReason":"no"}"#);
//! assert!(ToolCallResult::default().is_empty());
//! ```

use serde::Serialize;
use serde_json::{Map, Value};

/// `before_tool_call`'s result.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolCallResult {
    /// `block: true` stops the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<bool>,
    /// `blockReason`: why, for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_reason: Option<String>,
    /// `requireApproval`: ask the user first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub require_approval: Option<Approval>,
    /// `params`: replaces the tool's arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<Map<String, Value>>,
}

impl ToolCallResult {
    /// `{"block": true, "blockReason": reason}`.
    pub fn block(reason: impl Into<String>) -> Self {
        Self {
            block: Some(true),
            block_reason: Some(reason.into()),
            ..Self::default()
        }
    }

    /// Whether nothing is set (the no-op).
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// `requireApproval` of [`ToolCallResult`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Approval {
    /// `title` of the approval prompt.
    pub title: String,
    /// `description`: why the hook asks.
    pub description: String,
}

impl Approval {
    /// An approval prompt.
    pub fn new(title: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            description: description.into(),
        }
    }
}

/// `before_agent_run`'s and `before_prompt_build`'s result.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptResult {
    /// `outcome: "block"` rejects the prompt (`before_agent_run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<&'static str>,
    /// `reason`: why, for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `message`: what the user is shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `prependContext`: context for the model (`before_prompt_build`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prepend_context: Option<String>,
}

impl PromptResult {
    /// Whether nothing is set (the no-op).
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// `before_agent_finalize`'s result.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct FinalizeResult {
    /// `action: "revise"` keeps the agent going.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<&'static str>,
    /// `reason`: the instruction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `retry`: what the next turn is told.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<Retry>,
}

impl FinalizeResult {
    /// Keep going with `instruction`: `{"action": "revise", "reason", "retry": {"instruction"}}`.
    pub fn revise(instruction: impl Into<String>) -> Self {
        let instruction = instruction.into();
        Self {
            action: Some("revise"),
            reason: Some(instruction.clone()),
            retry: Some(Retry { instruction }),
        }
    }
}

/// `retry` of [`FinalizeResult`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Retry {
    /// `instruction`: the next turn's input.
    pub instruction: String,
}
