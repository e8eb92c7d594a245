//! `install`, `uninstall`, `diff`, `render`, `doctor` and `preflight`: the CLI over
//! `agenthooks_install`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use agenthooks_core::{CapSet, Capability, EventKind, Provider, Variant};
use agenthooks_install::{
    default_uses, known_targets, supported_providers, ChangeStatus, CodexOptions, DoctorOptions, DoctorReport,
    FailurePolicy, Finding, FindingCode, HookSpec, InstallError, Manifest, OpenClawOptions, Plan, Preflight, Scope,
    Target,
};
use clap::Args;
use serde_json::Value;

use crate::{usage, write_json, Fail, EXIT_MISBEHAVED, EXIT_OK};

/// Where to install: the agent, the scope and the directories.
#[derive(Debug, Args)]
pub(crate) struct TargetArgs {
    /// The agent (claude-code, codex, gemini, copilot, kimi).
    #[arg(long)]
    provider: String,
    /// `project` (the default), `user`, or `plugin` (Claude Code; `--root` is the plugin dir).
    #[arg(long, default_value = "project")]
    scope: Scope,
    #[command(flatten)]
    dirs: DirArgs,
    /// The agent's own home (`$CODEX_HOME`, `$KIMI_CODE_HOME`, `$OPENCLAW_STATE_DIR`); default:
    /// that variable, else the agent's directory under `--home`.
    #[arg(long, value_name = "DIR")]
    agent_home: Option<PathBuf>,
    /// The agent's version, when an older release needs different keys.
    #[arg(long, value_name = "VERSION")]
    agent_version: Option<String>,
    /// Codex: declare the hooks inline in `config.toml` instead of `hooks.json`.
    #[arg(long)]
    inline_toml: bool,
    /// Codex: also mark the project trusted in `config.toml` (otherwise it is only reported).
    #[arg(long)]
    trust_project: bool,
    /// OpenClaw: the config file it reads (`$OPENCLAW_CONFIG_PATH`); default: that variable,
    /// else `openclaw.json` in the state directory.
    #[arg(long, value_name = "FILE")]
    openclaw_config: Option<PathBuf>,
}

/// The project root and the home directory.
#[derive(Debug, Args)]
pub(crate) struct DirArgs {
    /// The project root (project scope) or plugin directory (plugin scope); default: the
    /// current directory.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// The user's home directory; default: `$HOME`.
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
}

/// What to install: a manifest file, or a command with one hook per kind.
#[derive(Debug, Args)]
pub(crate) struct ManifestArgs {
    /// A manifest file (`.toml` or `.json`).
    #[arg(long, value_name = "FILE", conflicts_with = "command")]
    manifest: Option<PathBuf>,
    /// The consumer's command (program and leading arguments) for a default manifest: one hook
    /// per event kind, blocking where a decision can change something, telemetry elsewhere.
    /// Repeat `--command` (or write `--command=-x`) for words starting with `-`.
    #[arg(long, num_args = 1.., value_name = "WORD")]
    command: Vec<String>,
    /// With `--command`: the identity name (default: the program's file name).
    #[arg(long, requires = "command")]
    name: Option<String>,
    /// With `--command`: only these kinds (repeatable; default: every kind).
    #[arg(long = "kind", value_name = "KIND", requires = "command")]
    kinds: Vec<EventKind>,
    /// With `--command`: every hook's timeout in seconds (default: each agent's).
    #[arg(long, value_name = "SECS", requires = "command")]
    timeout: Option<f64>,
    /// With `--command`: a crash or timeout of the hook binary blocks, where the agent can say so.
    #[arg(long, requires = "command")]
    fail_closed: bool,
}

/// `install`, `uninstall`, `diff`.
#[derive(Debug, Args)]
pub(crate) struct ChangeArgs {
    #[command(flatten)]
    target: TargetArgs,
    #[command(flatten)]
    manifest: ManifestArgs,
}

/// `render`.
#[derive(Debug, Args)]
pub(crate) struct RenderArgs {
    /// Print only (the default and only mode: `render` never writes).
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    target: TargetArgs,
    #[command(flatten)]
    manifest: ManifestArgs,
}

/// `doctor`.
#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    #[command(flatten)]
    dirs: DirArgs,
    #[command(flatten)]
    manifest: ManifestArgs,
    /// Do not run `<command> agenthooks ping`.
    #[arg(long)]
    no_ping: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// `preflight`.
#[derive(Debug, Args)]
pub(crate) struct PreflightArgs {
    /// Only these agents (repeatable; default: every agent this release installs for).
    #[arg(long = "provider", value_name = "P")]
    providers: Vec<String>,
    /// The scope (default: project where the agent has project hooks, else user).
    #[arg(long)]
    scope: Option<Scope>,
    #[command(flatten)]
    dirs: DirArgs,
    #[command(flatten)]
    manifest: ManifestArgs,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// A manifest and where it came from (for error messages).
struct Loaded {
    manifest: Manifest,
    /// `FILE: ` or empty.
    label: String,
}

fn out_err(e: &std::io::Error) -> Fail {
    Fail(EXIT_MISBEHAVED, format!("<stdout>: {e}"))
}

fn emit(out: &mut dyn Write, text: &str) -> Result<(), Fail> {
    out.write_all(text.as_bytes()).map_err(|e| out_err(&e))
}

fn load(a: &ManifestArgs) -> Result<Option<Loaded>, Fail> {
    if let Some(path) = &a.manifest {
        return load_file(path).map(Some);
    }
    if a.command.is_empty() {
        return Ok(None);
    }
    Ok(Some(Loaded {
        manifest: from_flags(a)?,
        label: String::new(),
    }))
}

fn require(a: &ManifestArgs) -> Result<Loaded, Fail> {
    load(a)?.ok_or_else(|| usage("one of --manifest FILE or --command WORD… is required"))
}

/// Reads a manifest file, TOML or JSON by its extension.
fn load_file(path: &Path) -> Result<Loaded, Fail> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("{name}: {e}")))?;
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let parsed = match ext.as_deref() {
        Some("toml") => Manifest::from_toml(&text),
        Some("json") => Manifest::from_json(&text),
        _ => return Err(usage(format!("{name}: a manifest file must end in .toml or .json"))),
    };
    let manifest = parsed.map_err(|e| usage(format!("{name}: {e}")))?;
    Ok(Loaded {
        manifest,
        label: format!("{name}: "),
    })
}

/// The identity name from a program path: its file name with anything but
/// `[A-Za-z0-9._-]` replaced by `-`.
fn default_name(program: &str) -> String {
    let base = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    let cleaned: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let cleaned = cleaned.trim_start_matches(['.', '-']);
    if cleaned.is_empty() {
        "agenthooks".to_owned()
    } else {
        cleaned.to_owned()
    }
}

/// The default manifest of `--command`: one hook per kind; kinds whose decisions can change
/// nothing ([`default_uses`] empty) are telemetry (non-blocking).
fn from_flags(a: &ManifestArgs) -> Result<Manifest, Fail> {
    let timeout = match a.timeout {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Some(Duration::from_secs_f64(s)),
        Some(s) => return Err(usage(format!("--timeout {s}: expected a positive number of seconds"))),
    };
    let kinds: Vec<EventKind> = if a.kinds.is_empty() {
        EventKind::ALL.into_iter().filter(|k| *k != EventKind::Other).collect()
    } else {
        a.kinds.clone()
    };
    if kinds.contains(&EventKind::Other) {
        return Err(usage(
            "--kind other names no event; use a manifest file with `provider` and `native`",
        ));
    }
    let program = a.command.first().map_or("", String::as_str);
    let name = a.name.clone().unwrap_or_else(|| default_name(program));
    let mut m = Manifest::new(a.command.iter().cloned(), name);
    if a.fail_closed {
        m = m.with_failure(FailurePolicy::Closed);
    }
    for k in kinds {
        let mut h = HookSpec::kind(k);
        if default_uses(k).is_empty() {
            h = h.non_blocking();
        }
        if let Some(t) = timeout {
            h = h.with_timeout(t);
        }
        m = m.with_hook(h);
    }
    m.validate().map_err(|e| usage(e.to_string()))?;
    Ok(m)
}

fn provider(name: &str) -> Result<Provider, Fail> {
    let all = supported_providers();
    all.iter().find(|p| p.as_str() == name).cloned().ok_or_else(|| {
        let list: Vec<&str> = all.iter().map(Provider::as_str).collect();
        usage(format!(
            "no install target for provider `{name}` (known: {})",
            list.join(", ")
        ))
    })
}

/// An absolute path with `.` and `..` resolved lexically (Codex trust keys embed the root).
fn absolute(cwd: &Path, p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in cwd.join(p).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `--root` (default: the current directory) and `--home` (default: `$HOME`), absolute.
fn dirs(a: &DirArgs) -> Result<(PathBuf, PathBuf), Fail> {
    let cwd = std::env::current_dir().map_err(|e| Fail(EXIT_MISBEHAVED, format!("the current directory: {e}")))?;
    let abs = |p: &Path| absolute(&cwd, p);
    let root = a.root.as_deref().map_or_else(|| cwd.clone(), abs);
    let home = match &a.home {
        Some(h) => abs(h),
        None => std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(|h| abs(Path::new(&h)))
            .ok_or_else(|| usage("--home DIR is required when $HOME is not set"))?,
    };
    Ok((root, home))
}

/// The agent's own home from its environment variable, if set.
fn agent_home_env(p: &Provider) -> Option<PathBuf> {
    let var = if *p == Provider::CODEX {
        "CODEX_HOME"
    } else if *p == Provider::KIMI {
        "KIMI_CODE_HOME"
    } else if *p == Provider::OPENCLAW {
        "OPENCLAW_STATE_DIR"
    } else {
        return None;
    };
    std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from)
}

fn with_env_home(t: Target) -> Target {
    match agent_home_env(&t.provider) {
        Some(h) => t.with_agent_home(h),
        None => t,
    }
}

fn target(a: &TargetArgs) -> Result<Target, Fail> {
    let p = provider(&a.provider)?;
    let (root, home) = dirs(&a.dirs)?;
    let mut t = if a.scope == Scope::User {
        Target::user(p, home)
    } else {
        Target::new(p, a.scope, root, home)
    };
    t = match &a.agent_home {
        Some(h) => t.with_agent_home(h),
        None => with_env_home(t),
    };
    if let Some(v) = &a.agent_version {
        t = t.with_agent_version(v);
    }
    if t.provider == Provider::CODEX {
        t = t.with_options(
            CodexOptions::default()
                .with_inline_toml(a.inline_toml)
                .with_trust_project(a.trust_project),
        );
    }
    if t.provider == Provider::OPENCLAW {
        let config = a.openclaw_config.clone().or_else(|| {
            std::env::var_os("OPENCLAW_CONFIG_PATH")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        });
        if let Some(c) = config {
            t = t.with_options(OpenClawOptions::default().with_config_path(c));
        }
    }
    Ok(t)
}

/// Usage errors (exit 2) for what the command line asked for; failures (exit 1) otherwise.
fn op_fail(loaded: &Loaded, e: &InstallError) -> Fail {
    match e {
        InstallError::InvalidManifest(_) | InstallError::MatcherNotExpressible { .. } => {
            usage(format!("{}{e}", loaded.label))
        }
        InstallError::UnknownProvider(_) | InstallError::UnsupportedScope { .. } => usage(e.to_string()),
        InstallError::UnsafeCommand { .. } => Fail(EXIT_MISBEHAVED, format!("{}{e}", loaded.label)),
        _ => Fail(EXIT_MISBEHAVED, e.to_string()),
    }
}

/// Findings go to stderr as notes: stdout carries the command's result.
fn notes(err: &mut dyn Write, findings: &[Finding]) {
    for f in findings {
        let _ = writeln!(err, "note: {f}");
    }
}

fn status_word(s: ChangeStatus) -> &'static str {
    match s {
        ChangeStatus::Create => "created",
        ChangeStatus::Update => "updated",
        ChangeStatus::Delete => "deleted",
        _ => "unchanged",
    }
}

fn describe_applied(plan: &Plan, done: &str, noop: &str) -> String {
    let mut s = String::new();
    if plan.is_noop() {
        let _ = writeln!(s, "{}: {noop}; nothing changed", plan.target);
        return s;
    }
    let _ = writeln!(s, "{}: {done}", plan.target);
    for f in plan.changes() {
        let _ = writeln!(s, "  {} {}", status_word(f.status()), f.path.display());
    }
    s
}

pub(crate) fn install(a: &ChangeArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Fail> {
    let loaded = require(&a.manifest)?;
    let t = target(&a.target)?;
    let plan = agenthooks_install::install(&loaded.manifest, &t).map_err(|e| op_fail(&loaded, &e))?;
    let mut s = describe_applied(&plan, "installed", "up to date");
    for tr in &plan.trust {
        let _ = writeln!(
            s,
            "  trusted {} in {}: {} = {}",
            tr.native_event,
            tr.config.display(),
            tr.key,
            tr.hash
        );
    }
    emit(out, &s)?;
    notes(err, &plan.findings);
    Ok(EXIT_OK)
}

pub(crate) fn uninstall(a: &ChangeArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Fail> {
    let loaded = require(&a.manifest)?;
    let t = target(&a.target)?;
    let plan = agenthooks_install::uninstall(&loaded.manifest, &t).map_err(|e| op_fail(&loaded, &e))?;
    emit(out, &describe_applied(&plan, "removed our hooks", "no hooks of ours"))?;
    notes(err, &plan.findings);
    Ok(EXIT_OK)
}

pub(crate) fn diff(a: &ChangeArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Fail> {
    let loaded = require(&a.manifest)?;
    let t = target(&a.target)?;
    let plan = agenthooks_install::diff(&loaded.manifest, &t).map_err(|e| op_fail(&loaded, &e))?;
    if plan.is_noop() {
        emit(out, &format!("{}: up to date\n", plan.target))?;
    } else {
        emit(out, &plan.unified_diff())?;
    }
    notes(err, &plan.findings);
    Ok(EXIT_OK)
}

pub(crate) fn render(a: &RenderArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Fail> {
    let _ = a.dry_run;
    let loaded = require(&a.manifest)?;
    let t = target(&a.target)?;
    let r = agenthooks_install::render(&loaded.manifest, &t).map_err(|e| op_fail(&loaded, &e))?;
    let mut s = String::new();
    if r.files.is_empty() {
        let _ = writeln!(s, "{t}: nothing to write");
    }
    for (i, f) in r.files.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        let _ = writeln!(s, "==> {} <==", f.path.display());
        s.push_str(&f.contents);
        if !f.contents.ends_with('\n') {
            s.push('\n');
        }
    }
    emit(out, &s)?;
    notes(err, &r.findings);
    Ok(EXIT_OK)
}

fn where_(provider: &Provider, scope: Scope, root: &Path) -> String {
    if scope == Scope::User {
        format!("{provider} ({scope})")
    } else {
        format!("{provider} ({scope} {})", root.display())
    }
}

fn doctor_text(r: &DoctorReport, with_manifest: bool) -> String {
    let mut s = String::new();
    for t in &r.targets {
        let _ = writeln!(s, "{}", where_(&t.provider, t.scope, &t.root));
        if with_manifest {
            if t.installed.is_empty() {
                let _ = writeln!(s, "  not installed");
            } else {
                for f in &t.installed {
                    let events: Vec<&str> = f
                        .entries
                        .iter()
                        .filter_map(|e| e.get("event").and_then(Value::as_str))
                        .collect();
                    let _ = writeln!(s, "  installed in {}: {}", f.path.display(), events.join(", "));
                }
                let _ = writeln!(
                    s,
                    "  {}",
                    if t.up_to_date {
                        "up to date"
                    } else {
                        "differs from the manifest"
                    }
                );
            }
        }
        let shown: Vec<&Finding> = t
            .findings
            .iter()
            .filter(|f| f.code != FindingCode::NotInstalled)
            .collect();
        if !with_manifest && shown.is_empty() {
            let _ = writeln!(s, "  config files parse");
        }
        for f in shown {
            let _ = writeln!(s, "  {f}");
        }
    }
    if with_manifest {
        let c = &r.command;
        let resolved = c.resolved.as_ref().map_or_else(
            || "does not resolve".to_owned(),
            |p| format!("resolves to {}", p.display()),
        );
        let pong = if c.pong.is_some() { ", answers ping" } else { "" };
        let _ = writeln!(s, "command `{}`: {resolved}{pong}", c.program);
        for f in &c.findings {
            let _ = writeln!(s, "  {f}");
        }
        if !r.findings.is_empty() {
            let _ = writeln!(s, "across targets");
            for f in &r.findings {
                let _ = writeln!(s, "  {f}");
            }
        }
    } else {
        let _ = writeln!(
            s,
            "(no manifest: only checked that the config files parse; pass --manifest FILE or --command WORD… to find our hooks, check trust and ping the command)"
        );
    }
    let errors = r
        .all_findings()
        .filter(|f| f.severity == agenthooks_install::Severity::Error)
        .count();
    let _ = writeln!(
        s,
        "{}",
        if errors == 0 {
            "no problems".to_owned()
        } else {
            format!("{errors} problem(s)")
        }
    );
    s
}

pub(crate) fn doctor(a: &DoctorArgs, out: &mut dyn Write) -> Result<i32, Fail> {
    let loaded = load(&a.manifest)?;
    let (root, home) = dirs(&a.dirs)?;
    let targets: Vec<Target> = known_targets(&root, &home).into_iter().map(with_env_home).collect();
    let with_manifest = loaded.is_some();
    let mut report = match &loaded {
        Some(l) => {
            let opts = DoctorOptions::default().with_ping(!a.no_ping);
            agenthooks_install::doctor(&l.manifest, &targets, &opts)
        }
        None => {
            // Without a manifest nothing is "ours": the doctor only parses each agent's
            // files. The command check of the placeholder is meaningless, so it is dropped.
            let placeholder = Manifest::new(["agenthooks-doctor-no-manifest"], "agenthooks");
            let opts = DoctorOptions::default().with_ping(false);
            let mut r = agenthooks_install::doctor(&placeholder, &targets, &opts);
            r.command.findings.clear();
            r
        }
    };
    if !with_manifest {
        report.findings.clear();
    }
    if a.json {
        let mut v = serde_json::to_value(&report).map_err(|e| Fail(EXIT_MISBEHAVED, e.to_string()))?;
        if !with_manifest {
            if let Some(o) = v.as_object_mut() {
                o.remove("command");
            }
        }
        write_json(out, &v)?;
    } else {
        emit(out, &doctor_text(&report, with_manifest))?;
    }
    Ok(if report.has_errors() { EXIT_MISBEHAVED } else { EXIT_OK })
}

fn caps_list(c: CapSet) -> String {
    if c.is_empty() {
        "-".to_owned()
    } else {
        c.iter().map(Capability::as_str).collect::<Vec<_>>().join(", ")
    }
}

fn secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

fn preflight_text(r: &Preflight, root: &Path) -> String {
    let mut s = String::new();
    for t in &r.targets {
        let _ = writeln!(s, "{}", where_(&t.provider, t.scope, root));
        if let Some(e) = &t.error {
            let _ = writeln!(s, "  cannot install: {e}");
            continue;
        }
        for h in &t.hooks {
            if h.native_events.is_empty() {
                let _ = writeln!(s, "  hook #{} {} → dropped (no event)", h.hook, h.on);
                continue;
            }
            let mut line = format!("  hook #{} {} → {}", h.hook, h.on, h.native_events.join(", "));
            if let Some(m) = &h.matcher {
                let _ = write!(line, " matching {m}");
            }
            line.push_str(if h.blocking { ", blocking" } else { ", non-blocking" });
            if let Some(d) = h.timeout {
                let _ = write!(line, ", timeout {}", secs(d));
            }
            let _ = writeln!(s, "{line}");
            let _ = writeln!(
                s,
                "    honours: {}; uses: {}; missing: {}",
                caps_list(h.capabilities),
                caps_list(h.uses),
                caps_list(h.missing)
            );
        }
        for f in &t.findings {
            let _ = writeln!(s, "  {f}");
        }
    }
    s
}

pub(crate) fn preflight(a: &PreflightArgs, out: &mut dyn Write) -> Result<i32, Fail> {
    let loaded = require(&a.manifest)?;
    let (root, home) = dirs(&a.dirs)?;
    let providers: Vec<Provider> = if a.providers.is_empty() {
        supported_providers()
    } else {
        a.providers.iter().map(|p| provider(p)).collect::<Result<_, _>>()?
    };
    let known = known_targets(&root, &home);
    let targets: Vec<Target> = providers
        .into_iter()
        .map(|p| {
            let t = match a.scope {
                Some(Scope::User) => Target::user(p, &home),
                Some(scope) => Target::new(p, scope, &root, &home),
                None => {
                    let mine: Vec<&Target> = known.iter().filter(|t| t.provider == p).collect();
                    mine.iter()
                        .find(|t| t.scope == Scope::Project)
                        .or_else(|| mine.first())
                        .map_or_else(|| Target::project(p.clone(), &root, &home), |t| (*t).clone())
                }
            };
            with_env_home(t)
        })
        .collect();
    let caps = |p: &Provider, native: &str| {
        crate::codec(p.as_str()).map_or(CapSet::EMPTY, |c| c.capabilities(&Variant::DEFAULT, native))
    };
    let report = agenthooks_install::preflight(&loaded.manifest, &targets, &caps);
    if a.json {
        let v = serde_json::to_value(&report).map_err(|e| Fail(EXIT_MISBEHAVED, e.to_string()))?;
        write_json(out, &v)?;
    } else {
        emit(out, &preflight_text(&report, &root))?;
    }
    Ok(EXIT_OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_made_absolute() {
        let cwd = Path::new("/work/repo");
        assert_eq!(absolute(cwd, Path::new("../home/./me")), Path::new("/work/home/me"));
        assert_eq!(absolute(cwd, Path::new("/x/../y")), Path::new("/y"));
        assert_eq!(absolute(cwd, Path::new(".")), Path::new("/work/repo"));
    }

    #[test]
    fn names_from_programs() {
        assert_eq!(default_name("/opt/my tools/guard"), "guard");
        assert_eq!(default_name("/opt/x/my guard"), "my-guard");
        assert_eq!(default_name(".hidden"), "hidden");
        assert_eq!(default_name("/"), "agenthooks");
    }

    #[test]
    fn flags_give_one_hook_per_kind() {
        let a = ManifestArgs {
            manifest: None,
            command: vec!["/opt/guard".into(), "--cfg".into()],
            name: None,
            kinds: Vec::new(),
            timeout: Some(1.5),
            fail_closed: true,
        };
        let m = from_flags(&a).unwrap();
        assert_eq!(m.command, ["/opt/guard", "--cfg"]);
        assert_eq!(m.identity.name, "guard");
        assert_eq!(m.failure, FailurePolicy::Closed);
        assert_eq!(m.hooks.len(), EventKind::ALL.len() - 1);
        let pre = &m.hooks[m
            .hooks
            .iter()
            .position(|h| h.on == agenthooks_install::HookOn::Kind(EventKind::ToolPre))
            .unwrap()];
        assert!(pre.blocking);
        assert_eq!(pre.timeout, Some(Duration::from_millis(1500)));
        let end = m
            .hooks
            .iter()
            .find(|h| h.on == agenthooks_install::HookOn::Kind(EventKind::SessionEnd))
            .unwrap();
        assert!(!end.blocking);
        let bad = ManifestArgs {
            timeout: Some(-1.0),
            ..a
        };
        assert!(from_flags(&bad).is_err());
    }
}
