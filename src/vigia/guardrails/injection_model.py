"""The shipped injection classifier: a fine-tuned multilingual-e5-small run by ONNX Runtime.

``data/vigia-injection-2.0.0/`` holds the int8 ONNX graph (``input_ids``,
``attention_mask`` to ``logits`` over ``labels``), its tokenizer files and ``model.json``
(model id, labels, input and output names, window, thresholds per sensitivity, file
digests), all written by ``training/injection`` (``python -m training.fit
vigia-injection-2.0.0``). Loading checks the model id, the labels, the input and output
names and the digests against what this code expects, and fails with the difference named;
the session is created once, with one intra-op thread.

The graph comes fused from the export (``training/injection/export.py``): one ``Attention``
node and one ``SkipLayerNormalization`` a layer. onnxruntime's own ``SkipLayerNormFusion``
is left out at load: on this graph it would also fuse the attention output's LayerNorm,
which is slower on one core and moves the int8 scores away from those the thresholds were
chosen on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime

from vigia.guardrails.injection_tokens import InjectionTokenizer
from vigia.kit import model_work
from vigia.kit.digest import file_sha256

MODEL_ID = "vigia-injection-2.0.0"
MODEL_DIR = Path(__file__).parent / "data" / MODEL_ID
LABELS = ("benign", "attack")
INPUTS = ("input_ids", "attention_mask")
OUTPUTS = ("logits",)
BATCH = 16
DISABLED_OPTIMIZERS = ("SkipLayerNormFusion",)


class InjectionModelError(RuntimeError):
    """The model folder is not the model this code reads."""


def _expect(what: str, found: object, expected: object) -> None:
    if found != expected:
        raise InjectionModelError(f"injection model {what} is {found!r}, expected {expected!r}")


@dataclass(frozen=True)
class InjectionModel:
    """The loaded classifier: its id, tokenizer, ONNX session and thresholds."""

    model_id: str
    tokenizer: InjectionTokenizer
    session: onnxruntime.InferenceSession
    thresholds: dict[str, float]

    def attack_probabilities(self, texts: Sequence[str]) -> list[float]:
        """P(attack) of each text, read as one window (``InjectionTokenizer.window``), on
        the app's model workers when there are some (``vigia.kit.model_work``)."""
        return model_work.run(self._attack_probabilities, texts)

    def _attack_probabilities(self, texts: Sequence[str]) -> list[float]:
        windows = [self.tokenizer.window(t) for t in texts]
        order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
        out = [0.0] * len(windows)
        for start in range(0, len(order), BATCH):
            part = order[start : start + BATCH]
            width = max(len(windows[i]) for i in part)
            ids = np.full((len(part), width), self.tokenizer.pad, dtype=np.int64)
            mask = np.zeros((len(part), width), dtype=np.int64)
            for row, i in enumerate(part):
                ids[row, : len(windows[i])] = windows[i]
                mask[row, : len(windows[i])] = 1
            (logits,) = self.session.run(list(OUTPUTS), {"input_ids": ids, "attention_mask": mask})
            shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
            attack = shifted[:, 1] / shifted.sum(axis=1)
            for i, p in zip(part, attack.tolist(), strict=True):
                out[i] = float(p)
        return out


def load_model(folder: Path = MODEL_DIR, model_id: str = MODEL_ID) -> InjectionModel:
    """Read and check ``folder`` (see the module docstring); one intra-op thread, no
    ``SkipLayerNormFusion``."""
    meta = json.loads((folder / "model.json").read_text(encoding="utf-8"))
    _expect("id", meta.get("model"), model_id)
    _expect("labels", tuple(meta.get("labels", ())), LABELS)
    _expect("inputs", tuple(meta.get("inputs", ())), INPUTS)
    _expect("outputs", tuple(meta.get("outputs", ())), OUTPUTS)
    for name, digest in meta["files"].items():
        _expect(f"file {name} SHA-256", file_sha256(folder / name), digest)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(
        str(folder / meta["graph"]),
        options,
        providers=["CPUExecutionProvider"],
        disabled_optimizers=list(DISABLED_OPTIMIZERS),
    )
    _expect("graph inputs", tuple(i.name for i in session.get_inputs()), INPUTS)
    _expect("graph outputs", tuple(o.name for o in session.get_outputs()), OUTPUTS)
    _expect("graph model_id", session.get_modelmeta().custom_metadata_map.get("model_id"), model_id)
    tokenizer = InjectionTokenizer(folder, int(meta["max_length"]), int(meta["head"]))
    thresholds = {str(k): float(v) for k, v in meta["thresholds"].items()}
    _expect("sensitivities", sorted(thresholds), ["high", "low", "medium"])
    return InjectionModel(model_id, tokenizer, session, thresholds)
