//! TOML helpers over `toml_edit` (which keeps comments, order and formatting of everything we
//! do not touch).

use std::path::Path;

use toml_edit::{DocumentMut, Item, Table, TableLike};

use crate::error::InstallError;

/// Parses a document, mapping errors to [`InstallError::Malformed`].
pub(crate) fn parse(path: &Path, text: &str) -> Result<DocumentMut, InstallError> {
    text.parse::<DocumentMut>()
        .map_err(|e| InstallError::malformed(path, "TOML", e.to_string().trim_end().to_owned()))
}

/// Converts a TOML item to JSON (datetimes become strings); a table-like to a JSON object
/// (one conversion with the Codex crate's `config.toml` reader).
pub(crate) use agenthooks_codex::mcp_config::{toml_json as to_json, toml_table_json as table_json};

/// The string under `key` of a table-like item.
pub(crate) fn str_of<'a>(t: &'a dyn TableLike, key: &str) -> Option<&'a str> {
    t.get(key).and_then(Item::as_str)
}

/// A new implicit table (no `[header]` of its own when it only holds sub-tables).
pub(crate) fn implicit_table() -> Table {
    let mut t = Table::new();
    t.set_implicit(true);
    t
}

/// Keeps the original's final-newline state (`toml_edit` ends what it writes with one) and its
/// line endings: `toml_edit` writes `\n` after every line it renders, so a file whose every line
/// ends in `\r\n` (Windows editors) gets `\r\n` back. A file that mixes both comes back with
/// `\n` (there is no one ending to keep).
pub(crate) fn keep_final_newline(before: &str, mut after: String) -> String {
    if is_crlf(before) {
        after = after.replace("\r\n", "\n").replace('\n', "\r\n");
    }
    if !before.is_empty() && !before.ends_with('\n') && after.ends_with('\n') {
        after.pop();
        if after.ends_with('\r') {
            after.pop();
        }
    }
    after
}

/// Whether every line break of `text` is `\r\n` (and there is one).
fn is_crlf(text: &str) -> bool {
    let lf = text.matches('\n').count();
    lf > 0 && text.matches("\r\n").count() == lf
}

/// Whether a document holds nothing but whitespace and comments.
pub(crate) fn is_blank(doc: &DocumentMut) -> bool {
    doc.as_table().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts() {
        let doc = parse(
            Path::new("x.toml"),
            "a = 1\nb = [true, 'x']\n[t]\nc = { d = 1.5 }\n[[arr]]\ne = 1979-05-27\n",
        )
        .unwrap();
        assert_eq!(
            to_json(doc.as_item()),
            serde_json::json!({"a": 1, "b": [true, "x"], "t": {"c": {"d": 1.5}}, "arr": [{"e": "1979-05-27"}]})
        );
        let e = parse(Path::new("/x/c.toml"), "a = ").unwrap_err();
        assert!(e.to_string().starts_with("/x/c.toml: malformed TOML"));
    }
}
