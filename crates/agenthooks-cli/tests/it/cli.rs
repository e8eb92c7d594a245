//! The `agenthooks` binary: decode, replay, capabilities, quirks, exit statuses.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use agenthooks_testkit::conformance::Suite;
use agenthooks_testkit::fixture::{self, Fixture};
use agenthooks_testkit::fixtures_dir;
use agenthooks_testkit::process::output_of;
use serde_json::Value;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_agenthooks"));
    // Hermetic: only what a test passes (plus PATH for the hooks' shell).
    c.env_clear().env("PATH", std::env::var("PATH").unwrap_or_default());
    c
}

fn run(c: &mut Command) -> Output {
    c.stdin(Stdio::null()).output().expect("agenthooks runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

use agenthooks_testkit::TempDir;

/// One fixture case of a provider with its expected event; when the corpus has no blessed
/// `event.json` yet, the provider's fixtures are copied to `tmp` and blessed there.
fn blessed_case(provider: &str, case: &str, tmp: &Path) -> Fixture {
    let fx = Fixture::load(&fixtures_dir(provider).join(case)).expect("fixture exists");
    if fx.event_path().is_file() {
        return fx;
    }
    let dst = tmp.join(provider).join(case);
    std::fs::create_dir_all(&dst).unwrap();
    for f in ["input.json", "meta.toml"] {
        std::fs::copy(fx.dir.join(f), dst.join(f)).unwrap();
    }
    let codec = agenthooks_cli::codec(provider).unwrap();
    Suite::new(codec, &dst).bless(true).check();
    Fixture::load(&dst).unwrap()
}

fn expected_event(fx: &Fixture) -> Value {
    serde_json::from_str(&std::fs::read_to_string(fx.event_path()).unwrap()).unwrap()
}

#[test]
fn decode_of_a_fixture_equals_its_expected_event() {
    let tmp = TempDir::new("decode");
    for (provider, case) in [
        ("claude-code", "2.1.197/pre_tool_use-deny-json"),
        ("codex", "0.171.0/pre_tool_use-deny-json"),
        ("gemini", "gemini-cli-0.61.0/before_tool-deny-json"),
        ("copilot", "1.0.102/pre_tool_use-deny-json"),
        ("kimi", "2.1.0/pre_tool_use-deny-json"),
    ] {
        let fx = blessed_case(provider, case, &tmp.0);
        // As a hook author would: the payload file, the event and the env the agent gave.
        let mut c = bin();
        c.args(["decode", "--provider", provider, "--event", &fx.meta.native_event]);
        for (k, v) in &fx.meta.env {
            c.arg("--env").arg(format!("{k}={v}"));
        }
        c.arg(fx.dir.join("input.json"));
        let out = run(&mut c);
        assert_eq!(out.status.code(), Some(0), "{provider}: {}", text(&out.stderr));
        let mut got: Value = serde_json::from_slice(&out.stdout).unwrap();
        let raw = got.as_object_mut().unwrap().remove("raw").expect("raw is printed");
        assert_eq!(
            raw,
            serde_json::from_slice::<Value>(&fx.input).unwrap(),
            "{provider}: raw"
        );
        assert_eq!(got, expected_event(&fx), "{provider}: {case}");

        // The same through `--fixture`, byte for byte with `--no-raw`.
        let out = run(bin()
            .args(["decode", "--provider", provider, "--no-raw", "--fixture"])
            .arg(&fx.dir));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            std::fs::read_to_string(fx.event_path()).unwrap(),
            "{provider}: {case}"
        );
    }
}

#[test]
fn decode_reads_stdin() {
    let tmp = TempDir::new("stdin");
    let fx = blessed_case("claude-code", "docs/stop", &tmp.0);
    let mut c = bin();
    c.args(["decode", "--provider", "claude-code", "--no-raw", "-"]);
    for (k, v) in &fx.meta.env {
        c.env(k, v);
    }
    let out = output_of(c.stdout(Stdio::piped()).stderr(Stdio::piped()), &fx.input).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        expected_event(&fx)
    );
}

#[test]
fn every_fixture_decodes_in_process_to_its_expected_event() {
    let mut checked = 0;
    for provider in ["claude-code", "codex", "gemini", "copilot", "kimi"] {
        for fx in fixture::load_all(&fixtures_dir(provider)).unwrap() {
            if !fx.event_path().is_file() {
                continue;
            }
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let dir = fx.dir.display().to_string();
            let code = agenthooks_cli::run(
                [
                    "agenthooks",
                    "decode",
                    "--provider",
                    provider,
                    "--no-raw",
                    "--fixture",
                    &dir,
                ],
                &mut std::io::empty(),
                &mut out,
                &mut err,
            );
            assert_eq!(code, 0, "{}: {}", fx.id(), text(&err));
            assert_eq!(
                text(&out),
                std::fs::read_to_string(fx.event_path()).unwrap(),
                "{}",
                fx.id()
            );
            checked += 1;
        }
    }
    assert!(checked >= 200, "only {checked} blessed fixtures");
}

#[test]
fn decode_errors_name_the_file_and_json_path() {
    let tmp = TempDir::new("decode-err");
    let bad = tmp.0.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"hook_event_name":"PreToolUse","session_id":"s","tool_input":"#,
    )
    .unwrap();
    let out = run(bin().args(["decode", "--provider", "claude-code"]).arg(&bad));
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains(&bad.display().to_string()), "{err}");
    assert!(err.contains("syntax"), "{err}");
    // A field of an unexpected type is tolerated: the event decodes as its kind and the
    // issue is reported with its JSON path.
    std::fs::write(&bad, r#"{"hook_event_name":"PreToolUse","session_id":"s","transcript_path":"t","cwd":"/","tool_name":7,"tool_input":{},"tool_use_id":"x"}"#).unwrap();
    let out = run(bin().args(["decode", "--provider", "claude-code"]).arg(&bad));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["kind"], "tool.pre");
    assert_eq!(v["projection_issues"][0]["path"], "tool_name", "{v}");

    let out = run(bin().args(["decode", "--provider", "claude-code", "/nonexistent/payload.json"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/payload.json"));
    let out = run(bin().args(["decode", "--provider", "opencode-9000", "x.json"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown provider `opencode-9000`"));
    let out = run(bin().args(["decode"]));
    assert_eq!(out.status.code(), Some(2), "clap usage error");
}

const GUARD: &str = r#"#!/usr/bin/env bash
# A PreToolUse guard written in bash, in Claude's dialect.
payload=$(cat)
if [[ "$payload" == *'rm -rf'* ]]; then
  printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf here"}}'
elif [[ "$payload" == *'sudo'* ]]; then
  echo "sudo? really?" >&2
  exit 2
elif [[ "$payload" == *'curl'* ]]; then
  echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse",'
else
  printf '{}'
fi
"#;

fn payload(dir: &Path, command: &str) -> PathBuf {
    let p = dir.join(format!("payload-{}.json", command.len()));
    let body = serde_json::json!({
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": dir.display().to_string(),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1",
    });
    std::fs::write(&p, body.to_string()).unwrap();
    p
}

#[test]
fn replay_drives_a_bash_hook() {
    let tmp = TempDir::new("replay");
    let hook = tmp.0.join("guard.sh");
    std::fs::write(&hook, GUARD).unwrap();
    let replay = |cmd: &str, json: bool| {
        let mut c = bin();
        c.args([
            "replay",
            "--provider",
            "claude-code",
            "--event",
            "PreToolUse",
            "--payload",
        ])
        .arg(payload(&tmp.0, cmd));
        if json {
            c.arg("--json");
        }
        c.arg("--").arg("bash").arg(&hook);
        run(&mut c)
    };

    let out = replay("rm -rf /", false);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let line = text(&out.stdout);
    assert!(
        line.starts_with("claude-code PreToolUse: denied: \"no rm -rf here\""),
        "{line}"
    );

    let out = replay("rm -rf /", true);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"]["effect"], "denied");
    assert_eq!(v["verdict"]["reason"], "no rm -rf here");
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["argv"][0], "sh");
    assert_eq!(v["cwd"], tmp.0.display().to_string());

    let out = replay("sudo ls", true);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["verdict"]["effect"].as_str(), v["verdict"]["reason"].as_str()),
        (Some("denied"), Some("sudo? really?"))
    );

    let out = replay("ls", false);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("no effect"), "{}", text(&out.stdout));

    // Broken JSON on a stdout Claude parses: the hook misbehaved.
    let out = replay("curl example.com", true);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["verdict"]["problems"][0].as_str().unwrap().contains("does not parse"),
        "{v}"
    );
}

#[test]
fn replay_applies_each_agents_rules() {
    let tmp = TempDir::new("replay-rules");
    let p = tmp.0.join("p.json");
    std::fs::write(&p, r#"{"session_id":"s","cwd":"/","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#).unwrap();
    // `flags` go after the event: --fail-closed, --timeout.
    let replay_with = |provider: &str, event: &str, flags: &[&str], cmd: &str| {
        run(bin()
            .args(["replay", "--provider", provider, "--event", event])
            .args(flags)
            .args(["--json", "--payload"])
            .arg(&p)
            .arg("--")
            .arg(cmd))
    };
    let replay = |provider: &str, event: &str, cmd: &str| replay_with(provider, event, &[], cmd);
    // Gemini: plain text on stderr with exit 3 is a deny.
    let out = replay("gemini", "BeforeTool", "echo nope >&2; exit 3");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"]["effect"], "denied");
    assert_eq!(out.status.code(), Some(1), "exit 3 is still a misbehaving hook");
    // Codex: a bare allow fails the run.
    let out = replay(
        "codex",
        "PreToolUse",
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"#,
    );
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"]["effect"], "proceed");
    // Cursor: empty stdout is a failure; fail-closed turns it into a deny.
    let out = replay("cursor", "preToolUse", "true");
    assert_eq!(out.status.code(), Some(1));
    let out = replay_with("cursor", "preToolUse", &["--fail-closed"], "true");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"]["effect"], "denied");
    // Timeouts in the agent's unit (Gemini: milliseconds).
    let out = replay_with("gemini", "BeforeTool", &["--timeout", "200"], "sleep 3");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["timed_out"].as_bool(), v["timeout_ms"].as_u64()),
        (Some(true), Some(200))
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn replay_usage_errors() {
    let tmp = TempDir::new("replay-usage");
    let p = tmp.0.join("p.json");
    std::fs::write(&p, "{\"a\":\n  oops}").unwrap();
    // `replay --provider <p> --event <e> --payload <file> [<hook command>]`.
    let replay = |provider: &str, event: &str, hook: &[&str]| {
        run(bin()
            .args(["replay", "--provider", provider, "--event", event, "--payload"])
            .arg(&p)
            .args(hook))
    };
    let out = replay("claude-code", "PreToolUse", &["--", "true"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains(&p.display().to_string()) && err.contains("line 2"),
        "{err}"
    );
    let out = replay("claude-code", "Nope", &["--", "true"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`Nope` is not a claude-code event"));
    let out = replay("claude-code", "PreToolUse", &[]);
    assert_eq!(out.status.code(), Some(2), "the hook command is required");
    let out = replay("opencode", "x", &["--", "true"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn capabilities_and_quirks() {
    let out = run(bin().args(["capabilities", "--provider", "codex", "--json"]));
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let pre = v["codex"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["event"] == "PreToolUse")
        .unwrap();
    let caps: Vec<&str> = pre["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(caps.contains(&"deny") && !caps.contains(&"ask"), "{caps:?}");
    assert_eq!(pre["kind"], "tool.pre");

    let out = run(bin().args(["capabilities"]));
    let t = text(&out.stdout);
    for p in ["claude-code\n", "codex\n", "gemini\n", "copilot\n", "kimi\n"] {
        assert!(t.contains(p), "{t}");
    }
    // The backfilled prompt row: no capabilities on any agent.
    assert_eq!(
        t.matches("(backfilled: reporting only, never gates)").count(),
        t.lines().filter(|l| !l.starts_with(' ')).count(),
        "{t}"
    );

    let out = run(bin().args(["quirks", "--json"]));
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<u64> = v.as_array().unwrap().iter().filter_map(|q| q["id"].as_u64()).collect();
    assert!(
        ids.contains(&8) && ids.contains(&11) && ids.windows(2).all(|w| w[0] < w[1]),
        "{ids:?}"
    );
    let out = run(bin().args(["quirks", "--provider", "gemini"]));
    let t = text(&out.stdout);
    assert!(t.contains("#11 [gemini]") && !t.contains("#8 [codex]"), "{t}");

    let out = run(bin().args(["--help"]));
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("replay"));
}

#[test]
fn agreement_command() {
    let out = run(bin().args(["agreement", "--provider", "kimi", "--verbose"]));
    let t = text(&out.stdout);
    assert!(t.contains("✓ kimi PreToolUse [deny] → denied"), "{t}");
    assert!(t.contains("kimi: "), "{t}");
    assert_eq!(out.status.code(), Some(0), "{t}");
}

#[test]
fn transcript_prints_typed_records_as_json_lines() {
    let file = fixtures_dir("gemini").join("0.24.0/transcript.jsonl");
    let o = run(bin().args(["transcript", "--provider", "gemini"]).arg(&file));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let lines: Vec<Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Gemini's JSON document: the header, then its three messages.
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[1]["items"][0]["item"], "user_prompt");
    assert_eq!(
        lines[1]["items"][0]["text"],
        "Create marker.txt by running: echo hi > marker.txt"
    );
    assert_eq!(lines[2]["items"][0]["item"], "tool_call");
    assert!(lines[0].get("raw").is_none());

    // From a record's offset, with raw lines: the rest of the file, line for line.
    let file = fixtures_dir("codex").join("0.146.1/transcript.jsonl");
    let all = text(&run(bin().args(["transcript", "--provider", "codex"]).arg(&file)).stdout);
    let third: Value = serde_json::from_str(all.lines().nth(2).unwrap()).unwrap();
    let offset = third["offset"].as_u64().unwrap().to_string();
    let o = run(bin()
        .args(["transcript", "--provider", "codex", "--raw", "--from", &offset])
        .arg(&file));
    let rest: Vec<Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let source = std::fs::read_to_string(&file).unwrap();
    assert_eq!(rest.len(), source.lines().count() - 2);
    assert_eq!(rest[0]["raw"], source.lines().nth(2).unwrap());

    let o = run(bin().args(["transcript", "--provider", "nope"]).arg(&file));
    assert_eq!(o.status.code(), Some(2));
    let o = run(bin().args(["transcript", "--provider", "codex", "/nonexistent/t.jsonl"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("/nonexistent/t.jsonl"));
}

/// `agenthooks mcp` lists the servers of the fixture project (project over user), one JSON
/// line each; an unknown provider is a usage error.
#[test]
fn mcp_lists_the_servers_an_agent_would_load() {
    let dir = fixtures_dir("claude-code").join("mcp");
    let o = run(bin()
        .args(["mcp", "--provider", "claude-code", "--root"])
        .arg(dir.join("project"))
        .arg("--home")
        .arg(dir.join("home")));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let lines: Vec<Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let names: Vec<&str> = lines.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["github", "user_only", "my_server", "legacy"]);
    assert_eq!(lines[0]["transport"], "http");
    assert_eq!(lines[0]["url"], "https://api.githubcopilot.com/mcp/");
    assert!(lines[0]["source"].as_str().unwrap().ends_with("project/.mcp.json"));
    assert!(lines[1]["source"].as_str().unwrap().ends_with("home/.claude.json"));
    assert_eq!(lines[2]["command"], "/opt/tools/my-server");
    assert_eq!(lines[2]["args"], serde_json::json!(["--root", "${PROJECT_ROOT}"]));
    let o = run(bin().args(["mcp", "--provider", "nope", "--root", "."]));
    assert_eq!(o.status.code(), Some(2));
}

/// Every `--provider` help names every provider of the facade's registry (install's used to
/// omit OpenClaw, decode's OpenCode and OpenClaw), and every command that takes a provider
/// accepts each of them.
#[test]
fn provider_help_and_commands_follow_the_registry() {
    for cmd in [
        "decode",
        "replay",
        "capabilities",
        "quirks",
        "agreement",
        "transcript",
        "mcp",
        "install",
        "uninstall",
        "diff",
        "render",
        "preflight",
    ] {
        let out = run(bin().args([cmd, "--help"]));
        assert_eq!(out.status.code(), Some(0), "{cmd}: {}", text(&out.stderr));
        let help = text(&out.stdout);
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with("--provider"))
            .unwrap_or_else(|| panic!("{cmd}: no --provider line in\n{help}"));
        let listed: Vec<&str> = agenthooks::PROVIDERS.iter().map(|e| e.provider).collect();
        assert!(line.contains(&format!("({})", listed.join(", "))), "{cmd}: {line}");
    }
    for e in agenthooks::PROVIDERS {
        let out = run(bin().args(["capabilities", "--json", "--provider", e.provider]));
        assert_eq!(out.status.code(), Some(0), "{}: {}", e.provider, text(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert!(v[e.provider].as_array().is_some_and(|rows| !rows.is_empty()), "{v}");
        let out = run(bin().args(["quirks", "--provider", e.provider]));
        assert_eq!(out.status.code(), Some(0), "{}: {}", e.provider, text(&out.stderr));
    }
}
