//! The JavaScript bridge: the client half of `serve`'s frame protocol, for agents whose hooks
//! are in-process JavaScript plugins (OpenCode, OpenClaw).
//!
//! [`BRIDGE_JS`] is one plain-JavaScript module (Node built-ins only): it spawns `<command>
//! agenthooks serve --provider=<id>`, writes one NDJSON frame per call, correlates replies,
//! owns deadlines, reports failures with a cause code for the plugin's fail policy, respawns a
//! daemon that died (crashes in a row back off) and writes hook data as JSON under one set of
//! rules. Its header comment states those rules; its tests are a `node --test` suite over every
//! plugin that inlines it (`agenthooks-edge-tests`, `tests/bridge/`).
//!
//! A provider crate keeps only its *adapter*: a JavaScript template holding the hook table, how
//! a reply is applied and what is stripped, with two slots [`render`] fills:
//!
//! - a line `//AGENTHOOKS:BRIDGE`, replaced by the bridge (its functions are hoisted, so the
//!   adapter calls them from anywhere in the file); the generated file stays one module that
//!   imports only Node built-ins and exports only what the adapter exports;
//! - `__AGENTHOOKS_CONFIG__` (once, as in `const CONFIG = __AGENTHOOKS_CONFIG__;`), replaced by
//!   the configuration as one line of JSON; [`config`] reads it back, which is how install
//!   recognises a file it wrote.
//!
//! Why here: the bridge is part of the frame contract every JS-plugin codec shares, and a
//! provider crate may depend on core but not on another provider crate or on the runtime.

use serde_json::Value;

/// The bridge module's text, as inlined (without the test-only export that ends the file).
///
/// ```
/// use agenthooks_core::kit::bridge::BRIDGE_JS;
/// assert!(BRIDGE_JS.contains("function createBridge(options)"));
/// assert!(!BRIDGE_JS.lines().any(|l| l.starts_with("export")));
/// ```
pub const BRIDGE_JS: &str = inlined(include_str!("bridge.js"));

/// The bridge's source up to its end marker: what follows the marker is for its own tests.
const fn inlined(source: &'static str) -> &'static str {
    let bytes = source.as_bytes();
    let marker = END_MARKER.as_bytes();
    let mut at = 0;
    while at + marker.len() <= bytes.len() {
        let mut i = 0;
        while i < marker.len() && bytes[at + i] == marker[i] {
            i += 1;
        }
        if i == marker.len() {
            let (head, _) = bytes.split_at(at);
            return match std::str::from_utf8(head) {
                Ok(s) => s,
                Err(_) => source,
            };
        }
        at += 1;
    }
    source
}

const END_MARKER: &str = "// ---- agenthooks:bridge-end";
const BRIDGE_SLOT: &str = "//AGENTHOOKS:BRIDGE";
const CONFIG_SLOT: &str = "__AGENTHOOKS_CONFIG__";
const CONFIG_LINE: &str = "\nconst CONFIG = ";

/// Renders an adapter template: the bridge inlined at its `//AGENTHOOKS:BRIDGE` line and
/// `config` (one line of JSON) in its `__AGENTHOOKS_CONFIG__` slot. Deterministic.
///
/// ```
/// use agenthooks_core::kit::bridge::{config, render};
/// let adapter = "// my plugin\nconst CONFIG = __AGENTHOOKS_CONFIG__;\nexport default () => createBridge(CONFIG);\n//AGENTHOOKS:BRIDGE\n";
/// let cfg = serde_json::json!({"command": ["/bin/guard"], "hooks": {"a.b": {"timeoutMs": 5}}});
/// let js = render(adapter, &cfg);
/// assert!(js.contains(r#"const CONFIG = {"command":["/bin/guard"],"hooks":{"a.b":{"timeoutMs":5}}};"#));
/// assert!(js.contains("function createBridge(options)") && !js.contains("//AGENTHOOKS:BRIDGE"));
/// assert_eq!(config(&js), Some(cfg));
/// ```
pub fn render(adapter: &str, config: &Value) -> String {
    let mut out = String::with_capacity(adapter.len() + BRIDGE_JS.len() + 1024);
    for line in adapter.split_inclusive('\n') {
        if line.trim_end() == BRIDGE_SLOT {
            out.push_str(BRIDGE_JS);
        } else {
            out.push_str(line);
        }
    }
    out.replacen(CONFIG_SLOT, &config.to_string(), 1)
}

/// The configuration in a rendered file's `const CONFIG = …;` line (`None` when there is none,
/// or it is not JSON). Also reads a configuration written over several lines, as OpenClaw
/// plugins rendered before the bridge was shared were.
pub fn config(text: &str) -> Option<Value> {
    let at = text.find(CONFIG_LINE)? + CONFIG_LINE.len();
    serde_json::Deserializer::from_str(&text[at..])
        .into_iter::<Value>()
        .next()?
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bridge_is_inlined_without_its_test_exports() {
        assert!(BRIDGE_JS.len() > 1000 && BRIDGE_JS.len() < include_str!("bridge.js").len());
        assert!(!BRIDGE_JS.contains("agenthooks:bridge-end"));
        assert!(!BRIDGE_JS.contains("console."), "the bridge never writes to stdout");
        assert!(BRIDGE_JS
            .lines()
            .filter(|l| l.starts_with("import"))
            .all(|l| l.contains("\"node:")));
    }

    #[test]
    fn a_pretty_printed_config_reads_back() {
        let text = "// x\nconst CONFIG = {\n  \"id\": \"agenthooks\",\n  \"hooks\": []\n};\nexport default {};\n";
        assert_eq!(config(text), Some(serde_json::json!({"id": "agenthooks", "hooks": []})));
        assert_eq!(config("export default {};"), None);
        assert_eq!(config("\nconst CONFIG = __AGENTHOOKS_CONFIG__;"), None);
    }
}
