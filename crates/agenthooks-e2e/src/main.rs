//! `agenthooks-e2e`: the corpus commands.
//!
//! ```text
//! cargo run -p agenthooks-e2e -- capture --agent <agent> --version <version> [--hook <path>]
//! cargo run -p agenthooks-e2e -- capture-mcp --agent <agent> [--hook <path>]
//! cargo run -p agenthooks-e2e -- versions --agent <agent>
//! cargo run -p agenthooks-e2e -- drift [--agent <agent>]... [--version <against>] [--hook <path>]
//! ```
//!
//! `capture` writes `fixtures/<provider>/<version>/` (see `agenthooks_e2e::corpus`) and exits
//! non-zero when the release cannot be installed, no hook fired, or the conformance suite
//! failed on the new cases. `capture-mcp` runs the `mcp` scenario of the pinned release and
//! writes `fixtures/<provider>/mcp/captured/<version>/` and its `cases.json` scenario (see
//! `agenthooks_e2e::mcp_capture`); it exits non-zero when a check of the run failed. `drift` runs the latest published release of each agent against
//! the pin (or the `--version` given) and exits non-zero on a scenario failure. The test hook binary is the
//! `agenthooks-e2e-hook` next to this executable (built with `cargo build` when missing).

// The commands' reports are their output.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;

use agenthooks_e2e::agents::{AgentSpec, AGENTS};
use agenthooks_e2e::{capture, corpus, release};

const USAGE: &str = "usage: agenthooks-e2e capture --agent <a> --version <v> [--hook <path>]\n       agenthooks-e2e capture-mcp --agent <a> [--hook <path>]\n       agenthooks-e2e versions --agent <a>\n       agenthooks-e2e drift [--agent <a>]... [--version <against>] [--hook <path>]\nagents: claude, codex, gemini, copilot, kimi, opencode, openclaw";

struct Args {
    command: String,
    agents: Vec<&'static AgentSpec>,
    version: Option<String>,
    hook: Option<PathBuf>,
}

fn agent(name: &str) -> Result<&'static AgentSpec, String> {
    AGENTS
        .iter()
        .find(|a| a.short() == name || a.provider == name)
        .ok_or_else(|| format!("unknown agent `{name}`\n{USAGE}"))
}

fn parse() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let command = it.next().ok_or(USAGE)?;
    let mut args = Args {
        command,
        agents: Vec::new(),
        version: None,
        hook: None,
    };
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"));
        match a.as_str() {
            "--agent" => args.agents.push(agent(&value("--agent")?)?),
            "--version" => args.version = Some(value("--version")?),
            "--hook" => args.hook = Some(PathBuf::from(value("--hook")?)),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    Ok(args)
}

/// The test hook: `--hook`, else `agenthooks-e2e-hook` beside this executable (built when
/// missing, with the MCP stub, by the same cargo and target directory).
fn hook_bin(given: Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(h) = given {
        return Ok(h);
    }
    let me = std::env::current_exe().map_err(|e| format!("locating this executable: {e}"))?;
    let hook = me.with_file_name("agenthooks-e2e-hook");
    // The MCP stub of the `mcp` scenario lives beside it.
    if !hook.is_file() || !me.with_file_name("agenthooks-e2e-mcp").is_file() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = std::process::Command::new(cargo)
            .args(["build", "-p", "agenthooks-e2e", "--bins"])
            .status()
            .map_err(|e| format!("building agenthooks-e2e-hook: {e}"))?;
        if !status.success() || !hook.is_file() {
            return Err(format!(
                "agenthooks-e2e-hook not found at {} (pass --hook)",
                hook.display()
            ));
        }
    }
    Ok(hook)
}

fn run() -> Result<bool, String> {
    let args = parse()?;
    match args.command.as_str() {
        "capture" => {
            let [a] = args.agents[..] else {
                return Err(format!("capture needs exactly one --agent\n{USAGE}"));
            };
            let version = args.version.clone().unwrap_or_else(|| a.version.to_owned());
            let hook = hook_bin(args.hook)?;
            let report = corpus::capture_release(a, &version, &capture::fixtures_root(), &hook);
            println!("{}", report.summary());
            Ok(report.problems.is_empty())
        }
        "capture-mcp" => {
            let [a] = args.agents[..] else {
                return Err(format!("capture-mcp needs exactly one --agent\n{USAGE}"));
            };
            let hook = hook_bin(args.hook)?;
            let cache = agenthooks_e2e::npm::Cache::from_env();
            let tc = agenthooks_e2e::toolchain(&cache, a, &hook)?;
            let work = agenthooks_e2e::scenario::work_dir();
            let report = agenthooks_e2e::scenario::run(a, agenthooks_e2e::scenario::Scenario::Mcp, &tc, &work);
            if !report.passed() {
                println!("{}", report.diagnostics());
                return Ok(false);
            }
            let written = agenthooks_e2e::mcp_capture::capture_mcp(a, &report, &capture::fixtures_root(), &hook)?;
            for f in &written {
                println!("wrote {}", f.display());
            }
            if let Some(sb) = &report.sandbox {
                let _ = std::fs::remove_dir_all(&sb.root);
            }
            let _ = std::fs::remove_dir(&work);
            Ok(true)
        }
        "versions" => {
            for a in &args.agents {
                let v = release::published_versions(a.package)?;
                println!("{} ({}): {} releases, pinned {}", a.name, a.package, v.len(), a.version);
                println!("  {}", v.join(" "));
            }
            Ok(true)
        }
        "drift" => {
            let hook = hook_bin(args.hook)?;
            let agents: Vec<&'static AgentSpec> = if args.agents.is_empty() {
                AGENTS.iter().collect()
            } else {
                args.agents
            };
            let mut failures = Vec::new();
            for a in agents {
                // `--version` compares against that release instead of the pin.
                let a = args
                    .version
                    .as_deref()
                    .map_or(a, |v| agenthooks_e2e::agents::at_version(a, v));
                let d = corpus::drift(a, &hook);
                println!("{}", d.text);
                failures.extend(d.failures);
            }
            if failures.is_empty() {
                println!("drift: every scenario passed on the latest releases");
            } else {
                println!("drift: {} failure(s):", failures.len());
                for f in &failures {
                    println!("  {f}");
                }
            }
            Ok(failures.is_empty())
        }
        other => Err(format!("unknown command `{other}`\n{USAGE}")),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
