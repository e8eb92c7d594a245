//! OpenCode bridge for agenthooks: the shim plugin's frames, typed, decoded and answered.
//!
//! OpenCode has no hook process protocol: hooks are functions in JS plugins inside the OpenCode
//! server. The bridge has two halves:
//!
//! - [`shim`]: the generated plugin (`.opencode/plugin/agenthooks.js`), which spawns
//!   `<binary> agenthooks serve --provider=opencode` and proxies each subscribed hook as an NDJSON
//!   frame `{seq, hook, timeout_ms, input, output}` → `{seq, output?, error?}`;
//! - this codec, on the provider kit: [`native`] (one row and one typed struct per hook and bus
//!   event, decoded tolerantly), [`tools`] (OpenCode's tool table and `<server>_<tool>` MCP
//!   naming), and [`OpenCodeCodec`] ([`CODEC`]), which the `serve` loop runs exactly as `run`
//!   runs the other agents' codecs (same deadline, continuation cap, panic guard, policy).
//!
//! ```
//! use agenthooks_opencode::CODEC;
//! use agenthooks_core::{decision::deny, Codec, Event, Invocation, Transport};
//! use std::collections::HashMap;
//!
//! let frame = br#"{"seq":17,"hook":"tool.execute.before","timeout_ms":30000,
//!   "input":{"tool":"bash","sessionID":"ses_1","callID":"call_1"},
//!   "output":{"args":{"command":"rm -rf build"}}}"#;
//! let env: HashMap<String, String> = HashMap::new();
//! let inv = Invocation::new(frame.to_vec(), &env).with_transport(Transport::Frame);
//! let event = CODEC.decode(&inv)?;
//! let Event::ToolPre(pre) = &event else { unreachable!() };
//! assert_eq!((pre.tool.command(), pre.tool.id.as_str()), (Some("rm -rf build"), "call_1"));
//!
//! let wire = CODEC.encode(&event, &deny("no deletes").into())?;
//! assert_eq!(wire.stdout_str(), r#"{"error":"no deletes"}"#); // the shim throws it
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The dialect
//!
//! **Input.** One frame per hook call (see [`native`]): `hook` names the OpenCode hook; bus
//! events come through `event` and are named by their `type`. The serve loop answers the
//! shim's control frames itself (`agenthooks.hello` with the plugin context, `agenthooks.ping`).
//!
//! **Output.** A reply envelope on stdout (the serve loop lifts it into the response frame):
//!
//! | intent | reply |
//! |---|---|
//! | no decision | `{}` (nothing assigned, nothing thrown) |
//! | deny (`tool.execute.before`) | `{"error": reason}`: thrown; the reason is the tool result the model sees |
//! | rewrite (`tool.execute.before`) | `{"output": {"args": {…}}}` (with or without a verdict) |
//! | block prompt (`chat.message`) | `{"error": reason}`: thrown into prompt handling |
//! | context (`chat.message`) | `{"output": {"parts": [...parts, {type: "text", text, synthetic: true, metadata: {agenthooks: "context"}}]}}` |
//! | context (`experimental.session.compacting`) | `{"output": {"context": [...context, text]}}` |
//! | replace output (`tool.execute.after`) | `{"output": {"output": text}}` |
//! | continue (`session.idle`) | `{"effects": [POST /session/{id}/prompt_async {parts: [marked synthetic text]}]}` (fallback `/message`) |
//! | allow / deny (`permission.asked`) | `{"effects": [POST /permission/{id}/reply {reply: "once"\|"reject", message?}]}` (fallback `/session/{sid}/permissions/{id}` `{response}`) |
//!
//! Effects are sent by the daemon to the hello frame's `serverUrl` (loopback only) after the
//! frame is answered. **Failure posture**: fail-closed answers `{"error": reason}` on the two
//! throwing hooks and the no-op elsewhere; the shim applies the same policy at its own deadline
//! and when the daemon dies. **Stderr**: the daemon logs to a file (the shim ignores its stderr).
//!
//! # Event mapping
//!
//! | native | unified kind |
//! |---|---|
//! | `tool.execute.before` | `tool.pre` |
//! | `tool.execute.after` | `tool.post` |
//! | `message.part.updated` with an errored tool part | `tool.error` (else `other`) |
//! | `chat.message` | `prompt.submitted` |
//! | `session.created` | `session.start`, or `subagent.start` for a child session |
//! | `session.idle` | `agent.stop`, or `subagent.stop` for a child session |
//! | `experimental.session.compacting` / `session.compacted` | `compact.pre` / `compact.post` |
//! | `file.edited` | `file.edited` |
//! | `chat.params`, `chat.headers` | `model.request` |
//! | `experimental.text.complete` | `model.response` |
//! | `permission.asked` (v2), `permission.updated` (v1) | `permission.request` |
//! | `server.instance.disposed` | `session.end` (best-effort) |
//! | `tui.toast.show` | `notification` |
//! | every other hook and bus event | `other` |
//!
//! # Lossy projections
//!
//! - ⚠ `tool.pre`: there is no allow (OpenCode's permission ask comes after the hook): an allow
//!   degrades to no decision; answer the `permission.request` instead (#18, #702).
//! - ⚠ `permission.request`: the reply only counts where OpenCode's server listens and no other
//!   client answered first (`opencode run` auto-rejects; #702); ask is OpenCode's own flow (the
//!   no-op); `always` replies have no unified intent.
//! - ⚠ `permission.request` from a v1 `permission.updated` (older servers): the per-session
//!   reply route takes only `{response}`, so a deny's reason is not delivered (#704).
//! - ⚠ `agent.stop`: no stop-loop flag from OpenCode; `previously_continued` comes from our own
//!   marked continuation (#705). The continuation is a new user turn, not the same turn resumed.
//! - ⚠ `session.start`: no source (always `startup`); context on it is not expressible.
//! - ⚠ MCP calls: recognised only against configured servers (#28); no transport.
//! - ⚠ `tool.error`: from the errored tool part; the exit code and duration are not reported (#703).
//! - ⚠ `model.request` / `model.response`: observe only.

#![cfg_attr(docsrs, feature(doc_cfg))]

//! # Serve-mode cost
//!
//! `examples/serve_bench.rs` (release build) on the shared 2-core machine under load (load
//! average ~4.5), a `tool.execute.before` frame answered by a deny-`rm` handler:
//!
//! | path | frames/s | p50 | p99 |
//! |---|---|---|---|
//! | frames over the daemon's stdio, one in flight | 2837 | 121 µs | 4.0 ms |
//! | the same, 8 sessions in flight | 8330 | 726 µs | 5.2 ms |
//! | through the shim's bridge code (now `agenthooks-edge-tests/tests/bridge/bench.mjs`; measured before the bridge was shared), Node 20, one in flight | 1621 | 251 µs | 4.1 ms |
//! | the same, 8 sessions in flight | 3398 | 849 µs | 4.7 ms |
//! | baseline: `agenthooks run`, one process per event (same codec and handler) | 755 | 1.17 ms | 4.8 ms |
//!
//! The p99s are the loaded machine's scheduling; the medians show the bridge's own cost.

pub mod codec;
pub mod mcp_config;
pub mod native;
pub mod output;
pub mod quirks;
pub mod shim;
pub mod tools;

pub use codec::{frame_name, OpenCodeCodec};
pub use native::NativeEvent;

agenthooks_core::kit::provider_surface! {
    /// The codec the facade registers for `--provider=opencode`.
    codec OpenCodeCodec;
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
