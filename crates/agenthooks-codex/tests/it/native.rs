//! The native structs and the kit's tolerant decoder: field mapping, `extra`, open enums,
//! nullable keys, unknown events, the notify payload, and payloads of older Codex releases
//! (`notes/tolerant-fields.md` §2) reaching handlers as their kind.

use std::collections::HashMap;

use agenthooks_codex::native::{self, NativeEvent, PermissionMode, EVENTS, NOTIFY_EVENT};
use agenthooks_codex::{view, view_as, CODEC};
use agenthooks_core::kit::Repair;
use agenthooks_core::{Codec, Event, EventKind, Invocation, Provider, Transport};
use serde_json::{json, Value};

fn decode(value: &Value) -> NativeEvent {
    decode_hint(value, None)
}

fn decode_hint(value: &Value, hint: Option<&str>) -> NativeEvent {
    let bytes = serde_json::to_vec(value).unwrap();
    NativeEvent::decode(&Provider::CODEX, &bytes, hint).unwrap().view()
}

fn event(value: &Value) -> Event {
    let env: HashMap<String, String> = HashMap::new();
    CODEC
        .decode(&Invocation::new(serde_json::to_vec(value).unwrap(), &env))
        .unwrap()
}

fn pre_tool_use() -> Value {
    json!({
        "session_id": "s1", "turn_id": "t1", "transcript_path": "/r.jsonl", "cwd": "/p",
        "hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "call_1"
    })
}

#[test]
fn decodes_pre_tool_use_fields() {
    let NativeEvent::PreToolUse(ev) = decode(&pre_tool_use()) else {
        panic!("wrong variant")
    };
    assert_eq!(ev.session_id.as_deref(), Some("s1"));
    assert_eq!(ev.turn_id.as_deref(), Some("t1"));
    assert_eq!(ev.transcript_path, Some(Some("/r.jsonl".into())));
    assert_eq!(ev.permission_mode, Some(PermissionMode::Default));
    assert_eq!(
        ev.tool_input.as_ref().map(agenthooks_core::RawJson::value),
        Some(&json!({"command": "ls"}))
    );
    assert_eq!(ev.agent_id, None);
    assert!(ev.extra.is_empty());
}

#[test]
fn unknown_keys_land_in_extra_and_round_trip() {
    let mut value = pre_tool_use();
    value["future_field"] = json!({"nested": [1, 2]});
    let event = decode(&value);
    assert_eq!(event.extra().get("future_field"), Some(&json!({"nested": [1, 2]})));
    assert_eq!(serde_json::to_value(&event).unwrap(), value);
}

#[test]
fn nullable_keys_keep_null_and_absence_apart() {
    let mut value = pre_tool_use();
    value["transcript_path"] = Value::Null;
    let event = decode(&value);
    assert_eq!(event.transcript_path(), Some(&None));
    assert_eq!(event.transcript(), None);
    // null serialises back as null, not as an absent key
    assert_eq!(serde_json::to_value(&event).unwrap()["transcript_path"], Value::Null);
    value.as_object_mut().unwrap().remove("transcript_path");
    let event = decode(&value);
    assert_eq!(event.transcript_path(), None);
    assert_eq!(serde_json::to_value(&event).unwrap(), value, "absent stays absent");
}

#[test]
fn open_enums_keep_unknown_values() {
    let mut value = pre_tool_use();
    value["permission_mode"] = json!("yolo");
    let event = decode(&value);
    assert_eq!(event.permission_mode(), Some(&PermissionMode::Other("yolo".into())));
    assert!(!event.permission_mode().unwrap().is_known());
    assert_eq!(serde_json::to_value(&event).unwrap(), value);
    assert_eq!(PermissionMode::from("acceptEdits"), PermissionMode::AcceptEdits);
    assert_eq!(PermissionMode::BypassPermissions.to_string(), "bypassPermissions");
}

#[test]
fn unknown_event_is_other_with_every_key() {
    let value = json!({"hook_event_name": "TaskCreated", "session_id": "s", "x": 1});
    let event = decode(&value);
    assert_eq!(event.name(), "TaskCreated");
    assert_eq!(event.session(), Some("s"));
    assert_eq!(event.kind(), EventKind::Other);
    assert!(matches!(&event, NativeEvent::Other(u) if u.extra.len() == 1));
    assert_eq!(serde_json::to_value(&event).unwrap(), value);
}

#[test]
fn every_row_decodes_from_a_superset_payload() {
    // Each typed struct takes what it needs, the rest lands in extra.
    for row in EVENTS.iter().filter(|r| r.name != NOTIFY_EVENT) {
        let value = json!({
            "session_id": "s", "turn_id": "t", "transcript_path": null, "cwd": "/p",
            "hook_event_name": row.name, "model": "m", "permission_mode": "plan",
            "source": "fork", "reason": "other", "prompt": "hi", "tool_name": "Bash",
            "tool_input": {}, "tool_use_id": "c", "tool_response": "", "trigger": "auto",
            "agent_id": "a", "agent_type": "explorer", "agent_transcript_path": null,
            "last_assistant_message": null, "stop_hook_active": false,
            "error": "overloaded", "error_details": null
        });
        let event = decode(&value);
        assert_eq!((event.name(), event.kind()), (row.name, row.kind));
        assert!(
            !matches!(event, NativeEvent::Other(_)),
            "{} fell through to Other",
            row.name
        );
        assert_eq!(serde_json::to_value(&event).unwrap(), value, "{} lost keys", row.name);
    }
}

#[test]
fn legacy_notify_decodes_kebab_case() {
    let arg = json!({"type":"agent-turn-complete","thread-id":"th","turn-id":"12345","cwd":"/p","client":"codex-tui","input-messages":["Rename foo"],"last-assistant-message":null,"new-key":true});
    let NativeEvent::LegacyNotify(notify) = decode_hint(&arg, Some(NOTIFY_EVENT)) else {
        panic!("not notify")
    };
    assert_eq!(notify.kind, NOTIFY_EVENT);
    assert_eq!(notify.thread_id.as_deref(), Some("th"));
    assert_eq!(notify.turn.as_deref(), Some("12345"));
    assert_eq!(notify.cwd.as_deref(), Some("/p"));
    assert_eq!(notify.client.as_deref(), Some("codex-tui"));
    assert_eq!(notify.input_messages, Some(vec!["Rename foo".to_owned()]));
    assert_eq!(notify.last_assistant_message, None);
    assert_eq!(notify.extra.get("new-key"), Some(&Value::Bool(true)));
    assert_eq!(serde_json::to_value(&notify).unwrap(), arg);
    // an absent `last-assistant-message` (no known release omits it) is written as `null`
    let NativeEvent::LegacyNotify(absent) = decode_hint(&json!({"type": "agent-turn-complete"}), Some(NOTIFY_EVENT))
    else {
        panic!()
    };
    assert_eq!(
        serde_json::to_string(&absent).unwrap(),
        r#"{"type":"agent-turn-complete","last-assistant-message":null}"#
    );
}

#[test]
fn notify_without_type_still_decodes_as_a_notification() {
    let env: HashMap<String, String> = HashMap::new();
    let bytes = br#"{"turn-id":"1"}"#.to_vec();
    let e = CODEC
        .decode(&Invocation::new(bytes, &env).with_transport(Transport::Argv))
        .unwrap();
    assert_eq!(e.kind(), EventKind::Notification);
    assert_eq!(e.envelope().projection_issues[0].repair, Repair::Placeholder);
    assert!(matches!(view(e.envelope()), Some(NativeEvent::Other(_))));
}

#[test]
fn structural_errors_are_decode_errors() {
    for bytes in [
        &b"{not json"[..],
        b"[1]",
        b"{\"a\":1}",
        b"{\"hook_event_name\":3}",
        b"",
        b"{} {}",
    ] {
        assert!(
            NativeEvent::decode(&Provider::CODEX, bytes, None).is_err(),
            "{}",
            String::from_utf8_lossy(bytes)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Older releases (notes/tolerant-fields.md §2)

/// `Stop` of the first hooks release: no `turn_id`, `permission_mode` or `agent_*`.
#[test]
fn first_release_stop_without_turn_id_is_agent_stop() {
    let e = event(&json!({
        "session_id": "s", "transcript_path": null, "cwd": "/p", "hook_event_name": "Stop",
        "model": "m", "stop_hook_active": true, "last_assistant_message": "done"
    }));
    let Event::Stop(stop) = &e else { panic!("{e:?}") };
    assert!(stop.previously_continued);
    assert_eq!(stop.last_message.as_deref(), Some("done"));
    assert_eq!(stop.envelope.session.turn_id, "");
    assert!(
        stop.envelope.projection_issues.is_empty(),
        "absent optional fields are no issue"
    );
    assert!(view_as::<native::Stop>(&stop.envelope).is_some());
}

/// `PreToolUse` at `3be4afd`: no `turn_id`, `tool_input` the closed `{command}` object.
#[test]
fn early_pre_tool_use_is_tool_pre() {
    let e = event(&json!({
        "session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/p", "hook_event_name": "PreToolUse",
        "model": "m", "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": "ls"},
        "tool_use_id": "c1"
    }));
    let Event::ToolPre(pre) = &e else { panic!("{e:?}") };
    assert_eq!((pre.tool.name.as_str(), pre.tool.command()), ("Bash", Some("ls")));
    assert_eq!(pre.tool.id, "c1");
}

/// `PermissionRequest` at `99458d2`: a required `approval_context` object, `NetworkAccess`.
#[test]
fn transient_approval_context_is_typed() {
    let e = event(&json!({
        "session_id": "s", "turn_id": "t", "transcript_path": null, "cwd": "/p",
        "hook_event_name": "PermissionRequest", "model": "m", "permission_mode": "default",
        "tool_name": "NetworkAccess", "tool_input": {"command": "network-access x.dev"},
        "approval_context": {"sandbox_permissions": "require_escalated", "justification": "fetch"}
    }));
    let Event::Permission(p) = &e else { panic!("{e:?}") };
    assert!(p.tool.synthesized);
    let native = view_as::<native::PermissionRequest>(&p.envelope).unwrap();
    assert_eq!(native.approval_context.as_ref().unwrap()["justification"], "fetch");
    assert!(native.extra.is_empty());
}

/// A retyped field (`tool_use_id` as a number, `stop_hook_active` as a string) is kept in
/// `extra`; the event still reaches handlers as its kind.
#[test]
fn retyped_fields_are_kept_in_extra() {
    let mut value = pre_tool_use();
    value["tool_use_id"] = json!(42);
    value["turn_id"] = json!({"id": "t"});
    let e = event(&value);
    let Event::ToolPre(pre) = &e else { panic!("{e:?}") };
    assert!(pre.tool.synthesized, "no usable id: one is synthesized");
    let issues: Vec<&str> = pre.envelope.projection_issues.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(issues, ["turn_id", "tool_use_id"]);
    let native = view(&pre.envelope).unwrap();
    assert_eq!(native.extra()["tool_use_id"], 42);
    assert_eq!(serde_json::to_value(native).unwrap(), value, "nothing lost");
}

/// A `tool_response` of any shape: a string (0.171.0 shell), an array, `null`.
#[test]
fn post_tool_use_response_of_any_shape() {
    for response in [json!("out"), json!([{"type": "text", "text": "x"}]), Value::Null] {
        let mut value = pre_tool_use();
        value["hook_event_name"] = json!("PostToolUse");
        value["tool_response"] = response.clone();
        let e = event(&value);
        let Event::ToolPost(post) = &e else { panic!("{e:?}") };
        assert_eq!(post.output, response);
    }
}

/// Without the identifying `tool_name`, the kind is kept and the native view is `Other`.
#[test]
fn missing_tool_name_keeps_the_kind() {
    let mut value = pre_tool_use();
    value.as_object_mut().unwrap().remove("tool_name");
    let e = event(&value);
    assert_eq!(e.kind(), EventKind::ToolPre);
    assert_eq!(e.envelope().projection_issues[0].repair, Repair::Placeholder);
    assert!(matches!(view(e.envelope()), Some(NativeEvent::Other(u)) if u.name == "PreToolUse"));
    assert_eq!(e.envelope().session.id, "s1");
}

/// Through the runner: an older-release `PreToolUse` (no `turn_id`, `tool_use_id` sent as a
/// number) reaches the `tool.pre` handler, and its deny is on the wire; a first-release `Stop`
/// (no `turn_id`) reaches the stop handler, whose continuation is on the wire.
#[test]
fn older_release_payloads_reach_their_handlers() {
    use agenthooks_core::decision::{continue_with, deny};
    use agenthooks_core::{Context, HandlerError, Router, StopEvent, ToolPreEvent};

    let pre = json!({
        "session_id": "s", "transcript_path": null, "cwd": "/p", "hook_event_name": "PreToolUse",
        "model": "m", "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"},
        "tool_use_id": 7
    });
    let router = Router::new().on_tool_pre(|_: &Context, e: &ToolPreEvent| {
        assert_eq!(e.tool.command(), Some("rm -rf /"));
        Ok::<_, HandlerError>(deny("old release, still guarded"))
    });
    let run = agenthooks_testkit::invoke(&router, &CODEC, serde_json::to_vec(&pre).unwrap(), Some("PreToolUse"));
    run.assert_denied("old release, still guarded").assert_well_behaved();

    let stop = json!({
        "session_id": "s", "transcript_path": null, "cwd": "/p", "hook_event_name": "Stop", "model": "m",
        "stop_hook_active": false, "last_assistant_message": null
    });
    let router =
        Router::new().on_stop(|_: &Context, _: &StopEvent| Ok::<_, HandlerError>(continue_with("run the tests")));
    let run = agenthooks_testkit::invoke(&router, &CODEC, serde_json::to_vec(&stop).unwrap(), Some("Stop"));
    assert_eq!(
        run.response().stdout_str(),
        r#"{"decision":"block","reason":"run the tests"}"#
    );
}
