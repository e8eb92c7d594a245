//! Undetectable providers, flag/payload mismatches for every pair of stdin providers, unknown
//! and repeated flags, and providers this build lacks.

use std::path::PathBuf;

use agenthooks::prelude::*;
use agenthooks::runtime::{parse_args, Command, ProviderHint, RunOptions, Runner, UsageError};
use agenthooks::WireResponse;
use agenthooks_testkit::fake::{self, Effect, HookOutput, Verdict};

/// The stdin providers, each with its pre-tool fixture (the payload its agent sends).
const STDIN: &[(&str, &str)] = &[
    ("claude-code", "claude-code/docs/pre_tool_use"),
    ("codex", "codex/docs/pre_tool_use"),
    ("gemini", "gemini/docs/before_tool-write_file"),
    ("copilot", "copilot/docs/pre_tool_use"),
    ("kimi", "kimi/docs/pre_tool_use"),
    ("cursor", "cursor/docs/pre_tool_use"),
];

struct Case {
    native: String,
    payload: Vec<u8>,
    env: Vec<(String, String)>,
}

fn fixture(dir: &str) -> Case {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(dir);
    let meta = std::fs::read_to_string(root.join("meta.toml")).unwrap();
    let native = meta
        .lines()
        .find_map(|l| l.strip_prefix("native_event = "))
        .unwrap()
        .trim_matches('"')
        .to_owned();
    let mut env = Vec::new();
    let mut in_env = false;
    for l in meta.lines() {
        if l.trim() == "[env]" {
            in_env = true;
        } else if in_env {
            if let Some((k, v)) = l.split_once(" = ") {
                env.push((k.trim().to_owned(), v.trim().trim_matches('"').to_owned()));
            }
        }
    }
    Case {
        native,
        payload: std::fs::read(root.join("input.json")).unwrap(),
        env,
    }
}

fn native_of(provider: &str) -> String {
    let dir = STDIN.iter().find(|(p, _)| *p == provider).unwrap().1;
    fixture(dir).native
}

fn deny_all(_: &Context, _: &ToolPreEvent) -> ToolPreDecision {
    deny("blocked by the guard")
}

fn deny_permission(_: &Context, _: &agenthooks::core::PermissionEvent) -> ToolPreDecision {
    deny("blocked by the guard")
}

fn runner(router: Router, tag: &str) -> Runner {
    let dir = std::env::temp_dir().join(format!("agenthooks-facade-{}-{tag}", std::process::id()));
    agenthooks::runner(router).with_options(RunOptions::default().with_state_dir(dir))
}

fn argv(words: &[&str]) -> Command {
    let v: Vec<String> = ["hook", "agenthooks"]
        .iter()
        .chain(words)
        .map(|s| (*s).to_owned())
        .collect();
    parse_args(&v).unwrap().unwrap()
}

fn read_as(provider: &str, case: &Case, r: &WireResponse) -> Verdict {
    fake::interpret(provider, &case.native, &case.payload, &HookOutput::from(r)).unwrap()
}

#[test]
fn an_undetectable_provider_gets_no_opinion_in_every_dialect() {
    for router in [Router::new(), Router::new().on_tool_pre(deny_all)] {
        let r = runner(router, "undetectable")
            .respond(
                &argv(&["run"]),
                br#"{"who":"knows","what":1}"#,
                &Vec::<(String, String)>::new(),
            )
            .unwrap();
        assert_eq!((r.stdout.as_slice(), r.exit_code), (&b"{}"[..], 0));
        for (provider, dir) in STDIN {
            let case = fixture(dir);
            let v = read_as(provider, &case, &r);
            assert!(v.is_no_op() && !v.misbehaved(), "{provider} reads {{}} as: {v}");
        }
    }
}

#[test]
fn a_flag_and_payload_mismatch_is_answered_in_the_invoking_agents_dialect() {
    let mut failures = Vec::new();
    for (flag, _) in STDIN {
        for (real, dir) in STDIN.iter().filter(|(p, _)| p != flag) {
            let case = fixture(dir);
            // the invoking agent runs the flagged agent's generated command line
            let flagged_native = native_of(flag);
            let cmd = argv(&[
                "run",
                &format!("--provider={flag}"),
                &format!("--event={flagged_native}"),
            ]);
            let tag = format!("mismatch-{flag}-{real}");

            // a deny reaches the invoking agent as a deny, in a form it parses
            let router = Router::new().on_tool_pre(deny_all).on_permission(deny_permission);
            let r = runner(router, &tag).respond(&cmd, &case.payload, &case.env).unwrap();
            let v = read_as(real, &case, &r);
            let intended = matches!(v.effect, Effect::Denied { .. });
            if v.misbehaved() || !intended || r.exit_code != 0 {
                failures.push(format!("deny, --provider={flag}, {real} payload: {v} ({r:?})"));
            }

            // no opinion is no opinion for both agents
            let r = runner(Router::new(), &tag)
                .respond(&cmd, &case.payload, &case.env)
                .unwrap();
            let v = read_as(real, &case, &r);
            if v.misbehaved() || !v.is_no_op() {
                failures.push(format!("no decision, --provider={flag}, {real} payload: {v} ({r:?})"));
            }
            let flagged_case = fixture(STDIN.iter().find(|(p, _)| p == flag).unwrap().1);
            let v = read_as(flag, &flagged_case, &r);
            if v.misbehaved() || !v.is_no_op() {
                failures.push(format!(
                    "no decision read by {flag} (flagged), {real} payload: {v} ({r:?})"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn unknown_and_repeated_flags_do_not_fail_the_hook() {
    let case = fixture("claude-code/docs/pre_tool_use");
    let cmd = argv(&[
        "run",
        "--provider=gemini",
        "--hook-id=7",
        "--event=PreToolUse",
        "--provider=claude-code",
        "--future-flag",
    ]);
    assert_eq!(cmd.ignored, ["--hook-id=7", "--future-flag"]);
    assert_eq!(cmd.repeated, ["--provider"]);
    let r = runner(Router::new().on_tool_pre(deny_all), "flags")
        .respond(&cmd, &case.payload, &case.env)
        .unwrap();
    let v = read_as("claude-code", &case, &r);
    assert_eq!(
        v.effect,
        Effect::Denied {
            reason: "blocked by the guard".into()
        },
        "{v}"
    );
    assert!(!v.misbehaved(), "{v}");
}

#[test]
fn a_missing_provider_names_a_feature_only_when_it_is_off() {
    let case = fixture("claude-code/docs/pre_tool_use");
    let r = runner(Router::new(), "missing");
    let err = |p: &str| {
        r.respond(&argv(&["run", &format!("--provider={p}")]), &case.payload, &case.env)
            .unwrap_err()
    };
    let e = err("nope");
    assert!(
        matches!(
            &e,
            UsageError::UnsupportedProvider {
                hint: ProviderHint::Unknown,
                ..
            }
        ),
        "{e:?}"
    );
    // every provider is compiled into the default build
    for (p, _) in STDIN {
        assert_eq!(agenthooks::provider_hint(p), ProviderHint::Unknown);
        assert!(agenthooks::PROVIDERS.iter().any(|e| e.provider == *p && e.has_codec()));
    }
}
