// tool.execute.before round trips through the bridge (crates/agenthooks-core/src/kit/bridge.js)
// to a real daemon: `node bench.mjs <daemon binary> [calls]` (e.g. agenthooks-opencode's
// serve_bench example, release build). Not a test: run by hand.
import { createBridge } from "../../../agenthooks-core/src/kit/bridge.js";

const [bin, callsArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 3000);
const bridge = createBridge({
  command: [bin],
  provider: "opencode",
  hold: true,
  hello: { serverUrl: "http://127.0.0.1:9/", directory: process.cwd(), worktree: process.cwd(), projectID: "bench" },
});
const one = async (i, session) => {
  const t = process.hrtime.bigint();
  await bridge.ask(
    "tool.execute.before",
    { input: { tool: "bash", sessionID: `ses_${session}`, callID: `call_${i}` }, output: { args: { command: `echo ${i}` } } },
    { deadlineMs: 30250, timeoutMs: 30000 },
  );
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
stats("bridge → serve, one in flight", seq, Date.now() - t0);
t0 = Date.now();
const conc = [];
for (let b = 0; b < calls / 8; b++) conc.push(...(await Promise.all([...Array(8)].map((_, k) => one(b * 8 + k, k)))));
stats("bridge → serve, 8 sessions in flight", conc, Date.now() - t0);
await bridge.stop();
