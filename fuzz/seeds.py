#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from fixtures/ and the install goldens.

Run from fuzz/: `python3 seeds.py`, then minimize each with
`cargo fuzz cmin --sanitizer none <target>` (see the README's development section).
The codec order is `agenthooks::codecs()`'s (the facade's provider table)."""
import hashlib, json, os, pathlib, tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
CODECS = ["claude-code", "cursor", "codex", "gemini", "copilot", "kimi", "opencode", "openclaw"]
# the install_merge target's table: (provider, scope) in fuzz/src/lib.rs TARGETS order
INSTALL = ["claude-code-project", "codex-project", "codex-user", "gemini-project",
           "cursor-project", "copilot-project", "kimi-user", "openclaw-project"]

def put(target, data: bytes):
    d = pathlib.Path("corpus") / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)

for inp in sorted(FIX.rglob("input.json")):
    provider = inp.relative_to(FIX).parts[0]
    if provider not in CODECS:
        continue
    meta = tomllib.loads((inp.parent / "meta.toml").read_text())
    payload = inp.read_bytes()
    if len(payload) > 64 << 10:  # the fuzz runner's stdin cap; libFuzzer's default -max_len is far below
        continue
    put("codec_decode", bytes([CODECS.index(provider)]) + payload)
    if meta.get("transport") == "frame":
        frame = json.dumps(json.loads(payload), separators=(",", ":")).encode()
        put("serve_frames", bytes([CODECS.index(provider)]) + frame + b"\n" + frame + b"\n")
    else:
        argv = f"run\n--provider={provider}\n--event={meta['native_event']}"
        if meta.get("variant"):
            argv += f"\n--variant={meta['variant']}"
        put("runner", argv.encode() + b"\0" + payload)

for i, case in enumerate(INSTALL):
    golden = ROOT / "crates/agenthooks-install/tests/golden" / case
    for f in sorted(p for p in golden.rglob("*") if p.is_file() and p.suffix in (".json", ".toml")):
        put("install_merge", bytes([i]) + f.read_bytes())
    for text in [b"{}", b"{\"a\":1,\"hooks\":{}}\n", b"// c\n{\"x\": [1, 2] /* k */}\n", b"", b"[t]\nk = 1 # c\n"]:
        put("install_merge", bytes([i]) + text)
