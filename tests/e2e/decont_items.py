"""decont_items.py - the (task, index, context, answer) items of an evaluation file, by the
rules decontaminate reads them with (preprocess/decont/evalset.h), written again in Python
for the tests: HellaSwag, ARC, PIQA, Winogrande, or "text" (answer) records."""
import json, os


def task_name(path):
    b = os.path.basename(path)
    while True:
        for e in (".zst", ".gz", ".jsonl", ".json"):
            if len(b) > len(e) and b.endswith(e):
                b = b[: -len(e)]
                break
        else:
            return b


def item(o):
    if all(k in o for k in ("sentence", "option1", "option2")):
        s, a = o["sentence"], int(o["answer"])
        i = s.index("_")
        return s[:i] + o["option%d" % a], s[i + 1:].lstrip(" ")
    if all(k in o for k in ("goal", "sol1", "sol2")):
        return o["goal"], o["sol2" if int(o["label"]) else "sol1"]
    ch = o.get("choices", o.get("endings"))
    if "question" in o and isinstance(ch, dict):
        return o["question"], ch["text"][ch["label"].index(o["answerKey"])]
    if ("query" in o or "ctx" in o) and isinstance(ch, list):
        g = o.get("gold", o.get("label"))
        return o.get("query", o.get("ctx")), ch[int(g)]
    return None, o["text"]


def load_items(path):
    t = task_name(path)
    return [(t, i, *item(json.loads(l))) for i, l in enumerate(open(path, encoding="utf-8")) if l.strip()]
