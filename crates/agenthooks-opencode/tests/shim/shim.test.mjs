// The shim without OpenCode: `node --test crates/agenthooks-opencode/tests/shim/`.
// Covers concurrent calls (correlation by seq), the shim-owned deadline under both fail policies,
// the crash/EOF/EPIPE path and the respawn (at once, then backoff with waiting calls), error re-throw vs swallow, in-place replies, event filtering
// and JSON sanitising. The daemon is fake-daemon.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

import agenthooks from "../../src/shim.js";

const here = dirname(fileURLToPath(import.meta.url));
const daemon = join(here, "fake-daemon.mjs");

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "agenthooks-shim-"));
  const log = join(dir, "frames.jsonl");
  const bridge = agenthooks.createBridge({
    command: [process.execPath, daemon],
    hello: { serverUrl: "http://127.0.0.1:1/", directory: dir, worktree: dir, projectID: "p" },
    env: { ...process.env, FAKE_DAEMON_LOG: log },
  });
  const frames = () =>
    existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
  return { bridge, frames };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits (up to 5 s) until `frames()` holds `n` event frames; returns their types. */
async function eventTypes(frames, n) {
  const types = () => frames().filter((f) => f.frame.hook === "event").map((f) => f.frame.input.event.type);
  for (let i = 0; i < 50 && types().length < n; i++) await sleep(100);
  await sleep(200);
  return types();
}

test("concurrent calls are correlated by seq, replies assigned in place", async () => {
  const { bridge, frames } = setup();
  const hooks = agenthooks.hooksFor(bridge, { "tool.execute.before": { timeoutMs: 5000, fail: "open" } }, {});
  const outs = [0, 1, 2].map((i) => ({ args: { command: `c${i}` } }));
  const argsRefs = outs.map((o) => o.args);
  // The first answers last.
  await Promise.all(
    outs.map((o, i) => hooks["tool.execute.before"]({ tool: "bash", delay: (2 - i) * 150 }, o)),
  );
  for (const [i, o] of outs.entries()) {
    assert.equal(o.args.command, `c${i}`);
    assert.equal(typeof o.args.seen, "number");
    assert.equal(o.args, argsRefs[i], "the args object keeps its identity");
  }
  assert.equal(new Set(outs.map((o) => o.args.seen)).size, 3);
  const hello = frames().find((f) => f.frame.hook === "agenthooks.hello");
  assert.equal(hello.frame.input.serverUrl, "http://127.0.0.1:1/");
  assert.ok(frames().every((f) => f.frame.hook !== "tool.execute.before" || f.frame.timeout_ms === 5000));
  await bridge.stop();
});

test("the deadline applies the fail policy: open does nothing, closed throws", async () => {
  const { bridge } = setup();
  const hooks = agenthooks.hooksFor(
    bridge,
    {
      "tool.execute.before": { timeoutMs: 200, fail: "closed" },
      "tool.execute.after": { timeoutMs: 200, fail: "closed" },
      "chat.message": { timeoutMs: 200, fail: "open" },
    },
    {},
  );
  const started = Date.now();
  await assert.rejects(hooks["tool.execute.before"]({ tool: "bash", mode: "slow" }, { args: {} }), /within 200 ms.*fail-closed/);
  assert.ok(Date.now() - started < 2000);
  const out = { parts: [1] };
  await hooks["chat.message"]({ mode: "slow" }, out);
  assert.deepEqual(out, { parts: [1] });
  // tool.execute.after cannot block: closed is a no-op there too.
  await hooks["tool.execute.after"]({ tool: "bash", mode: "slow" }, { output: "x" });
  await bridge.stop();
});

test("a crash rejects the frames the daemon was sent, per policy; the next call respawns it at once", async () => {
  const { bridge, frames } = setup();
  const hooks = agenthooks.hooksFor(bridge, { "tool.execute.before": { timeoutMs: 5000, fail: "closed" } }, {});
  const slow = hooks["tool.execute.before"]({ tool: "bash", mode: "slow" }, { args: {} });
  await sleep(100);
  const firstPid = bridge.pid;
  await assert.rejects(hooks["tool.execute.before"]({ tool: "bash", mode: "crash" }, { args: {} }), /daemon exited.*fail-closed/);
  await assert.rejects(slow, /daemon exited/);
  assert.equal(bridge.running, false);
  // No backoff after a first crash: the rest of the turn (OpenCode runs it in well under 100 ms
  // when the hooks fail fast) reaches the new daemon instead of being dropped.
  const started = Date.now();
  const out = { args: { command: "ls" } };
  await hooks["tool.execute.before"]({ tool: "bash" }, out);
  assert.equal(out.args.command, "ls");
  assert.equal(typeof out.args.seen, "number", "the respawned daemon answered");
  assert.ok(Date.now() - started < 2000);
  assert.notEqual(bridge.pid, firstPid);
  const hellos = frames().filter((f) => f.frame.hook === "agenthooks.hello");
  assert.equal(new Set(hellos.map((f) => f.pid)).size, 2, "the respawned daemon got its own hello");
  await bridge.stop();
  assert.equal(bridge.running, false);
});

test("after crashes in a row, calls wait for the respawn in order instead of failing", async () => {
  const { bridge, frames } = setup();
  const hooks = agenthooks.hooksFor(bridge, { "tool.execute.before": { timeoutMs: 5000, fail: "closed" } }, {});
  const crash = () => hooks["tool.execute.before"]({ tool: "bash", mode: "crash" }, { args: {} });
  await assert.rejects(crash(), /daemon exited/);
  // The second crash in a row arms a 100 ms backoff.
  await assert.rejects(crash(), /daemon exited/);
  const started = Date.now();
  const outs = [0, 1, 2].map((i) => ({ args: { command: `c${i}` } }));
  await Promise.all(outs.map((o) => hooks["tool.execute.before"]({ tool: "bash" }, o)));
  const waited = Date.now() - started;
  assert.ok(waited >= 50 && waited < 2000, `waited ${waited} ms`);
  for (const [i, o] of outs.entries()) {
    assert.equal(o.args.command, `c${i}`);
    assert.equal(typeof o.args.seen, "number", `call ${i} answered`);
  }
  // The new daemon got its hello first, then the waiting frames in call order, each with what
  // was left of its deadline.
  const last = frames().filter((f) => f.pid === bridge.pid).map((f) => f.frame);
  assert.equal(last[0].hook, "agenthooks.hello");
  const waiting = last.filter((f) => f.hook === "tool.execute.before");
  assert.deepEqual(waiting.map((f) => f.output.args.command), ["c0", "c1", "c2"]);
  assert.ok(waiting.every((f) => f.timeout_ms < 5000 && f.timeout_ms > 4000), JSON.stringify(waiting.map((f) => f.timeout_ms)));
  // A third crash: 200 ms. A call whose deadline ends sooner fails per policy at once.
  await assert.rejects(crash(), /daemon exited/);
  const quick = agenthooks.hooksFor(bridge, { "tool.execute.before": { timeoutMs: 50, fail: "closed" } }, {});
  const t = Date.now();
  await assert.rejects(quick["tool.execute.before"]({ tool: "bash" }, { args: {} }), /not running.*fail-closed/);
  assert.ok(Date.now() - t < 150, "at once, not after the 200 ms backoff or its own deadline");
  await bridge.stop();
});

test("a daemon that stops reading its stdin is replaced, not written to until the deadline", async () => {
  const { bridge } = setup();
  const hooks = agenthooks.hooksFor(bridge, { "tool.execute.before": { timeoutMs: 5000, fail: "closed" } }, {});
  const started = Date.now();
  const deaf = hooks["tool.execute.before"]({ tool: "bash", mode: "deaf" }, { args: {} });
  deaf.catch(() => {});
  await sleep(200);
  const deafPid = bridge.pid;
  // The write meets EPIPE: the daemon is counted dead and what it was sent fails per policy.
  await assert.rejects(hooks["tool.execute.before"]({ tool: "bash" }, { args: {} }), /daemon exited.*fail-closed/);
  await assert.rejects(deaf, /daemon exited.*fail-closed/);
  assert.ok(Date.now() - started < 3000, "well before the 5 s deadline");
  const out = { args: { command: "ls" } };
  await hooks["tool.execute.before"]({ tool: "bash" }, out);
  assert.equal(typeof out.args.seen, "number", "a new daemon answered");
  assert.notEqual(bridge.pid, deafPid);
  await bridge.stop();
});

test("errors are thrown from the gates and swallowed elsewhere", async () => {
  const { bridge } = setup();
  const hooks = agenthooks.hooksFor(
    bridge,
    { "tool.execute.before": { timeoutMs: 5000 }, "tool.execute.after": { timeoutMs: 5000 } },
    {},
  );
  await assert.rejects(hooks["tool.execute.before"]({ tool: "rm", mode: "error" }, { args: {} }), { message: "no: rm" });
  await hooks["tool.execute.after"]({ tool: "rm", mode: "error" }, { output: "kept" });
  await bridge.stop();
});

test("bus events: fire-and-forget, only subscribed types, high-volume ones filtered", async () => {
  const { bridge, frames } = setup();
  const hooks = agenthooks.hooksFor(bridge, {}, { "*": { timeoutMs: 1000 } });
  await hooks.event({ event: { type: "session.idle", properties: { sessionID: "s" } } });
  await hooks.event({ event: { type: "message.part.delta", properties: {} } });
  await hooks.event({ event: { type: "session.next.step", properties: {} } });
  assert.deepEqual(await eventTypes(frames, 1), ["session.idle"]);
  await bridge.stop();
  const only = setup();
  const named = agenthooks.hooksFor(only.bridge, {}, { "message.part.delta": { timeoutMs: 1000 } });
  await named.event({ event: { type: "message.part.delta", properties: {} } });
  await named.event({ event: { type: "session.idle", properties: {} } });
  assert.deepEqual(await eventTypes(only.frames, 1), ["message.part.delta"]);
  await only.bridge.stop();
});

test("non-JSON values are stripped; in-place assignment semantics", () => {
  const cyclic = { a: 1, f: () => 1, u: new URL("http://x/"), s: Symbol("s"), n: 10n };
  cyclic.self = cyclic;
  assert.deepEqual(JSON.parse(agenthooks.toJson(cyclic)), { a: 1, n: "10" });
  const parts = [1, 2];
  const args = { a: 1, b: 2 };
  const out = { parts, args, title: "t" };
  agenthooks.assignInPlace(out, { parts: [3], args: { b: 3 }, title: "u" });
  assert.equal(out.parts, parts);
  assert.deepEqual(parts, [3]);
  assert.equal(out.args, args);
  assert.deepEqual(args, { b: 3 });
  assert.equal(out.title, "u");
});

test("the default export is the only export and makes a hooks object", async () => {
  const mod = await import("../../src/shim.js");
  assert.deepEqual(Object.keys(mod), ["default"]);
  assert.equal(typeof mod.default, "function");
});

test("a hook's in-process tool filter rides on each of its frames", async () => {
  const { bridge, frames } = setup();
  const hooks = agenthooks.hooksFor(
    bridge,
    {
      "tool.execute.before": { timeoutMs: 5000, fail: "open", tools: "class:other" },
      "tool.execute.after": { timeoutMs: 5000, fail: "open" },
    },
    {},
  );
  await hooks["tool.execute.before"]({ tool: "bash" }, { args: { command: "ls" } });
  await hooks["tool.execute.after"]({ tool: "bash" }, { output: "x" });
  const of = (hook) => frames().filter((f) => f.frame.hook === hook).map((f) => f.frame);
  assert.deepEqual(of("tool.execute.before").map((f) => f.tools), ["class:other"]);
  assert.deepEqual(of("tool.execute.after").map((f) => "tools" in f), [false]);
  await bridge.stop();
});

test("a reply the daemon could not match by seq settles its call at once, per policy", async (t) => {
  const { bridge } = setup();
  const spec = { timeoutMs: 30000, fail: "closed" };
  const hooks = agenthooks.hooksFor(bridge, { "tool.execute.before": spec, "chat.message": { ...spec, fail: "open" } }, {});
  t.after(() => bridge.stop());
  const gate = (input, out = { args: {} }) => hooks["tool.execute.before"]({ tool: "bash", ...input }, out);
  const quick = async (promise) => {
    const t = Date.now();
    const r = await promise.then(
      (v) => ({ ok: v }),
      (e) => ({ err: String(e.message) }),
    );
    return { ...r, ms: Date.now() - t };
  };
  // Concurrent calls, one answered under `seq: null` with its line: only that one settles.
  const slow = gate({ mode: "slow" }).catch(() => {});
  const [unread, echo] = await Promise.all([quick(gate({ mode: "unread" })), quick(gate({ delay: 50 }))]);
  assert.match(unread.err, /malformed frame/, JSON.stringify(unread));
  assert.ok(unread.ms < 2000, `at once: ${unread.ms} ms`);
  assert.equal(echo.ok, undefined);
  assert.ok(echo.ms < 2000);
  // A damaged reply line: the call its top-level seq names gets the fail policy at once (a
  // nested "seq" in it names no call).
  const garbled = await quick(gate({ mode: "garbled" }));
  assert.match(garbled.err, /unreadable reply.*fail-closed/, JSON.stringify(garbled));
  assert.ok(garbled.ms < 2000);
  // Lines that are not JSON and name no call are skipped; the call is answered after them.
  const out = { args: { command: "x" } };
  const noise = await quick(gate({ mode: "noise" }, out));
  assert.equal(noise.err, undefined, JSON.stringify(noise));
  assert.equal(typeof out.args.seen, "number");
  // A damaged reply under fail-open: the call goes on at once.
  const open = await quick(hooks["chat.message"]({ mode: "garbled" }, { parts: [] }));
  assert.ok(open.ms < 2000 && open.err === undefined, JSON.stringify(open));
  await bridge.stop();
  await slow;
});

test("an anonymous error reply settles the only call in flight, and no call when several are", async () => {
  const { bridge } = setup();
  const started = Date.now();
  await assert.rejects(
    bridge.call("tool.execute.before", { tool: "bash", mode: "anonymous" }, undefined, 30000).then((r) => {
      throw new Error(String(r.error));
    }),
    /malformed frame/,
  );
  assert.ok(Date.now() - started < 2000);
  // Two in flight: the anonymous error cannot be told apart, so it settles neither; each then
  // ends at its own deadline.
  const a = bridge.call("tool.execute.before", { tool: "bash", mode: "anonymous" }, undefined, 600);
  const b = bridge.call("tool.execute.before", { tool: "bash", mode: "slow" }, undefined, 600);
  const t = Date.now();
  await assert.rejects(a, /within 600 ms/);
  await assert.rejects(b, /within 600 ms/);
  assert.ok(Date.now() - t >= 500);
  await bridge.stop();
});

test("the reply scan reads only top-level seq and line", () => {
  const scan = agenthooks.scanReply;
  assert.deepEqual(scan('{"output":{"seq":9,"x":"\\"seq\\":8"},"seq":3,"line":4,"error":"x\\u'), { seq: 3, line: 4 });
  assert.deepEqual(scan('{"error":"x","seq":"hello-1"'), { seq: "hello-1" });
  assert.deepEqual(scan('{"output":[{"seq":1}]'), {});
  assert.deepEqual(scan("running 1 test"), {});
});

test("values nested deeper than JSON.stringify recurses are written without recursion", () => {
  const deepJson = agenthooks.toJsonDeep;
  // Same text as JSON.stringify where that works, stripping included.
  const cyclic = { a: 1, f: () => 1, u: new URL("http://x/"), s: Symbol("s"), n: 10n, d: new Date(0), arr: [1, undefined, () => 2, "x\ud800"], nan: NaN };
  cyclic.self = cyclic;
  cyclic.arr.push(cyclic);
  assert.equal(deepJson(cyclic), '{"a":1,"n":"10","d":"1970-01-01T00:00:00.000Z","arr":[1,null,null,"x\\ud800",null],"nan":null}');
  for (const v of [null, 1, "s", [], {}, { a: [{ b: {} }] }, [[1, [2]], { c: [] }]]) {
    assert.equal(deepJson(v), JSON.stringify(v));
  }
  // A reference seen twice but not enclosing itself is no cycle.
  const shared = { x: 1 };
  assert.equal(deepJson({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
  let deep = { command: "rm -rf /" };
  for (let i = 0; i < 100000; i++) deep = [deep];
  const text = agenthooks.toJson({ args: deep });
  assert.ok(text.startsWith('{"args":[[[') && text.includes('{"command":"rm -rf /"}'));
  assert.equal(text.length, 100000 * 2 + '{"args":}'.length + '{"command":"rm -rf /"}'.length);
});

test("a deeply nested tool input reaches the daemon; one that has no JSON text fails its call alone", async () => {
  const { bridge, frames } = setup();
  const hooks = agenthooks.hooksFor(bridge, { "tool.execute.before": { timeoutMs: 20000, fail: "closed" } }, {});
  let deep = [];
  // past what JSON.stringify with a replacer recurses to, within what the fake daemon's parse does
  for (let i = 0; i < 4000; i++) deep = [deep];
  const out = { args: { command: "ls", deep } };
  await hooks["tool.execute.before"]({ tool: "bash" }, out);
  assert.equal(typeof out.args.seen, "number", "answered by the daemon");
  const pid = bridge.pid;
  const started = Date.now();
  const broken = { get boom() { throw new Error("no"); } };
  await assert.rejects(hooks["tool.execute.before"]({ tool: "bash" }, { args: broken }), /cannot be written as JSON.*fail-closed/);
  assert.ok(Date.now() - started < 2000);
  assert.equal(bridge.pid, pid, "the daemon is not taken for dead");
  assert.ok(frames().some((f) => f.frame.hook === "tool.execute.before"));
  await bridge.stop();
});
