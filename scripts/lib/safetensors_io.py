"""Minimal safetensors reader/writer (FORMATS.md section 7) with numpy only:
8-byte little-endian header length, JSON header {name: {dtype, shape,
data_offsets}} plus optional "__metadata__" (str -> str), then raw data."""
import json
import struct

import numpy as np

DT = {"F32": np.float32, "F64": np.float64, "I32": np.int32, "I64": np.int64, "F16": np.float16,
      "BF16": None, "U8": np.uint8, "U16": np.uint16}
CODE = {np.dtype(np.float32): "F32", np.dtype(np.float64): "F64", np.dtype(np.int32): "I32",
        np.dtype(np.int64): "I64", np.dtype(np.float16): "F16", np.dtype(np.uint8): "U8", np.dtype(np.uint16): "U16"}


def save(path, tensors, metadata=None):
    header, blobs, off = {}, [], 0
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name, arr in tensors.items():
        arr = np.ascontiguousarray(arr)
        b = arr.tobytes()
        header[name] = {"dtype": CODE[arr.dtype], "shape": list(arr.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def load(path):
    data = open(path, "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__", {})
    out = {}
    for name, t in header.items():
        a, b = t["data_offsets"]
        if t["dtype"] == "BF16":
            raw = np.frombuffer(data[8 + n + a:8 + n + b], np.uint16).astype(np.uint32) << 16
            out[name] = raw.view(np.float32).reshape(t["shape"])
        else:
            out[name] = np.frombuffer(data[8 + n + a:8 + n + b], DT[t["dtype"]]).reshape(t["shape"])
    return out, meta
