//! Copilot CLI's hook stdout, typed.
//!
//! Copilot reads its own fields at the top level, camelCase (quirk 409): `permissionDecision`
//! and `permissionDecisionReason` and `modifiedArgs` on `preToolUse`, `behavior` and `message`
//! on `permissionRequest`, `decision: "block"` and `reason` on the stop events, and
//! `additionalContext`. A hook of the PascalCase (VS Code) dialect may read Claude's
//! `hookSpecificOutput` instead (quirk 402), so its answer carries both. Every field is
//! optional and omitted when `None`; the codec answers the empty object with empty stdout,
//! Copilot's "no decision".
//!
//! ```
//! use agenthooks_copilot::output::Output;
//! let mut deny = Output::default();
//! deny.verdict.permission_decision = Some("deny");
//! deny.verdict.permission_decision_reason = Some("no");
//! assert_eq!(
//!     serde_json::to_string(&deny).unwrap(),
//!     r#"{"permissionDecision":"deny","permissionDecisionReason":"no"}"#
//! );
//! ```

use serde::Serialize;
use serde_json::{Map, Value};

/// A hook's stdout object: the camelCase dialect's fields, then the Claude-compatible twin.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Output<'a> {
    /// `permissionDecision` and its reason (`preToolUse`).
    #[serde(flatten)]
    pub verdict: Verdict<'a>,
    /// `modifiedArgs` (`preToolUse`): replaces the tool's arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified_args: Option<&'a Map<String, Value>>,
    /// `behavior` (`permissionRequest`): `allow` or `deny`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub behavior: Option<&'static str>,
    /// `message` (`permissionRequest`): why it was denied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<&'a str>,
    /// `decision: "block"` (`agentStop`, `subagentStop`): keeps the agent going.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<&'static str>,
    /// `reason`: the instruction that keeps it going.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
    /// `additionalContext`: context for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// `hookSpecificOutput`: the Claude-compatible twin of a PascalCase hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<HookSpecificOutput<'a>>,
}

/// `permissionDecision` and `permissionDecisionReason`: the tool gate's verdict, written in both
/// objects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Verdict<'a> {
    /// `permissionDecision`: `allow`, `deny` or `ask`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<&'static str>,
    /// `permissionDecisionReason`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<&'a str>,
}

/// The Claude-compatible `hookSpecificOutput` of a PascalCase hook.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HookSpecificOutput<'a> {
    /// `hookEventName`: the event answered, PascalCase.
    pub hook_event_name: String,
    /// `permissionDecision` and its reason, as at the top level.
    #[serde(flatten)]
    pub verdict: Verdict<'a>,
    /// `updatedInput`: replaces the tool's arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<&'a Map<String, Value>>,
    /// `additionalContext`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// `decision` (`PermissionRequest`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<PermissionBehavior<'a>>,
}

/// `{behavior, message}` inside `hookSpecificOutput.decision`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PermissionBehavior<'a> {
    /// `behavior`: `allow` or `deny`.
    pub behavior: &'static str,
    /// `message`: why it was denied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<&'a str>,
}
