//! A secret guard built on agenthooks, written once for every agent.
//!
//! - `tool.pre` / `permission.request` (one [`ToolGate`]): when
//!   the tool input contains a credential (AWS access keys and secret keys, private keys,
//!   GitHub/GitLab/Slack/OpenAI/Anthropic/Google tokens), the guard **asks the user**, with
//!   context explaining why. On a permission request the agent's own dialog is that ask (the
//!   hook answers no decision and the reason is shown where the agent can show one). Where an
//!   agent cannot ask on `tool.pre`, the policy's `AskFallback::Deny` turns the ask into a deny —
//!   the handler never branches on the provider.
//! - `prompt.submitted`: a prompt carrying a credential is blocked (a prompt cannot be "asked").
//! - `tool.post`: output that contains a credential is flagged to the model.
//! - Every event is logged through an observer (tracing; stderr or the log file, never stdout).

pub mod demo;

use agenthooks::prelude::*;

/// A credential detector: a literal prefix, then a body of allowed characters of bounded length.
/// Hand-written rather than a `RegexSet`: a hook process starts for every tool call, and compiling
/// a regex set costs more time and memory than the whole rest of the hook.
struct Detector {
    name: &'static str,
    prefixes: &'static [&'static str],
    body: fn(u8) -> bool,
    min: usize,
    max: usize,
}

fn upper_digit(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}
fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}
fn token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}
fn any_byte(_: u8) -> bool {
    true
}

/// The credentials the guard recognises.
const DETECTORS: &[Detector] = &[
    Detector {
        name: "AWS access key id",
        prefixes: &["AKIA", "ASIA", "ABIA", "ACCA"],
        body: upper_digit,
        min: 16,
        max: 16,
    },
    Detector {
        name: "private key",
        prefixes: &[
            "-----BEGIN RSA PRIVATE KEY-----",
            "-----BEGIN EC PRIVATE KEY-----",
            "-----BEGIN DSA PRIVATE KEY-----",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "-----BEGIN PGP PRIVATE KEY",
            "-----BEGIN ENCRYPTED PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----",
        ],
        body: any_byte,
        min: 0,
        max: 0,
    },
    Detector {
        name: "GitHub token",
        prefixes: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        body: alnum,
        min: 36,
        max: 255,
    },
    Detector {
        name: "GitHub token",
        prefixes: &["github_pat_"],
        body: token,
        min: 22,
        max: 255,
    },
    Detector {
        name: "GitLab token",
        prefixes: &["glpat-"],
        body: token,
        min: 20,
        max: 20,
    },
    Detector {
        name: "Slack token",
        prefixes: &["xoxb-", "xoxa-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"],
        body: token,
        min: 10,
        max: 255,
    },
    Detector {
        name: "Anthropic API key",
        prefixes: &["sk-ant-"],
        body: token,
        min: 32,
        max: 255,
    },
    Detector {
        name: "OpenAI API key",
        prefixes: &["sk-proj-", "sk-"],
        body: token,
        min: 32,
        max: 255,
    },
    Detector {
        name: "Google API key",
        prefixes: &["AIza"],
        body: token,
        min: 35,
        max: 35,
    },
];

/// The byte pairs a credential can start with (a bit per pair, 8 KiB): the first two bytes of
/// every detector's prefixes, and of the `aws_secret_access_key` spellings in any case. The scan
/// looks closer only where the text holds one, so text of letters a prefix starts with
/// (`xxxx…`, `ssss…`) costs a lookup per byte too.
const PAIRS: [u64; 1024] = {
    const fn set(t: &mut [u64; 1024], a: u8, b: u8) {
        let i = (a as usize) << 8 | b as usize;
        t[i / 64] |= 1 << (i % 64);
    }
    let mut t = [0u64; 1024];
    let mut d = 0;
    while d < DETECTORS.len() {
        let mut p = 0;
        while p < DETECTORS[d].prefixes.len() {
            let b = DETECTORS[d].prefixes[p].as_bytes();
            set(&mut t, b[0], b[1]);
            p += 1;
        }
        d += 1;
    }
    let mut k = 0;
    while k < AWS_SECRET_KEYS.len() {
        let b = AWS_SECRET_KEYS[k].as_bytes();
        set(&mut t, b[0], b[1]);
        set(&mut t, b[0].to_ascii_uppercase(), b[1]);
        set(&mut t, b[0], b[1].to_ascii_uppercase());
        set(&mut t, b[0].to_ascii_uppercase(), b[1].to_ascii_uppercase());
        k += 1;
    }
    t
};

/// Whether a credential can start at the pair `a`, `b`.
fn may_start(a: u8, b: u8) -> bool {
    let i = usize::from(a) << 8 | usize::from(b);
    PAIRS[i / 64] & (1 << (i % 64)) != 0
}

fn boundary_before(text: &[u8], at: usize) -> bool {
    at == 0 || !token(text[at - 1])
}

/// Whether `d`'s prefix `p`, found at `i`, starts a credential.
fn detect_at(d: &Detector, text: &[u8], i: usize, p: &[u8]) -> bool {
    let body_start = i + p.len();
    let n = if d.max == 0 {
        0
    } else {
        text[body_start..]
            .iter()
            .take(d.max)
            .take_while(|b| (d.body)(**b))
            .count()
    };
    let after = body_start + n;
    let ends_clean = d.max == 0 || after == text.len() || !token(text[after]);
    // "sk-ant-…" also starts with "sk-": the more specific detector reports it.
    let shadowed = d.name == "OpenAI API key" && text[body_start..].starts_with(b"ant-");
    boundary_before(text, i) && n >= d.min && ends_clean && !shadowed
}

/// The spellings of the AWS secret key's name (matched in any case).
const AWS_SECRET_KEYS: [&str; 4] = [
    "aws_secret_access_key",
    "aws_secretaccesskey",
    "awssecretaccesskey",
    "aws_secret_accesskey",
];

/// `aws_secret_access_key = <40 chars>` at `i`, in any case, with `=`, `:` or quotes between.
fn aws_secret_at(text: &[u8], i: usize) -> bool {
    AWS_SECRET_KEYS.iter().any(|key| {
        let Some(name) = text.get(i..i + key.len()) else {
            return false;
        };
        if !name.eq_ignore_ascii_case(key.as_bytes()) {
            return false;
        }
        aws_secret_len(text, i + key.len()) >= 40
    })
}

/// The length of the value after an AWS secret key's name ending at `j`: the separators (blanks,
/// quotes, `:`, `=`) skipped, then the run of base64 characters.
fn aws_secret_len(text: &[u8], mut j: usize) -> usize {
    while j < text.len() && matches!(text[j], b' ' | b'"' | b'\'' | b':' | b'=' | b'\t') {
        j += 1;
    }
    text[j..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'/' || **c == b'+' || **c == b'=')
        .count()
}

/// The names of the credentials found in `text` (empty when none), deduplicated, in a stable order.
///
/// One pass over the text: a byte that can start no credential costs a table lookup, so a large
/// tool output is scanned at memory speed rather than once per prefix.
///
/// ```
/// assert_eq!(agenthooks_example::find_secrets("export K=AKIAIOSFODNN7EXAMPLE"), vec!["AWS access key id"]);
/// assert!(agenthooks_example::find_secrets("ls -la").is_empty());
/// ```
pub fn find_secrets(text: &str) -> Vec<&'static str> {
    const AWS_SECRET: usize = DETECTORS.len();
    let b = text.as_bytes();
    let mut hit = [false; DETECTORS.len() + 1];
    // every prefix is at least two bytes long: a credential cannot start at the last byte
    for (i, pair) in b.windows(2).enumerate() {
        let c = pair[0];
        if !may_start(c, pair[1]) {
            continue;
        }
        for (n, d) in DETECTORS.iter().enumerate() {
            if !hit[n] {
                hit[n] = d
                    .prefixes
                    .iter()
                    .any(|p| b[i..].starts_with(p.as_bytes()) && detect_at(d, b, i, p.as_bytes()));
            }
        }
        if !hit[AWS_SECRET] && c.eq_ignore_ascii_case(&b'a') {
            hit[AWS_SECRET] = aws_secret_at(b, i);
        }
        if hit.iter().all(|h| *h) {
            break;
        }
    }
    let mut found: Vec<&'static str> = Vec::new();
    let names = DETECTORS.iter().map(|d| d.name).chain(["AWS secret access key"]);
    for (name, _) in names.zip(hit).filter(|(_, h)| *h) {
        if !found.contains(&name) {
            found.push(name);
        }
    }
    found
}

/// The audit export's redactor (`AGENTHOOKS_AUDIT_CAPTURE=redacted`): text in which the scanner
/// finds a credential is replaced whole by the names of what it found; other text is kept.
///
/// ```
/// assert_eq!(agenthooks_example::redact("K=AKIAIOSFODNN7EXAMPLE"), "[redacted: AWS access key id]");
/// assert_eq!(agenthooks_example::redact("ls -la"), "ls -la");
/// ```
pub fn redact(text: &str) -> String {
    let found = find_secrets(text);
    if found.is_empty() {
        text.to_owned()
    } else {
        format!("[redacted: {}]", found.join(", "))
    }
}

fn scan_tool(t: &ToolCall) -> Vec<&'static str> {
    // An object sent without escapes is scanned as the agent's own text (nothing is parsed);
    // otherwise the normalized input (un-stringified, escapes decoded) as compact JSON text.
    let raw = t.raw_json();
    if raw.is_object() && !raw.get().contains('\\') {
        return find_secrets(raw.get());
    }
    let text = serde_json::to_string(t.input()).unwrap_or_default();
    let found = find_secrets(&text);
    // An input that does not read as JSON at all (the decoded view is empty) is scanned as
    // sent; one that reads (repairs included) was scanned above, in one pass.
    if found.is_empty() && t.input().is_empty() && !matches!(raw.get(), "null" | "{}") {
        return find_secrets(raw.get());
    }
    found
}

fn explain(found: &[&str]) -> String {
    format!(
        "The secret guard found what looks like a credential ({}) in this request. Credentials must not be \
         passed to tools or sent to the model: use an environment variable or a secret manager instead.",
        found.join(", ")
    )
}

fn guard_tool(_cx: &Context, gate: ToolGateEvent<'_>) -> ToolPreDecision {
    let tool = gate.tool();
    let found = scan_tool(tool);
    if found.is_empty() {
        return no_decision();
    }
    let ask = ask_user(format!(
        "Credential detected in `{}` input: {}",
        tool.name,
        found.join(", ")
    ));
    // The explanation is for the model, which only `tool.pre` answers can reach.
    if gate.kind() == EventKind::ToolPre {
        ask.with_context(explain(&found))
    } else {
        ask
    }
}

fn guard_prompt(_cx: &Context, e: &PromptEvent) -> PromptDecision {
    let found = find_secrets(&e.prompt);
    if found.is_empty() {
        return accept_prompt();
    }
    block_prompt(format!(
        "Prompt blocked: it contains a credential ({})",
        found.join(", ")
    ))
    .with_block_reason("Your prompt contains a credential; remove it and try again.")
}

fn guard_output(_cx: &Context, e: &ToolPostEvent) -> ToolPostDecision {
    // Output sent without escapes is scanned as the agent's text; a string output (the common
    // case: a command's stdout, with `\n` escapes) as the decoded string; anything else as
    // compact JSON text.
    let raw = e.output.get();
    let found = if raw.contains('\\') {
        match e.output.value() {
            serde_json::Value::String(s) => find_secrets(s),
            // Text that does not read as JSON at all is scanned as sent.
            serde_json::Value::Null => find_secrets(raw),
            other => find_secrets(&other.to_string()),
        }
    } else {
        find_secrets(raw)
    };
    if found.is_empty() {
        return observed();
    }
    flag_output(format!(
        "The output of `{}` contains a credential ({}); do not repeat it.",
        e.tool.name,
        found.join(", ")
    ))
}

#[allow(
    clippy::unnecessary_wraps,
    reason = "the `Observer` contract: observers may fail (their errors are logged)"
)]
fn log_event(_cx: &Context, e: &Event) -> Result<(), HandlerError> {
    let env = e.envelope();
    tracing::info!(provider = %env.provider, native = %env.native, kind = %e.kind(), session = %env.session.id, bytes = env.raw().len(), "event");
    Ok(())
}

/// The guard's router: the policy asks where possible (on a permission request, through the
/// agent's own dialog) and denies where an agent cannot ask.
pub fn router() -> Router {
    Router::new()
        .with_policy(Policy::default().with_ask_fallback(AskFallback::Deny))
        .on_any(log_event)
        .on_tool_gate(guard_tool)
        .on_prompt_submitted(guard_prompt)
        .on_tool_post(guard_output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn detectors() {
        let cases = [
            ("AKIAIOSFODNN7EXAMPLE", "AWS access key id"),
            ("-----BEGIN OPENSSH PRIVATE KEY-----", "private key"),
            ("ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "GitHub token"),
            ("xoxb-123456789012-abcdefghij", "Slack token"),
            ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "Google API key"),
            (
                "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "AWS secret access key",
            ),
            ("sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789", "Anthropic API key"),
            ("glpat-abcdefghij0123456789", "GitLab token"),
        ];
        for (text, name) in cases {
            assert_eq!(find_secrets(text), vec![name], "{text}");
        }
        assert!(find_secrets("echo hi > marker.txt").is_empty());
        // boundaries: a longer word containing the prefix is not a key
        assert!(find_secrets("XAKIAIOSFODNN7EXAMPLE").is_empty());
        assert!(find_secrets("AKIAIOSFODNN7EXAMPLEX").is_empty());
        assert!(find_secrets("task-1234567890abcdefghijklmnopqrstuvwxyz").is_empty());
    }

    /// The scanner before the one-pass rewrite (a pass per prefix), kept as the oracle: the
    /// one-pass scan must find exactly what it found.
    mod reference {
        use super::super::{aws_secret_len, token, Detector, AWS_SECRET_KEYS, DETECTORS};

        fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
            hay.windows(needle.len()).position(|w| w == needle)
        }

        fn detect(d: &Detector, text: &[u8]) -> bool {
            for p in d.prefixes {
                let pb = p.as_bytes();
                let mut from = 0;
                while let Some(i) = find(&text[from..], pb).map(|i| i + from) {
                    let body_start = i + pb.len();
                    let n = text[body_start..]
                        .iter()
                        .take(d.max.max(1))
                        .take_while(|b| (d.body)(**b))
                        .count();
                    let n = if d.max == 0 { 0 } else { n };
                    let after = body_start + n;
                    let ends_clean = d.max == 0 || after == text.len() || !token(text[after]);
                    if (i == 0 || !token(text[i - 1]))
                        && n >= d.min
                        && ends_clean
                        && !(d.name == "OpenAI API key" && text[body_start..].starts_with(b"ant-"))
                    {
                        return true;
                    }
                    from = i + 1;
                }
            }
            false
        }

        fn aws_secret(text: &str) -> bool {
            let lower = text.to_ascii_lowercase();
            let b = lower.as_bytes();
            let orig = text.as_bytes();
            for key in AWS_SECRET_KEYS {
                let mut from = 0;
                while let Some(i) = find(&b[from..], key.as_bytes()).map(|i| i + from) {
                    // Lowercasing keeps every byte's position: the value is measured in the original.
                    if aws_secret_len(orig, i + key.len()) >= 40 {
                        return true;
                    }
                    from = i + 1;
                }
            }
            false
        }

        pub(super) fn find_secrets(text: &str) -> Vec<&'static str> {
            let mut found: Vec<&'static str> = Vec::new();
            for d in DETECTORS {
                if !found.contains(&d.name) && detect(d, text.as_bytes()) {
                    found.push(d.name);
                }
            }
            if !found.contains(&"AWS secret access key") && aws_secret(text) {
                found.push("AWS secret access key");
            }
            found
        }
    }

    /// Pieces that make credentials, near misses and boundaries likely.
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(
                &[
                    "AKIA",
                    "ASIA",
                    "ghp_",
                    "github_pat_",
                    "glpat-",
                    "xoxb-",
                    "sk-",
                    "sk-ant-",
                    "sk-proj-",
                    "AIza",
                    "-----BEGIN PRIVATE KEY-----",
                    "AWS_Secret_Access_Key",
                    "awssecretaccesskey",
                    " = ",
                    "\"",
                    ":",
                    "-",
                    "_",
                    " ",
                    "\n",
                    "é",
                ][..]
            )
            .prop_map(str::to_owned),
            "[A-Z0-9]{1,20}",
            "[a-zA-Z0-9_/+=-]{1,45}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        #[test]
        fn the_one_pass_scan_finds_what_a_pass_per_prefix_found(
            parts in prop::collection::vec(piece(), 0..12)
        ) {
            let text = parts.concat();
            prop_assert_eq!(find_secrets(&text), reference::find_secrets(&text), "{:?}", text);
        }
    }
}

/// The workspace README's example, compiled as a doctest so it cannot rot (kept here, in an
/// unpublished crate, because the file lies outside every published package).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct WorkspaceReadmeDoctests;
