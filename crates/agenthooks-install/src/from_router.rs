//! The manifest a hook binary derives from its own [`Router`]: configs are generated from the
//! hook's code, not written by hand.
//!
//! [`manifest_from_router`] writes:
//!
//! - one hook per kind that has a registered handler (a tool gate registers both `tool.pre` and
//!   `permission.request`); it is **blocking** when the kind's decision can change something
//!   ([`default_uses`] is not empty) and telemetry otherwise;
//! - the tool filter the router declares for the kind ([`Router::declared_tools`]: its
//!   [`Router::for_tools`], or the matchers of its `when(...)` guards), compiled to each agent's
//!   matcher dialect at render time — or, where the dialect cannot express it, passed to the
//!   runner as `--tools=…` (the OpenCode shim and the OpenClaw plugin send it on each frame);
//! - for `on_any` observers, a telemetry hook on every other kind; for `on_other(native)`
//!   observers, a telemetry hook on that native event of every agent that has it (unless a kind
//!   hook already covers it);
//! - the router's fail policy: a fixed one is the manifest's [`Manifest::failure`]; a per-event
//!   one ([`PolicySource::PerEvent`]) is probed for every native event each blocking hook is
//!   installed on, with an envelope that carries only the provider, the native event and the
//!   kind (a policy that looks at anything else, such as the session or the working directory,
//!   is read as it answers for an empty one). A kind closed on every agent gets
//!   [`HookSpec::failure`] `closed`; where only some native events are closed, a native hook
//!   for each of them carries `closed` (install merges it with the kind's entry). Each agent's
//!   fail-closed knob is rendered there (Claude `onFailure`, Cursor `failClosed`, the OpenCode
//!   shim's and the OpenClaw plugin's fail policy), and `preflight` reports every event where
//!   the agent has none: a crash or timeout of the hook binary there lets the action go on.
//!
//! Timeouts are left to each agent's default, bounded by its clamps.

use agenthooks_core::{
    Envelope, EventKind, FailMode, NativeName, PolicySource, Provider, RawPayload, Router, StageType, ToolSelector,
};

use crate::manifest::{default_uses, FailurePolicy, HookOn, HookSpec, Manifest};
use crate::matcher::ToolMatcher;

impl From<&ToolMatcher> for ToolSelector {
    fn from(m: &ToolMatcher) -> Self {
        m.selector.clone()
    }
}

impl From<&ToolSelector> for ToolMatcher {
    fn from(s: &ToolSelector) -> Self {
        Self {
            selector: s.clone(),
            fallback: crate::matcher::MatcherFallback::default(),
        }
    }
}

/// The identity name for a program path: its file name with anything but `[A-Za-z0-9._-]`
/// replaced by `-` (`agenthooks` when nothing is left).
///
/// ```
/// assert_eq!(agenthooks_install::name_of_program("/opt/x/my guard"), "my-guard");
/// assert_eq!(agenthooks_install::name_of_program("/"), "agenthooks");
/// ```
pub fn name_of_program(program: &str) -> String {
    let base = std::path::Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    let cleaned: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let cleaned = cleaned.trim_start_matches(['.', '-']);
    if cleaned.is_empty() {
        "agenthooks".to_owned()
    } else {
        cleaned.to_owned()
    }
}

/// The manifest of a router (see the module docs), with `command` as the program and leading
/// arguments and the identity named after the program.
///
/// ```
/// use agenthooks_core::prelude::*;
/// use agenthooks_install::{manifest_from_router, HookOn};
/// let router = Router::new()
///     .on_tool_pre(when(match_canonical([CanonicalTool::Shell]), |_cx: &Context, _e: &ToolPreEvent| deny("no")))
///     .on_session_end(|_cx: &Context, _e: &SessionEndEvent| agenthooks_core::decision::ContextDecision::none());
/// let m = manifest_from_router(&router, ["/opt/guard"]);
/// assert_eq!(m.identity.name, "guard");
/// let kinds: Vec<_> = m.hooks.iter().map(|h| (h.on.clone(), h.blocking)).collect();
/// assert_eq!(kinds, [(HookOn::Kind(EventKind::SessionEnd), false), (HookOn::Kind(EventKind::ToolPre), true)]);
/// assert_eq!(m.hooks[1].tools.selector.classes, [CanonicalTool::Shell]);
/// ```
pub fn manifest_from_router<I, S>(router: &Router, command: I) -> Manifest
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let command: Vec<String> = command.into_iter().map(Into::into).collect();
    let name = name_of_program(command.first().map_or("", String::as_str));
    let mut m = Manifest::new(command, name);
    let per_event = match router.policy() {
        PolicySource::Fixed(p) => {
            m = m.with_failure(FailurePolicy::from(p.fail));
            None
        }
        PolicySource::PerEvent(_) => Some(router.policy()),
    };
    let mut any_observer = false;
    let mut natives: Vec<String> = Vec::new();
    router.walk(|s| match s.stage_type {
        StageType::Observer => any_observer = true,
        StageType::OtherObserver => {
            if let Some(n) = s.native {
                if !natives.contains(&n) {
                    natives.push(n);
                }
            }
        }
        _ => {}
    });
    for kind in EventKind::ALL {
        if kind == EventKind::Other {
            continue;
        }
        let mut h = HookSpec::kind(kind);
        if router.handles(kind) {
            if default_uses(kind).is_empty() {
                h = h.non_blocking();
            }
            if let Some(sel) = router.declared_tools(kind) {
                h = h.with_tools(ToolMatcher::from(&sel));
            }
        } else if any_observer {
            h = h.non_blocking();
        } else {
            continue;
        }
        m = m.with_hook(h);
    }
    for native in natives {
        for p in crate::targets::supported_providers() {
            if let Some(h) = native_observer(&m, &p, &native) {
                m = m.with_hook(h);
            }
        }
    }
    if let Some(policy) = per_event {
        m = with_probed_failure(m, policy);
    }
    m
}

/// Whether a per-event policy fails closed for one native event of an agent (see the module
/// docs: an envelope with only the provider, the native event and the kind).
fn probe_closed(policy: &PolicySource, provider: &Provider, native: &str, kind: EventKind) -> bool {
    let env = Envelope::new(
        provider.clone(),
        NativeName::new(native),
        kind,
        RawPayload::from(Vec::new()),
    );
    policy.resolve(&env).fail == FailMode::Closed
}

/// The per-event policy's posture on the manifest's blocking kind hooks: `closed` on a kind
/// closed everywhere, else a closed native hook per closed native event.
fn with_probed_failure(mut m: Manifest, policy: &PolicySource) -> Manifest {
    let mut extra = Vec::new();
    for h in &mut m.hooks {
        let HookOn::Kind(kind) = h.on else { continue };
        if !h.blocking {
            continue;
        }
        let mut closed = Vec::new();
        let mut all = true;
        for p in crate::targets::supported_providers() {
            let Ok(module) = crate::targets::module(&p) else {
                continue;
            };
            for native in module.spec().natives_for(kind) {
                if probe_closed(policy, &p, native, kind) {
                    closed.push((p.clone(), native));
                } else {
                    all = false;
                }
            }
        }
        if closed.is_empty() {
            continue;
        }
        if all {
            h.failure = Some(FailurePolicy::Closed);
            continue;
        }
        for (p, native) in closed {
            let mut n = HookSpec::native(p, native).with_failure(FailurePolicy::Closed);
            n.tools = h.tools.clone();
            n.timeout = h.timeout;
            n.uses = h.uses;
            extra.push(n);
        }
    }
    for n in extra {
        m = m.with_hook(n);
    }
    m
}

/// A telemetry hook for an `on_other(native)` observer on one agent: when the agent has that
/// event and no kind hook of the manifest already covers it.
fn native_observer(m: &Manifest, p: &Provider, native: &str) -> Option<HookSpec> {
    let spec = crate::targets::module(p).ok()?.spec();
    let row = spec.event(native)?;
    let covered = m
        .hooks
        .iter()
        .any(|h| matches!(h.on, HookOn::Kind(k) if spec.natives_for(k).contains(&row.name)));
    (!covered).then(|| HookSpec::native(p.clone(), native).non_blocking())
}

impl Manifest {
    /// The manifest as a TOML file ([`Manifest::from_toml`] reads it back).
    ///
    /// ```
    /// use agenthooks_core::EventKind;
    /// use agenthooks_install::{HookSpec, Manifest, ToolMatcher};
    /// let m = Manifest::new(["/opt/guard"], "guard")
    ///     .with_hook(HookSpec::kind(EventKind::ToolPre).with_tools(ToolMatcher::names(["Bash"])));
    /// let text = m.to_toml();
    /// assert!(text.contains("[[hooks]]\nkind = \"tool.pre\""));
    /// assert_eq!(Manifest::from_toml(&text).unwrap(), m);
    /// ```
    pub fn to_toml(&self) -> String {
        let v = serde_json::to_value(self).unwrap_or_default();
        let mut doc = toml_edit::DocumentMut::new();
        let Some(obj) = v.as_object() else {
            return String::new();
        };
        // Plain keys first, then the identity table, then the hooks.
        for (k, val) in obj {
            if !val.is_object() && k != "hooks" {
                if let Some(t) = toml_value(val) {
                    doc[k.as_str()] = toml_edit::value(t);
                }
            }
        }
        if let Some(id) = obj.get("identity").and_then(|i| i.as_object()) {
            let mut t = toml_edit::Table::new();
            for (k, val) in id {
                if let Some(tv) = toml_value(val) {
                    t[k.as_str()] = toml_edit::value(tv);
                }
            }
            doc["identity"] = toml_edit::Item::Table(t);
        }
        let mut hooks = toml_edit::ArrayOfTables::new();
        for h in obj.get("hooks").and_then(|h| h.as_array()).into_iter().flatten() {
            let mut t = toml_edit::Table::new();
            for (k, val) in h.as_object().into_iter().flatten() {
                if let Some(tv) = toml_value(val) {
                    t[k.as_str()] = toml_edit::value(tv);
                }
            }
            hooks.push(t);
        }
        if !hooks.is_empty() {
            doc["hooks"] = toml_edit::Item::ArrayOfTables(hooks);
        }
        doc.to_string()
    }
}

/// A JSON value as a TOML value (`null` has none).
fn toml_value(v: &serde_json::Value) -> Option<toml_edit::Value> {
    use serde_json::Value as J;
    Some(match v {
        J::Null => return None,
        J::Bool(b) => (*b).into(),
        J::Number(n) => match n.as_i64() {
            Some(i) => i.into(),
            None => n.as_f64().unwrap_or_default().into(),
        },
        J::String(s) => s.as_str().into(),
        J::Array(a) => toml_edit::Value::Array(a.iter().filter_map(toml_value).collect()),
        J::Object(o) => {
            let mut t = toml_edit::InlineTable::new();
            for (k, val) in o {
                if let Some(tv) = toml_value(val) {
                    t.insert(k, tv);
                }
            }
            toml_edit::Value::InlineTable(t)
        }
    })
}
