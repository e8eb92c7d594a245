//! # agenthooks-testkit
//!
//! Testing tools for agenthooks codecs and for hooks written with agenthooks (or in any other
//! language). It is a product, not scaffolding: provider crates run its conformance suite, and
//! consumers use the harnesses in their own CI.
//!
//! - **Fixture corpus** ([`fixture`]): `fixtures/<provider>/<agent version | docs>/<case>/` with
//!   `input.json` (the payload exactly as the agent sent it), `meta.toml` (native event,
//!   transport, variant, source, argv, `[env]`), the expected normalized event `event.json` and
//!   the expected wire response per decision shape `responses/<shape>.json`. With
//!   `AGENTHOOKS_BLESS=1` the expected files are (re)written; otherwise a difference fails with a
//!   line diff ([`golden`]).
//! - **Decision shapes** ([`shapes`]): the fixed list of decisions every fixture is encoded with.
//! - **Conformance suite** ([`conformance`]): every fixture decodes, raw bytes are identical,
//!   native event and kind match, `encode(neutral) == no_op`, unknown keys land in the native
//!   view's extra map, and the normalized event and wire bytes match the expected files.
//! - **In-process harness** ([`harness`]): [`invoke`] a router through a codec exactly as the
//!   runner does (decode → dispatch → degrade → encode), then assert what the *agent* would do:
//!   [`HookRun::assert_no_op`], [`HookRun::assert_denied`], [`HookRun::assert_context`].
//! - **Fake agents** ([`fake`]): each agent's rules for reading a hook's exit code, stdout and
//!   stderr, written from the agents' documented and observed behaviour and independent of our
//!   encoders, into a [`Verdict`]; and a process spawner that runs any hook command the way the
//!   agent does (payload transport, exported env vars, timeout unit and default, cwd).
//! - **Agreement test** ([`agreement`]): for a codec, every native event × decision shape is
//!   encoded with the real codec, interpreted by the fake agent, and compared with what
//!   [`Codec::capabilities`](agenthooks_core::Codec::capabilities) promises: delivered where
//!   promised, degraded per policy where not, never silently lost, never delivered unpromised.
//!
//! ## Using it from a codec crate
//!
//! ```no_run
//! use agenthooks_core::Codec;
//!
//! // In a codec crate's tests: `conformance(&agenthooks_claude::CODEC)` from a `#[test]`.
//! fn conformance(codec: &'static dyn Codec) {
//!     let dir = agenthooks_testkit::fixtures_dir(codec.provider().as_str());
//!     // decode, raw, kind, no-op, golden event and responses, `extra` capture (through
//!     // `Codec::native_extra`) and the drop/retype tolerance property, for every fixture
//!     agenthooks_testkit::conformance::Suite::new(codec, dir).run();
//! }
//! ```
//!
//! Non-goals: driving the real agent CLIs (see `e2e/`), and fuzzing (codecs own their proptests).

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod agreement;
pub mod conformance;
pub mod fake;
pub mod fixture;
pub mod golden;
pub mod graph;
pub mod harness;
pub mod hostile;
pub mod mcp;
pub mod model;
#[cfg(feature = "otlp")]
pub mod otlp;
pub mod process;
#[cfg(feature = "proptest")]
pub mod props;
pub mod shapes;
#[cfg(feature = "proptest")]
pub mod strategy;
pub mod surface;
pub mod tolerance;

use std::path::{Path, PathBuf};

pub use fake::{Effect, FakeAgent, HookOutput, Verdict};
pub use fixture::{Corpus, Fixture, FixtureError, Meta};
pub use harness::{assert_context, assert_denied, assert_no_op, invoke, HookRun};
pub use shapes::Shape;

/// The environment variable that turns on bless mode.
pub const BLESS_ENV: &str = "AGENTHOOKS_BLESS";

/// The environment variable that overrides the fixture root.
pub const FIXTURES_ENV: &str = "AGENTHOOKS_FIXTURES";

/// The workspace fixture root: `$AGENTHOOKS_FIXTURES`, else `fixtures/` at the root of the
/// agenthooks workspace this crate was built from.
pub fn fixtures_root() -> PathBuf {
    let p = match std::env::var_os(FIXTURES_ENV) {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures"),
    };
    // Readable paths in failure messages.
    std::fs::canonicalize(&p).unwrap_or(p)
}

/// The fixture directory of one provider (`fixtures_root()/<provider>`).
pub fn fixtures_dir(provider: &str) -> PathBuf {
    fixtures_root().join(provider)
}

/// A fresh, empty directory under the system temp dir, removed (with its content) on drop:
/// `agenthooks-<name>-<pid>-<n>`, unique per process and call.
///
/// ```
/// let tmp = agenthooks_testkit::TempDir::new("doc");
/// std::fs::write(tmp.0.join("f"), "x").unwrap();
/// let path = tmp.0.clone();
/// drop(tmp);
/// assert!(!path.exists());
/// ```
#[derive(Debug)]
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// Creates the directory (panics when it cannot: it is for tests).
    pub fn new(name: &str) -> Self {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("agenthooks-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        Self(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[doc(hidden)]
pub use agenthooks_core as __core;

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
