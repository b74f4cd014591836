"""Fine-tune the rebuilt multilingual-e5-small end to end as a (premise, hypothesis)
entailment cross-encoder: 2 labels, not entailed / entailed.

``python -m research.grounding_nli.train --data DIR [--mirrors DIR] [--out DIR] [--rows N]
[--budget-s S]``

The pairs are ``research.grounding_nli.data`` (``--rows`` fit rows drawn at random, the
validation slice kept whole); the pair reads ``<s> query: hypothesis </s></s> passage:
premise </s>`` (``data.pair_ids``), at most 128 tokens. The encoder is the pruned es/pt/en
vocabulary version shipped by ``training.encoder.export``; the embeddings and the first
``frozen_layers`` layers stay as pretrained (this shared 2-core machine gives one run a
fraction of a core: the backward pass through them is the cost cut first), the head is a
linear layer on the mean-pooled states, batches group similar lengths, AdamW with linear
warm-up and decay, fixed seeds, one thread, one epoch at most. The validation slice is
sampled to ``validation_rows``. Every 10 steps the schedule's end is re-planned from the
recent pace, so that the decay ends when ``--budget-s`` seconds of training have passed
(the machine is shared, so the pace moves); the rows past it are not seen (``train.json``
records how many were). Writes ``model.pt``, ``validation.json`` and
``train.json`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import torch
from torch.nn import functional
from training.encoder import corpus
from training.encoder.embed import pad_batch
from training.encoder.model import E5Classifier
from training.injection.train import attack_probabilities, batches, pruned_model

from research.grounding_nli import data as pairs_data

OUT = Path(__file__).resolve().parents[2] / "training" / "out" / "vigia-grounding-1.0.0"
MIRRORS = Path("/work/.mirror")
PARAMETERS = {
    "rows": 24000,
    "validation_rows": 1000,
    "batch": 16,
    "lr_encoder": 4e-5,
    "frozen_layers": 3,
    "lr_head": 1e-3,
    "weight_decay": 0.01,
    "warmup_steps": 30,
    "dropout": 0.1,
    "seed": 29,
    "threads": 1,
    "budget_s": 2000,
}


def train(args: argparse.Namespace) -> None:
    params = {**PARAMETERS, "rows": args.rows, "budget_s": args.budget_s}
    torch.set_num_threads(int(params["threads"]))
    torch.manual_seed(int(params["seed"]))
    rng = random.Random(int(params["seed"]))
    clock = time.perf_counter()
    data = corpus.data_dir(args.data)
    rows = pairs_data.build(data, args.mirrors)
    pairs_data.assert_disjoint(rows, data / "grounding" / "wice_dev.jsonl")
    fit_rows, validation_rows = pairs_data.split(rows)
    if len(fit_rows) > int(params["rows"]):
        fit_rows = random.Random(1).sample(fit_rows, int(params["rows"]))
    if len(validation_rows) > int(params["validation_rows"]):
        validation_rows = random.Random(2).sample(validation_rows, int(params["validation_rows"]))
    encoder, tokenizer = pruned_model(data)
    fit_ids = [pairs_data.pair_ids(tokenizer, r.hypothesis, r.premise) for r in fit_rows]
    validation_ids = [
        pairs_data.pair_ids(tokenizer, r.hypothesis, r.premise) for r in validation_rows
    ]
    labels = torch.tensor([r.label for r in fit_rows])
    counts = torch.bincount(labels, minlength=2).float()
    class_weight = counts.sum() / (2 * counts)

    model = E5Classifier(encoder, n_labels=2, dropout=float(params["dropout"]))
    model.encoder.word.weight.requires_grad_(False)
    for part in [
        model.encoder.pos,
        model.encoder.ln,
        *model.encoder.layers[: int(params["frozen_layers"])],
    ]:
        part.requires_grad_(False)
    model.encoder.token_type.requires_grad_(False)
    head = list(model.head.parameters())
    body = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith("head")]
    optimizer = torch.optim.AdamW(
        [
            {"params": body, "lr": float(params["lr_encoder"])},
            {"params": head, "lr": float(params["lr_head"])},
        ],
        weight_decay=float(params["weight_decay"]),
    )
    lengths = [len(w) for w in fit_ids]
    order = batches(lengths, int(params["batch"]), rng)
    plan = {"total": len(order)}
    warmup = int(params["warmup_steps"])
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer,
        lambda s: min((s + 1) / warmup, max(0.0, (plan["total"] - s) / (plan["total"] - warmup))),
    )
    args.out.mkdir(parents=True, exist_ok=True)
    setup_s = time.perf_counter() - clock
    print(
        json.dumps(
            {
                "rows": len(rows),
                "fit_rows": len(fit_rows),
                "validation_rows": len(validation_rows),
                "all_digest": pairs_data.digest(rows),
                "class_counts": counts.tolist(),
                "batches": len(order),
                "setup_s": round(setup_s, 1),
            }
        ),
        flush=True,
    )
    model.train()
    started = time.perf_counter()
    step = 0
    mark = (0, 0.0)
    for batch in order:
        if step >= plan["total"]:
            break
        ids, mask = pad_batch([fit_ids[i] for i in batch], tokenizer.pad)
        loss = functional.cross_entropy(model(ids, mask), labels[batch], weight=class_weight)
        optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call,unused-ignore]
        torch.nn.utils.clip_grad_norm_(body + head, 1.0)
        optimizer.step()
        schedule.step()
        step += 1
        elapsed_train = time.perf_counter() - started
        if elapsed_train > float(params["budget_s"]):
            break
        if step >= 10 and step % 10 == 0:
            # the machine is shared: re-plan the schedule's end from the recent pace
            pace = (elapsed_train - mark[1]) / (step - mark[0]) if step > mark[0] else 0.0
            left = (float(params["budget_s"]) - elapsed_train) / max(pace, 1e-3)
            plan["total"] = min(len(order), max(step + 1, step + int(left)))
            mark = (step, elapsed_train) if step % 50 == 0 else mark
            if step % 50 == 10:
                print(f"{pace:.2f} s a step: {plan['total']} of {len(order)} steps", flush=True)
        if step % 20 == 0:
            elapsed = time.perf_counter() - clock
            print(f"step {step}/{plan['total']} loss {loss.item():.4f} {elapsed:.0f}s", flush=True)
    torch.save(model.state_dict(), args.out / "model.pt")
    scores = attack_probabilities(model, validation_ids, tokenizer.pad)  # P(label 1): entailed
    record = [
        {"label": r.label, "lang": r.lang, "source": r.source, "kind": r.kind, "p": round(p, 6)}
        for r, p in zip(validation_rows, scores, strict=True)
    ]
    (args.out / "validation.json").write_text(json.dumps(record) + "\n")
    seen = sum(len(b) for b in order[:step])
    (args.out / "train.json").write_text(
        json.dumps(
            {
                "parameters": params,
                "pairs": len(rows),
                "all_digest": pairs_data.digest(rows),
                "fit_rows": len(fit_rows),
                "fit_rows_seen": seen,
                "steps": step,
                "validation_rows": len(validation_rows),
                "validation_digest": pairs_data.digest(validation_rows),
                "wall_s": round(time.perf_counter() - clock, 1),
            },
            indent=1,
        )
        + "\n"
    )
    print(f"done {time.perf_counter() - clock:.0f}s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--mirrors", type=Path, default=MIRRORS)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--rows", type=int, default=int(PARAMETERS["rows"]))
    parser.add_argument("--budget-s", type=float, default=float(PARAMETERS["budget_s"]))
    train(parser.parse_args())


if __name__ == "__main__":
    main()
