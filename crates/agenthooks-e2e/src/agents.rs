//! The agents: pinned versions, the model API each speaks, and how each is configured,
//! trusted and run headless (the recipes of `shared/e2e/README.md`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use agenthooks::{Codec, Provider};
use agenthooks_install::{CodexOptions, HookSpec, Manifest, OpenClawOptions, Plan, Target};
use serde_json::{json, Value};

use crate::model::Api;
pub use crate::sandbox::{Sandbox, MODEL, PROMPT};

/// The timeout rendered into every hook's config.
pub const HOOK_TIMEOUT: Duration = Duration::from_secs(30);

/// Which agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum AgentId {
    /// Claude Code.
    Claude,
    /// OpenAI Codex CLI.
    Codex,
    /// Gemini CLI.
    Gemini,
    /// GitHub Copilot CLI.
    Copilot,
    /// Kimi Code.
    Kimi,
    /// OpenCode (through the generated shim plugin and `agenthooks serve`).
    OpenCode,
    /// OpenClaw (embedded `agent --local` run; hooks through the generated native plugin and
    /// `serve` mode).
    OpenClaw,
    /// Qwen Code (OpenAI-compatible BYOK: `OPENAI_BASE_URL` at the fake server).
    Qwen,
    /// Factory Droid (`droid exec` in Airgap Mode with a custom model on the fake Anthropic
    /// server).
    Droid,
}

/// One agent under test.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct AgentSpec {
    /// Which.
    pub id: AgentId,
    /// Display name.
    pub name: &'static str,
    /// The agenthooks provider (wire string).
    pub provider: &'static str,
    /// The npm package.
    pub package: &'static str,
    /// The pinned version (also the fixtures directory name).
    pub version: &'static str,
    /// The executable in `node_modules/.bin`.
    pub bin: &'static str,
    /// The model API its fake server speaks.
    pub api: Api,
    /// The shell tool as the model calls it.
    pub tool: &'static str,
    /// Native events that must arrive in a plain run, with the unified kind each must decode
    /// to (design §3.4 and the reference; model-level events: presence, not counts).
    pub expected: &'static [(&'static str, &'static str)],
    /// Whether context added on session start reaches the model (Kimi discards `SessionStart`
    /// output: there the suite asserts it does *not*, so a change is noticed).
    pub session_context: bool,
    /// Whether the agent applies a rewritten tool input (Kimi: no; the rewrite degrades and the
    /// original command runs).
    pub rewrite: bool,
}

const CORE_EVENTS_CLAUDE: &[(&str, &str)] = &[
    ("SessionStart", "session.start"),
    ("UserPromptSubmit", "prompt.submitted"),
    ("PreToolUse", "tool.pre"),
    ("PostToolUse", "tool.post"),
    ("Stop", "agent.stop"),
    ("SessionEnd", "session.end"),
];

/// The agents, in table order.
pub const AGENTS: [AgentSpec; 9] = [
    AgentSpec {
        id: AgentId::Claude,
        name: "Claude Code",
        provider: "claude-code",
        package: "@anthropic-ai/claude-code",
        version: "2.1.332",
        bin: "claude",
        api: Api::AnthropicMessages,
        tool: "Bash",
        expected: &[
            ("SessionStart", "session.start"),
            ("UserPromptSubmit", "prompt.submitted"),
            ("PreToolUse", "tool.pre"),
            ("PostToolUse", "tool.post"),
            ("MessageDisplay", "model.response"),
            ("Stop", "agent.stop"),
            ("SessionEnd", "session.end"),
        ],
        session_context: true,
        rewrite: true,
    },
    AgentSpec {
        id: AgentId::Codex,
        name: "Codex",
        provider: "codex",
        package: "@openai/codex",
        version: "0.171.0",
        bin: "codex",
        api: Api::OpenAiResponses,
        tool: "exec_command",
        expected: CORE_EVENTS_CLAUDE,
        session_context: true,
        rewrite: true,
    },
    AgentSpec {
        id: AgentId::Gemini,
        name: "Gemini CLI",
        provider: "gemini",
        package: "@google/gemini-cli",
        version: "0.61.0",
        bin: "gemini",
        api: Api::Gemini,
        tool: "run_shell_command",
        expected: &[
            ("SessionStart", "session.start"),
            ("BeforeAgent", "prompt.submitted"),
            ("BeforeModel", "model.request"),
            ("AfterModel", "model.response"),
            ("BeforeTool", "tool.pre"),
            ("AfterTool", "tool.post"),
            ("AfterAgent", "agent.stop"),
            ("SessionEnd", "session.end"),
        ],
        session_context: true,
        rewrite: true,
    },
    AgentSpec {
        id: AgentId::Copilot,
        name: "Copilot CLI",
        provider: "copilot",
        package: "@github/copilot",
        version: "1.0.102",
        bin: "copilot",
        api: Api::OpenAiChat,
        tool: "bash",
        expected: &[
            ("sessionStart", "session.start"),
            ("userPromptSubmitted", "prompt.submitted"),
            ("preToolUse", "tool.pre"),
            ("permissionRequest", "permission.request"),
            ("postToolUse", "tool.post"),
            ("agentStop", "agent.stop"),
            ("sessionEnd", "session.end"),
        ],
        session_context: true,
        rewrite: true,
    },
    AgentSpec {
        id: AgentId::Kimi,
        name: "Kimi Code",
        provider: "kimi",
        package: "@moonshot-ai/kimi-code",
        version: "2.1.0",
        bin: "kimi",
        api: Api::OpenAiChat,
        tool: "Bash",
        expected: &[
            ("SessionStart", "session.start"),
            ("UserPromptSubmit", "prompt.submitted"),
            ("PreToolUse", "tool.pre"),
            ("Stop", "agent.stop"),
        ],
        session_context: false,
        rewrite: false,
    },
    AgentSpec {
        id: AgentId::OpenCode,
        name: "OpenCode",
        provider: "opencode",
        package: "opencode-ai",
        version: "1.18.33",
        bin: "opencode",
        api: Api::OpenAiChat,
        tool: "bash",
        expected: &[
            ("session.created", "session.start"),
            ("chat.message", "prompt.submitted"),
            ("chat.params", "model.request"),
            ("tool.execute.before", "tool.pre"),
            ("tool.execute.after", "tool.post"),
            ("experimental.text.complete", "model.response"),
            ("session.idle", "agent.stop"),
        ],
        // Session-start context has no wire form on OpenCode (the prompt's does).
        session_context: false,
        rewrite: true,
    },
    AgentSpec {
        id: AgentId::OpenClaw,
        name: "OpenClaw",
        provider: "openclaw",
        package: "openclaw",
        version: "2026.9.6",
        bin: "openclaw",
        api: Api::OpenAiChat,
        tool: "exec",
        expected: &[
            ("before_agent_run", "prompt.submitted"),
            ("before_prompt_build", "prompt.submitted"),
            ("llm_input", "model.request"),
            ("before_tool_call", "tool.pre"),
            ("after_tool_call", "tool.post"),
            ("before_agent_finalize", "agent.stop"),
            ("agent_end", "other"),
            ("llm_output", "model.response"),
        ],
        // `session_start` is an observer (and does not fire in embedded runs).
        session_context: false,
        rewrite: true,
    },
    AgentSpec {
        id: AgentId::Qwen,
        name: "Qwen Code",
        provider: "qwen-code",
        package: "@qwen-code/qwen-code",
        version: "0.24.4",
        bin: "qwen",
        api: Api::OpenAiChat,
        tool: "run_shell_command",
        expected: &[
            ("SessionStart", "session.start"),
            ("UserPromptSubmit", "prompt.submitted"),
            ("PreToolUse", "tool.pre"),
            ("PostToolUse", "tool.post"),
            ("Stop", "agent.stop"),
        ],
        session_context: true,
        // PreToolUse applies no rewritten input (quirk 902): the rewrite degrades.
        rewrite: false,
    },
    AgentSpec {
        id: AgentId::Droid,
        name: "Factory Droid",
        provider: "droid",
        package: "droid",
        version: "0.215.0",
        bin: "droid",
        api: Api::AnthropicMessages,
        tool: "Execute",
        // `droid exec` fires no UserPromptSubmit (quirk 1001).
        expected: &[
            ("SessionStart", "session.start"),
            ("PreToolUse", "tool.pre"),
            ("PostToolUse", "tool.post"),
            ("Stop", "agent.stop"),
            ("SessionEnd", "session.end"),
        ],
        session_context: true,
        rewrite: true,
    },
];

impl AgentSpec {
    /// The agent's spec.
    pub fn get(id: AgentId) -> &'static Self {
        AGENTS.iter().find(|a| a.id == id).unwrap_or(&AGENTS[0])
    }

    /// Short id for filters and directory names (`claude`, `codex`, …).
    pub const fn short(&self) -> &'static str {
        match self.id {
            AgentId::Claude => "claude",
            AgentId::Codex => "codex",
            AgentId::Gemini => "gemini",
            AgentId::Copilot => "copilot",
            AgentId::Kimi => "kimi",
            AgentId::OpenCode => "opencode",
            AgentId::OpenClaw => "openclaw",
            AgentId::Qwen => "qwen",
            AgentId::Droid => "droid",
        }
    }

    /// The provider.
    pub fn provider(&self) -> Provider {
        Provider::new(self.provider)
    }

    /// The codec compiled into the facade.
    pub fn codec(&self) -> Option<&'static dyn Codec> {
        agenthooks::codecs().into_iter().find(|c| c.provider() == self.provider)
    }

    /// The [`AgentSpec::tool_args`] as JSON text with what a model can write and a strict reader
    /// rejects: the command ends in a lone high surrogate escape (`# \ud800`, a shell comment)
    /// and, where the shell tool takes a description, the description is a reversed surrogate
    /// pair (`\udc00\ud800`).
    pub fn hostile_tool_args(&self) -> String {
        let key = if self.id == AgentId::Codex { "cmd" } else { "command" };
        let command = format!(r#""{key}":"{} # \ud800""#, crate::hook::MARKER_COMMAND);
        let description = match self.id {
            AgentId::Claude | AgentId::Copilot | AgentId::OpenCode => r#","description":"list files \udc00\ud800""#,
            AgentId::Droid => {
                r#","summary":"List the files \udc00\ud800 now","riskLevelReason":"It writes one file.","riskLevel":"medium""#
            }
            _ => "",
        };
        format!("{{{command}{description}}}")
    }

    /// The scripted tool call's arguments in this agent's shell-tool shape.
    pub fn tool_args(&self) -> Value {
        let command = crate::hook::MARKER_COMMAND;
        match self.id {
            AgentId::Codex => json!({"cmd": command}),
            AgentId::Copilot => json!({"command": command, "description": "write the marker file"}),
            // Droid denies an Execute call without its risk fields before any hook runs.
            AgentId::Droid => json!({
                "summary": "Write the marker file now",
                "command": command,
                "riskLevelReason": "It writes one file in the project.",
                "riskLevel": "medium",
            }),
            _ => json!({"command": command}),
        }
    }
}

/// The agent at another version than its pin (the spec is leaked: a process makes a handful).
pub fn at_version(agent: &AgentSpec, version: &str) -> &'static AgentSpec {
    if agent.version == version {
        return AgentSpec::get(agent.id);
    }
    let mut spec = *agent;
    spec.version = Box::leak(version.to_owned().into_boxed_str());
    Box::leak(Box::new(spec))
}

/// How to start the agent for one run.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Launch {
    /// The executable.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Env (the process env is cleared first).
    pub env: Vec<(String, String)>,
    /// What agenthooks-install wrote (`None` where the suite wrote the hooks itself).
    pub plan: Option<Plan>,
}

/// Tools shared by every run.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Toolchain {
    /// Node's `bin` directory (first on `PATH`).
    pub node_bin: PathBuf,
    /// The agent's install prefix.
    pub prefix: PathBuf,
    /// The test hook binary.
    pub hook_bin: PathBuf,
    /// The shared XDG cache (Copilot's unpacked runtime).
    pub xdg_cache: PathBuf,
    /// The native events to register (`None`: every event of the codec's table). The capture
    /// command sets the release's own list ([`crate::release::events`]).
    pub events: Option<Vec<String>>,
}

/// The manifest: one hook per native event the codec knows, all blocking, [`HOOK_TIMEOUT`].
pub fn manifest(spec: &AgentSpec, hook_bin: &Path) -> Manifest {
    manifest_for(spec, hook_bin, None)
}

/// [`manifest`] with the events given (`None`: the codec's table). Events the codec does not
/// know are rendered as given by the installer (an info finding).
pub fn manifest_for(spec: &AgentSpec, hook_bin: &Path, events: Option<&[String]>) -> Manifest {
    let mut m = Manifest::new([hook_bin.display().to_string()], "agenthooks-e2e");
    let names: Vec<String> = match events {
        Some(e) => e.to_vec(),
        None => spec
            .codec()
            .map(|c| c.native_events().iter().map(|ev| ev.name.to_owned()).collect())
            .unwrap_or_default(),
    };
    for ev in names {
        m = m.with_hook(HookSpec::native(spec.provider(), ev).with_timeout(HOOK_TIMEOUT));
    }
    m
}

fn write_json(path: &Path, v: &Value) -> Result<(), String> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(|e| format!("creating {}: {e}", p.display()))?;
    }
    let text = serde_json::to_string_pretty(v).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("writing {}: {e}", path.display()))
}

fn write_text(path: &Path, text: &str) -> Result<(), String> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(|e| format!("creating {}: {e}", p.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}

fn install(m: &Manifest, t: &Target) -> Result<Plan, String> {
    agenthooks_install::install(m, t).map_err(|e| format!("agenthooks-install ({}): {e}", t.provider))
}

/// The API key written into OpenClaw's config: it must never appear in a frame the daemon
/// receives (the shim strips the Gateway config, quirk #803).
pub const OPENCLAW_SECRET: &str = "sk-E2E-SECRET-openclaw-3c9d";

/// Writes the agent's own config (provider, auth, trust), installs our hooks with
/// agenthooks-install, and returns how to launch it. `options.fail` is also OpenClaw's failure
/// policy (the daemon-crash scenario).
pub fn prepare(
    spec: &AgentSpec,
    sb: &Sandbox,
    tc: &Toolchain,
    server_url: &str,
    options: &crate::opencode::Options,
) -> Result<Launch, String> {
    prepare_with(spec, sb, tc, server_url, options, None)
}

/// [`prepare`], in warm mode when `warm` is given: the manifest carries the sandbox's warm
/// endpoint (install renders http hooks where the agent has them), fail-closed when asked.
pub fn prepare_with(
    spec: &AgentSpec,
    sb: &Sandbox,
    tc: &Toolchain,
    server_url: &str,
    options: &crate::opencode::Options,
    warm: Option<&Warm>,
) -> Result<Launch, String> {
    let mut m = manifest_for(spec, &tc.hook_bin, tc.events.as_deref());
    if spec.id == AgentId::OpenClaw && matches!(options.fail, agenthooks::opencode::shim::ShimFail::Closed) {
        m = m.with_failure(agenthooks_install::FailurePolicy::Closed);
    }
    if let Some(w) = warm {
        // Copilot: the run sets COPILOT_HOOK_ALLOW_LOCALHOST=1 ([`Warm::env`]): the opt-in.
        m = m
            .with_warm(w.endpoint.clone())
            .with_copilot_allow_localhost(spec.id == AgentId::Copilot);
        if w.fail_closed {
            m = m.with_failure(agenthooks_install::FailurePolicy::Closed);
        }
    }
    let project = sb.project.display().to_string();
    let bin = tc.prefix.join("node_modules").join(".bin").join(spec.bin);
    let s = |x: &str| x.to_owned();
    let prompt = s(PROMPT);
    // `-p PROMPT` then the agent's flags: how Claude, Gemini, Copilot and Kimi run headless.
    let print_mode = |flags: &[&str]| -> Vec<String> {
        [s("-p"), s(PROMPT)]
            .into_iter()
            .chain(flags.iter().map(|f| s(f)))
            .collect()
    };
    let install_in_project = |provider: Provider| {
        install(
            &m,
            &Target::project(provider, &sb.project, &sb.home).with_agent_version(spec.version),
        )
    };
    let (args, env, plan): (Vec<String>, Vec<(String, String)>, Option<Plan>) = match spec.id {
        AgentId::Claude => {
            // Bypass-permissions is refused as root; an allow rule counts once the workspace is
            // trusted. Written before the install so the installer merges into it.
            write_json(
                &sb.project.join(".claude/settings.json"),
                &json!({"permissions": {"allow": ["Bash"]}}),
            )?;
            write_json(
                &sb.home.join(".claude.json"),
                &json!({"hasCompletedOnboarding": true, "projects": {project.clone(): {"hasTrustDialogAccepted": true}}}),
            )?;
            let plan = install_in_project(Provider::CLAUDE_CODE)?;
            let env = vec![
                (s("ANTHROPIC_BASE_URL"), s(server_url)),
                (s("ANTHROPIC_API_KEY"), s("fake-key")),
                (s("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"), s("1")),
                (s("DISABLE_AUTOUPDATER"), s("1")),
            ];
            let args = print_mode(&["--output-format", "json", "--max-turns", "8"]);
            (args, env, Some(plan))
        }
        AgentId::Codex => {
            let codex_home = sb.home.join(".codex");
            let mut doc = toml_edit::DocumentMut::new();
            doc["model"] = toml_edit::value(MODEL);
            doc["model_provider"] = toml_edit::value("fake");
            doc["approval_policy"] = toml_edit::value("never");
            doc["sandbox_mode"] = toml_edit::value("danger-full-access");
            let mut p = toml_edit::Table::new();
            p["name"] = toml_edit::value("fake");
            p["base_url"] = toml_edit::value(format!("{server_url}/v1"));
            p["wire_api"] = toml_edit::value("responses");
            p["env_key"] = toml_edit::value("FAKE_OPENAI_API_KEY");
            p["request_max_retries"] = toml_edit::value(0);
            p["stream_max_retries"] = toml_edit::value(0);
            let mut providers = toml_edit::Table::new();
            providers.set_implicit(true);
            providers["fake"] = toml_edit::Item::Table(p);
            doc["model_providers"] = toml_edit::Item::Table(providers);
            // Hermetic: no plugin, app or connector lookups on github.com / chatgpt.com.
            let mut features = toml_edit::Table::new();
            for f in ["plugins", "remote_plugin", "plugin_sharing", "apps", "tool_suggest"] {
                features[f] = toml_edit::value(false);
            }
            // Releases before hooks were on by default fire none without the feature flag.
            if crate::release::mentions(&tc.prefix, spec.package, "codex_hooks") {
                features["codex_hooks"] = toml_edit::value(true);
            }
            doc["features"] = toml_edit::Item::Table(features);
            write_text(&codex_home.join("config.toml"), &doc.to_string())?;
            // Our computed hashes and the project trust, no --dangerously-bypass-hook-trust.
            let target = Target::project(Provider::CODEX, &sb.project, &sb.home)
                .with_agent_home(&codex_home)
                .with_agent_version(spec.version)
                .with_options(CodexOptions::default().with_trust_project(true));
            let plan = install(&m, &target)?;
            let env = vec![
                (s("CODEX_HOME"), codex_home.display().to_string()),
                (s("FAKE_OPENAI_API_KEY"), s("fake-key")),
            ];
            (
                vec![s("exec"), s("--skip-git-repo-check"), s("--json"), prompt],
                env,
                Some(plan),
            )
        }
        AgentId::Gemini => {
            let g = sb.home.join(".gemini");
            let mut settings = json!({
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
                "privacy": {"usageStatisticsEnabled": false},
                "telemetry": {"enabled": false},
            });
            // Releases before hooks were on by default (0.24.0: `tools.enableHooks ?? true`
            // and `hooks.enabled ?? false`) run none without the switch.
            if crate::release::mentions(&tc.prefix, spec.package, "hooks?.enabled") {
                settings["hooks"] = json!({"enabled": true});
                settings["tools"] = json!({"enableHooks": true});
            }
            write_json(&g.join("settings.json"), &settings)?;
            write_json(
                &g.join("trustedFolders.json"),
                &json!({project.clone(): "TRUST_FOLDER"}),
            )?;
            let plan = install_in_project(Provider::GEMINI)?;
            let env = vec![
                (s("GEMINI_API_KEY"), s("fake-key")),
                (s("GOOGLE_GEMINI_BASE_URL"), s(server_url)),
            ];
            // `-m` pins the model, which skips the router's flash-lite call.
            let args = print_mode(&[
                "-m",
                "gemini-2.5-pro",
                "--output-format",
                "json",
                "--approval-mode",
                "yolo",
            ]);
            (args, env, Some(plan))
        }
        AgentId::Copilot => {
            // Warm http hooks carry the server's bearer: install renders them at user scope
            // only (the project's hooks file is committed), so a warm run installs there.
            let plan = if warm.is_some() {
                install(
                    &m,
                    &Target::user(Provider::COPILOT, &sb.home).with_agent_version(spec.version),
                )?
            } else {
                install_in_project(Provider::COPILOT)?
            };
            let env = vec![
                (s("COPILOT_PROVIDER_BASE_URL"), format!("{server_url}/v1")),
                (s("COPILOT_PROVIDER_API_KEY"), s("fake-key")),
                (s("COPILOT_MODEL"), s(MODEL)),
                (s("COPILOT_OFFLINE"), s("true")),
                (s("COPILOT_AUTO_UPDATE"), s("false")),
                // The ~235 MB runtime unpacked on first start is shared between runs.
                (s("XDG_CACHE_HOME"), tc.xdg_cache.display().to_string()),
            ];
            // Without --trust-folder repository hooks are silently not loaded. Older releases
            // lack the flag (and --no-auto-update): there the folder is trusted in the user
            // config and prompt-mode repository hooks are switched on by env.
            let mut env = env;
            let mut flags = vec!["--allow-all-tools"];
            if crate::release::mentions(&tc.prefix, spec.package, "trust-folder") {
                flags.push("--trust-folder");
            } else {
                write_json(
                    &sb.home.join(".copilot/config.json"),
                    &json!({"trusted_folders": [project.clone()]}),
                )?;
                env.push((s("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS"), s("1")));
            }
            if crate::release::mentions(&tc.prefix, spec.package, "no-auto-update") {
                flags.push("--no-auto-update");
            }
            let args = print_mode(&flags);
            (args, env, Some(plan))
        }
        AgentId::Kimi => {
            let kimi_home = sb.home.join(".kimi-code");
            let mut doc = toml_edit::DocumentMut::new();
            doc["default_model"] = toml_edit::value("fake");
            let mut prov = toml_edit::Table::new();
            prov["type"] = toml_edit::value("openai");
            prov["base_url"] = toml_edit::value(format!("{server_url}/v1"));
            prov["api_key"] = toml_edit::value("fake-key");
            let mut providers = toml_edit::Table::new();
            providers.set_implicit(true);
            providers["fake"] = toml_edit::Item::Table(prov);
            doc["providers"] = toml_edit::Item::Table(providers);
            let mut model = toml_edit::Table::new();
            model["provider"] = toml_edit::value("fake");
            model["model"] = toml_edit::value(MODEL);
            model["max_context_size"] = toml_edit::value(128_000);
            model["capabilities"] = toml_edit::value(toml_edit::Array::new());
            let mut models = toml_edit::Table::new();
            models.set_implicit(true);
            models["fake"] = toml_edit::Item::Table(model);
            doc["models"] = toml_edit::Item::Table(models);
            write_text(&kimi_home.join("config.toml"), &doc.to_string())?;
            let plan = install(
                &m,
                &Target::user(Provider::KIMI, &sb.home)
                    .with_agent_home(&kimi_home)
                    .with_agent_version(spec.version),
            )?;
            let env = vec![
                (s("KIMI_CODE_HOME"), kimi_home.display().to_string()),
                (s("KIMI_CODE_NO_AUTO_UPDATE"), s("1")),
            ];
            // `-p` cannot be combined with `--yolo`.
            (print_mode(&[]), env, Some(plan))
        }
        AgentId::Droid => {
            // Airgap Mode (FACTORY_AIRGAP_ENABLED) runs without a login when a BYOK custom model
            // is configured: the fake Anthropic server is that model.
            write_json(
                &sb.home.join(".factory/settings.json"),
                &json!({"customModels": [{
                    "model": MODEL, "displayName": "Fake", "baseUrl": server_url,
                    "apiKey": "fake-key", "provider": "anthropic", "maxOutputTokens": 1024,
                }]}),
            )?;
            let plan = install_in_project(Provider::DROID)?;
            let env = vec![
                (s("FACTORY_AIRGAP_ENABLED"), s("1")),
                (s("FACTORY_DROID_AUTO_UPDATE_ENABLED"), s("false")),
            ];
            let args = vec![
                s("exec"),
                s("--auto"),
                s("high"),
                s("-m"),
                s("custom:Fake-0"),
                s("-o"),
                s("json"),
                prompt.clone(),
            ];
            (args, env, Some(plan))
        }
        AgentId::OpenCode => {
            let plan = crate::opencode::prepare(&m, sb, server_url, options)?;
            (Vec::new(), crate::opencode::env(), plan)
        }
        AgentId::Qwen => {
            let mut settings = json!({
                "security": {"auth": {"selectedType": "openai"}},
                "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
                "privacy": {"usageStatisticsEnabled": false},
                "telemetry": {"enabled": false},
            });
            // Releases whose hooks were experimental (0.12: `--experimental-hooks` or
            // `hooksConfig.enabled`) run none without the switch (quirk 912).
            if crate::release::mentions(&tc.prefix, spec.package, "experimental-hooks") {
                settings["hooksConfig"] = json!({"enabled": true});
            }
            write_json(&sb.home.join(".qwen/settings.json"), &settings)?;
            // Warm http hooks carry the server's bearer: install renders them at user scope
            // only (the project settings file is committed).
            let plan = if warm.is_some() {
                install(
                    &m,
                    &Target::user(Provider::QWEN, &sb.home).with_agent_version(spec.version),
                )?
            } else {
                install_in_project(Provider::QWEN)?
            };
            let env = vec![
                (s("OPENAI_API_KEY"), s("fake-key")),
                (s("OPENAI_BASE_URL"), format!("{server_url}/v1")),
                (s("OPENAI_MODEL"), s(MODEL)),
                (s("QWEN_CODE_NO_RELAUNCH"), s("1")),
            ];
            let args = print_mode(&[
                "--approval-mode",
                "yolo",
                "--output-format",
                "json",
                "--auth-type",
                "openai",
            ]);
            (args, env, Some(plan))
        }
        AgentId::OpenClaw => {
            let (env, plan) = prepare_openclaw(&m, sb, server_url)?;
            // `agent --local`, not `agent exec` (which fires no typed hook, quirk #806).
            let args = vec![
                s("agent"),
                s("--local"),
                s("--agent"),
                s("main"),
                s("--message"),
                prompt,
                s("--json"),
            ];
            (args, env, plan)
        }
    };
    Ok(Launch {
        program: bin,
        args,
        env,
        plan,
    })
}

/// The environment every run starts from: isolated `HOME` and XDG dirs, Node first on `PATH`,
/// no proxies, nothing inherited.
pub fn base_env(sb: &Sandbox, tc: &Toolchain) -> Vec<(String, String)> {
    let h = |p: &str| sb.home.join(p).display().to_string();
    vec![
        (
            "PATH".into(),
            format!("{}:/usr/local/bin:/usr/bin:/bin", tc.node_bin.display()),
        ),
        ("HOME".into(), sb.home.display().to_string()),
        ("XDG_CONFIG_HOME".into(), h(".config")),
        ("XDG_CACHE_HOME".into(), h(".cache")),
        ("XDG_DATA_HOME".into(), h(".local/share")),
        ("XDG_STATE_HOME".into(), h(".local/state")),
        ("TMPDIR".into(), sb.root.join("tmp").display().to_string()),
        ("LANG".into(), "C.UTF-8".into()),
        ("TERM".into(), "dumb".into()),
        ("NO_COLOR".into(), "1".into()),
        (
            "AGENTHOOKS_STATE_DIR".into(),
            sb.root.join("state").display().to_string(),
        ),
    ]
}

/// Environment variables of a run.
type Env = Vec<(String, String)>;

/// How long a warm server of a run may sit idle before it exits by itself (the run stops it
/// sooner; this bounds a server an aborted run leaves behind).
pub const WARM_IDLE_SECS: u64 = 60;

/// A run's warm mode: its own warm base (`<sandbox>/warm`), the hook binary's warm directory
/// under it (token, config with the port), and the endpoint install renders.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Warm {
    /// The warm base (`AGENTHOOKS_WARM_DIR` of the agent and its hooks).
    pub base: PathBuf,
    /// The hook binary's warm directory (`WarmDir::for_exe` the base and the binary).
    pub dir: agenthooks::runtime::warm_state::WarmDir,
    /// The endpoint the http hooks name.
    pub endpoint: agenthooks_install::WarmEndpoint,
    /// Render the hooks fail-closed (`onFailure: "block"` on gating events).
    pub fail_closed: bool,
}

/// The warm server as a run left it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct WarmSeen {
    /// The configured port.
    pub port: u16,
    /// The build id install rendered.
    pub build: String,
    /// The server's own record (`server.json`), when one was written.
    pub record: Option<agenthooks::runtime::warm_state::ServerRecord>,
    /// Whether it answered a ping after the agent exited.
    pub answered_after: bool,
}

impl Warm {
    /// Creates the warm directory under the sandbox: a token (`0600`) and a free port, as
    /// `install --warm` does; the build is the hook binary's.
    pub fn setup(sb: &Sandbox, hook_bin: &Path, fail_closed: bool) -> Result<Self, String> {
        use agenthooks::runtime::warm_state as st;
        let base = sb.root.join("warm");
        let env = vec![(st::WARM_DIR_ENV.to_owned(), base.display().to_string())];
        let dir = st::WarmDir::for_exe(&env, hook_bin);
        let io = |e: std::io::Error| format!("warm directory {}: {e}", dir.path().display());
        let token = dir.ensure_token().map_err(io)?;
        let port = st::free_port().map_err(io)?;
        let build = st::build_id_of(hook_bin);
        dir.write_config(port, Some(&build)).map_err(io)?;
        let endpoint = agenthooks_install::WarmEndpoint::new(port, st::bearer(&token), build).with_dir(dir.path());
        Ok(Self {
            base,
            dir,
            endpoint,
            fail_closed,
        })
    }

    /// The agent's environment for warm mode (its hooks and the server they start inherit it;
    /// Copilot CLI posts http hooks to loopback only with `COPILOT_HOOK_ALLOW_LOCALHOST=1`).
    pub fn env(&self) -> Env {
        vec![
            ("COPILOT_HOOK_ALLOW_LOCALHOST".to_owned(), "1".to_owned()),
            (
                agenthooks::runtime::warm_state::WARM_DIR_ENV.to_owned(),
                self.base.display().to_string(),
            ),
            ("AGENTHOOKS_WARM_IDLE_SECS".to_owned(), WARM_IDLE_SECS.to_string()),
        ]
    }

    /// Kills the running server (its process group; it was started detached by a hook) and
    /// waits for its port to stop answering: its pid, `None` when there was none or the port
    /// still answered after 5 s.
    pub fn kill_server(&self) -> Option<u32> {
        use agenthooks::runtime::warm_state as st;
        let record = self.dir.record()?;
        crate::run::kill_group(record.pid);
        let token = self.dir.token().unwrap_or_default();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while std::time::Instant::now() < until {
            if self.dir.ping(self.endpoint.port, &token, st::PING_TIMEOUT).is_none() {
                return Some(record.pid);
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        None
    }

    /// After the agent exited: reads the server's record, pings it, and stops the server
    /// (SIGKILL to its process group: it was started detached as its own group leader by the
    /// run's hook) when the pid answering is the record's.
    pub fn finish(self) -> WarmSeen {
        use agenthooks::runtime::warm_state as st;
        let record = self.dir.record();
        let token = self.dir.token().unwrap_or_default();
        let pong = self.dir.ping(self.endpoint.port, &token, st::PING_TIMEOUT);
        let pid = pong
            .as_ref()
            .and_then(|p| p["pid"].as_u64())
            .and_then(|p| u32::try_from(p).ok());
        if let (Some(pid), Some(r)) = (pid, &record) {
            if pid == r.pid {
                crate::run::kill_group(pid);
            }
        }
        WarmSeen {
            port: self.endpoint.port,
            build: self.endpoint.build.clone(),
            record,
            answered_after: pong.is_some(),
        }
    }
}

/// OpenClaw's config (`OPENCLAW_CONFIG_PATH`): the fake provider (with [`OPENCLAW_SECRET`] as
/// its key), the agent's model and workspace; then our plugin and its `plugins.entries` block,
/// installed by agenthooks-install at user scope (the state dir's `extensions/agenthooks/`,
/// which OpenClaw discovers itself). Returns the run's env and the install plan.
fn prepare_openclaw(m: &Manifest, sb: &Sandbox, server_url: &str) -> Result<(Env, Option<Plan>), String> {
    let config_path = sb.home.join(".openclaw").join("openclaw.json");
    let state_dir = sb.home.join(".openclaw-state");
    let model = json!({
        "id": MODEL, "name": "Fake model", "reasoning": false, "input": ["text"],
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
        "contextWindow": 128_000, "maxTokens": 4096, "api": "openai-completions",
    });
    let config = json!({
        "models": {"mode": "replace", "providers": {"fake": {
            "baseUrl": format!("{server_url}/v1"), "apiKey": OPENCLAW_SECRET,
            "api": "openai-completions", "timeoutSeconds": 60, "models": [model],
        }}},
        "agents": {"defaults": {
            "model": {"primary": format!("fake/{MODEL}")},
            "workspace": sb.project.display().to_string(),
            "skipBootstrap": true,
        }},
        "gateway": {"mode": "local", "bind": "loopback", "auth": {"mode": "token", "token": OPENCLAW_SECRET}},
    });
    write_json(&config_path, &config)?;
    let plan = install(
        m,
        &Target::user(Provider::OPENCLAW, &sb.home)
            .with_agent_home(&state_dir)
            .with_options(OpenClawOptions::default().with_config_path(&config_path)),
    )?;
    let env = vec![
        ("OPENCLAW_CONFIG_PATH".to_owned(), config_path.display().to_string()),
        ("OPENCLAW_STATE_DIR".to_owned(), state_dir.display().to_string()),
    ];
    Ok((env, Some(plan)))
}

/// The MCP stub of the `mcp` scenario as one run declares it: the command (a copy of
/// `agenthooks-e2e-mcp` inside the run's directory, so a captured config names a path that
/// rewrites to `/tmp/e2e/…`), its arguments, and the log it writes.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct McpStubSetup {
    /// The stub's executable.
    pub command: PathBuf,
    /// Its arguments (`--log <log>`).
    pub args: Vec<String>,
    /// The JSONL log of what the stub received.
    pub log: PathBuf,
    /// The config files the declaration wrote or edited (absolute).
    pub files: Vec<PathBuf>,
    /// Env the run needs on top of the usual (Claude Code: `ENABLE_TOOL_SEARCH=false`, else
    /// MCP tools are deferred behind `ToolSearch` and absent from the model's tools list).
    pub env: Vec<(String, String)>,
    /// The whole env the agent ran with (set after the run).
    pub run_env: Vec<(String, String)>,
}

/// `agenthooks-e2e-mcp` beside the test hook (cargo builds both bins of this package).
pub fn mcp_stub_bin(tc: &Toolchain) -> PathBuf {
    tc.hook_bin.with_file_name("agenthooks-e2e-mcp")
}

fn read_json_or_empty(path: &Path) -> Result<Value, String> {
    match std::fs::read_to_string(path) {
        Ok(t) => serde_json::from_str(&t).map_err(|e| format!("{}: {e}", path.display())),
        Err(_) => Ok(json!({})),
    }
}

/// Edits the JSON object in `path` (created when missing) with `f` and writes it back.
/// (Indexing a JSON object value inserts missing keys.)
fn edit_json(path: &Path, f: impl FnOnce(&mut Value)) -> Result<(), String> {
    let mut v = read_json_or_empty(path)?;
    if !v.is_object() {
        v = json!({});
    }
    f(&mut v);
    write_json(path, &v)
}

/// Declares the MCP stub server [`crate::mcp_stub::SERVER`] in the agent's own MCP config in
/// the sandbox (after [`prepare`], whose files it edits): Claude Code `.mcp.json` (approved in
/// `~/.claude.json` and allowed in `.claude/settings.json`), Codex `[mcp_servers.shop_db]` in
/// `$CODEX_HOME/config.toml`, Gemini CLI `mcpServers` in the project's `.gemini/settings.json`,
/// Copilot CLI `~/.copilot/mcp-config.json`, Kimi Code `$KIMI_CODE_HOME/mcp.json`, OpenCode
/// `mcp` in `opencode.json`, OpenClaw `mcp.servers` in its config file.
pub fn declare_mcp(spec: &AgentSpec, sb: &Sandbox, tc: &Toolchain) -> Result<McpStubSetup, String> {
    use crate::mcp_stub::{SERVER, TOOL};
    let built = mcp_stub_bin(tc);
    let command = sb.root.join("bin").join("agenthooks-e2e-mcp");
    std::fs::create_dir_all(sb.root.join("bin")).map_err(|e| format!("creating bin/: {e}"))?;
    std::fs::copy(&built, &command).map_err(|e| {
        format!(
            "copying the MCP stub {} (cargo build -p agenthooks-e2e --bins): {e}",
            built.display()
        )
    })?;
    let log = sb.root.join("mcp.jsonl");
    let args = vec!["--log".to_owned(), log.display().to_string()];
    let cmd = command.display().to_string();
    let stdio = json!({"command": cmd, "args": args});
    let project = sb.project.display().to_string();
    let mut files = Vec::new();
    let mut env = Vec::new();
    match spec.id {
        AgentId::Claude => {
            let mcp = sb.project.join(".mcp.json");
            write_json(
                &mcp,
                &json!({"mcpServers": {SERVER: {"type": "stdio", "command": cmd, "args": args}}}),
            )?;
            // Project servers need approval; in `-p` an MCP tool also needs an allow rule.
            let global = sb.home.join(".claude.json");
            edit_json(&global, |m| {
                let p = &mut m["projects"][project.as_str()];
                p["enabledMcpjsonServers"] = json!([SERVER]);
                p["hasTrustDialogAccepted"] = json!(true);
            })?;
            let settings = sb.project.join(".claude/settings.json");
            edit_json(&settings, |m| {
                m["enableAllProjectMcpServers"] = json!(true);
                let allow = &mut m["permissions"]["allow"];
                if let Some(a) = allow.as_array_mut() {
                    a.push(json!(format!("mcp__{SERVER}__{TOOL}")));
                } else {
                    *allow = json!(["Bash", format!("mcp__{SERVER}__{TOOL}")]);
                }
            })?;
            files.extend([mcp, global, settings]);
            env.push(("ENABLE_TOOL_SEARCH".to_owned(), "false".to_owned()));
        }
        AgentId::Codex => {
            let path = sb.home.join(".codex/config.toml");
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| format!("{}: {e}", path.display()))?;
            let mut server = toml_edit::Table::new();
            server["command"] = toml_edit::value(cmd.as_str());
            let mut a = toml_edit::Array::new();
            for x in &args {
                a.push(x.as_str());
            }
            server["args"] = toml_edit::value(a);
            let mut servers = toml_edit::Table::new();
            servers.set_implicit(true);
            servers[SERVER] = toml_edit::Item::Table(server);
            doc["mcp_servers"] = toml_edit::Item::Table(servers);
            write_text(&path, &doc.to_string())?;
            files.push(path);
        }
        AgentId::Gemini => {
            let path = sb.project.join(".gemini/settings.json");
            edit_json(&path, |m| {
                let mut entry = stdio.clone();
                entry["trust"] = json!(true);
                m["mcpServers"] = json!({SERVER: entry});
            })?;
            files.push(path);
        }
        AgentId::Copilot => {
            let path = sb.home.join(".copilot/mcp-config.json");
            write_json(
                &path,
                &json!({"mcpServers": {SERVER: {"type": "local", "command": cmd, "args": args, "tools": ["*"]}}}),
            )?;
            files.push(path);
        }
        AgentId::Kimi => {
            let path = sb.home.join(".kimi-code/mcp.json");
            write_json(&path, &json!({"mcpServers": {SERVER: stdio}}))?;
            files.push(path);
        }
        AgentId::Droid => {
            let path = sb.home.join(".factory/mcp.json");
            write_json(
                &path,
                &json!({"mcpServers": {SERVER: {"type": "stdio", "command": cmd, "args": args}}}),
            )?;
            files.push(path);
        }
        AgentId::OpenCode => {
            let path = sb.project.join("opencode.json");
            edit_json(&path, |m| {
                let mut command = vec![cmd.clone()];
                command.extend(args.iter().cloned());
                m["mcp"] = json!({SERVER: {"type": "local", "command": command, "enabled": true}});
            })?;
            files.push(path);
        }
        AgentId::Qwen => {
            let path = sb.project.join(".qwen/settings.json");
            edit_json(&path, |m| {
                let mut entry = stdio.clone();
                entry["trust"] = json!(true);
                m["mcpServers"] = json!({SERVER: entry});
                // MCP tools are deferred behind tool_search/tool_call; `tools.visible` declares
                // this one upfront, so the model is offered the MCP tool itself.
                m["tools"]["visible"] = json!([format!("mcp__{SERVER}__{TOOL}")]);
            })?;
            files.push(path);
        }
        AgentId::OpenClaw => {
            let path = sb.home.join(".openclaw/openclaw.json");
            edit_json(&path, |m| {
                m["mcp"] = json!({"servers": {SERVER: stdio}});
                // Embedded runs defer MCP schemas behind tool_search/tool_call unless Tool
                // Search is off: the model is then offered the MCP tool itself.
                m["tools"]["toolSearch"] = json!(false);
            })?;
            files.push(path);
        }
    }
    Ok(McpStubSetup {
        command,
        args,
        log,
        files,
        env,
        run_env: Vec::new(),
    })
}
