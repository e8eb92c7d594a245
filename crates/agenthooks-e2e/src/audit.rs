//! The audit scenario's environment and checks: the hook exports to the testkit's OTLP receiver
//! (real OTLP protobuf over HTTP), and the received trace is checked against what the hook log
//! recorded.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use agenthooks_testkit::otlp::{ReceivedSpan, Receiver};

use crate::check::Check;
use crate::hook;
use crate::hook::HookRecord;
use crate::sandbox::Sandbox;

/// How long the detached shipper gets to deliver after the agent exited (it lingers 5 s).
const DELIVERY: Duration = Duration::from_secs(30);

/// The variables that turn the export on: the receiver as the OTLP endpoint, the spool in the
/// sandbox, the default capture level (none).
pub fn env(rx: &Receiver, sb: &Sandbox) -> Vec<(String, String)> {
    // Both spellings: Claude Code removes `OTEL_*` from its hooks' environment (quirk 112).
    vec![
        ("OTEL_EXPORTER_OTLP_ENDPOINT".into(), rx.base_url()),
        ("OTEL_SERVICE_NAME".into(), "agenthooks-e2e".into()),
        ("AGENTHOOKS_OTEL_EXPORTER_OTLP_ENDPOINT".into(), rx.base_url()),
        ("AGENTHOOKS_OTEL_SERVICE_NAME".into(), "agenthooks-e2e".into()),
        (
            "AGENTHOOKS_AUDIT_SPOOL".into(),
            sb.root.join("audit-spool").display().to_string(),
        ),
    ]
}

fn s<'a>(span: &'a ReceivedSpan, key: &str) -> &'a str {
    span.attrs.get(key).and_then(|v| v.as_str()).unwrap_or("")
}

/// The checks of the received trace (waiting for the shipper to deliver first).
pub fn checks(records: &[HookRecord], provider: &str, rx: &Receiver) -> Vec<Check> {
    let decoded = records.iter().filter(|x| x.kind.is_some()).count();
    // Ours only: an agent that exports its own telemetry to the same endpoint is not judged.
    let is_hook = |x: &ReceivedSpan| x.scope == "agenthooks" && x.name.starts_with("hook ");
    let spans: Vec<ReceivedSpan> = rx
        .wait_for(DELIVERY, |got| got.iter().filter(|x| is_hook(x)).count() >= decoded)
        .into_iter()
        .filter(|x| x.scope == "agenthooks")
        .collect();
    let hooks: Vec<&ReceivedSpan> = spans.iter().filter(|x| is_hook(x)).collect();
    let unique: BTreeSet<&str> = hooks.iter().map(|h| h.span_id.as_str()).collect();
    let mut out = vec![Check::new(
        "audit: a hook span per answered event reached the collector",
        unique.len() >= decoded && decoded > 0,
        format!("{} hook spans for {decoded} decoded hook calls", unique.len()),
    )];

    // One trace per session.
    let mut traces: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for h in &hooks {
        let session = s(h, "gen_ai.conversation.id");
        if !session.is_empty() {
            traces.entry(session).or_default().insert(h.trace_id.as_str());
        }
    }
    let all_traces: BTreeSet<&str> = traces.values().flatten().copied().collect();
    out.push(Check::new(
        "audit: one trace per session",
        !traces.is_empty() && traces.values().all(|t| t.len() == 1) && all_traces.len() == traces.len(),
        format!(
            "{} sessions, traces {:?}",
            traces.len(),
            traces.values().collect::<Vec<_>>()
        ),
    ));

    // session → turn → hook.
    let by_id: BTreeMap<&str, &ReceivedSpan> = spans.iter().map(|x| (x.span_id.as_str(), x)).collect();
    let orphans: Vec<String> = hooks
        .iter()
        .filter(|h| {
            let Some(p) = by_id.get(h.parent_span_id.as_str()) else {
                return true;
            };
            let root = match p.name.as_str() {
                "session" => Some(*p),
                "turn" => by_id
                    .get(p.parent_span_id.as_str())
                    .copied()
                    .filter(|g| g.name == "session"),
                _ => None,
            };
            !(p.trace_id == h.trace_id && root.is_some_and(|g| g.parent_span_id.is_empty() && g.trace_id == h.trace_id))
        })
        .map(|h| h.name.clone())
        .collect();
    out.push(if hooks.is_empty() {
        Check::new(
            "audit: every hook span is under its session (session → turn → hook)",
            false,
            "no hook spans",
        )
    } else {
        Check::none_of(
            "audit: every hook span is under its session (session → turn → hook)",
            &orphans,
            format!("{} hook spans nested", hooks.len()),
            "not nested: ",
        )
    });

    // The deny.
    let deny = hooks.iter().find(|h| s(h, "agenthooks.decision") == "deny");
    let deny_ok = deny.is_some_and(|d| {
        s(d, "agenthooks.kind") == "tool.pre"
            && s(d, "agenthooks.decision.reason") == hook::DENY_REASON
            && s(d, "agenthooks.provider") == provider
            && !s(d, "gen_ai.tool.name").is_empty()
            && !s(d, "agenthooks.native_event").is_empty()
            && d.resource.get("service.name").and_then(|v| v.as_str()) == Some("agenthooks-e2e")
    });
    out.push(Check::new(
        "audit: the deny's span carries its attributes",
        deny_ok,
        deny.map_or_else(|| "no deny span".to_owned(), |d| format!("{:?}", d.attrs)),
    ));
    let logs = rx.logs();
    let logged = deny.is_some_and(|d| logs.iter().any(|l| l.span_id == d.span_id && l.severity == 13));
    out.push(Check::new(
        "audit: a WARN log record for the deny, in its span",
        logged,
        format!("{} log records", logs.len()),
    ));

    // No content at the default capture level.
    let leaks: Vec<String> = spans
        .iter()
        .flat_map(|x| x.attrs.iter())
        .filter(|(k, v)| {
            let text = v.to_string();
            k.starts_with("agenthooks.content")
                || k.as_str() == "agenthooks.cwd"
                || text.contains(hook::MARKER_COMMAND)
                || text.contains(hook::MARKER_FILE)
        })
        .map(|(k, _)| k.clone())
        .collect();
    out.push(Check::none_of(
        "audit: no content at the default capture level",
        &leaks,
        "no content attributes",
        "content in ",
    ));
    out
}
