//! Scenarios: one headless agent turn each, and the assertions on what happened.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use agenthooks::core::codec::EventTarget;
use agenthooks::NativeName;
use serde_json::Value;

use crate::agents::{self, AgentId, AgentSpec, Sandbox, Toolchain};
use crate::hook::{self, HookRecord, Mode};
use crate::model::{FakeModel, RecordedRequest, Script, Turn};
use crate::run::{output_with_timeout, ProcOutput};

pub use crate::check::Check;

/// The hard timeout of one agent run.
pub const AGENT_TIMEOUT: Duration = Duration::from_secs(180);
/// How long a fake model server lives at most.
pub const SERVER_LIFETIME: Duration = Duration::from_secs(300);

/// One scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Scenario {
    /// No decision anywhere: the agent's own flow runs; every event arrives and decodes.
    NoDecision,
    /// Deny on tool.pre: the tool does not run and the model sees the reason.
    Deny,
    /// Context on session start and prompt submission reaches the model.
    Context,
    /// Continue-with on stop: exactly one more model turn (the continuation cap holds).
    ContinueWith,
    /// Rewrite the tool input: the rewritten command runs (or, where unsupported, the original).
    Rewrite,
    /// A deliberately wrong encoder (Claude-dialect deny): the deny assertions must catch it.
    WrongEncoder,
    /// Codex only: `codex app-server` `hooks/list` reports our hooks trusted with our hashes.
    TrustHashes,
    /// OpenCode only: bash asks; the daemon allows it over OpenCode's HTTP API; the tool runs.
    Permission,
    /// OpenClaw only: ask on tool.pre; the approval nobody answers must not run the tool.
    Ask,
    /// OpenCode and OpenClaw: the daemon dies inside the tool gate under a fail-closed shim: the
    /// tool is blocked and the daemon is respawned for the later hooks (OpenCode: the session goes
    /// on).
    DaemonCrash,
    /// Warm mode (Claude Code; Copilot CLI with `COPILOT_HOOK_ALLOW_LOCALHOST=1`):
    /// [`Scenario::NoDecision`] with http hooks to the warm server, which the session-start
    /// command hook starts on demand.
    WarmNoDecision,
    /// Warm mode: [`Scenario::Deny`], the deny answered by the warm server.
    WarmDeny,
    /// Warm mode: [`Scenario::Context`]; the prompt context comes from the warm server (the
    /// session-start context from the `SessionStart` command hook, which stays one).
    WarmContext,
    /// Warm mode, fail-closed: the warm server dies inside the tool gate; the agent's failure
    /// path (Claude `onFailure: "block"`, Copilot's own fail-closed preToolUse) blocks the tool
    /// and the session goes on.
    WarmServerKilled,
    /// Warm mode: [`Scenario::Deny`] over two turns of one conversation (the second run is the
    /// agent's `--continue`); the warm server is killed between them, and the next turn's hooks
    /// restart it (the session-start or the prompt hook) before its tool gate, which the new
    /// server answers.
    WarmRestart,
    /// An MCP tool: the stub server `shop_db` ([`crate::mcp_stub`]) declared in the agent's own
    /// MCP config; the model calls its tool under the name the agent offers; the hook's tool
    /// events resolve to that server and its stdio transport.
    Mcp,
    /// Deny on the command, with what a model can write and strict JSON readers reject in the
    /// tool call: the command ends in a lone surrogate and the description holds another (the
    /// agent's own encoder sends them as `\ud800` escapes). The hook reads `command()` and must
    /// still deny: the tool does not run.
    DenyHostile,
    /// [`Scenario::Deny`] with the audit export on (`OTEL_EXPORTER_OTLP_ENDPOINT` at the
    /// testkit's OTLP receiver): the hook processes (or the bridge's daemon) spool their records
    /// and a detached shipper exports them; the receiver must get one trace per session, every
    /// hook span under it, the deny's attributes and a log record, and no content.
    AuditDeny,
}

impl Scenario {
    /// The scenarios every agent runs.
    pub const STANDARD: [Self; 5] = [
        Self::NoDecision,
        Self::Deny,
        Self::Context,
        Self::ContinueWith,
        Self::Rewrite,
    ];

    /// The table name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::NoDecision => "no-decision",
            Self::Deny => "deny",
            Self::Context => "context",
            Self::ContinueWith => "continue-with",
            Self::Rewrite => "rewrite",
            Self::WrongEncoder => "wrong-encoder-caught",
            Self::DenyHostile => "deny-hostile",
            Self::AuditDeny => "audit-deny",
            Self::TrustHashes => "trust-hashes",
            Self::Permission => "permission",
            Self::Ask => "ask",
            Self::DaemonCrash => "daemon-crash",
            Self::Mcp => "mcp",
            Self::WarmNoDecision => "warm-no-decision",
            Self::WarmDeny => "warm-deny",
            Self::WarmContext => "warm-context",
            Self::WarmServerKilled => "warm-server-killed",
            Self::WarmRestart => "warm-restart",
        }
    }

    /// The warm-mode scenarios (Claude Code, Qwen Code, and Copilot CLI run with
    /// `COPILOT_HOOK_ALLOW_LOCALHOST=1`: the agents with http hooks).
    pub const WARM: [Self; 5] = [
        Self::WarmNoDecision,
        Self::WarmDeny,
        Self::WarmContext,
        Self::WarmServerKilled,
        Self::WarmRestart,
    ];

    /// Whether the hooks are warm mode's (http hooks to the warm server).
    pub const fn is_warm(self) -> bool {
        matches!(
            self,
            Self::WarmNoDecision | Self::WarmDeny | Self::WarmContext | Self::WarmServerKilled | Self::WarmRestart
        )
    }

    /// The scenario whose assertions a warm scenario shares (itself for the others).
    #[must_use]
    pub const fn base(self) -> Self {
        match self {
            Self::WarmNoDecision => Self::NoDecision,
            Self::WarmDeny | Self::WarmRestart | Self::AuditDeny => Self::Deny,
            Self::WarmContext => Self::Context,
            other => other,
        }
    }

    /// The hostile-payload scenario: the agents whose model API carries tool arguments as text
    /// and whose own JSON reader accepts a lone surrogate (Claude Code, Kimi Code, OpenCode,
    /// OpenClaw). Codex and Copilot CLI refuse such a call themselves, so it never reaches a
    /// gate (quirks 217 and 415, checked live); Gemini's API sends arguments as an object.
    pub const HOSTILE: [Self; 1] = [Self::DenyHostile];

    /// The MCP attribution scenario (every agent; one run each).
    pub const MCP: [Self; 1] = [Self::Mcp];

    /// The audit export scenario (Claude Code, and the bridges through their daemon).
    pub const AUDIT: [Self; 1] = [Self::AuditDeny];

    /// The scenarios only OpenCode runs (besides the shared bridge ones).
    pub const OPENCODE: [Self; 2] = [Self::Permission, Self::DaemonCrash];

    /// The scenarios only OpenClaw runs (`daemon-crash` comes with [`Scenario::OPENCODE`]).
    pub const OPENCLAW: [Self; 1] = [Self::Ask];

    /// Whether the scenario runs on an agent: the bridge scenarios only on their bridges.
    pub fn runs_on(self, agent: AgentId) -> bool {
        match self {
            Self::Permission => agent == AgentId::OpenCode,
            Self::Ask => agent == AgentId::OpenClaw,
            Self::DenyHostile => !matches!(agent, AgentId::Codex | AgentId::Copilot | AgentId::Gemini),
            Self::DaemonCrash => matches!(agent, AgentId::OpenCode | AgentId::OpenClaw),
            Self::AuditDeny => matches!(agent, AgentId::Claude | AgentId::OpenCode | AgentId::OpenClaw),
            // Qwen Code fails open when an http hook fails (no onFailure knob, quirk 911):
            // `warm-server-killed`, which asserts a fail-closed block, is not one of its rows;
            // nor is `warm-restart`, whose second-turn script assumes a `--continue` history
            // Qwen's does not have (its second turn makes no tool call).
            Self::WarmServerKilled | Self::WarmRestart => matches!(agent, AgentId::Claude | AgentId::Copilot),
            Self::WarmNoDecision | Self::WarmDeny | Self::WarmContext => {
                matches!(agent, AgentId::Claude | AgentId::Copilot | AgentId::Qwen)
            }
            _ => true,
        }
    }

    /// The hook mode it runs with.
    pub const fn mode(self) -> Mode {
        match self {
            Self::NoDecision | Self::TrustHashes | Self::Mcp | Self::WarmNoDecision => Mode::None,
            Self::Deny | Self::WarmDeny | Self::WarmRestart | Self::AuditDeny => Mode::Deny,
            Self::Context | Self::WarmContext => Mode::Context,
            Self::ContinueWith => Mode::Continue,
            Self::Rewrite => Mode::Rewrite,
            Self::WrongEncoder => Mode::DenyWrongDialect,
            Self::DenyHostile => Mode::DenyOnCommand,
            Self::Permission => Mode::Permission,
            Self::Ask => Mode::Ask,
            Self::DaemonCrash | Self::WarmServerKilled => Mode::Crash,
        }
    }
}

/// The outcome of one agent × scenario.
#[derive(Debug)]
#[non_exhaustive]
pub struct RunReport {
    /// The agent.
    pub agent: &'static AgentSpec,
    /// The scenario.
    pub scenario: Scenario,
    /// The assertions.
    pub checks: Vec<Check>,
    /// What the hook saw.
    pub records: Vec<HookRecord>,
    /// What the model saw.
    pub requests: Vec<RecordedRequest>,
    /// The agent process.
    pub proc: Option<ProcOutput>,
    /// The run's directory (kept on failure).
    pub sandbox: Option<Sandbox>,
    /// A setup error (install, config), when the run could not happen.
    pub error: Option<String>,
    /// Warm scenarios: the warm server as the run left it.
    pub warm: Option<agents::WarmSeen>,
    /// The `mcp` scenario's stub as the run declared it (with the run's env).
    pub mcp: Option<agents::McpStubSetup>,
    /// Warm mode: the calls of the prompt hook that only keeps the server up (`--warm-only`),
    /// apart from `records` (it runs no handler).
    pub warm_keepers: Vec<HookRecord>,
    /// [`Scenario::WarmRestart`]: the first turn's server, and how many of `records` (and
    /// `warm_keepers`) the first turn wrote.
    pub restart: Option<Restart>,
}

/// [`Scenario::WarmRestart`]'s first turn, as the second found it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Restart {
    /// The server the first turn's hooks reached (killed before the second).
    pub first_pid: u32,
    /// The first turn's hook records (`records[..records]` are its).
    pub records: usize,
    /// The first turn's prompt-hook calls.
    pub keepers: usize,
    /// Whether the killed server's port stopped answering before the second turn.
    pub port_freed: bool,
}

impl RunReport {
    /// A row for a scenario that could not run because the agent could not be installed.
    pub(crate) fn install_failed(agent: &'static AgentSpec, scenario: Scenario, error: String) -> Self {
        Self::failed_setup(agent, scenario, error, None)
    }

    fn failed_setup(agent: &'static AgentSpec, scenario: Scenario, error: String, sandbox: Option<Sandbox>) -> Self {
        Self {
            agent,
            scenario,
            checks: Vec::new(),
            records: Vec::new(),
            requests: Vec::new(),
            proc: None,
            sandbox,
            error: Some(error),
            warm: None,
            mcp: None,
            warm_keepers: Vec::new(),
            restart: None,
        }
    }

    /// Whether every assertion held.
    pub fn passed(&self) -> bool {
        self.error.is_none() && !self.checks.is_empty() && self.checks.iter().all(|c| c.ok)
    }

    /// A one-line reason for a failure.
    pub fn summary(&self) -> String {
        if let Some(e) = &self.error {
            return e.lines().next().unwrap_or_default().to_owned();
        }
        self.checks
            .iter()
            .filter(|c| !c.ok)
            .map(|c| format!("{} ({})", c.what, c.detail))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Everything worth reading when the run failed.
    pub fn diagnostics(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "--- {} {} / {}",
            self.agent.name,
            self.agent.version,
            self.scenario.name()
        );
        if let Some(e) = &self.error {
            let _ = writeln!(s, "setup error: {e}");
        }
        for c in &self.checks {
            let _ = writeln!(s, "  [{}] {}: {}", if c.ok { "ok" } else { "FAIL" }, c.what, c.detail);
        }
        if let Some(sb) = &self.sandbox {
            let _ = writeln!(s, "  sandbox: {}", sb.root.display());
        }
        if let Some(p) = &self.proc {
            let _ = writeln!(
                s,
                "  agent exit {:?} after {:?}{}",
                p.code,
                p.elapsed,
                if p.timed_out { " (TIMED OUT)" } else { "" }
            );
            let _ = writeln!(s, "  agent stdout (tail): {}", tail(&p.stdout, 1500));
            let _ = writeln!(s, "  agent stderr (tail): {}", tail(&p.stderr, 1500));
        }
        for r in &self.records {
            let _ = writeln!(
                s,
                "  hook {} → kind {:?} exit {:?} stdout {} stderr {}",
                r.native_name(),
                r.kind,
                r.exit,
                tail(&r.stdout, 300),
                tail(&r.stderr, 300)
            );
        }
        for r in &self.requests {
            let _ = writeln!(
                s,
                "  model {} {} → {:?} ({} bytes)",
                r.method,
                r.path,
                r.served,
                r.body.len()
            );
        }
        s
    }
}

fn tail(s: &str, n: usize) -> String {
    let t = s.trim();
    let start = t.len().saturating_sub(n);
    let start = (start..=t.len()).find(|i| t.is_char_boundary(*i)).unwrap_or(t.len());
    t[start..].replace('\n', "⏎")
}

/// Runs one scenario for one agent under `work` (a directory for sandboxes).
pub fn run(agent: &'static AgentSpec, scenario: Scenario, tc: &Toolchain, work: &Path) -> RunReport {
    let sb = match Sandbox::create(work, &format!("{}-{}", agent.short(), scenario.name())) {
        Ok(s) => s,
        Err(e) => return RunReport::failed_setup(agent, scenario, e, None),
    };
    // OpenClaw refuses a finalize revision after a side-effecting tool ran (quirk #809): its
    // continue-with turn has no tool call.
    let script = if scenario == Scenario::ContinueWith && agent.id == AgentId::OpenClaw {
        Script::new([Turn::text("All done."), Turn::text("One more sentence.")])
    } else if scenario == Scenario::Mcp && agent.id == AgentId::Droid {
        // Droid offers MCP tools deferred, behind its ToolSearch tool: the model loads the
        // tool's schema first, then calls it by Droid's name (`<server>___<tool>`, quirk 1007).
        let name = format!("{}___{}", crate::mcp_stub::SERVER, crate::mcp_stub::TOOL);
        Script::new([
            Turn::tool_call("ToolSearch", serde_json::json!({"query": format!("select:{name}")})),
            Turn::tool_call(name, serde_json::json!({"order_id": crate::mcp_stub::ORDER_ID})),
            Turn::text("All done."),
        ])
    } else if scenario == Scenario::Mcp {
        // The MCP tool under whatever name the agent offers it to the model.
        Script::new([
            Turn::tool_call_matching(
                crate::mcp_stub::TOOL,
                serde_json::json!({"order_id": crate::mcp_stub::ORDER_ID}),
            ),
            Turn::text("All done."),
        ])
    } else if scenario == Scenario::DenyHostile {
        Script::new([
            Turn::tool_call_text(agent.tool, agent.hostile_tool_args()),
            Turn::text("All done."),
        ])
    } else {
        Script::tool_then_text(agent.tool, agent.tool_args(), "All done.")
    }
    .with_model(agents::MODEL);
    let server = match FakeModel::start_with_lifetime(agent.api, script, SERVER_LIFETIME) {
        Ok(s) => s,
        Err(e) => return RunReport::failed_setup(agent, scenario, format!("starting the fake model: {e}"), Some(sb)),
    };
    let options = match scenario {
        Scenario::Permission => crate::opencode::Options::default().asking(),
        Scenario::DaemonCrash => crate::opencode::Options::default().fail_closed(),
        _ => crate::opencode::Options::default(),
    };
    let warm = if scenario.is_warm() {
        match agents::Warm::setup(&sb, &tc.hook_bin, scenario == Scenario::WarmServerKilled) {
            Ok(w) => Some(w),
            Err(e) => return RunReport::failed_setup(agent, scenario, e, Some(sb)),
        }
    } else {
        None
    };
    let launch = match agents::prepare_with(agent, &sb, tc, &server.base_url(), &options, warm.as_ref()) {
        Ok(l) => l,
        Err(e) => return RunReport::failed_setup(agent, scenario, e, Some(sb)),
    };
    let stub = if scenario == Scenario::Mcp {
        match agents::declare_mcp(agent, &sb, tc) {
            Ok(s) => Some(s),
            Err(e) => return RunReport::failed_setup(agent, scenario, e, Some(sb)),
        }
    } else {
        None
    };
    if scenario == Scenario::TrustHashes {
        let checks = codex_trust_checks(&launch, &sb, tc);
        return RunReport {
            agent,
            scenario,
            checks,
            records: Vec::new(),
            requests: server.requests(),
            proc: None,
            sandbox: Some(sb),
            error: None,
            warm: None,
            mcp: None,
            warm_keepers: Vec::new(),
            restart: None,
        };
    }
    let receiver = if scenario == Scenario::AuditDeny {
        match agenthooks_testkit::otlp::Receiver::start() {
            Ok(r) => Some(r),
            Err(e) => {
                return RunReport::failed_setup(agent, scenario, format!("starting the OTLP receiver: {e}"), Some(sb))
            }
        }
    } else {
        None
    };
    let mut env = agents::base_env(&sb, tc);
    env.extend(launch.env.iter().cloned());
    if let Some(rx) = &receiver {
        env.extend(crate::audit::env(rx, &sb));
    }
    env.extend(stub.iter().flat_map(|s| s.env.iter().cloned()));
    env.push((hook::MODE_ENV.into(), scenario.mode().as_str().into()));
    env.push((hook::LOG_ENV.into(), sb.hook_log.display().to_string()));
    if let Some(w) = &warm {
        env.extend(w.env());
    }
    let proc = if agent.id == AgentId::OpenCode {
        crate::opencode::drive(&launch.program, &env, &sb.project, &sb.hook_log, AGENT_TIMEOUT)
    } else {
        let mut cmd = Command::new(&launch.program);
        cmd.args(&launch.args)
            .env_clear()
            .envs(env.iter().cloned())
            .current_dir(&sb.project)
            .stdin(Stdio::null());
        output_with_timeout(&mut cmd, AGENT_TIMEOUT)
    };
    let run_env = env;
    let proc = match proc {
        Ok(p) => p,
        Err(e) => {
            return RunReport::failed_setup(
                agent,
                scenario,
                format!("starting {}: {e}", launch.program.display()),
                Some(sb),
            )
        }
    };
    // Warm restart: the server is killed between the two turns; the second turn is the
    // agent's `--continue` of the same conversation, against a fresh fake model.
    let (proc, restart) = match (scenario, &warm) {
        (Scenario::WarmRestart, Some(w)) => {
            let (keepers, first) = split_keepers(hook::read_log(&sb.hook_log));
            let split = first.len();
            let first_pid = w.kill_server();
            let second = (|| -> Result<ProcOutput, String> {
                // The continued history holds the first turn's two assistant turns: the script
                // answers the third with the tool call, the fourth with text.
                let script = Script::new([
                    Turn::text("All done."),
                    Turn::text("All done."),
                    Turn::tool_call(agent.tool, agent.tool_args()),
                    Turn::text("Done again."),
                ])
                .with_model(agents::MODEL);
                let again = FakeModel::start_with_lifetime(agent.api, script, SERVER_LIFETIME)
                    .map_err(|e| format!("starting the second fake model: {e}"))?;
                let (old, new) = (server.base_url(), again.base_url());
                let env2: Vec<(String, String)> = run_env
                    .iter()
                    .map(|(k, v)| (k.clone(), v.replace(&old, &new)))
                    .collect();
                let mut cmd = Command::new(&launch.program);
                cmd.args(&launch.args)
                    .arg("--continue")
                    .env_clear()
                    .envs(env2)
                    .current_dir(&sb.project)
                    .stdin(Stdio::null());
                let out = output_with_timeout(&mut cmd, AGENT_TIMEOUT).map_err(|e| format!("the second turn: {e}"))?;
                drop(again);
                Ok(out)
            })();
            match second {
                Ok(p2) => (
                    p2,
                    Some(Restart {
                        first_pid: first_pid.unwrap_or(0),
                        records: split,
                        keepers: keepers.len(),
                        port_freed: first_pid.is_some(),
                    }),
                ),
                Err(e) => return RunReport::failed_setup(agent, scenario, e, Some(sb)),
            }
        }
        _ => (proc, None),
    };
    // The warm server outlives the agent (it is detached): seen, then stopped.
    let warm = warm.map(agents::Warm::finish);
    let (warm_keepers, records) = split_keepers(hook::read_log(&sb.hook_log));
    let requests = server.requests();
    drop(server);
    if stub.is_some() {
        // The tools each agent offered the model (the MCP tool's mangled name) stay readable in
        // a kept sandbox.
        let dir = sb.root.join("model-requests");
        if std::fs::create_dir_all(&dir).is_ok() {
            for q in &requests {
                let _ = std::fs::write(dir.join(format!("{:03}.json", q.seq)), &q.body);
            }
        }
    }
    let mut report = RunReport {
        agent,
        scenario,
        checks: Vec::new(),
        records,
        requests,
        proc: Some(proc),
        sandbox: Some(sb),
        error: None,
        warm,
        mcp: None,
        warm_keepers,
        restart,
    };
    report.checks = evaluate(&report);
    if let Some(rx) = &receiver {
        report
            .checks
            .extend(crate::audit::checks(&report.records, report.agent.provider, rx));
    }
    if let Some(mut stub) = stub {
        report.checks.extend(mcp_checks(&report, &stub, &run_env));
        stub.run_env = run_env;
        report.mcp = Some(stub);
    }
    report
}

/// One MCP tool event of a run, decoded again.
#[derive(Debug)]
#[non_exhaustive]
pub struct McpToolEvent<'a> {
    /// The hook call.
    pub record: &'a HookRecord,
    /// The event as the codec decodes it.
    pub event: agenthooks::Event,
    /// The connection state the frames before it left (bridges: OpenCode's `config` frame
    /// names the MCP servers), empty for stdin hooks.
    pub conn: serde_json::Map<String, Value>,
}

/// The hook records of the MCP tool's pre and post events, decoded again by the agent's codec
/// as the hook decoded them: stdin payloads one by one, a bridge's frames in order on one
/// connection state (as the daemon does).
pub fn mcp_tool_records<'a>(r: &'a RunReport, env: &[(String, String)]) -> Vec<McpToolEvent<'a>> {
    let Some(codec) = r.agent.codec() else {
        return Vec::new();
    };
    let env: Vec<(String, String)> = env.to_vec();
    let conn = agenthooks::core::ConnState::default();
    let mut out = Vec::new();
    for x in &r.records {
        let framed = x.line.get("transport").and_then(Value::as_str) == Some("frame");
        let before = conn.snapshot();
        let inv = agenthooks::core::Invocation::new(x.payload.clone().into_bytes(), &env)
            .with_native_event(Some(x.native_name()))
            .with_transport(if framed {
                agenthooks::core::Transport::Frame
            } else {
                agenthooks::core::Transport::Stdin
            })
            .with_conn(framed.then_some(&conn));
        let Ok(event) = codec.decode(&inv) else { continue };
        let tool_event = matches!(x.kind.as_deref(), Some("tool.pre" | "tool.post" | "tool.error"));
        // The MCP tool's own events (not a tool search that names it, Droid's `ToolSearch`).
        let mcp_tool = event
            .tool()
            .is_some_and(|t| t.name.contains(crate::mcp_stub::TOOL) || t.mcp.is_some());
        if tool_event && x.payload.contains(crate::mcp_stub::TOOL) && mcp_tool {
            out.push(McpToolEvent {
                record: x,
                event,
                conn: before,
            });
        }
    }
    out
}

/// The `mcp` scenario's assertions: the stub ran the tool, its answer reached the model, and
/// each MCP tool event the hook saw resolves (from the config the run declared) to the stub's
/// server and stdio transport.
fn mcp_checks(r: &RunReport, stub: &agents::McpStubSetup, env: &[(String, String)]) -> Vec<Check> {
    use crate::mcp_stub::{logged_calls, logged_methods, tool_answer, ORDER_ID, SERVER, TOOL};
    let mut checks = Vec::new();
    let calls = logged_calls(&stub.log);
    let ran = calls
        .iter()
        .any(|(t, a)| t == TOOL && a.get("order_id").and_then(Value::as_str) == Some(ORDER_ID));
    checks.push(Check::new(
        "the MCP tool ran (the stub logged the call)",
        ran,
        format!("calls {calls:?}; methods {:?}", logged_methods(&stub.log)),
    ));
    let answer = tool_answer(ORDER_ID);
    let back = r.requests.iter().filter(|q| q.is_turn()).any(|q| q.contains(&answer));
    checks.push(Check::new(
        "the MCP tool's answer reached the model",
        back,
        if back { "present" } else { "absent" },
    ));
    let Some(sb) = &r.sandbox else { return checks };
    let scope = agenthooks::core::mcp::McpScope::new(&sb.project)
        .with_home(&sb.home)
        .with_env(env.iter().cloned());
    let events = mcp_tool_records(r, env);
    let mut seen = Vec::new();
    let mut wrong = Vec::new();
    for McpToolEvent {
        record: x, event: ev, ..
    } in &events
    {
        let name = ev.tool().map(|t| t.name.clone()).unwrap_or_default();
        let got = ev
            .tool()
            .and_then(|t| t.mcp.as_ref())
            .and_then(|m| m.resolve_in(&scope));
        seen.push(format!("{} {name}", x.native_name()));
        match got {
            Some(m)
                if m.server.name == SERVER
                    && m.tool == TOOL
                    && m.server.command == stub.command.display().to_string()
                    && m.server.args == stub.args => {}
            Some(m) => wrong.push(format!(
                "{} {name}: {} / {} {} {:?}",
                x.native_name(),
                m.server.name,
                m.tool,
                m.server.command,
                m.server.args
            )),
            None => wrong.push(format!("{} {name}: not resolved", x.native_name())),
        }
    }
    let pre = events
        .iter()
        .filter(|e| e.record.kind.as_deref() == Some("tool.pre"))
        .count();
    checks.push(Check::new(
        "the hook saw the MCP tool's tool.pre",
        pre >= 1,
        if seen.is_empty() {
            "no MCP tool event".to_owned()
        } else {
            seen.join(", ")
        },
    ));
    checks.push(Check::none_of(
        "each MCP tool event resolves to shop_db / lookup_order over stdio (command + args of the config)",
        &wrong,
        format!("{} events resolved", events.len()),
        "",
    ));
    checks
}

/// How many user prompts the run's transcript holds (`-` without a transcript).
fn transcript_prompts(r: &RunReport, root: &std::path::Path) -> String {
    use agenthooks::runtime::transcript::{format_of, Item, Reader, Untyped};
    let Some(text) = crate::capture::transcript(&r.records, root) else {
        return "-".into();
    };
    let dialect = agenthooks::codecs()
        .into_iter()
        .find(|c| c.provider() == r.agent.provider)
        .map_or(
            &Untyped as &dyn agenthooks::runtime::transcript::TranscriptFormat,
            format_of,
        );
    Reader::new(dialect, text.as_bytes())
        .filter_map(Result::ok)
        .flat_map(|rec| rec.items)
        .filter(|i| matches!(i, Item::UserPrompt { .. }))
        .count()
        .to_string()
}

/// The assertions for a finished run.
pub fn evaluate(r: &RunReport) -> Vec<Check> {
    let mut checks = common_checks(r);
    checks.extend(warm_checks(r));
    let scenario = r.scenario.base();
    let Some(sb) = &r.sandbox else { return checks };
    let marker = sb.project.join(hook::MARKER_FILE).exists();
    let turns: Vec<&RecordedRequest> = r.requests.iter().filter(|q| q.is_turn()).collect();
    let first_turn = turns.first();
    let count_kind = |k: &str| r.records.iter().filter(|x| x.kind.as_deref() == Some(k)).count();
    // The end of what the hook answered the first tool.pre call.
    let first_pre_stdout = || {
        r.records
            .iter()
            .find(|x| x.kind.as_deref() == Some("tool.pre"))
            .map(|x| tail(&x.stdout, 200))
    };
    match scenario {
        Scenario::NoDecision => {
            let missing: Vec<String> = r
                .agent
                .expected
                .iter()
                .filter(|(n, k)| {
                    !r.records
                        .iter()
                        .any(|x| x.native_name() == *n && x.kind.as_deref() == Some(*k))
                })
                .map(|(n, k)| format!("{n}→{k}"))
                .collect();
            let calls = format!("{} hook calls", r.records.len());
            checks.push(Check::none_of(
                "expected events arrived with their kinds",
                &missing,
                calls,
                "missing ",
            ));
            checks.push(Check::new(
                "the tool ran (marker present)",
                marker,
                marker_detail(marker),
            ));
            // An agent that fires its prompt hook in print mode has nothing to backfill, though
            // the transcript (when it keeps one) holds the prompt the backfill would use; one
            // whose print mode skips it (no prompt event expected: Droid's `exec`, quirk 1001)
            // has the run's prompt backfilled from its transcript, exactly once.
            let backfilled: Vec<&str> = r.records.iter().flat_map(HookRecord::backfilled).collect();
            let detail = format!(
                "{} backfilled {backfilled:?}; {} prompts in the transcript",
                backfilled.len(),
                transcript_prompts(r, &sb.root)
            );
            if r.agent.expected.iter().any(|(_, k)| *k == "prompt.submitted") {
                checks.push(Check::new(
                    "no prompt backfilled (the agent fired its prompt hook)",
                    backfilled.is_empty(),
                    detail,
                ));
            } else {
                checks.push(Check::new(
                    "the skipped prompt was backfilled once from the transcript",
                    backfilled.len() == 1 && backfilled[0].contains(agents::PROMPT),
                    detail,
                ));
            }
            checks.push(Check::new(
                "the tool result went back to the model",
                turns.len() >= 2,
                format!("{} model turns", turns.len()),
            ));
            if let Some(codec) = r.agent.codec() {
                let off: Vec<String> = r
                    .records
                    .iter()
                    .filter(|x| {
                        let native = x.native_name();
                        let target = EventTarget::new(Some(NativeName::from(native)), Some(codec.kind_of(native)));
                        let want = no_op_seen(x, &codec.no_op(&target));
                        x.exit != Some(want.0) || x.stdout != want.1
                    })
                    .map(|x| format!("{}: exit {:?} stdout {}", x.native_name(), x.exit, tail(&x.stdout, 80)))
                    .collect();
                checks.push(Check::none_of("every answer was the codec's no-op", &off, "all", ""));
            }
        }
        Scenario::Deny | Scenario::WrongEncoder | Scenario::DenyHostile => {
            let deny = deny_checks(marker, &turns, count_kind("tool.pre"));
            if scenario == Scenario::DenyHostile {
                // The payload carried the escapes as the agent's encoder wrote them, and the
                // handler read the command through them.
                let escaped = r.records.iter().any(|x| {
                    x.kind.as_deref() == Some("tool.pre")
                        && (x.payload.contains("\\ud800") || x.payload.contains("\\udc00"))
                });
                checks.push(Check::new(
                    "the tool.pre payload carried lone surrogate escapes",
                    escaped,
                    first_pre_stdout().map_or_else(|| "no tool.pre call".to_owned(), |t| format!("stdout {t}")),
                ));
            }
            if scenario == Scenario::WrongEncoder {
                let claude_dialect = r.records.iter().any(|x| {
                    x.kind.as_deref() == Some("tool.pre")
                        && x.stdout.contains("hookSpecificOutput")
                        && x.stdout.contains("\"permissionDecision\":\"deny\"")
                });
                checks.push(Check::new(
                    "the wrong encoder answered tool.pre in Claude's dialect",
                    claude_dialect,
                    first_pre_stdout().map_or_else(|| "no tool.pre call".to_owned(), |t| format!("stdout {t}")),
                ));
                let failed: Vec<String> = deny.iter().filter(|c| !c.ok).map(|c| c.what.clone()).collect();
                checks.push(Check::new(
                    "the deny assertions caught it",
                    !failed.is_empty(),
                    if failed.is_empty() {
                        "every deny assertion passed: the suite cannot tell a wrong encoder".to_owned()
                    } else {
                        format!("failed as they must: {}", failed.join("; "))
                    },
                ));
            } else {
                checks.extend(deny);
            }
        }
        Scenario::Context => {
            let prompt_ok = first_turn.is_some_and(|q| q.contains(hook::PROMPT_CONTEXT));
            // An agent whose headless run fires no prompt hook (its `expected` lists no
            // `prompt.submitted`: Droid's `exec`, quirk 1001) cannot carry prompt context.
            if r.agent.expected.iter().any(|(_, kind)| *kind == "prompt.submitted") {
                checks.push(Check::new(
                    "prompt context reached the model's first request",
                    prompt_ok,
                    present(first_turn.is_some(), prompt_ok),
                ));
            } else {
                let fired = count_kind("prompt.submitted");
                checks.push(Check::new(
                    "no prompt hook fires headless (documented; a change is drift)",
                    fired == 0 && !prompt_ok,
                    format!("{fired} prompt.submitted calls"),
                ));
            }
            if r.agent.session_context {
                let ok = first_turn.is_some_and(|q| q.contains(hook::SESSION_CONTEXT));
                checks.push(Check::new(
                    "session-start context reached the model's first request",
                    ok,
                    present(first_turn.is_some(), ok),
                ));
            } else {
                let leaked = r.requests.iter().any(|q| q.contains(hook::SESSION_CONTEXT));
                checks.push(Check::new(
                    "session-start output is discarded by this agent (documented; a change is drift)",
                    !leaked,
                    if leaked {
                        "the session context reached the model"
                    } else {
                        "not in any request"
                    },
                ));
            }
            checks.push(Check::new(
                "context does not block (marker present)",
                marker,
                marker_detail(marker),
            ));
        }
        Scenario::ContinueWith => {
            let stops = count_kind("agent.stop");
            let with_token = turns.iter().filter(|q| q.contains(hook::CONTINUE_TOKEN)).count();
            checks.push(Check::at_least_one("the stop hook was asked", stops, "stop calls"));
            checks.push(Check::new(
                "exactly one more model turn (continuation reached the model, cap held)",
                with_token == 1,
                format!(
                    "{with_token} model turns carry the continuation; {} turns in all",
                    turns.len()
                ),
            ));
            if r.agent.id == AgentId::Kimi {
                checks.push(Check::new(
                    "Kimi runs Stop once per turn",
                    stops == 1,
                    format!("{stops} stop calls"),
                ));
            } else {
                checks.push(Check::new(
                    "the stop hook ran again and was capped",
                    stops >= 2,
                    format!("{stops} stop calls"),
                ));
            }
        }
        Scenario::Rewrite => {
            let rewritten = std::fs::read_to_string(sb.project.join(hook::REWRITTEN_FILE)).unwrap_or_default();
            if r.agent.rewrite {
                checks.push(Check::new(
                    "the rewritten command ran",
                    rewritten.trim() == "rewritten",
                    format!("{} = {:?}", hook::REWRITTEN_FILE, rewritten.trim()),
                ));
                checks.push(Check::new(
                    "the original command did not run",
                    !marker,
                    marker_detail(marker),
                ));
            } else {
                checks.push(Check::new(
                    "rewrite unsupported: degraded, the original command ran",
                    marker && rewritten.is_empty(),
                    format!(
                        "{}; {} {}",
                        marker_detail(marker),
                        hook::REWRITTEN_FILE,
                        if rewritten.is_empty() { "absent" } else { "present" }
                    ),
                ));
            }
        }
        Scenario::Ask => {
            checks.push(Check::at_least_one(
                "the tool.pre hook was asked",
                count_kind("tool.pre"),
                "tool.pre calls",
            ));
            let asked = r
                .records
                .iter()
                .any(|x| x.kind.as_deref() == Some("tool.pre") && x.stdout.contains("requireApproval"));
            checks.push(Check::new(
                "the hook answered with requireApproval",
                asked,
                first_pre_stdout().unwrap_or_else(|| "no tool.pre call".to_owned()),
            ));
            checks.push(Check::new(
                "the unanswered approval did not run the tool (marker absent)",
                !marker,
                marker_detail(marker),
            ));
        }
        Scenario::DaemonCrash if r.agent.id == AgentId::OpenClaw => {
            checks.extend(daemon_crash_checks(
                r,
                "before_tool_call",
                "the shim blocked the tool itself",
                marker,
            ));
            let told = turns.iter().position(|q| q.contains("no answer from the hook daemon"));
            checks.push(Check::new(
                "the shim's local block reason reached the model in the next request",
                told == Some(1),
                format!("{told:?} of {} model turns", turns.len()),
            ));
            // The dead daemon is replaced on the next call: the hooks after the crash (the
            // blocked tool's after_tool_call, the run's before_agent_finalize) are answered.
            let (error, stop) = (
                answered_after_crash(r, "tool.error"),
                answered_after_crash(r, "agent.stop"),
            );
            checks.push(Check::at_least_one(
                "the respawned daemon answered the blocked tool's after_tool_call (tool.error)",
                error,
                "answered tool.error calls after the crash",
            ));
            checks.push(Check::at_least_one(
                "the respawned daemon answered later hooks (before_agent_finalize)",
                stop,
                "answered agent.stop calls after the crash",
            ));
        }
        // Mapped to their base scenarios above.
        Scenario::TrustHashes
        | Scenario::Mcp
        | Scenario::WarmNoDecision
        | Scenario::WarmDeny
        | Scenario::WarmContext
        | Scenario::WarmRestart
        | Scenario::AuditDeny => {}
        Scenario::Permission => {
            let asked = count_kind("permission.request");
            checks.push(Check::at_least_one(
                "the permission.request hook was asked",
                asked,
                "permission.request calls",
            ));
            let replied: Vec<String> = r
                .records
                .iter()
                .filter(|x| x.native_name() == "permission.replied")
                .filter_map(|x| {
                    x.payload_json()?
                        .pointer("/input/event/properties/reply")?
                        .as_str()
                        .map(str::to_owned)
                })
                .collect();
            checks.push(Check::new(
                "OpenCode recorded our reply (`once`) through its HTTP API",
                replied.iter().any(|x| x == "once"),
                format!("permission.replied: {replied:?}"),
            ));
            checks.push(Check::new(
                "the asked tool ran (marker present)",
                marker,
                marker_detail(marker),
            ));
        }
        Scenario::WarmServerKilled => {
            let pre: Vec<&HookRecord> = r
                .records
                .iter()
                .filter(|x| x.kind.as_deref() == Some("tool.pre"))
                .collect();
            let unanswered = pre.iter().filter(|x| x.exit.is_none() && is_http(x)).count();
            checks.push(Check::new(
                "the warm server died inside the tool gate (received, never answered)",
                unanswered > 0,
                format!("{} tool.pre calls, {unanswered} unanswered", pre.len()),
            ));
            checks.push(Check::new(
                if r.agent.id == AgentId::Copilot {
                    "fail-closed: Copilot denied the tool when its http hook failed (marker absent)"
                } else {
                    "fail-closed: Claude's onFailure \"block\" blocked the tool (marker absent)"
                },
                !marker,
                marker_detail(marker),
            ));
            // What the model got back for the blocked call (Claude's own text).
            let result = turns.get(1).map_or_else(
                || "no second turn".to_owned(),
                |q| {
                    let body = String::from_utf8_lossy(&q.body);
                    // Anthropic's tool_result block, or a Chat Completions tool message.
                    body.find("tool_result")
                        .or_else(|| body.find("\"role\":\"tool\""))
                        .map_or_else(
                            || "no tool_result".to_owned(),
                            |i| body[i..].chars().take(220).collect::<String>(),
                        )
                },
            );
            checks.push(Check::new(
                "the session went on (the blocked call's result reached the model, which finished)",
                turns.len() >= 2 && r.proc.as_ref().is_some_and(|p| !p.timed_out),
                format!("{} model turns; turn 2: {result}", turns.len()),
            ));
            // Later http hooks found nothing listening: the agent logs each failure (Claude on
            // stderr, Copilot in its log directory) and goes on.
            let mut logs = r.proc.as_ref().map(|p| p.stderr.clone()).unwrap_or_default();
            if r.agent.id == AgentId::Copilot {
                for e in std::fs::read_dir(sb.home.join(".copilot/logs"))
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    logs.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
                }
            }
            let refused = logs.lines().find(|l| l.contains("ECONNREFUSED"));
            checks.push(Check::new(
                "later http hooks failed on the refused connection and the session still ended normally",
                refused.is_some() && r.proc.as_ref().is_some_and(|p| p.code == Some(0)),
                refused.map_or_else(
                    || "no refused connection in the agent's logs".to_owned(),
                    |l| tail(l, 200),
                ),
            ));
            let gone = r.warm.as_ref().is_some_and(|w| !w.answered_after);
            checks.push(Check::new(
                "the warm server is gone after the session",
                gone,
                if gone {
                    "no answer on its port"
                } else {
                    "it still answers"
                },
            ));
        }
        Scenario::DaemonCrash => {
            checks.extend(daemon_crash_checks(
                r,
                "tool.execute.before",
                "the tool was blocked",
                marker,
            ));
            checks.push(Check::new(
                "the session went on (the model got the tool result)",
                turns.len() >= 2,
                format!("{} model turns", turns.len()),
            ));
            // The turn right after the crash (OpenCode runs it in under 100 ms when the hooks
            // fail fast) reaches the respawned daemon: none of its hooks is dropped.
            let next_turn = answered_after_crash(r, "model.request");
            checks.push(Check::at_least_one(
                "the respawned daemon answered the next model request's hooks (chat.params)",
                next_turn,
                "answered model.request calls after the crash",
            ));
            let after = r
                .records
                .iter()
                .filter(|x| x.kind.as_deref() == Some("agent.stop") && x.exit.is_some())
                .count();
            checks.push(Check::at_least_one(
                "the respawned daemon answered later hooks (session.idle)",
                after,
                "answered agent.stop calls",
            ));
        }
    }
    checks
}

/// The calls of warm mode's prompt hook (`--warm-only`: it runs no handler), and the others.
fn split_keepers(records: Vec<HookRecord>) -> (Vec<HookRecord>, Vec<HookRecord>) {
    records.into_iter().partition(|x| {
        x.line
            .get("argv")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|v| v == "--warm-only"))
    })
}

/// Whether the warm server answered (or received) this hook call.
fn is_http(x: &HookRecord) -> bool {
    x.line.get("transport").and_then(Value::as_str) == Some("http")
}

/// Warm mode's own assertions: what install rendered, who started the server, and that every
/// hook but the `SessionStart` command hook went through it.
fn warm_checks(r: &RunReport) -> Vec<Check> {
    let (Some(w), Some(sb)) = (&r.warm, &r.sandbox) else {
        return Vec::new();
    };
    let mut checks = Vec::new();
    let copilot = r.agent.id == AgentId::Copilot;
    // Where install wrote the hooks, and one event's handler in that file's shape.
    let (file, pre_ev, start_ev, prompt_ev) = if copilot {
        (
            sb.home.join(".copilot/hooks/agenthooks-e2e.json"),
            "preToolUse",
            "sessionStart",
            "userPromptSubmitted",
        )
    } else if r.agent.id == AgentId::Qwen {
        // Qwen Code has no git-ignored project settings: warm hooks are user-scope.
        (
            sb.home.join(".qwen/settings.json"),
            "PreToolUse",
            "SessionStart",
            "UserPromptSubmit",
        )
    } else {
        // Project-scope warm hooks go to the git-ignored local settings file.
        (
            sb.project.join(".claude/settings.local.json"),
            "PreToolUse",
            "SessionStart",
            "UserPromptSubmit",
        )
    };
    let settings: Value = std::fs::read_to_string(&file)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    let at = if copilot { "/0" } else { "/0/hooks/0" };
    let handler = |ev: &str| {
        settings
            .pointer(&format!("/hooks/{ev}{at}"))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let (pre, start) = (handler(pre_ev), handler(start_ev));
    let prefix = format!("http://127.0.0.1:{}/v1/hook/{}/{pre_ev}?", w.port, r.agent.provider);
    let http_pre = pre["type"] == "http" && pre["url"].as_str().is_some_and(|u| u.starts_with(&prefix));
    let warm_start = start["type"] == "command" && start["command"].as_str().is_some_and(|c| c.ends_with(" --warm"));
    // Claude: onFailure on fail-closed gates; Copilot fails its gate closed by itself.
    let gate_ok = if r.scenario == Scenario::WarmServerKilled && !copilot {
        pre["onFailure"] == "block"
    } else {
        pre.get("onFailure").is_none()
    };
    let http_events = settings["hooks"].as_object().map_or(0, |h| {
        h.values()
            .filter(|g| g.pointer(&format!("{at}/type")) == Some(&Value::from("http")))
            .count()
    });
    checks.push(Check::new(
        format!("install rendered http hooks to the warm server ({start_ev} a command hook with --warm)"),
        http_pre && warm_start && gate_ok,
        format!(
            "{http_events} http events; {pre_ev} {} onFailure {}; {start_ev} {}",
            pre["type"],
            pre.get("onFailure").unwrap_or(&Value::Null),
            start["type"]
        ),
    ));
    let started = r
        .records
        .iter()
        .any(|x| x.native_name() == start_ev && !is_http(x) && x.exit == Some(0));
    let record_ok = w
        .record
        .as_ref()
        .is_some_and(|s| s.port == w.port && s.build == w.build);
    checks.push(Check::new(
        format!("the {start_ev} command hook started the warm server on demand (the test started none)"),
        started && record_ok,
        match &w.record {
            Some(s) => format!("server.json: pid {} port {} build {}", s.pid, s.port, s.build),
            None => "no server.json".to_owned(),
        },
    ));
    let served: Vec<&HookRecord> = r.records.iter().filter(|x| is_http(x)).collect();
    let first = r.restart.as_ref().map(|x| u64::from(x.first_pid));
    let by_server = w.record.as_ref().is_some_and(|s| {
        !served.is_empty()
            && served.iter().all(|x| {
                let pid = x.line.get("server_pid").and_then(Value::as_u64);
                pid == Some(u64::from(s.pid)) || (first.is_some() && pid == first)
            })
    });
    let elsewhere: Vec<String> = r
        .records
        .iter()
        .filter(|x| !is_http(x) && x.native_name() != start_ev && x.native_name() != prompt_ev)
        .map(|x| x.native_name().to_owned())
        .collect();
    let names: Vec<&str> = served.iter().map(|x| x.native_name()).collect();
    checks.push(Check::new(
        format!("every hook but {start_ev} and {prompt_ev} was answered by that warm server over http (no other command hook ran)"),
        by_server && elsewhere.is_empty(),
        if elsewhere.is_empty() {
            format!("{} http calls: {}", served.len(), names.join(", "))
        } else {
            format!("command path used for {}", elsewhere.join(", "))
        },
    ));
    // The prompt hook stays a command hook carrying --warm (the manifest's own; a hook with
    // --warm-only, which runs no handler, when the manifest has none): it restarts a server gone
    // between turns.
    let prompt = handler(prompt_ev);
    let prompt_cmd = prompt["command"].as_str().unwrap_or_default();
    let prompt_calls: Vec<&HookRecord> = r
        .records
        .iter()
        .chain(&r.warm_keepers)
        .filter(|x| x.native_name() == prompt_ev || x.event_arg == prompt_ev)
        .collect();
    let keepers_ok = r
        .warm_keepers
        .iter()
        .all(|x| x.kind.is_none() && matches!(x.stdout.trim(), "" | "{}"));
    checks.push(Check::new(
        format!("the {prompt_ev} hook is a command hook with --warm (or --warm-only), and it ran"),
        prompt["type"] == "command"
            && (prompt_cmd.ends_with(" --warm") || prompt_cmd.ends_with(" --warm-only"))
            && !prompt_calls.is_empty()
            && prompt_calls.iter().all(|x| x.exit == Some(0) && !is_http(x))
            && keepers_ok,
        format!(
            "{} {}; {} calls ({} with --warm-only)",
            prompt["type"],
            tail(prompt_cmd, 60),
            prompt_calls.len(),
            r.warm_keepers.len()
        ),
    ));
    if let Some(x) = &r.restart {
        let second: Vec<&HookRecord> = r.records.iter().skip(x.records).collect();
        let new_pid = w.record.as_ref().map(|s| u64::from(s.pid));
        let gated: Vec<&&HookRecord> = second
            .iter()
            .filter(|h| h.kind.as_deref() == Some("tool.pre"))
            .collect();
        let by_new = !gated.is_empty()
            && gated.iter().all(|h| {
                is_http(h)
                    && h.line.get("server_pid").and_then(Value::as_u64) == new_pid
                    && new_pid != Some(u64::from(x.first_pid))
            });
        checks.push(Check::new(
            "the server killed between the turns was restarted, and the next turn's tool gate was answered by the new one",
            x.port_freed && by_new,
            format!(
                "first server pid {} killed (port freed: {}); second turn: {} tool.pre calls, server pids {:?}, new server {:?}; prompt command hooks in the second turn: {}",
                x.first_pid,
                x.port_freed,
                gated.len(),
                gated
                    .iter()
                    .map(|h| h.line.get("server_pid").and_then(Value::as_u64))
                    .collect::<Vec<_>>(),
                new_pid,
                second.iter().filter(|h| h.native_name() == prompt_ev).count() + r.warm_keepers.len() - x.keepers
            ),
        ));
    }
    if r.scenario != Scenario::WarmServerKilled {
        checks.push(Check::new(
            "the warm server still answered after the session",
            w.answered_after,
            format!(
                "ping after the run: {}",
                if w.answered_after { "pong" } else { "no answer" }
            ),
        ));
    }
    checks
}

/// The no-op as the hook log shows it: a run-mode hook's exit code and stdout, or for a serve
/// frame the reply without its `seq` (`{"output": <no-op>}`).
fn no_op_seen(x: &HookRecord, want: &agenthooks::WireResponse) -> (i32, String) {
    let framed = x.line.get("transport").and_then(Value::as_str) == Some("frame");
    if !framed {
        return (want.exit_code, want.stdout_str().into_owned());
    }
    // An empty no-op (OpenClaw's pass) is a reply without `output`.
    if want.stdout.is_empty() {
        return (want.exit_code, "{}".to_owned());
    }
    let output: Value = serde_json::from_slice(&want.stdout).unwrap_or(Value::Null);
    (want.exit_code, serde_json::json!({"output": output}).to_string())
}

fn deny_checks(marker: bool, turns: &[&RecordedRequest], pre_calls: usize) -> Vec<Check> {
    let reason_at = turns.iter().position(|q| q.contains(hook::DENY_TOKEN));
    vec![
        Check::at_least_one("the tool.pre hook was asked", pre_calls, "tool.pre calls"),
        Check::new(
            "the denied tool did not run (marker absent)",
            !marker,
            marker_detail(marker),
        ),
        Check::new(
            "the deny reason reached the model in the next request",
            reason_at == Some(1),
            match reason_at {
                Some(i) => format!("first seen in model turn {}", i + 1),
                None => format!("not in any of {} model turns", turns.len()),
            },
        ),
    ]
}

fn common_checks(r: &RunReport) -> Vec<Check> {
    let mut checks = Vec::new();
    if let Some(p) = &r.proc {
        checks.push(Check::new(
            "the agent finished before the hard timeout",
            !p.timed_out,
            format!("{:.1}s, exit {:?}", p.elapsed.as_secs_f64(), p.code),
        ));
    }
    checks.push(Check::new(
        "hooks ran",
        !r.records.is_empty(),
        format!("{} hook calls", r.records.len()),
    ));
    if r.agent.id == AgentId::OpenClaw {
        let leaked: Vec<&str> = r
            .records
            .iter()
            .filter(|x| x.payload.contains(agents::OPENCLAW_SECRET))
            .map(HookRecord::native_name)
            .collect();
        checks.push(Check::none_of(
            "no API key from the config appears in any frame the daemon received",
            &leaked,
            format!("{} frames clean", r.records.len()),
            "leaked in ",
        ));
    }
    let undecoded: Vec<String> = r
        .records
        .iter()
        .filter(|x| x.kind.is_none())
        // Frames in flight when the daemon died were never read by it.
        .filter(|x| !(r.scenario == Scenario::DaemonCrash && x.exit.is_none()))
        .map(|x| format!("{} ({})", x.native_name(), tail(&x.stderr, 160)))
        .collect();
    checks.push(Check::none_of("every payload decoded", &undecoded, "all", ""));
    if let Some(codec) = r.agent.codec() {
        let odd: Vec<String> = r
            .records
            .iter()
            .filter_map(|x| {
                let native = x.native.as_deref()?;
                let kind = x.kind.as_deref()?;
                let want = codec.kind_of(native);
                (!(want.as_str() == kind || refines(want.as_str(), kind)) || native != x.event_arg).then(|| {
                    format!(
                        "{}: config {} decoded {native}→{kind}, table {want}",
                        x.native_name(),
                        x.event_arg
                    )
                })
            })
            .collect();
        checks.push(Check::none_of(
            "decoded event and kind agree with the config and the codec's table",
            &odd,
            "all",
            "",
        ));
    }
    checks
}

/// Kinds a payload may refine its table kind to (OpenCode: a child session is a subagent, an
/// errored tool part a tool error; OpenClaw: a blocked or failed `after_tool_call`).
fn refines(table: &str, decoded: &str) -> bool {
    matches!(
        (table, decoded),
        ("session.start", "subagent.start") | ("agent.stop", "subagent.stop") | ("other" | "tool.post", "tool.error")
    )
}

/// The daemon died inside the tool gate `gate` (a `tool.pre` call without an answer) and,
/// fail-closed, the tool did not run (`blocked` says who blocked it).
fn daemon_crash_checks(r: &RunReport, gate: &str, blocked: &str, marker: bool) -> [Check; 2] {
    let pre: Vec<&HookRecord> = r
        .records
        .iter()
        .filter(|x| x.kind.as_deref() == Some("tool.pre"))
        .collect();
    let unanswered = pre.iter().filter(|x| x.exit.is_none()).count();
    [
        Check::new(
            format!("the daemon died inside {gate} (no answer)"),
            unanswered > 0,
            format!("{} tool.pre calls, {unanswered} unanswered", pre.len()),
        ),
        Check::new(
            format!("fail-closed: {blocked} (marker absent)"),
            !marker,
            marker_detail(marker),
        ),
    ]
}

/// How many `kind` calls were answered after the daemon died (the first unanswered `tool.pre`;
/// none when no call went unanswered).
fn answered_after_crash(r: &RunReport, kind: &str) -> usize {
    let crash = r
        .records
        .iter()
        .position(|x| x.kind.as_deref() == Some("tool.pre") && x.exit.is_none())
        .unwrap_or(r.records.len());
    r.records[crash..]
        .iter()
        .filter(|x| x.kind.as_deref() == Some(kind) && x.exit.is_some())
        .count()
}

fn marker_detail(marker: bool) -> String {
    format!("{} {}", hook::MARKER_FILE, if marker { "present" } else { "absent" })
}

fn present(had_request: bool, found: bool) -> String {
    match (had_request, found) {
        (false, _) => "no model request".to_owned(),
        (true, true) => "present".to_owned(),
        (true, false) => "absent".to_owned(),
    }
}

/// Codex: asks `codex app-server` (`hooks/list`) whether the hooks agenthooks-install wrote
/// are trusted, and compares Codex's hashes with ours.
fn codex_trust_checks(launch: &agents::Launch, sb: &Sandbox, tc: &Toolchain) -> Vec<Check> {
    let ours: Vec<(String, String)> = launch
        .plan
        .iter()
        .flat_map(|p| p.trust.iter())
        .map(|t| (t.key.clone(), t.hash.clone()))
        .collect();
    let mut checks = vec![Check::new(
        "agenthooks-install wrote trust entries",
        !ours.is_empty(),
        format!("{} entries", ours.len()),
    )];
    let mut env = agents::base_env(sb, tc);
    env.extend(launch.env.iter().cloned());
    let listed = match app_server_hooks_list(&launch.program, &env, &sb.project) {
        Ok(v) => v,
        Err(e) => {
            checks.push(Check::new("codex app-server answered hooks/list", false, e));
            return checks;
        }
    };
    let hooks: Vec<&Value> = listed
        .pointer("/result/data")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|d| d.get("hooks").and_then(Value::as_array))
        .flatten()
        .collect();
    checks.push(Check::new(
        "codex app-server answered hooks/list",
        !hooks.is_empty(),
        format!("{} hooks listed", hooks.len()),
    ));
    let mut problems = Vec::new();
    for (key, hash) in &ours {
        match hooks.iter().find(|h| h.get("key").and_then(Value::as_str) == Some(key)) {
            None => problems.push(format!("{key}: not listed")),
            Some(h) => {
                let status = h.get("trustStatus").and_then(Value::as_str).unwrap_or_default();
                let current = h.get("currentHash").and_then(Value::as_str).unwrap_or_default();
                if status != "trusted" || current != hash {
                    problems.push(format!("{key}: {status}, codex {current} vs ours {hash}"));
                }
            }
        }
    }
    let foreign: Vec<&str> = hooks
        .iter()
        .filter_map(|h| h.get("key").and_then(Value::as_str))
        .filter(|k| !ours.iter().any(|(o, _)| o == k))
        .collect();
    checks.push(Check::new(
        "Codex calls every hook we installed trusted, with our hash",
        problems.is_empty() && foreign.is_empty(),
        if problems.is_empty() && foreign.is_empty() {
            format!("{} of {} trusted", ours.len(), hooks.len())
        } else {
            format!(
                "{}{}",
                problems.join("; "),
                if foreign.is_empty() {
                    String::new()
                } else {
                    format!("; listed without a trust entry: {}", foreign.join(", "))
                }
            )
        },
    ));
    checks
}

/// `initialize`, `initialized`, `hooks/list {cwds:[project]}` over stdio JSON-RPC; returns the
/// `hooks/list` response.
pub fn app_server_hooks_list(codex: &Path, env: &[(String, String)], project: &Path) -> Result<Value, String> {
    use std::io::{BufRead, Write};
    use std::os::unix::process::CommandExt;
    let mut child = Command::new(codex)
        .arg("app-server")
        .env_clear()
        .envs(env.iter().cloned())
        .current_dir(project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("starting codex app-server: {e}"))?;
    let pgid = child.id();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    if let Some(out) = child.stdout.take() {
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
    }
    let requests = [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "agenthooks-e2e", "version": env!("CARGO_PKG_VERSION")}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [project.display().to_string()]}}),
    ];
    let mut stdin = child.stdin.take();
    let mut result = Err("no hooks/list response within 30 s".to_owned());
    if let Some(s) = stdin.as_mut() {
        for r in &requests {
            let _ = writeln!(s, "{r}");
        }
        let _ = s.flush();
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while let Ok(line) = rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now())) {
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if v.get("id") == Some(&Value::from(2)) {
            result = if v.get("error").is_some() {
                Err(format!("hooks/list error: {}", v["error"]))
            } else {
                Ok(v)
            };
            break;
        }
    }
    drop(stdin);
    crate::run::kill_group(pgid);
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// Where sandboxes go: `$AGENTHOOKS_E2E_WORK`, else a fresh directory under the temp dir.
pub fn work_dir() -> PathBuf {
    std::env::var_os("AGENTHOOKS_E2E_WORK")
        .filter(|v| !v.is_empty())
        .map_or_else(
            || std::env::temp_dir().join(format!("agenthooks-e2e-{}", std::process::id())),
            PathBuf::from,
        )
}
