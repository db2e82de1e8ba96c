"""decont_reference.py - what the references decide for decontaminate's tests.

  decont_reference.py docs EVAL... MODE N > expected.jsonl
cut:  lm-evaluation-harness's Janitor (lm_eval/decontamination/janitor.py, its Python path,
      loaded from the file so lm_eval's heavy package is not imported), each item
      registered as its context, a space, its answer: per document {"doc", "result":
      "clean" | "dropped" | [pieces]}.
drop: datatrove's NGramsDecontFilter over an index its NGramsDecontIndexer.compute_hashes
      builds from the same items (the indexer's run() fetches tasks from the hub): per
      document {"doc", "result": "clean" | "dropped", "task", "ngram"}.
The items are read by tests/e2e/decont_items.py's rules (the formats of data/eval).
"""
import importlib.util, json, os, sys, tempfile, types

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from decont_items import load_items  # noqa: E402

docs_path, *evals, mode, n = sys.argv[1:]
n = int(n)
docs = [json.loads(l) for l in open(docs_path, encoding="utf-8")]
items = [it for e in evals for it in load_items(e)]

if mode == "cut":
    pkg = importlib.util.find_spec("lm_eval")  # found, not imported
    path = os.path.join(pkg.submodule_search_locations[0], "decontamination", "janitor.py")
    spec = importlib.util.spec_from_file_location("janitor", path)
    jm = importlib.util.module_from_spec(spec)
    sys.stdout, out = sys.stderr, sys.stdout  # its import prints a warning about the C++ module
    spec.loader.exec_module(jm)
    jan = jm.Janitor(ngram_n=n)
    for task, idx, q, g in items:
        jan.register_contaminant_python((q or "") + " " + (g or ""))
    sys.stdout = out
    for i, d in enumerate(docs):
        s = d.get("text")
        if not isinstance(s, str):
            print(json.dumps({"doc": i, "result": "clean"})); continue
        hits = [(None, *idx) for ng, idx in jm.word_ngrams_indices(s, n) if jan.normalize_string(ng) in jan.dirt_ngrams]
        if not hits:
            print(json.dumps({"doc": i, "result": "clean"})); continue
        chunks = jan._split_chunks(s, hits)
        print(json.dumps({"doc": i, "result": chunks if chunks else "dropped"}, ensure_ascii=False))
else:
    from datatrove.data import Document
    from datatrove.pipeline.decont.n_grams import NGramsDecontConfig, NGramsDecontFilter, NGramsDecontIndexer
    from datatrove.utils.hashing import create_hash_func
    from datatrove.utils.word_tokenizers import load_word_tokenizer
    cfg = NGramsDecontConfig(n_grams=n)
    me = types.SimpleNamespace(config=cfg, tokenizer=load_word_tokenizer("en"), hash_func=create_hash_func(cfg.hash_config))
    hashes = {}
    for task, idx, q, g in items:
        hashes.setdefault(task, set()).update(NGramsDecontIndexer.compute_hashes(me, g or "", q))
    with tempfile.TemporaryDirectory() as tmp:
        for task, hs in hashes.items():
            np.array(sorted(hs), dtype="<u8").tofile(os.path.join(tmp, f"{task}.index.hashes"))
        f = NGramsDecontFilter(index_folder=tmp, config=cfg)
        for i, d in enumerate(docs):
            s = d.get("text")
            if not isinstance(s, str):
                print(json.dumps({"doc": i, "result": "clean"})); continue
            doc = Document(text=s, id=str(i))
            r = f.filter(doc)
            if r is True:
                print(json.dumps({"doc": i, "result": "clean"}))
            else:
                print(json.dumps({"doc": i, "result": "dropped", "task": doc.metadata["contaminated_task"],
                                  "ngram": doc.metadata["contaminated_ngram"]}, ensure_ascii=False))
