#!/usr/bin/env python3
"""One of datatrove's four MinHash deduplication steps, as its own process (so that
bench/bench_minhash_scale.py measures each step's time, memory and I/O apart), with datatrove's
default MinhashConfig (5-grams of words, 14 buckets x 8 hashes) and LocalPipelineExecutor, the
way its examples/minhash_deduplication.py runs them.

    minhash_scale_datatrove.py STEP CORPUS_DIR WORK_DIR TASKS WORKERS

STEP: signature (TASKS tasks, one a shard), buckets (one task a bucket), cluster (one task,
save_cluster_id), filter (TASKS tasks: the kept and removed documents written as JSON lines).
"""
import sys

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.dedup.minhash import (MinhashConfig, MinhashDedupBuckets, MinhashDedupCluster,
                                              MinhashDedupFilter, MinhashDedupSignature)
from datatrove.pipeline.readers import JsonlReader
from datatrove.pipeline.writers.jsonl import JsonlWriter


def main():
    step, corpus, work, tasks, workers = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    cfg = MinhashConfig()

    def reader():
        return JsonlReader(corpus, glob_pattern="*.jsonl.zst", id_key="url")

    if step == "signature":
        pipe, n = [reader(), MinhashDedupSignature(output_folder=f"{work}/signatures", config=cfg)], tasks
    elif step == "buckets":
        pipe, n = [MinhashDedupBuckets(input_folder=f"{work}/signatures", output_folder=f"{work}/buckets",
                                       config=cfg)], cfg.num_buckets
    elif step == "cluster":
        pipe, n = [MinhashDedupCluster(input_folder=f"{work}/buckets", output_folder=f"{work}/remove_ids",
                                       config=cfg, save_cluster_id=True)], 1
    elif step == "filter":
        pipe, n = [reader(), MinhashDedupFilter(input_folder=f"{work}/remove_ids",
                                                exclusion_writer=JsonlWriter(f"{work}/removed")),
                   JsonlWriter(f"{work}/output")], tasks
    else:
        sys.exit(f"minhash_scale_datatrove.py: unknown step {step}")
    LocalPipelineExecutor(pipeline=pipe, tasks=n, workers=min(workers, n),
                          logging_dir=f"{work}/logs/{step}").run()


if __name__ == "__main__":
    main()
