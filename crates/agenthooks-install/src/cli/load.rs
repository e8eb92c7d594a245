//! Manifest loading: a file (`--manifest`), the flags (`--command`, `--kind`, …) or a hook
//! binary's router, refined by the flags; warm manifests get their endpoint.

use std::path::Path;
use std::time::Duration;

use agenthooks_core::EventKind;

use super::args::ManifestArgs;
use super::error::{fail, usage, CliError, EXIT_MISBEHAVED};
use crate::{default_uses, FailurePolicy, HookSpec, InstallError, Manifest};

/// Where the manifest comes from when `--manifest FILE` is not given.
#[derive(Debug, Clone)]
#[non_exhaustive]
#[allow(clippy::large_enum_variant)] // one value per CLI run, never in a collection
pub enum Source {
    /// The standalone CLI: `--command WORD…` builds one hook per kind.
    Flags,
    /// A consumer binary: the manifest derived from its router (with its own path as command).
    Router(Manifest),
}

/// A manifest and where it came from (for error messages).
pub(crate) struct Loaded {
    pub(crate) manifest: Manifest,
    /// `FILE: ` or empty.
    pub(crate) label: String,
}

pub(crate) fn load(a: &ManifestArgs, src: &Source) -> Result<Option<Loaded>, CliError> {
    let Some(mut loaded) = load_plain(a, src)? else {
        return Ok(None);
    };
    if a.warm {
        loaded.manifest.warm = true;
    }
    if a.copilot_allow_localhost {
        loaded.manifest.copilot_allow_localhost = true;
    }
    if loaded.manifest.warm && loaded.manifest.warm_endpoint.is_none() {
        // The library's warm lifecycle (`install` would fill it too): `diff`, `render` and
        // `doctor` show the endpoint install writes.
        let ep = crate::warm_endpoint(&loaded.manifest).map_err(|e| match e {
            InstallError::WarmUnavailable => usage(format!("--warm: {e}")),
            e => fail(EXIT_MISBEHAVED, e.to_string()),
        })?;
        loaded.manifest.warm_endpoint = Some(ep);
    }
    Ok(Some(loaded))
}

pub(crate) fn load_plain(a: &ManifestArgs, src: &Source) -> Result<Option<Loaded>, CliError> {
    if let Some(path) = &a.manifest {
        if a.refines() {
            return Err(usage(
                "--name, --kind, --timeout and --fail-closed do not apply to --manifest FILE",
            ));
        }
        return load_file(path).map(Some);
    }
    let manifest = match src {
        Source::Router(m) => refine(m.clone(), a)?,
        Source::Flags if a.command.is_empty() => {
            if a.refines() {
                return Err(usage(
                    "--name, --kind, --timeout and --fail-closed need --command WORD…",
                ));
            }
            return Ok(None);
        }
        Source::Flags => from_flags(a)?,
    };
    Ok(Some(Loaded {
        manifest,
        label: String::new(),
    }))
}

pub(crate) fn require(a: &ManifestArgs, src: &Source) -> Result<Loaded, CliError> {
    load(a, src)?.ok_or_else(|| usage("one of --manifest FILE or --command WORD… is required"))
}

/// The router's manifest refined by the flags: `--command` replaces the command, `--name` the
/// identity name, `--kind` keeps only those kinds, `--timeout` and `--fail-closed` apply to all.
pub(crate) fn refine(mut m: Manifest, a: &ManifestArgs) -> Result<Manifest, CliError> {
    if !a.command.is_empty() {
        m.command.clone_from(&a.command);
        m.identity.name = crate::name_of_program(&a.command[0]);
    }
    if let Some(n) = &a.name {
        m.identity.name.clone_from(n);
    }
    if !a.kinds.is_empty() {
        m.hooks
            .retain(|h| matches!(h.on, crate::HookOn::Kind(k) if a.kinds.contains(&k)));
    }
    if let Some(t) = timeout_flag(a)? {
        m.hooks = m.hooks.into_iter().map(|h| h.with_timeout(t)).collect();
    }
    if a.fail_closed {
        m = m.with_failure(FailurePolicy::Closed);
    }
    m.validate().map_err(|e| usage(e.to_string()))?;
    Ok(m)
}

pub(crate) fn timeout_flag(a: &ManifestArgs) -> Result<Option<Duration>, CliError> {
    match a.timeout {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(usage(format!("--timeout {s}: expected a positive number of seconds"))),
    }
}

/// Reads a manifest file, TOML or JSON by its extension.
pub(crate) fn load_file(path: &Path) -> Result<Loaded, CliError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("{name}: {e}")))?;
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let parsed = match ext.as_deref() {
        Some("toml") => Manifest::from_toml(&text),
        Some("json") => Manifest::from_json(&text),
        _ => return Err(usage(format!("{name}: a manifest file must end in .toml or .json"))),
    };
    let manifest = parsed.map_err(|e| usage(format!("{name}: {e}")))?;
    Ok(Loaded {
        manifest,
        label: format!("{name}: "),
    })
}

/// The default manifest of `--command`: one hook per kind; kinds whose decisions can change
/// nothing ([`default_uses`] empty) are telemetry (non-blocking).
pub(crate) fn from_flags(a: &ManifestArgs) -> Result<Manifest, CliError> {
    let timeout = timeout_flag(a)?;
    let kinds: Vec<EventKind> = if a.kinds.is_empty() {
        EventKind::ALL.into_iter().filter(|k| *k != EventKind::Other).collect()
    } else {
        a.kinds.clone()
    };
    if kinds.contains(&EventKind::Other) {
        return Err(usage(
            "--kind other names no event; use a manifest file with `provider` and `native`",
        ));
    }
    let program = a.command.first().map_or("", String::as_str);
    let name = a.name.clone().unwrap_or_else(|| crate::name_of_program(program));
    let mut m = Manifest::new(a.command.iter().cloned(), name);
    if a.fail_closed {
        m = m.with_failure(FailurePolicy::Closed);
    }
    for k in kinds {
        let mut h = HookSpec::kind(k);
        if default_uses(k).is_empty() {
            h = h.non_blocking();
        }
        if let Some(t) = timeout {
            h = h.with_timeout(t);
        }
        m = m.with_hook(h);
    }
    m.validate().map_err(|e| usage(e.to_string()))?;
    Ok(m)
}

/// The manifest with the program of `--command` made absolute at install time (see
/// [`crate::absolute_command`]); a bare name not found on `PATH` is a usage error, except for
/// uninstall and doctor (`strict` false), which then look for hooks written with the bare name.
pub(crate) fn program_made_absolute(mut loaded: Loaded, a: &ManifestArgs, strict: bool) -> Result<Loaded, CliError> {
    if a.command.is_empty() {
        return Ok(loaded);
    }
    let cwd = std::env::current_dir().map_err(|e| fail(EXIT_MISBEHAVED, format!("the current directory: {e}")))?;
    match crate::absolute_command(&loaded.manifest.command, &cwd, std::env::var_os("PATH").as_deref()) {
        Ok(command) => loaded.manifest.command = command,
        Err(e) if strict => return Err(usage(e.to_string())),
        Err(_) => {}
    }
    Ok(loaded)
}

/// Usage errors (exit 2) for what the command line asked for; failures (exit 1) otherwise.
pub(crate) fn op_fail(loaded: &Loaded, e: &InstallError) -> CliError {
    match e {
        InstallError::InvalidManifest(_) | InstallError::MatcherNotExpressible { .. } => {
            usage(format!("{}{e}", loaded.label))
        }
        InstallError::UnknownProvider(_) | InstallError::UnsupportedScope { .. } => usage(e.to_string()),
        InstallError::UnsafeCommand { .. } => fail(EXIT_MISBEHAVED, format!("{}{e}", loaded.label)),
        _ => fail(EXIT_MISBEHAVED, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_programs() {
        assert_eq!(crate::name_of_program("/opt/my tools/guard"), "guard");
        assert_eq!(crate::name_of_program("/opt/x/my guard"), "my-guard");
        assert_eq!(crate::name_of_program(".hidden"), "hidden");
        assert_eq!(crate::name_of_program("/"), "agenthooks");
    }

    #[test]
    fn flags_give_one_hook_per_kind() {
        let a = ManifestArgs {
            manifest: None,
            command: vec!["/opt/guard".into(), "--cfg".into()],
            name: None,
            kinds: Vec::new(),
            timeout: Some(1.5),
            fail_closed: true,
            warm: false,
            copilot_allow_localhost: false,
        };
        let m = from_flags(&a).unwrap();
        assert_eq!(m.command, ["/opt/guard", "--cfg"]);
        assert_eq!(m.identity.name, "guard");
        assert_eq!(m.failure, FailurePolicy::Closed);
        assert_eq!(m.hooks.len(), EventKind::ALL.len() - 1);
        let pre = &m.hooks[m
            .hooks
            .iter()
            .position(|h| h.on == crate::HookOn::Kind(EventKind::ToolPre))
            .unwrap()];
        assert!(pre.blocking);
        assert_eq!(pre.timeout, Some(Duration::from_millis(1500)));
        let end = m
            .hooks
            .iter()
            .find(|h| h.on == crate::HookOn::Kind(EventKind::SessionEnd))
            .unwrap();
        assert!(!end.blocking);
        let bad = ManifestArgs {
            timeout: Some(-1.0),
            ..a
        };
        assert!(from_flags(&bad).is_err());
    }
}
