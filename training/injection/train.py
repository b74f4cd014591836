"""Fine-tune the rebuilt multilingual-e5-small end to end as a two-class injection classifier.

``python -m training.injection.train --data DIR [--out DIR] [--epochs N] [--limit N]``

The encoder is the pruned es/pt/en vocabulary version of ``training.encoder.export`` (the
one shipped), so the trained weights export as they are. Everything but the word-embedding
matrix is trained (freezing it keeps tokens the training data never uses where the
pretraining put them, and saves most of the optimizer state); the head is a linear layer on
the mean-pooled states. Loss: cross-entropy weighted to balance the two classes. Batches of
texts of similar length (dynamic padding), AdamW with linear warm-up and decay, fixed seeds,
one thread (two threads stall on this shared 2-core machine: 9-13 s a step against 2.4 s).
After each epoch the weights and the validation scores are written to ``--out``
(``epoch{N}.pt``, ``validation_epoch{N}.json``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import torch
from torch.nn import functional

from training.encoder import corpus, prune
from training.encoder.embed import pad_batch
from training.encoder.equivalence import load_rebuilt
from training.encoder.export import pruned_encoder
from training.encoder.model import E5Classifier, E5Encoder
from training.encoder.reference import MODEL_FILE
from training.encoder.tokenizer import E5Tokenizer
from training.encoder.weights import read_packed_model
from training.injection import data as rows_data
from training.injection.windows import window_ids

OUT = Path(__file__).resolve().parents[1] / "out" / "vigia-injection-2.0.0"
PARAMETERS = {
    "epochs": 2,
    "batch": 32,
    "lr_encoder": 4e-5,
    "lr_head": 1e-3,
    "weight_decay": 0.01,
    "warmup_share": 0.06,
    "dropout": 0.1,
    "seed": 13,
    "threads": 1,
}


def pruned_model(data: Path) -> tuple[E5Encoder, E5Tokenizer]:
    """The rebuilt encoder restricted to the shipped (pruned) vocabulary, and its tokenizer."""
    full, full_tokenizer = load_rebuilt()
    packed = read_packed_model(MODEL_FILE)
    keep = prune.kept_ids(full_tokenizer, packed.vocabulary, data)
    tokenizer = prune.pruned_tokenizer(packed.vocabulary, packed.normalization, keep)
    return pruned_encoder(full, keep), tokenizer


def batches(lengths: list[int], size: int, rng: random.Random) -> list[list[int]]:
    """Index batches of similar lengths, in random order."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    out: list[list[int]] = []
    chunk = size * 50
    for start in range(0, len(order), chunk):
        part = sorted(order[start : start + chunk], key=lambda i: lengths[i])
        out.extend(part[i : i + size] for i in range(0, len(part), size))
    rng.shuffle(out)
    return out


@torch.no_grad()
def attack_probabilities(
    model: E5Classifier, windows: list[list[int]], pad: int, size: int = 64
) -> list[float]:
    """P(attack) of each window, in order."""
    model.eval()
    order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
    out = [0.0] * len(windows)
    for start in range(0, len(order), size):
        part = order[start : start + size]
        ids, mask = pad_batch([windows[i] for i in part], pad)
        probs = model(ids, mask).softmax(dim=-1)[:, 1]
        for i, p in zip(part, probs.tolist(), strict=True):
            out[i] = p
    model.train()
    return out


def train(args: argparse.Namespace) -> None:
    params = {**PARAMETERS, "epochs": args.epochs}
    torch.set_num_threads(int(params["threads"]))
    torch.manual_seed(int(params["seed"]))
    rng = random.Random(int(params["seed"]))
    clock = time.perf_counter()
    data = corpus.data_dir(args.data)
    fit_rows, validation_rows = rows_data.split(rows_data.load_rows(data))
    if args.limit:
        fit_rows = random.Random(1).sample(fit_rows, args.limit)
        validation_rows = random.Random(2).sample(validation_rows, args.limit // 4)
    encoder, tokenizer = pruned_model(data)
    fit_windows = [window_ids(tokenizer, r.text) for r in fit_rows]
    validation_windows = [window_ids(tokenizer, r.text) for r in validation_rows]
    labels = torch.tensor([r.label for r in fit_rows])
    counts = torch.bincount(labels, minlength=2).float()
    class_weight = counts.sum() / (2 * counts)

    model = E5Classifier(encoder, n_labels=2, dropout=float(params["dropout"]))
    model.encoder.word.weight.requires_grad_(False)
    head = list(model.head.parameters())
    body = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith("head")]
    optimizer = torch.optim.AdamW(
        [
            {"params": body, "lr": float(params["lr_encoder"])},
            {"params": head, "lr": float(params["lr_head"])},
        ],
        weight_decay=float(params["weight_decay"]),
    )
    lengths = [len(w) for w in fit_windows]
    per_epoch = len(batches(lengths, int(params["batch"]), random.Random(0)))
    total = per_epoch * int(params["epochs"])
    warmup = max(1, int(total * float(params["warmup_share"])))
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / (total - warmup)))
    )
    args.out.mkdir(parents=True, exist_ok=True)
    print(
        json.dumps(
            {
                "fit_rows": len(fit_rows),
                "validation_rows": len(validation_rows),
                "fit_digest": rows_data.digest(fit_rows),
                "validation_digest": rows_data.digest(validation_rows),
                "class_counts": counts.tolist(),
                "steps": total,
                "setup_s": round(time.perf_counter() - clock, 1),
            }
        ),
        flush=True,
    )
    step = 0
    model.train()
    for epoch in range(1, int(params["epochs"]) + 1):
        for batch in batches(lengths, int(params["batch"]), rng):
            ids, mask = pad_batch([fit_windows[i] for i in batch], tokenizer.pad)
            loss = functional.cross_entropy(model(ids, mask), labels[batch], weight=class_weight)
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call,unused-ignore]
            torch.nn.utils.clip_grad_norm_(body + head, 1.0)
            optimizer.step()
            schedule.step()
            step += 1
            if step % 20 == 0 or step == total:
                elapsed = time.perf_counter() - clock
                print(f"step {step}/{total} loss {loss.item():.4f} {elapsed:.0f}s", flush=True)
        torch.save(model.state_dict(), args.out / f"epoch{epoch}.pt")
        scores = attack_probabilities(model, validation_windows, tokenizer.pad)
        record = [
            {"label": r.label, "lang": r.lang, "source": r.source, "p": round(p, 6)}
            for r, p in zip(validation_rows, scores, strict=True)
        ]
        (args.out / f"validation_epoch{epoch}.json").write_text(json.dumps(record) + "\n")
        print(f"epoch {epoch} done {time.perf_counter() - clock:.0f}s", flush=True)
    (args.out / "train.json").write_text(
        json.dumps(
            {
                "parameters": params,
                "fit_rows": len(fit_rows),
                "validation_rows": len(validation_rows),
                "fit_digest": rows_data.digest(fit_rows),
                "validation_digest": rows_data.digest(validation_rows),
                "wall_s": round(time.perf_counter() - clock, 1),
            },
            indent=1,
        )
        + "\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--epochs", type=int, default=int(PARAMETERS["epochs"]))
    parser.add_argument("--limit", type=int, default=0, help="train on N rows (a smoke run)")
    train(parser.parse_args())


if __name__ == "__main__":
    main()
