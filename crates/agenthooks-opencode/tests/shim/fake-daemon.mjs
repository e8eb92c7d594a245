// A stand-in for `agenthooks serve` in the shim tests: answers frames by `input.mode`.
//   echo  (default) -> {output: {args: {...args, seen: seq}}} after `input.delay` ms
//   slow            -> never answers
//   crash           -> exits at once (code 3)
//   deaf            -> stops reading stdin (closes it) but stays alive, stdout open, never answers
//   error           -> {error: "no: <tool>"}
// Every frame received is appended to $FAKE_DAEMON_LOG (one JSON line), with this pid.
import { appendFileSync, closeSync } from "node:fs";
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
  if (mode === "deaf") {
    rl.close();
    process.stdin.destroy();
    closeSync(0);
    // Alive (and its stdout open) until the shim kills it, or for 20 s.
    setTimeout(() => process.exit(0), 20000);
    return;
  }
  const reply =
    mode === "error"
      ? { seq: frame.seq, error: `no: ${frame.input?.tool}` }
      : { seq: frame.seq, output: { args: { ...(frame.output?.args ?? {}), seen: frame.seq } } };
  setTimeout(() => process.stdout.write(JSON.stringify(reply) + "\n"), frame.input?.delay ?? 0);
});
