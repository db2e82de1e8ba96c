#!/usr/bin/env python3
"""Megatron's GPT sample index (FORMATS.md section 2) reimplemented with numpy,
independently of our C code, to make the golden fixture of tests/unit/test_gptdata.c.

The unit is the sequence (Megatron's numel_low_level_dataset is
sequence_lengths.shape[0]): splits, the document index and the sample index are
over the .idx's sequences; an empty document adds none, a sentence-split document
adds several.

It follows Megatron-LM's GPTDataset (_build_document_sample_shuffle_indices,
helpers.build_sample_idx, _build_shuffle_index) and BlendedMegatronDatasetBuilder
(ceil(target * weight * 1.005) per dataset, helpers.build_blending_indices), with
numpy.random.RandomState(seed) as the generator.

  scripts/megatron_indices.py --make-fixture tests/fixtures/gptdata
      writes small .bin/.idx datasets there (a, b; c with empty and multi-sequence
      documents; oov with token ids outside GPT-2's vocabulary) and golden.json.
  scripts/megatron_indices.py --prefix P --split 969,30,1 --seq-length L --samples N [--seed S]
      prints the first samples' tokens (to compare against a real dataset by hand).
"""
import argparse
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from megatron_mmidx import Dataset, write  # noqa: E402


def split_bounds(split, n):
    parts = [float(s) for s in (split.split(",") if "," in split else split.split("/"))]
    parts = (parts + [0.0, 0.0, 0.0])[:3]
    total = sum(parts)
    bounds = [0]
    cum = 0.0
    for k in range(3):
        cum += parts[k] / total
        bounds.append(n if k == 2 else min(n, max(bounds[-1], round(cum * n))))
    return bounds


def build_indices(sizes, lo, hi, num_samples, L, seed):
    documents = np.arange(lo, hi, dtype=np.int32)  # sequence ids, as Megatron's self.indices
    T = int(sizes[lo:hi].sum())
    e, tokens = 1, T
    while tokens < num_samples * L + 1:
        e += 1
        tokens += T
    if e == 1:
        sep = False
    else:
        sans = ((e - 1) * T - 1) // L
        from_final = num_samples - sans
        per_epoch = (T - 1) // L
        assert 0 <= from_final <= per_epoch + 1
        sep = from_final < int(0.80 * per_epoch)
    rs = np.random.RandomState(seed)

    def doc_index(epochs, separate):
        if not separate or epochs == 1:
            di = np.mgrid[0:epochs, 0:len(documents)][1]
            di[:] = documents
            di = di.reshape(-1).astype(np.int32)
            rs.shuffle(di)
            return di
        first = doc_index(epochs - 1, False)
        last = doc_index(1, False)
        return np.concatenate((first, last))

    di = doc_index(e, sep)
    S = (e * T - 1) // L
    si = np.zeros((S + 1, 2), dtype=np.int64)
    pos, off = 0, 0
    for s in range(1, S + 1):
        rem = L + 1
        while rem != 0:
            dl = int(sizes[di[pos]]) - off
            rem -= dl
            if rem <= 0:
                off += rem + dl - 1
                rem = 0
            else:
                pos += 1
                off = 0
        si[s] = (pos, off)

    def shuffle_index(n, total):
        first = np.arange(0, n, dtype=np.int64)
        rs.shuffle(first)
        if n == total:
            return first
        last = np.arange(n, total, dtype=np.int64)
        rs.shuffle(last)
        return np.concatenate((first, last))

    sh = shuffle_index(((e - 1) * T - 1) // L if sep else S, S)
    return {"epochs": e, "separate_final_epoch": int(sep), "doc_index": di.tolist(),
            "sample_index": si.reshape(-1).tolist(), "shuffle_index": sh.tolist()}


def sample_tokens(ds, idx, i):
    j = idx["shuffle_index"][i]
    si, di = idx["sample_index"], idx["doc_index"]
    pb, ob, pe, oe = si[2 * j], si[2 * j + 1], si[2 * j + 2], si[2 * j + 3]
    if pb == pe:
        return ds.sequence(di[pb])[ob:oe + 1].tolist()
    out = list(ds.sequence(di[pb])[ob:])
    for p in range(pb + 1, pe):
        out += list(ds.sequence(di[p]))
    out += list(ds.sequence(di[pe])[:oe + 1])
    return [int(t) for t in out]


def blend(weights, size):
    cur = [0] * len(weights)
    ds_idx, smp = [], []
    for s in range(size):
        sd = max(float(s), 1.0)
        errs = [w * sd - c for w, c in zip(weights, cur)]
        k = int(np.argmax(errs))  # first maximum, as the C++ loop's strict '>'
        ds_idx.append(k)
        smp.append(cur[k])
        cur[k] += 1
    return ds_idx, smp


def make_fixture(outdir):
    rng = np.random.default_rng(7)
    os.makedirs(outdir, exist_ok=True)
    for name, ndocs, vocab in (("a", 240, 50257), ("b", 90, 50257)):
        docs = []
        for _ in range(ndocs):
            n = int(rng.integers(1, 120))
            docs.append([rng.integers(0, vocab, n).tolist()])
        write(os.path.join(outdir, name), docs)
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
    gold = {"configs": []}
    # (datasets with weights, split, seq_length, train/valid/test samples, seed): single
    # epoch, several epochs with the last one apart, several epochs shuffled together,
    # a blend of two, and a '/'-separated split.
    configs = [
        ([("a", 1.0)], "969,30,1", 32, [40, 8, 4], 1234),
        ([("a", 1.0)], "80,15,5", 16, [2000, 500, 60], 1234),
        ([("b", 1.0)], "98,2,0", 64, [150, 10, 0], 42),
        ([("a", 0.7), ("b", 0.3)], "90,8,2", 24, [300, 60, 12], 1234),
        ([("b", 2.0), ("a", 1.0)], "6/3/1", 8, [1500, 30, 30], 5),
        # more documents than sequences (empty ones), and more sequences than documents
        ([("c", 1.0)], "969,30,1", 16, [300, 40, 8], 1234),
        ([("c", 1.0)], "7,2,1", 32, [60, 20, 10], 3),
        ([("c", 0.5), ("a", 0.5)], "80,10,10", 24, [200, 40, 20], 77),
    ]
    for dsets, split, L, samples, seed in configs:
        wsum = sum(w for _, w in dsets)
        weights = [w / wsum for _, w in dsets]
        cfg = {"datasets": [n for n, _ in dsets], "weights": [w for _, w in dsets], "split": split,
               "seq_length": L, "num_samples": samples, "seed": seed, "splits": []}
        opened = [Dataset(os.path.join(outdir, n)) for n, _ in dsets]
        for k in range(3):
            target = samples[k]
            entry = {"per_dataset": [], "first_samples": []}
            if target <= 0 or any(split_bounds(split, d.n_seq)[k] == split_bounds(split, d.n_seq)[k + 1]
                                  for d in opened):
                cfg["splits"].append(None)
                continue
            idxs = []
            for d, w in zip(opened, weights):
                b = split_bounds(split, d.n_seq)
                ns = target if len(opened) == 1 else int(math.ceil(target * w * (1 + 0.005)))
                idx = build_indices(np.asarray(d.lengths, dtype=np.int64), b[k], b[k + 1], ns, L, seed)
                idx.update({"seq_lo": b[k], "seq_hi": b[k + 1], "num_samples": ns})
                idxs.append(idx)
                entry["per_dataset"].append(idx)
            if len(opened) == 1:
                size = len(idxs[0]["shuffle_index"])
                pick = lambda i: (0, i)  # noqa: E731
            else:
                size = target
                bd, bs = blend(weights, size)
                entry["blend_dataset"], entry["blend_sample"] = bd, bs
                pick = lambda i: (bd[i], bs[i])  # noqa: E731
            entry["size"] = size
            for i in range(min(size, 24)):
                k2, j = pick(i)
                entry["first_samples"].append(sample_tokens(opened[k2], idxs[k2], j))
            cfg["splits"].append(entry)
        gold["configs"].append(cfg)
    with open(os.path.join(outdir, "golden.json"), "w") as f:
        json.dump(gold, f, separators=(",", ":"))
    print(f"wrote {outdir}/a, {outdir}/b and golden.json ({len(configs)} configurations)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--make-fixture", metavar="DIR")
    ap.add_argument("--prefix")
    ap.add_argument("--split", default="969,30,1")
    ap.add_argument("--seq-length", type=int, default=1024)
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1234)
    a = ap.parse_args()
    if a.make_fixture:
        make_fixture(a.make_fixture)
        return
    if not a.prefix:
        ap.error("need --make-fixture DIR or --prefix P")
    d = Dataset(a.prefix)
    b = split_bounds(a.split, d.n_seq)
    idx = build_indices(np.asarray(d.lengths, dtype=np.int64), b[0], b[1], a.samples, a.seq_length, a.seed)
    for i in range(a.samples):
        print(json.dumps(sample_tokens(d, idx, i)))


if __name__ == "__main__":
    main()
