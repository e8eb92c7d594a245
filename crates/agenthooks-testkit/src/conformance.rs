//! The conformance suite every codec crate runs from its tests.
//!
//! For every fixture under a directory it checks:
//! 1. the payload decodes;
//! 2. [`Envelope::raw`] is byte-identical to `input.json`;
//! 3. the envelope's native event equals `meta.native_event` and the event's kind equals
//!    `meta.kind` when given, else `codec.kind_of(native_event)`;
//! 4. `encode(event, neutral)` equals `codec.no_op(EventTarget::of(event))`;
//! 5. the normalized event (`Event::to_json(false)`, pretty) equals `event.json`;
//! 6. for each [`Shape`] that fits the event's kind, the wire response produced through
//!    `Runner::invoke` with a router answering that shape (so degradation applies exactly as in
//!    production) equals `responses/<shape>.json`;
//! 7. with an unknown key injected into the payload, raw stays byte-identical to the injected
//!    bytes and the key lands in the native view's extra map with its value
//!    ([`Codec::native_extra`]);
//! 8. tolerance ([`crate::tolerance`]): with each non-identifying top-level field dropped, and
//!    with each replaced by a value of another JSON type, the payload still decodes, as the same
//!    kind, with raw byte-identical to the altered bytes;
//! 9. hostile values ([`crate::hostile`]): with each value an agent's encoder can emit that
//!    strict readers reject (lone surrogates, `\u0000`, huge numbers, deep nesting) spliced in at
//!    the top level, into the tool input (beside and inside the command), the prompt and the tool
//!    output, the payload decodes as the same kind with its data, and a deny handler still denies.
//!
//! With `AGENTHOOKS_BLESS=1`, 5 and 6 write the expected files (and remove response files of
//! shapes that no longer apply). Every failure is collected; the suite then panics with all of
//! them.

use std::fmt;
use std::path::{Path, PathBuf};

use agenthooks_core::{Codec, Envelope, Event, EventTarget, Outcome};
use serde_json::{json, Map, Value};

use crate::fixture::{self, Fixture};
use crate::golden;
use crate::harness::invoke_with;
use crate::shapes::{router_for, Shape};

/// The unknown key injected by check 7.
pub const EXTRA_KEY: &str = "agenthooks_testkit_unknown";

/// The value injected under [`EXTRA_KEY`].
pub fn extra_value() -> Value {
    json!({"nested": [1, "two", null], "flag": true})
}

type ExtraFn = Box<dyn for<'a> Fn(&'a Envelope) -> Option<&'a Map<String, Value>> + Send + Sync>;

/// A configured conformance run.
pub struct Suite {
    codec: &'static dyn Codec,
    dir: PathBuf,
    extra: Option<ExtraFn>,
    bless: bool,
    min_fixtures: usize,
    tolerance: bool,
}

impl fmt::Debug for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Suite")
            .field("codec", &self.codec.provider())
            .field("dir", &self.dir)
            .field("extra", &self.extra.is_some())
            .field("bless", &self.bless)
            .field("min_fixtures", &self.min_fixtures)
            .field("tolerance", &self.tolerance)
            .finish()
    }
}

/// What a run checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// Fixtures checked.
    pub fixtures: usize,
    /// Shape responses checked.
    pub responses: usize,
    /// Extra-key injections checked.
    pub extra_checks: usize,
    /// Drop/retype variants checked (check 8).
    pub tolerance_checks: usize,
    /// Hostile-value payloads checked (check 9).
    pub hostile_checks: usize,
    /// Of those, the ones a deny or prompt-block handler was run on.
    pub hostile_gated: usize,
    /// Failures, one message each (file and reason).
    pub failures: Vec<String>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} fixtures, {} responses, {} extra-key checks, {} tolerance checks, {} hostile-value checks ({} gated), {} failures",
            self.fixtures,
            self.responses,
            self.extra_checks,
            self.tolerance_checks,
            self.hostile_checks,
            self.hostile_gated,
            self.failures.len()
        )?;
        for x in &self.failures {
            write!(f, "\n\n✗ {x}")?;
        }
        Ok(())
    }
}

impl Report {
    /// Asserts that at least `responses` shape responses and `tolerance_checks` drop/retype
    /// variants were checked (a corpus that shrank, or a check that stopped running, fails).
    ///
    /// # Panics
    /// When either count is lower.
    #[must_use]
    pub fn at_least(self, responses: usize, tolerance_checks: usize) -> Self {
        assert!(
            self.responses >= responses && self.tolerance_checks >= tolerance_checks,
            "expected at least {responses} responses and {tolerance_checks} tolerance checks: {self}"
        );
        self
    }
}

agenthooks_core::kit::setters! {
    impl Suite {
        /// Forces bless mode on or off (default: from `AGENTHOOKS_BLESS`).
        bless(bless: bool);
        /// Runs check 8, the drop/retype tolerance property (default on; a codec under
        /// construction may switch it off, a finished one never does).
        tolerance(tolerance: bool);
        /// Fails when fewer fixtures are found (default 1).
        min_fixtures(min_fixtures: usize);
    }
}

impl Suite {
    /// A run of `codec` over every fixture under `dir` (bless mode from the environment).
    pub fn new(codec: &'static dyn Codec, dir: impl Into<PathBuf>) -> Self {
        Self {
            codec,
            dir: dir.into(),
            extra: None,
            bless: golden::blessing(),
            min_fixtures: 1,
            tolerance: true,
        }
    }

    /// The native view's extra map for an envelope (e.g. `|e| my_codec::view(e).map(|v| v.extra())`),
    /// so check 7 can verify unknown keys land there.
    #[must_use]
    pub fn with_extra<F>(mut self, f: F) -> Self
    where
        F: for<'a> Fn(&'a Envelope) -> Option<&'a Map<String, Value>> + Send + Sync + 'static,
    {
        self.extra = Some(Box::new(f));
        self
    }

    /// Runs every check and returns the report (failures included, no panic).
    pub fn check(&self) -> Report {
        let mut report = Report::default();
        let fixtures = match fixture::load_all(&self.dir) {
            Ok(f) => f,
            Err(e) => {
                report.failures.push(e.to_string());
                return report;
            }
        };
        if fixtures.len() < self.min_fixtures {
            report.failures.push(format!(
                "{}: found {} fixtures, expected at least {}",
                self.dir.display(),
                fixtures.len(),
                self.min_fixtures
            ));
        }
        for fx in &fixtures {
            self.check_one(fx, &mut report);
        }
        report
    }

    /// Runs every check and panics with all failures if there are any.
    pub fn run(&self) -> Report {
        let report = self.check();
        assert!(
            report.failures.is_empty(),
            "conformance of {} over {} failed: {report}",
            self.codec.provider(),
            self.dir.display()
        );
        report
    }

    /// A provider crate's whole run: [`run`](Self::run) with the tolerance check, then the
    /// counts every such run reaches asserted: an extra-key check per fixture, and at least five
    /// hostile-value payloads per fixture (check 9), at least one of them answered by a deny or
    /// prompt-block handler.
    pub fn run_full(self) -> Report {
        let report = self.tolerance(true).run();
        assert_eq!(report.extra_checks, report.fixtures, "{report}");
        assert!(
            report.hostile_checks >= 5 * report.fixtures && report.hostile_gated > 0,
            "{report}"
        );
        report
    }

    fn check_one(&self, fx: &Fixture, report: &mut Report) {
        report.fixtures += 1;
        let id = fx.id();
        let codec = self.codec;
        let mut fail = |m: String| report.failures.push(format!("{id}: {m}"));

        // 1. decode
        let event = match fx.decode(codec) {
            Ok(e) => e,
            Err(e) => {
                fail(format!("does not decode: {e}"));
                return;
            }
        };
        let env = event.envelope();
        // 2. raw
        if env.raw().as_bytes() != fx.input.as_slice() {
            fail(format!(
                "raw payload differs from input.json ({} bytes vs {} bytes)",
                env.raw().len(),
                fx.input.len()
            ));
        }
        // 3. native event and kind
        if env.native.as_str() != fx.meta.native_event {
            fail(format!(
                "native event is {:?}, meta.toml says {:?}",
                env.native.as_str(),
                fx.meta.native_event
            ));
        }
        let want_kind = fx.meta.kind.unwrap_or_else(|| codec.kind_of(&fx.meta.native_event));
        if event.kind() != want_kind || env.kind != event.kind() {
            fail(format!(
                "kind is {} (envelope {}), expected {} for {:?}",
                event.kind(),
                env.kind,
                want_kind,
                fx.meta.native_event
            ));
        }
        // 4. neutral encodes to the no-op
        let neutral = Outcome::neutral_for(event.kind());
        match codec.encode(&event, &neutral) {
            Ok(r) if r == codec.no_op(&EventTarget::of(&event)) => {}
            Ok(r) => fail(format!(
                "encode(neutral) is not the no-op: exit {} stdout {:?} stderr {:?}, no-op is {:?}",
                r.exit_code,
                r.stdout_str(),
                r.stderr_str(),
                codec.no_op(&EventTarget::of(&event))
            )),
            Err(e) => fail(format!("encode(neutral) failed: {e}")),
        }
        // 5. normalized event
        if let Err(m) = golden::check(&fx.event_path(), &golden::pretty(&event.to_json(false)), self.bless) {
            report.failures.push(format!("{id}: {m}"));
        }
        // 6. responses per shape
        let shapes = Shape::for_kind(event.kind());
        for shape in &shapes {
            let Some(outcome) = shape.decision(&event) else {
                continue;
            };
            report.responses += 1;
            let router = router_for(&outcome);
            let invoked = fx.with_invocation(&fx.input, |inv| invoke_with(&router, codec, inv));
            let r = &invoked.response;
            let actual = json!({
                "exit_code": r.exit_code,
                "stdout": r.stdout_str(),
                "stderr": r.stderr_str(),
            });
            if let Err(m) = golden::check(&fx.response_path(*shape), &golden::pretty(&actual), self.bless) {
                report.failures.push(format!("{id}: shape {shape}: {m}"));
            }
        }
        if self.bless {
            remove_stale(&fx.dir.join("responses"), &shapes);
        } else {
            for stale in stale_files(&fx.dir.join("responses"), &shapes) {
                report.failures.push(format!(
                    "{id}: {} is not a shape of kind {} (run with AGENTHOOKS_BLESS=1 to remove it)",
                    stale.display(),
                    event.kind()
                ));
            }
        }
        // 8. tolerance
        let variants = if self.tolerance {
            crate::tolerance::check_fixture(codec, fx)
        } else {
            Vec::new()
        };
        for failure in variants {
            report.tolerance_checks += 1;
            if let Some(f) = failure {
                report.failures.push(format!("{id}: {f}"));
            }
        }
        // 9. hostile values
        if self.tolerance {
            let h = crate::hostile::check_fixture(codec, fx);
            report.hostile_checks += h.checked;
            report.hostile_gated += h.gated;
            report
                .failures
                .extend(h.failures.into_iter().map(|f| format!("{id}: {f}")));
        }
        // 7. an unknown key
        if let Some(injected) = inject_extra(&fx.input) {
            report.extra_checks += 1;
            match fx.with_invocation(&injected, |inv| codec.decode(inv)) {
                Err(e) => report
                    .failures
                    .push(format!("{id}: with an unknown key injected, does not decode: {e}")),
                Ok(ev) => self.check_extra(&id, &ev, &injected, report),
            }
        }
    }

    fn check_extra(&self, id: &str, ev: &Event, injected: &[u8], report: &mut Report) {
        let env = ev.envelope();
        if env.raw().as_bytes() != injected {
            report.failures.push(format!(
                "{id}: with an unknown key injected, raw differs from the injected bytes"
            ));
        }
        let extra = match &self.extra {
            Some(f) => f(env),
            None => self.codec.native_extra(env),
        };
        {
            match extra {
                None => report.failures.push(format!(
                    "{id}: with an unknown key injected, the native view has no extra map"
                )),
                Some(m) => match m.get(EXTRA_KEY) {
                    Some(v) if *v == extra_value() => {}
                    Some(v) => report
                        .failures
                        .push(format!("{id}: extra[{EXTRA_KEY:?}] is {v}, expected {}", extra_value())),
                    None => report.failures.push(format!(
                        "{id}: the unknown key {EXTRA_KEY:?} did not land in the native view's extra map (keys: {:?})",
                        m.keys().collect::<Vec<_>>()
                    )),
                },
            }
        }
    }
}

/// Runs the suite for `codec` over `dir` and panics on any failure.
pub fn run(codec: &'static dyn Codec, dir: impl AsRef<Path>) -> Report {
    Suite::new(codec, dir.as_ref()).run()
}

/// Inserts `"agenthooks_testkit_unknown": {…}` as the last member of a top-level JSON object,
/// keeping every other byte (BOM, whitespace) as it was. `None` when the payload is not an
/// object.
///
/// ```
/// let out = agenthooks_testkit::conformance::inject_extra(b"{\"a\":1}\n").unwrap();
/// assert_eq!(out, br#"{"a":1,"agenthooks_testkit_unknown":{"nested":[1,"two",null],"flag":true}}
/// "#.to_vec());
/// ```
pub fn inject_extra(input: &[u8]) -> Option<Vec<u8>> {
    let body = input.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(input);
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(m)) if !m.contains_key(EXTRA_KEY) => {
            let close = input.iter().rposition(|b| *b == b'}')?;
            let mut out = input[..close].to_vec();
            let member = format!("{}:{}", Value::String(EXTRA_KEY.to_owned()), extra_value());
            if !m.is_empty() {
                out.push(b',');
            }
            out.extend_from_slice(member.as_bytes());
            out.extend_from_slice(&input[close..]);
            Some(out)
        }
        _ => None,
    }
}

fn stale_files(dir: &Path, shapes: &[Shape]) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !p
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .and_then(Shape::from_name)
                    .is_some_and(|s| shapes.contains(&s))
        })
        .collect();
    v.sort();
    v
}

fn remove_stale(dir: &Path, shapes: &[Shape]) {
    for p in stale_files(dir, shapes) {
        let _ = std::fs::remove_file(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn injection_keeps_bytes() {
        let out = inject_extra(b"\xEF\xBB\xBF {}  ").unwrap();
        assert!(out.starts_with(b"\xEF\xBB\xBF {\"agenthooks_testkit_unknown\":"));
        assert!(out.ends_with(b"}}  "));
        let v: Value = serde_json::from_slice(&out[3..]).unwrap();
        assert_eq!(v[EXTRA_KEY], extra_value());
        assert!(inject_extra(b"[1]").is_none());
        assert!(inject_extra(b"not json").is_none());
    }
}
