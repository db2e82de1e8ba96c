#!/usr/bin/env python3
"""Tokenizer throughput: ours vs tiktoken and Hugging Face tokenizers, same text,
same run, same thread counts (GPT-2 vocabulary from data/gpt2).

Ours is timed as whole processes (`tokenize` and `preprocess_data`): that
includes reading the JSON lines, parsing them and writing the output. tiktoken's,
tokenize's and preprocess_data's runs alternate, three rounds, least time of each.
tiktoken (encode_ordinary_batch) and tokenizers (encode_batch) are timed on the
encode call only, with the texts already in memory: a handicap for us.
MB = UTF-8 bytes of document text.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "lib"))
from tiktoken_offline import ROOT, gpt2_encoding, read_jsonl  # noqa: E402
from timing import least_alternated  # noqa: E402

BIN = os.environ.get("BIN", os.path.join(ROOT, "bin"))


def main():
    path = os.path.join(ROOT, "data", "corpus", "enwiki_sample.jsonl.zst")
    lines = [l for l in read_jsonl(path) if l.strip()]
    texts = [json.loads(l)["text"] for l in lines]
    mb = sum(len(t.encode()) for t in texts) / 1e6
    tmp = tempfile.mkdtemp(prefix="bench_tok.")
    jl = os.path.join(tmp, "in.jsonl")
    with open(jl, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"input: {path}: {len(texts)} documents, {mb:.1f} MB of text; {os.cpu_count()} cores")
    enc = gpt2_encoding()
    rows = {}
    for th in (1, 2):
        rows[th] = tuple(least_alternated([
            lambda: enc.encode_ordinary_batch(texts, num_threads=th),
            lambda: subprocess.run([os.path.join(BIN, "tokenize"), "-q", "-j", str(th), jl, "-o", "/dev/null"],
                                   check=True),
            lambda: subprocess.run([os.path.join(BIN, "preprocess_data"), "-q", "-i", jl, "-o",
                                    os.path.join(tmp, "o"), "-j", str(th)], check=True)]))
    t_hf = {}
    try:
        from tokenizers import Tokenizer, models, pre_tokenizers
        for th in (1, 2):
            code = ("import json,os,sys,time\n"
                    "from tokenizers import Tokenizer, models, pre_tokenizers\n"
                    f"t=Tokenizer(models.BPE.from_file({os.path.join(ROOT,'data','gpt2','encoder.json')!r},"
                    f"{os.path.join(ROOT,'data','gpt2','vocab.bpe')!r}))\n"
                    "t.pre_tokenizer=pre_tokenizers.ByteLevel(add_prefix_space=False)\n"
                    f"x=[json.loads(l)['text'] for l in open({jl!r})]\n"
                    "b=9e9\n"
                    "for _ in range(3):\n"
                    "  s=time.perf_counter(); t.encode_batch(x, add_special_tokens=False); b=min(b,time.perf_counter()-s)\n"
                    "print(b)\n")
            env = dict(os.environ, RAYON_NUM_THREADS=str(th), TOKENIZERS_PARALLELISM="true")
            t_hf[th] = float(subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                                            text=True).stdout.strip())
    except ImportError:
        pass
    print(f"{'threads':>7} {'tiktoken':>10} {'HF tokenizers':>14} {'ours: tokenize':>15} {'ours: preprocess_data':>22}"
          f" {'vs tiktoken':>12} {'vs HF':>7}")
    for th in (1, 2):
        t_tik, t_tok, t_pp = rows[th]
        hf = t_hf.get(th)
        print(f"{th:>7} {mb / t_tik:>7.1f} MB/s {(mb / hf if hf else 0):>9.1f} MB/s {mb / t_tok:>10.1f} MB/s "
              f"{mb / t_pp:>17.1f} MB/s {t_tik / t_pp:>11.2f}x {(hf / t_pp if hf else 0):>6.2f}x")
    print(f"scaling 1 -> 2 threads: ours (preprocess_data) {rows[1][2] / rows[2][2]:.2f}x, "
          f"tiktoken {rows[1][0] / rows[2][0]:.2f}x")
    subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
