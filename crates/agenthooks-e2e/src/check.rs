//! One assertion of a run, with its evidence: what every scenario's checks are made of.

/// One assertion.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Check {
    /// What was asserted.
    pub what: String,
    /// Whether it held.
    pub ok: bool,
    /// Evidence.
    pub detail: String,
}

impl Check {
    /// An assertion and its evidence.
    pub fn new(what: impl Into<String>, ok: bool, detail: impl Into<String>) -> Self {
        Self {
            what: what.into(),
            ok,
            detail: detail.into(),
        }
    }

    /// Passes when `n` is at least one; the detail is `n` and what was counted (`"3 stop calls"`).
    pub(crate) fn at_least_one(what: &str, n: usize, counted: &str) -> Self {
        Self::new(what, n >= 1, format!("{n} {counted}"))
    }

    /// Passes when `offenders` is empty, with `clean` as the detail; else the detail is the
    /// offenders joined, after `prefix`.
    pub(crate) fn none_of(what: &str, offenders: &[impl AsRef<str>], clean: impl Into<String>, prefix: &str) -> Self {
        let detail = if offenders.is_empty() {
            clean.into()
        } else {
            let list: Vec<&str> = offenders.iter().map(AsRef::as_ref).collect();
            format!("{prefix}{}", list.join(", "))
        };
        Self::new(what, offenders.is_empty(), detail)
    }
}
