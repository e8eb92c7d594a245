//! # agenthooks-install
//!
//! One [`Manifest`] in; correct, trusted, idempotent hook configs out for Claude Code, Cursor,
//! Codex, Gemini CLI, Copilot CLI, Kimi Code, OpenCode, OpenClaw and Factory Droid — never clobbering what is
//! already there.
//!
//! | function | does |
//! |---|---|
//! | [`render`] | the files a fresh install writes, in memory, **no I/O** |
//! | [`diff`] | what [`install`] would change on disk (per file: before/after, fingerprints of our entries, a unified diff) |
//! | [`install`] | merges our hooks into the files on disk (atomic writes) |
//! | [`uninstall`] | removes exactly our entries |
//! | [`preflight`] | what each agent will drop or degrade, from the codecs' capabilities |
//! | [`doctor`] | where our hooks are, whether files parse, trust, duplicates, whether the command answers a ping |
//!
//! [`plan_install`] and [`plan_uninstall`] are the pure planners behind them, over any
//! [`FsView`] ([`RealFs`], [`MemFs`]).
//!
//! ## What is generated
//!
//! Every hook command is the consumer's command plus
//! `agenthooks run --provider=P --event=NATIVE --timeout=SECS`, each word quoted for POSIX `sh`
//! (see [`shell_quote`]): paths with spaces, quotes, `$` and backticks reach the binary
//! verbatim. The native event is always in argv (Copilot's payloads carry none).
//!
//! | agent | scopes | file | timeout unit | non-blocking | notes |
//! |---|---|---|---|---|---|
//! | Claude Code | user, project, plugin | `.claude/settings.json`; plugin `.claude-plugin/plugin.json` + `hooks/hooks.json` | s | `async: true` (⚠ not on `Stop`, #1) | `onFailure: "block"` for fail-closed gates |
//! | Codex | user, project | `.codex/hooks.json` or inline `[hooks]` in `config.toml` | s | detached worker wrapper (#10) | `[hooks.state]` trusted hashes (#9); project trust reported |
//! | Gemini CLI | user, project | `.gemini/settings.json` (comments kept) | ms (#14) | ⚠ runs synchronously | `name`/`description` per hook; folder trust reported |
//! | Copilot CLI | user, project | `.github/hooks/<name>.json`, `~/.copilot/hooks/<name>.json` | s (`timeoutSec`) | ⚠ runs synchronously | never an empty matcher; camelCase events |
//! | Kimi Code | user | `$KIMI_CODE_HOME/config.toml` `[[hooks]]` | s (1–600) | ⚠ awaited; fire-and-forget hooks killed early | only the four keys Kimi's strict schema allows |
//! | Cursor | user, project | `.cursor/hooks.json` (`version: 1`) | s | ⚠ runs synchronously | `failClosed` on fail-closed gates |
//! | OpenCode | user, project | generated shim `.opencode/plugin/agenthooks.js` (`agenthooks serve`) | ms (the shim's deadline) | ⚠ OpenCode awaits every hook | tool matchers tested in the shim |
//! | Factory Droid | user, project | `.factory/settings.json` `hooks` (comments kept) | s | ⚠ awaited | only `type: command`; a `hooks.json` list of the same event replaces ours (`doctor` reports it) |
//! | OpenClaw | user, project | generated plugin `.openclaw/extensions/agenthooks/` + `plugins.entries.agenthooks` in `openclaw.json` (comments kept) | ms (the shim's deadline, below OpenClaw's 15 s budget) | observers fired and forgotten | `hooks.allowConversationAccess`, `hooks.timeouts`; `matcher` tool ids |
//!
//! ## Ownership and safety
//!
//! - **Ours** means a handler whose command contains the manifest's quoted command followed by
//!   ` agenthooks run --provider=` (at a word boundary). Everything else is foreign and is
//!   never modified.
//! - JSON files are edited **in place** (byte splices), so foreign keys, ordering, formatting
//!   and (Gemini) comments stay byte-identical; TOML files are edited with `toml_edit`, which
//!   keeps comments and formatting.
//! - **We remove only what we added.** Each install that changes a config records the
//!   containers (`hooks` objects, event arrays, TOML tables, OpenClaw's `plugins.entries`) and
//!   the file it created, in `~/.agenthooks/created/`; uninstall removes a container our
//!   entries leave empty, or deletes the file, only when the record says we created it, so a
//!   user's `"hooks": {}`, `[]` or `{}` file survives byte for byte. A config with no record
//!   (installed by an earlier release) keeps the earlier rule: what our removal empties goes,
//!   and a file left as a fresh install leaves it is deleted (see the `record` module docs).
//! - A malformed existing file (syntax, or the wrong shape where we must edit) is an
//!   [`InstallError::Malformed`] naming the file and position, and **nothing is written**:
//!   every file is planned before any is written.
//! - Writes are atomic (temp file in the same directory, fsync, rename, directory fsync) and
//!   keep the file's permissions (and owner where allowed). [`Plan::apply`] checks every file
//!   before writing any and restores the written ones when a write fails; [`install`] and
//!   [`uninstall`] hold a per-user lock (`flock` on the home directory on Unix, a lock file
//!   elsewhere) while they plan and write, so concurrent installs take turns and a Codex
//!   `hooks.json` never lands without its trust entries.
//! - A config with CRLF line ends (every line) keeps them: the lines we add are CRLF, and
//!   uninstall gives the bytes back. A file with mixed line ends gets LF lines.
//! - Symlinks: a config is written through its link only when the fully resolved path lies
//!   inside the project (plugin) directory for a project (plugin) file, else inside the home
//!   directory — otherwise [`InstallError::SymlinkOutside`] names the link and its target. A
//!   dangling link is [`InstallError::DanglingSymlink`], never replaced by a file; uninstall
//!   never removes a link (what a deleted config would leave is written through it).
//! - Directories install creates are listed in its install record and removed by uninstall
//!   once empty, innermost first (never the project or home directory itself).
//! - The command's program should be absolute (agents and bridges run hooks from the project
//!   directory); [`absolute_command`] resolves a bare name on `PATH`, as the CLI does for
//!   `--command`.
//! - Installing twice changes nothing: when our entries in a file already equal the rendered
//!   ones ([`Fingerprint`]s), the file is left untouched.
//!
//! ## Matchers
//!
//! A [`ToolMatcher`] (names, canonical classes, MCP globs) compiles to each dialect where it
//! can be expressed; otherwise the hook matches every tool, the command carries the filter as
//! `--tools=SPEC` ([`agenthooks_core::ToolSelector`]) and the runner answers the neutral shape
//! without running handlers for tools outside it (⚠ a process per tool call; OpenCode's
//! serve-mode shim does not pass it yet), unless [`MatcherFallback::Error`] asks to refuse
//! instead.
//!
//! ## From a router
//!
//! [`manifest_from_router`] derives the manifest from the hook's own router (one hook per kind
//! it handles, its declared tool filters, its fail policy); with the `cli` feature,
//! `cli::main_for_router` gives every hook binary `<bin> agenthooks install|uninstall|diff|
//! render|doctor|preflight|manifest` over it (the facade's `agenthooks::main` calls it;
//! `cli::main_for_package`, behind `agenthooks::main!`, also records the package version).
//!
//! ## Features
//!
//! Each agent's target is behind a feature named after its codec crate (`claude`, `codex`,
//! `cursor`, `gemini`, `copilot`, `kimi`, `opencode`, `openclaw`), which links that codec and
//! nothing of the others; `all-providers` (the default) is all nine. The facade
//! (`agenthooks`) turns the default off and forwards its own provider features, so a hook built
//! with `features = ["claude", "cursor", "install"]` installs for those two agents only:
//! [`supported_providers`], [`known_targets`] (`doctor`, `install --all`) and [`preflight`] list
//! the targets compiled in, and any other provider is [`InstallError::UnknownProvider`]. `cli`
//! is the install subcommands as a library; `warm` fills warm endpoints
//! ([`warm_endpoint`]) and keeps the warm directory's lifecycle in [`install`] and [`uninstall`].
//!
//! ## Non-goals
//!
//! Windows shells (PowerShell quoting) are not generated. OpenClaw configs written in JSON5
//! syntax beyond comments (unquoted keys, trailing commas) are refused, not rewritten.

#![cfg_attr(docsrs, feature(doc_cfg))]
// A build with only some targets (the facade's `features = ["claude", "install"]`) leaves parts
// of the shared machinery unused (the JSONC editor without Gemini and OpenClaw, the TOML helpers
// without Codex and Kimi, …); the build with every target (`all-providers`, the default and what
// the workspace builds) is the one clippy holds to no dead code.
#![cfg_attr(not(feature = "all-providers"), allow(dead_code, unused_imports))]

#[cfg(feature = "cli")]
pub mod cli;
mod diff;
mod doctor;
mod eol;
mod error;
mod finding;
mod format;
mod from_router;
mod fsys;
mod hook;
mod jsonc;
mod lock;
mod manifest;
mod matcher;
mod merge;
mod ops;
mod plan;
mod preflight;
mod program;
mod record;
mod resolve;
mod scope;
mod shell;
mod target;
mod targets;
mod warm;

pub use agenthooks_runtime::shell::{join as shell_join, quote as shell_quote, QuoteError};
pub use doctor::{doctor, CommandHealth, DoctorOptions, DoctorReport, InstalledFile, TargetHealth};
pub use error::InstallError;
pub use finding::{Finding, FindingCode, Severity};
pub use format::FileFormat;
pub use from_router::{manifest_from_router, name_of_program};
pub use fsys::{FsView, MemFs, RealFs};
pub use manifest::{default_uses, FailurePolicy, HookOn, HookSpec, Identity, Manifest, WarmEndpoint};
pub use matcher::{MatcherFallback, McpGlob, ToolMatcher};
pub use ops::{diff, install, plan_install, plan_uninstall, render, uninstall, Rendered, RenderedFile};
pub use plan::{ChangeStatus, FileChange, Fingerprint, Plan, TrustEntry};
pub use preflight::{preflight, HookPreflight, Preflight, TargetPreflight};
pub use program::absolute_command;
pub use scope::Scope;
pub use target::{CodexOptions, OpenClawOptions, Target, TargetOptions};
pub use targets::{known_targets, native_events_for, supported_providers};
pub use warm::warm_endpoint;

/// Codex per-hook trust: state keys and trusted hashes, exactly as Codex computes them.
#[cfg(feature = "codex")]
#[cfg_attr(docsrs, doc(cfg(feature = "codex")))]
pub mod codex_trust {
    pub use crate::targets::codex::trust::*;
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
