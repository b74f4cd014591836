"""The README's examples use files that exist in the repository, and they are valid input."""

from __future__ import annotations

import json
import re
from pathlib import Path

from vigia.decide.schemas import DecideRequest
from vigia.decide.spec_example import SPEC_QUESTIONS, SPEC_STATE
from vigia.knowledge.parsers import parse_document
from vigia.review.schemas import ReviewRequest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_file_the_readme_names_exists() -> None:
    named = set(re.findall(r"(?:examples|tests/worlds)/[\w./-]+", README))
    assert {"examples/poliza-hogar.md", "examples/decide.json"} <= named
    missing = sorted(n for n in named if not (ROOT / n.rstrip(".")).exists())
    assert missing == []


def test_the_example_requests_are_valid_for_their_surfaces() -> None:
    DecideRequest.model_validate(json.loads((ROOT / "examples/decide.json").read_text()))
    ReviewRequest.model_validate(json.loads((ROOT / "examples/review.json").read_text()))


def test_the_decide_example_is_the_spec_example_that_answers_without_abstaining() -> None:
    """The README promises an answer to both questions; the spec example's test
    (tests/decide/test_decide.py) checks that the model gives them."""
    example = json.loads((ROOT / "examples/decide.json").read_text())
    assert example["state"] == SPEC_STATE
    assert example["questions"] == {k: SPEC_QUESTIONS[k] for k in ("equipo", "reembolso")}


def test_the_example_documents_parse_with_headings() -> None:
    for name in ("poliza-hogar.md", "preguntas-frecuentes.html"):
        parsed = parse_document(name, (ROOT / "examples" / name).read_bytes())
        assert parsed.blocks and any(b.heading for b in parsed.blocks)
