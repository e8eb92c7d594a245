//! # agenthooks-cli
//!
//! The `agenthooks` command, for anyone who writes or debugs coding-agent hooks — in Rust with
//! agenthooks, or in any other language:
//!
//! | command | what it does |
//! |---|---|
//! | `agenthooks decode --provider P [--event NATIVE] [FILE\|-]` | decodes a payload and prints the normalized event as JSON (with `raw`) |
//! | `agenthooks replay --provider P --event NATIVE --payload FILE [--json] -- HOOK_CMD…` | runs any hook command the way the agent does and prints what the agent would do with its answer |
//! | `agenthooks capabilities [--provider P]` | prints the capability matrix |
//! | `agenthooks quirks [--provider P]` | prints the quirk registry |
//! | `agenthooks agreement [--provider P] [-v]` | checks capabilities, encoder and agent agree (the can't-drift test) |
//! | `agenthooks transcript --provider P [--from OFFSET] [--raw] FILE\|-` | prints a session transcript's typed records as JSON lines ([`agenthooks::runtime::transcript`]) |
//! | `agenthooks mcp --provider P [--root DIR] [--home DIR]` | lists the MCP servers the agent would load in DIR, one JSON line each (`name`, `transport`, `url` or `command` + `args`, `enabled`, `source`) |
//! | `agenthooks install --provider P [TARGET] MANIFEST` | merges our hooks into the agent's config files (atomic writes, foreign content kept) |
//! | `agenthooks uninstall --provider P [TARGET] MANIFEST` | removes exactly our hooks; foreign content stays byte-identical |
//! | `agenthooks diff --provider P [TARGET] MANIFEST` | prints the unified diff `install` would apply, or `… up to date` |
//! | `agenthooks render --dry-run --provider P [TARGET] MANIFEST` | prints the files a fresh install writes (`==> PATH <==` headers + contents); no I/O |
//! | `agenthooks doctor [--root DIR] [--home DIR] [MANIFEST] [--no-ping] [--json]` | a health report for every target this release knows |
//! | `agenthooks preflight MANIFEST [--provider P…] [--scope S] [--json]` | what each agent will drop or degrade, before installing |
//! | `agenthooks manifest MANIFEST` | prints the manifest as TOML (e.g. a `--command` default, or a JSON file converted) |
//!
//! Exit status: 0 on success; 1 when the hook misbehaved in the agent's eyes (non-JSON on a
//! stdout the agent parses, an error exit, a timeout, …) or the payload does not decode, when
//! an install operation failed (a malformed existing config, an I/O error, a file changed
//! meanwhile), or when `doctor` found a problem of `error` severity; 2 on usage errors
//! (including an unreadable or invalid manifest file, an unknown provider and a scope the agent
//! does not have). Error messages name the file and, for decode errors, the JSON path.
//!
//! ## Installing hooks
//!
//! The install commands are the CLI of `agenthooks_install` (its crate docs list, per agent,
//! the files written, the timeout units and what is lossy), shared with every hook binary built
//! with `agenthooks::main`: there `<bin> agenthooks install --provider P` takes the same options
//! with the manifest derived from the binary's router (`agenthooks_install::cli`).
//!
//! - **TARGET**: `--provider P`, or `--all` for every agent detected under the home directory;
//!   `--scope project|user|plugin` (default `project`; `plugin` is Claude Code's
//!   `.claude-plugin` layout with `--root` as the plugin directory), `--root DIR` (default: the
//!   current directory), `--home DIR` (default: `$HOME`), `--agent-home DIR` (default:
//!   `$CODEX_HOME` / `$KIMI_CODE_HOME` when set), `--agent-version V`, and for Codex
//!   `--inline-toml` (hooks in `config.toml` instead of `hooks.json`) and `--trust-project`
//!   (also write project trust; otherwise it is only reported). Relative directories are taken
//!   from the current directory.
//! - **MANIFEST**: `--manifest FILE`, a manifest in TOML (`.toml`) or JSON (`.json`) as
//!   `agenthooks_install::Manifest` documents; or `--command WORD…` (repeat `--command`, or
//!   write `--command=-x`, for words starting with `-`) for a default manifest of one hook per
//!   event kind — blocking where a decision can change something, telemetry (non-blocking)
//!   elsewhere — refined with `--name NAME` (default: the program's file name), `--kind KIND`
//!   (repeatable, e.g. `tool.pre`), `--timeout SECS` and `--fail-closed`.
//! - `install --dry-run` and `uninstall --dry-run` print the unified diff and write nothing.
//! - `install` prints each file it created, updated or deleted (and Codex trust entries), or
//!   `… up to date; nothing changed`; `uninstall` likewise (`… no hooks of ours; nothing
//!   changed`). `install`, `uninstall`, `diff` and `render` print the findings (what the agent
//!   drops or degrades, trust gates) on stderr as `note: [severity] provider code: message`.
//! - `doctor` checks every target `agenthooks_install::known_targets` lists for `--root` and
//!   `--home`: where our hooks are installed, whether the files parse, whether they match the
//!   manifest, Codex trust hashes, project/folder trust, duplicates, and whether the command
//!   resolves and answers `<command> agenthooks ping` (skip with `--no-ping`). Without a
//!   manifest it only checks that each agent's config files parse. Exit 1 when any finding has
//!   `error` severity.
//! - `preflight` lists per agent (default: every agent this release installs for, at project
//!   scope where the agent has it, else user) each hook's native events, matcher, blocking,
//!   timeout, the capabilities the agent honours there (from the compiled-in codecs), and what
//!   is missing; then the findings. It never touches the disk.
//!
//! The normalized event's fields are documented in `agenthooks_core` (`Event::to_json`):
//! `provider`, `variant`, `native_event`, `kind`, `confidence`, `backfilled`, `session`, `agent`,
//! `provider_time`, `agent_version`, `detail`, `raw`. The verdict's fields (`--json`) are
//! documented on [`agenthooks_testkit::Verdict::to_json`].

#![cfg_attr(docsrs, feature(doc_cfg))]

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use agenthooks::core::quirks::registry;
use agenthooks::core::{Codec, Env, Invocation, ProcessEnv, Transport, Variant};
use agenthooks_testkit::fake::{self, FakeAgent, HookCommand, SpawnOptions};
use agenthooks_testkit::fixture::Fixture;
use clap::{Args, Parser, Subcommand};
use serde_json::{json, Value};

use agenthooks::install::cli::{self as install, InstallCommand, Source};

/// Exit status: success.
pub const EXIT_OK: i32 = 0;
/// Exit status: the hook misbehaved, or the payload is invalid.
pub const EXIT_MISBEHAVED: i32 = 1;
/// Exit status: usage error.
pub const EXIT_USAGE: i32 = 2;

/// Every codec compiled into this binary: the facade's registry ([`agenthooks::codecs`]).
pub fn codecs() -> Vec<&'static dyn Codec> {
    agenthooks::codecs()
}

/// The codec of a provider.
pub fn codec(provider: &str) -> Option<&'static dyn Codec> {
    codecs().into_iter().find(|c| c.provider() == provider)
}

/// `--provider` help: `what` and every provider of the registry ([`agenthooks::PROVIDERS`]),
/// e.g. `The agent (claude-code, cursor, …)`.
fn providers_help(what: &str) -> String {
    let list: Vec<&str> = agenthooks::PROVIDERS.iter().map(|e| e.provider).collect();
    format!("{what} ({})", list.join(", "))
}

#[derive(Debug, Parser)]
#[command(
    name = "agenthooks",
    version,
    about = "Decode agent hook payloads, replay hooks against fake agents, inspect capabilities and quirks, install hooks."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Decode a payload and print the normalized event as JSON.
    Decode(DecodeArgs),
    /// Run a hook command the way an agent does and print the agent's verdict.
    Replay(ReplayArgs),
    /// Print the capability matrix (what each agent honours per native event).
    Capabilities(CapabilitiesArgs),
    /// Print the quirk registry.
    Quirks(QuirksArgs),
    /// Check that each codec's capabilities, its encoder and the agent (fake) agree.
    Agreement(AgreementArgs),
    /// Print a session transcript's typed records as JSON lines.
    Transcript(TranscriptArgs),
    /// List the MCP servers an agent would load in a directory (JSON lines).
    Mcp(McpArgs),
    /// `install`, `uninstall`, `diff`, `render`, `doctor`, `preflight`, `manifest`.
    #[command(flatten)]
    Install(InstallCommand),
}

#[derive(Debug, Args)]
struct TranscriptArgs {
    // "The agent that wrote the file (…)": the registry's providers (`agenthooks::PROVIDERS`).
    #[arg(long, help = providers_help("The agent that wrote the file"))]
    provider: String,
    /// Start at this byte offset (a line start, e.g. a record's `offset`).
    #[arg(long, default_value_t = 0)]
    from: u64,
    /// Include each record's raw line.
    #[arg(long)]
    raw: bool,
    /// The transcript file, or `-` for stdin.
    file: PathBuf,
}

#[derive(Debug, Args)]
struct AgreementArgs {
    // "Only this agent (…)".
    #[arg(long, help = providers_help("Only this agent"))]
    provider: Option<String>,
    /// The fixture root (payloads per native event); default: the workspace `fixtures/`.
    #[arg(long)]
    fixtures: Option<PathBuf>,
    /// Print every case with the agent's verdict.
    #[arg(long, short)]
    verbose: bool,
}

#[derive(Debug, Args)]
struct McpArgs {
    // "The agent (…)".
    #[arg(long, help = providers_help("The agent"))]
    provider: String,
    /// The project directory (default: the current directory).
    #[arg(long)]
    root: Option<PathBuf>,
    /// The home directory (default: `$HOME`); the agent's own overrides (`CLAUDE_CONFIG_DIR`,
    /// `CODEX_HOME`, `GEMINI_CLI_HOME`, `COPILOT_HOME`, `KIMI_CODE_HOME`, `XDG_CONFIG_HOME`,
    /// `OPENCLAW_CONFIG_PATH`, …) come from the environment.
    #[arg(long)]
    home: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct DecodeArgs {
    // "The agent (…)".
    #[arg(long, help = providers_help("The agent"))]
    provider: String,
    /// The native event, for payloads that do not name it (Copilot).
    #[arg(long)]
    event: Option<String>,
    /// The variant (cowork, remote, …).
    #[arg(long)]
    variant: Option<String>,
    /// Decode a fixture case directory with its meta.toml (event, variant, argv, env).
    #[arg(long, conflicts_with = "file")]
    fixture: Option<PathBuf>,
    /// An environment variable the hook would see (repeatable); default: this process's env.
    #[arg(long = "env", value_name = "NAME=VALUE")]
    env: Vec<String>,
    /// Omit the raw payload from the output.
    #[arg(long)]
    no_raw: bool,
    /// The payload file, or `-` for stdin (the default).
    file: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct ReplayArgs {
    // "The agent (…)": every provider has a fake agent (the facade's surface test pins it).
    #[arg(long, help = providers_help("The agent"))]
    provider: String,
    /// The native event the agent fires.
    #[arg(long)]
    event: String,
    /// The payload file the agent sends (`-` for stdin).
    #[arg(long)]
    payload: PathBuf,
    /// Print the verdict as JSON.
    #[arg(long)]
    json: bool,
    /// The hook timeout in the agent's config unit (milliseconds for Gemini, else seconds).
    #[arg(long)]
    timeout: Option<u64>,
    /// The working directory (default: the payload's `cwd` when it exists).
    #[arg(long)]
    cwd: Option<PathBuf>,
    /// An extra environment variable from the hook config (repeatable).
    #[arg(long = "env", value_name = "NAME=VALUE")]
    env: Vec<String>,
    /// Cursor: the hook entry sets `failClosed: true`.
    #[arg(long)]
    fail_closed: bool,
    /// Pass the payload as the last argument instead of on stdin (legacy Cursor CLI).
    #[arg(long)]
    argv_payload: bool,
    /// The hook command: one word is a config command string run through the agent's shell;
    /// several words are quoted and joined.
    #[arg(last = true, required = true, num_args = 1.., value_name = "HOOK_CMD")]
    command: Vec<String>,
}

#[derive(Debug, Args)]
struct CapabilitiesArgs {
    // "Only this agent (…)".
    #[arg(long, help = providers_help("Only this agent"))]
    provider: Option<String>,
    /// The variant.
    #[arg(long, default_value = "")]
    variant: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct QuirksArgs {
    // "Only quirks affecting this agent (…)".
    #[arg(long, help = providers_help("Only quirks affecting this agent"))]
    provider: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// A failure with its exit status.
#[derive(Debug)]
struct Fail(i32, String);

fn usage(m: impl Into<String>) -> Fail {
    Fail(EXIT_USAGE, m.into())
}

/// Runs the command line `argv` (program name first) over the given streams; returns the exit
/// status.
pub fn run<I, T>(argv: I, stdin: &mut dyn Read, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                err.write_all(text.as_bytes())
            } else {
                out.write_all(text.as_bytes())
            };
            return code;
        }
    };
    let r = match cli.command {
        Command::Decode(a) => decode(&a, stdin, out),
        Command::Replay(a) => replay(&a, stdin, out),
        Command::Capabilities(a) => capabilities(&a, out),
        Command::Quirks(a) => quirks(&a, out),
        Command::Agreement(a) => agreement(&a, out),
        Command::Transcript(a) => transcript(&a, stdin, out),
        Command::Mcp(a) => mcp(&a, out),
        Command::Install(c) => install::run(&c, &Source::Flags, out, err).map_err(|e| Fail(e.code, e.message)),
    };
    match r {
        Ok(code) => code,
        Err(Fail(code, m)) => {
            let _ = writeln!(err, "agenthooks: {m}");
            code
        }
    }
}

fn known_codec(provider: &str) -> Result<&'static dyn Codec, Fail> {
    codec(provider).ok_or_else(|| {
        let list: Vec<String> = codecs().iter().map(|c| c.provider().to_string()).collect();
        let list = list.join(", ");
        match agenthooks::provider_hint(provider) {
            agenthooks::runtime::ProviderHint::Unknown => {
                usage(format!("unknown provider `{provider}` (known: {list})"))
            }
            hint => usage(format!("provider `{provider}` is {hint} (known: {list})")),
        }
    })
}

/// `agenthooks transcript`: one JSON line per record; only I/O fails (exit 2).
fn transcript(a: &TranscriptArgs, stdin: &mut dyn Read, out: &mut dyn Write) -> Result<i32, Fail> {
    use agenthooks::runtime::transcript::{format_of, Reader};
    let dialect = format_of(known_codec(&a.provider)?);
    let name = a.file.display().to_string();
    let records: Box<dyn Iterator<Item = std::io::Result<_>>> = if a.file.as_os_str() == "-" {
        let (bytes, _) = read_stdin(stdin)?;
        let start = usize::try_from(a.from).unwrap_or(usize::MAX).min(bytes.len());
        Box::new(
            Reader::starting_at(dialect, &bytes[start..], a.from)
                .collect::<Vec<_>>()
                .into_iter(),
        )
    } else {
        Box::new(Reader::open_at(dialect, &a.file, a.from).map_err(|e| usage(format!("{name}: {e}")))?)
    };
    for r in records {
        let r = r.map_err(|e| usage(format!("{name}: {e}")))?;
        writeln!(out, "{}", r.to_json(a.raw)).map_err(|e| Fail(EXIT_MISBEHAVED, format!("writing output: {e}")))?;
    }
    Ok(EXIT_OK)
}

fn read_input(path: Option<&Path>, stdin: &mut dyn Read) -> Result<(Vec<u8>, String), Fail> {
    match path {
        None => read_stdin(stdin),
        Some(p) if p.as_os_str() == "-" => read_stdin(stdin),
        Some(p) => std::fs::read(p)
            .map(|b| (b, p.display().to_string()))
            .map_err(|e| usage(format!("{}: {e}", p.display()))),
    }
}

fn read_stdin(stdin: &mut dyn Read) -> Result<(Vec<u8>, String), Fail> {
    let mut b = Vec::new();
    stdin.read_to_end(&mut b).map_err(|e| usage(format!("<stdin>: {e}")))?;
    Ok((b, "<stdin>".to_owned()))
}

fn parse_env(pairs: &[String]) -> Result<Vec<(String, String)>, Fail> {
    pairs
        .iter()
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .ok_or_else(|| usage(format!("--env `{p}`: expected NAME=VALUE")))
        })
        .collect()
}

/// The process env with overrides.
struct Overlay<'a> {
    base: Option<&'a dyn Env>,
    vars: HashMap<String, String>,
}

impl Env for Overlay<'_> {
    fn var(&self, name: &str) -> Option<String> {
        self.vars
            .get(name)
            .cloned()
            .or_else(|| self.base.and_then(|b| b.var(name)))
    }
}

fn write_json(out: &mut dyn Write, v: &Value) -> Result<(), Fail> {
    let mut s = serde_json::to_string_pretty(v).map_err(|e| Fail(EXIT_MISBEHAVED, e.to_string()))?;
    s.push('\n');
    out.write_all(s.as_bytes())
        .map_err(|e| Fail(EXIT_MISBEHAVED, format!("<stdout>: {e}")))
}

fn decode(a: &DecodeArgs, stdin: &mut dyn Read, out: &mut dyn Write) -> Result<i32, Fail> {
    let codec = known_codec(&a.provider)?;
    let overrides = parse_env(&a.env)?;
    let event = if let Some(dir) = &a.fixture {
        let fx = Fixture::load(dir).map_err(|e| usage(e.to_string()))?;
        let name = dir.join("input.json").display().to_string();
        let mut fx = fx;
        if let Some(e) = &a.event {
            fx.meta.native_event.clone_from(e);
        }
        if let Some(v) = &a.variant {
            fx.meta.variant.clone_from(v);
        }
        fx.meta.env.extend(overrides);
        fx.decode(codec)
            .map_err(|e| Fail(EXIT_MISBEHAVED, format!("{name}: {e}")))?
    } else {
        let (bytes, name) = read_input(a.file.as_deref(), stdin)?;
        let env = Overlay {
            base: Some(&ProcessEnv),
            vars: overrides.into_iter().collect(),
        };
        let variant = a.variant.as_deref().map(Variant::from);
        let inv = Invocation::new(bytes, &env)
            .with_native_event(a.event.as_deref())
            .with_variant(variant.as_ref())
            .with_transport(Transport::Stdin);
        codec
            .decode(&inv)
            .map_err(|e| Fail(EXIT_MISBEHAVED, format!("{name}: {e}")))?
    };
    write_json(out, &event.to_json(!a.no_raw))?;
    Ok(EXIT_OK)
}

fn replay(a: &ReplayArgs, stdin: &mut dyn Read, out: &mut dyn Write) -> Result<i32, Fail> {
    let cursor = fake::Cursor::fail_closed();
    let agent: &dyn FakeAgent = if a.provider == "cursor" && a.fail_closed {
        &cursor
    } else {
        fake::agent(&a.provider).ok_or_else(|| {
            let list: Vec<&str> = fake::agents().iter().map(|g| g.provider()).collect();
            usage(format!(
                "no fake agent for provider `{}` (known: {})",
                a.provider,
                list.join(", ")
            ))
        })?
    };
    if !agent.events().contains(&a.event.as_str()) {
        return Err(usage(format!(
            "`{}` is not a {} event (known: {})",
            a.event,
            a.provider,
            agent.events().join(", ")
        )));
    }
    let (payload, name) = read_input(Some(&a.payload), stdin)?;
    let body = payload.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(&payload);
    if let Err(e) = serde_json::from_slice::<Value>(body) {
        return Err(usage(format!(
            "{name}: not JSON (line {}, column {}): {e}",
            e.line(),
            e.column()
        )));
    }
    let mut opts = SpawnOptions::default();
    opts.timeout = a.timeout;
    opts.cwd.clone_from(&a.cwd);
    opts.env = parse_env(&a.env)?;
    if a.argv_payload {
        opts.transport = Some(Transport::Argv);
    }
    let cmd = HookCommand::from_args(&a.command);
    let spawned =
        fake::run(agent, &cmd, &a.event, &payload, &opts).map_err(|e| Fail(EXIT_MISBEHAVED, e.to_string()))?;
    let v = &spawned.verdict;
    if a.json {
        let o = &spawned.output;
        write_json(
            out,
            &json!({
                "provider": a.provider,
                "native_event": a.event,
                "argv": spawned.argv,
                "cwd": spawned.cwd.display().to_string(),
                "timeout_ms": u64::try_from(spawned.timeout.as_millis()).unwrap_or(u64::MAX),
                "elapsed_ms": u64::try_from(spawned.elapsed.as_millis()).unwrap_or(u64::MAX),
                "exit_code": o.exit_code,
                "timed_out": o.timed_out,
                "stdout": o.stdout_str(),
                "stderr": o.stderr_str(),
                "verdict": v.to_json(),
            }),
        )?;
    } else {
        let o = &spawned.output;
        let status = if o.timed_out {
            format!("killed at the {:?} timeout", spawned.timeout)
        } else {
            o.exit_code
                .map_or_else(|| "killed by a signal".to_owned(), |c| format!("exit {c}"))
        };
        let text = format!(
            "{} {}: {v}\n  ({status} after {} ms; {} bytes on stdout, {} on stderr)\n",
            a.provider,
            a.event,
            spawned.elapsed.as_millis(),
            o.stdout.len(),
            o.stderr.len()
        );
        out.write_all(text.as_bytes())
            .map_err(|e| Fail(EXIT_MISBEHAVED, format!("<stdout>: {e}")))?;
    }
    Ok(if v.misbehaved() { EXIT_MISBEHAVED } else { EXIT_OK })
}

fn selected(provider: Option<&str>) -> Result<Vec<&'static dyn Codec>, Fail> {
    match provider {
        None => Ok(codecs()),
        Some(p) => Ok(vec![known_codec(p)?]),
    }
}

fn capabilities(a: &CapabilitiesArgs, out: &mut dyn Write) -> Result<i32, Fail> {
    let variant = Variant::from(a.variant.as_str());
    let mut all = serde_json::Map::new();
    let mut text = String::new();
    for c in selected(a.provider.as_deref())? {
        let mut rows = Vec::new();
        let _ = writeln!(text, "{}", c.provider());
        for spec in c.native_events() {
            let caps: Vec<&str> = c
                .capabilities(&variant, spec.name)
                .iter()
                .map(agenthooks::core::Capability::as_str)
                .collect();
            let _ = writeln!(
                text,
                "  {:<24} {:<18} {:<8} {}",
                spec.name,
                spec.kind.as_str(),
                if spec.blocking { "blocking" } else { "" },
                if caps.is_empty() {
                    "-".to_owned()
                } else {
                    caps.join(", ")
                }
            );
            rows.push(json!({
                "event": spec.name,
                "kind": spec.kind.as_str(),
                "blocking": spec.blocking,
                "tool_matcher": spec.tool_matcher,
                "capabilities": caps,
            }));
        }
        // Any agent: a prompt backfilled from the transcript (Router::backfill_prompts).
        let _ = writeln!(
            text,
            "  {:<24} {:<18} {:<8} - (backfilled: reporting only, never gates)",
            "(transcript)", "prompt.submitted", ""
        );
        all.insert(c.provider().to_string(), Value::Array(rows));
    }
    if a.json {
        write_json(out, &Value::Object(all))?;
    } else {
        out.write_all(text.as_bytes())
            .map_err(|e| Fail(EXIT_MISBEHAVED, format!("<stdout>: {e}")))?;
    }
    Ok(EXIT_OK)
}

/// `agenthooks mcp`: the servers of the agent's MCP config files, after its precedence rules.
fn mcp(a: &McpArgs, out: &mut dyn Write) -> Result<i32, Fail> {
    let codec = known_codec(&a.provider)?;
    let loader = codec
        .mcp_loader()
        .ok_or_else(|| usage(format!("{} has no MCP configuration", a.provider)))?;
    let cwd = std::env::current_dir().map_err(|e| usage(format!("current directory: {e}")))?;
    let root = a.root.as_ref().map_or_else(|| cwd.clone(), |r| cwd.join(r));
    let mut scope = agenthooks::core::mcp::McpScope::new(root);
    if let Some(h) = &a.home {
        scope = scope.with_home(cwd.join(h));
    }
    let mut text = String::new();
    for server in &loader(&scope) {
        let _ = writeln!(text, "{}", server.to_json());
    }
    out.write_all(text.as_bytes())
        .map_err(|e| Fail(EXIT_MISBEHAVED, format!("<stdout>: {e}")))?;
    Ok(EXIT_OK)
}

fn quirks(a: &QuirksArgs, out: &mut dyn Write) -> Result<i32, Fail> {
    if let Some(p) = &a.provider {
        known_codec(p)?;
    }
    let reg = registry(codecs());
    let chosen: Vec<_> = reg
        .into_iter()
        .filter(|q| a.provider.as_deref().is_none_or(|p| q.affects(p)))
        .collect();
    if a.json {
        let rows: Vec<Value> = chosen
            .iter()
            .map(|q| {
                json!({
                    "id": q.id,
                    "providers": q.providers,
                    "versions": q.versions,
                    "events": q.events,
                    "capabilities": q.capabilities.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
                    "behaviour": q.behaviour,
                    "mitigation": q.mitigation,
                    "upstream": q.upstream,
                    "correction": q.correction,
                    "status": format!("{:?}", q.status).to_lowercase(),
                })
            })
            .collect();
        write_json(out, &Value::Array(rows))?;
    } else {
        let mut text = String::new();
        for q in chosen {
            let _ = writeln!(
                text,
                "#{} [{}] ({}, {}) {}\n    → {}",
                q.id,
                q.providers.join(","),
                format!("{:?}", q.status).to_lowercase(),
                q.versions,
                q.behaviour,
                q.mitigation
            );
        }
        out.write_all(text.as_bytes())
            .map_err(|e| Fail(EXIT_MISBEHAVED, format!("<stdout>: {e}")))?;
    }
    Ok(EXIT_OK)
}

fn agreement(a: &AgreementArgs, out: &mut dyn Write) -> Result<i32, Fail> {
    let root = a.fixtures.clone().unwrap_or_else(agenthooks_testkit::fixtures_root);
    let mut text = String::new();
    let mut ok = true;
    for c in selected(a.provider.as_deref())? {
        let dir = root.join(c.provider().as_str());
        let report = agenthooks_testkit::agreement::check(c, dir.is_dir().then_some(dir.as_path()));
        ok &= report.ok();
        if a.verbose {
            for case in &report.cases {
                let mark = if case.differences.is_empty() { "✓" } else { "✗" };
                let _ = writeln!(
                    text,
                    "{mark} {} {} [{}] → {}",
                    c.provider(),
                    case.native,
                    case.decision,
                    case.verdict
                );
            }
        }
        let _ = writeln!(text, "{report}");
    }
    out.write_all(text.as_bytes())
        .map_err(|e| Fail(EXIT_MISBEHAVED, format!("<stdout>: {e}")))?;
    Ok(if ok { EXIT_OK } else { EXIT_MISBEHAVED })
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
