//! The generated hook command line.
//!
//! The quoting rule is [`agenthooks_runtime::shell`], shared with the testkit's spawner so
//! `agenthooks replay` runs exactly the command line install writes.

use std::time::Duration;

use agenthooks_core::Provider;
use agenthooks_runtime::shell::{self, QuoteError};

/// A command line for messages and ownership checks: quoted, or the raw words where one cannot
/// be quoted (a NUL byte, which no command install writes holds).
pub(crate) fn shown(argv: &[String]) -> String {
    shell::join(argv).unwrap_or_else(|_| argv.join(" "))
}

/// Formats seconds for `--timeout`: whole seconds bare, else up to millisecond precision.
pub(crate) fn format_secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_owned()
    }
}

/// The words after the consumer's command: `agenthooks run --provider=P --event=E --timeout=T`.
pub(crate) fn run_args(provider: &Provider, native: &str, timeout: Duration) -> Vec<String> {
    vec![
        "agenthooks".to_owned(),
        "run".to_owned(),
        format!("--provider={provider}"),
        format!("--event={native}"),
        format!("--timeout={}", format_secs(timeout)),
    ]
}

/// The full hook command line for one native event.
pub(crate) fn hook_command(
    prefix: &[String],
    provider: &Provider,
    native: &str,
    timeout: Duration,
) -> Result<String, QuoteError> {
    let mut argv: Vec<String> = prefix.to_vec();
    argv.extend(run_args(provider, native, timeout));
    shell::join(&argv)
}

/// Recognizes the commands a manifest generated: they contain the quoted command prefix
/// followed by ` agenthooks run --provider=`, starting at a word boundary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Owner {
    needle: String,
    /// The `owner=` query value of the warm http hooks this prefix renders.
    warm: String,
}

impl Owner {
    pub(crate) fn new(prefix: &[String]) -> Self {
        // A prefix that cannot be quoted (a NUL byte) was never written: its raw words, NUL
        // included, match no command.
        let shown = shown(prefix);
        let digest = agenthooks_core::digest::hex(&agenthooks_core::digest::sha256(shown.as_bytes()));
        Self {
            needle: format!("{shown} agenthooks run --provider="),
            warm: format!("owner={}", &digest[..16]),
        }
    }

    /// The `owner=…` query parameter that marks a warm http hook URL as this prefix's.
    pub(crate) fn warm_param(&self) -> &str {
        &self.warm
    }

    /// Whether `command` is one of ours.
    pub(crate) fn owns(&self, command: &str) -> bool {
        if command.starts_with("http://") && command.contains("/v1/hook/") {
            let query = command.split_once('?').map_or("", |(_, q)| q);
            return query.split('&').any(|p| p == self.warm);
        }
        command.match_indices(&self.needle).any(|(i, _)| {
            i == 0
                || command[..i]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_whitespace() || matches!(c, '(' | ';' | '&' | '|' | '{'))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds() {
        assert_eq!(format_secs(Duration::from_secs(30)), "30");
        assert_eq!(format_secs(Duration::from_millis(1500)), "1.5");
        assert_eq!(format_secs(Duration::from_millis(1)), "0.001");
        assert_eq!(format_secs(Duration::from_millis(60_250)), "60.25");
    }

    #[test]
    fn commands_and_ownership() {
        let prefix = vec!["/opt/my tools/guard".to_owned(), "--cfg".to_owned()];
        let c = hook_command(&prefix, &Provider::CLAUDE_CODE, "PreToolUse", Duration::from_secs(30)).unwrap();
        assert_eq!(
            c,
            "'/opt/my tools/guard' --cfg agenthooks run --provider=claude-code --event=PreToolUse --timeout=30"
        );
        let o = Owner::new(&prefix);
        assert!(o.owns(&c));
        assert!(o.owns(&format!("x=1; ( {c} ) &")));
        assert!(!o.owns("'/opt/my tools/guard' --cfg agenthooks ping"));
        let other = Owner::new(&["/opt/my tools/g".to_owned()]);
        assert!(!other.owns(&c));
        let suffix = Owner::new(&["guard".to_owned(), "--cfg".to_owned()]);
        assert!(!suffix.owns("/usr/bin/guard --cfg agenthooks run --provider=x"));
        assert!(suffix.owns("guard --cfg agenthooks run --provider=x"));
        let nul = vec!["g\0".to_owned()];
        assert!(hook_command(&nul, &Provider::CLAUDE_CODE, "PreToolUse", Duration::from_secs(1)).is_err());
        assert!(!Owner::new(&nul).owns("'g' agenthooks run --provider=x"));
    }
}
