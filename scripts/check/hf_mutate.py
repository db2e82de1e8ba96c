#!/usr/bin/env python3
"""Hostile variants of an exported Hugging Face GPT-2 directory, for the bad-input
tests of `convert_checkpoint --from hf` (tests/e2e/test_convert.sh). Standard
library only.

  scripts/check/hf_mutate.py SRC_DIR DST_DIR CASE

CASE: huge_shape (a tensor of shape [2^40, 2^40]), n_layer_1e9 (config.json's
n_layer 10^9), n_embd_1e20, duplicate_key (a tensor named twice in the header),
hole (a gap between two tensors' data), overlap (two tensors sharing bytes),
int_dtype (a weight stored as I32), header_too_big (a declared header length
over the format's 100 MB limit), deep_json (a header nested 100000 deep).
"""
import json
import os
import shutil
import struct
import sys


def read(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8:8 + n]), raw[8 + n:]


def write(path, header_text, data, declared=None):
    h = header_text.encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h) if declared is None else declared))
        f.write(h)
        f.write(data)


def main():
    src, dst, case = sys.argv[1:4]
    shutil.copytree(src, dst)
    st = os.path.join(dst, "model.safetensors")
    cfgp = os.path.join(dst, "config.json")
    hdr, data = read(st)
    names = [k for k in hdr if k != "__metadata__"]
    by_off = sorted(names, key=lambda k: hdr[k]["data_offsets"][0])
    if case == "huge_shape":
        hdr[by_off[0]]["shape"] = [2 ** 40, 2 ** 40]
        write(st, json.dumps(hdr), data)
    elif case in ("n_layer_1e9", "n_embd_1e20"):
        cfg = json.load(open(cfgp))
        if case == "n_layer_1e9":
            cfg["n_layer"] = 1000000000
        else:
            cfg["n_embd"] = 1e20
        json.dump(cfg, open(cfgp, "w"))
    elif case == "duplicate_key":
        k = by_off[-1]
        text = json.dumps(hdr)
        entry = json.dumps({k: hdr[k]})[1:-1]
        write(st, text[:-1] + "," + entry + "}", data)
    elif case == "hole":
        # the last tensor moves 8 bytes on; the data grows by 8 bytes before it
        k = by_off[-1]
        a, b = hdr[k]["data_offsets"]
        hdr[k]["data_offsets"] = [a + 8, b + 8]
        write(st, json.dumps(hdr), data[:a] + b"\0" * 8 + data[a:])
    elif case == "overlap":
        # the last tensor starts 4 bytes early (inside the one before); 4 bytes are cut from the end
        k = by_off[-1]
        a, b = hdr[k]["data_offsets"]
        hdr[k]["data_offsets"] = [a - 4, b - 4]
        write(st, json.dumps(hdr), data[:-4])
    elif case == "int_dtype":
        k = [n for n in names if n.endswith("ln_f.weight")][0]
        hdr[k]["dtype"] = "I32"
        write(st, json.dumps(hdr), data)
    elif case == "header_too_big":
        text = json.dumps(hdr)
        write(st, text, data + b"\0" * 0, declared=100_000_008)
        with open(st, "ab") as f:  # make the file long enough for the declared length
            f.truncate(8 + 100_000_008 + 16)
    elif case == "deep_json":
        write(st, "[" * 100000 + "]" * 100000, data)
    else:
        sys.exit(f"unknown case {case}")


if __name__ == "__main__":
    main()
