#!/usr/bin/env bash
# Regenerates crates/agenthooks-example/hot-symbols.txt: the functions a hook process runs, in
# the order the linker should place them (see build.rs). Needs valgrind and python3.
#
#   bash crates/agenthooks-example/hot-symbols.sh
#
# It builds the secret guard exactly as `cargo bench` builds it (symbol names carry hashes of the
# build's settings, so the list only matches a build with the same profile, features, toolchain
# and dependency versions; the example's release profile keeps the symbol table, see Cargo.toml),
# runs it under callgrind over every stdin-transport fixture of the newest release of each agent,
# once as captured and once with a credential planted in the tool input or prompt (the ask/deny
# path), and writes every function of the binary that ran, grouped so that each agent's path is
# contiguous text (see the sort below).
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${CARGO_TARGET_DIR:-target}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

AGENTHOOKS_ORDER=0 \
  cargo build --profile bench -p agenthooks-example --bin secret-guard
bin="$work/secret-guard"
cp "$target/release/secret-guard" "$bin"

n=0
for agent in claude-code codex copilot cursor gemini kimi; do
  release=$(ls -d "fixtures/$agent"/*/ | grep -v -e /docs/ -e /mcp/ | sort -V | tail -1)
  for case in "$release"*/; do
    [ -f "$case/input.json" ] && grep -q '^transport = "stdin"' "$case/meta.toml" || continue
    event=$(sed -n 's/^native_event = "\(.*\)"/\1/p' "$case/meta.toml")
    for variant in captured planted; do
      input="$case/input.json"
      if [ "$variant" = planted ]; then
        input="$work/planted.json"
        python3 - "$case/input.json" "$input" <<'EOF' || continue
import json, sys
v = json.load(open(sys.argv[1]))
KEY = " AKIAIOSFODNN7EXAMPLE"
def plant(x):
    if isinstance(x, dict):
        for k, y in x.items():
            if k in ("command", "prompt", "cmd") and isinstance(y, str):
                x[k] = y + KEY
                return True
            if plant(y):
                return True
    elif isinstance(x, list):
        return any(plant(y) for y in x)
    return False
planted = plant(v)
json.dump(v, open(sys.argv[2], "w"))
sys.exit(0 if planted else 3)
EOF
      fi
      n=$((n + 1))
      valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$n.$agent.out" \
        "$bin" agenthooks run "--provider=$agent" "--event=$event" < "$input" > /dev/null 2>&1 || true
    done
  done
done

python3 - "$bin" "$work" crates/agenthooks-example/hot-symbols.txt <<'EOF'
import glob, re, subprocess, sys
binary, work, out = sys.argv[1:4]
functions = set()
for line in subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in "tTwW":
        functions.add(parts[2])
agents_of, first = {}, {}
for path in sorted(glob.glob(f"{work}/*.out"), key=lambda p: int(p.rsplit("/", 1)[1].split(".")[0])):
    agent = path.rsplit("/", 1)[1].split(".")[1]
    names = {}
    for line in open(path):
        m = re.match(r"^c?fn=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        if m.group(2):
            names[m.group(1)] = m.group(2)
        name = names.get(m.group(1))
        # LTO's local copies carry a counter (`name.123`) that changes from build to build.
        if name in functions and not re.search(r"\.\d+$", name):
            agents_of.setdefault(name, set()).add(agent)
            first.setdefault(name, len(first))
# An agent's "home" is the first agent (in the order above) that runs it: the first agent's path
# is then one contiguous run; a later one's is its own block plus the shared functions that
# lead the blocks before it (within a block, the most widely shared come first).
rank = {a: i for i, a in enumerate(["claude-code", "codex", "copilot", "cursor", "gemini", "kimi"])}
order = sorted(agents_of, key=lambda f: (min(rank[a] for a in agents_of[f]), -len(agents_of[f]), first[f]))
with open(out, "w") as f:
    f.write("\n".join(order) + "\n")
print(f"{len(order)} functions from {len(glob.glob(work + '/*.out'))} runs -> {out}", file=sys.stderr)
EOF
