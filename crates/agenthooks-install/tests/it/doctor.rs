//! `preflight` and `doctor`.

use std::path::Path;

use agenthooks_core::{CapSet, Capability, EventKind, Provider};
use agenthooks_install::{
    doctor, install, known_targets, preflight, DoctorOptions, FindingCode, HookSpec, Manifest, Severity, Target,
    ToolMatcher,
};

use crate::common::temp_dir;

/// A capability table shaped like the real codecs' (Codex cannot ask or bare-allow on
/// `PreToolUse`; Gemini has no permission event; Kimi's `PermissionRequest` cannot gate).
fn caps(p: &Provider, native: &str) -> CapSet {
    use Capability as C;
    match (p.as_str(), native) {
        ("codex", "PreToolUse") => CapSet::of(&[C::Deny, C::UpdateInput, C::AddContext]),
        ("kimi", "PermissionRequest") => CapSet::EMPTY,
        ("kimi", _) => CapSet::of(&[C::Deny]),
        _ => CapSet::ALL,
    }
}

#[test]
fn preflight_lists_what_each_agent_drops_or_degrades() {
    let m = Manifest::new(["/bin/g"], "g")
        .with_hook(
            HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::class(agenthooks_core::CanonicalTool::FileRead)),
        )
        .with_hook(HookSpec::kind(EventKind::Permission))
        .with_hook(HookSpec::kind(EventKind::Stop).with_uses(CapSet::of(&[Capability::ContinueAgent])));
    let targets = [
        Target::project(Provider::CODEX, "/p", "/h"),
        Target::project(Provider::GEMINI, "/p", "/h"),
        Target::user(Provider::KIMI, "/h"),
        Target::project(Provider::KIMI, "/p", "/h"),
    ];
    let r = preflight(&m, &targets, &caps);
    assert_eq!(r.targets.len(), 4);

    let codex = &r.targets[0];
    // Codex fires no file-read tool hooks: the PreToolUse hook is dropped.
    assert!(codex.hooks[0].native_events.is_empty());
    assert!(codex
        .findings
        .iter()
        .any(|f| f.code == FindingCode::MatcherUnreachable && f.severity == Severity::Dropped));
    assert!(codex.findings.iter().any(|f| f.code == FindingCode::ProjectTrust));

    let gemini = &r.targets[1];
    assert!(gemini
        .findings
        .iter()
        .any(|f| f.code == FindingCode::EventUnavailable && f.hook == Some(1)));
    assert_eq!(
        gemini.hooks[0].matcher.as_deref(),
        Some("^(?:read_file|read_many_files)$")
    );

    let kimi = &r.targets[2];
    let perm = kimi.hooks.iter().find(|h| h.hook == 1).unwrap();
    assert_eq!(perm.native_events, ["PermissionRequest"]);
    assert!(perm.missing.contains(Capability::Deny) && perm.missing.contains(Capability::Allow));
    let stop = kimi.hooks.iter().find(|h| h.hook == 2).unwrap();
    assert!(stop.missing.contains(Capability::ContinueAgent));
    assert!(kimi
        .findings
        .iter()
        .any(|f| f.code == FindingCode::CapabilityMissing && f.hook == Some(1)));

    assert!(r.targets[3].error.as_deref().unwrap().contains("no project hooks"));
    assert!(r.drops_anything());
    // The report serializes (for the CLI).
    let j = serde_json::to_value(&r).unwrap();
    assert_eq!(
        j["targets"][2]["hooks"][1]["missing"],
        serde_json::json!(["deny", "allow", "update-input"])
    );
}

#[cfg(unix)]
fn fake_binary(dir: &Path, providers: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join("bin dir/guard");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(
        &p,
        format!("#!/bin/sh\nif [ \"$1 $2\" = \"agenthooks ping\" ]; then echo '{{\"agenthooks\":\"pong\",\"version\":\"0.1.0\",\"providers\":[{providers}]}}'; fi\n"),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[cfg(unix)]
#[test]
fn doctor_reports_installs_trust_duplicates_and_the_command() {
    let dir = temp_dir("doctor");
    let home = dir.join("home");
    let bin = fake_binary(&dir, "\"claude-code\",\"codex\"");
    let m = Manifest::new([bin.to_str().unwrap()], "guard").with_hook(HookSpec::kind(EventKind::ToolPre));
    let claude_user = Target::user(Provider::CLAUDE_CODE, &home);
    let claude_project = Target::project(Provider::CLAUDE_CODE, &dir, &home);
    let codex = Target::project(Provider::CODEX, &dir, &home);
    for t in [&claude_user, &claude_project, &codex] {
        install(&m, t).unwrap();
    }
    let opts = DoctorOptions::default();
    let r = doctor(&m, &[claude_user.clone(), claude_project.clone(), codex.clone()], &opts);
    for t in &r.targets {
        assert!(t.up_to_date, "{t:?}");
        assert_eq!(
            t.installed.len(),
            if t.provider == Provider::CODEX { 2 } else { 1 },
            "{t:?}"
        );
    }
    // Codex: hook trust fine, project trust missing.
    let cx = &r.targets[2];
    assert!(
        !cx.findings.iter().any(|f| f.code == FindingCode::HookTrust),
        "{:?}",
        cx.findings
    );
    assert!(cx
        .findings
        .iter()
        .any(|f| f.code == FindingCode::ProjectTrust && f.severity == Severity::Error));
    // Claude user + project: the same event from two files.
    assert!(r
        .findings
        .iter()
        .any(|f| f.code == FindingCode::Duplicate && f.native_event.as_deref() == Some("PreToolUse")));
    // The command resolves and answers the ping.
    assert_eq!(r.command.resolved.as_deref(), Some(bin.as_path()));
    assert_eq!(r.command.pong.as_ref().unwrap()["agenthooks"], "pong");
    assert!(r.command.findings.is_empty(), "{:?}", r.command.findings);

    // Break Codex trust by editing our hook by hand.
    let hooks = dir.join(".codex/hooks.json");
    let text = std::fs::read_to_string(&hooks)
        .unwrap()
        .replace("\"timeout\": 600", "\"timeout\": 601");
    std::fs::write(&hooks, text).unwrap();
    let r = doctor(&m, std::slice::from_ref(&codex), &opts.clone().with_ping(false));
    let cx = &r.targets[0];
    assert!(!cx.up_to_date);
    assert!(cx.findings.iter().any(|f| f.code == FindingCode::Outdated));
    assert!(
        cx.findings
            .iter()
            .any(|f| f.code == FindingCode::HookTrust && f.message.contains("Codex skips it silently")),
        "{:?}",
        cx.findings
    );
    assert!(r.has_errors());

    // A malformed file is reported, not fatal.
    std::fs::write(home.join(".claude/settings.json"), "{").unwrap();
    let r = doctor(&m, &[claude_user], &opts.clone().with_ping(false));
    assert!(r.targets[0].findings.iter().any(|f| f.code == FindingCode::ParseError));

    // A binary without a codec for a target, and a missing binary.
    let gem = Target::project(Provider::GEMINI, &dir, &home);
    let r = doctor(&m, &[gem], &opts);
    assert!(
        r.command.findings.iter().any(|f| f.message.contains("no gemini codec")),
        "{:?}",
        r.command.findings
    );
    let missing = Manifest::new(["definitely-not-on-path-guard"], "guard");
    let r = doctor(&missing, &[], &opts.clone().with_path(dir.join("nowhere")));
    assert!(r.command.resolved.is_none() && r.has_errors());
}

#[test]
fn known_targets_cover_every_agent_and_scope() {
    let ts = known_targets("/p", "/h");
    let names: Vec<String> = ts.iter().map(|t| format!("{}:{}", t.provider, t.scope)).collect();
    assert_eq!(
        names,
        [
            "claude-code:user",
            "claude-code:project",
            "cursor:user",
            "cursor:project",
            "codex:user",
            "codex:project",
            "gemini:user",
            "gemini:project",
            "copilot:user",
            "copilot:project",
            "kimi:user",
            "opencode:user",
            "opencode:project",
            "openclaw:user",
            "openclaw:project",
            "qwen-code:user",
            "qwen-code:project",
            "droid:user",
            "droid:project"
        ]
    );
    let r = doctor(
        &Manifest::new(["/nonexistent/g"], "g"),
        &ts,
        &DoctorOptions::default().with_ping(false),
    );
    assert!(r.targets.iter().all(|t| t.installed.is_empty()));
}
