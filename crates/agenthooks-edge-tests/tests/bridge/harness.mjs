// What the bridge suite's tests share: the fake daemon, a frames log per test, and the adapters
// as install renders them. The adapters come from $AGENTHOOKS_BRIDGE_BUILD (rendered by the
// Rust test that runs this suite: `cargo test -p agenthooks-edge-tests --test it bridge`); a
// test gives an adapter its own config by rewriting the one config line, as render fills it.
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const fakeDaemon = join(here, "fake-daemon.mjs");
export const bridgeSource = join(here, "../../../agenthooks-core/src/kit/bridge.js");
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A fresh directory, a frames log in it, and the fake daemon's command writing to that log. */
export function scratch() {
  const dir = mkdtempSync(join(tmpdir(), "agenthooks-bridge-"));
  const log = join(dir, "frames.jsonl");
  const frames = () =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  return { dir, log, frames, command: [process.execPath, fakeDaemon, log] };
}

/** The raw text of the frames log (for frames deeper than JSON.parse reads comfortably). */
export const rawFrames = (log) => (existsSync(log) ? readFileSync(log, "utf8") : "");

let loaded = 0;

/**
 * A fresh module instance of a rendered adapter (`opencode` or `openclaw`) with `config` in its
 * config slot; a module of its own, so module-level state (OpenClaw's daemon) is per test.
 */
export async function adapter(name, config) {
  const build = process.env.AGENTHOOKS_BRIDGE_BUILD;
  if (!build) {
    throw new Error("AGENTHOOKS_BRIDGE_BUILD is not set: run the suite with `cargo test -p agenthooks-edge-tests --test it bridge`");
  }
  const text = readFileSync(join(build, `${name}.mjs`), "utf8");
  const line = /^const CONFIG = .*;$/m;
  if (!line.test(text)) throw new Error(`${name}.mjs has no one-line config slot`);
  const dir = mkdtempSync(join(tmpdir(), `agenthooks-${name}-`));
  const file = join(dir, `adapter-${++loaded}.mjs`);
  writeFileSync(file, text.replace(line, `const CONFIG = ${JSON.stringify(config)};`));
  return (await import(pathToFileURL(file).href)).default;
}

/** Times a promise: `{ok}` or `{err}` (the message), and `ms`. */
export async function timed(promise) {
  const t = Date.now();
  const r = await promise.then(
    (ok) => ({ ok }),
    (e) => ({ err: String(e?.message ?? e), code: e?.code }),
  );
  return { ...r, ms: Date.now() - t };
}
