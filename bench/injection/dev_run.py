"""The shipped injection detector on dev and the team's held-out file, with 95 % intervals.

Measurement only; dev is read once per candidate and nothing is chosen on it. For the
shared dev split (``injection/dev.jsonl``) and the team's ``injection_eval.txt`` (es/pt/en
customer messages and attacks, never fitted on), prints at each sensitivity the pooled TPR
(attacks flagged) and FPR (benign flagged) with Wilson 95 % intervals, then per language and
per source at ``--sensitivity``; writes the figures to ``bench/.out/injection-dev-<model>.json``.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.dev_run [--sensitivity medium]
[--team-only]`` (``--team-only``: the team's file alone, which a candidate's rule may read
before dev).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from bench.injection.data import OUT, Prompt, read_split, read_team
from bench.injection_public import line

from vigia.guardrails import injection

SENSITIVITIES = ("low", "medium", "high")


def report(name: str, prompts: list[Prompt], sensitivity: str) -> dict[str, object]:
    """Prints one table for ``prompts`` and returns its figures."""
    thresholds = injection.get_model().thresholds
    scores = injection.scores([p.text for p in prompts])
    figures: dict[str, object] = {}
    print(f"\n## {name}\n\n| slice | texts | flagged | Wilson 95 % |\n|---|---|---|---|")
    for level in SENSITIVITIES:
        for label in (1, 0):
            hits = [
                s >= thresholds[level]
                for p, s in zip(prompts, scores, strict=True)
                if p.label == label
            ]
            figures[f"{level} pooled {label}"] = line(
                f"{level}: pooled", label == 1, sum(hits), len(hits)
            )
    for key in ("lang", "source"):
        slices: dict[tuple[str, int], list[bool]] = defaultdict(list)
        for p, s in zip(prompts, scores, strict=True):
            slices[(getattr(p, key), p.label)].append(s >= thresholds[sensitivity])
        for (value, label), hits in sorted(slices.items()):
            figures[f"{sensitivity} {key} {value} {label}"] = line(
                f"{sensitivity}: {key} {value}", label == 1, sum(hits), len(hits)
            )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sensitivity", default="medium", choices=SENSITIVITIES)
    parser.add_argument(
        "--team-only",
        action="store_true",
        help="the team's file alone: a candidate's rule can read it before dev",
    )
    args = parser.parse_args()
    model = injection.get_model()
    print(f"model {model.model_id}, thresholds {model.thresholds}")
    figures: dict[str, object] = {"model": model.model_id, "thresholds": model.thresholds}
    if not args.team_only:
        figures["dev"] = report("injection/dev.jsonl", read_split("dev"), args.sensitivity)
    figures["team_eval"] = report(
        "injection_eval.txt (team, held out)", read_team("injection_eval.txt"), args.sensitivity
    )
    OUT.mkdir(parents=True, exist_ok=True)
    suffix = "-team" if args.team_only else ""
    out = OUT / f"injection-dev-{model.model_id}{suffix}.json"
    out.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
