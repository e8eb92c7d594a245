// The one stand-in for `agenthooks serve` in the bridge suite, for every adapter: it answers
// each frame by the `mode` of its data (`input.mode` for OpenCode, `event.mode` for OpenClaw):
//   echo  (default) -> {seq, output: {pid, seq, args: {...output.args, seen: seq}}} after `delay` ms
//   slow            -> never answers
//   crash           -> exits at once (code 3)
//   deaf            -> stops reading stdin (closes it) but stays alive, stdout open, never answers
//   error           -> {seq, error: "no: <tool>"}
//   unread          -> {seq: null, line: N, error}: what `serve` sends for a frame whose seq it
//                      cannot read (N: the frame's line number on this daemon's stdin)
//   anonymous       -> {seq: null, error} (no line: an older daemon)
//   garbled         -> a damaged reply line that names its seq at the top level (after a nested one)
//   noise           -> a line that is not JSON and names no seq, then the echo reply
// Control frames (`agenthooks.*`, `config`) are answered ready. Every line received is appended
// raw to the log file named by argv[2] (else $FAKE_DAEMON_LOG) as {"pid", "frame"}: frames can be
// nested deeper than JSON.stringify recurses.
import { appendFileSync, closeSync } from "node:fs";
import { createInterface } from "node:readline";

const log = process.argv[2] || process.env.FAKE_DAEMON_LOG;
const rl = createInterface({ input: process.stdin });
let lines = 0;
let deaf = false;
rl.on("line", (line) => {
  // Lines that came in the same chunk as the deaf frame are not read either.
  if (deaf) return;
  lines += 1;
  if (log) appendFileSync(log, `{"pid":${process.pid},"frame":${line}}\n`);
  const frame = JSON.parse(line);
  const say = (text, delay = 0) => setTimeout(() => process.stdout.write(text + "\n"), delay);
  if (String(frame.hook).startsWith("agenthooks.") || frame.hook === "config") {
    return say(JSON.stringify({ seq: frame.seq, output: { agenthooks: "ready" } }));
  }
  const data = frame.input ?? frame.event ?? {};
  const mode = data.mode ?? "echo";
  const delay = data.delay ?? 0;
  if (mode === "slow") return;
  if (mode === "crash") process.exit(3);
  if (mode === "deaf") {
    deaf = true;
    rl.close();
    process.stdin.destroy();
    closeSync(0);
    // Alive (and its stdout open) until the bridge kills it, or for 20 s.
    setTimeout(() => process.exit(0), 20000);
    return;
  }
  if (mode === "unread") return say(JSON.stringify({ error: "malformed frame", line: lines, seq: null }), delay);
  if (mode === "anonymous") return say(JSON.stringify({ error: "malformed frame", seq: null }), delay);
  if (mode === "garbled") return say(`{"output":{"args":{"seq":${frame.seq + 1000}}},"seq":${frame.seq},"error":"x\\u`, delay);
  if (mode === "noise") process.stdout.write("not json\n");
  if (mode === "error") return say(JSON.stringify({ seq: frame.seq, error: `no: ${data.tool}` }), delay);
  const args = { ...(frame.output?.args ?? {}), seen: frame.seq };
  say(JSON.stringify({ seq: frame.seq, output: { pid: process.pid, seq: frame.seq, args } }), delay);
});
