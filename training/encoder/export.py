"""Export the pruned encoder for run time: ONNX fp32, then int8 (dynamic quantization).

``python -m training.encoder.export --data DIR [--out DIR]`` writes into ``--out``
(default ``training/out/multilingual-e5-small-espten``): ``tokenizer.json`` and
``normalization.json`` (the pruned tokenizer), ``encoder.fp32.onnx``, ``encoder.int8.onnx``
(inputs ``input_ids``, ``attention_mask``, int64 ``[batch, length]``; output ``embedding``,
``[batch, 384]``, L2-normalized; metadata ``model_id``). ``--figures`` also measures
(``training.encoder.parity``) and writes ``export.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from training.encoder import corpus, prune
from training.encoder.embed import pad_batch
from training.encoder.equivalence import load_rebuilt
from training.encoder.model import E5Encoder
from training.encoder.reference import MODEL_FILE
from training.encoder.tokenizer import E5Tokenizer
from training.encoder.weights import read_packed_model

MODEL_ID = "multilingual-e5-small-espten"
OUT = Path(__file__).resolve().parents[1] / "out" / MODEL_ID


class _Embedding(nn.Module):
    def __init__(self, encoder: E5Encoder) -> None:
        super().__init__()
        self.encoder = encoder

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.encoder.embed(input_ids, attention_mask)


def pruned_encoder(full: E5Encoder, keep: np.ndarray) -> E5Encoder:
    """A copy of ``full`` whose word embeddings hold the kept rows only."""
    state = {k: v for k, v in full.state_dict().items() if k != "word.weight"}
    pruned = E5Encoder(len(keep))
    pruned.load_state_dict({**state, "word.weight": full.word.weight[torch.from_numpy(keep)]})
    return pruned


def export_onnx(encoder: E5Encoder, path: Path) -> None:
    """Write the embedding graph with dynamic batch and length."""
    encoder.eval()
    ids, mask = pad_batch([[0, 100, 200, 2], [0, 300, 2]], 1)
    torch.onnx.export(
        _Embedding(encoder),
        (ids, mask),
        str(path),
        input_names=["input_ids", "attention_mask"],
        output_names=["embedding"],
        dynamic_axes={
            "input_ids": {0: "batch", 1: "length"},
            "attention_mask": {0: "batch", 1: "length"},
            "embedding": {0: "batch"},
        },
        opset_version=17,
        dynamo=False,
    )


def quantize_int8(source: Path, target: Path) -> None:
    """Dynamic int8 quantization (onnxruntime): MatMul weights per output channel, Gather.

    Per-tensor weights cost more (embedding cosine to fp32 mean 0.989, min 0.971 on held-out
    text); 4- or 8-bit block weights (``MatMulNBits``) keep cosine >= 0.9998 but run 3-7x
    slower on one core here.
    """
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(
        str(source),
        str(target),
        weight_type=QuantType.QInt8,
        op_types_to_quantize=["MatMul", "Gather"],
        per_channel=True,
    )


def stamp(
    path: Path,
    model_id: str,
    inputs: Sequence[str] = ("input_ids", "attention_mask"),
    outputs: Sequence[str] = ("embedding",),
) -> None:
    """Record the model id and the graph's input and output names in the ONNX metadata."""
    import onnx

    model = onnx.load(str(path))
    del model.metadata_props[:]
    for key, value in (
        ("model_id", model_id),
        ("inputs", ",".join(inputs)),
        ("outputs", ",".join(outputs)),
    ):
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(model, str(path))


@dataclass
class Built:
    """What ``build`` made: both models and tokenizers, the kept ids, the files."""

    full: E5Encoder
    full_tokenizer: E5Tokenizer
    encoder: E5Encoder
    tokenizer: E5Tokenizer
    keep: np.ndarray
    fp32_path: Path
    int8_path: Path
    wall_seconds: dict[str, float]


def build(data: Path, out: Path) -> Built:
    """Prune the vocabulary, export ONNX fp32, quantize to int8, write the tokenizer files."""
    clock: dict[str, float] = {}
    t0 = time.perf_counter()
    full, full_tokenizer = load_rebuilt()
    packed = read_packed_model(MODEL_FILE)
    keep = prune.kept_ids(full_tokenizer, packed.vocabulary, data)
    tokenizer = prune.pruned_tokenizer(packed.vocabulary, packed.normalization, keep)
    encoder = pruned_encoder(full, keep)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer.save(out)
    clock["prune"] = round(time.perf_counter() - t0, 1)

    t0 = time.perf_counter()
    fp32_path, int8_path = out / "encoder.fp32.onnx", out / "encoder.int8.onnx"
    export_onnx(encoder, fp32_path)
    quantize_int8(fp32_path, int8_path)
    stamp(int8_path, MODEL_ID)
    clock["export_and_quantize"] = round(time.perf_counter() - t0, 1)
    return Built(full, full_tokenizer, encoder, tokenizer, keep, fp32_path, int8_path, clock)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--figures", action="store_true", help="measure and write export.json")
    args = parser.parse_args()
    data = corpus.data_dir(args.data)
    built = build(data, args.out)
    print(json.dumps({"wall_seconds": built.wall_seconds}))
    if args.figures:
        from training.encoder import parity

        figures = parity.measure(built, data)
        (args.out / "export.json").write_text(json.dumps(figures, indent=2) + "\n")
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
