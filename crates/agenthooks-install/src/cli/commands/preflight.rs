//! `preflight`: what each agent will drop or degrade of a manifest.

use std::io::Write;

use agenthooks_core::{CapSet, Provider, Variant};
use clap::Args;

use super::super::args::{dirs, provider, providers_help, with_env_home, ReportArgs};
use super::super::error::{fail, CliError, EXIT_MISBEHAVED, EXIT_OK};
use super::super::load::{require, Source};
use super::super::text::{emit, preflight_text, write_json};
use crate::{known_targets, supported_providers, Scope, Target};

/// `preflight`.
#[derive(Debug, Args)]
pub struct PreflightArgs {
    // "Only this agent, repeatable; default: every agent (…)": every target compiled into this
    // build (`targets!`).
    #[arg(long = "provider", value_name = "P", help = providers_help("Only this agent, repeatable; default: every agent"))]
    pub(crate) providers: Vec<String>,
    /// The scope (default: project where the agent has project hooks, else user).
    #[arg(long)]
    pub(crate) scope: Option<Scope>,
    #[command(flatten)]
    pub(crate) report: ReportArgs,
}

pub(crate) fn exec(a: &PreflightArgs, src: &Source, out: &mut dyn Write) -> Result<i32, CliError> {
    let loaded = require(&a.report.manifest, src)?;
    let (root, home) = dirs(&a.report.dirs)?;
    let providers: Vec<Provider> = if a.providers.is_empty() {
        supported_providers()
    } else {
        a.providers.iter().map(|p| provider(p)).collect::<Result<_, _>>()?
    };
    let known = known_targets(&root, &home);
    let targets: Vec<Target> = providers
        .into_iter()
        .map(|p| {
            let t = match a.scope {
                Some(Scope::User) => Target::user(p, &home),
                Some(scope) => Target::new(p, scope, &root, &home),
                None => {
                    let mine: Vec<&Target> = known.iter().filter(|t| t.provider == p).collect();
                    mine.iter()
                        .find(|t| t.scope == Scope::Project)
                        .or_else(|| mine.first())
                        .map_or_else(|| Target::project(p.clone(), &root, &home), |t| (*t).clone())
                }
            };
            with_env_home(t)
        })
        .collect();
    let caps = |p: &Provider, native: &str| {
        crate::targets::module(p).map_or(CapSet::EMPTY, |m| {
            m.spec().codec.capabilities(&Variant::DEFAULT, native)
        })
    };
    let report = crate::preflight(&loaded.manifest, &targets, &caps);
    if a.report.json {
        let v = serde_json::to_value(&report).map_err(|e| fail(EXIT_MISBEHAVED, e.to_string()))?;
        write_json(out, &v)?;
    } else {
        emit(out, &preflight_text(&report, &root))?;
    }
    Ok(EXIT_OK)
}
