#!/usr/bin/env python3
"""check_hf_export.py - the proof of convert_checkpoint --to hf with the real
thing: transformers' GPT2LMHeadModel and AutoTokenizer load the exported
directory (CPU, float32); their logits on the prompt are compared with ours
(generate --logits-out) and they generate text.

  check_hf_export.py HF_DIR PROMPT OUR_LOGITS.f32 [--tol 1e-4]
Prints the max abs difference; exits 1 above --tol.

  check_hf_export.py --make-random DIR --layers L --embd C --heads H --positions T
writes a GPT2LMHeadModel that transformers itself initialises at random
(save_pretrained), with the GPT-2 tokenizer files copied from data/gpt2: import it
with convert_checkpoint --from hf, then compare as above."""
import argparse, sys

import numpy as np
import torch
from transformers import AutoTokenizer, GPT2LMHeadModel

if "--make-random" in sys.argv:
    import os, shutil
    from transformers import GPT2Config
    r = argparse.ArgumentParser()
    r.add_argument("--make-random", required=True)
    for k in ("layers", "embd", "heads", "positions"):
        r.add_argument("--" + k, type=int, required=True)
    a = r.parse_args()
    torch.manual_seed(0)
    cfg = GPT2Config(n_layer=a.layers, n_embd=a.embd, n_head=a.heads, n_positions=a.positions, vocab_size=50257)
    GPT2LMHeadModel(cfg).save_pretrained(a.make_random)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "gpt2")
    shutil.copy(os.path.join(root, "encoder.json"), os.path.join(a.make_random, "vocab.json"))
    shutil.copy(os.path.join(root, "vocab.bpe"), os.path.join(a.make_random, "merges.txt"))
    print("wrote a random GPT2LMHeadModel into", a.make_random)
    sys.exit(0)
ap = argparse.ArgumentParser()
ap.add_argument("dir"); ap.add_argument("prompt"); ap.add_argument("logits"); ap.add_argument("--tol", type=float, default=1e-4)
ap.add_argument("--expect-ids", help="our ids of the prompt (tokenize --text): the exported tokenizer must give them")
a = ap.parse_args()
tok = AutoTokenizer.from_pretrained(a.dir)
if a.expect_ids is not None:
    got = tok(a.prompt).input_ids
    want = [int(x) for x in a.expect_ids.split()]
    print(f"transformers {type(tok).__name__}: prompt ids {'equal ours' if got == want else 'DIFFER: %s vs ours %s' % (got[:12], want[:12])}")
    if got != want:
        sys.exit(1)
model = GPT2LMHeadModel.from_pretrained(a.dir, torch_dtype=torch.float32).eval()
ids = tok(a.prompt, return_tensors="pt").input_ids
with torch.no_grad():
    ref = model(ids).logits[0].double().numpy()
ours = np.fromfile(a.logits, dtype=np.float32).reshape(ids.shape[1], -1)
diff = float(np.abs(ours - ref).max())
print(f"transformers {__import__('transformers').__version__}: {ids.shape[1]} tokens, max abs logit difference "
      f"{diff:.3g} (largest |logit| {np.abs(ref).max():.3g}), argmax agrees at "
      f"{int((ours.argmax(-1) == ref.argmax(-1)).sum())}/{ids.shape[1]}")
out = model.generate(ids, max_new_tokens=20, do_sample=False, pad_token_id=tok.eos_token_id)
print("transformers greedy continuation:", repr(tok.decode(out[0][ids.shape[1]:])))
sys.exit(0 if diff <= a.tol else 1)
