//! Never remove what we did not add: containers and files that were there before an install
//! (empty `hooks` objects, events holding `[]`, empty matcher groups, empty TOML tables, files
//! holding nothing else) survive install then uninstall byte for byte, for every target; the
//! install record says what an install created; configs without one keep the old rule.

use std::path::{Path, PathBuf};

use agenthooks_core::{EventKind, Provider};
use agenthooks_install::{
    plan_install, plan_uninstall, render, CodexOptions, FileFormat, HookSpec, Manifest, MemFs, Target, ToolMatcher,
};

use crate::common::apply;

const ROOT: &str = "/p";
const HOME: &str = "/h";

fn m() -> Manifest {
    Manifest::new(["/opt/guard"], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::names(["Bash"])))
        .with_hook(HookSpec::kind(EventKind::Stop))
}

/// Plans an install on `fs` and applies it.
fn install(fs: &mut MemFs, m: &Manifest, t: &Target) {
    let plan = plan_install(m, t, fs).unwrap();
    apply(fs, &plan);
}

/// Plans an uninstall on `fs` and applies it.
fn uninstall(fs: &mut MemFs, m: &Manifest, t: &Target) {
    let plan = plan_uninstall(m, t, fs).unwrap();
    apply(fs, &plan);
}

/// The records in a file system.
fn records(fs: &MemFs) -> Vec<&PathBuf> {
    fs.files
        .keys()
        .filter(|p| p.starts_with("/h/.agenthooks/created"))
        .collect()
}

/// Installs then uninstalls into `files`; the file system must come back exactly.
fn round_trip(t: &Target, files: &[(&str, &str)]) -> MemFs {
    let original = files.iter().fold(MemFs::new(), |fs, (p, x)| fs.with(*p, *x));
    let mut fs = original.clone();
    let plan = plan_install(&m(), t, &fs).unwrap_or_else(|e| panic!("{t}: {e}"));
    apply(&mut fs, &plan);
    assert!(
        plan.files.iter().any(|f| !f.ours_after.is_empty()),
        "{t}: nothing installed"
    );
    assert_eq!(
        records(&fs).len(),
        plan.files.iter().filter(|f| f.format == FileFormat::Record).count()
    );
    let configs = plan
        .files
        .iter()
        .filter(|f| !matches!(f.format, FileFormat::Text | FileFormat::Record));
    // A whole file of ours created with its directories (OpenCode's shim) has a record too.
    let created_whole = plan
        .files
        .iter()
        .any(|f| f.format == FileFormat::Text && f.before.is_none());
    assert_eq!(
        !records(&fs).is_empty(),
        configs.count() > 0 || created_whole,
        "{t}: a record per config"
    );
    let installed = fs.clone();
    assert!(
        plan_install(&m(), t, &installed).unwrap().is_noop(),
        "{t}: not idempotent"
    );
    let un = plan_uninstall(&m(), t, &fs).unwrap();
    apply(&mut fs, &un);
    for (path, text) in files {
        assert_eq!(
            fs.files.get(Path::new(path)).map(String::as_str),
            Some(*text),
            "{t}: {path} not restored (installed:\n{})",
            installed.files.get(Path::new(path)).map_or("<absent>", String::as_str)
        );
    }
    assert_eq!(fs, original, "{t}: extra files left");
    installed
}

fn claude() -> Target {
    Target::project(Provider::CLAUDE_CODE, ROOT, HOME)
}

const CLAUDE: &str = "/p/.claude/settings.json";

#[test]
fn an_empty_hooks_object_survives() {
    round_trip(&claude(), &[(CLAUDE, "{\n  \"model\": \"x\",\n  \"hooks\": {}\n}\n")]);
    round_trip(&claude(), &[(CLAUDE, "{\"hooks\": {}, \"model\": \"x\"}")]);
}

#[test]
fn a_file_holding_only_an_empty_hooks_object_is_not_deleted() {
    for text in [
        "{\"hooks\": {}}",
        "{\"hooks\": {}}\n",
        "{\n  \"hooks\": {}\n}\n",
        "{}\n",
        "{}",
    ] {
        round_trip(&claude(), &[(CLAUDE, text)]);
    }
}

#[test]
fn an_event_holding_an_empty_array_survives() {
    round_trip(&claude(), &[(CLAUDE, "{\"hooks\": {\"PreToolUse\": []}}\n")]);
    round_trip(
        &claude(),
        &[(
            CLAUDE,
            "{\n  \"hooks\": {\n    \"Stop\": [],\n    \"PreToolUse\": []\n  }\n}\n",
        )],
    );
}

#[test]
fn an_empty_matcher_group_survives() {
    round_trip(
        &claude(),
        &[(
            CLAUDE,
            "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": []}]}}\n",
        )],
    );
    round_trip(&claude(), &[(CLAUDE, "{\"hooks\": {\"Stop\": [{\"hooks\": []}]}}")]);
}

#[test]
fn every_json_target_keeps_pre_existing_empty_containers() {
    let grouped: &[&str] = &[
        "{\"hooks\": {}}\n",
        "{\"hooks\": {\"Stop\": []}}\n",
        "{\"hooks\": {\"Stop\": [{\"hooks\": []}]}}\n",
        "{}\n",
    ];
    let flat: &[&str] = &[
        "{\"version\": 1}\n",
        "{\"version\": 1, \"hooks\": {}}\n",
        "{\"version\": 1, \"hooks\": {\"preToolUse\": []}}\n",
        "{}\n",
    ];
    let project = |p: Provider| Target::project(p, ROOT, HOME);
    for (t, path, docs) in [
        (project(Provider::GEMINI), "/p/.gemini/settings.json", grouped),
        (project(Provider::DROID), "/p/.factory/settings.json", grouped),
        (project(Provider::CODEX), "/p/.codex/hooks.json", grouped),
        (
            Target::user(Provider::CLAUDE_CODE, HOME),
            "/h/.claude/settings.json",
            grouped,
        ),
        (project(Provider::COPILOT), "/p/.github/hooks/guard.json", flat),
        (project(Provider::CURSOR), "/p/.cursor/hooks.json", flat),
    ] {
        for text in docs {
            round_trip(&t, &[(path, text)]);
        }
    }
}

#[test]
fn jsonc_comments_around_an_empty_hooks_object_survive() {
    let t = Target::project(Provider::GEMINI, ROOT, HOME);
    round_trip(
        &t,
        &[(
            "/p/.gemini/settings.json",
            "// mine\r\n{\r\n  \"hooks\": { /* none yet */ }, // trailing\r\n  \"ui\": {}\r\n}\r\n",
        )],
    );
}

#[test]
fn openclaw_keeps_a_config_it_did_not_create() {
    let t = Target::user(Provider::OPENCLAW, HOME);
    let config = "/h/.openclaw/openclaw.json";
    for text in [
        "{}",
        "{}\n",
        "{\"plugins\": {}}\n",
        "{\"plugins\": {\"entries\": {}}}\n",
        "{\"plugins\": {\"entries\": {\"agenthooks\": {}}}}\n",
        "// mine\n{\"plugins\": {\"entries\": {\"agenthooks\": {\"hooks\": {}}}}}\n",
    ] {
        round_trip(&t, &[(config, text)]);
    }
}

#[test]
fn toml_tables_and_blank_files_we_did_not_create_survive() {
    let kimi = Target::user(Provider::KIMI, HOME);
    let kimi_cfg = "/h/.kimi-code/config.toml";
    for text in ["", "\n", "# mine\n", "hooks = []\n", "model = \"k\"\nhooks = []\n"] {
        round_trip(&kimi, &[(kimi_cfg, text)]);
    }
    let inline = Target::user(Provider::CODEX, HOME).with_options(CodexOptions::default().with_inline_toml(true));
    let codex_cfg = "/h/.codex/config.toml";
    for text in [
        "",
        "[hooks]\n",
        "[hooks]\n[hooks.state]\n",
        "model = \"o\"\n\n[hooks]\n",
        "[hooks]\nStop = []\n",
    ] {
        round_trip(&inline, &[(codex_cfg, text)]);
    }
    // hooks.json plus the trust file holding an empty `[hooks.state]`
    let json = Target::project(Provider::CODEX, ROOT, HOME);
    for text in ["", "[hooks.state]\n", "[hooks]\n", "# trust\n[hooks]\n[hooks.state]\n"] {
        round_trip(
            &json,
            &[(codex_cfg, text), ("/p/.codex/hooks.json", "{\"hooks\": {}}\n")],
        );
    }
}

#[test]
fn plugin_and_shim_files_we_create_go_and_nothing_else() {
    round_trip(&Target::project(Provider::OPENCODE, ROOT, HOME), &[]);
    round_trip(&Target::project(Provider::OPENCLAW, ROOT, HOME), &[]);
    round_trip(&Target::plugin(Provider::CLAUDE_CODE, "/p/plugin", HOME), &[]);
}

#[test]
fn a_plugin_manifest_the_author_wrote_is_left_as_it_is() {
    let path = "/p/plugin/.claude-plugin/plugin.json";
    let theirs = "{\n  \"name\": \"my-plugin\",\n  \"version\": \"3.1.0\",\n  \"description\": \"Mine\"\n}\n";
    let installed = round_trip(
        &Target::plugin(Provider::CLAUDE_CODE, "/p/plugin", HOME),
        &[(path, theirs)],
    );
    assert_eq!(
        installed.files[Path::new(path)],
        theirs,
        "install rewrote the author's plugin.json"
    );
    assert!(installed.files.contains_key(Path::new("/p/plugin/hooks/hooks.json")));
}

#[test]
fn records_are_kept_out_of_render_and_name_what_was_created() {
    let r = render(&m(), &claude()).unwrap();
    assert!(r.files.iter().all(|f| f.format != FileFormat::Record));
    // a fresh file: the record says the file and `hooks` with its events were created
    let installed = round_trip(&claude(), &[]);
    let rec = records(&installed);
    assert_eq!(rec.len(), 1);
    let v: serde_json::Value = serde_json::from_str(&installed.files[rec[0]]).unwrap();
    assert_eq!(v["file"], CLAUDE);
    assert_eq!(v["created_file"], true);
    assert_eq!(v["command"], serde_json::json!(["/opt/guard"]));
    assert!(v["created"].as_array().unwrap().contains(&serde_json::json!(["hooks"])));
    // an existing `hooks`: only the event arrays
    let installed = round_trip(&claude(), &[(CLAUDE, "{\"hooks\": {}}\n")]);
    let v: serde_json::Value = serde_json::from_str(&installed.files[records(&installed)[0]]).unwrap();
    assert_eq!(v["created_file"], false);
    assert_eq!(
        v["created"],
        serde_json::json!([["hooks", "PreToolUse"], ["hooks", "Stop"]])
    );
}

#[test]
fn a_reinstall_keeps_what_the_first_install_created() {
    let t = claude();
    let original = "{\"hooks\": {\"Stop\": []}}\n";
    let mut fs = MemFs::new().with(CLAUDE, original);
    install(&mut fs, &m(), &t);
    // a changed manifest (a new event, one gone), then uninstall with it
    let m2 = Manifest::new(["/opt/guard"], "guard").with_hook(HookSpec::kind(EventKind::PromptSubmitted));
    install(&mut fs, &m2, &t);
    assert!(fs.files[Path::new(CLAUDE)].contains("UserPromptSubmit"));
    uninstall(&mut fs, &m2, &t);
    assert_eq!(fs, MemFs::new().with(CLAUDE, original));
}

#[test]
fn without_a_record_uninstall_keeps_the_old_rule() {
    // A config installed by a release before records: every container our removal empties
    // goes, and a file left as a fresh install of ours leaves it is deleted.
    for (t, path) in [
        (claude(), CLAUDE),
        (Target::user(Provider::KIMI, HOME), "/h/.kimi-code/config.toml"),
        (Target::user(Provider::OPENCLAW, HOME), "/h/.openclaw/openclaw.json"),
        (
            Target::user(Provider::CODEX, HOME).with_options(CodexOptions::default().with_inline_toml(true)),
            "/h/.codex/config.toml",
        ),
    ] {
        let mut fs = MemFs::new();
        install(&mut fs, &m(), &t);
        fs.files.retain(|p, _| !p.starts_with("/h/.agenthooks"));
        uninstall(&mut fs, &m(), &t);
        assert!(!fs.files.contains_key(Path::new(path)), "{t}: legacy file kept");
    }
    // …and so `{"hooks": {}}` written by hand loses `hooks` there (what records fix)
    let mut fs = MemFs::new().with(CLAUDE, "{\"model\": 1, \"hooks\": {}}");
    install(&mut fs, &m(), &claude());
    fs.files.retain(|p, _| !p.starts_with("/h/.agenthooks"));
    uninstall(&mut fs, &m(), &claude());
    assert_eq!(fs.files[Path::new(CLAUDE)], "{\"model\": 1}");
    // a reinstall over a config without a record infers it: uninstall then deletes the file
    let mut fs = MemFs::new();
    install(&mut fs, &m(), &claude());
    fs.files.retain(|p, _| !p.starts_with("/h/.agenthooks"));
    let m2 = Manifest::new(["/opt/guard"], "guard").with_hook(HookSpec::kind(EventKind::Stop));
    install(&mut fs, &m2, &claude());
    assert_eq!(records(&fs).len(), 1);
    uninstall(&mut fs, &m2, &claude());
    assert!(fs.files.is_empty(), "{:?}", fs.files.keys().collect::<Vec<_>>());
}

#[test]
fn an_unreadable_record_falls_back_to_the_old_rule() {
    let mut fs = MemFs::new();
    install(&mut fs, &m(), &claude());
    let rec = records(&fs)[0].clone();
    fs.files.insert(rec, "not json".into());
    uninstall(&mut fs, &m(), &claude());
    assert!(fs.files.is_empty(), "{:?}", fs.files.keys().collect::<Vec<_>>());
}

#[test]
fn openclaw_never_overwrites_a_plugin_file_it_did_not_write() {
    let t = Target::user(Provider::OPENCLAW, HOME);
    let pkg = "/h/.openclaw/extensions/agenthooks/package.json";
    let fs = MemFs::new().with(pkg, "{\"name\": \"theirs\"}\n");
    let e = plan_install(&m(), &t, &fs).unwrap_err();
    assert!(e.to_string().contains("not ours"), "{e}");
    assert!(plan_uninstall(&m(), &t, &fs).unwrap().is_noop());
}

/// Found by the `install_merge` fuzz target: `toml_edit` writes `\n` after every line, so a
/// CRLF config came back with LF line endings. A file mixing both has no one ending to keep
/// (`keep_final_newline`); the fuzz target skips those.
#[test]
fn crlf_toml_comes_back_byte_for_byte() {
    let kimi = Target::user(Provider::KIMI, HOME);
    let cfg = "/h/.kimi-code/config.toml";
    for text in [
        "# a\r\n\r\nmodel = \"k\"\r\n",
        "# a\r\n\r\n",
        "model = \"k\"\r\n[ui]\r\ntheme = 1",
    ] {
        round_trip(&kimi, &[(cfg, text)]);
    }
    let inline = Target::user(Provider::CODEX, HOME).with_options(CodexOptions::default().with_inline_toml(true));
    round_trip(
        &inline,
        &[("/h/.codex/config.toml", "model = \"o\"\r\n\r\n[hooks]\r\n")],
    );
}

/// Found by the `install_merge` fuzz target: `toml_edit` renders the dotted keys of one table
/// next to each other, so a root table whose plain keys separate them (`t.x`, `b`, `t.y`) came
/// back from install with two lines swapped, and uninstall did not restore the bytes. Sections
/// the edit does not touch are now copied from the original.
#[test]
fn dotted_keys_that_other_keys_separate_stay_where_they_were() {
    let codex = Target::user(Provider::CODEX, HOME);
    let inline = Target::user(Provider::CODEX, HOME).with_options(CodexOptions::default().with_inline_toml(true));
    let kimi = Target::user(Provider::KIMI, HOME);
    let codex_cfg = "/h/.codex/config.toml";
    let kimi_cfg = "/h/.kimi-code/config.toml";
    // each text, and what install keeps first, unmoved (comments after the last item are the
    // document's and follow what install adds)
    let texts = [
        ("a = 1\nt.x = 1 # c\nb = 2\nt.y = 2 # d\n", None),
        ("a = 1\nt.x = 1 # c\nb = 2\nt.y = 2 # d", None),
        ("a = 1\r\nt.x = 1\r\nb = 2\r\nt.y = 2\r\n", None),
        (
            "t.x = 1\nb = 2\nt.y = 2\n# the file's last comment\n",
            Some("t.x = 1\nb = 2\nt.y = 2\n"),
        ),
        (
            "# top\nt.x = 1\nb = 2\nt.y = 2\n\n[m]\nq.r = 1\ns = 2\nq.t = 3\n# end\n",
            Some("# top\nt.x = 1\nb = 2\nt.y = 2\n\n[m]\nq.r = 1\ns = 2\nq.t = 3\n"),
        ),
        (
            "t.x = \"[not] a header\"\nb = '''\n[x]\n'''\nt.y = [\n  1,\n]\n[u]\nv = 1\n",
            None,
        ),
        // the fuzzer's input (its first byte chose the Codex user target)
        (
            "ffffffffffffffh2=1# c\nfffff.agentff-ffb2=1# PreToolUseffcommazfffffffffffffmazffffffffffffffh2=1# c\n\
             fffffh2=1# c\nfffff.agentff-ffj2=1# PreToolUseff=",
            None,
        ),
    ];
    for (text, first) in texts {
        // toml_edit alone moves a line of each
        let rendered = text.parse::<toml_edit::DocumentMut>().unwrap().to_string();
        let lines = |s: &str| s.lines().map(str::to_owned).collect::<Vec<_>>();
        assert_ne!(lines(&rendered), lines(text), "{text:?}");
        for (t, cfg) in [(&codex, codex_cfg), (&inline, codex_cfg), (&kimi, kimi_cfg)] {
            let installed = round_trip(t, &[(cfg, text)]);
            let installed = &installed.files[Path::new(cfg)];
            let first = first.unwrap_or(text);
            assert!(installed.starts_with(first), "{t}: moved lines in\n{installed}");
        }
    }
}

/// The second `install_merge` finding: `toml_edit` writes the header of every table of an array
/// like the first one's (`[[\thooks]]` after a `[[hooks]]` came back as `[[hooks]]` from
/// uninstall). The original's header is kept where its section is untouched.
#[test]
fn headers_of_an_array_of_tables_keep_their_own_spelling() {
    let kimi = Target::user(Provider::KIMI, HOME);
    let kimi_cfg = "/h/.kimi-code/config.toml";
    // the fuzzer's input (first byte 6: the Kimi target), then a plainer one
    let fuzzed = "[[hooks]]\ngtcher = \"^ ?:Bash~Edit|0StrRrp\u{fa49}laceFile)$\"\ncommand = '''h=o'''\ntimeout = 2\n\n[[\thooks]]\nevenut = 30\n";
    let plain = "[[hooks]]\nevent = \"Stop\"\ncommand = \"theirs\"\n\n[[ hooks ]] # second\nevent = \"Stop\"\ncommand = \"theirs too\"\n";
    for text in [fuzzed, plain] {
        let installed = round_trip(&kimi, &[(kimi_cfg, text)]);
        let installed = &installed.files[Path::new(kimi_cfg)];
        assert!(installed.starts_with(text), "moved or respelled lines in\n{installed}");
    }
}
