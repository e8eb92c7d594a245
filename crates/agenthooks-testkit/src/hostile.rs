//! The hostile-value property: whatever an agent's JSON encoder can emit reaches the handlers.
//!
//! A guard sits between a model and its tools, and the model (or a tool result, or a pasted
//! prompt) chooses the bytes. JavaScript's `JSON.stringify` and Python's `json.dumps` write lone
//! surrogate escapes, arbitrarily deep nesting and integers of any size, all of which strict JSON
//! readers reject. For every fixture, each [`Stress`] value is spliced into the payload's text at
//! each [`Place`] that the event has:
//!
//! - [`Place::TopLevel`]: a new top-level member;
//! - [`Place::ToolInput`]: a new member of the tool input beside the command (inside the string
//!   when the agent sends the input stringified), and for [`Stress::in_command`] a value inside
//!   the command text itself;
//! - [`Place::Prompt`]: inside the prompt text (string values only);
//! - [`Place::ToolOutput`]: inside the tool output (a member, an element, or string content).
//!
//! The altered payload must decode as the same kind, with the same tool name; the command and
//! the input (every key of the original) are still there, the prompt still holds the original
//! text, the output is not lost; and a handler that denies the original call (on its tool name
//! and command) or blocks the original prompt, denies or blocks the altered one with the same
//! wire response. The raw payload is byte-identical to the altered bytes. The conformance suite
//! runs it as check 9 on every fixture of every codec.

use agenthooks_core::decision::{accept_prompt, block_prompt, deny, no_decision};
use agenthooks_core::{Codec, Context, DecisionKind, Event, EventKind, PromptEvent, Router, ToolGateEvent};
use serde_json::Value;

use crate::fixture::Fixture;
use crate::harness::invoke_with;

/// The key the property adds to objects.
pub const KEY: &str = "agenthooks_hostile";

/// The reason of the property's deny handler.
pub const REASON: &str = "agenthooks hostile-value property: denied";

/// One value an agent's encoder can emit that strict readers reject.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stress {
    /// A short name (`lone-high-surrogate`, `array-3000-deep`, …).
    pub name: &'static str,
    /// The value's JSON text.
    pub json: String,
    /// For string values: the escaped content to splice inside an existing string.
    pub in_string: Option<&'static str>,
    /// Whether this value is spliced into the command text rather than beside it.
    pub in_command: bool,
}

/// Where a value is spliced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Place {
    /// A new top-level member.
    TopLevel,
    /// The tool input (beside the command, or inside it).
    ToolInput,
    /// The prompt text.
    Prompt,
    /// The tool output.
    ToolOutput,
}

impl Place {
    /// A stable name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::TopLevel => "top-level",
            Self::ToolInput => "tool-input",
            Self::Prompt => "prompt",
            Self::ToolOutput => "tool-output",
        }
    }
}

fn nested(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

/// The values: lone high and low surrogates, a reversed pair, a surrogate inside the command
/// text, `\u0000`, a 30-digit integer, a number beyond `f64`, 200- and 3000-deep arrays and a
/// 300-deep object.
///
/// ```
/// let v = agenthooks_testkit::hostile::values();
/// assert_eq!(v[0].json, r#""\ud800""#);
/// assert!(v.iter().any(|s| s.name == "array-3000-deep"));
/// ```
pub fn values() -> Vec<Stress> {
    let s = |name, esc: &'static str| Stress {
        name,
        json: format!("\"{esc}\""),
        in_string: Some(esc),
        in_command: false,
    };
    let n = |name, json: String| Stress {
        name,
        json,
        in_string: None,
        in_command: false,
    };
    vec![
        s("lone-high-surrogate", "\\ud800"),
        s("lone-low-surrogate", "\\udc00"),
        s("reversed-pair", "\\udc00\\ud800"),
        Stress {
            name: "surrogate-in-command",
            json: "\"\\ud800\"".into(),
            in_string: Some("\\ud800"),
            in_command: true,
        },
        s("nul", "\\u0000"),
        n("integer-30-digits", "123456789012345678901234567890".into()),
        n("number-beyond-f64", "-1e400".into()),
        n("array-200-deep", nested("[", "", "]", 200)),
        n("array-3000-deep", nested("[", "\"\\ud800\"", "]", 3000)),
        n("object-300-deep", nested("{\"a\":", "1", "}", 300)),
    ]
}

/// One altered payload.
#[derive(Debug, Clone)]
pub struct Case {
    /// The value.
    pub stress: Stress,
    /// Where it went.
    pub place: Place,
    /// The payload.
    pub bytes: Vec<u8>,
}

/// What the property counted for one fixture.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Outcome {
    /// Altered payloads checked.
    pub checked: usize,
    /// Of those, the ones a deny (or prompt-block) handler was run on.
    pub gated: usize,
    /// Failures, one message each.
    pub failures: Vec<String>,
}

/// The JSON string content (without quotes) that decodes to `text`.
fn escape_in_string(text: &str) -> String {
    let quoted = Value::String(text.to_owned()).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}

/// The single occurrence of `needle` in `hay`, or `None` (absent or ambiguous).
fn find_once(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || needle.len() > hay.len() {
        return None;
    }
    let mut hits = hay.windows(needle.len()).enumerate().filter(|(_, w)| *w == needle);
    let first = hits.next()?.0;
    hits.next().is_none().then_some(first)
}

fn splice(bytes: &[u8], at: usize, text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + text.len());
    out.extend_from_slice(&bytes[..at]);
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(&bytes[at..]);
    out
}

/// `member` added as the first member of the object whose text starts at `open` (its `{`).
fn add_member(bytes: &[u8], open: usize, member: &str) -> Vec<u8> {
    let rest = &bytes[open + 1..];
    let empty = rest.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'}');
    let text = if empty { member.to_owned() } else { format!("{member},") };
    splice(bytes, open + 1, &text)
}

/// A value spliced into the raw text `raw` (found once in `bytes`): an object gets a member, an
/// array a first element, a stringified object a member inside the string, a string content.
fn into_raw(bytes: &[u8], raw: &str, s: &Stress) -> Option<Vec<u8>> {
    let at = find_once(bytes, raw.as_bytes())?;
    let member = format!("\"{KEY}\":{}", s.json);
    match raw.as_bytes().first()? {
        b'{' => Some(add_member(bytes, at, &member)),
        b'[' => {
            let empty = raw[1..].trim_start().starts_with(']');
            let text = if empty { s.json.clone() } else { format!("{},", s.json) };
            Some(splice(bytes, at + 1, &text))
        }
        b'"' => {
            let inner: String = serde_json::from_str(raw).ok()?;
            if inner.trim_start().starts_with('{') {
                // A stringified object: the member, escaped, after its `{` (one per level of
                // string encoding: the raw text is the outer string).
                let brace = raw.find('{')?;
                let inner_empty = inner.trim_start()[1..].trim_start().starts_with('}');
                let text = if inner_empty { member } else { format!("{member},") };
                Some(splice(bytes, at + brace + 1, &escape_in_string(&text)))
            } else {
                // String content: before the closing quote.
                Some(splice(bytes, at + raw.len() - 1, s.in_string?))
            }
        }
        _ => None,
    }
}

/// The altered payloads of one fixture's decoded event.
pub fn cases(fx: &Fixture, event: &Event) -> Vec<Case> {
    let input = &fx.input;
    let Some(open) = input.iter().position(|b| *b == b'{') else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for s in values() {
        let mut push = |place, bytes: Option<Vec<u8>>| {
            if let Some(bytes) = bytes {
                out.push(Case {
                    stress: s.clone(),
                    place,
                    bytes,
                });
            }
        };
        if !s.in_command {
            push(
                Place::TopLevel,
                Some(add_member(input, open, &format!("\"{KEY}\":{}", s.json))),
            );
        }
        if let Some(tool) = event.tool() {
            let raw = tool.raw_json().get();
            if s.in_command {
                push(
                    Place::ToolInput,
                    tool.command().and_then(|c| into_command(input, raw, c, &s)),
                );
            } else {
                push(Place::ToolInput, into_raw(input, raw, &s));
            }
        }
        if s.in_command {
            continue;
        }
        if let (Event::PromptSubmitted(p), Some(esc)) = (event, s.in_string) {
            let quoted = Value::String(p.prompt.clone()).to_string();
            push(
                Place::Prompt,
                (!p.prompt.is_empty())
                    .then(|| find_once(input, quoted.as_bytes()))
                    .flatten()
                    .map(|at| splice(input, at + quoted.len() - 1, esc)),
            );
        }
        if let Event::ToolPost(e) = event {
            let raw = e.output.get();
            if raw != "null" {
                push(Place::ToolOutput, into_raw(input, raw, &s));
            }
        }
    }
    out
}

/// The stress value inside the command text: the command's JSON string, found once in the tool
/// input's raw text (itself found once in the payload), gets the escape before its closing
/// quote (escaped once more when the input is stringified).
fn into_command(bytes: &[u8], raw: &str, command: &str, s: &Stress) -> Option<Vec<u8>> {
    let esc = s.in_string?;
    let base = find_once(bytes, raw.as_bytes())?;
    let quoted = Value::String(command.to_owned()).to_string();
    if raw.starts_with('"') {
        let twice = escape_in_string(&quoted);
        let at = find_once(raw.as_bytes(), twice.as_bytes())?;
        // Inside a string: the escape's backslash is escaped, and the inner closing quote is `\"`.
        return Some(splice(bytes, base + at + twice.len() - 2, &escape_in_string(esc)));
    }
    let at = find_once(raw.as_bytes(), quoted.as_bytes())?;
    Some(splice(bytes, base + at + quoted.len() - 1, esc))
}

/// A router that denies the original call (its tool name, and its command when it had one) and
/// blocks the original prompt.
pub fn deny_router(original: &Event) -> Router {
    let tool = original
        .tool()
        .map(|t| (t.name.clone(), t.command().map(str::to_owned)));
    let prompt = match original {
        Event::PromptSubmitted(p) => Some(p.prompt.clone()),
        _ => None,
    };
    let mut r = Router::new();
    if let Some((name, command)) = tool {
        r = r.on_tool_gate(move |_: &Context, gate: ToolGateEvent<'_>| {
            let t = gate.tool();
            let hit = t.name == name
                && command
                    .as_deref()
                    .is_none_or(|c| t.command().is_some_and(|now| now.contains(c)));
            if hit {
                deny(REASON)
            } else {
                no_decision()
            }
        });
    }
    if let Some(text) = prompt {
        r = r.on_prompt_submitted(move |_: &Context, e: &PromptEvent| {
            if e.prompt.contains(&text) {
                block_prompt(REASON)
            } else {
                accept_prompt()
            }
        });
    }
    r
}

/// Runs the property on one fixture (see the module docs).
pub fn check_fixture(codec: &'static dyn Codec, fx: &Fixture) -> Outcome {
    let mut out = Outcome::default();
    let Ok(original) = fx.decode(codec) else {
        return out; // check 1 reports it
    };
    let kind = original.kind();
    let gates = matches!(
        kind,
        EventKind::ToolPre | EventKind::Permission | EventKind::PromptSubmitted
    );
    let router = deny_router(&original);
    let expected = gates.then(|| fx.with_invocation(&fx.input, |inv| invoke_with(&router, codec, inv)));
    for case in cases(fx, &original) {
        out.checked += 1;
        let what = format!("hostile value {} at {}", case.stress.name, case.place.as_str());
        let mut fail = |m: String| out.failures.push(format!("{what}: {m}"));
        let ev = match fx.with_invocation(&case.bytes, |inv| codec.decode(inv)) {
            Ok(ev) => ev,
            Err(e) => {
                fail(format!("does not decode: {e}"));
                continue;
            }
        };
        if ev.envelope().raw().as_bytes() != case.bytes.as_slice() {
            fail("raw differs from the altered bytes".into());
        }
        if ev.kind() != kind {
            fail(format!("decodes as {} instead of {kind}", ev.kind()));
            continue;
        }
        for m in compare(&original, &ev, &case) {
            fail(m);
        }
        if let Some(expected) = &expected {
            out.gated += 1;
            let got = fx.with_invocation(&case.bytes, |inv| invoke_with(&router, codec, inv));
            let sent = got.sent.as_ref().map(agenthooks_core::Outcome::kind);
            let want = expected.sent.as_ref().map(agenthooks_core::Outcome::kind);
            if want.is_some_and(DecisionKind::blocks) && sent != want {
                fail(format!(
                    "the deny handler's decision is {sent:?} (failure: {:?}), on the original {want:?}",
                    got.failure.as_ref().map(ToString::to_string)
                ));
            } else if got.response != expected.response {
                fail(format!(
                    "the deny response differs: {:?} vs the original's {:?}",
                    got.response.stdout_str(),
                    expected.response.stdout_str()
                ));
            }
        }
    }
    out
}

/// The data checks: tool name, command, input keys, prompt, output.
fn compare(original: &Event, ev: &Event, case: &Case) -> Vec<String> {
    let mut f = Vec::new();
    if let (Some(a), Some(b)) = (original.tool(), ev.tool()) {
        if a.name != b.name {
            f.push(format!("tool name {:?}, was {:?}", b.name, a.name));
        }
        if let Some(cmd) = a.command() {
            match b.command() {
                Some(now) if now.contains(cmd) => {}
                now => f.push(format!("command() is {now:?}, the command was {cmd:?}")),
            }
            if !b
                .input()
                .get("command")
                .or_else(|| b.input().get("cmd"))
                .and_then(Value::as_str)
                .is_some_and(|s| s.contains(cmd))
            {
                f.push("input() lost the command".into());
            }
        }
        let missing: Vec<&String> = a.input().keys().filter(|k| !b.input().contains_key(*k)).collect();
        if !missing.is_empty() {
            f.push(format!(
                "input() lost keys {missing:?} (has {:?})",
                b.input().keys().collect::<Vec<_>>()
            ));
        }
        // The key shows when the input is an object (sent as one, or stringified); text that is
        // no object is `{"value": …}` and gets the value inside its string instead.
        let object = a.raw_json().is_object() || !(a.input().len() == 1 && a.input().contains_key("value"));
        if case.place == Place::ToolInput && !case.stress.in_command && object && !b.input().contains_key(KEY) {
            f.push(format!("input() does not show the added {KEY:?}"));
        }
    }
    if let (Event::PromptSubmitted(a), Event::PromptSubmitted(b)) = (original, ev) {
        if !b.prompt.contains(&a.prompt) {
            f.push(format!("prompt {:?} no longer holds {:?}", b.prompt, a.prompt));
        }
    }
    if let (Event::ToolPost(a), Event::ToolPost(b)) = (original, ev) {
        if !a.output.value().is_null() && b.output.value().is_null() {
            f.push("the tool output reads as null".into());
        }
    }
    f
}
