//! Provider identities: [`Provider`], [`Variant`], [`NativeName`] and detection confidence.
//!
//! All three are *open sets* in the style of `http::Method`: newtypes over a string with
//! associated constants for the values this release knows. A value this release does not know
//! (a ninth agent, a new Cursor surface, an event a future Claude release adds) is still
//! representable and round-trips unchanged.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! open_string_set {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(Cow<'static, str>);

        impl $name {
            /// Builds a value from a static string (usable in `const` items).
            pub const fn from_static(s: &'static str) -> Self {
                Self(Cow::Borrowed(s))
            }

            /// Builds a value from any string.
            pub fn new(s: impl Into<String>) -> Self {
                Self(Cow::Owned(s.into()))
            }

            /// The wire string.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&*self.0, f)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self::new(s)
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self(Cow::Owned(s))
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                String::deserialize(d).map(Self::from)
            }
        }
    };
}

open_string_set!(
    /// The agent that invoked the hook, by its wire string (`--provider=…` in generated configs).
    ///
    /// ```
    /// use agenthooks_core::Provider;
    /// let p: Provider = "claude-code".parse().unwrap();
    /// assert_eq!(p, Provider::CLAUDE_CODE);
    /// assert_eq!(p.to_string(), "claude-code");
    /// assert!(p.is_known());
    /// assert!(!Provider::new("some-future-agent").is_known());
    /// ```
    Provider
);

impl Provider {
    /// Claude Code (CLI, desktop, cowork, web).
    pub const CLAUDE_CODE: Self = Self::from_static("claude-code");
    /// Cursor (IDE, `cursor-agent` CLI, cloud agents).
    pub const CURSOR: Self = Self::from_static("cursor");
    /// OpenAI Codex CLI.
    pub const CODEX: Self = Self::from_static("codex");
    /// Gemini CLI.
    pub const GEMINI: Self = Self::from_static("gemini");
    /// GitHub Copilot CLI.
    pub const COPILOT: Self = Self::from_static("copilot");
    /// Kimi Code.
    pub const KIMI: Self = Self::from_static("kimi");
    /// OpenCode (through the generated shim plugin and `serve` mode).
    pub const OPENCODE: Self = Self::from_static("opencode");
    /// OpenClaw (through the generated native plugin and `serve` mode).
    pub const OPENCLAW: Self = Self::from_static("openclaw");
    /// Qwen Code.
    pub const QWEN: Self = Self::from_static("qwen-code");
    /// Factory Droid (`droid` CLI).
    pub const DROID: Self = Self::from_static("droid");

    /// Every provider this release knows, in a stable order.
    pub const KNOWN: [Self; 10] = [
        Self::CLAUDE_CODE,
        Self::CURSOR,
        Self::CODEX,
        Self::GEMINI,
        Self::COPILOT,
        Self::KIMI,
        Self::OPENCODE,
        Self::OPENCLAW,
        Self::QWEN,
        Self::DROID,
    ];

    /// Whether this is one of [`Provider::KNOWN`].
    pub fn is_known(&self) -> bool {
        Self::KNOWN.iter().any(|k| k == self)
    }
}

/// Error returned when parsing a [`Provider`] from an empty string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("provider name is empty")]
#[non_exhaustive]
pub struct EmptyProviderName;

impl FromStr for Provider {
    type Err = EmptyProviderName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Err(EmptyProviderName);
        }
        Ok(Self::KNOWN
            .iter()
            .find(|k| k.as_str() == s)
            .cloned()
            .unwrap_or_else(|| Self::new(s)))
    }
}

open_string_set!(
    /// A refinement of [`Provider`] where runtime behaviour genuinely differs
    /// (`cowork`, `remote`, `cli`, `ide`, `cloud`, …). The empty variant means "default/unknown".
    ///
    /// ```
    /// use agenthooks_core::Variant;
    /// assert!(Variant::DEFAULT.is_default());
    /// assert_eq!(Variant::COWORK.as_str(), "cowork");
    /// ```
    Variant
);

impl Variant {
    /// No refinement known.
    pub const DEFAULT: Self = Self::from_static("");
    /// Claude cowork / desktop.
    pub const COWORK: Self = Self::from_static("cowork");
    /// Claude Code remote/web sessions (`CLAUDE_CODE_REMOTE`).
    pub const REMOTE: Self = Self::from_static("remote");
    /// A command-line surface (Cursor CLI, …).
    pub const CLI: Self = Self::from_static("cli");
    /// An IDE surface.
    pub const IDE: Self = Self::from_static("ide");
    /// A cloud/background agent.
    pub const CLOUD: Self = Self::from_static("cloud");
    /// A VS Code host running another agent's hooks (Copilot's PascalCase dialect).
    pub const VSCODE: Self = Self::from_static("vscode");

    /// Whether this is the empty default variant.
    pub fn is_default(&self) -> bool {
        self.0.is_empty()
    }
}

impl Default for Variant {
    fn default() -> Self {
        Self::DEFAULT
    }
}

open_string_set!(
    /// A native event name exactly as the agent spells it (`PreToolUse`, `beforeShellExecution`,
    /// `BeforeTool`, `tool.execute.before`, …).
    ///
    /// ```
    /// use agenthooks_core::NativeName;
    /// let n = NativeName::from_static("PreToolUse");
    /// assert_eq!(n, "PreToolUse");
    /// ```
    NativeName
);

crate::named_enum! {
    /// How sure the runtime is about the provider (and native event) it decoded with.
    ///
    /// Ordered from least to most certain.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
    #[serde(rename_all = "kebab-case")]
    #[non_exhaustive]
    pub enum Confidence {
        /// A best guess (e.g. an ambiguous payload shape).
        Guess => "guess",
        /// Inferred from the payload shape or environment.
        Inferred => "inferred",
        /// The flag named one provider but the payload plainly came from another; decoded with the
        /// real one.
        Mismatch => "mismatch",
        /// Stated by the generated config (`--provider`, `--event`) or by the payload itself.
        #[default]
        Certain => "certain",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_strings_round_trip() {
        for p in Provider::KNOWN {
            let s = p.to_string();
            let back: Provider = s.parse().unwrap();
            assert_eq!(back, p);
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(json, format!("\"{s}\""));
            let de: Provider = serde_json::from_str(&json).unwrap();
            assert_eq!(de, p);
        }
        let known = Provider::KNOWN;
        let wire: Vec<&str> = known.iter().map(Provider::as_str).collect();
        assert_eq!(
            wire.join(" "),
            "claude-code cursor codex gemini copilot kimi opencode openclaw qwen-code droid"
        );
        assert!("".parse::<Provider>().is_err());
        let unknown: Provider = "zed".parse().unwrap();
        assert!(!unknown.is_known());
        assert_eq!(unknown.as_str(), "zed");
    }

    #[test]
    fn confidence_orders() {
        assert!(Confidence::Guess < Confidence::Certain);
        assert!(Confidence::Mismatch < Confidence::Certain);
        assert_eq!(Confidence::default(), Confidence::Certain);
    }
}
