"""Export the grounding cross-encoder: ONNX fp32, int8, threshold, ``model.json``.

``python -m research.grounding_nli.export --data DIR [--out DIR]`` reads ``model.pt`` of
``research.grounding_nli.train``, writes the fp32 graph into ``training/out/vigia-grounding-1.0.0``
and ``model.int8.onnx`` (dynamic int8 MatMul and Gather weights; inputs ``input_ids``,
``attention_mask``, output ``logits`` over ``not_entailed``, ``entailed``),
``tokenizer.json``, ``normalization.json`` and ``model.json`` into ``--out``. The threshold
is the one of highest balanced accuracy on the validation slice, from the int8 scores;
the fp32 and int8 figures on that slice go into ``model.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np
import torch
from training.encoder import corpus
from training.encoder.export import quantize_int8, stamp
from training.encoder.model import E5Classifier, E5Encoder
from training.injection.export import export_onnx, onnx_probabilities
from training.injection.train import pruned_model
from training.manifest import sha256

from research.grounding_nli import data as pairs_data
from research.grounding_nli.scores import MODEL_ID, balanced_threshold, figures
from research.grounding_nli.train import MIRRORS, OUT, PARAMETERS

LABELS = ["not_entailed", "entailed"]
INPUTS = ["input_ids", "attention_mask"]
OUTPUTS = ["logits"]
SHIPPED_FILES = ("model.int8.onnx", "tokenizer.json", "normalization.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--mirrors", type=Path, default=MIRRORS)
    parser.add_argument("--trained", type=Path, default=OUT)
    parser.add_argument("--out", type=Path, default=OUT / "ship")
    parser.add_argument("--limit", type=int, default=0, help="validate on N rows (a smoke run)")
    args = parser.parse_args()
    clock = time.perf_counter()
    torch.set_num_threads(1)
    data = corpus.data_dir(args.data)
    encoder, tokenizer = pruned_model(data)
    model = E5Classifier(E5Encoder(encoder.word.num_embeddings), n_labels=2)
    model.load_state_dict(torch.load(args.trained / "model.pt"))
    model.eval()
    args.out.mkdir(parents=True, exist_ok=True)
    fp32, int8 = args.trained / "model.fp32.onnx", args.out / "model.int8.onnx"
    export_onnx(model, fp32)
    quantize_int8(fp32, int8)
    stamp(int8, MODEL_ID, INPUTS, OUTPUTS)
    tokenizer.save(args.out)

    _, validation = pairs_data.split(pairs_data.build(data, args.mirrors))
    if len(validation) > int(PARAMETERS["validation_rows"]):
        validation = random.Random(2).sample(validation, int(PARAMETERS["validation_rows"]))
    if args.limit:
        validation = validation[: args.limit]
    encoded = [pairs_data.pair_ids(tokenizer, r.hypothesis, r.premise) for r in validation]
    labels = np.array([r.label for r in validation])
    scores = {
        "fp32": onnx_probabilities(fp32, encoded),
        "int8": onnx_probabilities(int8, encoded),
    }
    threshold = balanced_threshold(labels, scores["int8"])
    train_record: dict[str, object] = json.loads((args.trained / "train.json").read_text())
    validation_figures = {name: figures(labels, s, threshold) for name, s in scores.items()}
    meta = {
        "model": MODEL_ID,
        "encoder": "multilingual-e5-small-espten (training/encoder), fine-tuned end to end",
        "labels": LABELS,
        "inputs": INPUTS,
        "outputs": OUTPUTS,
        "graph": "model.int8.onnx",
        "hypothesis_prefix": pairs_data.HYPOTHESIS_PREFIX,
        "premise_prefix": pairs_data.PREMISE_PREFIX,
        "max_length": pairs_data.MAX_LENGTH,
        "max_hypothesis": pairs_data.MAX_HYPOTHESIS,
        "threshold": threshold,
        "threshold_on": {
            "slice": "validation (research.grounding_nli.data.split), highest balanced accuracy",
            "digest": pairs_data.digest(validation),
        },
        "validation": validation_figures,
        "training": train_record,
        "files": {name: sha256(args.out / name) for name in SHIPPED_FILES},
    }
    (args.out / "model.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({**validation_figures, "threshold": threshold}, indent=1))
    print(f"export wall {time.perf_counter() - clock:.0f}s", flush=True)


if __name__ == "__main__":
    main()
