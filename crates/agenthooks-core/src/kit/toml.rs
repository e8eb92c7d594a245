//! TOML read as JSON (feature `toml`): how a codec reads an agent's `config.toml` layers for
//! [`McpServers::from_layers`](crate::mcp::McpServers::from_layers), and how install reads
//! manifests and existing TOML configs. One set of rules: datetimes become their text, a float
//! JSON cannot hold (`nan`, `inf`) becomes `null`, tables and inline tables become objects in
//! document order, arrays of tables become arrays of objects.
//!
//! ```
//! use agenthooks_core::kit::toml;
//! let doc: toml_edit::DocumentMut = "a = 1\nwhen = 1979-05-27\n[[s]]\nx = nan\n".parse().unwrap();
//! assert_eq!(
//!     toml::to_json(doc.as_item()),
//!     serde_json::json!({"a": 1, "when": "1979-05-27", "s": [{"x": null}]})
//! );
//! ```

use serde_json::Value;
use toml_edit::{Item, TableLike};

/// A TOML item as JSON (see the [module docs](self)).
pub fn to_json(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Value(v) => value_json(v),
        Item::Table(t) => table_json(t),
        Item::ArrayOfTables(a) => Value::Array(a.iter().map(|t| table_json(t)).collect()),
    }
}

/// A TOML table-like (table or inline table) as a JSON object.
pub fn table_json(t: &dyn TableLike) -> Value {
    Value::Object(t.iter().map(|(k, v)| (k.to_owned(), to_json(v))).collect())
}

fn value_json(v: &toml_edit::Value) -> Value {
    use toml_edit::Value as V;
    match v {
        V::String(s) => Value::String(s.value().clone()),
        V::Integer(i) => Value::from(*i.value()),
        V::Float(f) => serde_json::Number::from_f64(*f.value()).map_or(Value::Null, Value::Number),
        V::Boolean(b) => Value::Bool(*b.value()),
        V::Datetime(d) => Value::String(d.value().to_string()),
        V::Array(a) => Value::Array(a.iter().map(value_json).collect()),
        V::InlineTable(t) => table_json(t),
    }
}
