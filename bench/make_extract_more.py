"""make_extract_more.py MIRRORS OUT_DIR [N] - extract's further whole-text quality sets, from the
public boilerplate-removal benchmarks (each defines "content" its own way; all are scored with
the same measure, 4-token shingles as the fullset):

  dragnet    Dragnet's pages (seomoz/dragnet_data: news and blog articles, 2012), the
             article text without the comments after its "!@#$%^&*() COMMENTS" line;
  cleaneval  CleanEval's final set (2007: mixed English pages), its text without the <p>, <h>,
             <l> marks and the URL line;
  portal     CleanPortalEval (ppke-nlpg: news portal pages, Hungarian and English), as CleanEval;
  l3s        L3S-GN1 (Kohlschuetter et al. 2010: Google News pages in English), the text its
             annotators marked headline, full text or supplemental (x-nc-sel1..3), not related
             content or comments;
  big5       Big5 (Utomo & Leu: pages of nine news sites from 2005, 2009, 2013 and 2017; for
             research use), its gold text;
  chaos      Chaos (the same authors: 2017 news pages from about 240 sites), its gold text;
  gtrends    Google-Trends-2017 (BoilerNet's pages, Leonhardt et al. 2020: pages of any kind
             found for Google's trending queries), the text of the elements labelled content.

The first four come from github.com/j-szulc/html-cleaning-dataset-merged (their inputs and gold
standards in one layout), Big5 and Chaos from github.com/MSVCode/ir-research-data (Extraction/),
Google-Trends-2017 from github.com/sakata-yusuke-75/boilernet_japanese at commit f40a7a7
(datasets/googletrends: raw_html, and prepared_html with the labels). MIRRORS: a folder with
those three checkouts as j-szulc+html-cleaning-dataset-merged, MSVCode+ir-research-data and
sakata-yusuke-75+boilernet_japanese (each a checkout, or a bare git directory "repo" in it,
read with git show at its commit). Each set: the pages ordered by the SHA-1 of their names
(content-blind), the first N (default 100), the first half "dev" (tuning), the rest "test"
(kept unread while tuning). Written: OUT_DIR/SET.warc.zst and OUT_DIR/SET.json, as
make_extract_fullset.py writes them.
"""
import hashlib
import os
import re
import subprocess
import sys
import tempfile

import lxml.html
from extract_sets import write_set


class Repo:
    def __init__(self, base, name, commit="HEAD"):
        d = os.path.join(base, name)
        self.git = os.path.join(d, "repo") if os.path.isdir(os.path.join(d, "repo")) else d
        self.commit = commit

    def ls(self, path):
        out = subprocess.run(["git", "--git-dir" if self.git.endswith("repo") else "-C", self.git, "ls-tree",
                              "--name-only", self.commit, path.rstrip("/") + "/"], check=True,
                             capture_output=True).stdout.decode("utf-8")
        return [l for l in out.split("\n") if l]

    def read(self, path):
        return subprocess.run(["git", "--git-dir" if self.git.endswith("repo") else "-C", self.git, "show",
                               "%s:%s" % (self.commit, path)], check=True, capture_output=True).stdout


def text(b):
    return b.decode("utf-8", "replace")


def lines(s):
    return "\n".join(re.sub(r"\s+", " ", l).strip() for l in s.split("\n") if l.strip())


def cleaneval_truth(b):
    s = text(b)
    s = re.sub(r"^\s*URL:[^\n]*\n", "", s)
    s = re.sub(r"<(p|h|l)>", "\n", s)
    return lines(s.replace("&#039;", "'").replace("&amp;", "&").replace("&quot;", '"'))


def dragnet_truth(b):
    return lines(re.split(r"!@#\$%\^&\*\(\)\s*COMMENTS", text(b))[0])


def marked_truth(b, attr_test):
    root = lxml.html.fromstring(b)
    parts = []
    for el in root.iter():
        if isinstance(el.tag, str) and attr_test(el):
            # the element's own text, and its children's unless marked themselves (counted once)
            t = el.text_content()
            if t.strip():
                parts.append(t)
    return lines("\n".join(parts))


def l3s_truth(b):
    want = {"x-nc-sel1", "x-nc-sel2", "x-nc-sel3"}

    def ok(el):
        if not (set((el.get("class") or "").split()) & want):
            return False
        p = el.getparent()  # nested marks: the outermost only
        while p is not None:
            if set((p.get("class") or "").split()) & want:
                return False
            p = p.getparent()
        return True
    return marked_truth(b, ok)


def gtrends_truth(b):
    def ok(el):
        if el.get("__boilernet_label") != "1":
            return False
        p = el.getparent()
        while p is not None:
            if p.get("__boilernet_label") == "1":
                return False
            p = p.getparent()
        return True
    return marked_truth(b, ok)


def gtrends_pairs(repo):
    """raw_html/NNN.html and prepared_html/gt_K.html are numbered apart: each prepared page is
    paired with the raw page sharing most of its ASCII words (Jaccard; the prepared copies lost
    their other characters), when that share is over 0.3."""
    def words(b):
        try:
            t = lxml.html.fromstring(b).text_content()
        except Exception:
            return set()
        return set(re.findall(r"[A-Za-z0-9]{3,}", t))
    raw = [(r, words(repo.read(r))) for r in repo.ls("datasets/googletrends/raw_html") if r.endswith(".html")]
    out = []
    for p in repo.ls("datasets/googletrends/prepared_html"):
        if not p.endswith(".html"):
            continue
        w = words(repo.read(p))
        best, score = None, 0.0
        for r, rw in raw:
            j = len(w & rw) / max(1, len(w | rw))
            if j > score:
                best, score = r, j
        if best and score > 0.3:
            out.append((os.path.basename(best)[:-5], best, p))
    return out


def pairs_dir(repo, inp, gold, html_ext, gold_ext):
    golds = {os.path.basename(g)[:-len(gold_ext)] for g in repo.ls(gold) if g.endswith(gold_ext)}
    out = []
    for p in repo.ls(inp):
        name = os.path.basename(p)
        if name.endswith(html_ext) and name[:-len(html_ext)] in golds:
            stem = name[:-len(html_ext)]
            out.append((stem, p, "%s/%s%s" % (gold, stem, gold_ext)))
    return out


def main():
    base, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    only = sys.argv[4:] or None
    js = Repo(base, "j-szulc+html-cleaning-dataset-merged")
    ms = Repo(base, "MSVCode+ir-research-data")
    bn = Repo(base, "sakata-yusuke-75+boilernet_japanese", "f40a7a7")
    sets = {
        "dragnet": (js, pairs_dir(js, "dragnet_data/input", "dragnet_data/GoldStandard", ".html", ".txt"), dragnet_truth),
        "cleaneval": (js, pairs_dir(js, "cleaneval-final/input", "cleaneval-final/GoldStandard", ".html", ".txt"),
                      cleaneval_truth),
        "portal": (js, pairs_dir(js, "CleanPortalEval-master/input", "CleanPortalEval-master/GoldStandard", ".html",
                                 ".txt"), cleaneval_truth),
        "l3s": (js, pairs_dir(js, "page-signal-master/input", "page-signal-master/GoldStandard", ".html", ".txt"),
                l3s_truth),
        "big5": (ms, [("%s/%s" % (y, s), h, g) for y in ("big5-05", "big5-09", "big5-13", "big5-17")
                      for s, h, g in pairs_dir(ms, "Extraction/%s/html" % y, "Extraction/%s/gold" % y, ".htm", ".txt")],
                 lambda b: lines(text(b))),
        "chaos": (ms, pairs_dir(ms, "Extraction/chaos-all/html", "Extraction/chaos-all/gold", ".htm", ".txt"),
                  lambda b: lines(text(b))),
        "gtrends": (bn, gtrends_pairs(bn) if not only or "gtrends" in only else [], gtrends_truth),
    }
    for name, (repo, pairs, truth_of) in sets.items():
        if only and name not in only:
            continue
        pairs = sorted(pairs, key=lambda p: hashlib.sha1(p[0].encode()).hexdigest())
        items = []
        with tempfile.TemporaryDirectory() as tmp:
            for stem, h, g in pairs:
                if len(items) == n:
                    break
                truth = truth_of(repo.read(g))
                if len(re.findall(r"\w+", truth)) < 20:  # an empty or near-empty gold standard: not scored
                    continue
                path = os.path.join(tmp, "%d.html" % len(items))
                with open(path, "wb") as f:
                    f.write(repo.read(h))
                items.append((re.sub(r"[^A-Za-z0-9_.-]+", "_", stem), path, truth))
            write_set(out, name, items, "http://" + name + "/%s/")


main()
