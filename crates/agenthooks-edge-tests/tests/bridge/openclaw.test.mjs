// OpenClaw's adapter, as install renders it (index.js with the bridge inlined), on a fake `api`:
// secret stripping, registration options, the local fail policy and its report (with the
// bridge's failure cause), observers, and the respawn as a plugin sees it. The bridge's own rules
// are bridge.test.mjs's.
import { test } from "node:test";
import assert from "node:assert/strict";

import { adapter, scratch, sleep, timed } from "./harness.mjs";

/** A gate spec as `ShimHook` renders it (deadline, the daemon's 1 s less, the host's 2 s more). */
const gateSpec = (hook, deadlineMs, more = {}) => ({
  hook,
  await: true,
  deadlineMs,
  daemonMs: Math.max(500, deadlineMs - 1000),
  hostTimeoutMs: deadlineMs + 2000,
  ...more,
});

/** The plugin registered on a fake api: its handlers and their options, by hook. */
async function plugin(command, hooks, failClosed = true) {
  const p = await adapter("openclaw", { id: "agenthooks", name: "agenthooks", command, version: "0.0.0", failClosed, hooks });
  const handlers = {};
  p.register({ on: (name, fn, opts) => (handlers[name] = { fn, opts: opts ?? null }) });
  return { p, handlers, call: (hook, event, ctx) => handlers[hook].fn(event, ctx) };
}

const secrets = {
  models: { providers: { fake: { baseUrl: "http://127.0.0.1:1/v1", apiKey: "sk-E2E-SECRET-4f1c" } } },
  gateway: { auth: { mode: "token", token: "tok-E2E-SECRET-77aa" } },
};

test("secrets and handles never reach the daemon; a silent daemon is decided by the fail policy, and reported", async () => {
  const s = scratch();
  // A daemon that reads every frame and never answers.
  const { p, handlers, call } = await plugin(["/bin/sh", "-c", `cat > '${s.log}.raw'`], [
    gateSpec("before_tool_call", 1000, { matcher: ["exec", "write"], tools: "class:other" }),
    gateSpec("before_agent_run", 1000),
    { hook: "gateway_start", await: false },
    { hook: "reply_dispatch", await: false },
    { hook: "tool_result_persist", await: false, tools: "mcp:github/*" },
  ]);
  assert.equal(p.id, "agenthooks");
  const signal = new AbortController().signal;
  await call("gateway_start", { port: 4242 }, { port: 4242, config: secrets, workspaceDir: "/w", getCron: () => null, abortSignal: signal });
  await call("reply_dispatch", { runId: "r1" }, { cfg: secrets, dispatcher: { send() {} }, dispatchKind: "agent" });
  const pre = await timed(
    call("before_tool_call", { toolName: "exec", params: { command: "ls" }, toolCallId: "c1", runId: "r1" }, {
      toolName: "exec", sessionKey: "k", sessionId: "s", abortSignal: signal, getSessionExtension: () => 1, trace: { traceId: "t" },
    }),
  );
  const prompt = await call("before_agent_run", { prompt: "hi", messages: [] }, { runId: "r1", sessionId: "s" });
  assert.equal(handlers.tool_result_persist.fn({ message: { role: "toolResult" } }, { sessionKey: "k" }), undefined, "a sync hook returns at once");
  await sleep(300);
  // Fail-closed, decided locally within the deadline.
  assert.equal(pre.ok.block, true, JSON.stringify(pre));
  assert.match(pre.ok.blockReason, /no answer from the hook daemon for before_tool_call \(timeout\)/);
  assert.ok(pre.ms >= 900 && pre.ms < 5000, `${pre.ms} ms`);
  assert.equal(prompt.outcome, "block");
  const { readFileSync } = await import("node:fs");
  const raw = readFileSync(`${s.log}.raw`, "utf8");
  assert.ok(!raw.includes("SECRET"), `a secret reached the daemon: ${raw}`);
  const frames = raw.split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const frame = (hook) => frames.find((f) => f.hook === hook);
  assert.deepEqual(frame("gateway_start").ctx, { port: 4242, workspaceDir: "/w" });
  assert.deepEqual(frame("reply_dispatch").ctx, { dispatchKind: "agent" });
  const sent = frame("before_tool_call");
  assert.equal(sent.ctx.trace.traceId, "t");
  assert.ok(!("abortSignal" in sent.ctx) && !("getSessionExtension" in sent.ctx));
  assert.ok(sent.timeout_ms > 0 && sent.timeout_ms <= 500, JSON.stringify(sent));
  assert.equal(sent.tools, "class:other");
  assert.equal(frame("tool_result_persist").tools, "mcp:github/*");
  assert.ok(!("tools" in frame("before_agent_run")));
  const report = frame("agenthooks_local_decision");
  assert.deepEqual(
    [report.event.decision, report.event.cause, report.event.toolCallId, report.event.gate],
    ["block", "timeout", "c1", "before_tool_call"],
  );
  // Registration: the matcher only where tools are restricted, host timeouts above the deadline.
  assert.deepEqual(handlers.before_tool_call.opts, { matcher: ["exec", "write"], timeoutMs: 3000 });
  assert.equal(handlers.gateway_start.opts, null);
});

test("a dead daemon: each gate's own policy, else the plugin's, at once", async () => {
  const dead = ["/bin/sh", "-c", "exit 3"];
  const hooks = (promptFail) => [gateSpec("before_tool_call", 1000), gateSpec("before_agent_run", 1000, promptFail === undefined ? {} : { failClosed: promptFail })];
  const run = async (failClosed, promptFail) => {
    const { call } = await plugin(dead, hooks(promptFail), failClosed);
    const pre = await timed(call("before_tool_call", { toolName: "exec", toolCallId: "c" }, {}));
    const prompt = await call("before_agent_run", { prompt: "hi" }, {});
    return { pre, prompt };
  };
  const open = await run(false);
  assert.equal(open.pre.ok, undefined, "fail-open passes");
  assert.equal(open.prompt, undefined);
  const closed = await run(true);
  assert.equal(closed.pre.ok.block, true);
  assert.match(closed.pre.ok.blockReason, /daemon-unavailable/);
  assert.ok(closed.pre.ms < 900, "not the deadline");
  const promptOpen = await run(true, false);
  assert.equal(promptOpen.pre.ok.block, true);
  assert.equal(promptOpen.prompt, undefined, "the prompt gate is fail-open");
  const promptClosed = await run(false, true);
  assert.equal(promptClosed.pre.ok, undefined);
  assert.equal(promptClosed.prompt.outcome, "block");
});

/** The plugin over the fake daemon (fail-closed, a 3 s gate and an observer). */
async function overFake() {
  const s = scratch();
  const { call } = await plugin(s.command, [gateSpec("before_tool_call", 3000), { hook: "reply_dispatch", await: false }]);
  const gate = (mode, more = {}) =>
    timed(call("before_tool_call", { toolName: "exec", toolCallId: `c-${mode}`, mode, ...more }, { toolName: "exec" }));
  return { ...s, call, gate };
}

const cause = (r) => /\(([a-z-]+)\)$/.exec(r.ok?.blockReason ?? "")?.[1];

test("after a crash the next call, gate or observer, gets a new daemon at once", async () => {
  const { call, gate, frames } = await overFake();
  const first = await gate("echo");
  assert.equal(typeof first.ok.pid, "number");
  const crashed = await gate("crash");
  assert.equal(cause(crashed), "daemon-unavailable");
  assert.ok(crashed.ms < 2500);
  await call("reply_dispatch", { runId: "after" }, {});
  const next = await gate("echo");
  assert.notEqual(next.ok.pid, first.ok.pid);
  assert.ok(frames().some((f) => f.frame.hook === "reply_dispatch" && f.pid === next.ok.pid), "the observer reached the new daemon");
  assert.equal(frames().filter((f) => f.frame.event?.mode === "crash").length, 1, "never resent");
});

test("a gate made during a respawn backoff waits for it when it comes in time", async () => {
  const { gate, frames } = await overFake();
  await gate("crash");
  await gate("crash");
  const waited = await gate("echo");
  assert.equal(typeof waited.ok.pid, "number");
  assert.ok(waited.ms >= 80 && waited.ms < 2500, `${waited.ms} ms`);
  const sent = frames().find((f) => f.pid === waited.ok.pid && f.frame.hook === "before_tool_call").frame;
  assert.ok(sent.timeout_ms > 0 && sent.timeout_ms < 1950, "sent with what is left");
});

test("EPIPE counts as a crash", async () => {
  const { gate, frames } = await overFake();
  const deaf = gate("deaf");
  while (!frames().some((f) => f.frame.event?.mode === "deaf")) await sleep(20);
  await sleep(100);
  const second = await gate("echo");
  assert.equal(cause(second), "daemon-unavailable");
  assert.equal(cause(await deaf), "daemon-unavailable");
  const next = await gate("echo");
  assert.equal(typeof next.ok.pid, "number", "a new daemon answered");
});

test("replies the daemon could not match by seq decide their gate at once, with the cause", async () => {
  const { gate } = await overFake();
  for (const [mode, expected] of [["unread", "daemon-error"], ["garbled", "unreadable-reply"], ["anonymous", "daemon-error"]]) {
    const r = await gate(mode);
    assert.equal(cause(r), expected, `${mode}: ${JSON.stringify(r)}`);
    assert.ok(r.ms < 1000, `${mode} at once`);
  }
  const [unread, echo] = await Promise.all([gate("unread"), gate("echo")]);
  assert.equal(cause(unread), "daemon-error");
  assert.equal(typeof echo.ok.pid, "number");
  // Two in flight and an anonymous error: neither is taken for it; both end at the deadline.
  const both = await Promise.all([gate("anonymous"), gate("slow")]);
  for (const r of both) {
    assert.equal(cause(r), "timeout", JSON.stringify(r));
    assert.ok(r.ms >= 2900);
  }
});

test("a gate whose data has no JSON text is decided at once (unwritable-input); deep params reach the daemon", async () => {
  const { gate, log } = await overFake();
  const broken = await gate("echo", { params: { get command() { throw new Error("no"); } } });
  assert.equal(cause(broken), "unwritable-input");
  let deep = ["bottom"];
  for (let i = 0; i < 5000; i++) deep = [deep];
  const r = await gate("echo", { params: { command: "ls", deep } });
  assert.equal(typeof r.ok.pid, "number");
  const { readFileSync } = await import("node:fs");
  const raw = readFileSync(log, "utf8");
  const at = raw.indexOf('"deep":');
  let depth = 0;
  while (raw[at + 7 + depth] === "[") depth += 1;
  assert.equal(depth, 5001);
});
