"""What the model reads: states rendered as text, option, level and ask texts."""

from __future__ import annotations

import json
import re
from typing import Any

_SEPARATORS = re.compile(r"[_\-]+")
_CAMEL = re.compile(r"(?<=[a-záéíóúñç])(?=[A-Z])")
_QUESTION_MARKS = re.compile(r"[¿?¡!]+")


def render_state(state: object) -> str:
    """A state as one text: strings as they are, objects as lines.

    In an object, prose values (four words or more, e.g. the customer's message) come first
    and alone; short values follow as ``key: value``. Key names and metadata ahead of the
    message diluted its embedding: ``canal: chat`` first turned a clear refund request into
    a "no" for "¿Pide un reembolso?".
    """
    if isinstance(state, str):
        return state.strip()
    lines: list[str] = []
    _render(state, lines, "")
    return "\n".join(lines)


def _render(value: Any, lines: list[str], prefix: str) -> None:
    if isinstance(value, dict):
        prose = [k for k, v in value.items() if isinstance(v, str) and len(v.split()) >= 4]
        for key in prose:
            lines.append(value[key].strip())
        for key, item in value.items():
            if key in prose:
                continue
            label = f"{prefix}{humanise(str(key))}"
            if isinstance(item, dict | list):
                _render(item, lines, label + " ")
            else:
                lines.append(f"{label}: {_scalar(item)}")
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict | list):
                _render(item, lines, prefix)
            else:
                lines.append(f"{prefix.strip() + ': ' if prefix.strip() else ''}{_scalar(item)}")
    else:
        lines.append(_scalar(value))


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    return json.dumps(value, ensure_ascii=False)


def humanise(key: str) -> str:
    """Identifier as words: ``book_flight`` → ``book flight``; ``tipoEnvio`` → ``tipo envio``."""
    spaced = _CAMEL.sub(" ", key)
    return " ".join(_SEPARATORS.sub(" ", spaced).split()).lower() or key


def option_text(key: str, description: str | None) -> str:
    """The text an option is scored by: its humanised name, then its description if any."""
    name = humanise(key)
    if description and description.strip():
        return f"{name}: {description.strip()}"
    return name


def statement(ask: str) -> str:
    """A question as the statement a ``yes`` would affirm: question marks dropped."""
    return " ".join(_QUESTION_MARKS.sub(" ", ask).split())


def level_text(ask: str, level: str) -> str:
    """The text a scale level is scored by: the ask's statement and the level."""
    return f"{statement(ask)}: {level.strip()}"
