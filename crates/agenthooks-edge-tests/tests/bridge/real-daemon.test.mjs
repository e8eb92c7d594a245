// Both adapters against the real `agenthooks serve` (the matrix hook binary: every codec, a tool
// gate that denies `rm`, fail-closed): tool calls whose data serde_json refuses (a lone surrogate,
// nesting past its depth limit; JSON.stringify writes both) are decided at once, denied or
// blocked by the failure policy, never by the plugin's deadline; a clean call passes. Skipped
// when $AGENTHOOKS_TEST_DAEMON (the binary) is not set.
import { test } from "node:test";
import assert from "node:assert/strict";

import { adapter, timed } from "./harness.mjs";

const daemon = process.env.AGENTHOOKS_TEST_DAEMON;
const skip = daemon ? false : "AGENTHOOKS_TEST_DAEMON is not set";
process.env.TEST_BEHAVIOR = "deny-rm";
process.env.TEST_FAIL = "closed";

let deep = [];
for (let i = 0; i < 3000; i++) deep = [deep];
const hostile = [{ command: "rm -rf /", description: "x \ud800 y" }, { command: "rm -rf /", description: "\udc00\ud800" }, { command: "rm -rf /", deep }];

test("OpenCode: frames serde_json refuses are answered at once", { skip }, async () => {
  const factory = await adapter("opencode", { command: [daemon], hooks: { "tool.execute.before": { timeoutMs: 20000, fail: "closed" } }, events: {} });
  const hooks = await factory({ serverUrl: "", directory: "", worktree: "", project: { id: "p" } });
  try {
    for (const [i, args] of hostile.entries()) {
      const r = await timed(hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: `c${i}` }, { args }));
      assert.ok(r.err && !/no answer from agenthooks/.test(r.err), `the daemon blocked it: ${JSON.stringify(r)}`);
      assert.ok(r.ms < 2000, `at once: ${r.ms} ms`);
    }
    const clean = await timed(hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c9" }, { args: { command: "ls" } }));
    assert.equal(clean.err, undefined, JSON.stringify(clean));
  } finally {
    await hooks.dispose();
  }
});

test("OpenClaw: frames serde_json refuses are answered at once", { skip }, async () => {
  const p = await adapter("openclaw", {
    id: "agenthooks", name: "agenthooks", command: [daemon], version: "0.0.0", failClosed: true,
    hooks: [{ hook: "before_tool_call", await: true, deadlineMs: 8000, daemonMs: 7000, hostTimeoutMs: 10000 }],
  });
  const handlers = {};
  p.register({ on: (name, fn) => (handlers[name] = fn) });
  for (const [i, params] of hostile.entries()) {
    const r = await timed(handlers.before_tool_call({ toolName: "exec", params, toolCallId: `c${i}`, runId: "r" }, { toolName: "exec", sessionId: "s" }));
    assert.equal(r.ok?.block, true, JSON.stringify(r));
    assert.ok(!/no answer from the hook daemon/.test(r.ok.blockReason), `the daemon answered: ${JSON.stringify(r)}`);
    assert.ok(r.ms < 2000, `at once: ${r.ms} ms`);
  }
  const clean = await timed(handlers.before_tool_call({ toolName: "exec", params: { command: "ls" }, toolCallId: "c9", runId: "r" }, { toolName: "exec", sessionId: "s" }));
  assert.equal(clean.ok, undefined, JSON.stringify(clean));
});
