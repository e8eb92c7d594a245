//! OpenClaw: the plugin directory and `plugins.entries.agenthooks` merged into a config that
//! is the user's (comments and foreign keys kept, uninstall restores it byte for byte).

use std::path::Path;
use std::time::Duration;

use agenthooks_core::{EventKind, Provider};
use agenthooks_install::{
    plan_install, plan_uninstall, FailurePolicy, HookSpec, InstallError, Manifest, MemFs, OpenClawOptions, Plan,
    Target, ToolMatcher,
};
use serde_json::Value;

fn m() -> Manifest {
    Manifest::new(["/bin/guard"], "guard")
        .with_failure(FailurePolicy::Closed)
        .with_hook(
            HookSpec::kind(EventKind::ToolPre)
                .with_tools(ToolMatcher::names(["exec"]))
                .with_timeout(Duration::from_secs(5)),
        )
        .with_hook(HookSpec::kind(EventKind::ToolPost).non_blocking())
        .with_hook(HookSpec::kind(EventKind::PromptSubmitted))
}

const CONFIG: &str = "/h/.openclaw/openclaw.json";
const DIR: &str = "/h/.openclaw/extensions/agenthooks";

/// The user's config: JSON with comments, a foreign plugin entry and a key of ours set by hand.
const USERS: &str = r#"// my OpenClaw config
{
  "models": {"mode": "merge"}, // keep
  "plugins": {
    /* other plugins */
    "entries": {
      "memory": {"enabled": false},
      "agenthooks": {"config": {"mine": 1}}
    }
  }
}
"#;

fn after<'p>(plan: &'p Plan, path: &str) -> Option<&'p str> {
    plan.files
        .iter()
        .find(|f| f.path == Path::new(path))
        .and_then(|f| f.after.as_deref())
}

fn fs_of(plan: &Plan) -> MemFs {
    plan.files.iter().fold(MemFs::new(), |fs, f| match &f.after {
        Some(t) => fs.with(&f.path, t.clone()),
        None => fs,
    })
}

#[test]
fn plugin_and_entry_merge_keep_the_users_config_and_uninstall_restores_it() {
    let t = Target::user(Provider::OPENCLAW, "/h");
    let plan = plan_install(&m(), &t, &MemFs::new().with(CONFIG, USERS)).unwrap();
    let cfg = after(&plan, CONFIG).unwrap();
    for line in [
        "// my OpenClaw config",
        "/* other plugins */",
        "// keep",
        "\"memory\": {\"enabled\": false},",
    ] {
        assert!(cfg.contains(line), "lost `{line}`:\n{cfg}");
    }
    assert!(cfg.contains("\"config\": {\"mine\": 1}"), "{cfg}");
    assert!(cfg.contains("\"enabled\": true"), "{cfg}");
    assert!(
        cfg.contains("\"allowConversationAccess\": true"),
        "before_agent_run needs it:\n{cfg}"
    );
    assert!(
        cfg.contains("\"before_tool_call\": 7000"),
        "host timeout above the 5 s deadline:\n{cfg}"
    );

    let index = after(&plan, &format!("{DIR}/index.js")).unwrap();
    assert!(index.contains("\"hook\":\"before_tool_call\""), "{index}");
    assert!(index.contains("\"matcher\":[\"exec\"]"), "{index}");
    assert!(index.contains("\"failClosed\":true"), "{index}");
    assert!(index.contains("\"deadlineMs\":5000"), "{index}");
    let manifest: Value = serde_json::from_str(after(&plan, &format!("{DIR}/openclaw.plugin.json")).unwrap()).unwrap();
    assert_eq!(manifest["id"], "agenthooks");
    assert_eq!(manifest["activation"]["onStartup"], true);
    let package: Value = serde_json::from_str(after(&plan, &format!("{DIR}/package.json")).unwrap()).unwrap();
    assert_eq!(package["type"], "module");
    assert_eq!(package["openclaw"]["extensions"][0], "./index.js");

    // A second install changes nothing.
    let fs = fs_of(&plan);
    assert!(plan_install(&m(), &t, &fs).unwrap().is_noop());

    // Uninstall: the plugin files go, the config is the user's again byte for byte.
    let un = plan_uninstall(&m(), &t, &fs).unwrap();
    let restored = after(&un, CONFIG).unwrap();
    assert_eq!(restored, USERS, "uninstall removes our keys, the user's `config` stays");
    assert!(
        restored.contains("\"memory\": {\"enabled\": false}") && restored.contains("// keep"),
        "{restored}"
    );
    for f in ["index.js", "package.json", "openclaw.plugin.json"] {
        assert_eq!(after(&un, &format!("{DIR}/{f}")), None, "{f} removed");
    }
}

#[test]
fn install_then_uninstall_restores_a_config_without_our_entry_byte_for_byte() {
    let users = "{\n  // gateway\n  \"gateway\": {\"mode\": \"local\"},\n  \"plugins\": {\"entries\": {\"memory\": {\"enabled\": true}}}\n}\n";
    let t = Target::user(Provider::OPENCLAW, "/h");
    let plan = plan_install(&m(), &t, &MemFs::new().with(CONFIG, users)).unwrap();
    let un = plan_uninstall(&m(), &t, &fs_of(&plan)).unwrap();
    assert_eq!(after(&un, CONFIG), Some(users));
    // A config without `plugins` at all: the objects we created are removed again.
    let bare = "{\n  \"gateway\": {\"mode\": \"local\"}\n}\n";
    let plan = plan_install(&m(), &t, &MemFs::new().with(CONFIG, bare)).unwrap();
    let un = plan_uninstall(&m(), &t, &fs_of(&plan)).unwrap();
    assert_eq!(after(&un, CONFIG), Some(bare));
    // No config file: install creates it, uninstall deletes it.
    let plan = plan_install(&m(), &t, &MemFs::new()).unwrap();
    assert!(after(&plan, CONFIG).is_some_and(|c| c.ends_with("}\n")));
    let un = plan_uninstall(&m(), &t, &fs_of(&plan)).unwrap();
    assert_eq!(after(&un, CONFIG), None);
    assert!(un
        .files
        .iter()
        .any(|f| f.path == Path::new(CONFIG) && f.before.is_some()));
}

#[test]
fn refusals_write_nothing() {
    let t = Target::user(Provider::OPENCLAW, "/h");
    // JSON5 beyond comments (unquoted keys, trailing commas) is not edited.
    for text in ["{ plugins: {} }\n", "{\"plugins\": {},}\n", "[]\n"] {
        let e = plan_install(&m(), &t, &MemFs::new().with(CONFIG, text)).unwrap_err();
        assert!(matches!(e, InstallError::Malformed { .. }), "{text}: {e}");
    }
    // `plugins.entries` of the wrong type.
    let e = plan_install(&m(), &t, &MemFs::new().with(CONFIG, "{\"plugins\": {\"entries\": []}}")).unwrap_err();
    assert!(e.to_string().contains("plugins.entries"), "{e}");
    // A foreign plugin directory named agenthooks, and another command's plugin.
    let foreign = MemFs::new().with(format!("{DIR}/index.js"), "export default {id: 'agenthooks'}\n");
    assert!(matches!(
        plan_install(&m(), &t, &foreign),
        Err(InstallError::Malformed { .. })
    ));
    let plan = plan_install(&m(), &t, &MemFs::new()).unwrap();
    let other = Manifest::new(["/bin/other"], "other").with_hook(HookSpec::kind(EventKind::ToolPre));
    let e = plan_install(&other, &t, &fs_of(&plan)).unwrap_err();
    assert!(e.to_string().contains("/bin/guard"), "{e}");
    assert!(
        plan_uninstall(&other, &t, &fs_of(&plan)).unwrap().is_noop(),
        "not ours to remove"
    );
}

#[test]
fn locations_follow_openclaws_rules() {
    let m = m();
    let paths = |t: &Target| -> Vec<String> {
        let mut p: Vec<String> = plan_install(&m, t, &MemFs::new())
            .unwrap()
            .files
            .iter()
            .map(|f| f.path.display().to_string())
            .collect();
        p.sort();
        p
    };
    // Project scope: the workspace's extensions dir; the entry still goes to the user config.
    let p = paths(&Target::project(Provider::OPENCLAW, "/w", "/h"));
    assert!(
        p.contains(&"/w/.openclaw/extensions/agenthooks/index.js".to_owned()),
        "{p:?}"
    );
    assert!(p.contains(&CONFIG.to_owned()), "{p:?}");
    // An agent home is the state dir: config and extensions under it.
    let p = paths(&Target::user(Provider::OPENCLAW, "/h").with_agent_home("/state"));
    assert!(
        p.contains(&"/state/openclaw.json".to_owned())
            && p.contains(&"/state/extensions/agenthooks/index.js".to_owned()),
        "{p:?}"
    );
    // An explicit config path (`$OPENCLAW_CONFIG_PATH`): extensions beside it.
    let p = paths(
        &Target::user(Provider::OPENCLAW, "/h")
            .with_options(OpenClawOptions::default().with_config_path("/etc/oc/cfg.json")),
    );
    assert!(
        p.contains(&"/etc/oc/cfg.json".to_owned()) && p.contains(&"/etc/oc/extensions/agenthooks/index.js".to_owned()),
        "{p:?}"
    );
}

#[test]
fn telemetry_only_hooks_need_no_conversation_access_or_timeouts() {
    let m = Manifest::new(["/bin/guard"], "guard").with_hook(HookSpec::kind(EventKind::SessionStart).non_blocking());
    let t = Target::user(Provider::OPENCLAW, "/h");
    let plan = plan_install(&m, &t, &MemFs::new()).unwrap();
    let cfg: Value = serde_json::from_str(after(&plan, CONFIG).unwrap()).unwrap();
    assert_eq!(
        cfg["plugins"]["entries"]["agenthooks"],
        serde_json::json!({"enabled": true})
    );
    let index = after(&plan, &format!("{DIR}/index.js")).unwrap();
    assert!(
        index.contains("{\"hook\":\"session_start\",\"await\":false}"),
        "{index}"
    );
}
