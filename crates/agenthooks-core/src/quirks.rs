//! The quirk registry (design §9): typed, static entries that docs and tests read.
//!
//! Core seeds the design's entries #1–#20, corrected where the provider references found the
//! design wrong (noted in [`Quirk::correction`]). Provider crates add theirs through
//! [`Codec::quirks`](crate::Codec::quirks), numbered in their own range so ids never collide:
//! the design's numbers 1–99, then 100s Claude Code, 200s Codex, 300s Gemini, 400s Copilot,
//! 500s Kimi, 600s Cursor, 700s OpenCode, 800s OpenClaw, 900s Qwen Code, 1000–1099 Factory Droid.

use std::fmt;

use crate::capability::Capability;

/// Whether the registry entry is still live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum QuirkStatus {
    /// Confirmed against the agent (source, docs or a real run).
    Confirmed,
    /// Carried over from the design; not re-verified, workaround kept.
    Unverified,
    /// Fixed upstream in later versions; kept for older ones.
    FixedUpstream,
    /// An open question that a real-agent test must settle.
    Open,
}

/// One quirk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Quirk {
    /// Stable number (see the module docs for ranges).
    pub id: u16,
    /// Provider wire strings affected (`"*"` for all).
    pub providers: &'static [&'static str],
    /// Affected versions, free text (`"2.1.x"`, `"< 2026-05-20"`, `"all"`).
    pub versions: &'static str,
    /// Native events affected (empty: all).
    pub events: &'static [&'static str],
    /// Capabilities affected (empty: none in particular).
    pub capabilities: &'static [Capability],
    /// What the agent does.
    pub behaviour: &'static str,
    /// What agenthooks does about it.
    pub mitigation: &'static str,
    /// Where it was established (docs, source file, issue, e2e run).
    pub upstream: &'static str,
    /// How the references corrected the design's entry, if they did.
    pub correction: Option<&'static str>,
    /// Status.
    pub status: QuirkStatus,
}

impl Quirk {
    /// A quirk with the required fields; the rest default.
    pub const fn new(
        id: u16,
        providers: &'static [&'static str],
        behaviour: &'static str,
        mitigation: &'static str,
    ) -> Self {
        Self {
            id,
            providers,
            versions: "all",
            events: &[],
            capabilities: &[],
            behaviour,
            mitigation,
            upstream: "",
            correction: None,
            status: QuirkStatus::Confirmed,
        }
    }

    /// Whether it affects a provider.
    pub fn affects(&self, provider: &str) -> bool {
        self.providers.iter().any(|p| *p == "*" || *p == provider)
    }
}

crate::setters! {
    impl Quirk {
        /// Sets the versions.
        const versions(versions: &'static str);
        /// Sets the events.
        const events(events: &'static [&'static str]);
        /// Sets the capabilities.
        const capabilities(capabilities: &'static [Capability]);
        /// Sets the upstream reference.
        const upstream(upstream: &'static str);
        /// Records a correction of the design's entry.
        const correction(correction: &'static str) => Some;
        /// Sets the status.
        const status(status: QuirkStatus);
    }
}

/// Whether a quirk table's ids are strictly increasing (sorted, none twice): the order every
/// provider crate keeps its table in.
pub fn ids_strictly_increasing(quirks: &[Quirk]) -> bool {
    quirks.windows(2).all(|w| w[0].id < w[1].id)
}

impl fmt::Display for Quirk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "#{} [{}] {} → {}",
            self.id,
            self.providers.join(","),
            self.behaviour,
            self.mitigation
        )
    }
}

use Capability as C;

/// The design's seeded entries #1–#20 (cross-provider facts live here; provider crates add
/// their own entries).
pub static SEEDED: &[Quirk] = &[
    Quirk::new(1, &["claude-code"], "Claude cowork skips async Stop hooks.", "Install forces Stop hooks synchronous (never `async: true`).")
        .events(&["Stop", "SubagentStop"])
        .status(QuirkStatus::Unverified)
        .upstream("design §9; not visible in 2.1.332 source, workaround kept"),
    Quirk::new(2, &["cursor"], "Cursor fires preToolUse and beforeShellExecution/beforeMCPExecution for the same call.", "The Cursor codec dedupes them into one tool.pre and keeps both raws.")
        .events(&["preToolUse", "beforeShellExecution", "beforeMCPExecution"]),
    Quirk::new(3, &["cursor"], "Cursor MCP tools carry an `MCP:` prefix and MCP events lack a tool-call id.", "Strip the prefix into McpCall; synthesize stable ids.")
        .events(&["beforeMCPExecution", "afterMCPExecution", "preToolUse"]),
    Quirk::new(4, &["cursor"], "Cursor ≥ 2.0.64 requires snake_case output fields; 1.7 used camelCase.", "Emit snake_case plus the harmless legacy `continue` field.")
        .versions(">= 2.0.64"),
    Quirk::new(5, &["cursor"], "Cursor sends tool_input as an object on preToolUse and as a JSON string on MCP events.", "Normalize to an object; ToolCall::raw_input keeps the original."),
    Quirk::new(6, &["cursor"], "Cursor CLI before 2026-05-20 passes the payload in argv; the Windows CLI double-fires; cloud/CLI fire subsets.", "`--argv-payload` transport; idempotency via synthesized ids; capabilities per variant.")
        .versions("cursor-agent < 2026-05-20"),
    Quirk::new(7, &["cursor"], "Cursor fails open by default: a crashed hook allows the action.", "Install sets `failClosed: true` on decision hooks when the policy fails closed.")
        .capabilities(&[C::Deny]),
    Quirk::new(8, &["codex"], "Codex rejects unknown JSON on stdout; `ask` (and a bare allow) fail the hook run; empty stdout is no opinion.", "Exact dialect; ask degrades per policy; allow only with a rewrite; no-decision is empty stdout.")
        .capabilities(&[C::Ask, C::Allow])
        .correction("The design said empty stdout = allow; it is \"no opinion\" (reference codex.md §7).")
        .upstream("codex-rs hooks output parser, 0.171"),
    Quirk::new(9, &["codex"], "Codex runs a hook only when its definition hash is trusted in `[hooks.state]`; untrusted hooks are skipped silently.", "Install computes the state key and trusted hash and writes `[hooks.state]`.")
        .upstream("reference codex.md \"Trust — exact algorithm\"; checked by `codex app-server` hooks/list"),
    Quirk::new(10, &["codex"], "Codex parses `async: true` but runs the hook synchronously (version-dependent).", "Install renders a detached-worker wrapper for non-blocking hooks.")
        .correction("Version-dependent rather than always (reference codex.md §4)."),
    Quirk::new(11, &["gemini"], "Gemini blocks on any non-zero exit except 1 when stderr has text, and parses stderr as the decision when stdout is empty (JSON there wins over the exit code).", "Always write explicit JSON on stdout (`{}` for no decision); never a bare non-zero exit.")
        .capabilities(&[C::Deny]),
    Quirk::new(12, &["gemini"], "Gemini's hookSpecificOutput.tool_input is a shallow merge: keys cannot be removed.", "A rewrite that removes keys is an EncodeError (LossyUpdate), answered by the failure policy.")
        .capabilities(&[C::UpdateInput]),
    Quirk::new(13, &["gemini"], "Gemini HTML-escapes `<` and `>` in additionalContext.", "Documented loss (⚠ in the Gemini codec docs).")
        .capabilities(&[C::AddContext]),
    Quirk::new(14, &["gemini"], "Gemini hook timeouts are milliseconds; everyone else uses seconds.", "Durations everywhere; codecs and install convert."),
    Quirk::new(15, &["*"], "MCP tool naming differs: mcp__s__t (Claude/Codex), mcp_s_t (Gemini), MCP: prefix (Cursor), in-context (OpenCode).", "One McpCall on ToolCall; the matcher compiler emits each dialect."),
    Quirk::new(16, &["claude-code", "codex", "cursor"], "Tool hooks have blind spots: Claude @file reads, Bash file writes and typed /skill bypass tool hooks; Cursor AskQuestion fires none; Codex intercepts only shell, apply_patch and MCP.", "Documented blind-spot matrix per provider; capabilities reflect it."),
    Quirk::new(17, &["claude-code"], "Claude: empty stdout is not an allow; no-decision must not force-allow.", "Explicit no-decision encoding everywhere (`{}` on Claude).")
        .capabilities(&[C::Allow])
        .upstream("reference claude-code.md §3, confirmed"),
    Quirk::new(18, &["opencode"], "OpenCode's permission.ask hook is typed but dead since 1.5.0.", "Permission flow via the HTTP reply plus a throw in tool.execute.before.")
        .versions(">= 1.5.0"),
    Quirk::new(19, &["*"], "Stop-loop guards differ: stop_hook_active (Claude, cap 8), loop_count/loop_limit (Cursor, 5 or null), Copilot caps 8 blocks, Kimi one continuation per turn.", "Unified StopEvent::previously_continued plus a library-side continuation cap.")
        .capabilities(&[C::ContinueAgent]),
    Quirk::new(20, &["codex", "cursor", "gemini", "copilot"], "Agents cross-set env vars (CLAUDE_PLUGIN_ROOT on Codex, CLAUDE_PROJECT_DIR on Cursor/Gemini/Copilot).", "Provider detection is flag-first; env sniffing only as a fallback."),
];

/// A table of quirks that [`registry`] merges with the seeded ones: every
/// [`Codec`](crate::Codec) is one (its [`Codec::quirks`](crate::Codec::quirks)).
pub trait QuirkSource {
    /// The quirks this source adds.
    fn quirk_table(&self) -> &'static [Quirk];
}

/// Every quirk: the seeded ones plus those of the given codecs, sorted by id, deduplicated.
///
/// ```
/// use agenthooks_core::quirks::registry;
/// use agenthooks_core::Codec;
/// let none: [&dyn Codec; 0] = [];
/// assert!(registry(none).iter().any(|q| q.id == 1));
/// ```
pub fn registry<I>(codecs: I) -> Vec<&'static Quirk>
where
    I: IntoIterator,
    I::Item: QuirkSource,
{
    let mut v: Vec<&'static Quirk> = SEEDED.iter().collect();
    for c in codecs {
        v.extend(c.quirk_table().iter());
    }
    v.sort_by_key(|q| q.id);
    v.dedup_by_key(|q| q.id);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_ids_are_unique_and_complete() {
        let ids: Vec<u16> = SEEDED.iter().map(|q| q.id).collect();
        assert_eq!(ids, (1..=20).collect::<Vec<_>>());
        assert!(SEEDED
            .iter()
            .all(|q| !q.behaviour.is_empty() && !q.mitigation.is_empty()));
        assert!(SEEDED[7].affects("codex") && !SEEDED[7].affects("gemini"));
        assert!(SEEDED[14].affects("anything"));
        assert_eq!(registry(Vec::<&dyn crate::Codec>::new()).len(), 20);
    }
}
