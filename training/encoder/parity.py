"""What pruning and int8 cost: the figures of ``export.json``.

On the 2,000-text equivalence sample and on held-out es/pt/en text (``corpus.HELD_OUT_FILES``,
never read to choose the vocabulary; texts of at most 500 tokens, one window): how many
texts the pruned tokenizer segments differently and how many extra ``<unk>`` it makes;
the cosine of the pruned fp32 model to the full one, of ONNX fp32 to torch (the export),
and of ONNX int8 to both; the p50 latency of one 300-character message on one thread;
the memory of the loaded int8 session; the files' sizes and digests.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch

from training.encoder import corpus, prune
from training.encoder.embed import embed_texts, encoder_pooled, pad_batch, windows
from training.encoder.export import Built
from training.encoder.tokenizer import E5Tokenizer


class OnnxEmbedder:
    """An ONNX Runtime session of the exported graph, called like ``E5Encoder.pooled``."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"]
        )

    def __call__(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        feeds = {"input_ids": ids.numpy(), "attention_mask": mask.numpy()}
        (out,) = self.session.run(["embedding"], feeds)
        # A normalized vector stands in for the window mean: the same result for texts of
        # one window, the only ones measured here.
        return torch.from_numpy(np.asarray(out))


def _cos(a: torch.Tensor, b: torch.Tensor) -> dict[str, float]:
    c = (a * b).sum(dim=1).numpy()
    return {
        "min": round(float(c.min()), 5),
        "p01": round(float(np.quantile(c, 0.01)), 5),
        "mean": round(float(c.mean()), 5),
    }


def _segmentation(built: Built, texts: list[str]) -> dict[str, float]:
    full, pruned, keep = built.full_tokenizer, built.tokenizer, built.keep
    changed = unk = total = 0
    for text in texts:
        a = full.content_ids("passage: " + text)
        b = [int(keep[i]) for i in pruned.content_ids("passage: " + text)]
        changed += a != b
        unk += b.count(full.unk) - a.count(full.unk)
        total += len(b)
    return {
        "texts": len(texts),
        "texts_resegmented": changed,
        "share_resegmented": round(changed / len(texts), 4),
        "tokens": total,
        "extra_unk_tokens": unk,
    }


_MEMORY_PROBE = """
import sys, numpy, onnxruntime
def rss():
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * 4096 / 2**20
before = rss()
options = onnxruntime.SessionOptions()
options.intra_op_num_threads = 1
session = onnxruntime.InferenceSession(sys.argv[1], options, providers=["CPUExecutionProvider"])
ids = numpy.ones((1, 80), dtype=numpy.int64)
session.run(["embedding"], {"input_ids": ids, "attention_mask": ids})
print(round(rss() - before, 1))
"""


def session_memory_mib(path: Path) -> float:
    """Resident memory that loading the session and one 80-token call add, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, str(path)], capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip())


def _latency_ms(embedder: OnnxEmbedder, tokenizer: E5Tokenizer, text: str) -> float:
    timings = []
    for _ in range(40):
        t0 = time.perf_counter()
        ids, mask = pad_batch(windows(tokenizer, "query: " + text), tokenizer.pad)
        embedder(ids, mask)
        timings.append(time.perf_counter() - t0)
    return round(float(np.median(timings[10:])) * 1000, 2)


def measure(built: Built, data: Path) -> dict[str, object]:
    """All figures, as a JSON-ready dict."""
    t0 = time.perf_counter()
    sample = corpus.sample_by_language(corpus.read_files(data, corpus.TRAIN_FILES), 2000)
    held = [t for _, t in corpus.read_files(data, corpus.HELD_OUT_FILES)]
    threads = torch.get_num_threads()
    int8 = OnnxEmbedder(built.int8_path, threads)
    fp32 = OnnxEmbedder(built.fp32_path, threads)
    figures: dict[str, object] = {}
    for name, group in (("equivalence_sample", [t for _, t in sample]), ("held_out", held)):
        short = [t for t in group if len(built.full_tokenizer.content_ids("passage: " + t)) <= 500]
        e_full = embed_texts(encoder_pooled(built.full), built.full_tokenizer, short)
        e_pruned = embed_texts(encoder_pooled(built.encoder), built.tokenizer, short)
        e_onnx32 = embed_texts(fp32, built.tokenizer, short)
        e_onnx8 = embed_texts(int8, built.tokenizer, short)
        figures[name] = {
            "segmentation": _segmentation(built, short),
            "cosine_pruned_fp32_vs_full_fp32": _cos(e_pruned, e_full),
            "cosine_onnx_fp32_vs_torch_pruned_fp32": _cos(e_onnx32, e_pruned),
            "cosine_onnx_int8_vs_torch_pruned_fp32": _cos(e_onnx8, e_pruned),
            "cosine_onnx_int8_vs_full_fp32": _cos(e_onnx8, e_full),
        }
    measured = round(time.perf_counter() - t0, 1)

    one = OnnxEmbedder(built.int8_path, threads=1)
    message = " ".join(held)[:300]
    figures["latency_ms_p50_one_thread_300_chars"] = _latency_ms(one, built.tokenizer, message)
    figures["int8_session_rss_mib"] = session_memory_mib(built.int8_path)
    figures["kept_pieces"] = len(built.keep)
    figures["words_per_language"] = prune.WORDS_PER_LANGUAGE
    out = built.int8_path.parent
    figures["files"] = {
        p.name: {"bytes": p.stat().st_size, "sha256": hashlib.sha256(p.read_bytes()).hexdigest()}
        for p in sorted(out.iterdir())
        if p.suffix in (".onnx", ".json") and p.name != "export.json"
    }
    figures["wall_seconds"] = {**built.wall_seconds, "measure": measured}
    return figures
