#!/usr/bin/env python3
"""The small Megatron .bin/.idx datasets of tests/fixtures/gptdata: a and b (random
documents of 1-119 tokens), c (empty documents at the start, alone and in runs in the
middle and at the end, between documents of one and of 2-4 sequences, as
--split-sentences makes), oov (token ids 60000.., outside GPT-2's vocabulary, for
the trainer's bad-input test), s (a's documents with every id taken modulo 1099: a
NullTokenizer --vocab-size 1099 dataset, so that the parallel layouts' tests train models
whose output layer is 1,152 rows, not GPT-2's 50,304).

  tests/golden/make_gptdata_fixtures.py tests/fixtures/gptdata

The golden sample orders over them come from Megatron-LM's own code:
tests/golden/megatron_fixtures.py (megatron-core) writes golden_megatron.json.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from megatron_mmidx import write  # noqa: E402


def make_fixture(outdir):
    rng = np.random.default_rng(7)
    os.makedirs(outdir, exist_ok=True)
    for name, ndocs, vocab in (("a", 240, 50257), ("b", 90, 50257)):
        docs = []
        for _ in range(ndocs):
            n = int(rng.integers(1, 120))
            docs.append([rng.integers(0, vocab, n).tolist()])
        write(os.path.join(outdir, name), docs)
        if name == "a":
            write(os.path.join(outdir, "s"), [[[t % 1099 for t in seq] for seq in doc] for doc in docs])
    # c: empty documents at the start, alone and in runs in the middle, and at the end,
    # between one-sequence documents and documents of 2-4 sequences (--split-sentences).
    rng_c = np.random.default_rng(11)
    docs = [[], []]
    for k in range(150):
        r = rng_c.random()
        if r < 0.12:
            docs += [[]] * int(rng_c.integers(1, 4))
        nseq = 1 if r < 0.6 else int(rng_c.integers(2, 5))
        docs.append([rng_c.integers(0, 50257, int(rng_c.integers(1, 60))).tolist() for _ in range(nseq)])
    docs += [[], []]
    write(os.path.join(outdir, "c"), docs)
    # oov: token ids 60000.. (outside GPT-2's 50257), for the trainer's bad-input test.
    write(os.path.join(outdir, "oov"), [[[60000 + i % 100 for i in range(40)]] for _ in range(50)])
    print(f"wrote {outdir}/a, b, c, oov and s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    make_fixture(sys.argv[1])
