"""Megatron-LM mmap indexed dataset (.bin/.idx), written from FORMATS.md section 1
with numpy only: an independent reader and writer to check our C tools against."""
import numpy as np

MAGIC = b"MMIDIDX\x00\x00"
DTYPES = {1: np.uint8, 2: np.int8, 3: np.int16, 4: np.int32, 5: np.int64, 6: np.float64, 7: np.float32, 8: np.uint16}
CODES = {np.dtype(v): k for k, v in DTYPES.items()}


class Dataset:
    """Reads PREFIX.bin/.idx and checks every invariant of the format."""

    def __init__(self, prefix):
        idx = open(prefix + ".idx", "rb").read()
        assert idx[:9] == MAGIC, f"{prefix}.idx: bad magic {idx[:9]!r}"
        version = int(np.frombuffer(idx, np.uint64, 1, 9)[0])
        assert version == 1, f"{prefix}.idx: version {version}"
        code = idx[17]
        assert code in DTYPES, f"{prefix}.idx: dtype code {code}"
        self.dtype = np.dtype(DTYPES[code])
        n = int(np.frombuffer(idx, np.uint64, 1, 18)[0])
        d = int(np.frombuffer(idx, np.uint64, 1, 26)[0])
        off = 34
        self.lengths = np.frombuffer(idx, np.int32, n, off)
        off += 4 * n
        self.pointers = np.frombuffer(idx, np.int64, n, off)
        off += 8 * n
        self.doc_idx = np.frombuffer(idx, np.int64, d, off)
        off += 8 * d
        assert len(idx) in (off, off + n), f"{prefix}.idx: {len(idx)} bytes, expected {off}"
        self.bin = np.memmap(prefix + ".bin", self.dtype, "r") if n and self.lengths.sum() else np.zeros(0, self.dtype)
        item = self.dtype.itemsize
        assert (self.lengths >= 0).all()
        expect = np.concatenate([[0], np.cumsum(self.lengths.astype(np.int64) * item)])
        assert (self.pointers == expect[:-1]).all(), f"{prefix}.idx: pointers are not the running sum"
        assert self.bin.size * item == expect[-1], f"{prefix}.bin: size {self.bin.size * item}, index says {expect[-1]}"
        assert d >= 1 and self.doc_idx[0] == 0 and self.doc_idx[-1] == n, f"{prefix}.idx: document index ends"
        assert (np.diff(self.doc_idx) >= 0).all(), f"{prefix}.idx: document index not sorted"
        self.n_seq, self.n_docs = n, d - 1

    def sequence(self, i):
        item = self.dtype.itemsize
        start = int(self.pointers[i]) // item
        return self.bin[start:start + int(self.lengths[i])]

    def document(self, k):
        """Concatenated tokens of document k (all of its sequences)."""
        lo, hi = int(self.doc_idx[k]), int(self.doc_idx[k + 1])
        if lo == hi:
            return np.zeros(0, self.dtype)
        return np.concatenate([self.sequence(i) for i in range(lo, hi)])


def write(prefix, documents, dtype=np.uint16):
    """documents: a list of lists of sequences (each a list of ids)."""
    lengths, docs, data = [], [0], []
    for doc in documents:
        for seq in doc:
            lengths.append(len(seq))
            data.append(np.asarray(seq, dtype))
        docs.append(len(lengths))
    item = np.dtype(dtype).itemsize
    lengths = np.asarray(lengths, np.int32)
    pointers = np.concatenate([[0], np.cumsum(lengths.astype(np.int64) * item)])[:-1].astype(np.int64)
    with open(prefix + ".bin", "wb") as f:
        for a in data:
            f.write(a.tobytes())
    with open(prefix + ".idx", "wb") as f:
        f.write(MAGIC)
        f.write(np.uint64(1).tobytes())
        f.write(bytes([CODES[np.dtype(dtype)]]))
        f.write(np.uint64(len(lengths)).tobytes())
        f.write(np.uint64(len(docs)).tobytes())
        f.write(lengths.tobytes())
        f.write(pointers.tobytes())
        f.write(np.asarray(docs, np.int64).tobytes())
