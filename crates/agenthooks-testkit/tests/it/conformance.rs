//! The conformance suite over the toy codec: bless, check, readable diffs, extra keys.

use agenthooks_core::Outcome;
use agenthooks_testkit::conformance::{inject_extra, Suite, EXTRA_KEY};
use agenthooks_testkit::{fixture, Shape};
use proptest::prelude::*;
use serde_json::Value;

use crate::toy::{self, TempDir};

#[test]
fn bless_then_check() {
    let dir = TempDir::new("conf");
    toy::write_fixtures(&dir.0);
    let corpus = dir.0.join("claude-code");

    // Without expected files every check of 5 and 6 fails, naming the file.
    let report = Suite::new(&toy::GOOD, &corpus).tolerance(false).bless(false).check();
    assert_eq!(report.fixtures, 4);
    assert!(
        report.failures.iter().all(|f| f.contains("expected file is missing")),
        "{report}"
    );

    let blessed = Suite::new(&toy::GOOD, &corpus)
        .tolerance(false)
        .with_extra(toy::extra)
        .bless(true)
        .check();
    assert!(blessed.failures.is_empty(), "{blessed}");
    // PreToolUse 8 shapes, prompt 5, stop 5, session 4.
    assert_eq!(blessed.responses, 22);
    assert_eq!(blessed.extra_checks, 4);

    let report = Suite::new(&toy::GOOD, &corpus)
        .tolerance(false)
        .with_extra(toy::extra)
        .bless(false)
        .run();
    assert!(report.failures.is_empty());

    // The files hold exactly the documented shapes.
    let pre = corpus.join("docs/pre_tool_use");
    let deny: Value = serde_json::from_str(&std::fs::read_to_string(pre.join("responses/deny.json")).unwrap()).unwrap();
    assert_eq!(deny["exit_code"], 0);
    assert_eq!(
        deny["stdout"],
        r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"agenthooks-testkit: denied","hookEventName":"PreToolUse"}}"#
    );
    assert_eq!(deny["stderr"], "");
    // ask is not promised: degraded to a deny (ask_fallback) exactly as in production.
    let ask: Value = serde_json::from_str(&std::fs::read_to_string(pre.join("responses/ask.json")).unwrap()).unwrap();
    assert!(ask["stdout"]
        .as_str()
        .unwrap()
        .contains("agenthooks-testkit: please confirm"));
    let event: Value = serde_json::from_str(&std::fs::read_to_string(pre.join("event.json")).unwrap()).unwrap();
    assert_eq!(event["kind"], "tool.pre");
    assert_eq!(event["detail"]["tool"]["id"], "toolu_1");
    assert!(event.get("raw").is_none());
    let names: Vec<String> = std::fs::read_dir(pre.join("responses"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), Shape::for_kind(agenthooks_core::EventKind::ToolPre).len());

    // A changed expectation fails with a line diff; a stale shape file is reported.
    let path = pre.join("responses/deny.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("\"exit_code\": 0", "\"exit_code\": 2")).unwrap();
    std::fs::write(pre.join("responses/continue.json"), "{}\n").unwrap();
    let report = Suite::new(&toy::GOOD, &corpus).tolerance(false).bless(false).check();
    assert_eq!(report.failures.len(), 2, "{report}");
    assert!(report.failures[0].contains("deny.json: differs"), "{report}");
    assert!(
        report.failures[0].contains("-   \"exit_code\": 2,\n+   \"exit_code\": 0,"),
        "{report}"
    );
    assert!(
        report.failures[1].contains("continue.json is not a shape of kind tool.pre"),
        "{report}"
    );
    // Blessing repairs both.
    Suite::new(&toy::GOOD, &corpus).tolerance(false).bless(true).run();
    assert!(!pre.join("responses/continue.json").exists());
    Suite::new(&toy::GOOD, &corpus).tolerance(false).bless(false).run();
}

#[test]
fn decode_failures_and_wrong_metadata_are_reported() {
    let dir = TempDir::new("conf-bad");
    toy::write_fixtures(&dir.0);
    let stop = dir.0.join("claude-code/docs/stop");
    std::fs::write(stop.join("meta.toml"), "native_event = \"SubagentStop\"\n").unwrap();
    let broken = dir.0.join("claude-code/docs/broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("input.json"), "{\"session_id\": 3").unwrap();
    std::fs::write(broken.join("meta.toml"), "native_event = \"Stop\"\n").unwrap();
    let report = Suite::new(&toy::GOOD, dir.0.join("claude-code")).bless(true).check();
    let joined = report.failures.join("\n");
    assert!(
        joined.contains("claude-code/docs/broken: does not decode: cannot decode claude-code payload"),
        "{joined}"
    );
    assert!(
        joined.contains("claude-code/docs/stop: native event is \"Stop\", meta.toml says \"SubagentStop\""),
        "{joined}"
    );
    assert!(
        joined.contains("kind is agent.stop (envelope agent.stop), expected other"),
        "{joined}"
    );
}

/// Check 8 bites: the toy codec reads every field strictly (a missing `session_id` or a
/// retyped `tool_input` fails its decode), so the drop/retype property reports it.
#[test]
fn an_intolerant_codec_fails_the_tolerance_check() {
    let dir = TempDir::new("conf-tolerance");
    toy::write_fixtures(&dir.0);
    let corpus = dir.0.join("claude-code");
    Suite::new(&toy::GOOD, &corpus).tolerance(false).bless(true).check();
    let report = Suite::new(&toy::GOOD, &corpus).check();
    assert!(report.tolerance_checks > 0, "{report}");
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.contains("tolerance: with `hook_event_name` retyped")
                || f.contains("tolerance: without `hook_event_name`")),
        "{report}"
    );
}

#[test]
fn extra_keys_must_land_in_the_native_view() {
    let dir = TempDir::new("conf-extra");
    toy::write_fixtures(&dir.0);
    // An accessor that looks at the wrong map fails the check.
    let report = Suite::new(&toy::GOOD, dir.0.join("claude-code"))
        .tolerance(false)
        .with_extra(agenthooks_core::Envelope::native_view::<serde_json::Map<String, Value>>)
        .bless(true)
        .check();
    assert_eq!(report.failures.len(), 4, "{report}");
    assert!(
        report.failures[0].contains("the native view has no extra map"),
        "{report}"
    );
}

#[test]
fn shapes_route_through_the_family_of_every_kind() {
    let fx = fixture::Fixture::load(&{
        let dir = TempDir::new("conf-shapes");
        toy::write_fixtures(&dir.0);
        let p = dir.0.join("claude-code/docs/stop");
        let fx = fixture::Fixture::load(&p).unwrap();
        assert_eq!(fx.id(), "claude-code/docs/stop");
        // keep a copy outside the temp dir's lifetime
        let keep = std::env::temp_dir().join(format!("agenthooks-testkit-it-keep-{}", std::process::id()));
        std::fs::create_dir_all(&keep).unwrap();
        for f in ["input.json", "meta.toml"] {
            std::fs::copy(p.join(f), keep.join(f)).unwrap();
        }
        keep
    })
    .unwrap();
    let ev = fx.decode(&toy::GOOD).unwrap();
    let o = Shape::Continue.decision(&ev).unwrap();
    assert!(matches!(o, Outcome::Stop(_)));
    assert_eq!(o.instruction(), Some(agenthooks_testkit::shapes::INSTRUCTION));
    assert!(Shape::Deny.decision(&ev).is_none());
    let _ = std::fs::remove_dir_all(&fx.dir);
}

#[test]
fn unknown_key_name_is_stable() {
    assert_eq!(EXTRA_KEY, "agenthooks_testkit_unknown");
}

proptest! {
    /// Injection keeps every original byte and yields valid JSON holding the original members.
    #[test]
    fn injection_keeps_bytes(keys in proptest::collection::btree_map("[a-z]{1,8}", any::<i32>(), 0..6), pad in "[ \n]{0,3}") {
        let obj: serde_json::Map<String, Value> = keys.iter().map(|(k, v)| (k.clone(), Value::from(*v))).collect();
        let input = format!("{pad}{}{pad}", Value::Object(obj.clone()));
        let out = inject_extra(input.as_bytes()).unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        for (k, x) in &obj {
            prop_assert_eq!(&v[k], x);
        }
        prop_assert!(v.get(EXTRA_KEY).is_some());
        let close = input.rfind('}').unwrap();
        prop_assert!(out.starts_with(&input.as_bytes()[..close]));
        prop_assert!(out.ends_with(&input.as_bytes()[close..]));
    }
}
