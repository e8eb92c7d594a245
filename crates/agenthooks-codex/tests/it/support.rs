//! Shared helpers: the fixture corpus (through the testkit) and the crate's vendored Codex
//! schemas, validated with the `jsonschema` crate (draft-07, as Codex's files declare).

use std::fs;
use std::path::{Path, PathBuf};

use agenthooks_codex::CODEC;
use agenthooks_testkit::Corpus;
use serde_json::Value;

/// `crates/agenthooks-codex`.
pub(crate) fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every case under `fixtures/codex/`, loaded once.
pub(crate) static CORPUS: Corpus = Corpus::new(&CODEC);

/// Native event name → schema file stem: its trust label with dashes (`PreToolUse` →
/// `pre-tool-use`); `None` for events Codex does not hook (they have no schema).
pub(crate) fn kebab(native: &str) -> Option<String> {
    agenthooks_codex::trust::event_label(native).map(|label| label.replace('_', "-"))
}

/// A compiled schema document.
pub(crate) struct Schema {
    root: Value,
    validator: jsonschema::Validator,
}

impl Schema {
    /// Compiles a draft-07 schema document.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let root: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let validator = jsonschema::draft7::new(&root).map_err(|e| e.to_string())?;
        Ok(Self { root, validator })
    }

    /// The document.
    pub(crate) fn root(&self) -> &Value {
        &self.root
    }

    /// The node a local `$ref` (`#`, `#/definitions/X`) points at.
    pub(crate) fn resolve(&self, reference: &str) -> Option<&Value> {
        self.root.pointer(reference.strip_prefix('#')?)
    }

    /// Every violation, as text.
    pub(crate) fn validate(&self, instance: &Value) -> Result<(), Vec<String>> {
        self.validator
            .validate(instance)
            .map_err(|errors| errors.map(|e| format!("at `{}`: {e}", e.instance_path)).collect())
    }

    /// Whether `instance` is valid.
    pub(crate) fn is_valid(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }
}

fn load(path: &Path) -> Option<Schema> {
    let text = fs::read_to_string(path).ok()?;
    Some(Schema::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// The input schema of a native event, if Codex publishes one.
pub(crate) fn input_schema(native: &str) -> Option<Schema> {
    load(&crate_dir().join(format!("schemas/{}.command.input.schema.json", kebab(native)?)))
}

/// The output schema of a native event, if Codex publishes one.
pub(crate) fn output_schema(native: &str) -> Option<Schema> {
    load(&crate_dir().join(format!("schemas/{}.command.output.schema.json", kebab(native)?)))
}

/// Every `*.json` schema file name in `schemas/`.
pub(crate) fn schema_files() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(crate_dir().join("schemas"))
        .expect("schemas dir")
        .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
        .filter(|n| {
            Path::new(n)
                .extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("json"))
        })
        .collect();
    names.sort();
    names
}
