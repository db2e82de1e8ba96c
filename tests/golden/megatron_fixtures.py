#!/usr/bin/env python3
"""Golden sample orders from Megatron-LM's own dataset code, for tests/unit/test_gptdata.c.

Runs megatron-core's BlendedMegatronDatasetBuilder over GPTDataset (and its
compiled helpers: build_sample_idx, build_blending_indices) on the small
Megatron datasets in tests/fixtures/gptdata (a, b; c with empty and
multi-sequence documents) and writes tests/fixtures/gptdata/golden_megatron.json:
for each configuration (prefixes, weights or none, split, sequence length,
samples per split, seed) and each split, what Megatron built - the size of the
dataset, each mid-level GPTDataset's document, sample and shuffle indices, the
blend's dataset and sample index, the tokens of the first samples - and a
hash of the tokens of every sample, so that the test compares all of them.

  scripts/setup/install_deps.sh --fixtures     (megatron-core 0.16.1, torch, numpy into build/venv)
  build/venv/bin/python tests/golden/megatron_fixtures.py [--out tests/fixtures/gptdata/golden_megatron.json]

The fixture is committed; `make test` needs neither torch nor megatron-core.
"""
import argparse
import json
import logging
import os
import shutil
import sys
import tempfile
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIX = os.path.join(ROOT, "tests", "fixtures", "gptdata")

# (datasets, weights or None, split, seq_length, [train, valid, test] samples, seed)
CONFIGS = [
    # one dataset, no weight: one epoch; several epochs with the last apart; shuffled together
    (["a"], None, "969,30,1", 32, [40, 8, 4], 1234),
    (["a"], None, "80,15,5", 16, [2000, 500, 60], 1234),
    (["b"], None, "98,2,0", 64, [150, 10, 0], 42),
    # empty documents, and documents of several sequences
    (["c"], None, "969,30,1", 16, [300, 40, 8], 1234),
    (["c"], None, "7,2,1", 32, [60, 20, 10], 3),
    # a split with no samples (fraction 0)
    (["a"], None, "100,0,0", 16, [300, 0, 0], 9),
    (["b"], None, "90,10,0", 16, [100, 20, 5], 9),
    # weighted blends of two and three datasets at several sizes
    (["a", "b"], [0.7, 0.3], "90,8,2", 24, [300, 60, 12], 1234),
    (["b", "a"], [2.0, 1.0], "6/3/1", 8, [1500, 30, 30], 5),
    (["c", "a"], [0.5, 0.5], "80,10,10", 24, [200, 40, 20], 77),
    (["a", "b"], [0.3, 0.7], "969,30,1", 16, [3643, 100, 10], 1234),
    (["a", "b"], [0.3, 0.7], "969,30,1", 16, [1001, 37, 3], 1234),
    (["a", "b", "c"], [1.0, 2.0, 3.0], "969,30,1", 16, [12345, 300, 30], 1234),
    (["a", "b", "c"], [1.0, 2.0, 3.0], "90,5,5", 8, [777, 51, 9], 31),
    (["c", "b", "a"], [0.2, 0.35, 0.45], "85,10,5", 12, [4805, 200, 50], 2),
    # several prefixes, no weights: one epoch each, blended by size, capped at the target
    (["a", "b"], None, "969,30,1", 16, [5000, 100, 10], 1234),
    (["a", "b"], None, "969,30,1", 16, [300, 20, 2], 1234),
    (["a", "b", "c"], None, "90,8,2", 24, [100000, 1000, 1000], 7),
    # one weighted prefix: a blend over one dataset
    (["a"], [1.0], "969,30,1", 16, [4805, 100, 10], 1234),
    (["a"], [1.0], "80,15,5", 16, [2000, 500, 60], 1234),
    (["c"], [3.0], "969,30,1", 32, [77, 5, 5], 11),
]


def token_hash(samples):
    """sum over every token t_j of all samples, in order, of (t_j + 1) * P^j mod 2^64, P = 0x100000001B3
    (test_gptdata.c computes the same)."""
    import numpy as np
    t = np.concatenate(samples).astype(np.uint64) + np.uint64(1)
    p = np.full(len(t), 0x100000001B3, dtype=np.uint64)
    p[0] = 1
    with np.errstate(over="ignore"):
        w = np.cumprod(p, dtype=np.uint64)
        return int(np.sum(t * w, dtype=np.uint64))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(FIX, "golden_megatron.json"))
    ap.add_argument("--first", type=int, default=16, help="samples whose tokens are written out")
    a = ap.parse_args()
    warnings.filterwarnings("ignore")
    logging.disable(logging.WARNING)
    import numpy as np
    from importlib.metadata import version

    from megatron.core.datasets.blended_dataset import BlendedDataset
    from megatron.core.datasets.blended_megatron_dataset_builder import BlendedMegatronDatasetBuilder
    from megatron.core.datasets.gpt_dataset import GPTDataset, GPTDatasetConfig
    from megatron.core.datasets.indexed_dataset import IndexedDataset

    class Tok:  # the sample order does not depend on the tokenizer; the config asks for one
        vocab_size = 50257
        eod = 50256
        pad = -1
        unique_identifiers = {"class": "FixtureTokenizer"}

    mver = version("megatron-core")
    out = {"megatron_core": mver, "configs": []}
    total = 0
    for names, weights, split, L, sizes, seed in CONFIGS:
        with tempfile.TemporaryDirectory() as cache:
            # Megatron caches its indices beside the data when given no cache path
            # (and a BlendedDataset with a cache path needs torch.distributed): work on copies.
            prefixes = [os.path.join(cache, n) for n in names]
            for n in names:
                for ext in (".bin", ".idx"):
                    shutil.copyfile(os.path.join(FIX, n + ext), os.path.join(cache, n + ext))
            cfg = GPTDatasetConfig(random_seed=seed, sequence_length=L, blend=(prefixes, weights), split=split,
                                   path_to_cache=None, reset_position_ids=False, reset_attention_mask=False,
                                   eod_mask_loss=False, mid_level_dataset_surplus=0.005, tokenizer=Tok())
            # A split that rounds to no sequences of some dataset (the test split of 969,30,1 on
            # a small dataset): Megatron 0.16.1 loops forever in GPTDataset._get_num_epochs (0 tokens
            # per epoch) or, for an unweighted blend, fails an assertion. We skip such a split with a
            # note; it is written as null, as a split of fraction 0 is, which Megatron skips too.
            for k in range(3):
                if cfg.split_matrix[k] is None:
                    continue
                lo, hi = cfg.split_matrix[k]
                for p in prefixes:
                    n = len(IndexedDataset(p).sequence_lengths)
                    if int(round(lo * float(n))) == int(round(hi * float(n))):
                        cfg.split_matrix[k] = None
                        break
            built = BlendedMegatronDatasetBuilder(GPTDataset, sizes, lambda: True, cfg).build()
            entry = {"datasets": names, "weights": weights, "split": split, "seq_length": L, "num_samples": sizes,
                     "seed": seed, "splits": []}
            for k, ds in enumerate(built):
                if ds is None or sizes[k] == 0:
                    entry["splits"].append(None)
                    continue
                e = {"size": len(ds), "per_dataset": []}
                mids = ds.datasets if isinstance(ds, BlendedDataset) else [ds]
                for m in mids:
                    e["per_dataset"].append({
                        "seq_lo": int(m.indices[0]) if len(m.indices) else 0,
                        "seq_hi": int(m.indices[-1]) + 1 if len(m.indices) else 0,
                        "num_samples": m.num_samples,
                        "doc_index": m.document_index.tolist(),
                        "sample_index": m.sample_index.reshape(-1).tolist(),
                        "shuffle_index": m.shuffle_index.tolist(),
                    })

                def sample(i):
                    if isinstance(ds, BlendedDataset):
                        m, j = ds.datasets[ds.dataset_index[i]], ds.dataset_sample_index[i]
                    else:
                        m, j = ds, i
                    tok, _ = m._query_document_sample_shuffle_indices(int(j))
                    return np.asarray(tok, dtype=np.int64)

                if isinstance(ds, BlendedDataset):
                    e["blend_dataset"] = ds.dataset_index.tolist()
                    e["blend_sample"] = ds.dataset_sample_index.tolist()
                every = [sample(i) for i in range(len(ds))]
                assert all(len(t) == L + 1 for t in every)
                e["first_samples"] = [t.tolist() for t in every[:a.first]]
                e["tokens_hash"] = f"{token_hash(every):016x}"
                total += len(ds)
                entry["splits"].append(e)
            out["configs"].append(entry)
            print(f"  {names} {weights} {split} L{L} {sizes}: sizes {[x and x['size'] for x in entry['splits']]}",
                  flush=True)
    with open(a.out + ".tmp", "w") as f:
        json.dump(out, f, separators=(",", ":"))
    os.replace(a.out + ".tmp", a.out)
    print(f"megatron-core {mver}: {len(CONFIGS)} configurations, {total} samples -> {a.out}")


if __name__ == "__main__":
    sys.exit(main())
