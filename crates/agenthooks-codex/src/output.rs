//! Codex's hook stdout, typed after its `*.command.output.schema.json` files.
//!
//! Codex deserialises a hook's stdout into closed wire types (`additionalProperties: false`,
//! `deny_unknown_fields`): one unknown key and the whole result is invalid, the run is marked
//! failed and has **no effect** (fail-open). These structs mirror that: camelCase names,
//! `deny_unknown_fields`, and every field optional and omitted when `None`, so serialising one
//! never writes a key Codex does not know nor a `null` its schema forbids.
//!
//! Schema validity is not enough: Codex's output parser also rejects some well-typed shapes
//! (a bare `allow`, `ask`, a `deny` without a reason, …). Each struct's `invalid_reason` method
//! reproduces those rules for 0.171.0 (`codex-rs/hooks/src/engine/output_parser.rs`), so tests
//! can assert that an encoder only produces results Codex acts on.
//!
//! Events without an output type: `SessionEnd` (nothing is read) and `StopFailure`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The trimmed, non-empty form of a reason, as Codex checks it.
fn non_empty(text: Option<&str>) -> bool {
    text.is_some_and(|text| !text.trim().is_empty())
}

/// The rules Codex applies to the universal fields on gating tool events.
fn tool_gate_universal(
    event: &str,
    continue_processing: Option<bool>,
    stop_reason: Option<&String>,
    suppress_output: Option<bool>,
) -> Option<String> {
    if continue_processing == Some(false) {
        Some(format!("{event} hook returned unsupported continue:false"))
    } else if stop_reason.is_some() {
        Some(format!("{event} hook returned unsupported stopReason"))
    } else if suppress_output == Some(true) {
        Some(format!("{event} hook returned unsupported suppressOutput"))
    } else {
        None
    }
}

fn invalid_block(event: &str) -> String {
    format!("{event} hook returned decision:block without a non-empty reason")
}

/// The universal fields every output struct starts with, set together (see [`output_struct!`]).
pub(crate) trait Universal {
    /// The struct with only the universal fields set.
    fn universal(
        continue_processing: Option<bool>,
        stop_reason: Option<String>,
        system_message: Option<String>,
    ) -> Self;
}

/// Declares an output struct with the universal fields (`continue`, `stopReason`,
/// `suppressOutput`, `systemMessage`) followed by the event's own optional fields.
///
/// `pub struct X block("Event") { … }` also gives it `decision` (only `block`) and `reason`
/// before its own fields, and the one rule Codex applies to them (`invalid_reason`: a `block`
/// needs a non-empty `reason`).
macro_rules! output_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident block($event:literal) { $($fields:tt)* }
    ) => {
        output_struct! {
            $(#[$meta])*
            pub struct $name {
                /// `block`: see the struct's docs; needs a non-empty `reason`.
                pub decision: Option<BlockDecision>,
                /// The reason, prompt or feedback that goes with `block`.
                pub reason: Option<String>,
                $($fields)*
            }
        }

        impl $name {
            /// Why Codex 0.171.0 would reject this result (run failed, no effect), or `None`.
            pub fn invalid_reason(&self) -> Option<String> {
                (self.decision == Some(BlockDecision::Block) && !non_empty(self.reason.as_deref()))
                    .then(|| invalid_block($event))
            }
        }
    };
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        #[non_exhaustive]
        pub struct $name {
            /// `continue`: `false` stops the turn (Codex's default is `true`).
            #[serde(rename = "continue", default, skip_serializing_if = "Option::is_none")]
            pub continue_processing: Option<bool>,
            /// `stopReason`: shown when `continue` is `false`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub stop_reason: Option<String>,
            /// `suppressOutput` (default `false`).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub suppress_output: Option<bool>,
            /// `systemMessage`: a warning line shown to the user.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub system_message: Option<String>,
            $(
                $(#[$fmeta])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: $ty,
            )*
        }

        impl Universal for $name {
            fn universal(
                continue_processing: Option<bool>,
                stop_reason: Option<String>,
                system_message: Option<String>,
            ) -> Self {
                Self { continue_processing, stop_reason, system_message, ..Self::default() }
            }
        }
    };
}

/// A `decision` that can only be `block`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum BlockDecision {
    /// `block`: needs a non-empty `reason`.
    Block,
}

/// `PreToolUse`'s legacy top-level `decision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum PreToolUseDecision {
    /// `approve`: schema-valid but **rejected** by Codex's parser.
    Approve,
    /// `block`: blocks the call; needs a non-empty `reason`.
    Block,
}

/// `hookSpecificOutput.permissionDecision` of `PreToolUse`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum PermissionDecision {
    /// `allow`: valid **only** together with `updatedInput` (the rewrite vehicle).
    Allow,
    /// `deny`: needs a non-empty `permissionDecisionReason`.
    Deny,
    /// `ask`: schema-valid but **rejected** by Codex's parser.
    Ask,
}

/// `hookSpecificOutput.decision.behavior` of `PermissionRequest`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum PermissionBehavior {
    /// Approve without prompting.
    Allow,
    /// Deny; `message` (or a stock text) goes to the model.
    Deny,
}

/// `hookSpecificOutput` of `PreToolUse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct PreToolUseHookSpecificOutput {
    /// Always `"PreToolUse"`.
    pub hook_event_name: String,
    /// The permission decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<PermissionDecision>,
    /// The reason (required and non-empty for `deny`; invalid without a decision).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// A full replacement of `tool_input` (only with `allow`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
}

impl Default for PreToolUseHookSpecificOutput {
    fn default() -> Self {
        Self {
            hook_event_name: "PreToolUse".to_owned(),
            permission_decision: None,
            permission_decision_reason: None,
            updated_input: None,
            additional_context: None,
        }
    }
}

/// `hookSpecificOutput.decision` of `PermissionRequest`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct PermissionRequestDecision {
    /// Allow or deny.
    pub behavior: PermissionBehavior,
    /// Reserved: `true` makes the result invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<bool>,
    /// The deny message for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Reserved: present makes the result invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// Reserved: present makes the result invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_permissions: Option<Value>,
}

impl PermissionRequestDecision {
    /// A decision with just a behavior.
    pub fn new(behavior: PermissionBehavior) -> Self {
        Self {
            behavior,
            interrupt: None,
            message: None,
            updated_input: None,
            updated_permissions: None,
        }
    }
}

/// `hookSpecificOutput` of `PermissionRequest`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct PermissionRequestHookSpecificOutput {
    /// Always `"PermissionRequest"`.
    pub hook_event_name: String,
    /// The decision; absent means "show the normal approval prompt".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<PermissionRequestDecision>,
}

impl Default for PermissionRequestHookSpecificOutput {
    fn default() -> Self {
        Self {
            hook_event_name: "PermissionRequest".to_owned(),
            decision: None,
        }
    }
}

/// `hookSpecificOutput` of `PostToolUse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct PostToolUseHookSpecificOutput {
    /// Always `"PostToolUse"`.
    pub hook_event_name: String,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// Replaces an MCP tool's result (0.171.0 replaces MCP output only).
    #[serde(rename = "updatedMCPToolOutput", default, skip_serializing_if = "Option::is_none")]
    pub updated_mcp_tool_output: Option<Value>,
}

impl Default for PostToolUseHookSpecificOutput {
    fn default() -> Self {
        Self {
            hook_event_name: "PostToolUse".to_owned(),
            additional_context: None,
            updated_mcp_tool_output: None,
        }
    }
}

/// `hookSpecificOutput` carrying only `additionalContext` (`UserPromptSubmit`, `SessionStart`,
/// `SubagentStart`); `hook_event_name` names the event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct ContextHookSpecificOutput {
    /// The event name: `UserPromptSubmit`, `SessionStart` or `SubagentStart`.
    pub hook_event_name: String,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
}

impl ContextHookSpecificOutput {
    /// Context for `event`.
    pub fn new(event: &str, additional_context: Option<String>) -> Self {
        Self {
            hook_event_name: event.to_owned(),
            additional_context,
        }
    }
}

output_struct! {
    /// `pre-tool-use.command.output`.
    pub struct PreToolUseOutput {
        /// Legacy `decision` (`block` + `reason` blocks; `approve` is rejected).
        pub decision: Option<PreToolUseDecision>,
        /// Legacy `reason` (with `decision: "block"`).
        pub reason: Option<String>,
        /// The Claude-style decision block.
        pub hook_specific_output: Option<PreToolUseHookSpecificOutput>,
    }
}

impl PreToolUseOutput {
    /// Why Codex 0.171.0 would reject this result (run failed, no effect), or `None`.
    pub fn invalid_reason(&self) -> Option<String> {
        if let Some(reason) = tool_gate_universal(
            "PreToolUse",
            self.continue_processing,
            self.stop_reason.as_ref(),
            self.suppress_output,
        ) {
            return Some(reason);
        }
        let hso = self.hook_specific_output.as_ref().filter(|hso| {
            hso.permission_decision.is_some() || hso.permission_decision_reason.is_some() || hso.updated_input.is_some()
        });
        if let Some(hso) = hso {
            let allow = hso.permission_decision == Some(PermissionDecision::Allow);
            if hso.updated_input.is_some() && !allow {
                return Some("PreToolUse hook returned updatedInput without permissionDecision:allow".to_owned());
            }
            return match hso.permission_decision {
                Some(PermissionDecision::Allow) => hso
                    .updated_input
                    .is_none()
                    .then(|| "PreToolUse hook returned unsupported permissionDecision:allow".to_owned()),
                Some(PermissionDecision::Ask) => {
                    Some("PreToolUse hook returned unsupported permissionDecision:ask".to_owned())
                }
                Some(PermissionDecision::Deny) => (!non_empty(hso.permission_decision_reason.as_deref())).then(|| {
                    "PreToolUse hook returned permissionDecision:deny without a non-empty \
                     permissionDecisionReason"
                        .to_owned()
                }),
                None => Some("PreToolUse hook returned permissionDecisionReason without permissionDecision".to_owned()),
            };
        }
        match self.decision {
            Some(PreToolUseDecision::Approve) => {
                Some("PreToolUse hook returned unsupported decision:approve".to_owned())
            }
            Some(PreToolUseDecision::Block) => {
                (!non_empty(self.reason.as_deref())).then(|| invalid_block("PreToolUse"))
            }
            None => self
                .reason
                .is_some()
                .then(|| "PreToolUse hook returned reason without decision".to_owned()),
        }
    }
}

output_struct! {
    /// `permission-request.command.output`.
    pub struct PermissionRequestOutput {
        /// The decision block.
        pub hook_specific_output: Option<PermissionRequestHookSpecificOutput>,
    }
}

impl PermissionRequestOutput {
    /// Why Codex 0.171.0 would reject this result (run failed, no effect), or `None`.
    pub fn invalid_reason(&self) -> Option<String> {
        if let Some(reason) = tool_gate_universal(
            "PermissionRequest",
            self.continue_processing,
            self.stop_reason.as_ref(),
            self.suppress_output,
        ) {
            return Some(reason);
        }
        let decision = self
            .hook_specific_output
            .as_ref()
            .and_then(|hso| hso.decision.as_ref())?;
        if decision.updated_input.is_some() {
            Some("PermissionRequest hook returned unsupported updatedInput".to_owned())
        } else if decision.updated_permissions.is_some() {
            Some("PermissionRequest hook returned unsupported updatedPermissions".to_owned())
        } else if decision.interrupt == Some(true) {
            Some("PermissionRequest hook returned unsupported interrupt:true".to_owned())
        } else {
            None
        }
    }
}

output_struct! {
    /// `post-tool-use.command.output`.
    pub struct PostToolUseOutput {
        /// `block`: `reason` is fed back to the model (the tool already ran).
        pub decision: Option<BlockDecision>,
        /// The feedback for the model.
        pub reason: Option<String>,
        /// Context and MCP output replacement.
        pub hook_specific_output: Option<PostToolUseHookSpecificOutput>,
    }
}

impl PostToolUseOutput {
    /// Why Codex 0.171.0 would reject this result (run failed, no effect), or `None`.
    pub fn invalid_reason(&self) -> Option<String> {
        if self.suppress_output == Some(true) {
            return Some("PostToolUse hook returned unsupported suppressOutput".to_owned());
        }
        let block = self.decision == Some(BlockDecision::Block);
        if block && !non_empty(self.reason.as_deref()) {
            Some(invalid_block("PostToolUse"))
        } else if !block && self.continue_processing != Some(false) && self.reason.is_some() {
            Some("PostToolUse hook returned reason without decision".to_owned())
        } else {
            None
        }
    }
}

output_struct! {
    /// `user-prompt-submit.command.output`.
    ///
    /// `decision: "block"`: the prompt is not sent; `reason` is shown.
    pub struct UserPromptSubmitOutput block("UserPromptSubmit") {
        /// Context for the model.
        pub hook_specific_output: Option<ContextHookSpecificOutput>,
    }
}

output_struct! {
    /// `stop.command.output`.
    ///
    /// `decision: "block"`: Codex continues the turn with `reason` as the next prompt.
    pub struct StopOutput block("Stop") {
    }
}

output_struct! {
    /// `subagent-stop.command.output`.
    ///
    /// `decision: "block"`: the subagent continues with `reason` as its next prompt.
    pub struct SubagentStopOutput block("SubagentStop") {
    }
}

output_struct! {
    /// `session-start.command.output`.
    pub struct SessionStartOutput {
        /// Context for the model.
        pub hook_specific_output: Option<ContextHookSpecificOutput>,
    }
}

output_struct! {
    /// `subagent-start.command.output`.
    pub struct SubagentStartOutput {
        /// Context for the subagent.
        pub hook_specific_output: Option<ContextHookSpecificOutput>,
    }
}

output_struct! {
    /// `pre-compact.command.output`: universal fields only.
    pub struct PreCompactOutput {}
}

output_struct! {
    /// `post-compact.command.output`: universal fields only.
    pub struct PostCompactOutput {}
}

/// `interrupt.command.output`: only `systemMessage`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct InterruptOutput {
    /// A warning line shown to the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pre(value: &Value) -> PreToolUseOutput {
        serde_json::from_value(value.clone()).unwrap()
    }

    #[test]
    fn serialises_camel_case_and_omits_none() {
        let out = PreToolUseOutput {
            hook_specific_output: Some(PreToolUseHookSpecificOutput {
                permission_decision: Some(PermissionDecision::Deny),
                permission_decision_reason: Some("no".into()),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_string(&out).unwrap(),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#
        );
        assert_eq!(serde_json::to_string(&PreCompactOutput::default()).unwrap(), "{}");
        let stop = StopOutput {
            continue_processing: Some(false),
            stop_reason: Some("done".into()),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_string(&stop).unwrap(),
            r#"{"continue":false,"stopReason":"done"}"#
        );
        let post = PostToolUseOutput {
            hook_specific_output: Some(PostToolUseHookSpecificOutput {
                updated_mcp_tool_output: Some(json!({"ok": true})),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_string(&post).unwrap(),
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"ok":true}}}"#
        );
    }

    #[test]
    fn unknown_keys_are_rejected_like_codex_does() {
        assert!(serde_json::from_value::<StopOutput>(json!({"decision": "block", "x": 1})).is_err());
        assert!(serde_json::from_value::<InterruptOutput>(json!({"continue": true})).is_err());
        assert!(serde_json::from_value::<PreToolUseOutput>(
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "extra": 1}})
        )
        .is_err());
    }

    #[test]
    fn pre_tool_use_parser_rules() {
        let hso = |v: Value| {
            let mut obj = json!({"hookEventName": "PreToolUse"});
            for (k, val) in v.as_object().unwrap() {
                obj[k] = val.clone();
            }
            pre(&json!({ "hookSpecificOutput": obj }))
        };
        assert_eq!(hso(json!({"additionalContext": "c"})).invalid_reason(), None);
        assert_eq!(
            hso(json!({"permissionDecision": "deny", "permissionDecisionReason": "r"})).invalid_reason(),
            None
        );
        assert!(hso(json!({"permissionDecision": "deny"})).invalid_reason().is_some());
        assert!(
            hso(json!({"permissionDecision": "deny", "permissionDecisionReason": "  "}))
                .invalid_reason()
                .is_some()
        );
        assert!(hso(json!({"permissionDecision": "allow"})).invalid_reason().is_some());
        assert_eq!(
            hso(json!({"permissionDecision": "allow", "updatedInput": {"command": "ls"}})).invalid_reason(),
            None
        );
        assert!(hso(json!({"updatedInput": {}})).invalid_reason().is_some());
        assert!(hso(json!({"permissionDecision": "ask"})).invalid_reason().is_some());
        assert!(hso(json!({"permissionDecisionReason": "r"})).invalid_reason().is_some());
        assert_eq!(pre(&json!({"decision": "block", "reason": "r"})).invalid_reason(), None);
        assert!(pre(&json!({"decision": "block"})).invalid_reason().is_some());
        assert!(pre(&json!({"decision": "approve"})).invalid_reason().is_some());
        assert!(pre(&json!({"reason": "r"})).invalid_reason().is_some());
        assert!(pre(&json!({"continue": false})).invalid_reason().is_some());
        assert!(pre(&json!({"stopReason": "s"})).invalid_reason().is_some());
        assert!(pre(&json!({"suppressOutput": true})).invalid_reason().is_some());
        assert_eq!(pre(&json!({"systemMessage": "m"})).invalid_reason(), None);
        assert_eq!(pre(&json!({})).invalid_reason(), None);
    }

    #[test]
    fn permission_request_parser_rules() {
        let pr = |v: Value| -> PermissionRequestOutput { serde_json::from_value(v).unwrap() };
        let with = |d: Value| pr(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": d}}));
        assert_eq!(with(json!({"behavior": "allow"})).invalid_reason(), None);
        assert_eq!(with(json!({"behavior": "deny"})).invalid_reason(), None);
        assert!(with(json!({"behavior": "allow", "updatedInput": {}}))
            .invalid_reason()
            .is_some());
        assert!(with(json!({"behavior": "allow", "updatedPermissions": []}))
            .invalid_reason()
            .is_some());
        assert!(with(json!({"behavior": "deny", "interrupt": true}))
            .invalid_reason()
            .is_some());
        assert_eq!(
            with(json!({"behavior": "deny", "interrupt": false})).invalid_reason(),
            None
        );
        assert!(pr(json!({"continue": false})).invalid_reason().is_some());
    }

    #[test]
    fn block_needs_reason_on_every_blocking_event() {
        let stop: StopOutput = serde_json::from_value(json!({"decision": "block"})).unwrap();
        assert!(stop.invalid_reason().is_some());
        let stop: StopOutput = serde_json::from_value(json!({"decision": "block", "reason": "go on"})).unwrap();
        assert_eq!(stop.invalid_reason(), None);
        let sub: SubagentStopOutput = serde_json::from_value(json!({"decision": "block", "reason": ""})).unwrap();
        assert!(sub.invalid_reason().is_some());
        let ups: UserPromptSubmitOutput = serde_json::from_value(json!({"decision": "block"})).unwrap();
        assert!(ups.invalid_reason().is_some());
        let post: PostToolUseOutput = serde_json::from_value(json!({"reason": "r"})).unwrap();
        assert!(post.invalid_reason().is_some());
        let post: PostToolUseOutput = serde_json::from_value(json!({"continue": false, "reason": "r"})).unwrap();
        assert_eq!(post.invalid_reason(), None);
        let post: PostToolUseOutput = serde_json::from_value(json!({"suppressOutput": true})).unwrap();
        assert!(post.invalid_reason().is_some());
    }
}
