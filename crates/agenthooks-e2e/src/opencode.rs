//! OpenCode: config, the shim plugin, and a driver over OpenCode's own HTTP server.
//!
//! OpenCode runs hooks in-process (plugins), so our hooks are the generated shim plugin in
//! `.opencode/plugin/agenthooks.js`, which spawns the test hook in `agenthooks serve` mode. The
//! daemon answers permission asks and continues stopped sessions over OpenCode's HTTP API, which
//! only listens under `opencode serve` (under plain `opencode run` the plugin's `serverUrl` is a
//! placeholder and permission asks are auto-rejected by the CLI, quirk #702). So each run starts
//! `opencode serve` on a free loopback port in the project and drives one turn through the API
//! (`POST /session`, `POST /session/{id}/message`), then waits for the hooks to go quiet (a
//! continuation is a follow-up prompt sent by the daemon after `session.idle`).
//!
//! Offline recipe (`shared/e2e/README.md`): the `fake` provider through the built-in
//! `@ai-sdk/openai-compatible`, no models.dev fetch, no autoupdate, no LSP downloads, and a
//! stubbed `node_modules`/`package.json`/`package-lock.json` in every config directory so
//! OpenCode does not spend ~70 s retrying `npm install @opencode-ai/plugin` offline.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks::opencode::shim::ShimFail;
use agenthooks::runtime::http::{self, BaseUrl};
use agenthooks::Provider;
use agenthooks_install::{FailurePolicy, Manifest, Plan, Target};
use serde_json::{json, Value};

use crate::run::{kill_group, ProcOutput};
use crate::sandbox::{Sandbox, MODEL, PROMPT};

/// How one OpenCode run is configured.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Options {
    /// `permission.bash` in `opencode.json` (`allow` by default; `ask` for the permission run).
    pub bash_permission: Option<&'static str>,
    /// The shim's fail policy for every hook.
    pub fail: ShimFail,
}

impl Options {
    /// Bash asks for permission.
    #[must_use]
    pub fn asking(mut self) -> Self {
        self.bash_permission = Some("ask");
        self
    }

    /// Fail-closed shim.
    #[must_use]
    pub fn fail_closed(mut self) -> Self {
        self.fail = ShimFail::Closed;
        self
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(|e| format!("creating {}: {e}", p.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// The plugin-deps stub: OpenCode finds `@opencode-ai/plugin` "installed" and skips npm.
fn stub_plugin_deps(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir.join("node_modules")).map_err(|e| format!("creating node_modules: {e}"))?;
    write(&dir.join("package.json"), "{\"dependencies\":{}}\n")?;
    write(
        &dir.join("package-lock.json"),
        "{\"name\":\"opencode-config\",\"lockfileVersion\":3,\"requires\":true,\"packages\":{\"\":{\"dependencies\":{}}}}\n",
    )
}

/// Writes `opencode.json` and the plugin-deps stubs, and installs our shim with
/// agenthooks-install (project scope).
pub fn prepare(m: &Manifest, sb: &Sandbox, model_url: &str, o: &Options) -> Result<Option<Plan>, String> {
    let config = json!({
        "$schema": "https://opencode.ai/config.json",
        "provider": {"fake": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "Fake",
            "options": {"baseURL": format!("{model_url}/v1"), "apiKey": "fake-key"},
            "models": {MODEL: {"name": "Fake model", "tool_call": true}},
        }},
        "model": format!("fake/{MODEL}"),
        "small_model": format!("fake/{MODEL}"),
        "enabled_providers": ["fake"],
        "autoupdate": false,
        "share": "disabled",
        "permission": {"bash": o.bash_permission.unwrap_or("allow")},
    });
    write(
        &sb.project.join("opencode.json"),
        &(serde_json::to_string_pretty(&config).unwrap_or_default() + "\n"),
    )?;
    stub_plugin_deps(&sb.project.join(".opencode"))?;
    stub_plugin_deps(&sb.home.join(".config/opencode"))?;
    let mut m = m.clone();
    if o.fail == ShimFail::Closed {
        m.failure = FailurePolicy::Closed;
    }
    let target = Target::project(Provider::OPENCODE, &sb.project, &sb.home).with_agent_version("1.18.33");
    let plan = agenthooks_install::install(&m, &target).map_err(|e| format!("agenthooks-install (opencode): {e}"))?;
    Ok(Some(plan))
}

/// OpenCode's offline env (on top of the sandbox's base env).
pub fn env() -> Vec<(String, String)> {
    [
        ("OPENCODE_DISABLE_MODELS_FETCH", "1"),
        ("OPENCODE_DISABLE_AUTOUPDATE", "1"),
        ("OPENCODE_DISABLE_LSP_DOWNLOAD", "1"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect()
}

fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("binding a port: {e}"))?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

fn call(base: &BaseUrl, method: &str, path: &str, body: Option<&Value>, timeout: Duration) -> Result<Value, String> {
    let r = http::request(base, method, path, body, timeout).map_err(|e| format!("{method} {path}: {e}"))?;
    if !r.is_success() {
        return Err(format!("{method} {path}: HTTP {}: {}", r.status, r.body));
    }
    Ok(serde_json::from_str(&r.body).unwrap_or(Value::String(r.body)))
}

/// Runs one turn: `opencode serve` in the project, a session, the prompt, then waits until the
/// hook log is quiet (continuations included) and stops the server's process group.
pub fn drive(
    program: &Path,
    env: &[(String, String)],
    project: &Path,
    hook_log: &Path,
    timeout: Duration,
) -> std::io::Result<ProcOutput> {
    use std::os::unix::process::CommandExt;
    let started = Instant::now();
    let port = free_port().map_err(std::io::Error::other)?;
    let logs = project.parent().unwrap_or(project).join("opencode-serve.log");
    let log_file = std::fs::File::create(&logs)?;
    let mut child = Command::new(program)
        .args(["serve", "--port", &port.to_string(), "--hostname", "127.0.0.1"])
        .env_clear()
        .envs(env.iter().cloned())
        .current_dir(project)
        .stdin(Stdio::null())
        .stdout(log_file.try_clone()?)
        .stderr(log_file)
        .process_group(0)
        .spawn()?;
    let pgid = child.id();
    let base = BaseUrl::parse(&format!("http://127.0.0.1:{port}")).map_err(std::io::Error::other)?;
    let deadline = started + timeout;
    let outcome = (|| -> Result<String, String> {
        loop {
            if call(&base, "GET", "/session", None, Duration::from_secs(2)).is_ok() {
                break;
            }
            if Instant::now() > deadline || child.try_wait().ok().flatten().is_some() {
                return Err("opencode serve did not come up".into());
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        let up = started.elapsed();
        let session = call(&base, "POST", "/session", Some(&json!({})), Duration::from_secs(30))?;
        let id = session
            .get("id")
            .and_then(Value::as_str)
            .ok_or("no session id")?
            .to_owned();
        let left = deadline.saturating_duration_since(Instant::now());
        let body = json!({"parts": [{"type": "text", "text": PROMPT}]});
        let answer = call(&base, "POST", &format!("/session/{id}/message"), Some(&body), left)?;
        let answered = started.elapsed();
        // Quiet: the hook log has not grown for 3 s (a continuation shows up as more hook calls).
        let size = || std::fs::metadata(hook_log).map_or(0, |m| m.len());
        let mut last = (size(), Instant::now());
        while Instant::now() < deadline && last.1.elapsed() < Duration::from_secs(3) {
            std::thread::sleep(Duration::from_millis(250));
            let now = size();
            if now != last.0 {
                last = (now, Instant::now());
            }
        }
        Ok(format!(
            "server up {:.1}s, turn answered {:.1}s, quiet {:.1}s: {answer}",
            up.as_secs_f64(),
            answered.as_secs_f64(),
            started.elapsed().as_secs_f64()
        ))
    })();
    let timed_out = Instant::now() > deadline;
    kill_group(pgid);
    let _ = child.kill();
    let status = child.wait()?;
    let stderr = std::fs::read_to_string(&logs).unwrap_or_default();
    let (stdout, ok) = match outcome {
        Ok(s) => (s, true),
        Err(e) => (e, false),
    };
    Ok(ProcOutput {
        code: Some(if ok { 0 } else { status.code().unwrap_or(1).max(1) }),
        success: ok,
        timed_out,
        stdout,
        stderr,
        elapsed: started.elapsed(),
    })
}
