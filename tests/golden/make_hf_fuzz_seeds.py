#!/usr/bin/env python3
"""Seed corpus of tests/fuzz/fuzz_hfimport: real exports of small GPT-2 models by
transformers (GPT2LMHeadModel and GPT2Model naming, fp32, fp16 and bf16) and by
scripts/lib/hf_gpt2_numpy.py, each as config.json + "\\0SAFETENSORS\\0" +
model.safetensors (the fuzz target's input layout).

  scripts/setup/install_deps.sh --fixtures   (torch, transformers into build/venv)
  build/venv/bin/python tests/golden/make_hf_fuzz_seeds.py tests/fuzz/corpus_hfimport
"""
import hashlib
import os
import subprocess
import sys
import tempfile

SEP = b"\0SAFETENSORS\0"


def emit(out, d):
    blob = open(os.path.join(d, "config.json"), "rb").read() + SEP + open(os.path.join(d, "model.safetensors"), "rb").read()
    name = hashlib.sha1(blob).hexdigest()
    open(os.path.join(out, name), "wb").write(blob)
    return len(blob)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2Model

    torch.manual_seed(0)
    n = 0
    for cls, layers, dtype in ((GPT2LMHeadModel, 1, torch.float32), (GPT2LMHeadModel, 2, torch.float32),
                               (GPT2LMHeadModel, 1, torch.float16), (GPT2LMHeadModel, 1, torch.bfloat16),
                               (GPT2Model, 1, torch.float32)):
        cfg = GPT2Config(vocab_size=16, n_positions=8, n_embd=8, n_layer=layers, n_head=2)
        m = cls(cfg).to(dtype)
        with tempfile.TemporaryDirectory() as d:
            m.save_pretrained(d, safe_serialization=True)
            print(f"{cls.__name__} {layers} layer(s) {dtype}: {emit(out, d)} bytes")
            n += 1
    with tempfile.TemporaryDirectory() as d:
        subprocess.check_call([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib", "hf_gpt2_numpy.py"), "random",
                               d, "--layers", "1", "--embd", "8", "--heads", "2", "--vocab", "12", "--positions", "4"])
        print(f"hf_gpt2_numpy.py random: {emit(out, d)} bytes")
        n += 1
    print(f"{n} seeds in {out}")


if __name__ == "__main__":
    main()
