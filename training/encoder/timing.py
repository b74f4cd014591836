"""Time one fine-tuning step of ``E5Classifier`` on this CPU: it sizes the fine-tuning plan.

``python -m training.encoder.timing [--vocab-rows N]`` runs forward + backward + AdamW on
batches of 32 x 128 tokens (random ids; the cost does not depend on the values) and prints
the median of the timed steps and the peak resident memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import time

import torch

from training.encoder.model import E5Classifier, E5Encoder


def step_seconds(vocab_rows: int, batch: int, length: int, steps: int) -> dict[str, float]:
    """Median seconds of one training step, and of one no-grad forward."""
    torch.manual_seed(13)
    model = E5Classifier(E5Encoder(vocab_rows), n_labels=2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    ids = torch.randint(4, vocab_rows, (batch, length))
    mask = torch.ones_like(ids)
    labels = torch.randint(0, 2, (batch,))
    train: list[float] = []
    for _ in range(steps + 1):
        t0 = time.perf_counter()
        loss = torch.nn.functional.cross_entropy(model(ids, mask), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train.append(time.perf_counter() - t0)
    model.eval()
    infer: list[float] = []
    with torch.no_grad():
        for _ in range(3):
            t0 = time.perf_counter()
            model(ids, mask)
            infer.append(time.perf_counter() - t0)
    return {
        "train_step_s": round(sorted(train[1:])[len(train[1:]) // 2], 2),
        "forward_no_grad_s": round(sorted(infer)[1], 2),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab-rows", type=int, default=250_037)
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    figures = {
        "vocab_rows": args.vocab_rows,
        "batch": 32,
        "length": 128,
        "threads": torch.get_num_threads(),
        **step_seconds(args.vocab_rows, 32, 128, args.steps),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
