//! The `agenthooks` binary's install commands: install, uninstall, diff, render, doctor,
//! preflight, run in temporary project and home directories.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{json, Value};

/// The binary with an empty environment (no `$HOME`: tests pass `--home`), run in `cwd`.
fn bin(cwd: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_agenthooks"));
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .current_dir(cwd);
    c
}

fn run(c: &mut Command) -> Output {
    c.stdin(Stdio::null()).output().expect("agenthooks runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh directory holding `project/` and `home/`, removed on drop.
struct Sandbox {
    dir: PathBuf,
}

impl Sandbox {
    fn new(name: &str) -> Self {
        static N: AtomicU64 = AtomicU64::new(0);
        // A space in the path: paths reach the agent configs and the output verbatim.
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "cli install it/{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("project")).unwrap();
        std::fs::create_dir_all(dir.join("home")).unwrap();
        Self { dir }
    }

    fn project(&self) -> PathBuf {
        self.dir.join("project")
    }

    fn home(&self) -> PathBuf {
        self.dir.join("home")
    }

    /// `agenthooks <args…> --home <home>`, run in the project directory.
    fn agenthooks(&self, args: &[&str]) -> Output {
        let mut c = bin(&self.project());
        c.args(args).arg("--home").arg(self.home());
        run(&mut c)
    }

    /// [`Self::agenthooks`], asserting exit 0 (stderr in the message).
    fn ok(&self, args: &[&str]) -> Output {
        let o = self.agenthooks(args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        o
    }

    /// The project's `.claude/settings.json`, written with `text`.
    fn write_claude_settings(&self, text: &str) -> PathBuf {
        let settings = self.project().join(".claude/settings.json");
        std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
        std::fs::write(&settings, text).unwrap();
        settings
    }

    /// A manifest file: a tool.pre gate on Bash (10 s) and a session.end telemetry hook; its path.
    fn manifest(&self, ext: &str) -> String {
        let path = self.dir.join(format!("guard.{ext}"));
        let text = match ext {
            "toml" => {
                r#"command = ["/opt/my guard/guard"]
[identity]
name = "guard"
[[hooks]]
kind = "tool.pre"
tools = { names = ["Bash"] }
timeout = 10
[[hooks]]
kind = "session.end"
blocking = false
"#
            }
            _ => {
                r#"{"command": ["/opt/my guard/guard"], "identity": {"name": "guard"},
 "hooks": [{"kind": "tool.pre", "tools": {"names": ["Bash"]}, "timeout": 10},
           {"kind": "session.end", "blocking": false}]}"#
            }
        };
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

const PRE_TOOL_COMMAND: &str =
    "'/opt/my guard/guard' agenthooks run --provider=claude-code --event=PreToolUse --timeout=10";

/// Settings someone else wrote: a foreign key, a foreign hook, odd formatting.
const FOREIGN: &str = "{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"/usr/bin/lint\"}]}]}\n}\n";

#[test]
fn install_twice_diff_and_uninstall_keep_foreign_content() {
    let sb = Sandbox::new("claude");
    let m: &str = &sb.manifest("toml");
    let settings = sb.write_claude_settings(FOREIGN);

    // --root defaults to the current directory (the project).
    let o = sb.ok(&[
        "install",
        "--provider",
        "claude-code",
        "--scope",
        "project",
        "--manifest",
        m,
    ]);
    assert_eq!(
        stdout(&o),
        format!(
            "claude-code (project {}): installed\n  updated {}\n",
            sb.project().display(),
            settings.display()
        )
    );
    // Findings are notes on stderr (Claude's workspace trust dialog).
    assert!(
        stderr(&o).contains("note: [info] claude-code project-trust"),
        "{}",
        stderr(&o)
    );
    let installed = std::fs::read_to_string(&settings).unwrap();
    let v: Value = serde_json::from_str(&installed).unwrap();
    assert_eq!(v["model"], "opus");
    assert_eq!(v["permissions"], json!({"allow": ["Bash(ls)"]}));
    let pre = v["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(
        pre[0],
        json!({"matcher": "Edit", "hooks": [{"type": "command", "command": "/usr/bin/lint"}]})
    );
    assert_eq!(
        pre[1],
        json!({"matcher": "Bash", "hooks": [{"type": "command", "command": PRE_TOOL_COMMAND, "timeout": 10}]})
    );
    assert_eq!(v["hooks"]["SessionEnd"][0]["hooks"][0]["async"], true);
    assert!(installed.starts_with("{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},"));

    // A second install changes nothing, not one byte.
    let o = sb.ok(&["install", "--provider", "claude-code", "--manifest", m]);
    assert_eq!(
        stdout(&o),
        format!(
            "claude-code (project {}): up to date; nothing changed\n",
            sb.project().display()
        )
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), installed);

    // The same manifest as JSON is the same install.
    let json_manifest: &str = &sb.manifest("json");
    let o = sb.ok(&["diff", "--provider", "claude-code", "--manifest", json_manifest]);
    assert_eq!(
        stdout(&o),
        format!("claude-code (project {}): up to date\n", sb.project().display())
    );

    let o = sb.ok(&["uninstall", "--provider", "claude-code", "--manifest", m]);
    assert_eq!(
        stdout(&o),
        format!(
            "claude-code (project {}): removed our hooks\n  updated {}\n",
            sb.project().display(),
            settings.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), FOREIGN);

    let o = sb.agenthooks(&["uninstall", "--provider", "claude-code", "--manifest", m]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).ends_with("no hooks of ours; nothing changed\n"),
        "{}",
        stdout(&o)
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), FOREIGN);
}

#[test]
fn diff_prints_what_install_would_change() {
    let sb = Sandbox::new("diff");
    let m: &str = &sb.manifest("json");
    let settings = sb.project().join(".claude/settings.json");
    let o = sb.ok(&["diff", "--provider", "claude-code", "--manifest", m]);
    let text = stdout(&o);
    assert!(
        text.starts_with(&format!("--- /dev/null\n+++ b{}\n@@ -0,0 +1,", settings.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("+            \"command\": \"{PRE_TOOL_COMMAND}\",\n")),
        "{text}"
    );
    assert!(!settings.exists(), "diff writes nothing");
}

#[test]
fn render_dry_run_prints_files_and_writes_nothing() {
    let sb = Sandbox::new("render");
    let m: &str = &sb.manifest("toml");
    let o = sb.ok(&["render", "--dry-run", "--provider", "claude-code", "--manifest", m]);
    let text = stdout(&o);
    let header = format!("==> {} <==\n", sb.project().join(".claude/settings.json").display());
    let body = text.strip_prefix(&header).expect("a path header first");
    let v: Value = serde_json::from_str(body).unwrap();
    assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["command"], PRE_TOOL_COMMAND);

    // Codex from flags: hooks.json plus the trust entries in the user's config.toml.
    let o = sb.ok(&[
        "render",
        "--dry-run",
        "--provider",
        "codex",
        "--command",
        "/opt/guard",
        "--command=--cfg",
        "--kind",
        "tool.pre",
    ]);
    let text = stdout(&o);
    assert!(text.starts_with(&format!(
        "==> {} <==\n",
        sb.project().join(".codex/hooks.json").display()
    )));
    assert!(text.contains(&format!(
        "\n\n==> {} <==\n[hooks.state.",
        sb.home().join(".codex/config.toml").display()
    )));
    assert!(text
        .contains(r#""command": "/opt/guard --cfg agenthooks run --provider=codex --event=PreToolUse --timeout=600""#));
    assert!(stderr(&o).contains("codex project-trust"), "{}", stderr(&o));

    for dir in [sb.project(), sb.home()] {
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            0,
            "{} stays empty",
            dir.display()
        );
    }
}

#[test]
fn preflight_reports_what_each_agent_drops_or_degrades() {
    let sb = Sandbox::new("preflight");
    let m: &str = &sb.manifest("toml");
    let o = sb.ok(&[
        "preflight",
        "--manifest",
        m,
        "--provider",
        "codex",
        "--provider",
        "claude-code",
    ]);
    let text = stdout(&o);
    assert!(
        text.starts_with(&format!("codex (project {})\n", sb.project().display())),
        "{text}"
    );
    assert!(
        text.contains("[degraded] codex capability-missing hook#0: codex does not honour ask, allow on PreToolUse"),
        "{text}"
    );
    assert!(
        text.contains("  hook #0 tool.pre → PreToolUse matching ^Bash$, blocking, timeout 10s\n"),
        "{text}"
    );
    assert!(text.contains(&format!("claude-code (project {})\n", sb.project().display())));

    let o = sb.ok(&["preflight", "--manifest", m, "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let targets = v["targets"].as_array().unwrap();
    let providers: Vec<&str> = targets.iter().map(|t| t["provider"].as_str().unwrap()).collect();
    assert_eq!(
        providers,
        [
            "claude-code",
            "cursor",
            "codex",
            "gemini",
            "copilot",
            "kimi",
            "opencode",
            "openclaw",
            "qwen-code",
            "droid"
        ]
    );
    let codex = &targets[2];
    assert_eq!(codex["scope"], "project");
    assert_eq!(codex["hooks"][0]["missing"], json!(["ask", "allow"]));
    assert_eq!(targets[0]["hooks"][0]["missing"], json!([]));
    // Kimi has only user hooks.
    assert_eq!(targets[5]["scope"], "user");
    // Nothing was written.
    assert_eq!(std::fs::read_dir(sb.project()).unwrap().count(), 0);
}

/// The row of a doctor `--json` report for the provider's target in `scope`.
fn target<'a>(report: &'a Value, provider: &str, scope: &str) -> &'a Value {
    report["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["provider"] == provider && t["scope"] == scope)
        .unwrap()
}

/// A consumer binary that answers `agenthooks ping`.
fn pinging_binary(dir: &Path) -> PathBuf {
    let p = dir.join("guard bin");
    std::fs::write(&p, "#!/bin/sh\necho '{\"agenthooks\":\"pong\"}'\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    p
}

#[test]
fn doctor_reports_every_target() {
    let sb = Sandbox::new("doctor");
    let guard = pinging_binary(&sb.dir);
    let guard = guard.to_str().unwrap();
    sb.ok(&[
        "install",
        "--provider",
        "claude-code",
        "--command",
        guard,
        "--kind",
        "tool.pre",
    ]);
    let settings = sb.project().join(".claude/settings.json");

    let o = sb.agenthooks(&["doctor", "--command", guard, "--kind", "tool.pre"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    assert!(
        text.contains(&format!(
            "claude-code (project {})\n  installed in {}: PreToolUse\n  up to date\n",
            sb.project().display(),
            settings.display()
        )),
        "{text}"
    );
    assert!(text.contains("codex (user)\n  not installed\n"), "{text}");
    assert!(text.contains("kimi (user)\n"), "{text}");
    assert!(
        text.contains(&format!("command `{guard}`: resolves to {guard}, answers ping\n")),
        "{text}"
    );
    assert!(text.ends_with("no problems\n"), "{text}");

    // A manifest whose command does not resolve: an error-severity problem, exit 1.
    let m: &str = &sb.manifest("toml");
    let o = sb.agenthooks(&["doctor", "--manifest", m]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("command `/opt/my guard/guard`: does not resolve\n"),
        "{text}"
    );
    assert!(text.contains("[error] agenthooks command:"), "{text}");

    // JSON report.
    let o = sb.agenthooks(&["doctor", "--command", guard, "--kind", "tool.pre", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["command"]["pong"]["agenthooks"], "pong");
    let claude = target(&v, "claude-code", "project");
    assert_eq!(claude["up_to_date"], true);
    assert_eq!(claude["installed"][0]["path"], settings.to_str().unwrap());

    // Without a manifest it checks that files parse; a broken one is a problem.
    let o = sb.agenthooks(&["doctor"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("claude-code (project"));
    let gemini = sb.project().join(".gemini/settings.json");
    std::fs::create_dir_all(gemini.parent().unwrap()).unwrap();
    std::fs::write(&gemini, "{ \"hooks\": [").unwrap();
    let o = sb.agenthooks(&["doctor"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!("[error] gemini parse-error: {}", gemini.display())),
        "{text}"
    );
}

#[test]
fn failures_and_usage_errors() {
    let sb = Sandbox::new("errors");
    let m: &str = &sb.manifest("toml");

    // A malformed existing config: exit 1, the file named, nothing written.
    let settings = sb.write_claude_settings("{ broken");
    let o = sb.agenthooks(&["install", "--provider", "claude-code", "--manifest", m]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with(&format!("agenthooks: {}: malformed JSON", settings.display())),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{ broken");

    // Usage errors: exit 2.
    let bad = sb.dir.join("bad.json");
    std::fs::write(&bad, r#"{"command": [], "identity": {"name": "x"}}"#).unwrap();
    for (args, message) in [
        (
            vec!["install", "--provider", "nope", "--manifest", m],
            "no install target for provider `nope`".to_owned(),
        ),
        (
            vec!["install", "--provider", "kimi", "--manifest", m],
            "kimi has no project hooks".to_owned(),
        ),
        (
            vec!["install", "--provider", "claude-code"],
            "one of --manifest FILE or --command WORD… is required".to_owned(),
        ),
        (
            vec![
                "install",
                "--provider",
                "claude-code",
                "--manifest",
                bad.to_str().unwrap(),
            ],
            format!("{}: invalid manifest: `command` is empty", bad.display()),
        ),
        (
            vec!["render", "--provider", "claude-code", "--manifest", "missing.toml"],
            "missing.toml: ".to_owned(),
        ),
        (
            vec![
                "diff",
                "--provider",
                "claude-code",
                "--scope",
                "galaxy",
                "--command",
                "x",
            ],
            "galaxy".to_owned(),
        ),
    ] {
        let o = sb.agenthooks(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(&message), "{args:?}: {}", stderr(&o));
    }

    // No --home and no $HOME.
    let o = run(bin(&sb.project()).args(["diff", "--provider", "claude-code", "--command", "x"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--home DIR is required"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{ broken");
}

/// `--command NAME` is resolved on `PATH` at install time (the hooks run from the project
/// directory) or refused; uninstall removes the directories install created, so `--all`
/// detects no agent afterwards.
#[cfg(unix)]
#[test]
fn a_bare_command_is_resolved_and_uninstall_leaves_no_agent_directory() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new("bare-command");
    let bindir = sb.dir.join("bin");
    std::fs::create_dir_all(&bindir).unwrap();
    let program = bindir.join("my-guard");
    std::fs::write(&program, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::join_paths(
        std::iter::once(bindir.clone()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let home = sb.home();
    let with_path = |args: &[&str]| {
        let mut c = bin(&sb.project());
        c.env("PATH", &path).args(args).arg("--home").arg(&home);
        run(&mut c)
    };
    let codex = [
        "--provider",
        "codex",
        "--scope",
        "user",
        "--command",
        "my-guard",
        "--kind",
        "tool.pre",
    ];
    let o = with_path(&[&["install"][..], &codex[..]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let hooks = std::fs::read_to_string(home.join(".codex/hooks.json")).unwrap();
    let v: Value = serde_json::from_str(&hooks).unwrap();
    let command = v["hooks"]["PreToolUse"][0]["hooks"][0]["command"].as_str().unwrap();
    assert!(command.contains(program.to_str().unwrap()), "{command}");

    // Doctor resolves the name the same way, so it finds the hooks.
    let o = with_path(&[
        "doctor",
        "--command",
        "my-guard",
        "--kind",
        "tool.pre",
        "--no-ping",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let codex_user = target(&report, "codex", "user");
    assert_eq!(codex_user["up_to_date"], true, "{codex_user}");
    assert!(!codex_user["installed"].as_array().unwrap().is_empty(), "{codex_user}");

    // Not on PATH: refused with a message, nothing written.
    let o = sb.agenthooks(&[
        "install",
        "--provider",
        "claude-code",
        "--command",
        "no-such-guard-program",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`no-such-guard-program` is not a path and was not found on PATH"),
        "{}",
        stderr(&o)
    );
    assert!(!sb.project().join(".claude").exists());

    // Uninstall removes ~/.codex, which install created: `--all` finds no agent afterwards.
    let o = with_path(&[&["uninstall"][..], &codex[..]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!home.join(".codex").exists());
    let o = sb.agenthooks(&["install", "--all", "--command", "/opt/guard"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--all: no agent detected"), "{}", stderr(&o));
}

/// Eight `agenthooks install` processes at once into one project's Codex config (each its own
/// command): every hook in `hooks.json` ends with its trust entry in `config.toml` (Codex
/// silently skips a hook without one), and each install is up to date afterwards.
#[test]
fn concurrent_codex_installs_are_all_or_nothing() {
    use agenthooks::install::codex_trust::handler_entries;
    const N: usize = 8;
    let sb = Sandbox::new("concurrent-codex");
    let args = |i: usize, verb: &str| -> Vec<String> {
        [
            verb,
            "--provider",
            "codex",
            "--kind",
            "tool.pre",
            "--kind",
            "agent.stop",
            "--command",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .chain([format!("/opt/guard-{i}")])
        .collect()
    };
    let children: Vec<_> = (0..N)
        .map(|i| {
            let mut c = bin(&sb.project());
            c.args(args(i, "install"))
                .arg("--home")
                .arg(sb.home())
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            c.spawn().expect("agenthooks starts")
        })
        .collect();
    for child in children {
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let hooks_path = sb.project().join(".codex/hooks.json");
    let source = std::fs::canonicalize(&hooks_path).unwrap().display().to_string();
    let hooks: Value = serde_json::from_str(&std::fs::read_to_string(&hooks_path).unwrap()).unwrap();
    let config = std::fs::read_to_string(sb.home().join(".codex/config.toml")).unwrap();
    let entries = handler_entries(&source, &hooks);
    for (key, hash) in &entries {
        let at = config
            .find(&format!("\"{key}\""))
            .unwrap_or_else(|| panic!("no trust entry {key}"));
        let entry = config[at..].split("\n\n").next().unwrap();
        assert!(entry.contains(hash), "{key}: {entry}");
    }
    assert_eq!(entries.len(), 2 * N);
    assert_eq!(config.matches("trusted_hash").count(), 2 * N, "{config}");
    for i in 0..N {
        let o = sb.ok(&args(i, "diff").iter().map(String::as_str).collect::<Vec<_>>());
        assert!(stdout(&o).contains("up to date"), "{}", stdout(&o));
    }
}
