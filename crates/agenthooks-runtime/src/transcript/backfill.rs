//! Prompt backfill: a synthesized, reporting-only `prompt.submitted` for a prompt the agent
//! never sent to the prompt hook (Cursor CLI `-p` skips `beforeSubmitPrompt`, quirk 31;
//! Factory Droid's `droid exec` skips `UserPromptSubmit`, quirk 1001), built from the session's
//! transcript at the session's next event.
//!
//! A backfilled event has [`Envelope::backfilled`] set, an empty raw payload and **no
//! capabilities**: the prompt already went to the model, so it can never gate — whatever a
//! handler answers is dropped. Handlers opt in with
//! [`Router::backfill_prompts`](agenthooks_core::Router::backfill_prompts); without it nothing is read or
//! written.
//!
//! Exactly once per prompt, across the hook processes of a session, by on-disk markers under
//! `<state dir>/backfill/<session digest>/`:
//! - `fired-<text digest>-<n>`: written when the agent itself fired the prompt hook; the first
//!   transcript prompt with that text consumes one, so a prompt the agent did send is never
//!   backfilled (install the prompt hook too, or every prompt is reported as backfilled);
//! - `record-<offset>` (`record-d<index>` in a Gemini JSON document): created (exclusively) by
//!   the one process that handles that transcript prompt;
//! - `offset`: where the next scan starts (a partial last line is read again next time).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{Item, Tail, TranscriptFormat};
use crate::codec::Env;
use crate::event::{Envelope, Event, PromptEvent, RawPayload};
use crate::kind::EventKind;
use crate::provider::NativeName;

/// The most prompt-hook firings of one text a session keeps (`fired-<digest>-<n>`).
const MAX_REPEATS: u32 = 64;

/// A session's backfill state directory.
#[derive(Debug, Clone)]
pub struct Backfill {
    dir: PathBuf,
}

impl Backfill {
    /// The state of `event`'s session under `state_dir`; `None` for an event without a session.
    pub fn for_event(state_dir: &Path, event: &Event) -> Option<Self> {
        let env = event.envelope();
        if env.session.id.is_empty() {
            return None;
        }
        let mut h = Sha256::new();
        h.update(env.provider.as_str().as_bytes());
        h.update(b"|");
        h.update(env.session.id.as_bytes());
        let d = h.finalize();
        Some(Self {
            dir: state_dir.join("backfill").join(crate::digest::hex(&d[..8])),
        })
    }

    /// Notes that the agent fired the prompt hook itself for `prompt` (so the transcript's copy
    /// is not backfilled).
    pub fn note_fired(&self, prompt: &str) {
        let key = text_key(prompt);
        for n in 0..MAX_REPEATS {
            match self.create(&format!("fired-{key}-{n}")) {
                Ok(true) => return,
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "backfill: could not record a fired prompt");
                    return;
                }
            }
        }
    }

    /// The backfilled `prompt.submitted` events for the prompts of `event`'s transcript that
    /// no hook call has reported yet (each returned by exactly one call, ever), read in the
    /// agent's `format` (variables the format's [`locate`](super::locate) needs come from `vars`).
    pub fn pending(
        &self,
        event: &Event,
        native: &NativeName,
        format: &'static dyn TranscriptFormat,
        vars: &dyn Env,
    ) -> Vec<Event> {
        let env = event.envelope();
        let Some(path) = super::locate(format, env, vars).filter(|_| !env.backfilled) else {
            return Vec::new();
        };
        let offset_file = self.dir.join("offset");
        let from = crate::safe_fs::read_regular(&offset_file, 32)
            .ok()
            .and_then(|b| String::from_utf8(b).ok()?.trim().parse().ok())
            .unwrap_or(0);
        let mut tail = Tail::at(format, path, from);
        let records = match tail.poll() {
            Ok(r) => r,
            Err(e) => {
                tracing::debug!(error = %e, "backfill: transcript unreadable");
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for r in &records {
            for item in &r.items {
                let Item::UserPrompt { text } = item else { continue };
                let id = r.index().map_or_else(|| r.offset.to_string(), |i| format!("d{i}"));
                match self.create(&format!("record-{id}")) {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(e) => {
                        tracing::warn!(error = %e, "backfill: could not mark a prompt; not backfilled");
                        continue;
                    }
                }
                if self.consume_fired(text) {
                    continue;
                }
                out.push(synthesize(env, native.clone(), text.clone()));
            }
        }
        if tail.offset() != from {
            let tmp = self.dir.join(format!("offset.{}", std::process::id()));
            let saved = crate::safe_fs::private_dir(&self.dir, true)
                .and_then(|()| crate::safe_fs::write_private(&tmp, tail.offset().to_string().as_bytes()))
                .and_then(|()| std::fs::rename(&tmp, &offset_file));
            if let Err(e) = saved {
                tracing::debug!(error = %e, "backfill: could not save the scan offset");
            }
        }
        out
    }

    fn consume_fired(&self, prompt: &str) -> bool {
        let key = text_key(prompt);
        (0..MAX_REPEATS).any(|n| std::fs::remove_file(self.dir.join(format!("fired-{key}-{n}"))).is_ok())
    }

    /// Creates a marker exclusively (`0600`, in a private directory, never through a symlink):
    /// `Ok(true)` when this call created it.
    fn create(&self, name: &str) -> std::io::Result<bool> {
        crate::safe_fs::private_dir(&self.dir, true)?;
        crate::safe_fs::create_new_private(&self.dir.join(name))
    }
}

/// The digest a prompt is matched by (surrounding whitespace ignored).
fn text_key(prompt: &str) -> String {
    crate::digest::hex(&Sha256::digest(prompt.trim().as_bytes())[..12])
}

/// The reporting-only event: the trigger's session and agent, no raw payload.
fn synthesize(trigger: &Envelope, native: NativeName, prompt: String) -> Event {
    let mut env = Envelope::new(
        trigger.provider.clone(),
        native,
        EventKind::PromptSubmitted,
        RawPayload::default(),
    );
    env.variant = trigger.variant.clone();
    env.agent_version.clone_from(&trigger.agent_version);
    env.session = trigger.session.clone();
    env.agent.clone_from(&trigger.agent);
    env.confidence = trigger.confidence;
    env.backfilled = true;
    Event::PromptSubmitted(PromptEvent::new(env, prompt))
}
