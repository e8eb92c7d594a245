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

use agenthooks_core::kit::claude_family;

pub use claude_family::{HookSpecific, HookSpecificOutput, PermissionRequestDecision, NO_OP};

/// A hook's stdout object: the family's [`claude_family::Output`] (`continue: false` stops the
/// agent, but on `Stop`/`SubagentStop` it continues it, quirk 905; the `reason` of a `Stop`
/// block is the next prompt). Qwen reads `hookEventName`, `permissionDecision`,
/// `permissionDecisionReason`, `decision` and `additionalContext` (`<` and `>` escaped by Qwen)
/// of [`HookSpecificOutput`]; its encoder sets no other field, and no `interrupt` in a
/// [`PermissionRequestDecision`].
pub type Output = claude_family::Output<HookSpecificOutput>;
