"""The evaluation case form, shared by adding a case and editing one: its fields (a name, an
input, the texts the reply contains, one a line, an expected status, cites a source), the
case they make, and what the form cannot show of a stored case, which an edit keeps."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData

from vigia.console.field_errors import FieldErrors, field_errors
from vigia.console.form_limits import Bounds, bounds
from vigia.console.form_values import FormValues
from vigia.console.responses import text
from vigia.eval_cases.models import EvalCase
from vigia.eval_cases.schemas import MAX_TERMS, MAX_TEXT, EvalCaseIn

FORM_ASSERTIONS = ("contains", "status", "cites")
"""The assertions the form edits; a case's other assertions are kept as they are."""
LIMITS = {
    "name": bounds(EvalCaseIn, "name"),
    "input": bounds(EvalCaseIn, "input"),
    "contains": Bounds(max_length=MAX_TERMS * (MAX_TEXT + 1)),
}


def _assertions(form: FormData) -> dict[str, object]:
    found: dict[str, object] = {}
    lines = [line.strip() for line in text(form, "contains").splitlines()]
    if any(lines):
        found["contains"] = [line for line in lines if line]
    if text(form, "status"):
        found["status"] = text(form, "status")
    if text(form, "cites") == "on":
        found["cites"] = True
    return found


def spec_from(form: FormData, kept: EvalCase | None = None) -> EvalCaseIn:
    """The case the form describes; editing ``kept``, its history and the assertions the
    form does not show stay as stored. Raises ``ValidationError``."""
    history: list[dict[str, str]] = list(kept.history) if kept is not None else []
    assertions = {**hidden_assertions(kept), **_assertions(form)}
    return EvalCaseIn.model_validate(
        {
            "name": text(form, "name"),
            "input": text(form, "input"),
            "history": history,
            "assertions": assertions,
        }
    )


def form_errors(error: ValidationError) -> FieldErrors:
    """Each problem under the form field it belongs to."""
    return field_errors(
        error,
        {("assertions", "contains"): "contains", ("assertions", "status"): "status"},
        {("assertions", ""): "invalid.assertions"},
    )


def values_of(case: EvalCase) -> FormValues:
    """The stored case as the form shows it."""
    assertions = case.assertions
    return FormValues(
        name=case.name,
        input=case.input,
        contains="\n".join(assertions.get("contains", [])),
        status=assertions.get("status") or "",
        cites="on" if assertions.get("cites") else "",
    )


def hidden_assertions(case: EvalCase | None) -> dict[str, Any]:
    """The stored assertions the form does not show (kept on save)."""
    if case is None:
        return {}
    return {k: v for k, v in case.assertions.items() if k not in FORM_ASSERTIONS}
