"""Make tiktoken's "gpt2" encoding load offline from the project's data/gpt2/
files (FORMATS.md section 3: the cache file names are the sha1 of the URLs)."""
import os
import shutil
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def gpt2_encoding(data_dir=None):
    data_dir = data_dir or os.path.join(ROOT, "data", "gpt2")
    cache = os.path.join(tempfile.gettempdir(), "webtext-tiktoken-cache")
    os.makedirs(cache, exist_ok=True)
    for src, name in (("vocab.bpe", "6d1cbeee0f20b3d9449abfede4726ed8212e3aee"),
                      ("encoder.json", "6c7ea1a7e38e3a7f062df639a5b80947f075ffe6")):
        dst = os.path.join(cache, name)
        if not os.path.exists(dst):
            shutil.copyfile(os.path.join(data_dir, src), dst)
    os.environ["TIKTOKEN_CACHE_DIR"] = cache
    import tiktoken
    return tiktoken.get_encoding("gpt2")


def read_jsonl(path):
    """Lines of a .jsonl, .jsonl.zst or .jsonl.gz file, decoded as UTF-8."""
    import subprocess
    if path.endswith(".zst"):
        data = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
    elif path.endswith(".gz"):
        import gzip
        data = gzip.open(path).read()
    else:
        data = open(path, "rb").read()
    return data.decode("utf-8", "replace").splitlines()
