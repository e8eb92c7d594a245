//! What the commands print: results on stdout, findings as notes on stderr, and the text
//! reports of `install`, `uninstall`, `diff`, `doctor` and `preflight`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use agenthooks_core::{CapSet, Capability, Provider};
use serde_json::Value;

use super::error::{fail, out_err, CliError, EXIT_MISBEHAVED};
use crate::{ChangeStatus, DoctorReport, Finding, FindingCode, Manifest, Plan, Preflight, Scope, Target};

pub(crate) fn write_json(out: &mut dyn Write, v: &Value) -> Result<(), CliError> {
    let mut s = serde_json::to_string_pretty(v).map_err(|e| fail(EXIT_MISBEHAVED, e.to_string()))?;
    s.push('\n');
    emit(out, &s)
}

pub(crate) fn emit(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    out.write_all(text.as_bytes()).map_err(|e| out_err(&e))
}

/// Findings go to stderr as notes: stdout carries the command's result.
pub(crate) fn notes(err: &mut dyn Write, findings: &[Finding]) {
    for f in findings {
        let _ = writeln!(err, "note: {f}");
    }
}

pub(crate) fn status_word(s: ChangeStatus) -> &'static str {
    match s {
        ChangeStatus::Create => "created",
        ChangeStatus::Update => "updated",
        ChangeStatus::Delete => "deleted",
        _ => "unchanged",
    }
}

pub(crate) fn describe_applied(plan: &Plan, done: &str, noop: &str) -> String {
    let mut s = String::new();
    if plan.is_noop() {
        let _ = writeln!(s, "{}: {noop}; nothing changed", plan.target);
        return s;
    }
    let _ = writeln!(s, "{}: {done}", plan.target);
    // The install record is bookkeeping (see `Plan::unified_diff`): only configs are listed.
    for f in plan.changes().filter(|f| f.format != crate::FileFormat::Record) {
        let _ = writeln!(s, "  {} {}", status_word(f.status()), f.path.display());
    }
    s
}

/// `  events: A, B, …` — the native events the target gets.
pub(crate) fn events_line(m: &Manifest, t: &Target) -> String {
    let caps = |_: &Provider, _: &str| CapSet::EMPTY;
    let report = crate::preflight(m, std::slice::from_ref(t), &caps);
    let mut names: Vec<String> = Vec::new();
    for h in report.targets.iter().flat_map(|t| &t.hooks) {
        for n in &h.native_events {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    format!(
        "  events: {}\n",
        if names.is_empty() {
            "-".to_owned()
        } else {
            names.join(", ")
        }
    )
}

pub(crate) fn diff_text(plan: &Plan, noop: &str) -> String {
    if plan.is_noop() {
        format!("{}: {noop}\n", plan.target)
    } else {
        plan.unified_diff()
    }
}

pub(crate) fn where_(provider: &Provider, scope: Scope, root: &Path) -> String {
    if scope == Scope::User {
        format!("{provider} ({scope})")
    } else {
        format!("{provider} ({scope} {})", root.display())
    }
}

/// What a target whose hooks differ is told, and the diff install would apply (per target, in
/// the report's order).
pub(crate) struct Drift<'a> {
    pub(crate) label: &'a str,
    pub(crate) diffs: Vec<Option<String>>,
}

pub(crate) fn doctor_text(r: &DoctorReport, with_manifest: bool, drift: &Drift<'_>) -> String {
    let mut s = String::new();
    for (i, t) in r.targets.iter().enumerate() {
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
                let _ = writeln!(s, "  {}", if t.up_to_date { "up to date" } else { drift.label });
                if let (false, Some(Some(d))) = (t.up_to_date, drift.diffs.get(i)) {
                    for line in d.lines() {
                        let _ = writeln!(s, "    {line}");
                    }
                }
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
        if let Some(d) = r.warm.as_ref().and_then(|w| w["dir"].as_str()) {
            let _ = writeln!(s, "warm directory: {d}");
        }
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
        .filter(|f| f.severity == crate::Severity::Error)
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

pub(crate) fn caps_list(c: CapSet) -> String {
    if c.is_empty() {
        "-".to_owned()
    } else {
        c.iter().map(Capability::as_str).collect::<Vec<_>>().join(", ")
    }
}

pub(crate) fn secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

pub(crate) fn preflight_text(r: &Preflight, root: &Path) -> String {
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
