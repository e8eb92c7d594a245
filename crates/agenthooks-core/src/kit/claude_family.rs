//! The Claude-dialect family: the hook stdout shapes and answers that Claude Code and the agents
//! that copied its dialect (Qwen Code, Factory Droid) share, written once.
//!
//! Claude's hook output is one object for every event: the universal fields at the top
//! (`continue`, `stopReason`, `systemMessage`), the top-level `decision: "block"` + `reason`
//! (blocks a prompt, continues a stopping agent, feeds a reason back after a tool), and
//! `hookSpecificOutput`, which carries the per-event fields. The siblings read the same object
//! with fewer keys. What is shared lives here:
//!
//! - [`Output`]: the top-level object, generic over its `hookSpecificOutput` ([`HookSpecific`]);
//!   the default is `{}`, the family's explicit "no opinion" ([`NO_OP`]);
//! - [`HookSpecificOutput`]: the named `hookSpecificOutput` (`hookEventName` first) in Claude's
//!   key order. Qwen Code uses it too and never sets the fields it does not read (every field is
//!   omitted when `None`); a sibling whose object has other keys or another order (Droid reads no
//!   `hookEventName`) declares its own struct and implements [`HookSpecific`];
//! - [`PermissionRequestDecision`]: `hookSpecificOutput.decision` of `PermissionRequest`;
//! - [`failure_response`]: the fail-closed answer of the dialects whose exit 2 is the universal
//!   block, for targets the provided [`kit::failure_response`](crate::kit::failure_response)
//!   cannot answer (an event with no name or no row, a blocking row of no gate kind);
//! - [`http_response`]: an http hook has no exit code, so exit 2 becomes the event's JSON block.
//!
//! Each codec keeps its event table, its encoder and its quirks: this module holds shapes and
//! answers only, never which event sets which field.
//!
//! ```
//! use agenthooks_core::kit::claude_family::{HookSpecificOutput, Output};
//!
//! assert_eq!(serde_json::to_string(&Output::<HookSpecificOutput>::default()).unwrap(), "{}");
//! let mut deny = Output::<HookSpecificOutput>::default();
//! deny.hook_specific_output = HookSpecificOutput::named("PreToolUse");
//! deny.hook_specific_output.permission_decision = Some("deny");
//! deny.hook_specific_output.permission_decision_reason = Some("no".into());
//! assert_eq!(
//!     serde_json::to_string(&deny).unwrap(),
//!     r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#
//! );
//! let block = Output::<HookSpecificOutput>::block("no");
//! assert_eq!(block.wire().stdout, br#"{"decision":"block","reason":"no"}"#);
//! ```

use serde::Serialize;
use serde_json::{Map, Value};

use crate::capability::{CapSet, Capability, FailMode};
use crate::codec::{Codec, EventTarget, WireResponse};
use crate::decision::{reason_or_default, Outcome};
use crate::error::EncodeError;
use crate::kind::EventKind;
use crate::kit::{EventRow, FailShape};
use crate::provider::{NativeName, Provider};

/// Separator between several context strings merged into one `additionalContext`.
const CONTEXT_SEPARATOR: &str = "\n\n";

/// The answer for "no decision": an explicit empty JSON object.
pub const NO_OP: &[u8] = b"{}";

/// A `hookSpecificOutput` object: omitted from [`Output`] when [`is_empty`](Self::is_empty).
///
/// ```
/// use agenthooks_core::kit::claude_family::{HookSpecific, HookSpecificOutput};
/// assert!(HookSpecificOutput::named("Stop").is_empty());
/// ```
pub trait HookSpecific: Serialize + Default {
    /// Whether no field the agent reads is set (the object is then not written).
    fn is_empty(&self) -> bool;
}

/// A hook's stdout object, with its `hookSpecificOutput` of type `H`.
///
/// ```
/// use agenthooks_core::kit::claude_family::{HookSpecificOutput, Output};
/// let mut stop = Output::<HookSpecificOutput>::default();
/// stop.continue_ = Some(false);
/// stop.stop_reason = Some("done".into());
/// assert_eq!(serde_json::to_string(&stop).unwrap(), r#"{"continue":false,"stopReason":"done"}"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", bound(serialize = "H: HookSpecific"))]
pub struct Output<H> {
    /// `continue: false` stops the agent.
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// `stopReason`: shown to the user when `continue` is `false`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// `systemMessage`: shown to the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// `decision: "block"`: what it blocks depends on the agent and the event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<&'static str>,
    /// `reason`: the text of the block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `hookSpecificOutput` (omitted when [`HookSpecific::is_empty`]).
    #[serde(skip_serializing_if = "HookSpecific::is_empty")]
    pub hook_specific_output: H,
}

impl<H: HookSpecific> Output<H> {
    /// The top-level block: `{"decision": "block", "reason": reason}`.
    ///
    /// ```
    /// use agenthooks_core::kit::claude_family::{HookSpecificOutput, Output};
    /// let out = Output::<HookSpecificOutput>::block("no");
    /// assert_eq!(out.decision, Some("block"));
    /// ```
    pub fn block(reason: impl Into<String>) -> Self {
        Self {
            decision: Some("block"),
            reason: Some(reason.into()),
            ..Self::default()
        }
    }

    /// The answer: exit 0 with this object on stdout ([`NO_OP`] should it not serialize).
    ///
    /// ```
    /// use agenthooks_core::kit::claude_family::{HookSpecificOutput, Output};
    /// assert_eq!(Output::<HookSpecificOutput>::default().wire().stdout, b"{}");
    /// ```
    pub fn wire(&self) -> WireResponse {
        WireResponse::stdout(serde_json::to_vec(self).unwrap_or_else(|_| NO_OP.to_vec()))
    }

    /// Stops the whole agent when the outcome says so: `continue: false`, with the stop reason
    /// (when not blank) as `stopReason`.
    ///
    /// ```
    /// use agenthooks_core::decision::allow;
    /// use agenthooks_core::kit::claude_family::{HookSpecificOutput, Output};
    /// let mut out = Output::<HookSpecificOutput>::default();
    /// out.stop_agent(&allow().with_stop_agent("enough").into());
    /// assert_eq!(out.wire().stdout, br#"{"continue":false,"stopReason":"enough"}"#);
    /// ```
    pub fn stop_agent(&mut self, outcome: &Outcome) {
        if let Some(stop) = outcome.stop_reason() {
            self.continue_ = Some(false);
            self.stop_reason = Some(stop.to_owned()).filter(|s| !s.is_empty());
        }
    }
}

impl Output<HookSpecificOutput> {
    /// Writes what every event of Claude's object carries besides its intent: the outcome's
    /// context for the model as `additionalContext` (joined by a blank line), the
    /// [`user_message`](crate::kit::user_message) as `systemMessage` (an error when `caps`
    /// lacks [`Capability::SystemMessage`]), and [`stop_agent`](Self::stop_agent).
    ///
    /// ```
    /// use agenthooks_core::decision::allow;
    /// use agenthooks_core::kit::claude_family::{HookSpecificOutput, Output};
    /// use agenthooks_core::{CapSet, Capability, Provider};
    /// let mut out = Output { hook_specific_output: HookSpecificOutput::named("PostToolUse"), ..Output::default() };
    /// let outcome = allow().with_context("a").with_context("b").with_system_message("hi").into();
    /// out.write_notes(Provider::CLAUDE_CODE, "PostToolUse", CapSet::of(&[Capability::SystemMessage]), &outcome)?;
    /// assert_eq!(
    ///     out.wire().stdout,
    ///     br#"{"systemMessage":"hi","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"a\n\nb"}}"#
    /// );
    /// assert!(out.write_notes(Provider::CLAUDE_CODE, "PostToolUse", CapSet::EMPTY, &outcome).is_err());
    /// # Ok::<(), agenthooks_core::EncodeError>(())
    /// ```
    pub fn write_notes(
        &mut self,
        provider: Provider,
        native: &str,
        caps: CapSet,
        outcome: &Outcome,
    ) -> Result<(), EncodeError> {
        if !outcome.context().is_empty() {
            self.hook_specific_output.additional_context = Some(outcome.context().join(CONTEXT_SEPARATOR));
        }
        // An explicit block message travels as a system message too.
        if let Some(message) = crate::kit::user_message(outcome) {
            if !caps.contains(Capability::SystemMessage) {
                return Err(EncodeError::unsupported(provider, native, Capability::SystemMessage));
            }
            self.system_message = Some(message);
        }
        self.stop_agent(outcome);
        Ok(())
    }
}

/// `hookSpecificOutput` as Claude Code reads it: the event's name, then the per-event fields in
/// Claude's key order. Qwen Code reads `hookEventName`, `permissionDecision`,
/// `permissionDecisionReason`, `decision` and `additionalContext` of it (its encoder sets no
/// other field).
///
/// ```
/// use agenthooks_core::kit::claude_family::HookSpecificOutput;
/// let mut h = HookSpecificOutput::named("PostToolUse");
/// h.additional_context = Some("ok".into());
/// assert_eq!(
///     serde_json::to_string(&h).unwrap(),
///     r#"{"hookEventName":"PostToolUse","additionalContext":"ok"}"#
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookSpecificOutput {
    /// `hookEventName`: the event answered.
    pub hook_event_name: String,
    /// `permissionDecision` (`PreToolUse`): `allow`, `deny` or `ask`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<&'static str>,
    /// `permissionDecisionReason`: what the model reads as the tool's error on a deny.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// `updatedInput` (`PreToolUse`, with an allow or an ask; Claude only): replaces the tool
    /// input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// `decision` (`PermissionRequest`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<PermissionRequestDecision>,
    /// `additionalContext`: context for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// `updatedToolOutput` (`PostToolUse`; Claude only): replaces the tool output the model
    /// sees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_tool_output: Option<Value>,
    /// `updatedMCPToolOutput` (Claude only): the same for MCP tools, as releases before
    /// `updatedToolOutput` read it.
    #[serde(rename = "updatedMCPToolOutput", skip_serializing_if = "Option::is_none")]
    pub updated_mcp_tool_output: Option<Value>,
}

impl HookSpecificOutput {
    /// The fields of `event`, none set yet.
    ///
    /// ```
    /// use agenthooks_core::kit::claude_family::HookSpecificOutput;
    /// assert_eq!(HookSpecificOutput::named("Stop").hook_event_name, "Stop");
    /// ```
    pub fn named(event: impl Into<String>) -> Self {
        Self {
            hook_event_name: event.into(),
            ..Self::default()
        }
    }
}

impl HookSpecific for HookSpecificOutput {
    /// Whether no field but the name is set.
    fn is_empty(&self) -> bool {
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
///
/// ```
/// use agenthooks_core::kit::claude_family::PermissionRequestDecision;
/// let mut d = PermissionRequestDecision::new("deny");
/// d.message = Some("no".into());
/// assert_eq!(serde_json::to_string(&d).unwrap(), r#"{"behavior":"deny","message":"no"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionRequestDecision {
    /// `behavior`: `allow` or `deny`.
    pub behavior: &'static str,
    /// `updatedInput` (with `allow`): replaces the tool input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// `message` (with `deny`): why, for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `interrupt: true` (with `deny`; Claude only): stops the agent too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<bool>,
}

impl PermissionRequestDecision {
    /// A decision with this behavior and nothing else.
    ///
    /// ```
    /// use agenthooks_core::kit::claude_family::PermissionRequestDecision;
    /// assert_eq!(PermissionRequestDecision::new("allow").behavior, "allow");
    /// ```
    pub fn new(behavior: &'static str) -> Self {
        Self {
            behavior,
            updated_input: None,
            message: None,
            interrupt: None,
        }
    }
}

/// The fail-closed answer of a dialect whose exit 2 is the universal block (it blocks a gate,
/// and continues a stopping agent):
///
/// - fail-open: the no-op;
/// - a target with no native name: exit 2 with the reason on stderr for a gate kind
///   (`ToolPre`, `Permission`, `PromptSubmitted`), `Other` or no kind; the no-op for any other
///   known kind (exit 2 would continue a stopping agent);
/// - a named event with no row (a future event): exit 2;
/// - a row whose failure shape is not [`FailShape::Block`], or whose kind has a blocking outcome:
///   [`kit::failure_response`](crate::kit::failure_response) (the codec's own encoded deny);
/// - a blocking row of no gate kind: `unstated(row, reason)`, the codec's JSON for a block no
///   unified outcome states (the reason is [`reason_or_default`]'s).
///
/// ```
/// use agenthooks_core::kit::claude_family;
/// use agenthooks_core::{Codec, EventKind, EventTarget, FailMode, WireResponse};
/// # fn check(codec: &dyn Codec) {
/// let target = EventTarget::new(None, Some(EventKind::ToolPre));
/// let answer = claude_family::failure_response(codec, &target, FailMode::Closed, "no", |_, r| {
///     WireResponse::exit(2, r.to_owned())
/// });
/// assert_eq!((answer.exit_code, answer.stderr.as_slice()), (2, &b"no"[..]));
/// # }
/// ```
pub fn failure_response<C: Codec + ?Sized>(
    codec: &C,
    target: &EventTarget,
    mode: FailMode,
    reason: &str,
    unstated: impl FnOnce(&'static EventRow, &str) -> WireResponse,
) -> WireResponse {
    if mode != FailMode::Closed {
        return codec.no_op(target);
    }
    let text = reason_or_default(reason);
    if target.native.is_none() {
        return match target.kind {
            Some(EventKind::ToolPre | EventKind::Permission | EventKind::PromptSubmitted | EventKind::Other) | None => {
                WireResponse::exit(2, text)
            }
            Some(_) => codec.no_op(target),
        };
    }
    let Some(row) = codec.row_for(target) else {
        return WireResponse::exit(2, text);
    };
    if row.failure != FailShape::Block || crate::kit::blocking_outcome(row.kind, text).is_some() {
        return crate::kit::failure_response(codec, target, mode, reason);
    }
    unstated(row, text)
}

/// The answer of an http hook in the family: http hooks read a 2xx JSON body only, so exit 2,
/// the command path's universal block, becomes the event's JSON block: the codec's fail-closed
/// answer with stderr as the reason when that is JSON (exit 0), else the top-level
/// `{"decision": "block", "reason"}`. Any other response passes unchanged.
///
/// ```
/// use agenthooks_core::kit::claude_family;
/// use agenthooks_core::{Codec, WireResponse};
/// # fn check(codec: &dyn Codec) {
/// let ok = WireResponse::stdout(b"{}".to_vec());
/// assert_eq!(claude_family::http_response(codec, Some("PreToolUse"), ok.clone()), ok);
/// let blocked = claude_family::http_response(codec, None, WireResponse::exit(2, b"no".to_vec()));
/// assert_eq!(blocked.exit_code, 0);
/// # }
/// ```
pub fn http_response<C: Codec + ?Sized>(codec: &C, native: Option<&str>, response: WireResponse) -> WireResponse {
    if response.exit_code != 2 {
        return response;
    }
    let reason = String::from_utf8_lossy(&response.stderr).into_owned();
    let kind = native.map(|n| codec.kind_of(n));
    let target = EventTarget::new(native.map(NativeName::from), kind);
    let block = codec.failure_response(&target, FailMode::Closed, &reason);
    if block.exit_code == 0 {
        return block;
    }
    Output::<HookSpecificOutput>::block(reason_or_default(&reason)).wire()
}

/// The session facts of a family payload, borrowed from its common fields.
#[derive(Debug, Clone, Copy, Default)]
pub struct SessionFields<'a> {
    /// `session_id`.
    pub session_id: Option<&'a String>,
    /// `prompt_id`: the turn id.
    pub prompt_id: Option<&'a String>,
    /// `cwd`.
    pub cwd: Option<&'a String>,
    /// `transcript_path`.
    pub transcript_path: Option<&'a String>,
    /// `permission_mode`.
    pub permission_mode: Option<&'a String>,
    /// The model, from the events that carry one (which ones is the codec's).
    pub model: Option<&'a String>,
}

/// The [`SessionInfo`](crate::SessionInfo) of a family payload: its fields verbatim (absent is
/// empty), `prompt_id` as the turn id, and the workspace root from the agent's project
/// variable `project_dir_var` (else the payload's `cwd`; none when both are empty).
///
/// ```
/// use agenthooks_core::kit::claude_family::{session_info, SessionFields};
/// let (id, cwd) = ("s".to_owned(), "/w".to_owned());
/// let env = std::collections::HashMap::<String, String>::new();
/// let fields = SessionFields { session_id: Some(&id), cwd: Some(&cwd), ..SessionFields::default() };
/// let s = session_info(fields, "X_PROJECT_DIR", &env);
/// assert_eq!((s.id.as_str(), s.workspace_roots.as_slice()), ("s", &["/w".to_owned()][..]));
/// ```
pub fn session_info(fields: SessionFields<'_>, project_dir_var: &str, env: &dyn crate::Env) -> crate::SessionInfo {
    let text = |v: Option<&String>| v.cloned().unwrap_or_default();
    let mut s = crate::SessionInfo {
        id: text(fields.session_id),
        turn_id: text(fields.prompt_id),
        cwd: text(fields.cwd),
        transcript_path: text(fields.transcript_path),
        permission_mode: text(fields.permission_mode),
        model: text(fields.model),
        ..crate::SessionInfo::default()
    };
    let root = env
        .var(project_dir_var)
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| s.cwd.clone());
    if !root.is_empty() {
        s.workspace_roots = vec![root];
    }
    s
}

/// The [`SessionFields`] of a family native event (any value with the accessors
/// `native_events!` generates for the common fields `session_id`, `prompt_id`, `cwd`,
/// `transcript_path` and `permission_mode`), with the `model` the codec found.
///
/// ```
/// # mod native {
/// #     agenthooks_core::kit::native_events! {
/// #         /// A toy family event.
/// #         name_key Some("hook_event_name");
/// #         common {
/// #             /// id
/// #             session_id: Option<String>,
/// #             /// turn
/// #             prompt_id: Option<String>,
/// #             /// cwd
/// #             cwd: Option<String>,
/// #             /// transcript
/// #             transcript_path: Option<String>,
/// #             /// mode
/// #             permission_mode: Option<String>,
/// #             /// name
/// #             hook_event_name: Option<String>,
/// #         }
/// #         events {
/// #             /// Stop.
/// #             Stop("Stop", Stop) {}
/// #         }
/// #     }
/// # }
/// use agenthooks_core::kit::{self, claude_family};
/// let p = agenthooks_core::Provider::from_static("toy");
/// let d = kit::decode::<native::NativeEvent>(&p, br#"{"hook_event_name":"Stop","prompt_id":"t"}"#, None).unwrap();
/// let fields = claude_family::session_fields!(d.native, None);
/// assert_eq!(fields.prompt_id.map(String::as_str), Some("t"));
/// ```
#[doc(inline)]
pub use crate::claude_family_session_fields as session_fields;

#[macro_export]
#[doc(hidden)] // documented at its path under `kit::claude_family`
macro_rules! claude_family_session_fields {
    ($native:expr, $model:expr) => {
        $crate::kit::claude_family::SessionFields {
            session_id: $native.session_id(),
            prompt_id: $native.prompt_id(),
            cwd: $native.cwd(),
            transcript_path: $native.transcript_path(),
            permission_mode: $native.permission_mode(),
            model: $model,
        }
    };
}
