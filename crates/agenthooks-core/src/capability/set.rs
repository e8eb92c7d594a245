//! The capability vocabulary: [`Capability`] and the [`CapSet`] a codec reports per event (a
//! leaf: the decision, error and policy layers above all name it).

use std::fmt;

crate::named_enum! {
    /// One thing a decision can ask an agent to do.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    #[non_exhaustive]
    #[repr(u8)]
    pub enum Capability {
        /// Prevent the action (deny a tool, block a prompt).
        Deny => "deny",
        /// Force a confirmation prompt.
        Ask => "ask",
        /// Skip the permission prompt.
        Allow => "allow",
        /// Rewrite the tool input.
        UpdateInput => "update-input",
        /// Inject context for the model.
        AddContext => "add-context",
        /// Replace the tool output the model sees.
        ReplaceOutput => "replace-output",
        /// Feed a note about the tool output back to the model.
        FlagOutput => "flag-output",
        /// Keep the agent going with an instruction (stop events).
        ContinueAgent => "continue-agent",
        /// Stop the whole agent (`continue: false`).
        StopAgent => "stop-agent",
        /// Show a message to the user.
        SystemMessage => "system-message",
        /// Apply a rewritten input without an allow/ask verdict (`rewrite_input(..).no_decision()`).
        /// Claude and Codex apply a rewrite only together with a verdict.
        NeutralRewrite => "neutral-rewrite",
        /// Abstaining shows the agent's own permission dialog, so the user decides: the event is a
        /// `permission.request` fired just before that dialog (Claude Code and Codex
        /// `PermissionRequest`, Copilot `permissionRequest`). An [`ask_user`](crate::decision::ask_user)
        /// is then delivered by answering no decision, never turned into a deny (see [`degrade`](crate::degrade)).
        ///
        /// A codec leaves it out where no dialog follows: a headless mode it can recognise (from the
        /// variant, the environment or the payload, in [`Codec::capabilities`](crate::Codec::capabilities)
        /// or [`Codec::event_capabilities`](crate::Codec::event_capabilities)); there the
        /// [`AskFallback`](crate::AskFallback) applies.
        PermissionDialog => "permission-dialog",
    }
}

impl Capability {
    /// Every capability.
    pub const ALL: [Self; 12] = [
        Self::Deny,
        Self::Ask,
        Self::Allow,
        Self::UpdateInput,
        Self::AddContext,
        Self::ReplaceOutput,
        Self::FlagOutput,
        Self::ContinueAgent,
        Self::StopAgent,
        Self::SystemMessage,
        Self::NeutralRewrite,
        Self::PermissionDialog,
    ];
}

/// A set of [`Capability`] values: a copyable bit set.
///
/// ```
/// use agenthooks_core::{CapSet, Capability};
/// const GATE: CapSet = CapSet::EMPTY.with(Capability::Deny).with(Capability::AddContext);
/// assert!(GATE.contains(Capability::Deny));
/// assert!(!GATE.contains(Capability::Ask));
/// assert_eq!(GATE.iter().count(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CapSet(u16);

impl CapSet {
    /// No capabilities (fire-and-forget events).
    pub const EMPTY: Self = Self(0);
    /// Every capability.
    pub const ALL: Self = Self((1 << Capability::ALL.len()) - 1);

    /// Adds a capability (const-friendly).
    #[must_use]
    pub const fn with(self, c: Capability) -> Self {
        Self(self.0 | (1 << c as u8))
    }

    /// Removes a capability.
    #[must_use]
    pub const fn without(self, c: Capability) -> Self {
        Self(self.0 & !(1 << c as u8))
    }

    /// Builds a set from a slice (const-friendly).
    pub const fn of(caps: &[Capability]) -> Self {
        let mut s = Self::EMPTY;
        let mut i = 0;
        while i < caps.len() {
            s = s.with(caps[i]);
            i += 1;
        }
        s
    }

    /// Membership.
    pub const fn contains(self, c: Capability) -> bool {
        self.0 & (1 << c as u8) != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Set union.
    #[must_use]
    pub const fn union(self, o: Self) -> Self {
        Self(self.0 | o.0)
    }

    /// The raw bits (stable: bit `n` is the capability with discriminant `n`).
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Builds a set from raw bits; unknown bits are dropped.
    pub const fn from_bits(bits: u16) -> Self {
        Self(bits & Self::ALL.0)
    }

    /// The members, in [`Capability::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Capability> {
        Capability::ALL.into_iter().filter(move |c| self.contains(*c))
    }
}

impl fmt::Debug for CapSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(Capability::as_str)).finish()
    }
}

impl FromIterator<Capability> for CapSet {
    fn from_iter<T: IntoIterator<Item = Capability>>(iter: T) -> Self {
        iter.into_iter().fold(Self::EMPTY, Self::with)
    }
}
