//! The cross-version corpus: capturing any published release into `fixtures/<agent>/<version>/`
//! ([`capture_release`], the `capture` command) and comparing the latest release against the
//! pin ([`drift`], the `drift` command).
//!
//! A capture installs `<package>@<version>` into the cache, registers every native event the
//! release itself lists ([`crate::release::events`]), runs the standard scenarios, and writes:
//!
//! | file | content |
//! |---|---|
//! | `<case>/input.json`, `<case>/meta.toml` | one case per new payload shape ([`crate::capture`]) |
//! | `<case>/event.json`, `<case>/responses/` | blessed by the conformance suite over the version directory |
//! | `transcript.jsonl` | the transcript the no-decision run's payloads point at, paths rewritten |
//! | `schema/<file>` | the JSON schemas the agent's package ships |
//! | `release.toml` | package, version, where the event list came from, the events registered, and each scenario's result |
//!
//! A release whose install fails (a newer Node, a removed platform build) or whose hooks never
//! fire offline is reported in the [`CaptureReport`], never silently skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::agents::{AgentSpec, Toolchain};
use crate::release::{self, ReleaseEvents};
use crate::scenario::{self, RunReport, Scenario};

pub use crate::capture::version_dir;

/// What one capture did.
#[derive(Debug)]
#[non_exhaustive]
pub struct CaptureReport {
    /// The agent at the captured version.
    pub agent: &'static AgentSpec,
    /// The version directory.
    pub dir: PathBuf,
    /// The release's events (`None` when the install failed).
    pub events: Option<ReleaseEvents>,
    /// The scenario runs.
    pub runs: Vec<RunReport>,
    /// Case directories written.
    pub written: Vec<PathBuf>,
    /// Problems: install failures, hooks that never fired, conformance failures.
    pub problems: Vec<String>,
}

impl CaptureReport {
    /// Whether the release ran and its hooks fired (some payload was received).
    pub fn hooks_fired(&self) -> bool {
        self.runs.iter().any(|r| !r.records.is_empty())
    }

    /// A human-readable summary.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "== capture {} {} → {}",
            self.agent.name,
            self.agent.version,
            self.dir.display()
        );
        if let Some(ev) = &self.events {
            let _ = writeln!(s, "events from {}", ev.source());
            if let Some(l) = &ev.listed {
                let _ = writeln!(s, "  listed ({}): {}", l.len(), l.join(", "));
            }
            if !ev.absent.is_empty() {
                let _ = writeln!(s, "  codec events the release never mentions: {}", ev.absent.join(", "));
            }
        }
        for r in &self.runs {
            let _ = writeln!(
                s,
                "  {:<14} {}  {} hook calls{}",
                r.scenario.name(),
                if r.passed() { "PASS" } else { "FAIL" },
                r.records.len(),
                if r.passed() {
                    String::new()
                } else {
                    format!("  ({})", r.summary())
                }
            );
        }
        let _ = writeln!(s, "  {} new cases", self.written.len());
        for p in &self.problems {
            let _ = writeln!(s, "  PROBLEM: {p}");
        }
        s
    }
}

/// The scenarios a capture (and the drift report) runs on an agent: the standard ones that run
/// on it and that `AGENTHOOKS_E2E_SCENARIOS` selects.
pub fn capture_scenarios(agent: &AgentSpec) -> Vec<Scenario> {
    Scenario::STANDARD
        .iter()
        .copied()
        .filter(|s| s.runs_on(agent.id) && crate::scenario_selected(*s))
        .collect()
}

/// Installs the agent at its version, registers the release's events, runs the scenarios.
/// Returns the toolchain's events and the runs, or the install error.
pub fn run_release(
    agent: &'static AgentSpec,
    scenarios: &[Scenario],
    hook_bin: &Path,
    work: &Path,
) -> Result<(ReleaseEvents, Vec<RunReport>), String> {
    let cache = crate::npm::Cache::from_env();
    let mut tc: Toolchain = crate::toolchain(&cache, agent, hook_bin)?;
    let codec_events: Vec<&str> = agent
        .codec()
        .map(|c| c.native_events().iter().map(|e| e.name).collect())
        .unwrap_or_default();
    let events = release::events(&tc.prefix, agent.package, &codec_events);
    tc.events = Some(events.to_register(&codec_events));
    let runs = scenarios.iter().map(|s| scenario::run(agent, *s, &tc, work)).collect();
    Ok((events, runs))
}

/// Captures `agent` at `version` into `fixtures` (the fixtures root).
pub fn capture_release(agent: &AgentSpec, version: &str, fixtures: &Path, hook_bin: &Path) -> CaptureReport {
    let agent = crate::agents::at_version(agent, version);
    let dir = fixtures.join(agent.provider).join(agent.version);
    let work = scenario::work_dir();
    let mut report = CaptureReport {
        agent,
        dir: dir.clone(),
        events: None,
        runs: Vec::new(),
        written: Vec::new(),
        problems: Vec::new(),
    };
    let (events, runs) = match run_release(agent, &capture_scenarios(agent), hook_bin, &work) {
        Ok(x) => x,
        Err(e) => {
            report.problems.push(format!(
                "{}@{} cannot be installed here: {e}",
                agent.package, agent.version
            ));
            return report;
        }
    };
    report.events = Some(events);
    report.runs = runs;
    if !report.hooks_fired() {
        let said = report
            .runs
            .iter()
            .find_map(|r| r.proc.as_ref())
            .map(|p| {
                let out = format!("{} {}", p.stderr.trim(), p.stdout.trim());
                let out = out.trim();
                let cut = out.char_indices().nth(400).map_or(out.len(), |(i, _)| i);
                format!(
                    "exit {:?}, {} model requests; the agent said: {}",
                    p.code,
                    report.runs[0].requests.len(),
                    &out[..cut]
                )
            })
            .unwrap_or_default();
        report.problems.push(format!(
            "{} {}: no hook fired offline in any scenario (nothing captured); {said}",
            agent.name, agent.version
        ));
    }
    for r in &report.runs {
        let Some(sb) = &r.sandbox else { continue };
        match crate::capture::capture(agent, r.scenario.name(), &r.records, &sb.root, fixtures) {
            Ok(w) => report.written.extend(w),
            Err(e) => report
                .problems
                .push(format!("writing {} cases: {e}", r.scenario.name())),
        }
    }
    if report.hooks_fired() {
        if let Err(e) = write_release_files(&report) {
            report.problems.push(e);
        }
        if let Some(codec) = agent.codec() {
            let conf = agenthooks_testkit::conformance::Suite::new(codec, &dir)
                .bless(true)
                .tolerance(true)
                .check();
            report
                .problems
                .extend(conf.failures.iter().map(|f| format!("conformance: {f}")));
        }
    }
    for r in &report.runs {
        if let Some(sb) = &r.sandbox {
            if r.passed() {
                let _ = std::fs::remove_dir_all(&sb.root);
            }
        }
    }
    let _ = std::fs::remove_dir(&work);
    report
}

/// `release.toml`, the transcript and the shipped schemas.
fn write_release_files(report: &CaptureReport) -> Result<(), String> {
    let agent = report.agent;
    let dir = &report.dir;
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let mut doc = toml_edit::DocumentMut::new();
    doc["agent"] = toml_edit::value(agent.name);
    doc["package"] = toml_edit::value(agent.package);
    doc["version"] = toml_edit::value(agent.version);
    doc["node"] = toml_edit::value(crate::npm::NODE_VERSION);
    doc["captured_by"] = toml_edit::value(format!(
        "cargo run -p agenthooks-e2e -- capture --agent {} --version {}",
        agent.short(),
        agent.version
    ));
    let strings = |v: &[String]| {
        let mut a = toml_edit::Array::new();
        for s in v {
            a.push(s.as_str());
        }
        toml_edit::value(a)
    };
    if let Some(ev) = &report.events {
        doc["events_source"] = toml_edit::value(ev.source());
        let codec_events: Vec<&str> = agent
            .codec()
            .map(|c| c.native_events().iter().map(|e| e.name).collect())
            .unwrap_or_default();
        doc["events_registered"] = strings(&ev.to_register(&codec_events));
        doc["codec_events_absent"] = strings(&ev.absent);
    }
    let mut scen = toml_edit::Table::new();
    for r in &report.runs {
        let fired: BTreeSet<String> = r.records.iter().map(|x| x.native_name().to_owned()).collect();
        let mut t = toml_edit::InlineTable::new();
        t.insert("passed", r.passed().into());
        t.insert("hook_calls", i64::try_from(r.records.len()).unwrap_or(i64::MAX).into());
        let mut a = toml_edit::Array::new();
        for f in &fired {
            a.push(f.as_str());
        }
        t.insert("events", toml_edit::Value::Array(a));
        if !r.passed() {
            t.insert("failed", r.summary().into());
        }
        scen[r.scenario.name()] = toml_edit::value(t);
    }
    doc["scenarios"] = toml_edit::Item::Table(scen);
    let mut schemas = Vec::new();
    if let Some(first) = report.runs.first() {
        if let Some(sb) = &first.sandbox {
            if let Some(t) = crate::capture::transcript(&first.records, &sb.root) {
                std::fs::write(dir.join("transcript.jsonl"), t).map_err(|e| format!("writing transcript: {e}"))?;
            }
        }
    }
    let cache = crate::npm::Cache::from_env();
    let prefix = cache.prefix(agent.package, agent.version);
    for (name, path) in release::schemas(&prefix, agent.package) {
        // The config schema only (not RPC or session-event schemas, which run to megabytes).
        let lower = name.to_ascii_lowercase();
        if !["config", "settings", "hook"].iter().any(|k| lower.contains(k)) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else { continue };
        if bytes.len() > 512 * 1024 {
            continue;
        }
        let to = dir.join("schema").join(&name);
        std::fs::create_dir_all(dir.join("schema")).map_err(|e| format!("creating schema dir: {e}"))?;
        std::fs::write(&to, bytes).map_err(|e| format!("writing {}: {e}", to.display()))?;
        schemas.push(name);
    }
    doc["schemas"] = strings(&schemas);
    std::fs::write(dir.join("release.toml"), doc.to_string()).map_err(|e| format!("writing release.toml: {e}"))
}

/// Per native event, the set of top-level payload fields of a version directory's cases.
pub fn field_sets(dir: &Path) -> BTreeMap<String, BTreeSet<BTreeSet<String>>> {
    let mut out: BTreeMap<String, BTreeSet<BTreeSet<String>>> = BTreeMap::new();
    let Ok(cases) = agenthooks_testkit::fixture::load_all(dir) else {
        return out;
    };
    for fx in cases {
        let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(&fx.input) else {
            continue;
        };
        out.entry(fx.meta.native_event.clone())
            .or_default()
            .insert(m.keys().cloned().collect());
    }
    out
}

/// Per native event, the union of top-level payload fields.
pub fn field_union(sets: &BTreeMap<String, BTreeSet<BTreeSet<String>>>) -> BTreeMap<String, BTreeSet<String>> {
    sets.iter()
        .map(|(k, v)| (k.clone(), v.iter().flatten().cloned().collect()))
        .collect()
}

/// One scenario's behaviour, for the drift comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Behaviour {
    passed: bool,
    exit: Option<i32>,
    stdout_keys: Vec<String>,
    events: BTreeSet<String>,
}

fn behaviour(r: &RunReport) -> Behaviour {
    let stdout_keys = r
        .proc
        .as_ref()
        .and_then(|p| {
            p.stdout
                .lines()
                .rev()
                .find_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
                .or_else(|| serde_json::from_str::<Value>(p.stdout.trim()).ok())
        })
        .and_then(|v| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>()))
        .unwrap_or_default();
    // Key order is not behaviour.
    let mut stdout_keys = stdout_keys;
    stdout_keys.sort();
    Behaviour {
        passed: r.passed(),
        exit: r.proc.as_ref().and_then(|p| p.code),
        stdout_keys,
        events: r.records.iter().map(|x| x.native_name().to_owned()).collect(),
    }
}

/// Fields of the runs' payloads that the codec's typed structs keep only in `extra`, per native
/// event: the payloads are written as fixtures into `scratch` and decoded from there.
fn extra_fields(agent: &'static AgentSpec, runs: &[RunReport], scratch: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let Some(codec) = agent.codec() else { return out };
    for r in runs {
        let Some(sb) = &r.sandbox else { continue };
        let _ = crate::capture::capture(agent, r.scenario.name(), &r.records, &sb.root, scratch);
    }
    let dir = scratch.join(agent.provider).join(agent.version);
    for fx in agenthooks_testkit::fixture::load_all(&dir).unwrap_or_default() {
        let Ok(ev) = fx.decode(codec) else {
            out.entry(fx.meta.native_event.clone())
                .or_default()
                .insert("(payload does not decode)".into());
            continue;
        };
        if let Some(extra) = codec.native_extra(ev.envelope()) {
            out.entry(fx.meta.native_event.clone())
                .or_default()
                .extend(extra.keys().cloned());
        }
    }
    let _ = std::fs::remove_dir_all(scratch);
    out.retain(|_, v| !v.is_empty());
    out
}

/// Output keys a JSON schema of the release declares for hook output (the properties of any
/// object schema that has `hookSpecificOutput`, `decision` or `permissionDecision`) that no
/// response of ours carried. `None` when the release ships no such schema.
fn schema_output_keys_never_emitted(agent: &AgentSpec, runs: &[RunReport]) -> Option<Vec<String>> {
    let cache = crate::npm::Cache::from_env();
    let prefix = cache.prefix(agent.package, agent.version);
    let mut declared = BTreeSet::new();
    for (_, path) in release::schemas(&prefix, agent.package) {
        let Ok(v) = serde_json::from_slice::<Value>(&std::fs::read(path).unwrap_or_default()) else {
            continue;
        };
        collect_output_props(&v, &mut declared);
    }
    if declared.is_empty() {
        return None;
    }
    let mut emitted = BTreeSet::new();
    for r in runs {
        for rec in &r.records {
            if let Ok(v) = serde_json::from_str::<Value>(rec.stdout.trim()) {
                collect_keys(&v, &mut emitted);
            }
        }
    }
    Some(declared.difference(&emitted).cloned().collect())
}

fn collect_output_props(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Object(props)) = m.get("properties") {
                if ["hookSpecificOutput", "decision", "permissionDecision"]
                    .iter()
                    .any(|k| props.contains_key(*k))
                {
                    out.extend(props.keys().cloned());
                }
            }
            m.values().for_each(|x| collect_output_props(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_output_props(x, out)),
        _ => {}
    }
}

fn collect_keys(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.insert(k.clone());
                collect_keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_keys(x, out)),
        _ => {}
    }
}

/// The drift of one agent: latest published release against the pin.
#[derive(Debug)]
#[non_exhaustive]
pub struct AgentDrift {
    /// The pinned spec.
    pub pinned: &'static AgentSpec,
    /// The latest published version (or why it could not be found).
    pub latest: Result<String, String>,
    /// The report's text.
    pub text: String,
    /// Scenario failures on the latest release (and install failures).
    pub failures: Vec<String>,
}

impl AgentDrift {
    fn failed(pinned: &'static AgentSpec, latest: Result<String, String>, text: String, failure: String) -> Self {
        Self {
            pinned,
            latest,
            text,
            failures: vec![failure],
        }
    }
}

/// Runs the drift comparison for one agent.
pub fn drift(agent: &'static AgentSpec, hook_bin: &Path) -> AgentDrift {
    let mut text = String::new();
    let mut failures = Vec::new();
    let latest = release::latest_version(agent.package);
    let _ = writeln!(text, "== {} ({}): pinned {}", agent.name, agent.package, agent.version);
    let latest_v = match &latest {
        Ok(v) => v.clone(),
        Err(e) => {
            let _ = writeln!(text, "  latest: unknown ({e})");
            let failure = format!("{}: {e}", agent.name);
            return AgentDrift::failed(agent, latest.clone(), text, failure);
        }
    };
    let same = latest_v == agent.version;
    let _ = writeln!(
        text,
        "  latest published: {latest_v}{}",
        if same { " (= the pin)" } else { "" }
    );
    let work = scenario::work_dir();
    let scenarios = capture_scenarios(agent);
    let latest_spec = crate::agents::at_version(agent, &latest_v);
    let latest_run = run_release(latest_spec, &scenarios, hook_bin, &work);
    let pinned_run = if same {
        None
    } else {
        Some(run_release(agent, &scenarios, hook_bin, &work))
    };
    let (l_events, l_runs) = match latest_run {
        Ok(x) => x,
        Err(e) => {
            let _ = writeln!(text, "  latest {latest_v}: install failed: {e}");
            let failure = format!("{} {latest_v}: install failed", agent.name);
            return AgentDrift::failed(agent, latest, text, failure);
        }
    };
    // Events added / removed.
    let codec_events: BTreeSet<String> = agent
        .codec()
        .map(|c| c.native_events().iter().map(|e| e.name.to_owned()).collect())
        .unwrap_or_default();
    let (p_events, p_runs) = match pinned_run {
        Some(Ok((e, r))) => (Some(e), r),
        Some(Err(e)) => {
            let _ = writeln!(text, "  pinned {}: install failed: {e}", agent.version);
            (None, Vec::new())
        }
        None => (Some(l_events.clone()), Vec::new()),
    };
    match (&l_events.listed, p_events.as_ref().and_then(|e| e.listed.as_ref())) {
        (Some(l), Some(p)) => {
            let l: BTreeSet<&String> = l.iter().collect();
            let p: BTreeSet<&String> = p.iter().collect();
            let _ = writeln!(text, "  native events ({} listed by the release's bundle)", l.len());
            let _ = writeln!(text, "    added since the pin: {}", join(l.difference(&p).copied()));
            let _ = writeln!(text, "    removed since the pin: {}", join(p.difference(&l).copied()));
            let unknown: Vec<&&String> = l.iter().filter(|e| !codec_events.contains(**e)).collect();
            let _ = writeln!(
                text,
                "    listed but not in our codec's table: {}",
                join(unknown.into_iter().copied())
            );
        }
        _ if l_events.present.is_empty() => {
            let _ = writeln!(
                text,
                "  native events: the installed package names none of the codec's events (its bundle is packed or unpacked at first start); the codec's table was registered"
            );
        }
        _ => {
            let _ = writeln!(
                text,
                "  native events: the release lists none in its bundle; codec events it never mentions: {}",
                join(l_events.absent.iter())
            );
        }
    }
    // Extra fields.
    let scratch = work.join(format!("drift-scratch-{}", agent.short()));
    let extras = extra_fields(latest_spec, &l_runs, &scratch);
    if extras.is_empty() {
        let _ = writeln!(text, "  fields kept only as extra: none");
    } else {
        let _ = writeln!(text, "  fields kept only as extra (typed structs do not name them):");
        for (ev, f) in &extras {
            let _ = writeln!(text, "    {ev}: {}", join(f.iter()));
        }
    }
    // Schema output keys.
    match schema_output_keys_never_emitted(latest_spec, &l_runs) {
        None => {
            let _ = writeln!(
                text,
                "  schema output keys never emitted: the release ships no hook output schema"
            );
        }
        Some(keys) => {
            let _ = writeln!(text, "  schema output keys never emitted: {}", join(keys.iter()));
        }
    }
    // Scenario behaviour.
    let _ = writeln!(text, "  scenarios (latest{}):", if same { "" } else { " vs pinned" });
    for (i, r) in l_runs.iter().enumerate() {
        let b = behaviour(r);
        let mut line = format!(
            "    {:<14} {} exit {:?} stdout keys [{}]",
            r.scenario.name(),
            if b.passed { "PASS" } else { "FAIL" },
            b.exit,
            b.stdout_keys.join(",")
        );
        if !b.passed {
            failures.push(format!(
                "{} {latest_v} / {}: {}",
                agent.name,
                r.scenario.name(),
                r.summary()
            ));
            let _ = write!(line, " ({})", r.summary());
        }
        if let Some(p) = p_runs.get(i).map(behaviour) {
            let mut diffs = Vec::new();
            if p.passed != b.passed {
                diffs.push(format!("pinned {}", if p.passed { "PASS" } else { "FAIL" }));
            }
            if p.exit != b.exit {
                diffs.push(format!("pinned exit {:?}", p.exit));
            }
            if p.stdout_keys != b.stdout_keys {
                diffs.push(format!("pinned stdout keys [{}]", p.stdout_keys.join(",")));
            }
            let added: Vec<&String> = b.events.difference(&p.events).collect();
            let removed: Vec<&String> = p.events.difference(&b.events).collect();
            if !added.is_empty() {
                diffs.push(format!("events fired only on latest: {}", join(added.into_iter())));
            }
            if !removed.is_empty() {
                diffs.push(format!("events fired only on the pin: {}", join(removed.into_iter())));
            }
            let _ = write!(
                line,
                " | {}",
                if diffs.is_empty() {
                    "same as pinned".to_owned()
                } else {
                    diffs.join("; ")
                }
            );
        }
        let _ = writeln!(text, "{line}");
    }
    for r in l_runs.iter().chain(&p_runs) {
        if let Some(sb) = &r.sandbox {
            if r.passed() {
                let _ = std::fs::remove_dir_all(&sb.root);
            } else {
                let _ = writeln!(text, "    (kept {} sandbox: {})", r.scenario.name(), sb.root.display());
            }
        }
    }
    let _ = std::fs::remove_dir(&work);
    AgentDrift {
        pinned: agent,
        latest,
        text,
        failures,
    }
}

fn join<'a>(it: impl Iterator<Item = &'a String>) -> String {
    let v: Vec<&str> = it.map(String::as_str).collect();
    if v.is_empty() {
        "none".to_owned()
    } else {
        v.join(", ")
    }
}

/// Native events a capture (`got`) has that the committed directory (`expected`) lacks: events
/// the release lists that the older capture did not register.
pub fn new_events(expected: &Path, got: &Path) -> Vec<String> {
    let want = field_sets(expected);
    field_sets(got).into_keys().filter(|e| !want.contains_key(e)).collect()
}

/// How a capture (`got`) fails to reproduce a committed version directory (`expected`): an
/// event of the directory not captured, or, per event, a different union of top-level payload
/// fields (empty: reproduced). Events only the capture has are [`new_events`].
pub fn corpus_differences(expected: &Path, got: &Path) -> Vec<String> {
    let want = field_union(&field_sets(expected));
    let have = field_union(&field_sets(got));
    let mut out = Vec::new();
    for ev in want.keys().filter(|e| !have.contains_key(*e)) {
        out.push(format!("{ev}: in {} but not captured", expected.display()));
    }
    for (ev, w) in &want {
        let Some(h) = have.get(ev) else { continue };
        let missing: Vec<&String> = w.difference(h).collect();
        let extra: Vec<&String> = h.difference(w).collect();
        if !missing.is_empty() || !extra.is_empty() {
            out.push(format!(
                "{ev}: fields only in the fixtures: {}; only in the capture: {}",
                join(missing.into_iter()),
                join(extra.into_iter())
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(root: &Path, name: &str, event: &str, input: &str) {
        let d = root.join(name);
        std::fs::create_dir_all(&d).expect("mkdir");
        std::fs::write(d.join("input.json"), input).expect("input");
        std::fs::write(d.join("meta.toml"), format!("native_event = \"{event}\"\n")).expect("meta");
    }

    #[test]
    fn differences_name_events_and_fields() {
        let tmp = std::env::temp_dir().join(format!("agenthooks-e2e-corpus-test-{}", std::process::id()));
        let (a, b) = (tmp.join("a/x/1.0"), tmp.join("b/x/1.0"));
        case(&a, "stop-allow", "Stop", r#"{"a":1,"b":2}"#);
        case(&a, "stop-deny", "Stop", r#"{"a":1,"c":2}"#);
        case(&b, "stop-e2e", "Stop", r#"{"a":1,"b":2,"c":3}"#);
        assert!(corpus_differences(&a, &b).is_empty(), "field unions agree");
        case(&b, "end-e2e", "End", r#"{"a":1}"#);
        assert!(
            corpus_differences(&a, &b).is_empty(),
            "a newly registered event is no difference"
        );
        assert_eq!(new_events(&a, &b), vec!["End".to_owned()]);
        case(&b, "stop-e2e-2", "Stop", r#"{"d":1}"#);
        case(&a, "gone", "Gone", r#"{"a":1}"#);
        let d = corpus_differences(&a, &b);
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d[0].starts_with("Gone: in"), "{d:?}");
        assert!(d[1].contains("only in the capture: d"), "{d:?}");
        let _ = std::fs::remove_dir_all(&tmp);
    }

    #[test]
    fn version_dirs_match_exact_or_suffixed_names() {
        let tmp = std::env::temp_dir().join(format!("agenthooks-e2e-vdir-test-{}", std::process::id()));
        let gemini = AgentSpec::get(crate::agents::AgentId::Gemini);
        std::fs::create_dir_all(tmp.join("gemini").join(format!("gemini-cli-{}", gemini.version))).expect("mkdir");
        assert_eq!(
            version_dir(&tmp, gemini),
            Some(tmp.join("gemini").join(format!("gemini-cli-{}", gemini.version)))
        );
        assert_eq!(version_dir(&tmp, AgentSpec::get(crate::agents::AgentId::Codex)), None);
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
