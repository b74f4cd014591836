"""What states and asks look like in general: the yardstick every similarity is read against.

A raw cosine says little on its own: short labels, long asks, Spanish or English texts
each sit at their own typical similarity to everything. Two fixed lists written for Vigia
(``reference_states.txt``: ordinary messages on many subjects; ``reference_asks.txt``:
yes/no asks of the kind callers send; a third each in es/pt/en) give the yardstick:

- every vector is centred on the mean reference state and re-normalised (the direction
  all sentences share carries no meaning);
- a candidate (option, level, ask) is read by how much closer the state is to it than
  the reference states are (``closeness``), and for binary asks also in units of their
  spread (``ask_z``) and against the reference asks (``state_z``).

Loaded once per encoder (about 190 texts, embedded one by one like any text).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vigia.decide.encoder import TextEncoder
from vigia.decide.texts import statement
from vigia.kit.cache import LRUCache

Array = NDArray[np.float64]
HERE = Path(__file__).parent


def _lines(name: str) -> list[str]:
    text = (HERE / name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


REFERENCE_STATES = _lines("reference_states.txt")
REFERENCE_ASKS = _lines("reference_asks.txt")


def centred(vectors: NDArray[np.floating], centre: Array) -> Array:
    """Rows minus the centre, re-normalised (float64)."""
    moved = vectors.astype(np.float64) - centre
    unit: Array = moved / np.maximum(np.linalg.norm(moved, axis=-1, keepdims=True), 1e-12)
    return unit


@dataclass(frozen=True)
class Reference:
    """The reference states and asks of one encoder, centred."""

    centre: Array
    states: Array
    asks: Array

    @cached_property
    def mean_state(self) -> Array:
        """The mean of the centred reference states (a candidate's mean cosine to them is
        its dot product with this)."""
        mean: Array = self.states.mean(axis=0)
        return mean

    def closeness(self, state: Array, candidates: Array) -> Array:
        """Centred cosine of the state to each candidate minus the reference states' mean."""
        return candidates @ (state - self.mean_state)

    def ask_z(self, state: Array, ask: Array) -> float:
        """The state's cosine to the ask, in spreads above the reference states' cosines."""
        baseline = self.states @ ask
        return float((state @ ask - baseline.mean()) / max(float(baseline.std()), 1e-6))

    def state_z(self, state: Array, ask: Array) -> float:
        """The state's cosine to the ask, in spreads above its cosines to the reference asks."""
        baseline = self.asks @ state
        return float((state @ ask - baseline.mean()) / max(float(baseline.std()), 1e-6))


_REFERENCES: LRUCache[str, Reference] = LRUCache(4)


def get_reference(encoder: TextEncoder, name: str) -> Reference:
    """The reference of encoder ``name`` (embedded once per process and encoder model)."""
    key = encoder.encoders[name].name
    found = _REFERENCES.get(key)
    if found is None:
        states = encoder.embed(REFERENCE_STATES, [name])[name].astype(np.float64)
        ask_texts = [statement(ask) for ask in REFERENCE_ASKS]
        asks = encoder.embed(ask_texts, [name])[name].astype(np.float64)
        centre = states.mean(axis=0)
        found = Reference(centre, centred(states, centre), centred(asks, centre))
        _REFERENCES.put(key, found)
    return found
