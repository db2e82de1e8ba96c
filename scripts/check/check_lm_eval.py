"""check_lm_eval.py - bin/evaluate against lm-evaluation-harness itself.

  check_lm_eval.py HF_DIR OURS.jsonl LIMIT TASK_FILE... [--tol 1e-4]

HF_DIR: the checkpoint exported by convert_checkpoint --to hf; OURS.jsonl: bin/evaluate
--output on the same checkpoint, tasks and --limit. Each task file (JSON lines of HellaSwag,
ARC, PIQA or Winogrande records, as data/eval holds them) becomes a local lm-eval task with
the prompts of lm-eval's own task configs (hellaswag, arc_easy, piqa, winogrande), since no hub
is reachable; lm_eval.simple_evaluate runs it zero-shot with HFLM (fp32, CPU) and
log_samples. Checked: every choice's log-likelihood within --tol of ours, and acc and
acc_norm equal. Prints one line per task; exit 1 on any difference."""
import json, os, sys, tempfile

args = [a for a in sys.argv[1:] if not a.startswith("--tol")]
tol = 1e-4
if "--tol" in sys.argv:
    tol = float(sys.argv[sys.argv.index("--tol") + 1])
    args.remove(str(sys.argv[sys.argv.index("--tol") + 1]))
hf, ours_p, limit, *files = args
limit = int(limit)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "e2e"))
from decont_items import task_name  # noqa: E402

WINO_UTILS = '''
def doc_to_text(doc):
    return {"1": 0, "2": 1}[str(doc["answer"])]
def doc_to_target(doc):
    idx = doc["sentence"].index("_") + 1
    return doc["sentence"][idx:].strip()
def doc_to_choice(doc):
    idx = doc["sentence"].index("_")
    return [doc["sentence"][:idx] + opt for opt in [doc["option1"], doc["option2"]]]
'''


def task_yaml(name, path):
    first = json.loads(open(path, encoding="utf-8").readline())
    head = (f"task: {name}\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    validation: {path}\n"
            "output_type: multiple_choice\nvalidation_split: validation\ntest_split: null\n")
    acc = "metric_list:\n  - metric: acc\n    aggregation: mean\n    higher_is_better: true\n"
    norm = "  - metric: acc_norm\n    aggregation: mean\n    higher_is_better: true\n"
    if "sentence" in first:  # lm-eval's winogrande.yaml
        return head + ("doc_to_text: !function utils.doc_to_text\ndoc_to_target: !function utils.doc_to_target\n"
                       "doc_to_choice: !function utils.doc_to_choice\n") + acc
    if "goal" in first:  # piqa.yaml
        return head + 'doc_to_text: "Question: {{goal}}\\nAnswer:"\ndoc_to_target: label\ndoc_to_choice: "{{[sol1, sol2]}}"\n' + acc + norm
    if "question" in first:  # arc_easy.yaml
        return head + ('doc_to_text: "Question: {{question}}\\nAnswer:"\ndoc_to_target: "{{choices.label.index(answerKey)}}"\n'
                       'doc_to_choice: "{{choices.text}}"\n') + acc + norm
    return head + 'doc_to_text: "{{query}}"\ndoc_to_target: "{{gold}}"\ndoc_to_choice: "choices"\n' + acc + norm  # hellaswag.yaml


import lm_eval  # noqa: E402
from lm_eval.models.huggingface import HFLM  # noqa: E402
from lm_eval.tasks import TaskManager  # noqa: E402

ours = {}
for l in open(ours_p, encoding="utf-8"):
    o = json.loads(l)
    ours[(o["task"], o["item"])] = o
with tempfile.TemporaryDirectory() as tmp:
    names = []
    for f in files:
        n = task_name(f)
        names.append(n)
        open(os.path.join(tmp, n + ".yaml"), "w").write(task_yaml(n, os.path.abspath(f)))
    open(os.path.join(tmp, "utils.py"), "w").write(WINO_UTILS)
    lm = HFLM(pretrained=hf, device="cpu", dtype="float32", batch_size=16)
    res = lm_eval.simple_evaluate(model=lm, tasks=names, num_fewshot=0, limit=limit, log_samples=True,
                                  task_manager=TaskManager(include_path=tmp), bootstrap_iters=0)
bad = 0
for n in names:
    worst, count = 0.0, 0
    for s in res["samples"][n]:
        o = ours.get((n, s["doc_id"]))
        theirs = [float(r[0]) for r in s["filtered_resps"]]
        if o is None or len(o["loglikelihoods"]) != len(theirs):
            bad += 1
            print(f"{n}: item {s['doc_id']}: ours {o and o['loglikelihoods']} theirs {theirs}", file=sys.stderr)
            continue
        d = max(abs(a - b) for a, b in zip(o["loglikelihoods"], theirs))
        worst = max(worst, d)
        count += 1
        if d > tol:
            bad += 1
            print(f"{n}: item {s['doc_id']}: ours {o['loglikelihoods']} theirs {theirs}", file=sys.stderr)
    r = res["results"][n]
    ours_acc = sum(ours[(n, i)]["pred"] == ours[(n, i)]["gold"] for i in range(count)) / max(count, 1)
    ours_norm = sum(ours[(n, i)]["pred_norm"] == ours[(n, i)]["gold"] for i in range(count)) / max(count, 1)
    same = abs(r["acc,none"] - ours_acc) < 1e-12 and ("acc_norm,none" not in r or abs(r["acc_norm,none"] - ours_norm) < 1e-12)
    bad += not same
    print(f"{n}: {count} items, worst |ll difference| {worst:.2e}; lm-eval acc {r['acc,none']:.4f}"
          + (f" acc_norm {r['acc_norm,none']:.4f}" if "acc_norm,none" in r else "")
          + f", ours acc {ours_acc:.4f}" + (f" acc_norm {ours_norm:.4f}" if "acc_norm,none" in r else "")
          + ("" if same else "  DIFFERENT"))
sys.exit(1 if bad else 0)
