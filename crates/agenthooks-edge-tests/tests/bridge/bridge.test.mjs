// The bridge itself (crates/agenthooks-core/src/kit/bridge.js, imported as it is written):
// correlation, deadlines, crashes and the respawn backoff, EPIPE, replies the daemon could not
// match by seq, control frames, and writing hook data as JSON. The adapters' tests are in
// opencode.test.mjs and openclaw.test.mjs; the daemon is fake-daemon.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";

import { createBridge, toJson, toJsonDeep, scanReply } from "../../../agenthooks-core/src/kit/bridge.js";
import { scratch, sleep, timed, rawFrames } from "./harness.mjs";

function setup(extra = {}) {
  const s = scratch();
  const bridge = createBridge({ command: s.command, provider: "test", hello: { directory: s.dir }, ...extra });
  const ask = (data, timeoutMs = 5000, more = {}) =>
    bridge.ask("tool.execute.before", { input: { tool: "bash", ...data }, output: more.output }, {
      deadlineMs: more.deadlineMs ?? timeoutMs + 250,
      timeoutMs,
      tools: more.tools,
    });
  return { ...s, bridge, ask };
}

test("concurrent calls are correlated by seq; the first frame is the hello", async (t) => {
  const { bridge, ask, frames } = setup();
  t.after(() => bridge.stop());
  // The first answers last.
  const replies = await Promise.all([0, 1, 2].map((i) => ask({ delay: (2 - i) * 150 }, 5000, { output: { args: { i } } })));
  for (const [i, r] of replies.entries()) {
    assert.equal(r.output.args.i, i);
    assert.equal(r.output.args.seen, r.seq);
  }
  assert.equal(new Set(replies.map((r) => r.seq)).size, 3);
  const sent = frames().map((f) => f.frame);
  assert.equal(sent[0].hook, "agenthooks.hello");
  assert.match(sent[0].seq, /^hello-\d+$/);
  assert.ok(sent.slice(1).every((f) => f.timeout_ms > 4900 && f.timeout_ms <= 5000), JSON.stringify(sent));
});

test("the local deadline settles a call the daemon does not answer", async (t) => {
  const { bridge, ask } = setup();
  t.after(() => bridge.stop());
  const r = await timed(ask({ mode: "slow" }, 200));
  assert.equal(r.code, "timeout");
  assert.match(r.err, /no answer from agenthooks within 200 ms/);
  assert.ok(r.ms >= 400 && r.ms < 2000, `${r.ms} ms`);
});

test("a crash fails the frames the daemon was sent; the next call respawns it at once", async (t) => {
  const { bridge, ask, frames } = setup();
  t.after(() => bridge.stop());
  const slow = timed(ask({ mode: "slow" }));
  await sleep(100);
  const firstPid = bridge.pid;
  const crash = await timed(ask({ mode: "crash" }));
  assert.equal(crash.code, "daemon-unavailable");
  assert.match(crash.err, /daemon exited/);
  assert.equal((await slow).code, "daemon-unavailable");
  assert.equal(bridge.running, false);
  const r = await timed(ask({}));
  assert.equal(typeof r.ok?.output?.pid, "number", JSON.stringify(r));
  assert.ok(r.ms < 2000);
  assert.notEqual(bridge.pid, firstPid);
  const hellos = frames().filter((f) => f.frame.hook === "agenthooks.hello");
  assert.equal(new Set(hellos.map((f) => f.pid)).size, 2, "the respawned daemon got its own hello");
  assert.equal(frames().filter((f) => f.frame.input?.mode === "crash").length, 1, "never resent");
});

test("after crashes in a row, calls wait for the respawn in order, with what is left of their time", async (t) => {
  const { bridge, ask, frames } = setup();
  t.after(() => bridge.stop());
  assert.equal((await timed(ask({ mode: "crash" }))).code, "daemon-unavailable");
  // The second crash in a row arms a 100 ms backoff.
  assert.equal((await timed(ask({ mode: "crash" }))).code, "daemon-unavailable");
  const started = Date.now();
  const replies = await Promise.all([0, 1, 2].map((i) => ask({}, 5000, { output: { args: { i } } })));
  const waited = Date.now() - started;
  assert.ok(waited >= 50 && waited < 2000, `waited ${waited} ms`);
  assert.deepEqual(replies.map((r) => r.output.args.i), [0, 1, 2]);
  const last = frames().filter((f) => f.pid === bridge.pid).map((f) => f.frame);
  assert.equal(last[0].hook, "agenthooks.hello");
  const waiting = last.filter((f) => f.hook === "tool.execute.before");
  assert.deepEqual(waiting.map((f) => f.output.args.i), [0, 1, 2]);
  assert.ok(waiting.every((f) => f.timeout_ms < 5000 && f.timeout_ms > 4000), JSON.stringify(waiting));
  // A third crash: 200 ms. A call whose daemon time ends sooner fails at once.
  await timed(ask({ mode: "crash" }));
  const quick = await timed(ask({}, 50));
  assert.equal(quick.code, "daemon-unavailable");
  assert.match(quick.err, /not running/);
  assert.ok(quick.ms < 150, "at once, not after the 200 ms backoff or its own deadline");
});

test("the backoff doubles per crash in a row up to what a call can wait", async (t) => {
  const { bridge, ask, frames } = setup();
  t.after(() => bridge.stop());
  const steps = [];
  const step = async (mode) => steps.push({ mode, ...(await timed(ask({ mode }, 2000, { deadlineMs: 3000 }))) });
  await step("crash");
  await step("crash");
  for (let i = 0; i < 5; i++) await step("crash");
  await step("echo");
  // 100, 200, 400, 800, 1600 ms waited out (under the 2 s daemon time) ...
  const slow = steps.slice(2, 7).reduce((sum, s) => sum + s.ms, 0);
  assert.ok(slow >= 2900, `the backoff doubles: ${slow} ms over five crashes`);
  assert.ok(steps.slice(0, 7).every((s) => s.code === "daemon-unavailable"), JSON.stringify(steps));
  // ... then 3.2 s, past it: failed at once, nothing sent.
  assert.equal(steps[7].code, "daemon-unavailable");
  assert.ok(steps[7].ms < 300, JSON.stringify(steps[7]));
  const crashed = frames().filter((f) => f.frame.input?.mode === "crash");
  assert.equal(crashed.length, 7);
  assert.equal(new Set(crashed.map((f) => f.pid)).size, 7, "each crashing frame sent once, to a daemon of its own");
});

test("a daemon that stops reading its stdin is replaced, not written to until the deadline", async (t) => {
  const { bridge, ask, frames } = setup();
  t.after(() => bridge.stop());
  const started = Date.now();
  const deaf = timed(ask({ mode: "deaf" }));
  while (!frames().some((f) => f.frame.input?.mode === "deaf")) await sleep(20);
  await sleep(100);
  const deafPid = bridge.pid;
  // The write meets EPIPE: the daemon is counted dead and what it was sent fails.
  assert.equal((await timed(ask({}))).code, "daemon-unavailable");
  assert.equal((await deaf).code, "daemon-unavailable");
  assert.ok(Date.now() - started < 3000, "well before the 5 s deadline");
  const r = await ask({});
  assert.equal(typeof r.output.pid, "number", "a new daemon answered");
  assert.notEqual(bridge.pid, deafPid);
});

test("a reply the daemon could not match by seq settles its call at once", async (t) => {
  const { bridge, ask } = setup();
  t.after(() => bridge.stop());
  // Concurrent calls, one answered under `seq: null` with its line: only that one settles.
  const slow = timed(ask({ mode: "slow" }, 30000));
  const [unread, echo] = await Promise.all([timed(ask({ mode: "unread" }, 30000)), timed(ask({ delay: 50 }, 30000))]);
  assert.equal(unread.ok?.error, "malformed frame", JSON.stringify(unread));
  assert.ok(unread.ms < 2000);
  assert.equal(typeof echo.ok?.output?.pid, "number");
  // A damaged reply line: the call its top-level seq names fails at once (a nested "seq" names none).
  const garbled = await timed(ask({ mode: "garbled" }, 30000));
  assert.equal(garbled.code, "unreadable-reply", JSON.stringify(garbled));
  assert.ok(garbled.ms < 2000);
  // Lines that are not JSON and name no call are skipped; the call is answered after them.
  const noise = await timed(ask({ mode: "noise" }, 30000));
  assert.equal(typeof noise.ok?.output?.pid, "number", JSON.stringify(noise));
  await bridge.stop();
  assert.equal((await slow).code, "shutting-down");
});

test("an anonymous error reply settles the only call in flight, and no call when several are", async (t) => {
  const { bridge, ask } = setup();
  t.after(() => bridge.stop());
  const one = await timed(ask({ mode: "anonymous" }, 30000));
  assert.equal(one.ok?.error, "malformed frame");
  assert.ok(one.ms < 2000);
  // Two in flight: the anonymous error cannot be told apart; each ends at its own deadline.
  const [a, b] = await Promise.all([timed(ask({ mode: "anonymous" }, 600)), timed(ask({ mode: "slow" }, 600))]);
  assert.equal(a.code, "timeout");
  assert.equal(b.code, "timeout");
  assert.ok(a.ms >= 500 && b.ms >= 500);
});

test("remembered frames and the hello go to every daemon first; tell is fire and forget", async (t) => {
  const { bridge, ask, frames } = setup();
  t.after(() => bridge.stop());
  bridge.remember("config", { input: { mcp: { a: { type: "local" } } } });
  await bridge.tell("event", { input: { event: { type: "session.idle" } } }, { waitMs: 1000, timeoutMs: 1000 });
  await timed(ask({ mode: "crash" }));
  await ask({});
  const byPid = new Map();
  for (const f of frames()) byPid.set(f.pid, [...(byPid.get(f.pid) ?? []), f.frame]);
  assert.equal(byPid.size, 2);
  for (const sent of byPid.values()) {
    assert.deepEqual(sent.slice(0, 2).map((f) => f.hook), ["agenthooks.hello", "config"]);
    assert.match(sent[1].seq, /^config-\d+$/);
    assert.deepEqual(sent[1].input, { mcp: { a: { type: "local" } } });
  }
  const told = frames().find((f) => f.frame.hook === "event").frame;
  assert.equal(told.timeout_ms > 0 && told.timeout_ms <= 1000, true);
  // A tell during a backoff longer than its wait is dropped at once.
  await timed(ask({ mode: "crash" }));
  await timed(ask({ mode: "crash" }));
  const t0 = Date.now();
  await bridge.tell("event", { input: { event: { type: "x" } } }, { waitMs: 50 });
  assert.ok(Date.now() - t0 < 100);
});

// The envelope comes first: a daemon reading only the first bytes of an oversize frame finds it.
test("the frame's envelope comes first, and the tool filter rides on it", async (t) => {
  const { bridge, ask, log } = setup();
  t.after(() => bridge.stop());
  await ask({}, 5000, { tools: "class:other" });
  const line = rawFrames(log).split("\n").find((l) => l.includes("tool.execute.before"));
  assert.match(line, /"frame":\{"seq":\d+,"hook":"tool.execute.before","timeout_ms":\d+,"tools":"class:other","input":/);
});

test("a call whose data has no JSON text fails alone, at once", async (t) => {
  const { bridge, ask } = setup();
  t.after(() => bridge.stop());
  await ask({});
  const pid = bridge.pid;
  const broken = { get boom() { throw new Error("no"); } };
  const r = await timed(ask({ args: broken }));
  assert.equal(r.code, "unwritable-input");
  assert.match(r.err, /cannot be written as JSON/);
  assert.ok(r.ms < 100);
  assert.equal(bridge.pid, pid, "the daemon is not taken for dead");
});

test("deeply nested data reaches the daemon whole", async (t) => {
  const { bridge, ask, log } = setup();
  t.after(() => bridge.stop());
  let deep = ["bottom"];
  for (let i = 0; i < 5000; i++) deep = [deep];
  const r = await ask({ deep });
  assert.equal(typeof r.output.pid, "number");
  const raw = rawFrames(log);
  const at = raw.indexOf('"deep":');
  let depth = 0;
  while (raw[at + 7 + depth] === "[") depth += 1;
  assert.equal(depth, 5001, "every level was sent");
  assert.ok(raw.slice(at).includes("bottom"));
});

test("the reply scan reads only top-level seq and line", () => {
  assert.deepEqual(scanReply('{"output":{"seq":9,"x":"\\"seq\\":8"},"seq":3,"line":4,"error":"x\\u'), { seq: 3, line: 4 });
  assert.deepEqual(scanReply('{"error":"x","seq":"hello-1"'), { seq: "hello-1" });
  assert.deepEqual(scanReply('{"output":[{"seq":1}]'), {});
  assert.deepEqual(scanReply("running 1 test"), {});
});

test("JSON text: toJSON applied, non-JSON values dropped, any depth, cycles cut", () => {
  const signal = new AbortController().signal;
  const v = { a: 1, f: () => 1, u: new URL("http://x/"), s: Symbol("s"), n: 10n, d: new Date(0), signal, arr: [1, undefined, () => 2, "x\ud800", signal], nan: NaN };
  const expected = '{"a":1,"u":"http://x/","n":"10","d":"1970-01-01T00:00:00.000Z","arr":[1,null,null,"x\\ud800",null],"nan":null}';
  assert.equal(toJson(v), expected);
  // The same text without recursion, and with a cycle (dropped).
  assert.equal(toJsonDeep(v), expected);
  const cyclic = { ...v };
  cyclic.self = cyclic;
  cyclic.arr = [...v.arr, cyclic];
  assert.equal(toJson(cyclic), expected.replace('"x\\ud800",null]', '"x\\ud800",null,null]'));
  for (const x of [null, 1, "s", [], {}, { a: [{ b: {} }] }, [[1, [2]], { c: [] }]]) assert.equal(toJsonDeep(x), JSON.stringify(x));
  assert.equal(toJson(undefined), undefined);
  assert.equal(toJson(() => 1), undefined);
  // A reference seen twice but not enclosing itself is no cycle.
  const shared = { x: 1 };
  assert.equal(toJsonDeep({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
  let deep = { command: "rm -rf /" };
  for (let i = 0; i < 100000; i++) deep = [deep];
  const text = toJson({ args: deep });
  assert.equal(text.length, 100000 * 2 + '{"args":}'.length + '{"command":"rm -rf /"}'.length);
  assert.throws(() => toJson({ get boom() { throw new Error("no"); } }));
});
