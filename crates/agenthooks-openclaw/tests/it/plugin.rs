//! The rendered plugin's files (their behaviour under Node is the bridge suite's:
//! `agenthooks-edge-tests/tests/bridge/openclaw.test.mjs`), and plugins rendered before the
//! bridge was shared, which install must still recognise.

use agenthooks_openclaw::plugin::{parse, PluginConfig, ShimHook};
use serde_json::Value;

#[test]
fn rendered_files_have_the_plugin_layout() {
    let files = PluginConfig::new(["hook"])
        .with_hook(ShimHook::new("before_tool_call"))
        .render();
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["openclaw.plugin.json", "package.json", "index.js"]);
    let manifest: Value = serde_json::from_str(&files[0].1).expect("manifest");
    assert_eq!(manifest["id"], "agenthooks");
    assert_eq!(manifest["activation"]["onStartup"], true);
    assert!(manifest["configSchema"].is_object());
    let package: Value = serde_json::from_str(&files[1].1).expect("package");
    assert_eq!(package["type"], "module");
    assert_eq!(package["openclaw"]["extensions"], serde_json::json!(["./index.js"]));
    let index = &files[2].1;
    assert!(!index.contains("require(") && index.contains("export default {"));
    // One module: the bridge inlined, Node built-ins only, the default export alone.
    assert!(index.contains("function createBridge(options)"));
    assert!(index
        .lines()
        .filter(|l| l.starts_with("import"))
        .all(|l| l.contains("\"node:")));
    let exports: Vec<&str> = index.lines().filter(|l| l.starts_with("export")).collect();
    assert_eq!(exports, ["export default {"]);
    assert!(!index.contains("console."), "the plugin never writes to stdout");
}

/// An `index.js` as install wrote it before the bridge was shared (the install golden of then:
/// its config over several lines): still ours, with its config, so install upgrades and uninstalls it.
#[test]
fn a_plugin_of_the_earlier_format_is_read_back() {
    let old = include_str!("../data/index-before-bridge.js.txt");
    let cfg = parse(old).expect("ours");
    assert_eq!(cfg.command, ["/opt/My Tools/guard's", "--config=$HOME/.guard.toml"]);
    assert!(cfg.fail_closed);
    assert_eq!((cfg.name.as_str(), cfg.version.as_str()), ("guard", "1.2.3"));
    assert_eq!(
        cfg.hooks.iter().map(|h| h.hook.as_str()).collect::<Vec<_>>(),
        [
            "before_tool_call",
            "after_tool_call",
            "before_agent_run",
            "before_agent_finalize",
            "session_start",
            "session_end"
        ]
    );
    let matcher = ["Bash", "edit", "apply_patch"].map(str::to_owned);
    assert_eq!(cfg.hooks[0].matcher.as_deref(), Some(&matcher[..]));
    // Rendered again, it is the new format, with the same config.
    let index = cfg.render().swap_remove(2).1;
    assert_eq!(parse(&index), Some(cfg));
    assert!(index.contains("function createBridge(options)"));
}
