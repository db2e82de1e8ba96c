"""check_scores_numpy.py - bin/evaluate's scores against an independent reference written
here: lm-evaluation-harness's rules in Python (the tasks' prompts, _encode_pair, the window cut
on the left, acc and acc_norm) over the Hugging Face export of the checkpoint, run by
scripts/lib/hf_gpt2_numpy.py (float64) and tokenized by Hugging Face's `tokenizers` (GPT-2's
byte-level BPE from the export's vocab.json and merges.txt). make test's check; lm-eval itself is
scripts/check/check_lm_eval.py (it needs torch).

  check_scores_numpy.py HF_DIR OURS.jsonl LIMIT TASK_FILE... [--tol 1e-4]"""
import functools, importlib.util, json, math, os, sys

import numpy as np
from tokenizers import Tokenizer, decoders, models, pre_tokenizers

tol = 1e-4
argv = sys.argv[1:]
if "--tol" in argv:
    i = argv.index("--tol"); tol = float(argv[i + 1]); del argv[i:i + 2]
hf, ours_p, limit, *files = argv
limit = int(limit)
here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("hfnp", os.path.join(here, "..", "lib", "hf_gpt2_numpy.py"))
hfnp = importlib.util.module_from_spec(spec); spec.loader.exec_module(hfnp)
hfnp.read_safetensors = functools.lru_cache(maxsize=None)(hfnp.read_safetensors)
cfg = json.load(open(os.path.join(hf, "config.json")))
max_len = cfg["n_positions"]
tok = Tokenizer(models.BPE.from_file(os.path.join(hf, "vocab.json"), os.path.join(hf, "merges.txt")))
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
tok.decoder = decoders.ByteLevel()
enc = lambda s: tok.encode(s).ids if s else []
eot = json.load(open(os.path.join(hf, "vocab.json")))["<|endoftext|>"]


def requests(o):
    """(contexts, continuations, choice strings for acc_norm, gold, norm defined) by lm-eval's task configs."""
    if all(k in o for k in ("sentence", "option1", "option2")):
        i = o["sentence"].index("_")
        target = o["sentence"][i + 1:].strip()
        ctx = [o["sentence"][:i] + o["option1"], o["sentence"][:i] + o["option2"]]
        return ctx, [" " + target] * 2, ctx, {"1": 0, "2": 1}[str(o["answer"])], False
    if all(k in o for k in ("goal", "sol1", "sol2")):
        ch = [o["sol1"], o["sol2"]]
        return ["Question: " + o["goal"] + "\nAnswer:"] * 2, [" " + c for c in ch], ch, int(o["label"]), True
    if "question" in o:
        ch = o["choices"]["text"]
        return (["Question: " + o["question"] + "\nAnswer:"] * len(ch), [" " + c for c in ch], ch,
                o["choices"]["label"].index(o["answerKey"]), True)
    ch = o["choices"]
    return [o["query"]] * len(ch), [" " + c for c in ch], ch, int(o["gold"]), True


def loglikelihood(context, continuation):
    if context == "":
        cenc, kenc = [eot], enc(continuation)
    else:
        n = len(context) - len(context.rstrip())
        if n:
            continuation, context = context[-n:] + continuation, context[:-n]
        whole, cenc = enc(context + continuation), enc(context)
        kenc = whole[len(cenc):]
    seq = (cenc + kenc)[-(max_len + 1):]
    inp, tgt = seq[:-1], seq[1:]
    logits = hfnp.forward(hf, inp)[-len(kenc):]
    logits = logits - logits.max(-1, keepdims=True)
    lp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    return float(sum(lp[i, t] for i, t in enumerate(tgt[-len(kenc):]))), len(cenc) + len(kenc) > max_len + 1


ours = {}
for l in open(ours_p, encoding="utf-8"):
    o = json.loads(l)
    ours[(o["task"], o["item"])] = o
sys.path.insert(0, os.path.join(here, "..", "..", "tests", "e2e"))
from decont_items import task_name  # noqa: E402
bad = 0
for f in files:
    name = task_name(f)
    worst, n, acc, accn, cut = 0.0, 0, 0, 0, 0
    for i, line in enumerate(open(f, encoding="utf-8")):
        if i >= limit:
            break
        ctx, cont, ch, gold, norm = requests(json.loads(line))
        res = [loglikelihood(a, b) for a, b in zip(ctx, cont)]
        ll = [r[0] for r in res]
        cut += sum(r[1] for r in res)
        o = ours.get((name, i))
        if o is None or len(o["loglikelihoods"]) != len(ll):
            bad += 1; print(f"{name}: item {i}: missing in ours", file=sys.stderr); continue
        d = max(abs(a - b) for a, b in zip(ll, o["loglikelihoods"]))
        worst = max(worst, d)
        pred = int(np.argmax(ll)); predn = int(np.argmax(np.array(ll) / np.array([float(len(c)) for c in ch])))
        acc += pred == gold; accn += predn == gold; n += 1
        if d > tol or pred != o["pred"] or (norm and predn != o["pred_norm"]):
            bad += 1
            print(f"{name}: item {i}: reference {ll} (pred {pred}, {predn}); ours {o['loglikelihoods']} "
                  f"(pred {o['pred']}, {o['pred_norm']})", file=sys.stderr)
    print(f"{name}: {n} items, worst |ll difference| {worst:.2e}, acc {acc / max(n, 1):.4f}"
          + (f" acc_norm {accn / max(n, 1):.4f}" if norm else "") + f", {cut} requests cut")
sys.exit(1 if bad else 0)
