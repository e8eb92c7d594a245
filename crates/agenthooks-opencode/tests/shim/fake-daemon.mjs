// A stand-in for `agenthooks serve` in the shim tests: answers frames by `input.mode`.
//   echo  (default) -> {output: {args: {...args, seen: seq}}} after `input.delay` ms
//   slow            -> never answers
//   crash           -> exits at once (code 3)
//   deaf            -> stops reading stdin (closes it) but stays alive, stdout open, never answers
//   error           -> {error: "no: <tool>"}
//   unread          -> {seq: null, line: N, error}: what `serve` sends for a frame whose seq it
//                      cannot read (N: the frame's line number on this daemon's stdin)
//   anonymous       -> {seq: null, error} (no line: an older daemon)
//   garbled         -> a damaged reply line that still names its seq (after a nested "seq")
//   noise           -> a line that is not JSON and names no seq, then the echo reply
// Every frame received is appended to $FAKE_DAEMON_LOG (one JSON line), with this pid.
import { appendFileSync, closeSync } from "node:fs";
import { createInterface } from "node:readline";

const log = process.env.FAKE_DAEMON_LOG;
const rl = createInterface({ input: process.stdin });
let lines = 0;
rl.on("line", (line) => {
  lines += 1;
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
  const after = (text) => setTimeout(() => process.stdout.write(text + "\n"), frame.input?.delay ?? 0);
  if (mode === "unread") return after(JSON.stringify({ error: "malformed frame", line: lines, seq: null }));
  if (mode === "anonymous") return after(JSON.stringify({ error: "malformed frame", seq: null }));
  if (mode === "garbled") return after(`{"output":{"args":{"seq":${frame.seq + 1000}}},"seq":${frame.seq},"error":"x\\u`);
  if (mode === "noise") process.stdout.write("not json\n");
  const reply =
    mode === "error"
      ? { seq: frame.seq, error: `no: ${frame.input?.tool}` }
      : { seq: frame.seq, output: { args: { ...(frame.output?.args ?? {}), seen: frame.seq } } };
  setTimeout(() => process.stdout.write(JSON.stringify(reply) + "\n"), frame.input?.delay ?? 0);
});
