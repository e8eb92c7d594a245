//! `doctor`: where our hooks are installed, whether the files parse, whether they match the
//! manifest, whether Codex trust hashes match, whether project/folder trust is missing,
//! duplicates, and whether the command resolves and answers `agenthooks ping`.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks_core::Provider;
use serde::Serialize;
use serde_json::Value;

use crate::finding::{Finding, FindingCode, Severity};
use crate::fsys::RealFs;
use crate::manifest::Manifest;
use crate::plan::{ChangeStatus, Cx};
use crate::resolve::resolve;
use crate::scope::Scope;
use crate::target::Target;
use crate::targets;

/// Options for [`doctor`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DoctorOptions {
    /// Run `<command> agenthooks ping` (spawns the consumer binary).
    pub ping: bool,
    /// How long the ping may take.
    pub ping_timeout: Duration,
    /// `PATH` for resolving a bare program name (`None`: the process's `PATH`).
    pub path: Option<OsString>,
}

impl Default for DoctorOptions {
    fn default() -> Self {
        Self {
            ping: true,
            ping_timeout: Duration::from_secs(5),
            path: None,
        }
    }
}

agenthooks_core::kit::setters! {
    impl DoctorOptions {
        /// Whether to ping.
        with_ping(ping: bool);
        /// Sets `PATH`.
        with_path(path: impl Into<OsString>) => Some;
    }
}

/// The doctor's report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct DoctorReport {
    /// One entry per target checked.
    pub targets: Vec<TargetHealth>,
    /// The command check.
    pub command: CommandHealth,
    /// Findings across targets (duplicates, the warm server).
    pub findings: Vec<Finding>,
    /// The warm server, when the manifest is warm: `{"port", "running", "pid", "build",
    /// "config_build", "impostor"}` (`pid` and `build` are the answering server's, `null` when
    /// nothing of ours answers; a `build` other than `config_build` refuses the config's hooks
    /// until retired; `impostor` is `{"pid", "uid", "why", "text"}` when a listener on the
    /// port failed the challenge or the socket-owner check, an error) and `"dir"`, the hook
    /// binary's warm directory (`null` in a build without warm mode).
    pub warm: Option<Value>,
}

/// Checks who listens on the port the manifest's endpoint names: our server (it answers the
/// challenge with the token of the warm directory, and on Linux owns the socket as recorded),
/// nothing, or an impostor.
#[cfg(feature = "warm")]
fn warm_health(manifest: &Manifest) -> Option<Value> {
    use agenthooks_runtime::warm_state as st;
    if !manifest.warm {
        return None;
    }
    let ep = manifest.warm_endpoint.as_ref();
    let mut impostor = None;
    let mut pong = None;
    if let Some((e, dir)) = ep.and_then(|e| e.dir.as_ref().map(|d| (e, st::WarmDir::at(d)))) {
        if let Ok(token) = dir.token() {
            match dir.probe(e.port, &token, std::time::Instant::now() + Duration::from_secs(2)) {
                st::Probe::Ours(v) => {
                    pong = Some(serde_json::json!({"pid": v.record.pid, "build": v.record.build}));
                }
                st::Probe::Impostor(i) => {
                    impostor =
                        Some(serde_json::json!({"pid": i.pid, "uid": i.uid, "why": i.why, "text": i.to_string()}));
                }
                _ => {}
            }
        }
    }
    let mut w = warm_json(manifest, pong.as_ref());
    w["impostor"] = impostor.unwrap_or(Value::Null);
    Some(w)
}

#[cfg(not(feature = "warm"))]
fn warm_health(manifest: &Manifest) -> Option<Value> {
    manifest.warm.then(|| warm_json(manifest, None))
}

fn warm_json(manifest: &Manifest, pong: Option<&Value>) -> Value {
    let ep = manifest.warm_endpoint.as_ref();
    serde_json::json!({
        "port": ep.map(|e| e.port),
        "running": pong.is_some(),
        "pid": pong.map(|p| p["pid"].clone()),
        "build": pong.map(|p| p["build"].clone()),
        "config_build": ep.map(|e| e.build.clone()),
        "impostor": null,
        "dir": crate::warm::dir_of(manifest).map(|d| d.display().to_string()),
    })
}

/// The doctor's sentence about the warm server, under the agent whose http hooks use it.
fn warm_finding(w: &Value, provider: &Provider) -> Finding {
    let port = w["port"]
        .as_u64()
        .map_or_else(|| "no port".to_owned(), |p| format!("127.0.0.1:{p}"));
    let pid = w["pid"].as_u64().unwrap_or(0);
    if let Some(text) = w["impostor"]["text"].as_str() {
        return Finding::new(
            Severity::Error,
            FindingCode::Warm,
            provider,
            format!("{text}: stop that process (or install --warm again for another port); until then the warm hooks fail per their policy"),
        );
    }
    let (severity, text) = match (w["build"].as_str(), w["config_build"].as_str()) {
        (Some(b), Some(c)) if b != c => (
            Severity::Degraded,
            format!("the warm server on {port} (pid {pid}) is build {b}, the config's is {c}: it refuses the config's hooks (409) until the next session-start or prompt hook retires it"),
        ),
        (Some(b), _) => (
            Severity::Info,
            format!("the warm server runs on {port} (pid {pid}, build {b})"),
        ),
        (None, _) => (
            Severity::Info,
            format!("the warm server is not running on {port}: the next session start starts it (until then its http hooks fail, and the agent's failure path decides)"),
        ),
    };
    Finding::new(severity, FindingCode::Warm, provider, text)
}

impl DoctorReport {
    /// Every finding.
    pub fn all_findings(&self) -> impl Iterator<Item = &Finding> {
        self.targets
            .iter()
            .flat_map(|t| t.findings.iter())
            .chain(self.command.findings.iter())
            .chain(self.findings.iter())
    }

    /// Whether anything is broken (an [`Severity::Error`] finding).
    pub fn has_errors(&self) -> bool {
        self.all_findings().any(|f| f.severity == Severity::Error)
    }
}

/// One file holding hooks of ours.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct InstalledFile {
    /// The file.
    pub path: PathBuf,
    /// Our entries in it (canonical form).
    pub entries: Vec<Value>,
}

/// One target's health.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TargetHealth {
    /// The agent.
    pub provider: Provider,
    /// The scope.
    pub scope: Scope,
    /// Project root / plugin dir.
    pub root: PathBuf,
    /// Files holding our hooks.
    pub installed: Vec<InstalledFile>,
    /// Whether installing now would change nothing.
    pub up_to_date: bool,
    /// What is wrong or worth knowing.
    pub findings: Vec<Finding>,
}

/// The consumer command's health.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct CommandHealth {
    /// The program as written in the manifest.
    pub program: String,
    /// Where it resolves.
    pub resolved: Option<PathBuf>,
    /// The ping answer (`{"agenthooks":"pong",…}`), when pinged successfully.
    pub pong: Option<Value>,
    /// Problems.
    pub findings: Vec<Finding>,
}

fn health(manifest: &Manifest, target: &Target) -> TargetHealth {
    let p = target.provider.clone();
    let mut th = TargetHealth {
        provider: p.clone(),
        scope: target.scope,
        root: target.root.clone(),
        installed: Vec::new(),
        up_to_date: false,
        findings: Vec::new(),
    };
    let err = |e: crate::error::InstallError| {
        let code = if matches!(e, crate::error::InstallError::Malformed { .. }) {
            FindingCode::ParseError
        } else {
            FindingCode::Location
        };
        Finding::new(Severity::Error, code, &p, e.to_string())
    };
    match crate::ops::plan_uninstall(manifest, target, &RealFs) {
        Ok(plan) => {
            th.installed = plan
                .files
                .iter()
                .filter(|f| !f.ours_before.is_empty())
                .map(|f| InstalledFile {
                    path: f.path.clone(),
                    entries: f.ours_before.clone(),
                })
                .collect();
        }
        Err(e) => {
            th.findings.push(err(e));
            return th;
        }
    }
    match crate::ops::plan_install(manifest, target, &RealFs) {
        Ok(plan) => {
            th.up_to_date = plan.is_noop();
            if th.installed.is_empty() {
                th.findings.push(Finding::new(
                    Severity::Info,
                    FindingCode::NotInstalled,
                    &p,
                    format!("no hooks of ours for {target}"),
                ));
            } else if !th.up_to_date {
                let files: Vec<String> = plan
                    .files
                    .iter()
                    .filter(|f| f.status() != ChangeStatus::Unchanged)
                    .map(|f| f.path.display().to_string())
                    .collect();
                th.findings.push(Finding::new(
                    Severity::Degraded,
                    FindingCode::Outdated,
                    &p,
                    format!(
                        "installed hooks differ from the manifest; install would change {}",
                        files.join(", ")
                    ),
                ));
            }
        }
        Err(e) => th.findings.push(err(e)),
    }
    if !th.installed.is_empty() {
        let checks = targets::module(&target.provider).and_then(|m| {
            let (hooks, _) = resolve(manifest, target, m)?;
            let mut cx = Cx::new(manifest, target, &RealFs);
            m.health(&mut cx, &hooks)
        });
        match checks {
            Ok(f) => th.findings.extend(f),
            Err(e) => th.findings.push(err(e)),
        }
    }
    th
}

/// Resolves a program: a path when it contains `/`, else a `PATH` lookup.
fn resolve_program(program: &str, path: Option<&OsString>) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return is_executable(&p).then_some(p);
    }
    let path = path.cloned().or_else(|| std::env::var_os("PATH"))?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    let Ok(m) = std::fs::metadata(p) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        m.is_file() && m.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        m.is_file()
    }
}

fn ping(program: &Path, args: &[String], timeout: Duration) -> Result<Value, String> {
    let mut child = Command::new(program)
        .args(args)
        .args(["agenthooks", "ping"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("could not start: {e}"))?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let mut out = String::new();
                if let Some(mut s) = child.stdout.take() {
                    let _ = s.read_to_string(&mut out);
                }
                if !status.success() {
                    return Err(format!("exited with {status}"));
                }
                let v: Value = out
                    .lines()
                    .find_map(|l| serde_json::from_str(l).ok())
                    .ok_or_else(|| format!("answered no JSON: {:?}", out.trim()))?;
                if v.get("agenthooks").and_then(Value::as_str) != Some("pong") {
                    return Err(format!("answered {v} instead of a pong"));
                }
                return Ok(v);
            }
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("no answer within {timeout:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    }
}

fn command_health(manifest: &Manifest, targets: &[Target], opts: &DoctorOptions) -> CommandHealth {
    let program = manifest.command.first().cloned().unwrap_or_default();
    let any = Provider::new("agenthooks");
    let mut ch = CommandHealth {
        program: program.clone(),
        resolved: resolve_program(&program, opts.path.as_ref()),
        pong: None,
        findings: Vec::new(),
    };
    let Some(resolved) = ch.resolved.clone() else {
        ch.findings.push(Finding::new(
            Severity::Error,
            FindingCode::Command,
            &any,
            format!("`{program}` does not resolve to an executable file"),
        ));
        return ch;
    };
    if !opts.ping {
        return ch;
    }
    match ping(&resolved, &manifest.command[1..], opts.ping_timeout) {
        Ok(v) => {
            let providers: Vec<&str> = v
                .get("providers")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut seen = Vec::new();
            for t in targets {
                if !providers.is_empty() && !providers.contains(&t.provider.as_str()) && !seen.contains(&t.provider) {
                    seen.push(t.provider.clone());
                    ch.findings.push(Finding::new(
                        Severity::Error,
                        FindingCode::Command,
                        &t.provider,
                        format!(
                            "the binary has no {} codec compiled in (it knows {})",
                            t.provider,
                            providers.join(", ")
                        ),
                    ));
                }
            }
            ch.pong = Some(v);
        }
        Err(e) => ch.findings.push(Finding::new(
            Severity::Error,
            FindingCode::Command,
            &any,
            format!(
                "`{} agenthooks ping` failed: {e}",
                crate::shell::shown(&manifest.command)
            ),
        )),
    }
    ch
}

/// Checks every target (see [`known_targets`](crate::known_targets) for "every agent this
/// release knows") and the consumer command.
pub fn doctor(manifest: &Manifest, targets: &[Target], opts: &DoctorOptions) -> DoctorReport {
    let healths: Vec<TargetHealth> = targets.iter().map(|t| health(manifest, t)).collect();
    // Duplicates: one provider's native event installed from two files.
    let mut findings = Vec::new();
    let mut seen: Vec<(Provider, String, PathBuf)> = Vec::new();
    for h in &healths {
        for f in &h.installed {
            for e in &f.entries {
                let Some(ev) = e.get("event").and_then(Value::as_str) else {
                    continue;
                };
                if let Some((_, _, other)) = seen
                    .iter()
                    .find(|(p, n, path)| *p == h.provider && n == ev && *path != f.path)
                {
                    let (severity, why) = if h.provider == Provider::CLAUDE_CODE {
                        (
                            Severity::Info,
                            "Claude runs identical commands once, different ones both",
                        )
                    } else {
                        (Severity::Degraded, "it fires twice")
                    };
                    findings.push(
                        Finding::new(
                            severity,
                            FindingCode::Duplicate,
                            &h.provider,
                            format!(
                                "{ev} is installed in both {} and {}: {why}",
                                other.display(),
                                f.path.display()
                            ),
                        )
                        .with_native(ev),
                    );
                } else {
                    seen.push((h.provider.clone(), ev.to_owned(), f.path.clone()));
                }
            }
        }
        if h.provider == Provider::CLAUDE_CODE && h.scope != Scope::Plugin && !h.installed.is_empty() {
            // Cursor runs `.claude/settings*.json` hooks too (Claude-compat, quirk #607).
            let cursor_too = healths
                .iter()
                .any(|c| c.provider == Provider::CURSOR && !c.installed.is_empty());
            let (severity, text) = if cursor_too {
                (
                    Severity::Degraded,
                    format!(
                        "hooks are installed for both Claude Code ({}) and Cursor: Cursor also runs the Claude ones (Claude-compat), so each fires twice under Cursor; uninstall one, or turn off Cursor's third-party hooks",
                        h.installed[0].path.display()
                    ),
                )
            } else {
                (
                    Severity::Info,
                    format!(
                        "Cursor also runs the hooks in {} (Claude-compat); with a Cursor install as well they fire twice there",
                        h.installed[0].path.display()
                    ),
                )
            };
            findings.push(Finding::new(severity, FindingCode::Duplicate, &h.provider, text));
        }
    }
    let warm = if opts.ping { warm_health(manifest) } else { None };
    if let Some(w) = &warm {
        // The first checked agent that gets http hooks (Claude Code; Copilot CLI with the
        // localhost opt-in).
        let provider = targets
            .iter()
            .map(|t| t.provider.clone())
            .find(|p| *p == Provider::CLAUDE_CODE || (*p == Provider::COPILOT && manifest.copilot_allow_localhost))
            .unwrap_or(Provider::CLAUDE_CODE);
        findings.push(warm_finding(w, &provider));
    }
    DoctorReport {
        targets: healths,
        command: command_health(manifest, targets, opts),
        findings,
        warm,
    }
}
