//! The fixture corpus: loading `fixtures/<provider>/<version|docs>/<case>/`.
//!
//! A case directory holds:
//!
//! | file | content |
//! |---|---|
//! | `input.json` | the payload exactly as the agent sent it (bytes, not re-serialized) |
//! | `meta.toml` | `native_event`, `transport` (`stdin`/`argv`/`frame`), `variant`, `source`, optional `argv = [...]`, optional `kind` (the unified kind when the payload decides it, e.g. `"tool.error"`), optional `documented_only = true` (a release that cannot run here: the shape is written from its documentation, not captured), `[env]` table |
//! | `event.json` | expected normalized event (`Event::to_json(false)`, pretty-printed); written by bless mode |
//! | `responses/<shape>.json` | expected wire response per [`Shape`]: `{"exit_code", "stdout", "stderr"}`; written by bless mode |
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("agenthooks-testkit-doc-{}", std::process::id()));
//! # let case = dir.join("claude-code/docs/stop");
//! # std::fs::create_dir_all(&case).unwrap();
//! # std::fs::write(case.join("input.json"), br#"{"hook_event_name":"Stop"}"#).unwrap();
//! # std::fs::write(case.join("meta.toml"), "native_event = \"Stop\"\ntransport = \"stdin\"\n[env]\nCLAUDECODE = \"1\"\n").unwrap();
//! use agenthooks_testkit::fixture;
//! let all = fixture::load_all(&dir.join("claude-code")).unwrap();
//! assert_eq!(all.len(), 1);
//! assert_eq!(all[0].id(), "claude-code/docs/stop");
//! assert_eq!(all[0].meta.native_event, "Stop");
//! assert_eq!(all[0].meta.env.get("CLAUDECODE").map(String::as_str), Some("1"));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use agenthooks_core::{Codec, DecodeError, Event, EventKind, Invocation, Transport, Variant};

use crate::shapes::Shape;

/// Why a fixture could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FixtureError {
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// `meta.toml` is not valid TOML.
    #[error("{path}: invalid TOML: {message}")]
    Toml {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// `meta.toml` lacks a field or has one of the wrong type.
    #[error("{path}: `{field}`: {message}")]
    Meta {
        /// The file.
        path: PathBuf,
        /// The TOML key.
        field: String,
        /// What is wrong.
        message: String,
    },
}

/// The parsed `meta.toml` of a case.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Meta {
    /// The native event name (for Copilot: the argv-baked camelCase name).
    pub native_event: String,
    /// How the payload arrives.
    pub transport: Transport,
    /// The variant (`""` for the default).
    pub variant: String,
    /// Where the payload came from.
    pub source: String,
    /// The hook's argv as the generated config would give it (may be empty).
    pub argv: Vec<String>,
    /// The expected unified kind, when it is not simply the codec's kind of the native event
    /// (a payload-dependent mapping, such as a failed call reported on a post-tool event).
    pub kind: Option<EventKind>,
    /// The payload was written from the release's documentation, not captured from a run
    /// (`documented_only = true`: the release cannot run offline here).
    pub documented_only: bool,
    /// Environment variables the hook saw.
    pub env: BTreeMap<String, String>,
}

impl Meta {
    /// Parses `meta.toml` text; `path` is used in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Self, FixtureError> {
        let doc: toml_edit::DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| FixtureError::Toml {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        let bad = |field: &str, message: &str| FixtureError::Meta {
            path: path.to_owned(),
            field: field.to_owned(),
            message: message.to_owned(),
        };
        let string = |field: &str, required: bool| -> Result<String, FixtureError> {
            match doc.get(field) {
                None if required => Err(bad(field, "missing")),
                None => Ok(String::new()),
                Some(item) => item
                    .as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| bad(field, "expected a string")),
            }
        };
        let native_event = string("native_event", true)?;
        let transport = match string("transport", false)?.as_str() {
            "" | "stdin" => Transport::Stdin,
            "argv" => Transport::Argv,
            "frame" => Transport::Frame,
            other => {
                return Err(bad(
                    "transport",
                    &format!("unknown transport `{other}` (stdin, argv or frame)"),
                ))
            }
        };
        let variant = string("variant", false)?;
        let source = string("source", false)?;
        let argv = match doc.get("argv") {
            None => Vec::new(),
            Some(item) => {
                let arr = item
                    .as_array()
                    .ok_or_else(|| bad("argv", "expected an array of strings"))?;
                arr.iter()
                    .enumerate()
                    .map(|(i, v)| {
                        v.as_str()
                            .map(str::to_owned)
                            .ok_or_else(|| bad(&format!("argv[{i}]"), "expected a string"))
                    })
                    .collect::<Result<Vec<_>, _>>()?
            }
        };
        let kind = match string("kind", false)?.as_str() {
            "" => None,
            k => Some(k.parse::<EventKind>().map_err(|e| bad("kind", &e.to_string()))?),
        };
        let documented_only = match doc.get("documented_only") {
            None => false,
            Some(item) => item
                .as_bool()
                .ok_or_else(|| bad("documented_only", "expected a boolean"))?,
        };
        let mut env = BTreeMap::new();
        if let Some(item) = doc.get("env") {
            let table = item.as_table_like().ok_or_else(|| bad("env", "expected a table"))?;
            for (k, v) in table.iter() {
                let v = v
                    .as_str()
                    .ok_or_else(|| bad(&format!("env.{k}"), "expected a string"))?;
                env.insert(k.to_owned(), v.to_owned());
            }
        }
        Ok(Self {
            native_event,
            transport,
            variant,
            source,
            argv,
            kind,
            documented_only,
            env,
        })
    }
}

/// One fixture case.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fixture {
    /// The case directory.
    pub dir: PathBuf,
    /// The provider directory name (the provider's wire string).
    pub provider: String,
    /// The agent version directory name (or `docs`).
    pub version: String,
    /// The case name.
    pub case: String,
    /// The exact payload bytes (`input.json`).
    pub input: Vec<u8>,
    /// The parsed `meta.toml`.
    pub meta: Meta,
}

fn read(path: &Path) -> Result<Vec<u8>, FixtureError> {
    std::fs::read(path).map_err(|source| FixtureError::Io {
        path: path.to_owned(),
        source,
    })
}

fn name_of(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl Fixture {
    /// Loads one case directory (`…/<provider>/<version>/<case>`).
    pub fn load(dir: &Path) -> Result<Self, FixtureError> {
        let input = read(&dir.join("input.json"))?;
        let meta_path = dir.join("meta.toml");
        let meta_bytes = read(&meta_path)?;
        let meta = Meta::parse(&String::from_utf8_lossy(&meta_bytes), &meta_path)?;
        let version_dir = dir.parent().unwrap_or(dir);
        let provider_dir = version_dir.parent().unwrap_or(version_dir);
        Ok(Self {
            dir: dir.to_owned(),
            provider: name_of(provider_dir),
            version: name_of(version_dir),
            case: name_of(dir),
            input,
            meta,
        })
    }

    /// `provider/version/case`.
    pub fn id(&self) -> String {
        format!("{}/{}/{}", self.provider, self.version, self.case)
    }

    /// `version/case`: the name a case goes by within its provider's corpus.
    pub fn short_id(&self) -> String {
        format!("{}/{}", self.version, self.case)
    }

    /// The input parsed as JSON (panics, naming the case, when it is not JSON).
    pub fn input_json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.input).unwrap_or_else(|e| panic!("{}: {e}", self.id()))
    }

    /// Asserts what a Claude-family fixture keeps through its decode `env`: no projection
    /// issue, a native view of type `N` (the codec's native enum) that serializes back to the
    /// input, an empty `extra` unless `extra_allowed`, and the session facts every payload of
    /// the family carries (`session_id`, `cwd`, `prompt_id` as the turn id). Returns the view
    /// and the input, for the codec's own checks. Panics naming the case.
    ///
    /// ```no_run
    /// use agenthooks_core::kit::NativeEvents;
    /// // `N` is the codec's `native::NativeEvent`.
    /// fn check<N: NativeEvents>(case: &agenthooks_testkit::Fixture, env: &agenthooks_core::Envelope) {
    ///     let (native, input) = case.assert_family_lossless::<N>(env, false);
    ///     assert_eq!(native.name(), input["hook_event_name"]);
    /// }
    /// ```
    #[track_caller]
    pub fn assert_family_lossless<'e, N>(
        &self,
        env: &'e agenthooks_core::Envelope,
        extra_allowed: bool,
    ) -> (&'e N, serde_json::Value)
    where
        N: agenthooks_core::kit::NativeEvents,
    {
        let name = self.short_id();
        assert!(env.projection_issues.is_empty(), "{name}: {:?}", env.projection_issues);
        let native = env
            .native_view::<N>()
            .unwrap_or_else(|| panic!("{name}: no native view"));
        let original: serde_json::Value = serde_json::from_slice(&self.input).expect("valid JSON");
        assert_eq!(
            serde_json::to_value(native).expect("serializes"),
            original,
            "{name}: round trip"
        );
        if !extra_allowed {
            let mut copy = native.clone();
            let extra = copy.extra_mut();
            assert!(extra.is_empty(), "{name}: extra {extra:?}");
        }
        assert_eq!(env.session.id, original["session_id"], "{name}");
        assert_eq!(env.session.cwd, original["cwd"], "{name}");
        assert_eq!(
            env.session.turn_id,
            original["prompt_id"].as_str().unwrap_or_default(),
            "{name}: prompt_id is the turn id"
        );
        (native, original)
    }

    /// The env table as a map usable as an [`agenthooks_core::Env`].
    pub fn env_map(&self) -> HashMap<String, String> {
        self.meta.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// The runner's argv for this case: the words after `agenthooks run|notify|serve`
    /// when `meta.argv` contains them, else `meta.argv` as is.
    pub fn runner_argv(&self) -> Vec<String> {
        let argv = &self.meta.argv;
        if let Some(pos) = argv.iter().position(|a| a == "agenthooks") {
            if matches!(argv.get(pos + 1).map(String::as_str), Some("run" | "notify" | "serve")) {
                return argv[pos + 2..].to_vec();
            }
        }
        argv.clone()
    }

    /// The variant hint, when `meta.variant` is not empty.
    pub fn variant(&self) -> Option<Variant> {
        (!self.meta.variant.is_empty()).then(|| Variant::new(self.meta.variant.clone()))
    }

    /// Builds the [`Invocation`] the runner would build for this case with `payload` (normally
    /// [`Fixture::input`]) and hands it to `f`.
    pub fn with_invocation<R>(&self, payload: &[u8], f: impl FnOnce(&Invocation<'_>) -> R) -> R {
        let env = self.env_map();
        let variant = self.variant();
        let inv = Invocation::new(payload.to_vec(), &env)
            .with_native_event(Some(self.meta.native_event.as_str()))
            .with_variant(variant.as_ref())
            .with_transport(self.meta.transport);
        f(&inv)
    }

    /// Decodes the case with a codec.
    pub fn decode(&self, codec: &dyn Codec) -> Result<Event, DecodeError> {
        self.with_invocation(&self.input, |inv| codec.decode(inv))
    }

    /// Path of the expected normalized event.
    pub fn event_path(&self) -> PathBuf {
        self.dir.join("event.json")
    }

    /// Path of the expected response for a shape.
    pub fn response_path(&self, shape: Shape) -> PathBuf {
        self.dir.join("responses").join(format!("{}.json", shape.name()))
    }
}

/// One provider's fixture corpus with its codec: the lookups a codec crate's tests make,
/// loaded once. Lookups panic with the case's name: they are for tests.
///
/// ```no_run
/// # use agenthooks_core::Codec;
/// # fn demo(codec: &'static dyn Codec) {
/// use agenthooks_testkit::fixture::Corpus;
/// let corpus = Corpus::new(codec);
/// let stop = corpus.case("docs/stop");
/// assert_eq!(stop.short_id(), "docs/stop");
/// let event = corpus.decode(stop);
/// # let _ = event;
/// # }
/// ```
pub struct Corpus {
    codec: &'static dyn Codec,
    cases: OnceLock<Vec<Fixture>>,
}

impl Corpus {
    /// The corpus of `codec`'s provider (`fixtures_dir(<provider>)`).
    pub const fn new(codec: &'static dyn Codec) -> Self {
        Self {
            codec,
            cases: OnceLock::new(),
        }
    }

    /// The codec.
    pub fn codec(&self) -> &'static dyn Codec {
        self.codec
    }

    /// Every case, sorted by path.
    pub fn cases(&self) -> &[Fixture] {
        self.cases.get_or_init(|| {
            let dir = crate::fixtures_dir(self.codec.provider().as_str());
            load_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        })
    }

    /// The case `version/case` ([`Fixture::short_id`]), or the first one whose directory is
    /// `name`.
    pub fn case(&self, name: &str) -> &Fixture {
        self.cases()
            .iter()
            .find(|f| f.case == name || f.short_id() == name)
            .unwrap_or_else(|| panic!("no fixture {name}"))
    }

    /// Decodes a case the way the runner would ([`Fixture::decode`]).
    pub fn decode(&self, case: &Fixture) -> Event {
        case.decode(self.codec).unwrap_or_else(|e| panic!("{}: {e}", case.id()))
    }

    /// The case named `name`, decoded.
    pub fn event(&self, name: &str) -> Event {
        self.decode(self.case(name))
    }

    /// Asserts that the codec's table is `events` (the provider's `native::EVENTS`) and that
    /// every event of it has a case written from the reference (`version == "docs"`) that also
    /// satisfies `keep`.
    ///
    /// # Panics
    /// When either does not hold, naming the events without such a case.
    pub fn assert_docs_case_per_event(
        &self,
        events: &[agenthooks_core::kit::EventRow],
        keep: impl Fn(&Fixture) -> bool,
    ) {
        assert_eq!(
            self.codec.native_events(),
            events,
            "the codec's table is the native module's"
        );
        let missing = self.events_without(|c| c.version == "docs" && keep(c));
        assert!(missing.is_empty(), "no docs fixture for {missing:?}");
    }

    /// The codec's native events that no case satisfying `keep` is of (e.g. events without a
    /// `docs/` fixture: `|c| c.version == "docs"`).
    pub fn events_without(&self, keep: impl Fn(&Fixture) -> bool) -> Vec<&'static str> {
        self.codec
            .native_events()
            .iter()
            .map(|row| row.name)
            .filter(|name| !self.cases().iter().any(|c| c.meta.native_event == *name && keep(c)))
            .collect()
    }
}

impl std::fmt::Debug for Corpus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Corpus")
            .field("provider", &self.codec.provider().as_str())
            .finish_non_exhaustive()
    }
}

/// Loads every case under `dir` (a provider directory, a version directory, a case directory, or
/// the whole corpus): every directory holding an `input.json`, sorted by path.
pub fn load_all(dir: &Path) -> Result<Vec<Fixture>, FixtureError> {
    let mut dirs = Vec::new();
    collect(dir, &mut dirs)?;
    dirs.sort();
    dirs.iter().map(|d| Fixture::load(d)).collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), FixtureError> {
    if dir.join("input.json").is_file() {
        out.push(dir.to_owned());
        return Ok(());
    }
    let entries = std::fs::read_dir(dir).map_err(|source| FixtureError::Io {
        path: dir.to_owned(),
        source,
    })?;
    for entry in entries {
        let entry = entry.map_err(|source| FixtureError::Io {
            path: dir.to_owned(),
            source,
        })?;
        let p = entry.path();
        if p.is_dir() && name_of(&p) != "responses" {
            collect(&p, out)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_parses_every_field() {
        let text = r#"native_event = "agentStop"
transport = "argv"
variant = "cowork"
source = "docs"
argv = ["agenthooks", "run", "--provider=copilot", "--event=agentStop"]

[env]
COPILOT_CLI = "1"
"#;
        let m = Meta::parse(text, Path::new("m.toml")).unwrap();
        assert_eq!(m.native_event, "agentStop");
        assert_eq!(m.transport, Transport::Argv);
        assert_eq!(m.variant, "cowork");
        assert_eq!(m.argv.len(), 4);
        assert_eq!(m.env["COPILOT_CLI"], "1");
        assert_eq!(m.kind, None);
        assert!(!m.documented_only, "captured unless marked");
        let m = Meta::parse("native_event = \"a\"\ndocumented_only = true", Path::new("m.toml")).unwrap();
        assert!(m.documented_only);
        let e = Meta::parse("native_event = \"a\"\ndocumented_only = \"yes\"", Path::new("m.toml")).unwrap_err();
        assert_eq!(e.to_string(), "m.toml: `documented_only`: expected a boolean");
        let m = Meta::parse(
            "native_event = \"PostToolUse\"\nkind = \"tool.error\"",
            Path::new("m.toml"),
        )
        .unwrap();
        assert_eq!(m.kind, Some(EventKind::ToolError));
        let e = Meta::parse("native_event = \"a\"\nkind = \"tool.later\"", Path::new("m.toml")).unwrap_err();
        assert_eq!(e.to_string(), "m.toml: `kind`: unknown event kind `tool.later`");
    }

    #[test]
    fn meta_errors_name_file_and_field() {
        let e = Meta::parse("transport = \"stdin\"", Path::new("x/meta.toml")).unwrap_err();
        assert_eq!(e.to_string(), "x/meta.toml: `native_event`: missing");
        let e = Meta::parse("native_event = \"a\"\nargv = [1]", Path::new("m.toml")).unwrap_err();
        assert_eq!(e.to_string(), "m.toml: `argv[0]`: expected a string");
        let e = Meta::parse("native_event = \"a\"\ntransport = \"pigeon\"", Path::new("m.toml")).unwrap_err();
        assert!(e.to_string().contains("unknown transport `pigeon`"));
        assert!(matches!(
            Meta::parse("native_event = ", Path::new("m.toml")),
            Err(FixtureError::Toml { .. })
        ));
    }

    #[test]
    fn runner_argv_strips_the_mode_words() {
        let mut f = Fixture {
            dir: PathBuf::from("fixtures/copilot/docs/x"),
            provider: "copilot".into(),
            version: "docs".into(),
            case: "x".into(),
            input: b"{}".to_vec(),
            meta: Meta::default(),
        };
        f.meta.argv = vec!["agenthooks".into(), "run".into(), "--provider=copilot".into()];
        assert_eq!(f.runner_argv(), vec!["--provider=copilot".to_owned()]);
        f.meta.argv = vec!["{\"a\":1}".into()];
        assert_eq!(f.runner_argv(), vec!["{\"a\":1}".to_owned()]);
        assert_eq!(f.id(), "copilot/docs/x");
    }
}
