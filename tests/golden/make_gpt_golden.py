#!/usr/bin/env python3
"""Golden values for the C model (tests/unit/test_gpt.c), computed by PyTorch (CPU,
float64) from a GPT-2 written here with torch.nn.functional only, independent of
the C code: logits and loss of one batch, every parameter gradient, then 10 AdamW
steps (gradient clipping, decoupled weight decay on 2-D tensors only) with the
loss, gradient norm and final parameters.

  pip install torch numpy;  tests/golden/make_gpt_golden.py tests/fixtures/gpt/golden.safetensors

Parameters are stored in the C layout (train/model/gpt.h): per-layer tensors stacked
[L, ...], linear weights [out, in].
"""
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from safetensors_io import save  # noqa: E402

V, MAXT, L, NH, C, B, T, STEPS = 100, 16, 2, 4, 32, 2, 12, 10
VP = (V + 127) // 128 * 128
LR = [1e-3 * (i + 1) for i in range(STEPS)]
WD, BETA1, BETA2, EPS, CLIP = 0.1, 0.9, 0.95, 1e-8, 1.0
NAMES = ["wte", "wpe", "ln1w", "ln1b", "qkvw", "qkvb", "attprojw", "attprojb",
         "ln2w", "ln2b", "fcw", "fcb", "fcprojw", "fcprojb", "lnfw", "lnfb"]


def init(g):
    def n(*s, std=0.02):
        return torch.randn(*s, generator=g, dtype=torch.float64) * std
    p = {"wte": n(VP, C), "wpe": n(MAXT, C),
         "ln1w": 1 + n(L, C, std=0.1), "ln1b": n(L, C), "qkvw": n(L, 3 * C, C), "qkvb": n(L, 3 * C),
         "attprojw": n(L, C, C, std=0.02 / math.sqrt(2 * L)), "attprojb": n(L, C),
         "ln2w": 1 + n(L, C, std=0.1), "ln2b": n(L, C), "fcw": n(L, 4 * C, C), "fcb": n(L, 4 * C),
         "fcprojw": n(L, C, 4 * C, std=0.02 / math.sqrt(2 * L)), "fcprojb": n(L, C),
         "lnfw": 1 + n(C, std=0.1), "lnfb": n(C)}
    return {k: p[k].clone().requires_grad_(True) for k in NAMES}


def forward(p, idx, tgt):
    b, t = idx.shape
    hs = C // NH
    x = p["wte"][idx] + p["wpe"][:t]
    for l in range(L):
        h = F.layer_norm(x, (C,), p["ln1w"][l], p["ln1b"][l], eps=1e-5)
        q, k, v = (h @ p["qkvw"][l].T + p["qkvb"][l]).split(C, dim=-1)
        q, k, v = (z.view(b, t, NH, hs).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-1, -2)) / math.sqrt(hs)
        att = att.masked_fill(torch.triu(torch.ones(t, t, dtype=torch.bool), 1), float("-inf")).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, C)
        x = x + y @ p["attprojw"][l].T + p["attprojb"][l]
        h = F.layer_norm(x, (C,), p["ln2w"][l], p["ln2b"][l], eps=1e-5)
        h = F.gelu(h @ p["fcw"][l].T + p["fcb"][l], approximate="tanh")
        x = x + h @ p["fcprojw"][l].T + p["fcprojb"][l]
    x = F.layer_norm(x, (C,), p["lnfw"], p["lnfb"], eps=1e-5)
    logits = x @ p["wte"].T  # [b, t, VP]; padded entries are not in the softmax
    loss = F.cross_entropy(logits[..., :V].reshape(-1, V), tgt.reshape(-1))
    return logits, loss


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/gpt/golden.safetensors"
    g = torch.Generator().manual_seed(20261121)
    p = init(g)
    tok = torch.randint(0, V, (STEPS, B, T + 1), generator=g)
    inputs, targets = tok[..., :-1].contiguous(), tok[..., 1:].contiguous()
    t = {f"param.{k}": v.detach().float().numpy() for k, v in p.items()}
    t["inputs"] = inputs.int().numpy()
    t["targets"] = targets.int().numpy()
    # Decay on the 2-D tensors of GPT-2 (embeddings, linear weights); the stacked
    # per-layer vectors ([L, C]) are 1-D per layer: no decay.
    decay = [p[k] for k in ("wte", "wpe", "qkvw", "attprojw", "fcw", "fcprojw")]
    nodecay = [p[k] for k in NAMES if k not in ("wte", "wpe", "qkvw", "attprojw", "fcw", "fcprojw")]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": WD}, {"params": nodecay, "weight_decay": 0.0}],
                            lr=LR[0], betas=(BETA1, BETA2), eps=EPS)
    losses, norms = [], []
    for s in range(STEPS):
        opt.zero_grad()
        logits, loss = forward(p, inputs[s], targets[s])
        loss.backward()
        if s == 0:
            t["logits0"] = logits.detach().float().numpy()
            for k in NAMES:
                t[f"grad.{k}"] = p[k].grad.detach().float().numpy()
        norm = torch.nn.utils.clip_grad_norm_(list(p.values()), CLIP)
        for grp in opt.param_groups:
            grp["lr"] = LR[s]
        opt.step()
        losses.append(loss.item())
        norms.append(norm.item())
    t["losses"] = np.array(losses, np.float64)
    t["grad_norms"] = np.array(norms, np.float64)
    t["lrs"] = np.array(LR, np.float64)
    for k in NAMES:
        t[f"final.{k}"] = p[k].detach().float().numpy()
    meta = dict(V=V, Vp=VP, maxT=MAXT, L=L, NH=NH, C=C, B=B, T=T, steps=STEPS, wd=WD, beta1=BETA1, beta2=BETA2,
                eps=EPS, clip=CLIP, torch=torch.__version__)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    save(out, t, meta)
    print(f"wrote {out}: loss {losses[0]:.6f} -> {losses[-1]:.6f}, grad norm {norms[0]:.4f}")


if __name__ == "__main__":
    main()
