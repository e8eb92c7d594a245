//! `diff`: the unified diff `install` would apply.

use std::io::Write;

use super::super::args::{targets, ChangeArgs};
use super::super::error::{CliError, EXIT_OK};
use super::super::load::{op_fail, program_made_absolute, require, Source};
use super::super::text::{diff_text, emit, notes};

pub(crate) fn exec(a: &ChangeArgs, src: &Source, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = require(&a.manifest, src)?;
    let targets = targets(&a.target, &loaded.manifest)?;
    let loaded = program_made_absolute(loaded, &a.manifest, true)?;
    for t in targets {
        let plan = crate::diff(&loaded.manifest, &t).map_err(|e| op_fail(&loaded, &e))?;
        emit(out, &diff_text(&plan, "up to date"))?;
        notes(err, &plan.findings);
    }
    Ok(EXIT_OK)
}
