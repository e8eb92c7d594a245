//! `toolArgs` normalization.
//!
//! Copilot sends the tool arguments of `preToolUse`, `postToolUse` and `postToolUseFailure` as
//! `toolArgs`, a **JSON-encoded string** in the documented examples and older releases and a
//! plain **object** in 1.0.102; `permissionRequest` sends `toolInput`, always an object, and the
//! PascalCase dialect sends `tool_input`, an object when Copilot could parse it. [`normalize`]
//! turns any of these into an object and records the form it arrived in, so the raw value stays
//! reachable and a rewrite can be sent back in the same form.
//!
//! ⚠ Lossy cases: a string that is not JSON, JSON that is not an object, or a non-object value
//! normalize to an **empty** object; the original is kept in [`ToolArgs::raw`] and the loss is
//! visible in [`ToolArgs::form`].

use serde_json::{Map, Value};

/// How the tool arguments arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ArgsForm {
    /// A JSON object (1.0.102 `toolArgs`, `toolInput`, `tool_input`).
    Object,
    /// A string holding a JSON object (older `toolArgs`).
    EncodedObject,
    /// A string holding JSON that is not an object (⚠ normalized to `{}`).
    EncodedNonObject,
    /// A string that is not JSON (⚠ normalized to `{}`).
    Unparseable,
    /// Some other JSON value: array, number, bool (⚠ normalized to `{}`).
    NonObject,
    /// No arguments key, or `null` (normalized to `{}`, no loss).
    Absent,
}

impl ArgsForm {
    /// Whether the normalized object carries everything the raw form did.
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
    /// The arguments as an object (empty when the raw form was absent or not an object).
    pub input: Map<String, Value>,
    /// How they arrived.
    pub form: ArgsForm,
    /// The raw value exactly as decoded from the payload (`None` when the key was absent).
    pub raw: Option<Value>,
}

/// Normalizes a `toolArgs` / `toolInput` / `tool_input` value (see the module docs).
pub fn normalize(raw: Option<&Value>) -> ToolArgs {
    let (input, form) = match raw {
        None | Some(Value::Null) => (Map::new(), ArgsForm::Absent),
        Some(Value::Object(m)) => (m.clone(), ArgsForm::Object),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(m)) => (m, ArgsForm::EncodedObject),
            Ok(_) => (Map::new(), ArgsForm::EncodedNonObject),
            Err(_) => (Map::new(), ArgsForm::Unparseable),
        },
        Some(_) => (Map::new(), ArgsForm::NonObject),
    };
    ToolArgs {
        input,
        form,
        raw: raw.cloned(),
    }
}

impl ToolArgs {
    /// Renders replacement arguments in the form the agent used: a JSON-encoded string when it
    /// sent a string, an object otherwise.
    pub fn render_like(&self, args: &Map<String, Value>) -> Value {
        if self.form.is_string() {
            Value::String(Value::Object(args.clone()).to_string())
        } else {
            Value::Object(args.clone())
        }
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
        assert!(t.form.is_lossless());

        for (v, form) in [
            (json!("[1]"), ArgsForm::EncodedNonObject),
            (json!("ls -la"), ArgsForm::Unparseable),
            (json!([1, 2]), ArgsForm::NonObject),
            (json!(null), ArgsForm::Absent),
        ] {
            let t = normalize(Some(&v));
            assert_eq!(t.form, form, "{v}");
            assert!(t.input.is_empty());
            assert_eq!(t.raw, Some(v));
        }
        let t = normalize(None);
        assert_eq!((t.form, t.raw), (ArgsForm::Absent, None));
        assert!(!ArgsForm::Unparseable.is_lossless());
    }

    #[test]
    fn rewrites_mirror_the_received_form() {
        let new = json!({"command": "ls"});
        let Value::Object(new) = new else { panic!() };
        let t = normalize(Some(&json!("{\"command\":\"rm -rf /\"}")));
        assert_eq!(t.render_like(&new), json!("{\"command\":\"ls\"}"));
        let t = normalize(Some(&json!({"command": "rm -rf /"})));
        assert_eq!(t.render_like(&new), json!({"command": "ls"}));
    }
}
