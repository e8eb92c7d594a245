// A stand-in for `agenthooks serve` in the shim tests: answers frames by `input.mode`.
//   echo  (default) -> {output: {args: {...args, seen: seq}}} after `input.delay` ms
//   slow            -> never answers
//   crash           -> exits at once (code 3)
//   error           -> {error: "no: <tool>"}
// Every frame received is appended to $FAKE_DAEMON_LOG (one JSON line), with this pid.
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const log = process.env.FAKE_DAEMON_LOG;
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const frame = JSON.parse(line);
  if (log) appendFileSync(log, JSON.stringify({ pid: process.pid, frame }) + "\n");
  if (String(frame.hook).startsWith("agenthooks.") || frame.hook === "config") {
    process.stdout.write(JSON.stringify({ seq: frame.seq, output: { agenthooks: "ready" } }) + "\n");
    return;
  }
  const mode = frame.input?.mode ?? "echo";
  if (mode === "slow") return;
  if (mode === "crash") process.exit(3);
  const reply =
    mode === "error"
      ? { seq: frame.seq, error: `no: ${frame.input?.tool}` }
      : { seq: frame.seq, output: { args: { ...(frame.output?.args ?? {}), seen: frame.seq } } };
  setTimeout(() => process.stdout.write(JSON.stringify(reply) + "\n"), frame.input?.delay ?? 0);
});
