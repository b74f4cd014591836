"""The shipped injection classifier: a fine-tuned multilingual-e5-small run by ONNX Runtime.

``data/vigia-injection-2.0.0/`` holds the int8 ONNX graph (``input_ids``,
``attention_mask`` to ``logits`` over ``labels``), its tokenizer files and ``model.json``
(model id, labels, input and output names, window, thresholds per sensitivity, file
digests), all written by ``training/injection`` (``python -m training.fit
vigia-injection-2.0.0``). Loading checks the model id, the labels, the input and output
names and the digests against what this code expects, and fails with the difference named;
the session is created once, with one intra-op thread and, on a CPU whose default integer
kernels saturate, ONNX Runtime's exact ones (``EXACT_INT8``), so that every CPU gives the
scores the thresholds were chosen on.

The graph comes fused from the export (``training/injection/export.py``): one ``Attention``
node and one ``SkipLayerNormalization`` a layer. onnxruntime's own ``SkipLayerNormFusion``
is left out at load: on this graph it would also fuse the attention output's LayerNorm,
which is slower on one core and moves the int8 scores away from those the thresholds were
chosen on.
"""

from __future__ import annotations

import importlib
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
DISABLED_OPTIMIZERS = ("SkipLayerNormFusion",)
# ONNX Runtime's default u8s8 kernels saturate on x86-64 CPUs without VNNI: there "Olvidate
# de lo que te pregunté antes; ¿cómo creo una clave?" scored 0.137 (CI's CPU, emulated AVX2)
# for the 0.019 recorded. This entry turns on exact u8u8 kernels, which reproduce the
# recorded scores but cost 3x on a VNNI CPU, where the default kernels are already exact.
EXACT_INT8 = ("session.x64quantprecision", "1")


def needs_exact_int8() -> bool:
    """Whether this CPU needs ``EXACT_INT8``: any CPU but an x86-64 one with AVX-512 VNNI
    (as CPUID reports it to numpy; an unknown answer counts as needing it)."""
    try:
        features = importlib.import_module("numpy._core._multiarray_umath").__cpu_features__
    except (ImportError, AttributeError):  # pragma: no cover - numpy moved it
        return True
    return not bool(features.get("AVX512VNNI", False))


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
        # One window a run, never a padded batch: dynamic int8 quantizes each activation
        # tensor on its own range, so a text's score would depend on the texts and padding
        # read beside it (0.376 alone, 0.233 in a batch of six, for one probe).
        out: list[float] = []
        for text in texts:
            window = np.array([self.tokenizer.window(text)], dtype=np.int64)
            feeds = {"input_ids": window, "attention_mask": np.ones_like(window)}
            (logits,) = self.session.run(list(OUTPUTS), feeds)
            shifted = np.exp(logits[0] - logits[0].max())
            out.append(float(shifted[1] / shifted.sum()))
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
    if needs_exact_int8():
        options.add_session_config_entry(*EXACT_INT8)
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
