"""Wire shapes of evaluation cases and runs, with a size limit on every field."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from vigia.kit.fields import Integer
from vigia.kit.turn_status import TurnStatus

MAX_TEXT = 500
MAX_MESSAGE = 20_000
MAX_TERMS = 20
MAX_HISTORY = 20

Env = Literal["draft", "production"]

# Python-only regex syntax: promptfoo evaluates the same pattern with JavaScript's RegExp,
# so a pattern must mean the same thing in both (docs/evals.md).
_PYTHON_ONLY = re.compile(r"\(\?P|\(\?#|\(\?>|\(\?[aiLmsux-]+[:)]|\\[AZzG]")
REGEX_FLAGS = re.ASCII
"""``\\w``, ``\\d`` and ``\\b`` are ASCII-only in JavaScript without the ``u`` flag."""

Text = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT)]


class DialogueMessage(BaseModel):
    """A message of the conversation that precedes the case's input."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant"]
    content: str = Field(min_length=1, max_length=MAX_MESSAGE)


class CaseAssertions(BaseModel):
    """What the reply must satisfy; every set assertion must hold for the case to pass."""

    model_config = ConfigDict(extra="forbid")

    contains: list[Text] = Field(
        default_factory=list, max_length=MAX_TERMS, description="Texts the reply contains."
    )
    not_contains: list[Text] = Field(
        default_factory=list, max_length=MAX_TERMS, description="Texts the reply lacks."
    )
    regex: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_TEXT,
        description="A pattern found in the reply (syntax common to Python and JavaScript).",
    )
    status: TurnStatus | None = None
    cites: bool = Field(
        default=False, strict=True, description="The reply cites at least one document."
    )
    cites_document: str | None = Field(
        default=None, min_length=1, max_length=255, description="A document cited by name or id."
    )
    max_chars: Integer | None = Field(default=None, ge=1, le=100_000)

    @field_validator("contains", "not_contains")
    @classmethod
    def _terms(cls, values: list[str]) -> list[str]:
        if any(not value.strip() for value in values):
            raise ValueError("a text to look for cannot be blank")
        return values

    @field_validator("regex")
    @classmethod
    def _portable(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if _PYTHON_ONLY.search(value):
            raise ValueError(
                "use syntax common to Python and JavaScript: no (?P…), inline flags, "
                "atomic groups or \\A \\Z anchors"
            )
        try:
            re.compile(value, REGEX_FLAGS)
        except re.error as error:
            raise ValueError(f"invalid regular expression: {error}") from None
        return value

    @model_validator(mode="after")
    def _something_to_check(self) -> CaseAssertions:
        if not self.model_dump(exclude_defaults=True):
            raise ValueError("a case needs at least one assertion")
        return self


class EvalCaseIn(BaseModel):
    """A new case, or the full replacement of one."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", max_length=120)
    input: str = Field(min_length=1, max_length=MAX_MESSAGE)
    history: list[DialogueMessage] = Field(default_factory=list, max_length=MAX_HISTORY)
    assertions: CaseAssertions


class EvalCaseOut(BaseModel):
    id: str
    agent_id: str
    name: str
    input: str
    history: list[DialogueMessage]
    assertions: CaseAssertions
    created_at: datetime
    updated_at: datetime


class EvalCaseListOut(BaseModel):
    cases: list[EvalCaseOut]


class EvalCaseDeletedOut(BaseModel):
    id: str
    deleted: bool


class EvalRunIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    env: Env = "draft"


class CaseResultOut(BaseModel):
    """One case as it ran: the reply, and each assertion it broke."""

    id: str
    name: str
    passed: bool
    reply: str
    status: TurnStatus
    failures: list[str]
    run_id: str | None


class EvalRunOut(BaseModel):
    agent: str
    env: Env
    version: int | None
    passed: int
    failed: int
    cases: list[CaseResultOut]
