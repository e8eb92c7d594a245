//! A secret guard built on agenthooks, written once for every agent.
//!
//! - `tool.pre` / `permission.request`: when the tool input contains a credential (AWS access
//!   keys, private keys, GitHub/GitLab/Slack/OpenAI/Anthropic/Google tokens, JWTs), the guard
//!   **asks the user**, with context explaining why. Where an agent cannot ask, the policy's
//!   `AskFallback::Deny` turns the ask into a deny — the handler never branches on the provider.
//! - `prompt.submitted`: a prompt carrying a credential is blocked (a prompt cannot be "asked").
//! - `tool.post`: output that contains a credential is flagged to the model.
//! - Every event is logged through an observer (tracing; stderr or the log file, never stdout).

pub mod demo;

use std::sync::LazyLock;

use agenthooks::prelude::*;
use regex::RegexSet;

/// The kinds of credential the guard recognises, with their patterns (compiled once).
pub const DETECTORS: &[(&str, &str)] = &[
    ("AWS access key id", r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    ("AWS secret access key", r#"(?i)aws_?secret_?access_?key["'\s:=]+[A-Za-z0-9/+=]{40}"#),
    ("private key", r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY-----"),
    ("GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
    ("GitLab token", r"\bglpat-[A-Za-z0-9_\-]{20}\b"),
    ("Slack token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"),
    ("OpenAI API key", r"\bsk-(?:proj-)?[A-Za-z0-9_\-]{32,}\b"),
    ("Anthropic API key", r"\bsk-ant-[A-Za-z0-9_\-]{32,}\b"),
    ("Google API key", r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    ("JSON Web Token", r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b"),
];

static SET: LazyLock<RegexSet> = LazyLock::new(|| RegexSet::new(DETECTORS.iter().map(|(_, p)| *p)).expect("detector patterns compile"));

/// The names of the credentials found in `text` (empty when none).
///
/// ```
/// assert_eq!(agenthooks_example::find_secrets("export K=AKIAIOSFODNN7EXAMPLE"), vec!["AWS access key id"]);
/// assert!(agenthooks_example::find_secrets("ls -la").is_empty());
/// ```
pub fn find_secrets(text: &str) -> Vec<&'static str> {
    SET.matches(text).iter().map(|i| DETECTORS[i].0).collect()
}

fn scan_tool(t: &ToolCall) -> Vec<&'static str> {
    // The normalized input (already un-stringified) as compact JSON text.
    let text = serde_json::to_string(&t.input).unwrap_or_default();
    find_secrets(&text)
}

fn explain(found: &[&str]) -> String {
    format!(
        "The secret guard found what looks like a credential ({}) in this request. Credentials must not be \
         passed to tools or sent to the model: use an environment variable or a secret manager instead.",
        found.join(", ")
    )
}

fn guard_tool(_cx: &Context, e: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
    let found = scan_tool(&e.tool);
    if found.is_empty() {
        return Ok(no_decision());
    }
    Ok(ask_user(format!("Credential detected in `{}` input: {}", e.tool.name, found.join(", "))).with_context(explain(&found)))
}

fn guard_permission(_cx: &Context, e: &PermissionEvent) -> Result<ToolPreDecision, HandlerError> {
    let found = scan_tool(&e.tool);
    if found.is_empty() {
        return Ok(no_decision());
    }
    Ok(ask_user(format!("Credential detected in `{}` input: {}", e.tool.name, found.join(", "))))
}

fn guard_prompt(_cx: &Context, e: &PromptEvent) -> Result<PromptDecision, HandlerError> {
    let found = find_secrets(&e.prompt);
    if found.is_empty() {
        return Ok(accept_prompt());
    }
    Ok(block_prompt(format!("Prompt blocked: it contains a credential ({})", found.join(", ")))
        .with_block_reason(["Your prompt contains a credential; remove it and try again."]))
}

fn guard_output(_cx: &Context, e: &ToolPostEvent) -> Result<ToolPostDecision, HandlerError> {
    let text = e.output.to_string();
    let found = find_secrets(&text);
    if found.is_empty() {
        return Ok(observed());
    }
    Ok(flag_output(format!("The output of `{}` contains a credential ({}); do not repeat it.", e.tool.name, found.join(", "))))
}

fn log_event(_cx: &Context, e: &Event) -> Result<(), HandlerError> {
    let env = e.envelope();
    tracing::info!(provider = %env.provider, native = %env.native, kind = %e.kind(), session = %env.session.id, bytes = env.raw().len(), "event");
    Ok(())
}

/// The guard's router: the policy asks where possible and denies where an agent cannot ask.
pub fn router() -> Router {
    Router::new()
        .with_policy(Policy::default().with_ask_fallback(AskFallback::Deny))
        .on_any(log_event)
        .on_tool_pre(guard_tool)
        .on_permission(guard_permission)
        .on_prompt_submitted(guard_prompt)
        .on_tool_post(guard_output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detectors() {
        let cases = [
            ("AKIAIOSFODNN7EXAMPLE", "AWS access key id"),
            ("-----BEGIN OPENSSH PRIVATE KEY-----", "private key"),
            ("ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "GitHub token"),
            ("xoxb-123456789012-abcdefghij", "Slack token"),
            ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "Google API key"),
            ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS secret access key"),
        ];
        for (text, name) in cases {
            assert_eq!(find_secrets(text), vec![name], "{text}");
        }
        assert!(find_secrets("echo hi > marker.txt").is_empty());
    }
}
