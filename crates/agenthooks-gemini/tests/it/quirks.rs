//! Every quirk this codec handles (core #11–#15, #20 and Gemini's 301–311) has a case here that
//! pins the mitigation on fixtures, read back through the testkit's Gemini fake agent where the
//! agent's side matters.

use std::collections::HashMap;
use std::time::Duration;

use agenthooks_core::decision::{
    ask_user, block_prompt, continue_with, deny, finish, replace_output, rewrite_input, ContextDecision,
};
use agenthooks_core::{
    CapSet, Capability, Codec, Confidence, Event, EventKind, EventTarget, FailMode, Outcome, Variant, WireResponse,
};
use agenthooks_gemini::quirks::{CORE_QUIRKS, QUIRKS};
use agenthooks_gemini::{mcp, timeout_config_value, CODEC};
use agenthooks_testkit::fake::{self, Effect, HookOutput, TimeoutUnit, Verdict};
use serde_json::json;

use agenthooks_testkit::fixture::Fixture;

use crate::CORPUS;

/// What the real Gemini CLI makes of a response (the testkit's fake agent, written from
/// Gemini's own rules independently of this encoder).
fn gemini_reads(c: &Fixture, r: &WireResponse) -> Verdict {
    fake::interpret("gemini", &c.meta.native_event, &c.input, &HookOutput::from(r)).expect("gemini fake agent")
}

fn encode(c: &Fixture, o: impl Into<Outcome>) -> (Event, WireResponse) {
    let ev = CORPUS.decode(c);
    let r = CODEC.encode(&ev, &o.into()).expect("encodes");
    (ev, r)
}

/// The effect Gemini gives the encoding of `o` for the fixture `c`.
fn effect(c: &Fixture, o: impl Into<Outcome>) -> Effect {
    let (_, r) = encode(c, o);
    gemini_reads(c, &r).effect
}

/// Gemini's reading of a denial with this reason.
fn denied(reason: &str) -> Effect {
    Effect::Denied { reason: reason.into() }
}

fn caps(native: &str) -> CapSet {
    CODEC.capabilities(&Variant::default(), native)
}

#[allow(
    clippy::too_many_lines,
    reason = "one arm per quirk id: the table reads best as one match"
)]
fn check(id: u16) {
    let pre = CORPUS.case("gemini-cli-0.61.0/before_tool-allow");
    let post = CORPUS.case("gemini-cli-0.61.0/after_tool-allow");
    match id {
        11 => {
            // Explicit JSON on stdout for "no decision", exit 0: Gemini never falls back to stderr.
            for c in CORPUS.cases() {
                let ev = CORPUS.decode(c);
                let r = CODEC.encode(&ev, &Outcome::neutral_for(ev.kind())).expect("encodes");
                assert_eq!(
                    (r.stdout.as_slice(), r.exit_code, r.stderr.is_empty()),
                    (&b"{}"[..], 0, true),
                    "{}",
                    Fixture::short_id(c)
                );
                assert!(gemini_reads(c, &r).is_no_op(), "{}", c.id());
            }
        }
        12 => {
            let mut m = serde_json::Map::new();
            m.insert("command".into(), json!("ls"));
            let e = CODEC
                .encode(&CORPUS.decode(pre), &rewrite_input(m).no_decision().into())
                .expect_err("lossy");
            assert_eq!(e.category(), agenthooks_core::EncodeCategory::LossyUpdate);
            // A rewrite that keeps every key merges to exactly what the hook asked for.
            let mut m = CORPUS.decode(pre).tool().expect("tool").input().clone();
            m.insert("command".into(), json!("echo safe"));
            let (_, r) = encode(pre, rewrite_input(m.clone()).ask_user("ok?"));
            assert_eq!(gemini_reads(pre, &r).input_rewritten, Some(m));
        }
        13 => {
            let (_, r) = encode(post, agenthooks_core::decision::observed().with_context("<b>bold</b>"));
            assert!(r.stdout_str().contains("\"additionalContext\":\"<b>bold</b>\""));
            assert_eq!(gemini_reads(post, &r).context, ["&lt;b&gt;bold&lt;/b&gt;"]);
        }
        14 => {
            assert_eq!(CODEC.default_timeout(), Duration::from_secs(60));
            assert_eq!(timeout_config_value(Duration::from_secs(30)), 30_000);
            let agent = fake::agent("gemini").expect("fake");
            assert_eq!(agent.timeout_unit(), TimeoutUnit::Milliseconds);
            assert_eq!(agent.timeout("BeforeTool", None), CODEC.default_timeout());
        }
        15 | 309 => {
            let ev = CORPUS.decode(CORPUS.case("docs/after_tool-mcp-stdio"));
            let m = ev.tool().and_then(|t| t.mcp.clone()).expect("mcp");
            assert_eq!((m.server.as_str(), m.tool.as_str()), ("db_tools", "run_query"));
            let guess = mcp::parse("mcp_db_tools_run_query").expect("parses");
            assert_eq!((guess.server.as_str(), guess.tool.as_str()), ("db", "tools_run_query"));
            let known = mcp::parse_with_servers("mcp_db_tools_run_query", ["db_tools"]).expect("parses");
            assert_eq!(known.server, "db_tools");
        }
        20 => {
            assert!(CORPUS
                .cases()
                .iter()
                .all(|c| c.meta.env.contains_key("CLAUDE_PROJECT_DIR")));
            let claude_only: HashMap<String, String> = [("CLAUDE_PROJECT_DIR".to_owned(), "/p".to_owned())].into();
            assert_eq!(CODEC.sniff_env(&claude_only), None);
            assert_eq!(CODEC.sniff_env(&pre.env_map()), Some(Confidence::Inferred));
        }
        301 => {
            let (_, r) = encode(post, replace_output("[redacted]"));
            assert_eq!(r.stdout_str(), r#"{"decision":"deny","reason":"[redacted]"}"#);
            assert_eq!(
                gemini_reads(post, &r).effect,
                Effect::OutputReplaced {
                    output: "Tool result blocked: [redacted]".into()
                }
            );
            assert!(!caps("AfterTool").contains(Capability::FlagOutput));
        }
        302 => {
            let two: Vec<_> = CORPUS
                .cases()
                .iter()
                .filter(|c| c.case.starts_with("after_model-allow"))
                .collect();
            assert!(two.len() >= 2, "one fixture per captured chunk shape");
            for c in two {
                assert_eq!(CORPUS.decode(c).kind(), EventKind::ModelResponse);
            }
            assert_eq!(CODEC.row("AfterModel").map(|r| r.tool_matcher), Some(false));
        }
        303 => {
            let (a, b) = (CORPUS.decode(pre), CORPUS.decode(post));
            let (a, b) = (a.tool().expect("tool"), b.tool().expect("tool"));
            assert!(a.synthesized && a.id == b.id);
        }
        304 => {
            assert_eq!(
                effect(pre, ask_user("Run it?")),
                Effect::Asked {
                    reason: "Run it?".into()
                }
            );
        }
        305 => {
            let c = CORPUS.case("gemini-cli-0.61.0/after_agent-allow");
            assert_eq!(
                effect(c, continue_with("Now run the tests.")),
                Effect::Continued {
                    instruction: "Now run the tests.".into()
                }
            );
            let Event::Stop(s) = CORPUS.decode(CORPUS.case("docs/after_agent-stop_hook_active")) else {
                panic!("not a stop")
            };
            assert!(s.previously_continued);
            let r = CODEC.failure_response(
                &EventTarget::new(Some("AfterAgent".into()), None),
                FailMode::Closed,
                "x",
            );
            assert_eq!(r.stdout, b"{}");
            let (_, r) = encode(c, finish());
            assert!(gemini_reads(c, &r).is_no_op());
        }
        306 => {
            let r = CODEC.failure_response(
                &EventTarget::new(Some("BeforeTool".into()), None),
                FailMode::Closed,
                "hook crashed",
            );
            assert_eq!((r.exit_code, r.stderr.is_empty()), (0, true));
            assert_eq!(gemini_reads(pre, &r).effect, denied("hook crashed"));
            let (_, r) = encode(pre, deny("no"));
            assert_eq!(r.exit_code, 0);
        }
        307 => {
            for n in ["SessionEnd", "PreCompress"] {
                assert_eq!(caps(n), CapSet::of(&[Capability::SystemMessage]), "{n}");
                let r = CODEC.failure_response(&EventTarget::new(Some(n.into()), None), FailMode::Closed, "x");
                assert_eq!(r.stdout, b"{}");
            }
        }
        308 => {
            for (f, n) in [
                ("gemini-cli-0.61.0/session_start-allow", "SessionStart"),
                ("docs/before_agent-markup", "BeforeAgent"),
                ("gemini-cli-0.61.0/after_tool-allow", "AfterTool"),
            ] {
                let c = CORPUS.case(f);
                let ev = CORPUS.decode(c);
                let mut o = Outcome::neutral_for(ev.kind());
                if let Outcome::Context(d) = &o {
                    o = d.clone().with_context("ctx").into();
                } else if let Outcome::Prompt(d) = &o {
                    o = d.clone().with_context("ctx").into();
                } else if let Outcome::ToolPost(d) = &o {
                    o = d.clone().with_context("ctx").into();
                }
                let r = CODEC.encode(&ev, &o).expect("encodes");
                assert_eq!(gemini_reads(c, &r).context, ["ctx"], "{n}");
            }
            assert!(!caps("BeforeTool").contains(Capability::AddContext));
            assert!(!caps("AfterAgent").contains(Capability::AddContext));
        }
        310 => {
            let c = CORPUS.case("gemini-cli-0.61.0/before_agent-allow");
            assert_eq!(effect(c, block_prompt("no secrets")), denied("no secrets"));
            let (_, r) = encode(c, agenthooks_core::decision::accept_prompt().stop_agent("quota"));
            assert_eq!(gemini_reads(c, &r).agent_stopped.as_deref(), Some("quota"));
        }
        311 => {
            let ev = CORPUS.decode(CORPUS.case("gemini-cli-0.61.0/session_start-allow"));
            assert_eq!(ev.kind(), EventKind::SessionStart);
            let (_, r) = encode(
                CORPUS.case("gemini-cli-0.61.0/session_start-allow"),
                ContextDecision::none(),
            );
            assert_eq!(r.stdout, b"{}");
        }
        other => panic!("quirk #{other} has no case"),
    }
}

#[test]
fn every_quirk_has_a_case() {
    let ids: Vec<u16> = CORE_QUIRKS.iter().copied().chain(QUIRKS.iter().map(|q| q.id)).collect();
    assert!(ids.len() >= 17);
    for id in ids {
        check(id);
    }
}

#[test]
fn registry_includes_gemini_quirks() {
    let all = agenthooks_core::quirks::registry([&CODEC as &dyn Codec]);
    for q in QUIRKS {
        assert!(all.iter().any(|r| r.id == q.id), "#{}", q.id);
    }
    for id in CORE_QUIRKS {
        assert!(all.iter().any(|r| r.id == *id && r.affects("gemini")), "#{id}");
    }
}
