"""What the model reads: states as prose and facts, option, level and ask texts."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_SEPARATORS = re.compile(r"[_\-]+")
_CAMEL = re.compile(r"(?<=[a-záéíóúñç])(?=[A-Z])")
_QUESTION_MARKS = re.compile(r"[¿?¡!]+")
PROSE_WORDS = 4


@dataclass(frozen=True)
class StateText:
    """A state as the model reads it: its prose, and its other facts as ``key: value`` lines.

    A text state is all prose. In objects, string values of four words or more (e.g. the
    customer's message) are prose, in order; the rest are facts (keys humanised, nested keys
    joined). Strings inside arrays are prose whatever their length. Empty values (``""``,
    ``null``, ``[]``, ``{}``) say nothing and are left out.
    """

    prose: str
    facts: str

    @property
    def text(self) -> str:
        """Prose then facts, one text (what is counted and what examples are fitted on)."""
        return "\n".join(part for part in (self.prose, self.facts) if part)

    @property
    def meaningless(self) -> bool:
        """True when there is no letter or digit to read: ``{}``, ``[]``, ``""``, ``"?!"``."""
        return not any(ch.isalnum() for ch in self.text)


def read_state(state: object) -> StateText:
    """The prose and facts of a state (string, object or array)."""
    if isinstance(state, str):
        return StateText(state.strip(), "")
    prose: list[str] = []
    facts: list[str] = []
    _collect(state, prose, facts, "", in_array=False)
    return StateText("\n".join(prose), "\n".join(facts))


def render_state(state: object) -> str:
    """A state as one text: prose first, then facts (see ``StateText``)."""
    return read_state(state).text


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _collect(value: Any, prose: list[str], facts: list[str], prefix: str, in_array: bool) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if _empty(item) or (isinstance(item, str) and not item.strip()):
                continue
            label = f"{prefix}{humanise(str(key))}"
            _collect(item, prose, facts, label + " ", in_array=False)
    elif isinstance(value, list):
        for item in value:
            if not _empty(item):
                _collect(item, prose, facts, prefix, in_array=True)
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            return
        if (in_array and not prefix.strip()) or len(text.split()) >= PROSE_WORDS:
            prose.append(text)
        else:
            facts.append(f"{prefix.strip()}: {text}" if prefix.strip() else text)
    else:
        scalar = json.dumps(value, ensure_ascii=False)
        facts.append(f"{prefix.strip()}: {scalar}" if prefix.strip() else scalar)


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
