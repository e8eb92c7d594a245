//! From manifest hooks to one entry per native event for a target: kinds mapped to native
//! events, hooks on the same native event merged (so nothing fires twice), matchers compiled,
//! timeouts converted, commands built — and every loss reported as a [`Finding`].

use std::time::Duration;

use agenthooks_core::EventKind;

use crate::error::InstallError;
use crate::finding::{Finding, FindingCode, Severity};
use crate::hook::ResolvedHook;
use crate::manifest::{HookOn, Manifest};
use crate::matcher::{Compiled, MatcherFallback, ToolMatcher};
use crate::shell;
use crate::target::Target;
use crate::targets::spec::TargetModule;

struct Acc {
    specs: Vec<usize>,
    native: String,
    kind: EventKind,
    tool_matcher: bool,
    tools: Option<ToolMatcher>,
    blocking: bool,
    timeout: Option<Duration>,
    fail_closed: bool,
}

/// Resolves a manifest for a target.
pub(crate) fn resolve(
    manifest: &Manifest,
    target: &Target,
    m: &dyn TargetModule,
) -> Result<(Vec<ResolvedHook>, Vec<Finding>), InstallError> {
    let ts = m.spec();
    let provider = ts.provider.clone();
    let mut findings = Vec::new();
    let mut accs: Vec<Acc> = Vec::new();
    for (i, spec) in manifest.hooks.iter().enumerate() {
        let natives: Vec<(String, EventKind, bool)> = match &spec.on {
            HookOn::Kind(k) => {
                let natives = ts.natives_for(*k);
                if natives.is_empty() {
                    findings.push(
                        ts.finding(
                            Severity::Dropped,
                            FindingCode::EventUnavailable,
                            format!("{provider} has no event for `{k}`"),
                        )
                        .with_hook(i),
                    );
                    continue;
                }
                natives
                    .into_iter()
                    .map(|n| {
                        let row = ts.event(n);
                        let row_kind = row.map_or(*k, |r| r.kind);
                        if row_kind != *k {
                            findings.push(
                                ts.finding(
                                    Severity::Info,
                                    FindingCode::EventFolded,
                                    format!(
                                        "`{k}` arrives on {n} (together with `{row_kind}`); the codec tells them apart"
                                    ),
                                )
                                .with_hook(i)
                                .with_native(n),
                            );
                        }
                        (n.to_owned(), row_kind, row.is_some_and(|r| r.tool_matcher))
                    })
                    .collect()
            }
            HookOn::Native { provider: p, event } => {
                if *p != provider {
                    continue;
                }
                if let Some(why) = ts.why_not_installed(event) {
                    findings.push(
                        ts.finding(
                            Severity::Dropped,
                            FindingCode::EventUnavailable,
                            format!("{provider} {event} is not installed: {why}"),
                        )
                        .with_hook(i)
                        .with_native(event.clone()),
                    );
                    continue;
                }
                match ts.event(event) {
                    Some(row) => vec![(event.clone(), row.kind, row.tool_matcher)],
                    None => {
                        findings.push(
                            ts.finding(
                                Severity::Info,
                                FindingCode::UnknownNativeEvent,
                                format!("{event} is not a {provider} event this release knows; rendered as given"),
                            )
                            .with_hook(i)
                            .with_native(event.clone()),
                        );
                        vec![(event.clone(), EventKind::Other, !spec.tools.is_any())]
                    }
                }
            }
        };
        let closed = spec.effective_failure(manifest) == crate::manifest::FailurePolicy::Closed;
        for (native, kind, tool_matcher) in natives {
            let tools = if tool_matcher { Some(spec.tools.clone()) } else { None };
            if !tool_matcher && !spec.tools.is_any() {
                findings.push(
                    ts.finding(
                        Severity::Info,
                        FindingCode::MatcherIgnored,
                        format!("{native} has no tool matcher; the hook's tool filter does not apply"),
                    )
                    .with_hook(i)
                    .with_native(native.clone()),
                );
            }
            if let Some(acc) = accs.iter_mut().find(|a| a.native == native) {
                acc.specs.push(i);
                acc.blocking |= spec.blocking;
                acc.fail_closed |= closed;
                acc.timeout = match (acc.timeout, spec.timeout) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (a, b) => a.or(b),
                };
                acc.tools = match (&acc.tools, tools) {
                    (Some(a), Some(b)) => Some(a.union(&b)),
                    (a, b) => a.clone().or(b),
                };
            } else {
                accs.push(Acc {
                    specs: vec![i],
                    native,
                    kind,
                    tool_matcher,
                    tools,
                    blocking: spec.blocking,
                    timeout: spec.timeout,
                    fail_closed: closed,
                });
            }
        }
    }

    let mut out = Vec::new();
    for acc in accs {
        let first = acc.specs[0];
        if acc.specs.len() > 1 {
            let list: Vec<String> = acc.specs.iter().map(|i| format!("#{i}")).collect();
            findings.push(
                ts.finding(
                    Severity::Info,
                    FindingCode::EventFolded,
                    format!(
                        "hooks {} share {}: one entry (tool filters united, blocking if any is, the longest timeout)",
                        list.join(", "),
                        acc.native
                    ),
                )
                .with_hook(first)
                .with_native(acc.native.clone()),
            );
        }
        let mut matcher = None;
        // What the runner filters in-process (`--tools=…`) where the dialect cannot express it.
        let mut in_process = None;
        if let (true, Some(tools)) = (acc.tool_matcher, &acc.tools) {
            let c = ts.matcher.compile(ts.tools(), tools);
            if !c.unreachable.is_empty() {
                findings.push(
                    ts.finding(
                        Severity::Dropped,
                        FindingCode::MatcherUnreachable,
                        format!("{provider} fires no tool hooks for {}", c.unreachable.join(", ")),
                    )
                    .with_hook(first)
                    .with_native(acc.native.clone()),
                );
            }
            if !c.inexpressible.is_empty() {
                if tools.fallback == MatcherFallback::Error {
                    return Err(InstallError::MatcherNotExpressible {
                        hook: first,
                        provider,
                        why: c.inexpressible.join(", "),
                    });
                }
                findings.push(
                    ts.finding(Severity::Degraded, FindingCode::MatcherBroadened, format!(
                            "cannot express {} in {provider}'s matcher: the hook runs for every tool and the runner filters in-process (`--tools`)",
                            c.inexpressible.join(", ")
                        ),
                    )
                    .with_hook(first)
                    .with_native(acc.native.clone()),
                );
                in_process = Some(agenthooks_core::ToolSelector::from(tools));
            }
            match c.result {
                Compiled::All => {}
                Compiled::Pattern(p) => matcher = Some(p),
                Compiled::Never => {
                    findings.push(
                        ts.finding(
                            Severity::Dropped,
                            FindingCode::MatcherUnreachable,
                            "no tool this matcher selects fires hooks here: the hook is not rendered",
                        )
                        .with_hook(first)
                        .with_native(acc.native.clone()),
                    );
                    continue;
                }
            }
        }
        let t = ts.timeout(&acc.native, acc.timeout);
        if let Some(note) = &t.note {
            findings.push(
                ts.finding(
                    Severity::Degraded,
                    FindingCode::TimeoutAdjusted,
                    format!("timeout {note}"),
                )
                .with_hook(first)
                .with_native(acc.native.clone()),
            );
        }
        let mut command = shell::hook_command(&manifest.command, &provider, &acc.native, t.effective)?;
        if let Some(sel) = &in_process {
            command.push(' ');
            command.push_str(&agenthooks_runtime::shell::quote(&sel.to_arg())?);
        }
        for &token in ts.substituted_tokens {
            if command.contains(token) {
                return Err(InstallError::UnsafeCommand {
                    provider,
                    token,
                    command,
                });
            }
        }
        out.push(ResolvedHook {
            specs: acc.specs,
            native: acc.native,
            kind: acc.kind,
            matcher,
            blocking: acc.blocking,
            timeout_value: t.value,
            timeout: t.effective,
            command,
            tools: in_process,
            fail_closed: acc.fail_closed,
        });
    }
    findings.extend(m.notes(target, manifest, &out));
    Ok((out, findings))
}
