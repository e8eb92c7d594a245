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

use agenthooks_core::kit::claude_family;

pub use claude_family::{HookSpecific, HookSpecificOutput, PermissionRequestDecision, NO_OP};

/// A hook's stdout object: the family's [`claude_family::Output`] with Claude's
/// `hookSpecificOutput` (every field Claude reads).
pub type Output = claude_family::Output<HookSpecificOutput>;
