"""Average fine-tuned injection classifiers' weights into one model (a uniform model soup).

``.venv-training/bin/python -m research.injection_soup.soup --members DIR DIR [...] --out DIR
[--epoch N]``

Each member is a ``training.injection.train`` output folder: the same pruned encoder
fine-tuned from the same starting weights, on other data or seeds. Their ``epoch{N}.pt``
state dicts are averaged tensor by tensor (floating-point tensors; any other tensor must be
equal in every member) and written as ``--out``/``epoch{N}.pt`` with a ``train.json`` that
names the members and their own records, so that ``training.injection.export --trained
OUT`` exports the soup as it exports a trained model. One model's cost at run time; the
averaged weights behave like an ensemble of the members (Wortsman et al., "Model soups",
2022), which evens out what one training run learns by chance.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch


def averaged(states: list[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """The tensor-by-tensor mean of ``states`` (same keys and shapes in each)."""
    first = states[0]
    for other in states[1:]:
        if other.keys() != first.keys():
            raise ValueError("members hold different tensors")
    soup: dict[str, torch.Tensor] = {}
    for name, tensor in first.items():
        tensors = [state[name] for state in states]
        if any(t.shape != tensor.shape for t in tensors):
            raise ValueError(f"members differ in the shape of {name}")
        if tensor.is_floating_point():
            soup[name] = (
                torch.stack([t.to(torch.float64) for t in tensors]).mean(0).to(tensor.dtype)
            )
        elif all(torch.equal(t, tensor) for t in tensors):
            soup[name] = tensor.clone()
        else:
            raise ValueError(f"members differ in {name}, which cannot be averaged")
    return soup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--epoch", type=int, default=2)
    args = parser.parse_args()
    if len(args.members) < 2:
        parser.error("a soup needs two members or more")
    name = f"epoch{args.epoch}.pt"
    states = [torch.load(member / name) for member in args.members]
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(averaged(states), args.out / name)
    records = [
        {
            k: v
            for k, v in json.loads((m / "train.json").read_text(encoding="utf-8")).items()
            if k != "wall_s"
        }
        for m in args.members
    ]
    record = {"soup": "uniform", "epoch": args.epoch, "members": records}
    (args.out / "train.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"members": [str(m) for m in args.members], "out": str(args.out)}))


if __name__ == "__main__":
    main()
