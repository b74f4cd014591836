"""Shared data of the decisions tests: the spec's example and a fake encoder."""

from __future__ import annotations

import zlib

import numpy as np

from vigia.decide.spec_example import SPEC_QUESTIONS, SPEC_STATE

SPEC_BODY = {"state": SPEC_STATE, "questions": SPEC_QUESTIONS}


class HashEmbedder:
    """A fake encoder: a fixed pseudo-random unit vector per text (meaning is ignored)."""

    name = "fake"
    dim = 512

    def queries(self, texts: list[str]) -> np.ndarray:
        rows = []
        for text in texts:
            rng = np.random.default_rng(zlib.crc32(text.encode()))
            vector = rng.normal(size=self.dim)
            rows.append(vector / np.linalg.norm(vector))
        return np.array(rows, dtype=np.float32)

    def passages(self, texts: list[str]) -> np.ndarray:
        return self.queries(texts)
