#!/usr/bin/env python3
"""bench_gpu_torch.py - the peer for bench/bench_gpu.sh: GPT-2 training steps
in PyTorch on the same GPU, written as one would for speed (nanoGPT's model:
tied embeddings, vocabulary padded to 50304, pre-LayerNorm blocks, tanh GELU;
bf16 autocast, scaled_dot_product_attention with is_causal, torch.compile,
fused AdamW). Random tokens: throughput does not depend on the text.
Prints one line: tokens_per_s=... ms_per_iter=... peak_mem_gb=..."""
import argparse, math, time

import torch
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--layers", type=int, default=12)
p.add_argument("--hidden", type=int, default=768)
p.add_argument("--heads", type=int, default=12)
p.add_argument("--seq", type=int, default=1024)
p.add_argument("--mbs", type=int, default=16)
p.add_argument("--iters", type=int, default=20)
p.add_argument("--warmup", type=int, default=5)
p.add_argument("--no-compile", action="store_true")
a = p.parse_args()
V, C, L, NH, T = 50304, a.hidden, a.layers, a.heads, a.seq


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.qkv, self.proj = nn.Linear(C, 3 * C), nn.Linear(C, C)
        self.fc, self.fcproj = nn.Linear(C, 4 * C), nn.Linear(4 * C, C)

    def forward(self, x):
        B, Tn, _ = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = (t.view(B, Tn, NH, C // NH).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).contiguous().view(B, Tn, C))
        return x + self.fcproj(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(V, C), nn.Embedding(T, C)
        self.blocks = nn.ModuleList(Block() for _ in range(L))
        self.lnf = nn.LayerNorm(C)

    def forward(self, idx, tg):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1], device=idx.device))
        for b in self.blocks:
            x = b(x)
        logits = self.lnf(x) @ self.wte.weight.t()
        return F.cross_entropy(logits.float().view(-1, V), tg.view(-1))


torch.manual_seed(0)
dev = "cuda"
torch.backends.cuda.matmul.allow_tf32 = True
m = GPT().to(dev)
opt = torch.optim.AdamW(m.parameters(), lr=6e-4, betas=(0.9, 0.95), weight_decay=0.1, fused=True)
step_model = m if a.no_compile else torch.compile(m)
x = torch.randint(0, 50257, (a.mbs, T), device=dev)
y = torch.randint(0, 50257, (a.mbs, T), device=dev)


def step():
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = step_model(x, y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    opt.step()
    opt.zero_grad(set_to_none=True)
    return loss


for _ in range(a.warmup):
    step()
torch.cuda.synchronize()
t0 = time.perf_counter()
for _ in range(a.iters):
    loss = step()
loss.item()
torch.cuda.synchronize()
dt = (time.perf_counter() - t0) / a.iters
print(f"tokens_per_s={a.mbs * T / dt:.0f} ms_per_iter={dt * 1000:.1f} peak_mem_gb={torch.cuda.max_memory_allocated() / 1e9:.1f} "
      f"params={sum(p.numel() for p in m.parameters())}")
