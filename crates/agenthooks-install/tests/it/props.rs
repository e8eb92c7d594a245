//! Property tests: installing into arbitrary existing JSON/TOML configs keeps every foreign key,
//! hook, ordering and comment; install is idempotent; uninstall ∘ install is the identity (byte
//! for byte); reinstalling a changed manifest replaces only our entries.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use agenthooks_core::{CanonicalTool, EventKind, Provider};
use agenthooks_install::{plan_install, plan_uninstall, HookSpec, Manifest, MemFs, Plan, Target, ToolMatcher};
use proptest::prelude::*;
use serde_json::{Map, Value};

const ROOT: &str = "/p";
const HOME: &str = "/h";

fn m1() -> Manifest {
    Manifest::new(["/opt/my guard/bin", "--x"], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::class(CanonicalTool::Shell)))
        .with_hook(HookSpec::kind(EventKind::Stop))
        .with_hook(HookSpec::kind(EventKind::SessionStart).non_blocking())
}

fn m2() -> Manifest {
    Manifest::new(["/opt/my guard/bin", "--x"], "guard")
        .with_hook(HookSpec::kind(EventKind::ToolPre).with_timeout(Duration::from_secs(7)))
        .with_hook(HookSpec::kind(EventKind::PromptSubmitted))
}

/// `fs` with a plan's changes written (a removed file is gone).
fn applied(fs: &MemFs, plan: &Plan) -> MemFs {
    let mut out = fs.clone();
    crate::common::apply(&mut out, plan);
    out
}

fn after(plan: &Plan, path: &Path) -> Option<String> {
    plan.files.iter().find(|f| f.path == path).and_then(|f| f.after.clone())
}

fn is_ours(cmd: &str) -> bool {
    cmd.contains("agenthooks run --provider=")
}

// ---------------------------------------------------------------------------------------------
// JSON

fn text_strategy() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 _.\"'\\\\$`é/<>{}\\[\\]:,\n\t-]{0,12}"
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        (-1.0e6f64..1.0e6).prop_map(|f| Value::from((f * 100.0).round() / 100.0 + 0.5)),
        text_strategy().prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec((text_strategy(), inner), 0..3)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn foreign_handler(flat: bool) -> impl Strategy<Value = Value> {
    (
        text_strategy(),
        prop::option::of(1u32..1000),
        prop::option::of(json_value()),
    )
        .prop_map(move |(cmd, timeout, extra)| {
            let mut h = Map::new();
            h.insert("type".into(), "command".into());
            h.insert("command".into(), Value::String(format!("theirs {cmd}")));
            if let Some(t) = timeout {
                h.insert(if flat { "timeoutSec" } else { "timeout" }.into(), t.into());
            }
            if let Some(e) = extra {
                h.insert("x-extra".into(), e);
            }
            Value::Object(h)
        })
}

fn foreign_group() -> impl Strategy<Value = Value> {
    (
        prop::option::of(text_strategy()),
        prop::collection::vec(foreign_handler(false), 0..3),
    )
        .prop_map(|(matcher, hooks)| {
            let mut g = Map::new();
            if let Some(m) = matcher {
                g.insert("matcher".into(), m.into());
            }
            g.insert("hooks".into(), Value::Array(hooks));
            Value::Object(g)
        })
}

const EVENTS: &[&str] = &[
    "PreToolUse",
    "Stop",
    "SessionStart",
    "BeforeTool",
    "preToolUse",
    "agentStop",
    "Custom",
];

fn hooks_object(flat: bool) -> impl Strategy<Value = Value> {
    // Empty containers too: `hooks: {}`, an event holding `[]`, a group with no handlers.
    let items = if flat {
        prop::collection::vec(foreign_handler(true), 0..3).boxed()
    } else {
        prop::collection::vec(foreign_group(), 0..3).boxed()
    };
    prop::collection::vec((prop::sample::select(EVENTS), items), 0..4).prop_map(|evs| {
        let mut m = Map::new();
        for (e, items) in evs {
            m.insert(e.to_owned(), Value::Array(items));
        }
        Value::Object(m)
    })
}

/// A document in one of four styles (compact, pretty, four spaces, tabs), with or without a
/// final newline.
fn styled(v: &Value, style: usize, newline: bool) -> String {
    let mut s = match style {
        0 => serde_json::to_string(v).unwrap(),
        1 => serde_json::to_string_pretty(v).unwrap(),
        _ => {
            let indent: &[u8] = if style == 2 { b"    " } else { b"\t" };
            let mut buf = Vec::new();
            let mut ser =
                serde_json::Serializer::with_formatter(&mut buf, serde_json::ser::PrettyFormatter::with_indent(indent));
            serde::Serialize::serialize(v, &mut ser).unwrap();
            String::from_utf8(buf).unwrap()
        }
    };
    if newline {
        s.push('\n');
    }
    s
}

/// An OpenClaw config: foreign keys and a `plugins` object of any depth towards our entry,
/// empty or holding foreign entries and keys.
fn openclaw_doc() -> impl Strategy<Value = String> {
    let plugins = prop_oneof![
        Just(serde_json::json!({})),
        Just(serde_json::json!({"entries": {}})),
        Just(serde_json::json!({"entries": {"agenthooks": {}}})),
        Just(serde_json::json!({"entries": {"agenthooks": {"hooks": {}}}})),
        json_value().prop_map(|v| serde_json::json!({"entries": {"memory": {"enabled": false, "x": v}}})),
        json_value().prop_map(|v| serde_json::json!({"entries": {"agenthooks": {"config": v}}, "allow": ["a"]})),
    ];
    (
        prop::collection::vec(("[a-z]{1,6}", json_value()), 0..3),
        prop::option::of(plugins),
        0usize..4,
        any::<bool>(),
    )
        .prop_map(|(keys, plugins, style, newline)| {
            let mut m: Map<String, Value> = keys.into_iter().filter(|(k, _)| k != "plugins").collect();
            if let Some(p) = plugins {
                m.insert("plugins".into(), p);
            }
            styled(&Value::Object(m), style, newline)
        })
}

/// A foreign document and a formatting style.
fn json_doc(flat: bool) -> impl Strategy<Value = String> {
    (
        prop::collection::vec(("[a-z]{1,6}", json_value()), 0..4),
        prop::option::of(hooks_object(flat)),
        any::<prop::sample::Index>(),
        0usize..4,
        any::<bool>(),
    )
        .prop_map(|(keys, hooks, pos, style, newline)| {
            let mut entries: Vec<(String, Value)> = keys.into_iter().filter(|(k, _)| k != "hooks").collect();
            if let Some(h) = hooks {
                let at = pos.index(entries.len() + 1);
                entries.insert(at, ("hooks".into(), h));
            }
            // Files holding nothing else (`{}`, `{"hooks": {}}`) included: the install record
            // says we did not create them.
            styled(&Value::Object(entries.into_iter().collect()), style, newline)
        })
}

/// A JSON document made JSON-with-comments: numbered `//` comments at line ends, a block
/// comment first, and CRLF line breaks (pretty JSON has no raw line break inside a string).
fn jsonc_doc(docs: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    (
        docs,
        prop::collection::vec(any::<bool>(), 0..40),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(doc, marks, head, crlf)| {
            let mut n = 0;
            let mut lines: Vec<String> = Vec::new();
            if head {
                lines.push("/* head */".into());
            }
            for (i, l) in doc.split('\n').enumerate() {
                if marks.get(i).copied().unwrap_or(false) && !l.is_empty() {
                    n += 1;
                    lines.push(format!("{l} // c{n}"));
                } else {
                    lines.push(l.to_owned());
                }
            }
            let s = lines.join("\n");
            if crlf {
                s.replace('\n', "\r\n")
            } else {
                s
            }
        })
}

/// The document without its comments (strings respected).
fn uncomment(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let (mut i, mut in_str) = (0, false);
    while i < b.len() {
        match (in_str, b[i], b.get(i + 1)) {
            (true, b'\\', _) => {
                out.extend_from_slice(&b[i..i + 2]);
                i += 2;
                continue;
            }
            (_, b'"', _) => in_str = !in_str,
            (false, b'/', Some(b'/')) => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            (false, b'/', Some(b'*')) => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                i = end;
                continue;
            }
            _ => {}
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

/// The comments of a document, in order.
fn jsonc_comments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("// c") {
        let end = rest[i..].find(['\r', '\n']).map_or(rest.len(), |e| i + e);
        out.push(rest[i..end].to_owned());
        rest = &rest[end..];
    }
    out
}

/// Removes our handlers from a parsed document, pruning what they leave empty unless the
/// original document (`orig`) has it.
fn strip_ours(v: &Value, flat: bool, orig: &Value) -> Value {
    let mut v = v.clone();
    let Some(hooks) = v.get_mut("hooks").and_then(Value::as_object_mut) else {
        return v;
    };
    let mut out = Map::new();
    for (ev, items) in hooks.iter() {
        let Some(items) = items.as_array() else { continue };
        let mut kept = Vec::new();
        for item in items {
            if flat {
                if !item.get("command").and_then(Value::as_str).is_some_and(is_ours) {
                    kept.push(item.clone());
                }
            } else {
                let all = item["hooks"].as_array().unwrap();
                let hs: Vec<Value> = all
                    .iter()
                    .filter(|h| !h.get("command").and_then(Value::as_str).is_some_and(is_ours))
                    .cloned()
                    .collect();
                if !hs.is_empty() || all.is_empty() {
                    let mut g = item.clone();
                    g["hooks"] = Value::Array(hs);
                    kept.push(g);
                }
            }
        }
        if !kept.is_empty()
            || orig
                .pointer(&format!("/hooks/{}", ev.replace('~', "~0").replace('/', "~1")))
                .is_some()
        {
            out.insert(ev.clone(), Value::Array(kept));
        }
    }
    if out.is_empty() && orig.get("hooks").is_none() {
        v.as_object_mut().unwrap().remove("hooks");
    } else {
        v["hooks"] = Value::Object(out);
    }
    v
}

/// A document with CRLF line ends.
fn crlf(doc: &str) -> String {
    doc.replace('\n', "\r\n")
}

/// A file whose every line ended in CRLF still does (the lines we add too).
fn line_ends_kept(original: &str, now: &str) -> Result<(), TestCaseError> {
    let (cr, lf) = (|t: &str| t.matches("\r\n").count(), |t: &str| t.matches('\n').count());
    if lf(original) > 0 && cr(original) == lf(original) {
        prop_assert_eq!(cr(now), lf(now), "a bare LF in a CRLF file:\n{:?}", now);
    }
    Ok(())
}

fn check_json(target: &Target, path: &Path, original: &str, flat: bool) -> Result<(), TestCaseError> {
    let comments = target.provider == Provider::GEMINI;
    let fs = MemFs::new().with(path, original);
    let plan = plan_install(&m1(), target, &fs).unwrap();
    let installed = after(&plan, path).unwrap();
    line_ends_kept(original, &installed)?;
    let parsed: Value =
        serde_json::from_str(&uncomment(&installed)).map_err(|e| TestCaseError::fail(format!("{e}: {installed}")))?;
    let orig_v: Value = serde_json::from_str(&uncomment(original)).unwrap();
    // Every foreign key, hook, empty container and ordering kept (compared with
    // order-sensitive serialization), and every comment, in order.
    prop_assert_eq!(
        serde_json::to_string(&strip_ours(&parsed, flat, &orig_v)).unwrap(),
        serde_json::to_string(&orig_v).unwrap()
    );
    if comments {
        prop_assert_eq!(jsonc_comments(&installed), jsonc_comments(original), "{}", installed);
    }
    // Ours are there: as many as a fresh install writes.
    let ours = |text: &str| {
        let mut cmds = Vec::new();
        crate::common::json_commands(&serde_json::from_str(&uncomment(text)).unwrap(), &mut cmds);
        cmds.iter().filter(|c| is_ours(c)).count()
    };
    let fresh = plan_install(&m1(), target, &MemFs::new()).unwrap();
    prop_assert_eq!(ours(&installed), ours(&after(&fresh, path).unwrap()));
    // Idempotent (the install record included).
    let fs2 = applied(&fs, &plan);
    let again = plan_install(&m1(), target, &fs2).unwrap();
    prop_assert!(again.is_noop());
    // uninstall ∘ install = identity, byte for byte; nothing else left (the record neither).
    let un = plan_uninstall(&m1(), target, &fs2).unwrap();
    prop_assert_eq!(applied(&fs2, &un), fs.clone());
    // A changed manifest replaces only ours, and uninstalling it gives the original back.
    let re = plan_install(&m2(), target, &fs2).unwrap();
    let direct = plan_install(&m2(), target, &fs).unwrap();
    prop_assert_eq!(after(&re, path), after(&direct, path));
    line_ends_kept(original, &after(&re, path).unwrap())?;
    let fs3 = applied(&fs2, &re);
    let un2 = plan_uninstall(&m2(), target, &fs3).unwrap();
    prop_assert_eq!(applied(&fs3, &un2), fs);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Each document goes through every JSON target without comments.
    #[test]
    fn settings_and_hooks_json(doc in json_doc(false)) {
        for (provider, path) in [
            (Provider::CLAUDE_CODE, "/p/.claude/settings.json"),
            (Provider::GEMINI, "/p/.gemini/settings.json"),
            (Provider::CODEX, "/p/.codex/hooks.json"),
            (Provider::DROID, "/p/.factory/settings.json"),
        ] {
            check_json(&Target::project(provider, ROOT, HOME), Path::new(path), &doc, false)?;
        }
    }

    #[test]
    fn copilot_hooks_json(doc in json_doc(true)) {
        let t = Target::project(Provider::COPILOT, ROOT, HOME);
        check_json(&t, Path::new("/p/.github/hooks/guard.json"), &doc, true)?;
    }

    /// Gemini's settings with comments and CRLF line breaks.
    #[test]
    fn gemini_settings_jsonc(doc in jsonc_doc(json_doc(false))) {
        let t = Target::project(Provider::GEMINI, ROOT, HOME);
        check_json(&t, Path::new("/p/.gemini/settings.json"), &doc, false)?;
    }

    /// OpenClaw's config (comments, CRLF): our entry merged in and removed again, the plugin
    /// files created and deleted, the config never deleted.
    #[test]
    fn openclaw_config_jsonc(doc in jsonc_doc(openclaw_doc())) {
        let t = Target::user(Provider::OPENCLAW, HOME);
        let path = Path::new("/h/.openclaw/openclaw.json");
        let fs = MemFs::new().with(path, doc.clone());
        let plan = plan_install(&m1(), &t, &fs).unwrap();
        let fs2 = applied(&fs, &plan);
        prop_assert!(fs2.files[path].contains("\"agenthooks\""));
        line_ends_kept(&doc, &fs2.files[path])?;
        prop_assert_eq!(jsonc_comments(&fs2.files[path]), jsonc_comments(&doc));
        prop_assert!(plan_install(&m1(), &t, &fs2).unwrap().is_noop());
        let un = plan_uninstall(&m1(), &t, &fs2).unwrap();
        prop_assert_eq!(applied(&fs2, &un), fs.clone());
        let fs3 = applied(&fs2, &plan_install(&m2(), &t, &fs2).unwrap());
        let un2 = plan_uninstall(&m2(), &t, &fs3).unwrap();
        prop_assert_eq!(applied(&fs3, &un2), fs);
    }

    /// Cursor's hooks.json v1 (flat, `version` first when we create it).
    #[test]
    fn cursor_hooks_json(doc in json_doc(true)) {
        let t = Target::project(Provider::CURSOR, ROOT, HOME);
        check_json(&t, Path::new("/p/.cursor/hooks.json"), &doc, true)?;
    }

    /// CRLF files of every JSON target: what install adds has CRLF line ends too, and
    /// uninstall gives the file back byte for byte (`check_json`).
    #[test]
    fn crlf_json_files(doc in json_doc(false), flat in json_doc(true)) {
        for (provider, path) in [
            (Provider::CLAUDE_CODE, "/p/.claude/settings.json"),
            (Provider::GEMINI, "/p/.gemini/settings.json"),
            (Provider::CODEX, "/p/.codex/hooks.json"),
            (Provider::DROID, "/p/.factory/settings.json"),
        ] {
            check_json(&Target::project(provider, ROOT, HOME), Path::new(path), &crlf(&doc), false)?;
        }
        for (provider, path) in [
            (Provider::COPILOT, "/p/.github/hooks/guard.json"),
            (Provider::CURSOR, "/p/.cursor/hooks.json"),
        ] {
            check_json(&Target::project(provider, ROOT, HOME), Path::new(path), &crlf(&flat), true)?;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TOML

fn comment() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 _.'\"$`#=\\[\\]-]{0,16}".prop_map(|c| format!("# {c}"))
}

fn toml_scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i32>().prop_map(|i| i.to_string()),
        any::<bool>().prop_map(|b| b.to_string()),
        "[a-zA-Z0-9 _.'$`-]{0,10}".prop_map(|s| format!("{s:?}")),
        "[a-zA-Z0-9 _.\"$`-]{0,10}".prop_map(|s| format!("'{s}'")),
        prop::collection::vec(any::<i16>(), 0..3).prop_map(|v| format!("{v:?}")),
    ]
}

/// Key-value lines, each optionally preceded by a comment and followed by an inline comment;
/// some keys dotted under one implicit table (`dot.k = …`), so that plain keys can separate the
/// dotted keys of one table (which `toml_edit` renders next to each other).
fn kv_lines(prefix: &'static str) -> impl Strategy<Value = Vec<String>> {
    prop::collection::btree_map(
        "[a-z]{1,6}",
        (
            toml_scalar(),
            prop::option::of(comment()),
            prop::option::of(comment()),
            prop::bool::weighted(0.4),
        ),
        0..4,
    )
    .prop_map(move |kvs| {
        let mut out = Vec::new();
        for (k, (v, above, inline, dotted)) in kvs {
            if let Some(c) = above {
                out.push(c);
            }
            let k = if dotted {
                format!("{prefix}dot.{k}")
            } else {
                format!("{prefix}{k}")
            };
            out.push(match inline {
                Some(c) => format!("{k} = {v} {c}"),
                None => format!("{k} = {v}"),
            });
        }
        out
    })
}

#[derive(Debug, Clone)]
enum Section {
    Table(Vec<String>),
    KimiHook(Vec<String>),
    CodexGroup(Vec<String>),
    Trust(Vec<String>),
    Project(Vec<String>),
    /// An empty table or array of the shape we write into (`[hooks]`, `[hooks.state]`,
    /// `hooks = []`, `[hooks]` + `Stop = []`).
    Empty(Vec<String>),
    Blank,
}

/// Empty containers of the shapes we write into.
const EMPTY_CONTAINERS: &[&[&str]] = &[
    &["[hooks]"],
    &["[hooks.state]"],
    &["hooks = []"],
    &["[hooks]", "Stop = []"],
    &["[hooks]", "[hooks.state]"],
];

fn section() -> impl Strategy<Value = Section> {
    prop_oneof![
        ("[a-z]{1,6}", kv_lines(""), prop::option::of(comment())).prop_map(|(name, kvs, c)| {
            let mut l: Vec<String> = c.into_iter().collect();
            l.push(format!("[t_{name}]"));
            l.extend(kvs);
            Section::Table(l)
        }),
        (
            prop::sample::select(&["PreToolUse", "Stop", "SessionStart"][..]),
            "[a-z '$`]{0,10}",
            prop::option::of(comment()),
            prop::option::of(1u32..600)
        )
            .prop_map(|(ev, cmd, c, timeout)| {
                let mut l: Vec<String> = c.into_iter().collect();
                l.push("[[hooks]]".into());
                l.push(format!("event = \"{ev}\""));
                l.push(format!("command = {:?}", format!("theirs {cmd}")));
                if let Some(t) = timeout {
                    l.push(format!("timeout = {t}"));
                }
                Section::KimiHook(l)
            }),
        (
            prop::sample::select(&["PreToolUse", "Stop", "SessionStart"][..]),
            "[a-z '$`]{0,10}",
            prop::option::of(comment()),
            prop::option::of("[A-Za-z|]{1,8}")
        )
            .prop_map(|(ev, cmd, c, matcher)| {
                let mut l: Vec<String> = c.into_iter().collect();
                l.push(format!("[[hooks.{ev}]]"));
                if let Some(m) = matcher {
                    l.push(format!("matcher = {m:?}"));
                }
                l.push(format!("[[hooks.{ev}.hooks]]"));
                l.push("type = \"command\"".into());
                l.push(format!("command = {:?}", format!("theirs {cmd}")));
                Section::CodexGroup(l)
            }),
        ("[a-z/.:]{1,16}", "[0-9a-f]{8}", prop::option::of(comment())).prop_map(|(k, h, c)| {
            let mut l: Vec<String> = c.into_iter().collect();
            l.push(format!("[hooks.state.\"/foreign/{k}\"]"));
            l.push(format!("trusted_hash = \"sha256:{h}\""));
            Section::Trust(l)
        }),
        ("[a-z/]{1,12}", prop::option::of(comment())).prop_map(|(p, c)| {
            let mut l: Vec<String> = c.into_iter().collect();
            l.push(format!("[projects.\"/{p}\"]"));
            l.push("trust_level = \"untrusted\"".into());
            Section::Project(l)
        }),
        prop::sample::select(EMPTY_CONTAINERS)
            .prop_map(|l| Section::Empty(l.iter().map(|x| (*x).to_owned()).collect())),
        Just(Section::Blank),
    ]
}

/// A TOML document built from root key-values and sections of the kinds `allowed` lets in.
fn toml_doc(allowed: fn(&Section) -> bool) -> impl Strategy<Value = String> {
    (
        prop::option::of(comment()),
        kv_lines(""),
        prop::collection::vec(section(), 0..6),
        prop::option::of(comment()),
        any::<bool>(),
    )
        .prop_map(move |(head, root, sections, tail, newline)| {
            let mut lines: Vec<String> = head.into_iter().collect();
            lines.extend(root);
            let mut names = BTreeSet::new();
            for s in sections.into_iter().filter(allowed) {
                match s {
                    Section::Blank => lines.push(String::new()),
                    // a root key: before every table
                    Section::Empty(l) if !l[0].starts_with('[') => {
                        if names.insert(l[0].clone()) {
                            lines.splice(0..0, l);
                        }
                    }
                    Section::Empty(l) => {
                        if names.insert(l[0].clone()) && l.iter().skip(1).all(|x| names.insert(x.clone())) {
                            lines.extend(l);
                        }
                    }
                    Section::Table(l) | Section::Trust(l) | Section::Project(l) => {
                        let header = l.iter().find(|x| x.starts_with('[')).cloned().unwrap_or_default();
                        if names.insert(header) {
                            lines.extend(l);
                        }
                    }
                    Section::KimiHook(l) | Section::CodexGroup(l) => lines.extend(l),
                }
            }
            lines.extend(tail);
            let mut s = lines.join("\n");
            if newline && !s.is_empty() {
                s.push('\n');
            }
            s
        })
        // Blank files too: the install record says we did not create them.
        .prop_filter("valid TOML", |s| s.parse::<toml_edit::DocumentMut>().is_ok())
}

fn comments(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.find("# ").map(|i| l[i..].to_owned()))
        .collect()
}

fn check_toml(
    target: &Target,
    path: &Path,
    original: &str,
    fs_extra: &[(PathBuf, String)],
) -> Result<(), TestCaseError> {
    let mut fs = MemFs::new().with(path, original);
    for (p, t) in fs_extra {
        fs = fs.with(p, t.clone());
    }
    let plan = plan_install(&m1(), target, &fs).unwrap();
    let installed = after(&plan, path).unwrap();
    line_ends_kept(original, &installed)?;
    installed
        .parse::<toml_edit::DocumentMut>()
        .map_err(|e| TestCaseError::fail(format!("{e}\n{installed}")))?;
    // Every comment kept, in order (we add none).
    prop_assert_eq!(comments(&installed), comments(original), "{}", installed);
    // Every foreign line kept, in its order (but an empty inline array we fill).
    let mut rest = installed.lines();
    for line in original
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.ends_with("= []"))
    {
        prop_assert!(rest.any(|l| l == line), "lost or moved `{}` in\n{}", line, installed);
    }
    let fs2 = applied(&fs, &plan);
    // Idempotent.
    let again = plan_install(&m1(), target, &fs2).unwrap();
    prop_assert!(
        again.is_noop(),
        "{:?}",
        again
            .changes()
            .map(agenthooks_install::FileChange::unified_diff)
            .collect::<Vec<_>>()
    );
    // uninstall ∘ install = identity, byte for byte; nothing else left (the record neither).
    let un = plan_uninstall(&m1(), target, &fs2).unwrap();
    let restored = after(&un, path);
    prop_assert_eq!(restored.as_deref(), Some(original));
    prop_assert_eq!(applied(&fs2, &un), fs.clone());
    // A changed manifest replaces only ours: our entries equal a direct install's, and
    // uninstalling them gives the original back.
    let re = plan_install(&m2(), target, &fs2).unwrap();
    let direct = plan_install(&m2(), target, &fs).unwrap();
    let ours = |p: &Plan| p.files.iter().find(|f| f.path == path).map(|f| f.ours_after.clone());
    prop_assert_eq!(ours(&re), ours(&direct));
    let fs3 = applied(&fs2, &re);
    let un2 = plan_uninstall(&m2(), target, &fs3).unwrap();
    let restored2 = after(&un2, path);
    prop_assert_eq!(restored2.as_deref(), Some(original));
    Ok(())
}

fn kimi_sections(s: &Section) -> bool {
    match s {
        Section::Empty(l) => l[0] == "hooks = []",
        _ => matches!(s, Section::Table(_) | Section::KimiHook(_) | Section::Blank),
    }
}

fn codex_sections(s: &Section) -> bool {
    match s {
        Section::Empty(l) => l[0].starts_with("[hooks"),
        _ => matches!(
            s,
            Section::Table(_) | Section::CodexGroup(_) | Section::Trust(_) | Section::Project(_) | Section::Blank
        ),
    }
}

fn trust_sections(s: &Section) -> bool {
    match s {
        Section::Empty(l) => l[0].starts_with("[hooks") && (l.len() == 1 || l[1] == "[hooks.state]"),
        _ => matches!(
            s,
            Section::Table(_) | Section::Trust(_) | Section::Project(_) | Section::Blank
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn kimi_config_toml(doc in toml_doc(kimi_sections)) {
        let t = Target::user(Provider::KIMI, HOME);
        check_toml(&t, Path::new("/h/.kimi-code/config.toml"), &doc, &[])?;
    }

    #[test]
    fn codex_trust_config_toml(doc in toml_doc(trust_sections)) {
        let t = Target::project(Provider::CODEX, ROOT, HOME);
        check_toml(&t, Path::new("/h/.codex/config.toml"), &doc, &[])?;
    }

    #[test]
    fn codex_inline_config_toml(doc in toml_doc(codex_sections)) {
        // User scope inline: hooks and trust share one file.
        let t = Target::user(Provider::CODEX, HOME).with_options(agenthooks_install::CodexOptions::default().with_inline_toml(true));
        check_toml(&t, Path::new("/h/.codex/config.toml"), &doc, &[])?;
    }

    /// CRLF TOML files: Kimi's config, Codex trust entries and Codex inline hooks.
    #[test]
    fn crlf_toml_files(kimi in toml_doc(kimi_sections), trust in toml_doc(trust_sections), inline in toml_doc(codex_sections)) {
        check_toml(&Target::user(Provider::KIMI, HOME), Path::new("/h/.kimi-code/config.toml"), &crlf(&kimi), &[])?;
        check_toml(&Target::project(Provider::CODEX, ROOT, HOME), Path::new("/h/.codex/config.toml"), &crlf(&trust), &[])?;
        let t = Target::user(Provider::CODEX, HOME).with_options(agenthooks_install::CodexOptions::default().with_inline_toml(true));
        check_toml(&t, Path::new("/h/.codex/config.toml"), &crlf(&inline), &[])?;
    }
}
