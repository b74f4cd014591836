"""Ship the fine-tuned injection classifier: ONNX fp32, int8, thresholds, ``model.json``.

``python -m training.injection.export --data DIR [--epoch N]`` reads ``epoch{N}.pt`` of
``training.injection.train``, writes the fp32 graph into ``training/out/vigia-injection-2.0.0``
and the shipped files into ``src/vigia/guardrails/data/vigia-injection-2.0.0``:
``model.int8.onnx`` (dynamic int8 quantization of the MatMul and Gather weights; inputs
``input_ids``, ``attention_mask``, output ``logits`` over ``benign``, ``attack``),
``tokenizer.json``, ``normalization.json`` and ``model.json``.

Thresholds are chosen on the validation slice (``training.injection.data.split``) from the
int8 model's scores of one window per text (``training.injection.thresholds``); the fp32
and int8 figures on that slice (AUC, TPR and FPR at each threshold) go into ``model.json``.
``training.injection.calibrate`` then replaces the thresholds by those of the run-time
reading.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import onnxruntime
import torch

from training.encoder import corpus
from training.encoder.embed import pad_batch
from training.encoder.export import quantize_int8
from training.encoder.model import E5Classifier, E5Encoder
from training.injection import data as rows_data
from training.injection.thresholds import FPR_TARGETS, MODEL_ID, SHIPPED, figures, thresholds_for
from training.injection.train import OUT, PARAMETERS, pruned_model
from training.injection.windows import HEAD, MAX_LENGTH, PREFIX, window_ids
from training.manifest import sha256

LABELS = ["benign", "attack"]
INPUTS = ["input_ids", "attention_mask"]
OUTPUTS = ["logits"]
SHIPPED_FILES = ("model.int8.onnx", "tokenizer.json", "normalization.json")


def export_onnx(model: E5Classifier, path: Path) -> None:
    """The classifier graph, dynamic batch and length, logits out."""
    model.eval()
    ids, mask = pad_batch([[0, 100, 200, 2], [0, 300, 2]], 1)
    torch.onnx.export(
        model,
        (ids, mask),
        str(path),
        input_names=INPUTS,
        output_names=OUTPUTS,
        dynamic_axes={
            "input_ids": {0: "batch", 1: "length"},
            "attention_mask": {0: "batch", 1: "length"},
            "logits": {0: "batch"},
        },
        opset_version=17,
        dynamo=False,
    )


def stamp(path: Path) -> None:
    """Record the model id, input and output names in the ONNX metadata."""
    import onnx

    graph = onnx.load(str(path))
    del graph.metadata_props[:]
    for key, value in (
        ("model_id", MODEL_ID),
        ("inputs", ",".join(INPUTS)),
        ("outputs", ",".join(OUTPUTS)),
    ):
        entry = graph.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(graph, str(path))


def onnx_probabilities(path: Path, windows: list[list[int]], pad: int) -> np.ndarray:
    """P(attack) of each window under ONNX Runtime (one thread, as at run time)."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
    out = np.zeros(len(windows))
    for start in range(0, len(order), 32):
        part = order[start : start + 32]
        ids, mask = pad_batch([windows[i] for i in part], pad)
        (logits,) = session.run(OUTPUTS, {"input_ids": ids.numpy(), "attention_mask": mask.numpy()})
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        out[part] = shifted[:, 1] / shifted.sum(axis=1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--epoch", type=int, default=int(PARAMETERS["epochs"]))
    parser.add_argument("--trained", type=Path, default=OUT)
    parser.add_argument("--out", type=Path, default=SHIPPED)
    parser.add_argument("--limit", type=int, default=0, help="validate on N rows (a smoke run)")
    args = parser.parse_args()
    clock = time.perf_counter()
    data = corpus.data_dir(args.data)
    encoder, tokenizer = pruned_model(data)
    model = E5Classifier(E5Encoder(encoder.word.num_embeddings), n_labels=2)
    model.load_state_dict(torch.load(args.trained / f"epoch{args.epoch}.pt"))
    model.eval()
    args.out.mkdir(parents=True, exist_ok=True)
    fp32, int8 = args.trained / "model.fp32.onnx", args.out / "model.int8.onnx"
    export_onnx(model, fp32)
    quantize_int8(fp32, int8)
    stamp(int8)
    tokenizer.save(args.out)

    _, validation = rows_data.split(rows_data.load_rows(data))
    if args.limit:
        validation = validation[:: max(1, len(validation) // args.limit)]
    windows = [window_ids(tokenizer, r.text) for r in validation]
    labels = np.array([r.label for r in validation])
    scores = {
        "fp32": onnx_probabilities(fp32, windows, tokenizer.pad),
        "int8": onnx_probabilities(int8, windows, tokenizer.pad),
    }
    sources = np.array([r.source for r in validation])
    cuts = thresholds_for(labels, scores["int8"], sources)
    train_record: dict[str, object] = json.loads(
        (args.trained / "train.json").read_text(encoding="utf-8")
    )
    validation_figures = {name: figures(labels, s, cuts) for name, s in scores.items()}
    meta = {
        "model": MODEL_ID,
        "features": INPUTS,
        "encoder": "multilingual-e5-small-espten (training/encoder), fine-tuned end to end",
        "labels": LABELS,
        "inputs": INPUTS,
        "outputs": OUTPUTS,
        "graph": "model.int8.onnx",
        "prefix": PREFIX,
        "max_length": MAX_LENGTH,
        "head": HEAD,
        "thresholds": cuts,
        "thresholds_on": {
            "slice": "validation (training.injection.data.split), benign FPR averaged over sources",
            "fpr_targets": FPR_TARGETS,
            "digest": rows_data.digest(validation),
        },
        "validation": validation_figures,
        "training": {**train_record, "epoch": args.epoch},
        "files": {name: sha256(args.out / name) for name in SHIPPED_FILES},
    }
    (args.out / "model.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({**validation_figures, "thresholds": cuts}, indent=1))
    print(f"export wall {time.perf_counter() - clock:.0f}s", flush=True)


if __name__ == "__main__":
    main()
