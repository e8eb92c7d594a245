// tool.pre round trips through the real shim code (createBridge + the proxied hook) to a real
// daemon: `node bench.mjs <daemon binary> [calls]` (e.g. the serve_bench example, release build).
import agenthooks from "../../src/shim.js";

const [bin, callsArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 3000);
const bridge = agenthooks.createBridge({
  command: [bin],
  hello: { serverUrl: "http://127.0.0.1:9/", directory: process.cwd(), worktree: process.cwd(), projectID: "bench" },
});
const hooks = agenthooks.hooksFor(bridge, { "tool.execute.before": { timeoutMs: 30000, fail: "open" } }, {});
const gate = hooks["tool.execute.before"];
const one = async (i, session) => {
  const t = process.hrtime.bigint();
  await gate({ tool: "bash", sessionID: `ses_${session}`, callID: `call_${i}` }, { args: { command: `echo ${i}` } });
  return Number(process.hrtime.bigint() - t) / 1000;
};
const stats = (name, us, wallMs) => {
  us.sort((a, b) => a - b);
  const p = (q) => us[Math.min(us.length - 1, Math.round((us.length - 1) * q))];
  console.log(`${name.padEnd(44)} n=${us.length}  ${Math.round(us.length / (wallMs / 1000))} frames/s  p50 ${p(0.5).toFixed(1)} µs  p99 ${p(0.99).toFixed(1)} µs`);
};
for (let i = 0; i < 200; i++) await one(i, 0);
let t0 = Date.now();
const seq = [];
for (let i = 0; i < calls; i++) seq.push(await one(i, 0));
stats("shim → serve, one in flight", seq, Date.now() - t0);
t0 = Date.now();
const conc = [];
for (let b = 0; b < calls / 8; b++) conc.push(...(await Promise.all([...Array(8)].map((_, k) => one(b * 8 + k, k)))));
stats("shim → serve, 8 sessions in flight", conc, Date.now() - t0);
await bridge.stop();
