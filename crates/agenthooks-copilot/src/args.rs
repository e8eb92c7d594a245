//! `toolArgs` normalization.
//!
//! Copilot sends the tool arguments of `preToolUse`, `postToolUse` and `postToolUseFailure` as
//! `toolArgs`, a **JSON-encoded string** in the documented examples and older releases and a
//! plain **object** in 1.0.102; `permissionRequest` sends `toolInput`, always an object, and the
//! PascalCase dialect sends `tool_input`, an object when Copilot could parse it. [`normalize`]
//! turns any of these into an object (exactly as [`agenthooks_core::normalize_input`] does for
//! [`agenthooks_core::ToolCall::input`]) and records the form it arrived in, so the raw value
//! stays reachable.
//!
//! ⚠ Lossy cases: a string that is not JSON, JSON that is not an object, or a non-object value
//! normalize to `{"value": <the raw value>}`; the original is kept in [`ToolArgs::raw`] (and in
//! [`agenthooks_core::ToolCall::raw_input`]) and the case is visible in [`ToolArgs::form`].

use serde_json::{Map, Value};

/// How the tool arguments arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ArgsForm {
    /// A JSON object (1.0.102 `toolArgs`, `toolInput`, `tool_input`).
    Object,
    /// A string holding a JSON object (older `toolArgs`).
    EncodedObject,
    /// A string holding JSON that is not an object (⚠ wrapped as `{"value": …}`).
    EncodedNonObject,
    /// A string that is not JSON (⚠ wrapped as `{"value": …}`).
    Unparseable,
    /// Some other JSON value: array, number, bool (⚠ wrapped as `{"value": …}`).
    NonObject,
    /// No arguments key, or `null` (normalized to `{}`, no loss).
    Absent,
}

impl ArgsForm {
    /// Whether the normalized object is exactly the arguments the agent meant (no wrapping).
    pub const fn is_lossless(self) -> bool {
        matches!(self, Self::Object | Self::EncodedObject | Self::Absent)
    }

    /// Whether the agent sent a string.
    pub const fn is_string(self) -> bool {
        matches!(self, Self::EncodedObject | Self::EncodedNonObject | Self::Unparseable)
    }
}

/// Normalized tool arguments.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolArgs {
    /// The arguments as an object.
    pub input: Map<String, Value>,
    /// How they arrived.
    pub form: ArgsForm,
    /// The raw value exactly as decoded from the payload (`None` when the key was absent).
    pub raw: Option<Value>,
}

/// The form a raw arguments value arrived in.
pub fn form_of(raw: Option<&Value>) -> ArgsForm {
    match raw {
        None | Some(Value::Null) => ArgsForm::Absent,
        Some(Value::Object(_)) => ArgsForm::Object,
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(_)) => ArgsForm::EncodedObject,
            Ok(_) => ArgsForm::EncodedNonObject,
            Err(_) => ArgsForm::Unparseable,
        },
        Some(_) => ArgsForm::NonObject,
    }
}

/// Normalizes a `toolArgs` / `toolInput` / `tool_input` value (see the module docs).
pub fn normalize(raw: Option<&Value>) -> ToolArgs {
    ToolArgs {
        input: raw.map_or_else(Map::new, agenthooks_core::normalize_input),
        form: form_of(raw),
        raw: raw.cloned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_form_normalizes_to_an_object() {
        let obj = json!({"command": "ls", "description": "list"});
        let t = normalize(Some(&obj));
        assert_eq!(t.form, ArgsForm::Object);
        assert_eq!(Value::Object(t.input.clone()), obj);

        let s = Value::String(r#"{"command": "git push --force origin main"}"#.into());
        let t = normalize(Some(&s));
        assert_eq!(t.form, ArgsForm::EncodedObject);
        assert_eq!(t.input.get("command"), Some(&json!("git push --force origin main")));
        assert_eq!(t.raw.as_ref(), Some(&s), "raw form kept");
        assert!(t.form.is_lossless() && t.form.is_string());

        for (v, form) in [
            (json!("[1]"), ArgsForm::EncodedNonObject),
            (json!("ls -la"), ArgsForm::Unparseable),
            (json!([1, 2]), ArgsForm::NonObject),
        ] {
            let t = normalize(Some(&v));
            assert_eq!(t.form, form, "{v}");
            assert!(!t.form.is_lossless());
            assert_eq!(t.input.get("value"), Some(&v), "wrapped like the core does");
            assert_eq!(t.raw, Some(v));
        }
        let t = normalize(Some(&Value::Null));
        assert_eq!((t.form, t.input.len()), (ArgsForm::Absent, 0));
        let t = normalize(None);
        assert_eq!((t.form, t.raw, t.input.len()), (ArgsForm::Absent, None, 0));
    }
}
