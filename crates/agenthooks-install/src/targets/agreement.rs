//! Install ⇔ codec agreement, for every provider.
//!
//! Install reads its event and tool facts from the codecs, so most of the agreement holds by
//! construction; these tests pin what construction cannot: that every native event a codec
//! knows is installable or deliberately not (with the reason), that install's rows are the
//! codec's, that the events wired per kind are the codec's primary rows (and did not change in the
//! move), and that the tool classes the matcher compiler uses are the codec's.
//!
//! `cargo test -p agenthooks-install agreement -- --nocapture` prints the table.

#![allow(clippy::print_stdout)] // the agreement table, for `--nocapture`

use agenthooks_core::kit::ToolTable;
use agenthooks_core::{EventKind, Provider};

use super::all;
use super::spec::TargetSpec;

/// The specs, in the stable order.
fn specs() -> Vec<&'static TargetSpec> {
    all().iter().map(|m| m.spec()).collect()
}

fn spec(p: &Provider) -> &'static TargetSpec {
    specs().into_iter().find(|s| s.provider == *p).unwrap()
}

/// Every native event the codec knows: installable (how) or not (why). Printed as the
/// agreement table.
#[test]
fn every_codec_event_is_installable_or_deliberately_not() {
    for s in specs() {
        assert_eq!(s.codec.provider(), s.provider, "the spec's codec is its provider's");
        for (name, _) in s.not_installed {
            assert!(
                s.codec.row(name).is_some(),
                "{}: not_installed lists {name}, which the codec does not know",
                s.provider
            );
        }
        for r in s.codec.native_events() {
            let status = match (s.event(r.name), s.why_not_installed(r.name)) {
                (Some(e), None) => {
                    assert_eq!(
                        (e.kind, e.blocking, e.tool_matcher),
                        (r.kind, r.blocking, r.tool_matcher),
                        "{} {}",
                        s.provider,
                        r.name
                    );
                    let wired = if s.natives_for(e.kind).contains(&r.name) {
                        format!("wired for {}", e.kind)
                    } else {
                        "by native name".to_owned()
                    };
                    let matcher = if e.tool_matcher { ", tool matcher" } else { "" };
                    format!("installable ({}, {wired}{matcher})", e.kind)
                }
                (None, Some(why)) => format!("not installed: {why}"),
                other => panic!("{} {}: {other:?}", s.provider, r.name),
            };
            println!("| {} | {} | {status} |", s.provider, r.name);
        }
    }
}

/// Install's effective rows are the codec's, fact for fact (install keeps no copy).
#[test]
fn install_rows_are_the_codec_rows() {
    for s in specs() {
        for e in s.events() {
            assert_eq!(s.codec.row(e.name), Some(&e), "{} {}", s.provider, e.name);
        }
        assert!(s.codec.tools().is_some(), "{}: the codec has a ToolTable", s.provider);
    }
}

/// The events install wires for each kind, before install read the codecs (the old `KINDS`
/// tables): the derivation from the codec rows changes none of them.
const WIRED: &[(&str, &str)] = &[
    (
        "cursor",
        "session.start=sessionStart session.end=sessionEnd prompt.submitted=beforeSubmitPrompt \
         tool.pre=preToolUse tool.pre=beforeShellExecution tool.pre=beforeMCPExecution \
         tool.pre=beforeReadFile tool.post=postToolUse tool.error=postToolUseFailure \
         agent.stop=stop subagent.start=subagentStart subagent.stop=subagentStop \
         compact.pre=preCompact file.edited=afterFileEdit model.response=afterAgentResponse",
    ),
    (
        "claude-code",
        "session.start=SessionStart session.end=SessionEnd prompt.submitted=UserPromptSubmit \
         tool.pre=PreToolUse tool.post=PostToolUse tool.error=PostToolUseFailure \
         permission.request=PermissionRequest agent.stop=Stop subagent.start=SubagentStart \
         subagent.stop=SubagentStop compact.pre=PreCompact compact.post=PostCompact \
         notification=Notification file.edited=FileChanged model.response=MessageDisplay",
    ),
    (
        "codex",
        "session.start=SessionStart session.end=SessionEnd prompt.submitted=UserPromptSubmit \
         tool.pre=PreToolUse tool.post=PostToolUse tool.error=PostToolUse \
         permission.request=PermissionRequest agent.stop=Stop subagent.start=SubagentStart \
         subagent.stop=SubagentStop compact.pre=PreCompact compact.post=PostCompact",
    ),
    (
        "gemini",
        "session.start=SessionStart session.end=SessionEnd prompt.submitted=BeforeAgent \
         tool.pre=BeforeTool tool.post=AfterTool tool.error=AfterTool agent.stop=AfterAgent \
         compact.pre=PreCompress notification=Notification model.request=BeforeModel \
         model.response=AfterModel",
    ),
    (
        "copilot",
        "session.start=sessionStart session.end=sessionEnd prompt.submitted=userPromptSubmitted \
         tool.pre=preToolUse tool.post=postToolUse tool.error=postToolUseFailure \
         permission.request=permissionRequest agent.stop=agentStop subagent.start=subagentStart \
         subagent.stop=subagentStop compact.pre=preCompact notification=notification",
    ),
    (
        "kimi",
        "session.start=SessionStart session.end=SessionEnd prompt.submitted=UserPromptSubmit \
         tool.pre=PreToolUse tool.post=PostToolUse tool.error=PostToolUseFailure \
         permission.request=PermissionRequest agent.stop=Stop subagent.start=SubagentStart \
         subagent.stop=SubagentStop compact.pre=PreCompact compact.post=PostCompact \
         notification=Notification",
    ),
    (
        "opencode",
        "session.start=session.created session.end=server.instance.disposed \
         prompt.submitted=chat.message tool.pre=tool.execute.before tool.post=tool.execute.after \
         tool.error=message.part.updated permission.request=permission.asked agent.stop=session.idle \
         subagent.start=session.created subagent.stop=session.idle \
         compact.pre=experimental.session.compacting compact.post=session.compacted \
         notification=tui.toast.show file.edited=file.edited model.request=chat.params \
         model.response=experimental.text.complete",
    ),
    (
        "openclaw",
        "session.start=session_start session.end=session_end prompt.submitted=before_agent_run \
         tool.pre=before_tool_call tool.post=after_tool_call tool.error=after_tool_call \
         agent.stop=before_agent_finalize subagent.start=subagent_spawned \
         subagent.stop=subagent_ended compact.pre=before_compaction compact.post=after_compaction \
         model.request=llm_input model.response=llm_output",
    ),
    (
        "qwen-code",
        "session.start=SessionStart session.end=SessionEnd prompt.submitted=UserPromptSubmit \
         tool.pre=PreToolUse tool.post=PostToolUse tool.error=PostToolUseFailure \
         permission.request=PermissionRequest agent.stop=Stop subagent.start=SubagentStart \
         subagent.stop=SubagentStop compact.pre=PreCompact compact.post=PostCompact \
         notification=Notification model.response=MessageDisplay",
    ),
    (
        "droid",
        "session.start=SessionStart session.end=SessionEnd prompt.submitted=UserPromptSubmit \
         tool.pre=PreToolUse tool.post=PostToolUse agent.stop=Stop subagent.stop=SubagentStop \
         compact.pre=PreCompact notification=Notification",
    ),
];

#[test]
fn wired_per_kind_are_the_codecs_primary_rows() {
    for s in specs() {
        let p = &s.provider;
        let mut wired = Vec::new();
        for kind in EventKind::ALL {
            let natives = s.natives_for(kind);
            // The codec's primary rows of the kind (pending secondaries shown), plus folds.
            let expected: Vec<&str> = s
                .codec
                .native_events()
                .iter()
                .filter(|r| r.serves(kind) && kind != EventKind::Other && r.primary)
                .filter(|r| s.why_not_installed(r.name).is_none())
                .map(|r| r.name)
                .collect();
            assert_eq!(natives, expected, "{p} {kind}");
            // One native event per kind, except Cursor's tool gates: its specific `before*`
            // events fire beside `preToolUse` and the binary dedupes them (quirk #2).
            assert!(
                natives.len() <= 1 || (*p == Provider::CURSOR && kind == EventKind::ToolPre),
                "{p} {kind}: one native event per kind ({natives:?})"
            );
            wired.extend(natives.iter().map(|n| format!("{kind}={n}")));
        }
        let before = WIRED.iter().find(|(q, _)| *q == p.as_str()).unwrap().1;
        assert_eq!(
            wired.join(" "),
            before.split_whitespace().collect::<Vec<_>>().join(" "),
            "{p}"
        );
        // A payload-decided second kind rides on a primary row of another kind, and the codec
        // has no event of its own for it.
        for row in s.codec.native_events().iter().filter(|r| r.also.is_some()) {
            let kind = row.also.unwrap_or(EventKind::Other);
            assert!(row.primary && row.kind != kind, "{p} {}", row.name);
            assert!(
                !s.codec.native_events().iter().any(|r| r.kind == kind),
                "{p}: the codec has an event of kind {kind}: wire it instead of {}",
                row.name
            );
        }
    }
}

/// The tool classes the matcher compiler uses are the codec's `ToolTable`.
#[test]
fn matcher_tool_classes_are_the_codecs() {
    for s in specs() {
        let p = &s.provider;
        let table: &ToolTable = s.tools();
        assert_eq!(
            Some(table),
            s.codec.tools(),
            "{p}: the matcher compiler reads the codec's ToolTable"
        );
        for class in s.matcher.no_tool_hooks {
            assert!(
                table.names(*class).is_empty(),
                "{p}: {class} fires no tool hooks but has names"
            );
        }
    }
}

/// The two drifts the review found (`architecture-2026-12.md` item 2), now agreeing.
#[test]
fn the_known_drifts_agree() {
    let claude = spec(&Provider::CLAUDE_CODE);
    let pre_skill = claude.event("PreSkillShellCommand").unwrap();
    assert_eq!((pre_skill.kind, pre_skill.tool_matcher), (EventKind::ToolPre, true));
    assert_eq!(
        claude.natives_for(EventKind::ToolPre),
        ["PreToolUse"],
        "secondary: asked for by name"
    );

    let codex = spec(&Provider::CODEX);
    // StopFailure: a codec row, deliberately not installed with a reason (the real Codex 0.171
    // does not load it), never an "unknown event".
    assert!(codex.codec.row("StopFailure").is_some());
    assert!(codex.event("StopFailure").is_none());
    assert!(codex
        .why_not_installed("StopFailure")
        .is_some_and(|w| w.contains("0.171")));
    assert!(codex.event(agenthooks_codex::native::NOTIFY_EVENT).is_none());
    assert!(codex.natives_for(EventKind::Notification).is_empty());
}
