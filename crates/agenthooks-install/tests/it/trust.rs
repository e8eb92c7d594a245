//! Codex trust: every vector the real codex 0.171.0 produced, and the trust entries written by
//! install (keys follow the merged file's positions; foreign entries move with their hooks).

use std::path::Path;

use agenthooks_core::{EventKind, Provider};
use agenthooks_install::codex_trust::{event_label, hook_hash, identity, state_key, trusted_hash};
use agenthooks_install::{plan_install, plan_uninstall, FileChange, HookSpec, Manifest, MemFs, Target};
use serde_json::Value;

#[test]
fn every_vector_of_codex_0_171_0() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/codex-trust-hash-vectors-0.171.0.json"),
    )
    .unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let vectors = v["vectors"].as_array().unwrap();
    assert_eq!(vectors.len(), 11);
    for vec in vectors {
        let native = vec["native_event"].as_str().unwrap();
        let group = &vec["hooks_json_group"];
        let handler = &group["hooks"][0];
        let id = identity(native, group.get("matcher"), handler).unwrap();
        assert_eq!(id, vec["identity_bytes"].as_str().unwrap(), "{native}");
        assert_eq!(trusted_hash(&id), vec["trusted_hash"].as_str().unwrap(), "{native}");
        assert_eq!(
            hook_hash(native, group.get("matcher"), handler).as_deref(),
            vec["trusted_hash"].as_str(),
            "{native}"
        );
        let key = state_key(
            "/tmp/tmp.x6OSpM0dRy/proj/.codex/hooks.json",
            event_label(native).unwrap(),
            0,
            0,
        );
        assert_eq!(key, vec["state_key"].as_str().unwrap(), "{native}");
    }
}

const HOOKS: &str = "/p/.codex/hooks.json";
const CONFIG: &str = "/h/.codex/config.toml";

fn target() -> Target {
    Target::project(Provider::CODEX, "/p", "/h")
}

/// The text a plan leaves at `path`.
fn after(files: &[FileChange], path: &str) -> String {
    let f = files
        .iter()
        .find(|f| f.path == Path::new(path))
        .unwrap_or_else(|| panic!("the plan does not touch {path}"));
    f.after.clone().unwrap_or_else(|| panic!("the plan removes {path}"))
}

fn m() -> Manifest {
    Manifest::new(["/bin/g"], "g").with_hook(HookSpec::kind(EventKind::ToolPre))
}

#[test]
fn install_writes_hashes_matching_the_file_positions() {
    // A foreign PreToolUse group precedes ours: ours lands at group 1.
    let foreign = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "theirs", "timeout": 5}]}]}}"#;
    let theirs_key = format!("{HOOKS}:pre_tool_use:0:0");
    let theirs_hash = hook_hash(
        "PreToolUse",
        Some(&"Bash".into()),
        &serde_json::json!({"type": "command", "command": "theirs", "timeout": 5}),
    )
    .unwrap();
    let config = format!(
        "# my codex config\nmodel = \"o4\"\n\n[hooks.state.\"{theirs_key}\"]\ntrusted_hash = \"{theirs_hash}\"\n"
    );
    let fs = MemFs::new().with(HOOKS, foreign).with(CONFIG, config.clone());
    let plan = plan_install(&m(), &target(), &fs).unwrap();
    assert_eq!(plan.trust.len(), 1);
    let ours = &plan.trust[0];
    assert_eq!(ours.key, format!("{HOOKS}:pre_tool_use:1:0"));
    let hooks_after: Value = serde_json::from_str(&after(&plan.files, HOOKS)).unwrap();
    let group = &hooks_after["hooks"]["PreToolUse"][1];
    assert_eq!(
        ours.hash,
        hook_hash("PreToolUse", group.get("matcher"), &group["hooks"][0]).unwrap()
    );
    let cfg = after(&plan.files, CONFIG);
    assert!(cfg.starts_with(&config), "foreign config kept verbatim:\n{cfg}");
    assert!(
        cfg.ends_with(&format!(
            "\n[hooks.state.\"{HOOKS}:pre_tool_use:1:0\"]\ntrusted_hash = \"{}\"\n",
            ours.hash
        )),
        "{cfg}"
    );

    // Uninstall restores both files exactly.
    let hooks_text = after(&plan.files, HOOKS);
    let fs2 = MemFs::new().with(HOOKS, hooks_text).with(CONFIG, cfg.clone());
    let un = plan_uninstall(&m(), &target(), &fs2).unwrap();
    for f in &un.files {
        let orig = fs.files.get(&f.path).cloned();
        assert_eq!(f.after, orig, "{}", f.path.display());
    }
}

#[test]
fn foreign_trust_moves_with_a_shifted_hook() {
    // Ours first, a foreign group after it (the user added it later); uninstall shifts theirs
    // from group 1 to group 0 and its trust entry must follow.
    let ours_cmd = "/bin/g agenthooks run --provider=codex --event=PreToolUse --timeout=600";
    let text = format!(
        r#"{{"hooks": {{"PreToolUse": [{{"hooks": [{{"type": "command", "command": "{ours_cmd}", "timeout": 600}}]}}, {{"hooks": [{{"type": "command", "command": "theirs"}}]}}]}}}}"#
    );
    let theirs_hash = hook_hash(
        "PreToolUse",
        None,
        &serde_json::json!({"type": "command", "command": "theirs"}),
    )
    .unwrap();
    let config = format!(
        "[hooks.state.\"{HOOKS}:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:old-ours\"\n\n[hooks.state.\"{HOOKS}:pre_tool_use:1:0\"]\ntrusted_hash = \"{theirs_hash}\"\n"
    );
    let fs = MemFs::new().with(HOOKS, text).with(CONFIG, config);
    let un = plan_uninstall(&m(), &target(), &fs).unwrap();
    let cfg = after(&un.files, CONFIG);
    let doc: toml_edit::DocumentMut = cfg.parse().unwrap();
    let state = doc["hooks"]["state"].as_table_like().unwrap();
    assert_eq!(state.len(), 1, "{cfg}");
    assert_eq!(
        state.get(&format!("{HOOKS}:pre_tool_use:0:0")).unwrap()["trusted_hash"].as_str(),
        Some(theirs_hash.as_str())
    );
}
