"""Wire models of ``POST /v1/decide`` and its older twin ``POST /v1/systemone``.

Every field has a size limit; violations answer 422 in FastAPI's list shape.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from vigia.kit.fields import Flag, Number

MAX_ASK_CHARS = 2_000
MAX_STATE_CHARS = 32_000
MAX_QUESTIONS = 64
MAX_KEY_CHARS = 128
MIN_OPTIONS, MAX_OPTIONS = 2, 256
MAX_OPTION_CHARS = 2_000
MIN_LEVELS, MAX_LEVELS = 2, 10
MAX_LEVEL_CHARS = 200
MAX_EXAMPLES = 2_048
MAX_EXAMPLE_STATE_CHARS = 4_000
MAX_REQUEST_EXAMPLES = 2_048

State = str | dict[str, Any] | list[Any]
QuestionType = Literal["choice", "scale", "binary"]


def state_size(state: object) -> int:
    """Characters of a state as the model reads it (JSON for objects and arrays)."""
    if isinstance(state, str):
        return len(state)
    return len(json.dumps(state, ensure_ascii=False))


def _check_state(state: State, limit: int, blank: bool = False) -> State:
    """Size limit; a blank text is refused unless ``blank`` (``/v1/decide``'s request state,
    which abstains on it)."""
    if state_size(state) > limit:
        raise ValueError(f"state is longer than {limit} characters")
    if not blank and isinstance(state, str) and not state.strip():
        raise ValueError("state must not be empty")
    return state


def _check_key(key: str, what: str) -> None:
    if not key.strip():
        raise ValueError(f"{what} must not be empty")
    if len(key) > MAX_KEY_CHARS:
        raise ValueError(f"{what} '{key[:20]}…' is longer than {MAX_KEY_CHARS} characters")


def _check_question_keys(questions: Mapping[str, object]) -> None:
    """1 to ``MAX_QUESTIONS`` questions, each under a non-empty key of bounded size."""
    if not 1 <= len(questions) <= MAX_QUESTIONS:
        raise ValueError(f"between 1 and {MAX_QUESTIONS} questions")
    for key in questions:
        _check_key(key, "question key")


class Example(BaseModel):
    """A labelled state: what the right answer was (extension: none of the anchors has it)."""

    model_config = ConfigDict(extra="forbid")

    state: State
    answer: str | Flag

    @field_validator("state")
    @classmethod
    def _state_fits(cls, value: State) -> State:
        return _check_state(value, MAX_EXAMPLE_STATE_CHARS)


class Question(BaseModel):
    """One question about the state."""

    model_config = ConfigDict(extra="forbid")

    type: QuestionType
    ask: str = Field(min_length=1, max_length=MAX_ASK_CHARS)
    options: dict[str, str | None] | None = None
    levels: list[str] | None = None
    min_confidence: Number | None = Field(default=None, ge=0, le=1)
    examples: list[Example] | None = Field(default=None, max_length=MAX_EXAMPLES)

    @model_validator(mode="after")
    def _fits_its_type(self) -> Question:
        if not self.ask.strip():
            raise ValueError("ask must not be empty")
        if self.type == "choice":
            self._check_options()
        elif self.options is not None:
            raise ValueError("options are only for choice questions")
        if self.type == "scale":
            self._check_levels()
        elif self.levels is not None:
            raise ValueError("levels are only for scale questions")
        self._check_examples()
        return self

    def _check_options(self) -> None:
        if self.options is None:
            raise ValueError("choice questions need options")
        if not MIN_OPTIONS <= len(self.options) <= MAX_OPTIONS:
            raise ValueError(f"choice questions take {MIN_OPTIONS} to {MAX_OPTIONS} options")
        for key, description in self.options.items():
            _check_key(key, "option")
            if description is not None and len(description) > MAX_OPTION_CHARS:
                raise ValueError(
                    f"description of option '{key[:20]}' is longer than {MAX_OPTION_CHARS} "
                    "characters"
                )

    def _check_levels(self) -> None:
        if self.levels is None:
            raise ValueError("scale questions need levels")
        if not MIN_LEVELS <= len(self.levels) <= MAX_LEVELS:
            raise ValueError(f"scale questions take {MIN_LEVELS} to {MAX_LEVELS} levels")
        if len(set(self.levels)) != len(self.levels):
            raise ValueError("levels must be distinct")
        for level in self.levels:
            if not level.strip():
                raise ValueError("levels must not be empty")
            if len(level) > MAX_LEVEL_CHARS:
                raise ValueError(
                    f"level '{level[:20]}…' is longer than {MAX_LEVEL_CHARS} characters"
                )

    def _check_examples(self) -> None:
        for example in self.examples or []:
            if self.type == "binary":
                if not isinstance(example.answer, bool):
                    raise ValueError("examples of binary questions answer true or false")
                continue
            allowed = self.options if self.type == "choice" else self.levels
            if not isinstance(example.answer, str) or example.answer not in (allowed or ()):
                raise ValueError(
                    f"example answer {example.answer!r} is not one of the {self.type} "
                    "question's " + ("options" if self.type == "choice" else "levels")
                )


class DecideRequest(BaseModel):
    """Body of ``POST /v1/decide``."""

    model_config = ConfigDict(extra="forbid")

    state: State
    questions: dict[str, Question]
    min_confidence: Number | None = Field(default=None, ge=0, le=1)

    @field_validator("state")
    @classmethod
    def _state_fits(cls, value: State) -> State:
        return _check_state(value, MAX_STATE_CHARS, blank=True)

    @field_validator("questions")
    @classmethod
    def _question_count(cls, value: dict[str, Question]) -> dict[str, Question]:
        _check_question_keys(value)
        examples = sum(len(q.examples or ()) for q in value.values())
        if examples > MAX_REQUEST_EXAMPLES:
            raise ValueError(f"at most {MAX_REQUEST_EXAMPLES} examples per request")
        return value


class Answer(BaseModel):
    """The answer to one question."""

    type: QuestionType
    answer: str | bool
    value: float | None = None
    probabilities: dict[str, float] | None = None
    probability: float | None = None
    confidence: float
    abstain: bool


class Usage(BaseModel):
    tokens: int
    tokens_este_mes: int
    cuota_mensual: int


class DecideResponse(BaseModel):
    """Body answered by ``POST /v1/decide``."""

    model: str
    answers: dict[str, Answer]
    ms: float
    usage: Usage


# ---- /v1/systemone: the older twin (no abstention, ``criteria`` instead of options) ----


class SystemOneQuestion(BaseModel):
    """One systemone question: ``noul`` (yes/no), ``choice`` or ``score`` over ``criteria``."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["noul", "choice", "score"]
    instructions: State | None = None
    criteria: dict[str, str | None] | list[str] | None = None

    @field_validator("instructions")
    @classmethod
    def _instructions_fit(cls, value: State | None) -> State | None:
        if value is not None and state_size(value) > MAX_ASK_CHARS:
            raise ValueError(f"instructions are longer than {MAX_ASK_CHARS} characters")
        return value

    @model_validator(mode="after")
    def _fits_its_type(self) -> SystemOneQuestion:
        if self.type == "noul":
            if self.criteria is not None:
                raise ValueError("noul questions take no criteria")
            return self
        if self.criteria is None:
            raise ValueError(f"{self.type} questions need criteria")
        keys = list(self.criteria)
        low, high = (
            (MIN_OPTIONS, MAX_OPTIONS) if self.type == "choice" else (MIN_LEVELS, MAX_LEVELS)
        )
        if not low <= len(keys) <= high:
            raise ValueError(f"{self.type} questions take {low} to {high} criteria")
        if len(set(keys)) != len(keys):
            raise ValueError("criteria must be distinct")
        for key in keys:
            _check_key(key, "criterion")
        if isinstance(self.criteria, dict):
            for key, text in self.criteria.items():
                if text is not None and len(text) > MAX_OPTION_CHARS:
                    raise ValueError(f"criterion '{key[:20]}' is longer than {MAX_OPTION_CHARS}")
        return self


class SystemOneRequest(BaseModel):
    """Body of ``POST /v1/systemone``."""

    model_config = ConfigDict(extra="forbid")

    state: State
    questions: dict[str, SystemOneQuestion]

    @field_validator("state")
    @classmethod
    def _state_fits(cls, value: State) -> State:
        return _check_state(value, MAX_STATE_CHARS)

    @field_validator("questions")
    @classmethod
    def _question_count(cls, value: dict[str, SystemOneQuestion]) -> dict[str, SystemOneQuestion]:
        _check_question_keys(value)
        return value


class SystemOneAnswer(BaseModel):
    """``noul``: ``noul`` (bool) and ``probability``; ``choice``; ``score`` and ``legend``."""

    type: Literal["noul", "choice", "score"]
    noul: bool | None = None
    probability: float | None = None
    choice: str | None = None
    probabilities: dict[str, float] | None = None
    score: float | None = None
    legend: dict[str, float] | None = None


class SystemOneUsage(BaseModel):
    input_tokens: int


class SystemOneResponse(BaseModel):
    model: str
    answers: dict[str, SystemOneAnswer]
    ms: float
    usage: SystemOneUsage
