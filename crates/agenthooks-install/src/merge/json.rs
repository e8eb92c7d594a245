//! Merging hook entries into JSON configs shaped like Claude's (`hooks.<Event>[group].hooks[]`)
//! or Copilot's (`hooks.<event>[]`), editing the text in place (see [`crate::jsonc`]).

use serde_json::{json, Value};

use crate::jsonc::{self, Node, Seg};
use crate::record::Prune;
use crate::shell::Owner;

/// How handlers sit under an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `hooks.<Event>: [{matcher?, hooks: [handler]}]` (Claude, Codex, Gemini).
    Grouped,
    /// `hooks.<event>: [handler]` (Copilot).
    Flat,
}

/// One handler found in a document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    /// The event key.
    pub(crate) event: String,
    /// Group index (grouped) or handler index (flat).
    pub(crate) group: usize,
    /// Handler index within the group (0 for flat).
    pub(crate) handler: usize,
    /// The group's matcher (grouped; `None` when absent).
    pub(crate) matcher: Option<Value>,
    /// The handler object.
    pub(crate) value: Value,
    /// Whether it is ours.
    pub(crate) ours: bool,
}

impl Found {
    /// The canonical entry used for fingerprints.
    pub(crate) fn entry(&self) -> Value {
        entry(&self.event, self.matcher.as_ref(), &self.value)
    }
}

/// The canonical fingerprint entry of one handler.
pub(crate) fn entry(event: &str, matcher: Option<&Value>, handler: &Value) -> Value {
    let mut e = json!({"event": event, "hook": handler});
    if let Some(m) = matcher {
        e["matcher"] = m.clone();
    }
    e
}

/// The canonical entry of a group or flat handler we render.
pub(crate) fn rendered_entry(shape: Shape, event: &str, v: &Value) -> Value {
    match shape {
        Shape::Grouped => entry(
            event,
            v.get("matcher"),
            v.get("hooks").and_then(|h| h.get(0)).unwrap_or(&Value::Null),
        ),
        Shape::Flat => entry(event, None, v),
    }
}

fn command_of(handler: &Node) -> Option<&str> {
    handler
        .get("command")
        .and_then(Node::as_str)
        .or_else(|| handler.get("bash").and_then(Node::as_str))
        // warm mode's http hooks: the URL names the owner
        .or_else(|| handler.get("url").and_then(Node::as_str))
}

fn parse(text: &str, comments: bool) -> Result<Node, String> {
    let root = jsonc::parse(text, comments).map_err(|e| e.to_string())?;
    if root.members().is_none() {
        return Err("the top level must be an object".into());
    }
    Ok(root)
}

/// The active (last) members of an object, with their indexes.
fn active_members(obj: &Node) -> Vec<(usize, &jsonc::Member)> {
    let members = obj.members().unwrap_or(&[]);
    members
        .iter()
        .enumerate()
        .filter(|(i, m)| !members[i + 1..].iter().any(|later| later.key == m.key))
        .collect()
}

fn hooks_obj(root: &Node) -> Result<Option<&Node>, String> {
    match root.get("hooks") {
        None => Ok(None),
        Some(h) if h.members().is_some() => Ok(Some(h)),
        Some(_) => Err("`hooks` must be an object".into()),
    }
}

/// Every handler in the document, ours flagged.
pub(crate) fn scan(text: &str, shape: Shape, owner: &Owner, comments: bool) -> Result<Vec<Found>, String> {
    let root = parse(text, comments)?;
    let Some(hooks) = hooks_obj(&root)? else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (_, m) in active_members(hooks) {
        let Some(items) = m.value.items() else {
            return Err(format!("`hooks.{}` must be an array", m.key));
        };
        for (g, item) in items.iter().enumerate() {
            match shape {
                Shape::Flat => {
                    if item.members().is_some() {
                        out.push(Found {
                            event: m.key.clone(),
                            group: g,
                            handler: 0,
                            matcher: None,
                            value: item.to_value(text),
                            ours: command_of(item).is_some_and(|c| owner.owns(c)),
                        });
                    }
                }
                Shape::Grouped => {
                    let Some(handlers) = item.get("hooks").and_then(Node::items) else {
                        continue;
                    };
                    let matcher = item.get("matcher").map(|n| n.to_value(text));
                    for (h, handler) in handlers.iter().enumerate() {
                        if handler.members().is_some() {
                            out.push(Found {
                                event: m.key.clone(),
                                group: g,
                                handler: h,
                                matcher: matcher.clone(),
                                value: handler.to_value(text),
                                ours: command_of(handler).is_some_and(|c| owner.owns(c)),
                            });
                        }
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The next removal `strip` makes.
enum Removal {
    /// The whole `hooks` member.
    HooksKey,
    /// One event's member.
    Event(String),
    /// One group (grouped) or handler (flat).
    Item(String, usize),
    /// One handler inside a group.
    Handler(String, usize, usize),
}

fn next_action(root: &Node, shape: Shape, owner: &Owner, prune: &Prune) -> Option<Removal> {
    let hooks = root.get("hooks")?;
    let members = active_members(hooks);
    let n_members = members.len();
    for (_, m) in members {
        let items = m.value.items()?;
        // For each item: Some(true) = all ours, Some(false) = mixed/foreign, plus our handler indexes.
        let mut all_ours = !items.is_empty();
        for (g, item) in items.iter().enumerate() {
            let (item_all_ours, ours_idx): (bool, Vec<usize>) = match shape {
                Shape::Flat => {
                    let o = command_of(item).is_some_and(|c| owner.owns(c));
                    (o, if o { vec![0] } else { vec![] })
                }
                Shape::Grouped => {
                    let handlers = item.get("hooks").and_then(Node::items).unwrap_or(&[]);
                    let idx: Vec<usize> = handlers
                        .iter()
                        .enumerate()
                        .filter(|(_, h)| command_of(h).is_some_and(|c| owner.owns(c)))
                        .map(|(i, _)| i)
                        .collect();
                    (!handlers.is_empty() && idx.len() == handlers.len(), idx)
                }
            };
            all_ours &= item_all_ours;
            if !item_all_ours {
                if let (Shape::Grouped, Some(&last)) = (shape, ours_idx.last()) {
                    return Some(Removal::Handler(m.key.clone(), g, last));
                }
            }
        }
        // An event array (and `hooks`) emptied by our removal goes only when we may remove it;
        // else its items go one by one and `[]` stays.
        if all_ours && prune.may(&["hooks", &m.key]) {
            return Some(if n_members == 1 && prune.may(&["hooks"]) {
                Removal::HooksKey
            } else {
                Removal::Event(m.key.clone())
            });
        }
        // Remove all-ours items from the end.
        for (g, item) in items.iter().enumerate().rev() {
            let item_all_ours = match shape {
                Shape::Flat => command_of(item).is_some_and(|c| owner.owns(c)),
                Shape::Grouped => {
                    let handlers = item.get("hooks").and_then(Node::items).unwrap_or(&[]);
                    !handlers.is_empty() && handlers.iter().all(|h| command_of(h).is_some_and(|c| owner.owns(c)))
                }
            };
            if item_all_ours {
                return Some(Removal::Item(m.key.clone(), g));
            }
        }
    }
    None
}

/// Removes every handler of ours; groups of ours emptied by that go too, and the event arrays
/// and `hooks` object it empties when `prune` allows. Returns the new text and how many
/// handlers were removed.
pub(crate) fn strip(
    text: &str,
    shape: Shape,
    owner: &Owner,
    comments: bool,
    prune: &Prune,
) -> Result<(String, usize), String> {
    let mut text = text.to_owned();
    let before = scan(&text, shape, owner, comments)?.iter().filter(|f| f.ours).count();
    loop {
        let root = parse(&text, comments)?;
        let Some(action) = next_action(&root, shape, owner, prune) else {
            break;
        };
        let edited = match &action {
            Removal::HooksKey => jsonc::remove_member(&text, &root, &[], "hooks"),
            Removal::Event(ev) => jsonc::remove_member(&text, &root, &[Seg::Key("hooks")], ev),
            Removal::Item(ev, g) => jsonc::remove_child(&text, &root, &[Seg::Key("hooks"), Seg::Key(ev)], *g),
            Removal::Handler(ev, g, h) => jsonc::remove_child(
                &text,
                &root,
                &[Seg::Key("hooks"), Seg::Key(ev), Seg::Index(*g), Seg::Key("hooks")],
                *h,
            ),
        };
        let edited = edited.ok_or("could not edit the document")?;
        if edited == text {
            return Err("could not edit the document".into());
        }
        text = edited;
    }
    Ok((text, before))
}

/// Appends entries (`(event, group-or-handler)`), creating `hooks` and event arrays as needed.
pub(crate) fn add(text: &str, entries: &[(String, Value)], comments: bool) -> Result<String, String> {
    let mut grouped: Vec<(String, Vec<Value>)> = Vec::new();
    for (ev, v) in entries {
        match grouped.iter_mut().find(|(e, _)| e == ev) {
            Some((_, vs)) => vs.push(v.clone()),
            None => grouped.push((ev.clone(), vec![v.clone()])),
        }
    }
    let mut text = text.to_owned();
    if grouped.is_empty() {
        return Ok(text);
    }
    let root = parse(&text, comments)?;
    if hooks_obj(&root)?.is_none() {
        let mut obj = serde_json::Map::new();
        for (ev, vs) in grouped {
            obj.insert(ev, Value::Array(vs));
        }
        return jsonc::append_child(&text, &root, &[], Some("hooks"), &Value::Object(obj))
            .ok_or_else(|| "could not edit the document".into());
    }
    for (ev, vs) in grouped {
        let root = parse(&text, comments)?;
        let exists = root.get("hooks").and_then(|h| h.get(&ev)).is_some();
        if exists {
            for v in vs {
                let root = parse(&text, comments)?;
                text = jsonc::append_child(&text, &root, &[Seg::Key("hooks"), Seg::Key(&ev)], None, &v)
                    .ok_or_else(|| format!("`hooks.{ev}` must be an array"))?;
            }
        } else {
            text = jsonc::append_child(&text, &root, &[Seg::Key("hooks")], Some(&ev), &Value::Array(vs))
                .ok_or("could not edit the document")?;
        }
    }
    Ok(text)
}

/// Sets top-level keys (replacing values, appending missing keys).
pub(crate) fn set_keys(text: &str, keys: &[(&str, Value)], comments: bool) -> Result<String, String> {
    let mut text = text.to_owned();
    for (k, v) in keys {
        let root = parse(&text, comments)?;
        text = match root.get(k) {
            Some(existing) if existing.to_value(&text) == *v => continue,
            Some(_) => jsonc::replace_value(&text, &root, &[Seg::Key(k)], v),
            None => jsonc::append_child(&text, &root, &[], Some(k), v),
        }
        .ok_or("could not edit the document")?;
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner() -> Owner {
        Owner::new(&["/bin/g".to_owned()])
    }

    const OURS: &str = "/bin/g agenthooks run --provider=claude-code --event=PreToolUse --timeout=600";

    #[test]
    fn strip_mixed_and_pure_groups() {
        let text = format!(
            r#"{{
  "hooks": {{
    "PreToolUse": [
      {{"matcher": "Bash", "hooks": [{{"type": "command", "command": "theirs"}}, {{"type": "command", "command": "{OURS}"}}]}},
      {{"hooks": [{{"type": "command", "command": "{OURS}"}}]}}
    ],
    "Stop": [{{"hooks": [{{"type": "command", "command": "{OURS}"}}]}}]
  }},
  "model": "x"
}}"#
        );
        let (out, n) = strip(&text, Shape::Grouped, &owner(), false, &Prune::Emptied).unwrap();
        assert_eq!(n, 3);
        assert_eq!(
            out,
            "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"theirs\"}]}\n    ]\n  },\n  \"model\": \"x\"\n}"
        );
    }

    #[test]
    fn add_then_strip_is_identity() {
        let text = "{\n  \"model\": \"x\"\n}\n";
        let group = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": OURS}]});
        let added = add(
            text,
            &[
                ("PreToolUse".into(), group.clone()),
                ("Stop".into(), json!({"hooks": [{"command": OURS}]})),
            ],
            false,
        )
        .unwrap();
        assert!(added.contains("\"PreToolUse\": ["));
        let found = scan(&added, Shape::Grouped, &owner(), false).unwrap();
        assert_eq!(found.len(), 2);
        assert!(found.iter().all(|f| f.ours));
        assert_eq!(found[0].entry(), rendered_entry(Shape::Grouped, "PreToolUse", &group));
        let (back, n) = strip(&added, Shape::Grouped, &owner(), false, &Prune::Emptied).unwrap();
        assert_eq!((back.as_str(), n), (text, 2));
    }

    #[test]
    fn structure_errors() {
        assert!(scan("[]", Shape::Grouped, &owner(), false)
            .unwrap_err()
            .contains("top level"));
        assert!(scan("{\"hooks\": []}", Shape::Grouped, &owner(), false)
            .unwrap_err()
            .contains("`hooks` must be an object"));
        assert!(scan("{\"hooks\": {\"Stop\": {}}}", Shape::Grouped, &owner(), false)
            .unwrap_err()
            .contains("hooks.Stop"));
        assert!(scan(
            "{\"hooks\": {\"Stop\": [1, {\"hooks\": 2}]}}",
            Shape::Grouped,
            &owner(),
            false
        )
        .unwrap()
        .is_empty());
    }

    #[test]
    fn flat_shape() {
        let text = format!(
            "{{\"version\": 1, \"hooks\": {{\"preToolUse\": [{{\"command\": \"x\"}}, {{\"command\": \"{OURS}\"}}]}}}}"
        );
        let (out, n) = strip(&text, Shape::Flat, &owner(), false, &Prune::Emptied).unwrap();
        assert_eq!(n, 1);
        assert_eq!(
            out,
            "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"command\": \"x\"}]}}"
        );
    }
}
/// Inputs the `install_merge` fuzz target found, each a regression test.
#[cfg(test)]
mod fuzz_regressions {
    use super::*;
    use serde_json::json;

    fn round_trip(text: &str) {
        let group = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "/bin/g agenthooks run --provider=gemini --event=BeforeTool"}]});
        let added = add(text, &[("BeforeTool".into(), group)], true).unwrap();
        assert!(parse(&added, true).is_ok(), "{added}");
        let owner = Owner::new(&["/bin/g".to_owned()]);
        let (back, n) = strip(&added, Shape::Grouped, &owner, true, &Prune::Emptied).unwrap();
        assert_eq!(n, 1);
        assert_eq!(back, text, "install added:\n{added}");
    }

    /// A `//` inside a block comment that began on an earlier line is not a line comment:
    /// uninstall must not keep a line break before the closing brace for it.
    #[test]
    fn a_slash_slash_inside_a_multi_line_block_comment() {
        round_trip("// c\n{\"x\": [5, 2] /* k\n//.*/}\n");
        round_trip("{\"x\": 1 /* a\n// b */}");
        // a real line comment before the brace still keeps its break
        round_trip("{\"x\": 1 // a\n}");
        round_trip("{\"x\": \"//\" /* a\n*/}");
    }
}
