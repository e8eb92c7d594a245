//! `doctor`: the health of our hooks for every agent this build knows.

use std::io::Write;

use clap::Args;

use super::super::args::{dirs, with_env_home, ReportArgs};
use super::super::error::{fail, CliError, EXIT_MISBEHAVED, EXIT_OK};
use super::super::load::{load, program_made_absolute, Source};
use super::super::text::{doctor_text, emit, write_json, Drift};
use crate::{known_targets, DoctorOptions, Manifest, Target};

/// `doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    #[command(flatten)]
    pub(crate) report: ReportArgs,
    /// Do not run `<command> agenthooks ping`.
    #[arg(long)]
    pub(crate) no_ping: bool,
}

pub(crate) fn exec(a: &DoctorArgs, src: &Source, out: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = load(&a.report.manifest, src)?;
    let (root, home) = dirs(&a.report.dirs)?;
    let loaded = loaded
        .map(|l| program_made_absolute(l, &a.report.manifest, false))
        .transpose()?;
    let targets: Vec<Target> = known_targets(&root, &home).into_iter().map(with_env_home).collect();
    let with_manifest = loaded.is_some();
    let mut report = match &loaded {
        Some(l) => {
            let opts = DoctorOptions::default().with_ping(!a.no_ping);
            crate::doctor(&l.manifest, &targets, &opts)
        }
        None => {
            // Without a manifest nothing is "ours": the doctor only parses each agent's
            // files. The command check of the placeholder is meaningless, so it is dropped.
            let placeholder = Manifest::new(["agenthooks-doctor-no-manifest"], "agenthooks");
            let opts = DoctorOptions::default().with_ping(false);
            let mut r = crate::doctor(&placeholder, &targets, &opts);
            r.command.findings.clear();
            r
        }
    };
    if !with_manifest {
        report.findings.clear();
    }
    if a.report.json {
        let mut v = serde_json::to_value(&report).map_err(|e| fail(EXIT_MISBEHAVED, e.to_string()))?;
        if !with_manifest {
            if let Some(o) = v.as_object_mut() {
                o.remove("command");
            }
        }
        write_json(out, &v)?;
    } else {
        let label = match (src, &a.report.manifest.manifest) {
            (Source::Router(_), None) => "installed manifest differs from this binary's router",
            _ => "differs from the manifest",
        };
        let diffs = report
            .targets
            .iter()
            .map(|h| {
                let t = targets
                    .iter()
                    .find(|t| t.provider == h.provider && t.scope == h.scope && t.root == h.root)?;
                let l = loaded.as_ref().filter(|_| !h.up_to_date && !h.installed.is_empty())?;
                crate::diff(&l.manifest, t).ok().map(|p| p.unified_diff())
            })
            .collect();
        emit(out, &doctor_text(&report, with_manifest, &Drift { label, diffs }))?;
    }
    Ok(if report.has_errors() { EXIT_MISBEHAVED } else { EXIT_OK })
}
