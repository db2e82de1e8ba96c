#!/usr/bin/env python3
"""PyTorch CPU reference for bench/bench_train.sh: the same GPT-2 (pre-LN, tanh
GELU, tied embeddings, vocab padded to 50304), the same batch shape and AdamW +
clipping step as bin/train, fp32, on --threads threads. Prints tokens/s over
--iters timed iterations after --warmup.

  bench/bench_train_torch.py --layers 12 --hidden 768 --heads 12 --seq 256 --batch 4 --threads 2
"""
import argparse
import math
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, c, nh):
        super().__init__()
        self.nh = nh
        self.ln1, self.ln2 = nn.LayerNorm(c), nn.LayerNorm(c)
        self.qkv, self.proj = nn.Linear(c, 3 * c), nn.Linear(c, c)
        self.fc, self.fcproj = nn.Linear(c, 4 * c), nn.Linear(4 * c, c)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, self.nh, c // self.nh).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, c))
        return x + self.fcproj(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class GPT(nn.Module):
    def __init__(self, layers, c, nh, vp, maxt):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vp, c), nn.Embedding(maxt, c)
        self.blocks = nn.ModuleList(Block(c, nh) for _ in range(layers))
        self.lnf = nn.LayerNorm(c)
        for n, p in self.named_parameters():
            if p.dim() >= 2:
                nn.init.normal_(p, 0, 0.02 / (math.sqrt(2 * layers) if n.endswith(("proj.weight",)) else 1))

    def forward(self, idx, tgt, v):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1]))
        for b in self.blocks:
            x = b(x)
        logits = self.lnf(x) @ self.wte.weight.T
        return F.cross_entropy(logits[..., :v].reshape(-1, v), tgt.reshape(-1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--hidden", type=int, default=768)
    ap.add_argument("--heads", type=int, default=12)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    v, vp = 50257, 50304
    m = GPT(a.layers, a.hidden, a.heads, vp, a.seq)
    decay = [p for p in m.parameters() if p.dim() >= 2]
    other = [p for p in m.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": other, "weight_decay": 0.0}],
                            lr=1e-4, betas=(0.9, 0.95), eps=1e-8)
    g = torch.Generator().manual_seed(1)
    times = []
    for i in range(a.warmup + a.iters):
        tok = torch.randint(0, v, (a.batch, a.seq + 1), generator=g)
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss = m(tok[:, :-1], tok[:, 1:], v)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
        opt.step()
        if i >= a.warmup:
            times.append(time.perf_counter() - t0)
    ms = 1000 * sum(times) / len(times)
    print(f"torch {torch.__version__} threads {a.threads}: {ms:.1f} ms/iter, "
          f"{a.batch * a.seq / (ms / 1000):.1f} tokens/s, loss {loss.item():.4f}")
    # The kernels PyTorch ran: its CPU ISA level (ATen's dispatch), MKL and oneDNN.
    cap = torch.backends.cpu.get_cpu_capability()
    mkl = "MKL" if torch.backends.mkl.is_available() else "no MKL"
    dnn = f"oneDNN {torch.backends.mkldnn.is_available() and 'on' or 'off'}"
    print(f"torch kernels: ISA {cap}, {mkl}, {dnn} (ONEDNN_MAX_CPU_ISA={os.environ.get('ONEDNN_MAX_CPU_ISA', 'unset')})")


if __name__ == "__main__":
    main()
