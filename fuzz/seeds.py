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

# What the agents' encoders write and strict readers reject (the codec_decode oracle's subject):
# lone surrogates, a reversed pair, a 30-digit integer, a number beyond f64, deep nesting, spliced
# in as the first member of a tool event's payload and of its tool input.
HOSTILE = [b'"\\ud800"', b'"\\udc00\\ud800"', b"123456789012345678901234567890", b"-1e400",
           b"[" * 300 + b"]" * 300, b'{"a":' * 200 + b"1" + b"}" * 200]
for inp in sorted(FIX.rglob("input.json")):
    provider = inp.relative_to(FIX).parts[0]
    if provider not in CODECS or "pre_tool_use" not in inp.parent.name:
        continue
    payload = inp.read_bytes().strip()
    if not payload.startswith(b"{") or len(payload) > 16 << 10:
        continue
    for h in HOSTILE:
        put("codec_decode", bytes([CODECS.index(provider)]) + b'{"agenthooks_hostile":' + h + b"," + payload[1:])
        for key in (b'"tool_input":{', b'"toolInput":{', b'"args":{'):
            at = payload.find(key)
            if at >= 0:
                at += len(key)
                put("codec_decode", bytes([CODECS.index(provider)]) + payload[:at] + b'"agenthooks_hostile":' + h + b"," + payload[at:])
                break

for i, case in enumerate(INSTALL):
    golden = ROOT / "crates/agenthooks-install/tests/golden" / case
    for f in sorted(p for p in golden.rglob("*") if p.is_file() and p.suffix in (".json", ".toml")):
        put("install_merge", bytes([i]) + f.read_bytes())
    for text in [b"{}", b"{\"a\":1,\"hooks\":{}}\n", b"// c\n{\"x\": [1, 2] /* k */}\n", b"", b"[t]\nk = 1 # c\n"]:
        put("install_merge", bytes([i]) + text)
