//! OpenClaw's plugin for a run: the generated native plugin and its `plugins.entries` block.

use std::path::Path;

use agenthooks::openclaw::plugin::{PluginConfig, ShimHook};
use agenthooks_install::{FailurePolicy, HookOn, Manifest};
use serde_json::{json, Map, Value};

/// What was written for OpenClaw.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct OpenClawPlan {
    /// `plugins.entries.agenthooks` for `openclaw.json`.
    pub entry: Value,
}

/// Renders the plugin for the manifest's OpenClaw hooks into `dir`.
pub fn install_plugin(m: &Manifest, dir: &Path) -> Result<OpenClawPlan, String> {
    let mut cfg = PluginConfig::new(m.command.iter().cloned()).fail_closed(m.failure == FailurePolicy::Closed);
    for h in &m.hooks {
        if let HookOn::Native { provider, event } = &h.on {
            if provider.as_str() == "openclaw" {
                let mut s = ShimHook::new(event.clone());
                if let Some(t) = h.timeout {
                    s = s.with_deadline(t);
                }
                cfg = cfg.with_hook(s);
            }
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    for (name, text) in cfg.render() {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| format!("writing {}: {e}", p.display()))?;
    }
    let timeouts: Map<String, Value> = cfg.host_timeouts().into_iter().map(|(k, v)| (k, v.into())).collect();
    Ok(OpenClawPlan {
        entry: json!({
            "enabled": true,
            "hooks": {"allowConversationAccess": cfg.needs_conversation_access(), "timeouts": timeouts},
        }),
    })
}
