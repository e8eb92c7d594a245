//! `uninstall`: removes exactly our hooks, or with `--dry-run` prints the diff.

use std::io::Write;

use super::super::args::{targets, ChangeArgs};
use super::super::error::{CliError, EXIT_OK};
use super::super::load::{op_fail, program_made_absolute, require, Source};
use super::super::text::{describe_applied, diff_text, emit, notes};

pub(crate) fn exec(a: &ChangeArgs, src: &Source, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = require(&a.manifest, src)?;
    let targets = targets(&a.target, &loaded.manifest)?;
    let loaded = program_made_absolute(loaded, &a.manifest, false)?;
    for t in targets {
        if a.dry_run {
            let plan = crate::plan_uninstall(&loaded.manifest, &t, &crate::RealFs).map_err(|e| op_fail(&loaded, &e))?;
            emit(out, &diff_text(&plan, "no hooks of ours"))?;
            continue;
        }
        let plan = crate::uninstall(&loaded.manifest, &t).map_err(|e| op_fail(&loaded, &e))?;
        emit(out, &describe_applied(&plan, "removed our hooks", "no hooks of ours"))?;
        notes(err, &plan.findings);
    }
    Ok(EXIT_OK)
}
