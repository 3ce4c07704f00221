#!/usr/bin/env python3
"""Writes the fuzz_gguf seed corpus and dictionary from the real GGUF files in tests/data/gguf.

Each file's header is re-written without its tokenizer arrays (tens of thousands of strings that only make the
seed long); the architecture keys, every other key and all tensor infos are kept byte for byte, so the seeds stay
real headers under libFuzzer's 64 KB input cap. Also writes each file's first 4096 bytes (a cut header).
Usage: tests/fuzz/make_gguf_seeds.py   (deterministic; re-run when tests/data/gguf changes)
"""
import hashlib
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "gguf"
OUT = ROOT / "tests" / "fuzz" / "corpus" / "gguf"
DICT = ROOT / "tests" / "fuzz" / "dict" / "gguf.dict"
SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


def skip_value(b, at, t):
    if t == 8:
        (n,) = struct.unpack_from("<Q", b, at)
        return at + 8 + n
    if t == 9:
        et, n = struct.unpack_from("<IQ", b, at)
        at += 12
        for _ in range(n):
            at = skip_value(b, at, et)
        return at
    return at + SIZES[t]


def strip(b):
    n_tensors, n_kv = struct.unpack_from("<QQ", b, 8)
    at, kept, keys = 24, [], []
    for _ in range(n_kv):
        start = at
        (klen,) = struct.unpack_from("<Q", b, at)
        key = b[at + 8:at + 8 + klen].decode()
        at += 8 + klen
        (t,) = struct.unpack_from("<I", b, at)
        at = skip_value(b, at + 4, t)
        keys.append(key)
        if not (key.startswith("tokenizer.") and t == 9):
            kept.append(b[start:at])
    tensors_start = at
    for _ in range(n_tensors):
        (nlen,) = struct.unpack_from("<Q", b, at)
        at += 8 + nlen
        (nd,) = struct.unpack_from("<I", b, at)
        at += 4 + 8 * nd + 4 + 8
    head = b[:8] + struct.pack("<QQ", n_tensors, len(kept))
    return head + b"".join(kept) + b[tensors_start:at], keys


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    words = set()
    for f in sorted(DATA.glob("*.gguf")):
        b = f.read_bytes()
        header, keys = strip(b)
        words.update(keys)
        for name, seed in ((f.stem + ".header", header), (f.stem + ".cut4096", b[:4096])):
            (OUT / (name + "-" + hashlib.sha1(seed).hexdigest()[:8])).write_bytes(seed)
    words.update(["GGUF", "general.alignment", "split.no", "split.count", "split.tensors.count",
                  "attention.sliding_window_pattern", "attention.head_count_kv", "ssm.state_size",
                  "ssm.inner_size", "ssm.conv_kernel", "shortconv.l_cache", "attention.kv_lora_rank"])
    DICT.write_text("".join('"%s"\n' % w for w in sorted(words)))


if __name__ == "__main__":
    main()
