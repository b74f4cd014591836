"""Measure the exported grounding cross-encoder on public claim sets it was not fitted on.

``python -m research.grounding_nli.evaluate --data DIR [--model DIR] [--mirrors DIR]``

- WiCE dev (``grounding/wice_dev.jsonl``): each claim against its article's sentences;
  partially supported counts as not supported. The premises read are the ``TOP``
  sentences of highest IDF-weighted claim-term coverage, one by one, and those ``TOP``
  joined in article order; the claim's score is the highest P(entailed).
- Climate-FEVER (tdiggelm/climate-fever-dataset): every third claim of the file that is not
  DISPUTED (461 of 1,381; the shared CPU does not allow all), each against its five
  evidence sentences, one by one and the top three joined; SUPPORTS = supported, REFUTES
  and NOT_ENOUGH_INFO = not supported.
- Latency: one pair at a time (batch 1, one thread), and one claim's premises as a batch.

The cut is ``model.json``'s threshold (chosen on the training validation slice), so the
first figures are blind; AUC and the best cut on the set are printed beside them.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import subprocess
import time
from pathlib import Path

import numpy as np
import onnxruntime
from training.encoder import corpus
from training.encoder.embed import pad_batch
from training.encoder.tokenizer import E5Tokenizer

from research.grounding_nli import data as pairs_data
from research.grounding_nli.scores import balanced_threshold, figures
from research.grounding_nli.train import MIRRORS, OUT

TOP = 3
CLIMATE_FEVER = (
    "tdiggelm/climate-fever-dataset",
    "03de61617b10a5c1935f8e08bb0e8ac1ee775356",
    "dataset/climate-fever.jsonl",
)
_STOP = frozenset(
    {
        "the",
        "and",
        "for",
        "with",
        "that",
        "this",
        "from",
        "was",
        "were",
        "are",
        "has",
        "have",
        "had",
        "its",
        "his",
        "her",
        "their",
        "they",
        "them",
        "which",
        "who",
        "whom",
        "what",
        "when",
        "where",
        "into",
        "onto",
        "also",
        "been",
        "not",
        "but",
        "than",
        "then",
        "there",
        "these",
        "those",
        "el",
        "la",
        "los",
        "las",
        "del",
        "que",
        "con",
        "por",
        "para",
        "una",
        "uno",
        "como",
        "más",
        "pero",
        "sus",
        "fue",
        "son",
        "está",
        "os",
        "as",
        "do",
        "da",
        "dos",
        "das",
        "com",
        "uma",
        "um",
        "mais",
        "mas",
        "seu",
        "sua",
        "foi",
        "são",
    }
)


def terms(text: str) -> list[str]:
    return [w for w in re.findall(r"\w+", text.lower()) if len(w) > 2 and w not in _STOP]


def ranked(claim: str, sentences: list[str]) -> list[int]:
    """Sentence indexes by IDF-weighted coverage of the claim's terms, best first."""
    bags = [set(terms(s)) for s in sentences]
    n = len(sentences)
    wanted = set(terms(claim))

    def idf(t: str) -> float:
        return math.log((n + 1) / (1 + sum(t in b for b in bags))) + 1.0

    weight = {t: idf(t) for t in wanted}
    cover = [sum(weight[t] for t in wanted & b) for b in bags]
    return sorted(range(n), key=lambda i: -cover[i])


class Scorer:
    """P(entailed) of (premise, hypothesis) pairs under the int8 graph, one thread."""

    def __init__(self, folder: Path) -> None:
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            str(folder / "model.int8.onnx"), options, providers=["CPUExecutionProvider"]
        )
        self.tokenizer = E5Tokenizer.load(folder)

    def score(self, claim: str, premises: list[str]) -> list[float]:
        rows = [pairs_data.pair_ids(self.tokenizer, claim, p) for p in premises]
        ids, mask = pad_batch(rows, self.tokenizer.pad)
        (logits,) = self.session.run(
            ["logits"], {"input_ids": ids.numpy(), "attention_mask": mask.numpy()}
        )
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        return list(shifted[:, 1] / shifted.sum(axis=1))


def candidates(claim: str, sentences: list[str]) -> list[str]:
    best = ranked(claim, sentences)[:TOP]
    return [*(sentences[i] for i in best), " ".join(sentences[i] for i in sorted(best))]


def wice(data: Path) -> list[tuple[str, list[str], int]]:
    rows = [json.loads(x) for x in (data / "grounding" / "wice_dev.jsonl").read_text().splitlines()]
    out = []
    for r in rows:
        sentences = [s for s in r["evidence"] if s.strip()]
        out.append((r["claim"], candidates(r["claim"], sentences), int(r["label"] == "supported")))
    return out


def climate_fever(mirrors: Path) -> list[tuple[str, list[str], int]]:
    repo, commit, path = CLIMATE_FEVER
    folder = mirrors / repo.replace("/", "+") / "repo"
    raw = subprocess.run(
        ["git", "--git-dir", str(folder), "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
    ).stdout.decode("utf-8")
    out = []
    rows = [json.loads(line) for line in raw.splitlines()]
    for r in [r for r in rows if r["claim_label"] != "DISPUTED"][::3]:
        sentences = [e["evidence"] for e in r["evidences"]]
        premises = [
            *sentences,
            " ".join(sentences[i] for i in sorted(ranked(r["claim"], sentences)[:TOP])),
        ]
        out.append((r["claim"], premises, int(r["claim_label"] == "SUPPORTS")))
    return out


def measure(
    scorer: Scorer, name: str, cases: list[tuple[str, list[str], int]], cut: float
) -> dict[str, object]:
    started = time.perf_counter()
    scores = np.array([max(scorer.score(c, p)) for c, p, _ in cases])
    per_claim = (time.perf_counter() - started) * 1000 / len(cases)
    labels = np.array([y for _, _, y in cases])
    best = balanced_threshold(labels, scores)
    result = {
        "set": name,
        "blind": figures(labels, scores, cut),
        "cut": cut,
        "best_cut_on_set": {"cut": best, **figures(labels, scores, best)},
        "supported": int(labels.sum()),
        "not_supported": int((labels == 0).sum()),
        "ms_per_claim": round(per_claim, 1),
    }
    print(json.dumps(result), flush=True)
    return result


def latency(
    scorer: Scorer, cases: list[tuple[str, list[str], int]], n: int = 200
) -> dict[str, float]:
    single, tokens = [], []
    for claim, premises, _ in cases[:n]:
        started = time.perf_counter()
        scorer.score(claim, premises[:1])
        single.append((time.perf_counter() - started) * 1000)
        tokens.append(len(pairs_data.pair_ids(scorer.tokenizer, claim, premises[0])))
    result = {
        "pair_p50_ms": round(statistics.median(single), 2),
        "pair_p90_ms": round(sorted(single)[int(0.9 * len(single))], 2),
        "pair_tokens_mean": round(statistics.mean(tokens), 1),
    }
    print(json.dumps(result), flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--model", type=Path, default=OUT / "ship")
    parser.add_argument("--mirrors", type=Path, default=MIRRORS)
    parser.add_argument("--out", type=Path, default=OUT / "evaluation.json")
    parser.add_argument("--limit", type=int, default=0, help="first N claims of each set (smoke)")
    args = parser.parse_args()
    cap = slice(None, args.limit or None)
    data = corpus.data_dir(args.data)
    scorer = Scorer(args.model)
    cut = float(json.loads((args.model / "model.json").read_text())["threshold"])
    wice_cases = wice(data)[cap]
    report = {
        "wice_dev": measure(scorer, "WiCE dev", wice_cases, cut),
        "climate_fever": measure(scorer, "Climate-FEVER", climate_fever(args.mirrors)[cap], cut),
        "latency": latency(scorer, wice_cases),
    }
    args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
