//! `render`: the files a fresh install writes, with no I/O.

use std::fmt::Write as _;
use std::io::Write;

use super::super::args::{targets, ChangeArgs};
use super::super::error::{CliError, EXIT_OK};
use super::super::load::{op_fail, program_made_absolute, require, Source};
use super::super::text::{emit, notes};

pub(crate) fn exec(a: &ChangeArgs, src: &Source, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    let _ = a.dry_run;
    let loaded = require(&a.manifest, src)?;
    let mut s = String::new();
    let mut findings = Vec::new();
    let targets = targets(&a.target, &loaded.manifest)?;
    let loaded = program_made_absolute(loaded, &a.manifest, true)?;
    for t in targets {
        let r = crate::render(&loaded.manifest, &t).map_err(|e| op_fail(&loaded, &e))?;
        if r.files.is_empty() {
            let _ = writeln!(s, "{t}: nothing to write");
        }
        for f in &r.files {
            if !s.is_empty() {
                s.push('\n');
            }
            let _ = writeln!(s, "==> {} <==", f.path.display());
            s.push_str(&f.contents);
            if !f.contents.ends_with('\n') {
                s.push('\n');
            }
        }
        findings.extend(r.findings);
    }
    emit(out, &s)?;
    notes(err, &findings);
    Ok(EXIT_OK)
}
