"""bench_decont.py - the peers of decontaminate on the same documents, one thread:
lm-evaluation-harness's Janitor (its Python path: the C++ module is not built by its wheel)
and datatrove's NGramsDecontFilter, each with the items of data/eval registered as
decontaminate registers them. Prints "janitor SECONDS" / "datatrove SECONDS" for the documents
of DOCS (the index built beforehand, not timed).
  bench_decont.py cut|drop DOCS EVAL..."""
import importlib.util, json, os, sys, tempfile, time, types

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from decont_items import load_items  # noqa: E402

mode, docs_p, *evals = sys.argv[1:]
texts = [json.loads(l).get("text") for l in open(docs_p, encoding="utf-8")]
texts = [t for t in texts if isinstance(t, str)]
items = [it for e in evals for it in load_items(e)]
if mode == "cut":
    pkg = importlib.util.find_spec("lm_eval")
    spec = importlib.util.spec_from_file_location("janitor", os.path.join(pkg.submodule_search_locations[0], "decontamination", "janitor.py"))
    jm = importlib.util.module_from_spec(spec)
    out, sys.stdout = sys.stdout, sys.stderr
    spec.loader.exec_module(jm)
    jan = jm.Janitor(ngram_n=13)
    for _, _, q, g in items:
        jan.register_contaminant_python((q or "") + " " + (g or ""))
    sys.stdout = out
    t0 = time.perf_counter()
    for t in texts:
        jan.clean_python(t)
    print("janitor %.3f" % (time.perf_counter() - t0))
else:
    from datatrove.data import Document
    from datatrove.pipeline.decont.n_grams import NGramsDecontConfig, NGramsDecontFilter, NGramsDecontIndexer
    from datatrove.utils.hashing import create_hash_func
    from datatrove.utils.word_tokenizers import load_word_tokenizer
    cfg = NGramsDecontConfig(n_grams=13)
    me = types.SimpleNamespace(config=cfg, tokenizer=load_word_tokenizer("en"), hash_func=create_hash_func(cfg.hash_config))
    hashes = {}
    for task, _, q, g in items:
        hashes.setdefault(task, set()).update(NGramsDecontIndexer.compute_hashes(me, g or "", q))
    with tempfile.TemporaryDirectory() as tmp:
        for task, hs in hashes.items():
            np.array(sorted(hs), dtype="<u8").tofile(os.path.join(tmp, f"{task}.index.hashes"))
        f = NGramsDecontFilter(index_folder=tmp, config=cfg)
        f.filter(Document(text="warm up", id="0"))
        t0 = time.perf_counter()
        for i, t in enumerate(texts):
            f.filter(Document(text=t, id=str(i)))
        print("datatrove %.3f" % (time.perf_counter() - t0))
