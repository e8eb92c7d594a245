// OpenCode's adapter, as install renders it (the shim with the bridge inlined): the hook table,
// replies assigned in place, errors thrown from the gates and swallowed elsewhere, the fail
// policy, bus events, the tool matcher and filter. The bridge's own rules are bridge.test.mjs's.
import { test } from "node:test";
import assert from "node:assert/strict";

import { adapter, scratch, sleep, timed } from "./harness.mjs";

/** The shim's factory over the fake daemon, with `hooks` and `events` as install writes them. */
async function shim(hooks, events = {}) {
  const s = scratch();
  const factory = await adapter("opencode", { command: s.command, hooks, events });
  const out = await factory({ serverUrl: new URL("http://127.0.0.1:1/"), directory: s.dir, worktree: s.dir, project: { id: "p" } });
  return { ...s, hooks: out };
}

/** Waits (up to 5 s) until `frames()` holds `n` event frames; returns their types. */
async function eventTypes(frames, n) {
  const types = () => frames().filter((f) => f.frame.hook === "event").map((f) => f.frame.input.event.type);
  for (let i = 0; i < 50 && types().length < n; i++) await sleep(100);
  await sleep(200);
  return types();
}

test("the module exports only its default, a factory", async () => {
  const s = scratch();
  const factory = await adapter("opencode", { command: s.command, hooks: {}, events: {} });
  assert.equal(typeof factory, "function");
  assert.equal(typeof factory.hooksFor, "function", "reachable for tests, not exported");
});

test("replies are assigned in place; the hello carries the plugin's context", async (t) => {
  const { hooks, frames } = await shim({ "tool.execute.before": { timeoutMs: 5000, fail: "open" } });
  t.after(() => hooks.dispose());
  const outs = [0, 1, 2].map((i) => ({ args: { command: `c${i}` } }));
  const argsRefs = outs.map((o) => o.args);
  await Promise.all(outs.map((o, i) => hooks["tool.execute.before"]({ tool: "bash", delay: (2 - i) * 100 }, o)));
  for (const [i, o] of outs.entries()) {
    assert.equal(o.args.command, `c${i}`);
    assert.equal(typeof o.args.seen, "number");
    assert.equal(o.args, argsRefs[i], "the args object keeps its identity");
  }
  const hello = frames().find((f) => f.frame.hook === "agenthooks.hello");
  assert.equal(hello.frame.input.serverUrl, "http://127.0.0.1:1/");
  assert.equal(hello.frame.input.projectID, "p");
  assert.ok(frames().every((f) => f.frame.hook !== "tool.execute.before" || f.frame.timeout_ms <= 5000));
});

test("the fail policy: closed throws from the gates, open and the other hooks do nothing", async (t) => {
  const { hooks } = await shim({
    "tool.execute.before": { timeoutMs: 200, fail: "closed" },
    "tool.execute.after": { timeoutMs: 200, fail: "closed" },
    "chat.message": { timeoutMs: 200, fail: "open" },
  });
  t.after(() => hooks.dispose());
  const late = await timed(hooks["tool.execute.before"]({ tool: "bash", mode: "slow" }, { args: {} }));
  assert.match(late.err, /within 200 ms.*fail-closed/);
  assert.ok(late.ms < 2000);
  const out = { parts: [1] };
  await hooks["chat.message"]({ mode: "slow" }, out);
  assert.deepEqual(out, { parts: [1] });
  // tool.execute.after cannot block: closed is a no-op there.
  await hooks["tool.execute.after"]({ tool: "bash", mode: "slow" }, { output: "x" });
  // A crash, an unreadable reply and unwritable input, under fail-closed.
  assert.match((await timed(hooks["tool.execute.before"]({ tool: "bash", mode: "crash" }, { args: {} }))).err, /daemon exited.*fail-closed/);
  assert.match((await timed(hooks["tool.execute.before"]({ tool: "bash", mode: "garbled" }, { args: {} }))).err, /unreadable reply.*fail-closed/);
  const broken = { get boom() { throw new Error("no"); } };
  assert.match((await timed(hooks["tool.execute.before"]({ tool: "bash" }, { args: broken }))).err, /cannot be written as JSON.*fail-closed/);
  // The gate goes on with the respawned daemon.
  const ok = { args: { command: "ls" } };
  await hooks["tool.execute.before"]({ tool: "bash" }, ok);
  assert.equal(typeof ok.args.seen, "number");
});

test("errors are thrown from the gates and swallowed elsewhere", async (t) => {
  const { hooks } = await shim({ "tool.execute.before": { timeoutMs: 5000 }, "tool.execute.after": { timeoutMs: 5000 } });
  t.after(() => hooks.dispose());
  await assert.rejects(hooks["tool.execute.before"]({ tool: "rm", mode: "error" }, { args: {} }), { message: "no: rm" });
  await hooks["tool.execute.after"]({ tool: "rm", mode: "error" }, { output: "kept" });
});

test("a tool matcher skips other tools; the tool filter rides on the hook's frames", async (t) => {
  const { hooks, frames } = await shim({
    "tool.execute.before": { timeoutMs: 5000, fail: "open", matcher: "^(?:bash)$", tools: "class:other" },
    "tool.execute.after": { timeoutMs: 5000, fail: "open" },
  });
  t.after(() => hooks.dispose());
  const skipped = { args: { command: "x" } };
  await hooks["tool.execute.before"]({ tool: "edit" }, skipped);
  assert.deepEqual(skipped, { args: { command: "x" } });
  await hooks["tool.execute.before"]({ tool: "bash" }, { args: { command: "ls" } });
  await hooks["tool.execute.after"]({ tool: "bash" }, { output: "x" });
  const of = (hook) => frames().filter((f) => f.frame.hook === hook).map((f) => f.frame);
  assert.deepEqual(of("tool.execute.before").map((f) => [f.input.tool, f.tools]), [["bash", "class:other"]]);
  assert.deepEqual(of("tool.execute.after").map((f) => "tools" in f), [false]);
});

test("bus events: fire-and-forget, only subscribed types, high-volume ones only when named", async (t) => {
  const all = await shim({}, { "*": { timeoutMs: 1000 } });
  t.after(() => all.hooks.dispose());
  await all.hooks.event({ event: { type: "session.idle", properties: { sessionID: "s" } } });
  await all.hooks.event({ event: { type: "message.part.delta", properties: {} } });
  await all.hooks.event({ event: { type: "session.next.step", properties: {} } });
  assert.deepEqual(await eventTypes(all.frames, 1), ["session.idle"]);
  const named = await shim({}, { "message.part.delta": { timeoutMs: 1000 } });
  t.after(() => named.hooks.dispose());
  await named.hooks.event({ event: { type: "message.part.delta", properties: {} } });
  await named.hooks.event({ event: { type: "session.idle", properties: {} } });
  assert.deepEqual(await eventTypes(named.frames, 1), ["message.part.delta"]);
});

test("the config hook's MCP servers reach every daemon after its hello", async (t) => {
  const { hooks, frames } = await shim({ "tool.execute.before": { timeoutMs: 5000, fail: "open" } });
  t.after(() => hooks.dispose());
  await hooks.config({ mcp: { gh: { type: "remote", enabled: true, url: "https://x", headers: { token: "t" } } } });
  await timed(hooks["tool.execute.before"]({ tool: "bash", mode: "crash" }, { args: {} }));
  await hooks["tool.execute.before"]({ tool: "bash" }, { args: {} });
  const configs = frames().filter((f) => f.frame.hook === "config");
  assert.equal(new Set(configs.map((f) => f.pid)).size, 2);
  // Only the type and whether it is enabled: never the server's URL or headers.
  assert.deepEqual(configs[0].frame.input, { mcp: { gh: { type: "remote", enabled: true } } });
});

test("in-place assignment semantics", async () => {
  const s = scratch();
  const factory = await adapter("opencode", { command: s.command, hooks: {}, events: {} });
  const parts = [1, 2];
  const args = { a: 1, b: 2 };
  const out = { parts, args, title: "t" };
  factory.assignInPlace(out, { parts: [3], args: { b: 3 }, title: "u" });
  assert.equal(out.parts, parts);
  assert.deepEqual(parts, [3]);
  assert.equal(out.args, args);
  assert.deepEqual(args, { b: 3 });
  assert.equal(out.title, "u");
});
