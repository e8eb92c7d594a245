//! Every fixture under `fixtures/kimi/` decodes into its native struct.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use agenthooks_kimi::native::{FailureError, NativeEvent, EVENTS};

/// One fixture case on disk.
pub(crate) struct Case {
    pub(crate) dir: PathBuf,
    pub(crate) input: Vec<u8>,
    pub(crate) native_event: String,
}

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kimi")
}

fn meta_value(meta: &str, key: &str) -> Option<String> {
    meta.lines().find_map(|line| {
        let (k, v) = line.split_once('=')?;
        if k.trim() != key {
            return None;
        }
        Some(v.trim().trim_matches('"').to_owned())
    })
}

pub(crate) fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let root = fixtures_root();
    let mut versions: Vec<_> = fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    versions.sort();
    for version in versions {
        let mut dirs: Vec<_> = fs::read_dir(&version)
            .unwrap_or_else(|e| panic!("{}: {e}", version.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        dirs.sort();
        for dir in dirs {
            let input = fs::read(dir.join("input.json")).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            let meta = fs::read_to_string(dir.join("meta.toml")).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            let native_event =
                meta_value(&meta, "native_event").unwrap_or_else(|| panic!("{}: no native_event", dir.display()));
            assert_eq!(
                meta_value(&meta, "transport").as_deref(),
                Some("stdin"),
                "{}",
                dir.display()
            );
            out.push(Case {
                dir,
                input,
                native_event,
            });
        }
    }
    out
}

fn decode(case: &Case) -> NativeEvent {
    NativeEvent::decode(&case.input).unwrap_or_else(|e| panic!("{}: {e}", case.dir.display()))
}

pub(crate) fn case(name: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.dir.ends_with(name))
        .unwrap_or_else(|| panic!("no fixture {name}"))
}

#[test]
fn every_fixture_decodes_to_its_typed_event() {
    let all = cases();
    assert!(all.len() >= 40, "only {} fixtures", all.len());
    for c in &all {
        let ev = decode(c);
        assert!(
            !matches!(ev, NativeEvent::Other(_)),
            "{}: decoded as Other",
            c.dir.display()
        );
        assert_eq!(ev.name(), c.native_event, "{}", c.dir.display());
        assert!(!ev.cwd().is_empty(), "{}", c.dir.display());
        // input.json is compact, one line, no trailing newline: what Kimi writes.
        assert_ne!(c.input.last(), Some(&b'\n'), "{}", c.dir.display());
    }
}

#[test]
fn every_native_event_has_a_docs_and_a_handmade_fixture() {
    let all = cases();
    let covered: BTreeSet<_> = all.iter().map(|c| c.native_event.as_str()).collect();
    for spec in EVENTS {
        assert!(covered.contains(spec.name), "no fixture for {}", spec.name);
    }
    let docs: BTreeSet<_> = all
        .iter()
        .filter(|c| c.dir.parent().is_some_and(|p| p.ends_with("docs")))
        .map(|c| c.native_event.as_str())
        .collect();
    assert_eq!(docs.len(), EVENTS.len());
}

#[test]
fn only_unknown_keys_land_in_extra() {
    for c in cases() {
        let ev = decode(&c);
        let name = c.dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name == "stop-unknown-keys" {
            let keys: Vec<_> = ev.extra().keys().map(String::as_str).collect();
            assert_eq!(keys, ["stop_reason", "usage"]);
        } else {
            assert!(
                ev.extra().is_empty(),
                "{}: unexpected extra {:?}",
                c.dir.display(),
                ev.extra()
            );
        }
    }
}

#[test]
fn captured_failure_error_is_an_object() {
    let ev = decode(&case("post_tool_use_failure-deny-exit2"));
    let NativeEvent::PostToolUseFailure(f) = ev else {
        panic!("wrong variant")
    };
    let FailureError::Structured(err) = &f.error else {
        panic!("error not structured: {:?}", f.error)
    };
    assert_eq!(err.code, "internal");
    assert_eq!(err.message, "agenthooks-probe: blocked by policy (exit 2)");
    assert_eq!(err.retryable, Some(false));
    assert_eq!(f.tool_call_id, "call_bf4dd43c0503");
    assert_eq!(f.tool_input["command"], "echo hi > marker.txt");
}

#[test]
fn handmade_failure_error_keeps_cause_and_details() {
    let ev = decode(&case("post_tool_use_failure-cause"));
    let NativeEvent::PostToolUseFailure(f) = ev else {
        panic!("wrong variant")
    };
    let err = f.error.as_structured().expect("structured");
    assert_eq!(err.name.as_deref(), Some("Error"));
    assert_eq!(err.details.as_ref().map(|d| d["syscall"].clone()), Some("open".into()));
    assert_eq!(err.cause.as_ref().map(|c| c.message.as_str()), Some("EACCES"));
}

#[test]
fn captured_prompt_is_content_parts() {
    let ev = decode(&case("user_prompt_submit-allow"));
    let NativeEvent::UserPromptSubmit(p) = ev else {
        panic!("wrong variant")
    };
    assert_eq!(p.prompt.text(), "Create marker.txt by running: echo hi > marker.txt");
    assert_eq!(p.prompt.parts().map(<[_]>::len), Some(1));
    assert_eq!(p.is_steer, Some(false));
    assert_eq!(p.session_title, None);
    assert_eq!(p.client_type.as_deref(), Some("kimi_code_cli"));
}

#[test]
fn handmade_prompt_parts_keep_the_image() {
    let ev = decode(&case("user_prompt_submit-content-parts"));
    let NativeEvent::UserPromptSubmit(p) = ev else {
        panic!("wrong variant")
    };
    assert_eq!(
        p.prompt.text(),
        "What is wrong with this layout?\nFix it in src/checkout.css"
    );
    assert!(p.prompt.has_non_text_parts());
    let parts = p.prompt.parts().unwrap_or_default();
    assert_eq!(parts[1].kind, "image_url");
    assert_eq!(parts[1].extra["imageUrl"]["id"], "img_1");
}

#[test]
fn captured_tool_output_is_a_string_and_turn_id_a_number() {
    let NativeEvent::PostToolUse(p) = decode(&case("post_tool_use-allow")) else {
        panic!("wrong variant")
    };
    assert_eq!(p.tool_output, "Command executed successfully.");
    let NativeEvent::TurnStarted(t) = decode(&case("turn_started-allow")) else {
        panic!("wrong variant")
    };
    assert_eq!(t.turn_id, 0);
    assert_eq!(t.origin_kind, "user");
    assert_eq!(
        t.prompt.as_ref().map(|p| p.text().into_owned()).as_deref(),
        Some("Create marker.txt by running: echo hi > marker.txt")
    );
}

#[test]
fn serialize_then_reparse_equals_input_value() {
    for c in cases() {
        let ev = decode(&c);
        let back = serde_json::to_value(&ev).unwrap_or_else(|e| panic!("{}: {e}", c.dir.display()));
        let orig: serde_json::Value =
            serde_json::from_slice(&c.input).unwrap_or_else(|e| panic!("{}: {e}", c.dir.display()));
        assert_eq!(back, orig, "{}", c.dir.display());
    }
}
