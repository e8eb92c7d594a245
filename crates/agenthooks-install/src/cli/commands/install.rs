//! `install`: merges our hooks into each target's config files (atomic writes), or with
//! `--dry-run` prints the diff.

use std::fmt::Write as _;
use std::io::Write;

use super::super::args::{targets, ChangeArgs};
use super::super::error::{CliError, EXIT_OK};
use super::super::load::{op_fail, program_made_absolute, require, Source};
use super::super::text::{describe_applied, emit, events_line, notes};

pub(crate) fn exec(a: &ChangeArgs, src: &Source, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = require(&a.manifest, src)?;
    if a.dry_run {
        return super::diff::exec(a, src, out, err);
    }
    let targets = targets(&a.target, &loaded.manifest)?;
    let loaded = program_made_absolute(loaded, &a.manifest, true)?;
    for t in &targets {
        let plan = crate::install(&loaded.manifest, t).map_err(|e| op_fail(&loaded, &e))?;
        let mut s = describe_applied(&plan, "installed", "up to date");
        for tr in &plan.trust {
            let _ = writeln!(
                s,
                "  trusted {} in {}: {} = {}",
                tr.native_event,
                tr.config.display(),
                tr.key,
                tr.hash
            );
        }
        if matches!(src, Source::Router(_)) {
            s.push_str(&events_line(&loaded.manifest, t));
        }
        emit(out, &s)?;
        notes(err, &plan.findings);
    }
    Ok(EXIT_OK)
}
