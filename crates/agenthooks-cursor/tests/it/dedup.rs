//! Double-fire dedup (quirk #2) in process, with a real state dir and concurrent threads (the
//! cross-process test runs two real hook binaries: `agenthooks-example/tests/cursor_dedup.rs`).

use std::collections::HashMap;
use std::path::PathBuf;

use agenthooks_core::{Codec, Event, EventKind, Invocation};
use agenthooks_cursor::{dedup_of, CODEC};
use serde_json::Value;

use crate::support::CORPUS;

struct Dir(PathBuf);
impl Dir {
    fn new(tag: &str) -> Self {
        let p = std::env::temp_dir().join(format!("agenthooks-cursor-it-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        Self(p)
    }
}
impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn decode_in(dir: &Dir, payload: &[u8]) -> Event {
    let env: HashMap<String, String> = HashMap::new();
    CODEC
        .decode(&Invocation::new(payload.to_vec(), &env).with_state_dir(Some(&dir.0)))
        .expect("decodes")
}

fn with_turn(name: &str, turn: &str) -> Vec<u8> {
    let mut v: Value = serde_json::from_slice(&CORPUS.case(name).input).unwrap();
    v["generation_id"] = turn.into();
    serde_json::to_vec(&v).unwrap()
}

#[test]
fn one_tool_pre_per_shell_call_in_either_order() {
    let dir = Dir::new("order");
    for (i, (first, second)) in [
        ("docs/pre_tool_use", "docs/before_shell_execution"),
        ("docs/before_shell_execution", "docs/pre_tool_use"),
    ]
    .into_iter()
    .enumerate()
    {
        let turn = format!("turn-{i}");
        let a = decode_in(&dir, &with_turn(first, &turn));
        let b = decode_in(&dir, &with_turn(second, &turn));
        assert_eq!(a.kind(), EventKind::ToolPre);
        assert_eq!(b.kind(), EventKind::Other, "the second arrival is a duplicate");
        // The duplicate answers the neutral shape of its own event, whatever the handler says.
        assert!(CODEC.event_capabilities(&b).is_empty());
        let d = dedup_of(b.envelope()).unwrap();
        assert!(!d.delivered && d.winner == a.envelope().native.as_str());
        assert_eq!(d.siblings.len(), 1, "the winner's raw is reachable from the duplicate");
    }
}

#[test]
fn the_specific_mcp_event_takes_the_echos_id_and_later_echoes_defer() {
    let dir = Dir::new("mcp");
    // Same tool and input in both shapes (object vs JSON string).
    let mut echo: Value = serde_json::from_slice(&CORPUS.case("docs/pre_tool_use-mcp").input).unwrap();
    echo["tool_input"] = serde_json::json!({"title":"Flaky checkout test","team":"web"});
    let echo = serde_json::to_vec(&echo).unwrap();
    let spec = &CORPUS.case("docs/before_mcp_execution").input;
    let a = decode_in(&dir, &echo);
    assert_eq!(
        a.kind(),
        EventKind::ToolPre,
        "first MCP call of a conversation: the echo is delivered"
    );
    let b = decode_in(&dir, spec);
    assert_eq!(
        b.kind(),
        EventKind::ToolPre,
        "the echo never claims from the specific event"
    );
    let t = b.tool().unwrap();
    assert_eq!((t.id.as_str(), t.synthesized), ("call_m1\nctc_9", false));
    assert_eq!(dedup_of(b.envelope()).unwrap().siblings[0].native, "preToolUse");
    // The conversation fires MCP hooks: the next echo defers to the specific event.
    let mut next: Value = serde_json::from_slice(&echo).unwrap();
    next["generation_id"] = "turn-2".into();
    let c = decode_in(&dir, &serde_json::to_vec(&next).unwrap());
    assert_eq!(c.kind(), EventKind::Other);
}

#[test]
fn concurrent_arrivals_deliver_exactly_one() {
    let dir = Dir::new("threads");
    for round in 0..20 {
        let turn = format!("race-{round}");
        let a = with_turn("docs/pre_tool_use", &turn);
        let b = with_turn("docs/before_shell_execution", &turn);
        let kinds = std::thread::scope(|s| {
            let ha = s.spawn(|| decode_in(&dir, &a).kind());
            let hb = s.spawn(|| decode_in(&dir, &b).kind());
            [ha.join().unwrap(), hb.join().unwrap()]
        });
        assert_eq!(
            kinds.iter().filter(|k| **k == EventKind::ToolPre).count(),
            1,
            "round {round}: {kinds:?}"
        );
    }
}

#[test]
fn no_state_dir_means_no_dedup() {
    let env: HashMap<String, String> = HashMap::new();
    for n in ["docs/pre_tool_use", "docs/before_shell_execution"] {
        let ev = CODEC
            .decode(&Invocation::new(CORPUS.case(n).input.clone(), &env))
            .unwrap();
        assert_eq!(ev.kind(), EventKind::ToolPre);
        assert!(dedup_of(ev.envelope()).is_none());
    }
}
