//! Warm mode: Claude Code gets http hooks to the warm server (command hooks on `SessionStart`,
//! which carries `--warm`), fail-closed gates get `onFailure: "block"`, Copilot keeps command
//! hooks and says why; uninstall and diff recognize the http hooks as ours.

use std::path::Path;

use agenthooks_core::{EventKind, Provider};
use agenthooks_install::{
    plan_install, plan_uninstall, preflight, render, FailurePolicy, FindingCode, HookSpec, Manifest, MemFs, Target,
    ToolMatcher, WarmEndpoint,
};
use serde_json::Value;

fn warm(failure: FailurePolicy) -> Manifest {
    Manifest::new(["/bin/guard"], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::names(["Bash"])))
        .with_hook(HookSpec::kind(EventKind::PromptSubmitted))
        .with_hook(HookSpec::kind(EventKind::SessionEnd).non_blocking())
        .with_failure(failure)
        .with_warm(WarmEndpoint::new(4711, "s3cret", "0.1.0-abc-def"))
}

fn claude_settings(m: &Manifest) -> Value {
    let r = render(m, &Target::user(Provider::CLAUDE_CODE, "/h")).unwrap();
    serde_json::from_str(&r.files[0].contents).unwrap()
}

fn handler<'a>(settings: &'a Value, event: &str) -> &'a Value {
    &settings["hooks"][event][0]["hooks"][0]
}

/// The session-start hook stays a command hook that runs `agenthooks run <args…> --warm`.
fn assert_starts_the_server(start: &Value, args: &str) {
    assert_eq!(start["type"], "command");
    let cmd = start["command"].as_str().unwrap();
    assert!(
        cmd.starts_with(&format!("/bin/guard agenthooks run {args}")) && cmd.ends_with(" --warm"),
        "{cmd}"
    );
}

#[test]
fn claude_hooks_become_http_hooks_to_the_warm_server() {
    let s = claude_settings(&warm(FailurePolicy::Closed));
    let pre = handler(&s, "PreToolUse");
    assert_eq!(pre["type"], "http", "{s:#}");
    let url = pre["url"].as_str().unwrap();
    assert!(
        url.starts_with("http://127.0.0.1:4711/v1/hook/claude-code/PreToolUse?timeout="),
        "{url}"
    );
    assert!(url.contains("&build=0.1.0-abc-def&owner="), "{url}");
    assert_eq!(pre["headers"]["Authorization"], "Bearer s3cret");
    assert_eq!(s["hooks"]["PreToolUse"][0]["matcher"], "Bash");
    // Fail-closed gating hooks block when the server is down or times out.
    assert_eq!(pre["onFailure"], "block");
    // The prompt hook stays a command hook with --warm (it restarts a server gone mid-session),
    // still failing closed.
    let prompt = handler(&s, "UserPromptSubmit");
    assert_eq!(
        (prompt["type"].as_str(), prompt["onFailure"].as_str()),
        (Some("command"), Some("block"))
    );
    assert!(prompt["command"].as_str().unwrap().ends_with(" --warm"), "{prompt}");
    // A non-gating hook: http, no onFailure, no async (a command field).
    let end = handler(&s, "SessionEnd");
    assert_eq!(end["type"], "http");
    assert!(end.get("onFailure").is_none() && end.get("async").is_none(), "{end}");
    // SessionStart stays a command hook that starts the server, synchronous.
    let start = handler(&s, "SessionStart");
    assert_starts_the_server(start, "--provider=claude-code --event=SessionStart");
    assert!(start.get("async").is_none());
}

#[test]
fn fail_open_leaves_the_agents_failure_path_open() {
    let s = claude_settings(&warm(FailurePolicy::Open));
    assert_eq!(handler(&s, "PreToolUse")["type"], "http");
    assert!(handler(&s, "PreToolUse").get("onFailure").is_none());
}

#[test]
fn without_warm_nothing_changes() {
    let mut m = warm(FailurePolicy::Closed);
    m.warm = false;
    m.warm_endpoint = None;
    let s = claude_settings(&m);
    assert_eq!(handler(&s, "PreToolUse")["type"], "command");
    assert!(s["hooks"].get("SessionStart").is_none());
}

/// The planned text of `path` in `plan`.
fn planned(plan: &agenthooks_install::Plan, path: &Path) -> Option<String> {
    plan.files.iter().find(|f| f.path == path).and_then(|f| f.after.clone())
}

#[test]
fn project_scope_warm_hooks_go_to_the_local_settings_file_created_private() {
    let m = warm(FailurePolicy::Closed);
    let t = Target::project(Provider::CLAUDE_CODE, "/p", "/h");
    let shared = Path::new("/p/.claude/settings.json");
    let local = Path::new("/p/.claude/settings.local.json");
    let plan = plan_install(&m, &t, &MemFs::new()).unwrap();
    assert_eq!(planned(&plan, shared), None, "nothing in the committed file");
    let text = planned(&plan, local).expect("the local settings file");
    assert!(
        text.contains("\"type\": \"http\"") && text.contains("Bearer s3cret"),
        "{text}"
    );
    let f = plan.files.iter().find(|f| f.path == local).unwrap();
    assert!(f.private, "created 0600");
    // Re-installed without warm mode: ours move back to settings.json, the local file (ours
    // alone) goes.
    let mut plain = m.clone();
    plain.warm = false;
    plain.warm_endpoint = None;
    let back = plan_install(&plain, &t, &MemFs::new().with(local, text)).unwrap();
    assert_eq!(planned(&back, local), None);
    assert!(planned(&back, shared).is_some_and(|t| t.contains("\"command\"")));
    // Without a prompt hook of its own, warm mode adds one that only keeps the server up.
    let no_prompt = Manifest::new(["/bin/guard"], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre))
        .with_warm(WarmEndpoint::new(4711, "s3cret", "0.1.0-abc-def"));
    let plan = plan_install(&no_prompt, &t, &MemFs::new()).unwrap();
    let s: Value = serde_json::from_str(&planned(&plan, local).unwrap()).unwrap();
    let prompt = s["hooks"]["UserPromptSubmit"].as_array().unwrap();
    assert_eq!(prompt.len(), 1, "{prompt:?}");
    let cmd = prompt[0]["hooks"][0]["command"].as_str().unwrap();
    assert!(
        cmd.ends_with("--event=UserPromptSubmit --timeout=5 --warm-only"),
        "{cmd}"
    );
    assert_eq!(
        s["hooks"]["SessionEnd"][0]["hooks"][0]["type"], "http",
        "the added session end"
    );
}

#[cfg(unix)]
#[test]
fn a_private_file_is_created_0600() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("agenthooks-install-private-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let m = warm(FailurePolicy::Closed);
    let t = Target::project(Provider::CLAUDE_CODE, &dir, dir.join("home"));
    let plan = plan_install(&m, &t, &agenthooks_install::RealFs).unwrap();
    plan.apply().unwrap();
    let local = dir.join(".claude/settings.local.json");
    let mode = std::fs::metadata(&local).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{}", local.display());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn uninstall_and_diff_recognize_warm_hooks() {
    let m = warm(FailurePolicy::Closed);
    let t = Target::project(Provider::CLAUDE_CODE, "/p", "/h");
    let path = Path::new("/p/.claude/settings.local.json");
    let theirs = r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/v1/hook/claude-code/PreToolUse?owner=someone-else"}]}]}}
"#;
    let plan = plan_install(&m, &t, &MemFs::new().with(path, theirs)).unwrap();
    let installed = planned(&plan, path).unwrap();
    assert!(installed.contains("owner=someone-else"), "theirs kept: {installed}");
    // Idempotent: re-planning the same install changes nothing.
    let again = plan_install(&m, &t, &MemFs::new().with(path, installed.clone())).unwrap();
    assert!(again.is_noop(), "{:?}", again.files);
    // A new build id or port is an update of our entries, not an addition.
    let moved = m.clone().with_warm(WarmEndpoint::new(4712, "s3cret", "0.1.0-new"));
    let updated = plan_install(&moved, &t, &MemFs::new().with(path, installed.clone())).unwrap();
    let after = planned(&updated, path).unwrap();
    assert!(
        after.contains("127.0.0.1:4712") && !after.contains("127.0.0.1:4711"),
        "{after}"
    );
    // Uninstall takes ours (http and command) and leaves theirs.
    let un = plan_uninstall(&m, &t, &MemFs::new().with(path, installed)).unwrap();
    let left: Value = serde_json::from_str(&planned(&un, path).unwrap()).unwrap();
    let original: Value = serde_json::from_str(theirs).unwrap();
    assert_eq!(left, original);
}

#[test]
fn copilot_keeps_command_hooks_and_preflight_says_why() {
    let m = warm(FailurePolicy::Closed);
    let t = Target::user(Provider::COPILOT, "/h");
    let r = render(&m, &t).unwrap();
    assert!(!r.files[0].contents.contains("\"http\""), "{}", r.files[0].contents);
    let p = preflight(&m, &[t], &|_, _| agenthooks_core::CapSet::ALL);
    let warm: Vec<_> = p.findings().filter(|f| f.code == FindingCode::Warm).collect();
    assert!(
        warm.iter()
            .any(|f| f.native_event.as_deref() == Some("preToolUse")
                && f.message.contains("COPILOT_HOOK_ALLOW_LOCALHOST=1")),
        "{warm:?}"
    );
}

#[test]
fn preflight_names_the_claude_rendering_and_the_token() {
    let m = warm(FailurePolicy::Closed);
    let p = preflight(&m, &[Target::project(Provider::CLAUDE_CODE, "/p", "/h")], &|_, _| {
        agenthooks_core::CapSet::ALL
    });
    let msgs: Vec<&str> = p
        .findings()
        .filter(|f| f.code == FindingCode::Warm)
        .map(|f| f.message.as_str())
        .collect();
    assert!(
        msgs.iter()
            .any(|m| m.contains("http hook to the warm server on 127.0.0.1:4711")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(|m| m.contains("SessionStart command hook with --warm")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("git-ignored settings file created 0600")),
        "{msgs:?}"
    );
    assert!(msgs.iter().any(|m| m.contains("--warm-only")), "{msgs:?}");
    assert!(
        msgs.iter()
            .any(|m| m.starts_with("on a multi-user host") && m.contains("another local user can bind it")),
        "{msgs:?}"
    );
}

#[test]
fn the_endpoint_never_reaches_a_manifest_file() {
    let m = warm(FailurePolicy::Closed);
    let toml = m.to_toml();
    assert!(toml.contains("warm = true") && !toml.contains("s3cret"), "{toml}");
    assert!(!format!("{m:?}").contains("s3cret"));
}

fn copilot_warm(failure: FailurePolicy) -> Manifest {
    warm(failure).with_copilot_allow_localhost(true)
}

fn copilot_hooks(m: &Manifest, t: &Target) -> Value {
    let r = render(m, t).unwrap();
    let v: Value = serde_json::from_str(&r.files[0].contents).unwrap();
    v["hooks"].clone()
}

#[test]
fn copilot_with_the_localhost_opt_in_gets_http_hooks_and_a_starting_session_start() {
    let m = copilot_warm(FailurePolicy::Closed);
    let hooks = copilot_hooks(&m, &Target::user(Provider::COPILOT, "/h"));
    let pre = &hooks["preToolUse"][0];
    assert_eq!(pre["type"], "http", "{hooks:#}");
    let url = pre["url"].as_str().unwrap();
    assert!(
        url.starts_with("http://127.0.0.1:4711/v1/hook/copilot/preToolUse?timeout=")
            && url.contains("&build=0.1.0-abc-def&owner="),
        "{url}"
    );
    assert_eq!(pre["headers"]["Authorization"], "Bearer s3cret");
    assert!(pre["timeoutSec"].is_u64() && pre.get("command").is_none(), "{pre}");
    assert_eq!(pre["matcher"], "Bash");
    // The prompt hook stays a command hook with --warm: it restarts a server gone mid-session.
    let prompt = &hooks["userPromptSubmitted"][0];
    assert_eq!(prompt["type"], "command", "{prompt}");
    assert!(
        prompt["command"]
            .as_str()
            .unwrap()
            .ends_with("--event=userPromptSubmitted --timeout=30 --warm"),
        "{prompt}"
    );
    assert_starts_the_server(&hooks["sessionStart"][0], "--provider=copilot --event=sessionStart");
}

#[test]
fn copilot_warm_preflight_names_the_variable_and_the_fail_closed_gate() {
    let t = Target::user(Provider::COPILOT, "/h");
    let caps = |_: &Provider, _: &str| agenthooks_core::CapSet::ALL;
    let open = preflight(&copilot_warm(FailurePolicy::Open), std::slice::from_ref(&t), &caps);
    let warm: Vec<_> = open.findings().filter(|f| f.code == FindingCode::Warm).collect();
    assert!(
        warm.iter().any(|f| f.native_event.as_deref() == Some("preToolUse")
            && f.message.contains("is an http hook")
            && f.message.contains("COPILOT_HOOK_ALLOW_LOCALHOST=1")),
        "{warm:?}"
    );
    assert!(
        warm.iter().any(|f| f.native_event.as_deref() == Some("preToolUse")
            && f.severity == agenthooks_install::Severity::Degraded
            && f.message.contains("still blocks")),
        "{warm:?}"
    );
    // Fail-closed: the agent's own posture is the policy's; no warning.
    let closed = preflight(&copilot_warm(FailurePolicy::Closed), &[t], &caps);
    assert!(
        !closed
            .findings()
            .any(|f| f.code == FindingCode::Warm && f.message.contains("still blocks")),
        "{:?}",
        closed.findings().collect::<Vec<_>>()
    );
}

#[test]
fn copilot_uninstall_and_diff_recognize_warm_http_hooks() {
    let m = copilot_warm(FailurePolicy::Closed);
    // At project scope Copilot keeps command hooks (its hooks file is committed).
    let project = plan_install(&m, &Target::project(Provider::COPILOT, "/p", "/h"), &MemFs::new()).unwrap();
    let text = planned(&project, Path::new("/p/.github/hooks/guard.json")).unwrap();
    assert!(!text.contains("\"http\"") && !text.contains("s3cret"), "{text}");
    let t = Target::user(Provider::COPILOT, "/h");
    let path = Path::new("/h/.copilot/hooks/guard.json");
    let fs = MemFs::new();
    let plan = plan_install(&m, &t, &fs).unwrap();
    let installed = plan.files[0].after.clone().unwrap();
    assert!(installed.contains("\"type\": \"http\""), "{installed}");
    let again = plan_install(&m, &t, &MemFs::new().with(path, installed.clone())).unwrap();
    assert!(again.is_noop(), "{:?}", again.files);
    // Back to command hooks (the opt-in withdrawn): an update of our entries.
    let plain = m.clone().with_copilot_allow_localhost(false);
    let back = plan_install(&plain, &t, &MemFs::new().with(path, installed.clone())).unwrap();
    let after = back.files[0].after.clone().unwrap();
    assert!(
        !after.contains("\"http\"") && after.contains("--event=preToolUse"),
        "{after}"
    );
    // Uninstall takes every hook of ours: the file was ours alone, it goes.
    let un = plan_uninstall(&m, &t, &MemFs::new().with(path, installed)).unwrap();
    assert_eq!(un.files[0].after, None, "{:?}", un.files[0].after);
}

#[test]
fn the_copilot_opt_in_round_trips_through_a_manifest_file() {
    let m = copilot_warm(FailurePolicy::Closed);
    let toml = m.to_toml();
    assert!(toml.contains("copilot_allow_localhost = true"), "{toml}");
    let back = Manifest::from_toml(&toml).unwrap();
    assert!(back.warm && back.copilot_allow_localhost);
    assert!(!warm(FailurePolicy::Closed)
        .to_toml()
        .contains("copilot_allow_localhost"));
}

#[test]
fn doctor_lists_warm_http_hooks_as_ours_and_notices_a_moved_endpoint() {
    use agenthooks_install::{doctor, install, DoctorOptions};
    let dir = crate::common::temp_dir("warm-doctor");
    let home = dir.join("home");
    let m = copilot_warm(FailurePolicy::Closed);
    let targets = [
        Target::project(Provider::CLAUDE_CODE, &dir, &home),
        Target::user(Provider::COPILOT, &home),
    ];
    for t in &targets {
        install(&m, t).unwrap();
    }
    let opts = DoctorOptions::default().with_ping(false);
    let r = doctor(&m, &targets, &opts);
    for (t, pre) in r.targets.iter().zip(["PreToolUse", "preToolUse"]) {
        assert!(t.up_to_date, "{:?}: {:?}", t.provider, t.findings);
        let events: Vec<&str> = t
            .installed
            .iter()
            .flat_map(|f| f.entries.iter())
            .filter_map(|e| e.get("event").and_then(Value::as_str))
            .collect();
        assert!(events.contains(&pre), "{:?}: {events:?}", t.provider);
    }
    // The server moved (a new port): both configs are out of date, and say so.
    let moved = m.clone().with_warm(WarmEndpoint::new(4799, "s3cret", "0.1.0-abc-def"));
    let r = doctor(&moved, &targets, &opts);
    assert!(r.targets.iter().all(|t| !t.up_to_date), "{:?}", r.targets);
    let _ = std::fs::remove_dir_all(dir);
}

/// The library keeps warm mode's lifecycle as the CLI does: an install with an endpoint made
/// in a warm directory records its build and the target there; an install without warm mode
/// and an uninstall take the target off the list, and the last one out removes the directory
/// (nothing listens on its port, so there is no server to stop).
#[cfg(feature = "warm")]
#[test]
fn install_and_uninstall_keep_the_warm_directory_list() {
    use agenthooks_install::{install, uninstall};
    let root = crate::common::temp_dir("warm-lifecycle");
    let (home, warm_dir) = (root.join("home"), root.join("warm"));
    let port = std::net::TcpListener::bind(("127.0.0.1", 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let m = warm(FailurePolicy::Open).with_warm(WarmEndpoint::new(port, "bearer", "0.1.0-1-2").with_dir(&warm_dir));
    let installs = || -> Vec<String> {
        std::fs::read(warm_dir.join("installs.json"))
            .map_or_else(|_| Vec::new(), |b| serde_json::from_slice(&b).unwrap())
    };
    let claude = Target::project(Provider::CLAUDE_CODE, root.join("repo"), &home);
    let gemini = Target::user(Provider::GEMINI, &home);
    install(&m, &claude).unwrap();
    let config: Value = serde_json::from_slice(&std::fs::read(warm_dir.join("config.json")).unwrap()).unwrap();
    assert_eq!(
        (config["port"].as_u64(), config["build"].as_str()),
        (Some(u64::from(port)), Some("0.1.0-1-2"))
    );
    install(&m, &gemini).unwrap();
    install(&m, &gemini).unwrap();
    let listed = installs();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert!(listed[0].starts_with("claude-code (project) home ") && listed[1].starts_with("gemini (user) home "));
    // Re-installed without warm mode: Gemini leaves the list, the directory stays for Claude.
    let mut plain = m.clone();
    plain.warm = false;
    install(&plain, &gemini).unwrap();
    assert_eq!(installs().len(), 1);
    uninstall(&m, &claude).unwrap();
    assert!(!warm_dir.exists(), "the last warm install out removes the directory");
    let _ = std::fs::remove_dir_all(root);
}
