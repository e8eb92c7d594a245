//! A small JSON Schema (draft-07) validator for the keywords Codex's hook schemas use.
//!
//! No JSON Schema crate is available to this workspace, so the tests carry their own. It is
//! deliberately strict about what it does not know: [`Schema::new`] rejects any keyword outside
//! the supported set, so a future Codex schema that starts using, say, `pattern` fails loudly
//! instead of validating vacuously.
//!
//! Supported (draft-07 semantics):
//! * boolean schemas `true` / `false`;
//! * `type` (a name or an array of names; `integer` accepts numbers with no fractional part);
//! * `enum`, `const` (JSON equality, numbers compared by value);
//! * `properties`, `required`, `additionalProperties` (boolean or schema);
//! * `allOf`, `anyOf`, `oneOf`, `not`;
//! * `items` (a schema or a tuple of schemas);
//! * `$ref` to the root (`#`) or a JSON pointer inside the document (`#/definitions/X`); as in
//!   draft-07, keywords next to `$ref` are ignored;
//! * `definitions` (a container) and the annotations `$schema`, `$id`, `$comment`, `title`,
//!   `description`, `default`, `examples`, which do not affect validation.
//!
//! The keywords Codex's files actually use: `$schema`, `title`, `description`, `default`,
//! `type`, `properties`, `required`, `additionalProperties`, `enum`, `const`, `allOf`, `$ref`,
//! `definitions` and boolean schemas.

use std::fmt;

use serde_json::{Map, Value};

const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
];
const ASSERTIONS: &[&str] = &[
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "items",
    "$ref",
    "definitions",
];
const TYPES: &[&str] = &["null", "boolean", "object", "array", "number", "integer", "string"];
/// Guards against `$ref` cycles that never consume input.
const MAX_DEPTH: usize = 64;

/// One validation failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ValidationError {
    /// JSON pointer into the instance.
    pub(crate) instance_path: String,
    /// JSON pointer into the schema (the failing keyword).
    pub(crate) schema_path: String,
    /// What went wrong.
    pub(crate) message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at `{}` (schema `{}`): {}",
            self.instance_path, self.schema_path, self.message
        )
    }
}

/// A checked schema document.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    root: Value,
}

impl Schema {
    /// Checks that every keyword is supported and every `$ref` resolves.
    pub(crate) fn new(root: Value) -> Result<Self, String> {
        check_schema(&root, &root, "#")?;
        Ok(Self { root })
    }

    /// Parses and checks a schema from JSON text.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        Self::new(value)
    }

    /// The schema document.
    pub(crate) fn root(&self) -> &Value {
        &self.root
    }

    /// Validates `instance`, collecting every failure.
    pub(crate) fn validate(&self, instance: &Value) -> Result<(), Vec<ValidationError>> {
        let mut run = Run {
            root: &self.root,
            errors: Vec::new(),
        };
        run.node(
            &self.root,
            instance,
            At {
                ipath: "",
                spath: "#",
                depth: 0,
            },
        );
        if run.errors.is_empty() {
            Ok(())
        } else {
            Err(run.errors)
        }
    }

    /// Whether `instance` is valid.
    pub(crate) fn is_valid(&self, instance: &Value) -> bool {
        self.validate(instance).is_ok()
    }

    /// Resolves a `$ref` of this document.
    pub(crate) fn resolve(&self, reference: &str) -> Option<&Value> {
        resolve(&self.root, reference)
    }
}

/// Resolves `#` or `#/a/b` (JSON pointer with `~0`/`~1` escapes) inside `root`.
fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    let mut current = root;
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        current = match current {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(current)
}

fn check_schema(root: &Value, schema: &Value, path: &str) -> Result<(), String> {
    let map = match schema {
        Value::Bool(_) => return Ok(()),
        Value::Object(map) => map,
        other => return Err(format!("{path}: a schema must be an object or a boolean, got {other}")),
    };
    for (key, value) in map {
        let here = format!("{path}/{key}");
        if ANNOTATIONS.contains(&key.as_str()) {
            continue;
        }
        if !ASSERTIONS.contains(&key.as_str()) {
            return Err(format!("{here}: unsupported keyword `{key}`"));
        }
        match key.as_str() {
            "type" => {
                let names: Vec<&Value> = match value {
                    Value::Array(items) if !items.is_empty() => items.iter().collect(),
                    Value::String(_) => vec![value],
                    _ => return Err(format!("{here}: `type` must be a name or a non-empty array")),
                };
                for name in names {
                    let known = name.as_str().is_some_and(|n| TYPES.contains(&n));
                    if !known {
                        return Err(format!("{here}: unknown type {name}"));
                    }
                }
            }
            "enum" => {
                if value.as_array().is_none_or(Vec::is_empty) {
                    return Err(format!("{here}: `enum` must be a non-empty array"));
                }
            }
            "const" => {}
            "required" => {
                if !value.as_array().is_some_and(|items| items.iter().all(Value::is_string)) {
                    return Err(format!("{here}: `required` must be an array of strings"));
                }
            }
            "properties" | "definitions" => {
                let Value::Object(children) = value else {
                    return Err(format!("{here}: `{key}` must be an object"));
                };
                for (name, child) in children {
                    check_schema(root, child, &format!("{here}/{name}"))?;
                }
            }
            "additionalProperties" | "not" => check_schema(root, value, &here)?,
            "items" => match value {
                Value::Array(items) => {
                    for (i, child) in items.iter().enumerate() {
                        check_schema(root, child, &format!("{here}/{i}"))?;
                    }
                }
                other => check_schema(root, other, &here)?,
            },
            "allOf" | "anyOf" | "oneOf" => {
                let Value::Array(items) = value else {
                    return Err(format!("{here}: `{key}` must be an array"));
                };
                if items.is_empty() {
                    return Err(format!("{here}: `{key}` must not be empty"));
                }
                for (i, child) in items.iter().enumerate() {
                    check_schema(root, child, &format!("{here}/{i}"))?;
                }
            }
            "$ref" => {
                let Some(reference) = value.as_str() else {
                    return Err(format!("{here}: `$ref` must be a string"));
                };
                if resolve(root, reference).is_none() {
                    return Err(format!("{here}: unresolvable `$ref` {reference}"));
                }
            }
            _ => unreachable!("every assertion keyword is handled"),
        }
    }
    Ok(())
}

fn type_matches(name: &str, instance: &Value) -> bool {
    match name {
        "null" => instance.is_null(),
        "boolean" => instance.is_boolean(),
        "object" => instance.is_object(),
        "array" => instance.is_array(),
        "number" => instance.is_number(),
        "integer" => match instance {
            Value::Number(n) => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0),
            _ => false,
        },
        "string" => instance.is_string(),
        _ => false,
    }
}

/// JSON equality with numbers compared by value (`1 == 1.0`).
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                x == y
            } else if let (Some(x), Some(y)) = (x.as_u64(), y.as_u64()) {
                x == y
            } else {
                x.as_f64() == y.as_f64()
            }
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// One validation run: the document (for `$ref`) and the failures found so far.
struct Run<'a> {
    root: &'a Value,
    errors: Vec<ValidationError>,
}

/// Where the run is: instance path, schema path, `$ref` depth.
#[derive(Clone, Copy)]
struct At<'p> {
    ipath: &'p str,
    spath: &'p str,
    depth: usize,
}

impl Run<'_> {
    fn fail(&mut self, ipath: &str, spath: &str, message: String) {
        self.errors.push(ValidationError {
            instance_path: if ipath.is_empty() {
                "/".to_owned()
            } else {
                ipath.to_owned()
            },
            schema_path: spath.to_owned(),
            message,
        });
    }

    /// Whether `instance` matches `schema`, without recording failures.
    fn matches(&self, schema: &Value, instance: &Value, at: At<'_>) -> bool {
        let mut probe = Run {
            root: self.root,
            errors: Vec::new(),
        };
        probe.node(schema, instance, at);
        probe.errors.is_empty()
    }

    fn node(&mut self, schema: &Value, instance: &Value, at: At<'_>) {
        if at.depth > MAX_DEPTH {
            self.fail(at.ipath, at.spath, "schema recursion too deep".to_owned());
            return;
        }
        let map: &Map<String, Value> = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                self.fail(at.ipath, at.spath, "the schema `false` accepts nothing".to_owned());
                return;
            }
            Value::Object(map) => map,
            _ => {
                self.fail(at.ipath, at.spath, "not a schema".to_owned());
                return;
            }
        };

        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            // draft-07: siblings of `$ref` are ignored
            let root = self.root;
            match resolve(root, reference) {
                Some(target) => self.node(
                    target,
                    instance,
                    At {
                        spath: reference,
                        depth: at.depth + 1,
                        ..at
                    },
                ),
                None => self.fail(at.ipath, at.spath, format!("unresolvable $ref {reference}")),
            }
            return;
        }

        self.values(map, instance, at);
        if let Value::Object(object) = instance {
            self.object(map, object, at);
        }
        if let Value::Array(items) = instance {
            self.array(map, items, at);
        }
        self.combinators(map, instance, at);
    }

    /// `type`, `enum`, `const`.
    fn values(&mut self, map: &Map<String, Value>, instance: &Value, at: At<'_>) {
        if let Some(ty) = map.get("type") {
            let ok = match ty {
                Value::String(name) => type_matches(name, instance),
                Value::Array(names) => names
                    .iter()
                    .filter_map(Value::as_str)
                    .any(|name| type_matches(name, instance)),
                _ => false,
            };
            if !ok {
                let spath = format!("{}/type", at.spath);
                self.fail(at.ipath, &spath, format!("{instance} is not of type {ty}"));
            }
        }
        if let Some(Value::Array(options)) = map.get("enum") {
            if !options.iter().any(|option| json_eq(option, instance)) {
                let spath = format!("{}/enum", at.spath);
                let options = Value::Array(options.clone());
                self.fail(at.ipath, &spath, format!("{instance} is not one of {options}"));
            }
        }
        if let Some(expected) = map.get("const") {
            if !json_eq(expected, instance) {
                let spath = format!("{}/const", at.spath);
                self.fail(at.ipath, &spath, format!("{instance} is not {expected}"));
            }
        }
    }

    /// `required`, `properties`, `additionalProperties`.
    fn object(&mut self, map: &Map<String, Value>, object: &Map<String, Value>, at: At<'_>) {
        if let Some(Value::Array(required)) = map.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !object.contains_key(name) {
                    let spath = format!("{}/required", at.spath);
                    self.fail(at.ipath, &spath, format!("missing required property `{name}`"));
                }
            }
        }
        let properties = map.get("properties").and_then(Value::as_object);
        for (key, value) in object {
            let ipath = format!("{}/{}", at.ipath, escape(key));
            if let Some(child) = properties.and_then(|p| p.get(key)) {
                let spath = format!("{}/properties/{}", at.spath, escape(key));
                self.node(
                    child,
                    value,
                    At {
                        ipath: &ipath,
                        spath: &spath,
                        depth: at.depth + 1,
                    },
                );
            } else if let Some(additional) = map.get("additionalProperties") {
                let spath = format!("{}/additionalProperties", at.spath);
                if additional == &Value::Bool(false) {
                    self.fail(&ipath, &spath, format!("additional property `{key}` is not allowed"));
                } else {
                    self.node(
                        additional,
                        value,
                        At {
                            ipath: &ipath,
                            spath: &spath,
                            depth: at.depth + 1,
                        },
                    );
                }
            }
        }
    }

    /// `items`.
    fn array(&mut self, map: &Map<String, Value>, items: &[Value], at: At<'_>) {
        match map.get("items") {
            Some(Value::Array(tuple)) => {
                for (i, (item, child)) in items.iter().zip(tuple).enumerate() {
                    let ipath = format!("{}/{i}", at.ipath);
                    let spath = format!("{}/items/{i}", at.spath);
                    self.node(
                        child,
                        item,
                        At {
                            ipath: &ipath,
                            spath: &spath,
                            depth: at.depth + 1,
                        },
                    );
                }
            }
            Some(child) => {
                let spath = format!("{}/items", at.spath);
                for (i, item) in items.iter().enumerate() {
                    let ipath = format!("{}/{i}", at.ipath);
                    self.node(
                        child,
                        item,
                        At {
                            ipath: &ipath,
                            spath: &spath,
                            depth: at.depth + 1,
                        },
                    );
                }
            }
            None => {}
        }
    }

    /// `allOf`, `anyOf`, `oneOf`, `not`.
    fn combinators(&mut self, map: &Map<String, Value>, instance: &Value, at: At<'_>) {
        let inner = At {
            depth: at.depth + 1,
            ..at
        };
        if let Some(Value::Array(all)) = map.get("allOf") {
            for (i, child) in all.iter().enumerate() {
                let spath = format!("{}/allOf/{i}", at.spath);
                self.node(child, instance, At { spath: &spath, ..inner });
            }
        }
        if let Some(Value::Array(any)) = map.get("anyOf") {
            if !any.iter().any(|child| self.matches(child, instance, inner)) {
                let spath = format!("{}/anyOf", at.spath);
                self.fail(at.ipath, &spath, "matches none of `anyOf`".to_owned());
            }
        }
        if let Some(Value::Array(one)) = map.get("oneOf") {
            let matched = one.iter().filter(|child| self.matches(child, instance, inner)).count();
            if matched != 1 {
                let spath = format!("{}/oneOf", at.spath);
                self.fail(
                    at.ipath,
                    &spath,
                    format!("matches {matched} of `oneOf`, expected exactly 1"),
                );
            }
        }
        if let Some(not) = map.get("not") {
            if self.matches(not, instance, inner) {
                let spath = format!("{}/not", at.spath);
                self.fail(at.ipath, &spath, "matches the `not` schema".to_owned());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema(value: Value) -> Schema {
        Schema::new(value).unwrap()
    }

    #[test]
    fn boolean_schemas() {
        assert!(schema(json!(true)).is_valid(&json!({"anything": [1]})));
        assert!(!schema(json!(false)).is_valid(&json!(null)));
        let s = schema(json!({"properties": {"a": true, "b": false}}));
        assert!(s.is_valid(&json!({"a": 1})));
        assert!(!s.is_valid(&json!({"b": 1})));
    }

    #[test]
    fn types() {
        let s = schema(json!({"type": "string"}));
        assert!(s.is_valid(&json!("x")));
        assert!(!s.is_valid(&json!(1)));
        assert!(!s.is_valid(&json!(null)));
        let nullable = schema(json!({"type": ["string", "null"]}));
        assert!(nullable.is_valid(&json!(null)));
        assert!(nullable.is_valid(&json!("x")));
        assert!(!nullable.is_valid(&json!(false)));
        let int = schema(json!({"type": "integer"}));
        assert!(int.is_valid(&json!(3)));
        assert!(int.is_valid(&json!(3.0)));
        assert!(!int.is_valid(&json!(3.5)));
        assert!(schema(json!({"type": "number"})).is_valid(&json!(3.5)));
        assert!(schema(json!({"type": "boolean"})).is_valid(&json!(false)));
        assert!(!schema(json!({"type": "object"})).is_valid(&json!([])));
        assert!(schema(json!({"type": "array"})).is_valid(&json!([])));
        assert!(schema(json!({"type": "null"})).is_valid(&json!(null)));
    }

    #[test]
    fn enum_and_const() {
        let e = schema(json!({"enum": ["allow", "deny", 1]}));
        assert!(e.is_valid(&json!("deny")));
        assert!(e.is_valid(&json!(1.0)));
        assert!(!e.is_valid(&json!("ask")));
        let c = schema(json!({"const": "PreToolUse", "type": "string"}));
        assert!(c.is_valid(&json!("PreToolUse")));
        let errors = c.validate(&json!("Stop")).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].schema_path, "#/const");
        assert!(schema(json!({"const": {"a": [1, 2]}})).is_valid(&json!({"a": [1.0, 2]})));
        assert!(!schema(json!({"const": {"a": [1, 2]}})).is_valid(&json!({"a": [2, 1]})));
    }

    #[test]
    fn objects() {
        let s = schema(json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {"a": {"type": "string"}, "b": {"type": "boolean"}},
            "required": ["a"]
        }));
        assert!(s.is_valid(&json!({"a": "x"})));
        assert!(s.is_valid(&json!({"a": "x", "b": true})));
        let missing = s.validate(&json!({"b": true})).unwrap_err();
        assert_eq!(missing[0].message, "missing required property `a`");
        let extra = s.validate(&json!({"a": "x", "c/d": 1})).unwrap_err();
        assert_eq!(extra[0].instance_path, "/c~1d");
        assert_eq!(extra[0].schema_path, "#/additionalProperties");
        let nested = s.validate(&json!({"a": 1, "b": "no"})).unwrap_err();
        assert_eq!(nested.len(), 2);
        assert_eq!(nested[0].instance_path, "/a");
        assert_eq!(nested[0].schema_path, "#/properties/a/type");
        // `required` and `properties` only constrain objects
        assert!(schema(json!({"required": ["a"]})).is_valid(&json!("not an object")));
        let typed_extra = schema(json!({"additionalProperties": {"type": "integer"}}));
        assert!(typed_extra.is_valid(&json!({"x": 1})));
        assert!(!typed_extra.is_valid(&json!({"x": "1"})));
    }

    #[test]
    fn combinators() {
        let all = schema(json!({"allOf": [{"type": "string"}, {"enum": ["a", "b"]}]}));
        assert!(all.is_valid(&json!("a")));
        assert!(!all.is_valid(&json!("c")));
        let any = schema(json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}));
        assert!(any.is_valid(&json!(1)));
        assert!(!any.is_valid(&json!(true)));
        let one = schema(json!({"oneOf": [{"type": "integer"}, {"type": "number"}]}));
        assert!(one.is_valid(&json!(1.5)));
        assert!(!one.is_valid(&json!(1)), "1 is both an integer and a number");
        let not = schema(json!({"not": {"type": "null"}}));
        assert!(not.is_valid(&json!(0)));
        assert!(!not.is_valid(&json!(null)));
    }

    #[test]
    fn items() {
        let list = schema(json!({"items": {"type": "string"}}));
        assert!(list.is_valid(&json!(["a", "b"])));
        let errors = list.validate(&json!(["a", 2])).unwrap_err();
        assert_eq!(errors[0].instance_path, "/1");
        let tuple = schema(json!({"items": [{"type": "string"}, {"type": "integer"}]}));
        assert!(tuple.is_valid(&json!(["a", 1, null])));
        assert!(!tuple.is_valid(&json!([1, "a"])));
    }

    #[test]
    fn refs_and_definitions() {
        let s = schema(json!({
            "definitions": {
                "NullableString": {"type": ["string", "null"]},
                "a/b": {"const": 1},
                "Node": {"type": "object", "properties": {"next": {"$ref": "#/definitions/Node"}}}
            },
            "properties": {
                "p": {"$ref": "#/definitions/NullableString"},
                "q": {"$ref": "#/definitions/a~1b"},
                "d": {"allOf": [{"$ref": "#/definitions/NullableString"}], "default": null},
                "r": {"$ref": "#/definitions/Node"},
                "self": {"$ref": "#"}
            }
        }));
        assert!(s.is_valid(&json!({"p": null, "q": 1, "d": "x"})));
        assert!(!s.is_valid(&json!({"p": 3})));
        assert!(!s.is_valid(&json!({"q": 2})));
        // `default: null` is an annotation: null still has to match the allOf
        assert!(s.is_valid(&json!({"d": null})));
        assert!(s.is_valid(&json!({"r": {"next": {"next": {}}}})));
        assert!(!s.is_valid(&json!({"r": {"next": 1}})));
        assert!(!s.is_valid(&json!({"self": {"p": 1}})));
        // siblings of $ref are ignored (draft-07)
        let sibling = schema(json!({
            "definitions": {"S": {"type": "string"}},
            "$ref": "#/definitions/S", "type": "integer"
        }));
        assert!(sibling.is_valid(&json!("x")));
    }

    #[test]
    fn schema_checks_are_strict() {
        assert!(Schema::new(json!({"pattern": "^a"})).unwrap_err().contains("pattern"));
        assert!(Schema::new(json!({"properties": {"a": {"minLength": 1}}})).is_err());
        assert!(Schema::new(json!({"$ref": "#/definitions/Missing"})).is_err());
        assert!(Schema::new(json!({"type": "strin"})).is_err());
        assert!(Schema::new(json!({"required": [1]})).is_err());
        assert!(Schema::new(json!({"allOf": []})).is_err());
        assert!(Schema::new(json!(3)).is_err());
        assert!(Schema::new(json!({"title": "t", "description": "d", "default": 1})).is_ok());
    }

    #[test]
    fn json_equality() {
        assert!(json_eq(&json!(1), &json!(1.0)));
        assert!(json_eq(&json!({"a": 1, "b": 2}), &json!({"b": 2, "a": 1.0})));
        assert!(!json_eq(&json!([1]), &json!([1, 1])));
        assert!(!json_eq(&json!("1"), &json!(1)));
        assert!(json_eq(&json!(u64::MAX), &json!(u64::MAX)));
    }
}
