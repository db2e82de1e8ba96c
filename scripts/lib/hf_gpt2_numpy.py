#!/usr/bin/env python3
"""hf_gpt2_numpy.py - a Hugging Face GPT-2 directory read and run in numpy
(float64), written from the format (FORMATS.md section 7) and GPT-2's
definition, independently of our C code: the reference for convert_checkpoint.

  hf_gpt2_numpy.py logits DIR IDS LOGITS.f32 [--tol T]
      forward of the comma-separated token ids; compare with LOGITS.f32 (float32
      [tokens, vocab], e.g. from generate --logits-out); print the max abs diff;
      exit 1 above --tol (default 1e-4)
  hf_gpt2_numpy.py random DIR --layers L --embd C --heads H --vocab V --positions T [--seed S]
      write a randomly initialised GPT-2 (config.json + model.safetensors with
      HF's names and Conv1D layout), as transformers would save one
"""
import argparse, json, os, struct, sys

import numpy as np


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        hdr = json.loads(f.read(n))
        data = f.read()
    dt = {"F32": np.float32, "F64": np.float64, "F16": np.float16}
    out = {}
    for k, v in hdr.items():
        if k == "__metadata__":
            continue
        a, b = v["data_offsets"]
        out[k] = np.frombuffer(data[a:b], dtype=dt[v["dtype"]]).reshape(v["shape"]).astype(np.float64)
    return out


def write_safetensors(path, tensors):
    hdr, off, blobs = {"__metadata__": {"format": "pt"}}, 0, []
    for k, a in tensors.items():
        b = np.ascontiguousarray(a, dtype=np.float32).tobytes()
        hdr[k] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        off += len(b)
        blobs.append(b)
    h = json.dumps(hdr).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def forward(d, ids):
    cfg = json.load(open(os.path.join(d, "config.json")))
    w = read_safetensors(os.path.join(d, "model.safetensors"))
    g = lambda k: w.get("transformer." + k, w.get(k))
    L, C, H = cfg["n_layer"], cfg["n_embd"], cfg["n_head"]
    eps = cfg.get("layer_norm_epsilon", 1e-5)
    T = len(ids)

    def ln(x, p):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / np.sqrt(v + eps) * g(p + ".weight") + g(p + ".bias")

    def gelu(x):
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))

    x = g("wte.weight")[ids] + g("wpe.weight")[:T]
    mask = np.triu(np.ones((T, T), bool), 1)
    for l in range(L):
        p = f"h.{l}."
        qkv = ln(x, p + "ln_1") @ g(p + "attn.c_attn.weight") + g(p + "attn.c_attn.bias")  # Conv1D: x @ W[in, out]
        q, k, v = np.split(qkv, 3, axis=-1)
        hs = C // H
        q, k, v = (t.reshape(T, H, hs).transpose(1, 0, 2) for t in (q, k, v))
        s = q @ k.transpose(0, 2, 1) / np.sqrt(hs)
        s[:, mask] = -np.inf
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        y = (s @ v).transpose(1, 0, 2).reshape(T, C)
        x = x + y @ g(p + "attn.c_proj.weight") + g(p + "attn.c_proj.bias")
        h = gelu(ln(x, p + "ln_2") @ g(p + "mlp.c_fc.weight") + g(p + "mlp.c_fc.bias"))
        x = x + h @ g(p + "mlp.c_proj.weight") + g(p + "mlp.c_proj.bias")
    return ln(x, "ln_f") @ g("wte.weight").T


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    a1 = sub.add_parser("logits")
    a1.add_argument("dir"); a1.add_argument("ids"); a1.add_argument("logits"); a1.add_argument("--tol", type=float, default=1e-4)
    a2 = sub.add_parser("random")
    a2.add_argument("dir")
    for k in ("layers", "embd", "heads", "vocab", "positions"):
        a2.add_argument("--" + k, type=int, required=True)
    a2.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    if a.cmd == "logits":
        ids = [int(t) for t in a.ids.split(",")]
        ref = forward(a.dir, ids)
        ours = np.fromfile(a.logits, dtype=np.float32).reshape(len(ids), -1)
        if ours.shape != ref.shape:
            print(f"shape {ours.shape} vs reference {ref.shape}"); sys.exit(1)
        diff = float(np.abs(ours - ref).max())
        print(f"max abs logit difference {diff:.3g} over {ref.size} logits (largest |logit| {np.abs(ref).max():.3g}); "
              f"argmax agrees at {int((ours.argmax(-1) == ref.argmax(-1)).sum())}/{len(ids)} positions")
        sys.exit(0 if diff <= a.tol else 1)
    rng = np.random.default_rng(a.seed)
    C, L = a.embd, a.layers
    n = lambda *s: rng.normal(0, 0.02, s)
    t = {"transformer.wte.weight": n(a.vocab, C), "transformer.wpe.weight": n(a.positions, C)}
    for l in range(L):
        p = f"transformer.h.{l}."
        t.update({p + "ln_1.weight": 1 + n(C), p + "ln_1.bias": n(C), p + "attn.c_attn.weight": n(C, 3 * C),
                  p + "attn.c_attn.bias": n(3 * C), p + "attn.c_proj.weight": n(C, C), p + "attn.c_proj.bias": n(C),
                  p + "ln_2.weight": 1 + n(C), p + "ln_2.bias": n(C), p + "mlp.c_fc.weight": n(C, 4 * C),
                  p + "mlp.c_fc.bias": n(4 * C), p + "mlp.c_proj.weight": n(4 * C, C), p + "mlp.c_proj.bias": n(C)})
    t["transformer.ln_f.weight"] = 1 + n(C)
    t["transformer.ln_f.bias"] = n(C)
    os.makedirs(a.dir, exist_ok=True)
    write_safetensors(os.path.join(a.dir, "model.safetensors"), t)
    json.dump({"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "vocab_size": a.vocab,
               "n_positions": a.positions, "n_embd": C, "n_layer": L, "n_head": a.heads,
               "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5, "tie_word_embeddings": True},
              open(os.path.join(a.dir, "config.json"), "w"))


if __name__ == "__main__":
    main()
