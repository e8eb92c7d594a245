//! The typed structs agree with Codex's schemas key for key, in both directions.
//!
//! For every schema a sample instance is generated from the schema itself (every property, and
//! only the required ones); it must validate (with the `jsonschema` crate), decode into the
//! matching struct exactly, with nothing left in `extra` (every schema key is a typed field),
//! and serialise back to the same JSON (every field has the schema's name and shape).

use agenthooks_codex::native::{self, NativeEvent};
use agenthooks_codex::output;
use agenthooks_core::Provider;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::support::{input_schema, output_schema, schema_files, Schema};

fn decode(value: &Value) -> agenthooks_core::kit::Decoded<NativeEvent> {
    NativeEvent::decode(&Provider::CODEX, &serde_json::to_vec(value).unwrap(), None).unwrap()
}

/// The events Codex publishes a `kind` (`input`/`output`) schema for, read from the schema
/// file names (`pre-tool-use.command.input.schema.json` → `PreToolUse`).
fn schema_events(kind: &str) -> Vec<String> {
    let suffix = format!(".command.{kind}.schema.json");
    schema_files()
        .iter()
        .filter_map(|f| f.strip_suffix(&suffix))
        .map(|stem| stem.split('-').map(|w| w[..1].to_uppercase() + &w[1..]).collect())
        .collect()
}

#[test]
fn every_hook_event_has_its_schemas() {
    let inputs = schema_events("input");
    let outputs = schema_events("output");
    assert_eq!((inputs.len(), outputs.len()), (13, 11), "{inputs:?} {outputs:?}");
    // Every event the agent fires a command hook for (not the legacy notify program), and
    // `StopFailure`, has an input schema; every output schema is of such an event.
    let agent = agenthooks_testkit::fake::agent("codex").expect("the testkit has a Codex agent");
    for event in agent.events().iter().filter(|e| **e != "agent-turn-complete") {
        assert!(inputs.iter().any(|i| i == event), "no input schema for {event}");
    }
    assert!(inputs.iter().any(|i| i == "StopFailure"), "{inputs:?}");
    for event in &outputs {
        assert!(inputs.contains(event), "output schema without input schema: {event}");
    }
    for event in ["SessionEnd", "StopFailure"] {
        assert!(!outputs.iter().any(|o| o == event), "{event} reads no output");
    }
}

/// A sample instance of `node`: every property when `maximal`, else only the required ones.
fn sample(schema: &Schema, node: &Value, maximal: bool) -> Value {
    let map = match node {
        Value::Bool(_) => return json!({"any": [1, "x", null]}),
        Value::Object(map) => map,
        other => panic!("not a schema: {other}"),
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        return sample(schema, schema.resolve(reference).expect("resolvable"), maximal);
    }
    if let Some(Value::Array(all)) = map.get("allOf") {
        return sample(schema, &all[0], maximal);
    }
    if let Some(value) = map.get("const") {
        return value.clone();
    }
    if let Some(Value::Array(options)) = map.get("enum") {
        return options[0].clone();
    }
    let ty = match map.get("type") {
        Some(Value::String(name)) => name.as_str(),
        Some(Value::Array(names)) => names[0].as_str().expect("type name"),
        _ => return json!({"free": {"form": true}}),
    };
    match ty {
        "string" => json!("sample text"),
        "boolean" => json!(true),
        "integer" => json!(7),
        "number" => json!(1.5),
        "null" => Value::Null,
        "array" => json!([]),
        "object" => {
            let required: Vec<&str> = map
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut out = Map::new();
            if let Some(Value::Object(properties)) = map.get("properties") {
                for (name, child) in properties {
                    if maximal || required.contains(&name.as_str()) {
                        out.insert(name.clone(), sample(schema, child, maximal));
                    }
                }
            }
            Value::Object(out)
        }
        other => panic!("unexpected type {other}"),
    }
}

#[test]
fn every_schema_compiles_as_draft_07() {
    let files = schema_files();
    assert_eq!(files.len(), 24, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(crate::support::crate_dir().join("schemas").join(&file)).unwrap();
        let schema = Schema::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(
            schema.root()["$schema"],
            "http://json-schema.org/draft-07/schema#",
            "{file}"
        );
    }
}

#[test]
fn native_structs_match_input_schemas() {
    for event in &schema_events("input") {
        let schema = input_schema(event).unwrap_or_else(|| panic!("no input schema for {event}"));
        for maximal in [true, false] {
            let instance = sample(&schema, schema.root(), maximal);
            schema
                .validate(&instance)
                .unwrap_or_else(|e| panic!("{event}: sample invalid: {e:?}"));
            let decoded = decode(&instance);
            assert!(
                decoded.is_exact() && decoded.issues.is_empty(),
                "{event}: {:?}",
                decoded.issues
            );
            let decoded = decoded.native;
            assert!(!matches!(decoded, NativeEvent::Other(_)), "{event}");
            assert_eq!(decoded.name(), *event);
            assert!(
                decoded.extra().is_empty(),
                "{event}: untyped keys {:?}",
                decoded.extra()
            );
            assert_eq!(
                serde_json::to_value(&decoded).unwrap(),
                instance,
                "{event} (maximal={maximal})"
            );
        }
    }
}

#[test]
fn required_keys_the_decoder_tolerates_missing() {
    // Codex's schemas require every key they know; older releases did not send all of them
    // (tolerant decoding): only the row's identifying keys make the typed view a placeholder.
    for event in &schema_events("input") {
        let schema = input_schema(event).unwrap();
        let row = native::row(event).unwrap();
        let full = sample(&schema, schema.root(), true);
        let required = schema.root()["required"].as_array().unwrap();
        for key in required.iter().filter_map(Value::as_str) {
            if key == "hook_event_name" {
                continue; // without it the payload is not even an event
            }
            let mut partial = full.clone();
            partial.as_object_mut().unwrap().remove(key);
            assert!(!schema.is_valid(&partial), "{event}: schema accepts missing {key}");
            let decoded = decode(&partial);
            assert_eq!(decoded.native.kind(), row.kind, "{event} without {key}");
            // (`tool_name` is the one required field of the typed views; `tool_response`, which
            // decides `tool.error`, is identifying but optional)
            assert_eq!(!decoded.is_exact(), key == "tool_name", "{event} without {key}");
            if !row.identifying.contains(&key) {
                assert!(decoded.is_exact(), "{event} without {key}");
            }
        }
    }
}

fn roundtrip<T: DeserializeOwned + Serialize + Default>(event: &str, instance: &Value) {
    let typed: T = serde_json::from_value(instance.clone())
        .unwrap_or_else(|e| panic!("{event}: output struct rejects a schema-valid sample: {e}"));
    assert_eq!(&serde_json::to_value(&typed).unwrap(), instance, "{event}");
    // the empty output is `{}` and valid
    assert_eq!(serde_json::to_string(&T::default()).unwrap(), "{}");
}

#[test]
fn output_structs_match_output_schemas() {
    for event in &schema_events("output") {
        let schema = output_schema(event).unwrap_or_else(|| panic!("no output schema for {event}"));
        assert!(schema.is_valid(&json!({})), "{event}: {{}} must be valid");
        let instance = sample(&schema, schema.root(), true);
        schema
            .validate(&instance)
            .unwrap_or_else(|e| panic!("{event}: sample invalid: {e:?}"));
        match event.as_str() {
            "SessionStart" => roundtrip::<output::SessionStartOutput>(event, &instance),
            "UserPromptSubmit" => roundtrip::<output::UserPromptSubmitOutput>(event, &instance),
            "PreToolUse" => roundtrip::<output::PreToolUseOutput>(event, &instance),
            "PermissionRequest" => roundtrip::<output::PermissionRequestOutput>(event, &instance),
            "PostToolUse" => roundtrip::<output::PostToolUseOutput>(event, &instance),
            "PreCompact" => roundtrip::<output::PreCompactOutput>(event, &instance),
            "PostCompact" => roundtrip::<output::PostCompactOutput>(event, &instance),
            "SubagentStart" => roundtrip::<output::SubagentStartOutput>(event, &instance),
            "SubagentStop" => roundtrip::<output::SubagentStopOutput>(event, &instance),
            "Stop" => roundtrip::<output::StopOutput>(event, &instance),
            "Interrupt" => roundtrip::<output::InterruptOutput>(event, &instance),
            other => panic!("unmapped {other}"),
        }
    }
}

#[test]
fn schemas_reject_what_codex_rejects_structurally() {
    let pre = output_schema("PreToolUse").unwrap();
    assert!(pre.is_valid(&json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}})));
    // unknown keys, wrong event names, nulls and wrong enum values all fail
    assert!(!pre.is_valid(&json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "extra": 1}})));
    assert!(!pre.is_valid(&json!({"hookSpecificOutput": {"hookEventName": "PostToolUse"}})));
    assert!(!pre.is_valid(&json!({"hookSpecificOutput": {"permissionDecision": "deny"}})));
    assert!(!pre.is_valid(&json!({"decision": null})));
    assert!(!pre.is_valid(&json!({"decision": "deny"})));
    assert!(!pre.is_valid(&json!({"unknown": true})));
    let stop = output_schema("Stop").unwrap();
    assert!(stop.is_valid(&json!({"decision": "block", "reason": "continue with tests"})));
    assert!(!stop.is_valid(&json!({"hookSpecificOutput": {"hookEventName": "Stop"}})));
    let interrupt = output_schema("Interrupt").unwrap();
    assert!(!interrupt.is_valid(&json!({"continue": false})));
    assert!(output_schema("SessionEnd").is_none(), "SessionEnd has no output schema");
    assert!(output_schema("StopFailure").is_none());
}
