// ---- The agenthooks bridge: the client half of `agenthooks serve`'s frame protocol. ----
// One copy (agenthooks-core, src/kit/bridge.js), inlined by agenthooks into each generated
// plugin (OpenCode's shim, OpenClaw's index.js): plain JavaScript, Node built-ins only.
//
// It spawns `<command> agenthooks serve --provider=<provider>` on the first call and writes one
// NDJSON frame per call, `{seq, hook, timeout_ms?, tools?, ...payload}`; the daemon answers
// `{seq, output?, error?}` (see serve.rs). The rules, the same for every plugin:
// - correlation: a reply settles its call by `seq`, else by `line` (the daemon's count of the
//   lines it read, sent when it could not read a frame's seq), else (an error reply naming
//   neither: an older daemon) the only call in flight when there is exactly one. A damaged
//   reply line settles the call its top-level `seq` names at once ("unreadable-reply"); a line
//   naming no call is skipped.
// - deadlines: a call's local deadline (`deadlineMs`) settles it ("timeout"); the daemon is sent
//   `timeout_ms`, what is left of the call's own time when the frame is written.
// - crashes: an exit, a spawn error or a write error (EPIPE: the daemon stopped reading) settle
//   the calls the dead daemon was sent ("daemon-unavailable"), never resent (one of them may be
//   what killed it); its late lines settle nothing. The next call spawns a new daemon at once;
//   only crashes in a row (each within 30 s of its daemon's start) wait first, 100 ms doubling
//   to 10 s. A call made meanwhile waits in call order for the respawn when it comes before the
//   call's daemon time ends (then sent with what is left), else fails at once.
// - data: each payload member is written as JSON when the call is made, without recursion limit
//   (a model's tool input can be nested deeper than JSON.stringify recurses): toJSON applied
//   (a URL is its href, a Date its ISO text), bigints as strings, non-finite numbers as null,
//   functions, symbols and AbortSignals dropped (null in an array), a reference to an enclosing
//   value (a cycle) dropped. A payload whose getter or toJSON throws has no JSON text: its call
//   fails at once ("unwritable-input"), nothing is sent with a hole in it.
// Failures reject with an Error whose `code` is the cause in quotes above (or "shutting-down").
// Nothing here writes to stdout.
import { spawn } from "node:child_process";

const BACKOFF_FIRST_MS = 100;
const BACKOFF_MAX_MS = 10000;
const CRASH_WINDOW_MS = 30000;

/** An Error with its cause code (what a plugin's fail policy and report are given). */
function bridgeError(code, message) {
  const e = new Error(message);
  e.code = code;
  return e;
}

/** The JSON-safe form of a value after its toJSON (JSON.stringify's replacer). */
function plain(_key, v) {
  if (typeof v === "function" || typeof v === "symbol") return undefined;
  if (typeof v === "bigint") return v.toString();
  if (typeof AbortSignal !== "undefined" && v instanceof AbortSignal) return undefined;
  return v;
}

/**
 * The JSON text of a value under the rules above (undefined when the value itself is dropped);
 * throws when a getter or toJSON throws. Values nested deeper than `JSON.stringify` recurses,
 * and cyclic ones, are written by `toJsonDeep`.
 */
function toJson(value) {
  try {
    return JSON.stringify(value, plain);
  } catch {
    return toJsonDeep(value);
  }
}

/** `toJson` without recursion (any depth); a reference to an enclosing value is dropped. */
function toJsonDeep(root) {
  const parts = [];
  const open = new Set();
  const resolve = (holder, key) => {
    let v = holder[key];
    if ((v !== null && typeof v === "object") || typeof v === "bigint") {
      if (typeof v.toJSON === "function") v = v.toJSON(key);
    }
    v = plain(key, v);
    return v !== null && typeof v === "object" && open.has(v) ? undefined : v;
  };
  const top = resolve({ "": root }, "");
  if (top === undefined) return undefined;
  const work = [{ value: top }];
  while (work.length > 0) {
    const w = work.pop();
    if (typeof w === "string") {
      parts.push(w);
      continue;
    }
    if (w.leave) {
      open.delete(w.leave);
      continue;
    }
    const v = w.value;
    if (v === undefined || v === null) parts.push("null");
    else if (typeof v === "number") parts.push(Number.isFinite(v) ? String(v) : "null");
    else if (typeof v !== "object") parts.push(JSON.stringify(v));
    else {
      open.add(v);
      const items = [];
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) items.push({ value: resolve(v, String(i)) });
      } else {
        for (const k of Object.keys(v)) {
          const member = resolve(v, k);
          if (member !== undefined) items.push(JSON.stringify(k) + ":", { value: member });
        }
      }
      const [start, end] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
      const step = Array.isArray(v) ? 1 : 2;
      const seq = [start];
      for (let i = 0; i < items.length; i += step) {
        if (i > 0) seq.push(",");
        for (let j = i; j < i + step; j++) seq.push(items[j]);
      }
      seq.push(end, { leave: v });
      for (let i = seq.length - 1; i >= 0; i--) work.push(seq[i]);
    }
  }
  return parts.join("");
}

/** `,"key":value` for each member of a payload that has JSON text (undefined ones left out). */
function members(payload) {
  let text = "";
  for (const [k, v] of Object.entries(payload ?? {})) {
    const json = v === undefined ? undefined : toJson(v);
    if (json !== undefined) text += `,${JSON.stringify(k)}:${json}`;
  }
  return text;
}

/**
 * The top-level `seq` and `line` of a reply line that is not JSON (a damaged line): a scan that
 * skips strings and nested values, so a `seq` inside the output is never taken.
 */
function scanReply(text) {
  const found = {};
  const token = /\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/y;
  let depth = 0;
  for (let i = text.indexOf("{"); i >= 0 && i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const key = text.slice(i + 1, j);
      if (depth === 1 && (key === "seq" || key === "line")) {
        token.lastIndex = j + 1;
        const m = token.exec(text);
        if (m) {
          try {
            found[key] = JSON.parse(m[1]);
          } catch {
            // not a value: not found
          }
        }
      }
      i = j;
    } else if (c === "{" || c === "[") depth += 1;
    else if (c === "}" || c === "]") depth -= 1;
  }
  return found;
}

/**
 * A bridge to one daemon at a time. `options`: `command` (argv; `agenthooks serve
 * --provider=<provider>` is appended), `provider`, `env`, `cwd`, `stderr` ("ignore" or
 * "inherit"), `hold` (whether the daemon keeps the host process alive; a pending call always
 * does, until its deadline), `hello` (the `agenthooks.hello` frame's input, sent first to every
 * daemon).
 *
 * - `ask(hook, payload, {deadlineMs, timeoutMs, tools})`: the daemon's reply (an error reply
 *   included), or a rejection with a cause code.
 * - `tell(hook, payload, {waitMs, timeoutMs, tools})`: fire and forget; resolves once the frame
 *   is in the pipe, or after `waitMs` (a frame still waiting for a respawn then is dropped).
 * - `remember(hook, payload)`: a state frame, sent now and to every later daemon after its hello.
 * - `stop(waitMs)`: settles what is pending, closes stdin, waits, kills.
 */
function createBridge(options) {
  const command = options.command;
  const env = options.env ?? process.env;
  let daemon = null;
  let seq = 0;
  let crashes = 0;
  let retryAt = 0;
  let respawnTimer = null;
  let stopped = false;
  let exitHooked = false;
  // Calls waiting for a daemon (made during a respawn backoff), in call order.
  const queue = [];
  const remembered = new Map();

  /** Writes a line: its number on the daemon's stdin (1-based), or 0 (the daemon is dead). */
  function write(d, text, done) {
    if (!d?.alive) return 0;
    try {
      d.child.stdin.write(text + "\n", done);
    } catch {
      crash(d);
      return 0;
    }
    d.lines += 1;
    return d.lines;
  }

  function control(d, hook, body) {
    const tag = hook.replace(/^agenthooks\./, "");
    write(d, `{"seq":${JSON.stringify(`${tag}-${++seq}`)},"hook":${JSON.stringify(hook)}${body}}`);
  }

  /** The frame of a call, with what is left of its daemon time. */
  function frameText(c) {
    let text = `{"seq":${c.id},"hook":${JSON.stringify(c.hook)}`;
    if (c.timeoutMs) text += `,"timeout_ms":${Math.max(1, Math.round(c.timeoutMs - (Date.now() - c.made)))}`;
    if (c.tools) text += `,"tools":${JSON.stringify(c.tools)}`;
    return text + c.body + "}";
  }

  function crash(d) {
    if (!d.alive) return;
    d.alive = false;
    try {
      d.child?.kill("SIGKILL");
    } catch {
      // already gone
    }
    if (daemon === d) daemon = null;
    if (Date.now() - d.startedAt > CRASH_WINDOW_MS) crashes = 0;
    crashes += 1;
    retryAt = crashes > 1 ? Date.now() + Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(crashes - 2, 7)) : 0;
    const sent = [...d.pending.values()];
    d.pending.clear();
    for (const c of sent) c.fail(bridgeError("daemon-unavailable", "the agenthooks daemon exited"));
    // Calls still waiting get the next daemon (no earlier than the backoff allows).
    if (queue.length > 0) queueMicrotask(flush);
  }

  /** The reply's call among what this daemon was sent (see the rules above). */
  function match(d, reply, anonymousError) {
    const bySeq = d.pending.get(reply.seq);
    if (bySeq) return bySeq;
    if (typeof reply.line === "number") {
      for (const c of d.pending.values()) if (c.line === reply.line) return c;
      return undefined;
    }
    if (!anonymousError || (reply.seq !== null && reply.seq !== undefined)) return undefined;
    return d.pending.size === 1 ? [...d.pending.values()][0] : undefined;
  }

  function read(d, chunk) {
    if (!d.alive) return;
    d.buffer += chunk;
    let nl;
    while ((nl = d.buffer.indexOf("\n")) >= 0) {
      const line = d.buffer.slice(0, nl).trim();
      d.buffer = d.buffer.slice(nl + 1);
      if (!line) continue;
      let reply;
      try {
        reply = JSON.parse(line);
      } catch {
        reply = undefined;
      }
      if (reply === null || typeof reply !== "object") {
        // A damaged line: the call it names gets its failure now, not at its deadline.
        const c = match(d, scanReply(line), false);
        c?.fail(bridgeError("unreadable-reply", "the agenthooks daemon sent an unreadable reply"));
        continue;
      }
      match(d, reply, reply.error !== undefined && reply.error !== null)?.answer(reply);
    }
  }

  /** The running daemon; a new one when none runs and no backoff does; else null. */
  function running() {
    if (stopped) return null;
    if (daemon?.alive) return daemon;
    if (Date.now() < retryAt) return null;
    const d = { alive: true, pending: new Map(), lines: 0, buffer: "", startedAt: Date.now(), child: null };
    daemon = d;
    try {
      d.child = spawn(command[0], [...command.slice(1), "agenthooks", "serve", `--provider=${options.provider}`], {
        stdio: ["pipe", "pipe", options.stderr ?? "ignore"],
        env,
        cwd: options.cwd || undefined,
        windowsHide: true,
      });
    } catch {
      crash(d);
      return null;
    }
    d.child.stdout.setEncoding("utf8");
    d.child.stdout.on("data", (chunk) => read(d, chunk));
    d.child.stdout.on("end", () => crash(d));
    d.child.on("exit", () => crash(d));
    d.child.on("error", () => crash(d));
    // EPIPE: the daemon no longer reads its stdin, so it answers nothing more.
    d.child.stdin.on("error", () => crash(d));
    if (!options.hold) {
      d.child.unref();
      d.child.stdin.unref?.();
      d.child.stdout.unref?.();
    }
    if (!exitHooked) {
      exitHooked = true;
      // The daemon gets end of input when this process exits: it answers what is in flight
      // and ends (every frame it runs has a deadline).
      process.once("exit", () => {
        try {
          daemon?.child?.stdin.end();
        } catch {
          // it sees end of input when this process is gone in any case
        }
      });
    }
    if (options.hello !== undefined) control(d, "agenthooks.hello", members({ input: options.hello }));
    for (const [hook, body] of remembered) control(d, hook, body);
    return d.alive ? d : null;
  }

  function send(d, c) {
    c.daemon = d;
    if (c.ask) d.pending.set(c.id, c);
    const line = write(d, frameText(c), c.ask ? undefined : () => c.done());
    if (!line) {
      // The write found the daemon dead: an ask was settled with what it was sent.
      if (!c.ask) c.done();
      return;
    }
    c.line = line;
  }

  /** Sends the waiting calls to a daemon (a new one if need be), in call order. */
  function flush() {
    if (queue.length === 0) return;
    const d = running();
    if (!d) return armRespawn();
    while (queue.length > 0 && d.alive) send(d, queue.shift());
    if (queue.length > 0) armRespawn();
  }

  function armRespawn() {
    if (respawnTimer || stopped || queue.length === 0) return;
    respawnTimer = setTimeout(() => {
      respawnTimer = null;
      flush();
    }, Math.max(0, retryAt - Date.now()));
    // The waiting calls' own timers keep the process alive while they wait.
    respawnTimer.unref?.();
  }

  function unqueue(c) {
    const i = queue.indexOf(c);
    if (i >= 0) queue.splice(i, 1);
  }

  /** Sends a call now, queues it for the respawn, or fails it (a backoff longer than `budget`). */
  function dispatch(c, budget) {
    const d = running();
    if (d) return send(d, c);
    if (stopped || retryAt - Date.now() >= budget) {
      return c.fail(bridgeError("daemon-unavailable", "the agenthooks daemon is not running"));
    }
    queue.push(c);
    armRespawn();
  }

  function ask(hook, payload, { deadlineMs, timeoutMs, tools } = {}) {
    if (stopped) return Promise.reject(bridgeError("shutting-down", "the agenthooks bridge is shutting down"));
    let body;
    try {
      body = members(payload);
    } catch {
      return Promise.reject(bridgeError("unwritable-input", "the hook's input cannot be written as JSON"));
    }
    const limit = timeoutMs ?? deadlineMs;
    return new Promise((resolve, reject) => {
      const c = { id: ++seq, hook, body, tools, timeoutMs, made: Date.now(), ask: true, line: 0 };
      const end = () => {
        clearTimeout(c.timer);
        unqueue(c);
        if (c.daemon?.pending.get(c.id) === c) c.daemon.pending.delete(c.id);
      };
      c.answer = (reply) => {
        end();
        resolve(reply);
      };
      c.fail = (e) => {
        end();
        reject(e);
      };
      c.timer = setTimeout(() => c.fail(bridgeError("timeout", `no answer from agenthooks within ${limit} ms`)), deadlineMs);
      dispatch(c, limit);
    });
  }

  function tell(hook, payload, { waitMs, timeoutMs, tools } = {}) {
    if (stopped) return Promise.resolve();
    let body;
    try {
      body = members(payload);
    } catch {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const c = { id: ++seq, hook, body, tools, timeoutMs, made: Date.now(), ask: false };
      c.done = () => {
        clearTimeout(c.timer);
        unqueue(c);
        resolve();
      };
      c.fail = c.done;
      c.timer = setTimeout(c.done, waitMs);
      c.timer.unref?.();
      dispatch(c, waitMs);
    });
  }

  function remember(hook, payload) {
    let body;
    try {
      body = members(payload);
    } catch {
      return;
    }
    remembered.set(hook, body);
    if (daemon?.alive) control(daemon, hook, body);
  }

  async function stop(waitMs = 500) {
    stopped = true;
    clearTimeout(respawnTimer);
    respawnTimer = null;
    const d = daemon;
    daemon = null;
    const left = [...queue, ...(d?.pending.values() ?? [])];
    queue.length = 0;
    for (const c of left) c.fail(bridgeError("shutting-down", "the agenthooks bridge is shutting down"));
    if (!d?.alive) return;
    d.alive = false;
    try {
      d.child.stdin.end();
    } catch {
      // already closed
    }
    await new Promise((resolve) => {
      const t = setTimeout(resolve, waitMs);
      d.child.once("exit", () => {
        clearTimeout(t);
        resolve();
      });
    });
    try {
      d.child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }

  return {
    ask,
    tell,
    remember,
    stop,
    get running() {
      return Boolean(daemon?.alive);
    },
    get pid() {
      return daemon?.alive ? daemon.child.pid : undefined;
    },
  };
}
// ---- agenthooks:bridge-end (what follows is not inlined: the bridge's own tests import it) ----
export { createBridge, toJson, toJsonDeep, scanReply };
