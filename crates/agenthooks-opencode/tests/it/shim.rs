//! Runs the shim's Node tests (`tests/shim/*.test.mjs`, Node's built-in runner) when `node` is on
//! `PATH`: deadlines, crash/respawn, concurrent calls, in-place replies, event filtering.

use std::path::Path;
use std::process::Command;

#[test]
#[allow(clippy::print_stderr)] // the skip notice
fn the_shim_passes_its_node_tests() {
    let Some(node) =
        std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join("node")).find(|n| n.is_file()))
    else {
        eprintln!("the_shim_passes_its_node_tests: skipped (no `node` on PATH)");
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shim");
    let out = Command::new(node).arg("--test").arg(&dir).output().expect("node runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "node --test {}:\n{text}", dir.display());
    assert!(text.contains("# fail 0"), "{text}");
}
