//! Install ⇔ codec agreement, for every provider.
//!
//! Install reads its event and tool facts from the codecs, so most of the agreement holds by
//! construction; these tests pin what construction cannot: that every native event a codec
//! knows is installable or deliberately not (with the reason), that the temporary
//! `PENDING_CODEC_FACTS` overrides are still needed (each fails once the codec carries it),
//! that the events wired per kind are the codec's primary rows (and did not change in the
//! move), and that the tool classes the matcher compiler uses are the codec's.
//!
//! `cargo test -p agenthooks-install agreement -- --nocapture` prints the table.

#![allow(clippy::print_stdout)] // the agreement table, for `--nocapture`

use agenthooks_core::kit::ToolTable;
use agenthooks_core::{CanonicalTool, EventKind, Provider};

use super::{all, TargetSpec};

/// The specs, in the stable order.
fn specs() -> Vec<&'static TargetSpec> {
    all().into_iter().map(super::TargetModule::spec).collect()
}

fn spec(p: &Provider) -> &'static TargetSpec {
    specs().into_iter().find(|s| s.provider == *p).unwrap()
}

/// What a codec in this tree classifies a tool name as, for codecs that do not return a
/// [`ToolTable`] yet (temporary, with the `tools` entries of `PENDING_CODEC_FACTS`).
fn codec_classify(p: &Provider, name: &str) -> Option<CanonicalTool> {
    if *p == Provider::CODEX {
        Some(agenthooks_codex::tools::canonical(name))
    } else if *p == Provider::GEMINI {
        Some(agenthooks_gemini::tools::classify(name, false))
    } else if *p == Provider::COPILOT {
        Some(agenthooks_copilot::tools::classify(name))
    } else if *p == Provider::KIMI {
        Some(agenthooks_kimi::tools::classify(name))
    } else {
        None
    }
}

/// The full name list a codec without a [`ToolTable`] classifies by, when it has one, minus
/// names install's hooks never see (Copilot's Claude-format plugin names: install writes
/// native-format hooks, whose payloads carry the native names).
fn codec_name_list(p: &Provider) -> Option<Vec<(&'static str, CanonicalTool)>> {
    let list: &[(&'static str, CanonicalTool)] = if *p == Provider::GEMINI {
        agenthooks_gemini::tools::BUILTIN_TOOLS
    } else if *p == Provider::COPILOT {
        agenthooks_copilot::tools::TOOL_CLASSES
    } else if *p == Provider::KIMI {
        agenthooks_kimi::tools::TOOL_CLASSES
    } else {
        return None;
    };
    let claude_format = |n: &str| *p == Provider::COPILOT && n.starts_with(|c: char| c.is_ascii_uppercase());
    Some(
        list.iter()
            .copied()
            .filter(|(n, c)| *c != CanonicalTool::Other && !claude_format(n))
            .collect(),
    )
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
                    // The effective row is the codec's: only pending facts differ.
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

/// Each `PENDING_CODEC_FACTS` entry names a codec row that does not carry the fact yet: once a
/// codec branch lands with it, this fails and names the entry to remove.
#[test]
fn pending_codec_facts_are_still_pending() {
    for s in specs() {
        let p = &s.provider;
        let row = |n: &str| {
            s.codec
                .row(n)
                .unwrap_or_else(|| panic!("{p}: PENDING_CODEC_FACTS names {n}, which the codec does not know"))
        };
        for n in s.pending.secondary {
            assert!(
                row(n).primary,
                "{p}: the codec marks {n} secondary: remove it from PENDING_CODEC_FACTS"
            );
            println!("{p} {n}: pending .secondary()");
        }
        for n in s.pending.may_async {
            assert!(
                !row(n).may_async,
                "{p}: the codec marks {n} may_async: remove it from PENDING_CODEC_FACTS"
            );
            println!("{p} {n}: pending .may_async()");
        }
        for (n, secs) in s.pending.clamp_secs {
            let clamp = row(n).timeout_clamp;
            assert!(
                clamp.is_none(),
                "{p}: the codec clamps {n} to {clamp:?} (pending says {secs} s): remove it from PENDING_CODEC_FACTS"
            );
            println!("{p} {n}: pending .clamp_secs({secs})");
        }
        if s.pending.tools.is_some() {
            assert!(
                s.codec.tools().is_none(),
                "{p}: the codec has a ToolTable: remove `tools` from PENDING_CODEC_FACTS"
            );
            println!("{p}: pending Codec::tools");
        }
    }
}

/// The events install wires for each kind, before install read the codecs (the old `KINDS`
/// tables): the derivation from the codec rows changes none of them.
const WIRED: &[(&str, &str)] = &[
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
];

#[test]
fn wired_per_kind_are_the_codecs_primary_rows() {
    for s in specs() {
        let p = &s.provider;
        let mut wired = Vec::new();
        for kind in EventKind::ALL {
            let natives = s.natives_for(kind);
            // The codec's primary rows of the kind (pending secondaries shown), plus folds.
            let mut expected: Vec<&str> = s
                .codec
                .native_events()
                .iter()
                .filter(|r| r.kind == kind && kind != EventKind::Other && r.primary)
                .filter(|r| !s.pending.secondary.contains(&r.name))
                .filter(|r| s.why_not_installed(r.name).is_none())
                .map(|r| r.name)
                .collect();
            expected.extend(s.folded.iter().filter(|(k, _)| *k == kind).map(|(_, n)| *n));
            assert_eq!(natives, expected, "{p} {kind}");
            assert!(
                natives.len() <= 1,
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
        // A fold rides on a primary row of another kind, and the codec has no event of its own
        // for the folded kind.
        for (kind, native) in s.folded {
            let row = s
                .codec
                .row(native)
                .unwrap_or_else(|| panic!("{p}: folded onto unknown {native}"));
            assert!(row.primary && row.kind != *kind, "{p} {native}");
            assert!(
                !s.codec.native_events().iter().any(|r| r.kind == *kind),
                "{p}: the codec has an event of kind {kind}: wire it instead of folding onto {native}"
            );
        }
    }
}

/// The tool classes the matcher compiler uses are the codec's: its `ToolTable` where it has
/// one, else a pending table every name of which the codec classifies the same way.
#[test]
fn matcher_tool_classes_are_the_codecs() {
    for s in specs() {
        let p = &s.provider;
        let table: &ToolTable = s.tools();
        if let Some(codec) = s.codec.tools() {
            assert!(s.pending.tools.is_none(), "{p}");
            assert_eq!(table, codec, "{p}: the matcher compiler reads the codec's ToolTable");
        } else {
            for (class, names) in table.classes {
                for n in *names {
                    assert_eq!(codec_classify(p, n), Some(*class), "{p}: {n}");
                }
            }
            if let Some(mcp) = table.mcp {
                let name = format!("{}srv{}tool", mcp.prefix, mcp.separator);
                assert_eq!(codec_classify(p, &name), Some(CanonicalTool::Mcp), "{p}: {name}");
            }
            if let Some(list) = codec_name_list(p) {
                for (n, class) in list {
                    assert!(
                        table.names(class).contains(&n),
                        "{p}: the codec classifies {n} as {class}; the matcher table does not list it"
                    );
                }
            }
        }
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
    let stop_failure = codex.event("StopFailure").unwrap();
    assert_eq!(
        (stop_failure.kind, stop_failure.tool_matcher),
        (EventKind::Other, false)
    );
    assert!(codex.event(agenthooks_codex::codec::NOTIFY_EVENT).is_none());
    assert!(codex.natives_for(EventKind::Notification).is_empty());
}
