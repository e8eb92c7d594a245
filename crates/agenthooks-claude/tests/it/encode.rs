//! Wire bytes for every decision shape, capabilities against the encoder, failure answers.

use agenthooks_claude::native::EVENTS;
use agenthooks_claude::CODEC;
use agenthooks_core::decision::{
    accept_prompt, allow, ask_user, block_prompt, continue_with, deny, finish, flag_output, no_decision, observed,
    replace_output, rewrite_input, ContextDecision, DEFAULT_BLOCK_REASON,
};
use agenthooks_core::{
    degrade, AskFallback, Capability, Codec, EncodeCategory, Event, EventKind, EventTarget, FailMode, Outcome, Policy,
    Variant,
};
use serde_json::{json, Map, Value};

use agenthooks_testkit::Fixture;

use crate::support::CORPUS;

/// stdout of encoding `outcome` for the fixture `case`, asserting exit 0 and empty stderr.
fn wire(case: &str, outcome: impl Into<Outcome>) -> String {
    let ev = CORPUS.event(case);
    let r = CODEC
        .encode(&ev, &outcome.into())
        .unwrap_or_else(|e| panic!("{case}: {e}"));
    assert_eq!((r.exit_code, r.stderr.as_slice()), (0, &b""[..]), "{case}");
    String::from_utf8(r.stdout).expect("UTF-8")
}

fn encode_err(case: &str, outcome: impl Into<Outcome>) -> EncodeCategory {
    CODEC
        .encode(&CORPUS.event(case), &outcome.into())
        .expect_err("must not be expressible")
        .category()
}

fn input(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

#[test]
fn pre_tool_use_shapes() {
    let c = "docs/pre_tool_use";
    assert_eq!(wire(c, no_decision()), "{}");
    assert_eq!(
        wire(c, allow()),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#
    );
    assert_eq!(
        wire(c, deny("Editing checkout.ts needs a review")),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Editing checkout.ts needs a review"}}"#
    );
    assert_eq!(
        wire(c, ask_user("Change the checkout timeout?")),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Change the checkout timeout?"}}"#
    );
    assert_eq!(
        wire(c, ask_user("")),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}"#
    );
    let rewritten =
        input(json!({"file_path": "/home/dev/shop/src/checkout.ts", "old_string": "500", "new_string": "5000"}));
    assert_eq!(
        wire(c, rewrite_input(rewritten.clone()).allow()),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/home/dev/shop/src/checkout.ts","old_string":"500","new_string":"5000"}}}"#
    );
    assert_eq!(
        wire(c, rewrite_input(rewritten.clone()).ask_user("Apply the safer edit?")),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Apply the safer edit?","updatedInput":{"file_path":"/home/dev/shop/src/checkout.ts","old_string":"500","new_string":"5000"}}}"#
    );
    // A rewrite needs a verdict on Claude (#109).
    assert_eq!(
        encode_err(c, rewrite_input(rewritten).no_decision()),
        EncodeCategory::Unsupported
    );
    assert_eq!(
        wire(
            c,
            no_decision()
                .with_context("The test suite is slow.")
                .with_context("Prefer vitest.")
        ),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"The test suite is slow.\n\nPrefer vitest."}}"#
    );
    assert_eq!(
        wire(
            c,
            deny("policy P-7: no edits to checkout")
                .with_block_reason("Blocked by policy P-7")
                .with_system_message("Ask #payments for an exception.")
        ),
        r#"{"systemMessage":"Ask #payments for an exception.\nBlocked by policy P-7","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy P-7: no edits to checkout"}}"#
    );
    assert_eq!(
        wire(c, allow().stop_agent("Budget exhausted")),
        r#"{"continue":false,"stopReason":"Budget exhausted","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#
    );
    assert_eq!(
        wire(c, no_decision().with_system_message("audited")),
        r#"{"systemMessage":"audited"}"#
    );
}

#[test]
fn permission_request_shapes() {
    let c = "docs/permission_request";
    assert_eq!(wire(c, no_decision()), "{}");
    assert_eq!(
        wire(c, allow()),
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#
    );
    assert_eq!(
        wire(c, rewrite_input(input(json!({"command": "rm -rf ./dist"}))).allow()),
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"rm -rf ./dist"}}}}"#
    );
    assert_eq!(
        wire(c, deny("Deleting build output is not allowed")),
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Deleting build output is not allowed"}}}"#
    );
    assert_eq!(
        wire(c, deny("no").stop_agent("Stopping the session")),
        r#"{"continue":false,"stopReason":"Stopping the session","hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no","interrupt":true}}}"#
    );
    // No ask, no context, no rewrite without an allow on this event.
    assert_eq!(encode_err(c, ask_user("sure?")), EncodeCategory::Unsupported);
    assert_eq!(
        encode_err(c, no_decision().with_context("x")),
        EncodeCategory::Unsupported
    );
    assert_eq!(
        encode_err(c, rewrite_input(input(json!({"command": "ls"}))).no_decision()),
        EncodeCategory::Unsupported
    );
    // An ask is Claude's own dialog, whatever the ask fallback: no decision, the reason shown.
    let caps = CODEC.capabilities(&Variant::DEFAULT, "PermissionRequest");
    for p in [
        Policy::default(),
        Policy::default().with_ask_fallback(AskFallback::NoDecision),
    ] {
        let d = degrade(ask_user("sure?").into(), caps, &p).expect("degrades");
        assert_eq!(wire(c, d.outcome), r#"{"systemMessage":"sure?"}"#);
    }
}

#[test]
fn pre_skill_shell_command_shapes() {
    let c = "docs/pre_skill_shell_command";
    assert_eq!(
        wire(c, deny("no git history in skills")),
        r#"{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"no git history in skills"}}"#
    );
    assert_eq!(
        wire(c, ask_user("Run git log?")),
        r#"{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"ask","permissionDecisionReason":"Run git log?"}}"#
    );
    // updatedInput would block the command (#103); allow is not an answer here.
    assert_eq!(
        encode_err(c, rewrite_input(input(json!({"command": "git log -1"}))).allow()),
        EncodeCategory::Unsupported
    );
    assert_eq!(encode_err(c, allow()), EncodeCategory::Unsupported);
}

#[test]
fn post_tool_use_shapes() {
    let c = "docs/post_tool_use";
    assert_eq!(wire(c, observed()), "{}");
    assert_eq!(
        wire(c, flag_output("package.json has no test script")),
        r#"{"decision":"block","reason":"package.json has no test script"}"#
    );
    assert_eq!(
        wire(c, replace_output(json!("[redacted]"))),
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"[redacted]"}}"#
    );
    assert_eq!(
        wire(c, observed().with_context("The file is generated; do not edit it.")),
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"The file is generated; do not edit it."}}"#
    );
    // MCP tools also get the legacy key (#102).
    assert_eq!(
        wire(
            "docs/post_tool_use-mcp",
            replace_output(json!([{"type": "text", "text": "[redacted]"}]))
        ),
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":[{"type":"text","text":"[redacted]"}],"updatedMCPToolOutput":[{"type":"text","text":"[redacted]"}]}}"#
    );
}

#[test]
fn prompt_shapes() {
    let c = "docs/user_prompt_submit";
    assert_eq!(wire(c, accept_prompt()), "{}");
    assert_eq!(
        wire(c, block_prompt("The prompt contains an API key.")),
        r#"{"decision":"block","reason":"The prompt contains an API key."}"#
    );
    // An explicit user-facing message goes to `systemMessage`; `reason` keeps the reason.
    assert_eq!(
        wire(
            c,
            block_prompt("matched rule secrets/aws").with_block_reason("Remove the AWS key and resend.")
        ),
        r#"{"systemMessage":"Remove the AWS key and resend.","decision":"block","reason":"matched rule secrets/aws"}"#
    );
    assert_eq!(
        wire(c, accept_prompt().with_context("Today is Monday.")),
        r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Today is Monday."}}"#
    );
    assert_eq!(
        wire("2.1.197/user_prompt_submit-allow", accept_prompt().with_context("ctx")),
        r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}"#
    );
}

#[test]
fn stop_shapes() {
    let c = "docs/stop";
    assert_eq!(wire(c, finish()), "{}");
    assert_eq!(
        wire(c, continue_with("Run the full test suite before finishing.")),
        r#"{"decision":"block","reason":"Run the full test suite before finishing."}"#
    );
    assert_eq!(
        wire(c, finish().with_context("All checks passed.")),
        r#"{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"All checks passed."}}"#
    );
    assert_eq!(
        wire(c, finish().stop_agent("Daily budget reached")),
        r#"{"continue":false,"stopReason":"Daily budget reached"}"#
    );
    assert_eq!(
        wire("docs/subagent_stop", continue_with("Also check src/cart.ts.")),
        r#"{"decision":"block","reason":"Also check src/cart.ts."}"#
    );
}

#[test]
fn context_only_events() {
    for (case, native) in [
        ("docs/session_start", "SessionStart"),
        ("docs/setup", "Setup"),
        ("docs/subagent_start", "SubagentStart"),
        ("docs/notification", "Notification"),
        ("docs/post_tool_use_failure", "PostToolUseFailure"),
        ("docs/post_tool_batch", "PostToolBatch"),
        ("docs/user_prompt_expansion", "UserPromptExpansion"),
        ("docs/post_model_switch", "PostModelSwitch"),
    ] {
        assert_eq!(
            wire(case, ContextDecision::none().with_context("Remember the style guide.")),
            format!(
                r#"{{"hookSpecificOutput":{{"hookEventName":"{native}","additionalContext":"Remember the style guide."}}}}"#
            ),
            "{case}"
        );
    }
    assert_eq!(
        encode_err("docs/session_start", ContextDecision::none().stop_agent("x")),
        EncodeCategory::Unsupported
    );
    assert_eq!(
        encode_err("docs/session_end", ContextDecision::none().with_context("x")),
        EncodeCategory::Unsupported
    );
    assert_eq!(
        wire(
            "docs/config_change",
            ContextDecision::none().with_system_message("Settings reloaded")
        ),
        r#"{"systemMessage":"Settings reloaded"}"#
    );
    assert_eq!(
        encode_err("docs/config_change", ContextDecision::none().with_context("x")),
        EncodeCategory::Unsupported
    );
}

#[test]
fn wrong_family_is_an_error() {
    assert_eq!(encode_err("docs/pre_tool_use", finish()), EncodeCategory::WrongFamily);
    assert_eq!(encode_err("docs/stop", allow()), EncodeCategory::WrongFamily);
    assert_eq!(
        encode_err("docs/session_start", accept_prompt()),
        EncodeCategory::WrongFamily
    );
}

#[test]
fn worktree_create_no_op_is_empty_stdout() {
    let ev = CORPUS.event("docs/worktree_create");
    let r = CODEC.encode(&ev, &ContextDecision::none().into()).expect("encodes");
    assert_eq!((r.stdout.as_slice(), r.exit_code), (&b""[..], 0));
    assert!(CODEC.capabilities(&Variant::DEFAULT, "WorktreeCreate").is_empty());
}

fn target(native: Option<&str>, kind: Option<EventKind>) -> EventTarget {
    EventTarget::new(native.map(Into::into), kind)
}

#[test]
fn failure_responses() {
    let closed = |native: Option<&str>, kind: Option<EventKind>| {
        CODEC.failure_response(&target(native, kind), FailMode::Closed, "handler panicked")
    };
    let stdout = |r: agenthooks_core::WireResponse| {
        assert_eq!((r.exit_code, r.stderr.as_slice()), (0, &b""[..]));
        String::from_utf8(r.stdout).expect("UTF-8")
    };
    assert_eq!(
        stdout(closed(Some("PreToolUse"), Some(EventKind::ToolPre))),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"handler panicked"}}"#
    );
    assert_eq!(
        stdout(closed(Some("PreSkillShellCommand"), Some(EventKind::ToolPre))),
        r#"{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"handler panicked"}}"#
    );
    assert_eq!(
        stdout(closed(Some("PermissionRequest"), Some(EventKind::Permission))),
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"handler panicked"}}}"#
    );
    assert_eq!(
        stdout(closed(Some("UserPromptSubmit"), Some(EventKind::PromptSubmitted))),
        r#"{"decision":"block","reason":"handler panicked"}"#
    );
    assert_eq!(
        stdout(closed(Some("PreCompact"), Some(EventKind::CompactPre))),
        r#"{"decision":"block","reason":"handler panicked"}"#
    );
    // Events that cannot block answer the no-op; never exit 2 on Stop (#107).
    for native in ["Stop", "SubagentStop", "PostToolUse", "SessionStart", "Notification"] {
        assert_eq!(stdout(closed(Some(native), None)), "{}", "{native}");
    }
    assert_eq!(stdout(closed(None, Some(EventKind::Stop))), "{}");
    // Unknown event: exit 2 with the reason on stderr.
    for (native, kind) in [
        (None, None),
        (None, Some(EventKind::ToolPre)),
        (Some("PreWebRequest"), Some(EventKind::Other)),
    ] {
        let r = closed(native, kind);
        assert_eq!(
            (r.exit_code, r.stdout.as_slice(), r.stderr.as_slice()),
            (2, &b""[..], &b"handler panicked"[..])
        );
    }
    // Empty reasons get the default block reason.
    let r = CODEC.failure_response(&target(Some("UserPromptSubmit"), None), FailMode::Closed, " ");
    assert_eq!(
        stdout(r),
        format!(r#"{{"decision":"block","reason":"{DEFAULT_BLOCK_REASON}"}}"#)
    );
    // Fail-open is the no-op.
    assert_eq!(
        stdout(CODEC.failure_response(&target(Some("PreToolUse"), None), FailMode::Open, "x")),
        "{}"
    );
}

/// A decision shape: the outcome and the capabilities it needs on the wire.
struct Shape {
    name: &'static str,
    outcome: Outcome,
    needs: &'static [Capability],
}

fn shape(name: &'static str, outcome: impl Into<Outcome>, needs: &'static [Capability]) -> Shape {
    Shape {
        name,
        outcome: outcome.into(),
        needs,
    }
}

/// The decorations every family carries on its neutral base: context, system message, stop.
macro_rules! decorated {
    ($base:expr) => {
        [
            shape("context", $base.with_context("c"), &[Capability::AddContext]),
            shape("system", $base.with_system_message("m"), &[Capability::SystemMessage]),
            shape("stop", $base.stop_agent("s"), &[Capability::StopAgent]),
        ]
    };
}

fn shapes(kind: EventKind) -> Vec<Shape> {
    use Capability as C;
    let rw = || input(json!({"command": "ls"}));
    let (mut out, decorations) = match Outcome::neutral_for(kind) {
        Outcome::ToolPre(_) => (
            vec![
                shape("allow", allow(), &[C::Allow]),
                shape("deny", deny("no"), &[C::Deny]),
                shape("ask", ask_user("sure?"), &[C::Ask]),
                shape(
                    "rewrite+allow",
                    rewrite_input(rw()).allow(),
                    &[C::Allow, C::UpdateInput],
                ),
                shape(
                    "rewrite+ask",
                    rewrite_input(rw()).ask_user("ok?"),
                    &[C::Ask, C::UpdateInput],
                ),
                shape(
                    "deny+block-reason",
                    deny("no").with_block_reason("Blocked"),
                    &[C::Deny, C::SystemMessage],
                ),
            ],
            decorated!(no_decision()),
        ),
        Outcome::Prompt(_) => (
            vec![shape("block", block_prompt("no"), &[C::Deny])],
            decorated!(accept_prompt()),
        ),
        Outcome::Stop(_) => (
            vec![shape("continue", continue_with("go on"), &[C::ContinueAgent])],
            decorated!(finish()),
        ),
        Outcome::ToolPost(_) => (
            vec![
                shape("flag", flag_output("look"), &[C::FlagOutput]),
                shape("replace", replace_output(json!("x")), &[C::ReplaceOutput]),
            ],
            decorated!(observed()),
        ),
        _ => (Vec::new(), decorated!(ContextDecision::none())),
    };
    out.extend(decorations);
    out
}

/// Events of every native name (docs fixtures) plus an unknown one.
fn one_event_per_native() -> Vec<Event> {
    let mut out: Vec<Event> = EVENTS
        .iter()
        .map(|spec| {
            let case = CORPUS
                .cases()
                .iter()
                .find(|c| Fixture::short_id(c).starts_with("docs/") && c.meta.native_event == spec.name)
                .unwrap_or_else(|| panic!("no docs fixture for {}", spec.name));
            CORPUS.decode(case)
        })
        .collect();
    out.push(CORPUS.event("docs/future_event"));
    out
}

#[test]
fn capabilities_agree_with_the_encoder() {
    for ev in one_event_per_native() {
        let native = ev.envelope().native.as_str().to_owned();
        let caps = CODEC.capabilities(&Variant::DEFAULT, &native);
        // Same in every variant.
        for v in [Variant::COWORK, Variant::REMOTE] {
            assert_eq!(CODEC.capabilities(&v, &native), caps, "{native} {v}");
        }
        for shape in shapes(ev.kind()) {
            let promised = shape.needs.iter().all(|c| caps.contains(*c));
            let encoded = CODEC.encode(&ev, &shape.outcome);
            if promised {
                let r = encoded.unwrap_or_else(|e| panic!("{native} {}: {e}", shape.name));
                assert_ne!(r.stdout, b"{}", "{native} {}: promised but nothing sent", shape.name);
                assert_eq!(r.exit_code, 0);
            } else {
                assert!(encoded.is_err(), "{native} {}: not promised but encoded", shape.name);
            }
            // After degradation every shape encodes (the runner's path).
            let d = degrade(shape.outcome.clone(), caps, &Policy::default()).expect("degrades");
            CODEC
                .encode(&ev, &d.outcome)
                .unwrap_or_else(|e| panic!("{native} {} degraded: {e}", shape.name));
            assert_eq!(d.degradations.is_empty(), promised, "{native} {}", shape.name);
        }
    }
}

#[test]
fn every_capability_is_promised_somewhere() {
    // Claude applies a rewrite only together with an allow or ask verdict (#109).
    for cap in Capability::ALL.into_iter().filter(|c| *c != Capability::NeutralRewrite) {
        let somewhere = EVENTS
            .iter()
            .any(|s| CODEC.capabilities(&Variant::DEFAULT, s.name).contains(cap));
        assert!(somewhere, "{cap} is never promised");
    }
}
