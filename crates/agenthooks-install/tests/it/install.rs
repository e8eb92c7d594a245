//! Install, diff and uninstall scenarios: comments, mixed groups, malformed files (nothing
//! written), atomic writes keeping permissions, symlinks, conflicts, refusals.

use std::path::Path;
use std::time::Duration;

use agenthooks_core::{EventKind, Provider};
use agenthooks_install::{
    diff, install, plan_install, plan_uninstall, render, uninstall, ChangeStatus, FileFormat, FindingCode, HookSpec,
    InstallError, Manifest, MatcherFallback, McpGlob, MemFs, Plan, Scope, Target, ToolMatcher,
};

use crate::common::temp_dir;

fn m() -> Manifest {
    Manifest::new(["/bin/guard"], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::names(["run_shell_command"])))
        .with_hook(HookSpec::kind(EventKind::SessionEnd).non_blocking())
}

#[test]
fn gemini_comments_survive_and_uninstall_restores_bytes() {
    let original = r#"// Gemini settings (JSONC)
{
  /* theme */ "ui": {"theme": "dark"}, // trailing
  "hooks": {
    // guard the shell
    "BeforeTool": [
      {"matcher": "write_file", "hooks": [{"type": "command", "command": "theirs", "name": "t"}]} // theirs
    ]
  },
  "hooksConfig": {"enabled": true}
}
"#;
    let path = Path::new("/p/.gemini/settings.json");
    let t = Target::project(Provider::GEMINI, "/p", "/h");
    let fs = MemFs::new().with(path, original);
    let plan = plan_install(&m(), &t, &fs).unwrap();
    let installed = plan.files[0].after.clone().unwrap();
    for line in original.lines() {
        let kept =
            installed.lines().any(|l| l == line) || (line.ends_with("// theirs") && installed.contains("// theirs"));
        assert!(kept, "lost `{line}`:\n{installed}");
    }
    assert!(installed.contains("\"name\": \"guard-BeforeTool\""));
    assert!(installed.contains("\"timeout\": 60000"));
    let un = plan_uninstall(&m(), &t, &MemFs::new().with(path, installed.clone())).unwrap();
    assert_eq!(un.files[0].after.as_deref(), Some(original));
    // Idempotent.
    let again = plan_install(&m(), &t, &MemFs::new().with(path, installed)).unwrap();
    assert!(again.is_noop());
}

/// The uninstall and install plans of [`m`] for a project whose Claude settings hold `settings`.
fn plans_on_claude_settings(settings: &str) -> (Plan, Plan) {
    let t = Target::project(Provider::CLAUDE_CODE, "/p", "/h");
    let fs = MemFs::new().with(Path::new("/p/.claude/settings.json"), settings);
    (
        plan_uninstall(&m(), &t, &fs).unwrap(),
        plan_install(&m(), &t, &fs).unwrap(),
    )
}

#[test]
fn our_handler_inside_a_foreign_group_is_removed_alone() {
    let ours = "/bin/guard agenthooks run --provider=claude-code --event=PreToolUse --timeout=600";
    let (un, _) = plans_on_claude_settings(&format!(
        "{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {{\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {{ \"type\": \"command\", \"command\": \"{ours}\" }},\n          {{ \"type\": \"command\", \"command\": \"theirs\" }}\n        ]\n      }}\n    ]\n  }}\n}}\n"
    ));
    assert_eq!(
        un.files[0].after.as_deref(),
        Some("{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          { \"type\": \"command\", \"command\": \"theirs\" }\n        ]\n      }\n    ]\n  }\n}\n")
    );
    assert_eq!(un.files[0].ours_before.len(), 1);
}

#[test]
fn another_binarys_hooks_are_not_ours() {
    let theirs = "/bin/guard2 agenthooks run --provider=claude-code --event=PreToolUse --timeout=600";
    let (un, plan) = plans_on_claude_settings(&format!(
        "{{\"hooks\": {{\"PreToolUse\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"{theirs}\"}}]}}]}}}}"
    ));
    assert!(un.is_noop());
    let after = plan.files[0].after.clone().unwrap();
    assert!(after.contains(theirs) && after.contains("/bin/guard agenthooks"));
}

#[test]
fn malformed_files_are_clear_errors_and_nothing_is_written() {
    let dir = temp_dir("malformed");
    let settings = dir.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{\n  \"model\": \"x\",\n}\n").unwrap();
    let t = Target::project(Provider::CLAUDE_CODE, &dir, dir.join("home"));
    let e = install(&m(), &t).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, InstallError::Malformed { .. }), "{msg}");
    assert!(
        msg.contains("settings.json") && msg.contains("line 3 column 1") && msg.contains("trailing comma"),
        "{msg}"
    );
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\n  \"model\": \"x\",\n}\n"
    );
    assert_eq!(
        std::fs::read_dir(settings.parent().unwrap()).unwrap().count(),
        1,
        "no temp files left"
    );

    // Wrong shape where we must edit.
    std::fs::write(&settings, "{\"hooks\": []}").unwrap();
    assert!(install(&m(), &t)
        .unwrap_err()
        .to_string()
        .contains("`hooks` must be an object"));

    // Codex: a malformed user config.toml stops the hooks.json write too.
    let home = dir.join("home");
    std::fs::create_dir_all(home.join(".codex")).unwrap();
    std::fs::write(home.join(".codex/config.toml"), "model = \n").unwrap();
    let t = Target::project(Provider::CODEX, &dir, &home);
    let e = install(&m(), &t).unwrap_err();
    assert!(e.to_string().contains("config.toml: malformed TOML"), "{e}");
    assert!(!dir.join(".codex/hooks.json").exists());
    // the install records went with our entries, and their directories
    assert!(!home.join(".agenthooks").exists());
}

#[cfg(unix)]
#[test]
fn writes_keep_permissions_follow_symlinks_and_round_trip() {
    use std::os::unix::fs::PermissionsExt;

    let dir = temp_dir("perms");
    let home = dir.join("home");
    // A dotfiles checkout in the home directory (a link out of it is refused: `writes.rs`).
    let real = home.join("dotfiles/claude-settings.json");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let original = "{\n  \"model\": \"opus\"\n}\n";
    std::fs::write(&real, original).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = home.join(".claude/settings.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();

    let t = Target::user(Provider::CLAUDE_CODE, &home);
    let plan = install(&m(), &t).unwrap();
    assert_eq!(plan.files[0].status(), ChangeStatus::Update);
    assert!(
        std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(),
        "the link stays a link"
    );
    let written = std::fs::read_to_string(&real).unwrap();
    assert!(
        written.starts_with("{\n  \"model\": \"opus\",\n  \"hooks\": {"),
        "{written}"
    );
    assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);

    // Installing again changes nothing; diff agrees.
    let d = diff(&m(), &t).unwrap();
    assert!(d.is_noop());
    assert_eq!(d.files[0].fingerprint_before(), d.files[0].fingerprint_after());
    assert!(install(&m(), &t).unwrap().is_noop());

    // Uninstall restores the bytes.
    uninstall(&m(), &t).unwrap();
    assert_eq!(std::fs::read_to_string(&real).unwrap(), original);
    assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
}

#[test]
fn fresh_install_then_uninstall_leaves_nothing() {
    let dir = temp_dir("fresh");
    let home = dir.join("home");
    for t in [
        Target::project(Provider::CODEX, &dir, &home)
            .with_options(agenthooks_install::CodexOptions::default().with_trust_project(true)),
        Target::project(Provider::COPILOT, &dir, &home),
        Target::user(Provider::KIMI, &home),
        Target::plugin(Provider::CLAUDE_CODE, dir.join("plugin"), &home),
    ] {
        let d = diff(&m(), &t).unwrap();
        assert!(d.changes().all(|c| c.status() == ChangeStatus::Create), "{t}");
        assert!(d.unified_diff().contains("+++ b"), "{t}");
        let plan = install(&m(), &t).unwrap();
        for f in &plan.files {
            assert_eq!(std::fs::read_to_string(&f.path).unwrap(), *f.after.as_ref().unwrap());
        }
        assert!(diff(&m(), &t).unwrap().is_noop(), "{t}");
        let un = uninstall(&m(), &t).unwrap();
        for f in &un.files {
            let expect_gone = f.status() == ChangeStatus::Delete;
            assert_eq!(!f.path.exists(), expect_gone, "{}", f.path.display());
        }
    }
    // Codex project trust stays (it is the user's decision once made); nothing else remains.
    let cfg = std::fs::read_to_string(home.join(".codex/config.toml")).unwrap();
    assert!(
        cfg.contains("trust_level = \"trusted\"") && !cfg.contains("[hooks"),
        "{cfg}"
    );
    assert!(!dir.join(".codex/hooks.json").exists());
    // the install records went with our entries, and their directories
    assert!(!home.join(".agenthooks").exists());
    assert!(!dir.join(".github/hooks/guard.json").exists());
    assert!(!home.join(".kimi-code/config.toml").exists());
    assert!(!dir.join("plugin/hooks/hooks.json").exists() && !dir.join("plugin/.claude-plugin/plugin.json").exists());
}

#[test]
fn a_file_changed_after_planning_is_a_conflict() {
    let dir = temp_dir("conflict");
    let t = Target::project(Provider::CLAUDE_CODE, &dir, dir.join("home"));
    let plan = agenthooks_install::plan_install(&m(), &t, &agenthooks_install::RealFs).unwrap();
    let path = dir.join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "{\"mine\": 1}").unwrap();
    assert!(matches!(plan.apply(), Err(InstallError::Conflict { .. })));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"mine\": 1}");
}

#[test]
fn refusals() {
    let t = Target::project(Provider::KIMI, "/p", "/h");
    assert!(matches!(
        render(&m(), &t),
        Err(InstallError::UnsupportedScope {
            scope: Scope::Project,
            ..
        })
    ));
    assert!(matches!(
        render(&m(), &Target::plugin(Provider::CODEX, "/p", "/h")),
        Err(InstallError::UnsupportedScope { .. })
    ));
    assert!(matches!(
        render(&m(), &Target::user(Provider::new("windsurf"), "/h")),
        Err(InstallError::UnknownProvider(_))
    ));

    let plugin_cmd = Manifest::new(["${CLAUDE_PLUGIN_ROOT}/bin/guard"], "g").with_hook(HookSpec::kind(EventKind::Stop));
    let e = render(&plugin_cmd, &Target::plugin(Provider::CLAUDE_CODE, "/p", "/h")).unwrap_err();
    assert!(
        matches!(
            e,
            InstallError::UnsafeCommand {
                token: "${CLAUDE_PLUGIN_ROOT}",
                ..
            }
        ),
        "{e}"
    );
    let gemini_cmd = Manifest::new(["/x/$GEMINI_PROJECT_DIR/guard"], "g").with_hook(HookSpec::kind(EventKind::Stop));
    assert!(matches!(
        render(&gemini_cmd, &Target::user(Provider::GEMINI, "/h")),
        Err(InstallError::UnsafeCommand { .. })
    ));

    let strict = Manifest::new(["/bin/g"], "g").with_hook(
        HookSpec::kind(EventKind::ToolPre).with_tools(
            ToolMatcher::default()
                .with_mcp(McpGlob::parse("gh/*"))
                .with_fallback(MatcherFallback::Error),
        ),
    );
    assert!(matches!(
        render(&strict, &Target::user(Provider::COPILOT, "/h")),
        Err(InstallError::MatcherNotExpressible { hook: 0, .. })
    ));
    // The same matcher is expressible for Claude.
    assert!(render(&strict, &Target::user(Provider::CLAUDE_CODE, "/h")).is_ok());

    let unknown = Manifest::new(["/bin/g"], "g").with_hook(HookSpec::native(Provider::KIMI, "FutureEvent"));
    assert!(matches!(
        render(&unknown, &Target::user(Provider::KIMI, "/h")),
        Err(InstallError::InvalidManifest(_))
    ));
    // Other agents skip a native hook for Kimi.
    assert!(render(&unknown, &Target::user(Provider::GEMINI, "/h"))
        .unwrap()
        .files
        .is_empty());
}

#[test]
fn claude_on_failure_is_version_gated() {
    let m = Manifest::new(["/bin/g"], "g")
        .with_failure(agenthooks_install::FailurePolicy::Closed)
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_timeout(Duration::from_secs(5)));
    let new = render(&m, &Target::user(Provider::CLAUDE_CODE, "/h")).unwrap();
    assert!(new.files[0].contents.contains("\"onFailure\": \"block\""));
    let old = render(
        &m,
        &Target::user(Provider::CLAUDE_CODE, "/h").with_agent_version("2.1.197"),
    )
    .unwrap();
    assert!(!old.files[0].contents.contains("onFailure"));
    assert!(old
        .findings
        .iter()
        .any(|f| f.code == FindingCode::FailClosedUnsupported));
}

#[test]
fn copilot_never_writes_an_empty_matcher() {
    let m = Manifest::new(["/bin/g"], "g").with_hook(HookSpec::kind(EventKind::ToolPre));
    let r = render(&m, &Target::project(Provider::COPILOT, "/p", "/h")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&r.files[0].contents).unwrap();
    let entry = &v["hooks"]["preToolUse"][0];
    assert!(entry.get("matcher").is_none(), "{entry}");
    assert_eq!(v["version"], 1);
    assert_eq!(
        entry["command"],
        "/bin/g agenthooks run --provider=copilot --event=preToolUse --timeout=30"
    );
}

#[test]
fn kinds_folded_onto_one_native_event_render_once() {
    let m = Manifest::new(["/bin/g"], "g")
        .with_hook(
            HookSpec::kind(EventKind::ToolPost)
                .non_blocking()
                .with_tools(ToolMatcher::names(["Bash"])),
        )
        .with_hook(
            HookSpec::kind(EventKind::ToolError)
                .with_tools(ToolMatcher::names(["apply_patch"]))
                .with_timeout(Duration::from_secs(9)),
        );
    let r = render(&m, &Target::user(Provider::CODEX, "/h")).unwrap();
    let v: serde_json::Value = serde_json::from_str(
        &r.files
            .iter()
            .find(|f| f.path.ends_with("hooks.json"))
            .unwrap()
            .contents,
    )
    .unwrap();
    let groups = v["hooks"]["PostToolUse"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["matcher"], "^(?:Bash|apply_patch)$");
    assert_eq!(groups[0]["hooks"][0]["timeout"], 9);
    // Blocking wins: no detached wrapper.
    assert!(groups[0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .starts_with("/bin/g agenthooks run"));
}

/// Install reads the codec rows: the two drifts the architecture review found are fixed.
#[test]
fn codec_rows_drive_install_pre_skill_shell_command_and_codex_stop_failure() {
    // PreSkillShellCommand is a tool event with a tool matcher in the Claude codec: the hook's
    // tool filter now reaches the config (before: dropped with "has no tool matcher").
    let m = Manifest::new(["/bin/guard"], "guard").with_hook(
        HookSpec::native(Provider::CLAUDE_CODE, "PreSkillShellCommand").with_tools(ToolMatcher::names(["Bash"])),
    );
    let r = render(&m, &Target::user(Provider::CLAUDE_CODE, "/h")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&r.files[0].contents).unwrap();
    assert_eq!(v["hooks"]["PreSkillShellCommand"][0]["matcher"], "Bash");
    assert!(!r.findings.iter().any(|f| f.code == FindingCode::MatcherIgnored));
    // …and it is secondary: a `tool.pre` hook is wired on PreToolUse only.
    let m = Manifest::new(["/bin/guard"], "guard").with_hook(HookSpec::kind(EventKind::ToolPre));
    let r = render(&m, &Target::user(Provider::CLAUDE_CODE, "/h")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&r.files[0].contents).unwrap();
    assert_eq!(
        v["hooks"].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["PreToolUse"]
    );

    // Codex StopFailure is in the codec: a known event install deliberately does not write for
    // 0.171 (the real binary does not load it), never an unknown one.
    let m = Manifest::new(["/bin/guard"], "guard").with_hook(HookSpec::native(Provider::CODEX, "StopFailure"));
    let r = render(&m, &Target::user(Provider::CODEX, "/h")).unwrap();
    assert!(!r.files.iter().any(|f| f.contents.contains("--event=StopFailure")));
    assert!(!r.findings.iter().any(|f| f.code == FindingCode::UnknownNativeEvent));
    assert!(r.findings.iter().any(|f| f.code == FindingCode::EventUnavailable));

    // The legacy notify payload is a codec event install deliberately does not write.
    let m = Manifest::new(["/bin/guard"], "guard")
        .with_hook(HookSpec::native(Provider::CODEX, "agent-turn-complete"))
        .with_hook(HookSpec::kind(EventKind::Notification));
    let r = render(&m, &Target::user(Provider::CODEX, "/h")).unwrap();
    assert!(!r.files.iter().any(|f| f.contents.contains("agent-turn-complete")));
    let dropped: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.code == FindingCode::EventUnavailable)
        .collect();
    assert_eq!(dropped.len(), 2, "{dropped:?}");
}

/// Agent-specific options belong to their agent.
#[test]
fn codex_options_on_another_target_are_refused() {
    let t = Target::user(Provider::CLAUDE_CODE, "/h")
        .with_options(agenthooks_install::CodexOptions::default().with_inline_toml(true));
    let e = render(&m(), &t).unwrap_err();
    assert!(matches!(e, InstallError::OptionsMismatch { .. }), "{e}");
}

#[test]
fn cursor_hooks_json_v1_with_fail_closed_decision_hooks() {
    use agenthooks_install::FailurePolicy;
    let manifest = Manifest::new(["/bin/g"], "g")
        .with_failure(FailurePolicy::Closed)
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::names(["Shell", "Read"])))
        .with_hook(HookSpec::kind(EventKind::SessionEnd).non_blocking())
        .with_hook(HookSpec::kind(EventKind::Stop).with_timeout(Duration::from_millis(1500)));
    let target = Target::project(Provider::CURSOR, "/p", "/h");
    let rendered = render(&manifest, &target).unwrap();
    assert!(
        rendered.files[0].path.ends_with(".cursor/hooks.json"),
        "{:?}",
        rendered.files[0].path
    );
    let doc: serde_json::Value = serde_json::from_str(&rendered.files[0].contents).unwrap();
    assert_eq!(doc["version"], 1);
    let pre = &doc["hooks"]["preToolUse"][0];
    assert_eq!(pre["matcher"], "^(?:Shell|Read)$");
    assert_eq!(pre["failClosed"], true);
    assert_eq!(pre["timeout"], 60);
    // The specific gates beside preToolUse (the binary dedupes the double fire); their matcher
    // is not a tool name, so none is written.
    for ev in ["beforeShellExecution", "beforeMCPExecution", "beforeReadFile"] {
        let entry = &doc["hooks"][ev][0];
        assert_eq!(entry["failClosed"], true, "{ev}");
        assert!(entry.get("matcher").is_none(), "{ev}: {entry}");
    }
    // Telemetry stays fail-open; stop cannot fail closed; timeouts in seconds.
    assert!(doc["hooks"]["sessionEnd"][0].get("failClosed").is_none());
    assert!(doc["hooks"]["stop"][0].get("failClosed").is_none());
    assert_eq!(doc["hooks"]["stop"][0]["timeout"], 2);
    // Only known event keys.
    let known = [
        "preToolUse",
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
        "sessionEnd",
        "stop",
    ];
    for k in doc["hooks"].as_object().unwrap().keys() {
        assert!(known.contains(&k.as_str()), "{k}");
    }
    // Idempotent merge beside a foreign hook; uninstall restores the bytes.
    let path = Path::new("/p/.cursor/hooks.json");
    let original = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [{ \"command\": \"./theirs.sh\" }]\n  }\n}\n";
    let plan = plan_install(&manifest, &target, &MemFs::new().with(path, original)).unwrap();
    let installed = plan.files[0].after.clone().unwrap();
    assert!(installed.contains("./theirs.sh"), "{installed}");
    assert!(
        plan_install(&manifest, &target, &MemFs::new().with(path, installed.clone()))
            .unwrap()
            .is_noop()
    );
    let un = plan_uninstall(&manifest, &target, &MemFs::new().with(path, installed)).unwrap();
    assert_eq!(un.files[0].after.as_deref(), Some(original));
    // User scope: ~/.cursor/hooks.json.
    let rendered = render(&manifest, &Target::user(Provider::CURSOR, "/h")).unwrap();
    assert!(rendered.files[0].path.starts_with("/h/.cursor"));
}

#[test]
fn cursor_refuses_commands_with_double_slashes() {
    // Cursor's naive `//` comment stripper would discard the whole file (#29).
    let m = Manifest::new(["/bin/g", "--endpoint=https://x.example"], "g").with_hook(HookSpec::kind(EventKind::Stop));
    let e = render(&m, &Target::project(Provider::CURSOR, "/p", "/h")).unwrap_err();
    assert!(matches!(e, InstallError::UnsafeCommand { token: "//", .. }), "{e}");
}

#[test]
fn opencode_shim_is_idempotent_removed_by_uninstall_and_never_overwrites_a_foreign_file() {
    let m = Manifest::new(["/bin/guard"], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::names(["bash"])))
        .with_hook(HookSpec::kind(EventKind::Stop).with_timeout(Duration::from_secs(5)))
        .with_hook(HookSpec::kind(EventKind::PromptSubmitted));
    let t = Target::project(Provider::OPENCODE, "/p", "/h");
    let path = Path::new("/p/.opencode/plugin/agenthooks.js");
    let plan = plan_install(&m, &t, &MemFs::new()).unwrap();
    // The shim, and its install record: the directories it creates, for uninstall.
    assert_eq!(plan.files.len(), 2);
    assert_eq!(plan.files[0].path, path);
    let record = plan.files[1].after.as_deref().unwrap();
    assert_eq!(plan.files[1].format, FileFormat::Record);
    assert!(
        record.contains("\"/p/.opencode\"") && record.contains("\"/p/.opencode/plugin\""),
        "{record}"
    );
    let js = plan.files[0].after.clone().unwrap();
    assert!(js.starts_with("// agenthooks shim for OpenCode"), "{js}");
    assert!(js.contains(r#"const CONFIG = {"command":["/bin/guard"],"#), "{js}");
    assert!(js.contains(r#""matcher":"^bash$""#), "{js}");
    assert!(
        js.contains(r#""session.idle":{"#) && js.contains(r#""timeoutMs":5000"#),
        "{js}"
    );
    assert!(js.contains(r#""chat.message":{"#), "{js}");
    let fs = MemFs::new().with(path, js.clone());
    assert!(
        plan_install(&m, &t, &fs).unwrap().is_noop(),
        "a second install changes nothing"
    );
    let un = plan_uninstall(&m, &t, &fs).unwrap();
    assert_eq!(un.files[0].after, None, "uninstall removes the shim");
    assert!(!un.files[0].ours_before.is_empty());
    // Another binary's shim and a foreign file of the same name are not ours.
    let other = Manifest::new(["/bin/other"], "other");
    assert!(plan_uninstall(&other, &t, &fs).unwrap().is_noop());
    let foreign = MemFs::new().with(path, "export default async () => ({})\n");
    assert!(matches!(
        plan_install(&m, &t, &foreign),
        Err(InstallError::Malformed { .. })
    ));
    // User scope: ~/.config/opencode/plugin/ (or the agent home given).
    let u = plan_install(&m, &Target::user(Provider::OPENCODE, "/h"), &MemFs::new()).unwrap();
    assert_eq!(u.files[0].path, Path::new("/h/.config/opencode/plugin/agenthooks.js"));
    let a = plan_install(
        &m,
        &Target::user(Provider::OPENCODE, "/h").with_agent_home("/xdg/opencode"),
        &MemFs::new(),
    )
    .unwrap();
    assert_eq!(a.files[0].path, Path::new("/xdg/opencode/plugin/agenthooks.js"));
}
