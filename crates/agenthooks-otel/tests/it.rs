//! The audit export end to end in process: the runner's pipeline spools records, the shipper
//! sends them to the testkit's OTLP receiver (real OTLP protobuf), and a killed shipper loses
//! nothing it had not acknowledged.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use agenthooks_core::decision::deny;
use agenthooks_core::{Codec, Context, Invocation, Router, ToolPreEvent};
use agenthooks_otel::ship::{ship, ShipOptions};
use agenthooks_otel::{Audit, AuditConfig, Capture, Record, Spool};
use agenthooks_runtime::Runner;
use agenthooks_testkit::otlp::Receiver;
use proptest::prelude::*;

const SECRET: &str = "AKIAIOSFODNN7EXAMPLE";

fn temp(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let d = std::env::temp_dir().join(format!(
        "agenthooks-otel-it-{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn payload(session: &str, turn: &str, event: &str, command: &str, call: &str) -> Vec<u8> {
    serde_json::json!({
        "session_id": session, "transcript_path": "/t.jsonl", "cwd": "/w", "prompt_id": turn,
        "hook_event_name": event, "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": call,
        "tool_response": {"stdout": ""},
    })
    .to_string()
    .into_bytes()
}

fn router() -> Router {
    Router::new().on_tool_pre(|_cx: &Context, e: &ToolPreEvent| {
        if e.tool.command().is_some_and(|c| c.contains("rm -rf")) {
            deny("destructive command")
        } else {
            agenthooks_core::decision::no_decision()
        }
    })
}

/// Answers `payloads` through a runner auditing into `dir` with `capture`; returns the spool.
fn answer(dir: &std::path::Path, capture: Capture, payloads: &[Vec<u8>]) -> Spool {
    let config = AuditConfig::default().with_capture(capture).with_spool_dir(dir);
    let runner = Runner::new(router(), vec![&agenthooks_claude::CODEC]).with_audit(Arc::new(Audit::new(config)));
    let env: Vec<(String, String)> = Vec::new();
    for p in payloads {
        let inv = Invocation::new(p.clone(), &env);
        let out = runner.invoke(
            &agenthooks_claude::CODEC,
            &inv,
            None,
            agenthooks_core::provider::Confidence::Certain,
        );
        assert!(out.failure.is_none(), "{:?}", out.failure);
    }
    Spool::open(dir, 1 << 30).unwrap()
}

fn records(spool: &Spool) -> Vec<Record> {
    spool.pending().unwrap().iter().filter_map(Spool::read).collect()
}

fn session() -> Vec<Vec<u8>> {
    vec![
        payload("s-1", "turn-1", "PreToolUse", &format!("echo {SECRET}"), "toolu_1"),
        payload("s-1", "turn-1", "PostToolUse", &format!("echo {SECRET}"), "toolu_1"),
        payload("s-1", "turn-2", "PreToolUse", "rm -rf /", "toolu_2"),
    ]
}

/// The records carry the mapped attributes; the default level captures no content.
#[test]
fn the_pipeline_spools_one_record_per_event_without_content() {
    let dir = temp("spool");
    let spool = answer(&dir, Capture::None, &session());
    let recs = records(&spool);
    assert_eq!(recs.len(), 3);
    for f in spool.pending().unwrap() {
        let text = std::fs::read_to_string(&f.path).unwrap();
        assert!(
            !text.contains(SECRET) && !text.contains("rm -rf"),
            "content leaked: {text}"
        );
    }
    assert!(recs.iter().all(|r| r.trace == recs[0].trace), "one trace per session");
    let denied = recs
        .iter()
        .find(|r| r.attr("agenthooks.decision") == Some("deny"))
        .unwrap();
    assert_eq!(denied.attr("gen_ai.provider.name"), Some("anthropic"));
    assert_eq!(denied.attr("gen_ai.conversation.id"), Some("s-1"));
    assert_eq!(denied.attr("gen_ai.tool.name"), Some("Bash"));
    assert_eq!(denied.attr("gen_ai.tool.call.id"), Some("toolu_2"));
    assert_eq!(
        denied.attr("agenthooks.provider"),
        Some(agenthooks_claude::CODEC.provider().as_str())
    );
    assert_eq!(denied.attr("agenthooks.native_event"), Some("PreToolUse"));
    assert_eq!(denied.attr("agenthooks.kind"), Some("tool.pre"));
    assert_eq!(denied.attr("agenthooks.decision.reason"), Some("destructive command"));
    assert_eq!(denied.attr("agenthooks.policy.fail"), Some("open"));
    assert!(denied.latency().is_some());
    assert_eq!(denied.log.as_ref().unwrap().severity, "WARN");
    assert!(
        recs.iter().filter(|r| r.log.is_some()).count() == 1,
        "a log record per conclusive decision only"
    );
    assert_ne!(recs[0].turn_span, recs[2].turn_span, "turns are spans of their own");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Digest: the payload's hash only; full: the payload, capped.
#[test]
fn capture_levels_and_caps() {
    let d1 = temp("digest");
    let r = records(&answer(&d1, Capture::Digest, &session()[..1]));
    assert!(r[0].attr("agenthooks.content.digest").is_some_and(|d| d.len() == 64));
    assert!(r[0].attr("agenthooks.content").is_none());
    let d2 = temp("full");
    let r = records(&answer(&d2, Capture::Full, &session()[..1]));
    assert!(r[0].attr("agenthooks.content").is_some_and(|c| c.contains(SECRET)));
    let d3 = temp("redacted");
    let config = AuditConfig::default()
        .with_capture(Capture::Redacted)
        .with_redactor(|s| s.replace(SECRET, "[redacted]"))
        .with_attr_cap(64)
        .with_spool_dir(&d3);
    let runner = Runner::new(router(), vec![&agenthooks_claude::CODEC]).with_audit(Arc::new(Audit::new(config)));
    let env: Vec<(String, String)> = Vec::new();
    runner.invoke(
        &agenthooks_claude::CODEC,
        &Invocation::new(session()[0].clone(), &env),
        None,
        agenthooks_core::provider::Confidence::Certain,
    );
    let r = records(&Spool::open(&d3, 1 << 30).unwrap());
    let c = r[0].attr("agenthooks.content").unwrap();
    assert!(!c.contains(SECRET) && c.len() <= 64, "{c}");
    for v in r[0].attrs.values() {
        if let Some(s) = v.as_str() {
            assert!(s.len() <= 64);
        }
    }
    for d in [d1, d2, d3] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

fn config_for(rx: &Receiver, dir: &std::path::Path) -> AuditConfig {
    let env = vec![("OTEL_EXPORTER_OTLP_ENDPOINT".to_owned(), rx.base_url())];
    AuditConfig::from_env(&env).unwrap().with_spool_dir(dir)
}

/// The receiver decodes one trace per session: session → turn → hook spans, the deny's
/// attributes, a log record for the deny; retries ride out a failing collector.
#[test]
fn the_shipper_exports_a_nested_trace_with_retries() {
    let rx = Receiver::start().unwrap();
    let dir = temp("ship");
    let spool = answer(&dir, Capture::None, &session());
    rx.fail_next(2);
    let config = config_for(&rx, &dir);
    let s = ship(&spool, &config, ShipOptions::default().with_linger(Duration::ZERO));
    assert_eq!((s.acked, s.failures), (3, 2));
    assert!(spool.pending().unwrap().is_empty());
    assert_eq!(spool.done().unwrap().len(), 3, "kept for the report");
    let spans = rx.spans();
    let traces: BTreeSet<_> = spans.iter().map(|s| s.trace_id.clone()).collect();
    assert_eq!(traces.len(), 1);
    let root = spans.iter().find(|s| s.name == "session").unwrap();
    assert!(root.parent_span_id.is_empty());
    let turns: Vec<_> = spans.iter().filter(|s| s.name == "turn").collect();
    assert_eq!(turns.len(), 2);
    assert!(turns.iter().all(|t| t.parent_span_id == root.span_id));
    let hooks: Vec<_> = spans.iter().filter(|s| s.name.starts_with("hook ")).collect();
    assert_eq!(hooks.len(), 3);
    assert!(hooks
        .iter()
        .all(|h| turns.iter().any(|t| t.span_id == h.parent_span_id)));
    let deny = hooks
        .iter()
        .find(|h| h.attrs.get("agenthooks.decision").and_then(|v| v.as_str()) == Some("deny"))
        .unwrap();
    assert_eq!(deny.attrs["gen_ai.tool.call.id"], "toolu_2");
    assert_eq!(deny.resource["service.name"], "agenthooks");
    assert!(spans.iter().all(|s| !s.attrs.contains_key("agenthooks.content")));
    let logs = rx.logs();
    assert_eq!(logs.len(), 1);
    assert_eq!(
        (logs[0].span_id.as_str(), logs[0].severity),
        (deny.span_id.as_str(), 13)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A replayed event gets the span id it had: the backend keeps one span.
#[test]
fn a_replayed_record_keeps_its_span_id() {
    let (d1, d2) = (temp("replay1"), temp("replay2"));
    let a = records(&answer(&d1, Capture::None, &session()));
    let b = records(&answer(&d2, Capture::None, &session()));
    let ids = |r: &[Record]| r.iter().map(|r| r.span.clone()).collect::<BTreeSet<_>>();
    assert_eq!(ids(&a), ids(&b));
    assert_eq!(ids(&a).len(), 3);
    for d in [d1, d2] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// An unreachable collector: every record stays pending.
#[test]
fn an_unreachable_collector_keeps_every_record() {
    let dir = temp("down");
    let spool = answer(&dir, Capture::None, &session());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let env = vec![(
        "OTEL_EXPORTER_OTLP_ENDPOINT".to_owned(),
        format!("http://127.0.0.1:{port}"),
    )];
    let config = AuditConfig::from_env(&env).unwrap().with_spool_dir(&dir);
    let s = ship(
        &spool,
        &config,
        ShipOptions::default()
            .with_linger(Duration::ZERO)
            .with_give_up(Some(Duration::from_millis(300))),
    );
    assert_eq!(s.acked, 0);
    assert!(s.failures >= 1);
    assert_eq!(spool.pending().unwrap().len(), 3);
    std::fs::remove_dir_all(dir).unwrap();
}

/// The child half of the crash test: ships the spool named in the environment.
#[test]
#[ignore = "run by killed_shipper_loses_nothing as a child process"]
fn shipper_child() {
    let (Ok(dir), Ok(url)) = (std::env::var("SHIP_CHILD_SPOOL"), std::env::var("SHIP_CHILD_URL")) else {
        return;
    };
    let env = vec![("OTEL_EXPORTER_OTLP_ENDPOINT".to_owned(), url)];
    let config = AuditConfig::from_env(&env).unwrap().with_spool_dir(&dir);
    let spool = Spool::open(&dir, 1 << 30).unwrap();
    ship(
        &spool,
        &config,
        ShipOptions::default().with_linger(Duration::from_secs(60)),
    );
}

/// A shipper killed (SIGKILL) while batches are in flight: what it had not acknowledged is
/// still pending, and the next shipper delivers it; every record reaches the collector.
#[cfg(unix)]
#[test]
fn killed_shipper_loses_nothing() {
    let rx = Receiver::start().unwrap();
    rx.delay(Duration::from_millis(150));
    let dir = temp("kill");
    let spool = Spool::open(&dir, 1 << 30).unwrap();
    let mut sent = BTreeSet::new();
    let config = AuditConfig::default();
    for i in 0..700u32 {
        let p = payload(
            &format!("s-{}", i % 7),
            "t",
            "PreToolUse",
            &format!("echo {i}"),
            &format!("c{i}"),
        );
        let rec = fake_record(&p, &config);
        sent.insert(rec.span.clone());
        spool.append(&rec).unwrap();
    }
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "shipper_child", "--ignored", "--nocapture"])
        .env("SHIP_CHILD_SPOOL", &dir)
        .env("SHIP_CHILD_URL", rx.base_url())
        .spawn()
        .unwrap();
    // Kill it while its second batch is in flight (the first is acknowledged by then).
    let hooks = |s: &[agenthooks_testkit::otlp::ReceivedSpan]| s.iter().filter(|x| x.name.starts_with("hook ")).count();
    let got = rx.wait_for(Duration::from_secs(30), |s| hooks(s) > ship_batch());
    assert!(hooks(&got) > ship_batch(), "the child shipped too little");
    child.kill().unwrap();
    child.wait().unwrap();
    let pending_after_kill = spool.pending().unwrap().len();
    assert!(
        pending_after_kill > 0 && pending_after_kill < 700,
        "{pending_after_kill}"
    );
    // Every record is either acknowledged (received) or still pending.
    let received: BTreeSet<_> = rx.spans().into_iter().map(|s| s.span_id).collect();
    let pending: BTreeSet<_> = records(&spool).into_iter().map(|r| r.span).collect();
    assert!(sent.iter().all(|s| received.contains(s) || pending.contains(s)));
    rx.delay(Duration::ZERO);
    let s = ship(
        &spool,
        &config_for(&rx, &dir),
        ShipOptions::default().with_linger(Duration::ZERO),
    );
    assert_eq!(s.acked, pending_after_kill as u64);
    let received: BTreeSet<_> = rx.spans().into_iter().map(|s| s.span_id).collect();
    assert!(sent.is_subset(&received));
    std::fs::remove_dir_all(dir).unwrap();
}

fn ship_batch() -> usize {
    agenthooks_otel::ship::BATCH
}

/// A record as the pipeline would make it, without running the pipeline.
fn fake_record(payload: &[u8], config: &AuditConfig) -> Record {
    let env: Vec<(String, String)> = Vec::new();
    let runner = Runner::new(router(), vec![&agenthooks_claude::CODEC]);
    let inv = Invocation::new(payload.to_vec(), &env);
    let out = runner.invoke(
        &agenthooks_claude::CODEC,
        &inv,
        None,
        agenthooks_core::provider::Confidence::Certain,
    );
    let target = agenthooks_core::EventTarget::of(out.event.as_ref().unwrap());
    let a = agenthooks_runtime::Audited::new(&out, &target, agenthooks_core::Policy::default(), None);
    Record::from_audited(&a, config, std::time::SystemTime::now())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    /// Whatever the payload carries, every string attribute and array element is within the
    /// cap, the default level holds no content, and the record round-trips through JSON.
    #[test]
    fn every_attribute_is_capped(
        session in ".{0,300}", command in ".{0,300}", tool in "[A-Za-z_]{1,200}", cap in 1usize..80,
    ) {
        let p = serde_json::json!({
            "session_id": session, "transcript_path": "/t", "cwd": "/w", "prompt_id": "p",
            "hook_event_name": "PreToolUse", "tool_name": tool,
            "tool_input": {"command": command}, "tool_use_id": "id",
        }).to_string().into_bytes();
        let config = AuditConfig::default().with_attr_cap(cap);
        let r = fake_record(&p, &config);
        for v in r.attrs.values() {
            match v {
                serde_json::Value::String(s) => prop_assert!(s.len() <= cap),
                serde_json::Value::Array(a) => {
                    prop_assert!(a.len() <= agenthooks_otel::MAX_ARRAY);
                    for x in a { prop_assert!(x.as_str().is_some_and(|s| s.len() <= cap)); }
                }
                _ => {}
            }
        }
        prop_assert!(!r.attrs.contains_key("agenthooks.content"));
        prop_assert!(!r.attrs.contains_key("agenthooks.content.digest"));
        let back: Record = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        prop_assert_eq!(back, r);
    }
}

/// The report reads pending and shipped records alike: events and decisions per agent and
/// kind, latency percentiles, the dropped count; `--since` filters by start time.
#[test]
fn the_report_summarises_the_spool() {
    let rx = Receiver::start().unwrap();
    let dir = temp("report");
    let spool = answer(&dir, Capture::None, &session());
    // One shipped, two pending.
    let first = spool.pending().unwrap();
    spool.ack(&first[..1]).unwrap();
    let r = agenthooks_otel::report::Report::of_spool(&spool, None);
    assert_eq!((r.records, r.pending), (3, 2));
    let provider = agenthooks_claude::CODEC.provider();
    let pre = &r.rows[&format!("{provider} / tool.pre")];
    assert_eq!(pre.events, 2);
    assert_eq!(pre.decisions.get("deny"), Some(&1));
    assert_eq!(r.rows[&format!("{provider} / tool.post")].events, 1);
    assert!(r.latency_us.is_some());
    let text = r.render();
    assert!(
        text.contains("tool.pre") && text.contains("deny=1") && text.contains("p99"),
        "{text}"
    );
    let future = std::time::SystemTime::now() + Duration::from_secs(3600);
    assert_eq!(
        agenthooks_otel::report::Report::of_spool(&spool, Some(future)).records,
        0
    );
    drop(rx);
    std::fs::remove_dir_all(dir).unwrap();
}
